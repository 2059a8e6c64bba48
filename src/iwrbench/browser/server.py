"""A tiny static HTTP server on 127.0.0.1 for one page (and the task's assets).

Pages are always served over HTTP on loopback, never ``file://``: relative and absolute paths,
fetch() and module scripts then behave as on a real site. One server per judged page keeps
pages apart (separate origins, no shared storage).

The page asking is a stranger, and so is the folder served: a file is found from the mount's folder
(opened once, when the server starts) one component at a time with ``O_NOFOLLOW``
(``fileio.open_beneath``), so what is served is always beneath that folder, after every link and after
``index.html`` is added to a folder, and a folder swapped for a link meanwhile changes nothing. A
``Mount`` with ``links=False`` (the task's ``assets/``) serves no link at all; the page's own folder may
hold links that stay inside it. A path leaving its folder (``..``, a link out or to an absolute path, a
loop), or naming a FIFO, a device or a socket, is 404 (never opened). A NUL byte, bad percent-encoding
(not UTF-8) or a bad Content-Length is 400; a request target over ``limits.MAX_URL_CHARS`` or a path
segment over ``limits.MAX_PATH_SEGMENT_BYTES`` is 414 (over-long request lines and headers are refused by
the standard library's parser with 414/431). Nothing a request does prints a traceback.
"""

from __future__ import annotations

import mimetypes
import os
import posixpath
import threading
from dataclasses import dataclass
from http import HTTPStatus
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from urllib.parse import unquote, urlsplit

from .. import limits
from ..fileio import Opened, open_beneath, open_root

mimetypes.add_type("text/javascript", ".mjs")
mimetypes.add_type("text/javascript", ".js")
mimetypes.add_type("image/svg+xml", ".svg")
mimetypes.add_type("font/woff2", ".woff2")
mimetypes.add_type("font/woff", ".woff")
mimetypes.add_type("application/wasm", ".wasm")
mimetypes.add_type("application/json", ".json")


@dataclass(frozen=True)
class Mount:
    """A folder served under a URL prefix; ``links=False``: no symbolic link is followed, the folder's own name
    included."""

    root: Path
    links: bool = True


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

    def _open(self, path: str) -> Opened | None:
        """The file ``path`` names, opened beneath its mount, or None (404)."""
        for prefix, fd, mount in self.server.mounts:
            if path == prefix.rstrip("/") or path.startswith(prefix):
                if fd is None:
                    return None
                rel = path[len(prefix):].lstrip("/")
                try:
                    return open_beneath(fd, rel, links=mount.links, index="index.html")
                except (OSError, ValueError):  # outside, a link where none may be, a FIFO, a loop, missing ...
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
        opened = self._open(path)
        if opened is None:
            if len(self.server.missing) < 1000:
                self.server.missing.append(urlsplit(self.path).path[:300])
            self._plain(HTTPStatus.NOT_FOUND, b"not found", head_only)
            return
        fd, size = opened.fd, opened.stat.st_size
        try:
            ctype = mimetypes.guess_type(opened.path.rsplit("/", 1)[-1])[0] or "application/octet-stream"
            if ctype.startswith("text/") or ctype in ("application/json", "text/javascript"):
                ctype += "; charset=utf-8"
            self.send_response(HTTPStatus.OK)
            self.send_header("Content-Type", ctype)
            self.send_header("Content-Length", str(size))
            self.send_header("Cache-Control", "no-store")
            self.end_headers()
            if not head_only:
                self._copy(fd, size)
        finally:
            os.close(fd)

    def _copy(self, fd: int, size: int) -> None:
        """Send ``size`` bytes of ``fd`` in chunks (a file that shrank meanwhile ends the connection)."""
        left = size
        try:
            while left > 0:
                chunk = os.read(fd, min(left, 1 << 20))
                if not chunk:
                    self.close_connection = True
                    return
                self.wfile.write(chunk)
                left -= len(chunk)
        except (BrokenPipeError, ConnectionResetError):
            self.close_connection = True

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

    def __init__(self, mounts: list[tuple[str, Mount]]):
        super().__init__(("127.0.0.1", 0), _Handler)
        # longest prefix first; each folder opened now, and read beneath this descriptor from here on
        self.mounts: list[tuple[str, int | None, Mount]] = []
        for prefix, m in sorted(mounts, key=lambda m: -len(m[0])):
            try:
                fd: int | None = open_root(m.root, link=m.links)
            except OSError:  # a folder that is not there (or not a folder): everything under it is 404
                fd = None
            self.mounts.append((prefix, fd, m))
        self.requests = 0
        self.refused = 0  # requests answered 400/413/414 (or dropped by an error of ours)
        self.missing: list[str] = []

    def handle_error(self, request, client_address) -> None:  # noqa: ANN001
        """A request that broke the handler is dropped quietly (no traceback on our stderr)."""
        self.refused += 1

    def server_close(self) -> None:
        super().server_close()
        for _, fd, _ in self.mounts:
            if fd is not None:
                os.close(fd)
        self.mounts = []


class StaticServer:
    """Serve folders under URL prefixes on 127.0.0.1 (a free port), in a background thread.

    >>> with StaticServer({"/": site, "/__iwr_assets__/": Mount(assets, links=False)}) as s: s.url("index.html")
    """

    def __init__(self, mounts: dict[str, Path | str | Mount]):
        norm = []
        for prefix, root in mounts.items():
            prefix = "/" + prefix.strip("/") + "/" if prefix.strip("/") else "/"
            norm.append((prefix, root if isinstance(root, Mount) else Mount(Path(root))))
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
