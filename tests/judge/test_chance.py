"""What chance decided in the recording (a die's roll) is asked only of a page that follows the recording's chance.

The source rolls a hundred-sided die with ``Math.random`` and keeps a running total. Recorded twice with two seeds, the rolls
and totals differ between the recordings: they are chance (``TextEvidence.chance``). A rebuild with chance of its
own (another formula) must not be failed for showing other numbers; a rebuild that draws as the source does shows
the recorded rolls, and is then held to them: one whose total stops adding the roll fails at that step."""

import pytest

from iwrbench.judge.replay import ChanceRecord
from iwrbench.records import EvidenceResult

from site_pages import judge_html, record_site

SOURCE = """<!doctype html><html><body style="font:20px sans-serif;padding:30px">
<button id=roll>Roll the die</button><p id=last>No roll yet</p><p id=total>Total 0</p>
<script>
let total = 0, rolls = 0;
document.getElementById('roll').onclick = () => {
  const x = 1 + Math.floor(Math.random() * 100);
  rolls++; total += %s;
  document.getElementById('last').textContent = 'Rolled ' + x;
  document.getElementById('total').textContent = 'Total ' + total;
};
</script></body></html>"""

RECIPE = """id: dice
source: {site: ./site}
viewport: {width: 640, height: 400}
actions:
""" + "".join("  - {type: Click, target: '#roll', description: the 'Roll the die' button, visual: true}\n"
              for _ in range(4))


def _page(add: str = "x", draw: str = "1 + Math.floor(Math.random() * 100)") -> str:
    return SOURCE.replace("1 + Math.floor(Math.random() * 100)", draw) % add


@pytest.fixture(scope="module")
def task(tmp_path_factory):
    t = record_site(tmp_path_factory.mktemp("dice"), _page(), RECIPE)
    chance = [e for a in t.action_sequence for e in a.evidence.texts if e.chance]
    assert len(chance) >= 6, [a.evidence.texts for a in t.action_sequence]  # the rolls and totals are chance
    return t


@pytest.mark.browser
async def test_source_and_a_page_with_chance_of_its_own_pass(browser, task, tmp_path):
    r = await judge_html(browser, task, _page(), tmp_path / "copy")
    assert r.steps_passed == 4, [(s.index, s.error) for s in r.steps]
    r = await judge_html(browser, task, _page(draw="100 - Math.floor(Math.random() * 100)"), tmp_path / "own")
    assert r.steps_passed == 4, [(s.index, s.error) for s in r.steps]
    assert any(e.chance and not e.passed for s in r.steps for e in s.evidence)  # other rolls, not asked


@pytest.mark.browser
async def test_a_page_that_follows_the_recorded_chance_is_held_to_it(browser, task, tmp_path):
    # the same draws, but the third roll is not added to the total
    r = await judge_html(browser, task, _page(add="(rolls === 3 ? 0 : x)"), tmp_path)
    assert r.steps_passed == 2, [(s.index, s.error) for s in r.steps]
    bad = [e for e in r.steps[2].evidence if e.required and not e.passed]
    assert bad and all(e.chance for e in bad)


def _r(passed: bool) -> EvidenceResult:
    return EvidenceResult(kind="appears", passed=passed, text="x", chance=True, required=False)


def test_chance_is_asked_only_after_a_record_of_following_it():
    c = ChanceRecord()
    first = [_r(True), _r(False)]  # part of it on the first step: the page's chance is its own
    c.judge(first)
    assert c.own and not any(r.required for r in first)
    later = [_r(True), _r(False)]
    c.judge(later)
    assert not any(r.required for r in later)

    c = ChanceRecord()
    for _ in range(2):
        c.judge([_r(True), _r(True)])  # two steps, four outcomes, all as recorded
    assert c.follows
    nothing = [_r(False), _r(False)]  # none of it: its chance went its own way here, nothing more is asked
    c.judge(nothing)
    assert not any(r.required for r in nothing) and c.own

    c = ChanceRecord()
    for _ in range(2):
        c.judge([_r(True), _r(True)])
    part = [_r(True), _r(False)]
    c.judge(part)
    assert all(r.required for r in part)  # part of what chance decided, not all of it: the step fails
