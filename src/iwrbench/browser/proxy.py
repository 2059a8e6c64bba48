"""An allow-only HTTP forward proxy: the one door between a judged browser context and the network.

Why a proxy of our own, and not Playwright's request router alone: the router only sees what
Chromium hands to DevTools' Fetch domain, and a page has many ways around it (speculation-rules
prefetch and prerender, shared and dedicated workers, WebSockets opened from workers, keepalive
requests fired while the page unloads). A per-context proxy sits below all of them, in the
network service itself: every HTTP request and every tunnel of that context must pass through
it, whatever part of the browser made it. Playwright forces loopback through a per-context
proxy in Chromium, so the page's own 127.0.0.1 server is reached through it too, and no port
on this machine is exempt.

The rules are deliberately dumb, so that they can be read at a glance and checked by tests:
- an origin is allowed only as written (scheme, host and port compared as strings, after
  lower-casing and filling in the default port): no resolving, no "is it loopback?" guessing;
- a plain-HTTP request in absolute form is forwarded when its origin is allowed; a CONNECT
  (HTTPS, and every WebSocket, which Chromium always tunnels) when its host:port belongs to
  an allowed origin;
- everything else gets a 403 before any name is resolved or any socket opened, and is
  counted per host (what the judge reports as blocked requests);
- one request per client connection (``Connection: close`` both ways): then every request
  is seen and decided on its own, and a kept-alive connection can never carry a second request
  to a host nobody checked;
- the proxy is reachable by local processes too, so its parser assumes garbage: the request
  head is capped in size and in time (slowloris), control bytes are refused, connections are
  capped in number, and any error closes that one connection and nothing else.

Stdlib threads, one per connection: a judged page opens a few dozen connections at most, and
the proxy must not depend on the event loop of the judge (which may be blocked in a check).
"""

from __future__ import annotations

import re
import selectors
import socket
import threading
import time
from typing import Callable, Iterable
from urllib.parse import urlsplit

HEAD_LIMIT = 32 * 1024  # request or response head, bytes
HEAD_TIMEOUT_S = 10.0  # the whole request head must arrive within this
CONNECT_TIMEOUT_S = 10.0  # to an allowed upstream
IDLE_TIMEOUT_S = 300.0  # a forwarded connection or tunnel with no traffic either way
MAX_CONNECTIONS = 256
MAX_HEADERS = 200

_DEFAULT_PORT = {"http": 80, "https": 443, "ws": 80, "wss": 443}
_TOKEN = re.compile(r"^[!#$%&'*+.^_`|~0-9A-Za-z-]+$")
_BAD_BYTES = re.compile(r"[\x00-\x08\x0a-\x1f\x7f]")  # control bytes other than tab, once lines are split
_HOP = {"connection", "proxy-connection", "keep-alive", "proxy-authorization", "proxy-authenticate", "te",
        "trailer", "upgrade"}


class _Refuse(Exception):
    def __init__(self, status: int, reason: str, key: str | None = None):
        super().__init__(reason)
        self.status = status
        self.reason = reason
        self.key = key  # the host counted as refused (None: not a refusal of a host)


def _norm_host(host: str) -> str:
    host = host.strip().lower()
    if host.startswith("[") and host.endswith("]"):
        host = host[1:-1]
    return host


def _show(host: str, port: int, default: int | None) -> str:
    """host or host:port, as a URL's netloc writes it (the key blocked requests are counted under)."""
    h = f"[{host}]" if ":" in host else host
    return h if port == default else f"{h}:{port}"


def parse_origin(origin: str) -> tuple[str, str, int]:
    """(scheme, host, port) of an origin; ValueError when it is not one."""
    p = urlsplit(origin.strip())
    scheme = p.scheme.lower()
    if scheme not in ("http", "https") or not p.hostname or p.username is not None or p.password is not None:
        raise ValueError(f"not an http(s) origin: {origin!r}")
    port = p.port or _DEFAULT_PORT[scheme]
    return scheme, _norm_host(p.hostname), port


class OriginProxy:
    """Forward only to ``allowed_origins``; answer 403 to everything else and count it.

    >>> with OriginProxy({"http://127.0.0.1:8000"}) as px: px.url
    'http://127.0.0.1:...'
    """

    def __init__(self, allowed_origins: Iterable[str], *, on_refused: Callable[[str], None] | None = None,
                 head_limit: int = HEAD_LIMIT, head_timeout_s: float = HEAD_TIMEOUT_S,
                 idle_timeout_s: float = IDLE_TIMEOUT_S, max_connections: int = MAX_CONNECTIONS):
        self._http: set[tuple[str, int]] = set()  # absolute-form plain HTTP
        self._tunnel: set[tuple[str, int]] = set()  # CONNECT: https, ws and wss of an allowed origin
        for o in allowed_origins:
            scheme, host, port = parse_origin(o)
            if scheme == "http":
                self._http.add((host, port))
            self._tunnel.add((host, port))
        self.on_refused = on_refused
        self.head_limit = head_limit
        self.head_timeout_s = head_timeout_s
        self.idle_timeout_s = idle_timeout_s
        self.max_connections = max_connections
        self.refused: dict[str, int] = {}
        self.forwarded = 0
        self._lock = threading.Lock()
        self._live: set[socket.socket] = set()
        self._stopped = threading.Event()
        self._sock = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
        self._sock.bind(("127.0.0.1", 0))
        self._sock.listen(128)
        self._thread = threading.Thread(target=self._accept_loop, daemon=True, name="iwr-proxy")

    # -- lifecycle ---------------------------------------------------------------------------
    @property
    def port(self) -> int:
        return self._sock.getsockname()[1]

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.port}"

    def start(self) -> "OriginProxy":
        self._thread.start()
        return self

    def stop(self) -> None:
        """Stop listening and cut every connection still open; safe to call twice, from any thread."""
        if self._stopped.is_set():
            return
        self._stopped.set()
        for s in [self._sock, *self._snapshot()]:
            try:
                s.shutdown(socket.SHUT_RDWR)  # wakes a thread blocked in accept() or recv()
            except OSError:
                pass
            try:
                s.close()
            except OSError:
                pass

    @property
    def running(self) -> bool:
        return not self._stopped.is_set()

    def __enter__(self) -> "OriginProxy":
        return self.start()

    def __exit__(self, *exc) -> None:
        self.stop()

    def _snapshot(self) -> list[socket.socket]:
        with self._lock:
            return list(self._live)

    def _track(self, s: socket.socket) -> bool:
        with self._lock:
            if self._stopped.is_set():
                return False
            self._live.add(s)
            return True

    def _untrack(self, s: socket.socket) -> None:
        with self._lock:
            self._live.discard(s)
        try:
            s.close()
        except OSError:
            pass

    # -- accepting ---------------------------------------------------------------------------
    def _accept_loop(self) -> None:
        while not self._stopped.is_set():
            try:
                conn, _ = self._sock.accept()
            except OSError:
                if self._stopped.is_set():
                    return
                time.sleep(0.01)  # e.g. out of file descriptors: do not spin
                continue
            with self._lock:
                full = len(self._live) >= self.max_connections
            if full or not self._track(conn):
                conn.close()
                continue
            threading.Thread(target=self._serve, args=(conn,), daemon=True, name="iwr-proxy-conn").start()

    def _count(self, key: str) -> None:
        with self._lock:
            self.refused[key] = self.refused.get(key, 0) + 1
        if self.on_refused is not None:
            try:
                self.on_refused(key)
            except Exception:
                pass

    # -- one connection ----------------------------------------------------------------------
    def _serve(self, conn: socket.socket) -> None:
        upstream: socket.socket | None = None
        try:
            try:
                head, rest = self._read_head(conn, self.head_limit, time.monotonic() + self.head_timeout_s)
                method, target, version, headers = _parse_request(head)
                if method == "CONNECT":
                    host, port = _authority(target)
                    if (host, port) not in self._tunnel:
                        raise _Refuse(403, "not this page's origin", _show(host, port, 443))
                    upstream = self._connect(host, port)
                    conn.sendall(b"HTTP/1.1 200 Connection Established\r\n\r\n")
                else:
                    host, port, path = _absolute(target)
                    if (host, port) not in self._http:
                        raise _Refuse(403, "not this page's origin", _show(host, port, 80))
                    upstream = self._connect(host, port)
                    upstream.sendall(_request_head(method, path, version, headers, _show(host, port, 80)))
            except _Refuse as r:
                if r.key is not None:
                    self._count(r.key)
                elif r.status == 400:
                    self._count("(malformed request)")
                self._refuse(conn, r.status, r.reason)
                return
            with self._lock:
                self.forwarded += 1
            if rest:
                upstream.sendall(rest)
            if not self._track(upstream):
                return
            if method != "CONNECT" and not self._relay_response_head(upstream, conn):
                return
            self._pipe(conn, upstream)
        except OSError:
            pass
        finally:
            if upstream is not None:
                self._untrack(upstream)
            self._untrack(conn)

    def _read_head(self, s: socket.socket, limit: int, deadline: float) -> tuple[bytes, bytes]:
        buf = bytearray()
        while True:
            end = buf.find(b"\r\n\r\n")
            if end >= 0:
                if end + 4 > limit:
                    raise _Refuse(431, "request head too large")
                return bytes(buf[:end + 4]), bytes(buf[end + 4:])
            if len(buf) > limit:
                raise _Refuse(431, "request head too large")
            left = deadline - time.monotonic()
            if left <= 0:
                raise _Refuse(408, "request head too slow")
            s.settimeout(left)
            try:
                chunk = s.recv(8192)
            except socket.timeout:
                raise _Refuse(408, "request head too slow") from None
            if not chunk:
                raise OSError("client closed before a full request head")
            buf += chunk

    def _connect(self, host: str, port: int) -> socket.socket:
        try:
            up = socket.create_connection((host, port), timeout=CONNECT_TIMEOUT_S)
        except OSError as e:
            raise _Refuse(502, f"cannot reach the page's own server: {e.__class__.__name__}") from None
        up.settimeout(None)
        return up

    def _refuse(self, conn: socket.socket, status: int, reason: str) -> None:
        phrase = {400: "Bad Request", 403: "Forbidden", 408: "Request Timeout", 431: "Request Header Fields Too Large",
                  502: "Bad Gateway"}.get(status, "Error")
        body = f"iwrbench proxy: {reason}\n".encode()
        try:
            conn.settimeout(2)
            conn.sendall(f"HTTP/1.1 {status} {phrase}\r\nContent-Type: text/plain\r\nContent-Length: {len(body)}\r\n"
                         "Connection: close\r\nProxy-Connection: close\r\n\r\n".encode() + body)
            conn.shutdown(socket.SHUT_WR)
            # drain briefly so that a request body still arriving does not turn our answer into a reset
            end = time.monotonic() + 1.0
            got = 0
            while got < (1 << 20) and time.monotonic() < end:
                conn.settimeout(max(0.01, end - time.monotonic()))
                chunk = conn.recv(65536)
                if not chunk:
                    break
                got += len(chunk)
        except OSError:
            pass

    def _relay_response_head(self, up: socket.socket, conn: socket.socket) -> bool:
        """Pass the upstream's response head on with ``Connection: close`` (one request per connection)."""
        try:
            head, rest = self._read_head(up, 64 * 1024, time.monotonic() + self.idle_timeout_s)
        except _Refuse:
            self._refuse(conn, 502, "the page's own server sent a bad response head")
            return False
        except OSError:
            return False
        lines = head[:-4].split(b"\r\n")
        out = [lines[0]]
        for line in lines[1:]:
            name = line.split(b":", 1)[0].strip().lower()
            if name in (b"connection", b"proxy-connection", b"keep-alive"):
                continue
            out.append(line)
        out += [b"Connection: close", b"Proxy-Connection: close"]
        conn.sendall(b"\r\n".join(out) + b"\r\n\r\n" + rest)
        return True

    def _pipe(self, a: socket.socket, b: socket.socket) -> None:
        sel = selectors.DefaultSelector()
        try:
            a.setblocking(False)
            b.setblocking(False)
            sel.register(a, selectors.EVENT_READ, b)
            sel.register(b, selectors.EVENT_READ, a)
            while not self._stopped.is_set():
                events = sel.select(timeout=self.idle_timeout_s)
                if not events:
                    return  # idle too long
                for key, _ in events:
                    src, dst = key.fileobj, key.data
                    try:
                        data = src.recv(65536)
                    except (BlockingIOError, InterruptedError):
                        continue
                    if not data:
                        return
                    dst.setblocking(True)
                    dst.settimeout(self.idle_timeout_s)
                    try:
                        dst.sendall(data)
                    finally:
                        dst.setblocking(False)
        finally:
            sel.close()


def _parse_request(head: bytes) -> tuple[str, str, str, list[tuple[str, str]]]:
    text = head[:-4].decode("latin-1")
    lines = text.split("\r\n")
    if any(_BAD_BYTES.search(line) for line in lines):
        raise _Refuse(400, "control bytes in the request head")
    parts = lines[0].split(" ")
    if len(parts) != 3 or not _TOKEN.match(parts[0]) or parts[2] not in ("HTTP/1.1", "HTTP/1.0"):
        raise _Refuse(400, "not an HTTP/1.x request line")
    if len(lines) - 1 > MAX_HEADERS:
        raise _Refuse(431, "too many header lines")
    headers = []
    for line in lines[1:]:
        name, sep, value = line.partition(":")
        if not sep or not _TOKEN.match(name):
            raise _Refuse(400, "a malformed header line")
        headers.append((name, value.strip()))
    return parts[0], parts[1], parts[2], headers


def _authority(target: str) -> tuple[str, int]:
    """host, port of a CONNECT target (``host:port`` or ``[v6]:port``)."""
    host, sep, port = target.rpartition(":")
    if not sep or not host or not port.isdigit() or "/" in host or "@" in host:
        raise _Refuse(400, "a malformed CONNECT target")
    if ":" in host and not (host.startswith("[") and host.endswith("]")):
        raise _Refuse(400, "a malformed CONNECT target")
    n = int(port)
    if not 0 < n < 65536:
        raise _Refuse(400, "a malformed CONNECT target")
    return _norm_host(host), n


def _absolute(target: str) -> tuple[str, int, str]:
    """host, port, origin-form path of an absolute-form plain-HTTP request target."""
    if not target.lower().startswith("http://"):
        if "://" in target:
            scheme = target.split("://", 1)[0][:10].lower()
            raise _Refuse(403, f"{scheme}: is not forwarded", f"{scheme}:")
        raise _Refuse(400, "a proxy request needs an absolute http:// target")
    p = urlsplit(target)
    try:
        port = p.port or 80
    except ValueError:
        raise _Refuse(400, "a malformed port") from None
    if not p.hostname or "@" in p.netloc:
        raise _Refuse(400, "a malformed request target")
    path = p.path or "/"
    if p.query:
        path += "?" + p.query
    return _norm_host(p.hostname), port, path


def _request_head(method: str, path: str, version: str, headers: list[tuple[str, str]], authority: str) -> bytes:
    named = set()
    for name, value in headers:
        if name.lower() == "connection":
            named |= {t.strip().lower() for t in value.split(",")}
    lines = [f"{method} {path} {version}", f"Host: {authority}"]
    for name, value in headers:
        low = name.lower()
        if low in _HOP or low in named or low == "host":
            continue
        lines.append(f"{name}: {value}")
    lines.append("Connection: close")
    return ("\r\n".join(lines) + "\r\n\r\n").encode("latin-1")
