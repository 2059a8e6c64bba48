"""Probes of a recipe's own: the same visit in another order (``skip``), and actions that must change
nothing (``unchanged``). A page that walks through the recorded states in order, whatever is clicked,
passes the main trajectory and fails them; a faithful page with other markup passes them; a faithful
page with a real fault is not punished twice (a probe failing where the main trajectory failed caps
nothing).

A small colour-picker site is written here, recorded with the real recorder and judged in a real
browser."""

from pathlib import Path

import pytest

from iwrbench.browser.host import PageBundle
from iwrbench.errors import RecordError
from iwrbench.judge.score import JudgeComponents, judge_unit
from iwrbench.protocols import get_protocol
from iwrbench.record.recipe import load_recipe
from iwrbench.record.recorder import record
from iwrbench.tasks import load_task

pytestmark = pytest.mark.browser

STYLE = """<style>body{font:18px sans-serif;margin:40px} .b{display:inline-block;padding:10px 18px;margin:6px;
border:1px solid #888;border-radius:6px;cursor:pointer;background:#eee} #out{margin-top:30px;font-size:32px}
.swatch{width:300px;height:120px;margin-top:20px;border:1px solid #444}</style>"""

SOURCE = STYLE + """<h1>Colour picker</h1>
<button class="b" id="red">Red</button><button class="b" id="blue">Blue</button>
<button class="b" id="green">Green</button>
<div id="out">Colour: none</div><div class="swatch" id="sw"></div>
<script>
for (const c of ['red', 'blue', 'green']) document.getElementById(c).onclick = () => {
  document.getElementById('out').textContent = 'Colour: ' + c[0].toUpperCase() + c.slice(1);
  document.getElementById('sw').style.background = c;
};
</script>"""

# the same behaviour, other markup: divs with handlers, other ids, no buttons
OTHER_MARKUP = STYLE + """<h1>Colour picker</h1>
<div class="b" data-c="Red">Red</div><div class="b" data-c="Blue">Blue</div><div class="b" data-c="Green">Green</div>
<p id="out">Colour: none</p><div class="swatch" id="sw"></div>
<script>
document.querySelectorAll('[data-c]').forEach(d => d.addEventListener('click', () => {
  document.getElementById('out').textContent = 'Colour: ' + d.dataset.c;
  document.getElementById('sw').style.background = d.dataset.c.toLowerCase();
}));
</script>"""

# replays the recorded states in order: any of the buttons shows the next state
IN_ORDER = STYLE + """<h1>Colour picker</h1>
<button class="b">Red</button><button class="b">Blue</button><button class="b">Green</button>
<div id="out">Colour: none</div><div class="swatch" id="sw"></div>
<script>
const states = ['Red', 'Blue', 'Green']; let k = 0;
document.querySelectorAll('button').forEach(b => b.onclick = () => {
  const c = states[Math.min(k++, 2)];
  document.getElementById('out').textContent = 'Colour: ' + c;
  document.getElementById('sw').style.background = c.toLowerCase();
});
</script>"""

# the source with a real fault: Green does nothing
GREEN_BROKEN = SOURCE.replace("['red', 'blue', 'green']", "['red', 'blue']")

# the source, and any key also picks the next colour (a page that advances on any input)
ANY_KEY = SOURCE.replace("</script>", """let n = 0;
addEventListener('keydown', () => { const c = ['red', 'blue', 'green'][n++ % 3];
  document.getElementById('out').textContent = 'Colour: ' + c[0].toUpperCase() + c.slice(1);
  document.getElementById('sw').style.background = c; });
</script>""")

# the recipe's own probes only (the recorder's derived ones are tested in tests/record): the test is about the judge
RECIPE = """id: colour-picker
source: {site: site}
viewport: {width: 800, height: 500}
auto_probe: false
actions:
  - {type: Click, target: "#red", description: "the 'Red' button", assert: "The text reads 'Colour: Red'"}
  - {type: Click, target: "#blue", description: "the 'Blue' button", assert: "The text reads 'Colour: Blue'"}
  - {type: Click, target: "#green", description: "the 'Green' button", assert: "The text reads 'Colour: Green'"}
probes:
  - {name: blue-first, skip: [1]}
  - name: unused-key
    guards: 1
    actions:
      - {type: Press, key: x, description: "press the X key, which the page does not use", unchanged: true}
      - {type: Click, target: "#green", description: "the 'Green' button", assert: "The text reads 'Colour: Green'", mirrors: 3}
"""


def _site(root: Path, html: str) -> Path:
    root.mkdir(parents=True)
    (root / "index.html").write_text("<!doctype html><html><head><meta charset=utf-8></head><body>"
                                     + html + "</body></html>")
    return root


def _recipe(root: Path, text: str) -> Path:
    _site(root / "site", SOURCE)
    p = root / "recipe.yaml"
    p.write_text(text)
    return p


@pytest.fixture(scope="module")
def task(tmp_path_factory):
    root = tmp_path_factory.mktemp("colour")
    t = record(load_recipe(_recipe(root, RECIPE)), root / "task", passes=1)  # one recording: the test is about the judge
    assert [p.name for p in t.probes] == ["blue-first", "unused-key"]
    return load_task(root / "task")


async def _judge(browser, task, html: str, tmp_path: Path):
    proto = get_protocol("offline")
    page = _site(tmp_path / "page", html)
    return await judge_unit(browser, task, PageBundle(root=page), tmp_path / "shots", proto,
                            JudgeComponents.for_protocol(proto))


def test_recorded_probes_carry_mirrors_and_still_evidence(task):
    skip, key = task.probes
    assert skip.kind == "recipe" and skip.guards == 1 and skip.step_mirrors == [2, 3]
    assert [a.logical_assertion for a in skip.actions] == [a.logical_assertion for a in task.action_sequence[1:]]
    assert key.step_mirrors == [None, 3]
    assert key.actions[0].evidence.still and not key.actions[0].evidence.texts


async def test_source_passes_its_probes(browser, task, tmp_path):
    r = await _judge(browser, task, SOURCE, tmp_path)
    assert r.ifs == 100 and all(p.passed and p.cap is None for p in r.probes), r.probes


async def test_other_markup_passes_its_probes(browser, task, tmp_path):
    r = await _judge(browser, task, OTHER_MARKUP, tmp_path)
    assert r.ifs == 100 and all(p.passed for p in r.probes), [(p.name, p.steps_passed) for p in r.probes]


async def test_states_in_order_pass_the_main_trajectory_and_fail_the_probe(browser, task, tmp_path):
    r = await _judge(browser, task, IN_ORDER, tmp_path)
    assert r.steps_passed_main == 3
    skip = next(p for p in r.probes if p.name == "blue-first")
    assert not skip.passed and skip.steps_passed == 0 and skip.cap == 0
    assert "Colour: Blue" in (skip.steps[0].error or "")
    assert r.steps_passed == 0 and r.ifs == 0


async def test_page_that_changes_on_any_key_fails_the_unchanged_step(browser, task, tmp_path):
    r = await _judge(browser, task, ANY_KEY, tmp_path)
    assert r.steps_passed_main == 3
    key = next(p for p in r.probes if p.name == "unused-key")
    assert not key.passed and key.steps_passed == 0 and key.cap == 0
    assert key.steps[0].evidence and key.steps[0].evidence[0].kind == "still" and not key.steps[0].evidence[0].passed
    assert r.ifs == 0


async def test_a_fault_the_main_trajectory_shows_is_not_punished_again(browser, task, tmp_path):
    r = await _judge(browser, task, GREEN_BROKEN, tmp_path)
    assert r.steps_passed_main == 2
    for p in r.probes:  # both probes stop at the Green step, which mirrors main step 3
        assert not p.passed and p.cap is None and "main step 3" in (p.note or ""), p
    assert r.steps_passed == 2


def test_unchanged_step_that_changes_on_the_source_is_refused(tmp_path):
    bad = RECIPE.replace('{type: Press, key: x, description: "press the X key, which the page does not use", unchanged: true}',
                         '{type: Click, target: "#red", description: "the Red button", unchanged: true}')
    with pytest.raises(RecordError, match=r"probe unused-key, step 1: marked 'unchanged'"):
        record(load_recipe(_recipe(tmp_path, bad)), tmp_path / "task", passes=1)
    assert not (tmp_path / "task").exists()


def test_skip_probe_whose_assertion_fails_on_the_source_is_refused(tmp_path):
    # without the Blue click, the Green step still works; but a probe skipping Green asks nothing of it and
    # a probe asserting Blue after skipping it has no evidence
    bad = RECIPE.replace("{name: blue-first, skip: [1]}", "{name: no-blue, skip: [2], guards: 1}").replace(
        "assert: \"The text reads 'Colour: Green'\"}", "assert: \"The text reads 'Colour: Blue'\"}", 1)
    with pytest.raises(RecordError, match=r"probe no-blue, step 2: the assertion"):
        record(load_recipe(_recipe(tmp_path, bad)), tmp_path / "task", passes=1)
