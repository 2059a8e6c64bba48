"""A person's reading of the viewport: visible text grouped into lines, and phrases found in it.

:data:`iwrbench.browser.view.VIEW_JS` returns the fragments of text rendered inside the viewport; here
they are grouped as a reader groups them — fragments on one row and close together form a line, lines
stacked closely form a paragraph — and phrases are looked up in the paragraphs' token streams.

Matching ignores markup and typography: Unicode NFKC (ligatures, superscripts, full-width forms), case,
whitespace, punctuation and icon-font glyphs (private-use characters). A phrase matches where its
tokens, joined, equal a run of the stream's tokens, joined, that starts and ends on token boundaries:
``'1 item left'`` matches ``1`` + ``item left`` from two elements, ``'4 +4'`` matches ``4+4``, and
``'All'`` does not match inside ``Allowed``.

Channels: *text* (rendered text, button labels, the values of read-only fields), *field* (what
editable fields show, and placeholders of empty ones) and *struck* (text drawn struck through, a subset
of text). Checks count phrases in the text channel unless they say otherwise; the typed-text rule also
looks at fields.
"""

from __future__ import annotations

import re
import unicodedata
from dataclasses import dataclass, field
from typing import Any

_INVISIBLE = re.compile("[\ue000-\uf8ff\U000f0000-\U000ffffd\U00100000-\U0010fffd\u200b-\u200f\u2060\ufeff\u00ad]")
_TOKEN = re.compile(r"[^\W_]+")


def tokens(s: str | None) -> list[str]:
    """Words of ``s`` as a reader compares them (NFKC, casefolded, punctuation and glyphs dropped)."""
    if not s:
        return []
    s = _INVISIBLE.sub("", unicodedata.normalize("NFKC", s)).casefold()
    return _TOKEN.findall(s)


def norm_text(s: str | None) -> str:
    return " ".join(tokens(s))


@dataclass
class Frag:
    t: str
    x: float
    y: float
    w: float
    h: float
    fs: float = 12
    k: str = "text"  # text | field | placeholder | button
    b: int = 0
    e: bool = False
    st: bool = False  # struck through

    @property
    def cy(self) -> float:
        return self.y + self.h / 2

    @property
    def channel(self) -> str:
        if self.k in ("text", "button") or (self.k == "field" and not self.e):
            return "text"
        return "field"


@dataclass
class Line:
    frags: list[Frag]

    @property
    def text(self) -> str:
        return " ".join(f.t for f in self.frags)

    @property
    def x0(self) -> float:
        return min(f.x for f in self.frags)

    @property
    def x1(self) -> float:
        return max(f.x + f.w for f in self.frags)

    @property
    def y0(self) -> float:
        return min(f.y for f in self.frags)

    @property
    def y1(self) -> float:
        return max(f.y + f.h for f in self.frags)

    @property
    def h(self) -> float:
        return self.y1 - self.y0


class _Stream:
    """Tokens joined without separators, with the offsets where tokens start and end."""

    def __init__(self, toks: list[str]):
        self.joined = "".join(toks)
        self.bounds: set[int] = {0}
        n = 0
        for t in toks:
            n += len(t)
            self.bounds.add(n)

    def count(self, phrase: str) -> int:
        if not phrase:
            return 0
        n, i = 0, self.joined.find(phrase)
        while i >= 0:
            if i in self.bounds and (i + len(phrase)) in self.bounds:
                n += 1
                i = self.joined.find(phrase, i + len(phrase))
            else:
                i = self.joined.find(phrase, i + 1)
        return n


#: a reader joins fragments on a row when the gap is at most this many font sizes (a column gap splits)
READ_GAP = 1.6
#: phrases for checks are cut tighter: a run of text no wider apart than a few spaces
PHRASE_GAP = 0.6


def _rows(frags: list[Frag]) -> list[list[Frag]]:
    """Fragments whose vertical centres line up, left to right."""
    rows: list[list[Frag]] = []
    for f in sorted(frags, key=lambda f: (f.cy, f.x)):
        if rows:
            r = rows[-1]
            ref = sum(g.cy for g in r) / len(r)
            if abs(f.cy - ref) <= 0.5 * min(f.h, min(g.h for g in r)):
                r.append(f)
                continue
        rows.append([f])
    for r in rows:
        r.sort(key=lambda f: f.x)
    return rows


def _lines(frags: list[Frag], gap_factor: float = READ_GAP) -> list[Line]:
    """Fragments on one row, close together, form a line (left to right)."""
    rows = _rows(frags)
    out: list[Line] = []
    for r in rows:
        cur = [r[0]]
        for f in r[1:]:
            prev = cur[-1]
            gap = f.x - (prev.x + prev.w)
            if gap > max(gap_factor * max(f.fs, prev.fs), 14 * gap_factor / READ_GAP):
                out.append(Line(cur))
                cur = [f]
            else:
                cur.append(f)
        out.append(Line(cur))
    return out


def _paragraphs(lines: list[Line]) -> list[list[Line]]:
    """Lines stacked closely with overlapping extents form a paragraph (wrapped text reads on): lines that start
    at about the same place, or wrapped lines of one block (a centred paragraph's lines start at different places)."""
    paras: list[list[Line]] = []
    for ln in sorted(lines, key=lambda x: (x.y0, x.x0)):
        best = None
        blocks = {f.b for f in ln.frags} - {0}
        for p in paras:
            last = p[-1]
            gap = ln.y0 - last.y1
            aligned = abs(ln.x0 - last.x0) <= 2.5 * max(last.h, 1) or bool(blocks & {f.b for f in last.frags})
            if -0.3 * last.h <= gap <= 0.6 * last.h and min(ln.x1, last.x1) - max(ln.x0, last.x0) > 0 and aligned:
                best = p
                break
        if best is None:
            paras.append([ln])
        else:
            best.append(ln)
    return paras


@dataclass
class View:
    """The visible text of a page at one moment."""

    url: str = ""
    size: tuple[int, int] = (0, 0)
    frags: list[Frag] = field(default_factory=list)
    truncated: bool = False

    def __post_init__(self) -> None:
        self._streams: dict[str, list[_Stream]] = {}
        self._lines: dict[str, list[Line]] = {}

    @classmethod
    def from_js(cls, d: dict[str, Any] | None) -> "View":
        d = d or {}
        frags = []
        for x in d.get("frags") or []:
            try:
                frags.append(Frag(t=str(x.get("t") or ""), x=float(x["x"]), y=float(x["y"]), w=float(x["w"]),
                                  h=float(x["h"]), fs=float(x.get("fs") or 12), k=str(x.get("k") or "text"),
                                  b=int(x.get("b") or 0), e=bool(x.get("e")), st=bool(x.get("st"))))
            except (KeyError, TypeError, ValueError):
                continue
        return cls(url=str(d.get("url") or ""), size=(int(d.get("w") or 0), int(d.get("h") or 0)), frags=frags,
                   truncated=bool(d.get("truncated")))

    def _in(self, channel: str) -> list[Frag]:
        """Fragments of a channel: text, field, or struck (text drawn struck through)."""
        if channel == "struck":
            return [f for f in self.frags if f.channel == "text" and f.st and f.t.strip()]
        return [f for f in self.frags if f.channel == channel and f.t.strip()]

    def lines(self, channel: str = "text") -> list[Line]:
        if channel not in self._lines:
            self._lines[channel] = _lines(self._in(channel))
        return self._lines[channel]

    def _streams_of(self, channel: str) -> list[_Stream]:
        if channel not in self._streams:
            self._streams[channel] = [_Stream([t for ln in p for t in tokens(ln.text)])
                                      for p in _paragraphs(self.lines(channel))]
        return self._streams[channel]

    def _row_streams(self, channel: str) -> list[_Stream]:
        key = "rows:" + channel
        if key not in self._streams:
            self._streams[key] = [_Stream([t for f in r for t in tokens(f.t)]) for r in _rows(self._in(channel))]
        return self._streams[key]

    def _blocks(self, channel: str) -> dict[int, list[Frag]]:
        """A channel's fragments by the block they belong to (0: none known)."""
        blocks: dict[int, list[Frag]] = {}
        for f in self._in(channel):
            blocks.setdefault(f.b, []).append(f)
        return blocks

    def _block_streams(self, channel: str) -> list[_Stream]:
        """Each block's own text, its lines top to bottom: a centred tooltip wrapped over two lines reads on even
        where the row of its first line runs into the text beside it."""
        key = "blocks:" + channel
        if key not in self._streams:
            self._streams[key] = [_Stream([t for ln in sorted(_lines(fr), key=lambda x: (x.y0, x.x0))
                                           for t in tokens(ln.text)])
                                  for b, fr in self._blocks(channel).items() if b and len(fr) > 1]
        return self._streams[key]

    def count(self, phrase: str, channel: str = "text") -> int:
        """How many times ``phrase`` is visible (0 when it has no words).

        Read along lines and wrapped paragraphs, along whole rows (a key and its value across an aligned gap,
        "Inbox ... 2"), and along each block's own lines (a wrapped tooltip over other text): the largest count of
        the three readings."""
        p = "".join(tokens(phrase))
        if not p:
            return 0
        return max(sum(s.count(p) for s in self._streams_of(channel)),
                   sum(s.count(p) for s in self._row_streams(channel)),
                   sum(s.count(p) for s in self._block_streams(channel)))

    def has(self, phrase: str, channel: str = "text") -> bool:
        return self.count(phrase, channel) > 0

    def text(self, channel: str = "text") -> str:
        """The visible text, line by line (for reports)."""
        return "\n".join(ln.text for ln in self.lines(channel))

    def items(self, channel: str = "text") -> list[tuple[str, tuple[float, float, float, float]]]:
        """Candidate phrases for checks: the visible text of each block, or its lines when long."""
        out: list[tuple[str, tuple[float, float, float, float]]] = []
        for fr in self._blocks(channel).values():
            # tight runs only, so that a phrase is something any faithful layout keeps together
            lines = _lines(fr, PHRASE_GAP)
            whole = " ".join(ln.text for ln in lines)
            wraps = all(b.y0 > a.y0 and abs(b.x0 - a.x0) <= 2.5 * max(a.h, 1) for a, b in zip(lines, lines[1:]))
            if len(whole) <= 80 and (len(lines) == 1 or wraps):
                out.append((whole, (min(x.x0 for x in lines), min(x.y0 for x in lines),
                                    max(x.x1 for x in lines), max(x.y1 for x in lines))))
            else:
                out += [(ln.text, (ln.x0, ln.y0, ln.x1, ln.y1)) for ln in lines if len(ln.text) <= 80]
        return out


def quoted_phrases(s: str | None) -> list[str]:
    """Phrases an assertion or description quotes: 'x', "x", ‘x’, “x” (apostrophes inside words ignored)."""
    if not s:
        return []
    pats = [r"(?<![\w])'([^'\n]{1,120}?)'(?![\w])", r'"([^"\n]{1,120}?)"', "\u2018([^\u2019\n]{1,120}?)\u2019",
            "\u201c([^\u201d\n]{1,120}?)\u201d"]
    found: list[tuple[int, str]] = []
    for p in pats:
        for m in re.finditer(p, s):
            t = m.group(1).strip()
            if t and tokens(t):
                found.append((m.start(), t))
    seen, out = set(), []
    for _, t in sorted(found):
        k = norm_text(t)
        if k not in seen:
            seen.add(k)
            out.append(t)
    return out


def contains_phrase(haystack: str, phrase: str) -> bool:
    """Does ``haystack`` contain ``phrase`` on token boundaries (same rule as the view)?"""
    p = "".join(tokens(phrase))
    return bool(p) and _Stream(tokens(haystack)).count(p) > 0


__all__ = ["View", "Frag", "Line", "tokens", "norm_text", "quoted_phrases", "contains_phrase"]

