"""Where a description places an element relative to a text: "the round checkbox at the left of the
'Buy milk' item", "the button under 'Total'", "the x to the right of 'Milk'", "the field above
'Password'".

A person follows such a description by finding the named text on the screen and looking in that
direction for the nearest thing of the right kind. A rebuilt page may give that element no name at
all (a checkbox without a label, an icon button) and put it elsewhere on the page than the recording
did, so neither the name rungs nor the recorded position find it; the words of the description
(the fuzzy rung) then match whatever else carries them. This module reads the relation out of the
description (:func:`parse_relations`) and, given the boxes of the named text on the page now and
of the candidate elements, picks the nearest candidate in that direction (:func:`nearest`). The
grounding ladder's ``relation`` rung (``judge/ground.py``) supplies the boxes: the named text as
the page paints it (``browser/view.py``), the candidates of the action's kind.

English only. Relations: left of / right of (``to``, ``at`` or ``on the``), next to / beside,
under / below / beneath / underneath, above / over, inside / within / in the row of. "At the left end
of", "at the top right of" and the like name a part of a thing, not a direction from it, and are not
relations; "hover over", "move the mouse over" are actions, not "above". The named text is the quoted
phrase right after the relation (a few words may come between: "next to the task 'Buy groceries'"),
or, without quotes, the words after it with articles and generic nouns dropped ("above the Password
field" -> "Password"), which must then be a whole line of text on the page.
"""

from __future__ import annotations

import math
import re
from dataclasses import dataclass

from .text import loose_name, norm_name, quoted_spans

# (direction, pattern); a pattern matches the relation words only
_REL: tuple[tuple[str, str], ...] = (
    ("left", r"(?<!\w)(?:(?:to|at|on)\s+the\s+(?:immediate\s+)?left\s+of|(?<!top\s)(?<!bottom\s)(?<!upper\s)(?<!lower\s)(?<!far\s)(?<!the\s)left\s+of)(?!\w)"),
    ("right", r"(?<!\w)(?:(?:to|at|on)\s+the\s+(?:immediate\s+)?right\s+of|(?<!top\s)(?<!bottom\s)(?<!upper\s)(?<!lower\s)(?<!far\s)(?<!the\s)right\s+of)(?!\w)"),
    ("beside", r"(?<!\w)(?:next\s+to|beside|alongside)(?!\w)"),
    ("below", r"(?<!\w)(?:(?:just\s+|right\s+|directly\s+)?(?:under|underneath|below|beneath))(?!\w)"),
    ("above", r"(?<!\w)(?:above|(?<!hover\s)(?<!mouse\s)(?<!pointer\s)(?<!cursor\s)(?<!hovering\s)(?<!hovers\s)(?<!move\s)(?<!moves\s)over)(?!\w)"),
    ("row", r"(?<!\w)(?:inside|within|in\s+the\s+(?:same\s+)?row\s+(?:of|as)|on\s+the\s+(?:same\s+)?row\s+(?:of|as))(?!\w)"),
)
#: words between a relation and its quoted phrase ("next to the task 'Buy milk'")
_GAP_WORDS = 4
#: generic nouns that say what the named thing is, not what it reads ("the Password field")
_GENERIC = set("""item items row rows label labels text texts heading header title field fields box boxes input button
buttons link links column columns word words entry entries message messages tab tabs card cards section sections
menu list option options icon icons line lines name value cell area panel bar""".split())
_ARTICLES = {"the", "a", "an", "this", "that", "its", "their"}
#: words that name a region of the page, not a text on it ("the top bar", "the right end of the box")
_REGION = set("""top bottom left right middle centre center end side corner edge upper lower first last next previous
page screen window viewport""".split())
#: a verb that makes "over" an action ("hover over", "move the mouse over")
_HOVER = re.compile(r"\b(?:hover\w*|mouse|pointer|cursor|move\w*|roll\w*)\b[^.;,]{0,30}$", re.I)


@dataclass(frozen=True)
class Relation:
    """``direction`` of the element from the text ``anchor`` (left, right, beside, below, above, row);
    ``quoted``: the anchor was quoted in the description (else it must be a whole line on screen)."""

    direction: str
    anchor: str
    quoted: bool


def parse_relations(description: str | None) -> list[Relation]:
    """The relations a description states, in order ("the x to the right of 'Milk'" ->
    [Relation('right', 'Milk', True)])."""
    if not description:
        return []
    out: list[Relation] = []
    quotes = quoted_spans(description)
    for direction, pat in _REL:
        for m in re.finditer(pat, description, flags=re.I):
            if any(s <= m.start() < e for s, e, _ in quotes):  # inside a quoted phrase: the element's own words
                continue
            if direction == "above" and m.group(0).lower() == "over" and _HOVER.search(description[:m.start()]):
                continue
            rest = description[m.end():]
            anchor, quoted = _anchor(rest, description, m.end(), quotes)
            if anchor:
                out.append(Relation(direction, anchor, quoted))
    out.sort(key=lambda r: description.lower().find(r.anchor.lower()))
    return out


def _anchor(rest: str, desc: str, at: int, quotes: list[tuple[int, int, str]]) -> tuple[str | None, bool]:
    for s, _e, q in quotes:
        if s >= at:
            between = desc[at:s].split()
            if len(between) <= _GAP_WORDS and not re.search(r"[.;,]", desc[at:s]):
                return q, True
            break
    # unquoted: the words up to punctuation or the next preposition, minus articles and generic nouns
    m = re.match(r"\s*([^.;,:()'\"\u2018\u201c]{1,60})", rest)
    if not m:
        return None, False
    ws = m.group(1).split()
    cut = []
    for w in ws:
        if w.lower() in ("in", "on", "at", "of", "and", "or", "to", "with", "for", "from", "by", "that", "which",
                         "then", "when", "where", "so", "while"):
            break
        cut.append(w)
    while cut and cut[0].lower() in _ARTICLES:
        cut = cut[1:]
    while cut and cut[-1].lower().strip("s") in _GENERIC | {g.rstrip("s") for g in _GENERIC}:
        cut = cut[:-1]
    if not cut or not any(len(w) >= 3 and any(c.isalpha() for c in w) for w in cut):
        return None, False
    if any(w.lower() in _REGION for w in cut):
        return None, False
    return " ".join(cut), False


# --------------------------------------------------------------------------- a place on a board or grid

_ORD = {"first": 1, "second": 2, "third": 3, "fourth": 4, "fifth": 5, "sixth": 6, "seventh": 7, "eighth": 8,
        "ninth": 9, "tenth": 10}
_GRID_WORD = re.compile(r"(?<!\w)(?:board|grid)(?!\w)", re.I)
_SIZE = re.compile(r"(?<!\w)(\d{1,2})\s*[x\u00d7]\s*(\d{1,2})(?!\w)", re.I)
_ROW_COL = re.compile(r"(?<!\w)row\s+(\d{1,2})\s*(?:,|and)?\s*(?:in\s+)?col(?:umn)?\s+(\d{1,2})(?!\w)", re.I)
_COL_ROW = re.compile(r"(?<!\w)col(?:umn)?\s+(\d{1,2})\s*(?:,|and)?\s*(?:in\s+)?row\s+(\d{1,2})(?!\w)", re.I)
_ORD_ROW = re.compile(r"(?<!\w)(first|second|third|fourth|fifth|sixth|seventh|eighth|ninth|tenth|last|middle)\s+row"
                      r"\s*,?\s*(?:and\s+)?(?:the\s+)?(first|second|third|fourth|fifth|sixth|seventh|eighth|ninth|tenth|last|"
                      r"middle)\s+(?:column|from\s+the\s+(left|right))(?!\w)", re.I)
_COMPASS = re.compile(r"(?<!\w)(top|upper|middle|centre|center|bottom|lower)[\s-]+(left|middle|centre|center|right)"
                      r"(?:[\s-]+(?:hand\s+)?)?\s*(?:square|cell|tile|light|spot|box|field|corner|key|button)(?!\w)", re.I)
_CENTRE = re.compile(r"(?<!\w)(?:centre|center|middle)\s+(?:square|cell|tile|light|spot|field)(?!\w)|"
                     r"(?<!\w)(?:in\s+)?the\s+(?:centre|center|middle)\s+of\s+the\s+(?:board|grid)(?!\w)", re.I)


@dataclass(frozen=True)
class GridPlace:
    """A cell of a board or grid a description names: ``row``/``col`` 1-based, or one of ``first``, ``mid``,
    ``last`` (from "top-left", "the centre of the grid"); ``size``: (rows, columns) when it says ("3×3")."""

    row: int | str
    col: int | str
    size: tuple[int, int] | None = None


def _edge(word: str, axis: str) -> str:
    w = word.lower()
    if w in ("top", "upper") or (axis == "col" and w == "left"):
        return "first"
    if w in ("bottom", "lower") or (axis == "col" and w == "right"):
        return "last"
    return "mid"


def parse_grid_place(description: str | None) -> GridPlace | None:
    """The cell a description names on a board or grid ("the top-left square of the 3×3 board", "the light
    in row 2, column 4 of the grid", "the centre of the grid"); None when it names none. Only a description
    that speaks of a board or grid names a cell: "the button at the top right of the header" does not."""
    if not description or not _GRID_WORD.search(description):
        return None
    text = description
    for q in [m for m in re.findall(r"'[^']*'|\"[^\"]*\"", text)]:
        text = text.replace(q, " ")
    m = _SIZE.search(text)
    size = (int(m.group(1)), int(m.group(2))) if m else None
    if (m := _ROW_COL.search(text)):
        return GridPlace(int(m.group(1)), int(m.group(2)), size)
    if (m := _COL_ROW.search(text)):
        return GridPlace(int(m.group(2)), int(m.group(1)), size)
    if (m := _ORD_ROW.search(text)):
        r, c, side = m.group(1).lower(), m.group(2).lower(), (m.group(3) or "left").lower()
        row: int | str = _ORD.get(r, "last" if r == "last" else "mid")
        col: int | str = _ORD.get(c, "last" if c == "last" else "mid")
        if side == "right" and isinstance(col, int):
            col = -col  # counted from the right
        return GridPlace(row, col, size)
    if (m := _COMPASS.search(text)):
        return GridPlace(_edge(m.group(1), "row"), _edge(m.group(2), "col"), size)
    if _CENTRE.search(text):
        return GridPlace("mid", "mid", size)
    return None


def grid_of(boxes: list[Box], min_cells: int = 4) -> list[tuple[list[int], int, int, dict[int, tuple[int, int]]]]:
    """Groups of alike boxes laid out as a grid: (member indices, rows, columns, index -> (row, column),
    0-based). Alike: the same size within 15 %; a grid: at least two rows and two columns, each member
    in its own cell, three quarters of the cells or more filled."""
    out = []
    seen: set[frozenset[int]] = set()
    for _, _, w0, h0 in boxes:
        if w0 < 8 or h0 < 8:
            continue
        group = [j for j, (_, _, w, h) in enumerate(boxes) if abs(w - w0) <= 0.15 * w0 and abs(h - h0) <= 0.15 * h0]
        key = frozenset(group)
        if len(group) < min_cells or key in seen:
            continue
        seen.add(key)

        def lanes(vals: list[float], tol: float) -> list[float]:
            centres: list[float] = []
            for v in sorted(vals):
                if centres and v - centres[-1] <= tol:
                    continue
                centres.append(v)
            return centres

        xs = lanes([boxes[j][0] + boxes[j][2] / 2 for j in group], 0.3 * w0)
        ys = lanes([boxes[j][1] + boxes[j][3] / 2 for j in group], 0.3 * h0)
        if len(xs) < 2 or len(ys) < 2:
            continue
        cell: dict[int, tuple[int, int]] = {}
        for j in group:
            cx, cy = boxes[j][0] + boxes[j][2] / 2, boxes[j][1] + boxes[j][3] / 2
            r = min(range(len(ys)), key=lambda k: abs(ys[k] - cy))
            c = min(range(len(xs)), key=lambda k: abs(xs[k] - cx))
            cell[j] = (r, c)
        if len(set(cell.values())) != len(group) or len(group) < 0.75 * len(xs) * len(ys):
            continue
        out.append((group, len(ys), len(xs), cell))
    return out


def place_index(want: int | str, n: int) -> int | None:
    """0-based lane of a named place among ``n``: a number (negative: from the end), first, mid, last."""
    if want == "first":
        return 0
    if want == "last":
        return n - 1
    if want == "mid":
        return n // 2 if n % 2 else None  # an even count has no single middle
    assert isinstance(want, int)
    k = want - 1 if want > 0 else n + want
    return k if 0 <= k < n else None


# --------------------------------------------------------------------------- geometry

Box = tuple[float, float, float, float]  # x, y, width, height


def _overlap(a0: float, a1: float, b0: float, b1: float) -> float:
    return max(0.0, min(a1, b1) - max(a0, b0))


def same_row(a: Box, c: Box) -> bool:
    """Do the two boxes share a row (their vertical extents overlap by half the smaller height, or their
    centres are within the larger height's half of each other)?"""
    ov = _overlap(a[1], a[1] + a[3], c[1], c[1] + c[3])
    if ov >= 0.5 * min(a[3], c[3]):
        return True
    return abs((a[1] + a[3] / 2) - (c[1] + c[3] / 2)) <= 0.5 * max(a[3], c[3])


def same_column(a: Box, c: Box) -> bool:
    """Do the two boxes share a column (horizontal extents overlap, or the centre of one is over the other)?"""
    if _overlap(a[0], a[0] + a[2], c[0], c[0] + c[2]) > 0:
        return True
    return abs((a[0] + a[2] / 2) - (c[0] + c[2] / 2)) <= 0.5 * max(a[2], c[2])


def covers(c: Box, a: Box) -> bool:
    """Does the candidate hold most of the anchor text (the text itself, its label, its row)?"""
    ov = _overlap(a[0], a[0] + a[2], c[0], c[0] + c[2]) * _overlap(a[1], a[1] + a[3], c[1], c[1] + c[3])
    return ov >= 0.5 * max(a[2] * a[3], 1.0)


def distance(direction: str, a: Box, c: Box, tol: float = 4.0) -> float | None:
    """How far the candidate ``c`` lies from the anchor ``a`` in ``direction`` (None: not that way).

    The gap along the direction, plus the offset across it (a box further off the row or column is
    further away)."""
    ax0, ay0, ax1, ay1 = a[0], a[1], a[0] + a[2], a[1] + a[3]
    cx0, cy0, cx1, cy1 = c[0], c[1], c[0] + c[2], c[1] + c[3]
    acx, acy, ccx, ccy = (ax0 + ax1) / 2, (ay0 + ay1) / 2, (cx0 + cx1) / 2, (cy0 + cy1) / 2
    if direction in ("left", "right", "beside", "row"):
        if not same_row(a, c):
            return None
        across = abs(ccy - acy)
        if direction == "left" or (direction in ("beside", "row") and ccx < acx):
            if cx1 > ax0 + tol and direction == "left":
                return None
            gap = max(0.0, ax0 - cx1)
        else:
            if cx0 < ax1 - tol and direction == "right":
                return None
            gap = max(0.0, cx0 - ax1)
        return gap + 2 * across
    if direction in ("below", "above"):
        if not same_column(a, c):
            return None
        if direction == "below":
            if cy0 < ay1 - tol:
                return None
            gap = cy0 - ay1
        else:
            if cy1 > ay0 + tol:
                return None
            gap = ay0 - cy1
        return max(0.0, gap) + 0.5 * abs(ccx - acx)
    return None


def nearest(direction: str, anchors: list[Box], cands: list[Box], max_dist: float) -> list[tuple[float, int, int]]:
    """Candidates in ``direction`` of any anchor within ``max_dist``: (distance, candidate index, anchor
    index), nearest first. Candidates that hold the anchor (its own label, its row) are not in any
    direction from it."""
    out = []
    for ci, c in enumerate(cands):
        best: tuple[float, int] | None = None
        for ai, a in enumerate(anchors):
            if covers(c, a):
                continue
            d = distance(direction, a, c)
            if d is not None and d <= max_dist and (best is None or d < best[0]):
                best = (d, ai)
        if best is not None:
            out.append((best[0], ci, best[1]))
    out.sort()
    return out


def names_phrase(phrase: str, fields: list[str]) -> bool:
    """Does one of an element's names/texts say ``phrase`` (the same words, or holding them)?"""
    lp = loose_name(phrase) or norm_name(phrase)
    if not lp:
        return False
    for f in fields:
        lf = loose_name(f) or norm_name(f)
        if not lf:
            continue
        if lf == lp or norm_name(f) == norm_name(phrase):
            return True
        if len(lp) >= 3 and re.search(r"(?<!\w)" + re.escape(lp) + r"(?!\w)", lf):
            return True
    return False


#: how each direction reads in a log line
WORDS = {"left": "left of", "right": "right of", "beside": "beside", "below": "under", "above": "above",
         "row": "in the row of"}


def reach(direction: str, viewport: tuple[int, int]) -> float:
    """How far from the named text an element may be and still be "at its left", "under" it ...: along a
    row (left, right, beside, in the row of), the viewport's width (a row is followed to its end: the x of
    a wide table's row); up or down, a third of the viewport's diagonal."""
    if direction in ("left", "right", "beside", "row"):
        return float(viewport[0])
    return math.hypot(*viewport) / 3


__all__ = ["GridPlace", "Relation", "WORDS", "parse_grid_place", "grid_of", "place_index", "parse_relations", "nearest",
           "distance", "same_row", "same_column", "covers", "names_phrase", "reach"]
