"""The one place that launches Chromium and makes deterministic, contained contexts.

Determinism: viewport from the task, device scale factor 1, fixed locale and time zone,
reduced motion, light colour scheme, seeded ``Math.random``, optionally a frozen clock.

Containment: every context gets its own allow-only forward proxy (``proxy.py``), the one
door to the network for everything the context does (pages, workers, prefetches, WebSockets,
WebRTC over TCP); requests the request router sees are also aborted early. Both count what
they refuse per host. Chromium's resolver maps every name but the proxy's to nowhere, WebRTC
may not send UDP outside a proxy, speculative prerendering is off, and the whole browser runs
under a memory cap (a cgroup where one can be made, else a per-process data limit).
"""

from __future__ import annotations

import asyncio
import atexit
import os
import shlex
import shutil
import tempfile
import threading
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit

from ..errors import ComponentMissing
from .proxy import OriginProxy

#: The name Chromium is given for a context's proxy; the resolver maps it, and nothing else, to loopback.
PROXY_HOST = "iwr-proxy"

LAUNCH_ARGS = [
    "--no-sandbox",
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

LOCALE = "en-US"
TIMEZONE = "UTC"

MEMORY_ENV = "IWR_BROWSER_MEMORY_MB"
DEFAULT_MEMORY_MB = 3072
_CGROUP_MEMORY_ROOT = Path("/sys/fs/cgroup/memory")
_CAGE_PREFIX = "iwr-browser-"

# Seeded Math.random (mulberry32) and a MutationObserver the settle rule reads.
INIT_SCRIPT = r"""
(() => {
  const seed = %(seed)d >>> 0;
  let s = seed || 1;
  let draws = 0;  // how many numbers the page drew (the recorder replays a probe with another seed only if any)
  Object.defineProperty(window, '__iwrDraws', {get: () => draws, enumerable: false});
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
  // the page's real clock, kept before a virtual clock (VIRTUAL_CLOCK_SCRIPT) replaces it: settling waits in real time
  const real = Object.freeze({now: performance.now.bind(performance), setTimeout: setTimeout.bind(window),
                              frame: requestAnimationFrame.bind(window)});
  Object.defineProperty(window, '__iwrReal', {value: real, enumerable: false});
  const st = {count: 0, last: real.now(), what: ''};
  Object.defineProperty(window, '__iwrMut', {value: st, enumerable: false});
  const describe = (n) => {
    if (!n) return '';
    const el = n.nodeType === 1 ? n : n.parentElement;
    if (!el) return '';
    let d = el.tagName.toLowerCase();
    if (el.id) d += '#' + el.id;
    else if (el.classList && el.classList.length) d += '.' + Array.from(el.classList).slice(0, 2).join('.');
    return d;
  };
  // one observer for the document and for every shadow root (open or closed) the page attaches:
  // a web component re-rendering inside its shadow tree is a DOM that is not quiet yet
  const opts = {subtree: true, childList: true, attributes: true, characterData: true};
  let obs = null;
  const start = () => {
    try {
      obs = new MutationObserver((recs) => {
        st.count += recs.length; st.last = real.now();
        const r = recs[recs.length - 1];
        st.what = r.type + ' on ' + describe(r.target) + (r.attributeName ? ' [' + r.attributeName + ']' : '');
      });
      obs.observe(document, opts);
    } catch (e) {}
    try {
      const attach = Element.prototype.attachShadow;
      if (attach) {
        Object.defineProperty(Element.prototype, 'attachShadow', {configurable: true, writable: true, value:
          function attachShadow(init) {
            const root = attach.call(this, init);
            try { if (obs) obs.observe(root, opts); } catch (e) {}
            return root;
          }});
      }
    } catch (e) {}
    // shadow roots the parser made (declarative shadow DOM) never pass through attachShadow
    document.addEventListener('DOMContentLoaded', () => {
      try {
        const walk = (n) => {
          for (const el of n.querySelectorAll('*')) {
            if (el.shadowRoot) { try { obs.observe(el.shadowRoot, opts); } catch (e) {} walk(el.shadowRoot); }
          }
        };
        if (obs) walk(document);
      } catch (e) {}
    }, {once: true});
  };
  start();
})();
"""

# Runs after Playwright's clock is installed (``virtual_time``). The clock's own time counts from a moment that
# depends on real time (when the page was made), so performance.now, event times and animation-frame timestamps
# are re-based to 0 at the document's start, and animation frames come every 16 ms of virtual time from
# there: two runs of the same page see the same times. Frames, intervals and timeouts still pending are
# counted, so the judge can wait for work a page has scheduled and say when a page never stopped animating.
VIRTUAL_CLOCK_SCRIPT = r"""
(() => {
  if (!(window.Date && window.Date.isFake) || window.__iwrClock) return;
  const perf = window.performance;
  const base = perf.now.bind(perf);
  const off = base();
  const vnow = () => base() - off;
  try { Object.defineProperty(perf, 'now', {value: function now() { return vnow(); }, configurable: true, writable: true}); } catch (e) {}
  const setT = window.setTimeout, clearT = window.clearTimeout;
  const setI = window.setInterval, clearI = window.clearInterval;
  // fired: timer callbacks run (a poller that checks for a download without touching the DOM is still at work)
  const st = {frames: 0, fired: 0, waiting: new Map(), intervals: new Set(), timeouts: new Map(), seq: 0};
  const nextDue = () => { let m = null; for (const d of st.timeouts.values()) if (m === null || d < m) m = d;
                          return m === null ? null : Math.max(0, m - vnow()); };
  Object.defineProperty(window, '__iwrClock', {enumerable: false, value: {
    now: vnow, state: () => ({frames: st.frames, fired: st.fired, pending_frames: st.waiting.size,
                              intervals: st.intervals.size, next_due: nextDue()})}});
  window.requestAnimationFrame = function requestAnimationFrame(cb) {
    const h = ++st.seq;
    const t = vnow();
    const wait = 16 - (t % 16);
    st.waiting.set(h, setT(() => { st.waiting.delete(h); st.frames++; cb(vnow()); }, wait));
    return h;
  };
  window.cancelAnimationFrame = function cancelAnimationFrame(h) {
    const t = st.waiting.get(h);
    if (t !== undefined) { clearT(t); st.waiting.delete(h); }
  };
  // timeouts the page set, with when they are due: work the page has scheduled is waited for
  window.setTimeout = function setTimeout(f, ms, ...rest) {
    let id;
    const run = typeof f === 'function' ? function () { st.timeouts.delete(id); st.fired++; return f.apply(this, arguments); } : f;
    id = setT(run, ms, ...rest);
    if (typeof f === 'function') st.timeouts.set(id, vnow() + Math.max(0, +ms || 0));
    return id;
  };
  // idle callbacks: an idle period starts 1 ms of virtual time after the request and lasts 50 ms. The clock
  // does not move while a callback runs, so each timeRemaining() call uses up 1 ms of the period: a loop that
  // works while time remains does the same work on every run, and ends. (The installed clock's own idle
  // callbacks report no time remaining at all, so such a loop never did any work.)
  const idle = new Map();
  window.requestIdleCallback = function requestIdleCallback(cb) {
    const h = ++st.seq;
    idle.set(h, window.setTimeout(() => {
      idle.delete(h);
      let left = 50;
      cb({didTimeout: false, timeRemaining: () => Math.max(0, left--)});
    }, 1));
    return h;
  };
  window.cancelIdleCallback = function cancelIdleCallback(h) {
    const t = idle.get(h);
    if (t !== undefined) { window.clearTimeout(t); idle.delete(h); }
  };
  window.setInterval = function setInterval(f, ...rest) {
    const run = typeof f === 'function' ? function () { st.fired++; return f.apply(this, arguments); } : f;
    const id = setI(run, ...rest); st.intervals.add(id); return id; };
  window.clearInterval = function clearInterval(id) { st.intervals.delete(id); return clearI(id); };
  const clearTimeoutAlso = window.clearTimeout;  // clearTimeout may clear an interval too
  window.clearTimeout = function clearTimeout(id) {
    st.intervals.delete(id); st.timeouts.delete(id); return clearTimeoutAlso(id); };
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


def _sweep_stale_cgroups(parent: Path) -> None:
    """Remove empty cages left by browsers of processes that are gone (rmdir refuses non-empty ones)."""
    try:
        for d in parent.glob(_CAGE_PREFIX + "*"):
            try:
                pid = int(d.name[len(_CAGE_PREFIX):].split("-")[0])
            except ValueError:
                continue
            if pid != os.getpid() and not Path(f"/proc/{pid}").exists():
                _remove_cgroup(d)
    except OSError:
        pass


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
    """A wrapper executable that puts the browser's whole process tree under the memory cap."""

    def __init__(self, exe: str):
        global _cage_seq
        self.cap = memory_cap()
        self.cgroup: Path | None = None
        self.dir = Path(tempfile.mkdtemp(prefix=_CAGE_PREFIX))
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


async def launch_browser(playwright: Any, *, headless: bool = True) -> Any:
    exe, _ = find_chromium()
    real = exe or playwright.chromium.executable_path
    cage = _Cage(real) if memory_limit_mb() else None
    try:
        browser = await playwright.chromium.launch(
            executable_path=str(cage.wrapper) if cage else exe, headless=headless, args=LAUNCH_ARGS,
            handle_sigint=False
        )
    except Exception as e:  # playwright raises its own Error type
        if cage:
            cage.release()
        first = str(e).strip().splitlines()[0] if str(e).strip() else e.__class__.__name__
        raise ComponentMissing(
            f"cannot start Chromium ({first}); install it with `make setup` (apt-get install chromium) "
            "or set IWR_CHROMIUM"
        ) from None
    if cage:
        browser.on("disconnected", lambda *_: cage.release())
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
    document itself reports (``location.href`` cannot be redefined by the page), in case a
    navigation slipped past Playwright's bookkeeping. A page that cannot be asked (closed,
    crashed, busy) is not judged here: the caller's own error handling sees that.
    """
    try:
        url = page.url
    except Exception:
        return None
    if url and _elsewhere(url, allowed):
        return url
    try:
        here = await asyncio.wait_for(page.evaluate("() => location.href"), timeout=2)
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
) -> tuple[Any, NetworkLog]:
    """A fresh, deterministic, contained browser context (its proxy stops when it closes).

    ``deterministic=False`` (the published protocol) leaves out reduced motion and the seeded
    ``Math.random``: the page runs as in a plain browser (still contained, same viewport).

    ``freeze_time``: the page's clock starts at this ISO time and runs on. ``virtual_time``: the page's clock
    (Date, timers, animation frames, performance.now) is paused at ``freeze_time`` or ``VIRTUAL_EPOCH_S`` and
    moves only when the caller advances it (``settle.run_clock``), so a page that animates is shown at the same
    moment on every run."""
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
        await ctx.add_init_script(INIT_SCRIPT % {"seed": seed, "seeded": "true" if deterministic else "false"})

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
            await ctx.add_init_script(VIRTUAL_CLOCK_SCRIPT)
        elif freeze_time:
            await ctx.clock.install(time=freeze_time)
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
