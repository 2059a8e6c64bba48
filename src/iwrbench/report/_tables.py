"""Leaderboards as text: Markdown (papers), CSV and JSON (scripts), and a terminal table.

All take a summary (``summary.json``'s shape: ``protocol``, ``tasks``, ``leaderboard`` rows
with ``model, tasks, final, ifs, vfs, low_level_visual, high_level_visual, errors``). Scores
are 0-100 with two decimals; a model with no scored task shows ``-`` (empty in CSV, null in
JSON).
"""

from __future__ import annotations

import csv
import io
from typing import Any

from ..records import Summary

#: (column title, row key) in the order every table shows them
SCORE_COLUMNS = (("Final", "final"), ("IFS", "ifs"), ("VFS", "vfs"),
                 ("LVS", "low_level_visual"), ("HVS", "high_level_visual"))
#: the non-ok statuses, each its own column in CSV and counted in ``errors``
ERROR_STATUSES = ("generation_error", "page_error", "judge_error", "task_error")


def _f(x: Any) -> str:
    return "-" if x is None else f"{x:.2f}"


def errors_text(errors: dict[str, int]) -> str:
    return ", ".join(f"{k} {v}" for k, v in sorted(errors.items())) or "-"


def leaderboard_markdown(summary: Summary) -> str:
    summary = Summary.model_validate(summary)
    lines = [
        f"Leaderboard: protocol {summary.protocol}, {summary.tasks} task(s); "
        "Final = 0.7 IFS + 0.3 VFS, VFS = 0.5 LVS + 0.5 HVS (0-100).",
        "",
        "| # | Model | " + " | ".join(t for t, _ in SCORE_COLUMNS) + " | Tasks | Errors |",
        "|--:|:--|" + "--:|" * len(SCORE_COLUMNS) + "--:|:--|",
    ]
    for i, r in enumerate(summary.leaderboard, start=1):
        model = r.model.replace("|", "\\|")
        scores = " | ".join(_f(getattr(r, k)) for _, k in SCORE_COLUMNS)
        lines.append(f"| {i} | {model} | {scores} | {r.tasks} | {errors_text(r.errors)} |")
    return "\n".join(lines) + "\n"


def leaderboard_csv(summary: Summary) -> str:
    summary = Summary.model_validate(summary)
    buf = io.StringIO()
    w = csv.writer(buf, lineterminator="\n")
    w.writerow(["rank", "model", *(k for _, k in SCORE_COLUMNS), "tasks", *ERROR_STATUSES])
    for i, r in enumerate(summary.leaderboard, start=1):
        w.writerow([i, r.model, *("" if getattr(r, k) is None else f"{getattr(r, k):.2f}" for _, k in SCORE_COLUMNS),
                    r.tasks, *(r.errors.get(s, 0) for s in ERROR_STATUSES)])
    return buf.getvalue()


def leaderboard_json(summary: Summary) -> str:
    return Summary.model_validate(summary).to_json() + "\n"


def summary_text(summary: Summary) -> str:
    """A plain fixed-width leaderboard for terminals and logs (no colour, no box drawing)."""
    summary = Summary.model_validate(summary)
    head = ["#", "model", *(t for t, _ in SCORE_COLUMNS), "tasks", "errors"]
    rows = [[str(i), r.model, *(_f(getattr(r, k)) for _, k in SCORE_COLUMNS), str(r.tasks), errors_text(r.errors)]
            for i, r in enumerate(summary.leaderboard, start=1)]
    widths = [max(len(c) for c in col) for col in zip(head, *rows)]
    left = {1, len(head) - 1}

    def line(cells: list[str]) -> str:
        return "  ".join(c.ljust(w) if j in left else c.rjust(w) for j, (c, w) in enumerate(zip(cells, widths))).rstrip()

    title = f"Leaderboard ({summary.get('protocol')}, {summary.get('tasks')} tasks)"
    out = [title, line(head), line(["-" * w for w in widths])]
    out += [line(r) for r in rows] or ["(no results)"]
    return "\n".join(out) + "\n"


FORMATS = {"md": ("leaderboard.md", leaderboard_markdown),
           "csv": ("leaderboard.csv", leaderboard_csv),
           "json": ("leaderboard.json", leaderboard_json)}
