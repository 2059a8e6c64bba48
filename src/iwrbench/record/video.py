"""Screencast frames -> a constant-rate H.264 video with a drawn pointer and click/key cues.

Chromium's screencast sends a frame only when the page repaints; the encoder holds the last
frame to produce a constant frame rate, so pauses between actions last as long as they did.
The pointer and cues are drawn here, on the video only: checkpoints never show them.
"""

from __future__ import annotations

import bisect
import io
from pathlib import Path

from PIL import Image, ImageDraw, ImageFont

from ..browser.player import Trace

#: how long a click or key cue stays on the video at full strength: longer than one second, so that frames
#: sampled at 1 fps (the published rate) always catch every cue (see ``generate.frames.sample_times``'s anchors)
CUE_S = 1.2
CLICK_CUE_S = CUE_S
KEY_CUE_S = CUE_S
#: a sample time takes the first video frame at or after it, up to one frame later: a cue is held at full
#: strength that much longer than ``CUE_S`` (at the slowest rate the recorder writes), then fades out
_HOLD_S = CUE_S + 0.15
_FADE_S = 0.3
#: the cue colour (a saturated red that pages seldom use): rings around clicks, the key badge's border
CUE_RGB = (255, 40, 40)
#: where a key badge may go (fractions of the frame: badge centre); the least busy place is used
_KEY_PLACES = ((0.5, 0.93), (0.86, 0.93), (0.14, 0.93), (0.86, 0.07), (0.14, 0.07), (0.5, 0.07))

_ARROW = [(0, 0), (0, 17), (4, 13), (7, 20), (10, 19), (7, 12), (12, 12)]


#: what the recorder did, in wall-clock seconds (the screencast's clock): the player's trace of its moves, clicks,
#: keys and each action's moment
Timeline = Trace


def _font(size: int) -> ImageFont.ImageFont:
    for p in ("/usr/share/fonts/truetype/dejavu/DejaVuSans-Bold.ttf",
              "/usr/share/fonts/truetype/liberation/LiberationSans-Bold.ttf"):
        try:
            return ImageFont.truetype(p, size)
        except OSError:
            continue
    return ImageFont.load_default()


def _busyness(img: Image.Image, box: tuple[int, int, int, int]) -> float:
    """How much is drawn inside ``box`` (edges: text, icons, borders); a flat area scores 0."""
    from PIL import ImageFilter, ImageStat

    region = img.crop(box).convert("L").filter(ImageFilter.FIND_EDGES)
    return float(ImageStat.Stat(region).mean[0])


def _key_place(img: Image.Image, size: tuple[float, float]) -> tuple[float, float]:
    """Centre of the least busy place for a badge of ``size`` (ties: the earlier place)."""
    bw, bh = size
    best, where = None, (img.width / 2, img.height - 60)
    for fx, fy in _KEY_PLACES:
        cx = min(max(fx * img.width, bw / 2 + 4), img.width - bw / 2 - 4)
        cy = min(max(fy * img.height, bh / 2 + 4), img.height - bh / 2 - 4)
        box = (int(cx - bw / 2), int(cy - bh / 2), int(cx + bw / 2), int(cy + bh / 2))
        b = _busyness(img, box)
        if best is None or b < best - 1e-6:
            best, where = b, (cx, cy)
    return where


def cue_alpha(age: float) -> int:
    """A cue's opacity ``age`` seconds after it started: full for ``CUE_S`` and one frame more, then fading."""
    if age < _HOLD_S:
        return 235
    return max(0, int(235 - 175 * (age - _HOLD_S) / _FADE_S))


def draw_overlay(img: Image.Image, t: float, tl: Timeline, font: ImageFont.ImageFont,
                 places: dict[int, tuple[float, float]] | None = None) -> None:
    """Draw the cues alive at ``t`` and the pointer. A click is a ring around the point (its centre left
    clear so the control's label stays readable); a key is a badge placed, once per cue, where the frame
    is least busy. ``places`` keeps each key badge's place for the cue's whole life."""
    d = ImageDraw.Draw(img, "RGBA")
    for (tc, x, y) in tl.clicks:
        age = t - tc
        if 0 <= age <= _HOLD_S + _FADE_S:
            grow = min(1.0, age / 0.3)
            r = 12 + 10 * grow
            a = cue_alpha(age)
            d.ellipse([x - r - 2, y - r - 2, x + r + 2, y + r + 2], outline=(255, 255, 255, a), width=2)
            d.ellipse([x - r, y - r, x + r, y + r], outline=(*CUE_RGB, a), width=4)
    for k, (tk, label) in enumerate(tl.keys):
        age = t - tk
        if 0 <= age <= _HOLD_S + _FADE_S:
            a = cue_alpha(age)
            text = f"\u2328 {label}"
            box = d.textbbox((0, 0), text, font=font)
            tw, th = box[2] - box[0], box[3] - box[1]
            size = (tw + 36, th + 26)
            if places is None:
                places = {}
            if k not in places:
                places[k] = _key_place(img, size)
            cx, cy = places[k]
            d.rounded_rectangle([cx - size[0] / 2, cy - size[1] / 2, cx + size[0] / 2, cy + size[1] / 2],
                                radius=10, fill=(20, 20, 20, a), outline=(*CUE_RGB, a), width=3)
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
    places: dict[int, tuple[float, float]] = {}
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
            draw_overlay(img, t, tl, font, places)
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
