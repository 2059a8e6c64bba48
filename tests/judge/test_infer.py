"""Evidence inferred from an official task's checkpoints: a phrase is used only where the readings are sure.

Each checkpoint is a picture with texts drawn on it at known places. The readings here are stand-ins that
report, per checkpoint, some of those texts with their boxes (as Tesseract reports words), so that each rule
is shown on its own: a phrase one reading misses counts as the other reads it; it is absent only when every
reading misses it and the place it stood at is empty; with one reading nothing is sure; a lone digit is never
sure; the text a Type step typed is in its field; what is used is counted in both of a page's channels. The
same rules on real checkpoints read by Tesseract are judged end to end in tests/judge/test_official_tasks.py.
"""

from __future__ import annotations

import json
from pathlib import Path

from PIL import Image, ImageDraw

from iwrbench.judge.infer import infer_evidence
from iwrbench.metrics._ocr import OcrReading, OcrWord
from iwrbench.tasks import load_suite

SIZE = (480, 160)
COLOURS = [(250, 250, 250), (246, 246, 252), (252, 246, 246), (246, 252, 246)]

# where each text is drawn (x, y): one line each
AT = {"Dashboard": (10, 10), "Components": (10, 40), "Buttons": (30, 70), "Cards": (30, 100), "Colors": (200, 40),
      "Borders": (200, 70), "Lights out 5x5": (300, 10), "10 lights on": (300, 40), "2 moves": (300, 70),
      "todos": (10, 10), "Buy milk": (10, 60), "1 item left": (10, 100)}


def _words(text: str) -> list[OcrWord]:
    d = ImageDraw.Draw(Image.new("RGB", (1, 1)))
    x, y = AT[text]
    out = []
    for n, w in enumerate(text.split()):
        x0, y0, x1, y1 = d.textbbox((x, y), w)
        out.append(OcrWord(w, 90.0, x0, y0, x1 - x0, y1 - y0, n))
        x = x1 + d.textlength(" ")
    return out


class Reading:
    """A stand-in reading: on checkpoint k it reports the texts ``seen[k]`` (drawn or not) with their boxes."""

    name = "stand-in"

    def __init__(self, seen: list[list[str]]):
        self.seen = seen

    def read(self, img: Image.Image) -> OcrReading:
        texts = self.seen[COLOURS.index(img.getpixel((SIZE[0] - 1, SIZE[1] - 1)))]
        return OcrReading("\n".join(texts), tuple(w for t in texts for w in _words(t)))

    def read_text(self, img: Image.Image) -> str:
        return self.read(img).text


def _task(tmp_path: Path, actions: list[dict], drawn: list[list[str]]):
    """An official-layout task whose checkpoint k shows the texts ``drawn[k]``."""
    base = tmp_path / "data" / "t"
    (base / "checkpoints").mkdir(parents=True)
    for k, texts in enumerate(drawn):
        img = Image.new("RGB", SIZE, COLOURS[k])
        d = ImageDraw.Draw(img)
        for t in texts:
            d.text(AT[t], t, fill=(40, 40, 40))
        img.save(base / "checkpoints" / f"step_{k}.png")
    (base / "video.mp4").write_bytes(b"x")
    line = {"id": "t", "recording_details": {"resolution": f"{SIZE[0]}x{SIZE[1]}"}, "action_sequence": [
        {"visual_evaluation_flag": False, "checkpoint_screenshot": f"checkpoints/step_{i}.png", **a}
        for i, a in enumerate(actions, 1)]}
    (tmp_path / "data.jsonl").write_text(json.dumps(line) + "\n")
    return load_suite(tmp_path / "data.jsonl")[0]


SIDEBAR = [{"type": "Click", "parameters": {"description": "the 'Utilities' entry"},
            "logical_assertion": "The 'Components' sub-menu closes and 'Colors' is listed"}]
SIDEBAR_DRAWN = [["Dashboard", "Components", "Buttons", "Cards"], ["Dashboard", "Components", "Colors", "Borders"]]


def test_a_phrase_one_reading_missed_counts_as_the_other_read_it(tmp_path):
    task = _task(tmp_path, SIDEBAR, SIDEBAR_DRAWN)
    # the first reading misses the sidebar's 'Components' after the click: alone it would say "disappears"
    first = Reading([["Dashboard", "Components", "Buttons", "Cards"], ["Dashboard", "Colors"]])
    second = Reading([["Dashboard", "Components", "Buttons"], ["Dashboard", "Components", "Colors"]])
    ev, refusal = infer_evidence(task, first, [second])
    assert refusal is None
    texts = {t.text: t for t in ev[1].texts}
    assert (texts["Components"].kind, texts["Components"].before, texts["Components"].after) == ("visible", 1, 1)
    assert texts["Colors"].kind == "appears"  # where it stands nothing was drawn before
    assert all(t.channel == "any" and t.source == "ocr" for t in ev[1].texts)
    assert any("readings differ" in n for n in ev[1].notes)
    # one reading is not sure of anything: no phrase is used (the visual change still is)
    ev, refusal = infer_evidence(task, first, [])
    assert refusal is None and ev[1].texts == [] and ev[1].change is not None
    assert any("only one OCR reading" in n for n in ev[1].notes)


def test_absent_only_where_every_reading_misses_it_and_its_place_is_empty(tmp_path):
    both_miss = [Reading([["Components", "Buttons"], ["Colors"]]), Reading([["Components"], ["Colors", "Borders"]])]
    # still drawn where it stood after the click: both readings missed it, the picture did not
    task = _task(tmp_path / "kept", SIDEBAR, SIDEBAR_DRAWN)
    ev, _ = infer_evidence(task, both_miss[0], both_miss[1:])
    assert "Components" not in [t.text for t in ev[1].texts]
    assert any("'Components' not used" in n and "still drawn" in n for n in ev[1].notes)
    # covered by something drawn over its place (a menu that opened): it disappeared from sight
    task = _task(tmp_path / "covered", SIDEBAR, SIDEBAR_DRAWN)
    img = Image.open(task.checkpoint(1)).convert("RGB")
    ImageDraw.Draw(img).rectangle((0, 30, 120, 60), fill=(60, 60, 140))
    img.save(task.checkpoint(1))
    ev, _ = infer_evidence(task, both_miss[0], both_miss[1:])
    assert next(t for t in ev[1].texts if t.text == "Components").kind == "disappears"
    # gone from the picture too: it disappeared
    task = _task(tmp_path / "gone", SIDEBAR, [SIDEBAR_DRAWN[0], ["Dashboard", "Colors", "Borders"]])
    ev, _ = infer_evidence(task, both_miss[0], both_miss[1:])
    c = next(t for t in ev[1].texts if t.text == "Components")
    assert (c.kind, c.after) == ("disappears", 0)


def test_a_lone_digit_is_never_sure(tmp_path):
    task = _task(tmp_path, [{"type": "Click", "parameters": {"description": "the light in row 2, column 4 of the grid"},
                             "logical_assertion": "The counters show 2 moves and '5' lights on"}],
                 [["Lights out 5x5", "10 lights on"], ["2 moves"]])
    # both readings find a '5' in the heading's "5x5" before and none after
    r = [Reading([["Lights out 5x5", "10 lights on"], ["2 moves"]])] * 2
    ev, refusal = infer_evidence(task, r[0], r[1:])
    assert refusal is None and ev[1].texts == [] and ev[1].change is not None
    assert any("too short" in n for n in ev[1].notes)


def test_the_typed_text_is_in_its_field(tmp_path):
    task = _task(tmp_path, [
        {"type": "Type", "parameters": {"description": "the new-todo box", "text": "Buy milk"},
         "logical_assertion": "'Buy milk' appears in the text box"},
        {"type": "Press", "parameters": {"description": "press Enter", "key": "Enter"},
         "logical_assertion": "'Buy milk' appears in the list"},
    ], [["todos"], ["todos", "Buy milk"], ["todos", "Buy milk", "1 item left"]])
    # light grey typed text: no reading finds it in the box; the list item is read after Enter
    r = [Reading([["todos"], ["todos"], ["todos", "Buy milk", "1 item left"]]), Reading([["todos"], ["todos"], ["Buy milk"]])]
    ev, refusal = infer_evidence(task, r[0], r[1:])
    assert refusal is None
    typed = ev[1].texts[0]
    assert (typed.kind, typed.before, typed.after, typed.channel) == ("appears", 0, 1, "any")
    # after Enter the text moved from the box to the list: on screen before and after, in one channel or the other
    moved = ev[2].texts[0]
    assert (moved.kind, moved.before, moved.after) == ("visible", 1, 1)


def test_an_asserted_step_with_nothing_sure_is_refused(tmp_path):
    task = _task(tmp_path, SIDEBAR, [["Components"], ["Components"]])  # no visible change either
    ev, refusal = infer_evidence(task, Reading([["Components"], ["Colors"]]), [])
    assert refusal and "step 1" in refusal and "iwr-bench" in refusal
