"""``iwr eval``: generate + judge + summarise, resumable, over (model, task) units of work.

A unit is generated, judged and appended to results.jsonl as one line; a rerun on the same
run folder skips every unit that has a line (except judge errors, which are ours and are
retried). Browser crashes restart the browser and retry the unit; after ``retries`` attempts
the unit is written as ``judge_error`` and is not scored.

One bad unit never stops a run. Before a unit, the task's files are checked
(``tasks.files.task_problems``: every file inside the task folder, checkpoints and composites
decodable, metadata.json readable); a broken task, or a ``TaskError`` raised while its unit is
generated or judged, makes a ``task_error`` row (not scored, listed under errors, not retried).
Any other unexpected exception while a unit is generated or judged makes a ``judge_error`` row
with a one-line message.
"""

from __future__ import annotations

import asyncio
import datetime as dt
import platform
import time
from dataclasses import dataclass, field
from importlib import metadata
from pathlib import Path
from typing import Any, Callable

from .. import __version__
from ..errors import InfraError, IwrError, JudgeError, TaskError
from ..judge.replay import Limits
from ..judge.score import JudgeComponents, judge_unit
from ..models.base import Generation, GenerationOptions, Model
from ..models.registry import resolve_model
from ..protocols import Protocol, get_protocol
from ..records import GenerationInfo, RunSpec, Task, TaskResult
from ..tasks import load_suite, suite_hash
from .rundir import RunDir
from .summary import summarize

Progress = Callable[[str, dict], None]

#: generation options that change how a run goes, not what a model is sent (not compared on resume)
RUNTIME_OPTIONS = {"concurrency", "timeout_s", "retries", "max_cost_usd", "dry_run", "cache_dir"}


@dataclass
class EvalConfig:
    tasks: str | Path
    models: list[str]
    out: str | Path
    protocol: str = "offline@2"
    workers: int = 1
    executor: str = "local"
    options: GenerationOptions = field(default_factory=GenerationOptions)
    model_kwargs: dict[str, Any] = field(default_factory=dict)
    judge_model: str | None = None  # iwr-bench@1: model for the LLM grounder and the MLLM judges
    judge_base_url: str | None = None
    #: the judge model's own request fields and settings (``-J KEY=VALUE``: reasoning_effort, thinking, ...);
    #: the judge never takes generation's ``-M`` fields
    judge_args: dict[str, Any] = field(default_factory=dict)
    limits: Limits | None = None  # time limits per action / page (default: judge.replay.Limits())
    ocr: str | None = None  # override the protocol's OCR engine (recorded in run.json)
    visual: str | None = None  # override the protocol's visual backend
    allow_changed_config: bool = False
    retries: int = 2
    only: list[str] | None = None
    ray_address: str | None = None
    #: recipes (folders of *.yaml or files) the ``oracle`` model looks in before the bundled suites',
    #: for tasks recorded elsewhere (``--oracle-recipes``); nothing in a task folder serves an oracle
    oracle_recipes: list[str | Path] | None = None
    #: redo the units whose result is a generation_error or judge_error (``--retry-errors``); generation
    #: settings may then differ from the run's, and only those units are redone (listed in run.json)
    retry_errors: bool = False
    #: only the first N tasks, sorted by id, after ``only`` (``--limit``; recorded in run.json)
    limit: int | None = None


#: the results ``--retry-errors`` redoes: no usable page from the model, or our own judging failed
RETRY_STATUSES = ("generation_error", "judge_error")


def first_tasks(tasks: list[Task], limit: int) -> list[Task]:
    """The first ``limit`` tasks sorted by id (``--limit``)."""
    if limit < 1:
        raise IwrError(f"--limit {limit}: give at least 1 task")
    return sorted(tasks, key=lambda t: t.id)[:limit]


def package_versions() -> dict[str, str]:
    out = {"python": platform.python_version(), "iwrbench": __version__}
    for p in ("playwright", "pydantic", "av", "numpy", "pillow", "scikit-image", "pytesseract", "rapidfuzz"):
        try:
            out[p] = metadata.version(p)
        except metadata.PackageNotFoundError:
            pass
    return out


def make_spec(cfg: EvalConfig, tasks: list[Task], protocol: Protocol, components: JudgeComponents,
              models: list[Model], browser_version: str) -> RunSpec:
    from ..generate.prompt import describe_options, prompt_sha256

    return RunSpec(
        created=dt.datetime.now(dt.timezone.utc).isoformat(timespec="seconds"),
        iwrbench_version=__version__,
        suite=str(Path(cfg.tasks).resolve()),
        suite_hash=suite_hash(tasks),
        task_ids=[t.id for t in tasks],
        models=list(cfg.models),
        protocol=protocol.id,
        judge=components.describe(),
        generation={"options": {k: v for k, v in describe_options(cfg.options).items() if k not in RUNTIME_OPTIONS},
                    "prompt": {"version": cfg.options.prompt_version, "sha256": prompt_sha256(cfg.options.prompt_version)},
                    "models": {m.name: m.describe() for m in models}},
        browser={"version": browser_version},
        packages=package_versions(),
        executor=cfg.executor,
        workers=cfg.workers,
        runtime={k: v for k, v in describe_options(cfg.options).items() if k in RUNTIME_OPTIONS},
    )


def make_components(cfg: EvalConfig, protocol: Protocol) -> JudgeComponents:
    c = JudgeComponents.for_protocol(protocol, judge_model=cfg.judge_model, options=cfg.options,
                                     ocr=cfg.ocr, visual=cfg.visual, judge_base_url=cfg.judge_base_url,
                                     judge_args=cfg.judge_args)
    if cfg.limits is not None:
        c.limits = cfg.limits
    return c


def resolve_models(cfg: EvalConfig, **kwargs: Any) -> list[Model]:
    """The run's models; the oracle gets ``cfg.oracle_recipes``."""
    from ..models.baselines import OracleModel

    models = [resolve_model(m, cfg.options, **kwargs) for m in cfg.models]
    for m in models:
        if isinstance(m, OracleModel) and cfg.oracle_recipes:
            m.recipes = [Path(p) for p in cfg.oracle_recipes]
    return models


def one_line(e: BaseException, limit: int = 300) -> str:
    """An exception as one line: its class and the first line of its message."""
    text = str(e).strip().splitlines()[0] if str(e).strip() else ""
    text = text[:limit] + ("..." if len(text) > limit else "")
    return f"{e.__class__.__name__}: {text}" if text else e.__class__.__name__


def _row(model: Model, task: Task, protocol: Protocol, status: str, error: str, t0: float,
         gen: Generation | None = None, attempts: int = 1) -> TaskResult:
    return TaskResult(model=model.name, task_id=task.id, status=status, protocol=protocol.id,  # type: ignore[arg-type]
                      steps_total=len(task.action_sequence), tags=task.tags, error=error.replace("\n", " "),
                      generation=gen.info if gen else None, attempts=attempts,
                      duration_s=round(time.monotonic() - t0, 2))


async def run_unit(browser_box: "BrowserBox", model: Model, task: Task, run: RunDir, protocol: Protocol,
                   components: JudgeComponents, options: GenerationOptions, retries: int) -> TaskResult | None:
    """Generate and judge one (model, task); None when the unit was skipped (budget).

    Never raises for a bad task, a bad page or a bug of ours: the row says what went wrong.
    """
    t0 = time.monotonic()
    try:
        from ..tasks.files import task_problems

        problems = await asyncio.to_thread(task_problems, task)
    except Exception as e:  # noqa: BLE001
        problems = [f"{task.dir}: cannot check the task's files ({one_line(e)})"]
    if problems:
        more = f" (and {len(problems) - 1} more)" if len(problems) > 1 else ""
        return _row(model, task, protocol, "task_error", problems[0] + more, t0)
    page_dir = run.page_dir(model.name, task.id)
    try:
        gen = await model.generate(task, page_dir, options)
    except TaskError as e:
        return _row(model, task, protocol, "task_error", str(e), t0)
    except IwrError as e:
        gen = Generation("generation_error", None, GenerationInfo(), error=str(e))
    except Exception as e:  # noqa: BLE001 - a bug of ours (or of a provider's SDK): never the model's fault
        return _row(model, task, protocol, "judge_error", f"generation failed unexpectedly: {one_line(e)}", t0)
    if gen.status != "ok" and (gen.error or "").startswith("budget:"):
        return None
    if gen.status != "ok" or gen.page is None:
        # scored 0, or left out like the published code's tasks without a page (protocols.unscored)
        zero = 0.0 if protocol.scores_generation_errors else None
        return TaskResult(model=model.name, task_id=task.id, status="generation_error", protocol=protocol.id,
                          ifs=zero, vfs=zero, final=zero, low_level_visual=zero, high_level_visual=zero,
                          steps_total=len(task.action_sequence), tags=task.tags, error=gen.error,
                          generation=gen.info, duration_s=round(time.monotonic() - t0, 2))
    last_err = ""
    for attempt in range(1, retries + 2):
        try:
            browser = await browser_box.get()
            res = await judge_unit(browser, task, gen.page, run.shots_dir(model.name, task.id), protocol, components)
            res.model = model.name
            res.generation = gen.info
            res.attempts = attempt
            res.duration_s = round(time.monotonic() - t0, 2)
            return res
        except JudgeError as e:  # the judge model was asked again already: redoing the unit asks the same
            return _row(model, task, protocol, "judge_error", str(e), t0, gen, attempt)
        except InfraError as e:
            last_err = str(e)
            await browser_box.restart()
        except TaskError as e:  # e.g. a checkpoint that changed under us
            return _row(model, task, protocol, "task_error", str(e), t0, gen, attempt)
        except Exception as e:  # noqa: BLE001 - unforeseen: this unit is ours to redo, the run goes on
            # what judge/score.py could raise here on a bad file is caught by task_problems() first
            return _row(model, task, protocol, "judge_error", f"judging failed: {one_line(e)}", t0, gen, attempt)
    return _row(model, task, protocol, "judge_error", last_err, t0, gen, retries + 1)


class BrowserBox:
    """One Playwright browser shared by the units of a worker, restarted after a crash."""

    def __init__(self) -> None:
        self._pw: Any = None
        self._browser: Any = None
        self._lock = asyncio.Lock()

    async def get(self) -> Any:
        async with self._lock:
            if self._browser is None or not self._browser.is_connected():
                from playwright.async_api import async_playwright

                from ..browser.core import launch_browser

                if self._pw is None:
                    self._pw = await async_playwright().start()
                self._browser = await launch_browser(self._pw)
            return self._browser

    async def restart(self) -> None:
        async with self._lock:
            if self._browser is not None:
                try:
                    await asyncio.wait_for(self._browser.close(), timeout=10)
                except Exception:
                    pass
                self._browser = None

    async def close(self) -> None:
        await self.restart()
        if self._pw is not None:
            await self._pw.stop()
            self._pw = None


async def evaluate_async(cfg: EvalConfig, progress: Progress | None = None) -> dict:
    protocol = get_protocol(cfg.protocol, to_run=True)
    tasks = load_suite(cfg.tasks, only=cfg.only)
    limit: dict[str, Any] | None = None
    if cfg.limit is not None:
        available = len(tasks)
        tasks = first_tasks(tasks, cfg.limit)
        limit = {"n": cfg.limit, "of": available, "order": "task id", "tasks": [t.id for t in tasks]}
    kwargs = dict(cfg.model_kwargs)
    if cfg.options.max_cost_usd is not None:  # one budget for the whole run, across providers
        from ..models.pricing import Budget

        kwargs.setdefault("budget", Budget(cfg.options.max_cost_usd))
    if cfg.oracle_recipes:
        from ..tasks.oracle import explicit_recipes

        explicit_recipes(cfg.oracle_recipes)  # a wrong --oracle-recipes is an error before any work
    models = resolve_models(cfg, **kwargs)
    names = [m.name for m in models]
    if len(set(names)) != len(names):
        raise IwrError(f"a model is named twice: {names}")
    components = make_components(cfg, protocol)
    components.check()  # a missing component is an error that names it, before any work
    run = RunDir(cfg.out)
    box = BrowserBox()
    try:
        browser = await box.get()
        spec = make_spec(cfg, tasks, protocol, components, models, browser.version)
        if limit is not None:
            spec = spec.model_copy(update={"limit": {k: v for k, v in limit.items() if k != "tasks"}})
        asked = spec
        before = run.read_spec() if run.exists() else None
        changed = run.changed_keys(asked) if before is not None else []
        spec, resumed = run.start(asked, allow_changed=cfg.allow_changed_config, retry_errors=cfg.retry_errors)
        done = run.done()
        units = [(m, t) for m in models for t in tasks if (m.name, t.id) not in done]
        retry: dict[str, Any] | None = None
        if cfg.retry_errors and before is not None:
            results = run.results()
            failed = [(m, t) for m in models for t in tasks
                      if (r := results.get((m.name, t.id))) is not None and r.status in RETRY_STATUSES]
            never = [(m, t) for m, t in units if (m.name, t.id) not in results]
            # with other generation settings only the failed units are redone: nothing else mixes them in
            only_failed = bool(changed) and not cfg.allow_changed_config
            units = failed if only_failed else failed + never
            retry = {"units": len(failed), "statuses": " or ".join(RETRY_STATUSES), "changed": changed,
                     "left": len(never) if only_failed else 0}
            if failed:  # written before any unit runs: an interrupted retry is on record too
                run.note_retry(before, asked, changed, [results[(m.name, t.id)] for m, t in failed])
        total = len(models) * len(tasks)
        if progress:
            progress("start", {"total": total, "todo": len(units), "resumed": resumed, "run": str(run.path),
                               "limit": limit, "retry": retry})
        if cfg.executor == "ray":
            from .ray_executor import run_on_ray

            await box.close()
            await run_on_ray(cfg, units, run, protocol, progress)
        else:
            sem = asyncio.Semaphore(max(1, cfg.workers))

            async def one(m: Model, t: Task) -> None:
                async with sem:
                    if progress:
                        progress("unit_start", {"model": m.name, "task": t.id})
                    res = await run_unit(box, m, t, run, protocol, components, cfg.options, cfg.retries)
                    if res is not None:
                        run.append(res)
                    if progress:
                        progress("unit_done", {"model": m.name, "task": t.id, "result": res})

            await asyncio.gather(*(one(m, t) for m, t in units))
    finally:
        await box.close()
    summary = summarize(run, protocol)
    run.write_summary(summary)
    return summary


def evaluate(cfg: EvalConfig, progress: Progress | None = None) -> dict:
    return asyncio.run(evaluate_async(cfg, progress))


__all__ = ["EvalConfig", "evaluate", "evaluate_async", "run_unit", "resolve_models", "one_line", "BrowserBox"]
