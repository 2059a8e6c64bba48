"""``iwr judge RUN_DIR``: judge the pages of a finished run again, without generating them (inspect_ai's ``score``).

A run's pages are kept in its folder (``pages/<model>/<task>/``): judging them again under another protocol, or
with a fixed judge, needs no model call. Each model of the run becomes ``RunPages``, a model that keeps the
run's name and "generates" by copying its page from the run judged (through the same capped, link-safe copy
as ``replay:DIR``), with the run's own generation record. A unit the run could not generate (a
``generation_error``) stays one, scored as the new protocol scores it; a unit with no page for another
reason (our failure then) is a ``judge_error`` of the new run, never a score. The ``oracle`` serves the task's
source again (its page is the source site, not a file).

The run judged is never written to: the new run is another folder (``--out``, else ``runs/<date-time>``),
whose run.json says where its pages came from (``pages_from``: the run's folder, its creation time, protocol
and suite hash) and keeps the run's generation record. A suite that changed since the run is refused (the
pages were made for other tasks) unless ``allow_changed_config``.
"""

from __future__ import annotations

import asyncio
from pathlib import Path
from typing import Any

from ..browser.host import PageBundle
from ..errors import InfraError, IwrError
from ..generate.baselines import PageFolderError, put_page_folder
from ..models.base import Generation, GenerationOptions
from ..records import GenerationInfo, GenerationOutcome, RunSpec, Task, TaskResult
from .rundir import RunDir


class RunPages:
    """The pages ``name`` wrote in the run ``run``, as a model of the new run (same name, no generation)."""

    def __init__(self, name: str, run: RunDir, rows: dict[str, TaskResult]):
        self.name = name
        self.run = run
        self.rows = rows

    def describe(self) -> dict[str, Any]:
        return {"kind": "pages of a run", "run": str(self.run.path.resolve()), "model": self.name}

    async def generate(self, task: Task, out_dir: Path, options: GenerationOptions) -> Generation:
        row = self.rows.get(task.id)
        if row is None:
            raise InfraError(f"{self.run.path}: the run has no result for ({self.name}, {task.id})")
        src = self.run.page_dir(self.name, task.id)
        info = (row.generation or GenerationInfo()).model_copy()
        if src.is_dir() or src.is_symlink():
            try:
                await asyncio.to_thread(put_page_folder, src, out_dir)
            except PageFolderError as e:
                raise InfraError(f"the page of ({self.name}, {task.id}) cannot be copied from {self.run.path}: {e}") from None
        raw = self.run.raw_reply_file(row)
        # the run's record names its raw reply from its own folder; the model names it from its page folder
        info.raw_reply = raw.relative_to(src).as_posix() if raw is not None and raw.is_relative_to(src) else None
        if row.status == "generation_error":
            outcome = info.outcome or GenerationOutcome.FAILED
            return Generation(outcome if outcome is not GenerationOutcome.OK else GenerationOutcome.FAILED, None, info,
                              error=row.error)
        if not (out_dir / "index.html").is_file():
            raise InfraError(f"the run judged has no page for ({self.name}, {task.id}) (its row: {row.status}: "
                             f"{row.error or 'no error recorded'})")
        return Generation(GenerationOutcome.OK, PageBundle(root=out_dir), info)


def run_pages(cfg: Any, **kwargs: Any) -> list[Any]:
    """The models of a run judging ``cfg.pages_from``: each of that run's models as ``RunPages`` (the oracle
    serving its source again)."""
    from ..generate.registry import resolve_model
    from ..validate.oracle import OracleModel

    run = RunDir(cfg.pages_from)
    by_model: dict[str, dict[str, TaskResult]] = {}
    for (model, task_id), row in run.results().items():
        by_model.setdefault(model, {})[task_id] = row
    out: list[Any] = []
    for name in cfg.models:
        if name == "oracle":
            m = resolve_model(name, cfg.options, **kwargs)
            if isinstance(m, OracleModel) and cfg.oracle_recipes:
                m.recipes = [Path(p) for p in cfg.oracle_recipes]
            out.append(m)
        else:
            out.append(RunPages(name, run, by_model.get(name, {})))
    return out


def pages_from(run: RunDir, spec: RunSpec) -> dict[str, Any]:
    """What run.json records of the run whose pages are judged."""
    return {"run": str(run.path.resolve()), "created": spec.created, "protocol": spec.protocol,
            "suite_hash": spec.suite_hash}


def rejudge_config(run_dir: str | Path, out: str | Path, options: Any, tasks: str | Path | None = None) -> Any:
    """The ``EvalConfig`` judging the pages of the finished run ``run_dir`` into ``out`` with ``options``
    (``runs.options.EvalOptions``: the protocol, the judge's settings; ``--tasks`` for a moved suite)."""
    run = RunDir(run_dir)
    if not run.exists():
        raise IwrError(f"{run_dir}: not a run folder (no run.json)")
    if not run.results_file.is_file():
        raise IwrError(f"{run_dir}: the run has no results.jsonl: nothing to judge again")
    a, b = run.path.resolve(), Path(out).resolve()
    if a == b or b.is_relative_to(a) or a.is_relative_to(b):
        raise IwrError(f"--out {out}: the new run must be another folder than the run judged ({run_dir}), never "
                       "inside it or around it: the run judged is not written to")
    spec = run.read_spec()
    cfg = options.config(tasks or spec.suite, list(spec.models), out)
    cfg.only = list(spec.task_ids) if not options.task else cfg.only
    cfg.pages_from = run.path
    if not Path(cfg.tasks).exists():
        raise IwrError(f"{run_dir}: the run's tasks ({spec.suite}) are not there any more; give them with --tasks")
    return cfg
