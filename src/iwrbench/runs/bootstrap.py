"""How sure a score is: bootstrap intervals over tasks, paired differences, the memorisation gap.

Why a bootstrap over tasks: the tasks of a suite are a sample of the sites a model could be asked to
rebuild, and a model's per-task Final spreads widely (tens of points), so a mean over 32 or 120 tasks
moves by several points with the draw of the tasks. A resample draws the scored tasks with replacement
and recomputes the row exactly as the leaderboard does (``protocols.leaderboard_row``: means of IFS, LVS
and HVS over the tasks, then VFS and Final from those means); the 95% interval is the 2.5th to the 97.5th
percentile of the recomputed values over ``RESAMPLES`` resamples. The generator is seeded (``SEED``), so
the same results always give the same interval, whatever order they were written in (tasks are sorted by
id first).

- A model's row: its scored tasks (``scored``: what the protocol counts; a generation error scores 0 under
  ``offline@2`` and is left out under ``iwr-bench@1``, judge and task errors are always left out).
- Two models (the leaderboard's neighbours, ``iwr compare``): paired over the tasks both were scored on;
  every resample draws those tasks once and recomputes both rows on them, so what the two share (a hard
  task, an easy one) cancels. Two identical models differ by exactly 0 in every resample.
- The memorisation gap (famous minus novel): the two groups hold different tasks, so each is resampled on
  its own and the difference of the two recomputed rows is taken (an unpaired, stratified bootstrap).

A percentile bootstrap over few tasks is too narrow (it cannot see the spread of tasks it never drew; at
n = 10 a 95% interval covers the truth about nine times in ten, at n = 30 about 93 in 100): below
``MIN_TASKS`` no interval is given, every interval is shown with its n, and whether a difference excludes 0
is said only from ``MIN_VERDICT`` tasks on (each kind, for the gap); below, ``excludes_zero`` is None.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass

import numpy as np

from ..protocols import W_HVS, W_IFS, W_LVS, W_VFS, PROTOCOLS, unscored
from ..records import Bootstrap, Interval, PairedDifference, ProvenanceGap, TaskResult

#: resamples per interval (10,000: the interval's ends move by less than 0.1 point between seeds at n = 32)
RESAMPLES = 10_000
SEED = 0
LEVEL = 0.95
#: fewer scored tasks than this: no interval (a resample of one task is that task: a width of 0 that says nothing)
MIN_TASKS = 2
#: fewer tasks than this (in each group of a gap): the interval is shown, but no verdict on 0 is drawn from it
MIN_VERDICT = 10
#: resampled task draws held in memory at once (resamples x tasks), so a suite of thousands of tasks stays small
_CHUNK = 2_000_000
METRICS = ("final", "ifs", "vfs")


def settings(resamples: int = RESAMPLES, seed: int = SEED) -> Bootstrap:
    return Bootstrap(resamples=resamples, level=LEVEL, seed=seed)


def scored(results: Iterable[TaskResult]) -> list[TaskResult]:
    """The results a model's row is computed over, sorted by task id (see the module docstring)."""
    return sorted((r for r in results if r.status != "task_error" and not unscored(r)), key=lambda r: r.task_id)


def counting_rule(protocol: str) -> str:
    """How units that are not ``ok`` count under ``protocol``, said for people."""
    p = PROTOCOLS.get(protocol)
    gen = ("a generation_error (no usable page) is left out, as published" if p is not None and not p.scores_generation_errors
           else "a generation_error (no usable page) scores 0 and counts")
    return (f"n = scored tasks: {gen}; a page_error is scored on what ran; judge_error (ours) and task_error (a "
            "broken task) are left out")


def _matrix(results: Sequence[TaskResult]) -> np.ndarray:
    """(tasks, 3): IFS, LVS, HVS of each task, as the row reads them (a missing score is 0)."""
    return np.array([[r.ifs or 0.0, r.low_level_visual or 0.0, r.high_level_visual or 0.0] for r in results],
                    dtype=np.float64).reshape(len(results), 3)


def _rows(means: np.ndarray) -> dict[str, np.ndarray]:
    """Final, IFS and VFS of rows whose mean IFS, LVS and HVS are ``means`` (k, 3): ``protocols.combine``."""
    ifs, lvs, hvs = means[:, 0], means[:, 1], means[:, 2]
    vfs = W_LVS * lvs + W_HVS * hvs
    return {"final": W_IFS * ifs + W_VFS * vfs, "ifs": ifs, "vfs": vfs}


def resampled_rows(m: np.ndarray, rng: np.random.Generator, resamples: int, size: int | None = None) -> dict[str, np.ndarray]:
    """The row recomputed on ``resamples`` draws of ``size`` tasks (default: as many as there are) with replacement
    from the tasks of ``m`` (tasks, 3); each metric an array of ``resamples`` values."""
    n = len(m)
    size = n if size is None else size
    step = max(1, _CHUNK // max(1, size))
    parts = []
    for start in range(0, resamples, step):
        k = min(step, resamples - start)
        parts.append(_means(m, rng.integers(0, n, size=(k, size))))
    return _rows(np.concatenate(parts) if parts else np.zeros((0, 3)))


def _means(m: np.ndarray, idx: np.ndarray) -> np.ndarray:
    """(resamples, columns): each column of ``m`` averaged over the tasks each row of ``idx`` draws (column by
    column: ten times faster than averaging ``m[idx]`` across its middle axis)."""
    return np.stack([col[idx].mean(axis=1) for col in m.T], axis=1)


def _interval(values: np.ndarray) -> Interval:
    lo, hi = np.percentile(values, [100 * (1 - LEVEL) / 2, 100 * (1 + LEVEL) / 2])
    return Interval(low=_r(lo), high=_r(hi))


def _r(x: float) -> float:
    return round(float(x) + 0.0, 2)


@dataclass(frozen=True)
class RowIntervals:
    final: Interval | None
    ifs: Interval | None
    vfs: Interval | None


def row_intervals(results: Iterable[TaskResult], *, resamples: int = RESAMPLES, seed: int = SEED,
                  size: int | None = None) -> RowIntervals:
    """95% intervals of a model's Final, IFS and VFS over its scored tasks (``size``: what they would be with
    that many tasks drawn from the same spread of scores; ``bench/intervals.py``)."""
    tasks = scored(results)
    if len(tasks) < MIN_TASKS or (size is not None and size < MIN_TASKS):
        return RowIntervals(None, None, None)
    rows = resampled_rows(_matrix(tasks), np.random.default_rng(seed), resamples, size)
    return RowIntervals(*(_interval(rows[k]) for k in METRICS))


def paired_difference(model: str, a: Iterable[TaskResult], other: str, b: Iterable[TaskResult], *,
                      metric: str = "final", resamples: int = RESAMPLES, seed: int = SEED,
                      tasks: set[str] | None = None) -> PairedDifference:
    """``model`` minus ``other`` on the tasks both were scored on (only those in ``tasks`` when given), with a
    paired bootstrap interval."""
    sa = {r.task_id: r for r in scored(a)}
    sb = {r.task_id: r for r in scored(b)}
    common = sorted(set(sa) & set(sb) & (tasks if tasks is not None else set(sa)))
    out = PairedDifference(model=model, other=other, metric=metric, tasks=len(common))  # type: ignore[arg-type]
    if not common:
        return out
    ma, mb = _matrix([sa[t] for t in common]), _matrix([sb[t] for t in common])
    va, vb = _rows(ma.mean(axis=0, keepdims=True))[metric][0], _rows(mb.mean(axis=0, keepdims=True))[metric][0]
    out.model_score, out.other_score, out.difference = _r(va), _r(vb), _r(va - vb)
    if len(common) < MIN_TASKS:
        return out
    # one draw of the common tasks for both: stack them side by side and resample the stack
    both = np.concatenate([ma, mb], axis=1)
    rng = np.random.default_rng(seed)
    step = max(1, _CHUNK // len(common))
    diffs = []
    for start in range(0, resamples, step):
        k = min(step, resamples - start)
        means = _means(both, rng.integers(0, len(common), size=(k, len(common))))
        diffs.append(_rows(means[:, :3])[metric] - _rows(means[:, 3:])[metric])
    out.ci = _interval(np.concatenate(diffs))
    out.excludes_zero = out.ci.excludes_zero() if len(common) >= MIN_VERDICT else None
    return out


def provenance_gap(model: str, results: Iterable[TaskResult], *, resamples: int = RESAMPLES,
                   seed: int = SEED) -> ProvenanceGap | None:
    """Final on famous tasks minus Final on novel tasks (None: the model was scored on neither kind)."""
    tasks = scored(results)
    novel = [r for r in tasks if r.tags.get("provenance") == "novel"]
    famous = [r for r in tasks if r.tags.get("provenance") == "famous"]
    if not novel and not famous:
        return None
    out = ProvenanceGap(model=model, novel_tasks=len(novel), famous_tasks=len(famous))
    mn, mf = _matrix(novel), _matrix(famous)
    fn = _rows(mn.mean(axis=0, keepdims=True))["final"][0] if novel else None
    ff = _rows(mf.mean(axis=0, keepdims=True))["final"][0] if famous else None
    out.novel = None if fn is None else _r(fn)
    out.famous = None if ff is None else _r(ff)
    if fn is None or ff is None:
        return out
    out.difference = _r(ff - fn)
    if len(novel) < MIN_TASKS or len(famous) < MIN_TASKS:
        return out
    rng = np.random.default_rng(seed)
    gap = resampled_rows(mf, rng, resamples)["final"] - resampled_rows(mn, rng, resamples)["final"]
    out.ci = _interval(gap)
    out.excludes_zero = out.ci.excludes_zero() if min(len(novel), len(famous)) >= MIN_VERDICT else None
    return out


__all__ = ["RESAMPLES", "SEED", "LEVEL", "MIN_TASKS", "MIN_VERDICT", "RowIntervals", "settings", "scored", "counting_rule",
           "resampled_rows", "row_intervals", "paired_difference", "provenance_gap"]
