"""The one place that launches Chromium and makes deterministic, contained contexts.

Determinism: viewport from the task, device scale factor 1, fixed locale and time zone,
reduced motion, light colour scheme, seeded ``Math.random``, optionally a frozen clock.
Containment: every request to a host other than the page's own loopback origins is aborted
and counted (and Chromium's resolver maps every other host to nowhere, as a second wall).
"""

from __future__ import annotations

import os
import shutil
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit

from ..errors import ComponentMissing

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
    # a page that grows its heap without bound crashes its renderer (a page_error), not the machine
    "--js-flags=--max-old-space-size=512",
    "--disable-features=Translate,MediaRouter,OptimizationHints,AutofillServerCommunication",
    # nothing resolves but loopback: a second wall behind the request router
    "--host-resolver-rules=MAP * ~NOTFOUND, EXCLUDE 127.0.0.1, EXCLUDE localhost",
]

LOCALE = "en-US"
TIMEZONE = "UTC"

# Seeded Math.random (mulberry32) and a MutationObserver the settle rule reads.
INIT_SCRIPT = r"""
(() => {
  const seed = %(seed)d >>> 0;
  let s = seed || 1;
  const rnd = function () {
    s |= 0; s = (s + 0x6D2B79F5) | 0;
    let t = Math.imul(s ^ (s >>> 15), 1 | s);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
  try { Object.defineProperty(Math, 'random', {value: rnd, configurable: false, writable: false}); } catch (e) {}
  const st = {count: 0, last: performance.now(), what: ''};
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
  const start = () => {
    try {
      new MutationObserver((recs) => {
        st.count += recs.length; st.last = performance.now();
        const r = recs[recs.length - 1];
        st.what = r.type + ' on ' + describe(r.target) + (r.attributeName ? ' [' + r.attributeName + ']' : '');
      }).observe(document, {subtree: true, childList: true, attributes: true, characterData: true});
    } catch (e) {}
  };
  start();
})();
"""


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


async def launch_browser(playwright: Any, *, headless: bool = True) -> Any:
    exe, _ = find_chromium()
    try:
        return await playwright.chromium.launch(
            executable_path=exe, headless=headless, args=LAUNCH_ARGS, handle_sigint=False
        )
    except Exception as e:  # playwright raises its own Error type
        first = str(e).strip().splitlines()[0] if str(e).strip() else e.__class__.__name__
        raise ComponentMissing(
            f"cannot start Chromium ({first}); install it with `make setup` (apt-get install chromium) "
            "or set IWR_CHROMIUM"
        ) from None


@dataclass
class NetworkLog:
    """Requests blocked by the policy, per host; and loopback requests allowed."""

    allowed_origins: set[str] = field(default_factory=set)
    blocked: dict[str, int] = field(default_factory=dict)
    allowed: int = 0

    @property
    def blocked_total(self) -> int:
        return sum(self.blocked.values())

    def allows(self, url: str) -> bool:
        parts = urlsplit(url)
        if parts.scheme in ("data", "blob", "about", "javascript"):
            return True
        origin = f"{parts.scheme}://{parts.netloc}"
        return origin in self.allowed_origins


def origin_of(url: str) -> str:
    p = urlsplit(url)
    return f"{p.scheme}://{p.netloc}"


async def new_context(
    browser: Any,
    viewport: tuple[int, int],
    *,
    allowed_origins: set[str],
    seed: int = 1,
    freeze_time: str | None = None,
    accept_downloads: bool = False,
) -> tuple[Any, NetworkLog]:
    """A fresh, deterministic, contained browser context."""
    w, h = viewport
    ctx = await browser.new_context(
        viewport={"width": w, "height": h},
        screen={"width": w, "height": h},
        device_scale_factor=1,
        locale=LOCALE,
        timezone_id=TIMEZONE,
        reduced_motion="reduce",
        color_scheme="light",
        accept_downloads=accept_downloads,
        service_workers="block",
        java_script_enabled=True,
        bypass_csp=False,
    )
    await ctx.add_init_script(INIT_SCRIPT % {"seed": seed})
    log = NetworkLog(allowed_origins=set(allowed_origins))

    async def route(r: Any) -> None:
        url = r.request.url
        if log.allows(url):
            log.allowed += 1
            await r.continue_()
        else:
            host = urlsplit(url).netloc or url[:40]
            log.blocked[host] = log.blocked.get(host, 0) + 1
            await r.abort("blockedbyclient")

    await ctx.route("**/*", route)
    try:
        async def ws_route(ws: Any) -> None:
            if log.allows(ws.url.replace("ws", "http", 1)):
                ws.connect_to_server()
            else:
                host = urlsplit(ws.url).netloc
                log.blocked[host] = log.blocked.get(host, 0) + 1
                await ws.close()

        await ctx.route_web_socket("**/*", ws_route)
    except AttributeError:  # older Playwright: the resolver rule still blocks other hosts
        pass
    if freeze_time:
        await ctx.clock.install(time=freeze_time)
    return ctx, log


async def browser_version(browser: Any) -> str:
    try:
        return browser.version
    except Exception:
        return "unknown"
