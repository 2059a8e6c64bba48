"""The JavaScript lexer and rewriter: strings a script hands to the DOM (ids, classes, selectors, HTML) mutated in place."""

from __future__ import annotations

import re
from typing import Any

from .names import rename
from .selectors import _ID_REF_ATTRS, _IDENT, _unescape_ident

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

    def __init__(self, rw: Any, src: str):  # rw: the Rewriter that asked (rewrite.py)
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
