"""The Python API: ``iwrbench.evaluate`` and ``iwrbench.record``, the library behind ``iwr eval`` / ``iwr record``.

::

    import iwrbench

    summary = iwrbench.evaluate(tasks="suite/", models=["screenshot", "openai:my-vlm"], out="runs/try",
                                base_url="http://127.0.0.1:8000/v1", limit=3, model_args={"seed": 7})
    print(summary.leaderboard[0].model, summary["screenshot"].final)

    task = iwrbench.record("recipe.yaml", out="tasks/my-task")

``evaluate`` takes the options of ``iwr eval`` as keyword arguments, named as the flags are
(``--max-output-tokens`` -> ``max_output_tokens``; ``--task`` -> ``task``, a list; ``-M`` ->
``model_args``, a dict or a list of ``"KEY=VALUE"``; ``--max-cost`` -> ``max_cost``): both are the
fields of one declaration, ``runs.options.EvalOptions``, which the command line fills too. Plus
``progress``: None (a line per unit on stderr), False (nothing) or a callable ``(event, info)`` receiving
``start``, ``unit_start`` and ``unit_done`` events. It writes the same run folder (resumable, ``retry_errors=True`` as
``--retry-errors``) and returns an ``EvalSummary`` (summary.json, typed). Errors are
``IwrError`` (one line saying what to do), as on the command line.

Progress, the same for ``evaluate`` and ``record``: by default (``progress=None``) a line per step
on stderr, as ``iwr eval`` / ``iwr record`` print them when not on a terminal; ``progress=False``
prints nothing; a callable ``(event, info)`` receives the events instead (``evaluate``: ``start``,
``unit_start``, ``unit_done``; ``record``: ``start``, ``step``, ``warning``, ``done``; ``info`` a dict).

Importing ``iwrbench`` stays light: these functions import the browser and the models only
when called.
"""

from __future__ import annotations

import json
import sys
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any, Callable

from .errors import IwrError
from .runs.options import EvalOptions

#: keyword options of ``evaluate`` -> what they are: ``runs.options.EvalOptions``' fields (as ``iwr eval``'s flags)
EVAL_OPTIONS: dict[str, str] = {**{n: f.description or "" for n, f in EvalOptions.model_fields.items()},
                                "progress": "None (default: a line per unit on stderr), False (nothing) or a callable "
                                            "(event, info)"}

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
    #: 95% intervals (low, high) by bootstrap over the scored tasks; None below 2 tasks or from an old summary
    final_ci: tuple[float, float] | None = None
    ifs_ci: tuple[float, float] | None = None
    vfs_ci: tuple[float, float] | None = None
    #: leading steps passed and steps over the scored tasks
    steps_passed: int | None = None
    steps_total: int | None = None

    @classmethod
    def from_row(cls, row: dict[str, Any]) -> "ModelScore":
        def ci(key: str) -> tuple[float, float] | None:
            v = row.get(key)
            return None if not v else (v["low"], v["high"])

        return cls(model=row["model"], tasks=row["tasks"], final=row["final"], ifs=row["ifs"], vfs=row["vfs"],
                   low_level_visual=row["low_level_visual"], high_level_visual=row["high_level_visual"],
                   errors=dict(row.get("errors") or {}), final_ci=ci("final_ci"), ifs_ci=ci("ifs_ci"),
                   vfs_ci=ci("vfs_ci"), steps_passed=row.get("steps_passed"), steps_total=row.get("steps_total"))


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


def eval_options(**options: Any):
    """``evaluate``'s keyword options as the typed ``EvalOptions`` (an unknown or ill-typed one is an IwrError)."""
    from pydantic import ValidationError

    unknown = sorted(set(options) - set(EvalOptions.model_fields))
    if unknown:
        raise IwrError(f"evaluate(): unknown option(s) {', '.join(unknown)}; known: {', '.join(EvalOptions.model_fields)}")
    try:
        return EvalOptions(**options)
    except ValidationError as e:
        err = e.errors()[0]
        where = ".".join(str(x) for x in err["loc"])
        raise IwrError(f"evaluate(): option {where}: {err['msg']}") from None


def eval_config(tasks: str | Path, models: str | list[str], out: str | Path, **options: Any):
    """The ``EvalConfig`` for ``evaluate``'s arguments (see the module docstring)."""
    return eval_options(**options).config(tasks, _models(models), out)


def _models(models: str | list[str]) -> list[str]:
    if isinstance(models, str):
        models = [models]
    if not models:
        raise IwrError("evaluate(): give at least one model, e.g. models=['screenshot']")
    return list(models)


def run_eval(tasks: str | Path, models: str | list[str], out: str | Path | None, options: Any,
             progress: Callable[[str, dict], None] | None = None) -> "Summary | list[dict[str, Any]]":
    """A run with typed ``options`` (``runs.options.EvalOptions``): what ``evaluate`` and ``iwr eval`` both call.

    Returns the run's ``Summary``; with ``options.dry_run``, nothing is run or written and the plan of each model
    is returned instead (``generate.plan.dry_run``: calls, images, an input-token estimate; ``out`` unused)."""
    models = _models(models)
    if options.dry_run:
        from .generate.plan import dry_run
        from .runs.evaluate import first_tasks
        from .tasks import load_suite

        found = load_suite(tasks, only=options.task or None)
        chosen = first_tasks(found, options.limit) if options.limit is not None else found
        kw = {"base_url": options.base_url} if options.base_url else {}
        gen = options.generation()
        plans = []
        for m in models:
            info = dry_run(chosen, m, gen, check_cache=True, **kw)
            if options.limit is not None:
                info["limit"] = {"n": options.limit, "of": len(found), "tasks": [t.id for t in chosen]}
            plans.append(info)
        return plans
    if out is None:
        raise IwrError("evaluate(): give the run folder, out=...")
    from .runs.evaluate import evaluate as _evaluate

    return _evaluate(options.config(tasks, models, out), progress)


def evaluate(tasks: str | Path, models: str | list[str], out: str | Path | None = None, **options: Any) -> Any:
    """Generate + judge + summarise ``models`` on ``tasks`` into the run folder ``out`` (as ``iwr eval``).

    ``tasks``: a suite folder, a task folder or a data.jsonl. ``models``: ``oracle``, ``blank``,
    ``screenshot``, ``openai:NAME``, ... Options: ``EVAL_OPTIONS`` (``runs.options.EvalOptions``). Resumable:
    the same call on the same ``out`` does only what is missing. Not for a running event loop (use
    ``iwrbench.runs.evaluate.evaluate_async`` with ``eval_config(...)`` there). With ``dry_run=True`` nothing
    is called or written: the plan of each model is returned (a list of dicts, as ``iwr eval --dry-run``
    prints them).
    """
    progress = _progress(options.pop("progress", None), _print_eval)
    opts = eval_options(**options)
    summary = run_eval(tasks, models, out, opts, progress)
    if opts.dry_run:
        return summary
    return EvalSummary.from_summary(summary, Path(out))  # type: ignore[arg-type]


#: ``rejudge``'s options: what decides how pages are judged and how the run goes, not what a model is sent
JUDGE_OPTIONS = ("protocol", "workers", "executor", "ray_address", "task", "judge_model", "judge_base_url",
                 "judge_args", "ocr", "visual", "action_timeout", "page_timeout", "oracle_recipes", "cache_dir",
                 "allow_changed_config", "unsafe_no_sandbox",
                 # how a judge model is called (iwr-bench@1): its retries, timeout and calls at once
                 "retries", "timeout_s", "concurrency")


def rejudge(run_dir: str | Path, out: str | Path, *, tasks: str | Path | None = None,
            progress: Any = None, **options: Any) -> EvalSummary:
    """Judge the pages of the finished run ``run_dir`` again, without generating, into the new run folder ``out``
    (as ``iwr judge``); ``run_dir`` is never written to. Options: ``JUDGE_OPTIONS`` (``protocol=`` ...; the run's
    own protocol when not given). ``tasks``: where the run's tasks are now, if they moved."""
    from .runs.evaluate import evaluate as _evaluate
    from .runs.rejudge import rejudge_config
    from .runs.rundir import RunDir

    other = sorted(set(options) - set(JUDGE_OPTIONS))
    if other:
        raise IwrError(f"rejudge(): {', '.join(other)} cannot change when pages are judged again; known: "
                       f"{', '.join(JUDGE_OPTIONS)}")
    if options.get("protocol") is None and RunDir(run_dir).exists():
        options["protocol"] = RunDir(run_dir).read_spec().protocol
    summary = _evaluate(rejudge_config(run_dir, out, eval_options(**options), tasks), _progress(progress, _print_eval))
    return EvalSummary.from_summary(summary, Path(out))


Progress = Callable[[str, dict], None]


def _say(line: str) -> None:
    print(line, file=sys.stderr, flush=True)


def _progress(given: Any, default: Callable[[], Progress]) -> Progress | None:
    """``None``: the default printer; ``False``: none; a callable (event, info): itself."""
    if given is None:
        return default()
    if given is False:
        return None
    if not callable(given):
        raise IwrError(f"progress must be None (print a line per step), False (print nothing) or a callable "
                       f"(event, info); got {type(given).__name__}")
    return given


def _print_eval() -> Progress:
    done = [0, 0]

    def cb(event: str, info: dict) -> None:
        if event == "start":
            done[1] = info["todo"]
            resumed = f" (resuming: {info['total'] - info['todo']} done)" if info.get("resumed") else ""
            _say(f"evaluating: {info['todo']} unit(s) to do{resumed} -> {info['run']}")
        elif event == "unit_done":
            done[0] += 1
            r = info.get("result")
            what = f"{info['model']} / {info['task']}"
            if r is not None:
                what += f": {r.status}" + (f" Final {r.final:.1f}" if r.final is not None else "")
            _say(f"  [{done[0]}/{done[1]}] {what}")

    return cb


def _print_record() -> Progress:
    def cb(event: str, info: dict) -> None:
        if event == "start":
            _say(f"recording {info['recipe']} ({info['actions']} action(s)) -> {info['out']}")
        elif event == "step":
            _say(f"  {info['message']}")
        elif event == "done":
            checked = (f"oracle replay IFS {info['oracle_ifs']:.0f}" if info["validated"] else "not validated")
            _say(f"wrote {info['out']}: {info['actions']} action(s); {checked}")
        # warnings are issued as RecordingWarning (the warnings module shows them)

    return cb


def _one_argument(fn: Callable) -> bool:
    """A callable taking one line (``progress=lines.append``, as iwrbench 0.3's ``record`` called it)."""
    import inspect

    try:
        sig = inspect.signature(fn)
    except (TypeError, ValueError):
        return False
    try:
        sig.bind("line", {})
        return False
    except TypeError:
        try:
            sig.bind("line")
            return True
        except TypeError:
            return False


def record(recipe: Any, out: str | Path, *, validate: bool = True, passes: int = 2, force: bool = False,
           progress: Any = None):
    """Record ``recipe`` (a recipe file's path, or a loaded ``Recipe``) into the task folder ``out``
    (as ``iwr record``) and return the ``Task``, bound to ``out``.

    ``validate`` (default on) replays the recorded task on its source first and writes nothing
    unless it scores IFS 100 with matching checkpoints (it needs the recipe's file: a ``Recipe``
    built in code can only be recorded with ``validate=False``). ``force`` replaces an existing
    non-empty ``out``. ``progress``, as for ``evaluate``: by default a line per step on stderr
    (``recording ...``, ``step 3/8: Click the 'Next' button``, ``validating ...``, ``wrote ...``);
    ``False`` prints nothing; a callable ``(event, info)`` gets ``start`` {recipe, actions, out},
    ``step`` {message}, ``warning`` {message} and ``done`` {out, actions, validated, oracle_ifs,
    warnings} instead (a one-argument callable still gets each line, warnings as ``"warning: ..."``).
    Unless a callable takes them, warnings (a `url:` source, a blocked request, a quoted text the
    source does not show ...) are issued as Python ``RecordingWarning``s. They are also in the
    task's reference/record.json.
    """
    import warnings

    from .record.recipe import Recipe, load_recipe
    from .validate.make import record_task

    if progress is not None and progress is not False and callable(progress) and _one_argument(progress):
        lines = progress  # iwrbench 0.3: each line, warnings as "warning: ..."
        done = record_task(recipe, Path(out), validate=validate, passes=passes, force=force, progress=lines)
        return done.task
    cb = _progress(progress, _print_record)
    mine = progress is None or progress is False  # warnings go to the warnings module unless a callable takes them
    recipe_obj = recipe if isinstance(recipe, Recipe) else load_recipe(Path(recipe))
    WARNING = "warning: "  # how the recorder says a warning in its progress lines

    started = []

    def start() -> None:  # once recording has begun (a refused `out` says nothing before its error)
        if cb is not None and not started:
            started.append(True)
            cb("start", {"recipe": recipe_obj.id, "actions": len(recipe_obj.actions), "out": str(out)})

    def line(message: str) -> None:
        if cb is None:
            return
        start()
        if message.startswith(WARNING):
            if not mine:
                cb("warning", {"message": message[len(WARNING):]})
        else:
            cb("step", {"message": message})

    done = record_task(recipe_obj, Path(out), validate=validate, passes=passes, force=force, progress=line)
    start()
    if mine:
        for w in done.warnings:
            warnings.warn(w, RecordingWarning, stacklevel=2)
    if cb is not None:
        cb("done", {"out": str(done.out), "actions": len(done.task.action_sequence), "validated": done.validated,
                    "oracle_ifs": done.oracle_ifs, "warnings": list(done.warnings)})
    return done.task


class RecordingWarning(UserWarning):
    """Something ``record`` wants the recipe's author to know; the task was written all the same."""

__all__ = ["EVAL_OPTIONS", "JUDGE_OPTIONS", "EvalSummary", "ModelScore", "RecordingWarning", "eval_config",
           "eval_options", "evaluate", "record", "rejudge", "run_eval"]
