"""``iwr suite build``: record every recipe of a bundled suite into the cache and validate it.

A suite is a folder of recipes in the package (``suites/<name>/*.yaml``, listed by ``suites.catalog``); its built tasks live
in ``$IWR_CACHE/suites/<name>/tasks/<task_id>/``. A task is rebuilt only when its fingerprint
(recipe text, the files of its own site, the recorder's version) changed. Each is recorded as ``iwr record
--strict`` records it: its oracle must pass validation and every cheat page must stay at Final <= 15. A task that
fails on two consecutive recordings is left out, and the build says why.
"""

from __future__ import annotations

import json
import os
import shutil
import time
from concurrent.futures import ProcessPoolExecutor, as_completed
from dataclasses import dataclass, field
from pathlib import Path
from typing import Callable

from ..errors import IwrError
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


def _build_one(recipe_path: str, out: str, work: str) -> tuple[bool, str, int]:
    """Record a recipe as ``iwr record --strict`` does (the oracle replay, then the cheat check: every cheat page at
    Final <= 15); a second recording when the first fails."""
    import asyncio

    from ..record.recipe import load_recipe
    from .make import record_task_async

    recipe = load_recipe(recipe_path)
    reason = ""
    for attempt in (1, 2):
        try:
            asyncio.run(record_task_async(recipe, Path(out), force=True, strict=True))
            return True, "", attempt
        except IwrError as e:
            reason = str(e)
    shutil.rmtree(out, ignore_errors=True)
    return False, reason, 2


def _save(manifest_f: Path, manifest: dict) -> None:
    tmp = manifest_f.with_suffix(".tmp")
    tmp.write_text(json.dumps(manifest, indent=1))
    tmp.replace(manifest_f)


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
                progress: Callable[[str, dict], None] | None = None) -> BuildReport:
    files = recipe_files(name)
    root = build_root(name)
    tdir = tasks_dir(name)
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
        if not force and (done := _built_elsewhere(name, r.id, fp)) is not None:
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
    jobs = max(1, min(jobs or max(1, (os.cpu_count() or 2) // 1), len(todo) or 1, 4))
    work = root / "validation"
    if todo:
        with ProcessPoolExecutor(max_workers=jobs) as ex:
            futs = {}
            for tid, f, fp in todo:
                t0 = time.monotonic()
                fut = ex.submit(_build_one, str(f), str(tdir / tid), str(work))
                futs[fut] = (tid, fp, t0)
            for fut in as_completed(futs):
                tid, fp, t0 = futs[fut]
                try:
                    ok, reason, attempts = fut.result()
                except Exception as e:  # a crash in the worker: report, don't lose the others
                    ok, reason, attempts = False, f"{e.__class__.__name__}: {e}", 1
                o = BuildOutcome(tid, ok, time.monotonic() - t0, reason, attempts)
                report.outcomes.append(o)
                manifest[tid] = {"fingerprint": fp, "ok": ok, "reason": reason,
                                 "built": time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime())}
                _save(manifest_f, manifest)
                if progress:
                    progress("done", {"task": tid, "ok": ok, "reason": reason, "seconds": o.seconds})
    shutil.rmtree(work, ignore_errors=True)
    report.outcomes.sort(key=lambda o: o.task_id)
    return report


def ensure_built(name: str, progress: Callable[[str, dict], None] | None = None) -> Path:
    """The built suite's task folder, building (only what changed) first."""
    report = build_suite(name, progress=progress)
    if not report.ok:
        raise IwrError(f"suite {name!r}: no task could be built ({report.excluded[0].reason if report.excluded else ''})")
    return report.path
