"""``iwr run`` building and judging at once: a task is judged as soon as it is built.

Building a suite (``validate.build``: each recipe recorded as ``iwr record --strict`` in its own process) and
judging it (``runs.evaluate``) used to run one after the other, so the judge waited for the slowest recording and
the recorders' cores idled while the judge ran. Here the build runs in a thread that hands each task over when its
recording ends (a task already built, at once); its units (one per model) then join the judge's queue, which
``workers`` units at a time share one browser per run (``BrowserBox``) and one set of judge components (one OCR
cache: a ground-truth checkpoint is read once per run). The recordings take ``jobs`` cores, the judge
``workers``; when the last recording ends, its cores go to the judge (``workers_after``); ``split_cores``
says why the build keeps most of them.

The run folder is the one ``iwr eval`` writes. run.json is written before the first recording ends, and again
as each task is built: ``task_ids`` and ``suite_hash`` are those of the tasks handed to the judge so far (once
``build.complete``, every task built: the hash ``iwr eval`` gives the built suite folder), ``build`` says which
recipes could not be built and why (``excluded``; never judged, never scored) and each task's own hash
(``task_hashes``). A rerun of the same command resumes: what is built is reused, what is judged skipped; a
task rebuilt with other content since the run judged it is refused unless ``--allow-changed-config``.
"""

from __future__ import annotations

import asyncio
import threading
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from ..browser.core import browser_sandbox
from ..errors import IwrError
from ..records import RunSpec, Summary, Task
from ..tasks import suite_hash
from ..tasks.load import load_task
from .config import EvalConfig
from .evaluate import make_spec, note_sandbox_on_resume, prepare
from .progress import BuildDone, BuildStarted, Progress, RunStarted, TaskBuilt, UnitDone, UnitStarted, emit
from .rundir import RunDir
from .summary import summarize
from .unit import BrowserBox, run_unit


@dataclass
class BuildSource:
    """What a pipelined run builds: recipe files recorded into ``root/tasks`` (``validate.build.build_recipes``)."""

    name: str
    files: list[Path]
    root: Path
    #: reuse tasks built for another bundled suite (bundled suites only)
    others: bool = False

    @classmethod
    def bundled(cls, name: str) -> "BuildSource":
        from ..suites.catalog import build_root, recipe_files

        return cls(name, recipe_files(name), build_root(name), others=True)

    @classmethod
    def folder(cls, path: Path) -> "BuildSource":
        """A folder of recipes of one's own (``iwr run --suite DIR``), built under the cache's
        ``suites/dir-<digest of the folder's path>/``."""
        import hashlib

        from ..sources import cache_root

        d = Path(path).resolve()
        files = sorted(f for f in d.glob("*.yaml") if f.is_file()) if d.is_dir() else []
        if not files:
            raise IwrError(f"{path}: not a folder of recipes (no *.yaml in it)")
        key = hashlib.sha256(str(d).encode()).hexdigest()[:12]
        return cls(str(path), files, cache_root() / "suites" / f"dir-{d.name[:40]}-{key}")

    @classmethod
    def named(cls, suite: str) -> "BuildSource":
        """``--suite``: a bundled suite by name, or a folder of recipes (a path: it has a '/' or is '.')."""
        if "/" in suite or suite in (".", ".."):
            return cls.folder(Path(suite))
        return cls.bundled(suite)

    @property
    def tasks_dir(self) -> Path:
        return self.root / "tasks"


def split_cores(cpus: int, jobs: int | None = None, workers: int | None = None) -> tuple[int, int, int]:
    """(recordings at once, units judged at once while they run, units judged at once after). A task's recording
    (two passes, probes, the oracle replay, four cheat pages) costs many times its units' judging, so the build
    keeps the cores ``iwr suite build`` takes (one per core, at most 4) and the judge one worker beside it, or
    the cores the build leaves; every core judges once the recordings have ended. A number given is kept (recordings
    at most ``MAX_JOBS``, as the build runs them)."""
    from ..validate.build import MAX_JOBS

    cpus = max(1, cpus)
    j = min(jobs, MAX_JOBS) if jobs is not None else max(1, min(cpus, MAX_JOBS))
    w = workers if workers is not None else max(1, cpus - j)
    after = workers if workers is not None else max(w, cpus)
    return max(1, j), max(1, w), max(1, after)


def refused(cfg: EvalConfig) -> str | None:
    """Why this run cannot build while it judges (it then builds first, then judges), or None."""
    if cfg.executor != "local":
        return f"--executor {cfg.executor}"
    if cfg.retry_errors:
        return "--retry-errors"
    run = RunDir(cfg.out)
    if run.exists():
        try:
            spec = run.read_spec()
        except IwrError:
            return None  # the pipeline says what is wrong with it
        if spec.build is None:
            return f"{run.path} was judged after its suite was built"
    return None


def _chosen(cfg: EvalConfig, source: BuildSource) -> tuple[list[str], dict[str, Any] | None]:
    """The recipe ids to build and judge (``--task``, then ``--limit``: the first N by id) and the limit record."""
    from ..record.recipe import load_recipe

    ids = sorted(load_recipe(f).id for f in source.files)
    if cfg.only:
        missing = sorted(set(cfg.only) - set(ids))
        if missing:
            raise IwrError(f"suite {source.name}: no recipe of task(s) {', '.join(missing)}")
        ids = [i for i in ids if i in set(cfg.only)]
    limit = None
    if cfg.limit is not None:
        if cfg.limit < 1:
            raise IwrError(f"--limit {cfg.limit}: give at least 1 task")
        limit = {"n": cfg.limit, "of": len(ids), "order": "task id", "tasks": ids[:cfg.limit]}
        ids = ids[:cfg.limit]
    return ids, limit


class _Spec:
    """run.json of a pipelined run, rewritten as tasks are handed to the judge or excluded."""

    def __init__(self, run: RunDir, spec: RunSpec, allow_changed: bool):
        self.run, self.spec, self.allow_changed = run, spec, allow_changed
        self.tasks: dict[str, Task] = {}
        b = dict(spec.build or {})
        self.hashes: dict[str, str] = dict(b.get("task_hashes") or {})
        self.excluded: dict[str, str] = dict(b.get("excluded") or {})

    def add(self, task: Task) -> None:
        h = suite_hash([task])
        old = self.hashes.get(task.id)
        if old is not None and old != h and not self.allow_changed:
            raise IwrError(f"{self.run.path}: task {task.id} was built again since this run judged it, with other "
                           f"content (hash {old[:12]} then, {h[:12]} now); use another --out, or "
                           "--allow-changed-config to continue it anyway")
        self.tasks[task.id] = task
        self.hashes[task.id] = h
        self.excluded.pop(task.id, None)
        self.write(complete=False)

    def exclude(self, task_id: str, reason: str) -> None:
        self.excluded[task_id] = reason
        self.write(complete=False)

    def write(self, complete: bool) -> None:
        tasks = sorted(self.tasks.values(), key=lambda t: t.id)
        self.spec = self.spec.model_copy(update={
            "task_ids": [t.id for t in tasks], "suite_hash": suite_hash(tasks),
            "build": {**(self.spec.build or {}), "complete": complete, "excluded": dict(sorted(self.excluded.items())),
                      "task_hashes": dict(sorted(self.hashes.items()))}})
        self.run.write_spec(self.spec)


async def run_pipelined(cfg: EvalConfig, source: BuildSource, *, jobs: int | None = None,
                        workers_after: int | None = None, force: bool = False,
                        progress: Progress | None = None) -> Summary:
    """Build ``source`` and judge ``cfg.models`` on each task as soon as it is built, into the run ``cfg.out``;
    the summary, written to summary.json. ``cfg.tasks`` is not read (run.json's ``suite`` is the build's task
    folder); ``jobs``: recordings at once; ``cfg.workers`` units judged at once while they run, ``workers_after``
    (default ``cfg.workers``) once they have all ended."""
    from ..metrics import CachedOcr
    from ..validate.build import MAX_JOBS, build_recipes, default_jobs, ocr_dir, oracle_dir

    ids, limit = _chosen(cfg, source)
    cfg.tasks = str(source.tasks_dir)
    protocol, models, components = prepare(cfg)
    if isinstance(components.ocr, CachedOcr):  # the build's readings of the ground truth, read not redone
        components.ocr.cache.also_read.append(ocr_dir(source.root))
    # the build's oracle replay judges the source as the run would (the default judge of offline@2, the recipe's
    # own source): the run takes that unit instead of judging the source twice
    keep = any(getattr(m, "name", "") == "oracle" for m in models) and _default_judge(protocol, components)
    judge_of = components.describe()
    run = RunDir(cfg.out)
    box = BrowserBox(protocol.page_setup, unsafe_no_sandbox=cfg.unsafe_no_sandbox)
    loop = asyncio.get_running_loop()
    events: asyncio.Queue[tuple[str, Any]] = asyncio.Queue()
    stop = threading.Event()

    def heard(kind: str, info: Any) -> None:  # from the build's thread
        loop.call_soon_threadsafe(events.put_nowait, (kind, info))

    def build() -> None:
        try:
            # every recipe: tasks whose recipe is gone are dropped from the build, as `iwr suite build` does
            chosen = ids if cfg.only or cfg.limit is not None else None
            report = build_recipes(source.name, source.files, source.root, jobs=jobs, force=force, only=chosen,
                                   progress=heard, stop=stop, others=source.others, keep_oracle=keep)
            heard("end", report)
        except BaseException as e:  # noqa: BLE001 - handed to the run, which raises it
            heard("crash", e)

    thread = threading.Thread(target=build, name="iwr-build", daemon=True)
    units: list[asyncio.Task] = []
    sem = asyncio.Semaphore(max(1, cfg.workers))
    try:
        browser = await box.get()
        sb = browser_sandbox(browser)
        asked = make_spec(cfg, [], protocol, components, models, browser.version, sb.describe() if sb else "")
        asked = asked.model_copy(update={
            "build": {"suite": source.name, "complete": False, "excluded": {}, "task_hashes": {}},
            "limit": {k: v for k, v in limit.items() if k != "tasks"} if limit else None})
        before = run.read_spec() if run.exists() else None
        if before is not None:
            if before.build is None:
                raise IwrError(f"{run.path}: judged after its suite was built; resume it as it was made")
            # the tasks are compared one by one as they are built again (``_Spec.add``), the rest as on any resume
            asked_as_before = asked.model_copy(update={k: getattr(before, k) for k in ("suite_hash", "task_ids", "build")})
            spec, resumed = run.start(asked_as_before, allow_changed=cfg.allow_changed_config)
            spec = note_sandbox_on_resume(run, spec, asked)
        else:
            spec, resumed = run.start(asked)
        # the tasks judged are those this build hands over (on a resume, each built one again at once)
        record = _Spec(run, spec, cfg.allow_changed_config)
        done = run.done()
        total = len(ids) * len(models)
        todo = total - sum(1 for m in models for i in ids if (m.name, i) in done)
        thread.start()

        async def one(m: Any, t: Task, built_here: bool) -> None:
            judged = None
            if keep and built_here and m.name == "oracle":
                judged = await asyncio.to_thread(_kept, oracle_dir(source.root) / t.id, t, judge_of,
                                                 getattr(m, "recipes", None))
            async with sem:
                emit(progress, UnitStarted(model=m.name, task=t.id))
                res = await run_unit(box, m, t, run, protocol, components, cfg.options, cfg.retries, judged)
                if res is not None:
                    run.append(res)
                emit(progress, UnitDone(model=m.name, task=t.id, result=res))

        while True:
            kind, info = await events.get()
            if kind == "crash":
                raise info
            if kind == "end":
                break
            if kind == "start":
                emit(progress, BuildStarted(total=info["total"], todo=info["todo"], reused=info["reused"],
                                            jobs=max(1, min(jobs or default_jobs(), info["todo"] or 1, MAX_JOBS)),
                                            workers=cfg.workers))
                emit(progress, RunStarted(total=total, todo=todo, resumed=resumed, run=str(run.path), limit=limit))
            elif kind in ("ready", "done"):
                tid = info["task"]
                ok, reason = kind == "ready" or info["ok"], "" if kind == "ready" else info["reason"]
                if ok:
                    try:
                        task = await asyncio.to_thread(load_task, source.tasks_dir / tid)
                    except IwrError as e:  # built, and yet unreadable: said, never judged
                        ok, reason = False, f"built, but its folder cannot be read: {e}"
                if ok:
                    record.add(task)
                    units += [asyncio.ensure_future(one(m, task, kind == "done")) for m in models
                              if (m.name, tid) not in done]
                else:
                    record.exclude(tid, reason or "the build failed")
                emit(progress, TaskBuilt(task=tid, ok=ok, reason=reason,
                                         seconds=0.0 if kind == "ready" else info["seconds"], reused=kind == "ready"))
        record.write(complete=True)
        after = max(cfg.workers, workers_after or cfg.workers)
        for _ in range(after - cfg.workers):  # the recordings' cores, to the judge
            sem.release()
        emit(progress, BuildDone(built=len(record.tasks), excluded=dict(record.excluded), workers=after))
        await asyncio.gather(*units)
        if not record.tasks:
            first = next(iter(record.excluded.items()), ("", ""))
            raise IwrError(f"suite {source.name}: no task could be built" + (f" ({first[0]}: {first[1]})" if first[0] else ""))
    finally:
        stop.set()
        for u in units:
            u.cancel()
        await asyncio.gather(*units, return_exceptions=True)
        await box.close()
        if thread.is_alive():
            await asyncio.to_thread(thread.join, 60)
    summary = summarize(run, protocol)
    run.write_summary(summary)
    return summary


def _kept(folder: Path, task: Task, judge: dict, recipes: Any) -> Any:
    """The oracle unit the build kept for ``task`` (``validate.make.kept_oracle``), if it was judged on the source
    the run's oracle serves (the recipe it finds for the task) by the run's judge; else None."""
    from ..validate.make import kept_oracle
    from ..validate.oracle import find_recipe

    try:
        recipe = find_recipe(task.id, recipes)
    except IwrError:
        return None
    return kept_oracle(folder, task, judge, recipe)


def _default_judge(protocol: Any, components: Any) -> bool:
    """Is the run's judge the one a build's oracle replay uses (offline@2, its default components and limits)?"""
    from ..judge.score import JudgeComponents
    from ..protocols import OFFLINE

    if protocol.id != OFFLINE.id:
        return False
    try:
        return components.describe() == JudgeComponents.for_protocol(OFFLINE).describe()
    except Exception:  # noqa: BLE001 - a component that cannot be made here: judged by the run, as always
        return False


def build_and_judge(cfg: EvalConfig, source: BuildSource, **kwargs: Any) -> Summary:
    """``run_pipelined`` from code that has no event loop running."""
    return asyncio.run(run_pipelined(cfg, source, **kwargs))
