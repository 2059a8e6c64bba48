"""Checks a recipe author wrote (``checks:``): typed data routed to small functions.

Text checks read what a person sees (:class:`iwrbench.checks.view.View`: text rendered inside the
viewport, not hidden, transparent or covered), never ``body.innerText``. The other kinds (role counts,
ARIA states, URL, field values) read the DOM snapshot ``iwrbench.browser.dom.STATE_JS``; they decide a
step only when an author wrote them, because a model cannot know the source's markup from the video.
The recorder also derives such DOM facts (``derive_info``) for the report: they are never scored.
"""

from __future__ import annotations

import re
from typing import Any, Callable

from .view import View
from ..records import (
    Check,
    CheckResult,
    CountEquals,
    StateEquals,
    TextAbsent,
    TextVisible,
    UrlContains,
    ValueEquals,
)


def norm(s: str | None) -> str:
    return re.sub(r"\s+", " ", s or "").strip().lower()


def _text_visible(c: TextVisible, st: dict, acted: dict | None, view: View | None) -> tuple[bool, str]:
    if view is not None:
        ok = view.has(c.text) or view.has(c.text, "field")
    else:  # no view (a DOM snapshot only): the old reading, kept for callers without one
        ok = norm(c.text) in norm(st.get("body_text"))
    return ok, "" if ok else f"text {c.text!r} is not on screen"


def _text_absent(c: TextAbsent, st: dict, acted: dict | None, view: View | None) -> tuple[bool, str]:
    if view is not None:
        ok = not (view.has(c.text) or view.has(c.text, "field"))
    else:
        ok = norm(c.text) not in norm(st.get("body_text"))
    return ok, "" if ok else f"text {c.text!r} is still on screen"


def _value_equals(c: ValueEquals, st: dict, acted: dict | None, view: View | None = None) -> tuple[bool, str]:
    want = norm(c.value)
    values = [norm(f.get("value")) for f in st.get("fields", []) if f.get("value") is not None]
    ok = want in values
    return ok, "" if ok else f"no field shows {c.value!r} (fields: {values[:6]})"


def _count(c: CountEquals, st: dict, acted: dict | None, view: View | None = None) -> tuple[bool, str]:
    got = int(st.get("counts", {}).get(c.role, 0))
    return got == c.value, "" if got == c.value else f"{got} visible {c.role} element(s), expected {c.value}"


def _url(c: UrlContains, st: dict, acted: dict | None, view: View | None = None) -> tuple[bool, str]:
    url = st.get("url") or ""
    ok = c.contains in url
    return ok, "" if ok else f"url {url!r} does not contain {c.contains!r}"


def _state(c: StateEquals, st: dict, acted: dict | None, view: View | None = None) -> tuple[bool, str]:
    if c.name is None:
        if not acted:
            return False, "no acted-on element to read the state of"
        got = acted.get(c.state)
        return got == c.value, "" if got == c.value else f"acted-on element {c.state}={got}, expected {c.value}"
    want = norm(c.name)
    seen = []
    for s in st.get("states", []):
        if norm(s.get("name")) != want or (c.role and s.get("role") and s.get("role") != c.role):
            continue
        got = s.get("states", {}).get(c.state)
        seen.append(got)
        if got == c.value:
            return True, ""
    if not seen:
        return False, f"no {c.role or 'element'} named {c.name!r} with a {c.state} state"
    return False, f"{c.name!r} {c.state}={seen[0]}, expected {c.value}"


_ROUTES: dict[type, Callable[[Any, dict, dict | None, View | None], tuple[bool, str]]] = {
    TextVisible: _text_visible,
    TextAbsent: _text_absent,
    ValueEquals: _value_equals,
    CountEquals: _count,
    UrlContains: _url,
    StateEquals: _state,
}


def evaluate(check: Check, state: dict, acted: dict | None = None, view: View | None = None) -> CheckResult:
    ok, detail = _ROUTES[type(check)](check, state or {}, acted, view)
    return CheckResult(check=check, passed=bool(ok), detail=detail or None)


def evaluate_all(checks: list[Check], state: dict, acted: dict | None = None, view: View | None = None) -> list[CheckResult]:
    return [evaluate(c, state, acted, view) for c in checks]


# --------------------------------------------------------------------------- derivation


def derive_info(before: dict, after: dict, acted_before: dict | None, acted_after: dict | None,
                target_name: str | None = None) -> list[Check]:
    """DOM facts an action changed (URL, field values, role counts, ARIA states): for the report only."""
    out: list[Check] = []
    if before.get("url") != after.get("url"):
        a, b = before.get("url", ""), after.get("url", "")
        if "#" in b and b.split("#", 1)[0] == a.split("#", 1)[0]:
            out.append(UrlContains(contains="#" + b.split("#", 1)[1]))
        else:
            path = re.sub(r"^[a-z]+://[^/]+", "", b)
            if path and path != "/":
                out.append(UrlContains(contains=path.split("#", 1)[0] or path))
    bvals = {(f.get("role"), f.get("name")): f.get("value") for f in before.get("fields", [])}
    for f in after.get("fields", []):
        key = (f.get("role"), f.get("name"))
        v = f.get("value")
        if v is not None and norm(v) and bvals.get(key) != v:
            out.append(ValueEquals(value=v, field=f.get("name") or None))
    bc, ac = before.get("counts", {}), after.get("counts", {})
    for role in sorted(set(bc) | set(ac)):
        if bc.get(role, 0) != ac.get(role, 0):
            out.append(CountEquals(role=role, value=int(ac.get(role, 0))))
    if acted_before is not None and acted_after is not None:
        for k in ("checked", "expanded", "selected", "pressed"):
            if acted_after.get(k) is not None and acted_after.get(k) != acted_before.get(k):
                out.append(StateEquals(state=k, value=bool(acted_after[k])))
    bstates = {(s.get("role"), s.get("name")): s.get("states", {}) for s in before.get("states", [])}
    for s in after.get("states", []):
        key = (s.get("role"), s.get("name"))
        if target_name and norm(s.get("name")) == norm(target_name):
            continue
        old = bstates.get(key)
        if old is None:
            continue
        for k, v in s.get("states", {}).items():
            if v is not None and old.get(k) is not None and old.get(k) != v and k != "disabled":
                out.append(StateEquals(state=k, value=bool(v), role=s.get("role"), name=s.get("name")))
    uniq, keys = [], set()
    for c in out:
        k = c.model_dump_json()
        if k not in keys:
            keys.add(k)
            uniq.append(c)
    return uniq[:10]
