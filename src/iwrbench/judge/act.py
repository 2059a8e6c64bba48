"""Executing one action on a grounded element, and deciding whether it executed.

Success rules follow the published judge: Click if the element exists and was clicked, Press
if the key was sent, Type if the text went into the chosen field, Scroll if the page moved more
than 5 px. The project's own rules (``execute``): Scroll honours its direction and succeeds when
the window or the container under the pointer moved; Type succeeds only when the field then shows
the text; a click that Playwright cannot perform is dispatched as an event; Hover and Select are
executed. ``execute_published`` does what the published judge does instead (see docs/judge.md,
"The published protocol"): Scroll always scrolls down half a window, on the element that owns the
vertical scroll, and succeeds only when the window moved; Type clears, clicks and types without
checking; Click falls back to a script click then a click at the element's centre; Hover and
Select are not actions the published judge knows.
"""

from __future__ import annotations

import asyncio
from dataclasses import dataclass
from typing import Any

from ..browser.act import choose_option, type_into
from ..browser.world import read
from ..records import Action

SCROLL_MIN_PX = 5

_SCROLL_POS_JS = r"""() => {
  const out = [scrollY];
  const cx = innerWidth / 2, cy = innerHeight / 2;
  let e = document.elementFromPoint(cx, cy);
  while (e && e !== document.body && e !== document.documentElement) {
    const cs = getComputedStyle(e);
    if (/(auto|scroll|overlay)/.test(cs.overflowY) && e.scrollHeight > e.clientHeight + 2) { out.push(e.scrollTop); break; }
    e = e.parentElement;
  }
  return out;
}"""

_SCROLL_FALLBACK_JS = r"""(dy) => {
  const se = document.scrollingElement || document.documentElement;
  if (se.scrollHeight > se.clientHeight + 2) { window.scrollBy(0, dy); return 'window'; }
  let best = null, area = 0;
  for (const e of document.querySelectorAll('body *')) {
    if (e.scrollHeight <= e.clientHeight + 2) continue;
    const cs = getComputedStyle(e);
    if (!/(auto|scroll|overlay)/.test(cs.overflowY)) continue;
    const r = e.getBoundingClientRect();
    if (r.width * r.height > area) { area = r.width * r.height; best = e; }
  }
  if (best) { best.scrollBy(0, dy); return 'element'; }
  return 'none';
}"""


@dataclass
class Outcome:
    executed: bool
    error: str | None = None
    note: str | None = None


def _short(e: BaseException) -> str:
    s = str(e).strip().splitlines()
    return (s[0] if s else e.__class__.__name__)[:200]


async def _moved(page: Any, before: list[float]) -> float:
    try:
        after = await read(page, _SCROLL_POS_JS)
    except Exception:
        return 0.0
    return max((abs(a - b) for a, b in zip(after, before)), default=0.0) if len(after) == len(before) else abs(after[0] - before[0])


async def scroll(page: Any, action: Action, viewport: tuple[int, int]) -> Outcome:
    w, h = viewport
    sign = -1 if action.parameters.direction == "up" else 1
    amount = action.parameters.scroll_page or 0.5
    dy = sign * amount * h
    before = await read(page, _SCROLL_POS_JS)
    await page.mouse.move(w / 2, h / 2)
    await page.mouse.wheel(0, dy)
    moved = 0.0
    for _ in range(10):  # wheel scrolling is asynchronous; smooth scrolling is reduced-motion off
        await asyncio.sleep(0.03)
        moved = await _moved(page, before)
        if moved > SCROLL_MIN_PX:
            break
    if moved <= SCROLL_MIN_PX:
        how = await read(page, _SCROLL_FALLBACK_JS, dy)
        await asyncio.sleep(0.05)
        moved = await _moved(page, before)
        if moved <= SCROLL_MIN_PX:
            return Outcome(False, f"the page did not scroll {'up' if sign < 0 else 'down'} (moved {moved:.0f}px, {how})")
    return Outcome(True, note=f"scrolled {moved:.0f}px")


async def execute(page: Any, action: Action, handle: Any | None, viewport: tuple[int, int], *,
                  timeout_ms: int = 5000, published: bool = False) -> Outcome:
    if published:
        return await execute_published(page, action, handle)
    kind = action.type
    p = action.parameters
    try:
        if kind == "Scroll":
            return await scroll(page, action, viewport)
        if kind == "Press":
            if handle is not None:
                try:
                    await handle.focus()
                except Exception:
                    pass
            await page.keyboard.press(p.key or "Enter")
            return Outcome(True)
        if handle is None:
            return Outcome(False, "no element matches the description")
        if kind == "Click":
            try:
                await handle.click(timeout=min(timeout_ms, 3000))
                return Outcome(True)
            except Exception as e:  # covered by another element, detached, not stable
                try:
                    await handle.dispatch_event("click")
                    return Outcome(True, note=f"clicked by event ({_short(e)[:80]})")
                except Exception as e2:
                    return Outcome(False, f"click failed: {_short(e2)}")
        if kind == "Hover":
            await handle.hover(timeout=min(timeout_ms, 3000), force=True)
            box = await handle.bounding_box()
            if box:  # a second move at the same spot refreshes :hover after any re-render
                cx, cy = box["x"] + box["width"] / 2, box["y"] + box["height"] / 2
                await page.mouse.move(cx + 1, cy)
                await page.mouse.move(cx, cy)
            return Outcome(True)
        if kind == "Type":
            text = p.text or ""
            # as recorded: cleared first unless the recipe said clear: false, then key by key
            await type_into(handle, text, clear=p.clear is not False, timeout_ms=timeout_ms, focus_if_click_fails=True)
            got = await read(page, "(e) => e.isContentEditable ? e.innerText : e.value", handle)
            if text.strip() and text.strip() not in (got or ""):
                return Outcome(False, f"the field shows {got!r}, not the typed text")
            return Outcome(True)
        if kind == "Select":
            await choose_option(handle, p.value or p.text or "", timeout_ms=timeout_ms)
            return Outcome(True)
        return Outcome(False, f"unknown action type {kind}")
    except Exception as e:
        return Outcome(False, f"{kind.lower()} failed: {_short(e)}")


# --------------------------------------------------------------------------- the published judge's actions

#: the published Scroll: half the window's height, down, on the element that owns the vertical scroll (the
#: focused element's nearest ancestor that can scroll and is at least half the window tall, else the first
#: such element of the document, else the window); returns the window's vertical offset before it
_PUBLISHED_SCROLL_JS = r"""() => {
  const tall = (e) => e.clientHeight >= innerHeight * 0.5;
  const scrolls = (e) => !!e && e.nodeType === 1 && /(auto|scroll|overlay)/.test(getComputedStyle(e).overflowY)
                         && e.scrollHeight > e.clientHeight && tall(e);
  const before = scrollY;
  const dy = Math.trunc(innerHeight * 0.5);
  let e = document.activeElement;
  while (e && e !== document.body && !scrolls(e)) e = e.parentElement;
  if (!scrolls(e)) e = Array.from(document.querySelectorAll('*')).find(scrolls) || null;
  const root = !e || e === document.scrollingElement || e === document.documentElement || e === document.body;
  if (root) window.scrollBy(0, dy); else e.scrollBy({top: dy, behavior: 'auto'});
  return before;
}"""

#: what the published Type does before typing: the field's text and value emptied
_CLEAR_JS = "(e) => { e.textContent = ''; e.value = ''; }"


async def execute_published(page: Any, action: Action, handle: Any | None) -> Outcome:
    """One action as the published judge executes it (the grounding is the caller's)."""
    kind = action.type
    p = action.parameters
    try:
        if kind == "Scroll":
            before = await read(page, _PUBLISHED_SCROLL_JS)
            await asyncio.sleep(1.0)  # the published Scroll waits a second before it reads the offset
            moved = abs(float(await read(page, "() => scrollY")) - float(before))
            if moved > SCROLL_MIN_PX:
                return Outcome(True, note=f"the window scrolled {moved:.0f}px")
            return Outcome(False, f"the window did not scroll (moved {moved:.0f}px; the published judge reads the "
                                  "window's offset only)")
        if kind == "Press":
            await page.keyboard.press(p.key or "Enter")
            return Outcome(True)
        if kind in ("Hover", "Select"):
            return Outcome(False, f"the published judge has no {kind} action")
        if handle is None:
            return Outcome(False, "no element matches the description")
        if kind == "Click":
            return await _published_click(page, handle)
        if kind == "Type":
            try:
                await handle.evaluate(_CLEAR_JS)
                await handle.click()
                await asyncio.sleep(0.1)
                await page.keyboard.type(p.text or "")
            except Exception:
                try:
                    await handle.evaluate(_CLEAR_JS)
                    await handle.type(p.text or "", delay=5)
                except Exception:
                    await handle.fill(p.text or "")
            return Outcome(True)
        return Outcome(False, f"unknown action type {kind}")
    except Exception as e:
        return Outcome(False, f"{kind.lower()} failed: {_short(e)}")


async def _published_click(page: Any, handle: Any) -> Outcome:
    """Playwright's click (1.5 s), else the element's own click() in the page, else a mouse click at its centre."""
    try:
        await handle.click(timeout=1500)
        return Outcome(True)
    except Exception as e:
        first = _short(e)
    try:
        await handle.evaluate("(e) => e.click()")
        return Outcome(True, note=f"clicked by script ({first[:80]})")
    except Exception as e2:
        second = _short(e2)
    try:
        box = await handle.bounding_box()
    except Exception:
        box = None
    if box:
        try:
            await page.mouse.click(box["x"] + box["width"] / 2, box["y"] + box["height"] / 2)
            return Outcome(True, note=f"clicked at the element's centre ({second[:80]})")
        except Exception as e3:
            second = _short(e3)
    return Outcome(False, f"click failed: {second}")
