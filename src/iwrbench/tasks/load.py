"""Loading tasks: a task folder, a suite folder of them, or the official IWR-Bench layout.

Official layout: ``data.jsonl`` (one task per line) beside ``data/<id>/`` (the folder is named
after the jsonl's base name) holding video.mp4, assets/, stitched_assets/, checkpoints/ and
sometimes metadata.json with ``recording_details.resolution``.
"""

from __future__ import annotations

import hashlib
import json
from pathlib import Path

from pydantic import ValidationError

from ..errors import TaskError
from ..records import Task


def _first_error(e: ValidationError) -> str:
    err = e.errors()[0]
    loc = ".".join(str(x) for x in err["loc"] if not (isinstance(x, str) and "[" in x)) or "(top)"
    return f"field '{loc}': {err['msg'].removeprefix('Value error, ')}"


def _validate(data: object, where: str) -> Task:
    if not isinstance(data, dict):
        raise TaskError(f"{where}: a task must be a JSON object, got {type(data).__name__}")
    try:
        return Task.model_validate(data)
    except ValidationError as e:
        raise TaskError(f"{where}: {_first_error(e)}") from None


def _check_files(task: Task, where: str, *, require_video: bool = True) -> Task:
    folder = task.dir
    if require_video:
        v = folder / "video.mp4"
        if not v.is_file():
            raise TaskError(f"{v}: missing video (task {task.id})")
        if v.stat().st_size == 0:
            raise TaskError(f"{v}: empty video file (task {task.id})")
    return task


def load_task(path: str | Path, *, require_video: bool = True) -> Task:
    """Load one task folder (``task.json`` + files)."""
    folder = Path(path)
    if folder.is_file() and folder.name == "task.json":
        folder = folder.parent
    f = folder / "task.json"
    if not folder.exists():
        raise TaskError(f"{folder}: no such task folder")
    if not f.is_file():
        raise TaskError(f"{folder}: not a task folder (no task.json)")
    try:
        data = json.loads(f.read_text(encoding="utf-8"))
    except UnicodeDecodeError:
        raise TaskError(f"{f}: not UTF-8 text") from None
    except json.JSONDecodeError as e:
        raise TaskError(f"{f}: malformed JSON at line {e.lineno} column {e.colno}: {e.msg}") from None
    task = _validate(data, str(f)).bind(folder.resolve())
    return _check_files(task, str(f), require_video=require_video)


def load_official(jsonl: str | Path, *, require_video: bool = True) -> list[Task]:
    """Load the official ``data.jsonl`` + ``data/<id>/`` layout."""
    jsonl = Path(jsonl)
    base = jsonl.parent / jsonl.stem
    tasks: list[Task] = []
    seen: set[str] = set()
    try:
        lines = jsonl.read_text(encoding="utf-8").splitlines()
    except (OSError, UnicodeDecodeError) as e:
        raise TaskError(f"{jsonl}: cannot read ({e.__class__.__name__})") from None
    for n, line in enumerate(lines, start=1):
        if not line.strip():
            continue
        try:
            data = json.loads(line)
        except json.JSONDecodeError as e:
            raise TaskError(f"{jsonl} line {n}: malformed JSON: {e.msg}") from None
        if isinstance(data, dict) and "id" in data:
            data["id"] = str(data["id"])
            folder = base / data["id"]
            meta = folder / "metadata.json"
            if meta.is_file() and not (data.get("recording_details") or {}).get("resolution"):
                try:
                    res = json.loads(meta.read_text()).get("recording_details", {}).get("resolution")
                except (json.JSONDecodeError, OSError, AttributeError):
                    res = None
                if res:
                    data.setdefault("recording_details", {})
                    data["recording_details"] = {**(data["recording_details"] or {}), "resolution": res}
        task = _validate(data, f"{jsonl} line {n}")
        if task.id in seen:
            raise TaskError(f"{jsonl} line {n}: duplicate task id {task.id!r}")
        seen.add(task.id)
        task.bind((base / task.id).resolve())
        if not task.dir.is_dir():
            raise TaskError(f"{task.dir}: missing folder for task {task.id} ({jsonl.name} line {n})")
        tasks.append(_check_files(task, f"{jsonl} line {n}", require_video=require_video))
    if not tasks:
        raise TaskError(f"{jsonl}: no tasks")
    return tasks


def load_suite(path: str | Path, *, require_video: bool = True, only: list[str] | None = None) -> list[Task]:
    """A task folder, a folder of task folders, a folder with data.jsonl, or a data.jsonl file."""
    p = Path(path)
    if not p.exists():
        raise TaskError(f"{p}: no such file or folder")
    if p.is_file():
        if p.suffix == ".jsonl":
            tasks = load_official(p, require_video=require_video)
        elif p.name == "task.json":
            tasks = [load_task(p.parent, require_video=require_video)]
        else:
            raise TaskError(f"{p}: expected a task folder, a suite folder or a data.jsonl file")
    elif (p / "task.json").is_file():
        tasks = [load_task(p, require_video=require_video)]
    elif (p / "data.jsonl").is_file():
        tasks = load_official(p / "data.jsonl", require_video=require_video)
    else:
        folders = sorted(d for d in p.iterdir() if d.is_dir() and (d / "task.json").is_file() and not d.name.startswith("."))
        if not folders:
            raise TaskError(f"{p}: no tasks here (no task.json folders and no data.jsonl)")
        tasks = [load_task(d, require_video=require_video) for d in folders]
        ids = [t.id for t in tasks]
        dup = {i for i in ids if ids.count(i) > 1}
        if dup:
            raise TaskError(f"{p}: duplicate task id(s) {sorted(dup)}")
    if only:
        missing = sorted(set(only) - {t.id for t in tasks})
        if missing:
            raise TaskError(f"{p}: no task(s) named {', '.join(missing)}")
        tasks = [t for t in tasks if t.id in set(only)]
    return tasks


def suite_hash(tasks: list[Task]) -> str:
    """A fingerprint of a suite: each task's record and the bytes of its ground truth."""
    h = hashlib.sha256()
    for t in sorted(tasks, key=lambda t: t.id):
        h.update(t.model_dump_json(exclude_none=True).encode())
        for i in range(len(t.action_sequence) + 1):
            cp = t.checkpoint(i)
            if cp.is_file():
                h.update(hashlib.sha256(cp.read_bytes()).digest())
    return h.hexdigest()[:16]
