"""The report's pictures: JPEG thumbnails, difference overlays, sampled video frames.

Files are written under the report's ``<name>_files/img/`` folder and referenced by relative
paths. A thumbnail is rewritten only when a source is newer than it, so reporting a run again
(``iwr eval`` then ``iwr report``) redoes only what changed.

The difference overlay, computed on the two thumbnails: the judged one is resized to the
checkpoint's size if needed, a pixel "differs" when any channel differs by more than
``DIFF_THRESHOLD`` (of 255; absorbs JPEG noise and anti-aliasing), and the checkpoint is drawn
faded with differing pixels in red (dilated by one pixel so thin strokes stay visible). The share of differing
pixels is shown beside it: it is a reading aid, not one of the protocol's metrics.

The task's recording (``video.mp4``) is linked (a hard link, else a copy) once per task under
``img/video/<task>/`` so a task page can play it from disk; one larger than ``VIDEO_LIMIT`` is
left out and the page says so.
"""

from __future__ import annotations

import os
from pathlib import Path

MiB = 1024 * 1024
#: a task's recording larger than this is not copied into the report (the page says so and where it is)
VIDEO_LIMIT = 64 * MiB
THUMB_WIDTH = 640
FRAME_WIDTH = 240
JPEG_QUALITY = 72
DIFF_THRESHOLD = 40
RED = (225, 29, 72)


def _fresh(dst: Path, *srcs: Path) -> bool:
    try:
        t = dst.stat().st_mtime
    except OSError:
        return False
    return all(s.stat().st_mtime <= t for s in srcs)


def _save(img, dst: Path, width: int) -> None:
    from PIL import Image

    if img.mode != "RGB":
        img = img.convert("RGB")
    if img.width > width:
        img = img.resize((width, max(1, round(img.height * width / img.width))), Image.Resampling.LANCZOS,
                         reducing_gap=2.0)
    dst.parent.mkdir(parents=True, exist_ok=True)
    tmp = dst.with_name(f".{dst.name}.tmp")
    img.save(tmp, format="JPEG", quality=JPEG_QUALITY, optimize=True)
    os.replace(tmp, dst)


class ImageStore:
    """Writes pictures under ``root`` (the report's ``_files`` folder) and remembers them."""

    def __init__(self, root: Path):
        self.root = root
        self.written: set[Path] = set()

    def rel(self, p: Path) -> str:
        return p.relative_to(self.root).as_posix()

    def thumb(self, src: Path, rel: str, width: int = THUMB_WIDTH) -> str | None:
        """A JPEG thumbnail of ``src`` at ``img/<rel>``; None when ``src`` is missing or unreadable."""
        from PIL import Image, UnidentifiedImageError

        dst = self.root / "img" / rel
        if not src.is_file():
            return None
        if dst not in self.written and not _fresh(dst, src):
            try:
                with Image.open(src) as im:
                    _save(im, dst, width)
            except (OSError, UnidentifiedImageError, ValueError):
                return None
        self.written.add(dst)
        return self.rel(dst)

    def diff(self, gt_thumb: str, shot_thumb: str, rel: str) -> tuple[str | None, float | None]:
        """The difference overlay of two thumbnails (paths from ``thumb``) at ``img/<rel>``, and
        the share (0-100) of pixels that differ.

        Computed on the thumbnails, not the full screenshots: identical regions encode to
        identical JPEG blocks, and decoding two small JPEGs is ~20x cheaper than two PNGs.
        """
        import numpy as np
        from PIL import Image, ImageFilter, UnidentifiedImageError

        a_path, b_path = self.root / gt_thumb, self.root / shot_thumb
        dst = self.root / "img" / rel
        sidecar = dst.with_suffix(".share")
        share = None
        if _fresh(dst, a_path, b_path) and _fresh(sidecar, a_path, b_path):
            try:
                share = float(sidecar.read_text())
            except ValueError:
                share = None
        if share is None:
            try:
                with Image.open(a_path) as a0, Image.open(b_path) as b0:
                    a, b = a0.convert("RGB"), b0.convert("RGB")
            except (OSError, UnidentifiedImageError, ValueError):
                return None, None
            if b.size != a.size:
                b = b.resize(a.size, Image.Resampling.BILINEAR)
            x, y = np.asarray(a, dtype=np.int16), np.asarray(b, dtype=np.int16)
            mask = np.abs(x - y).max(axis=2) > DIFF_THRESHOLD
            share = float(mask.mean() * 100.0)
            grey = np.asarray(a.convert("L"), dtype=np.float32)
            base = (grey * 0.35 + 160).clip(0, 255).astype(np.uint8)
            out = np.repeat(base[:, :, None], 3, axis=2)
            if mask.any():
                m = Image.fromarray(mask.astype(np.uint8) * 255).filter(ImageFilter.MaxFilter(3))
                out[np.asarray(m) > 0] = RED
            _save(Image.fromarray(out), dst, THUMB_WIDTH)
            sidecar.write_text(f"{share:.4f}")
        self.written.update((dst, sidecar))
        return self.rel(dst), share

    def frames(self, video: Path, fps: float, n: int, rel_dir: str,
               anchors: list[float] | None = None) -> list[tuple[str, float]]:
        """Thumbnails of the frames ``sample_frames(video, fps, n)`` gives: [(path, t seconds)].

        Raises ``iwrbench.errors.TaskError`` when the video cannot be read.
        """
        from ..generate import sample_frames

        d = self.root / "img" / rel_dir
        index = d / "frames.txt"
        if _fresh(index, video):
            out = []
            for line in index.read_text().splitlines():
                name, _, t = line.partition(" ")
                if (d / name).is_file():
                    out.append((self.rel(d / name), float(t)))
            if out:
                self.written.update([index, *(self.root / p for p, _ in out)])
                return out
        frames = sample_frames(video, fps, n, max_image_side=FRAME_WIDTH, anchors=anchors) if n > 0 else []
        d.mkdir(parents=True, exist_ok=True)
        out = []
        for f in frames:
            dst = d / f"frame_{f.index:03d}{'.png' if f.mime == 'image/png' else '.jpg'}"
            dst.write_bytes(f.data)
            out.append((self.rel(dst), f.t))
        d.mkdir(parents=True, exist_ok=True)
        index.write_text("".join(f"{Path(p).name} {t}\n" for p, t in out))
        self.written.update([index, *(self.root / p for p, _ in out)])
        return out

    def video(self, src: Path, rel: str, limit: int = VIDEO_LIMIT) -> tuple[str | None, str | None]:
        """The task's recording at ``<rel>`` (a hard link where the file system allows, else a copy),
        and None; or None and why it is not there (missing, or larger than ``limit`` bytes)."""
        import shutil

        try:
            size = src.stat().st_size
        except OSError:
            return None, "the task has no recording (video.mp4) here"
        if size > limit:
            return None, (f"the recording ({size / MiB:.1f} MB) is larger than the {limit / MiB:.0f} MB a report "
                          f"copies; it is {src}")
        dst = self.root / rel
        if dst not in self.written and not (_fresh(dst, src) and dst.stat().st_size == size):
            dst.parent.mkdir(parents=True, exist_ok=True)
            tmp = dst.with_name(f".{dst.name}.tmp")
            tmp.unlink(missing_ok=True)
            try:
                os.link(src, tmp)
            except OSError:  # another file system, or links not allowed: copy
                shutil.copyfile(src, tmp)
            os.replace(tmp, dst)
        self.written.add(dst)
        return self.rel(dst), None

    def remove_stale(self, keep: set[Path] = frozenset()) -> int:
        """Delete files under ``root`` this report did not write (left from an earlier report)."""
        n = 0
        if not self.root.is_dir():
            return 0
        for p in sorted(self.root.rglob("*"), reverse=True):
            if p.is_file() and p not in self.written and p not in keep:
                p.unlink()
                n += 1
            elif p.is_dir() and not any(p.iterdir()):
                p.rmdir()
        return n
