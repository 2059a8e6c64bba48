"""What a run tells a progress callback, as typed events.

A callback is ``progress(kind, info)`` (``iwr eval``'s bar, ``iwrbench.evaluate(progress=...)``):
``kind`` is the event's ``KIND`` and ``info`` its fields as a dict, so a callback keeps working when
an event gains a field. The runs build the events below, never the dicts by hand.
"""

from __future__ import annotations

import dataclasses
from dataclasses import dataclass
from typing import Any, Callable, ClassVar

from ..records import TaskResult
from ..timing import left_text

Progress = Callable[[str, dict], None]


@dataclass(frozen=True)
class _Event:
    KIND: ClassVar[str] = ""

    def info(self) -> dict[str, Any]:
        return {f.name: getattr(self, f.name) for f in dataclasses.fields(self)}


@dataclass(frozen=True)
class RunStarted(_Event):
    """Before the first unit: how many units there are and how many are left to do."""

    KIND: ClassVar[str] = "start"
    total: int
    todo: int
    resumed: bool
    run: str
    #: ``--limit``: {n, of, order, tasks}
    limit: dict[str, Any] | None = None
    #: ``--retry-errors``: {units, statuses, changed, left}
    retry: dict[str, Any] | None = None


@dataclass(frozen=True)
class UnitStarted(_Event):
    KIND: ClassVar[str] = "unit_start"
    model: str
    task: str


@dataclass(frozen=True)
class UnitDone(_Event):
    """A unit's row (None: not run, ``--max-cost`` was reached first)."""

    KIND: ClassVar[str] = "unit_done"
    model: str
    task: str
    result: TaskResult | None


@dataclass(frozen=True)
class BuildStarted(_Event):
    """``iwr run`` building while it judges: ``total`` recipes, ``todo`` to record, ``reused`` already built
    (each then ``TaskBuilt`` with ``reused``)."""

    KIND: ClassVar[str] = "build_start"
    total: int
    todo: int
    reused: int
    #: recordings at once, and units judged at once while they run
    jobs: int = 1
    workers: int = 1


@dataclass(frozen=True)
class TaskBuilt(_Event):
    """A task is ready to judge (``ok``), or could not be built (``reason``; it is not judged)."""

    KIND: ClassVar[str] = "task_built"
    task: str
    ok: bool
    reason: str = ""
    seconds: float = 0.0
    reused: bool = False


@dataclass(frozen=True)
class BuildDone(_Event):
    """Every recording has ended: ``built`` tasks judged, ``excluded`` {task: reason} not."""

    KIND: ClassVar[str] = "build_done"
    built: int
    excluded: dict[str, str]
    #: units judged at once from now on (the recordings' cores go to the judge)
    workers: int = 1


ProgressEvent = RunStarted | UnitStarted | UnitDone | BuildStarted | TaskBuilt | BuildDone


class Pace:
    """Tasks built, units judged and the time left of a run that builds while it judges, from its events.

    Time left is the later of two estimates from the pace so far: the recordings left at their mean time per
    task over the jobs, plus one task's units after the last; and every unit left (those of tasks not yet
    built too) at the mean time of a finished unit over the workers. None until a recording and a unit have
    ended (with nothing to record, until a unit has)."""

    def __init__(self, models: int = 1) -> None:
        self.models = max(1, models)
        self.to_build = self.built = self.excluded = 0
        self.building = False
        self.jobs = self.workers = 1
        self.units_total = self.units_done = 0
        self.build_seconds: list[float] = []
        self.unit_seconds: list[float] = []

    def feed(self, kind: str, info: dict[str, Any]) -> None:
        if kind == BuildStarted.KIND:
            self.to_build, self.building = info["total"], info["todo"] > 0
            self.jobs, self.workers = max(1, info.get("jobs", 1)), max(1, info.get("workers", 1))
            self.units_total = max(self.units_total, info["total"] * self.models)
        elif kind == TaskBuilt.KIND:
            if info["ok"]:
                self.built += 1
            else:
                self.excluded += 1
                self.units_total -= self.models
            if not info.get("reused"):
                self.build_seconds.append(float(info.get("seconds") or 0.0))
        elif kind == BuildDone.KIND:
            self.building = False
            self.workers = max(1, info.get("workers", self.workers))
        elif kind == RunStarted.KIND:
            self.units_total = max(self.units_total, info["total"])
            self.units_done = info["total"] - info["todo"]
        elif kind == UnitDone.KIND:
            self.units_done += 1
            r = info.get("result")
            if r is not None and getattr(r, "duration_s", None) is not None:
                self.unit_seconds.append(float(r.duration_s))

    def seconds_left(self) -> float | None:
        left_units = max(0, self.units_total - self.units_done)
        if left_units == 0 and not self.building:
            return 0.0
        if not self.unit_seconds:
            return None
        per_unit = sum(self.unit_seconds) / len(self.unit_seconds)
        judge_left = left_units * per_unit / self.workers
        if not self.building:
            return judge_left
        if not self.build_seconds:
            return None
        recordings_left = max(0, self.to_build - self.built - self.excluded)
        build_left = recordings_left * (sum(self.build_seconds) / len(self.build_seconds)) / self.jobs
        return max(build_left + self.models * per_unit / self.workers, judge_left)

    def line(self) -> str:
        """``built 3/32 (1 excluded) | judged 7/93 | about 12 min 30 s left``."""
        parts = []
        if self.to_build:
            parts.append(f"built {self.built}/{self.to_build}" + (f" ({self.excluded} excluded)" if self.excluded else ""))
        parts.append(f"judged {self.units_done}/{max(self.units_total, self.units_done)}")
        s = self.seconds_left()
        parts.append("time left not known yet" if s is None else (left_text(s) or "about 0 min 00 s left"))
        return " | ".join(parts)


def emit(progress: Progress | None, event: ProgressEvent) -> None:
    if progress is not None:
        progress(event.KIND, event.info())
