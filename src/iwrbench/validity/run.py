"""``iwr validity``: run the validity sets and summarise how far the judge agrees with the truth.

Each set returns :class:`~iwrbench.validity.Verdict` rows; this module runs the chosen sets, writes
``validity.json`` (every row) and ``validity.md`` (the summary tables) into the output folder, and
says whether every set met its criterion:

- ``visibility``: the text reader counts a text as seen exactly when it is painted, on small pages of common
  CSS and their twins hidden by paint alone (``validity/visibility.py``);
- ``todomvc``, ``reconstructions``: the judged prefix equals the truth on every page (agreement), no
  false pass;
- ``markup``: IFS 100 on every verified markup change of the source;
- ``cheats``: Final <= 15 on every task;
- ``oracle``: IFS 100 on every task, the source judged as a model's page;
- ``visual``: the visual score (VFS) ranks each calibration group's candidates as a person did
  (mean Kendall tau-b >= 0.8; ``validity/visual.py``).
"""

from __future__ import annotations

import importlib
import json
import time
from pathlib import Path
from typing import Callable

from . import Verdict

SETS = ("visibility", "oracle", "markup", "cheats", "todomvc", "reconstructions", "visual")
CRITERIA = {
    "visibility": "the reader counts a text as seen exactly when it is painted (label and OCR) on every page",
    "oracle": "IFS 100 on every task (the source judged as a model's page)",
    "markup": "IFS 100 on every verified markup change of the source",
    "cheats": "Final <= 15 on every task",
    "todomvc": "judged prefix == spec-probe truth on every implementation; no false pass",
    "reconstructions": "judged prefix == label by eye on every page; no false pass",
    "visual": "VFS ranks the candidates as a person did: mean Kendall tau-b >= 0.8 over the groups",
}


def run_sets(sets: list[str], tasks_dir: Path | None, out_dir: Path, *, only: list[str] | None = None,
             progress: Callable[[str], None] | None = None) -> dict:
    out_dir.mkdir(parents=True, exist_ok=True)
    rows: list[Verdict] = []
    timing: dict[str, float] = {}
    for name in sets:
        mod = importlib.import_module(f"iwrbench.validity.{name}")
        t0 = time.monotonic()
        if progress:
            progress(f"== {name}: {CRITERIA[name]}")
        rows += mod.run(tasks_dir, out_dir / name, only=only, progress=progress)
        timing[name] = round(time.monotonic() - t0, 1)
    summary = summarise(rows)
    for name, s in summary.items():
        s["seconds"] = timing.get(name)
    data = {"sets": summary, "rows": [r.as_dict() for r in rows]}
    (out_dir / "validity.json").write_text(json.dumps(data, indent=1))
    (out_dir / "validity.md").write_text(markdown(summary, rows))
    from ..suites.ledger import record

    ledger = record(tasks_dir, rows)  # a built suite's folder: what each task met, for `iwr suite stats`
    if ledger is not None and progress:
        progress(f"each task's outcome kept in {ledger}")
    return data


def summarise(rows: list[Verdict]) -> dict[str, dict]:
    out: dict[str, dict] = {}
    for name in dict.fromkeys(r.set for r in rows):
        rs = [r for r in rows if r.set == name]
        judged = [r for r in rs if r.judged is not None]
        s = {"criterion": CRITERIA.get(name, ""), "pages": len(rs), "judged": len(judged),
             "ok": sum(r.ok for r in rs), "not_judged": len(rs) - len(judged),
             "false_pass": sum(r.false_pass for r in rs), "false_fail": sum(r.false_fail for r in rs)}
        if name in ("todomvc", "reconstructions", "visibility"):
            agree = sum(1 for r in judged if r.judged == r.truth)
            s["agreement"] = round(100.0 * agree / len(judged), 1) if judged else None
            batches = sorted({r.extra.get("batch", "") for r in judged} - {""})
            if batches:
                s["by_batch"] = {b: {"pages": sum(1 for r in judged if r.extra.get("batch") == b),
                                     "agree": sum(1 for r in judged if r.extra.get("batch") == b and r.judged == r.truth)}
                                 for b in batches}
        if name == "visual":
            taus = [r.extra["tau"].get("vfs") for r in rs if r.extra.get("tau", {}).get("vfs") is not None]
            s["mean_tau"] = round(sum(taus) / len(taus), 3) if taus else None
            for b in ("tuning", "held-out"):
                bt = [r.extra["tau"]["vfs"] for r in rs if r.extra.get("batch") == b and "vfs" in r.extra.get("tau", {})]
                if bt:
                    s.setdefault("by_batch_tau", {})[b] = {"groups": len(bt), "mean_tau": round(sum(bt) / len(bt), 3)}
            s["met"] = s["mean_tau"] is not None and s["mean_tau"] >= 0.8
            out[name] = s
            continue
        if name == "cheats":
            finals = [r.final for r in judged if r.final is not None]
            s["max_final"] = round(max(finals), 2) if finals else None
        s["met"] = bool(rs) and s["ok"] == len(rs)
        out[name] = s
    return out


def markdown(summary: dict[str, dict], rows: list[Verdict]) -> str:
    lines = ["# Validity of the judge", "", "| set | criterion | pages | met by | agreement | false pass | false fail | max Final |",
             "|---|---|---|---|---|---|---|---|"]
    for name, s in summary.items():
        lines.append(f"| {name} | {s['criterion']} | {s['pages']} | {s['ok']} | "
                     f"{'' if s.get('agreement') is None else str(s['agreement']) + '%'} | {s['false_pass']} | "
                     f"{s['false_fail']} | {'' if s.get('max_final') is None else s['max_final']} |")
    for name, s in summary.items():
        if s.get("mean_tau") is not None:
            lines.append(f"| {name} (Kendall tau-b) | mean over groups {s['mean_tau']}; "
                         + "; ".join(f"{b}: {x['groups']} groups, {x['mean_tau']}" for b, x in (s.get("by_batch_tau") or {}).items())
                         + " | | | | | | |")
        for b, x in (s.get("by_batch") or {}).items():
            lines.append(f"| {name} ({b}) | pages {('labelled after the rules were settled, judged unchanged' if b == 'held-out' else 'seen while the rules were settled')} | "
                         f"{x['pages']} | | {round(100.0 * x['agree'] / max(1, x['pages']), 1)}% | | | |")
    bad = [r for r in rows if not r.ok or r.false_pass or r.false_fail]
    if bad:
        lines += ["", "## Rows that miss their criterion or disagree with the truth (a documented known disagreement meets it)", "", "| set | task | page | judged | truth | IFS | Final | note |",
                  "|---|---|---|---|---|---|---|---|"]
        for r in bad:
            lines.append(f"| {r.set} | {r.task_id} | {r.page} | {r.judged} | {r.truth} | "
                         f"{'' if r.ifs is None else round(r.ifs, 1)} | {'' if r.final is None else round(r.final, 1)} | "
                         f"{r.note.replace('|', '/')[:160]} |")
    return "\n".join(lines) + "\n"
