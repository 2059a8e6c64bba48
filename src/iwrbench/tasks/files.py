"""The files of a task folder, read only from inside it.

A task folder comes from a stranger. Every file we read from it (task.json, video.mp4,
metadata.json, checkpoints/, the ``checkpoint_screenshot`` of each action, stitched_assets/,
assets/, targets/ and reference/) must resolve inside the folder: a symlink that leaves it, a
symlink loop or a dangling link is refused with a one-line message naming the file. (Absolute
and ``..`` paths in task.json are refused earlier, when the record is validated.)

``task_problems`` is the check made before each (model, task) unit of a run: what it finds
makes a ``task_error`` row for the unit, and the run goes on. It also decodes every checkpoint
and composite once (cached by path, size and modification time) and the video's first frame, so
a corrupt image or video is the task's error before any model is called, never the model's
failure nor a traceback in the middle of judging.
"""

from __future__ import annotations

import errno
import os
import threading
from pathlib import Path
from typing import Any

from .. import limits
from ..errors import TaskError
from ..records import Task

#: sub-folders of a task folder that are read during a run (reference/ only by ``iwr validate``)
RUN_DIRS = ("checkpoints", "stitched_assets", "assets", "targets")

_image_cache: dict[tuple[str, int, int], str | None] = {}
_cache_lock = threading.Lock()


def _real(p: Path | str) -> str:
    return os.path.realpath(p, strict=True)


def _within(real: str, root: str) -> bool:
    return real == root or real.startswith(root.rstrip(os.sep) + os.sep)


def link_problem(path: Path, root: Path | str) -> str | None:
    """Why ``path`` (which must exist or be a link) does not resolve inside ``root``, or None."""
    root_real = os.path.realpath(root)
    try:
        real = _real(path)
    except OSError as e:
        if os.path.islink(path) or e.errno == errno.ELOOP:
            why = "symlink loop" if e.errno == errno.ELOOP else "broken symlink"
            return f"{path}: {why}; refused"
        return f"{path}: unreadable ({e.strerror or e.__class__.__name__})"
    except (RuntimeError, ValueError) as e:  # loops on older Pythons, NUL bytes
        return f"{path}: cannot resolve ({str(e).splitlines()[0][:80]}); refused"
    if not _within(real, root_real):
        return f"{path}: points outside the task folder (to {real}); refused"
    return None


def inside(root: Path, rel: str | Path, what: str = "file") -> Path:
    """``root / rel`` when it stays inside ``root`` (symlinks followed); else TaskError naming it."""
    rel_s = str(rel)
    p = Path(rel_s)
    if p.is_absolute() or ".." in p.parts or "\x00" in rel_s:
        raise TaskError(f"{root / rel_s}: {what} path must stay inside the task folder; refused")
    full = root / p
    if os.path.lexists(full):
        why = link_problem(full, root)
        if why:
            raise TaskError(why)
    return full


def scan_dir(root: Path, sub: str, *, limit: int = limits.MAX_TASK_DIR_ENTRIES) -> list[str]:
    """Problems in ``root/sub``: links leaving ``root``, loops, too many entries (walked without following links)."""
    top = root / sub
    if not os.path.lexists(top):
        return []
    why = link_problem(top, root)
    if why:
        return [why]
    if not top.is_dir():
        return []
    problems: list[str] = []
    todo = [top]
    seen = 0
    while todo:
        d = todo.pop()
        try:
            entries = list(os.scandir(d))
        except OSError as e:
            problems.append(f"{d}: cannot list ({e.strerror or e.__class__.__name__})")
            continue
        for ent in entries:
            seen += 1
            if seen > limit:
                return problems + [f"{top}: more than {limit} entries (limit)"]
            p = Path(ent.path)
            if ent.is_symlink():
                why = link_problem(p, root)
                if why:
                    problems.append(why)
                    if len(problems) >= 5:
                        return problems
                continue
            if ent.is_dir(follow_symlinks=False):
                todo.append(p)
    return problems


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


def containment_problems(task: Task, *, dirs: tuple[str, ...] = RUN_DIRS) -> list[str]:
    """Files of ``task`` a run reads that leave its folder (or loop); empty when all stay inside."""
    root = task.dir
    problems: list[str] = []
    for name in ("task.json", "video.mp4", "metadata.json"):
        f = root / name
        if os.path.lexists(f):
            why = link_problem(f, root)
            if why:
                problems.append(why)
    for i, a in enumerate(task.action_sequence, 1):
        rel = a.checkpoint_screenshot
        if rel:
            try:
                inside(root, rel, f"checkpoint_screenshot of action {i}")
            except TaskError as e:
                problems.append(str(e))
    for sub in dirs:
        problems += scan_dir(root, sub)
    return list(dict.fromkeys(problems))


def task_problems(task: Task, *, decode: bool = True, dirs: tuple[str, ...] = RUN_DIRS) -> list[str]:
    """Everything that makes ``task`` unusable for a run (empty when it is fine).

    Containment of every file read, a readable metadata.json when there is one, and (``decode``)
    every checkpoint and composite decoding within the image limits and the video's first frame.
    """
    problems = containment_problems(task, dirs=dirs)
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


__all__ = ["inside", "link_problem", "scan_dir", "image_problem", "read_metadata", "containment_problems",
           "task_problems", "stitched_assets", "video_problem", "RUN_DIRS"]
