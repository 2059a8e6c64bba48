"""Baseline models that need no API: they bound what the judge's numbers mean.

- ``oracle`` (``iwrbench.validate.oracle.OracleModel``, registered by name: it needs the recipes
  and sits above the stages): the task's own source site; must score IFS 100
- ``blank``: an empty page (must score near 0)
- ``screenshot``: a static picture of the first video frame (how much a picture alone earns)
- ``slideshow``: the video's frames, advancing on any click, key or wheel (how far pixels can
  be gamed; see the README)
- ``replay:DIR``: pre-made pages, ``DIR/<task_id>/`` served as the web root. The folder is
  copied into the run folder without following symlinks out of it (a link leaving it, a loop
  or a folder over ``iwrbench.limits``' page-folder caps is a ``generation_error`` for that unit)
"""

from __future__ import annotations

import asyncio
import html
import json
import os
import shutil
import time
from pathlib import Path
from typing import Any

from .. import limits
from ..errors import ModelError, TaskError
from ..records import GenerationInfo, GenerationOutcome, Task
from ..models.base import Generation, GenerationOptions, PageBundle


def _write(out_dir: Path, body: str) -> PageBundle:
    out_dir.mkdir(parents=True, exist_ok=True)
    (out_dir / "index.html").write_text(body, encoding="utf-8")
    return PageBundle(root=out_dir)


def video_frames(video: Path, every_s: float = 1.0, limit: int = 64) -> list[tuple[float, Any]]:
    """Decode ``video`` sequentially; keep the first frame at or after each multiple of every_s."""
    import av

    if not video.is_file():
        raise TaskError(f"{video}: missing video")
    out: list[tuple[float, Any]] = []
    try:
        with av.open(str(video)) as c:
            s = c.streams.video[0]
            nxt = 0.0
            for fr in c.decode(s):
                t = float(fr.time or 0.0)
                if t + 1e-6 >= nxt:
                    out.append((t, fr.to_image()))
                    nxt += every_s
                    if len(out) >= limit:
                        break
    except av.error.FFmpegError as e:  # type: ignore[attr-defined]
        raise TaskError(f"{video}: unreadable video ({e.__class__.__name__})") from None
    if not out:
        raise TaskError(f"{video}: the video has no frames")
    return out


class _Baseline:
    name = "baseline"

    def describe(self) -> dict[str, Any]:
        return {"kind": "baseline", "name": self.name}


class BlankModel(_Baseline):
    name = "blank"

    async def generate(self, task: Task, out_dir: Path, options: GenerationOptions) -> Generation:
        page = _write(out_dir, "<!doctype html>\n<html><head><meta charset=\"utf-8\"><title></title></head><body></body></html>\n")
        return Generation(GenerationOutcome.OK, page, GenerationInfo())


class ScreenshotModel(_Baseline):
    name = "screenshot"

    async def generate(self, task: Task, out_dir: Path, options: GenerationOptions) -> Generation:
        import asyncio

        frames = await asyncio.to_thread(video_frames, task.video_path, 1.0, 1)
        out_dir.mkdir(parents=True, exist_ok=True)
        frames[0][1].save(out_dir / "frame.png")
        w, h = task.viewport
        body = (f"<!doctype html>\n<html><head><meta charset=\"utf-8\"><title>{html.escape(task.id)}</title>"
                "<style>html,body{margin:0;overflow:hidden}img{display:block;width:100vw;height:100vh}</style></head>"
                f"<body><img src=\"frame.png\" width=\"{w}\" height=\"{h}\" alt=\"\"></body></html>\n")
        return Generation(GenerationOutcome.OK, _write(out_dir, body), GenerationInfo(images=1))


class SlideshowModel(_Baseline):
    """A gaming attempt: every click, key or wheel shows the next second of the video."""

    name = "slideshow"

    async def generate(self, task: Task, out_dir: Path, options: GenerationOptions) -> Generation:
        import asyncio

        frames = await asyncio.to_thread(video_frames, task.video_path, 1.0 / max(options.fps, 1e-3), options.max_frames)
        out_dir.mkdir(parents=True, exist_ok=True)
        names = []
        for k, (_, img) in enumerate(frames):
            n = f"frame_{k:03d}.jpg"
            img.convert("RGB").save(out_dir / n, quality=85)
            names.append(n)
        body = (
            "<!doctype html>\n<html><head><meta charset=\"utf-8\"><title>slideshow</title>"
            "<style>html,body{margin:0;overflow:hidden}img{display:block;width:100vw;height:100vh}</style></head>"
            "<body><img id=\"s\" src=\"" + names[0] + "\" alt=\"\"><script>\n"
            "const F = " + json.dumps(names) + "; let i = 0; const img = document.getElementById('s');\n"
            "const next = () => { if (i < F.length - 1) { i++; img.src = F[i]; } };\n"
            "addEventListener('click', next, true); addEventListener('keydown', next, true);\n"
            "addEventListener('wheel', next, {capture: true, passive: true});\n"
            "</script></body></html>\n"
        )
        return Generation(GenerationOutcome.OK, _write(out_dir, body), GenerationInfo(images=len(names)))


class ReplayModel(_Baseline):
    """Pre-made pages: ``DIR/<task_id>/`` (entry index.html) is served as the web root."""

    def __init__(self, directory: str, options: GenerationOptions | None = None, **_: Any):
        self.dir = Path(directory).expanduser()
        if not self.dir.is_dir():
            raise ModelError(f"replay:{directory}: no such folder")
        self.name = f"replay:{directory}"

    def describe(self) -> dict[str, Any]:
        return {"kind": "replay", "dir": str(self.dir.resolve())}

    async def generate(self, task: Task, out_dir: Path, options: GenerationOptions) -> Generation:
        src = self.dir / task.id
        if not os.path.lexists(src):
            return Generation(GenerationOutcome.FAILED, None, GenerationInfo(),
                              error=f"replay: no {task.id}/index.html in {self.dir}")
        t0 = time.monotonic()
        try:
            await asyncio.to_thread(put_page_folder, src, out_dir)
        except PageFolderError as e:
            return Generation(GenerationOutcome.FAILED, None, GenerationInfo(), error=f"replay: {e}")
        if not (out_dir / "index.html").is_file():
            return Generation(GenerationOutcome.FAILED, None, GenerationInfo(),
                              error=f"replay: no {task.id}/index.html in {self.dir}")
        return Generation(GenerationOutcome.OK, PageBundle(root=out_dir), GenerationInfo(duration_s=time.monotonic() - t0))


class PageFolderError(Exception):
    """A page folder that cannot be copied as it is (one line, naming the file)."""


def _within(real: str, root: str) -> bool:
    return real == root or real.startswith(root.rstrip(os.sep) + os.sep)


def put_page_folder(src: Path, dst: Path) -> None:
    """``dst`` becomes a copy of the page folder ``src`` (``copy_page_folder``); whatever was there is replaced,
    and nothing is left half-copied when the copy is refused (``PageFolderError``)."""
    if dst.is_symlink() or dst.is_file():
        dst.unlink()
    elif dst.exists():
        shutil.rmtree(dst)
    try:
        copy_page_folder(src, dst)
    except PageFolderError:
        shutil.rmtree(dst, ignore_errors=True)
        raise


def copy_page_folder(src: Path, dst: Path) -> None:
    """Copy the page folder ``src`` to ``dst`` without following a symlink out of it.

    A link to a file inside is copied as the file; a link to a folder inside is kept as a
    relative link (the page server checks every path it serves stays inside); a link leaving
    ``src``, a dangling link or a loop raises ``PageFolderError`` naming the link, as do more
    than ``MAX_PAGE_FILES`` entries, a file over ``MAX_PAGE_FILE_BYTES`` or a folder over
    ``MAX_PAGE_BYTES`` or ``MAX_PAGE_DEPTH``. Anything not a file, folder or link is left out.
    """

    def real(p: Path) -> str:
        try:
            return os.path.realpath(p, strict=True)
        except OSError as e:
            import errno

            what = "a symlink loop" if e.errno == errno.ELOOP else ("a broken symlink" if os.path.islink(p) else
                                                                      (e.strerror or "unreadable"))
            raise PageFolderError(f"{p}: {what}; refused") from None
        except (RuntimeError, ValueError) as e:
            raise PageFolderError(f"{p}: cannot resolve ({str(e).splitlines()[0][:80]}); refused") from None

    root = real(src)
    if not os.path.isdir(root):
        raise PageFolderError(f"{src}: not a folder")
    count = 0
    total = 0

    def copy_file(from_path: str, to: Path, shown: Path) -> None:
        nonlocal total
        size = os.stat(from_path).st_size
        if size > limits.MAX_PAGE_FILE_BYTES:
            raise PageFolderError(f"{shown}: {size} bytes (max {limits.MAX_PAGE_FILE_BYTES} per file)")
        total += size
        if total > limits.MAX_PAGE_BYTES:
            raise PageFolderError(f"{src}: more than {limits.MAX_PAGE_BYTES} bytes in all (limit)")
        shutil.copyfile(from_path, to, follow_symlinks=False)

    try:
        dst.mkdir(parents=True, exist_ok=True)
        stack: list[tuple[str, Path, int]] = [(root, dst, 0)]
        while stack:
            d, out, depth = stack.pop()
            if depth > limits.MAX_PAGE_DEPTH:
                raise PageFolderError(f"{d}: folders nested deeper than {limits.MAX_PAGE_DEPTH} (limit)")
            with os.scandir(d) as it:
                entries = sorted(it, key=lambda e: e.name)
            for ent in entries:
                count += 1
                if count > limits.MAX_PAGE_FILES:
                    raise PageFolderError(f"{src}: more than {limits.MAX_PAGE_FILES} files and folders (limit)")
                p, q = Path(ent.path), out / ent.name
                if ent.is_symlink():
                    target = real(p)
                    if not _within(target, root):
                        raise PageFolderError(f"{p}: a symlink pointing outside the page folder (to {target}); refused")
                    if os.path.isdir(target):
                        inner = dst / os.path.relpath(target, root)
                        os.symlink(os.path.relpath(inner, q.parent), q)
                    elif os.path.isfile(target):
                        copy_file(target, q, p)
                elif ent.is_dir(follow_symlinks=False):
                    q.mkdir()
                    stack.append((ent.path, q, depth + 1))
                elif ent.is_file(follow_symlinks=False):
                    copy_file(ent.path, q, p)
    except OSError as e:
        raise PageFolderError(f"{getattr(e, 'filename', None) or src}: cannot copy ({e.strerror or e.__class__.__name__})") from None


__all__ = ["BlankModel", "ScreenshotModel", "SlideshowModel", "ReplayModel", "video_frames",
           "copy_page_folder", "PageFolderError"]
