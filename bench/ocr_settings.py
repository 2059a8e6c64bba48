"""Which Tesseract settings read UI screenshots best? Evidence on rendered pages.

Renders the four page families of tests/metrics/metrics_pages.py (original and restyled, plus a
6 px shift) at 1280x720 and reads them with several settings. Per setting it prints:

  wordF1     word-multiset F1 of the OCR text against the visible DOM text (accuracy)
  lev(dom)   the published OCR similarity of the OCR text against the DOM text
  restyled   OCR similarity of the original's reading vs the restyled page's (same text)
  shift6     OCR similarity of the original's reading vs the 6 px shifted page's (same text)
  s/img      mean time per 720p image (Tesseract with OMP_THREAD_LIMIT=1)

    .venv/bin/python bench/ocr_settings.py
"""

from __future__ import annotations

import statistics
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "src"))
sys.path.insert(0, str(ROOT / "tests" / "metrics"))

import metrics_pages as pages  # noqa: E402

from iwrbench.metrics import TesseractOcr, ocr_similarity, word_f1  # noqa: E402

SETTINGS = [
    ("psm 3 (auto layout)", dict(psm=3, polarity=False)),
    ("psm 3 + polarity", dict(psm=3, polarity=True)),
    ("psm 4 + polarity", dict(psm=4, polarity=True)),
    ("psm 11 (sparse) + polarity", dict(psm=11, polarity=True)),
    ("psm 6 (one block)", dict(psm=6, polarity=False)),
    ("psm 6 + polarity  [default]", dict(psm=6, polarity=True)),
    ("psm 6 + polarity, x1.5", dict(psm=6, polarity=True, scale=1.5)),
    ("psm 6 + polarity, x2", dict(psm=6, polarity=True, scale=2.0)),
]


def main() -> int:
    htmls = {}
    for fam in pages.FAMILIES:
        htmls[f"{fam}/identical"] = pages.page_html(fam)
        htmls[f"{fam}/restyled"] = pages.page_html(fam, restyled=True)
        htmls[f"{fam}/shift6"] = pages.page_html(fam, shift=6)
    shots = pages.render_pages_with_text(htmls)
    print(f"{'setting':<30}{'wordF1':>8}{'min':>6}{'lev(dom)':>10}{'restyled':>10}{'min':>6}{'shift6':>8}{'min':>6}{'s/img':>7}")
    for label, kw in SETTINGS:
        engine = TesseractOcr(**kw)
        f1, lev, rest, shift, times = [], [], [], [], []
        for fam in pages.FAMILIES:
            read = {}
            for v in ("identical", "restyled", "shift6"):
                img, _ = shots[f"{fam}/{v}"]
                t = time.perf_counter()
                read[v] = engine.read_text(img)
                times.append(time.perf_counter() - t)
            for v in ("identical", "restyled"):
                f1.append(word_f1(shots[f"{fam}/{v}"][1], read[v]))
            lev.append(ocr_similarity(shots[f"{fam}/identical"][1], read["identical"]))
            rest.append(ocr_similarity(read["identical"], read["restyled"]))
            shift.append(ocr_similarity(read["identical"], read["shift6"]))
        m = statistics.mean
        print(
            f"{label:<30}{m(f1):>8.3f}{min(f1):>6.2f}{m(lev):>10.3f}{m(rest):>10.3f}{min(rest):>6.2f}"
            f"{m(shift):>8.3f}{min(shift):>6.2f}{m(times):>7.2f}",
            flush=True,
        )
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
