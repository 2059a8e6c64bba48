"""The one place that launches Chromium and makes deterministic, contained contexts.

Determinism: viewport from the task, device scale factor 1, fixed locale and time zone,
reduced motion, light colour scheme, seeded ``Math.random``, optionally a frozen clock.

Containment: every context gets its own allow-only forward proxy (``proxy.py``), the one
door to the network for everything the context does (pages, workers, prefetches, WebSockets,
WebRTC over TCP); requests the request router sees are also aborted early. Both count what
they refuse per host. Chromium's resolver maps every name but the proxy's to nowhere, WebRTC
may not send UDP outside a proxy, speculative prerendering is off, and the whole browser runs
under a memory cap (a cgroup where one can be made, else a per-process data limit) with
Chromium's own sandbox on (``sandbox.py``: as root, as an unprivileged user in a filesystem of
its own). What the judge reads of a page is read in an isolated world (``world.py``); the hooks
that must live in the page's world are closed over and speak on a per-context secret channel.

Two browsers: the project's (``LAUNCH_ARGS``: hidden scrollbars, no font hinting, no smooth scrolling, so
screenshots repeat) and iwr-bench@1's (``launch_browser(page_setup="published")``: as the published judge's
browser draws the page: scrollbars, Chromium's hinting and smooth scrolling, ``navigator.webdriver`` false, and
screenshots that do not wait for web fonts). Both keep every wall. A replay checks it was given the browser its
protocol names (``browser_setup``).
"""

from __future__ import annotations

import asyncio
import atexit
import json
import os
import shlex
import shutil
import tempfile
import threading
import time
import weakref
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit

from ..errors import ComponentMissing
from .proxy import OriginProxy
from .sandbox import Sandbox, browser_env, jail_script
from .sandbox import plan as plan_sandbox
from .world import new_channel, read, register_engine

#: The name Chromium is given for a context's proxy; the resolver maps it, and nothing else, to loopback.
PROXY_HOST = "iwr-proxy"

# Never "--no-sandbox" here: Chromium's own sandbox is on unless asked otherwise (sandbox.py)
LAUNCH_ARGS = [
    "--disable-gpu",
    "--disable-quic",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--disable-default-apps",
    "--disable-extensions",
    "--mute-audio",
    "--hide-scrollbars",
    "--font-render-hinting=none",
    # screenshots of the same state are the same picture: every frame is drawn only once all its tiles are
    # rastered, and images are decoded before the frame that shows them (without these, a busy machine's
    # screenshot of a gradient or a blurred shadow differed from the last in thousands of pixels)
    "--run-all-compositor-stages-before-draw",
    "--disable-checker-imaging",
    # what moves on the browser's own clock, out of reach of a page's virtual clock: a smooth scroll (CSS
    # scroll-behavior, or behavior: 'smooth' from script) jumps to where it ends; animated GIF/APNG/WebP images
    # can be stopped on their first frame (the CSS image-animation property, used for screenshots: settle.py)
    "--disable-smooth-scrolling",
    "--enable-blink-features=CSSImageAnimation",
    # a page that grows its heap without bound crashes its renderer (a page_error), not the machine;
    # memory outside V8's heap (array buffers, canvases) is capped by the browser's memory cage
    "--js-flags=--max-old-space-size=512",
    # Prerender2 and its prefetch fallback: a prerendered page would run before any navigation.
    # (Speculation-rules prefetch has no switch in Chromium 156 that works; the proxy refuses it.)
    "--disable-features=Translate,MediaRouter,OptimizationHints,AutofillServerCommunication,"
    "Prerender2,Prerender2FallbackPrefetchSpecRules",
    # WebRTC: no UDP that does not go through the proxy (which has no UDP): no STUN/TURN-UDP anywhere.
    # (Chromium 156 honours this spelling; --force-webrtc-ip-handling-policy is ignored.)
    "--webrtc-ip-handling-policy=disable_non_proxied_udp",
    # nothing resolves but the proxy's name, not even loopback literals: a second wall behind the proxy
    f"--host-resolver-rules=MAP {PROXY_HOST} 127.0.0.1, MAP * ~NOTFOUND",
]

#: iwr-bench@1's browser: the switches above that only make screenshots repeatable or the page's clock
#: controllable are left out where the published browser (browser-use's) differs: scrollbars are drawn (they
#: take layout width), font hinting and smooth scrolling are Chromium's defaults, and ``navigator.webdriver`` is
#: false. The walls (proxy, resolver, WebRTC, prerendering, heap cap) and the rastering switches stay (listed in
#: ``protocols.PUBLISHED.differences``).
_NOT_PUBLISHED = {"--hide-scrollbars", "--font-render-hinting=none", "--disable-smooth-scrolling",
                  "--enable-blink-features=CSSImageAnimation"}
PUBLISHED_LAUNCH_ARGS = [a for a in LAUNCH_ARGS if a not in _NOT_PUBLISHED] + [
    "--disable-blink-features=AutomationControlled"]
#: Playwright's own switches the published browser also leaves out (browser-use's ``ignore_default_args``):
#: headless Playwright hides scrollbars, and ``--enable-automation`` sets ``navigator.webdriver``
PUBLISHED_IGNORED_DEFAULT_ARGS = ["--hide-scrollbars", "--enable-automation"]
#: set in a Playwright driver's environment, it takes screenshots without waiting for the page's web fonts, as
#: browser-use makes it do (its session module sets it before Playwright starts)
NO_FONTS_WAIT_ENV = "PW_TEST_SCREENSHOT_NO_FONTS_READY"

LOCALE = "en-US"
TIMEZONE = "UTC"

MEMORY_ENV = "IWR_BROWSER_MEMORY_MB"
DEFAULT_MEMORY_MB = 3072
_CGROUP_MEMORY_ROOT = Path("/sys/fs/cgroup/memory")
_CAGE_PREFIX = "iwr-browser-"

# What has to run in the page's own world, before any page script: the seeded Math.random, and the judge's hooks
# (world.py). The hooks keep their state closed over and speak only on a channel whose name is a secret of the
# context: DOM events of types the page cannot guess, dispatched with functions captured here (the page may replace
# EventTarget.prototype.dispatchEvent or CustomEvent later; these are the originals). Every shadow root attached is
# announced (the judge's world then observes the open ones itself) and closed ones, which only this world can reach,
# are observed here and their changes announced. The judge's mutation observer, the settle rule's real clock and
# everything it reads live in its isolated world, out of the page's reach.
INIT_SCRIPT = r"""
(() => {
  const seed = %(seed)d >>> 0;
  let s = seed || 1;
  let draws = 0;  // how many numbers the page drew (the recorder replays a probe with another seed only if any)
  const rnd = function () {
    draws++;
    s |= 0; s = (s + 0x6D2B79F5) | 0;
    let t = Math.imul(s ^ (s >>> 15), 1 | s);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
  if (%(seeded)s) {
    try { Object.defineProperty(Math, 'random', {value: rnd, configurable: false, writable: false}); } catch (e) {}
  }
  const CH = %(channel)s;
  const apply = Reflect.apply, doc = document, dispatch = EventTarget.prototype.dispatchEvent, CE = CustomEvent;
  const tell = (kind, detail) => {
    try { apply(dispatch, doc, [new CE(CH + kind, {__proto__: null, detail: '' + detail})]); } catch (e) {}
  };
  // the count of numbers drawn, asked by the judge's world (world.draws): closed over, never a property of window
  try { apply(EventTarget.prototype.addEventListener, doc, [CH + ':dq', () => tell(':d', draws), true]); } catch (e) {}
  let obs = null, observe = null;
  const opts = {__proto__: null, subtree: true, childList: true, attributes: true, characterData: true};
  try { observe = MutationObserver.prototype.observe; obs = new MutationObserver((recs) => tell(':m', recs.length)); } catch (e) {}
  const attach = Element.prototype.attachShadow;
  if (attach) {
    try {
      Object.defineProperty(Element.prototype, 'attachShadow', {__proto__: null, configurable: true, writable: true, value:
        function attachShadow(init) {
          const root = apply(attach, this, [init]);
          try { if (obs) apply(observe, obs, [root, opts]); } catch (e) {}
          tell(':s', '');
          return root;
        }});
    } catch (e) {}
  }
})();
"""

# The counts both clock scripts keep and answer (``now`` and ``CH`` defined before it): timeouts the page set with
# when they are due, intervals, timer callbacks run (a poller that checks for a download without touching the DOM
# is still at work), and the animation frames each script counts in its own way (``frames`` drawn, ``nWaiting``
# pending), and ``loads`` (counted by _LOADS_JS where it is included, else 0). Answered only on the context's
# secret channel: frames, fired, pending frames, intervals, next due, loads.
_TIMER_COUNTS_JS = r"""
  const apply = Reflect.apply, doc = document, dispatch = EventTarget.prototype.dispatchEvent;
  const listen = EventTarget.prototype.addEventListener, CE = CustomEvent, max = Math.max;
  const setT = window.setTimeout, clearT = window.clearTimeout;
  const setI = window.setInterval, clearI = window.clearInterval;
  let frames = 0, fired = 0, nWaiting = 0, nIntervals = 0, loads = 0;
  const waiting = {__proto__: null}, intervals = {__proto__: null}, timeouts = {__proto__: null};
  const nextDue = () => { let m = null; for (const k in timeouts) { const d = timeouts[k]; if (m === null || d < m) m = d; }
                          return m === null ? -1 : max(0, m - now()); };
  try {
    apply(listen, doc, [CH + ':q', () => {
      const a = frames + ',' + fired + ',' + nWaiting + ',' + nIntervals + ',' + nextDue() + ',' + loads;
      try { apply(dispatch, doc, [new CE(CH + ':a', {__proto__: null, detail: a})]); } catch (e) {}
    }, true]);
  } catch (e) {}
  // timeouts the page set, with when they are due: work the page has scheduled is waited for
  window.setTimeout = function setTimeout(f, ms, ...rest) {
    if (typeof f !== 'function') return apply(setT, window, [f, ms, ...rest]);
    const due = now() + max(0, +ms || 0);
    let id;
    id = apply(setT, window, [function () { delete timeouts[id]; fired++; return apply(f, this, arguments); }, ms, ...rest]);
    timeouts[id] = due;
    return id;
  };
  window.setInterval = function setInterval(f, ...rest) {
    const run = typeof f === 'function' ? function () { fired++; return apply(f, this, arguments); } : f;
    const id = apply(setI, window, [run, ...rest]);
    if (!(id in intervals)) { intervals[id] = true; nIntervals++; }
    return id;
  };
  window.clearInterval = function clearInterval(id) {
    if (id in intervals) { delete intervals[id]; nIntervals--; }
    return apply(clearI, window, [id]);
  };
  // clearTimeout may clear an interval too
  window.clearTimeout = function clearTimeout(id) {
    if (id in intervals) { delete intervals[id]; nIntervals--; }
    delete timeouts[id];
    return apply(clearT, window, [id]);
  };
"""

# What a page asked for after its document loaded and has not received yet: a script or stylesheet it inserted,
# a request it sent (XMLHttpRequest, fetch). On a virtual clock the page's timers run in a moment of real time
# while these arrive in real time: a module loader (RequireJS) that inserts a script from a timer, waits for it,
# then inserts the next, would otherwise see its 3 s of virtual time spent before its modules came, and a
# correct page be judged half-drawn (settle.run_clock waits while ``loads`` is not 0). Elements the parser
# inserted are the load event's business and are not counted.
_LOADS_JS = r"""
  const fin1 = () => { let done = false; return () => { if (!done) { done = true; loads = max(0, loads - 1); } }; };
  const seen = new WeakSet(), wsHas = WeakSet.prototype.has, wsAdd = WeakSet.prototype.add;
  const qsa = Element.prototype.querySelectorAll, test = RegExp.prototype.test;
  const jsType = /^(|module|(text|application)\/(x-)?(java|ecma)script)$/i, sheet = /(^|\s)stylesheet(\s|$)/i;
  const track = (el) => {
    try {
      const tag = el.localName;
      if (tag === 'script') {
        if (!el.src || el.noModule || !apply(test, jsType, [String(el.type || '').trim()])) return;
      } else if (tag === 'link') {
        if (!el.href || !apply(test, sheet, [String(el.rel || '')])) return;
      } else return;
      if (apply(wsHas, seen, [el])) return;
      apply(wsAdd, seen, [el]);
      const f = fin1();
      loads++;
      apply(listen, el, ['load', f, true]);
      apply(listen, el, ['error', f, true]);
    } catch (e) {}
  };
  try {
    const mo = new window.MutationObserver((recs) => {
      if (doc.readyState === 'loading') return;
      for (let i = 0; i < recs.length; i++) {
        const added = recs[i].addedNodes;
        for (let j = 0; j < added.length; j++) {
          const n = added[j];
          if (!n || n.nodeType !== 1) continue;
          track(n);
          if (n.firstElementChild) {
            const inner = apply(qsa, n, ['script[src], link[href]']);
            for (let k = 0; k < inner.length; k++) track(inner[k]);
          }
        }
      }
    });
    mo.observe(doc, {childList: true, subtree: true});
  } catch (e) {}
  const XHR = window.XMLHttpRequest;
  if (XHR && XHR.prototype && typeof XHR.prototype.send === 'function') {
    const send0 = XHR.prototype.send;
    XHR.prototype.send = function send() {
      const f = fin1();
      loads++;
      try { apply(listen, this, ['loadend', f, true]); return apply(send0, this, arguments); }
      catch (e) { f(); throw e; }
    };
  }
  const fetch0 = window.fetch;
  if (typeof fetch0 === 'function') {
    const then = Promise.prototype.then;
    window.fetch = function fetch() {
      const f = fin1();
      loads++;
      let p;
      try { p = apply(fetch0, this, arguments); } catch (e) { f(); throw e; }
      try { apply(then, p, [f, f]); } catch (e) { f(); }
      return p;
    };
  }
"""

# Idle callbacks, on the judge's virtual clock (VIRTUAL_CLOCK_SCRIPT) and on the recorded source's running one
# (TIMER_WATCH_SCRIPT), where Playwright's clock is installed: an idle period starts 1 ms after the request and lasts
# 50 ms. The clock does not move while a callback runs, so each timeRemaining() call uses up 1 ms of the period: a
# loop that works while time remains does the same work on every run, and ends. (The installed clock's own idle
# callbacks report no time remaining at all, so such a loop never did any work.) Needs, in scope: ``seq`` (the
# handles' counter) and what _TIMER_COUNTS_JS defines (apply, max, timeouts, clearT; window.setTimeout counted).
_IDLE_CALLBACKS_JS = r"""
  const idle = {__proto__: null};
  const setTimeoutOurs = window.setTimeout;
  window.requestIdleCallback = function requestIdleCallback(cb) {
    const h = ++seq;
    idle[h] = apply(setTimeoutOurs, window, [() => {
      delete idle[h];
      let left = 50;
      cb({didTimeout: false, timeRemaining: () => max(0, left--)});
    }, 1]);
    return h;
  };
  window.cancelIdleCallback = function cancelIdleCallback(h) {
    if (typeof h === 'number' && h in idle) { const t = idle[h]; delete idle[h]; delete timeouts[t]; apply(clearT, window, [t]); }
  };
"""

# Runs after Playwright's clock is installed (``virtual_time``). The clock's own time counts from a moment that
# depends on real time (when the page was made), so performance.now, event times and animation-frame timestamps
# are re-based to 0 at the document's start, and animation frames come every 16 ms of virtual time from
# there: two runs of the same page see the same times. Frames, intervals and timeouts still pending are
# counted (_TIMER_COUNTS_JS), and what it asked for and has not received (_LOADS_JS), so the judge can wait for
# work a page has scheduled and say when a page never stopped animating. The counts are closed over (nothing the
# page can read or write) and answered only on the context's secret channel (see INIT_SCRIPT): the page can
# neither report itself quiet nor busy.
VIRTUAL_CLOCK_SCRIPT = r"""
(() => {
  if (!(window.Date && window.Date.isFake)) return;
  const CH = %(channel)s;
  const perf = window.performance;
  const base = perf.now.bind(perf);
  const off = base();
  const vnow = () => base() - off, now = vnow;
  try { Object.defineProperty(perf, 'now', {value: function now() { return vnow(); }, configurable: true, writable: true}); } catch (e) {}
""" + _TIMER_COUNTS_JS + _LOADS_JS + r"""
  let seq = 0;
  window.requestAnimationFrame = function requestAnimationFrame(cb) {
    const h = ++seq;
    const t = now();
    const wait = 16 - (t %% 16);
    waiting[h] = setT(() => { if (h in waiting) { delete waiting[h]; nWaiting--; } frames++; cb(now()); }, wait);
    nWaiting++;
    return h;
  };
  window.cancelAnimationFrame = function cancelAnimationFrame(h) {
    if (typeof h === 'number' && h in waiting) { clearT(waiting[h]); delete waiting[h]; nWaiting--; }
  };
""" + _IDLE_CALLBACKS_JS + r"""
})();
"""

# The recorder's twin of the counts above, on a clock that runs in real time (``watch_timers``): the same
# timeout and interval counts (_TIMER_COUNTS_JS), and the page's own animation frames wrapped to be counted (left
# running as they are). With these the recorder waits after an action for what the judge's virtual clock runs
# after it (settle.wait_timers), so a change a page makes 600 ms after a click is recorded at that click's step,
# as the judge shows it. Same answer, same secret channel.
TIMER_WATCH_SCRIPT = r"""
(() => {
  const CH = %(channel)s;
  const perf = window.performance;
  const now = perf.now.bind(perf);
""" + _TIMER_COUNTS_JS + r"""
  // Playwright's clock, installed to start the page's date where the judge's does, answers idle callbacks with no
  // time remaining, so a page that works while time remains never worked on the recorded source: they get the
  // judge's idle period (_IDLE_CALLBACKS_JS), from a timeout of the running clock, counted as every timeout is
  if (window.Date && window.Date.isFake) {
    let seq = 0;
""" + _IDLE_CALLBACKS_JS + r"""
  }
  const raf = window.requestAnimationFrame, caf = window.cancelAnimationFrame;
  if (typeof raf === 'function') {
    window.requestAnimationFrame = function requestAnimationFrame(cb) {
      let h;
      h = apply(raf, window, [function () { if (h in waiting) { delete waiting[h]; nWaiting--; } frames++;
                                            return apply(cb, this, arguments); }]);
      if (!(h in waiting)) { waiting[h] = true; nWaiting++; }
      return h;
    };
    window.cancelAnimationFrame = function cancelAnimationFrame(h) {
      if (h in waiting) { delete waiting[h]; nWaiting--; }
      return apply(caf, window, [h]);
    };
  }
})();
"""

#: where a virtual clock starts when the task names no time (2026-01-01T00:00:00Z)
VIRTUAL_EPOCH_S = 1767225600.0
#: the same moment, where the recorder starts a page's clock when the recipe names no ``freeze_time``: the
#: recording and the judge see the same date (a page that prints today's date shows it on both)
CLOCK_START = time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime(VIRTUAL_EPOCH_S))


def find_chromium() -> tuple[str | None, str]:
    """The Chromium to drive and why: $IWR_CHROMIUM, else a system one, else Playwright's own."""
    env = os.environ.get("IWR_CHROMIUM")
    if env:
        if Path(env).exists():
            return env, "IWR_CHROMIUM"
        raise ComponentMissing(f"IWR_CHROMIUM={env} does not exist; unset it or point it at a Chromium binary")
    for name in ("chromium", "chromium-browser", "google-chrome", "google-chrome-stable"):
        p = shutil.which(name)
        if p:
            return p, f"system ({name} on PATH)"
    return None, "Playwright's bundled Chromium (no system Chromium found)"


# -- the memory cage ------------------------------------------------------------------------------


def memory_limit_mb() -> int:
    """The browser's memory cap in MB from $IWR_BROWSER_MEMORY_MB (default 3072; 0 turns it off)."""
    raw = os.environ.get(MEMORY_ENV, "").strip()
    if not raw:
        return DEFAULT_MEMORY_MB
    try:
        mb = int(raw)
    except ValueError:
        mb = -1
    if mb != 0 and not 256 <= mb <= 1 << 20:
        raise ComponentMissing(f"{MEMORY_ENV}={raw!r} is not a size in MB between 256 and 1048576 (or 0 for no cap)")
    return mb


def _own_memory_cgroup() -> Path | None:
    """This process's cgroup-v1 memory directory, when the memory controller is mounted where we look."""
    try:
        for line in Path("/proc/self/cgroup").read_text().splitlines():
            _, controllers, path = line.split(":", 2)
            if "memory" in controllers.split(","):
                d = _CGROUP_MEMORY_ROOT / path.lstrip("/")
                return d if (d / "memory.limit_in_bytes").exists() else None
    except (OSError, ValueError):
        pass
    return None


def _make_cgroup(parent: Path, name: str, mb: int) -> Path:
    d = parent / name
    d.mkdir()
    try:
        limit = str(mb << 20)
        (d / "memory.limit_in_bytes").write_text(limit)
        memsw = d / "memory.memsw.limit_in_bytes"  # where swap is accounted, swap may not lift the cap
        if memsw.exists():
            try:
                memsw.write_text(limit)
            except OSError:
                pass
    except OSError:
        _remove_cgroup(d)
        raise
    return d


def _remove_cgroup(d: Path, wait_s: float = 0.0) -> bool:
    """rmdir a cgroup once it is empty (its processes may take a moment to exit)."""
    end = time.monotonic() + wait_s
    while True:
        try:
            d.rmdir()
            return True
        except FileNotFoundError:
            return True
        except OSError:
            if time.monotonic() >= end:
                return False
            time.sleep(0.2)


def _left_behind(parent: Path) -> list[Path]:
    """Cages (``iwr-browser-PID-...``) in ``parent`` made by processes that are gone (killed before they could
    remove them)."""
    out = []
    try:
        for d in parent.glob(_CAGE_PREFIX + "*"):
            try:
                pid = int(d.name[len(_CAGE_PREFIX):].split("-")[0])
            except ValueError:
                continue
            if pid != os.getpid() and not Path(f"/proc/{pid}").exists():
                out.append(d)
    except OSError:
        pass
    return out


def _sweep_stale_cgroups(parent: Path) -> None:
    """Remove empty cages left by browsers of processes that are gone (rmdir refuses non-empty ones)."""
    for d in _left_behind(parent):
        _remove_cgroup(d)


def _sweep_stale_cage_dirs(parent: Path) -> None:
    """Remove the launcher folders (a wrapper script, an empty jail root) of processes that are gone."""
    for d in _left_behind(parent):
        if d.is_dir() and not d.is_symlink():
            shutil.rmtree(d, ignore_errors=True)


@dataclass
class MemoryCap:
    kind: str  # "cgroup" | "rlimit" | "off"
    mb: int
    where: str = ""

    def describe(self) -> str:
        if self.kind == "cgroup":
            return (f"{self.mb} MB for the whole browser (cgroup v1 memory limit under {self.where}); "
                    f"set {MEMORY_ENV} to change, 0 for none")
        if self.kind == "rlimit":
            return (f"{self.mb} MB per browser process (RLIMIT_DATA: {self.where}); "
                    f"set {MEMORY_ENV} to change, 0 for none")
        return f"none ({self.where}); only V8's heap is capped (512 MB)"


def memory_cap() -> MemoryCap:
    """Which memory cap a browser launched now gets (probes the cgroup without leaving anything behind)."""
    mb = memory_limit_mb()
    if mb == 0:
        return MemoryCap("off", 0, f"{MEMORY_ENV}=0")
    parent = _own_memory_cgroup()
    if parent is not None:
        try:
            d = _make_cgroup(parent, f"{_CAGE_PREFIX}{os.getpid()}-probe-{threading.get_ident()}", mb)
            _remove_cgroup(d, 2.0)
            return MemoryCap("cgroup", mb, str(parent))
        except OSError:
            pass
    why = "no writable cgroup-v1 memory controller" if parent is None or not os.access(parent, os.W_OK) \
        else "the memory cgroup refused a child"
    return MemoryCap("rlimit", mb, why)


_cage_seq = 0
_cage_lock = threading.Lock()
_live_cages: set[Path] = set()


@atexit.register
def _remove_live_cages() -> None:
    # never leave an empty cgroup behind in a parent that belongs to whoever started us
    for d in list(_live_cages):
        _remove_cgroup(d, 5.0)


class _Cage:
    """The launcher: a wrapper executable that puts the browser's whole process tree under the memory cap and, when
    iwrbench runs as root, starts it as an unprivileged user in a filesystem of its own (sandbox.jail_script)."""

    def __init__(self, exe: str, sb: Sandbox, *, memory: bool = True):
        global _cage_seq
        self.cap = memory_cap() if memory else MemoryCap("off", 0, f"{MEMORY_ENV}=0")
        self.cgroup: Path | None = None
        _sweep_stale_cage_dirs(Path(tempfile.gettempdir()))
        self.dir = Path(tempfile.mkdtemp(prefix=f"{_CAGE_PREFIX}{os.getpid()}-"))
        lines = ["#!/bin/sh"]
        if self.cap.kind == "cgroup":
            parent = Path(self.cap.where)
            _sweep_stale_cgroups(parent)
            with _cage_lock:
                _cage_seq += 1
                name = f"{_CAGE_PREFIX}{os.getpid()}-{_cage_seq}"
            try:
                self.cgroup = _make_cgroup(parent, name, self.cap.mb)
                _live_cages.add(self.cgroup)
                procs = shlex.quote(str(self.cgroup / "cgroup.procs"))
                lines.append(f"echo $$ > {procs} || "
                             "{ echo 'iwrbench: cannot enter the browser memory cgroup' >&2; exit 1; }")
            except OSError as e:
                self.cap = MemoryCap("rlimit", self.cap.mb, f"cannot make a memory cgroup: {e.strerror or e}")
        if self.cap.kind == "rlimit":
            lines.append(f"ulimit -d {self.cap.mb * 1024} || exit 1")
        if sb.mode == "jail":
            (self.dir / "root").mkdir()
            lines += jail_script(exe, sb, self.dir / "root")
        else:
            lines.append(f"exec {shlex.quote(exe)} \"$@\"")
        self.wrapper = self.dir / "chromium"
        self.wrapper.write_text("\n".join(lines) + "\n")
        self.wrapper.chmod(0o700)

    def release(self) -> None:
        """Remove the wrapper now and the cgroup once the browser's processes are gone (in the background)."""
        shutil.rmtree(self.dir, ignore_errors=True)
        if self.cgroup is not None:
            cg, self.cgroup = self.cgroup, None

            def remove() -> None:
                if _remove_cgroup(cg, 30.0):
                    _live_cages.discard(cg)

            threading.Thread(target=remove, daemon=True, name="iwr-cage-rm").start()


#: the Playwright drivers started with ``start_playwright(published=True)`` (their screenshots skip the fonts wait)
_PUBLISHED_DRIVERS: "weakref.WeakSet[Any]" = weakref.WeakSet()
#: how each launched browser was set up: its ``page_setup`` ("deterministic" or "published", as ``Protocol.page_setup``)
_SETUPS: "weakref.WeakKeyDictionary[Any, str]" = weakref.WeakKeyDictionary()


async def start_playwright(*, published: bool = False) -> Any:
    """A started Playwright (``await pw.stop()`` when done). ``published``: its driver takes screenshots without
    waiting for web fonts, as the published judge's does; the variable is set for the driver's start only (the
    driver reads its own environment), so nothing else in this process sees it."""
    from playwright.async_api import async_playwright

    if not published:
        return await async_playwright().start()
    old = os.environ.get(NO_FONTS_WAIT_ENV)
    os.environ[NO_FONTS_WAIT_ENV] = "1"
    try:
        pw = await async_playwright().start()
    finally:
        if old is None:
            os.environ.pop(NO_FONTS_WAIT_ENV, None)
        else:
            os.environ[NO_FONTS_WAIT_ENV] = old
    _PUBLISHED_DRIVERS.add(pw)
    return pw


#: how each browser launched here was started (``browser_sandbox``)
_sandboxes: "weakref.WeakKeyDictionary[Any, Sandbox]" = weakref.WeakKeyDictionary()


def browser_sandbox(browser: Any) -> Sandbox | None:
    """How ``browser`` was started (None for one not launched by ``launch_browser``)."""
    try:
        return _sandboxes.get(browser)
    except TypeError:
        return None


def browser_setup(browser: Any) -> str | None:
    """The ``page_setup`` a browser was launched for by ``launch_browser`` (None: launched elsewhere)."""
    try:
        return _SETUPS.get(browser)
    except TypeError:
        return None


async def launch_browser(playwright: Any, *, headless: bool = True, page_setup: str = "deterministic",
                         sandbox: bool | None = None) -> Any:
    """Chromium under its memory cap, with the switches of ``page_setup``: "deterministic" (``LAUNCH_ARGS``, every
    protocol of the project's own) or "published" (``PUBLISHED_LAUNCH_ARGS``: iwr-bench@1's browser, whose
    Playwright must come from ``start_playwright(published=True)``). Chromium's own sandbox is on
    (``sandbox.py``): as root, the unprivileged ``iwr-browser`` in a filesystem of its own; else this user.
    ``sandbox=False`` (or ``IWR_UNSAFE_NO_SANDBOX=1`` when None, which is what ``--unsafe-no-sandbox`` sets)
    starts it with ``--no-sandbox``. Raises ComponentMissing when the sandbox is wanted and cannot be had."""
    if page_setup not in ("deterministic", "published"):
        raise ValueError(f"page_setup must be deterministic or published, not {page_setup!r}")
    published = page_setup == "published"
    if published and playwright not in _PUBLISHED_DRIVERS:
        raise ComponentMissing("the published browser needs a Playwright started by "
                               "browser.core.start_playwright(published=True) (its screenshots skip the fonts wait)")
    await register_engine(playwright)  # the judge's isolated world (world.py) for every context made from here on
    sb = plan_sandbox(sandbox)
    exe, _ = find_chromium()
    real = exe or playwright.chromium.executable_path
    cage = _Cage(real, sb, memory=bool(memory_limit_mb())) if (memory_limit_mb() or sb.mode == "jail") else None
    try:
        browser = await playwright.chromium.launch(
            executable_path=str(cage.wrapper) if cage else exe, headless=headless,
            args=(PUBLISHED_LAUNCH_ARGS if published else LAUNCH_ARGS) + ([] if sb.on else ["--no-sandbox"]),
            ignore_default_args=PUBLISHED_IGNORED_DEFAULT_ARGS if published else None,
            chromium_sandbox=sb.on, env=browser_env(sb),
            handle_sigint=False
        )
    except Exception as e:  # playwright raises its own Error type
        if cage:
            cage.release()
        text = str(e)
        first = text.strip().splitlines()[0] if text.strip() else e.__class__.__name__
        # what Chromium says when its sandbox cannot start, or the launcher's tools when the browser's own
        # filesystem cannot be made (a container without the right to make a mount namespace)
        keys = ("sandbox", "namespace", "iwrbench:", "unshare", "pivot_root", "setpriv", "mount", "not permitted")
        why = next((ln.strip() for ln in text.splitlines()
                    if any(k in ln.lower() for k in keys) and "<launching>" not in ln), None)
        if sb.on and why:
            need = ("as root, the user iwr-browser (`make setup`) and the right to make a mount namespace "
                    "(CAP_SYS_ADMIN; run as a user that is not root where a container withholds it)"
                    if sb.mode == "jail" else "unprivileged user namespaces")
            raise ComponentMissing(
                f"Chromium's sandbox cannot start here ({why[:200]}); it needs {need}, and unprivileged user "
                "namespaces (kernel.unprivileged_userns_clone=1; on Ubuntu 24.04 "
                "kernel.apparmor_restrict_unprivileged_userns=0); or pass --unsafe-no-sandbox to judge without it "
                "(recorded in run.json)") from None
        raise ComponentMissing(
            f"cannot start Chromium ({first}); install it with `make setup` (apt-get install chromium) "
            "or set IWR_CHROMIUM"
        ) from None
    _sandboxes[browser] = sb
    if cage:
        browser.on("disconnected", lambda *_: cage.release())
    _SETUPS[browser] = page_setup
    return browser


# -- contexts -------------------------------------------------------------------------------------


@dataclass
class NetworkLog:
    """Requests refused (by the request router or the context's proxy), per host; and requests allowed."""

    allowed_origins: set[str] = field(default_factory=set)
    blocked: dict[str, int] = field(default_factory=dict)
    allowed: int = 0
    proxy: OriginProxy | None = None
    _lock: threading.Lock = field(default_factory=threading.Lock, repr=False, compare=False)

    @property
    def blocked_total(self) -> int:
        return sum(self.blocked.values())

    def block(self, host: str) -> None:
        with self._lock:  # the proxy counts from its own threads
            self.blocked[host] = self.blocked.get(host, 0) + 1

    def allows(self, url: str) -> bool:
        parts = urlsplit(url)
        if parts.scheme in ("data", "blob", "about", "javascript"):
            return True
        origin = f"{parts.scheme}://{parts.netloc}"
        return origin in self.allowed_origins


def origin_of(url: str) -> str:
    p = urlsplit(url)
    return f"{p.scheme}://{p.netloc}"


_OWN_SCHEMES = ("about", "data")  # documents that carry no address of their own: made by the page itself


def _elsewhere(url: str, allowed: set[str]) -> bool:
    p = urlsplit(url)
    if p.scheme in _OWN_SCHEMES:
        return False
    if p.scheme == "blob":  # blob:<origin of the document that made it>/<uuid>
        return origin_of(url[5:]) not in allowed
    return origin_of(url) not in allowed


async def off_origin(page: Any, allowed: set[str]) -> str | None:
    """The page's URL when its main frame is not on one of its own origins, else None.

    about:blank, data: and blob: documents of the page itself count as its own; an error page
    (a refused navigation) does not. The URL Playwright tracks is checked, and the one the
    document itself reports (read in the judge's isolated world, world.py), in case a navigation
    slipped past Playwright's bookkeeping. A page that cannot be asked (closed, crashed, busy) is
    not judged here: the caller's own error handling sees that.
    """
    try:
        url = page.url
    except Exception:
        return None
    if url and _elsewhere(url, allowed):
        return url
    try:
        here = await asyncio.wait_for(read(page, "() => location.href", timeout_s=2), timeout=2.5)
    except Exception:
        return None
    if isinstance(here, str) and here and _elsewhere(here, allowed):
        return here
    return None


async def new_context(
    browser: Any,
    viewport: tuple[int, int],
    *,
    allowed_origins: set[str],
    seed: int = 1,
    freeze_time: str | None = None,
    accept_downloads: bool = False,
    virtual_time: bool = False,
    deterministic: bool = True,
    watch_timers: bool = False,
) -> tuple[Any, NetworkLog]:
    """A fresh, deterministic, contained browser context (its proxy stops when it closes).

    ``deterministic=False`` (the published protocol) leaves out reduced motion, the seeded ``Math.random`` and
    every script of ours in the page's world (no DOM observer, no wrapped ``attachShadow``, no helper globals):
    the page runs as in a plain browser (still contained, same viewport). Settling by condition needs that script;
    the published protocol does not settle by condition.

    ``freeze_time``: the page's clock starts at this ISO time and runs on. ``virtual_time``: the page's clock
    (Date, timers, animation frames, performance.now) is paused at ``freeze_time`` or ``VIRTUAL_EPOCH_S`` and
    moves only when the caller advances it (``settle.run_clock``), so a page that animates is shown at the same
    moment on every run. ``watch_timers`` (a clock running in real time, the recorder's): the page's timeouts and
    animation frames are counted, so ``settle.wait_timers`` can wait for what ``run_clock`` would run."""
    w, h = viewport
    log = NetworkLog(allowed_origins=set(allowed_origins))
    proxy = OriginProxy(log.allowed_origins, on_refused=log.block).start()
    log.proxy = proxy
    try:
        ctx = await browser.new_context(
            viewport={"width": w, "height": h},
            screen={"width": w, "height": h},
            device_scale_factor=1,
            locale=LOCALE,
            timezone_id=TIMEZONE,
            reduced_motion="reduce" if deterministic else "no-preference",
            color_scheme="light",
            accept_downloads=accept_downloads,
            service_workers="block",
            java_script_enabled=True,
            bypass_csp=False,
            proxy={"server": f"http://{PROXY_HOST}:{proxy.port}"},
        )
    except BaseException:
        proxy.stop()
        raise
    ctx.on("close", lambda *_: proxy.stop())
    try:
        channel = json.dumps(new_channel(ctx, virtual_time))
        if deterministic:  # iwr-bench@1: no script of ours in the page's world (its hooks then never answer)
            await ctx.add_init_script(INIT_SCRIPT % {"seed": seed, "seeded": "true", "channel": channel})

        async def route(r: Any) -> None:
            url = r.request.url
            if log.allows(url):
                log.allowed += 1
                await r.continue_()
            else:
                log.block(urlsplit(url).netloc or url[:40])
                await r.abort("blockedbyclient")

        await ctx.route("**/*", route)

        async def ws_route(ws: Any) -> None:
            if log.allows(ws.url.replace("ws", "http", 1)):
                ws.connect_to_server()
            else:
                log.block(urlsplit(ws.url).netloc)
                await ws.close()

        await ctx.route_web_socket("**/*", ws_route)
        if virtual_time:
            start = _epoch_s(freeze_time) if freeze_time else VIRTUAL_EPOCH_S
            await ctx.clock.install(time=start)
            # paused a whole second later: the replayed clock log of every new document starts from here
            await ctx.clock.pause_at(start + 1.0)
            await ctx.add_init_script(VIRTUAL_CLOCK_SCRIPT % {"channel": channel})
        elif freeze_time:
            await ctx.clock.install(time=freeze_time)
        if watch_timers and deterministic and not virtual_time:
            await ctx.add_init_script(TIMER_WATCH_SCRIPT % {"channel": channel})
    except BaseException:
        proxy.stop()
        try:
            await ctx.close()
        except Exception:
            pass
        raise
    return ctx, log


async def browser_version(browser: Any) -> str:
    try:
        return browser.version
    except Exception:
        return "unknown"


def _epoch_s(iso: str) -> float:
    """Seconds since the epoch of an ISO time (UTC when it names no zone)."""
    from datetime import datetime, timezone

    t = datetime.fromisoformat(iso.replace("Z", "+00:00"))
    if t.tzinfo is None:
        t = t.replace(tzinfo=timezone.utc)
    return t.timestamp()
