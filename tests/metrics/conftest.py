"""Fixtures for the metrics tests: real Chromium screenshots of small local pages, rendered once."""

from __future__ import annotations

import pytest

import metrics_pages as pages
from metrics_pages import RANKED_FAMILIES


@pytest.fixture(scope="session")
def shots():
    """{"<family>/<variant>": PIL image} for identical, shift3, shift6, restyled, broken; plus
    "<family>/unrelated" (another family's page), "blank", and each page's DOM text as
    "<family>/identical:text"."""
    if pages.chromium_path() is None:
        pytest.skip("no Chromium (install chromium or set IWR_CHROMIUM) to render test pages")
    htmls = {}
    for fam in RANKED_FAMILIES:
        htmls[f"{fam}/identical"] = pages.page_html(fam)
        htmls[f"{fam}/shift3"] = pages.page_html(fam, shift=3)
        htmls[f"{fam}/shift6"] = pages.page_html(fam, shift=6)
        htmls[f"{fam}/restyled"] = pages.page_html(fam, restyled=True)
        htmls[f"{fam}/broken"] = pages.page_html(fam, broken=True)
    htmls["article/identical"] = pages.page_html("article")
    htmls["blank"] = pages.BLANK_HTML
    rendered = pages.render_pages_with_text(htmls)
    out = {k: img for k, (img, _) in rendered.items()}
    out.update({f"{k}:text": text for k, (_, text) in rendered.items()})
    for fam in RANKED_FAMILIES:
        out[f"{fam}/unrelated"] = out[f"{pages.unrelated_family(fam)}/identical"]
    return out


@pytest.fixture(scope="session")
def tesseract():
    """One cached Tesseract engine for the session (skips when Tesseract is not installed)."""
    from iwrbench.errors import ComponentMissing
    from iwrbench.metrics import get_ocr

    try:
        return get_ocr("tesseract")
    except ComponentMissing as e:
        pytest.skip(str(e))
