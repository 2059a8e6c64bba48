"""One call that scores a generated screenshot against its ground truth, as the published
visual score does: OCR similarity, visual similarity, their mean (the low-level score) and the
high-level rubric, each with its time. The ground truth's OCR comes from the engine's cache
when the same checkpoint was read before (make one engine per run with ``get_ocr``).
"""

from __future__ import annotations

import time
from typing import TYPE_CHECKING, Any, Callable

from iwrbench.metrics._ocr import OcrEngine, OcrReading, get_ocr
from iwrbench.metrics._rubric import MllmRubric, OfflineRubric
from iwrbench.metrics._text import ocr_similarity
from iwrbench.metrics._backends import get_visual
from iwrbench.metrics._component import describe as _describe
from iwrbench.metrics._visual import VisualBackend

if TYPE_CHECKING:  # pragma: no cover
    from PIL.Image import Image


def _resolve(ocr: OcrEngine | str | None, visual: VisualBackend | str | None) -> tuple[OcrEngine, VisualBackend]:
    engine = ocr if ocr is not None and not isinstance(ocr, str) else get_ocr(ocr)
    backend = visual if visual is not None and not isinstance(visual, str) else get_visual(visual)
    return engine, backend


def _read(engine: OcrEngine, img: "Image") -> OcrReading:
    reader = getattr(engine, "read", None)
    return reader(img) if callable(reader) else OcrReading(engine.read_text(img))


def _low_level(gt: "Image", gen: "Image", engine: OcrEngine, backend: VisualBackend,
               prev: "Image | None" = None,
               text_similarity: Callable[[str, str], float] = ocr_similarity) -> dict[str, Any]:
    timings: dict[str, float] = {}
    t = time.perf_counter()
    gt_read = _read(engine, gt)
    timings["ocr_gt"] = time.perf_counter() - t
    t = time.perf_counter()
    gen_read = _read(engine, gen)
    timings["ocr_gen"] = time.perf_counter() - t
    t = time.perf_counter()
    analysis = None
    if callable(getattr(backend, "analyse", None)):
        analysis = backend.analyse(gt, gen, prev=prev, gt_read=gt_read, gen_read=gen_read)  # type: ignore[attr-defined]
        visual = analysis.visual
    else:
        visual = backend.similarity(gt, gen)
    timings["visual"] = time.perf_counter() - t
    ocr = text_similarity(gt_read.text, gen_read.text)
    out = {
        "ocr": ocr,
        "visual": visual,
        "low_level": (ocr + visual) / 2.0,
        "gt_text": gt_read.text,
        "gen_text": gen_read.text,
        "timings": timings,
        "components": {"ocr": _describe(engine), "visual": _describe(backend)},
        "analysis": analysis,
    }
    if analysis is not None:
        out["visual_parts"] = {k: round(v, 4) for k, v in analysis.parts.items()}
    return out


#: a pixel of the judged screenshot within this many levels (0-255, every channel) of the ground truth's is
#: the ground truth's: two screenshots of one state can differ in a few pixels by a level or two (the
#: rasteriser's anti-aliasing), which no person sees, yet a threshold inside OCR or the element finder can
#: turn it into a different reading (an oracle's step scored 90.2 instead of 100 for 4 pixels off by 1)
NOISE_FLOOR = 3


def below_noise(gt: "Image", gen: "Image", floor: int = NOISE_FLOOR) -> "Image":
    """``gen`` with every pixel that differs from ``gt`` by at most ``floor`` levels replaced by ``gt``'s
    (``gen`` itself when the sizes differ or ``floor`` is 0)."""
    import numpy as np
    from PIL import Image as PILImage

    if floor <= 0 or gt.size != gen.size:
        return gen
    a = np.asarray(gt.convert("RGB"), dtype=np.int16)
    b = np.asarray(gen.convert("RGB"), dtype=np.int16)
    same = np.abs(a - b).max(axis=2) <= floor
    if same.all():
        return gt.convert("RGB")
    if not same.any():
        return gen
    return PILImage.fromarray(np.where(same[..., None], a, b).astype(np.uint8), "RGB")


def compare(
    gt: "Image",
    gen: "Image",
    *,
    ocr: OcrEngine | str | None = None,
    visual: VisualBackend | str | None = None,
    rubric: OfflineRubric | None = None,
    prev: "Image | None" = None,
    noise_floor: int = NOISE_FLOOR,
) -> dict[str, Any]:
    """Score ``gen`` against ``gt``; ``prev`` is the recording's screenshot of the state before this
    step (the offline comparison weighs where the step changed the screen; None: no weighting).

    Returns ``ocr``, ``visual`` and ``low_level`` (= their mean) in [0, 1]; ``high_level`` on the
    rubric's 0-100 scale with ``high_level_components`` (points); ``gt_text`` / ``gen_text``;
    ``timings`` in seconds; ``components`` (how each part was built, for a run log). ``ocr`` and
    ``visual`` take an engine/backend or a name (None: the defaults); ``rubric`` defaults to an
    ``OfflineRubric`` sharing them. With the offline comparison (``"blocks"``), ``visual_parts``
    holds its five parts and ``analysis`` the whole comparison. For an ``MllmRubric`` use ``acompare``.
    Differences of at most ``noise_floor`` levels are taken out of ``gen`` first (``below_noise``; 0: none).
    """
    if isinstance(rubric, MllmRubric):
        raise TypeError("MllmRubric is async: use `await acompare(...)`")
    t0 = time.perf_counter()
    gen = below_noise(gt, gen, noise_floor)
    engine, backend = _resolve(ocr, visual)
    out = _low_level(gt, gen, engine, backend, prev)
    rub = rubric if rubric is not None else OfflineRubric(ocr=engine, visual=backend)
    t = time.perf_counter()
    analysis = out["analysis"]
    if analysis is None or rub.blocks is not backend:
        analysis = rub.blocks.analyse(gt, gen, prev=prev, gt_read=_read(engine, gt), gen_read=_read(engine, gen))
    hl = rub.score(gt, gen, analysis=analysis)
    out["timings"]["high_level"] = time.perf_counter() - t
    out["high_level"] = hl.score
    out["high_level_components"] = hl.components
    out["components"]["rubric"] = _describe(rub)
    out["timings"]["total"] = time.perf_counter() - t0
    return out


async def acompare(
    gt: "Image",
    gen: "Image",
    *,
    ocr: OcrEngine | str | None = None,
    visual: VisualBackend | str | None = None,
    rubric: OfflineRubric | MllmRubric | None = None,
    prev: "Image | None" = None,
    text_similarity: Callable[[str, str], float] | None = None,
) -> dict[str, Any]:
    """``compare`` for async callers; with an ``MllmRubric`` the judge call overlaps the OCR and
    visual work (run in a thread), and ``high_level_raw`` holds the judge's reply. ``text_similarity``
    (MLLM rubric only): how two OCR readings are compared (default ``ocr_similarity``; the published
    protocol passes ``published_ocr_similarity``). With an ``MllmRubric`` (the published protocol) the images
    are compared as they are: no noise floor."""
    import asyncio

    if not isinstance(rubric, MllmRubric):
        return await asyncio.to_thread(compare, gt, gen, ocr=ocr, visual=visual, rubric=rubric, prev=prev)
    t0 = time.perf_counter()
    engine, backend = _resolve(ocr, visual)

    async def judged() -> tuple[Any, float]:
        t = time.perf_counter()
        r = await rubric.score(gt, gen)
        return r, time.perf_counter() - t

    low, (hl, hl_time) = await asyncio.gather(
        asyncio.to_thread(_low_level, gt, gen, engine, backend, prev, text_similarity or ocr_similarity), judged())
    low["timings"]["high_level"] = hl_time
    low["high_level"] = hl.score
    low["high_level_components"] = hl.components
    low["high_level_raw"] = hl.raw
    low["high_level_sent"] = getattr(hl, "sent", None)
    low["components"]["rubric"] = _describe(rubric)
    low["timings"]["total"] = time.perf_counter() - t0
    return low
