"""Serving a mutant: a rewriting server on 127.0.0.1 in front of the source's files or its own server."""

from __future__ import annotations

import contextlib
import gzip
import hashlib
import mimetypes
import posixpath
import re
import threading
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from typing import Any, Iterator
from urllib.parse import unquote, urlsplit

from .names import Names
from .rewrite import Rewriter
from .shim import shim_html

# =========================================================================== serving a mutant

_TEXT_KINDS = (("html", re.compile(r"text/html|application/xhtml")),
               ("css", re.compile(r"text/css")),
               ("js", re.compile(r"javascript|ecmascript")))
_HOP = {"connection", "keep-alive", "proxy-authenticate", "proxy-authorization", "te", "trailers",
        "transfer-encoding", "upgrade", "content-length", "content-encoding", "host", "accept-encoding"}


def _kind(ctype: str) -> str | None:
    for k, rx in _TEXT_KINDS:
        if rx.search(ctype or ""):
            return k
    return None


class MutantServer:
    """Serves a source through the rewriting of one mutation, on 127.0.0.1 (a free port).

    ``root``: a folder (like the judge's static server); ``upstream``: an origin to proxy (a
    source served by a command). HTML, CSS and JS are rewritten on the way out; everything
    else passes through unchanged."""

    def __init__(self, rw: Rewriter, *, root: Path | None = None, upstream: str | None = None,
                 shim: str | None = None):
        if (root is None) == (upstream is None):
            raise ValueError("give exactly one of root, upstream")
        self.rw = rw
        self.root = root.resolve() if root else None
        self.upstream = upstream.rstrip("/") if upstream else None
        self.shim = shim if shim is not None else shim_html(rw.mut, rw.names)
        self._cache: dict[str, bytes] = {}
        self._lock = threading.Lock()  # one rewrite at a time (the Rewriter keeps counters)
        self._local = threading.local()
        self.errors: list[str] = []
        outer = self

        class Handler(BaseHTTPRequestHandler):
            protocol_version = "HTTP/1.1"

            def log_message(self, *a: Any) -> None:
                pass

            def do_GET(self) -> None:  # noqa: N802
                outer._serve(self, "GET")

            def do_HEAD(self) -> None:  # noqa: N802
                outer._serve(self, "HEAD")

            def do_POST(self) -> None:  # noqa: N802
                outer._serve(self, "POST")

        class Server(ThreadingHTTPServer):
            daemon_threads = True
            allow_reuse_address = True

        self._server = Server(("127.0.0.1", 0), Handler)
        self._thread = threading.Thread(target=self._server.serve_forever, daemon=True, name="iwr-mutant")
        self._client = None

    @property
    def origin(self) -> str:
        return f"http://127.0.0.1:{self._server.server_address[1]}"

    def url(self, entry: str) -> str:
        return f"{self.origin}/{entry.lstrip('/')}"

    def __enter__(self) -> "MutantServer":
        if self.upstream:
            import httpx

            self._client = httpx.Client(base_url=self.upstream, timeout=60, follow_redirects=False)
        self._thread.start()
        return self

    def __exit__(self, *exc: Any) -> None:
        self._server.shutdown()
        self._server.server_close()
        if self._client is not None:
            self._client.close()

    # ------------------------------------------------------------------
    def transform(self, kind: str | None, data: bytes, key: str) -> bytes:
        if kind is None or (kind == "js" and getattr(self._local, "worker", False)):
            return data
        with self._lock:
            hit = self._cache.get(key)
            if hit is not None:
                return hit
            out = self._transform(kind, data, key)
            self._cache[key] = out
            return out

    def _transform(self, kind: str, data: bytes, key: str) -> bytes:
        text = data.decode("utf-8", errors="surrogateescape")
        if self.upstream:
            text = text.replace(self.upstream, self.origin)
        try:
            if kind == "html":
                text = self.rw.html(text, shim=self.shim)
            elif kind == "css":
                text = self.rw.css(text)
            else:
                text = self.rw.js(text)
        except Exception as e:  # a rewrite bug must not hide the page: serve it unchanged, say so
            self.errors.append(f"{key}: {e.__class__.__name__}: {e}")
        return text.encode("utf-8", errors="surrogateescape")

    def _serve(self, h: BaseHTTPRequestHandler, method: str) -> None:
        # a script run as a worker has no DOM and no shim: it is served as it is
        self._local.worker = (h.headers.get("Sec-Fetch-Dest") or "").endswith("worker")
        try:
            if self.root is not None:
                status, headers, body = self._static(h.path)
            else:
                status, headers, body = self._proxy(h, method)
        except Exception as e:  # noqa: BLE001
            status, headers, body = 502, {"Content-Type": "text/plain"}, f"mutant server: {e}".encode()
        try:
            h.send_response(status)
            for k, v in headers.items():
                h.send_header(k, v)
            h.send_header("Content-Length", str(len(body)))
            h.send_header("Cache-Control", "no-store")
            h.end_headers()
            if method != "HEAD":
                h.wfile.write(body)
        except (BrokenPipeError, ConnectionResetError):
            pass

    def _static(self, raw_path: str) -> tuple[int, dict[str, str], bytes]:
        path = posixpath.normpath(unquote(urlsplit(raw_path).path))
        rel = path.lstrip("/")
        assert self.root is not None
        cand = (self.root / rel).resolve()
        if cand != self.root and self.root not in cand.parents:
            return 404, {"Content-Type": "text/plain"}, b"not found"
        if cand.is_dir():
            cand = cand / "index.html"
        if not cand.is_file():
            return 404, {"Content-Type": "text/plain"}, b"not found"
        ctype = mimetypes.guess_type(cand.name)[0] or "application/octet-stream"
        if cand.suffix in (".js", ".mjs"):
            ctype = "text/javascript"
        body = self.transform(_kind(ctype), cand.read_bytes(), str(cand))
        if ctype.startswith("text/") or ctype in ("application/json",):
            ctype += "; charset=utf-8"
        return 200, {"Content-Type": ctype}, body

    def _proxy(self, h: BaseHTTPRequestHandler, method: str) -> tuple[int, dict[str, str], bytes]:
        assert self._client is not None
        n = int(h.headers.get("Content-Length") or 0)
        data = h.rfile.read(n) if n else None
        fwd = {k: v for k, v in h.headers.items() if k.lower() not in _HOP}
        fwd["Accept-Encoding"] = "identity"
        r = self._client.request(method, h.path, headers=fwd, content=data)
        headers = {}
        for k, v in r.headers.multi_items():
            if k.lower() in _HOP or k.lower() == "cache-control":
                continue
            if k.lower() == "location":
                v = v.replace(self.upstream or "", self.origin)
            headers[k] = v
        body = r.content
        kind = _kind(r.headers.get("content-type", ""))
        if kind and r.status_code == 200:
            body = self.transform(kind, body, method + " " + h.path + " " + hashlib.sha1(body).hexdigest())
        return r.status_code, headers, body


@contextlib.contextmanager
def source_server(task: Any, recipes: Any = None) -> Iterator[tuple[Path | None, str | None, str]]:
    """(folder, upstream origin, entry) of ``task``'s source; a served source runs while in use.

    The source is the task's oracle: served from the recipe it was recorded from (the bundled
    suites' recipes, or ``recipes``), never from the task folder."""
    from ...browser.host import host
    from ...validate.oracle import oracle_bundle

    src = oracle_bundle(task, recipes)
    if src.serve_command or src.url:
        with host(src) as (url, _origins):
            parts = urlsplit(url)
            upstream = f"{parts.scheme}://{parts.netloc}"
            yield None, upstream, url[len(upstream):]
        return
    yield src.root, None, src.entry


@contextlib.contextmanager
def serve_mutant(task: Any, rw: Rewriter, recipes: Any = None, *,
                 source: tuple[Path | None, str | None, str] | None = None) -> Iterator[tuple[Any, MutantServer]]:
    """Yield (PageBundle for the judge, server) of ``task``'s source under ``rw``'s mutation."""
    from ...browser.host import PageBundle

    if source is None:
        with source_server(task, recipes) as src:
            with serve_mutant(task, rw, source=src) as r:
                yield r
        return
    root, upstream, entry = source
    with MutantServer(rw, root=root, upstream=upstream) as srv:
        yield PageBundle(root=root or task.dir, url=srv.url(entry)), srv


def known_names(task: Any) -> Names:
    """Ids and classes of the source: its entry page and every recorded DOM snapshot."""
    names = Names()
    for f in sorted((task.dir / "reference" / "dom").glob("step_*.html.gz")):
        try:
            names.add_html(gzip.decompress(f.read_bytes()).decode("utf-8", errors="replace"))
        except (OSError, EOFError):
            continue
    site = task.dir / "reference" / "site"
    if site.is_dir():
        for f in site.rglob("*.htm*"):
            with contextlib.suppress(OSError):
                names.add_html(f.read_text(errors="replace"))
    return names
