"""The browser module: loopback server, containment, determinism and settling, in real Chromium."""

import contextlib
import time
from pathlib import Path
from urllib.request import urlopen
from urllib.error import HTTPError

import pytest

from iwrbench.browser.core import new_context
from iwrbench.browser.server import StaticServer
from iwrbench.browser.settle import RequestTracker, settle


def _site(tmp_path: Path, body: str) -> Path:
    (tmp_path / "index.html").write_text(f"<!doctype html><html><body>{body}</body></html>")
    return tmp_path


@contextlib.asynccontextmanager
async def _clock_page(browser, server: StaticServer, **context):
    """The server's page loaded in a context on the virtual clock: (page, its request tracker)."""
    ctx, _ = await new_context(browser, (400, 260), allowed_origins={server.origin}, virtual_time=True, **context)
    try:
        page = await ctx.new_page()
        tr = RequestTracker(page)
        await page.goto(server.url())
        yield page, tr
    finally:
        await ctx.close()


def test_static_server_serves_and_refuses(tmp_path):
    (tmp_path / "s").mkdir()
    site = _site(tmp_path / "s", "hi")
    (tmp_path / "secret.txt").write_text("no")
    assets = tmp_path / "a"
    assets.mkdir()
    (assets / "asset001.svg").write_text("<svg xmlns='http://www.w3.org/2000/svg'/>")
    with StaticServer({"/": site, "/__iwr_assets__/": assets}) as s:
        assert b"hi" in urlopen(s.url("index.html")).read()
        r = urlopen(s.url("__iwr_assets__/asset001.svg"))
        assert r.headers["Content-Type"].startswith("image/svg+xml")
        for bad in ("nope.html", "../secret.txt", "%2e%2e/secret.txt"):
            with pytest.raises(HTTPError) as e:
                urlopen(s.url(bad))
            assert e.value.code == 404


async def test_outside_hosts_are_blocked_and_counted(browser, tmp_path):
    site = _site(tmp_path, """<img src="http://example.com/x.png"><script>
      fetch('https://api.example.org/data').catch(() => {});
      fetch('/local.txt').then(r => r.text()).then(t => document.body.dataset.local = t);
    </script>""")
    (site / "local.txt").write_text("fine")
    with StaticServer({"/": site}) as s:
        ctx, net = await new_context(browser, (800, 600), allowed_origins={s.origin})
        page = await ctx.new_page()
        await page.goto(s.url("index.html"))
        await page.wait_for_function("document.body.dataset.local === 'fine'")
        await ctx.close()
    assert net.blocked == {"example.com": 1, "api.example.org": 1}
    assert net.allowed >= 2


async def test_context_is_deterministic(browser, tmp_path):
    site = _site(tmp_path, "")
    vals = []
    with StaticServer({"/": site}) as s:
        for seed in (7, 7, 8):
            ctx, _ = await new_context(browser, (640, 480), allowed_origins={s.origin}, seed=seed)
            page = await ctx.new_page()
            await page.goto(s.url())
            vals.append(await page.evaluate("""() => [Math.random(), Math.random(), devicePixelRatio,
                innerWidth, navigator.language, Intl.DateTimeFormat().resolvedOptions().timeZone,
                matchMedia('(prefers-reduced-motion: reduce)').matches]"""))
            await ctx.close()
    assert vals[0] == vals[1] and vals[0][:2] != vals[2][:2]
    assert vals[0][2:] == [1, 640, "en-US", "UTC", True]


async def test_settle_waits_for_quiet_and_names_what_kept_changing(browser, tmp_path):
    site = _site(tmp_path, """<div id="t">0</div><script>
      let n = 0; const h = setInterval(() => { document.getElementById('t').textContent = ++n; if (n === 5) clearInterval(h); }, 60);
    </script>""")
    busy = tmp_path / "busy.html"
    busy.write_text("<div class='ticker'>0</div><script>setInterval(() => document.querySelector('.ticker').textContent = Date.now(), 30)</script>")
    with StaticServer({"/": site}) as s:
        ctx, _ = await new_context(browser, (640, 480), allowed_origins={s.origin})
        page = await ctx.new_page()
        tr = RequestTracker(page)
        await page.goto(s.url())
        rep = await settle(page, tr, quiet_ms=200, timeout_ms=3000)
        assert rep.settled and await page.inner_text("#t") == "5"
        await page.goto(s.url("busy.html"))
        rep = await settle(page, tr, quiet_ms=200, timeout_ms=800)
        assert not rep.settled and "div.ticker" in rep.what
        await ctx.close()


async def test_settle_sees_changes_inside_shadow_roots(browser, tmp_path):
    # a web component re-rendering inside its (closed) shadow tree: five updates 60 ms apart, then quiet
    site = _site(tmp_path, """<x-count></x-count><script>
      customElements.define('x-count', class extends HTMLElement {
        constructor() { super(); this.r = this.attachShadow({mode: 'closed'}); this.r.innerHTML = '<b>0</b>'; }
        connectedCallback() { let n = 0; const h = setInterval(() => {
          this.r.querySelector('b').textContent = ++n; window.__n = n; if (n === 5) clearInterval(h); }, 60); }
      });
    </script>""")
    # the same updates only inside a shadow root: without observing it, the page looks quiet at once
    site2 = tmp_path / "quiet.html"
    site2.write_text("""<x-c></x-c><script>
      customElements.define('x-c', class extends HTMLElement {
        constructor() { super(); this.r = this.attachShadow({mode: 'open'}); this.r.innerHTML = '<b>0</b>'; }
        connectedCallback() { let n = 0; const h = setInterval(() => {
          this.r.querySelector('b').textContent = ++n; if (n === 8) clearInterval(h); }, 80); }
      });
    </script>""")
    with StaticServer({"/": site}) as s:
        ctx, _ = await new_context(browser, (640, 480), allowed_origins={s.origin})
        page = await ctx.new_page()
        tr = RequestTracker(page)
        await page.goto(s.url("quiet.html"))
        rep = await settle(page, tr, quiet_ms=200, timeout_ms=3000)
        assert rep.settled
        assert await page.evaluate("document.querySelector('x-c').shadowRoot.querySelector('b').textContent") == "8"
        await page.goto(s.url())
        rep = await settle(page, tr, quiet_ms=200, timeout_ms=3000)
        assert rep.settled and await page.evaluate("window.__n") == 5
        await ctx.close()


_ANIMATED = """<canvas id="c" width="300" height="100"></canvas><p id="w">0</p><p id="d"></p><button id="b">Grow</button>
<div id="bar" style="height:10px;background:#36c;width:0"></div><script>
  // an endless loop drawing on the canvas from the frame's timestamp; a bar that grows over 1 s on click;
  // the date and performance.now as the page reads them
  const c = document.getElementById('c').getContext('2d');
  function loop(ts) { c.clearRect(0, 0, 300, 100); c.fillRect((ts / 3) % 300, 30, 20, 20); requestAnimationFrame(loop); }
  requestAnimationFrame(loop);
  document.getElementById('d').textContent = new Date().toISOString() + ' ' + Math.round(performance.now());
  document.getElementById('b').onclick = () => { const t0 = performance.now();
    const f = () => { const p = Math.min(1, (performance.now() - t0) / 1000);
      document.getElementById('bar').style.width = (200 * p) + 'px'; document.getElementById('w').textContent = Math.round(200 * p);
      if (p < 1) requestAnimationFrame(f); }; requestAnimationFrame(f); };
</script>"""


async def test_virtual_clock_shows_an_animated_page_the_same_on_every_run(browser, tmp_path):
    import asyncio
    import hashlib

    from iwrbench.browser.settle import run_clock, screenshot

    site = _site(tmp_path, _ANIMATED)
    seen = []
    with StaticServer({"/": site}) as s:
        for run in range(3):
            async with _clock_page(browser, s, freeze_time="2026-03-01T12:00:00Z") as (page, tr):
                if run == 1:
                    await asyncio.sleep(0.4)  # real time passing must not move the page
                assert (await settle(page, tr, quiet_ms=150, timeout_ms=3000)).settled  # settling waits in real time
                load = await run_clock(page, tr, quiet_ms=250, cap_ms=2000)
                first = hashlib.sha256(await screenshot(page)).hexdigest()
                await page.click("#b")  # Playwright's own waiting is not held up by the paused clock
                await settle(page, tr, quiet_ms=150, timeout_ms=3000, after_action=True)
                after = await run_clock(page, tr, quiet_ms=250, cap_ms=1500)
                seen.append((first, hashlib.sha256(await screenshot(page)).hexdigest(),
                             await page.inner_text("#d"), await page.inner_text("#w"), load, after))
    assert seen[0][:4] == seen[1][:4] == seen[2][:4], [x[:4] for x in seen]
    first, _, date, width, load, after = seen[0]
    assert date == "2026-03-01T12:00:01.000Z 0"  # the clock starts where the task says, performance.now at 0
    assert width == "200"  # the 1 s animation ran to its end within the 1.5 s window
    # the endless loop never lets a window pass quietly: stopped at the cap, and said so
    assert load.advanced_ms == 2000 and "animation-frame loop" in load.animating
    assert after.advanced_ms == 1500 and after.animating


async def test_virtual_clock_stops_as_soon_as_a_window_changes_nothing(browser, tmp_path):
    from iwrbench.browser.settle import run_clock

    # a notice that appears 300 ms after the click and leaves after 5 s: shown as a person saw it
    site = _site(tmp_path, """<button id="b">Save</button><p id="n"></p><script>
      document.getElementById('b').onclick = () => setTimeout(() => { n.textContent = 'Saved';
        setTimeout(() => n.textContent = '', 5000); }, 300);
    </script>""")
    with StaticServer({"/": site}) as s:
        async with _clock_page(browser, s) as (page, tr):
            load = await run_clock(page, tr, quiet_ms=250, cap_ms=3000)
            assert load.advanced_ms == 250 and not load.animating
            await page.click("#b")
            await settle(page, tr, quiet_ms=150, timeout_ms=3000, after_action=True)
            assert await page.inner_text("#n") == ""  # paused: the timer has not run in real time
            after = await run_clock(page, tr, quiet_ms=250, cap_ms=3000)
            assert await page.inner_text("#n") == "Saved"
            # 0-250 ms: nothing changed but a timeout is due; 250-500: the notice; 500-750: quiet, the next timeout far
            assert after.advanced_ms == 750 and not after.animating


async def test_after_an_action_on_the_virtual_clock_what_arrives_in_real_time_is_read(browser, tmp_path):
    """The judge's short real quiet period after an action (``Limits.action_quiet_ms``: the page's timers wait for
    the clock) still reads what reaches the page in real time: a render scheduled over a ``MessageChannel`` (as
    React's scheduler does), a long chain of promises, and a request's answer with a timer it starts, run by the
    clock."""
    from iwrbench.browser.settle import run_clock
    from iwrbench.judge.replay import Limits

    site = _site(tmp_path, """<button id="b">Go</button><p id="m"></p><p id="p"></p><p id="f"></p><script>
      const ch = new MessageChannel();
      ch.port1.onmessage = () => { m.textContent = 'rendered'; };
      document.getElementById('b').onclick = () => {
        ch.port2.postMessage(1);
        let q = Promise.resolve(0);
        for (let k = 0; k < 2000; k++) q = q.then(x => x + 1);
        q.then(x => { p.textContent = 'chain ' + x; });
        fetch('big.txt').then(r => r.text()).then(t => { setTimeout(() => { f.textContent = 'got ' + t.length; }, 200); });
      };
    </script>""")
    (tmp_path / "big.txt").write_text("x" * 2_000_000)
    quiet = Limits().action_quiet_ms
    assert quiet <= 250
    with StaticServer({"/": site}) as s:
        async with _clock_page(browser, s) as (page, tr):
            await run_clock(page, tr, quiet_ms=250, cap_ms=3000)
            await page.click("#b")
            rep = await settle(page, tr, quiet_ms=quiet, timeout_ms=4000, after_action=True)
            assert rep.settled
            await run_clock(page, tr, quiet_ms=250, cap_ms=1500)
            assert [await page.inner_text(x) for x in ("#m", "#p", "#f")] == ["rendered", "chain 2000", "got 2000000"]


async def test_idle_callbacks_work_alike_on_the_recorded_source_and_on_the_judged_page(browser, tmp_path):
    """A list rendered in idle callbacks while time remains: the recorder's clock (installed for the start date,
    running in real time) gives them the judge's idle period, so the source shows the whole list on both clocks
    (Playwright's clock alone gave no time remaining: the source was recorded empty)."""
    from iwrbench.browser.settle import run_clock, wait_timers

    site = _site(tmp_path, """<button id="go">Load</button><ul id="l"></ul><p id="out"></p><script>
      document.getElementById('go').onclick = () => { let i = 0;
        const work = (dl) => { while (i < 12 && dl.timeRemaining() > 1) {
            const li = document.createElement('li'); li.textContent = 'Item ' + (++i); l.appendChild(li); if (i % 3 === 0) break; }
          if (i < 12) requestIdleCallback(work); else out.textContent = '12 items loaded'; };
        requestIdleCallback(work); };
    </script>""")
    with StaticServer({"/": site}) as s:
        for clock in ("recorder", "judge"):
            kw = {"watch_timers": True, "freeze_time": "2026-01-01T00:00:00Z"} if clock == "recorder" else {"virtual_time": True}
            ctx, _ = await new_context(browser, (400, 260), allowed_origins={s.origin}, **kw)
            try:
                page = await ctx.new_page()
                tr = RequestTracker(page)
                await page.goto(s.url())
                await settle(page, tr)
                await page.click("#go")
                t = time.monotonic()
                await settle(page, tr, quiet_ms=150, timeout_ms=3000, after_action=True)
                if clock == "recorder":
                    await wait_timers(page, tr, since=t)
                else:
                    await run_clock(page, tr, quiet_ms=250, cap_ms=1500)
                assert await page.inner_text("#out") == "12 items loaded", clock
                assert await page.locator("li").count() == 12, clock
            finally:
                await ctx.close()


async def test_virtual_clock_waits_for_a_poller_that_changes_nothing_until_its_work_is_done(browser, tmp_path):
    """A framework that loads its templates by polling (an interval that checks for a download, touching nothing
    until it arrives, as Aria Templates' TodoMVC does) is still at work: a window in which a timer ran is not
    quiet, so the page is shown loaded, not as an empty frame."""
    from iwrbench.browser.settle import run_clock

    site = _site(tmp_path, """<div id="app"></div><script>
      let polls = 0;
      const h = setInterval(() => { if (++polls < 12) return;  // 12 x 100 ms of polling, then the render
        clearInterval(h); document.getElementById('app').textContent = 'Loaded'; }, 100);
    </script>""")
    with StaticServer({"/": site}) as s:
        async with _clock_page(browser, s) as (page, tr):
            load = await run_clock(page, tr, quiet_ms=250, cap_ms=3000)
            assert await page.inner_text("#app") == "Loaded"
            assert not load.animating and load.advanced_ms <= 1750


async def test_the_recorder_waits_for_what_the_judges_clock_runs_after_an_action(browser, tmp_path):
    """On a clock running in real time (the recorder's), a change a timer makes 600 ms after a click is waited
    for, as the judge's virtual clock runs it before showing the step; a timer due after the judge's 1.5 s is
    not waited for; an endless animation-frame loop is waited for up to 1.5 s after the action, and said."""
    import time

    from iwrbench.browser.settle import TIMERS_AFTER_ACTION_MS, wait_timers

    site = _site(tmp_path, """<button id="b">Add</button><button id="late">Later</button><button id="spin">Spin</button>
      <p id="n"></p><canvas id="c" width="40" height="10"></canvas><script>
      b.onclick = () => setTimeout(() => n.textContent = 'Added', 600);
      late.onclick = () => setTimeout(() => n.textContent = 'Much later', 4000);
      spin.onclick = () => { const g = c.getContext('2d'); let k = 0;
        const f = () => { g.fillRect(k++ % 40, 0, 1, 10); requestAnimationFrame(f); }; requestAnimationFrame(f); };
    </script>""")
    with StaticServer({"/": site}) as s:
        ctx, _ = await new_context(browser, (400, 260), allowed_origins={s.origin}, freeze_time="2026-01-01T00:00:00Z",
                                   watch_timers=True)
        try:
            page = await ctx.new_page()
            tr = RequestTracker(page)
            await page.goto(s.url())
            assert (await settle(page, tr, quiet_ms=150, timeout_ms=3000)).settled
            quiet = await wait_timers(page, tr, since=time.monotonic())
            assert quiet is not None and quiet.advanced_ms == 0  # nothing scheduled: one reading, no wait

            await page.click("#b")
            t = time.monotonic()
            await settle(page, tr, quiet_ms=150, timeout_ms=3000, after_action=True)
            assert await page.inner_text("#n") == ""  # DOM quiet came before the timer
            ck = await wait_timers(page, tr, since=t)
            assert await page.inner_text("#n") == "Added" and not ck.animating

            await page.click("#late")
            t = time.monotonic()
            await settle(page, tr, quiet_ms=150, timeout_ms=3000, after_action=True)
            ck = await wait_timers(page, tr, since=t)
            assert ck.advanced_ms == 0 and await page.inner_text("#n") == "Added"  # due after the judge's horizon

            await page.click("#spin")
            t = time.monotonic()
            await settle(page, tr, quiet_ms=150, timeout_ms=3000, after_action=True)
            ck = await wait_timers(page, tr, since=t)
            assert "animation-frame loop" in ck.animating
            assert (time.monotonic() - t) * 1000 >= TIMERS_AFTER_ACTION_MS
        finally:
            await ctx.close()


def _media_site(folder: Path) -> Path:
    """A page of what moves on the browser's own clock: an endless GIF (as an image and as a background), an
    SVG with an endless and a finite SMIL animation, a looping muted video, a smooth-scrolling link, and a
    list rendered in idle callbacks that work while time remains. (The GIF and the video are bench/animated's,
    made by bench/animated/make_media.py.)"""
    import shutil

    bench = Path(__file__).resolve().parents[2] / "bench" / "animated"
    shutil.copy(bench / "gif" / "site" / "busy.gif", folder / "busy.gif")
    shutil.copy(bench / "video" / "site" / "clip.webm", folder / "clip.webm")
    return _site(folder, """<style>body{margin:0} html{scroll-behavior:smooth} .bg{width:80px;height:40px;
      background:url(busy.gif)} #far{margin-top:1500px}</style>
      <img src="busy.gif" width="80" height="40"><div class="bg"></div>
      <video src="clip.webm" autoplay muted loop width="160" height="90"></video>
      <svg width="200" height="40"><circle cx="10" cy="20" r="9" fill="red"><animate attributeName="cx"
        values="10;190;10" dur="1.3s" repeatCount="indefinite"/></circle><rect y="32" width="0" height="6"
        fill="green"><animate attributeName="width" from="0" to="200" dur="0.8s" fill="freeze"/></rect></svg>
      <p><a id="go" href="#far">down</a> <button id="load">Load</button></p><ul id="list"></ul><p id="far">Far</p>
      <script>
      document.getElementById('load').onclick = () => { let i = 0; const list = document.getElementById('list');
        const work = (dl) => { while (i < 9 && dl.timeRemaining() > 1) { const li = document.createElement('li');
            li.textContent = 'Item ' + (++i); list.appendChild(li); if (i % 3 === 0) break; }
          if (i < 9) requestIdleCallback(work); };
        requestIdleCallback(work); };
      </script>""")


async def test_what_runs_on_the_browsers_own_clock_is_shown_the_same_on_every_run(browser, tmp_path):
    """GIFs, SMIL, videos and smooth scrolls do not follow the page's virtual clock: a screenshot holds them
    still by one rule (first frames, SMIL at a fixed document time), smooth scrolls jump, and idle callbacks
    run on the virtual clock with time to work in."""
    import asyncio
    import hashlib

    from iwrbench.browser.settle import run_clock, screenshot

    site = _media_site(tmp_path)
    seen = []
    with StaticServer({"/": site}) as s:
        for run in range(3):
            async with _clock_page(browser, s) as (page, tr):
                await settle(page, tr, quiet_ms=150, timeout_ms=3000)
                await page.wait_for_function("document.querySelector('video').readyState >= 2", timeout=5000)
                await asyncio.sleep(0.17 + 0.29 * run)  # real time passing must not change the picture
                await run_clock(page, tr, quiet_ms=250, cap_ms=1000)
                first = hashlib.sha256(await screenshot(page)).hexdigest()
                playing = await page.evaluate("!document.querySelector('video').paused")
                await page.click("#load")
                await run_clock(page, tr, quiet_ms=250, cap_ms=1500)
                items = await page.eval_on_selector_all("#list li", "els => els.map(e => e.textContent)")
                await page.click("#go")
                await asyncio.sleep(0.05)
                scrolled = await page.evaluate("scrollY")
                seen.append((first, hashlib.sha256(await screenshot(page)).hexdigest(), playing, items, scrolled))
    assert len({x[0] for x in seen}) == 1 and len({x[1] for x in seen}) == 1, "a screenshot differed between runs"
    first, _, playing, items, scrolled = seen[0]
    assert playing  # the video was held for the screenshot only, and plays on
    assert items == [f"Item {k}" for k in range(1, 10)]  # idle callbacks had time to work
    assert scrolled > 1000  # the smooth scroll jumped to where it ends


@contextlib.contextmanager
def _slow_server(files: dict[str, str], delay_s: float, slower: dict[str, float] | None = None):
    """A loopback server whose scripts (``*.js``) answer only after ``delay_s`` (those named in ``slower`` after
    their own delay): a network slower than a window of virtual time."""
    import time
    from http.server import BaseHTTPRequestHandler

    from loopback import serving

    class H(BaseHTTPRequestHandler):
        def do_GET(self):  # noqa: N802
            name = self.path.split("?")[0].lstrip("/") or "index.html"
            if name not in files:
                self.send_error(404)
                return
            if name.endswith(".js"):
                time.sleep((slower or {}).get(name, delay_s))
            body = files[name].encode()
            self.send_response(200)
            self.send_header("Content-Type", "text/javascript" if name.endswith(".js") else "text/html")
            self.send_header("Content-Length", str(len(body)))
            self.end_headers()
            self.wfile.write(body)

        def log_message(self, *a):
            pass

    with serving(H) as origin:
        yield origin


async def test_virtual_clock_waits_for_the_scripts_a_module_loader_inserts_from_its_timers(browser):
    """A module loader (RequireJS: Durandal's TodoMVC) inserts a script from a timer, polls every 50 ms until it has
    run, then inserts the next: the timers take a moment of real time, the scripts arrive in real time. The clock
    waits for what each window asked for (counted in the page, not from the network's events, which come late), so
    the page is shown rendered, and stops when it is quiet, not at its cap."""
    from iwrbench.browser.settle import run_clock

    chain = ["m1", "m2", "m3", "m4", "m5"]
    files = {"index.html": """<!doctype html><html><head></head><body><div id="app">Loading</div><script>
      const want = %s; let got = 0, asked = -1;
      window.define = () => { got++; };
      const poll = setInterval(() => {
        if (got === want.length) { clearInterval(poll); document.getElementById('app').textContent = 'Rendered'; return; }
        if (asked < got) { asked = got; setTimeout(() => { const s = document.createElement('script');
          s.src = want[got] + '.js'; document.head.appendChild(s); }, 4); }
      }, 50);
    </script></body></html>""" % (str(chain))}
    for m in chain:
        files[f"{m}.js"] = "define();"
    with _slow_server(files, 0.3) as origin:
        for _ in range(2):
            ctx, _ = await new_context(browser, (400, 260), allowed_origins={origin}, virtual_time=True)
            try:
                page = await ctx.new_page()
                tr = RequestTracker(page)
                await page.goto(origin + "/index.html")
                load = await run_clock(page, tr, quiet_ms=250, cap_ms=3000)
                assert await page.inner_text("#app") == "Rendered", load
                assert not load.animating and load.advanced_ms < 3000
            finally:
                await ctx.close()


async def test_virtual_clock_waits_for_a_load_that_never_comes_once_and_no_longer(browser):
    """A script that does not arrive (a server that hangs) costs one wait of ``settle_timeout_ms`` on a clock, not
    one per window: the page is judged as it is, at the clock's cap."""
    import time

    from iwrbench.browser.settle import run_clock

    files = {"index.html": """<!doctype html><html><head></head><body><div id="app">Loading</div><script>
      setInterval(() => { const s = document.createElement('script'); s.src = 'hang.js?' + Math.random();
        document.head.appendChild(s); }, 200);
    </script></body></html>""", "hang.js": ""}
    with _slow_server(files, 0.0, {"hang.js": 30.0}) as origin:
        ctx, _ = await new_context(browser, (400, 260), allowed_origins={origin}, virtual_time=True)
        try:
            page = await ctx.new_page()
            tr = RequestTracker(page)
            await page.goto(origin + "/index.html")
            t0 = time.monotonic()
            load = await run_clock(page, tr, quiet_ms=250, cap_ms=2000, settle_timeout_ms=1000)
            took = time.monotonic() - t0
            assert load.advanced_ms == 2000 and load.animating
            # one wait for the loads (1 s) and one for the network (1 s), not one per window (8 windows: 16 s)
            assert took < 6, took
        finally:
            await ctx.close()


def test_launcher_folders_of_killed_processes_are_swept_and_no_others(tmp_path):
    """A run killed before it could remove its browser's launcher folder leaves it in the temp folder; the next
    launch removes it, never one of a live process (this one's) or a folder not named by a process."""
    import os
    import subprocess

    from iwrbench.browser.core import _CAGE_PREFIX, _sweep_stale_cage_dirs

    gone = subprocess.Popen(["true"])
    gone.wait()
    dead = tmp_path / f"{_CAGE_PREFIX}{gone.pid}-k1ll3d"
    (dead / "root").mkdir(parents=True)
    (dead / "chromium").write_text("#!/bin/sh\n")
    live = tmp_path / f"{_CAGE_PREFIX}{os.getpid()}-alive"
    live.mkdir()
    other = tmp_path / f"{_CAGE_PREFIX}noprocess"
    other.mkdir()
    _sweep_stale_cage_dirs(tmp_path)
    assert not dead.exists() and live.is_dir() and other.is_dir()
