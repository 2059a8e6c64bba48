"""The leaderboard as a terminal table (``iwr eval``, ``iwr run``), with the intervals where they fit.

A model's name is never cut short, and every score keeps its interval: on a wide console the intervals
of Final, IFS and VFS and the steps passed are columns of the table; when they do not fit beside the
name, the table keeps the scores and each model's intervals follow it, one line per model. Then the
table drops its vertical rules, lists the errors under it instead of in a column, and only a name
longer than all the room left folds onto several lines (every character kept).
"""

from __future__ import annotations

from typing import Any

from ..records import Summary
from ._tables import CI_COLUMNS, _f, adjacent_sentence, ci_text, errors_text, gap_sentence, method_text, steps_text


def print_leaderboard(summary: "Summary | dict", title: str = "Leaderboard", console: Any = None) -> None:
    from rich import box
    from rich.console import Console
    from rich.table import Table

    con = console or Console(highlight=False)
    s = Summary.model_validate(summary)
    board = s.leaderboard
    wide_head = ["model", "Final", "95% CI", "IFS", "95% CI", "VFS", "95% CI", "LVS", "HVS", "steps", "n"]
    wide = [[r.model, *(x for _, k, c in CI_COLUMNS for x in (_f(getattr(r, k)), ci_text(getattr(r, c)))),
             _f(r.low_level_visual), _f(r.high_level_visual), steps_text(r), str(r.tasks)] for r in board]
    narrow_head = ["model", "Final", "IFS", "VFS", "LVS", "HVS", "tasks"]
    narrow = [[r.model, _f(r.final), _f(r.ifs), _f(r.vfs), _f(r.low_level_visual), _f(r.high_level_visual),
               str(r.tasks)] for r in board]
    errors = [errors_text(r.errors) if r.errors else "" for r in board]
    name_w = max(len(x) for x in ["model", *(r.model for r in board)])
    # the errors column wraps between its items, never inside one
    errors_w = max(len(x) for x in ["errors", *(e for es in errors for e in es.split(", "))])
    layouts = [(head, rows, compact, in_column) for head, rows in ((wide_head, wide), (narrow_head, narrow))
               for compact, in_column in ((False, True), (True, True), (True, False))]
    for head, rows, compact, in_column in layouts:
        numbers_w = sum(max(len(x) for x in [h, *(r[k] for r in rows)]) for k, h in enumerate(head) if k > 0)
        n = len(head) + in_column
        # rules and padding: boxed 3 a column + 1; compact (no vertical rules, padding collapsed) 2 a column
        room = con.width - numbers_w - (errors_w if in_column else 0) - (2 * n if compact else 3 * n + 1)
        if name_w <= room:
            break
    t = Table(title=f"{title} ({s.protocol}, {s.tasks} tasks)",
              **({"box": box.SIMPLE_HEAD, "collapse_padding": True, "pad_edge": False} if compact else {}))
    t.add_column("model", width=min(name_w, max(room, 8)), overflow="fold")  # a set width is never shrunk
    for col in head[1:]:
        t.add_column(col, justify="right", no_wrap=True)
    if in_column:
        t.add_column("errors", overflow="fold")
    for row, errs in zip(rows, errors):
        t.add_row(*row, *([errs or "-"] if in_column else []))
    con.print(t)

    def say(text: str) -> None:
        con.print(text, markup=False, highlight=False)

    if not in_column:
        for row, errs in zip(rows, errors):
            if errs:
                say(f"errors of {row[0]}: {errs}")
    if head is narrow_head:  # the intervals did not fit as columns: one line per model
        for r in board:
            cis = ", ".join(f"{name} {ci_text(getattr(r, c))}" for name, _k, c in CI_COLUMNS)
            say(f"95% intervals of {r.model}: {cis}; steps passed {steps_text(r)}; n {r.tasks}")
    say(method_text(s))
    for d in s.adjacent:
        say(adjacent_sentence(d))
    if s.memorisation_gap:
        say("Memorisation gap (Final on famous tasks - on novel ones):")
        for g in s.memorisation_gap:
            say(f"  {gap_sentence(g)}")
