"""One or more run folders as one set of (model, task) units, merged only when comparable.

Runs merge when they were made on the same suite (``suite_hash``) under the same protocol
(``protocol@version``); anything else would put incomparable numbers in one table, so it is
refused with a one-line ``IwrError``. A model present in several runs keeps one row per run,
labelled ``model (run-folder-name)``: a repeated model is a repetition to compare, not a shard
to average.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path

from ..errors import IwrError
from ..protocols import Protocol, get_protocol
from ..records import RunSpec, Summary, Task, TaskResult
from ..runs.rundir import RunDir
from ..runs.summary import summarize_results


@dataclass
class Unit:
    """One (model, task) result and where its files are."""

    label: str  # the model's row name in the merged leaderboard
    result: TaskResult
    run: RunDir
    spec: RunSpec

    @property
    def model(self) -> str:
        return self.result.model

    @property
    def task_id(self) -> str:
        return self.result.task_id

    @property
    def page_dir(self) -> Path:
        return self.run.page_dir(self.model, self.task_id)

    @property
    def shots_dir(self) -> Path:
        return self.run.shots_dir(self.model, self.task_id)


@dataclass
class RunSet:
    runs: list[tuple[RunDir, RunSpec]]
    protocol: Protocol
    units: list[Unit]
    labels: list[str]  # model labels in the order they first appear
    tasks: dict[str, Task] = field(default_factory=dict)  # ground truth, when the suite is still there
    notes: list[str] = field(default_factory=list)  # what the report could not show, and why

    @property
    def suite(self) -> str:
        return self.runs[0][1].suite

    @property
    def suite_hash(self) -> str:
        return self.runs[0][1].suite_hash

    @property
    def task_ids(self) -> list[str]:
        ids: dict[str, None] = {}
        for _, spec in self.runs:
            ids.update(dict.fromkeys(spec.task_ids))
        for u in self.units:
            ids.setdefault(u.task_id, None)
        return list(ids)

    def results(self) -> list[TaskResult]:
        """Every result with its model renamed to its row label."""
        return [u.result if u.label == u.model else u.result.model_copy(update={"model": u.label}) for u in self.units]

    def summary(self) -> Summary:
        """summary.json's record, over the merged runs."""
        return summarize_results(self.results(), self.protocol, suite=self.suite, suite_hash=self.suite_hash,
                                 runs=[str(rd.path) for rd, _ in self.runs])

    def unit(self, label: str, task_id: str) -> Unit | None:
        return next((u for u in self.units if u.label == label and u.task_id == task_id), None)


def load_runs(run_dirs: list[Path | str], *, load_tasks: bool = True) -> RunSet:
    """Read and merge run folders; raises ``IwrError`` when they cannot be compared."""
    if not run_dirs:
        raise IwrError("no run folder given")
    runs: list[tuple[RunDir, RunSpec]] = []
    seen: set[Path] = set()
    for d in run_dirs:
        rd = RunDir(d)
        key = rd.path.resolve()
        if key in seen:
            continue
        seen.add(key)
        runs.append((rd, rd.read_spec()))
    first_dir, first = runs[0]
    for rd, spec in runs[1:]:
        if spec.protocol != first.protocol:
            raise IwrError(f"cannot merge runs: {first_dir.path} was judged under {first.protocol} "
                           f"but {rd.path} under {spec.protocol}; report them separately")
        if spec.suite_hash != first.suite_hash:
            raise IwrError(f"cannot merge runs: {first_dir.path} and {rd.path} were made on different suites "
                           f"(suite hash {first.suite_hash} vs {spec.suite_hash}); report them separately")
    protocol = get_protocol(first.protocol)

    per_run = [(rd, spec, list(rd.results().values())) for rd, spec in runs]
    runs_of: dict[str, list[int]] = {}
    for i, (_, _, results) in enumerate(per_run):
        for m in dict.fromkeys(r.model for r in results):
            runs_of.setdefault(m, []).append(i)
    names = _run_names([rd for rd, _ in runs])

    units: list[Unit] = []
    labels: dict[str, None] = {}
    for i, (rd, spec, results) in enumerate(per_run):
        order = {m: k for k, m in enumerate(spec.models)}
        task_order = {t: k for k, t in enumerate(spec.task_ids)}
        results.sort(key=lambda r: (order.get(r.model, len(order)), r.model, task_order.get(r.task_id, 1 << 30), r.task_id))
        for r in results:
            label = r.model if len(runs_of[r.model]) == 1 else f"{r.model} ({names[i]})"
            labels.setdefault(label, None)
            units.append(Unit(label=label, result=r, run=rd, spec=spec))

    rs = RunSet(runs=runs, protocol=protocol, units=units, labels=list(labels))
    if load_tasks:
        rs.tasks, note = _load_tasks(first, rs.task_ids)
        if note:
            rs.notes.append(note)
    return rs


def _run_names(dirs: list[RunDir]) -> list[str]:
    names = [rd.path.resolve().name or str(rd.path) for rd in dirs]
    if len(set(names)) == len(names):
        return names
    return [f"run {i + 1}: {n}" for i, n in enumerate(names)]


def _load_tasks(spec: RunSpec, task_ids: list[str]) -> tuple[dict[str, Task], str | None]:
    """The suite's tasks (for checkpoints, frames and descriptions), or why they are missing."""
    from ..tasks import load_suite, suite_hash

    path = Path(spec.suite)
    if not path.exists():
        return {}, (f"the suite {spec.suite} is not on this machine any more: ground-truth checkpoints, "
                    "video frames and action descriptions from it are not shown")
    try:
        tasks = load_suite(path, require_video=False)
    except IwrError as e:
        return {}, f"the suite could not be loaded ({e}): ground truth is not shown"
    wanted = set(task_ids)
    tasks = [t for t in tasks if t.id in wanted]
    from ..tasks.files import containment_problems

    # the report copies checkpoints, composites and frames: never from outside a task's folder
    unsafe = {t.id: p[0] for t in tasks if (p := containment_problems(t))}
    by_id = {t.id: t for t in tasks if t.id not in unsafe}
    note = None
    if unsafe:
        why = next(iter(unsafe.values()))
        return by_id, f"ground truth of task(s) {', '.join(sorted(unsafe))} is not shown ({why})"
    if len(tasks) == len(wanted) and suite_hash(tasks) != spec.suite_hash:
        note = (f"the suite at {spec.suite} changed since the run (hash {suite_hash(tasks)}, run made on "
                f"{spec.suite_hash}): the ground truth shown may not be what was judged")
    elif len(tasks) < len(wanted):
        missing = sorted(wanted - set(by_id))
        note = f"task(s) {', '.join(missing)} are no longer in {spec.suite}: their ground truth is not shown"
    return by_id, note
