"""Serve a page for the browser: a folder on a fresh loopback port, a server command, or a URL.

A ``serve_command`` only ever comes from a recipe we trust (``sources.resolve_source``
for a bundled recipe or one given with ``--oracle-recipes``), never from a task folder.

The task's ``assets/`` is the one part of a task folder a judged page may read: it is served at
``ASSETS_URL_PREFIX`` only when it is a real folder of the task (not a link to another of its folders,
such as ``checkpoints/``), and nothing inside it is served through a link (``server.Mount(links=False)``).
"""

from __future__ import annotations

import contextlib
import os
import shlex
import stat
import sys
from pathlib import Path
from typing import Iterator

from ..errors import TaskError
from ..sources import PageBundle, free_port, run_server  # noqa: F401 (PageBundle re-exported)
from .core import origin_of
from .server import Mount, StaticServer

#: Where the judge serves the task's ``assets/`` on the page's own origin.
ASSETS_URL_PREFIX = "/__iwr_assets__/"


def _assets_mount(d: Path) -> Mount | None:
    """The mount for a task's ``assets/`` (None when the task has none); a TaskError when it is a link or not a
    folder: the page would be served whatever the link points at (``assets -> checkpoints``)."""
    try:
        st = os.lstat(d)
    except FileNotFoundError:
        return None
    except OSError as e:
        raise TaskError(f"{d}: unreadable ({e.strerror or e.__class__.__name__})") from None
    if stat.S_ISLNK(st.st_mode):
        raise TaskError(f"{d}: a symbolic link (to {os.readlink(d)[:120]}); a task's assets/ must be a folder of its "
                        "own; refused")
    if not stat.S_ISDIR(st.st_mode):
        raise TaskError(f"{d}: not a folder; refused")
    return Mount(d, links=False)


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
    mounts: dict[str, Path | Mount] = {"/": bundle.root}
    assets = _assets_mount(assets_dir) if assets_dir is not None else None
    if assets is not None:
        mounts[ASSETS_URL_PREFIX] = assets
    with StaticServer(mounts) as srv:
        yield srv.url(bundle.entry), {srv.origin}
