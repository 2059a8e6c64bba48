"""Runs survive kill -9 and give the same summary as an uninterrupted run; Ray gives the same too."""

import json
import os
import signal
import subprocess
import time
from pathlib import Path

import pytest

MODELS = ["oracle", "blank", "screenshot"]  # as in the shared baseline run


def _board(out: Path) -> list[dict]:
    return json.loads((out / "summary.json").read_text())["leaderboard"]


def _task_noise(a: Path, b: Path) -> float:
    """The largest difference of a task's Final or VFS between two runs: an interval's end is a mean of
    resampled tasks, so it moves by at most this much."""
    def rows(out: Path) -> dict:
        return {(r["model"], r["task_id"]): r for r in map(json.loads, (out / "results.jsonl").read_text().splitlines())}

    ra, rb = rows(a), rows(b)
    return max([abs((ra[k][m] or 0) - (rb[k][m] or 0)) for k in ra if k in rb for m in ("final", "vfs")] or [0.0])


#: two screenshots of one state may differ in a few pixels of anti-aliasing (docs/judge.md): the visual
#: scores of two runs agree to within this many points, everything else (IFS, counts, errors) exactly
VISUAL_NOISE = 0.1
VISUAL_KEYS = ("vfs", "final", "low_level_visual", "high_level_visual", "vfs_ci", "final_ci")


def _same_board(a: list[dict], b: list[dict], ci_noise: float = VISUAL_NOISE) -> None:
    assert [r["model"] for r in a] == [r["model"] for r in b]
    for x, y in zip(a, b, strict=True):
        assert {k: v for k, v in x.items() if k not in VISUAL_KEYS} == {k: v for k, v in y.items() if k not in VISUAL_KEYS}
        for k in VISUAL_KEYS:
            if x[k] is None or y[k] is None:
                assert x[k] is y[k], (x["model"], k, x[k], y[k])
            elif isinstance(x[k], dict):  # an interval: its ends move with the scores
                assert all(abs(x[k][e] - y[k][e]) <= ci_noise + 0.01 for e in ("low", "high")), (x["model"], k, x[k], y[k])
            else:
                assert abs(x[k] - y[k]) <= VISUAL_NOISE, (x["model"], k, x[k], y[k])


@pytest.fixture(scope="module")
def reference(baseline_run) -> Path:
    return baseline_run


def test_kill_9_then_resume_equals_uninterrupted(smoke_suite, reference, eval_cmd, tmp_path):
    _cmd = eval_cmd
    out = tmp_path / "run"
    results = out / "results.jsonl"
    killed_with = []
    for delay_lines in (2,):
        p = subprocess.Popen(_cmd(smoke_suite, out), stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
                             start_new_session=True)
        deadline = time.monotonic() + 600
        while time.monotonic() < deadline and p.poll() is None:
            n = len(results.read_text().splitlines()) if results.exists() else 0
            if n >= delay_lines:
                break
            time.sleep(0.2)
        time.sleep(1.5)  # land somewhere inside the next unit
        if p.poll() is None:
            os.killpg(p.pid, signal.SIGKILL)
            killed_with.append(len(results.read_text().splitlines()) if results.exists() else 0)
        p.wait()
    assert killed_with, "the run finished before it could be killed"
    # a line cut short by a kill mid-write is ignored and repaired
    with open(results, "a") as f:
        f.write('{"model": "oracle", "task_id": "trunc')
    r = subprocess.run(_cmd(smoke_suite, out), capture_output=True, text=True, timeout=900)
    assert r.returncode == 0, r.stderr
    lines = [json.loads(x) for x in results.read_text().splitlines()]
    keys = [(x["model"], x["task_id"]) for x in lines]
    assert len(keys) == len(set(keys)) == len(MODELS) * 2  # nothing duplicated, nothing lost
    _same_board(_board(out), _board(reference), max(VISUAL_NOISE, _task_noise(out, reference)))


@pytest.mark.ray
def test_ray_executor_gives_the_same_summary(smoke_suite, reference, eval_cmd, tmp_path):
    _cmd = eval_cmd
    pytest.importorskip("ray")
    out = tmp_path / "ray-run"
    r = subprocess.run(_cmd(smoke_suite, out, "--executor", "ray", "--workers", "2"), capture_output=True, text=True,
                       timeout=900)
    assert r.returncode == 0, r.stdout[-2000:] + r.stderr[-2000:]
    _same_board(_board(out), _board(reference), max(VISUAL_NOISE, _task_noise(out, reference)))
    spec = json.loads((out / "run.json").read_text())
    assert spec["executor"] == "ray" and spec["workers"] == 2
