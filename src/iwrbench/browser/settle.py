"""Settle by condition, never a bare sleep.

A page is settled when: the document has loaded, its fonts are ready, no request of its own
is in flight, and its DOM (shadow trees included) has not changed for ``quiet_ms`` (two
animation frames included). After an action (``after_action``) the quiet window also counts
from the moment settling began: an action whose effect starts later (a ``hashchange``, a timer,
a framework's deferred render) is not read before it had ``quiet_ms`` to show.
There is always an upper bound; when it is hit the report says what kept changing.

With a virtual page clock (``core.new_context(virtual_time=True)``), settling has a second half,
``run_clock``: the page's timers and animation frames run in windows of virtual time until one window
changes nothing, so animations driven by script (canvas charts, requestAnimationFrame loops, timers)
are shown at the same moment on every run. See docs/judge.md, "Animated pages".
Screenshots are taken with CSS animations disabled and the caret hidden, so a blinking caret
or a spinner cannot make two identical states differ.
"""

from __future__ import annotations

import asyncio
import time
from dataclasses import dataclass
from typing import Any

_QUIET_JS = r"""
async ({quiet, budget, after}) => {
  // real time, also when the page's own clock is virtual (paused between advances)
  const R = window.__iwrReal || {now: () => performance.now(), setTimeout: (f, ms) => setTimeout(f, ms),
                                 frame: (f) => requestAnimationFrame(f)};
  const t0 = R.now();
  const since = after ? t0 : -Infinity;
  const st = window.__iwrMut || {last: 0, count: 0, what: ''};
  const frames = () => new Promise(r => R.frame(() => R.frame(r)));
  const sleep = (ms) => new Promise(r => R.setTimeout(r, ms));
  try { if (document.fonts && document.fonts.status !== 'loaded')
          await Promise.race([document.fonts.ready, sleep(budget)]); } catch (e) {}
  while (true) {
    await Promise.race([frames(), sleep(100)]);
    const now = R.now();
    if (document.readyState === 'complete' && now - Math.max(st.last, since) >= quiet)
      return {quiet: true, waited: now - t0, mutations: st.count, what: st.what};
    if (now - t0 >= budget)
      return {quiet: false, waited: now - t0, mutations: st.count, what: st.what,
              ready: document.readyState};
    await sleep(Math.min(50, quiet / 4));
  }
}
"""


@dataclass
class SettleReport:
    settled: bool
    waited_ms: float
    what: str = ""
    pending_requests: int = 0

    def as_dict(self) -> dict[str, Any]:
        d: dict[str, Any] = {"settled": self.settled, "waited_ms": round(self.waited_ms)}
        if not self.settled:
            d["what"] = self.what
        return d


class RequestTracker:
    """Counts the page's in-flight requests (for the network-idle part of settling)."""

    def __init__(self, page: Any):
        self.inflight: set[Any] = set()
        page.on("request", self._start)
        page.on("requestfinished", self._end)
        page.on("requestfailed", self._end)

    def _start(self, req: Any) -> None:
        self.inflight.add(req)

    def _end(self, req: Any) -> None:
        self.inflight.discard(req)


async def settle(
    page: Any,
    tracker: RequestTracker | None = None,
    *,
    quiet_ms: int = 250,
    timeout_ms: int = 5000,
    after_action: bool = False,
) -> SettleReport:
    """Wait until the page is quiet (see module doc), at most ``timeout_ms``."""
    t0 = time.monotonic()
    deadline = t0 + timeout_ms / 1000
    last_what = ""
    fresh = after_action  # the first reading counts quiet from its start; later ones (requests were pending) need not
    while True:
        left_ms = max(0.0, (deadline - time.monotonic()) * 1000)
        try:
            res = await asyncio.wait_for(
                page.evaluate(_QUIET_JS, {"quiet": quiet_ms, "budget": max(50, left_ms), "after": fresh}),
                timeout=left_ms / 1000 + 2.0,
            )
        except asyncio.TimeoutError:
            return SettleReport(False, (time.monotonic() - t0) * 1000, "the page stopped responding (busy script)")
        except Exception as e:  # navigation in progress, page closed, context destroyed
            msg = str(e).splitlines()[0] if str(e) else e.__class__.__name__
            if time.monotonic() >= deadline:
                return SettleReport(False, (time.monotonic() - t0) * 1000, f"navigation or error: {msg}")
            await asyncio.sleep(0.05)
            continue
        fresh = False
        last_what = res.get("what") or ""
        pending = len(tracker.inflight) if tracker else 0
        if res.get("quiet") and pending == 0:
            return SettleReport(True, (time.monotonic() - t0) * 1000)
        if time.monotonic() >= deadline:
            if pending and res.get("quiet"):
                what = f"{pending} request(s) still in flight"
            elif res.get("ready") and res.get("ready") != "complete":
                what = f"document still {res.get('ready')}"
            else:
                what = f"DOM kept changing ({last_what})" if last_what else "DOM kept changing"
            return SettleReport(False, (time.monotonic() - t0) * 1000, what, pending)
        if pending:
            await asyncio.sleep(0.05)


_CLOCK_STATE_JS = r"""
() => {
  const c = window.__iwrClock;
  if (!c) return null;
  const m = window.__iwrMut || {count: 0, what: ''};
  return Object.assign({mutations: m.count, what: m.what, now: c.now()}, c.state());
}
"""


@dataclass
class ClockReport:
    """How far a virtual clock was advanced after an action, and why it stopped."""

    advanced_ms: int
    #: empty when a quiet window of virtual time passed; else what kept going (the page is shown at the cap)
    animating: str = ""

    def as_dict(self) -> dict[str, Any]:
        d: dict[str, Any] = {"virtual_ms": self.advanced_ms}
        if self.animating:
            d["animating"] = self.animating
        return d


async def run_clock(
    page: Any,
    tracker: RequestTracker | None = None,
    *,
    quiet_ms: int = 250,
    cap_ms: int = 5000,
    settle_timeout_ms: int = 4000,
) -> ClockReport | None:
    """Advance a virtual page clock (``new_context(virtual_time=True)``) in windows of ``quiet_ms`` until one
    window passes with no DOM change, no animation frame drawn and no timer run, and no timeout the page set is
    due before ``cap_ms``, or ``cap_ms`` of virtual time have passed.

    Timers, animation frames and dates move only here, by the same amounts on every run, so what a page shows
    afterwards does not depend on how fast the machine was: a one-second chart animation is shown finished, an
    endless animation at exactly ``cap_ms`` (and the report says so). Requests a timer started are waited for in
    real time between windows. None when the page has no virtual clock."""
    try:
        state = await page.evaluate(_CLOCK_STATE_JS)
    except Exception:
        return None
    if state is None:
        return None
    advanced = 0
    while True:
        if advanced >= cap_ms:
            return ClockReport(advanced, _animating(state))
        try:
            await asyncio.wait_for(page.clock.run_for(quiet_ms), timeout=settle_timeout_ms / 1000 + 5)
        except asyncio.TimeoutError:
            return ClockReport(advanced, "the page's timers kept it busy (a window of virtual time took too long)")
        except Exception as e:  # the page navigated or closed while its timers ran
            msg = str(e).splitlines()[0] if str(e) else e.__class__.__name__
            return ClockReport(advanced, f"navigation or error while its timers ran: {msg[:120]}")
        advanced += quiet_ms
        if tracker is not None and tracker.inflight:
            await settle(page, tracker, quiet_ms=quiet_ms, timeout_ms=settle_timeout_ms)
        try:
            now = await page.evaluate(_CLOCK_STATE_JS)
        except Exception:
            return ClockReport(advanced, "the page navigated while its timers ran")
        if now is None:
            return ClockReport(advanced, "the page navigated while its timers ran")
        # quiet: nothing changed and nothing ran (a timer that polls for a download changes nothing yet is at work)
        quiet = (now["mutations"] == state["mutations"] and now["frames"] == state["frames"]
                 and now.get("fired") == state.get("fired"))
        due = now.get("next_due")
        if quiet and not (due is not None and advanced + due <= cap_ms):  # nothing changed, nothing due soon
            return ClockReport(advanced)
        state = now


def _animating(state: dict) -> str:
    parts = []
    if state.get("pending_frames"):
        parts.append("an animation-frame loop")
    if state.get("intervals"):
        parts.append(f"{state['intervals']} interval timer(s)")
    what = state.get("what") or ""
    head = "kept animating" if parts else "DOM kept changing"
    return head + (f" ({', '.join(parts)})" if parts else (f" ({what})" if what else ""))


# What moves on the browser's own clock is held still for a screenshot, by the same rule on the recorded
# source and on a judged page: SVG (SMIL) animations are shown at one hour of their document time (finite ones
# ended, endless ones at a fixed phase), playing videos and audio at their first frame, animated images on their
# first frame and a marquee's moving content left out (HOLD_STYLE). Afterwards everything goes on from where it was (RELEASE_JS).
HOLD_JS = r"""
async () => {
  const held = [];
  Object.defineProperty(window, '__iwrHeld', {value: held, configurable: true, enumerable: false});
  // real time: the page's own clock may be virtual
  const later = (f, ms) => (window.__iwrReal ? window.__iwrReal.setTimeout(f, ms) : window.setTimeout(f, ms));
  const roots = [document];
  for (let k = 0; k < roots.length && k < 200; k++)
    for (const el of roots[k].querySelectorAll('*')) if (el.shadowRoot) roots.push(el.shadowRoot);
  const all = (sel) => roots.flatMap(r => Array.from(r.querySelectorAll(sel)));
  for (const s of all('svg')) {
    if (s.ownerSVGElement || typeof s.pauseAnimations !== 'function') continue;
    try {
      held.push({kind: 'svg', el: s, paused: s.animationsPaused(), at: s.getCurrentTime()});
      s.pauseAnimations(); s.setCurrentTime(3600);
    } catch (e) {}
  }
  const waits = [];
  for (const m of all('video, audio')) {
    if (m.paused) continue;  // a paused video already shows one frame
    held.push({kind: 'media', el: m, at: m.currentTime});
    try { m.pause(); } catch (e) { continue; }
    if (m.readyState < 1) continue;
    waits.push(new Promise((done) => {
      later(done, 1500);
      m.addEventListener('seeked', () => {
        if (m.requestVideoFrameCallback) m.requestVideoFrameCallback(() => done()); else done();
      }, {once: true});
      m.currentTime = 0;
    }));
  }
  await Promise.all(waits);
  return held.length;
}
"""

RELEASE_JS = r"""
() => {
  const held = window.__iwrHeld || [];
  for (const h of held) {
    try {
      if (h.kind === 'svg') { h.el.setCurrentTime(h.at); if (!h.paused) h.el.unpauseAnimations(); }
      else { h.el.currentTime = h.at; const p = h.el.play(); if (p && p.catch) p.catch(() => {}); }  // it was playing
    } catch (e) {}
  }
  try { delete window.__iwrHeld; } catch (e) {}
}
"""

#: applied during the screenshot only: animated images on their first frame (the CSS image-animation property,
#: enabled in core.LAUNCH_ARGS); a <marquee>'s scrolling content, which moves on the browser's clock and can be
#: neither paused at a chosen moment nor restarted, is not drawn (its box is)
HOLD_STYLE = ("*, *::before, *::after { image-animation: stopped !important; }\n"
              "marquee { color: transparent !important; } marquee * { visibility: hidden !important; }")


async def screenshot(page: Any, path: str | None = None, *, timeout_ms: int = 10000, still: bool = True,
                     extra_style: str = "") -> bytes:
    """A viewport screenshot with animations stopped and the caret hidden: CSS and Web Animations by Playwright
    (finite ones finished, endless ones at their start), and what runs on the browser's own clock by HOLD_JS and
    HOLD_STYLE (see there). ``still=False``: everything left running, as the published judge's plain PNG
    screenshot. ``extra_style``: more CSS applied during this screenshot only."""
    if not still:
        return await page.screenshot(path=path, full_page=False, animations="allow", caret="hide",
                                     timeout=timeout_ms, scale="css")
    return (await screenshots(page, path, timeout_ms=timeout_ms, styles=(extra_style,)))[0]


async def screenshots(page: Any, path: str | None = None, *, timeout_ms: int = 10000,
                      styles: tuple[str, ...] = ("",)) -> list[bytes]:
    """Still screenshots of one moment (as ``screenshot``), one per extra style in ``styles``, taken under one hold:
    the picture a step is judged on (``""``, saved to ``path``) and the reader's text-free picture of the same moment
    (``browser.view.HIDE_TEXT_STYLE``) differ in nothing else."""
    responsive = True
    try:
        await asyncio.wait_for(page.evaluate(HOLD_JS), timeout=3)
    except asyncio.TimeoutError:  # a page busy in a script: shown as it is, and not asked again
        responsive = False
    except Exception:  # a page that navigated meanwhile: shown as it is
        pass
    try:
        out = []
        for k, extra in enumerate(styles):
            out.append(await page.screenshot(path=path if k == 0 else None, full_page=False, animations="disabled",
                                             caret="hide", timeout=timeout_ms, scale="css",
                                             style=HOLD_STYLE + ("\n" + extra if extra else "")))
        return out
    finally:
        if responsive:
            try:
                await asyncio.wait_for(page.evaluate(RELEASE_JS), timeout=3)
            except Exception:
                pass
