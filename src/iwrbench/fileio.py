"""Writing files so that a reader never sees half of one (temp file + fsync + rename).

Files and folders made here get the modes a plain ``open()`` / ``mkdir()`` would give them
(0666 / 0777 less the umask: 0644 / 0755 under the usual umask 022), not the 0600 / 0700 of
``tempfile.mkstemp`` / ``mkdtemp``: a run folder's run.json, summary.json and report.html are
as readable as its results.jsonl.
"""

from __future__ import annotations

import hashlib
import os
import secrets
import shutil
import tempfile
import time
from dataclasses import dataclass
from importlib import resources
from pathlib import Path
from typing import Any


def current_umask() -> int:
    """The process's umask, read without changing it where the system says it (Linux)."""
    try:
        for line in Path("/proc/self/status").read_text().splitlines():
            if line.startswith("Umask:"):
                return int(line.split()[1], 8)
    except (OSError, ValueError, IndexError):
        pass
    old = os.umask(0o022)  # elsewhere: set and restore (not thread-safe, but only a fallback)
    os.umask(old)
    return old


def make_temp_dir(prefix: str, dir: Path) -> Path:
    """``tempfile.mkdtemp`` whose folder gets ``mkdir``'s mode (0777 less the umask), for a
    folder that is renamed into place and kept (a task folder)."""
    d = Path(tempfile.mkdtemp(prefix=prefix, dir=dir))
    os.chmod(d, 0o777 & ~current_umask())
    return d


def _create_temp(path: Path) -> tuple[int, Path]:
    """A new, exclusive temp file beside ``path``, with the mode ``open(..., "w")`` gives."""
    flags = os.O_WRONLY | os.O_CREAT | os.O_EXCL | getattr(os, "O_CLOEXEC", 0)
    for _ in range(100):
        tmp = path.parent / f".{path.name}.{secrets.token_hex(4)}.tmp"
        try:
            return os.open(tmp, flags, 0o666), tmp  # the kernel applies the umask, as for open()
        except FileExistsError:
            continue
    raise FileExistsError(f"no free temporary name beside {path}")


def atomic_write(path: Path, text: str) -> None:
    path = Path(path)
    path.parent.mkdir(parents=True, exist_ok=True)
    fd, tmp = _create_temp(path)
    try:
        with os.fdopen(fd, "w", encoding="utf-8") as f:
            f.write(text)
            f.flush()
            os.fsync(f.fileno())
        os.replace(tmp, path)
    except BaseException:
        Path(tmp).unlink(missing_ok=True)
        raise


def replace_dir(staging: Path, out: Path) -> None:
    """``staging`` (a finished folder beside ``out``) becomes ``out``; an existing ``out`` is moved aside first and
    removed only after the new folder is in place, so a crash never leaves ``out`` half-written."""
    if out.exists():
        old = out.with_name(f".{out.name}.old-{int(time.time() * 1000)}")
        out.rename(old)
        staging.rename(out)
        shutil.rmtree(old, ignore_errors=True)
    else:
        staging.rename(out)


# --------------------------------------------------------------------------- files shipped with the package


@dataclass(frozen=True)
class PackagedText:
    text: str
    #: of the file's bytes: what run.json records of a prompt, so any edit to it shows
    sha256: str


def package_folder(package: str, sub: str) -> Any:
    """A folder shipped inside ``package`` (``resources.files``: works from a wheel or a source tree)."""
    return resources.files(package) / sub


def read_packaged(folder: Any, name: str) -> PackagedText:
    """A text file shipped with the package (a prompt template), as stored: UTF-8, newlines untouched. The one
    reader of the generation prompt, the judge's grounder and assertion prompts and the rubric prompt."""
    data = (folder / name).read_bytes()
    return PackagedText(data.decode("utf-8"), hashlib.sha256(data).hexdigest())
