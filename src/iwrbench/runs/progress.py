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


ProgressEvent = RunStarted | UnitStarted | UnitDone


def emit(progress: Progress | None, event: ProgressEvent) -> None:
    if progress is not None:
        progress(event.KIND, event.info())
