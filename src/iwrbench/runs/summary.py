"""summary.json: the leaderboard and breakdowns by taxonomy, from results.jsonl (``records.Summary``).

Every row carries its n (``tasks``) and 95% bootstrap intervals of Final, IFS and VFS; the summary adds each
model against its neighbour down the leaderboard (a paired difference) and each model's memorisation gap
(famous minus novel tasks). How they are computed, and why: ``runs.bootstrap``."""

from __future__ import annotations

from collections import defaultdict

from ..protocols import Protocol, leaderboard_row
from ..records import LeaderboardRow, Summary, TaskResult
from . import bootstrap
from .rundir import RunDir

TAGS = ("domain", "visual_complexity", "interaction_complexity", "provenance")


def _sort_key(row: LeaderboardRow) -> tuple:
    return (-(row.final if row.final is not None else -1), row.model)


#: statuses that are listed under errors but never scored (ours, or the task's own fault)
UNSCORED = ("judge_error", "task_error")


def model_row(model: str, results: list[TaskResult]) -> LeaderboardRow:
    """``protocols.leaderboard_row`` over the scored results, with task errors counted too."""
    row = LeaderboardRow.model_validate(leaderboard_row(model, [r for r in results if r.status != "task_error"]))
    broken = sum(1 for r in results if r.status == "task_error")
    if broken:
        row.errors = {**row.errors, "task_error": broken}
    counted = bootstrap.scored(results)
    if counted:
        row.steps_passed = sum(r.steps_passed for r in counted)
        row.steps_total = sum(r.steps_total for r in counted)
    ci = bootstrap.row_intervals(counted)
    row.final_ci, row.ifs_ci, row.vfs_ci = ci.final, ci.ifs, ci.vfs
    return row


def _by_model(results: list[TaskResult]) -> dict[str, list[TaskResult]]:
    by_model: dict[str, list[TaskResult]] = defaultdict(list)
    for r in results:
        by_model[r.model].append(r)
    return by_model


def leaderboard(results: list[TaskResult]) -> list[LeaderboardRow]:
    return sorted((model_row(m, rs) for m, rs in _by_model(results).items()), key=_sort_key)


def by_tag(results: list[TaskResult]) -> dict[str, dict[str, list[LeaderboardRow]]]:
    out: dict[str, dict[str, list[LeaderboardRow]]] = {}
    for tag in TAGS:
        groups: dict[str, list[TaskResult]] = defaultdict(list)
        for r in results:
            v = r.tags.get(tag)
            if v:
                groups[v].append(r)
        if groups:
            out[tag] = {v: leaderboard(rs) for v, rs in sorted(groups.items())}
    return out


def adjacent(board: list[LeaderboardRow], results: list[TaskResult]):
    """Each ranked model against the next one down (Final, paired over the tasks both were scored on)."""
    by_model = _by_model(results)
    ranked = [r.model for r in board if r.final is not None]
    return [bootstrap.paired_difference(a, by_model[a], b, by_model[b]) for a, b in zip(ranked, ranked[1:])]


def memorisation_gap(board: list[LeaderboardRow], results: list[TaskResult]):
    """Per model (leaderboard order), Final on famous tasks minus Final on novel ones, where it has both."""
    by_model = _by_model(results)
    gaps = (bootstrap.provenance_gap(r.model, by_model[r.model]) for r in board)
    return [g for g in gaps if g is not None and g.novel_tasks and g.famous_tasks]


def summarize_results(results: list[TaskResult], protocol: Protocol, *, suite: str | None = None,
                      suite_hash: str | None = None, runs: list[str] | None = None) -> Summary:
    board = leaderboard(results)
    return Summary(protocol=protocol.id, suite=suite, suite_hash=suite_hash, runs=runs,
                   tasks=len({r.task_id for r in results}), leaderboard=board, by_tag=by_tag(results),
                   bootstrap=bootstrap.settings(), adjacent=adjacent(board, results),
                   memorisation_gap=memorisation_gap(board, results))


def summarize(run: RunDir, protocol: Protocol, models: list[str] | None = None) -> Summary:
    results = list(run.results().values())
    if models is not None:
        results = [r for r in results if r.model in models]
    spec = run.read_spec() if run.exists() else None
    return summarize_results(results, protocol, suite=spec.suite if spec else None,
                             suite_hash=spec.suite_hash if spec else None)
