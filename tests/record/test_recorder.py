"""The recorder on real pages: complete task folders, honest errors, nothing half-written."""

import json
import re
from pathlib import Path

import pytest

from iwrbench.errors import RecordError
from iwrbench.record.recipe import load_recipe
from iwrbench.checks.evidence import decisive
from iwrbench.record.recorder import record
from iwrbench.record.video import probe
from iwrbench.tasks import load_task

pytestmark = pytest.mark.browser


def test_smoke_tasks_are_complete(smoke_tasks):
    for tid, d in smoke_tasks.items():
        task = load_task(d)
        n = len(task.action_sequence)
        cps = sorted((d / "checkpoints").glob("step_*.png"))
        assert len(cps) == n + 1
        frames, dur, size = probe(d / "video.mp4")
        assert size == task.viewport and frames > 10
        rec = json.loads((d / "reference" / "record.json").read_text())
        # the video lasts as long as the interaction (holds included), at a constant rate
        assert abs(dur - task.recording_details.duration_s) < 0.3
        assert dur >= n * 0.7 and dur < rec["seconds"] + 5
        # assets: anonymised names, originals only in reference/
        names = [p.name for p in (d / "assets").iterdir()]
        assert names and all(re.fullmatch(r"asset\d{3}\.\w+", x) for x in names)
        manifest = json.loads((d / "reference" / "assets.json").read_text())
        assert {m["file"] for m in manifest} == set(names)
        assert all(m["urls"] for m in manifest)
        assert task.stitched_assets
        task_json = (d / "task.json").read_text()
        for m in manifest:
            for u in m["urls"]:
                assert u not in task_json  # no original URL leaks into what a model may see
        # targets and checks
        for a in task.action_sequence:
            if a.type in ("Click", "Type", "Select", "Hover"):
                assert a.target and a.target.tag and a.target.bbox
            if a.logical_assertion:
                assert decisive(a, a.evidence), f"{tid}: asserted action {a.description!r} has no evidence"


def _site(tmp_path: Path, body: str) -> Path:
    site = tmp_path / "site"
    site.mkdir()
    (site / "index.html").write_text(f"<!doctype html><html><body>{body}</body></html>")
    return site


def _recipe(tmp_path: Path, actions: str, source: str = "site: ./site") -> Path:
    p = tmp_path / "r.yaml"
    p.write_text(f"id: t\nsource: {{{source}}}\nviewport: {{width: 640, height: 400}}\nactions:\n{actions}")
    return p


def test_selector_matching_nothing_names_the_step(tmp_path):
    _site(tmp_path, "<button id=a onclick=\"this.textContent='done'\">go</button>")
    r = load_recipe(_recipe(tmp_path, "  - {type: Click, target: '#a', description: the go button}\n"
                                      "  - {type: Click, target: '#missing', description: nothing}\n"))
    with pytest.raises(RecordError, match=r"step 2: selector '#missing' matches nothing"):
        record(r, tmp_path / "out")
    assert not (tmp_path / "out").exists()
    assert not [p for p in tmp_path.iterdir() if p.name.startswith(".out")]  # no temp left behind


def test_unreachable_url(tmp_path):
    r = load_recipe(_recipe(tmp_path, "  - {type: Press, key: a, description: a key}\n",
                            source="url: 'http://127.0.0.1:9/nothing.html'"))
    with pytest.raises(RecordError, match=r"cannot open http://127\.0\.0\.1:9/nothing\.html"):
        record(r, tmp_path / "out")
    assert not (tmp_path / "out").exists()


def test_page_that_never_settles_is_recorded_with_the_step_and_the_cause(tmp_path):
    # an endless animation (a counter every 20 ms) is what some real pages do: recorded, and said so
    _site(tmp_path, """<button id=a onclick="setInterval(() => document.getElementById('c').textContent = performance.now(), 20)">start</button>
                       <span id=c></span>""")
    r = load_recipe(_recipe(tmp_path, "  - {type: Click, target: '#a', description: the start button}\n"))
    task = record(r, tmp_path / "out", passes=1)
    warnings = json.loads((task.dir / "reference" / "record.json").read_text())["warnings"]
    assert any(w.startswith("step 1: the page never stopped changing") and "span#c" in w for w in warnings), warnings
    assert not any(w.startswith("step 0:") for w in warnings)


def test_evidence_derived_from_what_a_person_sees(tmp_path):
    _site(tmp_path, """
      <label for=q>Name</label><input id=q>
      <button id=add onclick="const li=document.createElement('li'); li.textContent=document.getElementById('q').value; document.getElementById('l').append(li); document.getElementById('n').textContent=document.querySelectorAll('#l li').length + ' items'">Add</button>
      <ul id=l></ul><p id=n>0 items</p>
      <button aria-expanded=false id=t onclick="this.setAttribute('aria-expanded', this.getAttribute('aria-expanded') !== 'true')">More</button>
      <p id=r></p><script>document.getElementById('r').textContent = 'lucky ' + Math.floor(Math.random() * 1e6)</script>
      <button id=s onclick="document.getElementById('r').textContent = 'drawn ' + Math.floor(Math.random() * 1e6)">Draw</button>""")
    r = load_recipe(_recipe(tmp_path, """\
  - {type: Type, target: '#q', text: Milk, description: the Name box}
  - {type: Click, target: '#add', description: the Add button, assert: "'Milk' is listed"}
  - {type: Click, target: '#t', description: the More button, assert: More is expanded, checks: [{kind: state, state: expanded, value: true}]}
  - {type: Click, target: '#s', description: the Draw button}
"""))
    task = record(r, tmp_path / "out")
    a1, a2, a3, a4 = task.action_sequence
    assert a1.target.role == "textbox" and a1.target.name == "Name"
    texts = {(t.kind, t.text, t.source) for t in a2.evidence.texts}
    assert ("appears", "Milk", "assertion") in texts and ("appears", "1 items", "derived") in texts
    assert ("disappears", "0 items", "derived") in texts
    # DOM facts are information, never evidence; an author's check is kept as written
    assert any(c.kind == "count" and c.value == 1 for c in a2.info) and not a2.checks
    assert any(c.kind == "value_equals" and c.value == "Milk" for c in a1.info)
    assert [c.kind for c in a3.checks] == ["state"]
    # a text that depends on chance (the seed) is kept only as chance evidence: pass 2 drew another number
    drawn = [t for t in a4.evidence.texts if "drawn" in t.text]
    assert drawn and all(t.chance for t in drawn)
    assert not any(t.chance for a in (a1, a2, a3) for t in a.evidence.texts)
    assert any("drawn" in n and n.startswith("chance:") for n in a4.evidence.notes)
    # the automatic probe types other text and asks for its echo
    assert task.probes and task.probes[0].replace["Milk"] != "Milk"
    echo = task.probes[0].replace["Milk"]
    assert any(t.text == echo and t.source == "echo" for a in task.probes[0].actions for t in (a.evidence.texts if a.evidence else []))
    assert (tmp_path / "out" / "targets" / "step_2.png").is_file()


def test_asserted_step_without_evidence_is_refused(tmp_path):
    _site(tmp_path, "<button id=b onclick=\"this.dataset.n = 1\">Nothing visible</button>")
    r = load_recipe(_recipe(tmp_path, "  - {type: Click, target: '#b', description: the button, assert: It is recorded}\n"))
    with pytest.raises(RecordError, match=r"step 1: the assertion .* has no evidence"):
        record(r, tmp_path / "out", passes=1)


def test_blocked_requests_and_url_sources_are_warned_about(tmp_path):
    from iwrbench.browser.server import StaticServer

    site = _site(tmp_path, "<img src='http://127.0.0.1:9/logo.png' alt=''><button id=a onclick=\"this.textContent='done'\">go</button>")
    lines: list[str] = []
    with StaticServer({"/": site}) as srv:
        r = load_recipe(_recipe(tmp_path, "  - {type: Click, target: '#a', description: the go button, assert: \"It reads 'done'\"}\n",
                                source=f"url: '{srv.url('index.html')}'"))
        record(r, tmp_path / "out", progress=lines.append, passes=1)
    warnings = [x for x in lines if x.startswith("warning: ")]
    assert any("blocked 1 request(s) to 127.0.0.1:9" in w for w in warnings), lines
    assert any("the source is a `url:`" in w for w in warnings), lines
    rec = json.loads((tmp_path / "out" / "reference" / "record.json").read_text())
    assert any("127.0.0.1:9" in w for w in rec["warnings"])


HOVER_SITE = """<style>
body{font:16px sans-serif;margin:20px;background:#fafafa;color:#222}
.card{display:inline-block;width:150px;height:100px;margin:8px;background:#cde;border-radius:8px;text-align:center;line-height:100px}
.card:hover{background:#f90}
</style>
<h1>Hover gallery</h1>
<div class="card" id="c1">Alpha</div><div class="card" id="c2">Beta</div><div class="card" id="c3">Gamma</div>
<div class="card" id="c4">Delta</div><button id="b" onclick="out.textContent='Clicked!'">Click me</button><p id="out">Not yet</p>
"""


def test_the_video_shows_no_zoom_on_a_target(tmp_path):
    """The recorder keeps a crop of each target for the judge. Taken as an element screenshot, Chromium drew the
    clip as an emulated full-size view and the screencast sent that frame: the video showed the hovered card
    filling the screen. Every screencast frame must be the viewport, and look like a screen the recorder saw."""
    import asyncio
    import io

    import numpy as np
    from PIL import Image
    from playwright.async_api import async_playwright

    from iwrbench.browser.core import launch_browser
    from iwrbench.record import recorder
    from iwrbench.sources import resolve_source

    _site(tmp_path, HOVER_SITE)
    hovers = "".join(f"  - {{type: Hover, target: '#c{k}', description: the card {k}}}\n" for k in (1, 2, 3, 4))
    recipe = load_recipe(_recipe(tmp_path, hovers + "  - {type: Click, target: '#b', description: the button, "
                                             "assert: \"'Clicked!' is shown\"}\n"))

    async def run():
        tmp = tmp_path / "pass"
        (tmp / "checkpoints").mkdir(parents=True)
        async with async_playwright() as pw:
            browser = await launch_browser(pw)
            try:
                return await recorder._run_pass(browser, recipe, resolve_source(recipe), recipe.actions, full=True,
                                                tmp=tmp, progress=None, seed=recipe.seed)
            finally:
                await browser.close()

    res = asyncio.run(run())
    assert len(list((tmp_path / "pass" / "targets").glob("step_*.png"))) == 5  # every target still has its crop
    seen = [np.asarray(Image.open(io.BytesIO(b)).convert("L"), dtype=np.int16) for b in [*res.shots, *res.pre.values()]]
    for t, data in res.frames:
        frame = Image.open(io.BytesIO(data))
        assert frame.size == (640, 400), f"a frame {t - res.t0:.2f}s in is {frame.size}, not the viewport"
        a = np.asarray(frame.convert("L"), dtype=np.int16)
        # the closest screen the recorder saw (hover states in between: a card's colour, the pointer)
        off = min(float((np.abs(a - s) > 40).mean()) for s in seen)
        assert off < 0.1, f"the frame {t - res.t0:.2f}s in looks like no screen of the page ({off:.0%} differs)"


def test_a_derived_probe_that_does_not_hold_on_the_source_is_dropped_not_the_task(tmp_path):
    # the recorder guesses that a key the recipe never presses (F9 ...) changes nothing; on this page every other key
    # shows a note, so its idle-key probe cannot hold: that probe is not kept, and the task is recorded
    _site(tmp_path, """<p id=n>Count 0</p><p id=k></p><script>let n = 0; addEventListener('keydown', e => {
        if (e.key === 'ArrowRight') document.getElementById('n').textContent = 'Count ' + (++n);
        else document.getElementById('k').textContent = 'Key ' + e.key + ' does nothing here'; })</script>""")
    r = load_recipe(_recipe(tmp_path, "  - {type: Press, key: ArrowRight, description: press the right arrow, "
                                      "assert: \"The count reads 'Count 1'\"}\n"))
    task = record(r, tmp_path / "out", passes=2)
    log = json.loads((task.dir / "reference" / "record.json").read_text())["derived_probes"]
    idle = [x for x in log if x.startswith("derived-idle-key")]
    assert idle and all("not kept" in x and "marked 'unchanged'" in x for x in idle), log
    assert not any(p.name.startswith("derived-idle-key") for p in task.probes)


def test_a_press_goes_where_the_focus_is_as_in_the_judge_and_an_unfocused_target_is_warned_about(tmp_path):
    # the recipe means the slider, but the focus is on the button clicked before: the key goes to the button (the
    # judge, which grounds no element for a key, does the same), and iwr record says so instead of focusing the slider
    _site(tmp_path, """<button id=b onclick="document.getElementById('o').textContent='Amount 50'">50</button>
        <input id=s type=range min=0 max=100 value=50 oninput="document.getElementById('o').textContent='Amount '+this.value">
        <p id=o>Amount 0</p>""")
    r = load_recipe(_recipe(tmp_path, "  - {type: Click, target: '#b', description: the 50 button, assert: \"'Amount 50'\"}\n"
                                      "  - {type: Press, key: ArrowRight, target: '#s', description: the right arrow on the slider}\n"))
    task = record(r, tmp_path / "out", passes=1)
    warnings = json.loads((task.dir / "reference" / "record.json").read_text())["warnings"]
    assert any(w.startswith("step 2: the Press's target '#s' did not have the focus") for w in warnings), warnings
    # the slider did not move: nothing new is shown after step 2
    assert not any(t.kind == "appears" for t in (task.action_sequence[1].evidence.texts if task.action_sequence[1].evidence else []))


def test_derived_probes_defeat_a_replay_by_kind_of_event_too(tmp_path):
    # flash cards turned with the right arrow: a page that shows the next recorded card on the recorded key (and
    # ignores other keys) passes the visit without its first step, the unused key and a key pressed twice (the last
    # card stays); the key undone by its opposite (right, then left: the first card again) tells it from the app
    _site(tmp_path, """<h1>Spanish basics</h1><p id=c>Card 1 of 4</p><p id=w>el gato</p><script>
        const W = ['el gato', 'la casa', 'el perro', 'la mesa']; let i = 0;
        addEventListener('keydown', e => {
          if (e.key === 'ArrowRight') i = Math.min(3, i + 1); else if (e.key === 'ArrowLeft') i = Math.max(0, i - 1);
          else return;
          document.getElementById('c').textContent = 'Card ' + (i + 1) + ' of 4';
          document.getElementById('w').textContent = W[i]; })</script>""")
    r = load_recipe(_recipe(tmp_path, "  - {type: Press, key: ArrowRight, description: press the right arrow, "
                                      "assert: \"'Card 2 of 4' and 'la casa'\"}\n"
                                      "  - {type: Press, key: ArrowRight, description: press the right arrow again, "
                                      "assert: \"'Card 3 of 4' and 'el perro'\"}\n"
                                      "  - {type: Press, key: ArrowRight, description: press the right arrow once more, "
                                      "assert: \"'Card 4 of 4' and 'la mesa'\"}\n"))
    task = record(r, tmp_path / "out", passes=2)
    rec = json.loads((task.dir / "reference" / "record.json").read_text())
    names = [p.name for p in task.probes]
    assert "derived-undo-key-1" in names, rec["derived_probes"]
    undo = next(p for p in task.probes if p.name == "derived-undo-key-1")
    assert [(a.type, a.parameters.key) for a in undo.actions] == [("Press", "ArrowRight"), ("Press", "ArrowLeft")]
    asked = {t.text for t in undo.actions[-1].evidence.texts}
    assert asked & {"Card 1 of 4", "el gato"}, undo.actions[-1].evidence
    # the unused key fails only a replay in order; the undone key guards the steps after the one it undoes against
    # both shapes; the first card, shown on the recorded key, no key probe can guard against a replay by kind, and
    # iwr record says so
    assert any(line.startswith("derived-idle-key-1") and "fails a replay in order" in line and "by kind" not in line
               for line in rec["derived_probes"]), rec["derived_probes"]
    assert "probe derived-undo-key-1 (derived, 2 step(s)) guards main steps 2-3" in rec["probes"], rec["probes"]
    assert any(w.startswith("main step(s) 1 guarded by no probe") and "(1 against a replay by kind of event" in w
               for w in rec["warnings"]), rec["warnings"]  # which replay earns it, named


def test_a_hover_on_a_look_alike_neighbour_guards_the_first_step(tmp_path):
    # price pins on an SVG map: hovering one shows its home in a card; the list below names every home. The visit
    # without its first step asks, at its first step, what main step 2 asks, so it guards from step 2 on (a page
    # that stopped at step 2 fails it for the same fault). Hovering another pin first, named as step 1 names its
    # pin with the price swapped, guards step 1 too.
    homes = [("€415k", "Northgate Market apartment"), ("€745k", "Detached house on Fenwick Avenue"),
             ("€329k", "Harbour-view flat with balcony")]
    pins = "".join(f'<g class="pin" transform="translate({80 + 150 * i},60)" data-i="{i}"><rect x="-30" y="-14" '
                   f'width="60" height="24" rx="12" fill="#234"></rect><text x="0" y="3" fill="#fff" '
                   f'text-anchor="middle" font-size="13">{p}</text></g>' for i, (p, _) in enumerate(homes))
    rows = "".join(f"<li>{t}</li>" for _, t in homes)
    _site(tmp_path, f"""<svg width="520" height="120">{pins}</svg><div id=card>Hover a pin</div><ul>{rows}</ul>
        <script>const T = {[t for _, t in homes]!r};
        document.querySelectorAll('.pin').forEach(g => g.addEventListener('mouseenter', () => {{
          document.getElementById('card').textContent = T[+g.dataset.i]; }}));</script>""")
    r = load_recipe(_recipe(tmp_path, "  - {type: Hover, target: \".pin[data-i='0']\", description: \"the '€415k' price pin\", "
                                      "assert: \"The card shows 'Northgate Market apartment'\"}\n"
                                      "  - {type: Hover, target: \".pin[data-i='1']\", description: \"the '€745k' price pin\", "
                                      "assert: \"The card shows 'Detached house on Fenwick Avenue'\"}\n"))
    task = record(r, tmp_path / "out", passes=2)
    rec = json.loads((task.dir / "reference" / "record.json").read_text())
    near = next((p for p in task.probes if p.name == "derived-neighbour-1"), None)
    assert near is not None, rec["derived_probes"]
    assert near.actions[0].type == "Hover" and near.actions[0].description in ("the '€745k' price pin", "the '€329k' price pin")
    assert any(line.startswith("every main step") for line in rec["probes"]), rec["probes"]
    # the visit without its first step, kept first, guards nothing the neighbour does not: dropped again
    assert [p.name for p in task.probes if p.kind == "derived"] == ["derived-neighbour-1"], rec["derived_probes"]


def test_look_alike_neighbours_are_named_by_their_own_text_or_by_their_surroundings(tmp_path):
    # decks with a 'Study' button each (the same text: named by the deck's title, a heading with a badge), and tags
    # (each its own text); a disabled button, a hidden tag and a tag shown twice on the page are no neighbours
    import asyncio

    from playwright.async_api import async_playwright

    from iwrbench.browser.core import launch_browser
    from iwrbench.record import recorder
    from iwrbench.sources import resolve_source

    decks = "".join(f'<li class=deck><h2>{t} <span class=due>{n} due</span></h2><button class="primary"'
                    f'{" disabled" if n == 0 else ""}>{"Study" if n else "All caught up"}</button></li>'
                    for t, n in (("At the café", 4), ("Getting around", 3), ("Numbers", 0), ("Around the house", 2)))
    tags = ('<p><a class=tag href=#h>harvest</a> <a class=tag href=#o>onions</a> <a class=tag href=#p hidden>peas</a> '
            '<a class=tag href=#b>beans</a></p><p>beans</p>')
    _site(tmp_path, f"<ul>{decks}</ul>{tags}<p id=o>-</p><script>document.querySelectorAll('button,a').forEach(b => "
                    "b.addEventListener('click', () => document.getElementById('o').textContent = b.textContent))</script>")
    recipe = load_recipe(_recipe(tmp_path, "  - {type: Click, target: 'li.deck:first-child button', "
                                           "description: \"the green 'Study' button on the 'At the café' deck\"}\n"
                                           "  - {type: Click, target: 'a.tag >> nth=0', description: \"the 'harvest' tag\"}\n"))

    async def run():
        tmp = tmp_path / "pass"
        (tmp / "checkpoints").mkdir(parents=True)
        async with async_playwright() as pw:
            browser = await launch_browser(pw)
            try:
                return await recorder._run_pass(browser, recipe, resolve_source(recipe), recipe.actions, full=True,
                                                tmp=tmp, progress=None, seed=recipe.seed)
            finally:
                await browser.close()

    res = asyncio.run(run())
    study, tag = res.steps[0].neighbours, res.steps[1].neighbours
    assert [(old, new) for _, old, new in study] == [("At the café", "Getting around"), ("At the café", "Around the house")]
    assert [(old, new) for _, old, new in tag] == [("harvest", "onions")]
    assert all(sel.startswith("html > body") for sel, _, _ in study + tag)
