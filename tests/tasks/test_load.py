"""Loading task folders, suite folders and the official layout; bad input names the file."""

import json
import shutil
from pathlib import Path

import pytest

from iwrbench.errors import TaskError
from iwrbench.tasks import load_suite, load_task

FIX = Path(__file__).parent.parent / "fixtures" / "official"


def test_official_layout_loads():
    tasks = load_suite(FIX)
    assert [t.id for t in tasks] == ["demo_counter", "demo_search"]
    counter, search = tasks
    assert counter.viewport == (320, 180)  # from metadata.json
    assert counter.action_sequence[1].parameters.direction == "down"  # spelled DOWN in the data
    assert search.action_sequence[0].logical_assertion is None  # "" means none
    assert search.action_sequence[1].model_extra.get("extra_field_kept") == 1
    assert search.checkpoint(2).name == "step_2.png" and search.checkpoint(2).is_file()
    assert len(search.stitched_assets) == 1
    assert load_suite(FIX / "data.jsonl")[0].id == "demo_counter"


def _task_dir(tmp_path: Path) -> Path:
    d = tmp_path / "t1"
    shutil.copytree(FIX / "data" / "demo_search", d)
    line = (FIX / "data.jsonl").read_text().splitlines()[1]
    (d / "task.json").write_text(line)
    return d


def test_task_folder_and_suite_folder(tmp_path):
    d = _task_dir(tmp_path)
    assert load_task(d).id == "demo_search"
    assert [t.id for t in load_suite(tmp_path)] == ["demo_search"]


def test_malformed_task_json_names_the_file(tmp_path):
    d = _task_dir(tmp_path)
    (d / "task.json").write_text('{"id": "x", "action_sequence": [')
    with pytest.raises(TaskError, match=r"task\.json: malformed JSON at line 1"):
        load_task(d)


def test_invalid_field_names_the_field(tmp_path):
    d = _task_dir(tmp_path)
    data = json.loads((d / "task.json").read_text())
    data["action_sequence"][0]["type"] = "Teleport"
    (d / "task.json").write_text(json.dumps(data))
    with pytest.raises(TaskError, match=r"field 'action_sequence\.0\.type'"):
        load_task(d)


def test_missing_video_names_the_file(tmp_path):
    d = _task_dir(tmp_path)
    (d / "video.mp4").unlink()
    with pytest.raises(TaskError, match=r"video\.mp4: missing video"):
        load_task(d)


def test_official_missing_folder_and_bad_line(tmp_path):
    (tmp_path / "data.jsonl").write_text('{"id": "nofolder", "action_sequence": []}\n')
    with pytest.raises(TaskError, match="missing folder for task nofolder"):
        load_suite(tmp_path)
    (tmp_path / "data.jsonl").write_text('{"id": 1,\n')
    with pytest.raises(TaskError, match="line 1: malformed JSON"):
        load_suite(tmp_path)


def test_unknown_task_filter(tmp_path):
    with pytest.raises(TaskError, match="no task"):
        load_suite(FIX, only=["nope"])


def test_seed_and_freeze_time_are_typed_and_old_folders_load(tmp_path):
    """``recording_details.seed`` and ``freeze_time`` decide how the judge opens the page: typed fields, read
    from task folders written before they were (the same keys), and a bad value names the field."""
    d = _task_dir(tmp_path)
    data = json.loads((d / "task.json").read_text())
    data["recording_details"] = {"resolution": "320x180", "seed": 7, "freeze_time": "2024-05-01T09:30:00Z"}
    (d / "task.json").write_text(json.dumps(data))
    rd = load_task(d).recording_details
    assert (rd.seed, rd.freeze_time) == (7, "2024-05-01T09:30:00Z")
    assert "seed" not in (rd.model_extra or {}) and "freeze_time" not in (rd.model_extra or {})
    data["recording_details"] = {"resolution": "320x180"}
    (d / "task.json").write_text(json.dumps(data))
    rd = load_task(d).recording_details
    assert (rd.seed, rd.freeze_time) == (None, None)
    for bad, field in (({"seed": "many"}, "seed"), ({"freeze_time": "next tuesday"}, "freeze_time")):
        data["recording_details"] = {"resolution": "320x180", **bad}
        (d / "task.json").write_text(json.dumps(data))
        with pytest.raises(TaskError, match=rf"field 'recording_details\.{field}'"):
            load_task(d)
