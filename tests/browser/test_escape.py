"""A judged page reaches nothing but its own origin, by any path.

Traps on 127.0.0.1 (an HTTP listener, a raw TCP listener, a UDP socket) hold a secret; a small
recorded task passes only when the page shows that secret. A pack of escape pages, each trying
one way out, is judged by the real judge: no trap may see a single packet, every page must fail,
and what was refused must be counted. Then: a page scanning loopback while another unit is
judged beside it, a page that eats memory outside V8's heap, and the proxy on its own.
"""

from __future__ import annotations

import asyncio
import secrets
import socket
import threading
import time
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path

import pytest

from iwrbench.browser import proxy as proxy_mod
from iwrbench.browser import server as server_mod
from iwrbench.browser.core import memory_cap
from iwrbench.browser.proxy import OriginProxy
from iwrbench.judge.replay import Limits
from iwrbench.record.recipe import load_recipe
from iwrbench.record.recorder import record
from iwrbench.runs.evaluate import EvalConfig, evaluate
from iwrbench.runs.rundir import RunDir

pytestmark = pytest.mark.browser

SECRET = "SECRET-" + secrets.token_hex(4).upper()

SITE = """<!doctype html><html><body><h1>Escape</h1><button id=show onclick="document.getElementById('out').textContent='%s'">Show</button>
<p id=out></p></body></html>""" % SECRET

RECIPE = f"""id: secret
source: {{site: ./site}}
viewport: {{width: 800, height: 600}}
actions:
  - type: Click
    target: '#show'
    description: "the 'Show' button"
    assert: "The secret appears under the button"
    checks:
      - {{kind: text_visible, text: "{SECRET}"}}
"""

LIMITS = Limits(action_s=5, page_s=25, load_s=5, settle_timeout_ms=1500, max_popups=5, max_navigations=10)


class Trap:
    """Listeners on 127.0.0.1 that a contained page can never reach; every packet is recorded."""

    def __init__(self) -> None:
        self.hits: list[tuple] = []
        outer = self

        class H(BaseHTTPRequestHandler):
            protocol_version = "HTTP/1.1"

            def log_message(self, *a):
                pass

            def do_GET(self):
                outer.hits.append(("http", self.command, self.path))
                n = int(self.headers.get("Content-Length") or 0)
                if n:
                    self.rfile.read(min(n, 1 << 16))
                path = self.path.split("?")[0]
                if path.endswith(".js"):
                    body, ctype = (f"try {{ document.getElementById('out').textContent = '{SECRET}' }} catch (e) {{}}"
                                   f"try {{ postMessage('{SECRET}') }} catch (e) {{}}"), "text/javascript"
                elif path.endswith(".css"):
                    body, ctype = f"#out::after {{ content: '{SECRET}' }}", "text/css"
                elif path.endswith("/events"):
                    body, ctype = f"data: {SECRET}\n\n", "text/event-stream"
                else:
                    body, ctype = f"<p>{SECRET}</p>", "text/html"
                data = body.encode()
                self.send_response(200)
                self.send_header("Content-Type", ctype)
                self.send_header("Content-Length", str(len(data)))
                self.send_header("Access-Control-Allow-Origin", "*")
                self.send_header("Access-Control-Allow-Headers", "*")
                self.end_headers()
                self.wfile.write(data)

            do_POST = do_OPTIONS = do_PUT = do_HEAD = do_GET

        self.httpd = ThreadingHTTPServer(("127.0.0.1", 0), H)
        self.httpd.daemon_threads = True
        threading.Thread(target=self.httpd.serve_forever, daemon=True).start()
        self.http_port = self.httpd.server_address[1]
        self.tcp = socket.socket()
        self.tcp.bind(("127.0.0.1", 0))
        self.tcp.listen(64)
        self.tcp_port = self.tcp.getsockname()[1]
        self.udp = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
        self.udp.bind(("127.0.0.1", 0))
        self.udp_port = self.udp.getsockname()[1]
        threading.Thread(target=self._tcp, daemon=True).start()
        threading.Thread(target=self._udp, daemon=True).start()

    def _tcp(self) -> None:
        while True:
            try:
                c, _ = self.tcp.accept()
            except OSError:
                return
            self.hits.append(("tcp", self.tcp_port))
            c.close()

    def _udp(self) -> None:
        while True:
            try:
                d, _ = self.udp.recvfrom(4096)
            except OSError:
                return
            self.hits.append(("udp", d[:8]))

    def close(self) -> None:
        self.httpd.shutdown()
        self.tcp.close()
        self.udp.close()


# Each page: (what it does, whether a refusal must be counted). {H}: the trap's HTTP origin,
# {HP}/{TCP}/{UDP}: its ports. ``show(x)`` writes x under the button. Pages that navigate do so on
# the click, so that the judge's check runs on wherever the page went.
PAGES: dict[str, tuple[str, bool]] = {
    "fetch-cors": ("<script>fetch('{H}/f').then(r => r.text()).then(show).catch(() => {})</script>", True),
    "fetch-no-cors": ("<script>fetch('{H}/f', {mode: 'no-cors'}).then(r => show(r.type)).catch(() => {})</script>", True),
    "fetch-localhost": ("<script>fetch('http://localhost:{HP}/f').then(r => r.text()).then(show).catch(() => {})</script>", True),
    "xhr": ("<script>const x = new XMLHttpRequest(); x.open('GET', '{H}/x'); x.onload = () => show(x.responseText); x.send()</script>", True),
    "img": ("<img src='{H}/i.png'><img srcset='{H}/i2.png 2x'>", True),
    "script": ("<script src='{H}/s.js'></script>", True),
    "css-link": ("<link rel=stylesheet href='{H}/s.css'>", True),
    "css-import": ("<style>@import url('{H}/i.css');</style>", True),
    "font": ("<style>@font-face { font-family: T; src: url('{H}/f.woff2'); } #out { font-family: T }</style>"
             "<script>document.fonts.load('16px T').catch(() => {}); show('x')</script>", True),
    "video-audio": ("<video src='{H}/v.mp4' autoplay muted></video><audio src='{H}/a.mp3' autoplay></audio>", True),
    "object-embed": ("<object data='{H}/o.html' width=200 height=50></object><embed src='{H}/e.html'>", True),
    "iframe": ("<iframe src='{H}/frame.html' width=300 height=60></iframe>", True),
    "nav-location": ("<script>document.getElementById('show').onclick = () => { location.href = '{H}/nav.html' }</script>", True),
    "nav-form-post": ("<form id=f action='{H}/form' method=post><input name=a value=b></form>"
                      "<script>document.getElementById('show').onclick = () => document.getElementById('f').submit()</script>", True),
    "nav-meta-refresh": ("<script>document.getElementById('show').onclick = () => { const m = document.createElement('meta');"
                         " m.httpEquiv = 'refresh'; m.content = '0;url={H}/meta.html'; document.head.appendChild(m) }</script>", True),
    "window-open": ("<script>document.getElementById('show').onclick = () => { const w = window.open('{H}/popup.html');"
                    " setTimeout(() => { try { show(w.document.body.innerText) } catch (e) {} }, 500) }</script>", True),
    "link-hints": ("<link rel=prefetch href='{H}/prefetch.html'><link rel=preconnect href='{H}'>"
                   "<link rel=dns-prefetch href='//trap.example'><link rel=preload as=fetch crossorigin href='{H}/preload'>", True),
    "speculation-prefetch": ("<script type=speculationrules>{\"prefetch\": [{\"source\": \"list\", \"urls\": [\"{H}/spec.html\"]}]}</script>"
                             "<script>document.getElementById('show').onclick = () => { location.href = '{H}/spec.html' }</script>", True),
    "speculation-prerender": ("<script type=speculationrules>{\"prerender\": [{\"source\": \"list\", \"urls\": [\"{H}/pre.html\"],"
                              " \"eagerness\": \"immediate\"}]}</script>"
                              "<script>document.getElementById('show').onclick = () => { location.href = '{H}/pre.html' }</script>", True),
    "worker": ("<script>const w = new Worker(URL.createObjectURL(new Blob([\"fetch('{H}/w').then(r => r.text()).then(t => postMessage(t))"
               ".catch(() => {}); try { importScripts('{H}/w.js') } catch (e) {}\"])));"
               " w.onmessage = (e) => show(e.data)</script>", True),
    "shared-worker": ("<script>const src = \"onconnect = (e) => { const p = e.ports[0];"
                      " fetch('{H}/sw-get').then(r => r.text()).then(t => p.postMessage(t)).catch(() => {});"
                      " fetch('{H}/sw-post', {method: 'POST', body: 'x'}).then(r => r.text()).then(t => p.postMessage(t)).catch(() => {}) }\";"
                      " const w = new SharedWorker(URL.createObjectURL(new Blob([src], {type: 'text/javascript'})));"
                      " w.port.onmessage = (e) => show(e.data)</script>", True),
    "blob-worker-websocket": ("<script>new Worker(URL.createObjectURL(new Blob([\"for (const u of ['ws://127.0.0.1:{TCP}/a',"
                              " 'ws://127.0.0.1:{HP}/b']) { try { const s = new WebSocket(u); s.onmessage = (e) => postMessage(e.data) }"
                              " catch (e) {} }\"]))).onmessage = (e) => show(e.data)</script>", True),
    "data-worker-websocket": ("<script>try { new Worker('data:text/javascript,' + encodeURIComponent("
                              "\"try { new WebSocket('ws://127.0.0.1:{TCP}/d') } catch (e) {}\")) } catch (e) {}</script>", True),
    "websocket": ("<script>try { const s = new WebSocket('ws://127.0.0.1:{TCP}/m'); s.onmessage = (e) => show(e.data) } catch (e) {}"
                  " try { new WebSocket('ws://127.0.0.1:{HP}/m') } catch (e) {}</script>", True),
    "eventsource": ("<script>const es = new EventSource('{H}/events'); es.onmessage = (e) => show(e.data)</script>", True),
    "send-beacon": ("<script>navigator.sendBeacon('{H}/beacon', 'x');"
                    " document.getElementById('show').onclick = () => navigator.sendBeacon('{H}/beacon2', 'y')</script>", True),
    "keepalive-pagehide": ("<script>addEventListener('pagehide', () => { fetch('{H}/keepalive', {method: 'POST', body: 'x',"
                           " keepalive: true, mode: 'no-cors'}) });"
                           " document.getElementById('show').onclick = () => { location.href = '/other.html' }</script>", True),
    "webrtc-stun-udp": ("<script>const pc = new RTCPeerConnection({iceServers: [{urls: 'stun:127.0.0.1:{UDP}'},"
                        " {urls: 'turn:127.0.0.1:{UDP}?transport=udp', username: 'u', credential: 'p'}]});"
                        " pc.createDataChannel('x'); pc.createOffer().then(o => pc.setLocalDescription(o))</script>", False),
    "webrtc-turn-tcp": ("<script>const pc = new RTCPeerConnection({iceServers: [{urls: 'turn:127.0.0.1:{TCP}?transport=tcp',"
                        " username: 'u', credential: 'p'}], iceTransportPolicy: 'relay'});"
                        " pc.createDataChannel('x'); pc.createOffer().then(o => pc.setLocalDescription(o))</script>", True),
    "webtransport-udp": ("<script>try { new WebTransport('https://127.0.0.1:{UDP}/wt').ready.catch(() => {}) } catch (e) {}</script>", False),
    "service-worker": ("<script>if (navigator.serviceWorker) { navigator.serviceWorker.register('/sw.js').catch(() => {});"
                       " navigator.serviceWorker.register('{H}/sw.js').catch(() => {}) }</script>", False),
}

PAGE = """<!doctype html><html><head><meta charset=utf-8></head><body><h1>Escape</h1>
<button id=show>Show</button><p id=out></p>
<script>function show(t) { document.getElementById('out').textContent = String(t).slice(0, 200) }</script>
{body}</body></html>"""

SW = "self.addEventListener('install', () => { fetch('{H}/from-sw').catch(() => {}) })"


@pytest.fixture(scope="module")
def secret_suite(tmp_path_factory) -> Path:
    root = tmp_path_factory.mktemp("secret")
    (root / "site").mkdir()
    (root / "site" / "index.html").write_text(SITE)
    (root / "secret.yaml").write_text(RECIPE)
    record(load_recipe(root / "secret.yaml"), root / "suite" / "secret")
    return root / "suite"


@pytest.fixture(scope="module")
def trap():
    t = Trap()
    yield t
    t.close()


def _fill(text: str, trap: Trap) -> str:
    for k, v in {"{H}": f"http://127.0.0.1:{trap.http_port}", "{HP}": str(trap.http_port),
                 "{TCP}": str(trap.tcp_port), "{UDP}": str(trap.udp_port)}.items():
        text = text.replace(k, v)
    return text


@pytest.fixture(scope="module")
def judged_pack(secret_suite, trap, tmp_path_factory):
    root = tmp_path_factory.mktemp("escape")
    models = []
    for name, (body, _) in PAGES.items():
        d = root / "pages" / name / "secret"
        d.mkdir(parents=True)
        html = PAGE.replace("{body}", _fill(body, trap))
        assert SECRET not in html
        (d / "index.html").write_text(html)
        (d / "other.html").write_text("<!doctype html><p>other page</p>")
        (d / "sw.js").write_text(_fill(SW, trap))
        models.append(f"replay:{d.parent}")
    evaluate(EvalConfig(tasks=secret_suite, models=models, out=root / "run", limits=LIMITS, workers=2))
    time.sleep(0.5)  # let a late keepalive or beacon land on the trap, if one could
    results = {r.model.split("/pages/")[-1]: r for r in RunDir(root / "run").results().values()}
    return results


def test_the_task_passes_only_with_the_secret(secret_suite, tmp_path):
    """The trap's content is what makes the step pass: the recorded site itself scores 100."""
    page = tmp_path / "pages" / "secret"
    page.mkdir(parents=True)
    (page / "index.html").write_text(SITE)
    evaluate(EvalConfig(tasks=secret_suite, models=[f"replay:{page.parent}"], out=tmp_path / "run", limits=LIMITS))
    (r,) = RunDir(tmp_path / "run").results().values()
    assert r.status == "ok" and r.ifs == 100, (r.status, r.error, r.steps)


def test_no_escape_page_reaches_a_trap(judged_pack, trap):
    assert set(judged_pack) == set(PAGES)
    assert trap.hits == [], f"packets reached the trap: {trap.hits}"


@pytest.mark.parametrize("name", list(PAGES))
def test_escape_page_fails_and_is_counted(judged_pack, name):
    r = judged_pack[name]
    assert r.status in ("ok", "page_error"), (r.status, r.error)
    assert r.ifs == 0, f"{name} passed its step: {r.steps}"
    if PAGES[name][1]:
        assert r.blocked_requests >= 1, f"{name}: nothing was counted as refused"


def test_navigating_pages_fail_as_having_left_their_origin(judged_pack):
    for name in ("nav-location", "nav-form-post", "nav-meta-refresh", "speculation-prefetch", "speculation-prerender"):
        r = judged_pack[name]
        step = r.steps[0]
        assert step.executed and not step.passed, (name, step)
        assert "left its origin" in (step.error or "") or "left its origin" in (r.error or ""), (name, step.error, r.error)


# -- a scanner beside a victim ----------------------------------------------------------------------

VICTIM = """<!doctype html><html><body><h1>Escape</h1><button id=show>Show</button><p id=out></p><span id=t></span>
<script>let n = 0; setInterval(() => { document.getElementById('t').textContent = n++ }, 40);
setInterval(() => fetch('/victim-alive?' + Date.now()).catch(() => {}), 150);</script></body></html>"""

SCANNER = """<!doctype html><html><body><h1>Escape</h1><button id=show>Show</button><p id=out></p><span id=t></span>
<script>let n = 0; setInterval(() => { document.getElementById('t').textContent = n++ }, 40);
const swSrc = "onconnect = (e) => { const p = e.ports[0]; p.onmessage = (m) => { for (const u of m.data)"
  + " fetch(u, {mode: 'no-cors'}).then(() => p.postMessage(u)).catch(() => {}) } }";
const sw = new SharedWorker(URL.createObjectURL(new Blob([swSrc], {type: 'text/javascript'})));
sw.port.onmessage = (e) => { document.getElementById('out').textContent = 'found ' + e.data };
let round = 0;
async function scan() {
  let ports = [];
  try { const r = await fetch('/targets.json?' + Date.now()); if (r.ok) ports = await r.json(); } catch (e) {}
  if (ports.length) {
    const base = ports[0], urls = [];
    for (let p = base - 12; p <= base + 12; p++) {
      const u = 'http://127.0.0.1:' + p + '/__scan__/' + round;
      urls.push(u);
      fetch(u).then(r => r.text()).then(t => { document.getElementById('out').textContent = t }).catch(() => {});
      new Image().src = u + '/img';
      try { new WebSocket('ws://127.0.0.1:' + p + '/__scan__/ws') } catch (e) {}
    }
    sw.port.postMessage(urls);
    round++;
    fetch('/scan-progress?' + round).catch(() => {});
  }
  setTimeout(scan, 100);
}
scan();</script></body></html>"""


def test_a_scanner_never_reaches_a_unit_judged_beside_it(secret_suite, tmp_path, monkeypatch):
    log: list[tuple[int, str, float]] = []
    scan_dir = tmp_path / "scanner" / "secret"
    victim_dir = tmp_path / "victim" / "secret"
    for d, html in ((scan_dir, SCANNER), (victim_dir, VICTIM)):
        d.mkdir(parents=True)
        (d / "index.html").write_text(html)
    original = server_mod._Handler.parse_request

    victim: list[int] = []

    def spy(self):  # every request any judged page's own server receives, with its port
        ok = original(self)
        if ok:
            port = self.server.server_address[1]
            log.append((port, self.path, time.monotonic()))
            if self.path.startswith("/victim-alive") and not victim:
                victim.append(port)
            if self.path.startswith("/targets.json") and victim:  # tell the scanner where to look
                root = next(m.root for prefix, _, m in self.server.mounts if prefix == "/")
                (root / "targets.json").write_text(f"[{victim[0]}]")
        return ok

    monkeypatch.setattr(server_mod._Handler, "parse_request", spy)
    limits = Limits(action_s=8, page_s=40, load_s=5, settle_timeout_ms=4000)
    evaluate(EvalConfig(tasks=secret_suite, models=[f"replay:{victim_dir.parent}", f"replay:{scan_dir.parent}"],
                        out=tmp_path / "run", limits=limits, workers=2))
    results = {r.model: r for r in RunDir(tmp_path / "run").results().values()}
    victim_port = next(p for p, path, _ in log if path.startswith("/victim-alive"))
    on_victim = [(path, t) for p, path, t in log if p == victim_port]
    alive = [t for path, t in on_victim if path.startswith("/victim-alive")]
    scanning = [t for _, path, t in log if path.startswith("/scan-progress")]
    # the scanner was probing while the victim was being judged ...
    assert any(alive[0] <= t <= alive[-1] for t in scanning), "the two units did not overlap; the test proves nothing"
    # ... and not one of its requests reached the victim's server
    assert [path for path, _ in on_victim if "__scan__" in path] == []
    assert all(p != victim_port for p, path, _ in log if "__scan__" in path)
    scanner = results[f"replay:{scan_dir.parent}"]
    assert scanner.blocked_requests >= 25 and scanner.ifs == 0


# -- memory outside V8's heap -------------------------------------------------------------------------

HOG = """<!doctype html><html><body><h1>Escape</h1><button id=show>Show</button><p id=out></p><script>
const bufs = []; let i = 0;
(function grab() { if (i >= 24) return; const b = new ArrayBuffer(256 * 1024 * 1024); new Uint8Array(b).fill(i + 1);
  bufs.push(b); i++; document.getElementById('out').textContent = i * 256 + ' MiB'; setTimeout(grab, 0) })();
</script></body></html>"""


def test_a_page_eating_array_buffers_is_the_pages_error(secret_suite, tmp_path, monkeypatch):
    monkeypatch.setenv("IWR_BROWSER_MEMORY_MB", "1024")  # the default cap works the same, only slower to fill
    cap = memory_cap()
    hog = tmp_path / "hog" / "secret"
    fine = tmp_path / "fine" / "secret"
    hog.mkdir(parents=True)
    fine.mkdir(parents=True)
    (hog / "index.html").write_text(HOG)
    (fine / "index.html").write_text(SITE)
    limits = Limits(action_s=20, page_s=90, load_s=20, settle_timeout_ms=1500)
    evaluate(EvalConfig(tasks=secret_suite, models=[f"replay:{hog.parent}", f"replay:{fine.parent}"],
                        out=tmp_path / "run", limits=limits, workers=2))
    results = {r.model: r for r in RunDir(tmp_path / "run").results().values()}
    r = results[f"replay:{hog.parent}"]
    assert r.ifs == 0
    if cap.kind == "cgroup":  # the whole browser is capped: the kernel kills the hungriest renderer
        assert r.status == "page_error" and "crashed" in (r.error or ""), (r.status, r.error)
    else:  # RLIMIT_DATA: the renderer's allocations fail instead
        assert cap.kind == "rlimit" and r.status in ("ok", "page_error")
    ok = results[f"replay:{fine.parent}"]  # the judge and the other unit carry on
    assert ok.status == "ok" and ok.ifs == 100, (ok.status, ok.error)


# -- the proxy on its own -------------------------------------------------------------------------------


class Origin:
    """An allowed upstream: answers HTTP with its path, and echoes raw bytes after a 'RAW' line."""

    def __init__(self) -> None:
        self.requests: list[bytes] = []
        self.sock = socket.socket()
        self.sock.bind(("127.0.0.1", 0))
        self.sock.listen(16)
        self.port = self.sock.getsockname()[1]
        threading.Thread(target=self._loop, daemon=True).start()

    def _loop(self) -> None:
        while True:
            try:
                c, _ = self.sock.accept()
            except OSError:
                return
            threading.Thread(target=self._one, args=(c,), daemon=True).start()

    def _one(self, c: socket.socket) -> None:
        with c:
            c.settimeout(5)
            buf = b""
            while b"\r\n\r\n" not in buf and b"RAW\n" not in buf:
                d = c.recv(4096)
                if not d:
                    return
                buf += d
            self.requests.append(buf)
            if buf.startswith(b"RAW\n"):
                c.sendall(b"echo:" + buf[4:])
                while (d := c.recv(4096)):
                    c.sendall(b"echo:" + d)
                return
            path = buf.split(b" ")[1]
            c.sendall(b"HTTP/1.1 200 OK\r\nContent-Length: %d\r\nConnection: keep-alive\r\n\r\n%s" % (len(path), path))

    def close(self) -> None:
        self.sock.close()


def _ask(port: int, data: bytes, *, read_all: bool = True, timeout: float = 5) -> bytes:
    with socket.create_connection(("127.0.0.1", port), timeout=timeout) as s:
        s.sendall(data)
        out = b""
        try:
            while True:
                d = s.recv(65536)
                if not d:
                    break
                out += d
                if not read_all:
                    break
        except (socket.timeout, ConnectionResetError):
            pass
        return out


@pytest.fixture
def upstream():
    o = Origin()
    yield o
    o.close()


def test_proxy_forwards_only_its_origins(upstream):
    allowed = f"http://127.0.0.1:{upstream.port}"
    with OriginProxy({allowed}) as px:
        got = _ask(px.port, f"GET {allowed}/hello?x=1 HTTP/1.1\r\nHost: 127.0.0.1:{upstream.port}\r\n"
                            "Proxy-Connection: keep-alive\r\nProxy-Authorization: Basic eA==\r\n\r\n".encode())
        assert got.startswith(b"HTTP/1.1 200") and got.endswith(b"/hello?x=1") and b"Connection: close" in got
        sent = upstream.requests[-1]
        assert sent.startswith(b"GET /hello?x=1 HTTP/1.1\r\n") and b"Proxy-" not in sent and b"Connection: close" in sent
        # a tunnel (how Chromium carries every WebSocket) to the same host:port
        with socket.create_connection(("127.0.0.1", px.port), timeout=5) as s:
            s.sendall(f"CONNECT 127.0.0.1:{upstream.port} HTTP/1.1\r\nHost: 127.0.0.1:{upstream.port}\r\n\r\n".encode())
            assert s.recv(4096).startswith(b"HTTP/1.1 200")
            s.sendall(b"RAW\nping")
            assert s.recv(4096) == b"echo:ping"
        n = len(upstream.requests)
        for req in (f"GET http://127.0.0.1:{upstream.port + 1}/ HTTP/1.1\r\n\r\n",  # another port
                    f"GET http://localhost:{upstream.port}/ HTTP/1.1\r\n\r\n",  # another name for the same socket
                    f"GET https://127.0.0.1:{upstream.port}/ HTTP/1.1\r\n\r\n",  # another scheme
                    f"CONNECT 127.0.0.1:{upstream.port + 1} HTTP/1.1\r\n\r\n",
                    "CONNECT 127.0.0.2:443 HTTP/1.1\r\n\r\n",
                    f"GET http://user@127.0.0.1:{upstream.port}/ HTTP/1.1\r\n\r\n"):
            assert _ask(px.port, req.encode()).split(b"\r\n")[0] in (b"HTTP/1.1 403 Forbidden", b"HTTP/1.1 400 Bad Request"), req
        assert len(upstream.requests) == n  # nothing of it reached the upstream
        assert px.refused[f"127.0.0.1:{upstream.port + 1}"] == 2
        assert px.refused[f"localhost:{upstream.port}"] == 1 and px.refused["127.0.0.2"] == 1
        assert px.forwarded == 2


def test_proxy_never_resolves_a_refused_host(monkeypatch):
    asked: list[str] = []
    real = socket.getaddrinfo

    def spy(host, *a, **k):
        asked.append(str(host))
        return real(host, *a, **k)

    monkeypatch.setattr(socket, "getaddrinfo", spy)
    monkeypatch.setattr(proxy_mod.socket, "getaddrinfo", spy)
    with OriginProxy({"http://127.0.0.1:9"}) as px:
        for req in ("GET http://never-resolve.example/x HTTP/1.1\r\n\r\n", "CONNECT never-resolve.example:443 HTTP/1.1\r\n\r\n",
                    "GET http://never-resolve.example:9/ HTTP/1.1\r\n\r\n"):
            assert _ask(px.port, req.encode()).startswith(b"HTTP/1.1 403")
        assert px.refused == {"never-resolve.example": 2, "never-resolve.example:9": 1}
    assert not any("never-resolve" in h for h in asked), asked


def test_proxy_survives_garbage(upstream):
    allowed = f"http://127.0.0.1:{upstream.port}"
    with OriginProxy({allowed}, head_timeout_s=1.0, head_limit=8192) as px:
        assert _ask(px.port, b"GET http://127.0.0.1:1/\x00 HTTP/1.1\r\n\r\n").startswith(b"HTTP/1.1 400")
        assert _ask(px.port, b"\x00\x01\x02\xff" * 100 + b"\r\n\r\n").startswith(b"HTTP/1.1 400")
        assert _ask(px.port, b"GET " + allowed.encode() + b"/ HTTP/1.1\r\nX: " + b"a" * 20000 + b"\r\n\r\n").startswith(b"HTTP/1.1 431")
        assert _ask(px.port, b"GET " + allowed.encode() + b"/ HTTP/1.1\r\nno colon here\r\n\r\n").startswith(b"HTTP/1.1 400")
        assert _ask(px.port, b"CONNECT nonsense HTTP/1.1\r\n\r\n").startswith(b"HTTP/1.1 400")
        # slowloris: a head that never ends is cut after head_timeout_s
        slow = [socket.create_connection(("127.0.0.1", px.port), timeout=5) for _ in range(20)]
        for s in slow:
            s.sendall(b"GET " + allowed.encode() + b"/ HTTP/1.1\r\nX-a: 1\r\n")
        for s in slow:
            assert s.recv(4096).startswith(b"HTTP/1.1 408")
            s.close()
        # a client that connects and leaves at once, and one that sends half a request line
        socket.create_connection(("127.0.0.1", px.port)).close()
        _ask(px.port, b"GE", timeout=2)
        # and after all that it still works
        assert _ask(px.port, f"GET {allowed}/still HTTP/1.1\r\n\r\n".encode()).endswith(b"/still")
        assert px.forwarded == 1 and upstream.requests[-1].startswith(b"GET /still ")


def test_proxy_stop_cuts_open_tunnels(upstream):
    px = OriginProxy({f"http://127.0.0.1:{upstream.port}"}).start()
    s = socket.create_connection(("127.0.0.1", px.port), timeout=5)
    s.sendall(f"CONNECT 127.0.0.1:{upstream.port} HTTP/1.1\r\n\r\n".encode())
    assert s.recv(4096).startswith(b"HTTP/1.1 200")
    px.stop()
    px.stop()  # twice is fine
    assert s.recv(4096) == b""  # closed by the proxy
    s.close()
    with pytest.raises(OSError):
        socket.create_connection(("127.0.0.1", px.port), timeout=2).close()


async def test_context_proxy_stops_with_its_context(browser, tmp_path):
    from iwrbench.browser.core import new_context
    from iwrbench.browser.server import StaticServer

    (tmp_path / "index.html").write_text("<p>hi</p>")
    with StaticServer({"/": tmp_path}) as s:
        ctx, net = await new_context(browser, (640, 480), allowed_origins={s.origin})
        page = await ctx.new_page()
        await page.goto(s.url("index.html"))
        assert net.proxy is not None and net.proxy.running and net.proxy.forwarded >= 1
        await ctx.close()
        for _ in range(50):
            if not net.proxy.running:
                break
            await asyncio.sleep(0.05)
        assert not net.proxy.running


async def test_off_origin_names_where_the_page_went(browser, tmp_path, trap):
    from iwrbench.browser.core import new_context, off_origin
    from iwrbench.browser.server import StaticServer

    (tmp_path / "index.html").write_text("<p>home</p>")
    with StaticServer({"/": tmp_path}) as s:
        ctx, net = await new_context(browser, (640, 480), allowed_origins={s.origin})
        page = await ctx.new_page()
        await page.goto(s.url("index.html"))
        assert await off_origin(page, {s.origin}) is None
        # a blob: document made by the page itself is its own
        await page.evaluate("() => { location.href = URL.createObjectURL(new Blob(['<p>blob</p>'], {type: 'text/html'})) }")
        await page.wait_for_url("blob:**")
        assert await off_origin(page, {s.origin}) is None
        await page.goto("about:blank")
        assert await off_origin(page, {s.origin}) is None
        # a refused navigation leaves the page on an error page or the proxy's 403: elsewhere, and named
        away = f"http://127.0.0.1:{trap.http_port}/away.html"
        await page.goto(s.url("index.html"))
        await page.evaluate(f"() => {{ location.href = '{away}' }}")
        for _ in range(100):
            if await off_origin(page, {s.origin}):
                break
            await asyncio.sleep(0.05)
        where = await off_origin(page, {s.origin})
        assert where is not None and (where == away or where.startswith("chrome-error:")), where
        await ctx.close()
    assert net.blocked_total >= 1 and trap.hits == []
