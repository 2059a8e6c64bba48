"""``iwr suite build``: record every recipe of a bundled suite into the cache and validate it.

A suite is a folder of recipes in the package (``suites/<name>/*.yaml``, listed by ``suites.catalog``); its built tasks live
in ``$IWR_CACHE/suites/<name>/tasks/<task_id>/``. A task is rebuilt only when its fingerprint
(recipe text, the files of its own site, the recorder's version) changed. Each is recorded as ``iwr record
--strict`` records it: its oracle must pass validation and every cheat page must stay at Final <= 15. A task that
fails on two consecutive recordings is left out, and the build says why.
"""

from __future__ import annotations

import json
import multiprocessing
import os
import shutil
import threading
import time
from concurrent.futures import FIRST_COMPLETED, ProcessPoolExecutor, wait
from dataclasses import dataclass, field
from pathlib import Path
from typing import Callable

from ..errors import IwrError
from ..fileio import atomic_write
from ..suites.catalog import build_root, fingerprint, recipe_files, suites, tasks_dir


@dataclass
class BuildOutcome:
    task_id: str
    ok: bool
    seconds: float
    reason: str = ""
    attempts: int = 1
    reused: bool = False


@dataclass
class BuildReport:
    suite: str
    path: Path
    outcomes: list[BuildOutcome] = field(default_factory=list)

    @property
    def ok(self) -> list[BuildOutcome]:
        return [o for o in self.outcomes if o.ok]

    @property
    def excluded(self) -> list[BuildOutcome]:
        return [o for o in self.outcomes if not o.ok]


def _build_one(recipe_path: str, out: str, work: str, ocr_dir: str | None = None,
               keep_oracle: str | None = None) -> tuple[bool, str, int, float]:
    """Record a recipe as ``iwr record --strict`` does (the oracle replay, then the cheat check: every cheat page at
    Final <= 15); a second recording when the first fails. ``keep_oracle``: the oracle replay judged whole is kept
    there (``make.record_task_async``)."""
    import asyncio

    from ..record.recipe import load_recipe
    from .make import record_task_async

    t0 = time.monotonic()  # the recording's own time, not its wait in the pool's queue
    recipe = load_recipe(recipe_path)
    reason = ""
    for attempt in (1, 2):
        try:
            asyncio.run(record_task_async(recipe, Path(out), force=True, strict=True,
                                          ocr_dir=Path(ocr_dir) if ocr_dir else None,
                                          keep_oracle=Path(keep_oracle) if keep_oracle else None))
            return True, "", attempt, time.monotonic() - t0
        except IwrError as e:
            reason = _one_line(str(e))
        except Exception as e:  # noqa: BLE001 - unforeseen (a browser's time limit on a loaded machine): tried again
            reason = f"{e.__class__.__name__}: {_one_line(str(e))}"
    shutil.rmtree(out, ignore_errors=True)
    return False, reason, 2, time.monotonic() - t0


def _one_line(msg: str, limit: int = 400) -> str:
    """A message as one line (Playwright's errors append a call log of many lines)."""
    first = msg.strip().splitlines()[0] if msg.strip() else ""
    return first[:limit] + ("..." if len(first) > limit else "")


def _save(manifest_f: Path, manifest: dict) -> None:
    atomic_write(manifest_f, json.dumps(manifest, indent=1))


def _built_elsewhere(name: str, task_id: str, fp: str) -> tuple[Path, dict, str] | None:
    """A folder of ``task_id`` built from the same fingerprint for another bundled suite, with its manifest entry."""
    for other in suites():
        if other == name:
            continue
        mf = build_root(other) / "manifest.json"
        try:
            entry = json.loads(mf.read_text()).get(task_id, {}) if mf.is_file() else {}
        except (OSError, ValueError):
            continue
        d = tasks_dir(other) / task_id
        if entry.get("fingerprint") == fp and entry.get("ok") and (d / "task.json").is_file() and not d.is_symlink():
            return d, entry, other
    return None


def build_suite(name: str, *, jobs: int | None = None, force: bool = False, only: list[str] | None = None,
                progress: Callable[[str, dict], None] | None = None, stop: threading.Event | None = None) -> BuildReport:
    """Build the bundled suite ``name`` (``build_recipes`` over its recipe files, into its cache folder)."""
    return build_recipes(name, recipe_files(name), build_root(name), jobs=jobs, force=force, only=only,
                         progress=progress, stop=stop, others=True)


#: recordings at once, at most, whatever is asked: each runs two browsers' passes and can take 2 GB
MAX_JOBS = 4


def default_jobs(cpus: int | None = None) -> int:
    """Tasks recorded at once when nothing else runs: one per core, at most ``MAX_JOBS``."""
    return max(1, min(cpus or os.cpu_count() or 2, MAX_JOBS))


def build_recipes(name: str, files: list[Path], root: Path, *, jobs: int | None = None, force: bool = False,
                  only: list[str] | None = None, progress: Callable[[str, dict], None] | None = None,
                  stop: threading.Event | None = None, others: bool = False, keep_oracle: bool = False) -> BuildReport:
    """Record ``files`` into ``root/tasks/<task_id>`` (``root/manifest.json`` says what is up to date).

    ``progress(kind, info)`` hears ``start`` {total, todo, reused}, then ``ready`` {task} for each task already
    built (before any recording ends), then ``done`` {task, ok, reason, seconds} as each recording ends: a
    caller can use a task as soon as it is ready or done (``runs.pipeline`` judges it then). ``stop`` set: the
    recordings not started are dropped and those running are ended; the report holds what finished.
    ``others``: reuse a task built from the same fingerprint for another bundled suite. ``keep_oracle``: each task
    recorded keeps the oracle unit its validation judged in ``oracle_dir(root)/<task_id>``."""
    tdir = root / "tasks"
    tdir.mkdir(parents=True, exist_ok=True)
    manifest_f = root / "manifest.json"
    manifest = json.loads(manifest_f.read_text()) if manifest_f.is_file() else {}
    report = BuildReport(name, tdir)
    from ..record.recipe import load_recipe

    todo: list[tuple[str, Path, str]] = []
    wanted: set[str] = set()
    for f in files:
        r = load_recipe(f)
        if only and r.id not in only:
            continue
        wanted.add(r.id)
        fp = fingerprint(f)
        entry = manifest.get(r.id, {})
        if not force and entry.get("fingerprint") == fp and entry.get("ok") and (tdir / r.id / "task.json").is_file():
            report.outcomes.append(BuildOutcome(r.id, True, 0.0, reused=True))
            continue
        if others and not force and (done := _built_elsewhere(name, r.id, fp)) is not None:
            # the same recipe, site and recorder, built for another suite (default is drawn from full): copied
            shutil.rmtree(tdir / r.id, ignore_errors=True)
            shutil.copytree(done[0], tdir / r.id, symlinks=True)
            manifest[r.id] = dict(done[1], copied_from=done[2])
            report.outcomes.append(BuildOutcome(r.id, True, 0.0, reused=True))
            continue
        todo.append((r.id, f, fp))
    if not only:  # tasks whose recipe is gone
        for d in tdir.iterdir():
            if d.is_dir() and d.name not in wanted and not d.name.startswith("."):
                shutil.rmtree(d, ignore_errors=True)
                manifest.pop(d.name, None)
    _save(manifest_f, manifest)
    if progress:
        progress("start", {"total": len(files) if not only else len(wanted), "todo": len(todo),
                           "reused": len(report.outcomes)})
        for o in list(report.outcomes):
            progress("ready", {"task": o.task_id})
    jobs = max(1, min(jobs or default_jobs(), len(todo) or 1, MAX_JOBS))
    work = root / "validation"
    if todo and not (stop is not None and stop.is_set()):
        # spawned, not forked: the caller may have threads and a browser of its own (``runs.pipeline`` judges
        # while this builds), which a forked worker would inherit half-way
        ex = ProcessPoolExecutor(max_workers=jobs, mp_context=multiprocessing.get_context("spawn"))
        try:
            futs = {}
            for tid, f, fp in todo:
                t0 = time.monotonic()
                fut = ex.submit(_build_one, str(f), str(tdir / tid), str(work), str(ocr_dir(root)),
                                str(oracle_dir(root) / tid) if keep_oracle else None)
                futs[fut] = (tid, fp, t0)
            pending = set(futs)
            while pending:
                finished, pending = wait(pending, timeout=0.5, return_when=FIRST_COMPLETED)
                if stop is not None and stop.is_set():
                    break
                for fut in finished:
                    tid, fp, t0 = futs[fut]
                    try:
                        ok, reason, attempts, seconds = fut.result()
                    except Exception as e:  # a crash in the worker: report, don't lose the others
                        ok, reason, attempts, seconds = (False, f"{e.__class__.__name__}: {_one_line(str(e))}", 1,
                                                         time.monotonic() - t0)
                    o = BuildOutcome(tid, ok, seconds, reason, attempts)
                    report.outcomes.append(o)
                    manifest[tid] = {"fingerprint": fp, "ok": ok, "reason": reason,
                                     "built": time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime())}
                    _save(manifest_f, manifest)
                    if progress:
                        progress("done", {"task": tid, "ok": ok, "reason": reason, "seconds": o.seconds})
        finally:
            if stop is not None and stop.is_set():
                _end_workers(ex)
            ex.shutdown(wait=True, cancel_futures=True)
    shutil.rmtree(work, ignore_errors=True)
    report.outcomes.sort(key=lambda o: o.task_id)
    return report


def oracle_dir(root: Path) -> Path:
    """Where a build asked to (``build_recipes(keep_oracle=True)``) keeps, per task, the oracle unit its validation
    judged (``make.kept_oracle``), for the run that built it to take instead of judging the source again."""
    return root / "oracle"


def ocr_dir(root: Path) -> Path:
    """Where a build keeps the OCR readings of its tasks' ground truth (``validate.make.cheat_check``), for the
    judge to read instead of reading each checkpoint again (``runs.pipeline``)."""
    return root / "ocr"


def _end_workers(ex: ProcessPoolExecutor) -> None:
    """End the recordings still running (a stopped build): their half-made staging folders are left behind, as a
    kill leaves them, and never read (a task is its folder with a manifest entry)."""
    procs = getattr(ex, "_processes", None) or {}  # the executor's own worker processes (no public handle)
    for p in list(procs.values()):
        try:
            p.terminate()
        except Exception:  # noqa: BLE001 - already gone
            pass


def ensure_built(name: str, progress: Callable[[str, dict], None] | None = None) -> Path:
    """The built suite's task folder, building (only what changed) first."""
    report = build_suite(name, progress=progress)
    if not report.ok:
        raise IwrError(f"suite {name!r}: no task could be built ({report.excluded[0].reason if report.excluded else ''})")
    return report.path
