"""summary.json: the leaderboard and breakdowns by taxonomy, from results.jsonl (``records.Summary``)."""

from __future__ import annotations

from collections import defaultdict

from ..protocols import Protocol, leaderboard_row
from ..records import LeaderboardRow, Summary, TaskResult
from .rundir import RunDir

TAGS = ("domain", "visual_complexity", "interaction_complexity")


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
    return row


def leaderboard(results: list[TaskResult]) -> list[LeaderboardRow]:
    by_model: dict[str, list[TaskResult]] = defaultdict(list)
    for r in results:
        by_model[r.model].append(r)
    return sorted((model_row(m, rs) for m, rs in by_model.items()), key=_sort_key)


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


def summarize_results(results: list[TaskResult], protocol: Protocol, *, suite: str | None = None,
                      suite_hash: str | None = None, runs: list[str] | None = None) -> Summary:
    return Summary(protocol=protocol.id, suite=suite, suite_hash=suite_hash, runs=runs,
                   tasks=len({r.task_id for r in results}), leaderboard=leaderboard(results), by_tag=by_tag(results))


def summarize(run: RunDir, protocol: Protocol, models: list[str] | None = None) -> Summary:
    results = list(run.results().values())
    if models is not None:
        results = [r for r in results if r.model in models]
    spec = run.read_spec() if run.exists() else None
    return summarize_results(results, protocol, suite=spec.suite if spec else None,
                             suite_hash=spec.suite_hash if spec else None)
