"""Template matching for the appearance rung: where on the page does the recorded target's picture show?

A rebuilt page may keep how a control looks while moving it or dropping every name it had (an icon
button without a label, a row checkbox in a table that moved). The recorder keeps a crop of each
target (``targets/step_<i>.png``); here that crop is matched against a screenshot of the page now by
normalised cross-correlation (greyscale, downscaled for speed), and the spots that match well enough
are handed back in viewport pixels. Which element stands at such a spot, and whether it may stand for
the recorded target, is the grounding ladder's business (``judge/ground.py``); this module only
answers "where does it look like that", and "how much does the spot at this point look like it".

Pure numpy and PIL: nothing here touches a page, so it runs in a worker thread while the browser goes on.
"""

from __future__ import annotations

import io
from dataclasses import dataclass
from typing import Any

import numpy as np

#: normalised cross-correlation a crop must reach on the screenshot to count as found
APPEAR_MIN = 0.80
#: matches this close to the best are equally good (identical cards, rows of checkboxes)
APPEAR_TIE = 0.02
#: a position candidate that looks this much less like the crop than a match elsewhere of at least
#: APPEAR_STRONG waits for the appearance rung (and stands if that finds nothing)
APPEAR_DEFER = 0.15
APPEAR_STRONG = 0.90


class NoMatch(Exception):
    """Nothing to match (no crop, no screenshot, a flat or too small crop): the reason, for the rung's log."""


@dataclass
class MatchMap:
    """The crop's correlation at every position on the screenshot, and the geometry to map it back
    to viewport pixels (``f``: downscale factor, ``k``: viewport px per screenshot px, ``w``/``h``:
    the crop's size as matched)."""

    ncc: np.ndarray
    f: int
    k: float
    w: int
    h: int

    @property
    def best(self) -> float:
        return float(self.ncc.max())

    def to_view(self, r: int, c: int) -> tuple[float, float]:
        """The viewport point at the centre of the crop placed at row ``r``, column ``c`` of the map."""
        return (c + self.w / 2) * self.f * self.k, (r + self.h / 2) * self.f * self.k

    def near(self, center: tuple[float, float], radius: int = 3) -> float:
        """The best correlation with the crop centred within a few px of a viewport point."""
        c = center[0] / (self.f * self.k) - self.w / 2
        r = center[1] / (self.f * self.k) - self.h / 2
        r0, c0 = int(round(r)), int(round(c))
        rs = slice(max(0, r0 - radius), max(0, min(self.ncc.shape[0], r0 + radius + 1)))
        cs = slice(max(0, c0 - radius), max(0, min(self.ncc.shape[1], c0 + radius + 1)))
        win = self.ncc[rs, cs]
        return float(win.max()) if win.size else 0.0

    def peaks(self, n: int = 40) -> list[tuple[float, float, float]]:
        """The best matches above APPEAR_MIN, at least half the crop apart: (score, x, y), x/y the
        match centre in viewport px, best first."""
        m = self.ncc.copy()
        rd = max(1, min(self.w, self.h) // 2)
        out = []
        for _ in range(n):
            i = int(m.argmax())
            v = float(m.flat[i])
            if v < APPEAR_MIN:
                break
            r, c = divmod(i, m.shape[1])
            out.append((v, *self.to_view(r, c)))
            m[max(0, r - rd):r + rd + 1, max(0, c - rd):c + rd + 1] = -2.0
        return out


def _grey(img: Any) -> Any:
    """A greyscale PIL image from PNG/JPEG bytes or a PIL image."""
    from PIL import Image

    if isinstance(img, (bytes, bytearray, memoryview)):
        img = Image.open(io.BytesIO(bytes(img)))
    if not isinstance(img, Image.Image):
        raise NoMatch(f"not an image ({type(img).__name__})")
    return img.convert("L")


def _fast_len(n: int) -> int:
    """The smallest 2^a 3^b 5^c >= n."""
    best = 1 << max(0, (n - 1).bit_length())
    p5 = 1
    while p5 < best:
        p35 = p5
        while p35 < best:
            m = p35
            while m < n:
                m *= 2
            best = min(best, m)
            p35 *= 3
        p5 *= 5
    return best


def ncc(img: np.ndarray, tpl: np.ndarray) -> np.ndarray:
    """Normalised cross-correlation of a template at every position where it fits in the image
    (the zero-mean form, as in scikit-image's match_template; FFT for the products, integral
    images for the window statistics). Windows without contrast score 0."""
    H, W = img.shape
    h, w = tpl.shape
    t = tpl - tpl.mean()
    tnorm = float(np.sqrt((t * t).sum()))
    shape = (_fast_len(H + h - 1), _fast_len(W + w - 1))  # sizes the FFT is quick at
    prod = np.fft.irfft2(np.fft.rfft2(img, s=shape) * np.fft.rfft2(t[::-1, ::-1], s=shape), s=shape)
    corr = prod[h - 1:H, w - 1:W]
    img64 = img.astype(np.float64)

    def windows(a: np.ndarray) -> np.ndarray:
        ii = np.zeros((H + 1, W + 1))
        ii[1:, 1:] = a.cumsum(0).cumsum(1)
        return ii[h:, w:] - ii[:-h, w:] - ii[h:, :-w] + ii[:-h, :-w]

    s1, s2 = windows(img64), windows(img64 * img64)
    var = np.maximum(s2 - s1 * s1 / (h * w), 0.0)
    denom = np.sqrt(var) * tnorm
    ok = denom > 1e-6 * max(tnorm, 1.0) * h * w
    out = np.zeros_like(corr, dtype=np.float64)
    out[ok] = corr[ok] / denom[ok]
    return np.clip(out, -1.0, 1.0)


def match_map(crop: Any, screenshot: Any, viewport: tuple[int, int], bbox: Any) -> MatchMap:
    """Correlate the recorded target's crop (scaled to its recorded box ``bbox`` when given) with the
    screenshot. Raises :class:`NoMatch` with the reason when there is nothing to match."""
    from PIL import Image

    if crop is None:
        raise NoMatch("no crop of the recorded target")
    if screenshot is None:
        raise NoMatch("no screenshot of the page")
    shot, cr = _grey(screenshot), _grey(crop)
    k = viewport[0] / shot.width if shot.width else 1.0  # viewport px per screenshot px
    if bbox is not None and bbox.width >= 2 and bbox.height >= 2:  # the crop at the screenshot's scale
        want = (max(1, round(bbox.width / k)), max(1, round(bbox.height / k)))
        if abs(want[0] - cr.width) > 0.1 * want[0] or abs(want[1] - cr.height) > 0.1 * want[1]:
            cr = cr.resize(want, Image.BILINEAR)
    f = 2 if min(cr.width, cr.height) >= 24 else 1  # downscale for speed, never below 12 px
    if f > 1:
        shot = shot.reduce(f)
        cr = cr.reduce(f)
    if cr.width < 3 or cr.height < 3:
        raise NoMatch(f"crop too small ({cr.width}x{cr.height})")
    if cr.width > shot.width or cr.height > shot.height:
        raise NoMatch("crop larger than the screenshot")
    s = np.asarray(shot, dtype=np.float64)
    c = np.asarray(cr, dtype=np.float64)
    if float(c.std()) < 3.0:
        raise NoMatch("crop is flat (one colour): nothing to match")
    return MatchMap(ncc(s, c), f=f, k=k, w=c.shape[1], h=c.shape[0])


__all__ = ["APPEAR_DEFER", "APPEAR_MIN", "APPEAR_STRONG", "APPEAR_TIE", "MatchMap", "NoMatch", "match_map", "ncc"]
