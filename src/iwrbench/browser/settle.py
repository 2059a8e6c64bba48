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

Everything here reads the page from the judge's isolated world (``world.py``): the mutation observer,
the real clock the quiet window is measured on and the media held for a screenshot are the world's, and
the virtual clock's counts come over the context's secret channel. A page that redefines
``MutationObserver``, ``performance.now`` or ``requestAnimationFrame``, or writes to what used to be the
``window.__iwrMut`` / ``__iwrClock`` / ``__iwrReal`` / ``__iwrHeld`` objects, settles as its honest twin.
"""

from __future__ import annotations

import asyncio
import time
from dataclasses import dataclass
from typing import Any

from .world import ReadError, WorldUnavailable, channel_of, read

# run in the judge's world (``W`` is its state for the document: world.py); its timers and clock are real, also
# when the page's own clock is virtual (paused between advances)
_QUIET_JS = r"""
async ({quiet, budget, after}) => {
  const t0 = performance.now();
  const since = after ? t0 : -Infinity;
  const st = W.mut;
  const frames = () => new Promise(r => requestAnimationFrame(() => requestAnimationFrame(r)));
  const sleep = (ms) => new Promise(r => setTimeout(r, ms));
  try { if (document.fonts && document.fonts.status !== 'loaded')
          await Promise.race([document.fonts.ready, sleep(budget)]); } catch (e) {}
  let prev = performance.now();
  while (true) {
    await Promise.race([frames(), sleep(100)]);
    W.scan(false);
    const now = performance.now();
    // a main thread held up (a loaded machine) runs this before the page's overdue timers: a quiet read after
    // such a gap is taken again, once they have run
    const held = now - prev > 250;
    prev = now;
    if (!held && document.readyState === 'complete' && now - Math.max(st.last, since) >= quiet)
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
                read(page, _QUIET_JS, {"quiet": quiet_ms, "budget": max(50, left_ms), "after": fresh},
                     timeout_s=left_ms / 1000 + 2.0),
                timeout=left_ms / 1000 + 2.5,
            )
        except (asyncio.TimeoutError, ReadError) as e:
            if isinstance(e, ReadError) and "did not answer" not in str(e):
                msg = str(e)
                if time.monotonic() >= deadline:
                    return SettleReport(False, (time.monotonic() - t0) * 1000, f"navigation or error: {msg}")
                await asyncio.sleep(0.05)
                continue
            return SettleReport(False, (time.monotonic() - t0) * 1000, "the page stopped responding (busy script)")
        except WorldUnavailable:
            raise
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


# the virtual clock's counts, asked on the context's secret channel (core.VIRTUAL_CLOCK_SCRIPT answers synchronously);
# ``hooks`` false when nothing answered (no virtual clock, or the page's document was replaced by document.open)
_CLOCK_STATE_JS = r"""
() => {
  W.scan(false);
  const m = W.mut;
  W.clockAnswer = null;
  if (W.channel) document.dispatchEvent(new CustomEvent(W.channel + ':q'));
  const a = W.clockAnswer;
  if (typeof a !== 'string') return {mutations: m.count, what: m.what, hooks: false};
  const v = a.split(',').map(Number);
  return {mutations: m.count, what: m.what, hooks: true, frames: v[0], fired: v[1], pending_frames: v[2],
          intervals: v[3], next_due: v[4] < 0 ? null : v[4], loads: v[5] || 0};
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
    endless animation at exactly ``cap_ms`` (and the report says so). What a window's timers asked for (a script
    or stylesheet inserted, a request sent: counted in the page, as the network's events come late) is waited for
    in real time between windows, the clock held; what never arrives stalls one window only (up to
    ``settle_timeout_ms`` for the page's count and as long for the network). None when the page has no virtual
    clock. Should the clock's hooks stop answering (a page that replaced its document with ``document.open``),
    the windows are judged by DOM changes alone."""
    if not channel_of(page)[1]:
        return None
    try:
        state = await read(page, _CLOCK_STATE_JS)
    except WorldUnavailable:
        raise
    except Exception:
        return None
    advanced = 0
    stalled = False
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
        try:
            now = await read(page, _CLOCK_STATE_JS)
            if not stalled and ((tracker is not None and tracker.inflight) or now.get("loads")):
                # what the window's timers asked for arrives in real time: waited for before the clock moves on;
                # what never arrives is not waited for again on this clock (the cost stays bounded)
                stalled = not await _wait_loads(page, settle_timeout_ms)
                rep = await settle(page, tracker, quiet_ms=quiet_ms, timeout_ms=settle_timeout_ms)
                stalled = stalled or (not rep.settled and bool(tracker and tracker.inflight))
                now = await read(page, _CLOCK_STATE_JS)
        except WorldUnavailable:
            raise
        except Exception:
            return ClockReport(advanced, "the page navigated while its timers ran")
        quiet = _quiet(state, now)
        due = now.get("next_due")
        if quiet and not (due is not None and advanced + due <= cap_ms):  # nothing changed, nothing due soon
            return ClockReport(advanced)
        state = now


#: how much of a page's scheduled work the judge's virtual clock runs after loading and after an action
#: (``judge.replay.Limits.clock_cap_load_ms`` / ``clock_cap_ms``), and the recorder waits for in real time
TIMERS_AFTER_LOAD_MS = 3000
TIMERS_AFTER_ACTION_MS = 1500


async def wait_timers(
    page: Any,
    tracker: RequestTracker | None = None,
    *,
    since: float,
    horizon_ms: int = TIMERS_AFTER_ACTION_MS,
    quiet_ms: int = 250,
    settle_timeout_ms: int = 4000,
) -> ClockReport | None:
    """The recorder's twin of ``run_clock``, on a clock that runs in real time (``new_context(watch_timers=True)``):
    after the DOM settled, wait while the page has work scheduled that the judge's clock would run, that is until
    a window of ``quiet_ms`` passes with no DOM change, no animation frame drawn and no timer run, with no timeout
    due and no animation frame pending before ``horizon_ms`` after ``since`` (``time.monotonic()`` when the action
    ended, or when the page was opened), or until that moment. A page with nothing scheduled costs one reading.
    ``advanced_ms`` is the real time waited here. None when the page has no counts (no hooks)."""
    try:
        state = await read(page, _CLOCK_STATE_JS)
    except WorldUnavailable:
        raise
    except Exception:
        return None
    if not state.get("hooks"):
        return None
    t0 = time.monotonic()

    def left_ms() -> float:
        return horizon_ms - (time.monotonic() - since) * 1000

    def scheduled(st: dict) -> bool:
        due = st.get("next_due")
        return bool(st.get("pending_frames")) or (due is not None and due <= left_ms())

    if not scheduled(state):
        return ClockReport(0)
    while True:
        left = left_ms()
        if left <= 0:
            return ClockReport(round((time.monotonic() - t0) * 1000), _animating(state))
        await asyncio.sleep(min(quiet_ms, left) / 1000)
        if tracker is not None and tracker.inflight:
            await settle(page, tracker, quiet_ms=quiet_ms, timeout_ms=settle_timeout_ms)
        try:
            now = await read(page, _CLOCK_STATE_JS)
        except WorldUnavailable:
            raise
        except Exception:
            return ClockReport(round((time.monotonic() - t0) * 1000), "the page navigated while its timers ran")
        if not now.get("hooks"):  # the document was replaced (document.open): judged by DOM changes alone
            now = {**now, "frames": state.get("frames"), "fired": state.get("fired")}
        if _quiet(state, now) and not scheduled(now):
            return ClockReport(round((time.monotonic() - t0) * 1000))
        state = now


async def _wait_loads(page: Any, timeout_ms: int, poll_ms: int = 50) -> bool:
    """Wait in real time (the virtual clock held) until the scripts, stylesheets and requests the page asked for
    after loading have arrived (``loads``, core._LOADS_JS); False when some had not after ``timeout_ms``."""
    deadline = time.monotonic() + timeout_ms / 1000
    while True:
        st = await read(page, _CLOCK_STATE_JS)
        if not st.get("loads"):
            return True
        if time.monotonic() >= deadline:
            return False
        await asyncio.sleep(poll_ms / 1000)


def _quiet(before: dict, now: dict) -> bool:
    """A window between two clock readings was quiet: nothing changed and nothing ran (a timer that polls for a
    download changes nothing yet is at work)."""
    return (now["mutations"] == before["mutations"] and now.get("frames") == before.get("frames")
            and now.get("fired") == before.get("fired"))


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
  const held = W.held = [];
  const later = (f, ms) => setTimeout(f, ms);  // the world's timers: real time, also when the page's clock is virtual
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
  const held = W.held || [];
  for (const h of held) {
    try {
      if (h.kind === 'svg') { h.el.setCurrentTime(h.at); if (!h.paused) h.el.unpauseAnimations(); }
      else { h.el.currentTime = h.at; const p = h.el.play(); if (p && p.catch) p.catch(() => {}); }  // it was playing
    } catch (e) {}
  }
  W.held = null;
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
        await asyncio.wait_for(read(page, HOLD_JS, timeout_s=3), timeout=3.5)
    except (asyncio.TimeoutError, ReadError) as e:
        if isinstance(e, asyncio.TimeoutError) or "did not answer" in str(e):
            responsive = False  # a page busy in a script: shown as it is, and not asked again
    except WorldUnavailable:
        raise
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
                await asyncio.wait_for(read(page, RELEASE_JS, timeout_s=3), timeout=3.5)
            except Exception:
                pass
