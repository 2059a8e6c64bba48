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
import stat
import tempfile
import time
from dataclasses import dataclass
from importlib import resources
from pathlib import Path
from typing import Any, NamedTuple


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


# --------------------------------------------------------------------------- reading strangers' folders


class OutsideError(OSError):
    """A path that cannot be read from inside its folder: it leaves it, crosses a link where none is allowed, or
    names something that is not a regular file (a FIFO, a device, a socket). The message says which and where."""


_DIR_FLAGS = os.O_RDONLY | os.O_DIRECTORY | os.O_NOFOLLOW | getattr(os, "O_CLOEXEC", 0)
_FILE_FLAGS = os.O_RDONLY | os.O_NOFOLLOW | os.O_NONBLOCK | getattr(os, "O_CLOEXEC", 0)
#: links followed while resolving one path (the kernel's own limit is 40)
MAX_LINK_HOPS = 40


def open_root(folder: str | Path, *, link: bool = True) -> int:
    """A file descriptor of the folder ``folder``, to resolve paths beneath with :func:`open_beneath`; ``folder``
    may itself be a link when ``link`` (the caller chose it), else a link there is refused (``OSError`` ELOOP).
    The descriptor pins the folder: renaming or replacing it, or a link in the path above it, does not change
    what later reads see."""
    return os.open(os.path.realpath(folder) if link else folder, _DIR_FLAGS)


class Opened(NamedTuple):
    fd: int
    stat: os.stat_result
    #: the path beneath the root of the file opened (links followed, the index file added)
    path: str


def open_beneath(root_fd: int, rel: str, *, links: bool, index: str | None = None, max_depth: int = 64) -> Opened:
    """Open the regular file ``rel`` beneath the folder ``root_fd``: its descriptor, its fstat and where it is.

    Every component is opened relative to the one before with ``O_NOFOLLOW``: nothing is looked up by a full
    path, so a folder renamed or swapped for a link meanwhile cannot lead anywhere else (no time-of-check /
    time-of-use gap). A symbolic link is refused unless ``links``; then its target is resolved by the same rules
    (never absolute, never above the root, at most ``MAX_LINK_HOPS`` links). ``..`` may not climb above the root.
    A folder is opened as its ``index`` file when given (resolved by the same rules: ``dir/index.html`` that is a
    link out is refused like any other). What is not a folder or a regular file (a FIFO, a device, a socket) is
    refused without being opened, and the opened file must still be that regular file (``fstat``). Raises
    ``OutsideError`` (or ``FileNotFoundError``) naming what was refused."""
    todo = [p for p in reversed(rel.split("/")) if p not in ("", ".")]
    fds: list[int] = [os.dup(root_fd)]
    names: list[str] = []
    hops = 0
    try:
        while True:
            if not todo:
                if index is None:
                    raise OutsideError(f"{'/'.join(names) or '.'}: a folder, not a file")
                todo.append(index)
                index = None
            name = todo.pop()
            if name in ("", "."):
                continue
            if name == "..":
                if not names:
                    raise OutsideError(f"{rel}: climbs above its folder")
                os.close(fds.pop())
                names.pop()
                continue
            here = "/".join([*names, name])
            st = os.stat(name, dir_fd=fds[-1], follow_symlinks=False)
            if stat.S_ISLNK(st.st_mode):
                if not links:
                    raise OutsideError(f"{here}: a symbolic link; refused")
                hops += 1
                target = os.readlink(name, dir_fd=fds[-1])
                if hops > MAX_LINK_HOPS:
                    raise OutsideError(f"{here}: more than {MAX_LINK_HOPS} links (a loop?); refused")
                if target.startswith("/"):
                    raise OutsideError(f"{here}: a link to an absolute path ({target[:120]}); refused")
                todo.extend(p for p in reversed(target.split("/")) if p not in ("", "."))
                continue
            if stat.S_ISDIR(st.st_mode):
                if len(names) >= max_depth:
                    raise OutsideError(f"{here}: nested deeper than {max_depth} folders; refused")
                fd = os.open(name, _DIR_FLAGS, dir_fd=fds[-1])
                fds.append(fd)
                names.append(name)
                continue
            if not stat.S_ISREG(st.st_mode):
                raise OutsideError(f"{here}: {_kind(st.st_mode)}, not a regular file; refused")
            if todo:
                raise OutsideError(f"{here}: a file where a folder was expected")
            fd = os.open(name, _FILE_FLAGS, dir_fd=fds[-1])
            fst = os.fstat(fd)
            if not stat.S_ISREG(fst.st_mode) or (fst.st_dev, fst.st_ino) != (st.st_dev, st.st_ino):
                os.close(fd)
                raise OutsideError(f"{here}: changed while it was opened; refused")
            return Opened(fd, fst, here)
    finally:
        for fd in fds:
            os.close(fd)


def _kind(mode: int) -> str:
    if stat.S_ISFIFO(mode):
        return "a FIFO"
    if stat.S_ISCHR(mode) or stat.S_ISBLK(mode):
        return "a device file"
    if stat.S_ISSOCK(mode):
        return "a socket"
    return "a special file"


def special_kind(mode: int) -> str | None:
    """What an entry of mode ``mode`` is when it is neither a regular file, a folder nor a link (else None)."""
    if stat.S_ISREG(mode) or stat.S_ISDIR(mode) or stat.S_ISLNK(mode):
        return None
    return _kind(mode)
