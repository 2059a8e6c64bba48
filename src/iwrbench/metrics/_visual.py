"""Visual similarity of two screenshots, behind one small protocol, and the simple backends.

The published low-level visual score is the cosine of DINOv2-base CLS embeddings. DINOv2 weights
cannot be fetched here, so the offline default is ``blocks`` (``_blocks.py``: text blocks, elements and
the picture, where the step changed weighing half; ``_backends.DEFAULT_VISUAL``), chosen by the evidence
in ``bench/visual_metric_evidence.py`` and docs/metrics.md. This module holds the backends it builds on
and the earlier candidates: multi-scale gradient-orientation cell histograms ("hog"), which rank
identical > restyled > unrelated pages and give a blank page almost nothing against a mostly-white UI
page (a blank page has no gradients at all, where SSIM and colour-based scores see "white matches
white"), colour layout, edges, SSIM, pHash and their combinations.

The candidates stay available by name (``get_visual("ssim")`` ...) so the comparison can be
re-run and so a run can choose one explicitly; ``describe()`` tells a run log how a backend was
built. Heavy imports (scipy, scikit-image, torch) happen inside the functions that need them.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, Protocol, runtime_checkable

from iwrbench.metrics._component import describe

if TYPE_CHECKING:  # pragma: no cover
    import numpy as np
    from PIL.Image import Image


@runtime_checkable
class VisualBackend(Protocol):
    """Similarity of two screenshots in [0, 1] (1 = the same picture)."""

    name: str

    def available(self) -> tuple[bool, str]: ...

    def similarity(self, a: "Image", b: "Image") -> float: ...


# ----------------------------------------------------------------------------- helpers


def _same_size(a: "Image", b: "Image") -> tuple["Image", "Image"]:
    """Both as RGB, ``b`` resized to ``a``'s size when they differ (a is the ground truth)."""
    from PIL import Image as PILImage

    a = a.convert("RGB")
    b = b.convert("RGB")
    if b.size != a.size:
        b = b.resize(a.size, PILImage.Resampling.BILINEAR)
    return a, b


def _resized(img: "Image", width: int) -> "Image":
    from PIL import Image as PILImage

    w, h = img.size
    if w == width:
        return img
    height = max(1, round(h * width / w))
    return img.resize((width, height), PILImage.Resampling.BOX if width < w else PILImage.Resampling.BILINEAR)


def _gray(img: "Image", width: int) -> "np.ndarray":
    import numpy as np

    return np.asarray(_resized(img, width).convert("L"), dtype=np.float32) / 255.0


def _cosine(u: "np.ndarray", v: "np.ndarray") -> float:
    """Cosine of two non-negative vectors; both zero = 1 (same nothing), one zero = 0."""
    import numpy as np

    nu = float(np.linalg.norm(u))
    nv = float(np.linalg.norm(v))
    if nu == 0.0 and nv == 0.0:
        return 1.0
    if nu == 0.0 or nv == 0.0:
        return 0.0
    return float(min(1.0, max(0.0, float(np.dot(u.ravel(), v.ravel())) / (nu * nv))))


def _clip01(x: float) -> float:
    return float(min(1.0, max(0.0, x)))


# ----------------------------------------------------------------------------- gradient histograms


def orientation_cells(g: "np.ndarray", cell: int = 8, bins: int = 9) -> "np.ndarray":
    """Per-cell histograms of unsigned gradient orientation of a grayscale image in [0, 1],
    soft-binned between the two nearest of ``bins`` orientations and weighted by gradient
    magnitude. Shape (rows, cols, bins). A flat region gives exactly zero.
    """
    import numpy as np

    h, w = g.shape
    ch, cw = h // cell, w // cell
    if ch < 1 or cw < 1:
        return np.zeros((0, 0, bins), dtype=np.float32)
    g = g[: ch * cell, : cw * cell]
    gx = np.zeros_like(g)
    gy = np.zeros_like(g)
    gx[:, 1:-1] = g[:, 2:] - g[:, :-2]
    gy[1:-1, :] = g[2:, :] - g[:-2, :]
    mag = np.hypot(gx, gy)
    ang = np.mod(np.arctan2(gy, gx), np.pi) * (bins / np.pi)  # [0, bins]
    b0 = ang.astype(np.int64)
    frac = ang - b0
    b0 %= bins
    b1 = (b0 + 1) % bins
    ys = np.arange(ch * cell) // cell
    xs = np.arange(cw * cell) // cell
    cell_idx = (ys[:, None] * cw + xs[None, :]) * bins
    n = ch * cw * bins
    hist = np.bincount((cell_idx + b0).ravel(), weights=(mag * (1 - frac)).ravel(), minlength=n)
    hist += np.bincount((cell_idx + b1).ravel(), weights=(mag * frac).ravel(), minlength=n)
    return hist.reshape(ch, cw, bins).astype(np.float32)


def pooled_blocks(cells: "np.ndarray", k: int, eps: float) -> "np.ndarray":
    """Sum cells into k x k super-cells, then sum overlapping 2 x 2 windows of those and
    L2-normalise each window with ``eps`` (a window with far less gradient energy than one crisp
    edge stays small instead of being inflated to unit length). Shape (rows-1, cols-1, bins)."""
    import numpy as np

    ch, cw, bins = cells.shape
    r, c = ch // k, cw // k
    if r < 2 or c < 2:
        return np.zeros((0, 0, bins), dtype=np.float32)
    sup = cells[: r * k, : c * k].reshape(r, k, c, k, bins).sum(axis=(1, 3))
    win = sup[:-1, :-1] + sup[1:, :-1] + sup[:-1, 1:] + sup[1:, 1:]
    return win / np.sqrt(np.sum(win * win, axis=2, keepdims=True) + eps * eps)


class GradHistBackend:
    """Structure: gradient-orientation histograms over a 3-level pyramid of overlapping windows,
    cosine similarity averaged over the levels.

    Orientation is unsigned (dark-on-light = light-on-dark) and each window is normalised, so a
    colour scheme changes little; windows are 2x2 super-cells of 16/32/64 px at 480 px wide
    (43-340 px of a 1280 px screenshot) and overlap, so a shift of a few pixels changes little; a
    blank page has no gradient anywhere, so its descriptor is all zero and it scores 0.
    """

    name = "hog"

    def __init__(self, width: int = 480, cell: int = 8, bins: int = 9, levels: tuple[int, ...] = (2, 4, 8)):
        self.width = width
        self.cell = cell
        self.bins = bins
        self.levels = tuple(levels)

    def available(self) -> tuple[bool, str]:
        return True, "numpy only"

    def describe(self) -> dict[str, Any]:
        return {"name": self.name, "width": self.width, "cell": self.cell, "bins": self.bins, "levels": list(self.levels)}

    def features(self, img: "Image") -> list["np.ndarray"]:
        cells = orientation_cells(_gray(img if img.mode == "RGB" else img.convert("RGB"), self.width), self.cell, self.bins)
        return [pooled_blocks(cells, k, 0.5 * self.cell * k) for k in self.levels]

    @staticmethod
    def feature_similarity(fa: list["np.ndarray"], fb: list["np.ndarray"]) -> float:
        """Mean cosine over the levels that have windows in both (1 when none has: nothing to compare)."""
        pairs = [(x, y) for x, y in zip(fa, fb) if x.size and y.size]
        if not pairs:
            return 1.0
        return _clip01(sum(_cosine(x, y) for x, y in pairs) / len(pairs))

    def similarity(self, a: "Image", b: "Image") -> float:
        a, b = _same_size(a, b)
        return self.feature_similarity(self.features(a), self.features(b))


# ----------------------------------------------------------------------------- other candidates


class SsimBackend:
    """Structural similarity (scikit-image) of grayscale images at ``width`` px wide."""

    name = "ssim"

    def __init__(self, width: int = 640):
        self.width = width

    def available(self) -> tuple[bool, str]:
        import importlib.util

        if importlib.util.find_spec("skimage") is None:
            return False, "scikit-image is not installed (pip install scikit-image)"
        return True, "scikit-image"

    def describe(self) -> dict[str, Any]:
        return {"name": self.name, "width": self.width}

    def similarity(self, a: "Image", b: "Image") -> float:
        from skimage.metrics import structural_similarity

        a, b = _same_size(a, b)
        return _clip01(structural_similarity(_gray(a, self.width), _gray(b, self.width), data_range=1.0))


def edge_map(g: "np.ndarray", threshold: float = 0.08) -> "np.ndarray":
    """Boolean map of pixels whose central-difference gradient magnitude exceeds ``threshold``."""
    import numpy as np

    gx = np.zeros_like(g)
    gy = np.zeros_like(g)
    gx[:, 1:-1] = g[:, 2:] - g[:, :-2]
    gy[1:-1, :] = g[2:, :] - g[:-2, :]
    return np.hypot(gx, gy) > threshold


class EdgeF1Backend:
    """F1 of edge pixels matched within ``radius`` px (dilated edge maps) at ``width`` px wide."""

    name = "edges"

    def __init__(self, width: int = 640, radius: int = 3, threshold: float = 0.08):
        self.width = width
        self.radius = radius
        self.threshold = threshold

    def available(self) -> tuple[bool, str]:
        return True, "numpy + scipy"

    def describe(self) -> dict[str, Any]:
        return {"name": self.name, "width": self.width, "radius": self.radius, "threshold": self.threshold}

    def similarity(self, a: "Image", b: "Image") -> float:
        from scipy.ndimage import maximum_filter

        a, b = _same_size(a, b)
        ea = edge_map(_gray(a, self.width), self.threshold)
        eb = edge_map(_gray(b, self.width), self.threshold)
        na, nb = int(ea.sum()), int(eb.sum())
        if na == 0 and nb == 0:
            return 1.0
        if na == 0 or nb == 0:
            return 0.0
        size = 2 * self.radius + 1
        da = maximum_filter(ea, size=size)
        db = maximum_filter(eb, size=size)
        precision = float((eb & da).sum()) / nb
        recall = float((ea & db).sum()) / na
        if precision + recall == 0:
            return 0.0
        return _clip01(2 * precision * recall / (precision + recall))


class ColourLayoutBackend:
    """Mean CIE76 colour difference of small Lab thumbnails, mapped to 1 - dE / ``scale``."""

    name = "colour"

    def __init__(self, size: tuple[int, int] = (16, 9), scale: float = 50.0):
        self.size = size
        self.scale = scale

    def available(self) -> tuple[bool, str]:
        return True, "numpy + scikit-image"

    def describe(self) -> dict[str, Any]:
        return {"name": self.name, "size": list(self.size), "scale": self.scale}

    def features(self, img: "Image") -> "np.ndarray":
        """The Lab thumbnail."""
        import numpy as np
        from PIL import Image as PILImage
        from skimage.color import rgb2lab

        return rgb2lab(np.asarray(img.resize(self.size, PILImage.Resampling.BOX), dtype=np.float32) / 255.0)

    def feature_similarity(self, ta: "np.ndarray", tb: "np.ndarray") -> float:
        import numpy as np

        de = float(np.sqrt(((ta - tb) ** 2).sum(axis=2)).mean())
        return _clip01(1.0 - de / self.scale)

    def similarity(self, a: "Image", b: "Image") -> float:
        a, b = _same_size(a, b)
        return self.feature_similarity(self.features(a), self.features(b))


class PHashBackend:
    """Perceptual hash (DCT of a 32x32 grayscale thumbnail, 8x8 low frequencies): 1 - Hamming/64."""

    name = "phash"

    def available(self) -> tuple[bool, str]:
        return True, "numpy + scipy"

    def describe(self) -> dict[str, Any]:
        return {"name": self.name}

    @staticmethod
    def bits(img: "Image") -> "np.ndarray":
        import numpy as np
        from PIL import Image as PILImage
        from scipy.fft import dctn

        g = np.asarray(img.convert("L").resize((32, 32), PILImage.Resampling.BOX), dtype=np.float64)
        d = dctn(g, norm="ortho")[:8, :8].ravel()[1:]
        return d > np.median(d)

    def similarity(self, a: "Image", b: "Image") -> float:
        a, b = _same_size(a, b)
        ba, bb = self.bits(a), self.bits(b)
        return _clip01(1.0 - float((ba != bb).sum()) / ba.size)


class ComboBackend:
    """A weighted mean (or product) of other backends' similarities."""

    def __init__(self, name: str, parts: list[tuple[VisualBackend, float]], mode: str = "mean"):
        if mode not in ("mean", "product"):
            raise ValueError(f"mode must be 'mean' or 'product', not {mode!r}")
        self.name = name
        self.parts = parts
        self.mode = mode

    def available(self) -> tuple[bool, str]:
        for backend, _ in self.parts:
            ok, why = backend.available()
            if not ok:
                return False, f"{backend.name}: {why}"
        return True, f"{self.mode} of {', '.join(b.name for b, _ in self.parts)}; no model, no download"

    def describe(self) -> dict[str, Any]:
        return {
            "name": self.name,
            "mode": self.mode,
            "parts": [{"backend": describe(b), "weight": w} for b, w in self.parts],
        }

    def similarity(self, a: "Image", b: "Image") -> float:
        scores = [(backend.similarity(a, b), w) for backend, w in self.parts]
        if self.mode == "product":
            out = 1.0
            for s, w in scores:
                out *= s**w
            return _clip01(out)
        total = sum(w for _, w in scores)
        return _clip01(sum(s * w for s, w in scores) / total)
