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
with a one-line message. A unit is ``runs.unit.run_unit``, run here or on Ray workers (``ray_executor``).
"""

from __future__ import annotations

import asyncio
import datetime as dt
import platform
from importlib import metadata
from pathlib import Path
from typing import Any

from ..version import __version__
from ..errors import IwrError
from ..judge.score import JudgeComponents
from ..models.base import Model
from ..protocols import Protocol, get_protocol
from ..browser.core import browser_sandbox
from ..records import RunSpec, Summary, Task
from ..tasks import load_suite, suite_hash
from .config import EvalConfig
from .progress import Progress, RunStarted, UnitDone, UnitStarted, emit
from .options import RUNTIME_OPTIONS  # noqa: F401 (re-exported: the options recorded apart)
from .rundir import RunDir
from .summary import summarize
from .unit import BrowserBox, make_components, one_line, resolve_models, run_unit  # noqa: F401 (re-exported)



#: the results ``--retry-errors`` redoes: no usable page from the model, or our own judging failed
RETRY_STATUSES = ("generation_error", "judge_error")


def first_tasks(tasks: list[Task], limit: int) -> list[Task]:
    """The first ``limit`` tasks sorted by id (``--limit``)."""
    if limit < 1:
        raise IwrError(f"--limit {limit}: give at least 1 task")
    return sorted(tasks, key=lambda t: t.id)[:limit]


def package_versions() -> dict[str, str]:
    out = {"python": platform.python_version(), "iwrbench": __version__}
    for p in ("playwright", "pydantic", "av", "numpy", "pillow", "scikit-image", "rapidfuzz"):
        try:
            out[p] = metadata.version(p)
        except metadata.PackageNotFoundError:
            pass
    return out


def make_spec(cfg: EvalConfig, tasks: list[Task], protocol: Protocol, components: JudgeComponents,
              models: list[Model], browser_version: str, sandbox: str = "") -> RunSpec:
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
        browser={"version": browser_version, "sandbox": sandbox, "unsafe_no_sandbox": sandbox.startswith("OFF")},
        packages=package_versions(),
        executor=cfg.executor,
        workers=cfg.workers,
        runtime={k: v for k, v in describe_options(cfg.options).items() if k in RUNTIME_OPTIONS},
    )


def _judging_pages_of(cfg: EvalConfig, spec: RunSpec) -> RunSpec:
    """run.json of a run judging the pages of the finished run ``cfg.pages_from``: where they came from, and
    that run's generation record (how the pages were made). Its tasks must be those the pages were made for."""
    from .rejudge import pages_from

    old_run = RunDir(cfg.pages_from)  # type: ignore[arg-type]
    old = old_run.read_spec()
    if old.suite_hash != spec.suite_hash and not cfg.allow_changed_config:
        raise IwrError(f"the tasks changed since {cfg.pages_from} was run (suite hash {old.suite_hash[:12]} then, "
                       f"{spec.suite_hash[:12]} now): its pages were made for other tasks; pass "
                       "--allow-changed-config to judge them all the same")
    return spec.model_copy(update={"generation": old.generation, "pages_from": pages_from(old_run, old)})


async def evaluate_async(cfg: EvalConfig, progress: Progress | None = None) -> Summary:
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
        from ..validate.oracle import explicit_recipes

        explicit_recipes(cfg.oracle_recipes)  # a wrong --oracle-recipes is an error before any work
    models = resolve_models(cfg, **kwargs)
    names = [m.name for m in models]
    if len(set(names)) != len(names):
        raise IwrError(f"a model is named twice: {names}")
    components = make_components(cfg, protocol)
    components.check()  # a missing component is an error that names it, before any work
    run = RunDir(cfg.out)
    box = BrowserBox(protocol.page_setup, unsafe_no_sandbox=cfg.unsafe_no_sandbox)
    try:
        browser = await box.get()
        sb = browser_sandbox(browser)
        spec = make_spec(cfg, tasks, protocol, components, models, browser.version, sb.describe() if sb else "")
        if cfg.pages_from is not None:
            spec = _judging_pages_of(cfg, spec)
        if limit is not None:
            spec = spec.model_copy(update={"limit": {k: v for k, v in limit.items() if k != "tasks"}})
        asked = spec
        before = run.read_spec() if run.exists() else None
        changed = run.changed_keys(asked) if before is not None else []
        spec, resumed = run.start(asked, allow_changed=cfg.allow_changed_config, retry_errors=cfg.retry_errors)
        if resumed and spec.browser.get("sandbox") != asked.browser.get("sandbox"):
            # a resume with another sandbox: run.json says every way its units were judged
            also = list(dict.fromkeys([*spec.browser.get("sandbox_on_resume", []), asked.browser["sandbox"]]))
            spec = spec.model_copy(update={"browser": {
                **spec.browser, "sandbox_on_resume": also,
                "unsafe_no_sandbox": bool(spec.browser.get("unsafe_no_sandbox") or asked.browser["unsafe_no_sandbox"])}})
            run.write_spec(spec)
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
        emit(progress, RunStarted(total=total, todo=len(units), resumed=resumed, run=str(run.path), limit=limit,
                                  retry=retry))
        if cfg.executor == "ray":
            from .ray_executor import run_on_ray

            await box.close()
            await run_on_ray(cfg, units, run, protocol, progress)
        else:
            sem = asyncio.Semaphore(max(1, cfg.workers))

            async def one(m: Model, t: Task) -> None:
                async with sem:
                    emit(progress, UnitStarted(model=m.name, task=t.id))
                    res = await run_unit(box, m, t, run, protocol, components, cfg.options, cfg.retries)
                    if res is not None:
                        run.append(res)
                    emit(progress, UnitDone(model=m.name, task=t.id, result=res))

            await asyncio.gather(*(one(m, t) for m, t in units))
    finally:
        await box.close()
    summary = summarize(run, protocol)
    run.write_summary(summary)
    return summary


def evaluate(cfg: EvalConfig, progress: Progress | None = None) -> Summary:
    """Run ``cfg``; the summary written to summary.json (a ``records.Summary``, readable as its JSON too)."""
    return asyncio.run(evaluate_async(cfg, progress))


__all__ = ["EvalConfig", "evaluate", "evaluate_async", "run_unit", "resolve_models", "one_line", "BrowserBox"]
