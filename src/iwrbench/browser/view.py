"""What a person sees of a page: the text painted inside the viewport.

Visible means painted. Where a text is, and what it says, comes from the browser's own layout (CDP
``DOMSnapshot.captureSnapshot``: every line box of every text, generated ``::before``/``::after`` content, SVG
text, shadow trees open or closed, the values fields show); whether it is seen comes from the pixels. The page
is photographed twice at one moment, as it is and with every glyph made transparent (``HIDE_TEXT_STYLE``);
a word is painted where the two pictures differ inside its box. So a tooltip drawn over a text counts whatever
its ``pointer-events``, and a text does not count when it is covered by an opaque layer, clipped away,
transparent, faded out, the colour of what lies behind it, off the viewport, or smaller than 4 px -- by one
rule, the one a person applies, instead of a list of CSS cases that a page can always get round.

Nothing here runs in the page's JavaScript world: the layout is read over CDP and the pictures are the
compositor's, so a page that redefines ``getComputedStyle``, ``Range`` or ``elementsFromPoint`` changes nothing.
Markup does not matter either: the same words read the same in a ``<li>``, a ``<div>`` or three ``<span>``s.

The result is a list of fragments (a line box of a text, or the painted run of its words when only part of it
is seen; the value of a field) with their boxes; :mod:`iwrbench.checks.view` groups them into lines as a reader
does. The recorder and the judge read a page through this one function.
"""

from __future__ import annotations

import asyncio
import io
import re
from dataclasses import dataclass
from typing import Any

from ..timing import phase, timed

#: during the second picture only: every glyph transparent (text, generated content, placeholders, field values,
#: SVG text), and a background clipped to the text drawn whole (gradient text is painted by its background, so
#: it then differs); nothing else changes, and no transition may start from it (``_CANCEL_JS`` for the way back)
HIDE_TEXT_STYLE = (
    "*, *::before, *::after, *::placeholder, *::first-letter, *::first-line, *::marker {"
    " -webkit-text-fill-color: transparent !important; -webkit-text-stroke-color: transparent !important;"
    " text-shadow: none !important; -webkit-background-clip: border-box !important;"
    " background-clip: border-box !important; transition: none !important; }\n"
    "text, tspan, textPath { fill-opacity: 0 !important; stroke-opacity: 0 !important; }"
)

#: the properties HIDE_TEXT_STYLE changes: a page whose CSS transitions them (``transition: all``) would animate
#: its text back in after the picture, and hear of it (``transitionend``); those transitions are cancelled at once
_HIDDEN_PROPS = ("-webkit-text-fill-color", "-webkit-text-stroke-color", "text-shadow", "fill-opacity",
                 "stroke-opacity")
_CANCEL_JS = "() => { const props = new Set(%s); let n = 0; try { for (const a of document.getAnimations()) {" \
             " if (a.transitionProperty && props.has(a.transitionProperty)) { a.cancel(); n++; } } } catch (e) {}" \
             " return n; }" % (list(_HIDDEN_PROPS),)

#: finite CSS transitions and animations fast-forwarded to their end, as the judge's screenshots do
#: (Playwright's ``animations: 'disabled'``): the layout is read in the state the picture shows
FINISH_JS = r"""() => {
  try {
    for (const a of document.getAnimations()) {
      const t = a.effect && a.effect.getComputedTiming ? a.effect.getComputedTiming() : null;
      if (t && Number.isFinite(t.endTime) && a.playState !== 'finished') a.finish();
    }
  } catch (e) { /* a page without the Web Animations API: read as it is */ }
}"""

#: a pixel is ink when the two pictures differ there by at least this much in one channel (0-255): about the
#: contrast of light grey text on white; a text under a veil that leaves it less than that is not legible
INK_LEVEL = 32
#: at most this many fragments are read (a page of 6,000 lines of text is truncated, and says so)
MAX_FRAGS = 6000
#: text smaller than this (px) is not read, painted or not
MIN_FONT_PX = 4.0
_STYLES = ["font-size", "display", "text-decoration-line", "position", "overflow-x", "overflow-y", "transform"]
_WORD = re.compile(r"\S+")
_TEXT_INPUTS = {"", "text", "search", "email", "url", "tel", "number", "date", "datetime-local", "month", "week",
                "time"}
_SKIP_INPUTS = {"hidden", "checkbox", "radio", "file", "range", "color", "image", "password"}


@dataclass
class _Doc:
    """The main document of a DOMSnapshot, with lookups by node."""

    strings: list[str]
    nodes: dict
    layout: dict
    boxes: dict
    scroll: tuple[float, float]
    url: str

    def __post_init__(self) -> None:
        n = len(self.nodes["nodeName"])
        self.parent: list[int] = self.nodes["parentIndex"]
        self.layout_of: dict[int, int] = {}
        for li, ni in enumerate(self.layout["nodeIndex"]):
            self.layout_of.setdefault(ni, li)
        self.pseudo: dict[int, str] = {}
        pt = self.nodes.get("pseudoType") or {}
        for ni, v in zip(pt.get("index", []), pt.get("value", [])):
            self.pseudo[ni] = self.s(v) or ""
        self.attrs: list[dict[str, str]] = []
        raw = self.nodes.get("attributes") or [[] for _ in range(n)]
        for a in raw:
            self.attrs.append({(self.s(a[k]) or "").lower(): self.s(a[k + 1]) or "" for k in range(0, len(a) - 1, 2)})
        self.input_value = _rare(self.nodes.get("inputValue"), self.strings)
        self.text_value = _rare(self.nodes.get("textValue"), self.strings)
        sel = self.nodes.get("optionSelected") or {}
        self.selected: set[int] = set(sel.get("index", []))
        self.children: dict[int, list[int]] = {}
        for i, p in enumerate(self.parent):
            if p >= 0:
                self.children.setdefault(p, []).append(i)
        self._style_cache: dict[int, list[str]] = {}

    def s(self, i: int) -> str | None:
        return self.strings[i] if isinstance(i, int) and 0 <= i < len(self.strings) else None

    def name(self, ni: int) -> str:
        return (self.s(self.nodes["nodeName"][ni]) or "").upper()

    def style(self, ni: int) -> list[str] | None:
        """The requested computed styles of a node with a layout object (None: no box, e.g. display: contents)."""
        li = self.layout_of.get(ni)
        if li is None:
            return None
        if li not in self._style_cache:
            self._style_cache[li] = [self.s(x) or "" for x in self.layout["styles"][li]]
        return self._style_cache[li]

    def text_of(self, ni: int) -> str:
        """The text content of an element from the DOM (an option's label)."""
        out = []
        for c in self.children.get(ni, []):
            if self.nodes["nodeType"][c] == 3:
                out.append(self.s(self.nodes["nodeValue"][c]) or "")
            else:
                out.append(self.text_of(c))
        return "".join(out)


def _rare(d: dict | None, strings: list[str]) -> dict[int, str]:
    if not d:
        return {}
    return {i: (strings[v] if 0 <= v < len(strings) else "") for i, v in zip(d.get("index", []), d.get("value", []))}


class _Blocks:
    """Block ids (the nearest ancestor laid out as a block), struck-through and editable, cached per node."""

    def __init__(self, doc: _Doc):
        self.doc = doc
        self.ids: dict[int, int] = {}
        self.block_of: dict[int, int] = {}
        self.struck_of: dict[int, bool] = {}
        self.edit_of: dict[int, bool] = {}
        self.clip_of: dict[tuple[int, str], tuple[float, float, float, float]] = {}

    def block(self, ni: int) -> int:
        if ni in self.block_of:
            return self.block_of[ni]
        d, e = self.doc, ni
        while e >= 0:
            st = d.style(e) if d.nodes["nodeType"][e] == 1 else None
            if st is not None and not st[1].startswith("inline") and st[1] != "contents":
                break
            e = d.parent[e]
        b = 0 if e < 0 else self.ids.setdefault(e, len(self.ids) + 1)
        self.block_of[ni] = b
        return b

    def struck(self, ni: int) -> bool:
        """Drawn struck through: a line-through decoration on the node or an ancestor (decorations propagate)."""
        d = self.doc
        return self._up(ni, self.struck_of, lambda e: bool(
            (st := d.style(e) if d.nodes["nodeType"][e] == 1 else None) and "line-through" in st[2]) or None)

    def editable(self, ni: int) -> bool:
        """Inside a contenteditable element (the nearest ancestor that says true or false decides)."""
        d = self.doc

        def own(e: int) -> bool | None:
            v = d.attrs[e].get("contenteditable") if d.nodes["nodeType"][e] == 1 else None
            if v is None:
                return None
            return v.lower() in ("", "true", "plaintext-only")
        return self._up(ni, self.edit_of, own)

    def _up(self, ni: int, memo: dict[int, bool], own: Any) -> bool:
        """The first answer ``own`` gives walking up from ``ni`` (False at the root), memoised along the way."""
        path = []
        e, ans = ni, False
        while e >= 0:
            if e in memo:
                ans = memo[e]
                break
            v = own(e)
            if v is not None:
                ans = bool(v)
                memo[e] = ans
                break
            path.append(e)
            e = self.doc.parent[e]
        for p in path:
            memo[p] = ans
        return ans

    def clip(self, ni: int) -> tuple[float, float, float, float]:
        """The box (page coordinates) that overflow clips the content of ``ni`` to: every ancestor in its
        containing-block chain whose overflow is not visible (an absolutely positioned box escapes the static boxes
        between it and its containing block, a fixed one all but a transformed ancestor)."""
        d = self.doc
        path: list[tuple[int, str, tuple[float, float, float, float]]] = []
        e, escape = ni, ""
        c = (-1e9, -1e9, 1e9, 1e9)
        while e >= 0:
            if (e, escape) in self.clip_of:
                c = self.clip_of[(e, escape)]
                break
            st = d.style(e) if d.nodes["nodeType"][e] == 1 else None
            box = (-1e9, -1e9, 1e9, 1e9)
            up = escape
            if st is not None:
                pos, ovx, ovy, transform = st[3], st[4], st[5], st[6]
                contains_fixed = transform not in ("", "none")
                contains_abs = pos in ("relative", "absolute", "fixed", "sticky") or contains_fixed
                # this box's overflow clips what we came from only where it is in the containing-block chain
                if not escape or (escape == "absolute" and contains_abs) or (escape == "fixed" and contains_fixed):
                    if ((ovx not in ("visible", "")) or (ovy not in ("visible", ""))) and d.name(e) not in ("HTML", "BODY"):
                        x, y, w, h = d.layout["bounds"][d.layout_of[e]]
                        box = (x, y, x + w, y + h)
                    up = pos if pos in ("fixed", "absolute") else ""
            path.append((e, escape, box))
            e, escape = d.parent[e], up
        for node, esc, box in reversed(path):
            c = (max(box[0], c[0]), max(box[1], c[1]), min(box[2], c[2]), min(box[3], c[3]))
            self.clip_of[(node, esc)] = c
        return c


@dataclass
class _Cand:
    """A text the layout puts on screen, before the pixels say whether it is seen."""

    t: str
    box: tuple[float, float, float, float]  # x, y, w, h in viewport pixels
    region: tuple[float, float, float, float]  # x0, y0, x1, y1: the box inside its clip and the viewport
    fs: float
    k: str
    b: int
    e: bool
    st: bool
    po: int  # paint order: a higher one is drawn over a lower one
    words: list[tuple[str, float, float]] | None = None  # per word: text, x0, x1 (text line boxes only)
    node: int = 0  # the backend id of its DOM text node (0: generated content, a field)


def _font_px(st: list[str] | None) -> float:
    try:
        return float((st or [""])[0].rstrip("px") or 0)
    except ValueError:
        return 0.0


def _candidates(doc: _Doc, w: int, h: int) -> list[_Cand]:
    sx, sy = doc.scroll
    lay, tb = doc.layout, doc.boxes
    orders = lay.get("paintOrders") or []
    blocks = _Blocks(doc)
    out: list[_Cand] = []

    def region(node: int, x: float, y: float, bw: float, bh: float) -> tuple[float, float, float, float] | None:
        """The part of a box (viewport coordinates) inside the viewport and its ancestors' clip; None when less than
        half of it is."""
        if bw < 1 or bh < 1:
            return None
        c = blocks.clip(node)
        x0, y0 = max(x, 0, c[0] - sx), max(y, 0, c[1] - sy)
        x1, y1 = min(x + bw, w, c[2] - sx), min(y + bh, h, c[3] - sy)
        if x1 <= x0 or y1 <= y0 or (x1 - x0) * (y1 - y0) < 0.5 * bw * bh * (0.999 if bw * bh > 4 else 1):
            return None
        return (x0, y0, x1, y1)

    # line boxes of texts (text nodes, generated content, SVG text)
    for k in range(len(tb.get("layoutIndex", []))):
        li = tb["layoutIndex"][k]
        ni = lay["nodeIndex"][li]
        full = doc.s(lay["text"][li])
        if not full:
            continue
        start, length = tb["start"][k], tb["length"][k]
        s = full[start:start + length]
        if not s.strip():
            continue
        owner = doc.parent[ni] if doc.nodes["nodeType"][ni] == 3 else ni  # a pseudo element's text is its own
        if doc.pseudo.get(owner) == "marker" or doc.pseudo.get(ni) == "marker":
            continue  # list bullets and numbers are decoration
        if owner >= 0 and doc.name(owner) in ("TEXTAREA", "OPTION", "SELECT"):
            continue  # read as the field's value
        x, y, bw, bh = tb["bounds"][k]
        x, y = x - sx, y - sy
        fs = _font_px(doc.style(ni) or doc.style(owner))
        if fs < MIN_FONT_PX:
            continue
        words = []
        for m in _WORD.finditer(s):
            a, b = x + bw * m.start() / len(s), x + bw * m.end() / len(s)
            if region(owner, a, y, b - a, bh) is not None:  # a word mostly clipped away is not read
                words.append((m.group(0), a, b))
        if not words:
            continue
        reg = region(owner, words[0][1], y, words[-1][2] - words[0][1], bh)
        if reg is None:
            continue
        out.append(_Cand(t=" ".join(t for t, _, _ in words), box=(x, y, bw, bh), region=reg, fs=fs, k="text",
                         b=blocks.block(owner), e=blocks.editable(owner), st=blocks.struck(owner),
                         po=orders[li] if li < len(orders) else 0, words=words,
                         node=(doc.nodes["backendNodeId"][ni] if doc.nodes["nodeType"][ni] == 3 else 0)))
        if len(out) >= 4 * MAX_FRAGS:
            break

    # fields: the value an input, text area or menu shows (or its placeholder), a submit button's label; the options
    # a list box shows
    for ni, li in doc.layout_of.items():
        name = doc.name(ni)
        if name not in ("INPUT", "TEXTAREA", "SELECT"):
            continue
        a = doc.attrs[ni]
        typ = a.get("type", "").lower()
        if name == "INPUT" and typ in _SKIP_INPUTS:
            continue
        x, y, bw, bh = lay["bounds"][li]
        x, y = x - sx, y - sy
        fs = _font_px(doc.style(ni))
        if fs < MIN_FONT_PX:
            continue
        po = orders[li] if li < len(orders) else 0
        kind = "field"
        opts = [o for c in doc.children.get(ni, []) for o in ([c] if doc.name(c) == "OPTION" else doc.children.get(c, []))
                if doc.name(o) == "OPTION"]
        if name == "SELECT" and ("multiple" in a or _int(a.get("size")) > 1):
            for o in opts:  # a list box shows its options
                lo = doc.layout_of.get(o)
                if lo is None:
                    continue
                ox, oy, ow, oh = lay["bounds"][lo]
                reg = region(ni, ox - sx, oy - sy, ow, oh)
                txt = " ".join(doc.text_of(o).split())
                if reg is not None and txt:
                    out.append(_Cand(t=txt, box=(ox - sx, oy - sy, ow, oh), region=reg, fs=fs, k="text",
                                     b=blocks.block(ni), e=False, st=False, po=po))
            continue
        if name == "SELECT":
            chosen = next((o for o in opts if o in doc.selected), opts[0] if opts else None)
            v = doc.text_of(chosen) if chosen is not None else ""
        elif name == "INPUT" and typ in ("submit", "button", "reset"):
            v = doc.input_value.get(ni) or a.get("value") or {"submit": "Submit", "reset": "Reset"}.get(typ, "")
            kind = "button"
        else:
            v = doc.text_value.get(ni, "") if name == "TEXTAREA" else doc.input_value.get(ni, a.get("value", ""))
            if not v:
                v, kind = a.get("placeholder", ""), "placeholder"
        v = " ".join(v.split())[:2000]
        reg = region(doc.parent[ni], x, y, bw, bh)
        if not v or reg is None:
            continue
        # a field a person can type into: not read-only, not disabled (a menu counts, as it did for the old reader)
        editable = kind == "field" and "readonly" not in a and "disabled" not in a
        out.append(_Cand(t=v, box=(x, y, bw, bh), region=reg, fs=fs, k=kind, b=blocks.block(ni), e=editable, st=False,
                         po=po))
    return out


def _int(v: str | None) -> int:
    try:
        return int(v or 0)
    except ValueError:
        return 0


def _ink(shown: bytes, hidden: bytes) -> Any:
    """Where the two pictures differ by at least INK_LEVEL in some channel (a boolean array the size of the
    viewport). Pillow's channel operations, in C: a tenth of the time numpy takes on 16-bit copies."""
    import numpy as np
    from PIL import Image, ImageChops

    with Image.open(io.BytesIO(shown)) as a, Image.open(io.BytesIO(hidden)) as b:
        pa, pb = a.convert("RGB"), b.convert("RGB")
    if pa.size != pb.size:
        raise RuntimeError(f"the two pictures of the page differ in size ({pa.size} vs {pb.size})")
    r, g, bl = ImageChops.difference(pa, pb).split()
    return np.asarray(ImageChops.lighter(ImageChops.lighter(r, g), bl)) >= INK_LEVEL


def _need(fs: float, chars: int) -> float:
    """Ink a run of ``chars`` glyphs at ``fs`` px leaves at least, when it is drawn legibly: a glyph inks about a
    tenth of its em box; a third of that counts as seen (a thin font, a glyph partly under a cover)."""
    return max(2.0, 0.018 * fs * fs * max(chars, 1))


class _Cover:
    """Regions of texts already found painted, by paint order: the ink inside them is theirs, not that of a text
    drawn beneath (a tooltip's words over a paragraph)."""

    CELL = 64

    def __init__(self) -> None:
        self.cells: dict[tuple[int, int], list[tuple[float, float, float, float, int]]] = {}

    def add(self, r: tuple[float, float, float, float], po: int) -> None:
        for key in self._keys(r):
            self.cells.setdefault(key, []).append((*r, po))

    def over(self, r: tuple[float, float, float, float], po: int) -> list[tuple[float, float, float, float]]:
        seen, out = set(), []
        for key in self._keys(r):
            for o in self.cells.get(key, ()):
                if o[4] > po and o not in seen and o[0] < r[2] and o[2] > r[0] and o[1] < r[3] and o[3] > r[1]:
                    seen.add(o)
                    out.append(o[:4])
        return out

    def _keys(self, r: tuple[float, float, float, float]) -> list[tuple[int, int]]:
        c = self.CELL
        return [(i, j) for i in range(int(r[0] // c), int(r[2] // c) + 1) for j in range(int(r[1] // c), int(r[3] // c) + 1)]


def _count(ink: Any, r: tuple[float, float, float, float], covers: list) -> tuple[int, float]:
    """Ink pixels in region ``r`` outside ``covers``, and the share of ``r`` left to look at."""
    h, w = ink.shape
    a, b = max(0, int(r[0])), min(w, int(r[2] + 0.999))
    c, d = max(0, int(r[1])), min(h, int(r[3] + 0.999))
    if b <= a or d <= c:
        return 0, 0.0
    sub = ink[c:d, a:b]
    if not covers:
        return int(sub.sum()), 1.0
    import numpy as np

    keep = np.ones(sub.shape, dtype=bool)
    for o in covers:
        keep[max(0, int(o[1]) - c):max(0, int(o[3] + 0.999) - c), max(0, int(o[0]) - a):max(0, int(o[2] + 0.999) - a)] = False
    return int(sub[keep].sum()), float(keep.mean())


def _columns(ink: Any, r: tuple[float, float, float, float], covers: list) -> tuple[Any, float]:
    """The columns of region ``r`` with ink outside ``covers`` (bools, left to right), and the share left to see."""
    import numpy as np

    h, w = ink.shape
    a, b = max(0, int(r[0])), min(w, int(r[2] + 0.999))
    c, d = max(0, int(r[1])), min(h, int(r[3] + 0.999))
    if b <= a or d <= c:
        return np.zeros(0, dtype=bool), 0.0
    sub = ink[c:d, a:b]
    if not covers:
        return sub.sum(axis=0), 1.0
    keep = np.ones(sub.shape, dtype=bool)
    for o in covers:
        keep[max(0, int(o[1]) - c):max(0, int(o[3] + 0.999) - c), max(0, int(o[0]) - a):max(0, int(o[2] + 0.999) - a)] = False
    return (sub & keep).sum(axis=0), float(keep.mean())


def _whole(c: "_Cand", cols: Any, left: float) -> str:
    """Is a line of text painted as a whole ("all"), not at all ("none"), or in part ("part")?

    All: its glyphs leave the ink a line of its length leaves, from within an em of its start to within an em of
    its end, with no stretch without ink wider than two ems inside it (spaces are a quarter of one). None: hardly
    any ink, or it lies under texts drawn over it."""
    chars = sum(len(t) for t, _, _ in c.words or [])
    total = float(cols.sum()) if len(cols) else 0.0
    need = _need(c.fs, chars)
    if left < 0.25 or total < 0.2 * need * left:
        return "none"
    if total < 0.5 * need * left:
        return "part"
    inked = [i for i, v in enumerate(cols) if v > 0]
    em = max(c.fs, 4.0)
    x0 = c.region[0]
    words = c.words or []
    first, last = words[0][1] - x0, words[-1][2] - x0
    if inked[0] > first + em or inked[-1] < last - em:
        return "part"
    gap = run = 0
    for v in cols[inked[0]:inked[-1] + 1]:
        run = run + 1 if v == 0 else 0
        gap = max(gap, run)
    return "all" if gap <= 2 * em else "part"


def _painted(cands: list[_Cand], ink: Any, precise: dict[int, list[tuple[str, float, float]]] | None = None,
             ) -> tuple[list[dict], list[int]]:
    """The fragments whose glyphs show in the pictures, in reading order, and the candidates painted only in part
    whose words' exact places would settle which words show (``precise`` gives them, by candidate index).

    Topmost first, so that the ink under another text's words is not taken for the text beneath. A line of text
    is judged whole first (nearly always all or nothing); one painted in part is judged word by word, at the words'
    exact places when ``precise`` has them, else at places proportional to their characters."""
    frags: list[tuple[int, dict]] = []
    partial: list[int] = []
    cover = _Cover()
    precise = precise or {}

    def push(k: int, t: str, x0: float, x1: float, c: _Cand) -> None:
        r = (x0, c.region[1], x1, c.region[3])
        cover.add(r, c.po)
        x, y, _, bh = c.box
        frags.append((k, {"t": t, "x": round(x0 if c.words else x), "y": round(y), "w": round(x1 - x0 if c.words else c.box[2]),
                          "h": round(bh), "fs": round(c.fs), "k": c.k, "b": c.b, "e": c.e, "st": c.st and c.k == "text"}))

    for k, c in sorted(enumerate(cands), key=lambda kc: -kc[1].po):
        if len(frags) >= MAX_FRAGS:
            break
        covers = cover.over(c.region, c.po)
        if c.words is None:  # a field: its value is painted somewhere inside the box, within its border
            chars = min(len(c.t.replace(" ", "")), max(1, int(c.box[2] / max(c.fs * 0.55, 1))))
            r = c.region
            dx, dy = min(3.0, (r[2] - r[0]) * 0.1), min(3.0, (r[3] - r[1]) * 0.1)
            n, left = _count(ink, (r[0] + dx, r[1] + dy, r[2] - dx, r[3] - dy), covers)
            if left > 0.25 and n >= _need(c.fs, chars) * left:
                push(k, c.t, c.region[0], c.region[2], c)
            continue
        cols, left = _columns(ink, c.region, covers)
        verdict = _whole(c, cols, left)
        if verdict == "all":
            push(k, c.t, c.box[0], c.box[0] + c.box[2], c)
            continue
        if verdict == "none":
            continue
        words = precise.get(k)
        if words is None:
            partial.append(k)
            words = c.words
            pad = 0.0
        else:
            pad = 1.0
        seen = []
        for t, a, b in words:
            # exact places: the word's box and a pixel of margin; proportional places: the middle of the estimate,
            # so that a neighbour's ink at a misplaced edge does not decide
            m = -pad if pad else (b - a) * 0.15
            r = (max(a + m, c.region[0]), c.region[1], min(b - m, c.region[2]), c.region[3])
            n, part = _count(ink, r, covers)
            seen.append(part > 0.25 and n >= 0.7 * _need(c.fs, len(t)) * part)
        run: list[tuple[str, float, float]] = []
        for (t, a, b), ok in zip([*words, ("", 0.0, 0.0)], [*seen, False]):
            if ok:
                run.append((t, a, b))
            elif run:
                push(k, " ".join(r[0] for r in run), run[0][1], run[-1][2], c)
                run = []
    frags.sort(key=lambda kf: kf[0])
    return [f for _, f in frags], partial


#: the exact boxes of a text node's words (viewport coordinates), for lines painted only in part
WORDS_JS = r"""function () {
  const out = [], s = this.nodeValue || '', re = /\S+/g, r = document.createRange();
  let m, n = 0;
  while ((m = re.exec(s)) && n++ < 4000) {
    r.setStart(this, m.index); r.setEnd(this, m.index + m[0].length);
    for (const b of r.getClientRects()) if (b.width >= 1 && b.height >= 1) out.push([m[0], b.left, b.right, b.top, b.bottom]);
  }
  return out;
}"""


async def _world(cdp: Any, timeout_s: float) -> int:
    """A fresh isolated world of the main frame (the page's own world cannot see or change it): its context id."""
    tree = await asyncio.wait_for(cdp.send("Page.getFrameTree"), timeout_s)
    frame_id = tree["frameTree"]["frame"]["id"]
    world = await asyncio.wait_for(cdp.send("Page.createIsolatedWorld", {
        "frameId": frame_id, "worldName": "iwr-reader", "grantUniveralAccess": False}), timeout_s)
    return int(world["executionContextId"])


async def _eval(cdp: Any, ctx: int, expression: str, timeout_s: float) -> Any:
    return await asyncio.wait_for(cdp.send("Runtime.evaluate", {
        "expression": expression, "contextId": ctx, "returnByValue": True, "awaitPromise": False,
        "timeout": int(timeout_s * 1000)}), timeout_s + 1)


async def _word_boxes(cdp: Any, ctx: int, cands: list[_Cand], which: list[int], timeout_s: float,
                      ) -> dict[int, list[tuple[str, float, float]]]:
    """The exact places of the words of candidates ``which`` (their DOM text nodes measured in the isolated world),
    those on each candidate's own line."""
    out: dict[int, list[tuple[str, float, float]]] = {}
    boxes: dict[int, list] = {}
    for k in which[:200]:
        c = cands[k]
        if not c.node:
            continue
        if c.node not in boxes:
            try:
                obj = await asyncio.wait_for(cdp.send("DOM.resolveNode", {"backendNodeId": c.node,
                                                                          "executionContextId": ctx}), timeout_s)
                res = await asyncio.wait_for(cdp.send("Runtime.callFunctionOn", {
                    "objectId": obj["object"]["objectId"], "functionDeclaration": WORDS_JS, "returnByValue": True}),
                    timeout_s)
                boxes[c.node] = list((res.get("result") or {}).get("value") or [])
            except Exception:
                boxes[c.node] = []
        y0, y1 = c.box[1], c.box[1] + c.box[3]
        words = [(str(w), float(a), float(b)) for w, a, b, t, btm in boxes[c.node]
                 if y0 - 1 <= (t + btm) / 2 <= y1 + 1 and b > c.box[0] - 1 and a < c.box[0] + c.box[2] + 1]
        if words:
            out[k] = words
    return out


async def shoot(page: Any, path: str | None = None, *, timeout_ms: int = 10000) -> tuple[bytes, bytes]:
    """The step's screenshot (saved to ``path``) and its text-free twin, taken under one hold (``read_view``'s
    ``shot`` and ``hidden``)."""
    from .settle import screenshots

    shown, hidden = await screenshots(page, path, timeout_ms=timeout_ms, styles=("", HIDE_TEXT_STYLE))
    return shown, hidden


async def read_view(page: Any, *, shot: bytes | None = None, hidden: bytes | None = None,
                    timeout_s: float = 20.0) -> dict:
    """The page's visible text now: ``{url, w, h, scroll, frags, truncated}`` (see the module doc).

    ``shot`` and ``hidden``: the screenshot just taken of this moment and its text-free twin (``shoot``); taken here
    when not given."""
    from .settle import screenshot

    tmo = int(timeout_s * 1000)
    cdp = await page.context.new_cdp_session(page)
    try:
        ctx = await _world(cdp, timeout_s)
        await timed("view.finish", _eval(cdp, ctx, f"({FINISH_JS})()", timeout_s))
        if shot is None:
            shot, hidden = await timed("view.screenshots", shoot(page, timeout_ms=tmo))
        elif hidden is None:
            hidden = await timed("view.text_free_screenshot", screenshot(page, timeout_ms=tmo, extra_style=HIDE_TEXT_STYLE))
        await _eval(cdp, ctx, f"({_CANCEL_JS})()", timeout_s)
        snap = await timed("view.layout", asyncio.wait_for(cdp.send("DOMSnapshot.captureSnapshot", {
            "computedStyles": _STYLES, "includePaintOrder": True, "includeDOMRects": False}), timeout_s))
        metrics = await asyncio.wait_for(cdp.send("Page.getLayoutMetrics"), timeout_s)
        vp = metrics.get("cssLayoutViewport") or metrics.get("layoutViewport") or {}
        w, h = int(vp.get("clientWidth") or 0), int(vp.get("clientHeight") or 0)
        docs = snap.get("documents") or []
        if not docs:
            return {"url": "", "w": w, "h": h, "scroll": [0, 0], "frags": [], "truncated": False}
        d0 = docs[0]
        strings = snap.get("strings") or []
        doc = _Doc(strings=strings, nodes=d0["nodes"], layout=d0["layout"], boxes=d0.get("textBoxes") or {},
                   scroll=(float(d0.get("scrollOffsetX") or 0), float(d0.get("scrollOffsetY") or 0)),
                   url=strings[d0["documentURL"]] if 0 <= d0.get("documentURL", -1) < len(strings) else "")
        ink = await timed("view.ink", asyncio.to_thread(_ink, shot, hidden))
        ih, iw = ink.shape
        with phase("view.read"):
            cands = _candidates(doc, min(w or iw, iw), min(h or ih, ih))
            frags, partial = _painted(cands, ink)
        if partial:  # lines painted only in part: their words at their exact places
            precise = await timed("view.words", _word_boxes(cdp, ctx, cands, partial, timeout_s))
            if precise:
                frags, _ = _painted(cands, ink, precise)
    finally:
        try:
            await cdp.detach()
        except Exception:
            pass
    return {"url": doc.url, "w": w or iw, "h": h or ih, "scroll": [doc.scroll[0], doc.scroll[1]], "frags": frags,
            "truncated": len(frags) >= MAX_FRAGS}
