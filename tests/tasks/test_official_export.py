"""Writing task folders in the official layout: what is kept, what is left out, and bad input refused whole."""

from __future__ import annotations

import json
import os
import shutil
from pathlib import Path

import pytest

from iwrbench.errors import TaskError
from iwrbench.tasks import load_suite
from iwrbench.tasks.official import export_official, main

FIX = Path(__file__).parent.parent / "fixtures" / "official"


def _recorded(tmp_path: Path, name: str = "t1", tid: str = "demo_search") -> Path:
    """A task folder as the recorder writes one: the fixture's files plus targets, evidence, checks, probes,
    a reference folder and a crop per target."""
    d = tmp_path / name
    shutil.copytree(FIX / "data" / "demo_search", d)
    data = json.loads((FIX / "data.jsonl").read_text().splitlines()[1])
    data["id"] = tid
    for a in data["action_sequence"]:
        a["target"] = {"role": "textbox", "name": "Search", "bbox": {"x": 1, "y": 2, "width": 30, "height": 10}}
        a["checks"] = [{"kind": "text_visible", "text": "shoes"}]
        a["evidence"] = {"texts": [{"kind": "appears", "text": "shoes"}]}
    data["action_sequence"][0]["parameters"]["clear"] = False
    data["probes"] = [{"name": "other-text", "guards": 1, "actions": data["action_sequence"][:1]}]
    data["seed"] = 7
    (d / "task.json").write_text(json.dumps(data))
    (d / "targets").mkdir()
    shutil.copy(d / "checkpoints" / "step_0.png", d / "targets" / "step_1.png")
    (d / "reference").mkdir()
    (d / "reference" / "recipe.yaml").write_text("id: demo_search\n")
    return d


def test_export_keeps_what_the_official_data_holds(tmp_path):
    src = _recorded(tmp_path)
    path = export_official([src], tmp_path / "out")
    line = json.loads(path.read_text().splitlines()[0])
    assert set(line) == {"id", "classification", "recording_details", "source_website", "action_sequence"}
    for a in line["action_sequence"]:
        assert set(a) == {"type", "parameters", "visual_evaluation_flag", "checkpoint_screenshot", "logical_assertion"}
    assert line["action_sequence"][0]["parameters"] == {"description": "the search box", "text": "shoes", "clear": False}
    files = sorted(str(p.relative_to(tmp_path / "out")) for p in (tmp_path / "out").rglob("*") if p.is_file())
    assert files == ["data.jsonl", "data/demo_search/assets/asset001.png", "data/demo_search/checkpoints/step_0.png",
                     "data/demo_search/checkpoints/step_1.png", "data/demo_search/checkpoints/step_2.png",
                     "data/demo_search/stitched_assets/stitched_image_1.png", "data/demo_search/video.mp4"]
    (task,) = load_suite(path)  # loads as an official task: nothing recorded left to lean on
    assert all(a.target is None and a.evidence is None and not a.checks for a in task.action_sequence)
    assert not task.probes and "seed" not in (task.model_extra or {})
    assert task.viewport == (320, 180) and task.action_sequence[0].parameters.clear is False


def test_export_refuses_bad_input_and_writes_nothing(tmp_path):
    a, b = _recorded(tmp_path, "a"), _recorded(tmp_path, "b")
    with pytest.raises(TaskError, match="duplicate task id"):
        export_official([a, b], tmp_path / "out")
    assert not (tmp_path / "out").exists()
    # a checkpoint that links out of its folder
    c = _recorded(tmp_path, "c", tid="other")
    secret = tmp_path / "secret.png"
    shutil.copy(c / "checkpoints" / "step_1.png", secret)
    os.remove(c / "checkpoints" / "step_1.png")
    os.symlink(secret, c / "checkpoints" / "step_1.png")
    with pytest.raises(TaskError, match="outside the task folder"):
        export_official([a, c], tmp_path / "out")
    assert not (tmp_path / "out").exists() and not list(tmp_path.glob(".out.*"))
    # an output folder that is not empty
    (tmp_path / "full").mkdir()
    (tmp_path / "full" / "keep.txt").write_text("mine")
    with pytest.raises(TaskError, match="not an empty folder"):
        export_official([a], tmp_path / "full")
    assert [p.name for p in (tmp_path / "full").iterdir()] == ["keep.txt"]


def test_command_line(tmp_path, capsys):
    src = _recorded(tmp_path)
    assert main(["export", str(src), "--out", str(tmp_path / "o")]) == 0
    assert "wrote" in capsys.readouterr().out and (tmp_path / "o" / "data.jsonl").is_file()
    assert main(["export", str(tmp_path / "missing"), "--out", str(tmp_path / "o2")]) == 2
    err = capsys.readouterr().err
    assert err.startswith("error: ") and "no such task folder" in err and len(err.strip().splitlines()) == 1
    assert not (tmp_path / "o2").exists()
