"""Markup changes of the source that keep its behaviour and looks: the judge must not notice.

Mutations (each alone, and ``all`` together):

- ``no-aria``: no ``role`` and no ``aria-*`` attribute ever reaches the DOM. They are not simply
  deleted (the site's own CSS and scripts read them: tabs, accordions, pressed filters): the page
  is rewritten to keep that state in neutral ``data-*`` attributes (``aria-x`` -> ``data-st-x``,
  ``role`` -> ``data-rl``) in its HTML, CSS selectors and script strings; whatever still adds one
  at run time is moved by a MutationObserver of the page.
- ``divs``: every ``<button>`` and ``<li>`` is a ``<div>`` (a ``<span>`` inside a ``<p>``, where a
  div would end the paragraph), in the HTML, in HTML strings scripts write (``innerHTML`` & co.)
  and in ``createElement``. The page's own handlers keep what the tag gave: Enter/Space
  activation, form submission (``type``), ``disabled``; a lowest-specificity stylesheet
  reproduces the UA look (inline-block button box, ``display: list-item``); CSS and script
  selectors that named the tags name the divs instead, with the same specificity.
- ``renamed``: every id and class is renamed, word by word (``toggle-2`` -> ``z1k9d0qz-2``),
  in HTML, CSS selectors, id references (``for``, ``href="#id"``, ``url(#id)``, ``aria-*``
  id lists, ``data-target``), script strings in DOM contexts (``getElementById``, selectors,
  ``classList``, ``className =``, jQuery class methods, HTML strings) and whatever scripts
  write at run time (``className``/``id`` setters, ``classList``, ``setAttribute``, HTML strings).
  Word by word keeps prefixes consistent (``"toggle-" + id``), so nothing of the naming survives
  and the page still finds its elements.

The page is changed only where it *writes*: no DOM read API (``getAttribute``, ``querySelector``,
``classList.contains``, ``tagName``) is patched, so whoever reads the DOM (the judge, Playwright)
sees the mutant as it is, never the source through a shim. Sources are served through a small
rewriting server on 127.0.0.1 (files of a folder, or a reverse proxy in front of a command such
as Datasette or the MkDocs app), so third-party apps mutate the same way as our own sites.

Whether a mutant really kept behaviour and looks is decided without the judge: the recipe's own
actions (selectors mapped like the markup) are driven the way the recorder drives them, and each
screenshot must match the task's checkpoint (``diff_share`` <= 1 %). When a mutant differs, the
unmutated source goes through the same harness as a control: where the control does not reproduce a
checkpoint either, the mutant is compared with the control's screenshot instead. Only verified
mutants are judged; the others are listed with the first step that did not reproduce.

Rows (``Verdict``, set ``markup``, page = the mutation): a verified mutant has ``truth`` = its
steps (every step holds: behaviour and looks were checked), ``judged`` = steps the judge passed,
``ok`` = IFS 100, ``note`` = where the judge failed, and in ``extra``: ``verify`` (pixel
differences per checkpoint, what survived the mutation), ``rewrites`` (what was changed),
``failed`` (the first failed step: grounding rungs tried, evidence), ``control_judged`` (when
the mutant failed: the steps the judge passed on the unmutated source, same harness). A mutant
that could not be verified has ``judged`` = ``truth`` = None, ``extra.verified`` False and the
reason in ``note``; it says something about the mutation, not the judge.

Try it: ``python -m iwrbench.validity.markup --tasks SUITE_DIR --out OUT`` (writes
``OUT/verdicts.jsonl``, ``OUT/summary.md`` and per task the screenshots and judge results).
"""

from __future__ import annotations

import asyncio
import contextlib
import gzip
import hashlib
import json
import mimetypes
import posixpath
import re
import shutil
import threading
import time
from dataclasses import dataclass, field
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from typing import Any, Callable, Iterator
from urllib.parse import unquote, urlsplit

from . import Verdict
from ._judge import VerdictLog, task_dirs, with_browser

MUTATIONS = ("no-aria", "divs", "renamed", "all")
SALT = "iwr-markup-1"

Progress = Callable[[str], None]


@dataclass(frozen=True)
class Mut:
    """Which markup changes are on."""

    aria: bool = False
    divs: bool = False
    rename: bool = False

    @classmethod
    def named(cls, name: str) -> "Mut":
        if name == "none":
            return cls()
        if name == "no-aria":
            return cls(aria=True)
        if name == "divs":
            return cls(divs=True)
        if name == "renamed":
            return cls(rename=True)
        if name == "all":
            return cls(aria=True, divs=True, rename=True)
        raise ValueError(f"unknown mutation {name!r}; known: {', '.join(MUTATIONS)}")

    @property
    def any(self) -> bool:
        return self.aria or self.divs or self.rename


# =========================================================================== names

_MAPPED = re.compile(r"^z[0-9a-z]{6}z$")
_SEP = re.compile(r"([-_]+)")
_B36 = "0123456789abcdefghijklmnopqrstuvwxyz"


def _fnv1a(data: bytes) -> int:
    h = 0x811C9DC5
    for b in data:
        h ^= b
        h = (h * 0x01000193) & 0xFFFFFFFF
    return h


def _word(w: str) -> str:
    if not w or w.isdigit() or _MAPPED.match(w):
        return w
    h = _fnv1a((SALT + w).encode("utf-8"))
    s = ""
    for _ in range(6):
        h, r = divmod(h, 36)
        s = _B36[r] + s
    return "z" + s + "z"


def rename(name: str) -> str:
    """Rename one id or class, word by word (separators and digit-only words kept); idempotent."""
    return "".join(p if k % 2 else _word(p) for k, p in enumerate(_SEP.split(name)))


def rename_list(value: str) -> str:
    """A whitespace-separated list of names (class attribute, id list), spacing kept."""
    return re.sub(r"[^\s]+", lambda m: rename(m.group(0)), value)


@dataclass
class Names:
    """Ids and classes the page is known to use (static HTML and the recorded DOM snapshots)."""

    ids: set[str] = field(default_factory=set)
    classes: set[str] = field(default_factory=set)

    def add_html(self, text: str) -> None:
        for m in re.finditer(r"""\s(id|class)\s*=\s*("([^"]*)"|'([^']*)'|([^\s"'>]+))""", text, re.I):
            v = m.group(3) if m.group(3) is not None else m.group(4) if m.group(4) is not None else m.group(5)
            if v is None or "<%" in v or "{{" in v or "${" in v:
                continue
            if m.group(1).lower() == "id":
                if v.strip():
                    self.ids.add(v.strip())
            else:
                self.classes.update(v.split())

    @property
    def all(self) -> set[str]:
        return self.ids | self.classes


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


def _find_close(s: str, i: int, open_c: str, close_c: str) -> int:
    """Index of the bracket closing s[i] (== open_c), skipping quoted strings; len(s) if none."""
    depth = 0
    j = i
    n = len(s)
    while j < n:
        c = s[j]
        if c in "\"'":
            k = j + 1
            while k < n and s[k] != c:
                k += 2 if s[k] == "\\" else 1
            j = k + 1
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


@dataclass
class Rewriter:
    """All the text rewriting for one mutation of one page."""

    mut: Mut
    names: Names = field(default_factory=Names)
    #: counters of what was changed (reported with each verdict)
    stats: dict[str, int] = field(default_factory=dict)

    def _count(self, k: str, n: int = 1) -> None:
        self.stats[k] = self.stats.get(k, 0) + n

    # ------------------------------------------------------------------ values

    def _partial(self, v: str) -> str:
        """A fragment of a class list / id (prefix, suffix): rename its words, keep the rest."""
        return re.sub(r"[^\s\-_]+", lambda m: _word(m.group(0)), v)

    def href_value(self, v: str, always: bool = False) -> str:
        """A link's fragment names an id (``#sec``, ``?_facet=genre#facet-genre``): rename it when it
        is a known id of the page (a route such as ``#/active`` is not)."""
        if not self.mut.rename or "#" not in v:
            return v
        base, frag = v.split("#", 1)
        if frag and (always or frag in self.names.ids) and re.fullmatch(r"[\w\-.:]+", frag):
            return base + "#" + rename(frag)
        return v

    def selector_value(self, v: str) -> str:
        """An attribute value that is itself a selector (data-target="#collapseOne")."""
        if self.mut.rename and _SELECTORISH_VALUE.match(v):
            toks = re.findall(r"[#.](" + _IDENT + ")", v)
            if any(_unescape_ident(t) in self.names.all for t in toks):
                return self.selector(v)
        return v

    def url_refs(self, v: str) -> str:
        if not self.mut.rename or "url(" not in v:
            return v
        return re.sub(r"""url\(\s*(['"]?)#([\w\-.:]+)\1\s*\)""",
                      lambda m: f"url({m.group(1)}#{rename(m.group(2))}{m.group(1)})", v)

    # ------------------------------------------------------------------ selectors

    def selector(self, sel: str) -> str:
        """Rewrite a CSS selector (list) for this mutation."""
        if not self.mut.any:
            return sel
        out: list[str] = []
        i, n = 0, len(sel)
        expect_type = True
        compound_tag = ""
        while i < n:
            c = sel[i]
            if c in ":dis":
                g = next((g for g in _GENERATED if sel.startswith(g, i)), None)
                if g:
                    out.append(g)
                    i += len(g)
                    expect_type = False
                    continue
            if c in "\"'":
                j = i + 1
                while j < n and sel[j] != c:
                    j += 2 if sel[j] == "\\" else 1
                out.append(sel[i:j + 1])
                i = j + 1
                expect_type = False
                continue
            if c == "\\":
                out.append(sel[i:i + 2])
                i += 2
                continue
            if c == "[":
                j = _find_close(sel, i, "[", "]")
                if j >= n:  # a piece of a selector built by concatenation: leave the rest
                    out.append(sel[i:])
                    break
                out.append(self._attr_selector(sel[i + 1:j], compound_tag))
                i = j + 1
                expect_type = False
                continue
            if c in ".#":
                m = _IDENT_RE.match(sel, i + 1)
                if m:
                    name = m.group(0)
                    if self.mut.rename:
                        name = rename(_unescape_ident(name))
                        self._count("selector names")
                    out.append(c + name)
                    i = m.end()
                    expect_type = False
                    continue
                out.append(c)
                i += 1
                continue
            if c == ":":
                j = i + 1
                if j < n and sel[j] == ":":
                    j += 1
                m = _IDENT_RE.match(sel, j)
                if not m:
                    out.append(sel[i:j])
                    i = j
                    continue
                pname = m.group(0).lower()
                k = m.end()
                if k < n and sel[k] == "(":
                    close = _find_close(sel, k, "(", ")")
                    if close >= n:
                        out.append(sel[i:])
                        break
                    inner = sel[k + 1:close]
                    if pname in _SELECTOR_ARG_PSEUDOS and sel[i:j] == ":":
                        inner = self.selector(inner)
                    out.append(sel[i:k] + "(" + inner + ")")
                    i = close + 1
                else:
                    text = sel[i:k]
                    if self.mut.divs and sel[i:j] == ":" and pname in ("disabled", "enabled"):
                        text = DISABLED_SEL if pname == "disabled" else ENABLED_SEL
                        self._count("selector pseudo-classes")
                    out.append(text)
                    i = k
                expect_type = False
                continue
            if c in " \t\n\r\f>+~,(":
                out.append(c)
                i += 1
                expect_type = True
                if c not in " \t\n\r\f":
                    compound_tag = ""
                elif not sel[i:i + 1] or sel[i] in " \t\n\r\f>+~,":
                    pass
                else:
                    compound_tag = ""
                continue
            if c == "*" or c == "&" or c == "|":
                out.append(c)
                i += 1
                expect_type = False
                continue
            m = _IDENT_RE.match(sel, i)
            if m and expect_type:
                tag = m.group(0)
                low = tag.lower()
                compound_tag = low
                if self.mut.divs and low in ("button", "li", "div", "span"):
                    out.append({"button": BUTTON_SEL, "li": LI_SEL, "div": DIV_SEL, "span": SPAN_SEL}[low])
                    self._count("selector tags")
                else:
                    out.append(tag)
                i = m.end()
                expect_type = False
                continue
            if m:
                out.append(m.group(0))
                i = m.end()
                continue
            out.append(c)
            i += 1
        return "".join(out)

    def _attr_selector(self, body: str, tag: str) -> str:
        m = re.match(r"\s*([^\s~|^$*!=\]]+)\s*(?:([~|^$*]?=)\s*(.*?))?\s*$", body, re.S)
        if not m:
            return "[" + body + "]"
        name, op, rest = m.group(1), m.group(2), m.group(3)
        low = name.lower()
        flags = ""
        value, quote = None, ""
        if op:
            rest = rest or ""
            fm = re.match(r"""^(["'])(.*)\1(\s+[iIsS])?$""", rest, re.S)
            if fm:
                quote, value, flags = fm.group(1), fm.group(2), fm.group(3) or ""
            else:
                um = re.match(r"^(\S+?)(\s+[iIsS])?$", rest)
                value = um.group(1) if um else rest
                flags = (um.group(2) or "") if um else ""
        new_name = name
        if self.mut.aria and (low.startswith("aria-") or low == "role"):
            new_name = "data-rl" if low == "role" else "data-st-" + low[5:]
            self._count("selector aria")
        if self.mut.divs and tag == "button" and low in ("type", "value", "name"):
            new_name = {"type": "data-t", "value": "data-v", "name": "data-n"}[low]
        if value is not None and self.mut.rename:
            if low == "class":
                value = rename_list(value) if op in ("=", "~=") else self._partial(value)
            elif low in ("id",) or low in _ID_REF_ATTRS:
                value = rename_list(value) if op in ("=", "~=") else self._partial(value)
            elif low in ("href", "xlink:href"):
                value = self.href_value(value)
            else:
                value = self.selector_value(value)
        if op is None:
            return "[" + new_name + "]"
        return f"[{new_name}{op}{quote}{value}{quote}{flags}]"

    # ------------------------------------------------------------------ Playwright selectors

    def playwright_selector(self, sel: str) -> str:
        """A recipe target (Playwright selector syntax: CSS, ``>>`` chains, ``nth=``, ``text=``)."""
        parts = re.split(r"(\s>>\s)", sel)
        out = []
        for p in parts:
            if p.strip() == ">>":
                out.append(p)
                continue
            s = p.strip()
            if re.match(r"^(nth|text|xpath|id|data-testid|internal:[\w-]+)=", s) or s.startswith("//"):
                if s.startswith("id="):
                    p = p.replace(s, "id=" + (rename(s[3:]) if self.mut.rename else s[3:]))
                out.append(p)
                continue
            if s.startswith("css="):
                out.append("css=" + self.selector(s[4:]))
                continue
            if s.startswith("role="):
                out.append(p)  # needs ARIA: no-aria/divs mutants may not have it (verification says so)
                continue
            out.append(self.selector(p))
        return "".join(out)

    # ------------------------------------------------------------------ CSS

    def css(self, text: str) -> str:
        """Rewrite the selectors of a stylesheet (and ``url(#id)`` references)."""
        if not self.mut.any:
            return text
        out: list[str] = []
        i, n = 0, len(text)
        stack: list[str] = []  # "rules" | "decls" | "other"
        start = 0  # start of the current prelude / declaration run

        def block() -> str:
            return stack[-1] if stack else "rules"

        while i < n:
            c = text[i]
            if c == "/" and text.startswith("/*", i):
                j = text.find("*/", i + 2)
                j = n if j < 0 else j + 2
                i = j
                continue
            if c in "\"'":
                j = i + 1
                while j < n and text[j] != c and text[j] != "\n":
                    j += 2 if text[j] == "\\" else 1
                i = j + 1
                continue
            if c == "\\":
                i += 2
                continue
            if c == "{":
                prelude = text[start:i]
                kind = block()
                if kind in ("rules", "decls") and prelude.strip() and not prelude.lstrip().startswith("@"):
                    if kind == "decls":  # CSS nesting: the prelude starts after the last ';'
                        cut = prelude.rfind(";") + 1
                        out.append(self.url_refs(prelude[:cut]))
                        prelude = prelude[cut:]
                    out.append(self.selector(prelude) + "{")
                    stack.append("decls")
                elif prelude.lstrip().startswith("@"):
                    at = re.match(r"\s*@([\w-]+)", prelude)
                    name = at.group(1).lower() if at else ""
                    out.append(prelude + "{")
                    stack.append("rules" if name in ("media", "supports", "layer", "container", "document",
                                                      "-moz-document", "scope", "starting-style") else "other")
                else:
                    out.append(prelude + "{")
                    stack.append("other")
                i += 1
                start = i
                continue
            if c == "}":
                seg = text[start:i]
                out.append(self.url_refs(seg) if block() == "decls" else seg)
                out.append("}")
                if stack:
                    stack.pop()
                i += 1
                start = i
                continue
            if c == ";" and block() == "rules":  # @import / @charset at rule level
                out.append(text[start:i + 1])
                i += 1
                start = i
                continue
            i += 1
        out.append(text[start:])
        return "".join(out)

    # ------------------------------------------------------------------ HTML

    _TAG = re.compile(r"""<(?:(!--.*?--)>|(![^>]*)>|(\?[^>]*)>|(/?)([A-Za-z][^\s/>]*)((?:[^>"']|"[^"]*"|'[^']*')*)>)""", re.S)
    _ATTR = re.compile(r"""([^\s"'>/=]+)(?:\s*=\s*("[^"]*"|'[^']*'|[^\s>]+))?""")
    _RAW = ("script", "style", "textarea", "title", "xmp", "noscript", "iframe", "noembed", "noframes")
    _TEMPLATE_TYPES = re.compile(r"(text/(x-)?(template|html|x-handlebars-template|ng-template|x-tmpl|x-kendo-template|x-jquery-tmpl)|text/x-[\w-]*template)", re.I)
    _BLOCKS = {"address", "article", "aside", "blockquote", "details", "dialog", "div", "dl", "fieldset",
               "figcaption", "figure", "footer", "form", "h1", "h2", "h3", "h4", "h5", "h6", "header", "hgroup",
               "hr", "main", "menu", "nav", "ol", "p", "pre", "section", "table", "ul"}

    def attrs(self, tag: str, attrs: list[tuple[str, str | None, str]]
              ) -> tuple[str, list[tuple[str, str | None, str]], list[tuple[str, str | None, str]]]:
        """Rewrite one element's tag name and attributes [(name, value or None, quote)]: returns the
        new tag name, the attributes one for one, and attributes to add."""
        low = tag.lower()
        out: list[tuple[str, str | None, str]] = []
        new_tag = tag
        is_button = self.mut.divs and low == "button"
        for name, value, q in attrs:
            lname = name.lower()
            if value is not None and ("<%" in value or "{{" in value or "${" in value):
                # a template expression: rename the plain words around it, the runtime does the rest
                if self.mut.rename and lname == "class":
                    value = self._templated_class(value)
            elif value is not None:
                if self.mut.rename:
                    if lname == "class":
                        value = rename_list(value)
                        self._count("class attributes")
                    elif lname == "id":
                        value = rename(value.strip()) if value.strip() else value
                        self._count("id attributes")
                    elif lname in _ID_REF_ATTRS:
                        value = rename_list(value)
                    elif lname in ("href", "xlink:href"):
                        value = self.href_value(value, always=low in ("use", "textpath", "feimage", "mpath"))
                    elif lname == "style" or (lname in ("fill", "stroke", "clip-path", "mask", "filter", "marker-start",
                                                        "marker-mid", "marker-end")):
                        value = self.url_refs(value)
                    elif lname.startswith("data-") or lname in ("target",):
                        value = self.selector_value(value)
                if lname.startswith("on"):
                    value = self.js(value)
            if self.mut.aria and (lname.startswith("aria-") or lname == "role"):
                name = "data-rl" if lname == "role" else "data-st-" + lname[5:]
                self._count("aria attributes")
            if is_button and lname in ("type", "value", "name", "form", "formaction", "formmethod"):
                name = {"type": "data-t", "value": "data-v", "name": "data-n", "form": "data-f"}.get(lname, "data-" + lname)
            out.append((name, value, q))
        added: list[tuple[str, str | None, str]] = []
        if is_button:
            new_tag = "div"
            self._count("buttons")
            added.append(("data-b", None, ""))
            if not any(a[0].lower() == "tabindex" for a in out):
                added.append(("tabindex", "0", '"'))
        elif self.mut.divs and low == "li":
            new_tag = "div"
            self._count("list items")
            added.append(("data-i", None, ""))
        return new_tag, out, added

    def _templated_class(self, value: str) -> str:
        parts = re.split(r"(<%.*?%>|\{\{.*?\}\}|\$\{.*?\})", value, flags=re.S)
        res = []
        for k, p in enumerate(parts):
            if k % 2 == 0:
                res.append(rename_list(p) if p.strip() else p)
            else:
                res.append(re.sub(r"""(['"])([A-Za-z_][\w-]*)\1""", lambda m: m.group(1) + rename(m.group(2)) + m.group(1), p))
        return "".join(res)

    @staticmethod
    def _edit_tag(rest: str, matches: list[re.Match], attrs: list[tuple[str, str | None, str]], new_tag: str,
                  new_attrs: list[tuple[str, str | None, str]], added: list[tuple[str, str | None, str]]) -> str:
        """A start tag edited in place: only the attributes that changed are rewritten; anything
        else in the tag (template code such as ``<%= done ? 'checked' : '' %>``) is kept as is."""

        def one(name: str, value: str | None, q: str) -> str:
            if value is None:
                return name
            if not q:
                q = "" if value and not re.search(r"""[\s"'=<>`]""", value) else '"'
            return f"{name}={q}{value}{q}"

        body, pos = [], 0
        for m, old, new in zip(matches, attrs, new_attrs):
            body.append(rest[pos:m.start()])
            body.append(m.group(0) if old == new else one(*new))
            pos = m.end()
        body.append(rest[pos:])
        return "<" + new_tag + "".join(" " + one(*a) for a in added) + "".join(body) + ">"

    def html(self, text: str, *, shim: str | None = None, fragment: bool = False) -> str:
        """Rewrite an HTML document (or a fragment from a script string)."""
        if not self.mut.any and shim is None:
            return text
        out: list[str] = []
        pos = 0
        lists: list[list[Any]] = []  # [tag, li_open]
        p_open = False
        button_tags: list[str] = []  # what each open ex-button became (div or span)
        for m in self._TAG.finditer(text):
            if m.start() < pos:
                continue
            out.append(text[pos:m.start()])
            pos = m.end()
            if m.group(1) or m.group(2) or m.group(3):  # comment, doctype, processing instruction
                out.append(m.group(0))
                continue
            closing, tag, rest = m.group(4), m.group(5), m.group(6)
            low = tag.lower()
            if closing:
                if self.mut.divs:
                    if low == "button":
                        out.append(f"</{button_tags.pop() if button_tags else 'div'}>")
                        continue
                    if low == "li":
                        if lists and lists[-1][1]:
                            lists[-1][1] = False
                            out.append("</div>")
                        elif not lists:
                            out.append("</div>")
                        continue
                    if low in ("ul", "ol", "menu"):
                        if lists:
                            if lists[-1][1]:
                                out.append("</div>")
                            lists.pop()
                    if low == "p":
                        p_open = False
                out.append(m.group(0))
                continue
            matches = list(self._ATTR.finditer(rest))
            attrs = [(a.group(1), (a.group(2)[1:-1] if a.group(2) and a.group(2)[0] in "\"'" else a.group(2)),
                      (a.group(2)[0] if a.group(2) and a.group(2)[0] in "\"'" else ""))
                     for a in matches]
            if self.mut.divs:
                if low in self._BLOCKS and p_open:
                    p_open = False
                if low == "p":
                    p_open = True
                if low in ("ul", "ol", "menu"):
                    lists.append([low, False])
                if low == "li":
                    if lists and lists[-1][1]:
                        out.append("</div>")
                    if lists:
                        lists[-1][1] = True
            new_tag, new_attrs, added = self.attrs(tag, attrs)
            if self.mut.divs and low == "button":
                new_tag = "span" if p_open else "div"
                button_tags.append(new_tag)
            if new_tag == tag and new_attrs == attrs and not added:
                out.append(m.group(0))
            else:
                out.append(self._edit_tag(rest, matches, attrs, new_tag, new_attrs, added))
            if low in self._RAW:
                pos = self._raw_after(low, text, m, out, attrs)
        out.append(text[pos:])
        res = "".join(out)
        return inject(res, shim) if shim else res

    def _raw_after(self, low: str, text: str, m: re.Match, out: list[str],
                   attrs: list[tuple[str, str | None, str]] | None = None) -> int:
        """Copy (and rewrite) the raw text of a script/style/... element; returns where it ends."""
        close = re.compile(r"</" + low + r"\s*>", re.I).search(text, m.end())
        end = close.start() if close else len(text)
        content = text[m.end():end]
        if low == "script":
            typ = next((v for n_, v, _ in (attrs or []) if n_.lower() == "type" and v), "") or ""
            if self._TEMPLATE_TYPES.search(typ):
                content = self.html(content, fragment=True)
            elif not typ or re.search(r"javascript|ecmascript|module|babel|jsx", typ, re.I):
                content = self.js(content)
        elif low == "style":
            content = self.css(content)
        out.append(content)
        return end

    # ------------------------------------------------------------------ JS

    def js(self, src: str) -> str:
        if not self.mut.any:
            return src
        return _JsRewriter(self, src).run()


def inject(doc: str, script: str) -> str:
    """Put ``script`` at the very top of a document's head (before any of the page's scripts)."""
    for pat in (r"<head\b[^>]*>", r"<html\b[^>]*>", r"<!doctype[^>]*>"):
        m = re.search(pat, doc, re.I)
        if m:
            return doc[:m.end()] + script + doc[m.end():]
    return script + doc


# =========================================================================== JS rewriting

_REGEX_AFTER_WORDS = {"return", "typeof", "instanceof", "in", "of", "new", "delete", "void", "throw", "case", "do",
                      "else", "yield", "await"}


def js_tokens(src: str) -> list[tuple[str, int, int]]:
    """Split JS source into ("code" | "str" | "tmpl" | "comment" | "regex", start, end) pieces.

    Strings include their quotes; ``tmpl`` pieces are the literal chunks of template literals
    (between the backtick / ``}`` and ``${`` / backtick, delimiters excluded)."""
    toks: list[tuple[str, int, int]] = []
    n = len(src)
    i = 0
    code_start = 0
    tstack: list[int] = []  # brace depth inside each open ${ ... }
    special = re.compile(r"[\"'`/{}]")
    last_sig = ""  # last significant code char (for regex detection)
    last_word = ""

    def flush(upto: int) -> None:
        nonlocal code_start, last_sig, last_word
        if upto > code_start:
            seg = src[code_start:upto]
            toks.append(("code", code_start, upto))
            s = seg.rstrip()
            if s:
                last_sig = s[-1]
                wm = re.search(r"([A-Za-z_$][\w$]*)$", s)
                last_word = wm.group(1) if wm else ""
        code_start = upto

    def template_chunk(j: int) -> int:
        """Scan template text from j; return the index after the chunk's end delimiter (the
        delimiters themselves are emitted as code, so brackets stay balanced)."""
        start = j
        while j < n:
            ch = src[j]
            if ch == "\\":
                j += 2
                continue
            if ch == "`":
                toks.append(("tmpl", start, j))
                toks.append(("code", j, j + 1))
                return j + 1
            if ch == "$" and j + 1 < n and src[j + 1] == "{":
                toks.append(("tmpl", start, j))
                toks.append(("code", j, j + 2))
                tstack.append(0)
                return j + 2
            j += 1
        toks.append(("tmpl", start, n))
        return n

    while i < n:
        m = special.search(src, i)
        if not m:
            break
        i = m.start()
        c = src[i]
        if c in "\"'":
            flush(i)
            j = i + 1
            while j < n and src[j] != c and src[j] != "\n":
                j += 2 if src[j] == "\\" else 1
            j = min(j + 1, n)
            toks.append(("str", i, j))
            last_sig, last_word = "a", ""  # a value
            i = code_start = j
            continue
        if c == "`":
            flush(i)
            toks.append(("code", i, i + 1))
            j = template_chunk(i + 1)
            i = code_start = j
            last_sig, last_word = "a", ""
            continue
        if c == "{":
            if tstack:
                tstack[-1] += 1
            i += 1
            continue
        if c == "}":
            if tstack:
                if tstack[-1] == 0:
                    tstack.pop()
                    flush(i)
                    toks.append(("code", i, i + 1))
                    j = template_chunk(i + 1)
                    i = code_start = j
                    last_sig, last_word = "a", ""
                    continue
                tstack[-1] -= 1
            i += 1
            continue
        # '/'
        nxt = src[i + 1] if i + 1 < n else ""
        if nxt == "/":
            flush(i)
            j = src.find("\n", i)
            j = n if j < 0 else j
            toks.append(("comment", i, j))
            i = code_start = j
            continue
        if nxt == "*":
            flush(i)
            j = src.find("*/", i + 2)
            j = n if j < 0 else j + 2
            toks.append(("comment", i, j))
            i = code_start = j
            continue
        # regex or division? look at the code before
        before = src[code_start:i].rstrip()
        if before:
            sig = before[-1]
            wm = re.search(r"([A-Za-z_$][\w$]*)$", before)
            word = wm.group(1) if wm else ""
        else:
            sig, word = last_sig, last_word
        is_regex = (sig == "" or sig in "(,=:[!&|?{};+-*%<>~^") or (word in _REGEX_AFTER_WORDS and sig.isalpha())
        if sig in ")]}" or (sig and (sig.isalnum() or sig in "_$") and word not in _REGEX_AFTER_WORDS):
            is_regex = False
        if sig == "a":  # right after a string / template
            is_regex = False
        if not is_regex:
            i += 1
            continue
        j = i + 1
        in_class = False
        ok = False
        while j < n:
            ch = src[j]
            if ch == "\\":
                j += 2
                continue
            if ch == "\n":
                break
            if ch == "[":
                in_class = True
            elif ch == "]":
                in_class = False
            elif ch == "/" and not in_class:
                ok = True
                break
            j += 1
        if not ok:
            i += 1
            continue
        j += 1
        while j < n and (src[j].isalpha()):
            j += 1
        flush(i)
        toks.append(("regex", i, j))
        last_sig, last_word = "a", ""
        i = code_start = j
    flush(n)
    return toks


_BRACKETS = re.compile(r"[()\[\]{},]")
_CALLEE = re.compile(r"([A-Za-z_$][\w$]*(?:\s*\.\s*[A-Za-z_$][\w$]*)*)\s*$")
_ID_CALLS = {"getElementById"}
_CLASS_CALLS = {"getElementsByClassName", "addClass", "removeClass", "toggleClass", "hasClass"}
_SELECTOR_CALLS = {"querySelector", "querySelectorAll", "closest", "matches", "webkitMatchesSelector",
                   "msMatchesSelector", "mozMatchesSelector"}
_JQ_CALLS = {"$", "jQuery", "find", "children", "siblings", "parents", "parent", "parentsUntil", "next", "nextAll",
             "nextUntil", "prev", "prevAll", "prevUntil", "filter", "not", "is", "has", "on", "off", "one",
             "delegate", "undelegate", "live", "die", "append", "prepend", "after", "before", "html", "replaceWith",
             "appendTo", "prependTo", "insertAfter", "insertBefore", "wrap", "wrapAll", "wrapInner", "add", "$$",
             "select", "selectAll", "querySelectorAll", "qs", "qsa", "el"}
_ATTR_CALLS = {"setAttribute", "attr", "prop", "getAttribute", "hasAttribute", "removeAttribute", "toggleAttribute",
               "removeAttr", "setAttributeNS", "getAttributeNS", "removeAttributeNS", "hasAttributeNS"}
# `x.id = ...` and `{id: ...}` are left to the runtime: data objects have ids too
_CLASS_ASSIGN = re.compile(r"""(?:\.|\b)(?:className|htmlFor)\s*\+?=\s*$|(?:^|[{,\s])["']?(?:className|class)["']?\s*:\s*$""")
_CLASSY_NAME = re.compile(r"""([\w$]*(?:[Cc]lass|CLASS)[\w$]*)["']?\s*[:=]\s*$""")
_SELECTORY_NAME = re.compile(r"""([\w$]*(?:[Ss]elector|SELECTOR)[\w$]*)["']?\s*[:=]\s*$""")
_HTMLISH = re.compile(r"<[A-Za-z][\w-]*[\s>/]|<[A-Za-z][\w-]*$|\s(?:class|id|role|aria-[a-z]+)\s*=|</[A-Za-z]")
_SELECTOR_CHARS = re.compile(r"^[\w\s.#:>+~,*\[\]=\"'()^$|!@-]+$")


class _JsRewriter:
    """Walks the tokens of a script and rewrites string literals by the context they are in."""

    def __init__(self, rw: Rewriter, src: str):
        self.rw = rw
        self.src = src
        self.mut = rw.mut
        self.id_alias = set(_ID_CALLS)
        self.sel_alias = set(_SELECTOR_CALLS)
        self.jquery = "jQuery" in src  # a `$` elsewhere (RxJS `of`, a bundler's helper) is left alone
        # one-line helpers like `var $ = function (id) { return document.getElementById(id); }`
        for m in re.finditer(r"(?:function\s+([\w$]+)|(?:var|let|const)\s+([\w$]+)\s*=\s*(?:function\s*[\w$]*)?)\s*"
                             r"\(\s*([\w$]+)\s*\)\s*(?:=>)?\s*\{?\s*(?:return\s+)?[\w$.]*?\.?"
                             r"(getElementById|querySelector|querySelectorAll)\(\s*\3\s*\)", src):
            name = m.group(1) or m.group(2)
            (self.id_alias if m.group(4) == "getElementById" else self.sel_alias).add(name)

    def run(self) -> str:
        src = self.src
        toks = js_tokens(src)
        out: list[str] = []
        stack: list[list[Any]] = []  # [char, name, argidx, first-arg literal]
        assign = False  # inside the right-hand side of `x.className = ...`
        for kind, a, b in toks:
            text = src[a:b]
            if kind == "code":
                pos = 0
                for bm in _BRACKETS.finditer(text):
                    k, ch = bm.start(), bm.group(0)
                    if ch in "([{":
                        before = text[max(0, k - 120):k]
                        wrap = None
                        if ch == "(":
                            cm = _CALLEE.search(before)
                            name = re.sub(r"\s+", "", cm.group(1)) if cm else ""
                            wrap = self._wrap_kind(name, before)
                            nxt = text[k + 1:].lstrip()
                            if wrap and (nxt[:1] == ")" or nxt.startswith("...")):
                                wrap = None  # no argument or a spread: f() and f(...a) must stay as they are
                            if wrap:
                                out.append(self._code(text[pos:k + 1]) + f"__mk{wrap}(")
                                pos = k + 1
                                self.rw._count("script reads wrapped")
                        elif ch == "{":
                            nm = re.search(r"([\w$]+)\s*[:=]\s*$", before)
                            name = nm.group(1) if nm else ""
                        else:
                            name = ""
                        stack.append([ch, name, 0, None, wrap])
                    elif ch in ")]}":
                        if stack:
                            fr = stack.pop()
                            if fr[4] and ch == ")":
                                out.append(self._code(text[pos:k]) + ")")
                                pos = k
                    elif ch == "," and stack and stack[-1][0] == "(":
                        fr = stack[-1]
                        if fr[4] and fr[2] == 0:
                            out.append(self._code(text[pos:k]) + ")")
                            pos = k
                            fr[4] = None
                        fr[2] += 1
                out.append(self._code(text[pos:]))
                if _CLASS_ASSIGN.search(text) or _CLASSY_NAME.search(text):
                    assign = True
                elif assign and re.search(r"[;,{}]|(?<![=!<>])=(?![=>])", text):
                    assign = False
                continue
            if kind in ("comment", "regex"):
                out.append(text)
                continue
            if kind == "str":
                q = text[0]
                body = text[1:-1] if len(text) >= 2 and text[-1] == q else text[1:]
                tail = q if len(text) >= 2 and text[-1] == q else ""
                pre = src[max(0, a - 80):a]
                new = self._literal(body, stack, assign, pre, q)
                if stack and stack[-1][0] == "(" and stack[-1][2] == 0 and stack[-1][3] is None:
                    stack[-1][3] = body
                out.append(q + new + tail)
                continue
            # template chunk
            pre = src[max(0, a - 80):a]
            out.append(self._literal(text, stack, assign, pre, "`"))
        return "".join(out)

    def _wrap_kind(self, name: str, before: str) -> str | None:
        """Calls that *read* the DOM by a name the page computes (``$("tab-" + key)``): their
        first argument goes through the page's own renaming (``__mkI/__mkS/__mkC`` of the shim)."""
        if not name or re.search(r"(?:\bfunction\s+|\bnew\s+)[\w$.]*$", before):
            return None
        last = name.split(".")[-1]
        dotted = "." in name
        mut = self.mut
        if mut.rename and ((last == "getElementById" and dotted) or (not dotted and last in self.id_alias
                                                                     and last != "getElementById")):
            return "I"
        if (last in _SELECTOR_CALLS and dotted) or (not dotted and last in self.sel_alias and last not in _SELECTOR_CALLS):
            return "S"
        if not dotted and last in ("$", "jQuery") and self.jquery:
            return "J"  # jQuery's $ (mapped only when the page has jQuery: a bundle's `$` may be anything)
        if mut.rename and dotted and (last in ("getElementsByClassName", "hasClass", "removeClass", "toggleClass")
                                      or name.endswith("classList.contains")):
            return "C"
        return None

    def _code(self, code: str) -> str:
        if self.mut.aria:
            code = re.sub(r"\.aria([A-Z][A-Za-z]*)\b(?!\s*\()", lambda m: ".dataset.st" + m.group(1), code)
        return code

    def _literal(self, body: str, stack: list[list[Any]], assign: bool, pre: str, q: str) -> str:
        if not body:
            return body
        rw = self.rw
        ctx = stack[-1] if stack else None
        call = ctx[1].split(".")[-1] if ctx and ctx[0] == "(" else ""
        full_call = ctx[1] if ctx and ctx[0] == "(" else ""
        argidx = ctx[2] if ctx and ctx[0] == "(" else -1
        first = ctx[3] if ctx and ctx[0] == "(" else None
        res = body
        kind = ""
        if call in self.id_alias and argidx == 0:
            kind = "id"
        elif call in _CLASS_CALLS or (".classList." in "." + full_call and call in ("add", "remove", "toggle",
                                                                                     "contains", "replace")):
            if not (call == "toggle" and argidx > 0):
                kind = "class"
        elif call in self.sel_alias:
            kind = "selector"
        elif call in _ATTR_CALLS and argidx >= 1 and first is not None:
            fl = first.lower()
            if fl in ("class", "classname", "id", "for", "htmlfor") or fl in _ID_REF_ATTRS:
                kind = "class"
            elif fl in ("href", "xlink:href"):
                kind = "href"
        elif call in _JQ_CALLS:
            kind = "jq"
        if not kind and (assign or _CLASS_ASSIGN.search(pre) or _CLASSY_NAME.search(pre)):
            kind = "class" if not _HTMLISH.search(body) else ""
        if not kind and _SELECTORY_NAME.search(pre):
            kind = "selector"
        if not kind and ctx and ctx[0] == "{" and re.search(r"[Cc]lass|CLASS", ctx[1] or "") and re.fullmatch(r"[\w\s-]+", body):
            kind = "class"
        if not kind and ctx and ctx[0] == "{" and re.search(r"[Ss]elector|SELECTOR", ctx[1] or ""):
            kind = "selector"
        # aria and role names as attribute arguments
        if self.mut.aria and call in _ATTR_CALLS and argidx == 0 and (body.lower().startswith("aria-") or body.lower() == "role"):
            rw._count("script aria")
            return "data-rl" if body.lower() == "role" else "data-st-" + body[5:]
        if self.mut.rename and kind == "id":
            if re.fullmatch(r"[\w\-.:]+", body):
                res = rw._partial(body) if body[-1] in "-_" or body[0] in "-_" else rename(body)
                rw._count("script names")
                return res
            kind = "selector" if body[:1] in "#." else ""
        if kind == "class":
            if self.mut.rename and re.fullmatch(r"[\s\w\-:/.@!\[\]%]+", body):
                rw._count("script names")
                return rw._partial(body)
            return body
        if kind == "href":
            return rw.href_value(body)
        if _HTMLISH.search(body) and "<" in body:
            rw._count("script html")
            return self._html_string(body, q)
        if kind in ("selector", "jq") or self._looks_selector(body):
            if _SELECTOR_CHARS.match(body) and (kind == "selector" or self._looks_selector(body)):
                new = rw.selector(body)
                if new != body:
                    rw._count("script selectors")
                return self._requote(new, q)
        if self.mut.aria and "aria-" in body:
            body = re.sub(r"\baria-([a-z]+)", lambda m: "data-st-" + m.group(1), body)
        return body

    def _looks_selector(self, body: str) -> bool:
        if not _SELECTOR_CHARS.match(body):
            return False
        names = self.rw.names
        for m in re.finditer(r"(?:^|[\s>+~,(])[\w-]*([.#])(" + _IDENT + ")", body):
            nm = _unescape_ident(m.group(2))
            if (m.group(1) == "." and nm in names.classes) or (m.group(1) == "#" and nm in names.ids):
                return True
        if self.mut.aria and re.search(r"\[(role|aria-)", body):
            return True
        if self.mut.divs and re.search(r"(^|[\s>+~,(])(button|li)([\s>+~,.:\[#)]|$)", body) and re.search(r"[.#\[>]", body):
            return True
        return False

    def _html_string(self, body: str, q: str) -> str:
        # a piece of HTML inside a script string: rewrite tags and attributes; a piece that ends
        # inside an open attribute value (`'<span class="tag ' + x`) renames the words it has
        rw = self.rw
        if re.fullmatch(r"\s*<([A-Za-z][\w-]*)\s*/?>\s*(?:</\1>)?\s*", body):
            # a bare tag (jQuery's `$("<li>", {props})` makes it with createElement, which the page
            # handles at run time; with attributes it would become markup and lose the props)
            return body
        new = rw.html(body, fragment=True)
        if rw.mut.rename:
            new = re.sub(r"""(\s(?:class|id|for)\s*=\s*["'])([^"'<>]*)$""",
                         lambda m: m.group(1) + rw._partial(m.group(2)), new)
        if rw.mut.aria:
            new = re.sub(r"\baria-([a-z]+)(?=\s*=)", lambda m: "data-st-" + m.group(1), new)
            new = re.sub(r"(\s)role(?=\s*=)", r"\1data-rl", new)
        return self._requote(new, q)

    @staticmethod
    def _requote(s: str, q: str) -> str:
        if q in "\"'":
            # the rewriting may have added quotes of the literal's kind: escape unescaped ones
            return re.sub(r"(?<!\\)" + re.escape(q), "\\" + q, s)
        if q == "`":
            return s.replace("`", "\\`")
        return s


# =========================================================================== the page's own runtime part

#: lowest-specificity stylesheet giving the divs what their tag gave them (Chromium's UA rules)
UA_CSS = (
    ":where(div[data-b],span[data-b]){display:inline-block;box-sizing:border-box;margin:0;padding:1px 6px;"
    "border:2px outset buttonborder;background-color:buttonface;color:buttontext;font:-webkit-small-control;"
    "text-rendering:auto;letter-spacing:normal;word-spacing:normal;line-height:normal;text-transform:none;"
    "text-indent:0;text-shadow:none;text-align:center;cursor:default;align-items:flex-start}"
    ":where(div[data-b][disabled],span[data-b][disabled]){color:rgba(16,16,16,.3);"
    "background-color:rgba(239,239,239,.3);border-color:rgba(118,118,118,.3)}"
    ":where(div[data-i]){display:list-item;text-align:match-parent;unicode-bidi:isolate}"
)

#: Runs first in every document of the mutant. It only changes what the page *writes* (new
#: attributes, class names, HTML strings, created elements) and adds the divs' handlers; it
#: patches no API that reads the DOM, so the judge sees the mutant as it is.
SHIM_JS = r"""(() => {
const C = __CFG__;
if (window.__mkShim) return;
Object.defineProperty(window, '__mkShim', {value: true});
const B36 = '0123456789abcdefghijklmnopqrstuvwxyz', MAPPED = /^z[0-9a-z]{6}z$/, SEP = /([-_]+)/;
const enc = new TextEncoder();
const word = (w) => {
  if (!w || /^\d+$/.test(w) || MAPPED.test(w)) return w;
  let h = 0x811c9dc5;
  for (const b of enc.encode(C.salt + w)) { h ^= b; h = Math.imul(h, 0x01000193) >>> 0; }
  let s = '';
  for (let k = 0; k < 6; k++) { s = B36[h % 36] + s; h = Math.floor(h / 36); }
  return 'z' + s + 'z';
};
const ren = (n) => String(n).split(SEP).map((p, k) => (k % 2 ? p : word(p))).join('');
const renList = (v) => String(v).replace(/[^\s]+/g, ren);
const IDS = new Set(C.ids || []);
const ID_REFS = new Set(C.idrefs || []);
const SELV = /^\s*[#.][\w-]+(\s*,\s*[#.][\w-]+)*\s*$/;
const hrefV = (v, always) => {
  v = String(v);
  const k = v.indexOf('#');
  if (k < 0) return v;
  const f = v.slice(k + 1);
  if (f && (always || IDS.has(f)) && /^[\w\-.:]+$/.test(f)) return v.slice(0, k + 1) + ren(f);
  return v;
};
const urlRefs = (v) => String(v).replace(/url\(\s*(['"]?)#([\w\-.:]+)\1\s*\)/g, (m, q, id) => 'url(' + q + '#' + ren(id) + q + ')');
const EP = Element.prototype;
const oSet = EP.setAttribute, oSetNS = EP.setAttributeNS, oRem = EP.removeAttribute, oTog = EP.toggleAttribute;
const isB = (el) => !!(el && el.nodeType === 1 && el.hasAttribute('data-b'));
// [name, value] as the mutant writes them
const attr = (el, name, value, tag) => {
  let n = String(name);
  const ln = n.toLowerCase();
  let v = value;
  tag = tag || (el && el.localName) || '';
  if (C.rename && v !== null && v !== undefined) {
    const s = String(v);
    if (/<%|\{\{|\$\{/.test(s)) {}
    else if (ln === 'class') v = renList(s);
    else if (ln === 'id') { if (s.trim()) { IDS.add(s.trim()); v = ren(s.trim()); } }
    else if (ID_REFS.has(ln)) v = renList(s);
    else if (ln === 'href' || ln === 'xlink:href') v = hrefV(s, tag === 'use');
    else if (ln === 'style' || ln === 'fill' || ln === 'stroke' || ln === 'clip-path' || ln === 'mask' || ln === 'filter') v = urlRefs(s);
    else if (/(^|-)(target|parent)$/.test(ln) && SELV.test(s)) v = s.replace(/([#.])([\w-]+)/g, (m, c, id) => c + ren(id));
  }
  if (C.aria && (ln === 'role' || ln.startsWith('aria-'))) n = ln === 'role' ? 'data-rl' : 'data-st-' + ln.slice(5);
  if (C.divs && (el ? isB(el) : tag === 'button') && (ln === 'type' || ln === 'value' || ln === 'name' || ln === 'form'))
    n = {type: 'data-t', value: 'data-v', name: 'data-n', form: 'data-f'}[ln];
  return [n, v];
};
const attrName = (el, name) => attr(el, name, null)[0];
EP.setAttribute = function (n, v) { const [a, b] = attr(this, n, v); return oSet.call(this, a, b); };
EP.setAttributeNS = function (ns, n, v) { const [a, b] = attr(this, n, v); return oSetNS.call(this, ns, a, b); };
EP.removeAttribute = function (n) { return oRem.call(this, attrName(this, n)); };
EP.toggleAttribute = function (n, f) { return f === undefined ? oTog.call(this, attrName(this, n)) : oTog.call(this, attrName(this, n), f); };
const setter = (proto, prop, map) => {
  const d = Object.getOwnPropertyDescriptor(proto, prop);
  if (!d || !d.set) return;
  Object.defineProperty(proto, prop, {configurable: true, enumerable: d.enumerable, get: d.get,
    set(v) { return d.set.call(this, map(v, this)); }});
};
// HTML strings the page writes
const TAG = /<(\/?)([a-zA-Z][^\s\/>]*)((?:[^>"']|"[^"]*"|'[^']*')*)>/g;
const ATTR = /([^\s"'>\/=]+)(?:\s*=\s*("[^"]*"|'[^']*'|[^\s>]+))?/g;
const rwHTML = (s) => {
  if (typeof s !== 'string' || s.indexOf('<') < 0) return s;
  return s.replace(TAG, (all, close, tag, rest) => {
    const low = tag.toLowerCase();
    if (close) return (C.divs && (low === 'button' || low === 'li')) ? '</div>' : all;
    const sc = /\/\s*$/.test(rest);
    const body = sc ? rest.replace(/\/\s*$/, '') : rest;
    const out = [];
    let m, changed = false;
    ATTR.lastIndex = 0;
    while ((m = ATTR.exec(body))) {
      let v = m[2], q = '';
      if (v !== undefined && (v[0] === '"' || v[0] === "'")) { q = v[0]; v = v.slice(1, -1); }
      const [n2, v2] = attr(null, m[1], v === undefined ? null : v, low);
      if (n2 !== m[1] || v2 !== (v === undefined ? null : v)) changed = true;
      out.push(v2 === null || v2 === undefined ? n2 : n2 + '=' + (q || '"') + v2 + (q || '"'));
    }
    let t = tag;
    if (C.divs && low === 'button') {
      t = 'div'; changed = true; out.unshift('data-b');
      if (!out.some((a) => /^tabindex\b/i.test(a))) out.push('tabindex="0"');
    } else if (C.divs && low === 'li') { t = 'div'; changed = true; out.unshift('data-i'); }
    if (!changed) return all;
    return '<' + [t].concat(out).join(' ') + (sc ? '/' : '') + '>';
  });
};
if (C.rename || C.divs || C.aria) {
  setter(EP, 'innerHTML', (v, el) => (el instanceof HTMLScriptElement) ? v : (el instanceof HTMLStyleElement) ? rwCSS(String(v)) : rwHTML(v));
  setter(EP, 'outerHTML', rwHTML);
  if (window.ShadowRoot) setter(ShadowRoot.prototype, 'innerHTML', rwHTML);
  const oIAH = EP.insertAdjacentHTML;
  EP.insertAdjacentHTML = function (p, h) { return oIAH.call(this, p, rwHTML(h)); };
  const oCCF = Range.prototype.createContextualFragment;
  Range.prototype.createContextualFragment = function (h) { return oCCF.call(this, rwHTML(h)); };
  const oPFS = DOMParser.prototype.parseFromString;
  DOMParser.prototype.parseFromString = function (h, t) { return oPFS.call(this, /html/.test(String(t)) ? rwHTML(h) : h, t); };
  const oW = Document.prototype.write, oWl = Document.prototype.writeln;
  Document.prototype.write = function (...a) { return oW.apply(this, a.map(rwHTML)); };
  Document.prototype.writeln = function (...a) { return oWl.apply(this, a.map(rwHTML)); };
}
// the page's own renaming for names it computes before reading the DOM (wrapped calls)
const IDENT = /^(?:--|-?[A-Za-z_\u00a0-\uffff])[\w\u00a0-\uffff-]*/;
const SELARG = new Set(['not', 'is', 'where', 'has', 'matches', '-webkit-any', 'any', 'nth-child', 'nth-last-child', 'host', 'host-context']);
const closeOf = (s, i, o, c) => {
  let d = 0;
  for (let j = i; j < s.length; j++) {
    const ch = s[j];
    if (ch === '"' || ch === "'") { let k = j + 1; while (k < s.length && s[k] !== ch) k += s[k] === '\\' ? 2 : 1; j = k; continue; }
    if (ch === '\\') { j++; continue; }
    if (ch === o) d++;
    else if (ch === c && --d === 0) return j;
  }
  return s.length;
};
const TYPES = {button: ':is(div,span):where([data-b])', li: 'div:where([data-i])', div: 'div:not(:where([data-b],[data-i]))',
               span: 'span:not(:where([data-b]))'};
const attrSel = (body, tag) => {
  const m = /^\s*([^\s~|^$*!=\]]+)\s*(?:([~|^$*]?=)\s*([\s\S]*?))?\s*$/.exec(body);
  if (!m) return '[' + body + ']';
  let [, name, op, rest] = m;
  const low = name.toLowerCase();
  let v = null, q = '', fl = '';
  if (op) {
    const f = /^(["'])([\s\S]*)\1(\s+[iIsS])?$/.exec(rest || '');
    if (f) { q = f[1]; v = f[2]; fl = f[3] || ''; }
    else { const u = /^(\S+?)(\s+[iIsS])?$/.exec(rest || ''); v = u ? u[1] : rest; fl = u ? (u[2] || '') : ''; }
  }
  if (C.aria && (low === 'role' || low.startsWith('aria-'))) name = low === 'role' ? 'data-rl' : 'data-st-' + low.slice(5);
  if (C.divs && tag === 'button' && (low === 'type' || low === 'value' || low === 'name')) name = {type: 'data-t', value: 'data-v', name: 'data-n'}[low];
  if (v !== null && C.rename) {
    if (low === 'class' || low === 'id' || ID_REFS.has(low)) v = (op === '=' || op === '~=') ? renList(v) : String(v).replace(/[^\s\-_]+/g, word);
    else if (low === 'href' || low === 'xlink:href') v = hrefV(v, false);
    else if (/(^|-)(target|parent)$/.test(low) && SELV.test(v)) v = v.replace(/([#.])([\w-]+)/g, (mm, c, id) => c + ren(id));
  }
  return op ? '[' + name + op + q + v + q + fl + ']' : '[' + name + ']';
};
const GEN = [TYPES.button, TYPES.li, TYPES.div, TYPES.span, ':is(:disabled,:is(div,span):where([data-b][disabled]))',
             ':is(:enabled,:is(div,span):where([data-b]:not([disabled])))'].sort((a, b) => b.length - a.length);
const mapSel = (sel) => {
  if (typeof sel !== 'string' || /^\s*</.test(sel)) return sel;
  let out = '', i = 0, expect = true, tag = '';
  const n = sel.length;
  while (i < n) {
    const c = sel[i];
    if (c === ':' || c === 'd' || c === 's') {
      const g = GEN.find((x) => sel.startsWith(x, i));
      if (g) { out += g; i += g.length; expect = false; continue; }
    }
    if (c === '"' || c === "'") { let j = i + 1; while (j < n && sel[j] !== c) j += sel[j] === '\\' ? 2 : 1; out += sel.slice(i, j + 1); i = j + 1; expect = false; continue; }
    if (c === '\\') { out += sel.slice(i, i + 2); i += 2; continue; }
    if (c === '[') {
      const j = closeOf(sel, i, '[', ']');
      if (j >= n) { out += sel.slice(i); break; }
      out += attrSel(sel.slice(i + 1, j), tag); i = j + 1; expect = false; continue;
    }
    if (c === '.' || c === '#') {
      const m = IDENT.exec(sel.slice(i + 1));
      if (m) { out += c + (C.rename ? ren(m[0]) : m[0]); i += 1 + m[0].length; expect = false; continue; }
      out += c; i++; continue;
    }
    if (c === ':') {
      let j = i + 1;
      if (sel[j] === ':') j++;
      const m = IDENT.exec(sel.slice(j));
      if (!m) { out += sel.slice(i, j); i = j; continue; }
      const pn = m[0].toLowerCase(), k = j + m[0].length;
      if (sel[k] === '(') {
        const e = closeOf(sel, k, '(', ')');
        if (e >= n) { out += sel.slice(i); break; }
        let inner = sel.slice(k + 1, e);
        if (SELARG.has(pn) && j === i + 1) inner = mapSel(inner);
        out += sel.slice(i, k) + '(' + inner + ')'; i = e + 1;
      } else {
        let t = sel.slice(i, k);
        if (C.divs && j === i + 1 && pn === 'disabled') t = ':is(:disabled,:is(div,span):where([data-b][disabled]))';
        if (C.divs && j === i + 1 && pn === 'enabled') t = ':is(:enabled,:is(div,span):where([data-b]:not([disabled])))';
        out += t; i = k;
      }
      expect = false; continue;
    }
    if (' \t\n\r\f>+~,('.includes(c)) { out += c; i++; expect = true; if (!/\s/.test(c)) tag = ''; continue; }
    if (c === '*' || c === '&' || c === '|') { out += c; i++; expect = false; continue; }
    const m = IDENT.exec(sel.slice(i));
    if (m) {
      if (expect) { tag = m[0].toLowerCase(); out += (C.divs && TYPES[tag]) ? TYPES[tag] : m[0]; expect = false; }
      else out += m[0];
      i += m[0].length; continue;
    }
    out += c; i++;
  }
  return out;
};
// stylesheets the page writes from script (editors and widgets inject their CSS as text)
const AT_RULES = new Set(['media', 'supports', 'layer', 'container', 'document', '-moz-document', 'scope', 'starting-style']);
const rwCSS = (text) => {
  if (typeof text !== 'string' || !(C.rename || C.divs || C.aria)) return text;
  let out = '', i = 0, start = 0;
  const n = text.length, stack = [];
  const block = () => (stack.length ? stack[stack.length - 1] : 'rules');
  while (i < n) {
    const c = text[i];
    if (c === '/' && text[i + 1] === '*') { const j = text.indexOf('*/', i + 2); i = j < 0 ? n : j + 2; continue; }
    if (c === '"' || c === "'") { let j = i + 1; while (j < n && text[j] !== c && text[j] !== '\n') j += text[j] === '\\' ? 2 : 1; i = j + 1; continue; }
    if (c === '\\') { i += 2; continue; }
    if (c === '{') {
      let pre = text.slice(start, i);
      const kind = block(), t = pre.trimStart();
      if ((kind === 'rules' || kind === 'decls') && t && t[0] !== '@') {
        if (kind === 'decls') { const cut = pre.lastIndexOf(';') + 1; out += C.rename ? urlRefs(pre.slice(0, cut)) : pre.slice(0, cut); pre = pre.slice(cut); }
        out += mapSel(pre) + '{'; stack.push('decls');
      } else if (t[0] === '@') {
        const m = /^@([\w-]+)/.exec(t);
        out += pre + '{'; stack.push(m && AT_RULES.has(m[1].toLowerCase()) ? 'rules' : 'other');
      } else { out += pre + '{'; stack.push('other'); }
      i++; start = i; continue;
    }
    if (c === '}') {
      const seg = text.slice(start, i);
      out += (block() === 'decls' && C.rename) ? urlRefs(seg) : seg;
      out += '}'; stack.pop(); i++; start = i; continue;
    }
    if (c === ';' && block() === 'rules') { out += text.slice(start, i + 1); i++; start = i; continue; }
    i++;
  }
  return out + text.slice(start);
};
if (C.rename || C.divs || C.aria) {
  const isStyle = (el) => !!el && el.localName === 'style';
  const NP = Node.prototype;
  setter(NP, 'textContent', (v, el) => (isStyle(el) && v !== null && v !== undefined) ? rwCSS(String(v)) : v);
  const fixText = (parent, node) => {
    if (isStyle(parent) && node && node.nodeType === 3) node.data = rwCSS(node.data);
  };
  const oApp = NP.appendChild, oIns = NP.insertBefore;
  NP.appendChild = function (c) { fixText(this, c); return oApp.call(this, c); };
  NP.insertBefore = function (c, r) { fixText(this, c); return oIns.call(this, c, r); };
  for (const k of ['append', 'prepend']) {
    const o = EP[k];
    EP[k] = function (...a) {
      if (isStyle(this)) a = a.map((x) => (typeof x === 'string' ? rwCSS(x) : (fixText(this, x), x)));
      return o.apply(this, a);
    };
  }
  const SP = CSSStyleSheet.prototype;
  const oIR = SP.insertRule;
  SP.insertRule = function (r, i) { return i === undefined ? oIR.call(this, rwCSS(r)) : oIR.call(this, rwCSS(r), i); };
  if (SP.replaceSync) { const o = SP.replaceSync; SP.replaceSync = function (t) { return o.call(this, rwCSS(t)); }; }
  if (SP.replace) { const o = SP.replace; SP.replace = function (t) { return o.call(this, rwCSS(t)); }; }
}
const def = (k, f) => Object.defineProperty(window, k, {value: f, configurable: false, enumerable: false, writable: false});
def('__mkI', (x) => (typeof x === 'string' && C.rename) ? ren(x) : x);
def('__mkC', (x) => (typeof x === 'string' && C.rename) ? renList(x) : x);
def('__mkS', (x) => { try { return mapSel(x); } catch (e) { return x; } });
def('__mkJ', (x) => { try { return (typeof window.jQuery === 'function') ? mapSel(x) : x; } catch (e) { return x; } });
if (C.rename) {
  setter(EP, 'className', (v) => renList(v));
  setter(EP, 'id', (v) => { const s = String(v).trim(); if (s) IDS.add(s); return s ? ren(s) : v; });
  if (window.HTMLLabelElement) setter(HTMLLabelElement.prototype, 'htmlFor', (v) => ren(String(v)));
  // classList writes (only on class lists: the getter remembers which token lists those are)
  const CL = new WeakSet();
  const dcl = Object.getOwnPropertyDescriptor(EP, 'classList');
  Object.defineProperty(EP, 'classList', {configurable: true, enumerable: dcl.enumerable,
    get() { const l = dcl.get.call(this); CL.add(l); return l; }, set: dcl.set});
  const TP = DOMTokenList.prototype;
  const oAdd = TP.add, oRm = TP.remove, oTg = TP.toggle, oRp = TP.replace, oCt = TP.contains;
  TP.add = function (...a) { return oAdd.apply(this, CL.has(this) ? a.map(ren) : a); };
  TP.remove = function (...a) { return oRm.apply(this, CL.has(this) ? a.map(ren) : a); };
  TP.toggle = function (t, f) { if (CL.has(this)) t = ren(t); return f === undefined ? oTg.call(this, t) : oTg.call(this, t, f); };
  TP.replace = function (a, b) { return CL.has(this) ? oRp.call(this, ren(a), ren(b)) : oRp.call(this, a, b); };
  void oCt;
}
if (C.aria) {
  // reflected ARIA properties (el.ariaPressed = ..., el.role = ...) write the neutral attribute
  for (const p of Object.getOwnPropertyNames(EP)) {
    if (!/^aria[A-Z]/.test(p) && p !== 'role') continue;
    const d = Object.getOwnPropertyDescriptor(EP, p);
    if (!d || !d.set || !d.get) continue;
    const a = p === 'role' ? 'data-rl' : 'data-st-' + p.slice(4).replace(/[A-Z]/g, (c) => c.toLowerCase());
    Object.defineProperty(EP, p, {configurable: true, enumerable: d.enumerable, get: d.get,
      set(v) { if (v === null || v === undefined) oRem.call(this, a); else oSet.call(this, a, String(v)); }});
  }
  // whatever still lands (parser, libraries writing attributes another way) is moved at once
  const fix = (el) => {
    if (!el.attributes) return;
    for (const a of Array.from(el.attributes)) {
      const n = a.name;
      if (n === 'role' || n.startsWith('aria-')) {
        oSet.call(el, n === 'role' ? 'data-rl' : 'data-st-' + n.slice(5), a.value);
        oRem.call(el, n);
      }
    }
  };
  new MutationObserver((recs) => {
    for (const r of recs) {
      if (r.type === 'attributes') { fix(r.target); continue; }
      for (const n of r.addedNodes) {
        if (n.nodeType !== 1) continue;
        fix(n);
        for (const e of n.querySelectorAll('[role], *')) fix(e);
      }
    }
  }).observe(document, {subtree: true, childList: true, attributes: true});
}
if (C.divs) {
  const oCE = Document.prototype.createElement;
  Document.prototype.createElement = function (t, o) {
    const low = String(t).toLowerCase();
    if (low === 'button' || low === 'li') {
      const d = oCE.call(this, 'div', o);
      if (low === 'button') { oSet.call(d, 'data-b', ''); oSet.call(d, 'tabindex', '0'); }
      else oSet.call(d, 'data-i', '');
      return d;
    }
    return oCE.call(this, t, o);
  };
  // what the button element gave: disabled, value, name as properties
  const store = new WeakMap();
  const prop = (name, attrName, bool) => {
    for (const proto of [HTMLDivElement.prototype, HTMLSpanElement.prototype]) {
      if (Object.getOwnPropertyDescriptor(proto, name)) continue;
      Object.defineProperty(proto, name, {configurable: true, enumerable: true,
        get() {
          if (!isB(this)) { const s = store.get(this); return s ? s[name] : undefined; }
          return bool ? this.hasAttribute(attrName) : (this.getAttribute(attrName) || '');
        },
        set(v) {
          if (!isB(this)) { const s = store.get(this) || {}; s[name] = v; store.set(this, s); return; }
          if (bool) { if (v) oSet.call(this, attrName, ''); else oRem.call(this, attrName); }
          else oSet.call(this, attrName, String(v));
        }});
    }
  };
  prop('disabled', 'disabled', true);
  prop('value', 'data-v', false);
  prop('name', 'data-n', false);
  const bOf = (t) => (t && t.nodeType === 1 && t.closest) ? t.closest('[data-b]') : null;
  const typeOf = (b) => String((typeof b.type === 'string' && b.type) || b.getAttribute('data-t') || 'submit').toLowerCase();
  const formOf = (b) => { const f = b.getAttribute('data-f'); return (f && document.getElementById(f)) || b.closest('form'); };
  for (const ev of ['click', 'mousedown', 'mouseup', 'dblclick', 'auxclick']) {
    addEventListener(ev, (e) => {
      const b = bOf(e.target);
      if (b && b.hasAttribute('disabled')) { e.stopImmediatePropagation(); e.preventDefault(); }
    }, true);
  }
  addEventListener('click', (e) => {
    const b = bOf(e.target);
    if (!b || b.hasAttribute('disabled')) return;
    const form = formOf(b);
    if (!form) return;
    const type = typeOf(b);
    setTimeout(() => {
      if (e.defaultPrevented || !form.isConnected) return;
      if (type === 'submit') { if (form.requestSubmit) form.requestSubmit(); else form.submit(); }
      else if (type === 'reset') form.reset();
    }, 0);
  });
  const NO_IMPLICIT = /^(button|submit|reset|image|file|hidden|checkbox|radio|range|color)$/;
  addEventListener('keydown', (e) => {
    const t = e.target;
    if (isB(t)) {
      if (t.hasAttribute('disabled')) return;
      if (e.key === 'Enter' && !e.defaultPrevented) t.click();
      else if (e.key === ' ') e.preventDefault();
      return;
    }
    // Enter in a field: the form's default button is clicked (implicit submission)
    if (e.key !== 'Enter' || e.defaultPrevented || !t || t.localName !== 'input' || NO_IMPLICIT.test(t.type || '')) return;
    const form = t.form;
    if (!form) return;
    let def = null;
    for (const x of form.querySelectorAll('[data-b], button, input[type=submit], input[type=image]')) {
      if (isB(x)) { if (typeOf(x) === 'submit') { def = x; break; } }
      else if ((x.type || '').toLowerCase() === 'submit' || x.type === 'image') { def = null; break; }
    }
    if (!def) return;
    e.preventDefault();
    if (!def.hasAttribute('disabled')) def.click();
  });
  addEventListener('keyup', (e) => {
    const t = e.target;
    if (isB(t) && !t.hasAttribute('disabled') && e.key === ' ' && !e.defaultPrevented) t.click();
  });
}
})();"""

#: read-only census of what survived a mutation (run by our harness, never by the page)
SURVIVORS_JS = r"""(cfg) => {
  const MAPPED = /^z[0-9a-z]{6}z$/;
  const words = (n) => n.split(/[-_]+/).filter((w) => w && !/^\d+$/.test(w));
  const kept = (n) => words(n).some((w) => !MAPPED.test(w));
  const out = {buttons: 0, list_items: 0, aria: 0, roles: 0, ids: 0, classes: 0, examples: []};
  for (const e of document.querySelectorAll('*')) {
    const t = e.localName;
    if (cfg.divs && t === 'button') { out.buttons++; if (out.examples.length < 8) out.examples.push('<button>'); }
    if (cfg.divs && t === 'li') out.list_items++;
    if (cfg.aria) for (const a of e.attributes) {
      if (a.name.startsWith('aria-')) out.aria++;
      if (a.name === 'role') out.roles++;
    }
    if (cfg.rename) {
      if (e.id && kept(e.id)) { out.ids++; if (out.examples.length < 8) out.examples.push('#' + e.id); }
      const cls = e.getAttribute('class');
      if (cls) for (const c of cls.split(/\s+/)) if (c && kept(c)) {
        out.classes++; if (out.examples.length < 8) out.examples.push('.' + c);
      }
    }
  }
  return out;
}"""


def shim_html(mut: Mut, names: Names) -> str:
    cfg = {"aria": mut.aria, "divs": mut.divs, "rename": mut.rename, "salt": SALT,
           "ids": sorted(names.ids)[:5000] if mut.rename else [], "idrefs": sorted(_ID_REF_ATTRS)}
    js = SHIM_JS.replace("__CFG__", json.dumps(cfg, separators=(",", ":")).replace("</", "<\\/"))
    style = f"<style>{UA_CSS}</style>" if mut.divs else ""
    return style + "<script>" + js + "</script>"


# =========================================================================== serving a mutant

_TEXT_KINDS = (("html", re.compile(r"text/html|application/xhtml")),
               ("css", re.compile(r"text/css")),
               ("js", re.compile(r"javascript|ecmascript")))
_HOP = {"connection", "keep-alive", "proxy-authenticate", "proxy-authorization", "te", "trailers",
        "transfer-encoding", "upgrade", "content-length", "content-encoding", "host", "accept-encoding"}


def _kind(ctype: str) -> str | None:
    for k, rx in _TEXT_KINDS:
        if rx.search(ctype or ""):
            return k
    return None


class MutantServer:
    """Serves a source through the rewriting of one mutation, on 127.0.0.1 (a free port).

    ``root``: a folder (like the judge's static server); ``upstream``: an origin to proxy (a
    source served by a command). HTML, CSS and JS are rewritten on the way out; everything
    else passes through unchanged."""

    def __init__(self, rw: Rewriter, *, root: Path | None = None, upstream: str | None = None,
                 shim: str | None = None):
        if (root is None) == (upstream is None):
            raise ValueError("give exactly one of root, upstream")
        self.rw = rw
        self.root = root.resolve() if root else None
        self.upstream = upstream.rstrip("/") if upstream else None
        self.shim = shim if shim is not None else shim_html(rw.mut, rw.names)
        self._cache: dict[str, bytes] = {}
        self._lock = threading.Lock()  # one rewrite at a time (the Rewriter keeps counters)
        self._local = threading.local()
        self.errors: list[str] = []
        outer = self

        class Handler(BaseHTTPRequestHandler):
            protocol_version = "HTTP/1.1"

            def log_message(self, *a: Any) -> None:
                pass

            def do_GET(self) -> None:  # noqa: N802
                outer._serve(self, "GET")

            def do_HEAD(self) -> None:  # noqa: N802
                outer._serve(self, "HEAD")

            def do_POST(self) -> None:  # noqa: N802
                outer._serve(self, "POST")

        class Server(ThreadingHTTPServer):
            daemon_threads = True
            allow_reuse_address = True

        self._server = Server(("127.0.0.1", 0), Handler)
        self._thread = threading.Thread(target=self._server.serve_forever, daemon=True, name="iwr-mutant")
        self._client = None

    @property
    def origin(self) -> str:
        return f"http://127.0.0.1:{self._server.server_address[1]}"

    def url(self, entry: str) -> str:
        return f"{self.origin}/{entry.lstrip('/')}"

    def __enter__(self) -> "MutantServer":
        if self.upstream:
            import httpx

            self._client = httpx.Client(base_url=self.upstream, timeout=60, follow_redirects=False)
        self._thread.start()
        return self

    def __exit__(self, *exc: Any) -> None:
        self._server.shutdown()
        self._server.server_close()
        if self._client is not None:
            self._client.close()

    # ------------------------------------------------------------------
    def transform(self, kind: str | None, data: bytes, key: str) -> bytes:
        if kind is None or (kind == "js" and getattr(self._local, "worker", False)):
            return data
        with self._lock:
            hit = self._cache.get(key)
            if hit is not None:
                return hit
            out = self._transform(kind, data, key)
            self._cache[key] = out
            return out

    def _transform(self, kind: str, data: bytes, key: str) -> bytes:
        text = data.decode("utf-8", errors="surrogateescape")
        if self.upstream:
            text = text.replace(self.upstream, self.origin)
        try:
            if kind == "html":
                text = self.rw.html(text, shim=self.shim)
            elif kind == "css":
                text = self.rw.css(text)
            else:
                text = self.rw.js(text)
        except Exception as e:  # a rewrite bug must not hide the page: serve it unchanged, say so
            self.errors.append(f"{key}: {e.__class__.__name__}: {e}")
        return text.encode("utf-8", errors="surrogateescape")

    def _serve(self, h: BaseHTTPRequestHandler, method: str) -> None:
        # a script run as a worker has no DOM and no shim: it is served as it is
        self._local.worker = (h.headers.get("Sec-Fetch-Dest") or "").endswith("worker")
        try:
            if self.root is not None:
                status, headers, body = self._static(h.path)
            else:
                status, headers, body = self._proxy(h, method)
        except Exception as e:  # noqa: BLE001
            status, headers, body = 502, {"Content-Type": "text/plain"}, f"mutant server: {e}".encode()
        try:
            h.send_response(status)
            for k, v in headers.items():
                h.send_header(k, v)
            h.send_header("Content-Length", str(len(body)))
            h.send_header("Cache-Control", "no-store")
            h.end_headers()
            if method != "HEAD":
                h.wfile.write(body)
        except (BrokenPipeError, ConnectionResetError):
            pass

    def _static(self, raw_path: str) -> tuple[int, dict[str, str], bytes]:
        path = posixpath.normpath(unquote(urlsplit(raw_path).path))
        rel = path.lstrip("/")
        assert self.root is not None
        cand = (self.root / rel).resolve()
        if cand != self.root and self.root not in cand.parents:
            return 404, {"Content-Type": "text/plain"}, b"not found"
        if cand.is_dir():
            cand = cand / "index.html"
        if not cand.is_file():
            return 404, {"Content-Type": "text/plain"}, b"not found"
        ctype = mimetypes.guess_type(cand.name)[0] or "application/octet-stream"
        if cand.suffix in (".js", ".mjs"):
            ctype = "text/javascript"
        body = self.transform(_kind(ctype), cand.read_bytes(), str(cand))
        if ctype.startswith("text/") or ctype in ("application/json",):
            ctype += "; charset=utf-8"
        return 200, {"Content-Type": ctype}, body

    def _proxy(self, h: BaseHTTPRequestHandler, method: str) -> tuple[int, dict[str, str], bytes]:
        assert self._client is not None
        n = int(h.headers.get("Content-Length") or 0)
        data = h.rfile.read(n) if n else None
        fwd = {k: v for k, v in h.headers.items() if k.lower() not in _HOP}
        fwd["Accept-Encoding"] = "identity"
        r = self._client.request(method, h.path, headers=fwd, content=data)
        headers = {}
        for k, v in r.headers.multi_items():
            if k.lower() in _HOP or k.lower() == "cache-control":
                continue
            if k.lower() == "location":
                v = v.replace(self.upstream or "", self.origin)
            headers[k] = v
        body = r.content
        kind = _kind(r.headers.get("content-type", ""))
        if kind and r.status_code == 200:
            body = self.transform(kind, body, method + " " + h.path + " " + hashlib.sha1(body).hexdigest())
        return r.status_code, headers, body


@contextlib.contextmanager
def source_server(task: Any, recipes: Any = None) -> Iterator[tuple[Path | None, str | None, str]]:
    """(folder, upstream origin, entry) of ``task``'s source; a served source runs while in use.

    The source is the task's oracle: served from the recipe it was recorded from (the bundled
    suites' recipes, or ``recipes``), never from the task folder."""
    from ..browser.host import host
    from ..validate.oracle import oracle_bundle

    src = oracle_bundle(task, recipes)
    if src.serve_command or src.url:
        with host(src) as (url, _origins):
            parts = urlsplit(url)
            upstream = f"{parts.scheme}://{parts.netloc}"
            yield None, upstream, url[len(upstream):]
        return
    yield src.root, None, src.entry


@contextlib.contextmanager
def serve_mutant(task: Any, rw: Rewriter, recipes: Any = None, *,
                 source: tuple[Path | None, str | None, str] | None = None) -> Iterator[tuple[Any, MutantServer]]:
    """Yield (PageBundle for the judge, server) of ``task``'s source under ``rw``'s mutation."""
    from ..browser.host import PageBundle

    if source is None:
        with source_server(task, recipes) as src:
            with serve_mutant(task, rw, source=src) as r:
                yield r
        return
    root, upstream, entry = source
    with MutantServer(rw, root=root, upstream=upstream) as srv:
        yield PageBundle(root=root or task.dir, url=srv.url(entry)), srv


def known_names(task: Any) -> Names:
    """Ids and classes of the source: its entry page and every recorded DOM snapshot."""
    names = Names()
    for f in sorted((task.dir / "reference" / "dom").glob("step_*.html.gz")):
        try:
            names.add_html(gzip.decompress(f.read_bytes()).decode("utf-8", errors="replace"))
        except (OSError, EOFError):
            continue
    site = task.dir / "reference" / "site"
    if site.is_dir():
        for f in site.rglob("*.htm*"):
            with contextlib.suppress(OSError):
                names.add_html(f.read_text(errors="replace"))
    return names


# =========================================================================== verification (no judge)

#: a screenshot this close to its checkpoint in pixels is still read (OCR): a missing line of text
#: is a small share of the pixels
TEXT_CHECK_SHARE = 0.0005
MIN_MISSING_WORDS = 2


def missing_words(reference: Path, shot: Path) -> list[str]:
    """Words OCR reads on ``reference`` and not on ``shot`` (3+ characters with a letter; a word
    counts as often as it is read). Tesseract, independent of the judge's reader; [] without it."""
    from collections import Counter

    from .cheats import ocr_words

    def words(p: Path) -> Counter:
        return Counter(w for w in (re.sub(r"[^\w]", "", x.text).lower() for x in ocr_words(p))
                       if len(w) >= 3 and any(c.isalpha() for c in w))

    a, b = words(reference), words(shot)
    return sorted((a - b).elements())


@dataclass
class Drive:
    """The recipe driven on a page the way the recorder drives it, and how it compared."""

    steps: int
    reached: int = 0  # actions performed
    shots: dict[int, Path] = field(default_factory=dict)
    diffs: dict[int, float] = field(default_factory=dict)  # checkpoint -> share of pixels differing
    against: dict[int, str] = field(default_factory=dict)  # checkpoint -> "checkpoint" | "control"
    stop_at: int | None = None  # the action that could not be performed
    stop_reason: str = ""
    failed_at: int | None = None
    reason: str = ""
    survivors: dict[str, Any] = field(default_factory=dict)
    seconds: float = 0.0

    @property
    def ok(self) -> bool:
        return self.failed_at is None and self.reached == self.steps

    def evaluate(self, task: Any, limit: float, control: "Drive | None" = None) -> "Drive":
        """Compare every screenshot with its checkpoint (with the control's screenshot where the
        control itself did not reproduce the checkpoint); the first failure (visual or action) decides."""
        from ..validate.check import diff_share

        self.failed_at, self.reason = None, ""
        for i in sorted(self.shots):
            gt = task.checkpoint(i)
            if not gt.is_file():
                continue
            d = diff_share(gt, self.shots[i])
            self.against[i] = "checkpoint"
            if d > limit and control is not None and i in control.shots and control.diffs.get(i, 0) > limit:
                d = diff_share(control.shots[i], self.shots[i])
                self.against[i] = "control"
            self.diffs[i] = d
            if d > limit and self.failed_at is None and (self.stop_at is None or i < self.stop_at):
                self.failed_at = i
                self.reason = f"checkpoint {i}: {d:.1%} of pixels differ (max {limit:.0%}, vs {self.against[i]})"
            elif d > TEXT_CHECK_SHARE and self.failed_at is None and (self.stop_at is None or i < self.stop_at):
                # few pixels, but maybe a whole line of text (an editor left empty): a person would see it
                ref = control.shots[i] if self.against[i] == "control" and control is not None else gt
                gone = missing_words(ref, self.shots[i])
                if control is not None and gone and i in control.shots and self.against[i] == "checkpoint":
                    also_gone = set(missing_words(gt, control.shots[i]))  # the source varies there too
                    gone = [w for w in gone if w not in also_gone]
                if len(gone) >= MIN_MISSING_WORDS:
                    self.failed_at = i
                    self.reason = (f"checkpoint {i}: only {d:.2%} of pixels differ, but words read on the "
                                   f"{self.against[i]} are not on the page: {', '.join(gone[:6])}")
        if self.failed_at is None and self.stop_at is not None:
            self.failed_at, self.reason = self.stop_at, self.stop_reason
        return self

    def as_dict(self) -> dict[str, Any]:
        return {"ok": self.ok, "reached": self.reached, "failed_at": self.failed_at, "reason": self.reason,
                "max_diff": round(max(self.diffs.values()), 4) if self.diffs else None,
                "diffs": {k: round(v, 4) for k, v in self.diffs.items()},
                "vs_control": sorted(k for k, v in self.against.items() if v == "control"),
                "survivors": self.survivors, "seconds": round(self.seconds, 1)}


def load_recipe(task: Any, recipes: Any = None) -> Any:
    """The recipe ``task`` was recorded from (bundled suites, or ``recipes``; see validate.oracle)."""
    from ..validate.oracle import oracle_recipe

    return oracle_recipe(task, recipes)


async def drive(browser: Any, task: Any, recipe: Any, url: str, origins: set[str], rw: Rewriter, shots_dir: Path,
                *, hold: bool = False) -> Drive:
    """Drive ``recipe`` on ``url`` like the recorder (mouse moves, typing, settle rule, screenshot
    after each action); ``hold`` adds the recorder's pauses between actions."""
    from ..browser.core import new_context
    from ..browser.player import RECORDER, Trace, locate, play
    from ..browser.settle import RequestTracker, screenshot, settle
    from ..errors import RecordError
    from ..record import recorder as rec

    t0 = time.monotonic()
    shots_dir.mkdir(parents=True, exist_ok=True)
    n = len(recipe.actions)
    res = Drive(steps=n)
    vp = (recipe.viewport.width, recipe.viewport.height)
    ctx, _net = await new_context(browser, vp, allowed_origins=origins, seed=recipe.seed,
                                  freeze_time=recipe.freeze_time)
    tl = Trace()

    def stop(i: int, why: str) -> None:
        res.stop_at, res.stop_reason = i, why

    try:
        page = await ctx.new_page()
        tracker = RequestTracker(page)
        try:
            await page.goto(url, wait_until="load", timeout=rec.NAV_TIMEOUT_MS)
        except Exception as e:
            stop(0, f"cannot open the page: {str(e).splitlines()[0] if str(e) else e}")
            return res
        rep = await settle(page, tracker, timeout_ms=rec.SETTLE_TIMEOUT_MS)
        if not rep.settled:
            stop(0, f"step 0: the page never settled ({rep.what})")
            return res
        await screenshot(page, str(shots_dir / "step_0.png"))
        res.shots[0] = shots_dir / "step_0.png"
        tl.moves.append((time.time(), vp[0] * 0.5, vp[1] * 0.62))
        await page.mouse.move(vp[0] * 0.5, vp[1] * 0.62)
        if hold:
            await asyncio.sleep(rec.HOLD_START_S)
        for i, a in enumerate(recipe.actions, start=1):
            el = None
            if a.target:
                sel = rw.playwright_selector(a.target)
                try:
                    el = await locate(page, i, sel)
                except RecordError as e:
                    stop(i, f"{e}" + (f" (mapped from {a.target!r})" if sel != a.target else ""))
                    break
                with contextlib.suppress(Exception):
                    await el.scroll_into_view_if_needed(timeout=3000)
            done = await play(page, a.action, el, vp, RECORDER, trace=tl, step=i)
            if not done.executed:
                stop(i, f"step {i}: {a.type} failed: {done.reason(a.type)}")
                break
            res.reached = i
            rep = await settle(page, tracker, timeout_ms=rec.SETTLE_TIMEOUT_MS)
            if not rep.settled:
                stop(i, f"step {i}: the page never settled ({rep.what})")
                break
            await screenshot(page, str(shots_dir / f"step_{i}.png"))
            res.shots[i] = shots_dir / f"step_{i}.png"
            if hold:
                await asyncio.sleep(rec.HOLD_STEP_S)
        with contextlib.suppress(Exception):
            res.survivors = await page.evaluate(SURVIVORS_JS, {"aria": rw.mut.aria, "divs": rw.mut.divs,
                                                               "rename": rw.mut.rename})
    finally:
        with contextlib.suppress(Exception):
            await ctx.close()
        res.seconds = time.monotonic() - t0
    return res


# =========================================================================== the set

def _first_failure(result: Any) -> dict[str, Any] | None:
    for s in result.steps:
        if s.passed:
            continue
        d: dict[str, Any] = {"step": s.index, "type": s.type, "description": s.description[:100],
                             "executed": s.executed, "error": s.error}
        if s.grounding is not None:
            g = s.grounding
            d["grounding"] = {"rung": g.rung, "tried": [f"{t.rung}:{t.matches}" for t in g.tried],
                              "element": (g.element.model_dump(exclude_none=True) if g.element else None)}
        if s.assertion is not None:
            d["assertion"] = {"text": s.assertion.text, "passed": s.assertion.passed,
                              "failed_checks": [(c.check.model_dump(), c.detail) for c in s.assertion.checks
                                                if not c.passed]}
        ev = [e.model_dump(exclude_none=True) for e in getattr(s, "evidence", []) or [] if not e.passed]
        if ev:
            d["evidence"] = ev[:6]
        return d
    return None


def _why(f: dict[str, Any] | None) -> str:
    if not f:
        return ""
    bits = [f"step {f['step']} {f['type']}"]
    if f.get("grounding") and not f["grounding"].get("rung"):
        bits.append("not grounded (" + ", ".join(f["grounding"]["tried"]) + ")")
    elif f.get("error"):
        bits.append(str(f["error"])[:120])
    if f.get("assertion") and f["assertion"].get("passed") is False:
        fc = f["assertion"].get("failed_checks") or []
        bits.append("assertion failed: " + "; ".join(str(d or c.get("kind")) for c, d in fc[:3]))
    if f.get("evidence"):
        bits.append("evidence failed: " + "; ".join(str(e.get("detail") or e.get("kind")) for e in f["evidence"][:3]))
    return ", ".join(bits)


async def _task_units(browser: Any, task: Any, out: Path, mutations: tuple[str, ...], protocol: Any, components: Any,
                      progress: Progress | None, *, hold: bool = False, recipes: Any = None) -> list[Verdict]:
    from ..browser.core import origin_of
    from ..judge.score import judge_unit
    from ..validate.check import MAX_DIFF_SHARE

    n = len(task.action_sequence)
    say = progress or (lambda _m: None)
    recipe = load_recipe(task, recipes)
    names = known_names(task)
    control: Drive | None = None

    async def get_control(source: Any) -> Drive:
        # the unmutated source through the same server and harness (driven only when needed)
        nonlocal control
        if control is None:
            ctl_rw = Rewriter(Mut(), names)
            with serve_mutant(task, ctl_rw, source=source) as (bundle, _srv):
                control = await drive(browser, task, recipe, bundle.url, {origin_of(bundle.url)}, ctl_rw,
                                      out / "control", hold=hold)
            control.evaluate(task, MAX_DIFF_SHARE)
            say(f"{task.id}: control {'reproduces every checkpoint' if control.ok else 'differs: ' + control.reason}")
        return control

    async def one(m: str, source: Any) -> Verdict:
        rw = Rewriter(Mut.named(m), names)
        unit = out / m
        if unit.exists():
            shutil.rmtree(unit, ignore_errors=True)
        extra: dict[str, Any] = {"verified": False}
        try:
            with serve_mutant(task, rw, source=source) as (bundle, srv):
                dr = await drive(browser, task, recipe, bundle.url, {origin_of(bundle.url)}, rw, unit / "verify",
                                 hold=hold)
                dr.evaluate(task, MAX_DIFF_SHARE)
                if not dr.ok:
                    ctl = await get_control(source)
                    dr.evaluate(task, MAX_DIFF_SHARE, ctl)
                    extra["control"] = ctl.as_dict()
                    if not dr.ok and ctl.stop_at is not None and dr.failed_at is not None \
                            and ctl.stop_at <= dr.failed_at:
                        dr.reason = f"the unmutated source does not replay here either ({ctl.stop_reason})"
                extra.update({"verify": dr.as_dict(), "rewrites": dict(rw.stats), "server_errors": srv.errors[:5]})
                if not dr.ok:
                    say(f"{task.id} {m}: not verified: {dr.reason}")
                    return Verdict(set="markup", task_id=task.id, page=m, steps=n, judged=None, truth=None,
                                   note=f"not verified: {dr.reason}", extra=extra)
                extra["verified"] = True
                t0 = time.monotonic()
                result = await judge_unit(browser, task, bundle, unit / "judge", protocol, components)
                extra["judge_seconds"] = round(time.monotonic() - t0, 1)
        except Exception as e:  # noqa: BLE001 - one unit never stops the run
            msg = str(e).strip().splitlines()[0] if str(e).strip() else e.__class__.__name__
            say(f"{task.id} {m}: error: {msg[:120]}")
            return Verdict(set="markup", task_id=task.id, page=m, steps=n, judged=None, truth=None,
                           note=f"error: {e.__class__.__name__}: {msg[:200]}", extra=extra)
        (unit / "result.json").write_text(result.model_dump_json(indent=1))
        fail = _first_failure(result)
        extra["failed"] = fail
        extra["status"] = result.status
        note = _why(fail) if fail else ""
        if result.status != "ok":
            note = f"{result.status}: {(result.error or '')[:200]} {note}".strip()
        ok = result.ifs is not None and result.ifs >= 100 - 1e-9
        if not ok and result.ifs is not None:
            # is it the mutation? the unmutated source, judged the same way, says
            extra["control_judged"] = await judge_control(source)
        v = Verdict(set="markup", task_id=task.id, page=m, steps=n,
                    judged=result.steps_passed if result.ifs is not None else None, truth=n,
                    ifs=result.ifs, final=result.final, ok=ok, note=note, extra=extra)
        say(f"{task.id} {m}: " + (f"IFS {result.ifs:.1f} ({result.steps_passed}/{n})" if result.ifs is not None
                                  else "not scored") + (f" - {v.note}" if v.note else "")
            + (f" [unmutated source: {extra['control_judged']}/{n}]" if "control_judged" in extra else ""))
        return v

    control_judged: int | None = None

    async def judge_control(source: Any) -> int | None:
        nonlocal control_judged
        if control_judged is None:
            ctl_rw = Rewriter(Mut(), names)
            try:
                with serve_mutant(task, ctl_rw, source=source) as (bundle, _srv):
                    r = await judge_unit(browser, task, bundle, out / "control-judged", protocol, components)
                control_judged = r.steps_passed if r.ifs is not None else -1
            except Exception:  # noqa: BLE001
                control_judged = -1
        return None if control_judged < 0 else control_judged

    verdicts: list[Verdict] = []
    with source_server(task, recipes) as source:  # a served source (Datasette, MkDocs) starts once
        for m in mutations:
            verdicts.append(await one(m, source))
    return verdicts


async def run_async(tasks_dir: Path, out_dir: Path, *, only: Any = None, progress: Progress | None = None,
                    mutations: tuple[str, ...] = MUTATIONS, browser: Any = None, hold: bool = False,
                    recipes: Any = None) -> list[Verdict]:
    from ..judge.score import JudgeComponents
    from ..protocols import get_protocol
    from ..tasks.load import load_task

    out_dir = Path(out_dir)
    out_dir.mkdir(parents=True, exist_ok=True)
    for m in mutations:
        Mut.named(m)
    protocol = get_protocol("offline")
    components = JudgeComponents.for_protocol(protocol)
    components.check()
    verdicts: list[Verdict] = []
    log = VerdictLog(out_dir / "verdicts.jsonl")

    async def body(get_browser: Callable[[], Any]) -> None:
        for d in task_dirs(Path(tasks_dir), only):
            b = await get_browser()
            try:
                task = load_task(d)
            except Exception as e:  # noqa: BLE001
                vs = [Verdict(set="markup", task_id=d.name, page=m, steps=0, judged=None, truth=None,
                              note=f"error: {str(e).splitlines()[0][:200]}") for m in mutations]
            else:
                try:
                    vs = await _task_units(b, task, out_dir / task.id, mutations, protocol, components, progress,
                                           hold=hold, recipes=recipes)
                except Exception as e:  # noqa: BLE001
                    msg = str(e).strip().splitlines()[0] if str(e).strip() else e.__class__.__name__
                    vs = [Verdict(set="markup", task_id=task.id, page=m, steps=len(task.action_sequence), judged=None,
                                  truth=None, note=f"error: {msg[:200]}") for m in mutations]
            verdicts.extend(vs)
            log.add(vs)

    await with_browser(body, browser)
    (out_dir / "summary.md").write_text(table(verdicts))
    return verdicts


def run(tasks_dir: Path, out_dir: Path, *, only: Any = None, progress: Progress | None = None,
        mutations: tuple[str, ...] = MUTATIONS, recipes: Any = None) -> list[Verdict]:
    """Mutate, verify and judge every task of ``tasks_dir`` (one Verdict per task and mutation).

    ``only``: task ids to keep; ``recipes``: where the tasks' recipes are when they are not bundled."""
    return asyncio.run(run_async(tasks_dir, out_dir, only=only, progress=progress, mutations=mutations,
                                 recipes=recipes))


def table(verdicts: list[Verdict]) -> str:
    rows = ["| task | mutation | verified | IFS | judged/steps | where the judge failed |", "|---|---|---|---|---|---|"]
    for v in verdicts:
        ver = "yes" if v.extra.get("verified") else "no"
        ifs = f"{v.ifs:.1f}" if v.ifs is not None else "-"
        j = f"{v.judged}/{v.steps}" if v.judged is not None else "-"
        rows.append(f"| {v.task_id} | {v.page} | {ver} | {ifs} | {j} | {(v.note or '').replace('|', '/')[:160]} |")
    judged = [v for v in verdicts if v.judged is not None]
    ok = sum(v.ok for v in judged)
    rows.append("")
    unscored = sum(1 for v in verdicts if v.extra.get("verified") and v.judged is None)
    rows.append(f"{len(judged)} verified mutants judged, {ok} kept IFS 100"
                + (f", {unscored} verified but not scored by the judge" if unscored else "")
                + f"; {sum(1 for v in verdicts if not v.extra.get('verified'))} not verified.")
    return "\n".join(rows) + "\n"


def main(argv: list[str] | None = None) -> int:
    import argparse
    import sys

    ap = argparse.ArgumentParser(prog="python -m iwrbench.validity.markup",
                                 description="Markup mutants of each task's source: verified without the judge, "
                                             "then judged (IFS must stay 100).")
    ap.add_argument("--tasks", required=True, type=Path, help="a suite folder of task folders (or one task folder)")
    ap.add_argument("--out", required=True, type=Path)
    ap.add_argument("--only", action="append", help="task id (repeatable)")
    ap.add_argument("--mutation", action="append", choices=MUTATIONS, help="mutation (repeatable; default all)")
    ap.add_argument("--oracle-recipes", type=Path, help="recipes of tasks that are not in a bundled suite")
    a = ap.parse_args(argv)
    if not a.tasks.is_dir():
        print(f"error: --tasks {a.tasks}: no such folder", file=sys.stderr)
        return 2
    try:
        vs = run(a.tasks, a.out, only=a.only, mutations=tuple(a.mutation or MUTATIONS),
                 progress=lambda m: print(m, flush=True), recipes=a.oracle_recipes)
    except Exception as e:  # noqa: BLE001
        print(f"error: {str(e).splitlines()[0] if str(e) else e.__class__.__name__}", file=sys.stderr)
        return 1
    print(table(vs))
    return 0


__all__ = ["MUTATIONS", "Mut", "Names", "Rewriter", "rename", "js_tokens", "shim_html", "run"]


if __name__ == "__main__":
    raise SystemExit(main())
