"""``iwr compare RUN_A RUN_B``: is one run better than the other, or is the difference the draw of the tasks?

Two runs of one suite (a model before and after a change, two settings of one model, two models judged
apart) are compared task by task: the difference of Final, IFS and VFS (A minus B) over the tasks both
scored, with a paired bootstrap interval (``runs.bootstrap.paired_difference``). Pairing is what makes a
small difference visible: a task that is hard for both counts against both in every resample.

What is compared with what: the models of the same name in both runs; else, when each run holds one
model, those two; else the caller names them (``model_a``, ``model_b``). Runs judged under different
protocols are refused (their numbers do not compare). Runs made on different suites (another suite hash:
other tasks, other recordings, another ``--limit``) are refused unless ``intersection=True``, which
compares the task ids both hold and says so: a task re-recorded between the runs keeps its id, so the
caller vouches that the common tasks are the same.
"""

from __future__ import annotations

from pathlib import Path

from ..errors import IwrError
from ..records import Comparison, ModelComparison, TaskResult
from . import bootstrap
from .rundir import RunDir


def _load(path: Path | str) -> tuple[RunDir, object, list[TaskResult]]:
    rd = RunDir(path)
    spec = rd.read_spec()
    return rd, spec, list(rd.results().values())


def _pairs(models_a: list[str], models_b: list[str], model_a: str | None, model_b: str | None) -> list[tuple[str, str]]:
    if model_a or model_b:
        a = model_a or (model_b if model_b in models_a else models_a[0] if len(models_a) == 1 else None)
        b = model_b or (model_a if model_a in models_b else models_b[0] if len(models_b) == 1 else None)
        if a is None or b is None:
            raise IwrError("name both models: --model-a M (in RUN_A) and --model-b M (in RUN_B)")
        for m, have, which in ((a, models_a, "RUN_A"), (b, models_b, "RUN_B")):
            if m not in have:
                raise IwrError(f"{which} has no results of {m!r}; its models: {', '.join(have) or 'none'}")
        return [(a, b)]
    common = [m for m in models_a if m in models_b]
    if common:
        return [(m, m) for m in common]
    if len(models_a) == 1 and len(models_b) == 1:
        return [(models_a[0], models_b[0])]
    raise IwrError(f"the runs share no model (RUN_A: {', '.join(models_a) or 'none'}; RUN_B: "
                   f"{', '.join(models_b) or 'none'}); name the two to compare with --model-a and --model-b")


def compare_runs(run_a: Path | str, run_b: Path | str, *, model_a: str | None = None, model_b: str | None = None,
                 intersection: bool = False, resamples: int = bootstrap.RESAMPLES,
                 seed: int = bootstrap.SEED) -> Comparison:
    rda, spa, ra = _load(run_a)
    rdb, spb, rb = _load(run_b)
    if spa.protocol != spb.protocol:
        raise IwrError(f"cannot compare: {rda.path} was judged under {spa.protocol} but {rdb.path} under "
                       f"{spb.protocol}; their scores do not compare")
    ids_a, ids_b = set(spa.task_ids), set(spb.task_ids)
    common = ids_a & ids_b
    same = spa.suite_hash == spb.suite_hash
    notes: list[str] = []
    if not same:
        what = (f"{rda.path} and {rdb.path} were made on different suites (suite hash {spa.suite_hash} vs "
                f"{spb.suite_hash}; {len(common)} task id(s) in common of {len(ids_a)} and {len(ids_b)})")
        if not common:
            raise IwrError(f"cannot compare: {what}: no task to pair")
        if not intersection:
            raise IwrError(f"cannot compare: {what}; pass --intersection to compare them on the task ids both ran")
        notes.append(f"{what}: compared on the {len(common)} task id(s) both ran, as asked (--intersection); "
                     "a task recorded again between the runs keeps its id, so these may not be the same recordings")
    models_a = list(dict.fromkeys(r.model for r in ra))
    models_b = list(dict.fromkeys(r.model for r in rb))
    for rd, models in ((rda, models_a), (rdb, models_b)):
        if not models:
            raise IwrError(f"cannot compare: {rd.path} has no results yet (nothing judged in it); run or resume it first")
    out = Comparison(run_a=str(rda.path), run_b=str(rdb.path), protocol=spa.protocol, suite_hash_a=spa.suite_hash,
                     suite_hash_b=spb.suite_hash, same_suite=same, common_tasks=len(common),
                     bootstrap=bootstrap.settings(resamples, seed), notes=notes)
    for a, b in _pairs(models_a, models_b, model_a, model_b):
        sa = {r.task_id: r for r in bootstrap.scored(r for r in ra if r.model == a) if r.task_id in common}
        sb = {r.task_id: r for r in bootstrap.scored(r for r in rb if r.model == b) if r.task_id in common}
        mc = ModelComparison(model_a=a, model_b=b, tasks=len(set(sa) & set(sb)),
                             only_a=sorted(set(sa) - set(sb)), only_b=sorted(set(sb) - set(sa)))
        for metric in bootstrap.METRICS:
            mc.differences.append(bootstrap.paired_difference(a, sa.values(), b, sb.values(), metric=metric,
                                                              resamples=resamples, seed=seed))
        out.comparisons.append(mc)
    return out


NAMES = {"final": "Final", "ifs": "IFS", "vfs": "VFS"}


def comparison_text(c: Comparison) -> str:
    """``iwr compare``'s output: per pair of models, A, B and A minus B with its interval, and the verdict."""
    from .bootstrap import counting_rule

    lines = [f"A = {c.run_a}", f"B = {c.run_b}",
             f"protocol {c.protocol}; " + (f"same suite (hash {c.suite_hash_a}): paired by task" if c.same_suite
                                           else f"different suites ({c.suite_hash_a} vs {c.suite_hash_b})")]
    if Path(c.run_a).resolve() == Path(c.run_b).resolve():
        lines.append("note: A and B are the same run folder (every difference is 0)")
    lines += [f"note: {n}" for n in c.notes]
    b = c.bootstrap
    if b is not None:
        lines.append(f"95% intervals of A - B: paired {b.method} ({b.resamples:,} resamples, seed {b.seed}); "
                     f"{counting_rule(c.protocol)}")
    for mc in c.comparisons:
        title = mc.model_a if mc.model_a == mc.model_b else f"{mc.model_a} (A) vs {mc.model_b} (B)"
        lines += ["", f"{title}: {mc.tasks} task(s) scored in both runs"]
        for d in mc.differences:
            if d.difference is None:
                lines.append(f"  {NAMES[d.metric]:5s} no task scored in both runs")
                continue
            head = f"  {NAMES[d.metric]:5s} A {d.model_score:6.2f}  B {d.other_score:6.2f}  A - B {d.difference:+6.2f}"
            if d.ci is None:
                lines.append(f"{head}  (too few tasks for an interval)")
                continue
            if d.excludes_zero is None:
                verdict = f"too few tasks (under {bootstrap.MIN_VERDICT}) for a verdict"
            elif d.excludes_zero:
                verdict = ("A is better" if d.difference > 0 else "B is better") + " (the interval excludes 0)"
            else:
                verdict = "not told apart (the interval includes 0)"
            lines.append(f"{head}  [{d.ci.low:.2f}, {d.ci.high:.2f}]  {verdict}")
        for side, ids in (("A", mc.only_a), ("B", mc.only_b)):
            if ids:
                shown = ", ".join(ids[:8]) + (f" and {len(ids) - 8} more" if len(ids) > 8 else "")
                lines.append(f"  left out: {len(ids)} task(s) scored only in {side}: {shown}")
    return "\n".join(lines) + "\n"


__all__ = ["compare_runs", "comparison_text"]
