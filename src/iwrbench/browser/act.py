"""The action player both the recorder and the judge use for what a person does to a field.

Typing and choosing an option are done one way: the recorder (``record.recorder``) and the judge
(``judge.act``) call these with their own timeouts, pace and fallbacks, so a recording and its
replay type, clear and choose alike. What differs between them stays with them on purpose: the
recorder moves the pointer visibly and notes video cues, and fails loudly (a recipe error); the
judge falls back and reports an ``Outcome`` (a page's failure).
"""

from __future__ import annotations

from typing import Any


def _t(timeout_ms: int | None, cap: int) -> dict[str, int]:
    return {} if timeout_ms is None else {"timeout": min(timeout_ms, cap)}


async def type_into(handle: Any, text: str, *, clear: bool = True, delay_ms: float = 0,
                    timeout_ms: int | None = None, focus_if_click_fails: bool = False) -> None:
    """Click the field, empty it unless ``clear`` is false (what it holds is kept and typed after), then type
    ``text`` key by key, as a person types (pages may listen to key events, not only to ``input``).

    ``timeout_ms``: Playwright's default when None; ``focus_if_click_fails``: a field that cannot be clicked
    (covered, not stable) is focused instead of failing."""
    try:
        await handle.click(**_t(timeout_ms, 2000))
    except Exception:
        if not focus_if_click_fails:
            raise
        await handle.focus()
    if clear:
        await handle.fill("", **_t(timeout_ms, 3000))
    # a Locator (the recorder's) types with press_sequentially, an ElementHandle (the judge's) with type: the same keys
    typing = getattr(handle, "press_sequentially", None) or handle.type
    await typing(text, **({"delay": delay_ms} if delay_ms else {}), **_t(timeout_ms, 10000))


async def choose_option(handle: Any, want: str, *, timeout_ms: int | None = None) -> None:
    """Choose the option of a ``<select>`` whose label is ``want``, else whose value is."""
    try:
        await handle.select_option(label=want, **_t(timeout_ms, 3000))
    except Exception:
        await handle.select_option(value=want, **_t(timeout_ms, 3000))
