"""The files of a task folder, read only from inside it.

A task folder comes from a stranger, and a link in it is a way out: ``assets/gt/index.html ->
../../task.json`` would hand a judged page the ground truth, ``assets -> checkpoints`` every
checkpoint, and a link out of the folder any file of the machine. A recorder never writes one, so
a task folder may hold none: every entry, at any depth, must be a plain folder or a regular file
(a symbolic link, wherever it points, a FIFO, a device file or a socket is refused with a one-line
message naming it, and so is a file of assets/ that is also, by a hard link, another file of the
folder), at most ``limits.MAX_TASK_DIR_DEPTH`` folders deep and
``limits.MAX_TASK_DIR_ENTRIES`` entries in all. The folder itself may be reached through a link (the
person running iwrbench chose it); it is resolved once, when the task is loaded. Absolute and ``..``
paths in task.json are refused earlier, when the record is validated.

``task_problems`` is the check made before each (model, task) unit of a run and by ``iwr validate``:
what it finds makes a ``task_error`` row for the unit, and the run goes on. It also decodes every
checkpoint and composite once (cached by path, size and modification time) and the video's first
frame, so a corrupt image or video is the task's error before any model is called, never the
model's failure nor a traceback in the middle of judging.
"""

from __future__ import annotations

import errno
import os
import stat
import threading
from pathlib import Path
from typing import Any

from .. import limits
from ..errors import TaskError
from ..fileio import special_kind
from ..records import Task

#: sub-folders of a task folder that are read during a run (reference/ only by ``iwr validate``); every entry of
#: the folder is checked, these included
RUN_DIRS = ("checkpoints", "stitched_assets", "assets", "targets")

#: problems listed for one folder before the walk stops (the first one already refuses the task)
_MAX_LISTED = 5

_image_cache: dict[tuple[str, int, int], str | None] = {}
_cache_lock = threading.Lock()


def _within(real: str, root: str) -> bool:
    return real == root or real.startswith(root.rstrip(os.sep) + os.sep)


def _link_problem(path: Path, root: Path | str) -> str:
    """The message for the symbolic link ``path`` in the task folder ``root``, saying where it points."""
    root_real = os.path.realpath(root)
    try:
        real = os.path.realpath(path, strict=True)
    except OSError as e:
        why = "symlink loop" if e.errno == errno.ELOOP else "broken symlink"
        return f"{path}: {why}; a task folder may hold no links; refused"
    except (RuntimeError, ValueError) as e:  # loops on older Pythons, NUL bytes
        return f"{path}: cannot resolve ({str(e).splitlines()[0][:80]}); refused"
    if not _within(real, root_real):
        return f"{path}: points outside the task folder (a symbolic link to {real}); refused"
    return (f"{path}: a symbolic link (to {os.path.relpath(real, root_real)} in the task folder); a task folder may "
            "hold no links (copy the file in its place); refused")


def _stat_problem(path: Path, st: os.stat_result, root: Path | str) -> str | None:
    """Why the entry ``path`` (its lstat ``st``) may not be part of a task folder, or None."""
    if stat.S_ISLNK(st.st_mode):
        return _link_problem(path, root)
    kind = special_kind(st.st_mode)
    if kind:
        return f"{path}: {kind}, not a regular file; refused"
    # A hard link is the file itself under a second name, and can only name a file its maker could already read:
    # one shared with a folder outside (the report hard-links a task's video into report_files/) is fine; one
    # shared between assets/ and the rest of the task folder is refused by folder_problems.
    return None


def entry_problem(path: Path, root: Path | str) -> str | None:
    """Why ``path`` (an entry of the task folder ``root``, or the name of one) cannot be read as part of it: it or a
    folder above it inside ``root`` is a symbolic link, a FIFO, a device or a socket, or it is unreadable; None
    when it is a plain file or folder of the folder, or absent."""
    root = Path(root)
    try:
        rel = Path(path).relative_to(root)
    except ValueError:
        rel = None
    parts = rel.parts if rel is not None else ()
    if rel is None or ".." in parts:
        return f"{path}: not inside the task folder {root}; refused"
    cur = root
    for part in parts:
        cur = cur / part
        try:
            st = os.lstat(cur)
        except FileNotFoundError:
            return None
        except OSError as e:
            return f"{cur}: unreadable ({e.strerror or e.__class__.__name__})"
        why = _stat_problem(cur, st, root)
        if why:
            return why
    return None


#: the name this check had when links inside the folder were allowed (kept for callers)
link_problem = entry_problem


def inside(root: Path, rel: str | Path, what: str = "file") -> Path:
    """``root / rel`` when it is a plain entry of ``root`` (no link on the way); else TaskError naming it."""
    rel_s = str(rel)
    p = Path(rel_s)
    if p.is_absolute() or ".." in p.parts or "\x00" in rel_s:
        raise TaskError(f"{root / rel_s}: {what} path must stay inside the task folder; refused")
    full = root / p
    why = entry_problem(full, root)
    if why:
        raise TaskError(why)
    return full


def folder_problems(root: Path, *, limit: int | None = None, max_depth: int | None = None) -> list[str]:
    """What makes the task folder ``root`` unsafe to read: every entry at any depth that is a symbolic link, a FIFO,
    a device or a socket; folders nested too deep; too many entries. Walked without following anything
    (at most a few problems are listed: the first already refuses the task)."""
    limit = limits.MAX_TASK_DIR_ENTRIES if limit is None else limit
    max_depth = limits.MAX_TASK_DIR_DEPTH if max_depth is None else max_depth
    problems: list[str] = []
    todo: list[tuple[Path, int]] = [(Path(root), 0)]
    subs: list[tuple[Path, int]] = []
    seen = 0
    names: dict[tuple[int, int], Path] = {}  # files with several names: the first name met inside the folder
    assets = Path(root) / "assets"
    while todo:
        d, depth = todo.pop()
        try:
            with os.scandir(d) as it:
                entries = sorted(it, key=lambda e: e.name)
        except OSError as e:
            problems.append(f"{d}: cannot list ({e.strerror or e.__class__.__name__})")
            continue
        for ent in entries:
            seen += 1
            if seen > limit:
                return problems + [f"{root}: more than {limit} files and folders (limit)"]
            p = Path(ent.path)
            try:
                st = ent.stat(follow_symlinks=False)
            except OSError as e:
                problems.append(f"{p}: unreadable ({e.strerror or e.__class__.__name__})")
                continue
            why = _stat_problem(p, st, root)
            if why is None and stat.S_ISREG(st.st_mode) and st.st_nlink > 1:
                other = names.setdefault((st.st_dev, st.st_ino), p)
                if other != p and (assets in p.parents) != (assets in other.parents):
                    mine, theirs = (p, other) if assets in p.parents else (other, p)
                    why = (f"{mine}: the same file as {theirs} (a hard link); what a judged page may read (assets/) "
                           "shares no file with the rest of the task folder; refused")
            if why:
                problems.append(why)
                if len(problems) >= _MAX_LISTED:
                    return problems
                continue
            if stat.S_ISDIR(st.st_mode):
                if depth + 1 >= max_depth:
                    problems.append(f"{p}: folders nested deeper than {max_depth} levels (limit)")
                    if len(problems) >= _MAX_LISTED:
                        return problems
                    continue
                subs.append((p, depth + 1))
        todo.extend(reversed(subs))  # folders in name order
        subs = []
    return problems


def scan_dir(root: Path, sub: str, *, limit: int = limits.MAX_TASK_DIR_ENTRIES) -> list[str]:
    """Problems in ``root/sub`` (see ``folder_problems``), the sub-folder itself included."""
    top = root / sub
    why = entry_problem(top, root)
    if why:
        return [why]
    if not top.is_dir():
        return []
    return folder_problems(top, limit=limit)


def image_problem(path: Path) -> str | None:
    """Why the image at ``path`` cannot be used (size, pixels, decoding), or None. Cached."""
    try:
        st = path.stat()
    except OSError as e:
        return f"{path}: unreadable ({e.strerror or e.__class__.__name__})"
    key = (str(path), st.st_size, st.st_mtime_ns)
    with _cache_lock:
        if key in _image_cache:
            return _image_cache[key]
    problem = _decode_problem(path, st.st_size)
    with _cache_lock:
        if len(_image_cache) > 50_000:
            _image_cache.clear()
        _image_cache[key] = problem
    return problem


def _decode_problem(path: Path, size: int) -> str | None:
    if size > limits.MAX_IMAGE_BYTES:
        return f"{path}: {size} bytes (max {limits.MAX_IMAGE_BYTES})"
    if size == 0:
        return f"{path}: empty image file"
    import warnings

    from PIL import Image

    try:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore", Image.DecompressionBombWarning)  # our own cap decides, below
            im = Image.open(path)
        with im:
            w, h = im.size
            if w * h > limits.MAX_IMAGE_PIXELS:
                return f"{path}: {w}x{h} pixels (max {limits.MAX_IMAGE_PIXELS})"
            im.load()
    except Exception as e:  # noqa: BLE001 - any decoder failure means a corrupt image
        return f"{path}: unreadable image ({e.__class__.__name__})"
    return None


def video_problem(path: Path) -> str | None:
    """Why the task's video cannot be shown to a model (None when its first frame decodes).

    Only the container, its video stream and the first frame are read: a fraction of a second for
    any length of video. Damage further in is found where the frames are sampled (also a TaskError).
    """
    if not path.is_file():
        return f"{path}: missing video"
    try:
        import av

        with av.open(str(path)) as c:
            if not c.streams.video:
                return f"{path}: no video stream in the file"
            for _ in c.decode(c.streams.video[0]):
                return None
        return f"{path}: the video has no frame that decodes"
    except Exception as e:  # noqa: BLE001 - any decoder failure is a corrupt video
        first = (str(e).strip().splitlines() or [e.__class__.__name__])[0][:160]
        return f"{path}: unreadable video ({first})"


def read_metadata(folder: Path) -> tuple[dict[str, Any] | None, str | None]:
    """``metadata.json`` of an official task folder: (data, None), (None, problem) or (None, None) when absent."""
    from json import JSONDecodeError

    f = folder / "metadata.json"
    if not os.path.lexists(f):
        return None, None
    why = link_problem(f, folder)
    if why:
        return None, why
    try:
        if f.stat().st_size > limits.MAX_METADATA_BYTES:
            return None, f"{f}: larger than {limits.MAX_METADATA_BYTES} bytes (limit)"
        raw = f.read_bytes()
        data = limits.loads_json(raw.decode("utf-8"))
    except UnicodeDecodeError:
        return None, f"{f}: not UTF-8 text"
    except JSONDecodeError as e:
        return None, f"{f}: malformed JSON at line {e.lineno} column {e.colno}: {e.msg}"
    except limits.LimitError as e:
        return None, f"{f}: {e}"
    except OSError as e:
        return None, f"{f}: unreadable ({e.strerror or e.__class__.__name__})"
    if not isinstance(data, dict):
        return None, f"{f}: expected a JSON object, got {type(data).__name__}"
    return data, None


def containment_problems(task: Task) -> list[str]:
    """What in ``task``'s folder may not be read (``folder_problems``: a link anywhere, a special file, too deep or
    too large) and ``checkpoint_screenshot`` paths that leave it; empty when everything is a plain file or folder
    inside."""
    root = task.dir
    problems = folder_problems(root)
    for i, a in enumerate(task.action_sequence, 1):
        rel = a.checkpoint_screenshot
        if rel:
            try:
                inside(root, rel, f"checkpoint_screenshot of action {i}")
            except TaskError as e:
                problems.append(str(e))
    return list(dict.fromkeys(problems))


def task_problems(task: Task, *, decode: bool = True) -> list[str]:
    """Everything that makes ``task`` unusable for a run (empty when it is fine).

    Containment of every file read, a readable metadata.json when there is one, and (``decode``)
    every checkpoint and composite decoding within the image limits and the video's first frame.
    """
    problems = containment_problems(task)
    if problems:
        return problems
    _, why = read_metadata(task.dir)
    if why:
        problems.append(why)
    if decode:
        for i in range(len(task.action_sequence) + 1):
            cp = task.checkpoint(i)
            if cp.is_file():
                why = image_problem(cp)
                if why:
                    problems.append(why)
        for p in task.stitched_assets:
            why = image_problem(p)
            if why:
                problems.append(why)
        if task.video_path.exists() or task.video_path.is_symlink():
            why = video_problem(task.video_path)
            if why:
                problems.append(why)
    return problems


def stitched_assets(task: Task) -> list[Path]:
    """The task's composites, each checked to resolve inside its folder (TaskError otherwise)."""
    out = []
    top = task.dir / "stitched_assets"
    if os.path.lexists(top):
        why = link_problem(top, task.dir)
        if why:
            raise TaskError(why)
    for p in task.stitched_assets:
        why = link_problem(p, task.dir)
        if why:
            raise TaskError(why)
        out.append(p)
    return out


__all__ = ["inside", "entry_problem", "link_problem", "folder_problems", "scan_dir", "image_problem", "read_metadata",
           "containment_problems", "task_problems", "stitched_assets", "video_problem", "RUN_DIRS"]
