"""Visual change: where a step changed the screen, and whether a judged page changed with it too.

A screenshot pair (before, after) becomes a grid of 16 px cells; a cell changed when at least 6% of its
pixels differ by more than 24 levels in some channel (anti-aliasing and JPEG-like noise stay under it;
a caret, a tick or a new line of text does not). The judged page "changed with the step" when it
changed by at least a quarter of the recording's changed area (at most 1% of the screen: a recording
whose whole screen changed, a modal's backdrop darkening everything, asks for a real change, not for the
same backdrop). Where it changed is reported (cells within ``RADIUS`` of the recorded change) but does
not decide: a page that keeps the behaviour with another layout — or no stylesheet at all — passes;
what must not pass is a page where nothing happens. Which change it was is the business of the text
evidence.
"""

from __future__ import annotations

import base64
import io
from dataclasses import dataclass

import numpy as np
from PIL import Image

from ..records import ChangeEvidence

CELL = 16
PIXEL_TOL = 24
CELL_SHARE = 0.06
#: the recording must change at least this many cells for a change to be evidence
MIN_CELLS = 3
#: ... and this share of the viewport for a step without an assertion to require it
MIN_SHARE_UNASSERTED = 0.01
RADIUS = 8
MIN_RECALL = 0.25
#: ... but at most this share of the screen is asked for
CAP_SHARE = 0.01
#: a step that must change nothing may still change this share of the screen (a focus ring, a caret)
STILL_SHARE = 0.005


def _arr(img: Image.Image | bytes | str) -> np.ndarray:
    if isinstance(img, (bytes, bytearray)):
        img = Image.open(io.BytesIO(img))
    elif isinstance(img, str):
        img = Image.open(img)
    return np.asarray(img.convert("RGB"), dtype=np.int16)


def change_grid(before: Image.Image | bytes | str, after: Image.Image | bytes | str, cell: int = CELL) -> np.ndarray:
    """Boolean grid (rows x cols) of the cells that changed between two screenshots."""
    a, b = _arr(before), _arr(after)
    if a.shape != b.shape:
        h, w = min(a.shape[0], b.shape[0]), min(a.shape[1], b.shape[1])
        a, b = a[:h, :w], b[:h, :w]
    diff = (np.abs(a - b).max(axis=2) > PIXEL_TOL)
    rows, cols = diff.shape[0] // cell, diff.shape[1] // cell
    if rows == 0 or cols == 0:
        return np.zeros((max(rows, 1), max(cols, 1)), dtype=bool)
    d = diff[: rows * cell, : cols * cell].reshape(rows, cell, cols, cell).mean(axis=(1, 3))
    return d >= CELL_SHARE


def encode(grid: np.ndarray, cell: int = CELL) -> ChangeEvidence:
    bits = base64.b64encode(np.packbits(grid.astype(bool).ravel()).tobytes()).decode()
    return ChangeEvidence(cell=cell, rows=int(grid.shape[0]), cols=int(grid.shape[1]), bits=bits,
                          share=round(float(grid.mean()), 5))


def decode(ev: ChangeEvidence) -> np.ndarray:
    raw = np.frombuffer(base64.b64decode(ev.bits), dtype=np.uint8)
    n = ev.rows * ev.cols
    return np.unpackbits(raw)[:n].astype(bool).reshape(ev.rows, ev.cols)


def _dilate(g: np.ndarray, r: int) -> np.ndarray:
    """Chebyshev dilation by r cells (a square neighbourhood), with cumulative sums."""
    if r <= 0 or not g.any():
        return g.copy()
    rows, cols = g.shape
    c = np.pad(g.astype(np.int32), ((1, 0), (1, 0))).cumsum(0).cumsum(1)
    y0 = np.clip(np.arange(rows) - r, 0, rows)
    y1 = np.clip(np.arange(rows) + r + 1, 0, rows)
    x0 = np.clip(np.arange(cols) - r, 0, cols)
    x1 = np.clip(np.arange(cols) + r + 1, 0, cols)
    s = c[y1][:, x1] - c[y0][:, x1] - c[y1][:, x0] + c[y0][:, x0]
    return s > 0


@dataclass
class ChangeVerdict:
    passed: bool
    recorded: int
    judged: int
    near: int
    detail: str


def similar(recorded: np.ndarray, judged: np.ndarray, radius: int = RADIUS) -> ChangeVerdict:
    """Did the judged page change near where the recording changed, by enough?

    Enough: a quarter of the recording's changed cells, but never more than 1% of the screen — a
    recording whose whole screen changed (a modal's backdrop darkening everything) asks for a real
    change, not for the same backdrop."""
    if judged.shape != recorded.shape:
        j = np.zeros_like(recorded)
        h, w = min(j.shape[0], judged.shape[0]), min(j.shape[1], judged.shape[1])
        j[:h, :w] = judged[:h, :w]
        judged = j
    rec, jud = int(recorded.sum()), int(judged.sum())
    near = int((judged & _dilate(recorded, radius)).sum())
    need = max(1, min(int(np.ceil(MIN_RECALL * rec)), max(MIN_CELLS, int(np.ceil(CAP_SHARE * recorded.size)))))
    ok = jud >= need
    if jud == 0:
        detail = f"nothing changed on the page; the recording changed {rec} cells"
    else:
        detail = (f"changed {jud} cells ({near} near where the recording changed {rec}); "
                  + ("enough" if ok else f"needs {need}"))
    return ChangeVerdict(ok, rec, jud, near, detail)


def still(judged: np.ndarray) -> ChangeVerdict:
    """Did the page stay as it was (a step that changed nothing in the recording)?

    A trace is allowed: ``MIN_CELLS`` cells or ``STILL_SHARE`` of the screen, whichever is more."""
    jud = int(judged.sum())
    allow = max(MIN_CELLS, int(np.ceil(STILL_SHARE * judged.size)))
    ok = jud <= allow
    detail = (f"changed {jud} cells; the recording changed nothing here"
              + ("" if ok else f" (at most {allow} allowed)"))
    return ChangeVerdict(ok, 0, jud, 0, detail)


#: steps that need no element: executing them proves nothing, so without an assertion a large change
#: of the recording must still show on the page (a blank page "presses a key" as well as any)
NO_TARGET = ("Press", "Scroll")


def required(ev: ChangeEvidence | None, asserted: bool, action_type: str = "") -> bool:
    """Is this recorded change evidence for the step (big enough for its kind of step)?

    Asserted steps: any change of at least ``MIN_CELLS``. Steps without an assertion: only key presses
    and scrolls, and only a change of at least ``MIN_SHARE_UNASSERTED`` of the screen; a click or typing
    without an assertion passes on execution (and a typed text must be visible), as published.
    """
    if ev is None:
        return False
    cells = ev.share * ev.rows * ev.cols
    if cells < MIN_CELLS:
        return False
    if asserted:
        return True
    return action_type in NO_TARGET and ev.share >= MIN_SHARE_UNASSERTED


__all__ = ["change_grid", "encode", "decode", "similar", "still", "required", "ChangeVerdict", "CELL"]
