"""From a model's reply to the page the judge serves (post-processing as published).

1. The page: the first fenced block tagged ``html`` (any case; a missing closing fence, as
   in a reply cut off by the token limit, runs to the end). Failing that, the first bare
   fenced block that looks like a document, then the reply itself if it holds ``<html`` or
   ``<body``. A fenced html block is usable when it holds any tag; the fallbacks need
   ``<!doctype``, ``<html`` or ``<body``, so prose with a stray ``<br>`` is not taken for a
   page. A truncated page without ``</html>`` is still a page: the browser closes it.
2. Every iframe goes: ``<iframe ...>...</iframe>``, ``<iframe .../>`` and a dangling
   ``<iframe ...>`` or ``</iframe>`` (a page must not embed the original site).
3. The placeholder prefix becomes the URL where the judge serves the task's assets:
   ``__PLACEHOLDER_ASSETS_BASE_DIR__/x.png`` -> ``/__iwr_assets__/x.png``. Tolerated: the
   prefix without its slash (before a name, or alone as a base string in JS), and a
   leading ``./`` or ``/``.

No usable page raises ``NoPageError``: a generation error with the raw reply kept, never an
empty page that then gets scored.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from ..models.base import ASSETS_URL_PREFIX, PLACEHOLDER_PREFIX


class NoPageError(ValueError):
    """The reply holds no usable page."""


@dataclass(frozen=True)
class ExtractedPage:
    html: str
    source: str  # fenced_html | fenced | raw
    iframes_removed: int = 0
    placeholders_rewritten: int = 0
    truncated: bool = False  # no closing fence or no </html>


_CLOSE = r"(?:(?P<close>\r?\n[ \t]*```)|\Z)"
_FENCE_HTML = re.compile(r"```[ \t]*html[ \t]*\r?\n(?P<body>.*?)" + _CLOSE, re.IGNORECASE | re.DOTALL)
_FENCE_ANY = re.compile(r"```[ \t]*(?P<lang>[\w+-]*)[ \t]*\r?\n(?P<body>.*?)" + _CLOSE, re.DOTALL)
_TAG = re.compile(r"<[a-zA-Z!/]")
_DOC = re.compile(r"<!doctype\s+html|<html[\s>]|<body[\s>]", re.IGNORECASE)
_DOC_START = re.compile(r"<!doctype\s+html|<html[\s>]", re.IGNORECASE)
_HTML_END = re.compile(r"</html\s*>", re.IGNORECASE)

_IFRAME_PAIR = re.compile(r"<iframe\b[^>]*>.*?</iframe\s*>", re.IGNORECASE | re.DOTALL)
_IFRAME_SELF = re.compile(r"<iframe\b[^>]*/>", re.IGNORECASE)
_IFRAME_LEFT = re.compile(r"<iframe\b[^>]*>|</iframe\s*>", re.IGNORECASE)

_MARK = PLACEHOLDER_PREFIX.rstrip("/")
_PLACEHOLDER = re.compile(r"(?:\.?/)?" + re.escape(_MARK) + r"(/|(?=[\w.-]))?")


def _fenced(m: re.Match) -> tuple[str, bool]:
    """The block's text and whether it was cut off (no closing fence)."""
    body = m.group("body")
    if m.group("close") is not None:
        return body, False
    ends = list(_HTML_END.finditer(body))
    if ends:  # e.g. "</html>```" on one line, then prose
        return body[: ends[-1].end()], False
    return body, True


def _find_page(reply: str) -> tuple[str, str, bool] | None:
    m = _FENCE_HTML.search(reply)
    if m and _TAG.search(m.group("body")):
        body, cut = _fenced(m)
        return body, "fenced_html", cut
    for m in _FENCE_ANY.finditer(reply):
        if m.group("lang").lower() in ("", "htm", "xhtml", "html5") and _DOC.search(m.group("body")):
            body, cut = _fenced(m)
            return body, "fenced", cut
    m = _DOC_START.search(reply) or _DOC.search(reply)
    if m:
        body = reply[m.start():]
        end = _HTML_END.search(body)
        if end:
            return body[: end.end()], "raw", False
        return body.split("```", 1)[0], "raw", True
    return None


def remove_iframes(html: str) -> tuple[str, int]:
    total = 0
    for pattern in (_IFRAME_PAIR, _IFRAME_SELF, _IFRAME_LEFT):
        html, n = pattern.subn("", html)
        total += n
    return html, total


def rewrite_assets(html: str, prefix: str = ASSETS_URL_PREFIX) -> tuple[str, int]:
    def repl(m: re.Match) -> str:
        return prefix if m.group(1) is not None else prefix.rstrip("/")

    return _PLACEHOLDER.subn(repl, html)


def extract_page(reply: str, assets_prefix: str = ASSETS_URL_PREFIX) -> ExtractedPage:
    """The page in ``reply``, post-processed; ``NoPageError`` when there is none."""
    if not reply or not reply.strip():
        raise NoPageError("empty reply")
    found = _find_page(reply)
    if found is None:
        raise NoPageError(f"no html block or document in the reply ({len(reply)} chars)")
    html, source, truncated = found
    html = html.strip()
    if not html:
        raise NoPageError("the html block is empty")
    html, iframes = remove_iframes(html)
    html, rewritten = rewrite_assets(html, assets_prefix)
    if not _HTML_END.search(html) and _DOC_START.search(html):
        truncated = True
    return ExtractedPage(
        html=html + "\n",
        source=source,
        iframes_removed=iframes,
        placeholders_rewritten=rewritten,
        truncated=truncated,
    )
