"""Evidence inferred from an official task's checkpoints: a phrase is used only where the readings are sure.

The readings here are stand-ins that return fixed texts per checkpoint (told apart by colour), so each rule
is shown on its own: a phrase one reading misses counts as the other reads it, absent only when every
reading misses it; with one reading nothing is sure; the text a Type step typed is in its field; what is
used is counted in both of a page's channels (text and fields). The same rules on real checkpoints read by
Tesseract are in tests/judge/test_official_tasks.py.
"""

from __future__ import annotations

import json
from pathlib import Path

from PIL import Image

from iwrbench.judge.infer import infer_evidence
from iwrbench.tasks import load_suite

COLOURS = [(250, 250, 250), (240, 240, 250), (250, 240, 240), (240, 250, 240)]


class Reading:
    """A reading that returns ``texts[k]`` for checkpoint k (recognised by its colour)."""

    name = "stand-in"

    def __init__(self, texts: list[str]):
        self.texts = texts

    def read_text(self, img: Image.Image) -> str:
        return self.texts[COLOURS.index(img.getpixel((0, 0)))]


def _task(tmp_path: Path, actions: list[dict]):
    base = tmp_path / "data" / "t"
    (base / "checkpoints").mkdir(parents=True)
    for k in range(len(actions) + 1):
        img = Image.new("RGB", (64, 48), COLOURS[k])
        if k:  # a visible change at every step
            img.paste((20, 20, 20), (10 + 4 * k, 10, 30 + 4 * k, 30))
        img.save(base / "checkpoints" / f"step_{k}.png")
    (base / "video.mp4").write_bytes(b"x")
    line = {"id": "t", "recording_details": {"resolution": "64x48"}, "action_sequence": [
        {"visual_evaluation_flag": False, "checkpoint_screenshot": f"checkpoints/step_{i}.png", **a}
        for i, a in enumerate(actions, 1)]}
    (tmp_path / "data.jsonl").write_text(json.dumps(line) + "\n")
    return load_suite(tmp_path / "data.jsonl")[0]


SIDEBAR = [
    {"type": "Click", "parameters": {"description": "the 'Utilities' entry"},
     "logical_assertion": "The 'Components' sub-menu closes and 'Colors' is listed"},
]


def test_a_phrase_one_reading_missed_counts_as_the_other_read_it(tmp_path):
    task = _task(tmp_path, SIDEBAR)
    # the first reading misses the sidebar's 'Components' after the click: alone it would say "disappears"
    first = Reading(["Dashboard Components Buttons Cards", "Dashboard Colors"])
    second = Reading(["Dashboard Components Buttons", "Dashboard Components Colors"])
    ev, refusal = infer_evidence(task, first, [second])
    assert refusal is None
    texts = {t.text: t for t in ev[1].texts}
    assert (texts["Components"].kind, texts["Components"].before, texts["Components"].after) == ("visible", 1, 1)
    assert texts["Colors"].kind == "appears"
    assert all(t.channel == "any" and t.source == "ocr" for t in ev[1].texts)
    assert any("readings differ" in n for n in ev[1].notes)
    # one reading is not sure of anything: no phrase is used (the visual change still is)
    ev, refusal = infer_evidence(task, first, [])
    assert refusal is None and ev[1].texts == [] and ev[1].change is not None
    assert any("only one OCR reading" in n for n in ev[1].notes)


def test_absent_only_when_every_reading_misses_it(tmp_path):
    task = _task(tmp_path, SIDEBAR)
    both_miss = [Reading(["Components Buttons", "Colors"]), Reading(["Components", "Colors Borders"])]
    ev, _ = infer_evidence(task, both_miss[0], both_miss[1:])
    c = next(t for t in ev[1].texts if t.text == "Components")
    assert (c.kind, c.after) == ("disappears", 0)


def test_the_typed_text_is_in_its_field(tmp_path):
    task = _task(tmp_path, [
        {"type": "Type", "parameters": {"description": "the new-todo box", "text": "Buy milk"},
         "logical_assertion": "'Buy milk' appears in the text box"},
        {"type": "Press", "parameters": {"description": "press Enter", "key": "Enter"},
         "logical_assertion": "'Buy milk' appears in the list"},
    ])
    # light grey typed text: no reading finds it in the box; the list item is read after Enter
    r = [Reading(["todos", "todos", "todos Buy milk 1 item left"]), Reading(["todos", "todos", "Buy milk"])]
    ev, refusal = infer_evidence(task, r[0], r[1:])
    assert refusal is None
    typed = ev[1].texts[0]
    assert (typed.kind, typed.before, typed.after, typed.channel) == ("appears", 0, 1, "any")
    # after Enter the text moved from the box to the list: on screen before and after, in one channel or the other
    moved = ev[2].texts[0]
    assert (moved.kind, moved.before, moved.after) == ("visible", 1, 1)


def test_an_asserted_step_with_nothing_sure_is_refused(tmp_path):
    task = _task(tmp_path, SIDEBAR)
    for k in range(2):  # no visible change either
        Image.new("RGB", (64, 48), COLOURS[k]).save(task.checkpoint(k))
    ev, refusal = infer_evidence(task, Reading(["Components", "Colors"]), [])
    assert refusal and "step 1" in refusal and "iwr-bench" in refusal
