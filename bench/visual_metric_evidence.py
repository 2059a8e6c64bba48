"""Which offline visual similarity should stand in for DINOv2? Evidence on rendered pages.

Renders four small page families (tests/metrics/metrics_pages.py: shop, dashboard, article, and a
mostly-white login page) at 1280x720 with Chromium, in these variants against the original:
identical, shifted by 2, 3, 6 and 8 px, restyled (same layout and text, other colours and fonts),
broken (half of the content missing), unrelated (another family), and blank (a white page).
Prints, for every candidate metric, its mean score per variant over the families, the checks a
default must pass, and the time per pair.

    .venv/bin/python bench/visual_metric_evidence.py [--repeat N] [--markdown]

Checks (per family, not on average):
  rank    identical > restyled > unrelated
  blank   blank scores < 0.2 (a blank page must not earn visual credit)
  shift   2, 3, 6 and 8 px shifts keep >= 0.85, and a 6 px shift stays above restyled
  time    mean time per 1280x720 pair < 100 ms
"""

from __future__ import annotations

import argparse
import statistics
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "src"))
sys.path.insert(0, str(ROOT / "tests" / "metrics"))

import metrics_pages as pagegen  # noqa: E402

from iwrbench.metrics._backends import VISUAL_BACKENDS  # noqa: E402

CANDIDATES = ["ssim", "phash", "colour", "edges", "hog", "hog-edges", "hog-colour"]
SHOWN = ["identical", "shift2", "shift3", "shift6", "shift8", "restyled", "broken", "unrelated", "blank"]


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--repeat", type=int, default=3, help="timing repeats per pair")
    ap.add_argument("--markdown", action="store_true", help="print the table as Markdown")
    args = ap.parse_args()

    htmls = {f"{fam}/{v}": pagegen.variant_html(fam, v) for fam in pagegen.FAMILIES for v in SHOWN}
    t0 = time.perf_counter()
    shots = pagegen.render_pages(htmls)
    print(f"rendered {len(shots)} screenshots in {time.perf_counter() - t0:.1f} s", file=sys.stderr)

    rows = []
    for name in CANDIDATES:
        backend = VISUAL_BACKENDS[name]()
        scores: dict[str, list[float]] = {v: [] for v in SHOWN}
        times: list[float] = []
        fails: list[str] = []
        for fam in pagegen.FAMILIES:
            gt = shots[f"{fam}/identical"]
            s = {}
            for v in SHOWN:
                gen = shots[f"{fam}/{v}"]
                best = float("inf")
                for _ in range(args.repeat):
                    t = time.perf_counter()
                    s[v] = backend.similarity(gt, gen)
                    best = min(best, time.perf_counter() - t)
                times.append(best)
                scores[v].append(s[v])
            if not (s["identical"] > s["restyled"] > s["unrelated"]):
                fails.append(f"rank:{fam}")
            if not s["blank"] < 0.2:
                fails.append(f"blank:{fam}")
            shifts = [s[v] for v in SHOWN if v.startswith("shift")]
            if not (min(shifts) >= 0.85 and s["shift6"] > s["restyled"]):
                fails.append(f"shift:{fam}")
        ms = 1000 * statistics.mean(times)
        if ms >= 100:
            fails.append("time")
        rows.append((name, {v: statistics.mean(x) for v, x in scores.items()},
                     {v: min(x) for v, x in scores.items()}, {v: max(x) for v, x in scores.items()}, ms, fails))

    head = ["metric"] + SHOWN + ["ms/pair", "checks"]
    if args.markdown:
        print("| " + " | ".join(head) + " |")
        print("|" + "---|" * len(head))
    else:
        print(f"{'metric':<11}" + "".join(f"{h:>9}" for h in SHOWN) + f"{'ms/pair':>9}  checks")
    for name, mean, lo, hi, ms, fails in rows:
        verdict = "PASS" if not fails else "FAIL " + ",".join(fails)
        if args.markdown:
            cells = [f"{mean[v]:.2f} ({lo[v]:.2f}-{hi[v]:.2f})" if v not in ("identical",) else f"{mean[v]:.2f}" for v in SHOWN]
            print("| " + " | ".join([name] + cells + [f"{ms:.0f}", verdict]) + " |")
        else:
            print(f"{name:<11}" + "".join(f"{mean[v]:>9.3f}" for v in SHOWN) + f"{ms:>9.1f}  {verdict}")
    if not args.markdown:
        print("\nper-family minimum / maximum:")
        for name, _mean, lo, hi, _ms, _fails in rows:
            print(f"{name:<11}" + "".join(f" {lo[v]:.2f}-{hi[v]:.2f}" for v in SHOWN))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
