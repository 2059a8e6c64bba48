"""The markup validity set: each task's mutants verified, then judged; rows, tables and the command line."""

from __future__ import annotations

import asyncio
import shutil
import time
from pathlib import Path
from typing import Any, Callable

from .. import Verdict
from ...timing import Pace
from .._judge import VerdictLog, load_or_errors, offline_judge, task_dirs
from .names import MUTATIONS, Mut, Progress
from .rewrite import Rewriter
from .server import known_names, serve_mutant, source_server
from .verify import Drive, drive, load_recipe

# =========================================================================== the set

def _first_failure(result: Any) -> dict[str, Any] | None:
    for s in result.steps:
        if s.passed:
            continue
        d: dict[str, Any] = {"step": s.index, "type": s.type, "description": s.description[:100],
                             "executed": s.executed, "error": s.error}
        if s.grounding is not None:
            g = s.grounding
            d["grounding"] = {"rung": g.rung, "tried": [f"{t.rung}:{t.matches}" for t in g.tried],
                              "element": (g.element.model_dump(exclude_none=True) if g.element else None)}
        if s.assertion is not None:
            d["assertion"] = {"text": s.assertion.text, "passed": s.assertion.passed,
                              "failed_checks": [(c.check.model_dump(), c.detail) for c in s.assertion.checks
                                                if not c.passed]}
        ev = [e.model_dump(exclude_none=True) for e in getattr(s, "evidence", []) or [] if not e.passed]
        if ev:
            d["evidence"] = ev[:6]
        return d
    return None


def _why(f: dict[str, Any] | None) -> str:
    if not f:
        return ""
    bits = [f"step {f['step']} {f['type']}"]
    if f.get("grounding") and not f["grounding"].get("rung"):
        bits.append("not grounded (" + ", ".join(f["grounding"]["tried"]) + ")")
    elif f.get("error"):
        bits.append(str(f["error"])[:120])
    if f.get("assertion") and f["assertion"].get("passed") is False:
        fc = f["assertion"].get("failed_checks") or []
        bits.append("assertion failed: " + "; ".join(str(d or c.get("kind")) for c, d in fc[:3]))
    if f.get("evidence"):
        bits.append("evidence failed: " + "; ".join(str(e.get("detail") or e.get("kind")) for e in f["evidence"][:3]))
    return ", ".join(bits)


async def _task_units(browser: Any, task: Any, out: Path, mutations: tuple[str, ...], protocol: Any, components: Any,
                      progress: Progress | None, *, hold: bool = False, recipes: Any = None) -> list[Verdict]:
    from ...browser.core import origin_of
    from ...judge.score import judge_unit
    from ...validate.check import MAX_DIFF_SHARE

    n = len(task.action_sequence)
    say = progress or (lambda _m: None)
    recipe = load_recipe(task, recipes)
    names = known_names(task)
    control: Drive | None = None

    async def get_control(source: Any) -> Drive:
        # the unmutated source through the same server and harness (driven only when needed)
        nonlocal control
        if control is None:
            ctl_rw = Rewriter(Mut(), names)
            with serve_mutant(task, ctl_rw, source=source) as (bundle, _srv):
                control = await drive(browser, task, recipe, bundle.url, {origin_of(bundle.url)}, ctl_rw,
                                      out / "control", hold=hold)
            control.evaluate(task, MAX_DIFF_SHARE)
            say(f"{task.id}: control {'reproduces every checkpoint' if control.ok else 'differs: ' + control.reason}")
        return control

    async def one(m: str, source: Any) -> Verdict:
        rw = Rewriter(Mut.named(m), names)
        unit = out / m
        if unit.exists():
            shutil.rmtree(unit, ignore_errors=True)
        extra: dict[str, Any] = {"verified": False}
        try:
            with serve_mutant(task, rw, source=source) as (bundle, srv):
                dr = await drive(browser, task, recipe, bundle.url, {origin_of(bundle.url)}, rw, unit / "verify",
                                 hold=hold)
                dr.evaluate(task, MAX_DIFF_SHARE)
                if not dr.ok or dr.unsure:  # a failure, or a word gone that the control may still show
                    ctl = await get_control(source)
                    dr.evaluate(task, MAX_DIFF_SHARE, ctl)
                    extra["control"] = ctl.as_dict()
                    if not dr.ok and ctl.stop_at is not None and dr.failed_at is not None \
                            and ctl.stop_at <= dr.failed_at:
                        dr.reason = f"the unmutated source does not replay here either ({ctl.stop_reason})"
                extra.update({"verify": dr.as_dict(), "rewrites": dict(rw.stats), "server_errors": srv.errors[:5]})
                if not dr.ok:
                    say(f"{task.id} {m}: not verified: {dr.reason}")
                    return Verdict(set="markup", task_id=task.id, page=m, steps=n, judged=None, truth=None,
                                   note=f"not verified: {dr.reason}", extra=extra)
                extra["verified"] = True
                t0 = time.monotonic()
                result = await judge_unit(browser, task, bundle, unit / "judge", protocol, components)
                extra["judge_seconds"] = round(time.monotonic() - t0, 1)
        except Exception as e:  # noqa: BLE001 - one unit never stops the run
            msg = str(e).strip().splitlines()[0] if str(e).strip() else e.__class__.__name__
            say(f"{task.id} {m}: error: {msg[:120]}")
            return Verdict(set="markup", task_id=task.id, page=m, steps=n, judged=None, truth=None,
                           note=f"error: {e.__class__.__name__}: {msg[:200]}", extra=extra)
        (unit / "result.json").write_text(result.model_dump_json(indent=1))
        fail = _first_failure(result)
        extra["failed"] = fail
        extra["status"] = result.status
        note = _why(fail) if fail else ""
        if result.status != "ok":
            note = f"{result.status}: {(result.error or '')[:200]} {note}".strip()
        ok = result.ifs is not None and result.ifs >= 100 - 1e-9
        if not ok and result.ifs is not None:
            # is it the mutation? the unmutated source, judged the same way, says
            extra["control_judged"] = await judge_control(source)
        v = Verdict(set="markup", task_id=task.id, page=m, steps=n,
                    judged=result.steps_passed if result.ifs is not None else None, truth=n,
                    ifs=result.ifs, final=result.final, ok=ok, note=note, extra=extra)
        say(f"{task.id} {m}: " + (f"IFS {result.ifs:.1f} ({result.steps_passed}/{n})" if result.ifs is not None
                                  else "not scored") + (f" - {v.note}" if v.note else "")
            + (f" [unmutated source: {extra['control_judged']}/{n}]" if "control_judged" in extra else ""))
        return v

    control_judged: int | None = None

    async def judge_control(source: Any) -> int | None:
        nonlocal control_judged
        if control_judged is None:
            ctl_rw = Rewriter(Mut(), names)
            try:
                with serve_mutant(task, ctl_rw, source=source) as (bundle, _srv):
                    r = await judge_unit(browser, task, bundle, out / "control-judged", protocol, components)
                control_judged = r.steps_passed if r.ifs is not None else -1
            except Exception:  # noqa: BLE001
                control_judged = -1
        return None if control_judged < 0 else control_judged

    verdicts: list[Verdict] = []
    with source_server(task, recipes) as source:  # a served source (Datasette, MkDocs) starts once
        for m in mutations:
            verdicts.append(await one(m, source))
    return verdicts


async def run_async(tasks_dir: Path, out_dir: Path, *, only: Any = None, progress: Progress | None = None,
                    mutations: tuple[str, ...] = MUTATIONS, browser: Any = None, hold: bool = False,
                    recipes: Any = None) -> list[Verdict]:

    out_dir = Path(out_dir)
    out_dir.mkdir(parents=True, exist_ok=True)
    for m in mutations:
        Mut.named(m)
    protocol, components = offline_judge()
    log = VerdictLog(out_dir / "verdicts.jsonl")

    async def body(get_browser: Callable[[], Any]) -> None:
        dirs = task_dirs(Path(tasks_dir), only)
        pace = Pace(len(dirs))
        for i, d in enumerate(dirs, 1):
            if progress:
                progress(pace.line(i, f"markup {d.name}"))
            b = await get_browser()
            task, vs = load_or_errors(d, "markup", mutations)
            if task is not None:
                try:
                    vs = await _task_units(b, task, out_dir / task.id, mutations, protocol, components, progress,
                                           hold=hold, recipes=recipes)
                except Exception as e:  # noqa: BLE001
                    msg = str(e).strip().splitlines()[0] if str(e).strip() else e.__class__.__name__
                    vs = [Verdict(set="markup", task_id=task.id, page=m, steps=len(task.action_sequence), judged=None,
                                  truth=None, note=f"error: {msg[:200]}") for m in mutations]
            log.add(vs)

    return await log.run(body, browser, table)


def run(tasks_dir: Path, out_dir: Path, *, only: Any = None, progress: Progress | None = None,
        mutations: tuple[str, ...] = MUTATIONS, recipes: Any = None) -> list[Verdict]:
    """Mutate, verify and judge every task of ``tasks_dir`` (one Verdict per task and mutation).

    ``only``: task ids to keep; ``recipes``: where the tasks' recipes are when they are not bundled."""
    return asyncio.run(run_async(tasks_dir, out_dir, only=only, progress=progress, mutations=mutations,
                                 recipes=recipes))


def table(verdicts: list[Verdict]) -> str:
    rows = ["| task | mutation | verified | IFS | judged/steps | where the judge failed |", "|---|---|---|---|---|---|"]
    for v in verdicts:
        ver = "yes" if v.extra.get("verified") else "no"
        ifs = f"{v.ifs:.1f}" if v.ifs is not None else "-"
        j = f"{v.judged}/{v.steps}" if v.judged is not None else "-"
        rows.append(f"| {v.task_id} | {v.page} | {ver} | {ifs} | {j} | {(v.note or '').replace('|', '/')[:160]} |")
    judged = [v for v in verdicts if v.judged is not None]
    ok = sum(v.ok for v in judged)
    rows.append("")
    unscored = sum(1 for v in verdicts if v.extra.get("verified") and v.judged is None)
    rows.append(f"{len(judged)} verified mutants judged, {ok} kept IFS 100"
                + (f", {unscored} verified but not scored by the judge" if unscored else "")
                + f"; {sum(1 for v in verdicts if not v.extra.get('verified'))} not verified.")
    return "\n".join(rows) + "\n"


def main(argv: list[str] | None = None) -> int:
    import argparse
    import sys

    ap = argparse.ArgumentParser(prog="python -m iwrbench.validity.markup",
                                 description="Markup mutants of each task's source: verified without the judge, "
                                             "then judged (IFS must stay 100).")
    ap.add_argument("--tasks", required=True, type=Path, help="a suite folder of task folders (or one task folder)")
    ap.add_argument("--out", required=True, type=Path)
    ap.add_argument("--only", action="append", help="task id (repeatable)")
    ap.add_argument("--mutation", action="append", choices=MUTATIONS, help="mutation (repeatable; default all)")
    ap.add_argument("--oracle-recipes", type=Path, help="recipes of tasks that are not in a bundled suite")
    a = ap.parse_args(argv)
    if not a.tasks.is_dir():
        print(f"error: --tasks {a.tasks}: no such folder", file=sys.stderr)
        return 2
    try:
        vs = run(a.tasks, a.out, only=a.only, mutations=tuple(a.mutation or MUTATIONS),
                 progress=lambda m: print(m, flush=True), recipes=a.oracle_recipes)
    except Exception as e:  # noqa: BLE001
        print(f"error: {str(e).splitlines()[0] if str(e) else e.__class__.__name__}", file=sys.stderr)
        return 1
    print(table(vs))
    return 0
