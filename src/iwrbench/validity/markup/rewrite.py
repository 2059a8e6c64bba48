"""The HTML and CSS rewriter: a page's markup, stylesheets and id references, mutated where they are written."""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from typing import Any

from .js import _JsRewriter
from .names import Mut, Names, _word, rename, rename_list
from .selectors import (
    _GENERATED,
    _ID_REF_ATTRS,
    _IDENT,
    _IDENT_RE,
    _SELECTOR_ARG_PSEUDOS,
    _SELECTORISH_VALUE,
    BUTTON_SEL,
    DISABLED_SEL,
    DIV_SEL,
    ENABLED_SEL,
    LI_SEL,
    SPAN_SEL,
    _find_close,
    _unescape_ident,
    skip_quoted,
)


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
                i = skip_quoted(text, i, line=True)
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
