"""Fuzzing the loaders: whatever the bytes, the only failure is a one-line error of ours."""

import json
import shutil
from pathlib import Path

from hypothesis import HealthCheck, example, given, settings
from hypothesis import strategies as st

from iwrbench.errors import IwrError, RecipeError, TaskError
from iwrbench.record.recipe import load_recipe
from iwrbench.tasks import load_suite, load_task

FIX = Path(__file__).parent.parent / "fixtures" / "official"
SETTINGS = settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])

json_values = st.recursive(
    st.none() | st.booleans() | st.integers() | st.floats(allow_nan=False) | st.text(max_size=20),
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=12), inner, max_size=5),
    max_leaves=20,
)
task_like = st.fixed_dictionaries(
    {"id": st.one_of(st.text(max_size=10), st.integers()),
     "action_sequence": st.lists(st.fixed_dictionaries(
         {"type": st.sampled_from(["Click", "Type", "Scroll", "Press", "click", "Fly", 3]),
          "parameters": st.one_of(json_values, st.fixed_dictionaries({"description": st.text(max_size=10)}))},
         optional={"visual_evaluation_flag": json_values, "logical_assertion": json_values,
                   "checks": json_values, "target": json_values}), max_size=3)},
    optional={"recording_details": json_values, "classification": json_values},
)


def _folder(tmp_path: Path) -> Path:
    d = tmp_path / "t"
    if not d.exists():
        shutil.copytree(FIX / "data" / "demo_search", d)
    return d


def _one_line(e: Exception) -> None:
    assert "\n" not in str(e) and str(e)


@SETTINGS
@given(data=st.one_of(json_values, task_like))
def test_task_json_structures(tmp_path, data):
    d = _folder(tmp_path)
    (d / "task.json").write_text(json.dumps(data))
    try:
        load_task(d)
    except TaskError as e:
        _one_line(e)


@SETTINGS
@given(raw=st.binary(max_size=200))
def test_task_json_bytes(tmp_path, raw):
    d = _folder(tmp_path)
    (d / "task.json").write_bytes(raw)
    try:
        load_task(d)
    except TaskError as e:
        _one_line(e)


@SETTINGS
@given(lines=st.lists(st.one_of(st.binary(max_size=60).map(lambda b: b.decode("latin-1")),
                                task_like.map(json.dumps)), min_size=1, max_size=4))
@example(lines=['{"id": "\\u0000", "action_sequence": []}'])  # found by this test: a NUL in an id
def test_official_jsonl(tmp_path, lines):
    root = tmp_path / "ds"
    if not root.exists():
        shutil.copytree(FIX, root)
    (root / "data.jsonl").write_text("\n".join(x.replace("\n", " ") for x in lines))
    try:
        load_suite(root)
    except TaskError as e:
        _one_line(e)


@SETTINGS
@given(text=st.one_of(st.text(max_size=300), json_values.map(json.dumps)))
def test_recipe_text(tmp_path, text):
    p = tmp_path / "r.yaml"
    p.write_text(text)
    try:
        load_recipe(p)
    except RecipeError as e:
        _one_line(e)


def test_corrupt_video_and_images_are_named(tmp_path):
    from iwrbench.generate import sample_frames
    from iwrbench.validate.check import check_files

    d = _folder(tmp_path)
    (d / "task.json").write_text((FIX / "data.jsonl").read_text().splitlines()[1])
    (d / "video.mp4").write_bytes(b"\x00\x00\x00\x18ftypmp42 not really a video")
    (d / "checkpoints" / "step_1.png").write_bytes(b"\x89PNG broken")
    task = load_task(d)
    problems = check_files(task)
    assert any("step_1.png: unreadable image" in p for p in problems)
    assert any("video.mp4: unreadable video" in p for p in problems)
    try:
        sample_frames(d / "video.mp4")
        raise AssertionError("a corrupt video decoded")
    except IwrError as e:
        assert "video.mp4" in str(e)
