"""Record a recipe into a task folder that passes its own oracle replay, or write nothing.

``iwr record`` and ``iwrbench.record`` go through here: the recorder writes the task into a
hidden staging folder beside ``out``; the judge then replays it on its source, served from
the same recipe, exactly as ``iwr validate --oracle`` does. Only a task that scores IFS 100
there and reproduces its visual checkpoints replaces ``out``; otherwise the staging folder is
removed and the error names the step and the check that failed.
"""

from __future__ import annotations

import asyncio
import json
import shutil
import tempfile
from dataclasses import dataclass, field
from pathlib import Path
from typing import Callable

from ..errors import RecordError
from ..fileio import replace_dir
from ..records import Task

Progress = Callable[[str], None]


@dataclass
class Recorded:
    """What ``record_task`` wrote: the task (bound to ``out``) and how it was checked."""

    task: Task
    out: Path
    validated: bool
    oracle_ifs: float | None = None
    checkpoints: dict[int, float] = field(default_factory=dict)  # share of differing pixels per visual checkpoint
    #: what the recorder warned about (a `url:` source, blocked requests, a quoted text the source does not
    #: show ...), one line each, as in reference/record.json
    warnings: list[str] = field(default_factory=list)


async def record_task_async(recipe: "Path | str | object", out: Path, *, validate: bool = True, passes: int = 2,
                            force: bool = False, progress: Progress | None = None) -> Recorded:
    from ..record.recipe import Recipe, load_recipe
    from ..record.recorder import record_async
    from ..tasks.load import load_task
    from .check import validate_async

    recipe_obj: Recipe = recipe if isinstance(recipe, Recipe) else load_recipe(Path(recipe))  # type: ignore[arg-type]
    recipe_file = recipe_obj.source_file
    if validate and (recipe_file is None or not Path(recipe_file).is_file()):
        raise RecordError(f"{recipe_obj.id}: validating the recording needs the recipe's file (its oracle is served "
                          "from it); load the recipe from a file, or pass validate=False (--no-validate)")
    out = Path(out).resolve()
    if out.exists() and not force and (not out.is_dir() or any(out.iterdir())):
        raise RecordError(f"{out} exists and is not empty; pass --force (force=True) to replace it")
    out.parent.mkdir(parents=True, exist_ok=True)
    staging = Path(tempfile.mkdtemp(prefix=f".{out.name}.staging-", dir=out.parent))
    shutil.rmtree(staging)  # the recorder creates it atomically
    try:
        await record_async(recipe_obj, staging, progress=progress, passes=passes)
        done = Recorded(task=load_task(staging), out=out, validated=False, warnings=_warnings(staging))
        if validate:
            if progress:
                progress("validating: replaying the task on its source with the judge (iwr validate --oracle)")
            with tempfile.TemporaryDirectory(prefix="iwr-validate-") as work:
                [v] = await validate_async([staging], oracle=True, work_dir=Path(work), oracle_recipes=[recipe_file])
            done.oracle_ifs, done.checkpoints = v.ifs, dict(v.checkpoints)
            if not v.ok:
                more = f" (+{len(v.problems) - 1} more)" if len(v.problems) > 1 else ""
                raise RecordError(f"{recipe_obj.id}: the recorded task fails its own oracle replay, so nothing was "
                                  f"written to {out}: {v.problems[0]}{more}. Review that step's `checks:`/`assert` in "
                                  "the recipe (docs/recipes.md), or pass --no-validate to keep it unchecked")
            done.validated = True
        replace_dir(staging, out)
        done.task = done.task.bind(out)
        return done
    finally:
        shutil.rmtree(staging, ignore_errors=True)


def _warnings(task_dir: Path) -> list[str]:
    """The recorder's warnings, as it wrote them into reference/record.json."""
    try:
        return list(json.loads((task_dir / "reference" / "record.json").read_text(encoding="utf-8"))["warnings"])
    except (OSError, ValueError, KeyError, TypeError):
        return []


def record_task(recipe: "Path | str | object", out: Path, **kw) -> Recorded:
    """Record ``recipe`` into ``out`` and (by default) prove it on its oracle first; see the module docstring."""
    return asyncio.run(record_task_async(recipe, out, **kw))
