"""A command line that explains itself: every option says what it does and its default; `iwr suite
list/stats` show tables; `iwr eval` has run's default folder; a run folder's files all get the
umask's modes; the terminal leaderboard never cuts a model's name."""

from __future__ import annotations

import argparse
import json
import os
import shutil
import stat
import subprocess
import sys
from io import StringIO
from pathlib import Path

import pytest

from iwrbench.cli import build_parser, main, print_leaderboard

FIX = Path(__file__).parent / "fixtures" / "official"


# --------------------------------------------------------------------------- help


def _walk(parser: argparse.ArgumentParser, path: tuple[str, ...] = ("iwr",)):
    """(command path, parser) for the parser and every subcommand below it."""
    yield path, parser
    for a in parser._actions:
        if isinstance(a, argparse._SubParsersAction):
            for name, sub in a.choices.items():
                yield from _walk(sub, (*path, name))


def _problems(path: tuple[str, ...], parser: argparse.ArgumentParser) -> list[str]:
    where = " ".join(path)
    out = []
    for a in parser._actions:
        if isinstance(a, argparse._HelpAction):
            continue
        name = "/".join(a.option_strings) or a.dest
        if isinstance(a, argparse._SubParsersAction):
            helped = {c.dest: c.help for c in a._choices_actions}
            out += [f"{where} {n}: subcommand without help" for n in a.choices if not helped.get(n)]
            continue
        if not a.help or a.help == argparse.SUPPRESS or not a.help.strip():
            out.append(f"{where} {name}: no help")
            continue
        trivial = a.default in (None, False, [], argparse.SUPPRESS) or a.required
        if not trivial and "default" not in a.help.lower():
            out.append(f"{where} {name}: its help does not give its default ({a.default!r})")
    try:
        parser.format_help()  # a stray % in a help text breaks `--help`
    except (ValueError, TypeError, KeyError) as e:
        out.append(f"{where}: --help fails ({e})")
    return out


def test_every_option_and_positional_has_help_with_its_default():
    parsers = list(_walk(build_parser()))
    assert {p[1] for p, _ in parsers if len(p) > 1} >= {"record", "validate", "eval", "run", "report", "suite"}
    assert ("iwr", "suite", "list") in {p for p, _ in parsers}
    problems = [x for path, p in parsers for x in _problems(path, p)]
    assert problems == []


def test_help_names_the_defaults_asked_about(capsys):
    with pytest.raises(SystemExit):
        main(["eval", "--help"])
    text = " ".join(capsys.readouterr().out.split())
    for words in ("--max-output-tokens N the most tokens a model may write in its reply (default 32000",
                  "--prompt-version NAME which prompt text", "default iwr-v1",
                  "--out RUN_DIR the run folder", "default: a new runs/<date-time> folder"):
        assert words in text
    with pytest.raises(SystemExit):
        main(["suite", "build", "--help"])
    text = " ".join(capsys.readouterr().out.split())
    assert "one per CPU; at most 4" in text and "--force" in text and "every task of the suite" in text


# --------------------------------------------------------------------------- suite list / stats


def _built_smoke_suite(cache: Path) -> Path:
    """A 'built' suite in the cache: the official demo task plus the smoke task todo-add-filter as its
    manifest says it was built from the current recipe (real files, no recording)."""
    from iwrbench.suites.catalog import fingerprint, recipe_files

    tasks = cache / "suites" / "smoke" / "tasks"
    if tasks.exists():
        shutil.rmtree(tasks.parent)
    demo = tasks / "todo-add-filter"
    shutil.copytree(FIX / "data" / "demo_search", demo)
    data = json.loads(FIX.joinpath("data.jsonl").read_text().splitlines()[1])
    data["id"] = "todo-add-filter"
    (demo / "task.json").write_text(json.dumps(data))
    recipe = next(f for f in recipe_files("smoke") if f.stem == "todo-add-filter")
    manifest = {"todo-add-filter": {"fingerprint": fingerprint(recipe), "ok": True, "reason": ""},
                "signup-wizard": {"fingerprint": "0", "ok": False, "reason": "step 3: the oracle failed"}}
    (tasks.parent / "manifest.json").write_text(json.dumps(manifest))
    return tasks


def test_suite_list_names_the_suites_and_a_suites_tasks(capsys, _isolated_cache):
    tasks = _built_smoke_suite(Path(os.environ["IWR_CACHE"]))
    assert main(["suite", "list"]) == 0
    out = capsys.readouterr().out
    assert "default" in out and "smoke" in out

    assert main(["suite", "list", "default"]) == 0  # was a usage error
    out = capsys.readouterr().out
    assert "todo-manage-tasks" in out and "login-errors" in out and "not built" in out

    assert main(["suite", "list", "smoke"]) == 0
    out = capsys.readouterr().out
    rows = {line.split("│")[1].strip(): [c.strip() for c in line.split("│")[2:-1]]
            for line in out.splitlines() if line.startswith("│")}
    assert rows["todo-add-filter"][:4] == ["productivity", "V1", "L3", "7"]
    assert rows["todo-add-filter"][4] == "built"
    assert rows["signup-wizard"][4].startswith("excluded")
    assert f"1 of 2 built in {tasks}" in " ".join(out.split())

    assert main(["suite", "list", "nope"]) == 2
    assert "unknown suite 'nope'" in capsys.readouterr().err


def test_suite_stats_prints_tables_and_json_on_demand(capsys, _isolated_cache):
    _built_smoke_suite(Path(os.environ["IWR_CACHE"]))
    assert main(["suite", "stats", "smoke"]) == 0
    out = capsys.readouterr().out
    assert not out.lstrip().startswith("{")
    assert "Suite smoke: 1 built task(s)" in out and "Coverage" in out
    for words in ("actions", "with an assertion", "domain", "visual level", "interaction level", "E-commerce",
                  "apps", "validated when built"):
        assert words in out, words
    assert main(["suite", "stats", "smoke", "--json"]) == 0
    data = json.loads(capsys.readouterr().out)
    assert data["tasks"] == 1 and data["domains"] == {"E-commerce": 1}
    # the manifest says the build validated it; the demo task's classification names no provenance
    assert data["validated_at_build"] == 1 and data["provenance"] == {"?": 1}
    assert data["checked"]["oracle"] == {"tasks": 0, "met": 0, "not_met": []}  # no `iwr validity` run on it yet
    # a check that failed names its task, and every check says when it was judged
    from iwrbench.suites.ledger import record
    from iwrbench.validity import Verdict

    tid = json.loads((next(Path(os.environ["IWR_CACHE"]).glob("suites/smoke/tasks/*/task.json"))).read_text())["id"]
    record(Path(os.environ["IWR_CACHE"]) / "suites" / "smoke" / "tasks",
           [Verdict(set="oracle", task_id=tid, page="oracle", steps=7, judged=6, truth=7, ok=False)])
    assert main(["suite", "stats", "smoke", "--json"]) == 0
    row = json.loads(capsys.readouterr().out)["checked"]["oracle"]
    assert (row["tasks"], row["met"], row["not_met"]) == (1, 0, [tid]) and row["first"] == row["last"]
    assert main(["suite", "stats", "smoke"]) == 0
    out = " ".join(capsys.readouterr().out.replace("│", " ").split())
    assert f"1 of 1 checked since built, 0 met it (IFS 100); not met: {tid}; judged {row['first'][:10]}" in out

    assert main(["suite", "stats", "default"]) == 2  # not built: says how to build it
    assert "iwr suite build default" in capsys.readouterr().err


# --------------------------------------------------------------------------- leaderboard


def _board(name: str) -> dict:
    row = {"final": 36.35, "ifs": 24.39, "vfs": 64.25, "low_level_visual": 68.29, "high_level_visual": 60.21,
           "tasks": 32}
    return {"protocol": "offline@2", "tasks": 32, "leaderboard": [
        {"model": name, **row, "errors": {"generation_error": 3, "page_error": 2}},
        {"model": "oracle", **row, "final": 100.0, "errors": {}}]}


def _render(summary: dict, width: int = 80) -> str:
    from rich.console import Console

    buf = StringIO()
    print_leaderboard(summary, console=Console(width=width, file=buf, highlight=False))
    return buf.getvalue()


@pytest.mark.parametrize("name", ["openai:Qwen2.5-VL-72B-Instruct", "anthropic:claude-3-5-sonnet-2024"])
def test_terminal_leaderboard_never_cuts_a_model_name(name):
    out = _render(_board(name))
    assert "…" not in out
    assert all(len(line) <= 80 for line in out.splitlines())
    row = next(line for line in out.splitlines() if name in line)
    assert "36.35" in row  # the whole name on its row, beside its scores
    assert "generation_error 3, page_error 2" in " ".join(out.split())  # errors wrap or go below, never lost


def test_terminal_leaderboard_folds_a_name_longer_than_the_console():
    name = "openai:" + "very-long-model-name-" * 6
    out = _render(_board(name))
    assert "…" not in out and all(len(line) <= 80 for line in out.splitlines())
    lines = out.splitlines()
    start = next(i for i, line in enumerate(lines) if line.strip().startswith("openai:"))
    parts = []
    for line in lines[start:]:
        first = line.split()[0] if line.strip() else ""
        if first == "oracle":
            break
        parts.append(first)
    assert "".join(parts) == name
    # a short name keeps the boxed table
    assert "┃ model" in _render(_board("blank"), width=120)


# --------------------------------------------------------------------------- file modes


def _mode(p: Path) -> int:
    return stat.S_IMODE(p.stat().st_mode)


@pytest.mark.parametrize("umask, want", [(0o022, 0o644), (0o027, 0o640)])
def test_atomic_write_and_temp_folders_honour_the_umask(tmp_path, umask, want):
    from iwrbench.fileio import atomic_write, current_umask, make_temp_dir

    old = os.umask(umask)
    try:
        assert current_umask() == umask
        f = tmp_path / "sub" / "run.json"
        atomic_write(f, "{}")
        plain = tmp_path / "plain.txt"
        plain.write_text("x")
        assert _mode(f) == _mode(plain) == want
        atomic_write(f, "{ }")  # rewriting keeps it
        assert _mode(f) == want and f.read_text() == "{ }"
        assert not list(f.parent.glob(".*.tmp"))
        d = make_temp_dir(".task.tmp-", tmp_path)  # the recorder's task folder, renamed into place
        assert _mode(d) == 0o777 & ~umask
    finally:
        os.umask(old)


@pytest.mark.browser
def test_eval_defaults_to_a_dated_run_folder_whose_files_honour_the_umask(tmp_path):
    suite = tmp_path / "suite"
    task = suite / "demo_search"
    shutil.copytree(FIX / "data" / "demo_search", task)
    (task / "task.json").write_text(FIX.joinpath("data.jsonl").read_text().splitlines()[1])
    work = tmp_path / "work"
    work.mkdir()
    r = subprocess.run([sys.executable, "-m", "iwrbench.cli", "eval", "--tasks", str(suite), "--model", "blank"],
                       cwd=work, capture_output=True, text=True, timeout=600, preexec_fn=lambda: os.umask(0o022))
    assert r.returncode == 0, r.stdout[-2000:] + r.stderr[-2000:]
    runs = [d for d in (work / "runs").iterdir() if not d.is_symlink()]
    assert len(runs) == 1
    run = runs[0]
    assert f"run folder: runs/{run.name} (no --out given; rerun with --out runs/{run.name} to resume it)" in r.stdout
    assert (work / "runs" / "latest").resolve() == run.resolve()
    names = {p.name for p in run.iterdir()}
    assert {"run.json", "results.jsonl", "summary.json", "report.html", "report_files", "leaderboard.md"} <= names
    wrong = {str(p.relative_to(run)): oct(_mode(p)) for p in run.rglob("*")
             if not p.is_symlink() and _mode(p) != (0o755 if p.is_dir() else 0o644)}
    assert wrong == {}


# --------------------------------------------------------------------------- iwr schema


def test_schema_recipe_prints_the_recipe_schema_with_a_description_per_field(capsys):
    from iwrbench.record.recipe import Recipe, RecipeAction

    assert main(["schema", "recipe"]) == 0
    schema = json.loads(capsys.readouterr().out)
    assert schema["title"] == "Recipe" and "base_dir" not in schema["properties"]
    action = schema["$defs"]["RecipeAction"]["properties"]
    assert "assert" in action and "assertion" not in action  # as written in YAML
    for model, props in ((Recipe, schema["properties"]), (RecipeAction, action)):
        fields = {f.alias or k for k, f in model.model_fields.items() if not f.exclude}
        assert set(props) == fields
        undescribed = sorted(k for k, v in props.items() if not v.get("description") and "$ref" not in v)
        assert undescribed == [], f"{model.__name__}: fields without a description in `iwr schema recipe`"
    # the names are those of the full listing, any case; an unknown one is one line naming the known ones
    assert main(["schema", "TaskResult"]) == 0 and json.loads(capsys.readouterr().out)["title"] == "TaskResult"
    assert main(["schema"]) == 0 and {"Recipe", "Task", "TaskResult"} <= set(json.loads(capsys.readouterr().out))
    assert main(["schema", "recipes"]) == 2
    err = capsys.readouterr().err.strip()
    assert "\n" not in err and "no schema named 'recipes'" in err and "recipe" in err and "taskresult" in err


def test_iwr_record_says_how_long_is_left_at_the_video_pass_pace():
    """Each step of the video pass gets the time left: its remaining steps at the pace so far, the video's
    encoding, then the validation (about 0.65 of the recording); the validation's line its own estimate."""
    from iwrbench.cli import RecordEta

    now = [0.0]
    lines: list[str] = []
    eta = RecordEta(True, clock=lambda: now[0], out=lines.append)
    now[0] = 2.0
    eta("step 1/5: Click the 'Add' button")
    now[0] = 6.0
    eta("step 2/5: Type 'milk' in the box")  # 4 s per step: 4 steps more (16 s) + 3 s, then 0.65 x 25 s
    now[0] = 7.0
    eta("replaying the recipe with seed(s) 1000")
    now[0] = 20.0
    eta("recording 5 probe(s) on the source (derived-twice-1, ...), 2 passes at a time")  # after the video pass
    now[0] = 30.0
    eta("validating: replaying the task on its source")
    assert lines[0] == "  step 1/5: Click the 'Add' button"
    assert lines[1] == "  step 2/5: Type 'milk' in the box (about 0 min 35 s left)"  # 19 + 16.25
    assert lines[2] == "  replaying the recipe with seed(s) 1000"
    # 3 rounds of passes half the video pass's 20 s, 3 s of encoding, then 0.65 of the 53 s recorded by then
    assert lines[3].endswith("2 passes at a time (about 1 min 07 s left)"), lines[3]
    assert lines[4].endswith("(about 0 min 19 s left)")
    quiet = RecordEta(False, clock=lambda: now[0], out=lines.append)
    now[0] += 4
    quiet("step 1/2: x")
    now[0] += 4
    quiet("step 2/2: y")
    assert lines[-1] == "  step 2/2: y (about 0 min 07 s left)"


def test_suite_table_names_each_tasks_app_kind():
    from iwrbench.suites.stats import suite_table

    text = suite_table("full")
    rows = [line.split("|")[1:-1] for line in text.splitlines() if line.startswith("| ") and "---" not in line][1:]
    kinds = {r[0].strip(): r[1].strip() for r in rows}
    assert kinds["boardly-wip-limit"] == "novel" and kinds["tp-todomvc-vanillajs"] == "famous"
    assert set(kinds.values()) == {"novel", "famous"}
    n = sum(1 for k in kinds.values() if k == "novel")
    assert f"novel: {n}" in text and f"famous: {len(kinds) - n}" in text


def test_validity_progress_says_the_time_left_at_the_pace_so_far():
    """`iwr validity` runs for an hour on a big suite: each task's line gives the tasks not yet done (this one
    included) at the mean time of those done; the first has nothing to go by."""
    from iwrbench.timing import Pace, left_text

    now = [100.0]
    pace = Pace(4, clock=lambda: now[0])
    assert pace.line(1, "oracle a") == "[1/4] oracle a"
    now[0] = 130.0
    assert pace.line(2, "oracle b") == "[2/4] oracle b (about 1 min 30 s left)"  # 30 s per task, 3 to go
    now[0] = 190.0
    assert pace.line(3, "oracle c") == "[3/4] oracle c (about 1 min 30 s left)"  # 45 s per task, 2 to go
    assert left_text(None) == left_text(0.4) == ""
    assert left_text(3671) == "about 61 min 11 s left"
