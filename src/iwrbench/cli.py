"""The ``iwr`` command. Thin: parses arguments, calls the library, prints.

Every user-facing failure is an ``IwrError``: one line on stderr, exit code 2, no traceback.
Anything else that escapes a command (a bug of ours) is also one line, exit code 3; set
``IWR_DEBUG=1`` to see its traceback.
"""

from __future__ import annotations

import argparse
import datetime as dt
import json
import os
import sys
from pathlib import Path
from typing import TYPE_CHECKING, Any

from .version import __version__
from .errors import IwrError

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
        from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeElapsedColumn

        self.p = Progress(TextColumn("[bold]{task.description}"), BarColumn(), MofNCompleteColumn(),
                          TimeElapsedColumn(), TextColumn("{task.fields[note]}"), transient=False,
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
                print(f"  [{int(t.completed)}/{int(t.total or 0)}] {note}", flush=True)


def print_leaderboard(summary: "Summary | dict", title: str = "Leaderboard", console: Any = None) -> None:
    """The leaderboard as a rich table. A model's name is never cut short: when the console is too
    narrow for it, the table first drops its vertical rules, then lists the errors under the table
    instead of in a column, and only a name longer than all the room left folds onto several lines
    (every character kept)."""
    from rich import box
    from rich.table import Table

    con = console or _console()

    def f(x: Any) -> str:
        return "-" if x is None else f"{x:.2f}"

    head = ["model", "Final", "IFS", "VFS", "LVS", "HVS", "tasks"]
    from .records import Summary

    board = Summary.model_validate(summary).leaderboard
    rows = [[r.model, f(r.final), f(r.ifs), f(r.vfs), f(r.low_level_visual), f(r.high_level_visual), str(r.tasks)]
            for r in board]
    errors = [", ".join(f"{k} {v}" for k, v in r.errors.items()) for r in board]
    name_w = max(len(x) for x in [head[0], *(r[0] for r in rows)])
    numbers_w = sum(max(len(x) for x in [h, *(r[k] for r in rows)]) for k, h in enumerate(head) if k > 0)
    # the errors column wraps between its items, never inside one
    errors_w = max(len(x) for x in ["errors", *(e for es in errors for e in es.split(", "))])
    for compact, in_column in ((False, True), (True, True), (True, False)):
        n = len(head) + in_column
        # rules and padding: boxed 3 a column + 1; compact (no vertical rules, padding collapsed) 2 a column
        room = con.width - numbers_w - (errors_w if in_column else 0) - (2 * n if compact else 3 * n + 1)
        if name_w <= room:
            break
    t = Table(title=f"{title} ({summary.get('protocol')}, {summary.get('tasks')} tasks)",
              **({"box": box.SIMPLE_HEAD, "collapse_padding": True, "pad_edge": False} if compact else {}))
    t.add_column("model", width=min(name_w, max(room, 8)), overflow="fold")  # a set width is never shrunk
    for col in head[1:]:
        t.add_column(col, justify="right", no_wrap=True)
    if in_column:
        t.add_column("errors", overflow="fold")
    for row, errs in zip(rows, errors):
        t.add_row(*row, *([errs or "-"] if in_column else []))
    con.print(t)
    if not in_column:
        for row, errs in zip(rows, errors):
            if errs:
                con.print(f"errors of {row[0]}: {errs}", markup=False, highlight=False)


# --------------------------------------------------------------------------- commands


def cmd_record(a: argparse.Namespace) -> int:
    from .record.recipe import load_recipe
    from .validate.make import record_task

    recipe = load_recipe(a.recipe)
    out = Path(a.out)
    if out.exists() and not a.force and (not out.is_dir() or any(out.iterdir())):
        raise IwrError(f"{out} exists and is not empty; pass --force to replace it")
    print(f"recording {recipe.id} ({len(recipe.actions)} action(s)) -> {out}", flush=True)
    done = record_task(recipe, out, validate=a.validate, passes=a.passes, force=a.force,
                       progress=lambda m: print(f"  {m}", flush=True))
    task = done.task
    acts = task.action_sequence
    asserted = sum(1 for x in acts if x.logical_assertion or x.checks)
    written = sum(len(x.checks) for x in acts)
    checked = (f"; oracle replay IFS {done.oracle_ifs:.0f}, {len(done.checkpoints)} visual checkpoint(s) match"
               if done.validated else "; not validated (--no-validate)")
    print(f"wrote {out}: {len(acts)} action(s), {asserted} asserted ({written} hand-written check(s)), "
          f"{len(task.probes)} probe(s), video {task.recording_details.duration_s:.1f}s{checked}")
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


def _gen_options(a: argparse.Namespace):
    from .models.base import GenerationOptions

    o = GenerationOptions()
    for k in ("fps", "max_frames", "max_images", "max_image_side", "max_output_tokens", "prompt_version",
              "concurrency", "timeout_s", "retries"):
        v = getattr(a, k, None)
        if v is not None:
            setattr(o, k, v)
    if getattr(a, "max_cost", None) is not None:
        o.max_cost_usd = a.max_cost
    if getattr(a, "cache_dir", None):
        o.cache_dir = Path(a.cache_dir)
    o.dry_run = bool(getattr(a, "dry_run", False))
    if getattr(a, "model_arg", None):
        from .models.base import apply_model_args, parse_model_args

        o = apply_model_args(o, parse_model_args(a.model_arg))
    return o


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


def _limits(a: argparse.Namespace):
    from .judge.replay import Limits

    lim = Limits()
    if getattr(a, "action_timeout", None):
        lim.action_s = a.action_timeout
    if getattr(a, "page_timeout", None):
        lim.page_s = a.page_timeout
    return lim


def _run_eval(a: argparse.Namespace, tasks: str, models: list[str], out: Path) -> dict:
    from .models.base import parse_model_args
    from .runs.evaluate import EvalConfig, evaluate

    kw: dict[str, Any] = {}
    if getattr(a, "base_url", None):
        kw["base_url"] = a.base_url
    cfg = EvalConfig(tasks=tasks, models=models, out=out, protocol=a.protocol, workers=a.workers,
                     executor=a.executor, options=_gen_options(a), model_kwargs=kw,
                     judge_model=getattr(a, "judge_model", None), judge_base_url=getattr(a, "judge_base_url", None),
                     judge_args=parse_model_args(getattr(a, "judge_arg", None)),
                     ocr=getattr(a, "ocr", None), visual=getattr(a, "visual", None), limits=_limits(a),
                     allow_changed_config=getattr(a, "allow_changed_config", False),
                     only=getattr(a, "task", None) or None, ray_address=getattr(a, "ray_address", None),
                     oracle_recipes=[Path(x) for x in getattr(a, "oracle_recipes", None) or []] or None,
                     retry_errors=bool(getattr(a, "retry_errors", False)), limit=getattr(a, "limit", None))
    bar, cb = _eval_progress("evaluating")
    with bar:
        summary = evaluate(cfg, cb)
    return summary


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


def cmd_eval(a: argparse.Namespace) -> int:
    if a.dry_run:
        from .generate.plan import dry_run, format_dry_run
        from .tasks import load_suite

        from .runs.evaluate import first_tasks

        opts = _gen_options(a)
        tasks = load_suite(a.tasks, only=a.task or None)
        if a.limit is not None:
            available = len(tasks)
            tasks = first_tasks(tasks, a.limit)
            print(f"--limit {a.limit}: the first {len(tasks)} of {available} tasks (sorted by id): "
                  f"{', '.join(t.id for t in tasks)}")
        kw = {"base_url": a.base_url} if a.base_url else {}
        for m in a.model:
            info = dry_run(tasks, m, opts, check_cache=True, **kw)
            print(format_dry_run(info))  # it starts with the model's name
        return 0
    out = _run_out(a)
    summary = _run_eval(a, a.tasks, a.model, out)
    if not a.out:
        _link_latest(out)
    print_leaderboard(summary)
    rep = _write_reports([out], None)
    print(f"run folder: {out}" + (f"\nreport: {rep}" if rep else ""))
    _say_failed_units(summary, out, getattr(a, "argv", None))
    return 0


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


def cmd_run(a: argparse.Namespace) -> int:

    tasks = a.tasks
    if tasks is None:
        print(f"suite {a.suite}: building what is missing (cached under {os.environ.get('IWR_CACHE', '~/.cache/iwrbench')})",
              flush=True)
        tasks = str(_build_with_bar(a.suite, jobs=None, force=False))
    out = _run_out(a)
    summary = _run_eval(a, tasks, a.model, out)
    if not a.out:
        _link_latest(out)
    print_leaderboard(summary)
    rep = _write_reports([out], None)
    from .runs.rundir import RunDir

    print(f"summary: {RunDir(out).summary_file}" + (f"\nreport:  {rep}" if rep else ""))
    _say_failed_units(summary, out, getattr(a, "argv", None))
    return 0


def _build_with_bar(name: str, jobs: int | None, force: bool, only: list[str] | None = None):
    from .validate.build import build_suite

    bar = _Bar(f"building suite {name}")
    with bar:
        def cb(event: str, info: dict) -> None:
            if event == "start":
                bar.start(info["todo"], f"({info['reused']} cached)")
            elif event == "done":
                bar.advance(f"{info['task']}: {'ok' if info['ok'] else 'EXCLUDED'} ({info['seconds']:.0f}s)")

        report = build_suite(name, jobs=jobs, force=force, only=only, progress=cb)
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
        from .suites.catalog import recipes_dir

        recipes_dir(a.name)
        print(tasks_dir(a.name))
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
    out = write_reports([Path(p) for p in a.runs], html=html, formats=a.format)
    print(f"report: {out}")
    return 0


def cmd_prompt(a: argparse.Namespace) -> int:
    from .generate.export import export_request
    from .models.base import GenerationOptions
    from .tasks import load_suite

    tasks = load_suite(a.task, only=[a.id] if a.id else None)
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
    p.add_argument("--protocol", default="offline@2",
                   help="judging protocol: offline@2 (default; no model calls by the judge) or iwr-bench@1 (the "
                        "published one: LLM grounder and multimodal judges, needs --judge-model)")
    p.add_argument("--workers", type=int, default=1, help="units judged at once (default 1)")
    p.add_argument("--executor", choices=("local", "ray"), default="local",
                   help="where units are judged: local processes (default) or a Ray cluster")
    p.add_argument("--ray-address", default=None, help="an existing Ray cluster (default: start a local one)")
    p.add_argument("--task", action="append", metavar="ID", help="only this task id (repeatable; default: every task)")
    p.add_argument("--base-url", help="OpenAI-compatible server URL for openai:NAME models (default: OPENAI_BASE_URL, "
                                      "else api.openai.com)")
    p.add_argument("--judge-model", help="iwr-bench@1: the model behind the LLM grounder and multimodal judges "
                                         "(default: none; offline@2 needs none)")
    p.add_argument("--judge-base-url", help="OpenAI-compatible server of the judge model (default: OPENAI_BASE_URL)")
    p.add_argument("-J", "--judge-arg", action="append", metavar="KEY=VALUE",
                   help="iwr-bench@1: a request field or setting of the judge model (repeatable; like -M, which the "
                        "judge never takes), e.g. -J reasoning_effort=low, -J 'thinking={\"type\": \"enabled\", "
                        "\"budget_tokens\": 2048}', -J max_tokens_param=max_completion_tokens")
    p.add_argument("--action-timeout", type=float, help="seconds one action may take on a judged page (default: the "
                                                        "protocol's, 20 for offline@2, 30 for iwr-bench@1)")
    p.add_argument("--page-timeout", type=float, help="seconds a whole judged page may take (default 240)")
    p.add_argument("--ocr", help="override the protocol's OCR engine (tesseract, easyocr); recorded in run.json "
                                 "(default: the protocol's: tesseract for offline@2, easyocr for iwr-bench@1)")
    p.add_argument("--visual", help="override the protocol's visual backend (blocks, hog-colour, dinov2, ssim, ...; "
                                    "default: the protocol's: blocks for offline@2, dinov2 for iwr-bench@1)")
    p.add_argument("--fps", type=float, help="frames per second sent to the model (default 1)")
    p.add_argument("--max-frames", type=int, help="at most this many frames (default 64)")
    p.add_argument("--max-images", type=int, help="at most this many images in all (default 70)")
    p.add_argument("--max-image-side", type=int, metavar="PX",
                   help="downscale images whose long side is larger than PX pixels (default: no limit, or the "
                        "provider's own: 2000 for anthropic)")
    p.add_argument("--max-output-tokens", type=int, metavar="N",
                   help="the most tokens a model may write in its reply (default 32000, lowered to a known hosted "
                        "model's limit; a server that refuses it as too long for its model's context is asked once "
                        "more with a cap that fits, recorded per unit as generation.max_output_tokens)")
    p.add_argument("--prompt-version", metavar="NAME",
                   help="which prompt text models are sent, from iwrbench/generate/prompts (default iwr-v1, the "
                        "published prompt)")
    p.add_argument("--concurrency", type=int, metavar="N", help="model calls at once per provider (default 4)")
    p.add_argument("--timeout-s", type=float, metavar="S", help="seconds one model call may take (default 600)")
    p.add_argument("--retries", type=int, metavar="N",
                   help="retries of a model call on 429/5xx/timeouts, with backoff (default 5)")
    p.add_argument("--max-cost", type=float, metavar="USD",
                   help="stop making new model calls once this many USD are spent (default: no limit)")
    p.add_argument("--cache-dir", metavar="DIR",
                   help="response cache: the same request is never paid twice (default $IWR_CACHE/responses, "
                        "i.e. ~/.cache/iwrbench/responses)")
    p.add_argument("--dry-run", action="store_true", help="print calls, images and an input-token estimate; call nothing")
    p.add_argument("--allow-changed-config", action="store_true", help="resume a run although its configuration changed")
    p.add_argument("-M", "--model-arg", action="append", metavar="KEY=VALUE",
                   help="a model argument for every chat model of the run (repeatable); VALUE is read as JSON when "
                        "it parses (7, 0.2, true, [\"</html>\"]), else as a string. temperature sets the sampling "
                        "temperature; stream, image_detail, max_tokens_param, send_temperature, frame_format, "
                        "price_in, price_out set that model setting; any other key (top_p, seed, top_k, ...) is "
                        "added to the request body as is, so the server must accept it. Recorded in run.json and "
                        "part of the response cache key")
    p.add_argument("--retry-errors", action="store_true",
                   help="on an existing run folder, redo the units whose result is a generation_error or a "
                        "judge_error (scored and passed units are left untouched); generation settings (e.g. "
                        "--max-output-tokens, -M) may differ from the run's, and then only those units are redone; "
                        "run.json lists the units retried and the settings they were retried with")
    p.add_argument("--limit", type=int, metavar="N",
                   help="only the first N tasks, sorted by task id (after --task); recorded in run.json")
    p.add_argument("--oracle-recipes", action="append", metavar="DIR", help=ORACLE_RECIPES_HELP)


RUN_OUT_HELP = ("the run folder; rerun with the same --out to resume it (default: a new runs/<date-time> "
                "folder under the current directory, printed and linked as runs/latest)")

ORACLE_RECIPES_HELP = ("recipes for the oracle of tasks recorded elsewhere: a folder of *.yaml recipes or one "
                       "recipe file (repeatable), looked at before the bundled suites' recipes; the oracle is "
                       "served from the recipe whose id is the task's, never from the task folder")


def build_parser() -> argparse.ArgumentParser:
    ap = argparse.ArgumentParser(prog="iwr", description="iwrbench: rebuild interactive web pages from video, and judge them.")
    ap.add_argument("--version", action="version", version=f"iwrbench {__version__}")
    sub = ap.add_subparsers(dest="cmd", required=True, metavar="COMMAND")

    p = sub.add_parser("record", help="record a recipe into a task folder")
    p.add_argument("recipe", help="the recipe file (YAML; format in docs/recipes.md)")
    p.add_argument("--out", required=True, metavar="TASK_DIR", help="the task folder to write (required)")
    p.add_argument("--force", action="store_true", help="replace an existing task folder (default: refuse)")
    p.add_argument("--passes", type=int, default=2, help="recordings compared to keep only stable checks (default 2)")
    p.add_argument("--validate", action=argparse.BooleanOptionalAction, default=True,
                   help="replay the recorded task on its source with the judge before writing it (as `iwr validate "
                        "--oracle`); a task that does not score IFS 100 with matching checkpoints is not written "
                        "(default: on; --no-validate keeps it unchecked)")
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
                   help="the bundled suite to build (what is missing) and judge (default: default)")
    p.add_argument("--tasks", help="use these tasks (a suite folder, a task folder or a data.jsonl) instead of a "
                                   "bundled suite (default: the --suite)")
    _add_eval_args(p, models_required=False)
    p.set_defaults(fn=cmd_run)

    p = sub.add_parser("report", help="leaderboard and HTML report of one or more runs")
    p.add_argument("runs", nargs="+", metavar="RUN_DIR",
                   help="run folders; several merge into one leaderboard when their suite and protocol match")
    p.add_argument("--html", metavar="FILE", help="write the HTML report here, with its pictures in FILE's "
                                                  "<stem>_files/ beside it (default RUN_DIR/report.html)")
    p.add_argument("--format", action="append", choices=("md", "csv", "json"), help="leaderboard files to write (default: md, csv and json)")
    p.set_defaults(fn=cmd_report)

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
                   help="tasks recorded at once (default: one per CPU, at most 4)")
    b.add_argument("--force", action="store_true", help="rebuild every task, even those up to date (default: off)")
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
                                   "established without it. Sets: oracle (the source judged as a model's page: "
                                   "IFS 100), markup (markup changes of the source: IFS 100), cheats (pages "
                                   "that replay the video: Final <= 15), todomvc (independent TodoMVC "
                                   "implementations vs a spec-level probe), reconstructions (pages written from "
                                   "the frames as a model would, labelled by eye; bundled), visual (the visual "
                                   "score's ranking of calibration candidates against orderings written by a "
                                   "person: Kendall tau-b). Exit 0 when every set meets its criterion.")
    p.add_argument("--set", action="append", help="oracle | markup | cheats | todomvc | reconstructions | visual (repeatable; default all)")
    p.add_argument("--suite", default="default", help="bundled suite to use, built when needed (default: default)")
    p.add_argument("--tasks", help="a built suite folder instead of a bundled suite")
    p.add_argument("--task", action="append", metavar="ID", help="only this task id (repeatable; default: every task)")
    p.add_argument("--out", required=True, help="folder for validity.json, validity.md and per-page evidence (required)")
    p.set_defaults(fn=cmd_validity)

    p = sub.add_parser("doctor", help="which browser, OCR, visual backends and SDKs are usable here")
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


def main(argv: list[str] | None = None) -> int:
    ap = build_parser()
    a = ap.parse_args(argv)
    a.argv = list(argv) if argv is not None else sys.argv[1:]
    if a.cmd == "run" and not a.model:
        a.model = list(DEFAULT_MODELS)
    try:
        return a.fn(a)
    except IwrError as e:
        msg = str(e).replace("\n", " ")
        print(f"iwr {a.cmd}: error: {msg}", file=sys.stderr)
        return EXIT_USAGE
    except KeyboardInterrupt:
        print(f"iwr {a.cmd}: interrupted; rerun the same command to resume", file=sys.stderr)
        return 130
    except Exception as e:  # noqa: BLE001 - a bug of ours: still one line for the user
        if os.environ.get("IWR_DEBUG"):
            raise
        text = (str(e).strip().splitlines() or [""])[0][:300]
        print(f"iwr {a.cmd}: internal error: {e.__class__.__name__}{': ' + text if text else ''} "
              "(set IWR_DEBUG=1 for the traceback)", file=sys.stderr)
        return EXIT_INTERNAL


if __name__ == "__main__":
    sys.exit(main())
