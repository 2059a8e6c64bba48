"""A tiny static HTTP server on 127.0.0.1 for one page (and the task's assets).

Pages are always served over HTTP on loopback, never ``file://``: relative and absolute paths,
fetch() and module scripts then behave as on a real site. One server per judged page keeps
pages apart (separate origins, no shared storage).

The page asking is a stranger: a path resolving outside its folder (``..``, a symlink out, a
loop) is 404; a NUL byte, bad percent-encoding (not UTF-8) or a bad Content-Length is 400; a
request target over ``limits.MAX_URL_CHARS`` or a path segment over
``limits.MAX_PATH_SEGMENT_BYTES`` is 414 (over-long request lines and headers are refused by
the standard library's parser with 414/431). Nothing a request does prints a traceback.
"""

from __future__ import annotations

import mimetypes
import posixpath
import threading
from http import HTTPStatus
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from urllib.parse import unquote, urlsplit

from .. import limits

mimetypes.add_type("text/javascript", ".mjs")
mimetypes.add_type("text/javascript", ".js")
mimetypes.add_type("image/svg+xml", ".svg")
mimetypes.add_type("font/woff2", ".woff2")
mimetypes.add_type("font/woff", ".woff")
mimetypes.add_type("application/wasm", ".wasm")
mimetypes.add_type("application/json", ".json")


class _Handler(BaseHTTPRequestHandler):
    server: "_Server"
    protocol_version = "HTTP/1.1"

    def log_message(self, *args) -> None:  # quiet
        pass

    def _target(self) -> tuple[str | None, HTTPStatus]:
        """The decoded, normalised path of the request, or (None, the status refusing it)."""
        if len(self.path) > limits.MAX_URL_CHARS:
            return None, HTTPStatus.REQUEST_URI_TOO_LONG
        try:
            path = unquote(urlsplit(self.path).path, errors="strict")
        except (UnicodeDecodeError, ValueError):
            return None, HTTPStatus.BAD_REQUEST
        if "\x00" in path:
            return None, HTTPStatus.BAD_REQUEST
        if any(len(seg.encode("utf-8", "surrogatepass")) > limits.MAX_PATH_SEGMENT_BYTES for seg in path.split("/")):
            return None, HTTPStatus.REQUEST_URI_TOO_LONG
        path = posixpath.normpath(path)
        return (path if path.startswith("/") else "/" + path), HTTPStatus.OK

    def _resolve(self, path: str) -> Path | None:
        for prefix, root in self.server.mounts:
            if path == prefix.rstrip("/") or path.startswith(prefix):
                rel = path[len(prefix):].lstrip("/")
                try:
                    base = root.resolve()
                    cand = (base / rel).resolve()
                    if cand != base and base not in cand.parents:
                        return None
                    if cand.is_dir():
                        cand = cand / "index.html"
                    return cand if cand.is_file() else None
                except (OSError, RuntimeError, ValueError):  # too long, a symlink loop, ...
                    return None
        return None

    def _plain(self, status: HTTPStatus, body: bytes, head_only: bool) -> None:
        self.send_response(status)
        self.send_header("Content-Type", "text/plain")
        self.send_header("Content-Length", str(len(body)))
        if status >= 400 and status != HTTPStatus.NOT_FOUND:
            self.send_header("Connection", "close")
            self.close_connection = True
        self.end_headers()
        if not head_only:
            self.wfile.write(body)

    def _send(self, head_only: bool) -> None:
        self.server.requests += 1
        path, status = self._target()
        if path is None:
            self.server.refused += 1
            self._plain(status, status.phrase.lower().encode(), head_only)
            return
        f = self._resolve(path)
        data = None
        if f is not None:
            try:
                data = f.read_bytes()
            except OSError:
                data = None
        if data is None:
            if len(self.server.missing) < 1000:
                self.server.missing.append(urlsplit(self.path).path[:300])
            self._plain(HTTPStatus.NOT_FOUND, b"not found", head_only)
            return
        ctype = mimetypes.guess_type(f.name)[0] or "application/octet-stream"
        if ctype.startswith("text/") or ctype in ("application/json", "text/javascript"):
            ctype += "; charset=utf-8"
        self.send_response(HTTPStatus.OK)
        self.send_header("Content-Type", ctype)
        self.send_header("Content-Length", str(len(data)))
        self.send_header("Cache-Control", "no-store")
        self.end_headers()
        if not head_only:
            try:
                self.wfile.write(data)
            except (BrokenPipeError, ConnectionResetError):
                pass

    def do_GET(self) -> None:  # noqa: N802
        self._send(False)

    def do_HEAD(self) -> None:  # noqa: N802
        self._send(True)

    def do_POST(self) -> None:  # noqa: N802  (static sites: answer like GET, drain the body)
        try:
            n = int(self.headers.get("Content-Length") or 0)
            if n < 0:
                raise ValueError
        except ValueError:
            self.server.refused += 1
            self._plain(HTTPStatus.BAD_REQUEST, b"bad request", False)
            return
        if n > limits.MAX_REQUEST_BODY_BYTES:
            self.server.refused += 1
            self._plain(HTTPStatus.REQUEST_ENTITY_TOO_LARGE, b"request entity too large", False)
            return
        if n:
            self.rfile.read(n)
        self._send(False)


class _Server(ThreadingHTTPServer):
    daemon_threads = True
    allow_reuse_address = True

    def __init__(self, mounts: list[tuple[str, Path]]):
        super().__init__(("127.0.0.1", 0), _Handler)
        # longest prefix first
        self.mounts = sorted(mounts, key=lambda m: -len(m[0]))
        self.requests = 0
        self.refused = 0  # requests answered 400/413/414 (or dropped by an error of ours)
        self.missing: list[str] = []

    def handle_error(self, request, client_address) -> None:  # noqa: ANN001
        """A request that broke the handler is dropped quietly (no traceback on our stderr)."""
        self.refused += 1


class StaticServer:
    """Serve folders under URL prefixes on 127.0.0.1 (a free port), in a background thread.

    >>> with StaticServer({"/": site, "/__iwr_assets__/": assets}) as s: s.url("index.html")
    """

    def __init__(self, mounts: dict[str, Path | str]):
        norm = []
        for prefix, root in mounts.items():
            prefix = "/" + prefix.strip("/") + "/" if prefix.strip("/") else "/"
            norm.append((prefix, Path(root)))
        self._server = _Server(norm)
        self._thread = threading.Thread(target=self._server.serve_forever, daemon=True, name="iwr-static")

    @property
    def port(self) -> int:
        return self._server.server_address[1]

    @property
    def origin(self) -> str:
        return f"http://127.0.0.1:{self.port}"

    @property
    def missing(self) -> list[str]:
        return list(self._server.missing)

    def url(self, entry: str = "") -> str:
        return f"{self.origin}/{entry.lstrip('/')}"

    def start(self) -> "StaticServer":
        self._thread.start()
        return self

    def stop(self) -> None:
        self._server.shutdown()
        self._server.server_close()

    def __enter__(self) -> "StaticServer":
        return self.start()

    def __exit__(self, *exc) -> None:
        self.stop()
