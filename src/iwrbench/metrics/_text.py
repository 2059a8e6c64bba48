"""Text similarity of two OCR readings.

``ocr_similarity`` is the published OCR score: 1 - Levenshtein(gt, gen) / max(len) over lower-cased
text, 1.0 when both are empty, 0.0 when exactly one is. What the paper leaves open, decided here:

* Whitespace: every run of whitespace (spaces, tabs, line breaks, blank lines) becomes one space
  and the ends are stripped, on both sides, before measuring. OCR engines differ mostly in how
  they lay out lines (Tesseract emits line breaks and blank lines between blocks; EasyOCR's
  fragments are joined with spaces), and a score should not depend on that. A text that is only
  whitespace counts as empty.
* Lower-casing uses ``str.lower()`` (as the published code), after the whitespace collapse.
* Levenshtein is rapidfuzz's (unit costs for insert, delete and substitute; characters are
  Unicode code points).

``word_f1`` complements it for the offline rubric: an order-free F1 over the multiset of words,
so a page whose blocks are read in another order is not punished twice.
"""

from __future__ import annotations

import re
from collections import Counter

_WS = re.compile(r"\s+")
# Punctuation stripped from both ends of a word for word_f1 ("cart," -> "cart"; "$19.99" stays).
_EDGE_PUNCT = "\"'`.,;:!?()[]{}<>|*_~-\u2018\u2019\u201c\u201d\u00b7\u2022"


def normalise_text(text: str | None) -> str:
    """Lower-cased text with every whitespace run collapsed to one space and the ends stripped."""
    if not text:
        return ""
    return _WS.sub(" ", text).strip().lower()


def ocr_similarity(gt_text: str | None, gen_text: str | None) -> float:
    """Published OCR similarity in [0, 1]: 1 - Levenshtein / max(len) of normalised texts."""
    from rapidfuzz.distance import Levenshtein

    a = normalise_text(gt_text)
    b = normalise_text(gen_text)
    if not a and not b:
        return 1.0
    if not a or not b:
        return 0.0
    return 1.0 - Levenshtein.distance(a, b) / max(len(a), len(b))


def words(text: str | None) -> list[str]:
    """Lower-cased words of ``text``: whitespace-separated, punctuation stripped from the ends."""
    out = []
    for token in normalise_text(text).split(" "):
        token = token.strip(_EDGE_PUNCT)
        if token:
            out.append(token)
    return out


def word_f1(gt_text: str | None, gen_text: str | None) -> float:
    """F1 of the word multisets in [0, 1] (order-free); both empty = 1, one empty = 0."""
    a = Counter(words(gt_text))
    b = Counter(words(gen_text))
    na, nb = sum(a.values()), sum(b.values())
    if na == 0 and nb == 0:
        return 1.0
    if na == 0 or nb == 0:
        return 0.0
    common = sum((a & b).values())
    if common == 0:
        return 0.0
    precision = common / nb
    recall = common / na
    return 2 * precision * recall / (precision + recall)


def published_ocr_similarity(gt_text: str | None, gen_text: str | None) -> float:
    """The OCR similarity exactly as the published code computes it (iwr-bench@1): lower-cased, whitespace
    kept as read; 1.0 when both are empty, 0.0 when exactly one is."""
    from rapidfuzz.distance import Levenshtein

    a, b = (gt_text or "").lower(), (gen_text or "").lower()
    if not a and not b:
        return 1.0
    if not a or not b:
        return 0.0
    return 1.0 - Levenshtein.distance(a, b) / max(len(a), len(b))
