"""Writing recorded tasks in the official IWR-Bench layout (``data.jsonl`` + ``data/<id>/``).

The official data carries what a person wrote down about a recording and nothing the recorder
measured on the source: each action's type, description, typed text or key, visual flag, checkpoint
and natural-language assertion, beside the video, the assets, their composites and the checkpoints.
No recorded targets (role, name, box, crop), no evidence, no author checks, no probes. A judge that
works on our own task folders can lean on all of those; on the official layout it must ground by
the description and infer what to ask from the checkpoints. Exporting our recorded tasks in that
layout gives such tasks with a known right answer: the task's source must pass every step, a blank
page and the cheat pages must not.

    python -m iwrbench.tasks.official export TASK_DIR [TASK_DIR ...] --out OUT

writes ``OUT/data.jsonl`` (one line per task) and ``OUT/data/<id>/`` with ``video.mp4``, ``assets/``,
``stitched_assets/`` and ``checkpoints/``. Kept beyond the published fields: a Select's ``value`` and a
Type's ``clear: false`` (how the action is played), and the action types Hover and Select (the
published judge fails such a step). Task folders are read as strangers' data: every file copied must
resolve inside its folder, images are checked against the limits, and ``OUT`` is written into a
temporary folder and renamed only when complete (an existing non-empty ``OUT`` is refused).
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import sys
import tempfile
from pathlib import Path
from typing import Any

from ..errors import TaskError
from ..records import Task
from .files import containment_problems, image_problem, video_problem
from .load import load_task

#: the parameters an action keeps in the official layout (``value``/``clear`` decide how it is played)
OFFICIAL_PARAMETERS = ("description", "text", "key", "direction", "scroll_page", "element_index", "value", "clear")
#: sub-folders copied beside the video
COPIED_DIRS = ("assets", "stitched_assets", "checkpoints")


def official_line(task: Task) -> dict[str, Any]:
    """The ``data.jsonl`` record of ``task``: only what the official data holds."""
    actions = []
    for a in task.action_sequence:
        params = a.parameters.model_dump(exclude_none=True)
        p = {k: params[k] for k in OFFICIAL_PARAMETERS if k in params}
        if "direction" in p:
            p["direction"] = str(p["direction"]).upper()  # as the official data spells it
        actions.append({"type": a.type, "parameters": p, "visual_evaluation_flag": bool(a.visual_evaluation_flag),
                        "checkpoint_screenshot": a.checkpoint_screenshot, "logical_assertion": a.logical_assertion})
    cls = task.classification.model_dump(exclude_none=True)
    rec = task.recording_details
    return {
        "id": task.id,
        "classification": {k: cls[k] for k in ("interaction_complexity", "visual_complexity", "domain", "sub_domain")
                           if k in cls},
        "recording_details": {"resolution": rec.resolution, **({"environment": rec.environment} if rec.environment else {})},
        "source_website": task.source_website,
        "action_sequence": actions,
    }


def _copy_file(src: Path, dst: Path) -> None:
    dst.parent.mkdir(parents=True, exist_ok=True)
    shutil.copyfile(src, dst)  # a plain file: the folder was checked to hold no link


def _files(task: Task) -> list[Path]:
    """The task's files the official layout holds, relative to its folder, each checked."""
    root = task.dir
    problems = containment_problems(task)  # no link, special file or oversize anywhere in the folder
    if problems:
        raise TaskError(problems[0])
    why = video_problem(task.video_path)
    if why:
        raise TaskError(why)
    out = [Path("video.mp4")]
    for sub in COPIED_DIRS:
        top = root / sub
        if not top.is_dir():
            continue
        for dirpath, _dirs, names in os.walk(top):
            for n in sorted(names):
                rel = Path(dirpath, n).relative_to(root)
                if rel.suffix.lower() in (".png", ".jpg", ".jpeg", ".webp", ".gif"):
                    why = image_problem(root / rel)
                    if why:
                        raise TaskError(why)
                out.append(rel)
    for i in range(len(task.action_sequence) + 1):
        if not task.checkpoint(i).is_file():
            raise TaskError(f"{task.checkpoint(i)}: missing checkpoint (task {task.id})")
    return out


def export_official(task_dirs: list[str | Path], out: str | Path) -> Path:
    """Write the tasks in ``task_dirs`` (recorded task folders) as ``out/data.jsonl`` + ``out/data/<id>/``.

    Returns the path of data.jsonl. Raises TaskError (nothing written) on a bad task folder, a duplicate
    id or an ``out`` that exists and is not empty."""
    out = Path(out)
    if out.exists() and (not out.is_dir() or any(out.iterdir())):
        raise TaskError(f"{out}: exists and is not an empty folder; refused (nothing written)")
    tasks = [load_task(d) for d in task_dirs]
    if not tasks:
        raise TaskError("no task folders given")
    ids = [t.id for t in tasks]
    dup = sorted({i for i in ids if ids.count(i) > 1})
    if dup:
        raise TaskError(f"duplicate task id(s) {', '.join(dup)}; refused (nothing written)")
    plan = [(t, _files(t)) for t in tasks]  # every problem is found before anything is written
    out.parent.mkdir(parents=True, exist_ok=True)
    tmp = Path(tempfile.mkdtemp(prefix=f".{out.name}.", dir=out.parent))
    try:
        lines = []
        for t, files in plan:
            for rel in files:
                _copy_file(t.dir / rel, tmp / "data" / t.id / rel)
            lines.append(json.dumps(official_line(t), ensure_ascii=False))
        (tmp / "data.jsonl").write_text("\n".join(lines) + "\n", encoding="utf-8")
        if out.exists():
            out.rmdir()  # empty, checked above
        os.replace(tmp, out)
    except BaseException:
        shutil.rmtree(tmp, ignore_errors=True)
        raise
    return out / "data.jsonl"


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(prog="python -m iwrbench.tasks.official",
                                 description="Write recorded task folders in the official IWR-Bench layout "
                                             "(data.jsonl + data/<id>/: video, assets, composites, checkpoints; "
                                             "no targets, evidence, checks or probes).")
    sub = ap.add_subparsers(dest="cmd", required=True)
    ex = sub.add_parser("export", help="export task folders to OUT/data.jsonl + OUT/data/<id>/")
    ex.add_argument("task_dirs", nargs="+", metavar="TASK_DIR")
    ex.add_argument("--out", required=True, metavar="OUT", help="a new (or empty) folder")
    args = ap.parse_args(argv)
    try:
        path = export_official(args.task_dirs, args.out)
    except TaskError as e:
        print(f"error: {e}", file=sys.stderr)
        return 2
    print(f"wrote {path} ({len(args.task_dirs)} task(s))")
    return 0


if __name__ == "__main__":  # pragma: no cover
    sys.exit(main())


__all__ = ["export_official", "official_line", "main"]
