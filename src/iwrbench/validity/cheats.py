"""The validity set ``cheats``: every cheat page (``generate/cheats.py``) judged on every task; each must score
Final <= 15.

Rows (``Verdict``, set ``cheats``, page = the kind): ``judged`` = steps passed, ``truth`` = None
(a cheat has no behaviour to be right about), ``ok`` = Final <= 15, ``note`` = where it was
stopped and by what (grounding, an action that did not execute, the evidence that failed).

Try it: ``python -m iwrbench.validity.cheats --tasks SUITE_DIR --out OUT``.
"""

from __future__ import annotations

import asyncio
from pathlib import Path
from typing import Any, Callable

from ..generate.cheats import (FINAL_BOUND, KINDS, MODEL_NAMES, ButtonsCheatModel, Control, FramesCheatModel,
                               TextCheatModel, agenerate, controls, generate)
from ..timing import Pace
from . import Verdict
from ._judge import VerdictLog, load_or_errors, offline_judge, task_dirs

Progress = Callable[[str], None]


# =========================================================================== the set

def _stopped(result: Any) -> dict[str, Any] | None:
    for s in result.steps:
        if not s.passed:
            d: dict[str, Any] = {"step": s.index, "type": s.type, "executed": s.executed, "error": s.error}
            if s.grounding is not None:
                d["rung"] = s.grounding.rung
            if s.assertion is not None and s.assertion.passed is False:
                d["failed_checks"] = [c.detail for c in s.assertion.checks if not c.passed][:3]
            ev = [e.model_dump(exclude_none=True) for e in getattr(s, "evidence", []) or [] if not e.passed]
            if ev:
                d["evidence"] = ev[:4]
            probes = [p for p in getattr(result, "probes", []) or [] if not p.passed]
            if probes:
                d["probes_failed"] = [p.name for p in probes][:4]
            return d
    return None


def _why(d: dict[str, Any] | None, result: Any) -> str:
    probes = [p for p in getattr(result, "probes", []) or [] if not p.passed and p.cap is not None]
    cap = ""
    if probes:
        cap = " (capped by probe " + ", ".join(f"{p.name}->{p.cap}" for p in probes[:3]) + ")"
    if not d:
        return "passed every step" + cap
    bits = [f"stopped at step {d['step']} {d['type']}"]
    if not d.get("executed"):
        bits.append(str(d.get("error") or "not executed")[:100])
    if d.get("failed_checks"):
        bits.append("; ".join(str(x) for x in d["failed_checks"]))
    if d.get("evidence"):
        bits.append("evidence: " + "; ".join(str(e.get("detail") or e.get("kind")) for e in d["evidence"][:3]))
    return ", ".join(bits) + cap


async def _one(browser: Any, task: Any, kind: str, unit: Path, protocol: Any, components: Any) -> Verdict:
    from ..browser.host import PageBundle
    from ..judge.score import judge_unit

    n = len(task.action_sequence)
    info = await agenerate(kind, task, unit / "page")
    res = await judge_unit(browser, task, PageBundle(root=unit / "page"), unit / "judge", protocol, components)
    (unit / "result.json").write_text(res.model_dump_json(indent=1))
    stop = _stopped(res)
    note = _why(stop, res)
    if res.final is None:  # the judge did not score this page (task_error, page_error ...)
        note = f"{res.status}: {res.error or ''}"
    scored = res.final is not None
    return Verdict(set="cheats", task_id=task.id, page=kind, steps=n, judged=res.steps_passed if scored else None,
                   truth=None,
                   ifs=res.ifs, final=res.final, ok=res.final is not None and res.final <= FINAL_BOUND,
                   note=note.strip(),
                   extra={"stopped": stop, "vfs": res.vfs, "status": res.status, "generated": info,
                          "steps_passed_main": getattr(res, "steps_passed_main", None)})


async def run_async(tasks_dir: Path, out_dir: Path, *, only: Any = None, progress: Progress | None = None,
                    kinds: tuple[str, ...] = KINDS, browser: Any = None) -> list[Verdict]:

    out_dir = Path(out_dir)
    out_dir.mkdir(parents=True, exist_ok=True)
    for k in kinds:
        if k not in KINDS:
            raise ValueError(f"unknown cheat {k!r}; known: {', '.join(KINDS)}")
    protocol, components = offline_judge()
    say = progress or (lambda _m: None)
    log = VerdictLog(out_dir / "verdicts.jsonl")

    async def body(get_browser: Callable[[], Any]) -> None:
        dirs = task_dirs(Path(tasks_dir), only)
        pace = Pace(len(dirs))
        for i, d in enumerate(dirs, 1):
            say(pace.line(i, f"cheats {d.name}"))
            b = await get_browser()
            task, vs = load_or_errors(d, "cheats", kinds)
            if task is None:
                log.add(vs)
                continue
            n = len(task.action_sequence)
            vs = []
            for k in kinds:
                try:
                    v = await _one(b, task, k, out_dir / task.id / k, protocol, components)
                except Exception as e:  # noqa: BLE001 - one unit never stops the run
                    msg = str(e).strip().splitlines()[0] if str(e).strip() else e.__class__.__name__
                    v = Verdict(set="cheats", task_id=task.id, page=k, steps=n, judged=None, truth=None,
                                note=f"error: {e.__class__.__name__}: {msg[:200]}")
                vs.append(v)
                say(f"  {task.id} {k}: " + (f"Final {v.final:.2f} IFS {v.ifs:.1f} ({v.judged}/{n})"
                                          if v.final is not None and v.ifs is not None else "not scored")
                    + (f" - {v.note}" if v.note else ""))
            log.add(vs)

    return await log.run(body, browser, table)


def run(tasks_dir: Path, out_dir: Path, *, only: Any = None, progress: Progress | None = None,
        kinds: tuple[str, ...] = KINDS) -> list[Verdict]:
    """Generate and judge every cheat on every task of ``tasks_dir`` (Final must stay <= 15)."""
    return asyncio.run(run_async(tasks_dir, out_dir, only=only, progress=progress, kinds=kinds))


def table(verdicts: list[Verdict]) -> str:
    rows = ["| task | cheat | Final | IFS | steps passed | ok (Final <= 15) | where it was stopped |",
            "|---|---|---|---|---|---|---|"]
    for v in verdicts:
        fin = f"{v.final:.2f}" if v.final is not None else "-"
        ifs = f"{v.ifs:.1f}" if v.ifs is not None else "-"
        j = f"{v.judged}/{v.steps}" if v.judged is not None else "-"
        rows.append(f"| {v.task_id} | {v.page} | {fin} | {ifs} | {j} | {'yes' if v.ok else ('NO' if v.final is not None else 'not scored')} | "
                    f"{(v.note or '').replace('|', '/')[:160]} |")
    judged = [v for v in verdicts if v.final is not None]
    rows.append("")
    for k in KINDS:
        ks = [v for v in judged if v.page == k]
        if ks:
            rows.append(f"- {k}: mean Final {sum(v.final for v in ks) / len(ks):.2f}, max "
                        f"{max(v.final for v in ks):.2f}, {sum(not v.ok for v in ks)} of {len(ks)} above {FINAL_BOUND:.0f}")
    return "\n".join(rows) + "\n"


def main(argv: list[str] | None = None) -> int:
    import argparse
    import sys

    ap = argparse.ArgumentParser(prog="python -m iwrbench.validity.cheats",
                                 description="Cheat pages for each task, judged (Final must stay <= 15).")
    ap.add_argument("--tasks", required=True, type=Path, help="a suite folder of task folders (or one task folder)")
    ap.add_argument("--out", required=True, type=Path)
    ap.add_argument("--only", action="append", help="task id (repeatable)")
    ap.add_argument("--kind", action="append", choices=KINDS, help="cheat kind (repeatable; default all)")
    a = ap.parse_args(argv)
    if not a.tasks.is_dir():
        print(f"error: --tasks {a.tasks}: no such folder", file=sys.stderr)
        return 2
    try:
        vs = run(a.tasks, a.out, only=a.only, kinds=tuple(a.kind or KINDS), progress=lambda m: print(m, flush=True))
    except Exception as e:  # noqa: BLE001
        print(f"error: {str(e).splitlines()[0] if str(e) else e.__class__.__name__}", file=sys.stderr)
        return 1
    print(table(vs))
    return 0


__all__ = ["KINDS", "FINAL_BOUND", "MODEL_NAMES", "Control", "controls", "generate", "agenerate", "run", "run_async",
           "FramesCheatModel", "ButtonsCheatModel", "TextCheatModel"]


if __name__ == "__main__":
    raise SystemExit(main())
