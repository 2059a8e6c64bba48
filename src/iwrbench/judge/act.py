"""Executing one action on a grounded element, and deciding whether it executed.

Success rules follow the published judge: Click if the element exists and was clicked, Press
if the key was sent, Type if the text went into the chosen field, Scroll if the page moved more
than 5 px. Scroll honours its direction unless ``published_scroll`` (always down half a page).
"""

from __future__ import annotations

import asyncio
from dataclasses import dataclass
from typing import Any

from ..browser.act import choose_option, type_into
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
        after = await page.evaluate(_SCROLL_POS_JS)
    except Exception:
        return 0.0
    return max((abs(a - b) for a, b in zip(after, before)), default=0.0) if len(after) == len(before) else abs(after[0] - before[0])


async def scroll(page: Any, action: Action, viewport: tuple[int, int], *, published: bool = False) -> Outcome:
    w, h = viewport
    if published:
        sign, amount = 1, 0.5
    else:
        sign = -1 if action.parameters.direction == "up" else 1
        amount = action.parameters.scroll_page or 0.5
    dy = sign * amount * h
    before = await page.evaluate(_SCROLL_POS_JS)
    await page.mouse.move(w / 2, h / 2)
    await page.mouse.wheel(0, dy)
    moved = 0.0
    for _ in range(10):  # wheel scrolling is asynchronous; smooth scrolling is reduced-motion off
        await asyncio.sleep(0.03)
        moved = await _moved(page, before)
        if moved > SCROLL_MIN_PX:
            break
    if moved <= SCROLL_MIN_PX:
        how = await page.evaluate(_SCROLL_FALLBACK_JS, dy)
        await asyncio.sleep(0.05)
        moved = await _moved(page, before)
        if moved <= SCROLL_MIN_PX:
            return Outcome(False, f"the page did not scroll {'up' if sign < 0 else 'down'} (moved {moved:.0f}px, {how})")
    return Outcome(True, note=f"scrolled {moved:.0f}px")


async def execute(page: Any, action: Action, handle: Any | None, viewport: tuple[int, int], *,
                  timeout_ms: int = 5000, published_scroll: bool = False) -> Outcome:
    kind = action.type
    p = action.parameters
    try:
        if kind == "Scroll":
            return await scroll(page, action, viewport, published=published_scroll)
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
            got = await handle.evaluate("(e) => e.isContentEditable ? e.innerText : e.value")
            if text.strip() and text.strip() not in (got or ""):
                return Outcome(False, f"the field shows {got!r}, not the typed text")
            return Outcome(True)
        if kind == "Select":
            await choose_option(handle, p.value or p.text or "", timeout_ms=timeout_ms)
            return Outcome(True)
        return Outcome(False, f"unknown action type {kind}")
    except Exception as e:
        return Outcome(False, f"{kind.lower()} failed: {_short(e)}")
