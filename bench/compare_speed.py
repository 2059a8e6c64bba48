"""How long does scoring one 1280x720 pair take? compare() and each of its parts.

Renders a few test pages (tests/metrics/metrics_pages.py), then times compare() with the ground
truth's OCR already cached (as in a run, where a checkpoint is compared with many pages), with a
"before" screenshot given (the offline comparison then also measures the step's changed region),
and each backend alone. With --dinov2 it also times a DINOv2-base-sized model (random weights, the
real architecture) per embedding, for both crop settings.

    .venv/bin/python bench/compare_speed.py [--repeat 5] [--dinov2]
"""

from __future__ import annotations

import argparse
import importlib.util
import statistics
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "src"))
sys.path.insert(0, str(ROOT / "tests" / "metrics"))

import metrics_pages as pages  # noqa: E402

from iwrbench.metrics import OfflineRubric, compare, get_ocr, get_visual  # noqa: E402


def _median_ms(fn, repeat: int) -> float:
    times = []
    for _ in range(repeat):
        t = time.perf_counter()
        fn()
        times.append(time.perf_counter() - t)
    return 1000 * statistics.median(times)


def main() -> int:
    ap = argparse.ArgumentParser()
    ap.add_argument("--repeat", type=int, default=5)
    ap.add_argument("--dinov2", action="store_true", help="also time a DINOv2-base-sized model (needs torch)")
    ap.add_argument("--torch-threads", type=int, default=1, help="torch threads (1 is fastest on a shared 2-core box)")
    args = ap.parse_args()

    shots = pages.render_pages(
        {f"{f}/{v}": pages.variant_html(f, v) for f in ("shop", "dashboard") for v in ("identical", "restyled", "shift6")}
    )
    ocr = get_ocr()
    visual = get_visual()
    rubric = OfflineRubric(ocr=ocr, visual=visual)
    gt, gen = shots["shop/identical"], shots["shop/restyled"]
    ocr.read_text(gt)  # the ground truth is cached, as in a run

    print(f"1280x720 pair, median of {args.repeat}:")
    print(f"  tesseract read (uncached)  {_median_ms(lambda: ocr.engine.read_text(gen), args.repeat):7.0f} ms")
    print(f"  tesseract read (cached)    {_median_ms(lambda: ocr.read_text(gt), args.repeat):7.1f} ms")
    for name in ("hog-colour", "hog", "colour", "ssim", "edges", "phash"):
        b = get_visual(name)
        print(f"  visual {name:<19} {_median_ms(lambda b=b: b.similarity(gt, gen), args.repeat):7.1f} ms")
    reads = {"gt_read": ocr.read(gt), "gen_read": ocr.read(gen)}
    prev = shots["shop/shift6"]  # a "before" that differs from the ground truth: the changed region is measured too
    print(f"  visual blocks (readings given) {_median_ms(lambda: visual.analyse(gt, gen, **reads), args.repeat):5.1f} ms")
    print(f"  visual blocks + changed region {_median_ms(lambda: visual.analyse(gt, gen, prev=prev, **reads), args.repeat):5.1f} ms")
    a = visual.analyse(gt, gen, **reads)
    print(f"  offline rubric (comparison given) {_median_ms(lambda: rubric.score(gt, gen, analysis=a), args.repeat):4.1f} ms")
    totals = []
    for f in ("shop", "dashboard"):
        for v in ("restyled", "shift6"):
            ocr.cache._mem.clear()  # the generated page is new each time...
            ocr.read_text(shots[f"{f}/identical"])  # ...the ground truth is not
            out = compare(shots[f"{f}/identical"], shots[f"{f}/{v}"], ocr=ocr, visual=visual, rubric=rubric,
                          prev=shots[f"{f}/{'shift6' if v == 'restyled' else 'restyled'}"])
            totals.append(out["timings"])
    keys = ("ocr_gt", "ocr_gen", "visual", "high_level", "total")
    print("  compare():  " + "  ".join(f"{k} {1000 * statistics.median(t[k] for t in totals):.0f} ms" for k in keys))

    if args.dinov2:
        if importlib.util.find_spec("torch") is None or importlib.util.find_spec("transformers") is None:
            print("  dinov2: torch/transformers not installed")
            return 0
        import tempfile

        import torch
        import transformers

        from iwrbench.metrics import Dinov2Backend

        torch.set_num_threads(args.torch_threads)
        with tempfile.TemporaryDirectory() as d:
            torch.manual_seed(0)
            transformers.Dinov2Model(transformers.Dinov2Config()).save_pretrained(d)  # dinov2-base shape
            for crop in ("published", "none"):
                b = Dinov2Backend(d, crop=crop)
                b._load()
                b.embed(gt)
                with torch.inference_mode():
                    ms = _median_ms(lambda b=b: b._model(pixel_values=b._pixels(gen)), max(3, args.repeat // 2))
                print(f"  dinov2-base-sized, crop={crop:<9} {ms:6.0f} ms per embedding (torch threads {torch.get_num_threads()})")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
