"""From a reply to the page: first html block, no iframes, assets prefix rewritten."""

from __future__ import annotations

import pytest

from iwrbench.generate.extract import NoPageError, extract_page, remove_iframes, rewrite_assets
from iwrbench.models.base import ASSETS_URL_PREFIX, PLACEHOLDER_PREFIX

DOC = "<!DOCTYPE html>\n<html><body><p>{}</p></body></html>"


def test_first_fenced_html_block_wins():
    reply = f"Sure.\n```css\nbody{{}}\n```\n```html\n{DOC.format('one')}\n```\nand\n```html\n{DOC.format('two')}\n```"
    page = extract_page(reply)
    assert page.source == "fenced_html" and "one" in page.html and "two" not in page.html
    assert not page.truncated and "```" not in page.html


@pytest.mark.parametrize("fence", ["```HTML", "```Html", "``` html"])
def test_fence_tag_in_any_case(fence):
    assert "hi" in extract_page(f"{fence}\n{DOC.format('hi')}\n```").html


def test_fallback_bare_fence_and_raw_document():
    assert extract_page(f"```\n{DOC.format('bare')}\n```").source == "fenced"
    raw = extract_page(f"Here you go: {DOC.format('raw')} Hope it helps!")
    assert raw.source == "raw" and raw.html.rstrip().endswith("</html>") and "Hope" not in raw.html


def test_closing_fence_on_the_last_line_of_code():
    page = extract_page(f"```html\n{DOC.format('x')}```\nNotes: use ```code``` blocks.")
    assert page.html.rstrip().endswith("</html>") and "Notes" not in page.html


def test_truncated_page_is_still_a_page():
    page = extract_page("```html\n<!DOCTYPE html><html><body><div>cut off here")
    assert page.truncated and "cut off here" in page.html


@pytest.mark.parametrize(
    "reply",
    ["", "   \n", "I cannot help with that.", "```python\nprint('<b>')\n```", "```html\n\n```", "Use a <br> tag."],
)
def test_no_usable_page(reply):
    with pytest.raises(NoPageError):
        extract_page(reply)


def test_every_iframe_is_removed():
    html = (
        '<body><iframe src="https://site.example"></iframe><IFRAME\nsrc=a>fallback</IFRAME>'
        '<iframe src="b"/><p>keep</p><iframe src="dangling"></body>'
    )
    out, n = remove_iframes(html)
    assert n == 4 and "iframe" not in out.lower() and "<p>keep</p>" in out
    assert extract_page(f"```html\n<html>{html}</html>\n```").iframes_removed == 4


def test_placeholder_prefix_is_rewritten():
    html = (
        f'<img src="{PLACEHOLDER_PREFIX}asset001.png" width="10" height="10">'
        f'<div style="background:url(\'./{PLACEHOLDER_PREFIX}asset002.png\')"></div>'
        '<img src="__PLACEHOLDER_ASSETS_BASE_DIR__asset003.png">'
        '<script>const BASE = "__PLACEHOLDER_ASSETS_BASE_DIR__"; img.src = BASE + "/asset004.png";</script>'
    )
    out, n = rewrite_assets(html)
    assert n == 4 and "PLACEHOLDER" not in out
    for k in (1, 2, 3):
        assert f"{ASSETS_URL_PREFIX}asset00{k}.png" in out
    assert f'const BASE = "{ASSETS_URL_PREFIX.rstrip("/")}"' in out
    page = extract_page(f"```html\n<html><body>{html}</body></html>\n```")
    assert page.placeholders_rewritten == 4
