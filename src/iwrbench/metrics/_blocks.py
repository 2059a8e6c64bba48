"""The offline visual comparison: what a person compares between two screenshots, part by part.

Modelled on the decomposition of Design2Code's visual score (text blocks matched between the two
pages, then compared on text, position, size and colour; plus a global similarity), measured on
screenshots alone, with no model:

* **Text blocks** are the words Tesseract boxes (``OcrReading.words``: one read gives the OCR text
  and its boxes). A word is the smallest block a page shows; matching words rather than lines or
  paragraphs keeps the match independent of how two pages happen to break their text into
  blocks (a wider font re-wraps a line; a reconstruction splits a heading into two elements).
  Each word carries its box, its height (font size) and its ink colour (the median colour of the
  pixels in its box that differ from the box's border). Words are matched one to one (Hungarian)
  on text similarity, with a small bonus for nearness so repeated words pair with their own; a
  pair counts only when its texts are at least half alike. Each word weighs its characters x its
  height.
* **Elements**: what is not text. On a 320 px thumbnail with the words painted over by their
  background, the connected regions that differ from the page background (panels, bars, buttons,
  pictures) and the frames of the edge map (borders, icons, pictures' outlines), matched one to
  one by overlap (IoU >= 0.3; colour is style's business); a pair scores its IoU. Each element
  weighs the square root of its area (a big panel counts more than an icon, not a thousand
  times more).
* **The page's own offset**: the weighted median offset of the words matched with confidence.
  Positions, elements and ink occupancy are compared after taking it out, and the offset itself
  costs up to half of the position agreement: a page moved as a whole is one fault, not a hundred.
* **Global**: the structure x colour similarity of the whole picture (``hog-colour``: gradient
  orientation histograms over overlapping windows, times the colour of 16 x 9 thumbnails).

From these, five parts in [0, 1], each its own signal (none reuses another's number):

======== ================================================================================
content  text of the matched words: 2 x sum(weight x similarity) / (all words' weight on both sides)
layout   where things are: the matched words' position agreement (offset of their centres after
         the page's own, 1 at 0, 0 at a fifth of the screen), with the ink-occupancy overlap of
         32 x 18 cells (where the page has anything at all), half each (occupancy alone when no
         word matched)
style    how things look: the matched words' ink colour (CIEDE2000, 0 at dE 40) and size (height
         ratio), and the colour palette of the ink and the background
elements the non-text elements matched (images, large shapes, frames)
global   the structure x colour similarity of the whole picture
======== ================================================================================

The visual similarity (the low-level score's visual half) is their plain mean, as Design2Code
averages its five.

**Where the step changed weighs more.** Given the screenshot of the state before the step
(``prev``), the cells where the recording changed at this step (16 px cells, >= 6% of pixels
differing by > 24 levels, grown by one cell) are the step's *changed region*. Every part is then
also measured on that region alone (words and elements that lie in it; occupancy and palette of
its cells; global on its bounding box) and each part is ``(1 - a) x whole + a x region``, with
``a = 0.5``. In the region a word's text counts only near its place (``PLACE_SCALE``): there the
right text in the wrong place (a list whose item was not deleted, one row off) is not what the
step shows. A page that did not react at this step keeps the background but not the change, so it
loses what the step was about; a page that changed the same place scores as before.

Numbers, calibration against orderings written by a person, and time per pair: docs/metrics.md.
"""

from __future__ import annotations

import threading
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

import numpy as np  # this module is imported only when a comparison runs (``get_visual("blocks")``)

from iwrbench.metrics._pixels import (
    _iou_matrix,
    _occupancy,
    _soft_overlap,
    _thumb,
    background_colour,
    component_boxes,
    element_boxes,
    ink_mask,
    palette,
)
from iwrbench.metrics._visual import ColourLayoutBackend, GradHistBackend

if TYPE_CHECKING:  # pragma: no cover
    from PIL.Image import Image

    from iwrbench.metrics._ocr import OcrEngine, OcrReading

PARTS = ("content", "layout", "style", "elements", "global")
VERSION = 1

#: the step's changed region: cell size (px), share of a cell's pixels, pixel tolerance, growth (cells)
CHANGE_CELL, CHANGE_SHARE, CHANGE_TOL, CHANGE_GROW = 16, 0.06, 24, 1
#: a change of fewer cells than this is no change (a caret, a focus ring)
CHANGE_MIN_CELLS = 3
#: the weight of the changed region in every part
REGION_WEIGHT = 0.5
#: words whose texts are less alike than this are not a pair
MIN_TEXT_SIM = 0.5
#: OCR words read with less confidence than this are noise (icons read as letters)
MIN_CONF = 15.0
#: position agreement is 0 at this offset (share of the screen's width / height)
POSITION_SCALE = 0.2
#: in the changed region a word's text counts only near its place: 0 at this offset (share of the screen)
PLACE_SCALE = 0.08
#: a page moved as a whole by this share of the screen loses half of its position agreement
MOVED_SCALE = 0.25
#: colour agreement is 0 at this CIEDE2000 difference
COLOUR_SCALE = 40.0
ELEMENT_IOU = 0.3


# ----------------------------------------------------------------------------- text blocks


@dataclass
class Words:
    """The text blocks of one screenshot, as arrays (n words)."""

    texts: list[str]
    boxes: "np.ndarray"  # (n, 4) x0, y0, x1, y1 in screenshot px
    colours: "np.ndarray"  # (n, 3) Lab
    weights: "np.ndarray"  # (n,) characters x height

    def __len__(self) -> int:
        return len(self.texts)

    @property
    def centres(self) -> "np.ndarray":
        b = self.boxes
        return np.stack([(b[:, 0] + b[:, 2]) / 2, (b[:, 1] + b[:, 3]) / 2], axis=1) if len(b) else b[:, :2]

    @property
    def heights(self) -> "np.ndarray":
        return self.boxes[:, 3] - self.boxes[:, 1]


def _lab(rgb: "np.ndarray") -> "np.ndarray":
    from skimage.color import rgb2lab

    return rgb2lab(np.asarray(rgb, dtype=np.float64).reshape(-1, 1, 3) / 255.0).reshape(-1, 3)


def ink_colour(rgb: "np.ndarray", box: tuple[int, int, int, int]) -> "np.ndarray":
    """The colour of the text in ``box``: the median of the pixels that differ from the box's border
    (its background) by more than 40 levels; the border's colour when nothing does."""
    x0, y0, x1, y1 = box
    crop = rgb[y0:y1, x0:x1].reshape(-1, 3) if x1 > x0 and y1 > y0 else rgb[:0, :0].reshape(-1, 3)
    if len(crop) == 0:
        return np.zeros(3)
    c = rgb[y0:y1, x0:x1]
    border = np.concatenate([c[0], c[-1], c[:, 0], c[:, -1]])
    bg = np.median(border, axis=0)
    ink = crop[np.abs(crop - bg).max(axis=1) > 40]
    return np.median(ink, axis=0) if len(ink) else bg


def words_of(reading: "OcrReading", rgb: "np.ndarray") -> Words:
    """The text blocks of a screenshot (``rgb``: its pixels, int16) from an OCR reading with boxes."""
    keep = [w for w in reading.words if w.conf >= MIN_CONF and any(ch.isalnum() for ch in w.text)]
    h, w_ = rgb.shape[:2]
    boxes = np.array([(max(0, w.x), max(0, w.y), min(w_, w.x + w.w), min(h, w.y + w.h)) for w in keep],
                     dtype=np.float64).reshape(-1, 4)
    colours = np.array([ink_colour(rgb, tuple(int(v) for v in b)) for b in boxes]).reshape(-1, 3)
    weights = np.array([len(w.text) * max(1, w.h) for w in keep], dtype=np.float64)
    return Words([w.text.lower() for w in keep], boxes, _lab(colours) if len(keep) else colours, weights)


def match_words(a: Words, b: Words, size: tuple[int, int]) -> tuple["np.ndarray", "np.ndarray", "np.ndarray"]:
    """One-to-one pairs (rows in a, rows in b, text similarity) of words at least half alike."""
    from rapidfuzz import fuzz, process
    from scipy.optimize import linear_sum_assignment

    if not len(a) or not len(b):
        e = np.zeros(0, dtype=np.int64)
        return e, e, np.zeros(0)
    sim = process.cdist(a.texts, b.texts, scorer=fuzz.ratio, dtype=np.float32, workers=1) / 100.0
    d = _offsets(a.centres[:, None, :], b.centres[None, :, :], size)
    score = sim + 0.1 * np.clip(1.0 - d / POSITION_SCALE, 0.0, 1.0) * (sim >= MIN_TEXT_SIM)
    rows, cols = linear_sum_assignment(-score)
    ok = sim[rows, cols] >= MIN_TEXT_SIM
    return rows[ok], cols[ok], sim[rows, cols][ok].astype(np.float64)


def _offsets(ca: "np.ndarray", cb: "np.ndarray", size: tuple[int, int]) -> "np.ndarray":
    """Largest of the horizontal and vertical offsets of centres, as a share of width / height."""
    w, h = size
    return np.maximum(np.abs(ca[..., 0] - cb[..., 0]) / w, np.abs(ca[..., 1] - cb[..., 1]) / h)


# ----------------------------------------------------------------------------- elements


def _paint_words(thumb: "np.ndarray", words: Words, scale: float) -> "np.ndarray":
    """The thumbnail with every word's box filled with the colour around it."""
    out = thumb.copy()
    th, tw = out.shape[:2]
    for x0, y0, x1, y1 in words.boxes * scale:
        a0, b0 = max(0, int(x0) - 1), max(0, int(y0) - 1)
        a1, b1 = min(tw, int(np.ceil(x1)) + 1), min(th, int(np.ceil(y1)) + 1)
        if a1 <= a0 or b1 <= b0:
            continue
        ring = np.concatenate([out[b0, a0:a1], out[b1 - 1, a0:a1], out[b0:b1, a0], out[b0:b1, a1 - 1]])
        out[b0:b1, a0:a1] = np.median(ring, axis=0)
    return out


@dataclass
class Elements:
    boxes: "np.ndarray"  # (n, 4) in thumbnail px
    weights: "np.ndarray"  # sqrt(area)

    def __len__(self) -> int:
        return len(self.boxes)


def elements_of(painted: "np.ndarray", bg: "np.ndarray", min_area: int = 12) -> Elements:
    """Non-text elements of a thumbnail whose words were painted over: regions that differ from the
    background (fills, pictures) and edge-map components (frames, icons), deduplicated by box."""

    boxes = component_boxes(ink_mask(painted, bg), min_area)
    seen = set(boxes)
    for b in element_boxes(painted, min_area=min_area):
        t = tuple(int(v) for v in b)
        if t not in seen:
            seen.add(t)
            boxes.append(t)
    arr = np.asarray(boxes, dtype=np.float64).reshape(-1, 4)
    areas = (arr[:, 2] - arr[:, 0]) * (arr[:, 3] - arr[:, 1])
    return Elements(arr, np.sqrt(areas))


def match_elements(a: Elements, b: Elements, shift: tuple[float, float] = (0.0, 0.0)) -> tuple["np.ndarray", "np.ndarray", "np.ndarray"]:
    """One-to-one pairs (Hungarian on IoU, IoU >= 0.3) with their IoU (colour is style's business);
    ``b``'s boxes are moved back by ``shift`` (the page's own offset, thumbnail px) first."""
    from scipy.optimize import linear_sum_assignment


    if not len(a) or not len(b):
        e = np.zeros(0, dtype=np.int64)
        return e, e, np.zeros(0)
    iou = _iou_matrix(a.boxes, b.boxes - np.array([shift[0], shift[1], shift[0], shift[1]]))
    rows, cols = linear_sum_assignment(-iou)
    ok = iou[rows, cols] >= ELEMENT_IOU
    rows, cols = rows[ok], cols[ok]
    return rows, cols, iou[rows, cols]


def _colour_match(la: "np.ndarray", lb: "np.ndarray") -> "np.ndarray":
    from skimage.color import deltaE_ciede2000

    if not len(la):
        return np.zeros(0)
    return np.clip(1.0 - deltaE_ciede2000(la, lb) / COLOUR_SCALE, 0.0, 1.0)


# ----------------------------------------------------------------------------- the step's change


def changed_region(prev: "Image", gt: "Image") -> "np.ndarray | None":
    """Boolean grid of 16 px cells where ``gt`` differs from ``prev`` (grown by one cell), or None
    when fewer than 3 cells changed (no change to weigh)."""
    from PIL import Image as PILImage
    from PIL import ImageChops
    from scipy.ndimage import binary_dilation

    prev, gt = _rgb(prev), _rgb(gt)
    if prev.size != gt.size:
        prev = prev.resize(gt.size, PILImage.Resampling.BILINEAR)
    c = CHANGE_CELL
    cols, rows = gt.size[0] // c, gt.size[1] // c
    if rows == 0 or cols == 0:
        return None
    r, g, b = ImageChops.difference(prev, gt).split()
    m = ImageChops.lighter(ImageChops.lighter(r, g), b).point(lambda v: 255 if v > CHANGE_TOL else 0)
    m = m.crop((0, 0, cols * c, rows * c)).resize((cols, rows), PILImage.Resampling.BOX)
    grid = np.asarray(m, dtype=np.float32) >= CHANGE_SHARE * 255
    if grid.sum() < CHANGE_MIN_CELLS:
        return None
    return binary_dilation(grid, iterations=CHANGE_GROW)


def _rgb(img: "Image") -> "Image":
    return img if img.mode == "RGB" else img.convert("RGB")


def _in_region(boxes: "np.ndarray", region: "np.ndarray", scale: float) -> "np.ndarray":
    """Which boxes (in px / ``scale`` of the screenshot) overlap a changed cell."""
    if not len(boxes):
        return np.zeros(0, dtype=bool)
    c = CHANGE_CELL * scale
    rows, cols = region.shape
    out = np.zeros(len(boxes), dtype=bool)
    for i, (x0, y0, x1, y1) in enumerate(boxes):
        r0, r1 = int(y0 // c), min(rows, int(np.ceil(y1 / c)))
        c0, c1 = int(x0 // c), min(cols, int(np.ceil(x1 / c)))
        out[i] = r1 > r0 and c1 > c0 and bool(region[r0:r1, c0:c1].any())
    return out


# ----------------------------------------------------------------------------- the parts


def _ratio(num: float, den: float, empty: float = 1.0) -> float:
    return empty if den <= 0 else float(min(1.0, max(0.0, num / den)))


def page_offset(a: Words, b: Words, pairs: tuple) -> tuple[float, float]:
    """How far the candidate's page as a whole is moved (px): the weighted median offset of the
    words matched with confidence (texts >= 80% alike); (0, 0) when fewer than 3 are, or fewer than
    a fifth of the reference's words (too little to tell a moved page from chance pairs)."""
    rows, cols, sim = pairs
    ok = sim >= 0.8
    if int(ok.sum()) < max(3, 0.2 * len(a)):
        return 0.0, 0.0
    d = b.centres[cols[ok]] - a.centres[rows[ok]]
    w = (a.weights[rows[ok]] + b.weights[cols[ok]])

    def wmedian(v: "np.ndarray") -> float:
        o = np.argsort(v)
        c = np.cumsum(w[o])
        return float(v[o][int(np.searchsorted(c, c[-1] / 2))])

    return wmedian(d[:, 0]), wmedian(d[:, 1])


def _word_parts(a: Words, b: Words, pairs: tuple, size: tuple[int, int], wa: "np.ndarray", wb: "np.ndarray",
                offset: tuple[float, float], at_place: bool = False) -> dict[str, Any]:
    """Content and the matched words' position / colour / size agreement, for word weights wa, wb
    (zero weight: the word is left out). Positions are compared after taking out the page's own
    offset (a page moved as a whole is one fault, not a hundred); the offset itself costs up to half
    of the position part. ``at_place``: a word counts for content only near its place (within
    ``PLACE_SCALE`` of the screen after the offset): in the step's changed region, the right text in
    the wrong place is not what the step shows."""
    rows, cols, sim = pairs
    total = float(wa.sum() + wb.sum())
    if total <= 0:
        return {"content": 1.0, "position": None, "colour": None, "size": None, "n": 0}
    pw = wa[rows] + wb[cols]
    resid = _offsets(a.centres[rows] + np.asarray(offset), b.centres[cols], size) if len(rows) else np.zeros(0)
    credit = sim * np.clip(1.0 - resid / PLACE_SCALE, 0.0, 1.0) if at_place else sim
    content = _ratio(float((pw * credit).sum()), total)
    if not len(rows) or pw.sum() <= 0:
        return {"content": content, "position": None, "colour": None, "size": None, "n": 0}
    pos = np.clip(1.0 - resid / POSITION_SCALE, 0.0, 1.0)
    moved = max(abs(offset[0]) / size[0], abs(offset[1]) / size[1])
    colour = _colour_match(a.colours[rows], b.colours[cols])
    ha, hb = a.heights[rows], b.heights[cols]
    sz = np.minimum(ha, hb) / np.maximum(np.maximum(ha, hb), 1e-9)
    mean = lambda v: float((pw * v).sum() / pw.sum())  # noqa: E731
    return {"content": content, "position": mean(pos) * (1.0 - 0.5 * min(1.0, moved / MOVED_SCALE)),
            "colour": mean(colour), "size": mean(sz), "n": int(len(rows))}


def _element_score(a: Elements, b: Elements, pairs: tuple, wa: "np.ndarray", wb: "np.ndarray") -> float:
    rows, cols, s = pairs
    total = float(wa.sum() + wb.sum())
    if total <= 0:
        return 1.0
    return _ratio(float(((wa[rows] + wb[cols]) * s).sum()), total)


def _palette_match(ta: "np.ndarray", tb: "np.ndarray", ia: "np.ndarray", ib: "np.ndarray",
                   bga: "np.ndarray", bgb: "np.ndarray", cells: "np.ndarray | None" = None) -> float:
    """0.8 x histogram intersection of the ink colours + 0.2 x background match (``cells``: only
    the pixels of these thumbnail cells)."""

    if cells is not None:
        ia, ib = ia & cells, ib & cells
    if not ia.any() and not ib.any():
        ink = 1.0
    elif not ia.any() or not ib.any():
        ink = 0.0
    else:
        ink = float(np.minimum(palette(ta, ia), palette(tb, ib)).sum())
    bg = max(0.0, 1.0 - float(np.abs(bga - bgb).max()) / 128.0)
    return 0.8 * ink + 0.2 * bg


def _moved(mask: "np.ndarray", dx: int, dy: int) -> "np.ndarray":
    """``mask`` moved by (dx, dy) pixels, what enters is empty."""
    out = np.zeros_like(mask)
    h, w = mask.shape
    if abs(dx) >= w or abs(dy) >= h:
        return out
    ys, yd = (slice(0, h - dy), slice(dy, h)) if dy >= 0 else (slice(-dy, h), slice(0, h + dy))
    xs, xd = (slice(0, w - dx), slice(dx, w)) if dx >= 0 else (slice(-dx, w), slice(0, w + dx))
    out[yd, xd] = mask[ys, xs]
    return out


def occupancy(ink: "np.ndarray") -> "np.ndarray":

    return _occupancy(ink, (32, 18))


def _occupancy_overlap(oa: "np.ndarray", ib: "np.ndarray", keep: "np.ndarray | None" = None,
                       shift: tuple[int, int] = (0, 0), ob: "np.ndarray | None" = None) -> float:
    """Weighted Jaccard of the ink occupancy of 32 x 18 cells (``oa``: the reference's); ``ib`` (the
    candidate's ink) moved back by ``shift`` first (``ob``: its occupancy, when not moved)."""

    if shift != (0, 0) or ob is None:
        ob = occupancy(_moved(ib, -shift[0], -shift[1]) if shift != (0, 0) else ib)
    if keep is not None:
        oa, ob = oa * keep, ob * keep
    return _soft_overlap(oa, ob)


def _grid_to(region: "np.ndarray", shape: tuple[int, int]) -> "np.ndarray":
    """A cell grid resampled to ``shape`` (rows, cols): a target cell is kept when any of its cells is."""
    from PIL import Image as PILImage

    im = PILImage.fromarray(region.astype(np.uint8) * 255).resize((shape[1], shape[0]), PILImage.Resampling.BOX)
    return np.asarray(im) > 0


def _crop_box(region: "np.ndarray", size: tuple[int, int], min_side: int = 96) -> tuple[int, int, int, int]:
    """The bounding box of the changed cells in screenshot px, at least ``min_side`` px each way."""
    ys, xs = np.nonzero(region)
    c = CHANGE_CELL
    x0, x1, y0, y1 = xs.min() * c, (xs.max() + 1) * c, ys.min() * c, (ys.max() + 1) * c
    w, h = size
    for lo, hi, lim in ((0, 1, w), (2, 3, h)):
        box = [x0, x1, y0, y1]
        a, b = box[lo], box[hi]
        if b - a < min_side:
            mid = (a + b) / 2
            a, b = max(0, int(mid - min_side / 2)), min(lim, int(mid + min_side / 2))
        if lo == 0:
            x0, x1 = a, b
        else:
            y0, y1 = a, b
    return int(x0), int(y0), int(x1), int(y1)


@dataclass
class Analysis:
    """One comparison: the five parts (change-weighted), the visual similarity, and what went in."""

    parts: dict[str, float]
    visual: float
    whole: dict[str, float]
    region: dict[str, float] | None = None
    change_share: float = 0.0
    detail: dict[str, Any] = field(default_factory=dict)


@dataclass
class Prepared:
    """What the comparison needs of one screenshot (a ground truth's is kept: it is compared often)."""

    img: "Image"
    words: Words
    thumb: "np.ndarray"
    bg: "np.ndarray"
    ink: "np.ndarray"
    elements: Elements
    hog: list
    colour: "np.ndarray"
    occupancy: "np.ndarray"
    key: str = ""  # the pixels' digest (kept screenshots only)


class BlocksBackend:
    """The offline default visual similarity: text blocks, elements and the global picture, with
    more weight where the step changed (see the module docstring)."""

    name = "blocks"

    def __init__(self, ocr: "OcrEngine | None" = None, *, width: int = 320, region_weight: float = REGION_WEIGHT,
                 keep: int = 32):

        self._ocr = ocr
        self.width = width
        self.region_weight = region_weight
        self._hog = GradHistBackend()
        self._colour = ColourLayoutBackend()
        self._keep = keep
        self._prepared: dict[str, Prepared] = {}
        self._regions: dict[tuple[str, str], "np.ndarray | None"] = {}
        self._crops: dict[tuple[str, tuple], tuple] = {}
        self._lock = threading.Lock()

    @property
    def ocr(self) -> "OcrEngine":
        if self._ocr is None:
            from iwrbench.metrics._ocr import get_ocr

            self._ocr = get_ocr("tesseract")
        return self._ocr

    def available(self) -> tuple[bool, str]:
        if self._ocr is not None:
            return True, "numpy + scipy + scikit-image, word boxes from the given OCR engine"
        from iwrbench.metrics._ocr import TesseractOcr

        ok, why = TesseractOcr().available()
        return (True, f"numpy + scipy + scikit-image; word boxes by {why}") if ok else (False, f"needs Tesseract for word boxes: {why}")

    def describe(self) -> dict[str, Any]:
        return {"name": self.name, "version": VERSION, "parts": list(PARTS), "width": self.width,
                "region_weight": self.region_weight, "global": "hog-colour", "min_text_sim": MIN_TEXT_SIM,
                "position_scale": POSITION_SCALE, "place_scale": PLACE_SCALE, "moved_scale": MOVED_SCALE,
                "colour_scale": COLOUR_SCALE, "min_conf": MIN_CONF}

    def similarity(self, a: "Image", b: "Image") -> float:
        return self.analyse(a, b).visual

    def _reading(self, img: "Image", given: "OcrReading | None") -> "OcrReading":
        if given is not None and (given.words or not given.text.strip()):
            return given
        reader = getattr(self.ocr, "read", None)
        if callable(reader):
            return reader(img)
        from iwrbench.metrics._ocr import OcrReading

        return OcrReading(self.ocr.read_text(img))

    def prepare(self, img: "Image", reading: "OcrReading | None" = None, *, keep: bool = False) -> Prepared:
        """Words, thumbnail, elements and global features of one screenshot (``keep``: remember it by
        its pixels' digest, for a ground truth compared with many pages)."""
        from iwrbench.metrics._ocr import image_digest

        key = image_digest(img) if keep else ""
        if keep:
            with self._lock:
                hit = self._prepared.get(key)
            if hit is not None:
                return hit
        img = _rgb(img)
        words = words_of(self._reading(img, reading), np.asarray(img, dtype=np.int16))
        thumb = _thumb(img, self.width)
        bg = background_colour(thumb)
        ink = ink_mask(thumb, bg)
        p = Prepared(img, words, thumb, bg, ink, elements_of(_paint_words(thumb, words, self.width / img.size[0]), bg),
                     self._hog.features(img), self._colour.features(img), occupancy(ink), key)
        if keep:
            with self._lock:
                if len(self._prepared) >= self._keep:
                    self._prepared.pop(next(iter(self._prepared)))
                self._prepared[key] = p
        return p

    def _global(self, a: Prepared, b: Prepared) -> float:
        return self._hog.feature_similarity(a.hog, b.hog) * self._colour.feature_similarity(a.colour, b.colour)

    def _region_global(self, A: Prepared, B: Prepared, box: tuple[int, int, int, int]) -> float:
        """hog-colour of the two crops, at the whole picture's scale (levels too coarse for the crop
        are left out); the reference's crop is remembered with it."""

        if box == (0, 0, *A.img.size):
            return self._global(A, B)
        width = max(8, round((box[2] - box[0]) * self._hog.width / A.img.size[0]))
        hog = GradHistBackend(width=width, levels=self._hog.levels)

        def feats(img: "Image") -> tuple:
            c = img.crop(box)
            return hog.features(c), self._colour.features(c)

        key = (A.key, box)
        with self._lock:
            fa = self._crops.get(key)
        if fa is None:
            fa = feats(A.img)
            with self._lock:
                if len(self._crops) >= self._keep:
                    self._crops.pop(next(iter(self._crops)))
                self._crops[key] = fa
        fb = feats(B.img)
        return hog.feature_similarity(fa[0], fb[0]) * self._colour.feature_similarity(fa[1], fb[1])

    def region(self, prev: "Image", gt: "Image", gt_key: str | None = None) -> "np.ndarray | None":
        """The step's changed cells (``changed_region``), remembered by the two screenshots' digests."""
        from iwrbench.metrics._ocr import image_digest

        key = (image_digest(prev), gt_key or image_digest(gt))
        with self._lock:
            if key in self._regions:
                return self._regions[key]
        grid = changed_region(prev, gt)
        with self._lock:
            if len(self._regions) >= self._keep:
                self._regions.pop(next(iter(self._regions)))
            self._regions[key] = grid
        return grid

    def analyse(self, gt: "Image", gen: "Image", *, prev: "Image | None" = None,
                gt_read: "OcrReading | None" = None, gen_read: "OcrReading | None" = None) -> Analysis:
        """Compare ``gen`` with ``gt``; ``prev`` is the recording's screenshot before this step (its
        change from ``prev`` to ``gt`` weighs ``region_weight`` in every part)."""
        from PIL import Image as PILImage

        gt = _rgb(gt)
        gen = _rgb(gen)
        if gen.size != gt.size:
            gen = gen.resize(gt.size, PILImage.Resampling.BILINEAR)
        size = gt.size
        A = self.prepare(gt, gt_read, keep=True)
        B = self.prepare(gen, gen_read)
        wa_, wb_, ea, eb = A.words, B.words, A.elements, B.elements
        pairs = match_words(wa_, wb_, size)
        offset = page_offset(wa_, wb_, pairs)
        scale = self.width / size[0]
        t_shift = (round(offset[0] * scale), round(offset[1] * scale))
        epairs = match_elements(ea, eb, (offset[0] * scale, offset[1] * scale))

        def parts_for(word_w: tuple, el_w: tuple, cells_thumb: "np.ndarray | None", grid: "np.ndarray | None",
                      glob: float, at_place: bool) -> dict[str, float]:
            wp = _word_parts(wa_, wb_, pairs, size, *word_w, offset=offset, at_place=at_place)
            occ = _occupancy_overlap(A.occupancy, B.ink, grid, t_shift, B.occupancy)
            layout = occ if wp["position"] is None else 0.5 * occ + 0.5 * wp["position"]
            pal = _palette_match(A.thumb, B.thumb, A.ink, B.ink, A.bg, B.bg, cells_thumb)
            style = pal if wp["colour"] is None else 0.4 * pal + 0.4 * wp["colour"] + 0.2 * wp["size"]
            return {"content": wp["content"], "layout": layout, "style": style,
                    "elements": _element_score(ea, eb, epairs, *el_w), "global": glob}

        whole = parts_for((wa_.weights, wb_.weights), (ea.weights, eb.weights), None, None, self._global(A, B), False)
        region = None
        share = 0.0
        grid = self.region(prev, gt, A.key) if prev is not None else None
        if grid is not None:
            share = float(grid.mean())
            glob = self._region_global(A, B, _crop_box(grid, size))
            back = np.array([offset[0], offset[1], offset[0], offset[1]])
            in_wa = _in_region(wa_.boxes, grid, 1.0)
            in_wb = _in_region(wb_.boxes - back, grid, 1.0)
            in_ea = _in_region(ea.boxes, grid, scale)
            in_eb = _in_region(eb.boxes - back * scale, grid, scale)
            region = parts_for((wa_.weights * in_wa, wb_.weights * in_wb), (ea.weights * in_ea, eb.weights * in_eb),
                               _grid_to(grid, A.thumb.shape[:2]), _grid_to(grid, (18, 32)), glob, True)
        a = self.region_weight if region is not None else 0.0
        parts = {k: (1 - a) * whole[k] + a * (region[k] if region is not None else 0.0) for k in PARTS}
        visual = float(sum(parts.values()) / len(parts))
        detail = {"words": [len(wa_), len(wb_)], "matched_words": int(len(pairs[0])), "offset_px": [round(offset[0]), round(offset[1])],
                  "elements": [len(ea), len(eb)], "matched_elements": int(len(epairs[0]))}
        return Analysis(parts, visual, whole, region, share, detail)
