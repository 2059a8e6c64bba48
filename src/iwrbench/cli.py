"""The ``iwr`` command. Thin: parses arguments, calls the library, prints.

Every user-facing failure is an ``IwrError``: one line on stderr, exit code 2, no traceback.
Anything else that escapes a command (a bug of ours) is also one line, exit code 3; set
``IWR_DEBUG=1`` to see its traceback.
"""

from __future__ import annotations

import argparse
import contextlib
import datetime as dt
import json
import os
import sys
import time
from pathlib import Path
from typing import TYPE_CHECKING, Any, Callable

from .version import __version__
from .errors import IwrError
from .timing import left_text

if TYPE_CHECKING:
    from .records import Summary

EXIT_USAGE = 2
EXIT_FAILED = 1
EXIT_INTERNAL = 3


# --------------------------------------------------------------------------- output helpers


def _console():
    from rich.console import Console

    return Console(stderr=False, highlight=False)


class _Bar:
    """A rich progress bar fed by library progress callbacks."""

    def __init__(self, label: str):
        from rich.progress import (BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeElapsedColumn,
                                   TimeRemainingColumn)

        self.p = Progress(TextColumn("[bold]{task.description}"), BarColumn(), MofNCompleteColumn(),
                          TimeElapsedColumn(), TextColumn("left"), TimeRemainingColumn(),
                          TextColumn("{task.fields[note]}"), transient=False,
                          console=_console(), disable=not sys.stdout.isatty() and not os.environ.get("IWR_PROGRESS"))
        self.label = label
        self.task = None
        self.plain = not sys.stdout.isatty()

    def __enter__(self) -> "_Bar":
        self.p.__enter__()
        return self

    def __exit__(self, *exc: Any) -> None:
        self.p.__exit__(*exc)

    def start(self, total: int, note: str = "") -> None:
        self.task = self.p.add_task(self.label, total=total, note=note)
        if self.plain:
            print(f"{self.label}: {total} to do {note}".rstrip(), flush=True)

    def advance(self, note: str = "") -> None:
        if self.task is not None:
            self.p.update(self.task, advance=1, note=note[:60])
            if self.plain:
                t = self.p.tasks[0]
                done, total = int(t.completed), int(t.total or 0)
                left = ""
                if 0 < done < total and t.elapsed:
                    left = left_text(t.elapsed / done * (total - done))  # the pace so far, for what is left
                print(f"  [{done}/{total}] {note}" + (f" ({left})" if left else ""), flush=True)


def print_leaderboard(summary: "Summary | dict", title: str = "Leaderboard", console: Any = None) -> None:
    """The leaderboard as a rich table, with its intervals (``report._terminal``)."""
    from .report._terminal import print_leaderboard as show

    show(summary, title=title, console=console or _console())


# --------------------------------------------------------------------------- commands


class RecordEta:
    """``iwr record``'s progress lines with an estimate of the time left. The video pass names each step (``step
    i/n: ...``) and sets the pace: its remaining steps at the pace so far, a few seconds for assets and the video,
    then the validation (the oracle replay and the cheat check), which takes about ``VALIDATION`` of the recording
    before it (bench/speed.py: 18.9-21.9 s after 27.8-34.2 s on a quiet machine). A second round of probes after
    the video pass gets its own estimate: its passes, a few at a time, each about ``QUICK_PASS`` of the video pass."""

    VALIDATION = 0.65
    ENCODE_S = 3.0
    #: a probe's pass (no pointer moves, no holds for the video) against the video pass's length
    QUICK_PASS = 0.5

    def __init__(self, validate: bool, clock: Callable[[], float] = time.monotonic, out: Callable[[str], None] = print):
        self.validate, self.clock, self.out = validate, clock, out
        self.t0 = clock()
        self.first: float | None = None  # when the video pass's first step began
        self.video_s = 0.0  # the video pass's length at the pace so far

    def _until_done(self, now: float, recording_left: float) -> float:
        """The time left: what is left of the recording, the encoding, then the validation (about ``VALIDATION``
        of the whole recording)."""
        record = now + recording_left + self.ENCODE_S
        return record - now + (self.VALIDATION * record if self.validate else 0.0)

    def __call__(self, msg: str) -> None:
        import re

        m = re.match(r"step (\d+)/(\d+): ", msg)
        later = re.match(r"recording (\d+) probe\(s\) on the source .*?(\d+) passes at a time", msg)
        left = None
        now = self.clock() - self.t0
        if m:
            i, n = int(m.group(1)), int(m.group(2))
            if i == 1:
                self.first = now
            elif self.first is not None and n >= i > 1:
                per = (now - self.first) / (i - 1)
                self.video_s = per * n
                left = self._until_done(now, per * (n - i + 1))
        elif later and self.video_s:  # a second round of probes after the video pass: a few quick passes at a time
            k, at_once = int(later.group(1)), max(1, int(later.group(2)))
            left = self._until_done(now, -(-k // at_once) * self.QUICK_PASS * self.video_s)
        elif msg.startswith("validating:"):
            left = self.VALIDATION * now
        text = left_text(left)
        self.out(f"  {msg}" + (f" ({text})" if text else ""))


def cmd_record(a: argparse.Namespace) -> int:
    from .record.recipe import load_recipe
    from .validate.make import record_task

    recipe = load_recipe(a.recipe)
    out = Path(a.out)
    if out.exists() and not a.force and (not out.is_dir() or any(out.iterdir())):
        raise IwrError(f"{out} exists and is not empty; pass --force to replace it")
    print(f"recording {recipe.id} ({len(recipe.actions)} action(s)) -> {out}", flush=True)
    done = record_task(recipe, out, validate=a.validate, passes=a.passes, force=a.force, cheats=a.cheats,
                       strict=a.strict, progress=RecordEta(a.validate, out=lambda m: print(m, flush=True)))
    task = done.task
    acts = task.action_sequence
    asserted = sum(1 for x in acts if x.logical_assertion or x.checks)
    written = sum(len(x.checks) for x in acts)
    checked = (f"; oracle replay IFS {done.oracle_ifs:.0f}, {len(done.checkpoints)} visual checkpoint(s) match"
               if done.validated else "; not validated (--no-validate)")
    print(f"wrote {out}: {len(acts)} action(s), {asserted} asserted ({written} hand-written check(s)), "
          f"{len(task.probes)} probe(s), video {task.recording_details.duration_s:.1f}s{checked}")
    if done.cheats:
        worst = max(done.cheats, key=lambda c: -1 if c.final is None else c.final)
        print("cheat check: " + ", ".join(f"{c.cheat} {'-' if c.final is None else f'{c.final:.2f}'}" for c in done.cheats)
              + (" (all <= 15)" if all(c.ok for c in done.cheats) else f"; {worst.cheat} is above 15: see the warning"))
    if done.warnings:
        print(f"{len(done.warnings)} warning(s), printed above and kept in {out / 'reference' / 'record.json'}")
    return 0


def _validate(paths: list[Path], oracle: bool, recipes: list[Path] | None = None) -> int:
    import tempfile

    from .validate.check import validate

    with tempfile.TemporaryDirectory(prefix="iwr-validate-") as tmp:
        results = validate(paths, oracle=oracle, work_dir=Path(tmp), oracle_recipes=recipes)
    bad = 0
    for v in results:
        if v.ok:
            extra = f" oracle IFS {v.ifs:.0f}, {len(v.checkpoints)} visual checkpoints match" if oracle else ""
            print(f"ok    {v.task_id}{extra}")
        else:
            bad += 1
            print(f"FAIL  {v.task_id}: {v.problems[0]}")
            for p in v.problems[1:5]:
                print(f"      {p}")
    if bad:
        print(f"{bad} of {len(results)} task(s) failed validation", file=sys.stderr)
        return EXIT_FAILED
    print(f"{len(results)} task(s) valid" + (" (replayed on their source)" if oracle else ""))
    return 0


def cmd_validate(a: argparse.Namespace) -> int:
    paths: list[Path] = []
    for p in a.tasks:
        p = Path(p)
        if (p / "task.json").is_file() or not p.is_dir():
            paths.append(p)
        else:  # a suite folder
            kids = sorted(d for d in p.iterdir() if (d / "task.json").is_file())
            paths += kids or [p]
    if a.oracle_recipes and not a.oracle:
        raise IwrError("--oracle-recipes is only used with --oracle")
    return _validate(paths, oracle=a.oracle, recipes=[Path(x) for x in a.oracle_recipes or []] or None)


def _options(a: argparse.Namespace):
    """What was typed, as the typed options the Python API takes (``runs.options.EvalOptions``)."""
    from .runs.options import EvalOptions

    return EvalOptions.from_namespace(a)


def _gen_options(a: argparse.Namespace):
    return _options(a).generation()


def _eval_progress(label: str):
    bar = _Bar(label)

    def cb(event: str, info: dict) -> None:
        if event == "start":
            lim = info.get("limit")
            if lim:
                print(f"--limit {lim['n']}: the first {min(lim['n'], lim['of'])} of {lim['of']} tasks "
                      f"(sorted by id): {', '.join(lim['tasks'])}", flush=True)
            retry = info.get("retry")
            if retry is not None:
                how = (f"with changed {', '.join(retry['changed'])} (recorded in run.json)" if retry["changed"]
                       else "with the run's settings")
                print(f"--retry-errors: redoing {retry['units']} unit(s) that failed ({retry['statuses']}) {how}",
                      flush=True)
                if retry.get("left"):
                    print(f"  {retry['left']} unit(s) never run are left for a resume with the run's own settings",
                          flush=True)
            note = f"(resuming: {info['total'] - info['todo']} done)" if info.get("resumed") else ""
            bar.start(info["todo"], note)
        elif event == "unit_done":
            r = info.get("result")
            what = f"{info['model']} / {info['task']}"
            if r is not None:
                what += f": {r.status}" + (f" Final {r.final:.1f}" if r.final is not None else "")
            bar.advance(what)

    return bar, cb


def _run_eval(a: argparse.Namespace, tasks: str, models: list[str], out: Path) -> dict:
    from .api import run_eval

    bar, cb = _eval_progress("evaluating")
    with bar:
        summary = run_eval(tasks, models, out, _options(a), cb)
    return summary  # type: ignore[return-value]


def _dry_run(a: argparse.Namespace, tasks: str, models: list[str]) -> int:
    """``--dry-run``: the plan of each model, from the Python API, printed; nothing is called or written."""
    from .api import run_eval
    from .generate.plan import format_dry_run

    plans = run_eval(tasks, models, None, _options(a))
    lim = plans[0].get("limit") if plans else None  # type: ignore[union-attr]
    if lim:
        print(f"--limit {lim['n']}: the first {len(lim['tasks'])} of {lim['of']} tasks (sorted by id): "
              f"{', '.join(lim['tasks'])}")
    for info in plans:
        print(format_dry_run(info))  # type: ignore[arg-type]  # it starts with the model's name
    return 0


def _say_failed_units(summary: "Summary | dict", out: Path, argv: list[str] | None) -> None:
    """One line on stderr when units failed to generate or to be judged, with the command that redoes them."""
    from .records import Summary
    from .runs.evaluate import RETRY_STATUSES
    from .runs.rundir import RunDir

    board = Summary.model_validate(summary).leaderboard
    n = {s: sum(r.errors.get(s, 0) for r in board) for s in RETRY_STATUSES}
    if not any(n.values()):
        return
    import shlex

    what = " and ".join(f"{v} {s}" for s, v in n.items() if v)
    args = list(argv if argv is not None else sys.argv[1:])
    redo = shlex.join(["iwr", *args] + ([] if "--out" in args else ["--out", str(out)])
                      + ([] if "--retry-errors" in args else ["--retry-errors"]))
    print(f"{what} unit(s): their errors are in {RunDir(out).results_file} and the report; to redo only those "
          f"(settings such as --max-output-tokens may change): {redo}", file=sys.stderr)


def _write_reports(run_dirs: list[Path], html: Path | None) -> Path | None:
    try:
        from .report import write_reports
    except ImportError:
        return None
    return write_reports(run_dirs, html=html)


def _finished(a: argparse.Namespace, out: Path, summary: Any, where: str, failed: bool = True) -> int:
    """What every run command ends with: runs/latest, the leaderboard, the report, where it all is."""
    if not a.out:
        _link_latest(out)
    print_leaderboard(summary)
    rep = _write_reports([out], None)
    print(where + (f"\nreport: {rep}" if rep else ""))
    if failed:
        _say_failed_units(summary, out, getattr(a, "argv", None))
    return 0


def _tasks_path(value: str) -> str:
    """``--tasks``: a path as given; a bundled suite's name (no such path here) its built tasks, or how to build it."""
    if value is None or Path(value).exists():
        return value
    from .suites.catalog import is_built, suites, tasks_dir

    if value in suites():
        if is_built(value):
            return str(tasks_dir(value))
        raise IwrError(f"--tasks {value}: the bundled suite {value} is not built yet; build it with `iwr suite build "
                       f"{value}` (or `iwr run --suite {value}` builds it and judges each task as it is ready)")
    return value


def cmd_eval(a: argparse.Namespace) -> int:
    a.tasks = _tasks_path(a.tasks)
    if a.dry_run:
        return _dry_run(a, a.tasks, a.model)
    _gen_options(a)  # values and -M arguments refused before a run folder is named
    if not Path(a.tasks).exists():
        raise IwrError(f"--tasks {a.tasks}: no such file or folder (a suite folder, a task folder, a data.jsonl, or "
                       "a bundled suite's name: `iwr suite list`)")
    out = _run_out(a)
    return _finished(a, out, _run_eval(a, a.tasks, a.model, out), f"run folder: {out}")


RUNS = Path("runs")


def _run_out(a: argparse.Namespace) -> Path:
    """``--out``, else a new dated folder ``runs/<date-time>`` (said on stdout, with how to resume it)."""
    if a.out:
        return Path(a.out)
    if getattr(a, "retry_errors", False):
        raise IwrError("--retry-errors redoes the failed units of an existing run: name it with --out RUN_DIR")
    stamp = dt.datetime.now().strftime("%Y%m%d-%H%M%S")
    out, k = RUNS / stamp, 2
    while out.exists():  # two runs started in the same second
        out, k = RUNS / f"{stamp}-{k}", k + 1
    print(f"run folder: {out} (no --out given; rerun with --out {out} to resume it)", flush=True)
    return out


def _link_latest(out: Path) -> None:
    """Point ``runs/latest`` at a run made in the default place."""
    latest = RUNS / "latest"
    try:
        if latest.is_symlink() or latest.exists():
            latest.unlink()
        latest.symlink_to(out.name)
    except OSError:
        pass


def cmd_judge(a: argparse.Namespace) -> int:
    from .api import JUDGE_OPTIONS, rejudge

    given = {n: v for n, v in vars(a).items() if n in JUDGE_OPTIONS and v not in (None, False)}
    if not (Path(a.run) / "run.json").is_file():
        raise IwrError(f"{a.run}: not a run folder (no run.json); give the folder of a finished `iwr eval` or `iwr run`")
    _gen_options(a)  # values refused before a run folder is named
    out = _run_out(a)
    bar, cb = _eval_progress("judging again")
    with bar:
        summary = rejudge(a.run, out, tasks=_tasks_path(a.tasks), progress=cb, **given)
    return _finished(a, out, summary.raw, f"run folder: {out} (the pages of {a.run}, judged again; rerun with --out "
                                          f"{out} to resume it or redo its judge errors)", failed=False)


def cmd_run(a: argparse.Namespace) -> int:
    """The --suite built and judged at once (``runs.pipeline``); with --tasks, those tasks judged; where a run
    cannot build while it judges (``pipeline.refused``), built first and judged after."""
    tasks = a.tasks
    out: Path | None = None
    if tasks is None and not a.dry_run:
        from .runs.pipeline import refused

        out = _run_out(a)
        cfg = _options(a).config("", a.model, out)
        why = refused(cfg)
        if why is None:
            return _finished(a, out, _run_pipelined(a, cfg), f"summary: {out / 'summary.json'}")
        print(f"building the suite first, then judging ({why})", flush=True)
    if tasks is None:
        print(f"suite {a.suite}: building what is missing (cached under {os.environ.get('IWR_CACHE', '~/.cache/iwrbench')})",
              flush=True)
        tasks = str(_build_with_bar(a.suite, jobs=a.jobs, force=False))
    if a.dry_run:
        return _dry_run(a, tasks, a.model)
    out = out or _run_out(a)
    from .runs.rundir import RunDir

    return _finished(a, out, _run_eval(a, tasks, a.model, out), f"summary: {RunDir(out).summary_file}")


class _PipeBar:
    """``iwr run``'s progress while it builds and judges: one bar of units judged, with tasks built and the time
    left of both (``runs.progress.Pace``); without a terminal, one line per event."""

    def __init__(self, suite: str, models: int):
        from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeElapsedColumn

        from .runs.progress import Pace

        self.suite = suite
        self.pace = Pace(models)
        self.plain = not sys.stdout.isatty()
        self.p = Progress(TextColumn("[bold]judged"), BarColumn(), MofNCompleteColumn(), TimeElapsedColumn(),
                          TextColumn("{task.fields[status]}"), TextColumn("{task.fields[note]}"), console=_console(),
                          disable=self.plain and not os.environ.get("IWR_PROGRESS"))
        self.task: Any = None

    def __enter__(self) -> "_PipeBar":
        self.p.__enter__()
        return self

    def __exit__(self, *exc: Any) -> None:
        self.p.__exit__(*exc)

    def say(self, text: str) -> None:
        if self.plain:
            print(text, flush=True)
        else:
            self.p.console.print(text, highlight=False, markup=False)

    def __call__(self, kind: str, info: dict) -> None:
        self.pace.feed(kind, info)
        status = self.pace.line()
        if kind == "build_start":
            self.say(f"suite {self.suite}: {info['todo']} task(s) to record, {info['jobs']} at once, "
                     f"{info['reused']} already built; each is judged as soon as it is built "
                     f"({info['workers']} unit(s) at once)")
        elif kind == "start":
            lim = info.get("limit")
            if lim:
                self.say(f"--limit {lim['n']}: the first {len(lim['tasks'])} of {lim['of']} tasks (sorted by id): "
                         f"{', '.join(lim['tasks'])}")
            note = f"(resuming: {info['total'] - info['todo']} done)" if info.get("resumed") else ""
            self.task = self.p.add_task("judged", total=info["total"], status=status, note=note)
        elif kind == "task_built" and not info.get("reused"):
            what = "built" if info["ok"] else "EXCLUDED (not judged)"
            self.say(f"  {info['task']}: {what} in {info['seconds']:.0f}s"
                     + ("" if info["ok"] else f": {info['reason'][:200]}") + f"  [{status}]")
        elif kind == "build_done":
            self.say(f"suite {self.suite}: every recording ended, {info['built']} task(s) built"
                     + (f", {len(info['excluded'])} excluded" if info["excluded"] else "")
                     + f"; judging {info['workers']} unit(s) at once  [{status}]")
        elif kind == "unit_done":
            r = info.get("result")
            what = f"{info['model']} / {info['task']}"
            if r is not None:
                what += f": {r.status}" + (f" Final {r.final:.1f}" if r.final is not None else "")
            if self.plain:
                print(f"  {what}  [{status}]", flush=True)
        if self.task is not None:
            if kind == "task_built" and not info["ok"]:
                self.p.update(self.task, total=max(0, (self.p.tasks[0].total or 0) - self.pace.models))
            self.p.update(self.task, advance=1 if kind == "unit_done" else 0, status=status,
                          note=(info.get("task", "") if kind in ("unit_done", "task_built") else ""))


def _run_pipelined(a: argparse.Namespace, cfg: Any) -> Any:
    """Build the --suite and judge each task as soon as it is built (``runs.pipeline``)."""
    import asyncio

    from .runs.pipeline import BuildSource, run_pipelined, split_cores

    source = BuildSource.named(a.suite)
    jobs, cfg.workers, after = split_cores(os.cpu_count() or 2, a.jobs, a.workers)
    print(f"suite {a.suite}: building what is missing (cached under "
          f"{os.environ.get('IWR_CACHE', '~/.cache/iwrbench')}) and judging each task once built", flush=True)
    bar = _PipeBar(a.suite, len(cfg.models))
    with bar:
        summary = asyncio.run(run_pipelined(cfg, source, jobs=jobs, workers_after=after, progress=bar))
    spec_excluded = bar.pace.excluded
    if spec_excluded:
        from .runs.rundir import RunDir

        for tid, why in (RunDir(cfg.out).read_spec().build or {}).get("excluded", {}).items():
            print(f"excluded {tid} (not built, not judged): {why}", file=sys.stderr)
    return summary


def _build_with_bar(name: str, jobs: int | None, force: bool, only: list[str] | None = None):
    """Build a bundled suite, or a folder of recipes (``iwr run --suite DIR``), with a progress bar."""
    from .runs.pipeline import BuildSource
    from .validate.build import build_recipes

    source = BuildSource.named(name)
    bar = _Bar(f"building suite {name}")
    with bar:
        def cb(event: str, info: dict) -> None:
            if event == "start":
                bar.start(info["todo"], f"({info['reused']} cached)")
            elif event == "done":
                bar.advance(f"{info['task']}: {'ok' if info['ok'] else 'EXCLUDED'} ({info['seconds']:.0f}s)")

        report = build_recipes(source.name, source.files, source.root, jobs=jobs, force=force, only=only,
                               progress=cb, others=source.others)
    for o in report.excluded:
        print(f"excluded {o.task_id}: {o.reason}", file=sys.stderr)
    print(f"suite {name}: {len(report.ok)} task(s) ready in {report.path}"
          + (f", {len(report.excluded)} excluded" if report.excluded else ""), flush=True)
    if not report.ok:
        raise IwrError(f"suite {name}: no task could be built")
    return report.path


def cmd_suite(a: argparse.Namespace) -> int:
    from .suites.catalog import tasks_dir

    if a.suite_cmd == "build":
        _build_with_bar(a.name, a.jobs, a.force, a.task or None)
        return 0
    if a.suite_cmd == "path":
        from .suites.catalog import is_built, recipes_dir

        recipes_dir(a.name)
        print(tasks_dir(a.name))
        if not is_built(a.name):
            print(f"iwr suite path: note: suite {a.name} is not built yet; `iwr suite build {a.name}` builds it there",
                  file=sys.stderr)
        return 0
    if a.suite_cmd == "list":
        from .suites.stats import print_listing

        return print_listing(a.name)
    if a.suite_cmd == "stats":
        from .suites.stats import print_stats

        return print_stats(a.name, as_json=a.json)
    if a.suite_cmd == "table":
        from .suites.stats import suite_table

        text = suite_table(a.name)
        if a.out:
            Path(a.out).write_text(text)
            print(f"wrote {a.out}")
        else:
            print(text)
        return 0
    raise IwrError("usage: iwr suite {build,path,list,stats,table}")


def cmd_report(a: argparse.Namespace) -> int:
    from .report import write_reports

    html = Path(a.html) if a.html else None
    from .runs.rundir import RunDir

    out = write_reports([Path(p) for p in a.runs], html=html, formats=a.format)
    print(f"report: {out}")
    for p in a.runs:
        f = RunDir(p).results_file
        if not f.is_file() or f.stat().st_size == 0:
            print(f"iwr report: warning: {p} has no results yet (nothing judged in it): its rows are empty; run or "
                  "resume it with `iwr eval ... --out` first", file=sys.stderr)
    return 0


def cmd_compare(a: argparse.Namespace) -> int:
    from .runs.compare import compare_runs, comparison_text

    c = compare_runs(a.run_a, a.run_b, model_a=a.model_a, model_b=a.model_b, intersection=a.intersection)
    print(c.model_dump_json(indent=1) if a.json else comparison_text(c).rstrip("\n"))
    return 0


def cmd_prompt(a: argparse.Namespace) -> int:
    from .generate.export import export_request
    from .models.base import GenerationOptions
    from .tasks import load_suite

    tasks = load_suite(_tasks_path(a.task), only=[a.id] if a.id else None)
    if len(tasks) != 1:
        raise IwrError(f"{a.task}: holds {len(tasks)} tasks; name one with --id")
    opts = GenerationOptions()
    for k in ("fps", "max_frames", "max_images", "max_image_side", "prompt_version"):
        v = getattr(a, k, None)
        if v is not None:
            setattr(opts, k, v)
    m = export_request(tasks[0], Path(a.out), opts)
    n = sum(1 for p in m["messages"][0]["content"] if p["type"] == "image")
    print(f"wrote {a.out}: prompt.txt, {n} image(s) in the order a model receives them, request.json")
    return 0


def cmd_validity(a: argparse.Namespace) -> int:
    from .validity.run import SETS, run_sets

    sets = a.set or list(SETS)
    unknown = [s for s in sets if s not in SETS]
    if unknown:
        raise IwrError(f"unknown validity set(s) {', '.join(unknown)}; known: {', '.join(SETS)}")
    tasks = Path(a.tasks) if a.tasks else None
    needs_suite = [s for s in sets if s not in ("reconstructions", "visibility")]
    if tasks is None and needs_suite:
        tasks = _build_with_bar(a.suite, jobs=None, force=False)
    out = Path(a.out)
    data = run_sets(sets, tasks, out, only=a.task, progress=lambda m: print(f"  {m}", flush=True))
    print((out / "validity.md").read_text())
    print(f"rows and evidence: {out}")
    return 0 if all(s["met"] for s in data["sets"].values()) else 1


def cmd_doctor(a: argparse.Namespace) -> int:
    from .doctor import doctor

    return doctor()


def cmd_schema(a: argparse.Namespace) -> int:
    from .record.recipe import Recipe
    from .records import json_schemas

    schemas = json_schemas()
    # the recipe a task is recorded from (`iwr record RECIPE`), as written in YAML (``assert``, not ``assertion``)
    recipe = Recipe.model_json_schema(by_alias=True)
    for k in ("base_dir", "source_file"):  # set by the loader from where the file is, never read from it
        recipe.get("properties", {}).pop(k, None)
    schemas["Recipe"] = recipe
    if a.name:
        named = {k.lower(): k for k in schemas}
        key = named.get(a.name.lower())
        if key is None:
            raise IwrError(f"no schema named {a.name!r}; known: {', '.join(k.lower() for k in schemas)}")
        schemas = schemas[key]
    print(json.dumps(schemas, indent=1))
    return 0


# --------------------------------------------------------------------------- parser


def _add_eval_args(p: argparse.ArgumentParser, *, models_required: bool) -> None:
    p.add_argument("--model", action="append", required=models_required, default=None if models_required else None,
                   metavar="MODEL",
                   help="a model to evaluate (repeatable): oracle | blank | screenshot | slideshow | cheat-frames | "
                        "cheat-buttons | cheat-text | replay:DIR | openai:NAME | anthropic:NAME"
                        + ("" if models_required else f" (default: {', '.join(DEFAULT_MODELS)})"))
    from .runs.options import EvalOptions

    EvalOptions.add_arguments(p)  # every option, declared once with its flag and help (runs/options.py)


def _add_sandbox_arg(p: argparse.ArgumentParser) -> None:
    """``--unsafe-no-sandbox`` on a command that starts a browser outside a run (``EvalOptions.unsafe_no_sandbox``'s
    flag; its help without what only a run does)."""
    from .runs.options import EvalOptions

    EvalOptions.add_arguments(p, only=("unsafe_no_sandbox",))
    _set_help(p, "unsafe_no_sandbox",
              "start Chromium with --no-sandbox: its own sandbox off (the other walls still hold). Default: the "
              "sandbox is on (as root, the browser runs as the user iwr-browser that `make setup` makes), and a "
              "browser that cannot start with it is refused rather than started without")


def _set_help(p: argparse.ArgumentParser, dest: str, text: str) -> None:
    """The help of ``p``'s option ``dest`` where this command gives it another meaning than ``EvalOptions``'."""
    for act in p._actions:
        if act.dest == dest:
            act.help = text
            return
    raise KeyError(dest)


RUN_OUT_HELP = ("the run folder; rerun with the same --out to resume it (default: a new runs/<date-time> "
                "folder under the current directory, printed and linked as runs/latest)")

ORACLE_RECIPES_HELP = ("recipes for the oracle of tasks recorded elsewhere: a folder of *.yaml recipes or one "
                       "recipe file (repeatable), looked at before the bundled suites' recipes; the oracle is "
                       "served from the recipe whose id is the task's, never from the task folder")


class _CommandParser(argparse.ArgumentParser):
    """A subcommand's parser: an argument it does not know is its own error, with its own usage line.

    argparse lets a subcommand pass unknown arguments up to the top-level parser, which then prints
    ``usage: iwr [-h] [--version] COMMAND ...`` instead of the subcommand's (``iwr validity --bogus``).
    Every subparser is made of this class (``parser_class`` is inherited by nested subcommands)."""

    def parse_known_args(self, args=None, namespace=None):  # type: ignore[override]
        ns, extra = super().parse_known_args(args, namespace)
        if extra:
            self.error(f"unrecognized arguments: {' '.join(extra)}")
        return ns, extra


def build_parser() -> argparse.ArgumentParser:
    ap = argparse.ArgumentParser(prog="iwr", description="iwrbench: rebuild interactive web pages from video, and judge them.")
    ap.add_argument("--version", action="version", version=f"iwrbench {__version__}")
    sub = ap.add_subparsers(dest="cmd", required=True, metavar="COMMAND", parser_class=_CommandParser)

    p = sub.add_parser("record", help="record a recipe into a task folder")
    p.add_argument("recipe", help="the recipe file (YAML; format in docs/recipes.md)")
    p.add_argument("--out", required=True, metavar="TASK_DIR", help="the task folder to write (required)")
    p.add_argument("--force", action="store_true", help="replace an existing task folder (default: refuse)")
    p.add_argument("--passes", type=int, default=2, help="recordings compared to keep only stable checks (default 2)")
    _add_sandbox_arg(p)
    p.add_argument("--validate", action=argparse.BooleanOptionalAction, default=True,
                   help="replay the recorded task on its source with the judge before writing it (as `iwr validate "
                        "--oracle`); a task that does not score IFS 100 with matching checkpoints is not written "
                        "(default: on; --no-validate keeps it unchecked)")
    p.add_argument("--cheats", action=argparse.BooleanOptionalAction, default=True,
                   help="after validating, judge the cheat pages (slideshow, cheat-frames, cheat-buttons, cheat-text) "
                        "on the task and print their Final; above 15 is a warning (default: on)")
    p.add_argument("--strict", action="store_true",
                   help="refuse the task (write nothing) when a cheat page scores above 15 (the suite builder does)")
    p.set_defaults(fn=cmd_record)

    p = sub.add_parser("validate", help="check task folders; --oracle replays them on their source",
                       description="Check task folders (files inside the folder, checkpoints and composites "
                                   "decodable, limits of iwrbench.limits). --oracle also replays each task on its "
                                   "source site, served from its recipe: a bundled one, or one given with "
                                   "--oracle-recipes (nothing in a task folder is executed or served).")
    p.add_argument("tasks", nargs="+", metavar="TASK_DIR",
                   help="task folders, or suite folders (every task folder inside is checked)")
    p.add_argument("--oracle", action="store_true",
                   help="also replay each task on its source and require IFS 100 and pixel-matching checkpoints "
                        "(default: check the files only)")
    p.add_argument("--oracle-recipes", action="append", metavar="DIR", help=ORACLE_RECIPES_HELP)
    _add_sandbox_arg(p)
    p.set_defaults(fn=cmd_validate)

    p = sub.add_parser("eval", help="generate + judge + summarise (resumable)",
                       description="Generate + judge + summarise, resumable. Each (model, task) unit becomes one "
                                   "line of results.jsonl with a status: ok, page_error (the page failed; scored), "
                                   "generation_error (no usable page; scored 0, left out under iwr-bench@1; redo with --retry-errors), judge_error (ours; not scored, "
                                   "retried on resume) or task_error (the task itself is broken: a corrupt "
                                   "checkpoint, a file outside its folder ...; not scored, not retried). One bad "
                                   "unit never stops the run.")
    p.add_argument("--tasks", required=True, help="a suite folder, a task folder or a data.jsonl (required)")
    p.add_argument("--out", metavar="RUN_DIR", help=RUN_OUT_HELP)
    _add_eval_args(p, models_required=True)
    p.set_defaults(fn=cmd_eval)

    p = sub.add_parser("run", help="the main job: default suite x baseline models, leaderboard and report")
    p.add_argument("--out", metavar="RUN_DIR", help=RUN_OUT_HELP)
    p.add_argument("--suite", default="default",
                   help="the bundled suite to build (what is missing) and judge, or a folder of recipes of your own "
                        "(a path, e.g. ./my-recipes: built into the cache like a bundled suite); each task is judged "
                        "as soon as it is built (default: default)")
    p.add_argument("--tasks", help="use these tasks (a suite folder, a task folder or a data.jsonl) instead of a "
                                   "bundled suite (default: the --suite)")
    p.add_argument("--jobs", type=int, metavar="N",
                   help="tasks recorded at once while the run judges the tasks already built (default: one per "
                        "core; at most 4, a larger N is taken as 4; --workers units are judged at once meanwhile, "
                        "default the cores left, at least 1, and every core once the recordings have ended)")
    _add_eval_args(p, models_required=False)
    _set_help(p, "workers", "units judged at once (default: while tasks are recorded, the cores the recordings leave, "
                            "at least 1; then every core; a number given is kept throughout)")
    p.set_defaults(fn=cmd_run)

    p = sub.add_parser("judge", help="judge the pages of a finished run again, without generating (a new run folder)",
                       description="Judge the pages a finished run kept (pages/<model>/<task>/) again, with another "
                                   "protocol or judge settings, without calling any model: each model keeps its "
                                   "name, a generation_error stays one, the oracle serves its source again. The "
                                   "run judged is never written to: the new run is --out (default: a new "
                                   "runs/<date-time>), and its run.json records where its pages came from "
                                   "(pages_from) and the run's generation record. --protocol defaults to the "
                                   "run's own.")
    p.add_argument("run", metavar="RUN_DIR", help="the finished run whose pages are judged")
    p.add_argument("--out", metavar="RUN_DIR", help=RUN_OUT_HELP)
    p.add_argument("--tasks", help="the run's tasks, if they moved since (default: the suite run.json names)")
    from .runs.options import EvalOptions
    from .api import JUDGE_OPTIONS

    EvalOptions.add_arguments(p, only=JUDGE_OPTIONS)
    _set_help(p, "protocol", "judging protocol: offline@2 (no model calls by the judge) or iwr-bench@1 (the published "
                             "one: needs --judge-model); default: the protocol of the run judged")
    p.set_defaults(fn=cmd_judge)

    p = sub.add_parser("report", help="leaderboard and HTML report of one or more runs")
    p.add_argument("runs", nargs="+", metavar="RUN_DIR",
                   help="run folders; several merge into one leaderboard when their suite and protocol match")
    p.add_argument("--html", metavar="FILE", help="write the HTML report here, with its pictures in FILE's "
                                                  "<stem>_files/ beside it (default RUN_DIR/report.html; for several "
                                                  "runs FIRST_RUN_DIR/report-merged.html, the leaderboard files "
                                                  "then named leaderboard-merged.*)")
    p.add_argument("--format", action="append", choices=("md", "csv", "json"), help="leaderboard files to write (default: md, csv and json)")
    p.set_defaults(fn=cmd_report)

    p = sub.add_parser("compare", help="two runs of one suite, paired by task: A - B with 95%% intervals",
                       description="Compare two runs of one suite under one protocol, task by task: Final, IFS and "
                                   "VFS of run A minus run B over the tasks both scored, with a paired bootstrap "
                                   "interval (95%, 10,000 resamples, fixed seed), and whether it excludes 0. "
                                   "Models of the same name are compared; when each run holds one model, those "
                                   "two. Runs made on different suites are refused unless --intersection.")
    p.add_argument("run_a", metavar="RUN_A", help="a run folder (A)")
    p.add_argument("run_b", metavar="RUN_B", help="another run folder of the same suite (B)")
    p.add_argument("--model-a", metavar="MODEL", help="the model of RUN_A to compare (default: the models both "
                                                      "runs hold, or the only one)")
    p.add_argument("--model-b", metavar="MODEL", help="the model of RUN_B to compare (default: the model of "
                                                      "that name, or RUN_B's only model)")
    p.add_argument("--intersection", action="store_true",
                   help="runs of different suites (another suite hash): compare them on the task ids both ran, and "
                        "say so (default: refuse)")
    p.add_argument("--json", action="store_true", help="print the comparison as JSON (`iwr schema comparison`; "
                                                       "default: text)")
    p.set_defaults(fn=cmd_compare)

    p = sub.add_parser("suite", help="bundled suites: build, path, list, stats, table",
                       description="The suites bundled with iwrbench (recipes in src/iwrbench/suites/NAME/), built "
                                   "into $IWR_CACHE/suites/NAME/tasks (default ~/.cache/iwrbench).")
    ss = p.add_subparsers(dest="suite_cmd", required=True, metavar="SUITE_COMMAND")
    suite_name = "a bundled suite (default: default); `iwr suite list` names them"
    b = ss.add_parser("build", help="fetch, record and validate a suite into the cache (only what changed)",
                      description="Record every recipe of a bundled suite and validate it with --oracle; a task "
                                  "that fails on two consecutive recordings is left out, and the build says why. "
                                  "Only tasks whose recipe, site or recorder version changed are rebuilt.")
    b.add_argument("name", nargs="?", default="default", help=suite_name)
    b.add_argument("--jobs", type=int, metavar="N",
                   help="tasks recorded at once (default: one per CPU; at most 4, a larger N is taken as 4: "
                        "each recording can take 2 GB)")
    b.add_argument("--force", action="store_true", help="rebuild every task, even those up to date (default: off)")
    _add_sandbox_arg(b)
    b.add_argument("--task", action="append", metavar="ID",
                   help="build only this task (repeatable; default: every task of the suite)")
    x = ss.add_parser("path", help="print the folder the suite is built into (to pass as --tasks)")
    x.add_argument("name", nargs="?", default="default", help=suite_name)
    x = ss.add_parser("stats", help="coverage of the built suite: tasks, actions, assertions, domains, V/L levels")
    x.add_argument("name", nargs="?", default="default", help=suite_name)
    x.add_argument("--json", action="store_true", help="print the figures as JSON instead of tables (default: tables)")
    x = ss.add_parser("table", help="a Markdown table of the suite (task, domain, V, L, actions, assertions, source, licence)")
    x.add_argument("name", nargs="?", default="default", help=suite_name)
    x.add_argument("--out", metavar="FILE", help="write the table to FILE (default: print it)")
    x = ss.add_parser("list", help="the bundled suites, or one suite's tasks (id, domain, V/L levels, steps, built)")
    x.add_argument("name", nargs="?", default=None,
                   help="list this suite's tasks (default: list the bundled suites)")
    p.set_defaults(fn=cmd_suite)

    p = sub.add_parser("prompt", help="write what a model is sent for a task (prompt text, composites, frames)",
                       description="Write the request a model receives for one task, as files: prompt.txt, "
                                   "images/NNN_*.{png,jpg} in the order they are sent (composites, then frames), "
                                   "request.json (sizes and digests).")
    p.add_argument("task", help="a task folder (or a suite/data.jsonl with --id)")
    p.add_argument("--id", help="the task's id inside a suite (needed when TASK holds several)")
    p.add_argument("--out", required=True, metavar="DIR", help="the folder to write the request into (required)")
    p.add_argument("--fps", type=float, help="frames per second sampled from the video (default 1)")
    p.add_argument("--max-frames", type=int, metavar="N", help="at most this many frames (default 64)")
    p.add_argument("--max-images", type=int, metavar="N",
                   help="at most this many images in all, composites first (default 70)")
    p.add_argument("--max-image-side", type=int, metavar="PX",
                   help="downscale images whose long side is larger than PX pixels (default: no limit)")
    p.add_argument("--prompt-version", metavar="NAME",
                   help="which prompt text, from iwrbench/generate/prompts (default iwr-v1, the published prompt)")
    p.set_defaults(fn=cmd_prompt)

    p = sub.add_parser("validity", help="show that the judge is right: independent pages, reconstructions, "
                                        "markup changes, cheats, the oracle as a model's page",
                       description="Run the judge's validity sets and compare its verdicts with the truth "
                                   "established without it. Sets: visibility (pages of common CSS, each with a "
                                   "twin hiding the same text by paint alone: the reader must see exactly what is "
                                   "painted), oracle (the source judged as a model's page: "
                                   "IFS 100), markup (markup changes of the source: IFS 100), cheats (pages "
                                   "that replay the video: Final <= 15), todomvc (independent TodoMVC "
                                   "implementations vs a spec-level probe), reconstructions (pages written from "
                                   "the frames as a model would, labelled by eye; bundled), visual (the visual "
                                   "score's ranking of calibration candidates against orderings written by a "
                                   "person: Kendall tau-b). Exit 0 when every set meets its criterion.")
    p.add_argument("--set", action="append", help="visibility | oracle | markup | cheats | todomvc | reconstructions | visual "
                        "(repeatable; default all)")
    p.add_argument("--suite", default="default", help="bundled suite to use, built when needed (default: default)")
    p.add_argument("--tasks", help="a built suite folder instead of a bundled suite")
    p.add_argument("--task", action="append", metavar="ID", help="only this task id (repeatable; default: every task)")
    p.add_argument("--out", required=True, help="folder for validity.json, validity.md and per-page evidence (required)")
    _add_sandbox_arg(p)
    p.set_defaults(fn=cmd_validity)

    p = sub.add_parser("doctor", help="which browser (and whether its sandbox is on), OCR, visual backends and SDKs "
                                      "are usable here")
    _add_sandbox_arg(p)
    p.set_defaults(fn=cmd_doctor)
    p = sub.add_parser("schema", help="print the JSON Schema of the records and of a recipe",
                       description="Print JSON Schemas: of a recipe (`iwr schema recipe`, the input of `iwr "
                                   "record`; docs/recipes.md explains it), of a task, a result, a run ... ")
    p.add_argument("name", nargs="?", default=None,
                   help="one schema by name, e.g. recipe, task, taskresult, runspec (an unknown name lists them all; "
                        "default: every schema, as one JSON object keyed by name)")
    p.set_defaults(fn=cmd_schema)
    return ap


DEFAULT_MODELS = ["oracle", "screenshot", "blank"]


@contextlib.contextmanager
def _sandbox_switch(unsafe: bool):
    """``--unsafe-no-sandbox`` for the command's duration: every browser it starts (in this process, its worker
    processes and a local Ray cluster) gets --no-sandbox; the setting is put back afterwards."""
    if not unsafe:
        yield
        return
    from .browser.sandbox import UNSAFE_ENV

    old = os.environ.get(UNSAFE_ENV)
    os.environ[UNSAFE_ENV] = "1"
    try:
        yield
    finally:
        if old is None:
            os.environ.pop(UNSAFE_ENV, None)
        else:
            os.environ[UNSAFE_ENV] = old


def _command(a: argparse.Namespace) -> str:
    """``suite stats`` for `iwr suite stats`, else the command's name (how errors name what failed)."""
    sub = getattr(a, "suite_cmd", None)
    return f"{a.cmd} {sub}" if sub else a.cmd


def main(argv: list[str] | None = None) -> int:
    ap = build_parser()
    a = ap.parse_args(argv)
    a.argv = list(argv) if argv is not None else sys.argv[1:]
    if a.cmd == "run" and not a.model:
        a.model = list(DEFAULT_MODELS)
    try:
        with _sandbox_switch(bool(getattr(a, "unsafe_no_sandbox", False))):
            return a.fn(a)
    except IwrError as e:
        msg = str(e).replace("\n", " ")
        print(f"iwr {_command(a)}: error: {msg}", file=sys.stderr)
        return EXIT_USAGE
    except KeyboardInterrupt:
        print(f"iwr {a.cmd}: interrupted; rerun the same command to resume", file=sys.stderr)
        return 130
    except BrokenPipeError:
        # the reader of our output went away (`iwr schema | head`): not an error of ours, and nothing more to say;
        # stdout is pointed at /dev/null so that the interpreter's own flush at exit does not complain again
        with contextlib.suppress(OSError):
            os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
        return 141  # as a shell reports a process ended by SIGPIPE
    except Exception as e:  # noqa: BLE001 - a bug of ours: still one line for the user
        if os.environ.get("IWR_DEBUG"):
            raise
        text = (str(e).strip().splitlines() or [""])[0][:300]
        print(f"iwr {a.cmd}: internal error: {e.__class__.__name__}{': ' + text if text else ''} "
              "(set IWR_DEBUG=1 for the traceback)", file=sys.stderr)
        return EXIT_INTERNAL


if __name__ == "__main__":
    sys.exit(main())
