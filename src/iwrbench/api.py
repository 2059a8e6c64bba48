"""The Python API: ``iwrbench.evaluate`` and ``iwrbench.record``, the library behind ``iwr eval`` / ``iwr record``.

::

    import iwrbench

    summary = iwrbench.evaluate(tasks="suite/", models=["screenshot", "openai:my-vlm"], out="runs/try",
                                base_url="http://127.0.0.1:8000/v1", limit=3, model_args={"seed": 7})
    print(summary.leaderboard[0].model, summary["screenshot"].final)

    task = iwrbench.record("recipe.yaml", out="tasks/my-task")

``evaluate`` takes the options of ``iwr eval`` as keyword arguments, named as the flags are
(``--max-output-tokens`` -> ``max_output_tokens``; ``--task`` -> ``task``, a list; ``-M`` ->
``model_args``, a dict or a list of ``"KEY=VALUE"``; ``--max-cost`` -> ``max_cost``), plus
``progress``, a callable ``(event, info)`` receiving ``start``, ``unit_start`` and
``unit_done`` events. It writes the same run folder (resumable, ``retry_errors=True`` as
``--retry-errors``) and returns an ``EvalSummary`` (summary.json, typed). Errors are
``IwrError`` (one line saying what to do), as on the command line.

Importing ``iwrbench`` stays light: these functions import the browser and the models only
when called.
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any, Callable

from .errors import IwrError

#: keyword options of ``evaluate`` -> what they are (as ``iwr eval``'s flags)
EVAL_OPTIONS: dict[str, str] = {
    "protocol": "offline@2 (default) or iwr-bench@1",
    "workers": "units judged at once (default 1)",
    "executor": "local (default) or ray",
    "ray_address": "an existing Ray cluster",
    "task": "only these task ids (a list)",
    "limit": "only the first N tasks, sorted by id",
    "retry_errors": "redo generation_error / judge_error units of an existing run",
    "allow_changed_config": "resume a run although its configuration changed",
    "oracle_recipes": "recipe folders or files for the oracle (a list)",
    "base_url": "OpenAI-compatible server URL for openai:NAME models",
    "judge_model": "iwr-bench@1: the judge's model",
    "judge_base_url": "the judge model's server",
    "judge_args": "the judge model's own request fields and settings (KEY=VALUE items or a dict)",
    "ocr": "override the protocol's OCR engine",
    "visual": "override the protocol's visual backend",
    "action_timeout": "seconds per judged action",
    "page_timeout": "seconds per judged page",
    "fps": "frames per second sent to the model",
    "max_frames": "at most this many frames",
    "max_images": "at most this many images",
    "max_image_side": "downscale larger images",
    "max_output_tokens": "the model's output cap",
    "prompt_version": "the prompt text's version",
    "concurrency": "model calls at once per provider",
    "timeout_s": "seconds per model call",
    "retries": "model call retries on 429/5xx/timeouts",
    "max_cost": "stop new model calls at this many USD",
    "cache_dir": "the response cache folder",
    "model_args": "-M: {key: value} or ['key=value', ...]",
    "unsafe_no_sandbox": "start Chromium with --no-sandbox (recorded in run.json; default: its sandbox on)",
    "progress": "a callable (event, info)",
}

_GEN_KEYS = ("fps", "max_frames", "max_images", "max_image_side", "max_output_tokens", "prompt_version",
             "concurrency", "timeout_s", "retries")

if TYPE_CHECKING:
    from .records import Summary


@dataclass(frozen=True)
class ModelScore:
    """One leaderboard row: means over the model's scored tasks (0-100; None when none was scored)."""

    model: str
    tasks: int
    final: float | None
    ifs: float | None
    vfs: float | None
    low_level_visual: float | None
    high_level_visual: float | None
    #: status -> units (generation_error, page_error, judge_error, task_error)
    errors: dict[str, int] = field(default_factory=dict)

    @classmethod
    def from_row(cls, row: dict[str, Any]) -> "ModelScore":
        return cls(model=row["model"], tasks=row["tasks"], final=row["final"], ifs=row["ifs"], vfs=row["vfs"],
                   low_level_visual=row["low_level_visual"], high_level_visual=row["high_level_visual"],
                   errors=dict(row.get("errors") or {}))


@dataclass(frozen=True)
class EvalSummary:
    """What ``evaluate`` returns: the run's summary.json, typed. ``summary["model"]`` is that model's row."""

    run_dir: Path
    protocol: str
    suite: str | None
    suite_hash: str | None
    tasks: int
    #: best Final first
    leaderboard: list[ModelScore]
    #: taxonomy tag -> value -> leaderboard rows (as in summary.json)
    by_tag: dict[str, Any]
    #: summary.json as written
    raw: dict[str, Any]

    @classmethod
    def from_summary(cls, summary: "Summary | dict[str, Any]", run_dir: Path) -> "EvalSummary":
        from .records import Summary

        s = Summary.model_validate(summary)
        raw = json.loads(s.to_json())
        return cls(run_dir=Path(run_dir), protocol=s.protocol, suite=s.suite, suite_hash=s.suite_hash, tasks=s.tasks,
                   leaderboard=[ModelScore.from_row(r) for r in raw["leaderboard"]], by_tag=raw["by_tag"], raw=raw)

    @classmethod
    def load(cls, run_dir: str | Path) -> "EvalSummary":
        """The summary of a finished run folder."""
        from .runs.rundir import RunDir

        run = RunDir(run_dir)
        if not run.summary_file.is_file():
            raise IwrError(f"{run_dir}: no summary.json; run iwrbench.evaluate(..., out={str(run_dir)!r}) first")
        return cls.from_summary(run.read_summary(), Path(run_dir))

    @property
    def models(self) -> list[str]:
        return [r.model for r in self.leaderboard]

    def __getitem__(self, model: str) -> ModelScore:
        for r in self.leaderboard:
            if r.model == model:
                return r
        raise KeyError(f"{model!r} is not in this run; its models: {', '.join(self.models) or 'none'}")


def _judge_args(args: Any) -> dict[str, Any]:
    from .models.base import parse_model_args

    if not args:
        return {}
    return dict(args) if isinstance(args, dict) else parse_model_args(list(args))


def eval_config(tasks: str | Path, models: str | list[str], out: str | Path, **options: Any):
    """The ``EvalConfig`` for ``evaluate``'s arguments (see the module docstring)."""
    from .judge.replay import Limits
    from .models.base import GenerationOptions, apply_model_args, parse_model_args
    from .runs.evaluate import EvalConfig

    unknown = sorted(set(options) - set(EVAL_OPTIONS) - {"progress"})
    if unknown:
        raise IwrError(f"evaluate(): unknown option(s) {', '.join(unknown)}; known: {', '.join(EVAL_OPTIONS)}")
    if isinstance(models, str):
        models = [models]
    if not models:
        raise IwrError("evaluate(): give at least one model, e.g. models=['screenshot']")
    o = GenerationOptions()
    for k in _GEN_KEYS:
        if options.get(k) is not None:
            setattr(o, k, options[k])
    if options.get("max_cost") is not None:
        o.max_cost_usd = float(options["max_cost"])
    if options.get("cache_dir"):
        o.cache_dir = Path(options["cache_dir"])
    margs = options.get("model_args")
    if margs:
        o = apply_model_args(o, parse_model_args(list(margs)) if not isinstance(margs, dict) else dict(margs))
    limits = Limits()
    if options.get("action_timeout"):
        limits.action_s = float(options["action_timeout"])
    if options.get("page_timeout"):
        limits.page_s = float(options["page_timeout"])
    only = options.get("task")
    if isinstance(only, str):
        only = [only]
    recipes = options.get("oracle_recipes")
    if isinstance(recipes, (str, Path)):
        recipes = [recipes]
    kw = {"base_url": options["base_url"]} if options.get("base_url") else {}
    return EvalConfig(
        tasks=tasks, models=list(models), out=out, protocol=options.get("protocol") or "offline@2",
        workers=int(options.get("workers") or 1), executor=options.get("executor") or "local", options=o,
        model_kwargs=kw, judge_model=options.get("judge_model"), judge_base_url=options.get("judge_base_url"),
        judge_args=_judge_args(options.get("judge_args")),
        ocr=options.get("ocr"), visual=options.get("visual"), limits=limits,
        allow_changed_config=bool(options.get("allow_changed_config")), only=list(only) if only else None,
        ray_address=options.get("ray_address"),
        oracle_recipes=[Path(x) for x in recipes] if recipes else None,
        retry_errors=bool(options.get("retry_errors")), limit=options.get("limit"),
        unsafe_no_sandbox=bool(options.get("unsafe_no_sandbox")),
    )


def evaluate(tasks: str | Path, models: str | list[str], out: str | Path, **options: Any) -> EvalSummary:
    """Generate + judge + summarise ``models`` on ``tasks`` into the run folder ``out`` (as ``iwr eval``).

    ``tasks``: a suite folder, a task folder or a data.jsonl. ``models``: ``oracle``, ``blank``,
    ``screenshot``, ``openai:NAME``, ... Options: ``EVAL_OPTIONS``. Resumable: the same call
    on the same ``out`` does only what is missing. Not for a running event loop (use
    ``iwrbench.runs.evaluate.evaluate_async`` with ``eval_config(...)`` there).
    """
    from .runs.evaluate import evaluate as _evaluate

    progress: Callable[[str, dict], None] | None = options.pop("progress", None)
    cfg = eval_config(tasks, models, out, **options)
    summary = _evaluate(cfg, progress)
    return EvalSummary.from_summary(summary, Path(out))


def record(recipe: Any, out: str | Path, *, validate: bool = True, passes: int = 2, force: bool = False,
           progress: Callable[[str], None] | None = None):
    """Record ``recipe`` (a recipe file's path, or a loaded ``Recipe``) into the task folder ``out``
    (as ``iwr record``) and return the ``Task``, bound to ``out``.

    ``validate`` (default on) replays the recorded task on its source first and writes nothing
    unless it scores IFS 100 with matching checkpoints (it needs the recipe's file: a ``Recipe``
    built in code can only be recorded with ``validate=False``). ``force`` replaces an existing
    non-empty ``out``. ``progress`` receives each step's line and each warning (``"warning: ..."``);
    without it, each warning (a `url:` source, a blocked request, a quoted text the source does not
    show ...) is issued as a Python ``RecordingWarning``. They are also in the task's
    reference/record.json.
    """
    import warnings

    from .validate.make import record_task

    done = record_task(recipe, Path(out), validate=validate, passes=passes, force=force, progress=progress)
    if progress is None:
        for w in done.warnings:
            warnings.warn(w, RecordingWarning, stacklevel=2)
    return done.task


class RecordingWarning(UserWarning):
    """Something ``record`` wants the recipe's author to know; the task was written all the same."""

__all__ = ["EVAL_OPTIONS", "EvalSummary", "ModelScore", "RecordingWarning", "eval_config", "evaluate", "record"]
