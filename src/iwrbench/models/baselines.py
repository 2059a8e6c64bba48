"""Baseline models that need no API: they bound what the judge's numbers mean.

- ``oracle``: the task's own source site (must score IFS 100; proves the judge and the task)
- ``blank``: an empty page (must score near 0)
- ``screenshot``: a static picture of the first video frame (how much a picture alone earns)
- ``slideshow``: the video's frames, advancing on any click, key or wheel (how far pixels can
  be gamed; see the README)
- ``replay:DIR``: pre-made pages, ``DIR/<task_id>/`` served as the web root
"""

from __future__ import annotations

import html
import json
import shutil
import time
from pathlib import Path
from typing import Any

from ..errors import ModelError, TaskError
from ..records import GenerationInfo, Task
from .base import Generation, GenerationOptions, PageBundle


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
        return Generation("ok", page, GenerationInfo())


class OracleModel(_Baseline):
    name = "oracle"

    async def generate(self, task: Task, out_dir: Path, options: GenerationOptions) -> Generation:
        from ..tasks.oracle import oracle_bundle, oracle_description

        try:
            bundle = oracle_bundle(task)
        except TaskError as e:
            return Generation("generation_error", None, GenerationInfo(), error=f"oracle: {e}")
        out_dir.mkdir(parents=True, exist_ok=True)
        (out_dir / "ORACLE.json").write_text(json.dumps(oracle_description(task), indent=1))
        entry = (bundle.root / bundle.entry.split("?")[0].split("#")[0]) if not bundle.url else None
        if entry is not None and entry.is_file() and entry.stat().st_size < 2_000_000:
            shutil.copy2(entry, out_dir / "index.html")
        return Generation("ok", bundle, GenerationInfo())


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
        return Generation("ok", _write(out_dir, body), GenerationInfo(images=1))


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
        return Generation("ok", _write(out_dir, body), GenerationInfo(images=len(names)))


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
        if not (src / "index.html").is_file():
            return Generation("generation_error", None, GenerationInfo(),
                              error=f"replay: no {task.id}/index.html in {self.dir}")
        t0 = time.monotonic()
        if out_dir.exists():
            shutil.rmtree(out_dir)
        shutil.copytree(src, out_dir)
        return Generation("ok", PageBundle(root=out_dir), GenerationInfo(duration_s=time.monotonic() - t0))


__all__ = ["BlankModel", "OracleModel", "ScreenshotModel", "SlideshowModel", "ReplayModel", "video_frames"]
