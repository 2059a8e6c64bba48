"""Throughput of judging: tasks per minute for 1 and 2 workers, local and Ray, with peak memory.

    .venv/bin/python bench/throughput.py [SUITE_PATH] [--model oracle] [--no-ray]

Each configuration judges the whole suite once into a fresh run folder. Peak memory is the
largest resident set seen (sampled every 0.2 s) of each process in the run's process tree:
the driver, Playwright's driver, Chromium's processes, and Ray's workers (read from /proc).
"""

from __future__ import annotations

import argparse
import subprocess
import sys
import tempfile
import threading
import time
from pathlib import Path


def _tree_rss(pid: int) -> dict[str, int]:
    """Resident memory (bytes) of a process tree, by kind, read from /proc (Linux)."""
    procs: dict[int, tuple[int, str]] = {}
    for d in Path("/proc").iterdir():
        if not d.name.isdigit():
            continue
        try:
            stat = (d / "stat").read_text()
            name = stat[stat.index("(") + 1: stat.rindex(")")]
            ppid = int(stat[stat.rindex(")") + 2:].split()[1])
            procs[int(d.name)] = (ppid, name)
        except (OSError, ValueError):
            continue
    tree, todo = {pid}, [pid]
    while todo:
        cur = todo.pop()
        for p, (pp, _) in procs.items():
            if pp == cur and p not in tree:
                tree.add(p)
                todo.append(p)
    out: dict[str, int] = {}
    for p in tree:
        try:
            rss = next(int(line.split()[1]) * 1024 for line in Path(f"/proc/{p}/status").read_text().splitlines()
                       if line.startswith("VmRSS:"))
        except (OSError, StopIteration, ValueError):
            continue
        name = procs.get(p, (0, "?"))[1]
        kind = "chromium" if "chrom" in name else ("ray" if "ray" in name else name)
        out[kind] = out.get(kind, 0) + rss
    return out


def run(suite: str, model: str, workers: int, executor: str) -> dict:
    with tempfile.TemporaryDirectory() as tmp:
        cmd = [sys.executable, "-m", "iwrbench.cli", "eval", "--tasks", suite, "--model", model, "--out",
               str(Path(tmp) / "run"), "--workers", str(workers), "--executor", executor]
        t0 = time.monotonic()
        p = subprocess.Popen(cmd, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
        peak: dict[str, int] = {}
        total_peak = 0
        stop = threading.Event()

        def sample() -> None:
            nonlocal total_peak
            while not stop.is_set():
                rss = _tree_rss(p.pid)
                total_peak = max(total_peak, sum(rss.values()))
                for k, v in rss.items():
                    peak[k] = max(peak.get(k, 0), v)
                time.sleep(0.2)

        th = threading.Thread(target=sample, daemon=True)
        th.start()
        _, err = p.communicate()
        stop.set()
        th.join()
        wall = time.monotonic() - t0
        if p.returncode != 0:
            raise SystemExit(f"{executor}/{workers}: failed: {err.decode()[-500:]}")
        import json

        results = [json.loads(x) for x in (Path(tmp) / "run" / "results.jsonl").read_text().splitlines()]
    actions = sum(r["steps_total"] for r in results)
    return {"executor": executor, "workers": workers, "tasks": len(results), "wall_s": round(wall, 1),
            "tasks_per_min": round(60 * len(results) / wall, 2), "s_per_action": round(wall / max(1, actions), 2),
            "peak_total_mb": round(total_peak / 2**20), "peak_per_worker_mb": round(total_peak / 2**20 / workers)}


def main() -> int:
    ap = argparse.ArgumentParser()
    ap.add_argument("suite", nargs="?")
    ap.add_argument("--model", default="oracle")
    ap.add_argument("--no-ray", action="store_true")
    a = ap.parse_args()
    suite = a.suite
    if suite is None:
        from iwrbench.validate.build import ensure_built

        suite = str(ensure_built("default"))
    rows = []
    for executor in ("local",) + (() if a.no_ray else ("ray",)):
        for workers in (1, 2):
            r = run(suite, a.model, workers, executor)
            rows.append(r)
            print(r, flush=True)
    print("\n| executor | workers | tasks | wall s | tasks/min | s/action (wall) | peak MB (all) | peak MB / worker |")
    print("|---|---|---|---|---|---|---|---|")
    for r in rows:
        print(f"| {r['executor']} | {r['workers']} | {r['tasks']} | {r['wall_s']} | {r['tasks_per_min']} | "
              f"{r['s_per_action']} | {r['peak_total_mb']} | {r['peak_per_worker_mb']} |")
    return 0


if __name__ == "__main__":
    sys.exit(main())
