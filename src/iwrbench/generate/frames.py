"""Video frames as a model sees them.

Sample times: one every ``1/fps`` seconds from the first frame (0, 1, 2 ... at 1 fps), as
many as fit before the end. When that is more than ``max_frames``, ``max_frames`` times
uniformly spaced over the video instead (``i * duration / max_frames``), so the whole
interaction is covered rather than only its start.

For each time the first frame at or after it is kept (1 ms of tolerance for timestamp
rounding). The video is decoded once, front to back: measured here, that is 4-5x faster than
seeking to each time. Two sample times that land on the same frame (a video with fewer
frames than samples) give it once, not twice. Timestamps are relative to the first frame.

Frames are encoded as JPEG (quality 90) by default: 70 PNG screenshots can exceed a
provider's request size limit. ``fmt="png"`` keeps them lossless.
"""

from __future__ import annotations

import io
import math
from dataclasses import dataclass
from pathlib import Path

from ..errors import TaskError

#: timestamps within this many seconds before a sample time still count as "at" it
_EPS = 1e-3
JPEG_QUALITY = 90


@dataclass(frozen=True)
class Frame:
    t: float  # seconds from the first frame
    data: bytes
    mime: str  # image/jpeg | image/png
    size: tuple[int, int]  # (width, height) after any downscale
    index: int  # position among the sampled frames (0-based)

    @property
    def label(self) -> str:
        return f"frame {self.index + 1} (t={self.t:.1f}s)"


@dataclass(frozen=True)
class VideoInfo:
    duration_s: float
    width: int
    height: int
    fps: float | None
    frames: int | None


def _open(path: Path):
    import av  # heavy: imported only when frames are needed

    path = Path(path)
    if not path.is_file():
        raise TaskError(f"video not found: {path}")
    try:
        container = av.open(str(path))
    except (av.FFmpegError, OSError, ValueError) as e:
        raise TaskError(f"cannot read video {path}: {e}") from None
    if not container.streams.video:
        container.close()
        raise TaskError(f"no video stream in {path}")
    return container


def video_info(path: Path) -> VideoInfo:
    """Duration and size from the container's header (no decoding unless the header lacks them)."""
    import av

    container = _open(path)
    try:
        stream = container.streams.video[0]
        duration = None
        if stream.duration is not None and stream.time_base is not None:
            duration = float(stream.duration * stream.time_base)
        elif container.duration is not None:
            duration = container.duration / av.time_base
        if not duration or duration <= 0:
            duration = _demux_duration(container, stream)
        rate = stream.average_rate or stream.guessed_rate
        return VideoInfo(
            duration_s=duration,
            width=stream.codec_context.width,
            height=stream.codec_context.height,
            fps=float(rate) if rate else None,
            frames=stream.frames or None,
        )
    except av.FFmpegError as e:
        raise TaskError(f"cannot read video {path}: {e}") from None
    finally:
        container.close()


def _demux_duration(container, stream) -> float:
    first = last = None
    dur = 0
    for packet in container.demux(stream):
        if packet.pts is None:
            continue
        first = packet.pts if first is None else min(first, packet.pts)
        if last is None or packet.pts >= last:
            last, dur = packet.pts, packet.duration or 0
    if first is None or stream.time_base is None:
        return 0.0
    return float((last - first + dur) * stream.time_base)


#: how long a recorded click/key cue stays visible (``record.video.CUE_S``, kept here so the frame plan does
#: not import the recorder); an anchor counts as shown when a sample time falls in [t, t + ANCHOR_S)
ANCHOR_S = 1.2


def sample_times(duration_s: float, fps: float = 1.0, max_frames: int = 64,
                 anchors: "list[float] | None" = None) -> list[float]:
    """The times (seconds) frames are taken at; see the module docstring.

    ``anchors``: times where a recorded action shows in the video (``Action.video_time_s``: its cue
    starts, or, for a Hover or Scroll, its effect is on screen). At 1 fps every
    cue is already caught; when fewer frames are taken (``max_frames`` or a lower ``fps``), each cue no
    sample falls on gets one: added while there is room, else it takes the place of the nearest sample
    that shows no other cue. The count never exceeds ``max_frames``.
    """
    if duration_s <= 0 or fps <= 0 or max_frames <= 0:
        return [0.0] if duration_s >= 0 and max_frames > 0 else []
    n = max(1, math.ceil(duration_s * fps - 1e-9))
    if n <= max_frames:
        times = [i / fps for i in range(n)]
    else:
        times = [i * duration_s / max_frames for i in range(max_frames)]
    for a in sorted({round(x, 6) for x in anchors or [] if 0 <= x < duration_s}):
        if any(a - _EPS <= t < a + ANCHOR_S for t in times):
            continue
        at = round(min(a + ANCHOR_S / 2, max(a, duration_s - 1e-3)), 6)
        if len(times) < max_frames:
            times = sorted(times + [at])
            continue

        def shows_other(t: float, a: float = a) -> bool:
            return any(b != a and b - _EPS <= t < b + ANCHOR_S for b in anchors or [])

        free = [k for k, t in enumerate(times) if not shows_other(t) and k > 0]  # the first frame stays
        if free:
            k = min(free, key=lambda k: (abs(times[k] - at), k))
            times = sorted(times[:k] + times[k + 1:] + [at])
    return times


def planned_frame_count(duration_s: float, fps: float = 1.0, max_frames: int = 64,
                        anchors: "list[float] | None" = None) -> int:
    return len(sample_times(duration_s, fps, max_frames, anchors))


def task_anchors(task) -> list[float]:
    """Where the recorded actions show in the task's video (empty for the official layout)."""
    return [a.video_time_s for a in task.action_sequence if a.video_time_s is not None]


def fit_size(size: tuple[int, int], max_side: int | None) -> tuple[int, int]:
    """``size`` scaled down (aspect kept) so its long side is at most ``max_side``."""
    w, h = size
    if not max_side or max(w, h) <= max_side:
        return w, h
    s = max_side / max(w, h)
    return max(1, round(w * s)), max(1, round(h * s))


def encode_image(img, fmt: str = "jpeg", max_side: int | None = None) -> tuple[bytes, str, tuple[int, int]]:
    """A PIL image as (bytes, mime, size), downscaled first when ``max_side`` asks for it."""
    from PIL import Image

    target = fit_size(img.size, max_side)
    if target != img.size:
        img = img.resize(target, Image.Resampling.LANCZOS)
    buf = io.BytesIO()
    if fmt.lower() in ("jpeg", "jpg"):
        if img.mode not in ("RGB", "L"):
            img = img.convert("RGB")
        img.save(buf, format="JPEG", quality=JPEG_QUALITY)
        mime = "image/jpeg"
    elif fmt.lower() == "png":
        img.save(buf, format="PNG")
        mime = "image/png"
    else:
        raise ValueError(f"frame format must be jpeg or png, got {fmt!r}")
    return buf.getvalue(), mime, img.size


def sample_frames(
    video_path: Path,
    fps: float = 1.0,
    max_frames: int = 64,
    *,
    max_image_side: int | None = None,
    fmt: str = "jpeg",
    anchors: "list[float] | None" = None,
) -> list[Frame]:
    """Frames of ``video_path`` at ``fps`` (at most ``max_frames``), encoded as ``fmt``.

    Raises ``TaskError`` naming the file when it is missing, unreadable or has no frames.
    """
    import av

    info = video_info(video_path)
    times = sample_times(info.duration_s, fps, max_frames, anchors)
    if not times:
        return []
    container = _open(video_path)
    out: list[Frame] = []
    try:
        stream = container.streams.video[0]
        stream.thread_type = "AUTO"
        start: float | None = None
        i = 0
        for frame in container.decode(stream):
            ft = frame.time
            if ft is None:
                continue
            if start is None:
                start = ft
            t = ft - start
            if t + _EPS < times[i]:
                continue
            data, mime, size = encode_image(frame.to_image(), fmt, max_image_side)
            out.append(Frame(t=round(t, 6), data=data, mime=mime, size=size, index=len(out)))
            while i < len(times) and t + _EPS >= times[i]:
                i += 1  # later times served by this same frame are not repeated
            if i >= len(times):
                break
    except av.FFmpegError as e:
        raise TaskError(f"cannot decode video {video_path}: {e}") from None
    finally:
        container.close()
    if not out:
        raise TaskError(f"no frames could be decoded from {video_path}")
    return out
