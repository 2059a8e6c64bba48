"""Loading tasks: a task folder, a suite folder of them, or the official IWR-Bench layout.

Official layout: ``data.jsonl`` (one task per line) beside ``data/<id>/`` (the folder is named
after the jsonl's base name) holding video.mp4, assets/, stitched_assets/, checkpoints/ and
sometimes metadata.json with ``recording_details.resolution``.

Task records come from strangers: they are read as strict JSON within ``iwrbench.limits``
(size, depth, integer digits, text lengths, number of actions), a task id must be a JSON
string (an integer too on a data.jsonl line, as the official data may have), and task.json
must itself be a plain file of its folder. Anything else is a one-line ``TaskError`` naming the file
(and the line or field). A suite folder or an official ``data/`` folder whose task folder is a link
is refused here, naming the link: the path given on the command line may be a link (the person
running iwrbench chose it), the folders found inside it may not. The rest of a task's folder (a link
or a special file anywhere in it) is checked before each unit of a run and by ``iwr validate``
(``iwrbench.tasks.files.task_problems``), so one bad task is that task's ``task_error``.
"""

from __future__ import annotations

import hashlib
import json
import os
from pathlib import Path
from typing import Any

from pydantic import ValidationError

from .. import limits
from ..errors import TaskError
from ..records import Task
from .files import entry_problem, read_metadata


def _first_error(e: ValidationError) -> str:
    err = e.errors()[0]
    loc = ".".join(str(x) for x in err["loc"] if not (isinstance(x, str) and "[" in x)) or "(top)"
    return f"field '{loc}': {err['msg'].removeprefix('Value error, ')}"


def _parse(text: str | bytes, where: str, line: bool = False) -> Any:
    """Strict JSON (``limits.loads_json``) or a one-line TaskError naming ``where``."""
    try:
        return limits.loads_json(text)
    except json.JSONDecodeError as e:
        at = f"column {e.colno}" if line else f"line {e.lineno} column {e.colno}"
        raise TaskError(f"{where}: malformed JSON at {at}: {e.msg}") from None
    except limits.LimitError as e:
        raise TaskError(f"{where}: {e}") from None


def _type_name(v: object) -> str:
    names = {dict: "object", list: "array", bool: "boolean", type(None): "null", float: "number", int: "integer"}
    return names.get(type(v), type(v).__name__)


def _validate(data: object, where: str, *, int_id: bool = False) -> Task:
    if not isinstance(data, dict):
        raise TaskError(f"{where}: a task must be a JSON object, got {_type_name(data)}")
    if "id" in data:
        tid = data["id"]
        if int_id and isinstance(tid, int) and not isinstance(tid, bool):
            data["id"] = str(tid)
        elif not isinstance(tid, str):
            want = "a string or an integer" if int_id else "a string"
            raise TaskError(f"{where}: field 'id': must be {want}, got {_type_name(tid)}")
        if len(data["id"]) > limits.MAX_ID_CHARS:
            raise TaskError(f"{where}: field 'id': {len(data['id'])} characters (max {limits.MAX_ID_CHARS})")
    try:
        task = Task.model_validate(data)
    except ValidationError as e:
        raise TaskError(f"{where}: {_first_error(e)}") from None
    except RecursionError:
        raise TaskError(f"{where}: nested too deeply") from None
    _check_caps(task, where)
    return task


def _action_text(a: Any, name: str) -> Any:
    if name == "assertion":
        return a.logical_assertion
    if name == "checks":
        return a.checks
    return getattr(a.parameters, name, None)


def _check_caps(task: Task, where: str) -> None:
    try:
        limits.check_action_texts(task.action_sequence, _action_text)
    except limits.LimitError as e:
        raise TaskError(f"{where}: {e}") from None


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
    root = folder.resolve()
    f = root / "task.json"
    why = entry_problem(f, root)
    if why:
        raise TaskError(why)
    try:
        if f.stat().st_size > limits.MAX_TASK_JSON_BYTES:
            raise TaskError(f"{f}: larger than {limits.MAX_TASK_JSON_BYTES} bytes (limit)")
        text = f.read_bytes().decode("utf-8")
    except UnicodeDecodeError:
        raise TaskError(f"{f}: not UTF-8 text") from None
    except OSError as e:
        raise TaskError(f"{f}: cannot read ({e.strerror or e.__class__.__name__})") from None
    data = _parse(text, str(f))
    task = _validate(data, str(f)).bind(root)
    return _check_files(task, str(f), require_video=require_video)


def _jsonl_lines(jsonl: Path):
    """(line number, text) of each line, refusing over-long lines and bytes that are not UTF-8."""
    try:
        fh = open(jsonl, "rb")
    except OSError as e:
        raise TaskError(f"{jsonl}: cannot read ({e.strerror or e.__class__.__name__})") from None
    with fh:
        n = 0
        while True:
            try:
                raw = fh.readline(limits.MAX_JSONL_LINE_BYTES + 1)
            except OSError as e:
                raise TaskError(f"{jsonl}: cannot read ({e.strerror or e.__class__.__name__})") from None
            if not raw:
                return
            n += 1
            if len(raw) > limits.MAX_JSONL_LINE_BYTES:
                raise TaskError(f"{jsonl} line {n}: longer than {limits.MAX_JSONL_LINE_BYTES} bytes (limit)")
            try:
                yield n, raw.decode("utf-8")
            except UnicodeDecodeError:
                raise TaskError(f"{jsonl} line {n}: not UTF-8 text") from None


def load_official(jsonl: str | Path, *, require_video: bool = True) -> list[Task]:
    """Load the official ``data.jsonl`` + ``data/<id>/`` layout."""
    jsonl = Path(jsonl)
    base = jsonl.parent / jsonl.stem
    tasks: list[Task] = []
    seen: set[str] = set()
    for n, line in _jsonl_lines(jsonl):
        if not line.strip():
            continue
        where = f"{jsonl} line {n}"
        try:
            data = limits.loads_json(line)
        except json.JSONDecodeError as e:
            raise TaskError(f"{where}: malformed JSON: {e.msg}") from None
        except limits.LimitError as e:
            raise TaskError(f"{where}: {e}") from None
        task = _validate(data, where, int_id=True)  # the id is a plain name from here on
        rec = data.get("recording_details")
        if not (isinstance(rec, dict) and rec.get("resolution")):
            # metadata.json may carry the resolution (an unreadable one is the task's error in a run)
            meta, _ = read_metadata(base / task.id)
            res = (meta or {}).get("recording_details")
            res = res.get("resolution") if isinstance(res, dict) else None
            if res:
                data["recording_details"] = {**(rec if isinstance(rec, dict) else {}), "resolution": res}
                task = _validate(data, f"{where} (resolution from {base / task.id / 'metadata.json'})", int_id=True)
        if len(tasks) >= limits.MAX_SUITE_TASKS:
            raise TaskError(f"{jsonl}: more than {limits.MAX_SUITE_TASKS} tasks (limit)")
        if task.id in seen:
            raise TaskError(f"{jsonl} line {n}: duplicate task id {task.id!r}")
        seen.add(task.id)
        _not_a_link(base, f"{jsonl.name}'s data folder")
        _not_a_link(base / task.id, f"the folder of task {task.id} ({jsonl.name} line {n})")
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
        folders = _task_folders(p)
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


def _not_a_link(d: Path, what: str) -> None:
    if os.path.islink(d):
        raise TaskError(f"{d}: {what} is a symbolic link (to {os.readlink(d)[:160]}); a task folder inside a suite may "
                        "not be a link (copy it in its place); refused")


def _task_folders(p: Path) -> list[Path]:
    try:
        entries = []
        for n, d in enumerate(os.scandir(p)):
            if n >= limits.MAX_SUITE_TASKS * 2:
                raise TaskError(f"{p}: more than {limits.MAX_SUITE_TASKS * 2} entries (limit)")
            entries.append(Path(d.path))
    except OSError as e:
        raise TaskError(f"{p}: cannot list ({e.strerror or e.__class__.__name__})") from None
    folders = sorted(d for d in entries if not d.name.startswith(".") and d.is_dir() and (d / "task.json").is_file())
    for d in folders:
        _not_a_link(d, "a task folder of the suite")
    if len(folders) > limits.MAX_SUITE_TASKS:
        raise TaskError(f"{p}: more than {limits.MAX_SUITE_TASKS} tasks (limit)")
    return folders


def suite_hash(tasks: list[Task]) -> str:
    """A fingerprint of a suite: each task's record and the bytes of its ground truth.

    A checkpoint that is not a plain file of its folder (a link, a FIFO: the task is refused when it is used) is
    not read: its problem is hashed instead, and no file is read past the image size limit."""
    h = hashlib.sha256()
    for t in sorted(tasks, key=lambda t: t.id):
        h.update(t.model_dump_json(exclude_none=True).encode())
        for i in range(len(t.action_sequence) + 1):
            cp = t.checkpoint(i)
            why = entry_problem(cp, t.dir)
            if why:
                h.update(why.encode())
            elif cp.is_file():
                with open(cp, "rb") as fh:
                    h.update(hashlib.sha256(fh.read(limits.MAX_IMAGE_BYTES + 1)).digest())
    return h.hexdigest()[:16]
