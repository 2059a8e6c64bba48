"""Bad input: a clear one-line error naming the file or the name, non-zero exit, no traceback."""

import json
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

FIX = Path(__file__).parent / "fixtures" / "official"


def iwr(*args: str, cwd: Path | None = None) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "iwrbench.cli", *args], capture_output=True, text=True, cwd=cwd,
                          timeout=120)


def _one_line_error(r: subprocess.CompletedProcess) -> str:
    assert r.returncode != 0
    assert "Traceback" not in r.stderr
    lines = [x for x in r.stderr.splitlines() if x.strip()]
    assert len(lines) == 1, r.stderr
    return lines[0]


@pytest.fixture
def suite(tmp_path) -> Path:
    d = tmp_path / "suite" / "demo_search"
    shutil.copytree(FIX / "data" / "demo_search", d)
    (d / "task.json").write_text((FIX / "data.jsonl").read_text().splitlines()[1])
    return d.parent


def test_malformed_task_json(suite, tmp_path):
    (suite / "demo_search" / "task.json").write_text("{not json")
    msg = _one_line_error(iwr("eval", "--tasks", str(suite), "--model", "blank", "--out", str(tmp_path / "run")))
    assert "demo_search/task.json" in msg and "malformed JSON" in msg
    assert not (tmp_path / "run").exists()


def test_missing_video(suite, tmp_path):
    (suite / "demo_search" / "video.mp4").unlink()
    msg = _one_line_error(iwr("eval", "--tasks", str(suite), "--model", "blank", "--out", str(tmp_path / "run")))
    assert "demo_search/video.mp4" in msg and "missing video" in msg


def test_unknown_model(suite, tmp_path):
    msg = _one_line_error(iwr("eval", "--tasks", str(suite), "--model", "gpt-17-ultra", "--out", str(tmp_path / "run")))
    assert "unknown model 'gpt-17-ultra'" in msg
    assert not (tmp_path / "run").exists()


def test_bad_recipe_names_field_and_line(tmp_path):
    p = tmp_path / "r.yaml"
    p.write_text("id: x\nsource: {site: s}\nactions:\n  - type: Fly\n    description: up\n")
    msg = _one_line_error(iwr("record", str(p), "--out", str(tmp_path / "t")))
    assert "r.yaml" in msg and "line 4" in msg and "actions.0.type" in msg
    assert not (tmp_path / "t").exists()


def test_validate_reports_missing_checkpoint(suite):
    (suite / "demo_search" / "checkpoints" / "step_2.png").unlink()
    r = iwr("validate", str(suite / "demo_search"))
    assert r.returncode != 0 and "step_2.png: missing checkpoint" in r.stdout
    assert "Traceback" not in r.stderr


def test_official_fixture_validates(suite):
    r = iwr("validate", str(suite / "demo_search"))
    assert r.returncode == 0, r.stdout + r.stderr
    data = json.loads((suite / "demo_search" / "task.json").read_text())
    assert data["id"] == "demo_search"
