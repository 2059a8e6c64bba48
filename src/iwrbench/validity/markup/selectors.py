"""CSS identifiers and the selectors the divs mutation writes: what both rewriters (HTML/CSS and JS) read."""

from __future__ import annotations

import re

# =========================================================================== selectors

_IDENT = r"(?:--|-?(?:[A-Za-z_\u00a0-\uffff]|\\[^\n]))(?:[\w\u00a0-\uffff-]|\\[^\n])*"
_IDENT_RE = re.compile(_IDENT)
_CSS_ESC = re.compile(r"\\([0-9a-fA-F]{1,6}\s?|[^\n])")
_SELECTOR_ARG_PSEUDOS = {"not", "is", "where", "has", "matches", "-webkit-any", "-moz-any", "any", "host",
                         "host-context", "nth-child", "nth-last-child", "slotted", "global", "local"}
_ID_REF_ATTRS = {"for", "form", "list", "headers", "aria-labelledby", "aria-describedby", "aria-controls",
                 "aria-owns", "aria-activedescendant", "aria-flowto", "aria-details", "aria-errormessage",
                 "popovertarget", "commandfor", "anchor", "itemref"}
_SELECTORISH_VALUE = re.compile(r"^\s*[#.]" + _IDENT + r"(?:\s*,\s*[#.]" + _IDENT + r")*\s*$")
BUTTON_SEL = ":is(div,span):where([data-b])"
LI_SEL = "div:where([data-i])"
DIV_SEL = "div:not(:where([data-b],[data-i]))"
SPAN_SEL = "span:not(:where([data-b]))"
DISABLED_SEL = ":is(:disabled,:is(div,span):where([data-b][disabled]))"
ENABLED_SEL = ":is(:enabled,:is(div,span):where([data-b]:not([disabled])))"
#: what the divs mutation writes into selectors: copied as is when met again (rewriting is idempotent)
_GENERATED = sorted([BUTTON_SEL, LI_SEL, DIV_SEL, SPAN_SEL, DISABLED_SEL, ENABLED_SEL], key=len, reverse=True)


def _unescape_ident(s: str) -> str:
    def one(m: re.Match) -> str:
        g = m.group(1)
        if re.match(r"[0-9a-fA-F]", g) and len(g.strip()) >= 1 and all(c in "0123456789abcdefABCDEF" for c in g.strip()):
            try:
                return chr(int(g.strip(), 16))
            except ValueError:
                return ""
        return g

    return _CSS_ESC.sub(one, s)


def skip_quoted(s: str, j: int, *, line: bool = False) -> int:
    """The index after the quoted string starting at ``s[j]`` (a quote), escapes skipped; ``line``: a newline
    ends it too (a CSS string)."""
    q, k, n = s[j], j + 1, len(s)
    while k < n and s[k] != q and not (line and s[k] == "\n"):
        k += 2 if s[k] == "\\" else 1
    return k + 1


def _find_close(s: str, i: int, open_c: str, close_c: str) -> int:
    """Index of the bracket closing s[i] (== open_c), skipping quoted strings; len(s) if none."""
    depth = 0
    j = i
    n = len(s)
    while j < n:
        c = s[j]
        if c in "\"'":
            j = skip_quoted(s, j)
            continue
        if c == "\\":
            j += 2
            continue
        if c == open_c:
            depth += 1
        elif c == close_c:
            depth -= 1
            if depth == 0:
                return j
        j += 1
    return n
