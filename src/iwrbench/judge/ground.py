"""The grounding ladder: find, on a page written by someone else, the element an action means.

Rungs, tried in order, each logged per step (``Grounding.tried``):

1. ``role_name``  the recorded target's ARIA role + accessible name (exact)
2. ``text``       the recorded target's visible text (exact)
3. ``attribute``  placeholder, label, aria-label/title, alt text (exact)
4. ``fuzzy``      the description (and recorded name/text) against every visible interactive
                  element's name, text and attributes; quoted phrases in the description weigh most
5. ``llm``        (protocol permitting) the published LLM grounder through a configured model

Two equally good candidates are recorded as ``ambiguous``; the one nearest to the recorded
position wins (pages that copy the layout keep their elements where they were).
"""

from __future__ import annotations

import math
import re
from dataclasses import dataclass
from typing import Any, Awaitable, Callable

from rapidfuzz import fuzz

from ..browser.dom import CANDIDATES_JS, DESCRIBE_JS
from ..records import Action, Candidate, Grounding, RungAttempt

#: actions that need an element
NEEDS_TARGET = {"Click", "Type", "Hover", "Select"}
FUZZY_MIN = 62.0
AMBIGUOUS_MARGIN = 1.0

LlmGrounder = Callable[[Any, Action, list[dict]], Awaitable[tuple[int | None, str]]]


@dataclass
class Grounded:
    handle: Any | None
    grounding: Grounding


def _cand(d: dict, score: float | None = None) -> Candidate:
    return Candidate(tag=d.get("tag"), role=d.get("role"), name=(d.get("name") or "")[:120] or None,
                     text=(d.get("text") or "")[:120] or None, score=None if score is None else round(score, 1))


def _fits(action: Action, d: dict) -> bool:
    if action.type == "Type":
        return bool(d.get("editable"))
    if action.type == "Select":
        return d.get("tag") == "select" or d.get("role") in ("combobox", "listbox")
    return True


def _dist(action: Action, d: dict, viewport: tuple[int, int]) -> float:
    t = action.target
    if not t or not t.bbox or not d.get("bbox"):
        return 0.5
    cx, cy = t.bbox.center
    b = d["bbox"]
    dx, dy = b["x"] + b["width"] / 2 - cx, b["y"] + b["height"] / 2 - cy
    return min(1.0, math.hypot(dx, dy) / math.hypot(*viewport))


async def _describe_all(handles: list[Any]) -> list[dict]:
    out = []
    for h in handles:
        try:
            out.append(await h.evaluate(DESCRIBE_JS))
        except Exception:
            out.append({})
    return out


async def _pick(action: Action, handles: list[Any], viewport: tuple[int, int]) -> tuple[Any | None, list[dict], bool]:
    """Among exact matches keep those that fit the action; nearest to the recording wins."""
    visible = []
    for h in handles[:50]:
        try:
            if await h.is_visible():
                visible.append(h)
        except Exception:
            continue
    descs = await _describe_all(visible)
    pairs = [(h, d) for h, d in zip(visible, descs) if d and _fits(action, d)]
    if not pairs:
        return None, [], False
    pairs.sort(key=lambda p: _dist(action, p[1], viewport))
    return pairs[0][0], [p[1] for p in pairs], len(pairs) > 1


def _quoted(desc: str) -> list[str]:
    return [m.strip() for m in re.findall(r"[\"'\u2018\u201c]([^\"'\u2019\u201d]{1,80})[\"'\u2019\u201d]", desc) if m.strip()]


def _fields(d: dict) -> list[str]:
    a = d.get("attributes") or {}
    vals = [d.get("name"), d.get("own_text"), d.get("text"), d.get("label"), a.get("placeholder"),
            a.get("aria-label"), a.get("title"), a.get("alt"), a.get("value")]
    return [v.strip().lower() for v in vals if v and v.strip()]


def fuzzy_score(action: Action, d: dict, viewport: tuple[int, int]) -> float:
    """How well a candidate matches the recorded target and the description (~0-118)."""
    t = action.target
    strong = []  # phrases that name the element
    if t:
        strong += [x for x in (t.name, t.text, t.label, (t.attributes or {}).get("placeholder"),
                               (t.attributes or {}).get("aria-label")) if x]
    desc = action.parameters.description or ""
    strong += _quoted(desc)
    strong = [s.strip().lower() for s in strong if s and len(s.strip()) <= 120]
    fields = _fields(d)
    if not fields:
        return 0.0
    best = 0.0
    for q in strong:
        for f in fields:
            if q == f:
                best = max(best, 100.0)
            else:
                r = fuzz.ratio(q, f)
                # a short field fully inside a longer query/phrase or vice versa
                if len(q) >= 3 and len(f) >= 3 and (q in f or f in q):
                    r = max(r, 70 + 25 * min(len(q), len(f)) / max(len(q), len(f)))
                best = max(best, r)
    if desc:
        d_low = desc.lower()
        for f in fields:
            if len(f) < 2:
                continue
            r = fuzz.token_set_ratio(d_low, f) * 0.8
            if len(f) >= 3 and re.search(r"\b" + re.escape(f) + r"\b", d_low):
                r = max(r, 72 + min(18, len(f)))
            best = max(best, r)
    score = best
    if t and t.role and d.get("role") == t.role:
        score += 6
    if d.get("clickable"):
        score += 4
    elif action.type in ("Click", "Hover"):
        score -= 6
    score += 8 * (1 - _dist(action, d, viewport) * 2)
    return max(0.0, score)  # not clamped at 100: bonuses must still rank two exact matches


async def ground(page: Any, action: Action, viewport: tuple[int, int], *, llm: LlmGrounder | None = None,
                 timeout_ms: int = 3000) -> Grounded:
    g = Grounding()
    t = action.target

    async def rung(name: str, locators: list[Any], detail: str) -> Grounded | None:
        handles: list[Any] = []
        for loc in locators:
            try:
                handles += await loc.element_handles()
            except Exception:
                continue
        h, descs, amb = await _pick(action, handles, viewport)
        g.tried.append(RungAttempt(rung=name, matches=len(descs), detail=detail))
        if h is None:
            return None
        g.rung, g.ambiguous = name, amb
        g.element = _cand(descs[0])
        g.alternatives = [_cand(d) for d in descs[1:4]]
        return Grounded(h, g)

    if t and t.role and t.name:
        r = await rung("role_name", [page.get_by_role(t.role, name=t.name, exact=True)], f"{t.role} {t.name!r}")
        if r:
            return r
    if t and t.text and len(t.text) <= 80 and action.type != "Type":
        r = await rung("text", [page.get_by_text(t.text, exact=True)], repr(t.text))
        if r:
            return r
    if t:
        a = t.attributes or {}
        locs, what = [], []
        if a.get("placeholder"):
            locs.append(page.get_by_placeholder(a["placeholder"], exact=True)); what.append("placeholder")
        if t.label:
            locs.append(page.get_by_label(t.label, exact=True)); what.append("label")
        if a.get("aria-label"):
            locs.append(page.get_by_label(a["aria-label"], exact=True)); what.append("aria-label")
        if a.get("title"):
            locs.append(page.get_by_title(a["title"], exact=True)); what.append("title")
        if a.get("alt"):
            locs.append(page.get_by_alt_text(a["alt"], exact=True)); what.append("alt")
        if locs:
            r = await rung("attribute", locs, ",".join(what))
            if r:
                return r
    # fuzzy over every visible candidate
    try:
        arr = await page.evaluate_handle(CANDIDATES_JS)
        descs = await (await arr.get_property("1")).json_value()
        els = await arr.get_property("0")
    except Exception as e:
        g.tried.append(RungAttempt(rung="fuzzy", matches=0, detail=f"page error: {str(e)[:80]}"))
        return Grounded(None, g)
    scored = sorted(
        ((fuzzy_score(action, d, viewport), i, d) for i, d in enumerate(descs) if _fits(action, d)),
        key=lambda x: -x[0],
    )
    good = [s for s in scored if s[0] >= FUZZY_MIN]
    g.tried.append(RungAttempt(rung="fuzzy", matches=len(good),
                               detail=f"best {scored[0][0]:.0f}" if scored else "no candidates"))
    if good:
        best, idx, d = good[0]
        g.rung = "fuzzy"
        g.ambiguous = len(good) > 1 and good[1][0] >= best - AMBIGUOUS_MARGIN and good[1][2].get("name") != d.get("name")
        g.element = _cand(d, best)
        g.alternatives = [_cand(x[2], x[0]) for x in good[1:4]]
        return Grounded(await els.get_property(str(idx)), g)
    if llm is not None:
        cands = [d for d in descs if d.get("clickable") or d.get("editable")][:200]
        idx, detail = await llm(page, action, cands)
        g.tried.append(RungAttempt(rung="llm", matches=int(idx is not None), detail=detail[:200]))
        if idx is not None and 0 <= idx < len(cands):
            real = descs.index(cands[idx])
            g.rung = "llm"
            g.element = _cand(cands[idx])
            return Grounded(await els.get_property(str(real)), g)
    return Grounded(None, g)
