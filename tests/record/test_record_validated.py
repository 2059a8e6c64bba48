"""`iwr record` proves what it wrote: every action type recorded, replayed on its source by the judge,
and its click/key cues caught by frames sampled as a model gets them."""

from __future__ import annotations

import io
import json
import subprocess
import sys
import warnings
from pathlib import Path

import numpy as np
import pytest
from PIL import Image

from iwrbench.errors import IwrError, RecipeError
from iwrbench.generate.frames import sample_frames, task_anchors
from iwrbench.record.recipe import load_recipe
from iwrbench.record.video import CUE_RGB
from iwrbench.tasks import load_task
from iwrbench.validate.make import record_task

SITE = """<!doctype html><html><head><style>
body{font:16px sans-serif;margin:20px;background:#fafafa;color:#222}
button,select,input{font:inherit;margin:4px}
#tip{visibility:hidden}#h:hover+#tip{visibility:visible}
.spacer{height:900px}
</style></head><body>
<h1>Every action</h1>
<input id="name" placeholder="Your name"> <button id="greet" onclick="out.textContent='Hello, '+document.getElementById('name').value">Greet</button>
<p id="out">Nobody greeted yet</p>
<select id="size" onchange="sz.textContent='Size: '+this.value"><option>Small</option><option>Large</option></select>
<p id="sz">Size: Small</p>
<span id="h">Hover me</span><span id="tip"> Tip shown</span>
<p id="keys">No key yet</p>
<div class="spacer"></div><p>Bottom of the page</p>
<div id="foot" style="position:fixed;bottom:6px;left:0;right:0;text-align:center">Help &middot; Terms of use &middot; Contact us</div>
<script>
document.addEventListener('keydown', e => { if (e.key === 'k') keys.textContent = 'Key K pressed'; });
</script>
</body></html>"""

RECIPE = """id: every-action
source: {site: ./site}
viewport: {width: 800, height: 500}
actions:
  - {type: Type, target: '#name', text: Ada, description: the name box}
  - {type: Click, target: '#greet', description: the Greet button, assert: "'Hello, Ada' is shown"}
  - {type: Select, target: '#size', value: Large, description: the size menu, assert: "'Size: Large' is shown"}
  - {type: Hover, target: '#h', description: the 'Hover me' text, assert: "'Tip shown' appears"}
  - {type: Press, key: k, description: the K key, assert: "'Key K pressed' is shown"}
  - {type: Scroll, direction: down, amount: 0.8, description: scroll down, assert: "'Bottom of the page' is visible"}
"""


def _write(tmp_path: Path, site: str = SITE, recipe: str = RECIPE) -> Path:
    (tmp_path / "site").mkdir()
    (tmp_path / "site" / "index.html").write_text(site)
    p = tmp_path / "recipe.yaml"
    p.write_text(recipe)
    return p


def _cue_pixels(img: Image.Image, box: tuple[int, int, int, int] | None = None) -> int:
    a = np.asarray(img.convert("RGB"), dtype=np.int16)
    if box:
        x0, y0, x1, y1 = (max(0, int(v)) for v in box)
        a = a[y0:y1, x0:x1]
    d = np.abs(a - np.array(CUE_RGB, dtype=np.int16)).max(axis=2)
    return int((d < 60).sum())


@pytest.mark.browser
def test_every_action_type_recorded_validated_and_cued(tmp_path):
    recipe = _write(tmp_path)
    out = tmp_path / "task"
    done = record_task(recipe, out)
    assert done.validated and done.oracle_ifs == 100
    task = load_task(out)
    assert [a.type for a in task.action_sequence] == ["Type", "Click", "Select", "Hover", "Press", "Scroll"]
    assert not list(tmp_path.glob(".task.*")), "no staging folder left behind"
    # every action knows when it shows in the video, in order
    times = [a.video_time_s for a in task.action_sequence]
    assert all(t is not None for t in times) and times == sorted(times), times
    ck = [np.asarray(Image.open(out / f"checkpoints/step_{i}.png").convert("RGB"), dtype=np.int16) for i in range(7)]
    # frames as a model gets them at 1 fps (plain, then capped with the anchors: room for the first frame and
    # one per action): a cue on each Click, Type, Select and Press; the effect of each Hover and Scroll
    for max_frames, anchors in ((64, None), (7, task_anchors(task))):
        frames = sample_frames(task.video_path, 1.0, max_frames, fmt="png", anchors=anchors)
        assert len(frames) <= max_frames
        imgs = [(f.t, Image.open(io.BytesIO(f.data)).convert("RGB")) for f in frames]
        for i, a in enumerate(task.action_sequence, 1):
            if a.type in ("Hover", "Scroll"):  # no cue: a frame that shows the page as after the step, not before
                seen = [t for t, im in imgs if _closer_to_after(np.asarray(im, dtype=np.int16), ck[i - 1], ck[i])]
            elif a.type == "Press":
                seen = [t for t, im in imgs if _cue_pixels(im) >= 150]
            else:  # a ring around the point acted on
                b = a.target.bbox
                cx, cy = b.x + b.width / 2, b.y + b.height / 2
                seen = [t for t, im in imgs if _cue_pixels(im, (cx - 40, cy - 40, cx + 40, cy + 40)) >= 40]
            assert seen, f"max_frames={max_frames}: no sampled frame shows step {i} ({a.type})"
    # the key badge is drawn where the page has no text: not over the footer centred at the bottom
    press = next(a for a in task.action_sequence if a.type == "Press")
    shot = next(f for f in sample_frames(task.video_path, 10.0, 1000, fmt="png") if f.t >= press.video_time_s + 0.4)
    frame = np.asarray(Image.open(io.BytesIO(shot.data)).convert("RGB"), dtype=np.int16)
    ys, xs = np.nonzero(np.abs(frame - np.array(CUE_RGB)).max(axis=2) < 60)
    assert len(xs) >= 150, "the frame after the key press shows no badge"
    x0, x1, y0, y1 = xs.min(), xs.max() + 1, ys.min(), ys.max() + 1
    under = ck[4][y0:y1, x0:x1]  # the page just before the key, without any overlay
    assert (under.max(axis=2) < 140).sum() == 0, f"the key badge at x {x0}-{x1}, y {y0}-{y1} hides page text"
    rec = json.loads((out / "reference" / "record.json").read_text())
    assert rec["frames"] > 10


def _closer_to_after(frame: np.ndarray, before: np.ndarray, after: np.ndarray) -> bool:
    """Where the checkpoints before and after a step differ, the frame looks like the one after."""
    mask = np.abs(after - before).max(axis=2) > 40
    if mask.sum() < 20:
        return False
    return float(np.abs(frame - after)[mask].mean()) < float(np.abs(frame - before)[mask].mean())


@pytest.mark.browser
def test_task_failing_its_own_oracle_is_not_written(tmp_path):
    # the first screen is painted from crypto randomness (not seeded): the oracle's checkpoint 0 cannot match
    site = SITE.replace("<h1>Every action</h1>", '<div id="noise" style="width:420px;height:260px"></div>').replace(
        "<script>", "<script>const c=new Uint8Array(3);crypto.getRandomValues(c);"
                    "noise.style.background=`rgb(${c[0]},${c[1]},${c[2]})`;")
    # (its second step quotes a text the source never shows: recorded, with a warning)
    recipe = _write(tmp_path, site, RECIPE.split("  - {type: Select")[0].replace("'Hello, Ada'", "'Hello, Bob'"))
    out = tmp_path / "task"
    # the command line: one line, exit 2, nothing written; --no-validate keeps it, saying so
    cli = [sys.executable, "-m", "iwrbench.cli", "record", str(recipe), "--out", str(out)]
    r = subprocess.run(cli, capture_output=True, text=True, timeout=300)
    msg = r.stderr.strip()
    assert r.returncode == 2 and "\n" not in msg, r.stderr
    assert "fails its own oracle replay" in msg and "checkpoint 0" in msg and "nothing was written" in msg
    assert not out.exists() and not list(tmp_path.glob(".task.*"))
    r = subprocess.run(cli + ["--no-validate"], capture_output=True, text=True, timeout=300)
    assert r.returncode == 0, r.stderr
    assert "not validated" in r.stdout and (out / "task.json").is_file()
    assert "warning: step 2: the assertion" in r.stdout and "'Hello, Bob'" in r.stdout, r.stdout
    assert "1 asserted (0 hand-written check(s))" in r.stdout and "warning(s), printed above and kept in" in r.stdout


@pytest.mark.browser
def test_python_record_returns_the_validated_task_and_warns(tmp_path, capsys):
    import iwrbench

    # a webfont from another origin: blocked while recording, and said
    site = SITE.replace("<style>", '<link rel="stylesheet" href="https://fonts.example.net/css?family=Nice"><style>')
    recipe = _write(tmp_path, site, RECIPE.split("  - {type: Select")[0]
                    + "  - {type: Press, key: k, description: press the K key, assert: \"'Key K pressed' is shown\"}\n")
    capsys.readouterr()
    with pytest.warns(iwrbench.RecordingWarning, match=r"blocked 1 request\(s\) to fonts.example.net"):
        task = iwrbench.record(recipe, out=tmp_path / "task")
    assert task.id == "every-action" and [a.type for a in task.action_sequence] == ["Type", "Click", "Press"]
    assert (tmp_path / "task" / "task.json").is_file() and task.video_path.is_file()
    # by default it says what it does, as `iwr record` does (on stderr); a step is not named by its type twice
    err = capsys.readouterr().err
    assert "recording every-action (3 action(s))" in err and "step 1/3: Type into the name box" in err
    assert "step 3/3: Press the K key" in err and "ress press" not in err
    assert "validating: replaying the task on its source" in err and "oracle replay IFS 100" in err
    assert "blocked 1 request" not in err  # said once, as the RecordingWarning
    with pytest.raises(IwrError, match="exists and is not empty"):
        iwrbench.record(recipe, out=tmp_path / "task")
    # a callable (event, info), as iwrbench.evaluate's: the events instead of lines, the warnings among them
    events: list[tuple[str, dict]] = []
    with warnings.catch_warnings():
        warnings.simplefilter("error", iwrbench.RecordingWarning)
        iwrbench.record(recipe, out=tmp_path / "task", force=True, validate=False,
                        progress=lambda event, info: events.append((event, info)))
    assert capsys.readouterr().err == ""
    kinds = [k for k, _ in events]
    assert kinds[0] == "start" and kinds[-1] == "done" and kinds.count("step") >= 3
    assert any(k == "warning" and "blocked 1 request(s) to fonts.example.net" in i["message"] for k, i in events)
    assert events[-1][1]["validated"] is False and events[-1][1]["actions"] == 3
    # a one-argument callable still gets the lines (iwrbench 0.3)
    lines: list[str] = []
    iwrbench.record(recipe, out=tmp_path / "task", force=True, validate=False, progress=lines.append)
    assert any(x.startswith("warning: blocked 1 request(s) to fonts.example.net") for x in lines), lines


def test_state_check_on_an_action_without_element_is_refused(tmp_path):
    p = tmp_path / "r.yaml"
    p.write_text("id: t\nsource: {site: ./site}\nactions:\n"
                 "  - {type: Press, key: Enter, description: the Enter key, "
                 "checks: [{kind: state, state: expanded, value: true}]}\n")
    (tmp_path / "site").mkdir()
    with pytest.raises(RecipeError) as e:
        load_recipe(p)
    assert "Press acts on no element" in str(e.value) and "name" in str(e.value)
    # with the element named, the same check is fine
    p.write_text(p.read_text().replace("value: true}", "value: true, role: button, name: More}"))
    assert load_recipe(p).actions[0].checks


@pytest.mark.browser
def test_a_page_that_prints_todays_date_passes_its_own_oracle(tmp_path):
    # the recorder starts the page's clock where the judge does when the recipe names no time: the date a
    # person saw on the recording is the date the judge's page shows
    site = """<!doctype html><html><body><p id="today"></p><button id="add">Add entry</button><ul id="list"></ul>
    <script>today.textContent = 'Today is ' + new Date().toDateString();
    add.onclick = () => { const li = document.createElement('li');
      li.textContent = 'Entry for ' + new Date().toDateString(); list.appendChild(li); };</script></body></html>"""
    recipe = """id: date-diary
source: {site: ./site}
viewport: {width: 640, height: 400}
actions:
  - {type: Click, target: '#add', description: the Add entry button, visual: true, assert: "an entry for today is added"}
"""
    done = record_task(_write(tmp_path, site, recipe), tmp_path / "task")
    assert done.validated and done.oracle_ifs == 100
    texts = [t.text for t in load_task(tmp_path / "task").action_sequence[0].evidence.texts]
    assert any("Thu Jan 01 2026" in t for t in texts), texts  # the judge's start date, not the machine's
