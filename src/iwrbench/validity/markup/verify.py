"""Whether a mutant kept behaviour and looks, decided without the judge: the recipe driven as the recorder
drives it (the one action player, browser/player.py), each screenshot against its checkpoint."""

from __future__ import annotations

import asyncio
import contextlib
import functools
from collections import Counter
import re
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Callable

from .rewrite import Rewriter
from .shim import SURVIVORS_JS

# =========================================================================== verification (no judge)

#: a screenshot this close to its checkpoint in pixels is still read (OCR): a missing line of text, or a digit
#: is a small share of the pixels
TEXT_CHECK_SHARE = 0.00003
MIN_MISSING_WORDS = 2
#: ... or one word or number, where the unmodified source driven the same way (the control) reproduced the checkpoint
#: and still shows it: a password the mutant left hidden, a count it no longer updates
MIN_MISSING_WORDS_CONTROLLED = 1
#: how alike (difflib's ratio) a word read on the page must be to one read on the checkpoint to count as it
NEAR_WORD = 0.75
#: glyphs OCR takes for one another in a token with a digit ('1s' for 15, 'O2OO' for 0200): folded to the digit before
#: two readings are compared, so a number read one way on the checkpoint and the other on the page is one number
OCR_DIGITS = str.maketrans({"o": "0", "l": "1", "i": "1", "s": "5", "z": "2", "b": "8"})


def _fold(w: str) -> str:
    """``w`` with the letters OCR confuses with digits read as digits, when it holds a digit (else as it is)."""
    return w.translate(OCR_DIGITS) if any(c.isdigit() for c in w) else w


#: a word's strokes: pixels this far from its box's commonest grey; gone when this share of them changed that much
INK_LEVEL = 40
INK_CHANGED = 0.3


def _is_word(w: str) -> bool:
    """A token read by OCR that counts as a word: 3+ characters with a letter."""
    return len(w) >= 3 and any(c.isalpha() for c in w)


@functools.lru_cache(maxsize=512)
def _ocr_at(path: str, mtime_ns: int, size: int) -> tuple[Any, ...]:
    from ...generate.cheats import ocr_words

    return tuple(ocr_words(Path(path)))


def _read_words(image: Path, cached: bool) -> tuple[Any, ...]:
    """OCR's words of ``image``; ``cached``: read once per file version (a checkpoint is compared with every mutant,
    and again beside the control)."""
    if not cached:
        from ...generate.cheats import ocr_words

        return tuple(ocr_words(image))
    st = image.stat()
    return _ocr_at(str(image), st.st_mtime_ns, st.st_size)


def missing_words(reference: Path, shot: Path, numbers: bool = False, cached: bool = True) -> list[str]:
    """Words OCR reads on ``reference`` and not on ``shot`` (3+ characters with a letter; a word
    counts as often as it is read). Tesseract, independent of the judge's reader; [] without it.
    ``numbers``: tokens with a digit count too, whatever their length; a number without a letter only where
    the shot reads another number in its place (a counter's '3' that stayed '2'); and two-letter words where the
    shot reads a word of three letters or more in their place (an editor's element path 'ol li' that reads 'ol
    div'; not 'Hy Hp', a misread 'H1 H2', read as 'HH' a pixel further). The caller
    counts such tokens only beside the unmodified source (``Drive.evaluate``): alone they are too easily misread.

    Not missing: a word whose strokes are still painted where it was read, pixel for pixel (OCR read the
    line another way beside a slight change: 'HEM' over an unchanged button), and a word read nowhere on
    ``shot`` but close to one read there (a part of it, or most of its letters: 'hem' beside 'them')."""
    from PIL import Image, ImageChops

    def norm(t: str) -> str:
        return re.sub(r"[^\w]", "", t).lower()

    def short(w: str) -> bool:
        return len(w) == 2 and w.isalpha()

    def keep(w: str) -> bool:
        return _is_word(w) or (numbers and (any(c.isdigit() for c in w) or short(w)))

    with Image.open(reference) as ra, Image.open(shot) as sa:
        ref, cur = ra.convert("L"), sa.convert("L")
    if ref.size != cur.size:
        cur = cur.resize(ref.size)

    def still_painted(box: tuple[int, int, int, int]) -> bool:
        """Are the word's strokes on the reference still there, pixel for pixel, on the shot?"""
        x, y, w, h = box
        crop = (x, y, x + max(1, w), y + max(1, h))
        r = ref.crop(crop)
        bg = max(r.getcolors(1 << 16) or [(0, 0)])[1]
        ink = [i for i, v in enumerate(r.tobytes()) if abs(v - bg) > INK_LEVEL]
        if not ink:
            return True
        d = ImageChops.difference(r, cur.crop(crop)).tobytes()
        return sum(1 for i in ink if d[i] > INK_LEVEL) < INK_CHANGED * len(ink)

    shot_words = [(norm(x.text), x.box) for x in _read_words(shot, cached)]

    def another_there(w: str, box: tuple[int, int, int, int], like: Callable[[str], bool]) -> bool:
        """Is another token of the kind ``like`` read where this one was (a count that stayed '2' where the
        checkpoint reads '3', 'div' where it reads 'li')? A number or a two-letter word gone with nothing in its
        place is more often a glyph misread ('?' read as '2') than a state."""
        x, y, bw, bh = box
        for v, (sx, sy, sw, sh) in shot_words:
            if _fold(v) != _fold(w) and like(v) and sx < x + bw and x < sx + sw and sy < y + bh and y < sy + sh:
                return True
        return False

    def held(w: str, box: tuple[int, int, int, int]) -> bool:
        if still_painted(box):
            return True
        if not any(c.isalpha() for c in w):
            return not another_there(w, box, lambda v: any(c.isdigit() for c in v))
        if short(w):  # another word of 3+ letters in its place ('div' for 'li'); not two glyphs misread ('HH')
            return not another_there(w, box, _is_word)
        return False

    read = [(w, held(w, box)) for w, box in ((norm(x.text), x.box) for x in _read_words(reference, cached)) if keep(w)]
    here = Counter(w for w, _ in shot_words if keep(w))
    return words_gone(Counter(w for w, p in read if not p), here - Counter(w for w, p in read if p))


#: the changed region is read again this many times larger (Tesseract misses small grey text in a field)
REGION_SCALE = 3
#: ... when it is at most this share of the screenshot (a larger change is read well enough as it is)
REGION_MAX_SHARE = 0.2


def region_words_gone(reference: Path, shot: Path, numbers: bool = False) -> list[str]:
    """``missing_words`` on the region where the two screenshots differ, cut out and enlarged: a word typed in a
    field that the whole-page reading missed ('apollo11' in light grey, shown on the checkpoint, dots on the shot)."""
    import tempfile

    import numpy as np
    from PIL import Image

    from ...validate.check import pixel_diff

    with Image.open(reference) as ra, Image.open(shot) as sa:
        ref, cur = ra.convert("RGB"), sa.convert("RGB").resize(ra.size)
    ys, xs = np.nonzero(pixel_diff(ref, cur))
    if not len(xs):
        return []
    pad = 12
    x0, y0 = max(0, int(xs.min()) - pad), max(0, int(ys.min()) - pad)
    x1, y1 = min(ref.width, int(xs.max()) + 1 + pad), min(ref.height, int(ys.max()) + 1 + pad)
    if (x1 - x0) * (y1 - y0) > REGION_MAX_SHARE * ref.width * ref.height:
        return []
    size = ((x1 - x0) * REGION_SCALE, (y1 - y0) * REGION_SCALE)
    with tempfile.TemporaryDirectory(prefix="iwr-region-") as d:
        a, b = Path(d) / "ref.png", Path(d) / "shot.png"
        ref.crop((x0, y0, x1, y1)).resize(size, Image.LANCZOS).save(a)
        cur.crop((x0, y0, x1, y1)).resize(size, Image.LANCZOS).save(b)
        return missing_words(a, b, numbers=numbers, cached=False)  # files of this call only


def words_gone(a: Counter, b: Counter) -> list[str]:
    """The words of ``a`` that ``b`` lacks (counted), less those ``b`` reads another way (``missing_words``)."""
    from difflib import SequenceMatcher

    def near(w: str, x: str) -> bool:
        return (w in x or (x in w and len(x) >= 3) or SequenceMatcher(None, w, x).ratio() >= NEAR_WORD
                or (any(c.isdigit() for c in w + x) and _fold(w) == _fold(x)))  # '1s' read where '15' was

    return sorted(w for w in (a - b).elements() if w in b or not any(near(w, x) for x in b))


@dataclass
class Drive:
    """The recipe driven on a page the way the recorder drives it, and how it compared."""

    steps: int
    reached: int = 0  # actions performed
    shots: dict[int, Path] = field(default_factory=dict)
    diffs: dict[int, float] = field(default_factory=dict)  # checkpoint -> share of pixels differing
    against: dict[int, str] = field(default_factory=dict)  # checkpoint -> "checkpoint" | "control"
    stop_at: int | None = None  # the action that could not be performed
    stop_reason: str = ""
    failed_at: int | None = None
    reason: str = ""
    survivors: dict[str, Any] = field(default_factory=dict)
    seconds: float = 0.0
    #: checkpoints where fewer words were gone than fail a page alone: the control decides (``evaluate``)
    unsure: dict[int, list[str]] = field(default_factory=dict)

    @property
    def ok(self) -> bool:
        return self.failed_at is None and self.reached == self.steps

    def evaluate(self, task: Any, limit: float, control: "Drive | None" = None) -> "Drive":
        """Compare every screenshot with its checkpoint (with the control's screenshot where the
        control itself did not reproduce the checkpoint); the first failure (visual or action) decides."""
        from ...validate.check import diff_share

        self.failed_at, self.reason, self.unsure = None, "", {}
        for i in sorted(self.shots):
            gt = task.checkpoint(i)
            if not gt.is_file():
                continue
            d = diff_share(gt, self.shots[i])
            self.against[i] = "checkpoint"
            if d > limit and control is not None and i in control.shots and control.diffs.get(i, 0) > limit:
                d = diff_share(control.shots[i], self.shots[i])
                self.against[i] = "control"
            self.diffs[i] = d
            if d > limit and self.failed_at is None and (self.stop_at is None or i < self.stop_at):
                self.failed_at = i
                self.reason = f"checkpoint {i}: {d:.1%} of pixels differ (max {limit:.0%}, vs {self.against[i]})"
            elif d > TEXT_CHECK_SHARE and self.failed_at is None and (self.stop_at is None or i < self.stop_at):
                # few pixels, but maybe a whole line of text (an editor left empty): a person would see it
                ref = control.shots[i] if self.against[i] == "control" and control is not None else gt
                gone = missing_words(ref, self.shots[i], numbers=True) or region_words_gone(ref, self.shots[i], numbers=True)
                need = MIN_MISSING_WORDS
                beside = control is not None and i in control.shots and self.against[i] == "checkpoint"
                controlled = beside and control.diffs.get(i, 1.0) <= limit
                if beside and gone:
                    also_gone = set(missing_words(gt, control.shots[i], numbers=True)  # the source varies there too
                                    + region_words_gone(gt, control.shots[i], numbers=True))
                    gone = [w for w in gone if w not in also_gone]
                if controlled:
                    need = MIN_MISSING_WORDS_CONTROLLED
                else:  # numbers alone are too easily misread to fail a page without the control's word
                    if gone and control is None:
                        self.unsure[i] = gone
                    gone = [w for w in gone if _is_word(w)]
                if len(gone) >= need:
                    self.failed_at = i
                    self.reason = (f"checkpoint {i}: only {d:.2%} of pixels differ, but words read on the "
                                   f"{self.against[i]} are not on the page: {', '.join(gone[:6])}")
        if self.failed_at is None and self.stop_at is not None:
            self.failed_at, self.reason = self.stop_at, self.stop_reason
        return self

    def as_dict(self) -> dict[str, Any]:
        return {"ok": self.ok, "reached": self.reached, "failed_at": self.failed_at, "reason": self.reason,
                "max_diff": round(max(self.diffs.values()), 4) if self.diffs else None,
                "diffs": {k: round(v, 4) for k, v in self.diffs.items()},
                "vs_control": sorted(k for k, v in self.against.items() if v == "control"),
                "survivors": self.survivors, "seconds": round(self.seconds, 1)}


def load_recipe(task: Any, recipes: Any = None) -> Any:
    """The recipe ``task`` was recorded from (bundled suites, or ``recipes``; see validate.oracle)."""
    from ...validate.oracle import oracle_recipe

    return oracle_recipe(task, recipes)


async def drive(browser: Any, task: Any, recipe: Any, url: str, origins: set[str], rw: Rewriter, shots_dir: Path,
                *, hold: bool = False) -> Drive:
    """Drive ``recipe`` on ``url`` like the recorder (mouse moves, typing, settle rule, screenshot
    after each action); ``hold`` adds the recorder's pauses between actions."""
    from ...browser.core import new_context
    from ...browser.player import RECORDER, Trace, locate, play
    from ...browser.settle import TIMERS_AFTER_ACTION_MS, TIMERS_AFTER_LOAD_MS, RequestTracker, screenshot, settle, wait_timers
    from ...errors import RecordError
    from ...record import recorder as rec

    t0 = time.monotonic()
    shots_dir.mkdir(parents=True, exist_ok=True)
    n = len(recipe.actions)
    res = Drive(steps=n)
    vp = (recipe.viewport.width, recipe.viewport.height)
    ctx, _net = await new_context(browser, vp, allowed_origins=origins, seed=recipe.seed,  # waits as the recorder
                                  freeze_time=recipe.freeze_time or rec.CLOCK_START, watch_timers=True)
    tl = Trace()

    def stop(i: int, why: str) -> None:
        res.stop_at, res.stop_reason = i, why

    try:
        page = await ctx.new_page()
        tracker = RequestTracker(page)
        t_open = time.monotonic()
        try:
            await page.goto(url, wait_until="load", timeout=rec.NAV_TIMEOUT_MS)
        except Exception as e:
            stop(0, f"cannot open the page: {str(e).splitlines()[0] if str(e) else e}")
            return res
        rep = await settle(page, tracker, timeout_ms=rec.SETTLE_TIMEOUT_MS)
        if not rep.settled:
            stop(0, f"step 0: the page never settled ({rep.what})")
            return res
        await wait_timers(page, tracker, since=t_open, horizon_ms=TIMERS_AFTER_LOAD_MS)
        await screenshot(page, str(shots_dir / "step_0.png"))
        res.shots[0] = shots_dir / "step_0.png"
        tl.moves.append((time.time(), vp[0] * 0.5, vp[1] * 0.62))
        await page.mouse.move(vp[0] * 0.5, vp[1] * 0.62)
        if hold:
            await asyncio.sleep(rec.HOLD_START_S)
        for i, a in enumerate(recipe.actions, start=1):
            el = None
            if a.target:
                sel = rw.playwright_selector(a.target)
                try:
                    el = await locate(page, i, sel)
                except RecordError as e:
                    stop(i, f"{e}" + (f" (mapped from {a.target!r})" if sel != a.target else ""))
                    break
                with contextlib.suppress(Exception):
                    await el.scroll_into_view_if_needed(timeout=3000)
            done = await play(page, a.action, el, vp, RECORDER, trace=tl, step=i)
            if not done.executed:
                stop(i, f"step {i}: {a.type} failed: {done.reason(a.type)}")
                break
            res.reached = i
            t_done = time.monotonic()
            rep = await settle(page, tracker, timeout_ms=rec.SETTLE_TIMEOUT_MS)
            if not rep.settled:
                stop(i, f"step {i}: the page never settled ({rep.what})")
                break
            await wait_timers(page, tracker, since=t_done, horizon_ms=TIMERS_AFTER_ACTION_MS)
            await screenshot(page, str(shots_dir / f"step_{i}.png"))
            res.shots[i] = shots_dir / f"step_{i}.png"
            if hold:
                await asyncio.sleep(rec.HOLD_STEP_S)
        with contextlib.suppress(Exception):
            res.survivors = await page.evaluate(SURVIVORS_JS, {"aria": rw.mut.aria, "divs": rw.mut.divs,
                                                               "rename": rw.mut.rename})
    finally:
        with contextlib.suppress(Exception):
            await ctx.close()
        res.seconds = time.monotonic() - t0
    return res
