"""Leaderboards as text: Markdown (papers), CSV and JSON (scripts), and a terminal table.

All take a summary (``summary.json``'s shape: ``protocol``, ``tasks``, ``leaderboard`` rows
with ``model, tasks, final, ifs, vfs, low_level_visual, high_level_visual, errors`` and, since
iwrbench 0.4, ``final_ci, ifs_ci, vfs_ci, steps_passed, steps_total``; ``adjacent`` and
``memorisation_gap``). Scores are 0-100 with two decimals; a model with no scored task shows ``-``
(empty in CSV, null in JSON). Every score shown with an interval is shown with its n; a summary
written before intervals existed shows ``-`` where they would be.
"""

from __future__ import annotations

import csv
import io
from typing import Any

from ..records import Interval, LeaderboardRow, PairedDifference, ProvenanceGap, Summary
from ..runs.bootstrap import MIN_VERDICT, counting_rule

#: (column title, row key) in the order every table shows them
SCORE_COLUMNS = (("Final", "final"), ("IFS", "ifs"), ("VFS", "vfs"),
                 ("LVS", "low_level_visual"), ("HVS", "high_level_visual"))
#: the scores shown with their 95% interval: (title, row key of the score, row key of its interval)
CI_COLUMNS = (("Final", "final", "final_ci"), ("IFS", "ifs", "ifs_ci"), ("VFS", "vfs", "vfs_ci"))
#: the non-ok statuses, each its own column in CSV and counted in ``errors``
ERROR_STATUSES = ("generation_error", "page_error", "judge_error", "task_error")
TAG_NAMES = {"domain": "domain", "visual_complexity": "visual level", "interaction_complexity": "interaction level",
             "provenance": "provenance"}


def _f(x: Any) -> str:
    return "-" if x is None else f"{x:.2f}"


def ci_text(ci: Interval | None) -> str:
    """``[31.20, 41.00]``, or ``-`` when there is no interval (fewer than 2 scored tasks, an old summary)."""
    return "-" if ci is None else f"[{ci.low:.2f}, {ci.high:.2f}]"


def signed(x: float | None) -> str:
    return "-" if x is None else f"{x:+.2f}"


def steps_text(row: LeaderboardRow) -> str:
    return "-" if row.steps_total is None else f"{row.steps_passed}/{row.steps_total}"


def errors_text(errors: dict[str, int]) -> str:
    return ", ".join(f"{k} {v}" for k, v in sorted(errors.items())) or "-"


def method_text(summary: Summary) -> str:
    """One sentence on how the intervals were made and what n counts."""
    b = summary.bootstrap
    if b is None:
        return "No intervals: this summary was written before iwrbench computed them; `iwr report RUN_DIR` recomputes it."
    return (f"Intervals: {b.level:.0%}, {b.method} ({b.resamples:,} resamples, seed {b.seed}), the row recomputed "
            f"as published on each resample; none below 2 tasks, and no verdict on a difference over fewer than "
            f"{MIN_VERDICT} tasks (too few tasks make the interval too narrow). {counting_rule(summary.protocol)}.")


def adjacent_sentence(d: PairedDifference) -> str:
    """``a`` vs ``b`` as a sentence: the paired difference, its interval and whether the order holds."""
    if d.difference is None:
        return f"{d.model} vs {d.other}: no task scored for both, so they cannot be compared"
    where = f"on the {d.tasks} task(s) both were scored on"
    if d.ci is None:
        return f"{d.model} vs {d.other}: Final {signed(d.difference)} {where}; too few for an interval"
    verdict = ("too few tasks for a verdict" if d.excludes_zero is None
               else "the interval excludes 0: the order holds" if d.excludes_zero
               else "the interval includes 0: not told apart on these tasks")
    return f"{d.model} vs {d.other}: Final {signed(d.difference)} {ci_text(d.ci)} {where}; {verdict}"


def gap_sentence(g: ProvenanceGap) -> str:
    head = (f"{g.model}: famous {_f(g.famous)} (n {g.famous_tasks}) - novel {_f(g.novel)} (n {g.novel_tasks}) = "
            f"{signed(g.difference)}")
    if g.ci is None:
        return f"{head}; too few tasks of one kind for an interval"
    verdict = ("too few tasks of one kind for a verdict" if g.excludes_zero is None
               else "excludes 0" if g.excludes_zero else "includes 0")
    return f"{head} {ci_text(g.ci)} ({verdict})"


def _md(x: str) -> str:
    return x.replace("|", "\\|")


def leaderboard_markdown(summary: Summary) -> str:
    summary = Summary.model_validate(summary)
    lines = [
        f"Leaderboard: protocol {summary.protocol}, {summary.tasks} task(s); "
        "Final = 0.7 IFS + 0.3 VFS, VFS = 0.5 LVS + 0.5 HVS (0-100).",
        "",
        "| # | Model | Final | Final 95% CI | IFS | IFS 95% CI | VFS | VFS 95% CI | LVS | HVS | Steps passed | n | Errors |",
        "|--:|:--|--:|:--|--:|:--|--:|:--|--:|--:|--:|--:|:--|",
    ]
    for i, r in enumerate(summary.leaderboard, start=1):
        scores = " | ".join(f"{_f(getattr(r, k))} | {ci_text(getattr(r, c))}" for _, k, c in CI_COLUMNS)
        lines.append(f"| {i} | {_md(r.model)} | {scores} | {_f(r.low_level_visual)} | {_f(r.high_level_visual)} | "
                     f"{steps_text(r)} | {r.tasks} | {errors_text(r.errors)} |")
    lines += ["", method_text(summary) + " Steps passed: leading steps passed / steps, over the scored tasks."]
    if summary.adjacent:
        lines += ["", "Neighbours on the leaderboard (Final, paired bootstrap over the tasks both were scored on):", "",
                  "| Model | Next down | n | Difference | 95% CI | Excludes 0 |", "|:--|:--|--:|--:|:--|:--|"]
        for d in summary.adjacent:
            ex = "too few tasks" if d.excludes_zero is None else ("yes" if d.excludes_zero else "no")
            lines.append(f"| {_md(d.model)} | {_md(d.other)} | {d.tasks} | {signed(d.difference)} | {ci_text(d.ci)} | {ex} |")
    if summary.memorisation_gap:
        lines += ["", "Novel and famous tasks (Final; the memorisation gap = famous - novel, each kind resampled on its own):", "",
                  "| Model | Novel | n | Famous | n | Gap | 95% CI | Excludes 0 |", "|:--|--:|--:|--:|--:|--:|:--|:--|"]
        for g in summary.memorisation_gap:
            ex = "too few tasks" if g.excludes_zero is None else ("yes" if g.excludes_zero else "no")
            lines.append(f"| {_md(g.model)} | {_f(g.novel)} | {g.novel_tasks} | {_f(g.famous)} | {g.famous_tasks} | "
                         f"{signed(g.difference)} | {ci_text(g.ci)} | {ex} |")
    for tag, groups in summary.by_tag.items():
        lines += ["", f"By {TAG_NAMES.get(tag, tag)} (Final; n = scored tasks of that kind):", "",
                  "| " + TAG_NAMES.get(tag, tag).capitalize() + " | Model | Final | 95% CI | n |", "|:--|:--|--:|:--|--:|"]
        for value, rows in groups.items():
            for r in rows:
                lines.append(f"| {_md(value)} | {_md(r.model)} | {_f(r.final)} | {ci_text(r.final_ci)} | {r.tasks} |")
    return "\n".join(lines) + "\n"


def leaderboard_csv(summary: Summary) -> str:
    """One row per model; the columns of iwrbench 0.3 first, in their order, then the intervals and steps."""
    summary = Summary.model_validate(summary)
    buf = io.StringIO()
    w = csv.writer(buf, lineterminator="\n")
    w.writerow(["rank", "model", *(k for _, k in SCORE_COLUMNS), "tasks", *ERROR_STATUSES,
                *(f"{k}_{end}" for _, k, _c in CI_COLUMNS for end in ("low", "high")), "steps_passed", "steps_total"])

    def num(x: float | None) -> str:
        return "" if x is None else f"{x:.2f}"

    for i, r in enumerate(summary.leaderboard, start=1):
        cis = [getattr(r, c) for _, _k, c in CI_COLUMNS]
        w.writerow([i, r.model, *(num(getattr(r, k)) for _, k in SCORE_COLUMNS),
                    r.tasks, *(r.errors.get(s, 0) for s in ERROR_STATUSES),
                    *(num(None if ci is None else getattr(ci, end)) for ci in cis for end in ("low", "high")),
                    "" if r.steps_passed is None else r.steps_passed, "" if r.steps_total is None else r.steps_total])
    return buf.getvalue()


def leaderboard_json(summary: Summary) -> str:
    return Summary.model_validate(summary).to_json() + "\n"


def summary_text(summary: Summary) -> str:
    """A plain fixed-width leaderboard for terminals and logs (no colour, no box drawing)."""
    summary = Summary.model_validate(summary)
    head = ["#", "model", "Final", "95% CI", "IFS", "95% CI", "VFS", "95% CI", "LVS", "HVS", "steps", "n", "errors"]
    rows = [[str(i), r.model, *(x for _, k, c in CI_COLUMNS for x in (_f(getattr(r, k)), ci_text(getattr(r, c)))),
             _f(r.low_level_visual), _f(r.high_level_visual), steps_text(r), str(r.tasks), errors_text(r.errors)]
            for i, r in enumerate(summary.leaderboard, start=1)]
    widths = [max(len(c) for c in col) for col in zip(head, *rows)]
    left = {1, len(head) - 1}

    def line(cells: list[str]) -> str:
        return "  ".join(c.ljust(w) if j in left else c.rjust(w) for j, (c, w) in enumerate(zip(cells, widths))).rstrip()

    title = f"Leaderboard ({summary.get('protocol')}, {summary.get('tasks')} tasks)"
    out = [title, line(head), line(["-" * w for w in widths])]
    out += [line(r) for r in rows] or ["(no results)"]
    out += ["", method_text(summary)]
    out += [adjacent_sentence(d) for d in summary.adjacent]
    if summary.memorisation_gap:
        out += ["Memorisation gap (Final on famous tasks - on novel ones):"]
        out += [f"  {gap_sentence(g)}" for g in summary.memorisation_gap]
    return "\n".join(out) + "\n"


FORMATS = {"md": ("leaderboard.md", leaderboard_markdown),
           "csv": ("leaderboard.csv", leaderboard_csv),
           "json": ("leaderboard.json", leaderboard_json)}
