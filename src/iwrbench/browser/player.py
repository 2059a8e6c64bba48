"""The one action player: the recorder, the judge, the oracle replay and the markup verifier all act on a page here.

Every kind (Click, Type, Press, Scroll, Hover, Select) is played by ``play``; what differs between callers is
a ``Rules`` value, never another copy of the code. Three named sets:

- ``RECORDER`` (``iwr record``, and the markup verifier, which drives the source as the recorder does): the
  pointer glides visibly to its target, text is typed at a person's pace, a scroll is six wheel notches, and
  every failure is the recipe's: nothing falls back, so a covered button, a field that does not take the
  text or a scroll that moves nothing stops the recording with a message naming the step.
- ``JUDGE`` (``offline@2``, the oracle replay): the same events, at once, and every fair chance a page can be
  given without doing the page's work for it.
- ``PUBLISHED`` (``iwr-bench@1``): the published judge's own actions, quirks kept (docs/judge.md).

For each difference between the recorder and the judge, what is right for each:

- Click: a control the recipe names that cannot be clicked (covered, detached) is a recipe error, so the
  recorder fails; the judge dispatches the click event on the element it grounded (a page's transparent
  overlay or an animation that never settles is not a reason to say the control does not work).
- Hover: both move the pointer onto the element and then nudge it one pixel and back, so ``:hover`` is
  refreshed after a re-render the first move caused: the recording and its replay get the same pointer
  events. Only the judge forces the hover past Playwright's checks (a page's overlay may cover the target,
  a person's pointer still reaches it); a recipe whose target is covered would record the wrong hover.
- Scroll: both move the pointer to the window's centre and turn the wheel; the recorder splits it into six
  notches (a smooth scroll in the video; a pace, as typing is) except in the passes no one watches. Both
  check that something moved more than ``SCROLL_MIN_PX``: a recipe's scroll that moves nothing is an
  error to say at once, not at the oracle replay. Only the judge falls back to a script scroll of the
  largest scrollable box when the wheel moved nothing (a page whose scrolling box is not under the
  window's centre still scrolls as the video shows).
- Type: both click the field, clear it unless the recipe said ``clear: false``, type key by key and check
  the field shows the text (a recipe typing into a field that refuses it fails while recording). Only the
  judge focuses a field it cannot click.
- Press: both press the key where the focus is (the judge grounds no element for a key; the recorder's rules
  never focus the recipe's target, and the recorder warns when the target did not hold it). Select: the same for
  both (choose by label, else by value).

The published set's knobs (``Rules``: ``click_fallbacks``, ``scroll="published"``, ``typing="published"``,
``kinds``, the network-idle wait before grounding, ``executed``, ``unknown_key``, the load wait after a click,
scrolling into view first) express the published code's own waits and rules, each read in the published
evaluation code and the browser-use it runs (docs/judge.md maps them); ``PUBLISHED`` sets every one of them.
"""

from __future__ import annotations

import asyncio
import bisect
import time
from dataclasses import dataclass, field, replace
from typing import Any, Literal

from ..errors import RecordError
from ..records import Action
from .world import read

#: a scroll counts when the window or the box under the pointer moved more than this
SCROLL_MIN_PX = 5

# --------------------------------------------------------------------------- the rules


@dataclass(frozen=True)
class Pace:
    """How a person is shown doing it (the recorder's video): pointer glides, typing delay, wheel notches."""

    #: the pointer glides to its target over this long in ``move_steps`` moves (0: it is where Playwright puts it)
    move_s: float = 0.0
    move_steps: int = 10
    #: delay between typed keys
    type_delay_ms: float = 0.0
    #: a scroll is this many wheel notches, ``notch_s`` apart
    scroll_notches: int = 1
    notch_s: float = 0.02


@dataclass(frozen=True)
class Rules:
    """Pace, fallbacks and checks of one player. Fields left at their defaults act as the judge does."""

    name: str
    #: who plays, in messages ("the published judge has no Hover action")
    who: str = "the judge"
    pace: Pace = field(default_factory=Pace)
    #: the action kinds this player knows (the published judge has no Hover or Select)
    kinds: frozenset[str] = frozenset({"Click", "Type", "Press", "Scroll", "Hover", "Select"})
    #: Playwright's timeouts are capped by the caller's ``timeout_ms`` and these (None: Playwright's default)
    click_timeout_ms: int | None = 3000
    #: what a click Playwright cannot perform tries next, in order: "event" (a dispatched click event),
    #: "script" (the element's own click()), "centre" (a mouse click at its centre)
    click_fallbacks: tuple[str, ...] = ("event",)
    #: Hover: past Playwright's actionability checks (covered, not stable)
    hover_force: bool = True
    #: Hover: then one pixel aside and back, which refreshes :hover after a re-render
    hover_nudge: bool = True
    #: Scroll: "wheel" (the wheel at the window's centre, in its direction) or "published" (a script scrolls the
    #: focused scrolling box or the window half a window down, whatever the direction; only the window counts)
    scroll: Literal["wheel", "published"] = "wheel"
    #: Scroll ("wheel"): the wheel moved nothing: scroll the largest scrollable box by script
    scroll_fallback: bool = True
    #: Scroll: it must have moved more than SCROLL_MIN_PX (False: unchecked)
    scroll_check: bool = True
    #: Type: "keys" (click, clear unless the action says not to, type key by key: browser.act.type_into) or
    #: "published" (empty the field by script, click, type on the keyboard, falling back to typing or filling)
    typing: Literal["keys", "published"] = "keys"
    #: Type: the field must then show the typed text
    type_check: bool = True
    #: Type: a field that cannot be clicked is focused instead
    type_focus_fallback: bool = True
    #: Press: the element (if any) is focused first: "try" (a failure is ignored), "must" (a failure fails the
    #: step) or "no"
    press_focus: Literal["no", "try", "must"] = "try"
    #: a key name Playwright does not know ("Unknown key"): "fails" the step, or "each_character": the name is
    #: pressed one character at a time (browser-use's send_keys: "Return" types R, e, t, u, r, n) and the Press
    #: counts as executed whatever the keyboard said (the published Press is executed once it has a key)
    unknown_key: Literal["fails", "each_character"] = "fails"
    #: Click/Type: "acted" (executed when the action was performed) or "unless_missing" (executed unless the
    #: failure's text says "does not exist" or "no container found", the published test of an action's result)
    executed: Literal["acted", "unless_missing"] = "acted"
    #: before a Click or Type is grounded, wait until the network has been quiet for this long (None: no wait)
    idle_before_ground_ms: int | None = None
    #: what counts as the network being busy: "any" (a request of the page's in flight, ``settle.RequestTracker``)
    #: or "published" (browser-use's rule, ``_published_idle``: only requests that start during the wait, of the
    #: kinds a page loads, until their response; quiet counts from the last such start or response)
    idle_rule: Literal["any", "published"] = "any"
    #: the longest that wait lasts
    idle_max_ms: int = 10000
    #: Click: then wait for the page's load state (browser-use waits after every click it performs)
    load_after_click: bool = False
    #: Click/Type: a visible element is first scrolled into view (browser-use does so when it locates one)
    scroll_into_view_first: bool = False


#: the recorder: visible pace, no fallback, every check; a failure is the recipe's
RECORDER = Rules(name="recorder", who="the recorder", pace=Pace(move_s=0.35, move_steps=10, type_delay_ms=35, scroll_notches=6,
                                            notch_s=0.05),
                 click_timeout_ms=None, click_fallbacks=(), hover_force=False, scroll_fallback=False,
                 type_focus_fallback=False, press_focus="no")
#: the recorder's passes that nobody watches (pass 2, probes): the same rules at once
RECORDER_QUICK = replace(RECORDER, name="recorder-quick", pace=Pace())
#: the judge (offline@2) and the oracle replay: the same events as the recorder, every fair fallback
JUDGE = Rules(name="judge")
#: iwr-bench@1: the published judge's own actions (docs/judge.md, "The published protocol")
PUBLISHED = Rules(name="published", who="the published judge", kinds=frozenset({"Click", "Type", "Press", "Scroll"}),
                  click_timeout_ms=1500, click_fallbacks=("script", "centre"), scroll="published", typing="published",
                  type_check=False, press_focus="no", unknown_key="each_character", executed="unless_missing",
                  idle_before_ground_ms=500, idle_rule="published", idle_max_ms=5000, load_after_click=True,
                  scroll_into_view_first=True)

RULES = {r.name: r for r in (RECORDER, JUDGE, PUBLISHED)}


def for_protocol(actions: str) -> Rules:
    """The judge's rules for a protocol's ``actions`` ("project": ``JUDGE``; "published": ``PUBLISHED``)."""
    return PUBLISHED if actions == "published" else JUDGE


# --------------------------------------------------------------------------- what was done (the recorder's cues)


@dataclass
class Trace:
    """What the player did, in wall-clock seconds (the screencast's clock): the recorder draws its cues from it."""

    moves: list[tuple[float, float, float]] = field(default_factory=list)  # (t, x, y)
    clicks: list[tuple[float, float, float]] = field(default_factory=list)
    keys: list[tuple[float, str]] = field(default_factory=list)
    #: (t, step) for every action: when a Click, Type, Select or Press cue starts; when a Hover or Scroll
    #: (no cue) has put its effect on screen
    marks: list[tuple[float, int]] = field(default_factory=list)

    def pointer(self, t: float) -> tuple[float, float] | None:
        if not self.moves:
            return None
        i = bisect.bisect_right([m[0] for m in self.moves], t) - 1
        if i < 0:
            return self.moves[0][1], self.moves[0][2]
        return self.moves[i][1], self.moves[i][2]


@dataclass
class Outcome:
    executed: bool
    error: str | None = None
    note: str | None = None

    def reason(self, kind: str) -> str:
        """Why it failed, without the "<kind> failed: " the message may start with."""
        prefix = f"{kind.lower()} failed: "
        err = self.error or "not executed"
        return err[len(prefix):] if err.startswith(prefix) else err


def _short(e: BaseException) -> str:
    s = str(e).strip().splitlines()
    return (s[0] if s else e.__class__.__name__)[:200]


def _t(timeout_ms: int | None, cap: int | None) -> dict[str, int]:
    """Playwright's ``timeout``: the caller's, at most ``cap``; Playwright's default when the caller gives none."""
    return {} if timeout_ms is None else {"timeout": min(timeout_ms, cap) if cap is not None else timeout_ms}


def _limit(timeout_ms: int | None, cap: int | None) -> dict[str, int]:
    """A rule's own limit (``Rules.click_timeout_ms``) holds even when the caller gives none."""
    vals = [v for v in (timeout_ms, cap) if v is not None]
    return {"timeout": min(vals)} if vals else {}


# --------------------------------------------------------------------------- finding a recipe's target


async def locate(page: Any, step: int, selector: str) -> Any:
    """The first visible element a recipe's Playwright selector matches (a RecordError naming the step if none)."""
    loc = page.locator(selector)
    try:
        await loc.first.wait_for(state="attached", timeout=5000)
    except Exception:
        raise RecordError(f"step {step}: selector {selector!r} matches nothing on the page") from None
    n = await loc.count()
    for k in range(min(n, 20)):
        el = loc.nth(k)
        try:
            if await el.is_visible():
                return el
        except Exception:
            continue
    try:
        await loc.first.wait_for(state="visible", timeout=3000)
        return loc.first
    except Exception:
        raise RecordError(f"step {step}: selector {selector!r} matches {n} element(s), none visible") from None


# --------------------------------------------------------------------------- the player


async def glide(page: Any, trace: Trace | None, to: tuple[float, float], pace: Pace) -> None:
    """Move the pointer to ``to``: in ``pace.move_steps`` eased moves when the pace says so, else at once."""
    if pace.move_s <= 0:
        await page.mouse.move(*to)
        if trace is not None:
            trace.moves.append((time.time(), *to))
        return
    start = trace.moves[-1][1:] if trace is not None and trace.moves else to
    for k in range(1, pace.move_steps + 1):
        f = k / pace.move_steps
        f = f * f * (3 - 2 * f)  # ease in-out
        x = start[0] + (to[0] - start[0]) * f
        y = start[1] + (to[1] - start[1]) * f
        await page.mouse.move(x, y)
        if trace is not None:
            trace.moves.append((time.time(), x, y))
        await asyncio.sleep(pace.move_s / pace.move_steps)


async def wait_idle(page: Any, tracker: Any, rules: Rules, action: Action) -> dict[str, Any] | None:
    """What the rules make the player wait for before a Click or Type is grounded (``idle_before_ground_ms``), at
    most ``idle_max_ms``: under the rule "any", no request in flight for that long (``tracker``: a
    ``browser.settle.RequestTracker``); under "published", ``_published_idle``. Returns how long it waited and
    whether it ran out (None: no wait)."""
    quiet = rules.idle_before_ground_ms
    if quiet is None or action.type not in ("Click", "Type"):
        return None
    if rules.idle_rule == "published":
        return await _published_idle(page, quiet / 1000, rules.idle_max_ms / 1000)
    if tracker is None:
        return None
    t0 = since = time.monotonic()
    deadline = t0 + rules.idle_max_ms / 1000
    while time.monotonic() < deadline:
        if tracker.inflight:
            since = time.monotonic()
        elif (time.monotonic() - since) * 1000 >= quiet:
            return {"waited_ms": round((time.monotonic() - t0) * 1000), "ran_out": False}
        await asyncio.sleep(0.05)
    return {"waited_ms": round((time.monotonic() - t0) * 1000), "ran_out": True}


#: the published wait counts requests of these Playwright resource types only (fetch and XHR are not among them;
#: "iframe" is not a type Playwright reports, and is kept as the published list names it)
_IDLE_KINDS = frozenset({"document", "stylesheet", "image", "font", "script", "iframe"})
#: ... and not those whose URL holds one of these (trackers, ads, widgets, beacons, streams, two CDNs)
_IDLE_SKIP_URL = ("analytics", "tracking", "telemetry", "beacon", "metrics", "doubleclick", "adsystem", "adserver",
                  "advertising", "facebook.com/plugins", "platform.twitter", "linkedin.com/embed", "livechat",
                  "zendesk", "intercom", "crisp.chat", "hotjar", "push-notifications", "onesignal", "pushwoosh",
                  "heartbeat", "ping", "alive", "webrtc", "rtmp://", "wss://", "cloudfront.net", "fastly.net")
#: a response of one of these content types ends its request and counts as activity; a streamed one ends it silently
_IDLE_CONTENT = ("text/html", "text/css", "application/javascript", "image/", "font/", "application/json")
_IDLE_STREAMED = ("streaming", "video", "audio", "webm", "mp4", "event-stream", "websocket", "protobuf")


async def _published_idle(page: Any, quiet_s: float, max_s: float) -> dict[str, Any]:
    """The network-idle wait the published judge makes before it reads the page for its grounder (browser-use's).

    Only requests that start during the wait are watched: of the kinds in ``_IDLE_KINDS``, not ``data:``/``blob:``,
    not prefetches or media, no URL of ``_IDLE_SKIP_URL``. A request ends with its response (one that failed or was
    refused never does). The wait is over, checked every 0.1 s, when none is pending and ``quiet_s`` have passed
    since the wait began or since the last start or response that counted; at most ``max_s``."""
    loop = asyncio.get_running_loop()
    pending: set[Any] = set()
    last = start = loop.time()

    def on_request(req: Any) -> None:
        nonlocal last
        url = (req.url or "").lower()
        if req.resource_type not in _IDLE_KINDS or url.startswith(("data:", "blob:")):
            return
        if any(w in url for w in _IDLE_SKIP_URL):
            return
        try:
            h = req.headers
        except Exception:
            h = {}
        if h.get("purpose") == "prefetch" or h.get("sec-fetch-dest") in ("video", "audio"):
            return
        pending.add(req)
        last = loop.time()

    def on_response(resp: Any) -> None:
        nonlocal last
        req = resp.request
        if req not in pending:
            return
        pending.discard(req)
        h = resp.headers
        kind = (h.get("content-type") or "").lower()
        size = h.get("content-length")
        if any(t in kind for t in _IDLE_STREAMED) or not any(t in kind for t in _IDLE_CONTENT):
            return
        if size and size.isdigit() and int(size) > 5 * 1024 * 1024:
            return
        last = loop.time()

    page.on("request", on_request)
    page.on("response", on_response)
    try:
        while True:
            await asyncio.sleep(0.1)
            now = loop.time()
            if not pending and now - last >= quiet_s:
                return {"waited_ms": round((now - start) * 1000), "ran_out": False}
            if now - start > max_s:
                return {"waited_ms": round((now - start) * 1000), "ran_out": True, "pending": len(pending)}
    finally:
        page.remove_listener("request", on_request)
        page.remove_listener("response", on_response)


async def play(page: Any, action: Action, handle: Any | None, viewport: tuple[int, int], rules: Rules, *,
               timeout_ms: int | None = None, trace: Trace | None = None, step: int = 0) -> Outcome:
    """Play ``action`` on ``handle`` (a Locator or an ElementHandle; None for Press and Scroll) as ``rules`` say.

    Never raises for what the page does: returns an Outcome (executed or not, why, a note of any fallback
    used); a caller for whom a failure is an error (the recorder) raises it. ``trace`` collects the pointer moves, clicks, keys and the
    moment each action shows (the recorder's video cues)."""
    try:
        out = await _play(page, action, handle, viewport, rules, timeout_ms, trace, step)
    except Exception as e:
        out = Outcome(False, f"{action.type.lower()} failed: {_short(e)}")
    if (not out.executed and rules.executed == "unless_missing" and handle is not None
            and action.type in ("Click", "Type") and not _missing(out.error or "")):
        out = Outcome(True, note=f"counted as executed, the element exists ({out.error})")
    return out


#: the published test of a Click's or Type's result: the action failed only when its message holds one of these
#: (browser-use words the first when the grounder's index names no element of its list)
MISSING_PHRASES = ("does not exist", "no container found")


def _missing(error: str) -> bool:
    """The failure's text is one the published judge reads as "not executed" (``MISSING_PHRASES``, as written,
    case included); it counts every other failure of a grounded element as executed."""
    return any(p in error for p in MISSING_PHRASES)


async def _play(page: Any, action: Action, handle: Any | None, viewport: tuple[int, int], rules: Rules,
                timeout_ms: int | None, trace: Trace | None, step: int) -> Outcome:
    kind = action.type
    p = action.parameters
    if kind not in rules.kinds:
        return Outcome(False, f"{rules.who} has no {kind} action")
    if kind == "Scroll":
        if rules.scroll == "published":
            return await _scroll_published(page)
        return await _scroll(page, action, viewport, rules, trace, step)
    if kind == "Press":
        return await _press(page, p.key or "Enter", handle, rules, trace, step)
    if handle is None:
        return Outcome(False, "no element matches the description")
    center = None
    if rules.pace.move_s > 0 or trace is not None:  # the pointer goes there as a person's would, cues noted
        box = await handle.bounding_box()
        if box is None:
            return Outcome(False, "the element has no box on screen")
        center = (box["x"] + box["width"] / 2, box["y"] + box["height"] / 2)
        await glide(page, trace, center, rules.pace)
    if rules.scroll_into_view_first and kind in ("Click", "Type"):
        await _into_view(handle)
    now = time.time()
    if trace is not None and kind != "Hover":
        trace.marks.append((now, step))
        if center is not None:
            trace.clicks.append((now, *center))
    if kind == "Click":
        return await _click(page, handle, rules, timeout_ms)
    if kind == "Hover":
        out = await _hover(page, handle, rules, timeout_ms)
        if trace is not None:
            trace.marks.append((time.time(), step))  # no cue: what the hover shows is on screen from here on
        return out
    if kind == "Type":
        if rules.typing == "published":
            return await _type_published(page, handle, p.text or "")
        return await _type(page, handle, p.text or "", p.clear is not False, rules, timeout_ms)
    if kind == "Select":
        await choose_option(handle, p.value or p.text or "", timeout_ms=timeout_ms)
        return Outcome(True)
    return Outcome(False, f"unknown action type {kind}")


async def _press(page: Any, key: str, handle: Any | None, rules: Rules, trace: Trace | None, step: int) -> Outcome:
    if handle is not None and rules.press_focus != "no":
        try:
            await handle.focus()
        except Exception:
            if rules.press_focus == "must":
                raise
    if trace is not None:
        trace.keys.append((time.time(), key))
        trace.marks.append((trace.keys[-1][0], step))
    try:
        await page.keyboard.press(key)
    except Exception as e:
        if rules.unknown_key != "each_character":
            raise
        if "Unknown key" not in str(e):  # the published Press is executed whatever the keyboard said
            return Outcome(True, note=f"counted as executed: the published Press does not check ({_short(e)[:80]})")
        try:
            for ch in key:
                await page.keyboard.press(ch)
        except Exception as e2:
            return Outcome(True, note=f"key {key!r} pressed one character at a time, stopped by {_short(e2)[:80]}; "
                                      "counted as executed as published")
        return Outcome(True, note=f"key {key!r} is not a key Playwright knows: pressed one character at a time")
    return Outcome(True)


async def _into_view(handle: Any, timeout_ms: int | None = None) -> None:
    """Scroll a visible element into view, as browser-use does when it locates one (hidden: left where it is)."""
    try:
        box = await handle.bounding_box()
        if box and box["width"] > 0 and box["height"] > 0 and not await handle.is_hidden():
            await handle.scroll_into_view_if_needed(**({"timeout": timeout_ms} if timeout_ms else {}))
    except Exception:
        pass


async def _loaded(page: Any, rules: Rules) -> None:
    if rules.load_after_click:
        try:
            await page.wait_for_load_state()
        except Exception:
            pass


async def _click(page: Any, handle: Any, rules: Rules, timeout_ms: int | None) -> Outcome:
    try:
        await handle.click(**_limit(timeout_ms, rules.click_timeout_ms))
        await _loaded(page, rules)
        return Outcome(True)
    except Exception as e:  # covered by another element, detached, not stable
        if not rules.click_fallbacks:
            raise
        first = last = _short(e)
    for how in rules.click_fallbacks:
        try:
            if how == "event":
                await handle.dispatch_event("click")
                return Outcome(True, note=f"clicked by event ({first[:80]})")
            if how == "script":
                await handle.evaluate("(e) => e.click()")
                await _loaded(page, rules)
                return Outcome(True, note=f"clicked by script ({first[:80]})")
            if how == "centre":
                box = await handle.bounding_box()
                if box:
                    await page.mouse.click(box["x"] + box["width"] / 2, box["y"] + box["height"] / 2)
                    await _loaded(page, rules)
                    return Outcome(True, note=f"clicked at the element's centre ({last[:80]})")
        except Exception as e2:
            last = _short(e2)
    return Outcome(False, f"click failed: {last}")


async def _hover(page: Any, handle: Any, rules: Rules, timeout_ms: int | None) -> Outcome:
    await handle.hover(**_limit(timeout_ms, rules.click_timeout_ms), **({"force": True} if rules.hover_force else {}))
    if rules.hover_nudge:
        box = await handle.bounding_box()
        if box:  # a second move at the same spot refreshes :hover after any re-render
            cx, cy = box["x"] + box["width"] / 2, box["y"] + box["height"] / 2
            await page.mouse.move(cx + 1, cy)
            await page.mouse.move(cx, cy)
    return Outcome(True)


async def _type(page: Any, handle: Any, text: str, clear: bool, rules: Rules, timeout_ms: int | None) -> Outcome:
    await type_into(handle, text, clear=clear, delay_ms=rules.pace.type_delay_ms, timeout_ms=timeout_ms,
                    focus_if_click_fails=rules.type_focus_fallback)
    if rules.type_check:
        got = await read(page, "(e) => e.isContentEditable ? e.innerText : e.value", handle)  # world.py
        if text.strip() and text.strip() not in (got or ""):
            return Outcome(False, f"the field shows {got!r}, not the typed text")
    return Outcome(True)


# --------------------------------------------------------------------------- scrolling

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


async def _moved(page: Any, before: list[float]) -> float:
    try:
        after = await read(page, _SCROLL_POS_JS)
    except Exception:
        return 0.0
    if len(after) != len(before):
        return abs(after[0] - before[0])
    return max((abs(a - b) for a, b in zip(after, before)), default=0.0)


async def _scroll(page: Any, action: Action, viewport: tuple[int, int], rules: Rules, trace: Trace | None,
                  step: int) -> Outcome:
    w, h = viewport
    up = action.parameters.direction == "up"
    dy = (-1 if up else 1) * (action.parameters.scroll_page or 0.5) * h
    before = await read(page, _SCROLL_POS_JS) if rules.scroll_check else []
    await glide(page, trace, (w / 2, h / 2), rules.pace)
    notches = max(1, rules.pace.scroll_notches)
    for _ in range(notches):
        await page.mouse.wheel(0, dy / notches)
        if notches > 1 or rules.pace.move_s > 0:
            await asyncio.sleep(rules.pace.notch_s)
    if trace is not None:
        trace.marks.append((time.time(), step))  # no cue: the page has moved from here on
    if not rules.scroll_check:
        return Outcome(True)
    moved = 0.0
    for _ in range(10):  # wheel scrolling is asynchronous
        await asyncio.sleep(0.03)
        moved = await _moved(page, before)
        if moved > SCROLL_MIN_PX:
            break
    if moved <= SCROLL_MIN_PX and rules.scroll_fallback:
        how = await read(page, _SCROLL_FALLBACK_JS, dy)
        await asyncio.sleep(0.05)
        moved = await _moved(page, before)
        if moved <= SCROLL_MIN_PX:
            return Outcome(False, f"the page did not scroll {'up' if up else 'down'} (moved {moved:.0f}px, {how})")
    if moved <= SCROLL_MIN_PX:
        return Outcome(False, f"the page did not scroll {'up' if up else 'down'} (moved {moved:.0f}px under the "
                              "window's centre)")
    return Outcome(True, note=f"scrolled {moved:.0f}px")


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


async def _scroll_published(page: Any) -> Outcome:
    before = await read(page, _PUBLISHED_SCROLL_JS)
    await asyncio.sleep(1.0)  # the published Scroll waits a second before it reads the offset
    moved = abs(float(await read(page, "() => scrollY")) - float(before))
    if moved > SCROLL_MIN_PX:
        return Outcome(True, note=f"the window scrolled {moved:.0f}px")
    return Outcome(False, f"the window did not scroll (moved {moved:.0f}px; the published judge reads the "
                          "window's offset only)")


# --------------------------------------------------------------------------- typing and choosing

#: what the published Type does before typing: the field's text and value emptied
_CLEAR_JS = "(e) => { e.textContent = ''; e.value = ''; }"
#: whether the published Type's second way types key by key (an editable element or an input neither read-only
#: nor disabled) or fills the field
_TYPES_KEYS_JS = "(e) => (e.isContentEditable || e.tagName.toLowerCase() === 'input') && !(e.readOnly || e.disabled)"


async def _type_published(page: Any, handle: Any, text: str) -> Outcome:
    """browser-use's typing as the published judge runs it: the element made stable and scrolled into view (each
    at most 1 s, failures ignored); emptied by script, clicked, 0.1 s, typed on the keyboard; if any of that failed,
    emptied and typed key by key (5 ms apart) or filled. Whatever the field then shows is not checked."""
    try:
        await handle.wait_for_element_state("stable", timeout=1000)
        await _into_view(handle, 1000)
    except Exception:
        pass
    try:
        await handle.evaluate(_CLEAR_JS)
        await handle.click()
        await asyncio.sleep(0.1)
        await page.keyboard.type(text)
        return Outcome(True)
    except Exception:
        pass
    if await handle.evaluate(_TYPES_KEYS_JS):
        await handle.evaluate(_CLEAR_JS)
        await handle.type(text, delay=5)
    else:
        await handle.fill(text)
    return Outcome(True)


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
    t = _t(timeout_ms, 3000)
    try:
        await handle.select_option(label=want, **t)
    except Exception:
        await handle.select_option(value=want, **t)
