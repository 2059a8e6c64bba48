"""Images a provider accepts: each provider's documented limits, and a request brought within them.

A judge screenshot is sent as it was taken, as the published judge sends it. A provider refuses an image over
its documented limits with an HTTP 400, which would end a judge call (``judge_error``) or a generation
(``api_error``) for a reason that is ours, not the page's or the model's. So before a request leaves, every image
is checked against the provider's limits (``LIMITS``, with where each is documented) and one that is over is
downscaled the way the published code downscales an image (``utils/core.py``, ``resize_image``): the long side
to the limit, the other side in proportion rounded down, by area averaging, in the image's own format. An
image over a size in bytes is downscaled step by step until it fits. What was changed is returned (and kept
with the reply, ``ChatReply.images``), never silent. A request that no downscaling can fit (too many images)
raises ``ModelError`` naming the limit.
"""

from __future__ import annotations

import dataclasses
import io
import math
from dataclasses import dataclass
from typing import Any

from ..errors import ModelError
from .chat import ChatRequest, ImagePart, Message


@dataclass(frozen=True)
class ImageLimits:
    """What one provider accepts (None: no documented limit)."""

    #: largest image, in bytes as the provider counts them (``counted``: "raw" file bytes or "base64" text)
    max_bytes: int | None = None
    counted: str = "raw"
    #: longest side in pixels
    max_side: int | None = None
    #: (n, side): a request with more than n images takes at most ``side`` pixels a side
    many: tuple[int, int] | None = None
    #: most images in one request
    max_images: int | None = None
    #: most image bytes in one request (raw)
    max_total_bytes: int | None = None
    #: where the limits are documented
    source: str = ""


MB = 1024 * 1024

#: Anthropic's Messages API: at most 5 MB per image (the API counts the base64 text: "image exceeds 5 MB maximum:
#: N bytes > 5242880 bytes"), 8000 px a side, 2000 px a side in a request with more than 20 images, 100 images
#: per request. OpenAI: at most 20 MB per image, 500 images and 50 MB of images per request (it scales large
#: images down itself, so no side limit refuses a request).
LIMITS: dict[str, ImageLimits] = {
    "anthropic": ImageLimits(max_bytes=5 * MB, counted="base64", max_side=8000, many=(20, 2000), max_images=100,
                             source="https://docs.anthropic.com/en/docs/build-with-claude/vision"),
    "openai": ImageLimits(max_bytes=20 * MB, counted="raw", max_images=500, max_total_bytes=50 * MB,
                          source="https://platform.openai.com/docs/guides/images-vision"),
}

_FORMATS = {"image/png": "PNG", "image/jpeg": "JPEG", "image/webp": "WEBP", "image/gif": "PNG"}


def _counted(data: bytes, limits: ImageLimits) -> int:
    return 4 * math.ceil(len(data) / 3) if limits.counted == "base64" else len(data)


def published_downscale(data: bytes, mime: str, max_side: int) -> tuple[bytes, str, tuple[int, int], tuple[int, int]]:
    """The image with its long side brought to ``max_side`` as the published ``resize_image`` does it (the other
    side ``int(side * ratio)``, area averaging; OpenCV's INTER_AREA there, Pillow's box filter here), saved in its
    own format (a GIF as PNG). Returns (bytes, mime, size before, size after); unchanged when already within."""
    from PIL import Image

    with Image.open(io.BytesIO(data)) as im:
        w, h = im.size
        ratio = max_side / w if w > h else max_side / h
        if ratio >= 1.0:
            return data, mime, (w, h), (w, h)
        size = (max_side, max(1, int(h * ratio))) if w > h else (max(1, int(w * ratio)), max_side)
        out = im.convert("RGB" if im.mode not in ("RGB", "RGBA", "L") else im.mode).resize(size, Image.Resampling.BOX)
    fmt = _FORMATS.get(mime, "PNG")
    if fmt == "JPEG" and out.mode == "RGBA":
        out = out.convert("RGB")
    buf = io.BytesIO()
    out.save(buf, format=fmt, **({"quality": 95} if fmt == "JPEG" else {}))
    return buf.getvalue(), ("image/png" if fmt == "PNG" else mime), (w, h), size


def _size(data: bytes) -> tuple[int, int] | None:
    from PIL import Image

    try:
        with Image.open(io.BytesIO(data)) as im:
            return im.size
    except Exception:  # not an image Pillow reads: left for the provider to judge
        return None


def fit_images(request: ChatRequest, limits: ImageLimits | None) -> tuple[ChatRequest, list[dict[str, Any]]]:
    """``request`` with every image within ``limits`` (see the module doc), and what was changed: one entry per
    image downscaled, ``{index, before: [w, h, bytes], after: [w, h, bytes], why}`` (index: the image's place among
    the request's images, from 0)."""
    if limits is None:
        return request, []
    parts = [(mi, pi, p) for mi, m in enumerate(request.messages) for pi, p in enumerate(m.content)
             if isinstance(p, ImagePart)]
    if limits.max_images is not None and len(parts) > limits.max_images:
        raise ModelError(f"{len(parts)} images in one request; the provider takes at most {limits.max_images} "
                         f"({limits.source}): send fewer (--max-images)")
    side = limits.max_side
    if limits.many is not None and len(parts) > limits.many[0]:
        side = min(side or limits.many[1], limits.many[1])
    new: dict[tuple[int, int], ImagePart] = {}
    changes: list[dict[str, Any]] = []
    for k, (mi, pi, p) in enumerate(parts):
        size = _size(p.data)
        if size is None:
            continue
        data, mime, why = p.data, p.mime, []
        after = size
        if side is not None and max(size) > side:
            data, mime, _, after = published_downscale(data, mime, side)
            why.append(f"longer than {side} px a side")
        steps = 0
        while limits.max_bytes is not None and _counted(data, limits) > limits.max_bytes and steps < 12:
            target = int(max(after) * min(0.9, math.sqrt(limits.max_bytes / _counted(data, limits))))
            data, mime, _, after = published_downscale(data, mime, max(1, target))
            steps += 1
            if not why or not why[-1].startswith("over"):
                why.append(f"over {limits.max_bytes // MB} MB ({limits.counted})")
        if data is not p.data:
            new[(mi, pi)] = dataclasses.replace(p, data=data, mime=mime)
            changes.append({"index": k, "before": [*size, len(p.data)], "after": [*after, len(data)],
                            "why": "; ".join(why)})
    if limits.max_total_bytes is not None:
        current = {(mi, pi): new.get((mi, pi), p) for mi, pi, p in parts}
        steps = 0
        while sum(len(p.data) for p in current.values()) > limits.max_total_bytes and steps < 50:
            key = max(current, key=lambda q: len(current[q].data))
            p = current[key]
            size = _size(p.data)
            if size is None:
                break
            data, mime, _, after = published_downscale(p.data, p.mime, max(1, int(max(size) * 0.8)))
            k = next(i for i, (mi, pi, _) in enumerate(parts) if (mi, pi) == key)
            first = next((c for c in changes if c["index"] == k), None)
            if first is None:
                first = {"index": k, "before": [*size, len(p.data)], "why": ""}
                changes.append(first)
            first["after"] = [*after, len(data)]
            if "request" not in first["why"]:
                first["why"] = "; ".join(x for x in (first["why"], f"the request's images over "
                                                     f"{limits.max_total_bytes // MB} MB") if x)
            current[key] = new[key] = dataclasses.replace(p, data=data, mime=mime)
            steps += 1
    if not new:
        return request, []
    messages = [Message(m.role, [new.get((mi, pi), p) for pi, p in enumerate(m.content)])
                for mi, m in enumerate(request.messages)]
    changes.sort(key=lambda c: c["index"])
    return dataclasses.replace(request, messages=messages), changes
