"""Evidence that a step did what the recording shows, in terms of what a person sees.

Recorded on the source (``derive_texts`` over two :class:`~iwrbench.checks.view.View`s, the visual change
of the checkpoints) and judged on any page with the same functions (``judge_texts``, ``judge_change``,
``judge_typed``), so the source cannot disagree with itself and a page with other markup is judged by
what it shows:

- a phrase the assertion quotes, classified on the source as appearing, disappearing or staying on
  screen; then phrases that appeared or disappeared with the action (visible text only, counted, so
  "absent before and present after" is required, not mere presence);
- where the recording visibly changed, the page must change near there too (``checks.change``);
- a typed text must itself be visible afterwards.

Role counts, ARIA states, URLs, ids and classes are never evidence: a model cannot know them from the
video. They are only used when a recipe author wrote them under ``checks:``.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from ..records import Action, ChangeEvidence, Evidence, EvidenceResult, TextEvidence
from . import change as chg
from .view import View, contains_phrase, norm_text, quoted_phrases, tokens

MAX_QUOTED = 4
MAX_APPEARED = 4
MAX_GONE = 2
#: with ``wide`` (a derived probe's candidate evidence), at most this many of each
MAX_WIDE = 24
MAX_LEN = 80
#: phrases near the top/bottom edge of the viewport depend on exact heights: not used after a scroll
EDGE = 0.12


@dataclass
class Derived:
    texts: list[TextEvidence]
    notes: list[str]


def count(view: View, phrase: str, channel: str = "text") -> int:
    """Visible occurrences of ``phrase`` in a channel of the view (``any``: rendered text and fields)."""
    if channel == "any":
        return view.count(phrase, "text") + view.count(phrase, "field")
    return view.count(phrase, channel)


def _classify(phrase: str, before: View, after: View, source: str) -> TextEvidence | None:
    """Appears or disappears as text, else as what a field shows; else stays visible (either), else None."""
    for channel in ("text", "field"):
        b, a = count(before, phrase, channel), count(after, phrase, channel)
        if a != b:
            return TextEvidence(kind="appears" if a > b else "disappears", text=phrase, source=source,  # type: ignore[arg-type]
                                before=b, after=a, channel=channel)  # type: ignore[arg-type]
    b, a = count(before, phrase, "any"), count(after, phrase, "any")
    if a >= 1:
        return TextEvidence(kind="visible", text=phrase, source=source, before=b, after=a, channel="any")  # type: ignore[arg-type]
    return None


def _good(t: str) -> bool:
    return 1 <= len(t.strip()) <= MAX_LEN and bool(tokens(t))


#: words by which an assertion speaks of text drawn struck through
STRIKE_WORDS = ("struck", "strike", "strikethrough", "crossed", "line through", "lined through")


def derive_texts(before: View, after: View, assertion: str | None, *, action_type: str = "",
                 typed: list[str] | str | None = None, shown_typed: set[str] | None = None,
                 wide: bool = False) -> Derived:
    """Text evidence for one step, from the source's views before and after it.

    ``typed``: texts typed so far in the trajectory; ``shown_typed``: those of them the source showed as
    text at some earlier step (a typed text the recording showed and no longer shows must stay off
    the page: a todo filtered out of the Active view). ``wide``: every changed text, not only the first
    ``MAX_APPEARED``/``MAX_GONE`` (a derived probe's candidates: the recorder keeps of them only what a
    replay of the recording fails and the recording showed, ``record.probes.keep_decisive``)."""
    notes: list[str] = []
    out: list[TextEvidence] = []
    keys: set[str] = set()
    for q in quoted_phrases(assertion)[:MAX_QUOTED]:
        ev = _classify(q, before, after, "assertion")
        if ev is None:
            notes.append(f"quoted {q!r} is not on screen before or after the action")
            continue
        keys.add(norm_text(q))
        out.append(ev)
    quoted_keys = set(keys)
    h = max(after.size[1], 1)

    def usable(box: tuple[float, float, float, float]) -> bool:
        if action_type != "Scroll":
            return True
        return box[1] >= EDGE * h and box[3] <= (1 - EDGE) * h

    mention = set(tokens(assertion))

    def rank(t: str) -> tuple:
        toks = tokens(t)
        overlap = len(set(toks) & mention) / max(len(toks), 1)
        return (-round(overlap, 2), len(toks) < 2 and len(t) < 2, len(t) > 40, len(t))

    appeared: list[str] = []
    for t, box in after.items():
        k = norm_text(t)
        if k in keys or not _good(t) or not usable(box):
            continue
        if after.count(t) > before.count(t):
            keys.add(k)
            appeared.append(t)
    gone: list[str] = []
    for t, box in before.items():
        k = norm_text(t)
        if k in keys or not _good(t) or not usable(box):
            continue
        if before.count(t) > after.count(t):
            keys.add(k)
            gone.append(t)
    # what fields show: a select that now shows "High", a quantity box that now reads 2 (typed text has
    # its own rule, so not on a Type step)
    field_items: list[TextEvidence] = []
    if action_type != "Type":
        shown_after = {norm_text(f.t): f.t for f in after.frags if f.channel == "field" and f.k == "field" and tokens(f.t)}
        for k, t in shown_after.items():
            if k in keys or len(t) > MAX_LEN:
                continue
            b, a = before.count(t, "field"), after.count(t, "field")
            if a > b:
                keys.add(k)
                field_items.append(TextEvidence(kind="appears", text=t, source="derived", before=b, after=a,  # type: ignore[arg-type]
                                                channel="field"))
    # a phrase that "appeared" only because it is part of another new phrase says nothing more
    appeared = [t for t in appeared if not any(u != t and contains_phrase(u, t) for u in appeared)]
    gone = [t for t in gone if not any(u != t and contains_phrase(u, t) for u in gone)]
    appeared.sort(key=rank)
    gone.sort(key=rank)
    # a lone digit or letter ("3", "X") says little and moves with layout: only when nothing else changed
    def tiny(t: str) -> bool:
        toks = tokens(t)
        return len(toks) == 1 and len(toks[0]) <= 2 and not (set(toks) & mention)

    if any(not tiny(t) for t in appeared + gone):
        appeared = [t for t in appeared if not tiny(t)]
        gone = [t for t in gone if not tiny(t)]
    typed_l = [typed] if isinstance(typed, str) else list(typed or [])
    typed_l = [x for x in typed_l if x and tokens(x)]
    # the page's answer to its input: a typed text shown again (in whatever words around it)
    echoed: set[str] = set()
    for x in dict.fromkeys(typed_l):
        # a typed text the assertion quotes is evidence already; one that appeared as a phrase of its own ('€43.95'
        # for 43.95) is its echo, not a changed text like any other (it would be cut, or dropped inside a longer one)
        if norm_text(x) in quoted_keys:
            continue
        b, a = before.count(x), after.count(x)
        if a > b and any(contains_phrase(t, x) for t in appeared):
            keys.add(norm_text(x))
            echoed.add(norm_text(x))
            out.append(TextEvidence(kind="appears", text=x, source="echo", before=b, after=a))  # type: ignore[arg-type]
    out += field_items[:2]
    # typed texts the recording showed before and keeps off screen now
    for x in dict.fromkeys(typed_l):
        k = norm_text(x)
        if k in keys or x not in (shown_typed or set()):
            continue
        if before.count(x) == 0 and after.count(x) == 0:
            keys.add(k)
            out.append(TextEvidence(kind="absent", text=x, source="echo", before=0, after=0))  # type: ignore[arg-type]
    # texts that became (or stopped being) struck through, when the assertion speaks of it
    low = (assertion or "").lower()
    if any(w in low for w in STRIKE_WORDS):
        struck = [(t, "appears") for t, _ in after.items("struck") if after.count(t, "struck") > before.count(t, "struck")]
        struck += [(t, "disappears") for t, _ in before.items("struck") if after.count(t, "struck") < before.count(t, "struck")]
        for t, kind in struck[:3]:
            if _good(t):
                out.append(TextEvidence(kind=kind, text=t, source="assertion", channel="struck",  # type: ignore[arg-type]
                                        before=before.count(t, "struck"), after=after.count(t, "struck")))
    appeared = [t for t in appeared if norm_text(t) not in echoed]
    for t in appeared[:MAX_WIDE if wide else MAX_APPEARED]:
        out.append(TextEvidence(kind="appears", text=t, source="derived", before=before.count(t), after=after.count(t)))  # type: ignore[arg-type]
    for t in gone[:MAX_WIDE if wide else MAX_GONE]:
        out.append(TextEvidence(kind="disappears", text=t, source="derived", before=before.count(t), after=after.count(t)))  # type: ignore[arg-type]
    return Derived(out, notes)


# --------------------------------------------------------------------------- judging


#: words an assertion uses around what it names; they do not make a changed text "mentioned"
STOPWORDS = frozenset("""a an the and or but of to in on at by for with from into onto over under as is are was were be
been being it its this that these those there here now then still also only just all both each every any some no not
shows show showing shown reads read says say said appears appear appeared displays display displayed lists list listed
becomes become turns turn changes change updated update goes go page panel box button link text message item items
""".split())


def mentioned_words(assertion: str | None) -> set[str]:
    """Content words of an assertion outside its quoted phrases (numbers included)."""
    if not assertion:
        return set()
    rest = assertion
    for q in quoted_phrases(assertion):
        rest = rest.replace(q, " ")
    return {w for w in tokens(rest) if w not in STOPWORDS}


def decides(ev: TextEvidence, assertion: str | None, quoted: list[str]) -> bool:
    """Does this text decide an asserted step?

    The assertion's quoted phrases (and OCR-read ones) and the echo of typed text always do. A text that
    merely changed with the action decides when the assertion quotes nothing seen on screen (it is then
    all the recording says), or when it holds a number the assertion states in words ("the score shows
    You 1") without being a longer form of a quoted phrase ("a reference starting with 'SKY-'").
    """
    if ev.source in ("assertion", "ocr", "echo"):
        return True
    if not quoted:
        return True
    if any(contains_phrase(ev.text, q) or contains_phrase(q, ev.text) for q in quoted):
        return False
    # a number the assertion states in words ("You 1", "2 items") — not a label it happens to share
    # a word with ("monthly"), which a page may show elsewhere too
    shared = set(tokens(ev.text)) & mentioned_words(assertion)
    return any(any(ch.isdigit() for ch in w) for w in shared)


def judge_text(ev: TextEvidence, before: View, after: View, anchor: View | None = None) -> EvidenceResult:
    """``anchor``: the screen after the last asserted step (or the first screen). A text that appeared
    (or went) a little early, during the unasserted steps just before, still counts as a change; a text
    that was there all along does not."""
    b, a = count(before, ev.text, ev.channel), count(after, ev.text, ev.channel)
    b0 = count(anchor, ev.text, ev.channel) if anchor is not None else b
    shown = {"struck": "struck through", "field": "in a field"}.get(ev.channel or "", "on screen")
    if ev.kind == "appears":
        ok = a > b or a > b0
        why = "" if ok else (f"{ev.text!r} is not {shown}" if a == 0 else f"{ev.text!r} was already {shown} ({b}x) and did not appear again")
    elif ev.kind == "disappears":
        ok = (a < b or a < b0) and (ev.after != 0 or a == 0)
        why = "" if ok else (f"{ev.text!r} was not {shown} before the action" if b == 0 else f"{ev.text!r} is still {shown}")
    elif ev.kind == "absent":
        ok = a == 0
        why = "" if ok else f"{ev.text!r} is on screen; the recording no longer shows it"
    else:
        ok = a >= 1
        why = "" if ok else f"{ev.text!r} is not {shown}"
    return EvidenceResult(kind=ev.kind, passed=ok, text=ev.text, source=ev.source, detail=why or None, before=b, after=a)


def pinned(phrase: str, before: View, after: View, tol: float = 2.0) -> int:
    """Lines showing ``phrase`` after a scroll whose words showing it stood on the very same row before it:
    the page's fixed chrome (a sticky header, a breadcrumb, a side menu), which does not move with the page
    (it may reflow sideways: a bar whose breadcrumb got longer)."""
    want = set(tokens(phrase))
    if not want:
        return 0
    rows: dict[str, list[float]] = {}
    for f in before.frags:
        rows.setdefault(norm_text(f.t), []).append(f.y)

    def stayed(f) -> bool:
        return any(abs(f.y - y) <= tol for y in rows.get(norm_text(f.t), ()))

    n = 0
    for ln in after.lines():
        if not contains_phrase(ln.text, phrase):
            continue
        parts = [f for f in ln.frags if set(tokens(f.t)) & want]
        if parts and all(stayed(f) for f in parts):
            n += 1
    return n


def judge_texts(evs: list[TextEvidence], before: View, after: View, anchor: View | None = None) -> list[EvidenceResult]:
    return [judge_text(e, before, after, anchor) for e in evs]


def judge_change(ev: ChangeEvidence, before_png: bytes, after_png: bytes) -> EvidenceResult:
    rec = chg.decode(ev)
    jud = chg.change_grid(before_png, after_png, ev.cell)
    v = chg.similar(rec, jud)
    return EvidenceResult(kind="change", passed=v.passed, detail=v.detail, before=v.recorded, after=v.near)


def judge_still(before_png: bytes | str, after_png: bytes | str) -> EvidenceResult:
    """A step that changed nothing in the recording must change (almost) nothing on the page."""
    v = chg.still(chg.change_grid(before_png, after_png))
    return EvidenceResult(kind="still", passed=v.passed, detail=v.detail, after=v.judged)


def judge_typed(text: str | None, after: View) -> EvidenceResult | None:
    """A typed text must be visible afterwards (in a field or as text)."""
    if not text or not tokens(text):
        return None
    n = after.count(text, "field") + after.count(text, "text")
    return EvidenceResult(kind="typed", passed=n > 0, text=text, after=n,
                          detail=None if n > 0 else f"the typed text {text!r} is not visible on the page")


def decisive(action: Action, ev: Evidence | None) -> bool:
    """Does an asserted step have anything that can decide it?"""
    if action.checks:
        return True
    if ev is None:
        return False
    return any(not t.chance for t in ev.texts) or (not ev.change_unstable and chg.required(ev.change, True))


def change_of(before: bytes | str, after: bytes | str) -> ChangeEvidence:
    return chg.encode(chg.change_grid(before, after))


def change_agrees(a: ChangeEvidence, b: ChangeEvidence) -> bool:
    """Two recordings of a step changed the screen alike (each passes as the other's judged page)."""
    ga, gb = chg.decode(a), chg.decode(b)
    if ga.sum() < chg.MIN_CELLS and gb.sum() < chg.MIN_CELLS:
        return True
    return chg.similar(ga, gb).passed and chg.similar(gb, ga).passed


def empty_change(ev: ChangeEvidence | None) -> bool:
    return ev is None or float(np.round(ev.share * ev.rows * ev.cols)) < chg.MIN_CELLS


__all__ = ["derive_texts", "judge_text", "judge_texts", "pinned", "judge_change", "judge_typed", "decisive", "change_of",
           "change_agrees", "judge_still", "Derived"]
