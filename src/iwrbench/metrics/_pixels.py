"""Pixel helpers at the bottom of metrics/: thumbnails, background and ink, connected boxes, overlaps, palettes.

What the offline visual comparison (``_blocks``) measures with; they import no other metric module (numpy and
scipy load inside each function), so every metric module may stand on them and none of them on a metric.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

if TYPE_CHECKING:  # pragma: no cover
    import numpy as np
    from PIL.Image import Image


def _thumb(img: "Image", width: int) -> "np.ndarray":
    import numpy as np
    from PIL import Image as PILImage

    w, h = img.size
    t = img.convert("RGB").resize((width, max(1, round(h * width / w))), PILImage.Resampling.BOX)
    return np.asarray(t, dtype=np.int16)


def background_colour(rgb: "np.ndarray") -> "np.ndarray":
    """The most common colour (quantised to 32 levels per channel), as the mean of its pixels."""
    import numpy as np

    q = (rgb // 8).reshape(-1, 3)
    code = (q[:, 0].astype(np.int64) << 10) | (q[:, 1].astype(np.int64) << 5) | q[:, 2].astype(np.int64)
    mode = int(np.bincount(code, minlength=1 << 15).argmax())
    return rgb.reshape(-1, 3)[code == mode].mean(axis=0)


def ink_mask(rgb: "np.ndarray", bg: "np.ndarray", tol: int = 24) -> "np.ndarray":
    """Pixels that differ from the background colour by more than ``tol`` in some channel."""
    import numpy as np

    return np.abs(rgb - bg[None, None, :]).max(axis=2) > tol


def _soft_overlap(a: "np.ndarray", b: "np.ndarray") -> float:
    """sum(min) / sum(max) of two non-negative maps (weighted Jaccard); both empty = 1."""
    import numpy as np

    hi = float(np.maximum(a, b).sum())
    if hi == 0.0:
        return 1.0
    return float(np.minimum(a, b).sum()) / hi


def _occupancy(mask: "np.ndarray", grid: tuple[int, int]) -> "np.ndarray":
    """Fraction of ink per cell of a ``grid`` (cols, rows), smoothed over 3x3 cells."""
    import numpy as np
    from PIL import Image as PILImage
    from scipy.ndimage import uniform_filter

    occ = PILImage.fromarray((mask * 255).astype(np.uint8)).resize(grid, PILImage.Resampling.BOX)
    return uniform_filter(np.asarray(occ, dtype=np.float32) / 255.0, size=3, mode="constant")


def element_boxes(rgb: "np.ndarray", min_area: int = 6) -> "np.ndarray":
    """Boxes (x0, y0, x1, y1) of the UI blocks of a thumbnail: connected components of its edge
    map, letters merged into words by a 1 px dilation. A bordered card yields its frame as one
    box and each word inside as others; a flat area yields nothing."""
    import numpy as np
    from scipy import ndimage

    g = rgb.mean(axis=2).astype(np.float32) / 255.0
    gx = np.zeros_like(g)
    gy = np.zeros_like(g)
    gx[:, 1:-1] = g[:, 2:] - g[:, :-2]
    gy[1:-1, :] = g[2:, :] - g[:-2, :]
    edges = np.hypot(gx, gy) > 0.1
    edges = ndimage.binary_dilation(edges, iterations=1)
    return np.asarray(component_boxes(edges, min_area), dtype=np.float32).reshape(-1, 4)


def component_boxes(mask: "np.ndarray", min_area: int) -> list[tuple[int, int, int, int]]:
    """Boxes (x0, y0, x1, y1) of the connected components of ``mask`` whose box is at least ``min_area``."""
    from scipy import ndimage

    labels, _ = ndimage.label(mask)
    boxes = []
    for sl in ndimage.find_objects(labels):
        if sl is None:
            continue
        ys, xs = sl
        if (ys.stop - ys.start) * (xs.stop - xs.start) >= min_area:
            boxes.append((xs.start, ys.start, xs.stop, ys.stop))
    return boxes


def _iou_matrix(a: "np.ndarray", b: "np.ndarray") -> "np.ndarray":
    import numpy as np

    x0 = np.maximum(a[:, None, 0], b[None, :, 0])
    y0 = np.maximum(a[:, None, 1], b[None, :, 1])
    x1 = np.minimum(a[:, None, 2], b[None, :, 2])
    y1 = np.minimum(a[:, None, 3], b[None, :, 3])
    inter = np.clip(x1 - x0, 0, None) * np.clip(y1 - y0, 0, None)
    area_a = (a[:, 2] - a[:, 0]) * (a[:, 3] - a[:, 1])
    area_b = (b[:, 2] - b[:, 0]) * (b[:, 3] - b[:, 1])
    return inter / (area_a[:, None] + area_b[None, :] - inter)


def element_f1(a: "np.ndarray", b: "np.ndarray", iou: float = 0.5) -> float:
    """F1 of one-to-one box matches (Hungarian on IoU) with IoU >= ``iou``; both empty = 1."""
    from scipy.optimize import linear_sum_assignment

    if len(a) == 0 and len(b) == 0:
        return 1.0
    if len(a) == 0 or len(b) == 0:
        return 0.0
    m = _iou_matrix(a, b)
    rows, cols = linear_sum_assignment(-m)
    hits = int((m[rows, cols] >= iou).sum())
    return 2.0 * hits / (len(a) + len(b))


def palette(rgb: "np.ndarray", mask: "np.ndarray", levels: int = 4) -> "np.ndarray":
    """Normalised histogram of the colours under ``mask`` on a levels^3 RGB grid (zeros if none)."""
    import numpy as np

    px = rgb[mask]
    hist = np.zeros(levels**3, dtype=np.float64)
    if len(px) == 0:
        return hist
    q = np.clip(px * levels // 256, 0, levels - 1).astype(np.int64)
    hist += np.bincount((q[:, 0] * levels + q[:, 1]) * levels + q[:, 2], minlength=levels**3)
    return hist / hist.sum()
