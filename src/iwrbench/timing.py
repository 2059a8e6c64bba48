"""Where the time goes: named phases timed by whoever runs them, collected when someone asks.

``with phase("record.main_pass"):`` costs nothing unless a :class:`Timings` collector is active in the current
context (``with Timings() as t:``); then every phase entered in that context (asyncio tasks started inside it
included) adds its wall time to ``t.seconds[name]`` and one to ``t.counts[name]``. Phases nest; each keeps its own
total, so a parent's time includes its children's. ``bench/speed.py`` prints the breakdown of a recording and of
a judged unit from it; the recorder also keeps its own totals in ``reference/record.json``.
"""

from __future__ import annotations

import contextvars
import time
from collections import defaultdict
from contextlib import contextmanager
from typing import Awaitable, Callable, Iterator, TypeVar

T = TypeVar("T")

_ACTIVE: contextvars.ContextVar["Timings | None"] = contextvars.ContextVar("iwr_timings", default=None)


class Timings:
    """Seconds and counts per phase name, for the code run while it is active."""

    def __init__(self) -> None:
        self.seconds: dict[str, float] = defaultdict(float)
        self.counts: dict[str, int] = defaultdict(int)
        self._token: contextvars.Token | None = None

    def __enter__(self) -> "Timings":
        self._token = _ACTIVE.set(self)
        return self

    def __exit__(self, *exc: object) -> None:
        if self._token is not None:
            _ACTIVE.reset(self._token)
            self._token = None

    def add(self, name: str, seconds: float) -> None:
        self.seconds[name] += seconds
        self.counts[name] += 1

    def as_dict(self) -> dict[str, dict[str, float]]:
        return {k: {"seconds": round(v, 3), "count": self.counts[k]} for k, v in sorted(self.seconds.items())}


def active() -> Timings | None:
    return _ACTIVE.get()


@contextmanager
def phase(name: str) -> Iterator[None]:
    """Time the block under ``name`` when a collector is active (else do nothing)."""
    t = _ACTIVE.get()
    if t is None:
        yield
        return
    t0 = time.perf_counter()
    try:
        yield
    finally:
        t.add(name, time.perf_counter() - t0)


async def timed(name: str, aw: Awaitable[T]) -> T:
    """Await ``aw`` timed under ``name`` (as ``phase``)."""
    t = _ACTIVE.get()
    if t is None:
        return await aw
    t0 = time.perf_counter()
    try:
        return await aw
    finally:
        t.add(name, time.perf_counter() - t0)


def left_text(seconds: float | None) -> str:
    """``about 12 min 30 s left``; empty when the time left is not known or under a second."""
    if seconds is None or seconds < 1:
        return ""
    return f"about {int(seconds // 60)} min {int(seconds % 60):02d} s left"


class Pace:
    """Progress lines for ``total`` items done one after another, each with the time left at the pace so far.

    ``line(k, what)`` is said as item ``k`` (1-based) starts: ``[3/40] what (about 12 min 30 s left)``, the items
    not yet done (this one included) at the mean time of those done since the first started; the first line has
    no estimate."""

    def __init__(self, total: int, clock: Callable[[], float] = time.monotonic) -> None:
        self.total = total
        self.clock = clock
        self.t0: float | None = None

    def seconds_left(self, k: int) -> float | None:
        if self.t0 is None or k <= 1:
            return None
        per = (self.clock() - self.t0) / (k - 1)
        return per * (self.total - k + 1)

    def line(self, k: int, what: str) -> str:
        if self.t0 is None:
            self.t0 = self.clock()
        left = left_text(self.seconds_left(k))
        return f"[{k}/{self.total}] {what}" + (f" ({left})" if left else "")


__all__ = ["Timings", "phase", "timed", "active", "left_text", "Pace"]
