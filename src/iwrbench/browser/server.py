"""A tiny static HTTP server on 127.0.0.1 for one page (and the task's assets).

Pages are always served over HTTP on loopback, never ``file://``: relative and absolute paths,
fetch() and module scripts then behave as on a real site. One server per judged page keeps
pages apart (separate origins, no shared storage).
"""

from __future__ import annotations

import mimetypes
import posixpath
import threading
from http import HTTPStatus
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from urllib.parse import unquote, urlsplit

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

    def _resolve(self) -> Path | None:
        path = unquote(urlsplit(self.path).path)
        path = posixpath.normpath(path)
        if not path.startswith("/"):
            path = "/" + path
        for prefix, root in self.server.mounts:
            if path == prefix.rstrip("/") or path.startswith(prefix):
                rel = path[len(prefix):].lstrip("/")
                base = root.resolve()
                cand = (base / rel).resolve()
                if cand != base and base not in cand.parents:
                    return None
                if cand.is_dir():
                    cand = cand / "index.html"
                return cand if cand.is_file() else None
        return None

    def _send(self, head_only: bool) -> None:
        self.server.requests += 1
        f = self._resolve()
        if f is None:
            self.server.missing.append(urlsplit(self.path).path)
            body = b"not found"
            self.send_response(HTTPStatus.NOT_FOUND)
            self.send_header("Content-Type", "text/plain")
            self.send_header("Content-Length", str(len(body)))
            self.end_headers()
            if not head_only:
                self.wfile.write(body)
            return
        data = f.read_bytes()
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
        n = int(self.headers.get("Content-Length") or 0)
        if n:
            self.rfile.read(min(n, 1 << 20))
        self._send(False)


class _Server(ThreadingHTTPServer):
    daemon_threads = True
    allow_reuse_address = True

    def __init__(self, mounts: list[tuple[str, Path]]):
        super().__init__(("127.0.0.1", 0), _Handler)
        # longest prefix first
        self.mounts = sorted(mounts, key=lambda m: -len(m[0]))
        self.requests = 0
        self.missing: list[str] = []


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
