"""Serve a page for the browser: a folder on a fresh loopback port, a server command, or a URL.

A ``serve_command`` only ever comes from a recipe we trust (``sources.resolve_source``
for a bundled recipe or one given with ``--oracle-recipes``), never from a task folder.
"""

from __future__ import annotations

import contextlib
import shlex
import sys
from pathlib import Path
from typing import Iterator

from ..sources import PageBundle, free_port, run_server  # noqa: F401 (PageBundle re-exported)
from .core import origin_of
from .server import StaticServer

#: Where the judge serves the task's ``assets/`` on the page's own origin.
ASSETS_URL_PREFIX = "/__iwr_assets__/"


def _stays_in_parent(d: Path) -> bool:
    """``d`` is a folder that resolves inside its parent (a task's assets/ never points elsewhere)."""
    try:
        real, parent = d.resolve(strict=True), d.parent.resolve(strict=True)
    except (OSError, RuntimeError):
        return False
    return real.is_dir() and parent in real.parents


@contextlib.contextmanager
def host(bundle: PageBundle, assets_dir: Path | None = None) -> Iterator[tuple[str, set[str]]]:
    """Yield (the page's URL, the origins it may talk to) while it is being served."""
    if bundle.url:
        yield bundle.url, {origin_of(bundle.url)}
        return
    if bundle.serve_command:
        port = free_port()
        cmd = bundle.serve_command.format(port=port, python=bundle.python or sys.executable,
                                          data=bundle.data or "", root=bundle.root)
        with run_server(shlex.split(cmd), port, cwd=bundle.root) as origin:
            yield f"{origin}/{bundle.entry.lstrip('/')}", {origin}
        return
    mounts: dict[str, Path] = {"/": bundle.root}
    if assets_dir is not None and _stays_in_parent(assets_dir):
        mounts[ASSETS_URL_PREFIX] = assets_dir
    with StaticServer(mounts) as srv:
        yield srv.url(bundle.entry), {srv.origin}
