"""Evidence for steps that carry none (tasks of the official layout), inferred from their checkpoints.

A recorded task knows what each step changed on the source's screen (``Action.evidence``). The
official data has only the checkpoints (``step_<i>.png``) and a sentence. What can be read off two
checkpoints is (a) where the screen changed between them and (b) how many times each phrase the
assertion quotes is on each of them. (b) comes from OCR, and OCR misses text (white words on a blue
side bar, small capitals, light grey): a phrase read on the checkpoint before a step and missed on
the one after looks as if it disappeared, and a judge that trusts it fails the very source of the
task (SB Admin 2's sidebar 'Components' "disappeared" that way). So a phrase is used only where the
reading is sure:

- a phrase is looked for in what a reading saw by the rules the judge reads a page with (words with
  their boxes grouped into lines and paragraphs, ``checks/view.py``), so nothing is asked of a page
  that the judge could not read on the source itself (a phrase broken over two centred lines);
- every checkpoint is read by more than one reading (:data:`READINGS`: Tesseract as the visual
  metrics read it, and Tesseract again in another page-segmentation mode at twice the size): OCR
  rarely reads a whole phrase that is not there, it often misses one that is, so a phrase counts as
  shown as many times as the reading that saw it most, and as absent only when every reading missed it;
- a phrase read on one checkpoint and by no reading on the other is believed gone (or new) only where
  the other checkpoint does not show the same glyphs at its spot: nothing, other words, a menu drawn
  over it. A struck-through 'Buy milk' in light grey, missed by both readings after it was ticked, is
  still drawn where it was (the two spots correlate at 0.87);
- a lone digit or letter ("'5' lights on") is never sure: OCR finds it in "5×5", in an icon, in
  another number, and misses it in a counter;
- a Type step knows what its field shows right after it: the typed text (a second reading, for
  the phrase the step typed, on the checkpoint after it);
- the phrase is then classified as on a recorded task (appears, disappears, stays visible). It is
  judged on a page in both of the page's channels (rendered text and what fields show, ``channel
  "any"``): a checkpoint is a picture, and the text typed into a box is drawn there like any other.
  With a single reading (the second engine unavailable) no phrase is sure: none is used.

The visual change between the two checkpoints is used as on recorded tasks. A step that asserts
something and is left with neither a sure phrase nor a visible change cannot be judged: the task is
refused (``task_error``) and the refusal names the step.
"""

from __future__ import annotations

from typing import Any

import numpy as np
from PIL import Image

from ..checks.evidence import change_of, decisive, empty_change
from ..checks.view import Frag, View, _Stream, contains_phrase, norm_text, quoted_phrases, tokens
from ..errors import TaskError
from ..records import Evidence, Task, TextEvidence

#: the spot of a phrase on two checkpoints shows the same glyphs when the two correlate at least this well
#: (measured on the checkpoints of official-style tasks: the same todo struck through in light grey 0.87; a
#: message, a move or a label appearing where other text or nothing was -0.11 to 0.36)
SAME_GLYPHS = 0.6
#: the readings of a checkpoint besides the run's own OCR engine: (name, Tesseract settings)
READINGS: tuple[tuple[str, dict[str, Any]], ...] = (("tesseract-psm11-x2", {"psm": 11, "scale": 2.0}),)


def extra_readers() -> list[Any]:
    """The OCR engines of :data:`READINGS` that are usable here (each cached in memory)."""
    from ..errors import ComponentMissing
    from ..metrics import get_ocr

    out = []
    for _name, settings in READINGS:
        try:
            out.append(get_ocr("tesseract", **settings))
        except ComponentMissing:
            continue
    return out


def as_view(reading: Any, size: tuple[int, int]) -> View | _Stream:
    """What a reading saw, as the judge reads a page: its words with their boxes become a
    :class:`~iwrbench.checks.view.View` (so a phrase is found along lines and paragraphs by the same rules
    as on a page: a phrase broken over two centred lines is no more read here than there); a reading
    without boxes is one stream of words."""
    words = getattr(reading, "words", ()) or ()
    if not words:
        return _Stream(tokens(getattr(reading, "text", reading) or ""))
    # a word's box is as tall as its letters, a page's text fragment as its line box: each word takes its
    # OCR line's extent, grown by a quarter above and below (the leading), and the font size of that line
    lines: dict[int, tuple[float, float]] = {}
    for w in words:
        top, bottom = lines.get(w.line, (float(w.y), float(w.y + w.h)))
        lines[w.line] = (min(top, float(w.y)), max(bottom, float(w.y + w.h)))
    frags = []
    for w in words:
        if not w.text.strip():
            continue
        top, bottom = lines[w.line]
        h = max(1.0, bottom - top)
        frags.append(Frag(t=w.text, x=float(w.x), y=top - 0.25 * h, w=float(w.w), h=1.5 * h, fs=max(6.0, 1.3 * h)))
    return View(size=size, frags=frags)


def _count(seen: View | _Stream, phrase: str) -> int:
    if isinstance(seen, View):
        return seen.count(phrase)
    return seen.count("".join(tokens(phrase)))


class _Checkpoints:
    """What each reading saw on each checkpoint (read once)."""

    def __init__(self, task: Task, readers: list[Any]):
        self.task, self.readers = task, readers
        self._seen: dict[int, list[View | _Stream] | None] = {}
        self._grey: dict[int, np.ndarray] = {}

    def seen(self, k: int) -> list[View | _Stream] | None:
        if k not in self._seen:
            p = self.task.checkpoint(k)
            if not self.readers or not p.is_file():
                self._seen[k] = None
            else:
                try:
                    with Image.open(p) as im:
                        rgb = im.convert("RGB")
                except (OSError, ValueError) as e:
                    raise TaskError(f"{p}: unreadable checkpoint ({e.__class__.__name__})") from None
                out = []
                for r in self.readers:
                    read = getattr(r, "read", None)
                    out.append(as_view(read(rgb) if callable(read) else r.read_text(rgb), rgb.size))
                self._seen[k] = out
        return self._seen[k]

    def count(self, k: int, phrase: str) -> tuple[int, list[int]] | None:
        """(the count of the reading that saw ``phrase`` most, each reading's count) on checkpoint ``k``."""
        seen = self.seen(k)
        if seen is None:
            return None
        each = [_count(s, phrase) for s in seen]
        return max(each), each

    def boxes(self, k: int, phrase: str) -> list[tuple[float, float, float, float]]:
        """Where the readings saw ``phrase`` on checkpoint ``k`` (x0, y0, x1, y1; one box per place)."""
        want = set(tokens(phrase))
        out: list[tuple[float, float, float, float]] = []
        for v in self.seen(k) or []:
            if not isinstance(v, View):
                continue
            for ln in v.lines():
                if not contains_phrase(ln.text, phrase):
                    continue
                fr = [f for f in ln.frags if set(tokens(f.t)) & want] or ln.frags
                b = (min(f.x for f in fr), min(f.y for f in fr), max(f.x + f.w for f in fr), max(f.y + f.h for f in fr))
                if not any(_overlaps(b, o) for o in out):
                    out.append(b)
        return out

    def _region(self, k: int, box: tuple[float, float, float, float]) -> np.ndarray:
        if k not in self._grey:
            with Image.open(self.task.checkpoint(k)) as im:
                self._grey[k] = np.asarray(im.convert("L"), dtype=np.int16)
        x0, y0, x1, y1 = (max(0, int(box[0])), max(0, int(box[1])), int(box[2]) + 1, int(box[3]) + 1)
        return self._grey[k][y0:y1, x0:x1]

    def still_there(self, seen_on: int, other: int, box: tuple[float, float, float, float]) -> bool:
        """Checkpoint ``other`` shows the same glyphs where a phrase stands on checkpoint ``seen_on``, perhaps
        restyled (struck through, another colour): the two spots correlate (normalised, greyscale) at least
        SAME_GLYPHS. An empty spot, other words there or a menu drawn over it do not."""
        a, b = self._region(seen_on, box).astype(np.float64), self._region(other, box).astype(np.float64)
        if a.size == 0 or a.shape != b.shape:
            return True  # cannot tell: not sure it left
        a, b = a - a.mean(), b - b.mean()
        d = float(np.sqrt((a * a).sum() * (b * b).sum()))
        return d > 0 and float((a * b).sum()) / d >= SAME_GLYPHS


def _overlaps(a: tuple[float, float, float, float], b: tuple[float, float, float, float]) -> bool:
    w = min(a[2], b[2]) - max(a[0], b[0])
    h = min(a[3], b[3]) - max(a[1], b[1])
    return w > 0 and h > 0 and w * h >= 0.5 * min((a[2] - a[0]) * (a[3] - a[1]), (b[2] - b[0]) * (b[3] - b[1]))


def _typed_on(task: Task, k: int) -> set[str]:
    """What checkpoint ``k`` shows in a field for sure: the text step ``k`` typed (if it typed)."""
    if k < 1:
        return set()
    a = task.action_sequence[k - 1]
    if a.type == "Type" and a.parameters.text and tokens(a.parameters.text):
        return {norm_text(a.parameters.text)}
    return set()


def infer_evidence(task: Task, ocr: Any, extra: list[Any] | None = None) -> tuple[dict[int, Evidence], str | None]:
    """Evidence for the steps of ``task`` that carry none, from its checkpoints.

    ``ocr``: the run's OCR engine; ``extra``: the other readings (:func:`extra_readers`). Returns
    (evidence by step, a refusal naming the first asserted step left with nothing to judge it by)."""
    readers = [r for r in [ocr, *(extra or [])] if r is not None]
    cps = _Checkpoints(task, readers)
    sure = len(readers) >= 2
    out: dict[int, Evidence] = {}
    for i, a in enumerate(task.action_sequence, start=1):
        if a.evidence is not None:
            continue
        ev = Evidence()
        cp0, cp1 = task.checkpoint(i - 1), task.checkpoint(i)
        if cp0.is_file() and cp1.is_file():
            try:
                ch = change_of(str(cp0), str(cp1))
            except (OSError, ValueError) as e:
                raise TaskError(f"{cp1}: unreadable checkpoint ({e.__class__.__name__})") from None
            if not empty_change(ch):
                ev.change = ch
        if a.logical_assertion:
            typed_before, typed_after = _typed_on(task, i - 1), _typed_on(task, i)
            for q in quoted_phrases(a.logical_assertion):
                if not sure:
                    ev.notes.append(f"quoted {q!r} not used: only one OCR reading of the checkpoints")
                    continue
                toks = tokens(q)
                if len(toks) == 1 and len(toks[0]) <= 2:
                    # a lone digit or letter ('5', 'X') is read off any other word or glyph: never sure
                    ev.notes.append(f"quoted {q!r} not used: too short to be read surely")
                    continue
                b, af = cps.count(i - 1, q), cps.count(i, q)
                if b is None or af is None:
                    ev.notes.append(f"quoted {q!r} not used: a checkpoint is missing")
                    continue
                (nb, b_each), (na, a_each) = b, af
                # a field shows the text its step typed, whatever OCR made of it
                if norm_text(q) in typed_before:
                    nb = max(nb, 1)
                if norm_text(q) in typed_after:
                    na = max(na, 1)
                kind = "appears" if na > nb else "disappears" if na < nb else "visible" if na else None
                if kind is None:
                    ev.notes.append(f"quoted {q!r} not read by OCR on the checkpoints")
                    continue
                # a count that rests on every reading missing the phrase on one checkpoint is believed only where
                # the spots it stood at on the other are empty there (no reading read struck-through light grey
                # 'Buy milk', which was still drawn)
                if kind == "disappears":
                    gone = sum(not cps.still_there(i - 1, i, b) for b in cps.boxes(i - 1, q))
                    if gone < nb - na:
                        ev.notes.append(f"quoted {q!r} not used: read {nb}x before and {na}x after, but where it stood "
                                        "the same glyphs are still drawn")
                        continue
                elif kind == "appears" and not (norm_text(q) in typed_after and nb == 0):
                    new = sum(not cps.still_there(i, i - 1, b) for b in cps.boxes(i, q))
                    if new < na - nb:
                        ev.notes.append(f"quoted {q!r} not used: read {nb}x before and {na}x after, but where it "
                                        "stands the same glyphs were drawn already")
                        continue
                ev.texts.append(TextEvidence(kind=kind, text=q, source="ocr", channel="any", before=nb, after=na))  # type: ignore[arg-type]
                if len(set(b_each)) > 1 or len(set(a_each)) > 1:
                    ev.notes.append(f"quoted {q!r}: the readings differ (before {b_each}, after {a_each}); "
                                    "the higher count is taken")
        out[i] = ev
        if a.logical_assertion and not decisive(a, ev):
            return out, (f"offline@2 cannot judge step {i} of task {task.id}: its checkpoints show no visible change "
                         "and its assertion quotes no text read surely on them; judge it with --protocol iwr-bench")
    return out, None


__all__ = ["READINGS", "extra_readers", "infer_evidence"]
