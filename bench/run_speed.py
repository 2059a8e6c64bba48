"""Wall time of ``iwr run`` from an empty cache: building and judging at once vs one after the other.

    .venv/bin/python bench/run_speed.py [--suite smoke] [--model M ...] [--mode pipelined --mode sequential]
                                        [--limit N (pipelined only)] [--json FILE]

Each mode starts from an empty cache of its own (every task recorded, validated and cheat-checked, as on a
fresh clone; nothing installed is timed) and judges the same models (default: ``iwr run``'s baselines):

- ``sequential``: what ``iwr run`` did before it built while judging: ``iwr suite build SUITE`` (its default
  jobs), then ``iwr eval --tasks <built suite>`` (its default workers, or ``--workers``);
- ``pipelined``: ``iwr run --suite SUITE`` (its default split of the cores, ``runs.pipeline.split_cores``:
  the recordings on every core, at most 4, one judge worker beside them, every core judging once they end).

Reported per mode: build (until the last recording ended), judge (sequential: the eval; pipelined: what was left
to judge after the last recording), total wall time, tasks built and units judged. The pipelined run's
build time is when it printed ``every recording ended`` (its stdout, read as it comes). Run it with the machine
as quiet as it can be, and say how loaded it was (``uptime`` before and after are printed).
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import tempfile
import time
from pathlib import Path

BASELINES = ["oracle", "screenshot", "blank"]


def _iwr(*args: str) -> list[str]:
    return [sys.executable, "-m", "iwrbench.cli", *args]


def _timed(cmd: list[str], env: dict[str, str], marks: dict[str, str]) -> tuple[float, dict[str, float], str]:
    """Run ``cmd``; its wall time, when each of ``marks`` (name -> text) first appeared on its stdout, its output."""
    t0 = time.monotonic()
    seen: dict[str, float] = {}
    out: list[str] = []
    p = subprocess.Popen(cmd, env=env, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True, bufsize=1)
    assert p.stdout is not None
    for line in p.stdout:
        out.append(line)
        for name, text in marks.items():
            if name not in seen and text in line:
                seen[name] = time.monotonic() - t0
    p.wait()
    if p.returncode != 0:
        raise SystemExit(f"{' '.join(cmd)} exited {p.returncode}:\n{''.join(out)[-3000:]}")
    return time.monotonic() - t0, seen, "".join(out)


def _units(run: Path) -> int:
    f = run / "results.jsonl"
    return sum(1 for line in f.read_text().splitlines() if line.strip()) if f.is_file() else 0


def sequential(suite: str, models: list[str], workers: int | None, tmp: Path) -> dict:
    env = {**os.environ, "IWR_CACHE": str(tmp / "cache-sequential"), "IWR_PROGRESS": ""}
    build_s, _, text = _timed(_iwr("suite", "build", suite), env, {})
    tasks = subprocess.run(_iwr("suite", "path", suite), env=env, capture_output=True, text=True,
                           check=True).stdout.strip()
    run = tmp / "run-sequential"
    cmd = _iwr("eval", "--tasks", tasks, "--out", str(run), *sum((["--model", m] for m in models), []))
    if workers:
        cmd += ["--workers", str(workers)]
    judge_s, _, _ = _timed(cmd, env, {})
    built = len([d for d in Path(tasks).iterdir() if (d / "task.json").is_file()])
    excluded = dict(line[len("excluded "):].split(": ", 1) for line in text.splitlines()
                    if line.startswith("excluded ") and ": " in line)
    return {"mode": "sequential", "build_s": round(build_s, 1), "judge_s": round(judge_s, 1),
            "total_s": round(build_s + judge_s, 1), "tasks": built, "units": _units(run),
            "excluded": {k: v[:200] for k, v in excluded.items()}}


def pipelined(suite: str, models: list[str], workers: int | None, tmp: Path, limit: int | None = None) -> dict:
    env = {**os.environ, "IWR_CACHE": str(tmp / "cache-pipelined"), "IWR_PROGRESS": ""}
    run = tmp / "run-pipelined"
    cmd = _iwr("run", "--suite", suite, "--out", str(run), *sum((["--model", m] for m in models), []))
    if workers:
        cmd += ["--workers", str(workers)]
    if limit:
        cmd += ["--limit", str(limit)]
    total_s, seen, text = _timed(cmd, env, {"built": "every recording ended"})
    build_s = seen.get("built", total_s)
    spec = json.loads((run / "run.json").read_text())
    return {"mode": "pipelined", "build_s": round(build_s, 1), "judge_s": round(total_s - build_s, 1),
            "total_s": round(total_s, 1), "tasks": len(spec["task_ids"]), "units": _units(run),
            "excluded": {k: v[:200] for k, v in ((spec.get("build") or {}).get("excluded") or {}).items()}}


def _load() -> str:
    return subprocess.run(["uptime"], capture_output=True, text=True).stdout.strip()


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--suite", default="smoke", help="a bundled suite, or a folder of recipes (default: smoke)")
    ap.add_argument("--model", action="append", help=f"models judged (default: {', '.join(BASELINES)})")
    ap.add_argument("--mode", action="append", choices=("pipelined", "sequential"),
                    help="modes timed, in this order (default: both, pipelined first)")
    ap.add_argument("--workers", type=int, help="--workers of both (default: each command's own default)")
    ap.add_argument("--limit", type=int, help="pipelined only: the suite's first N tasks (iwr run --limit N)")
    ap.add_argument("--json", help="write the rows here too")
    a = ap.parse_args()
    if a.limit and "sequential" in (a.mode or ["sequential"]):
        ap.error("--limit is for --mode pipelined only")
    models = a.model or BASELINES
    rows = []
    print(f"cores: {os.cpu_count()}; before: {_load()}", flush=True)
    with tempfile.TemporaryDirectory(prefix="iwr-run-speed-") as tmp:
        for mode in a.mode or ["pipelined", "sequential"]:
            row = (pipelined(a.suite, models, a.workers, Path(tmp), a.limit) if mode == "pipelined"
                   else sequential(a.suite, models, a.workers, Path(tmp)))
            row["load_after"] = _load().split("load average:")[-1].strip()
            rows.append(row)
            print(json.dumps(row), flush=True)
    print(f"\n{'mode':<11} {'build s':>8} {'judge s':>8} {'total s':>8} {'tasks':>6} {'units':>6}")
    for r in rows:
        print(f"{r['mode']:<11} {r['build_s']:>8.1f} {r['judge_s']:>8.1f} {r['total_s']:>8.1f} {r['tasks']:>6} "
              f"{r['units']:>6}")
    if a.json:
        Path(a.json).write_text(json.dumps({"suite": a.suite, "models": models, "cores": os.cpu_count(),
                                            "rows": rows}, indent=1))


if __name__ == "__main__":
    main()
