"""Screencast frames -> a constant-rate H.264 video with a drawn pointer and click/key cues.

Chromium's screencast sends a frame only when the page repaints; the encoder holds the last
frame to produce a constant frame rate, so pauses between actions last as long as they did.
The pointer and cues are drawn here, on the video only: checkpoints never show them.
"""

from __future__ import annotations

import bisect
import io
from dataclasses import dataclass, field
from pathlib import Path

from PIL import Image, ImageDraw, ImageFont

CLICK_CUE_S = 0.45
KEY_CUE_S = 0.9

_ARROW = [(0, 0), (0, 17), (4, 13), (7, 20), (10, 19), (7, 12), (12, 12)]


@dataclass
class Timeline:
    """What the recorder did, in wall-clock seconds (the screencast's clock)."""

    moves: list[tuple[float, float, float]] = field(default_factory=list)  # (t, x, y)
    clicks: list[tuple[float, float, float]] = field(default_factory=list)
    keys: list[tuple[float, str]] = field(default_factory=list)

    def pointer(self, t: float) -> tuple[float, float] | None:
        if not self.moves:
            return None
        i = bisect.bisect_right([m[0] for m in self.moves], t) - 1
        if i < 0:
            return self.moves[0][1], self.moves[0][2]
        return self.moves[i][1], self.moves[i][2]


def _font(size: int) -> ImageFont.ImageFont:
    for p in ("/usr/share/fonts/truetype/dejavu/DejaVuSans-Bold.ttf",
              "/usr/share/fonts/truetype/liberation/LiberationSans-Bold.ttf"):
        try:
            return ImageFont.truetype(p, size)
        except OSError:
            continue
    return ImageFont.load_default()


def draw_overlay(img: Image.Image, t: float, tl: Timeline, font: ImageFont.ImageFont) -> None:
    d = ImageDraw.Draw(img, "RGBA")
    for (tc, x, y) in tl.clicks:
        age = t - tc
        if 0 <= age <= CLICK_CUE_S:
            r = 8 + 22 * (age / CLICK_CUE_S)
            a = int(200 * (1 - age / CLICK_CUE_S))
            d.ellipse([x - r, y - r, x + r, y + r], outline=(255, 64, 64, a), width=4)
            d.ellipse([x - 6, y - 6, x + 6, y + 6], fill=(255, 64, 64, a))
    for (tk, label) in tl.keys:
        age = t - tk
        if 0 <= age <= KEY_CUE_S:
            a = int(230 * min(1.0, 2 * (1 - age / KEY_CUE_S)))
            text = f"\u2328 {label}"
            box = d.textbbox((0, 0), text, font=font)
            tw, th = box[2] - box[0], box[3] - box[1]
            cx, cy = img.width / 2, img.height - 60
            d.rounded_rectangle([cx - tw / 2 - 16, cy - th / 2 - 10, cx + tw / 2 + 16, cy + th / 2 + 12],
                                radius=10, fill=(20, 20, 20, a))
            d.text((cx - tw / 2, cy - th / 2 - 2), text, font=font, fill=(255, 255, 255, a))
    p = tl.pointer(t)
    if p is not None:
        x, y = p
        pts = [(x + dx, y + dy) for dx, dy in _ARROW]
        d.polygon(pts, fill=(255, 255, 255, 255), outline=(0, 0, 0, 255))
        d.line(pts + [pts[0]], fill=(0, 0, 0, 255), width=1)


def encode(frames: list[tuple[float, bytes]], t0: float, t1: float, size: tuple[int, int], out: Path,
           *, fps: int = 10, timeline: Timeline | None = None, crf: int = 28) -> tuple[int, float]:
    """Write ``out`` (H.264, yuv420p, constant ``fps``) covering [t0, t1]; returns (frames, seconds)."""
    import av  # heavy: load only when encoding

    if not frames:
        raise ValueError("no screencast frames were captured")
    frames = sorted(frames, key=lambda f: f[0])
    times = [f[0] for f in frames]
    w, h = size
    W, H = w + (w % 2), h + (h % 2)
    n = max(1, int(round((t1 - t0) * fps)) + 1)
    font = _font(22)
    tl = timeline or Timeline()
    container = av.open(str(out), mode="w")
    try:
        stream = container.add_stream("libx264", rate=fps)
        stream.width, stream.height = W, H
        stream.pix_fmt = "yuv420p"
        stream.options = {"crf": str(crf), "preset": "veryfast", "tune": "stillimage"}
        decoded: dict[int, Image.Image] = {}
        for k in range(n):
            t = t0 + k / fps
            i = max(0, bisect.bisect_right(times, t) - 1)
            base = decoded.get(i)
            if base is None:
                base = Image.open(io.BytesIO(frames[i][1])).convert("RGB")
                if base.size != (W, H):
                    canvas = Image.new("RGB", (W, H), "white")
                    canvas.paste(base.resize((w, h)) if base.size != (w, h) else base, (0, 0))
                    base = canvas
                decoded = {i: base}  # keep one decoded frame: they come in order
            img = base.copy()
            draw_overlay(img, t, tl, font)
            for packet in stream.encode(av.VideoFrame.from_image(img)):
                container.mux(packet)
        for packet in stream.encode():
            container.mux(packet)
    finally:
        container.close()
    return n, n / fps


def probe(path: Path) -> tuple[int, float, tuple[int, int]]:
    """(frame count, duration in seconds, (w, h)) of a video, decoding it fully."""
    import av

    with av.open(str(path)) as c:
        s = c.streams.video[0]
        n = 0
        size = (s.codec_context.width, s.codec_context.height)
        rate = float(s.average_rate or s.guessed_rate or 0) or None
        last = 0.0
        for fr in c.decode(s):
            n += 1
            if fr.time is not None:
                last = fr.time
        dur = (n / rate) if rate else last
    return n, dur, size
