"""How wide is a model's 95% interval of Final, and how wide would it be with another number of tasks?

    .venv/bin/python bench/intervals.py RUN_DIR [RUN_DIR ...] [--sizes 32,40,60,113,120,200]
                                        [--resamples 10000] [--within SUITE] [--json FILE]

For every run folder and every model in it: n (its scored tasks), Final, the 95% interval the leaderboard
shows (``iwrbench.runs.bootstrap``: tasks resampled with replacement, the row recomputed as published) and
its width; then the width at each of ``--sizes`` tasks: resamples of m tasks drawn from the model's n
scored tasks, i.e. a suite of m tasks whose scores spread like these. Beside it, the normal
approximation 2 x 1.96 x sd / sqrt(m) (sd of the per-task Final) as a check. Issue 26 asks how wide the
interval is on `default` and on `full`: run this on a run of each, judged with a page set of known
quality (e.g. the reconstructions judged as one model).

The widths at other sizes assume the new tasks spread like the observed ones; a suite that adds another
kind of task (novel apps to famous ones) spreads otherwise, so measure it on the suite itself once built.
"""

from __future__ import annotations

import argparse
import json
import math
import statistics
import sys
from pathlib import Path

DEFAULT_SIZES = (32, 40, 60, 113, 120, 200)


def measure(run_dir: Path, sizes: list[int], resamples: int, within: str | None = None) -> dict:
    """``within``: only the tasks of that bundled suite (e.g. `default` inside a run of `full`)."""
    from iwrbench.protocols import W_HVS, W_IFS, W_LVS, W_VFS
    from iwrbench.runs.bootstrap import row_intervals, scored
    from iwrbench.runs.rundir import RunDir
    from iwrbench.runs.summary import model_row

    rd = RunDir(run_dir)
    spec = rd.read_spec()
    keep = None
    if within:
        from iwrbench.suites.catalog import recipe_files

        keep = {f.stem for f in recipe_files(within)}
    by_model: dict[str, list] = {}
    for r in rd.results().values():
        if keep is not None and r.task_id not in keep:
            continue
        by_model.setdefault(r.model, []).append(r)
    models = []
    for model, results in by_model.items():
        row = model_row(model, results)
        tasks = scored(results)
        finals = [W_IFS * (r.ifs or 0) + W_VFS * (W_LVS * (r.low_level_visual or 0) + W_HVS * (r.high_level_visual or 0))
                  for r in tasks]
        sd = statistics.stdev(finals) if len(finals) > 1 else None
        at = {}
        for m in sizes:
            ci = row_intervals(results, resamples=resamples, size=m).final
            at[str(m)] = {"width": None if ci is None else round(ci.width, 2),
                          "normal": None if sd is None else round(2 * 1.96 * sd / math.sqrt(m), 2)}
        models.append({"model": model, "n": row.tasks, "final": row.final,
                       "ci": None if row.final_ci is None else [row.final_ci.low, row.final_ci.high],
                       "width": None if row.final_ci is None else round(row.final_ci.width, 2),
                       "sd": None if sd is None else round(sd, 2), "at": at, "errors": row.errors})
    models.sort(key=lambda x: -(x["final"] if x["final"] is not None else -1))
    return {"run": str(run_dir), "suite": spec.suite + (f" (only the tasks of {within})" if within else ""), "suite_hash": spec.suite_hash, "protocol": spec.protocol,
            "tasks": len([t for t in spec.task_ids if keep is None or t in keep]), "resamples": resamples, "models": models}


def table(m: dict, sizes: list[int]) -> str:
    def f(x) -> str:
        return "-" if x is None else f"{x:.2f}"

    head = ["model", "n", "Final", "95% CI", "width", "sd"] + [f"at {s}" for s in sizes]
    rows = [[x["model"], str(x["n"]), f(x["final"]), "-" if x["ci"] is None else f"[{x['ci'][0]:.2f}, {x['ci'][1]:.2f}]",
             f(x["width"]), f(x["sd"])]
            + [f"{f(x['at'][str(s)]['width'])} ({f(x['at'][str(s)]['normal'])})" for s in sizes] for x in m["models"]]
    widths = [max(len(c) for c in col) for col in zip(head, *rows)]
    lines = [f"{m['run']}: {m['protocol']}, suite {m['suite']} ({m['tasks']} tasks, hash {m['suite_hash']}), "
             f"{m['resamples']:,} resamples",
             "  ".join(h.ljust(w) if i == 0 else h.rjust(w) for i, (h, w) in enumerate(zip(head, widths)))]
    for r in rows:
        lines.append("  ".join(c.ljust(w) if i == 0 else c.rjust(w) for i, (c, w) in enumerate(zip(r, widths))))
    lines.append("width: high - low of the 95% interval of Final (points); at m: the width with m tasks spread like "
                 "these (bootstrap), in brackets 2 x 1.96 x sd / sqrt(m)")
    return "\n".join(lines)


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("runs", nargs="+", type=Path, metavar="RUN_DIR")
    ap.add_argument("--sizes", default=",".join(map(str, DEFAULT_SIZES)),
                    help="numbers of tasks to project the width to, comma-separated (default %(default)s)")
    ap.add_argument("--resamples", type=int, default=10_000, help="bootstrap resamples (default %(default)s)")
    ap.add_argument("--json", type=Path, metavar="FILE", help="also write the figures as JSON")
    ap.add_argument("--within", metavar="SUITE", help="only the tasks of this bundled suite (e.g. default, inside a "
                                                      "run of full); default: every task of the run")
    a = ap.parse_args(argv)
    from iwrbench.errors import IwrError

    try:
        sizes = [int(s) for s in a.sizes.split(",") if s.strip()]
    except ValueError:
        print(f"intervals.py: --sizes {a.sizes!r}: give whole numbers separated by commas", file=sys.stderr)
        return 2
    if not sizes or min(sizes) < 2:
        print("intervals.py: --sizes: every size must be at least 2 tasks", file=sys.stderr)
        return 2
    out = []
    for run in a.runs:
        try:
            m = measure(run, sizes, a.resamples, a.within)
        except IwrError as e:
            print(f"intervals.py: {e}", file=sys.stderr)
            return 2
        out.append(m)
        print(table(m, sizes) + "\n")
    if a.json:
        a.json.write_text(json.dumps(out, indent=1))
    return 0


if __name__ == "__main__":
    sys.exit(main())
