"""`iwr eval` end to end on recorded tasks: baselines bound the scores, runs resume, contracts hold."""

import json
import subprocess
import sys
from pathlib import Path

import pytest


def iwr(*args: str) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "iwrbench.cli", *args], capture_output=True, text=True, timeout=900)


@pytest.fixture(scope="module")
def run_dir(baseline_run) -> Path:
    return baseline_run


def test_baselines_bound_the_scores(run_dir):
    summary = json.loads((run_dir / "summary.json").read_text())
    assert summary["protocol"] == "offline@2"
    rows = {r["model"]: r for r in summary["leaderboard"]}
    assert set(rows) == {"oracle", "blank", "screenshot"}
    for r in rows.values():
        assert set(r) >= {"model", "tasks", "ifs", "vfs", "final", "low_level_visual", "high_level_visual", "errors"}
    assert rows["oracle"]["ifs"] == 100 and rows["oracle"]["final"] >= 90
    assert rows["blank"]["final"] <= 5
    assert rows["screenshot"]["ifs"] <= 10
    assert rows["screenshot"]["final"] < rows["oracle"]["final"]
    assert set(summary["by_tag"]) >= {"domain", "visual_complexity", "interaction_complexity"}


def test_run_folder_contract(run_dir):
    lines = (run_dir / "results.jsonl").read_text().splitlines()
    assert len(lines) == 6
    for line in lines:
        r = json.loads(line)
        assert set(r) >= {"model", "task_id", "status", "ifs", "vfs", "final", "low_level_visual",
                          "high_level_visual", "steps_total", "steps_passed", "steps"}
        assert r["status"] == "ok"
        assert len(r["steps"]) == r["steps_total"]
        for s in r["steps"]:
            assert set(s) >= {"index", "type", "executed", "assertion", "grounding", "visual"}
        assert (run_dir / "pages" / r["model"] / r["task_id"] / "index.html").is_file()
        assert (run_dir / "shots" / r["model"] / r["task_id"] / "step_0.png").is_file()
    spec = json.loads((run_dir / "run.json").read_text())
    assert spec["protocol"] == "offline@2" and spec["suite_hash"] and spec["browser"]["version"]
    assert spec["generation"]["prompt"]["sha256"]


def test_rerun_resumes_without_new_work(run_dir, tmp_path):
    import shutil

    run_dir = Path(shutil.copytree(run_dir, tmp_path / "run"))  # resumed in a copy: the shared run stays as it was
    before = (run_dir / "results.jsonl").read_text()
    other = Path(__file__).parent.parent / "fixtures" / "official"
    r = iwr("eval", "--tasks", str(other), "--model", "blank", "--out", str(run_dir))
    assert r.returncode != 0 and "different suite_hash" in r.stderr  # a different suite is refused, not mixed in
    spec = json.loads((run_dir / "run.json").read_text())
    r = iwr("eval", "--tasks", spec["suite"], "--model", "oracle", "--model", "blank", "--model", "screenshot",
            "--out", str(run_dir))
    assert r.returncode == 0, r.stderr
    assert "0 to do" in r.stdout
    assert (run_dir / "results.jsonl").read_text() == before
