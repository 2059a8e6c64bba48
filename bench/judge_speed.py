"""Judge time per action (replay + settle + screenshots + checks + visual metrics), median over a suite.

    .venv/bin/python bench/judge_speed.py [SUITE_PATH] [--model oracle]

Judges every task once with the model (default: the oracle, which executes every action),
and prints the median and quartiles of seconds per action, per task and overall. Without a
suite path it uses the built `default` suite (building it first if needed).
"""

from __future__ import annotations

import argparse
import statistics
import sys
import tempfile
import time
from pathlib import Path


def main() -> int:
    ap = argparse.ArgumentParser()
    ap.add_argument("suite", nargs="?")
    ap.add_argument("--model", default="oracle")
    ap.add_argument("--protocol", default="offline@1")
    a = ap.parse_args()
    from iwrbench.runs.evaluate import EvalConfig, evaluate
    from iwrbench.runs.rundir import RunDir

    suite = a.suite
    if suite is None:
        from iwrbench.suites.build import ensure_built

        suite = str(ensure_built("default"))
    with tempfile.TemporaryDirectory() as tmp:
        t0 = time.monotonic()
        evaluate(EvalConfig(tasks=suite, models=[a.model], out=Path(tmp) / "run", protocol=a.protocol))
        wall = time.monotonic() - t0
        results = list(RunDir(Path(tmp) / "run").results().values())
    per_action = sorted(r.duration_s / max(1, r.steps_total) for r in results if r.status == "ok")
    actions = sum(r.steps_total for r in results)
    if not per_action:
        print("no task was judged", file=sys.stderr)
        return 1
    q = statistics.quantiles(per_action, n=4) if len(per_action) > 1 else [per_action[0]] * 3
    print(f"suite: {suite}")
    print(f"tasks judged: {len(per_action)}, actions: {actions}, wall: {wall:.1f}s")
    print(f"judge seconds per action: median {statistics.median(per_action):.2f} "
          f"(q1 {q[0]:.2f}, q3 {q[2]:.2f}, max {per_action[-1]:.2f}); overall {wall / max(1, actions):.2f}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
