"""Comparing names and texts the way a person reads them, not the way markup spells them.

A page rebuilt from a video shows the same words as its source but may spell them with other
code points: ``N<sup>o</sup>`` or ``Nº`` for "No", the ligature "ﬁ" for "fi", a full-width
"Ｓａｖｅ", curly or straight quotes, an icon-font glyph (a private-use character) before the
label, a zero-width space, other case or other whitespace. :func:`norm_name` maps all of these
to one form; :func:`name_match` also tolerates differences of punctuation and symbols where
that is safe ("Next →" = "Next", "E-mail" = "Email", but never "C++" = "C#" or "-10" = "10").

Used by the judge's grounding (``judge/ground.py``) and free for any other comparison of names.
"""

from __future__ import annotations

import re
import unicodedata

from rapidfuzz import fuzz

__all__ = ["norm_name", "loose_name", "name_match", "names_conflict", "quoted_phrases", "quoted_spans", "words"]

# folded after NFKC: typographic quotes and dashes to ASCII, the degree sign used as "numero"
_FOLD = str.maketrans({
    "\u2018": "'", "\u2019": "'", "\u201a": "'", "\u201b": "'", "\u2032": "'", "\u00b4": "'", "`": "'",
    "\u201c": '"', "\u201d": '"', "\u201e": '"', "\u201f": '"', "\u2033": '"', "\u00ab": '"', "\u00bb": '"',
    "\u2010": "-", "\u2011": "-", "\u2012": "-", "\u2013": "-", "\u2014": "-", "\u2015": "-", "\u2212": "-",
})
_NUMERO = re.compile(r"(?<![^\W\d_])n\u00b0")  # "N°" (degree sign) read as "No" like "Nº"
_WS = re.compile(r"\s+")


def _keep(ch: str) -> bool:
    cat = unicodedata.category(ch)
    if cat == "Co" or cat == "Cs":  # private use (icon fonts), lone surrogates
        return False
    if cat == "Cf":  # zero-width space/joiners, soft hyphen, bidi marks, BOM
        return False
    if cat == "Cc":
        return ch in "\t\n\r\f\v"
    if cat == "Mn" and ("\ufe00" <= ch <= "\ufe0f" or "\U000e0100" <= ch <= "\U000e01ef"):
        return False  # variation selectors
    return True


def norm_name(s: str | None) -> str:
    """One comparable form: NFKC, icon glyphs and invisible characters dropped, typographic
    quotes/dashes folded, casefolded, whitespace collapsed."""
    if not s:
        return ""
    s = unicodedata.normalize("NFKC", s)
    s = "".join(ch for ch in s if _keep(ch))
    s = s.translate(_FOLD).casefold()
    s = _NUMERO.sub("no", s)
    return _WS.sub(" ", s).strip()


def loose_name(s: str | None) -> str:
    """:func:`norm_name` with punctuation and symbols (arrows, emoji, bullets) turned into spaces."""
    n = norm_name(s)
    if not n:
        return ""
    out = []
    for ch in n:
        c = unicodedata.category(ch)[0]
        out.append(" " if c in "PS" else ch)
    return _WS.sub(" ", "".join(out)).strip()


def _safe_loose(key: str) -> bool:
    """A punctuation-free key is distinctive enough to stand for a name: two or more letters or
    digits, not only digits (a sign or currency can be the whole meaning of a number)."""
    core = key.replace(" ", "")
    return len(core) >= 2 and not core.isdigit()


def name_match(a: str | None, b: str | None) -> int:
    """2 = the same after :func:`norm_name`; 1 = the same but for punctuation/symbols or the
    spaces between words ("Sign-in" = "Sign in"), where safe; 0 = different (or either empty)."""
    na, nb = norm_name(a), norm_name(b)
    if not na or not nb:
        return 0
    if na == nb:
        return 2
    la, lb = loose_name(na), loose_name(nb)
    if not la or not lb or not _safe_loose(la):
        return 0
    if la == lb:
        return 1
    sa, sb = la.replace(" ", ""), lb.replace(" ", "")
    if sa == sb and len(sa) >= 4:
        return 1
    return 0


_WORD = re.compile(r"[^\W_]+")


def words(s: str | None) -> list[str]:
    """The words of a text, normalised (letters and digits only)."""
    return _WORD.findall(norm_name(s))


def names_conflict(a: str | None, b: str | None) -> bool:
    """True when two non-empty names are clearly about different things: no word in common,
    neither inside the other and not a near spelling ("Delete" vs "Archive"; not "Add to cart"
    vs "Add to basket", not "Colour" vs "Color"). Names of one letter or digit never conflict."""
    la, lb = loose_name(a), loose_name(b)
    if len(la.replace(" ", "")) < 2 or len(lb.replace(" ", "")) < 2:  # "X", "+", "1": too little to tell
        return False
    if la in lb or lb in la:
        return False
    wa = {w for w in la.split() if len(w) >= 2}
    wb = {w for w in lb.split() if len(w) >= 2}
    if wa & wb:
        return False
    return fuzz.ratio(la, lb) < 70


# an opening quote not preceded by a word character, a phrase (apostrophes between letters allowed),
# a closing quote not followed by one
_QUOTED = re.compile(
    r"(?<!\w)[\"'\u2018\u201c\u00ab]((?:[^\"'\u2018\u2019\u201c\u201d\u00ab\u00bb]|(?<=\w)['\u2019](?=\w)){1,80}?)"
    r"[\"'\u2019\u201d\u00bb](?!\w)"
)


def quoted_phrases(desc: str | None) -> list[str]:
    """Phrases the description puts in quotes ("the 'Don't save' button" -> ["Don't save"])."""
    if not desc:
        return []
    return [m.strip() for m in _QUOTED.findall(desc) if m.strip()]


def quoted_spans(desc: str | None) -> list[tuple[int, int, str]]:
    """Where the description's quoted phrases are: (start, end of the quotes, the phrase)."""
    if not desc:
        return []
    return [(m.start(), m.end(), m.group(1).strip()) for m in _QUOTED.finditer(desc) if m.group(1).strip()]
