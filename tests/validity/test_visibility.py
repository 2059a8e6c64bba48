"""Visible means painted: the reader agrees with the pixels on every page of the visibility set.

Each case is a page of common CSS (a tooltip that takes no pointer events, a toast, a badge drawn by ::after,
an SVG label, overlays, a modal, placeholders, field values, clipping, text drawn by its shadow or its
background) and a twin in which the same text is laid out but hidden by paint alone. The label is by
construction; Tesseract reading the screenshot must agree with it (else the case itself is wrong), and so must
the reader.
"""

from __future__ import annotations

import pytest

from iwrbench.validity.visibility import CASES, judge_case

pytestmark = pytest.mark.browser


@pytest.mark.parametrize("case", CASES, ids=[c.name for c in CASES])
async def test_the_reader_sees_what_is_painted_and_nothing_else(browser, case):
    for hidden in (False, True):
        seen, ocr = await judge_case(browser, case, hidden)
        assert ocr == (not hidden), f"bad case: OCR {'reads' if ocr else 'misses'} {case.phrase!r} on the {'hidden' if hidden else 'shown'} page"
        assert seen == (not hidden), f"the reader {'counts' if seen else 'misses'} {case.phrase!r} on the {'hidden' if hidden else 'shown'} page"
