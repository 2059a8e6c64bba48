"""Task folders, data.jsonl lines, recipes and page folders are strangers' data, never code.

A pack of hostile inputs: each gives a one-line error (CLI: exit code 2, one stderr line) or an
error row, runs and installs nothing, reads nothing outside its folder; in a run mixing them
with good tasks the good tasks are judged normally.
"""

from __future__ import annotations

import json
import os
import shutil
import socket
import subprocess
import sys
from pathlib import Path

import pytest

from iwrbench.errors import RecipeError, TaskError
from fake_provider import FakeProviderServer, png_bytes

FIX = Path(__file__).parent.parent / "fixtures" / "official"
GOOD_LINE = (FIX / "data.jsonl").read_text().splitlines()[1]  # demo_search: 320x180, 2 actions
SECRET_RGB = (7, 77, 177)


def iwr(*args: str, env: dict | None = None, timeout: float = 300) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "iwrbench.cli", *args], capture_output=True, text=True,
                          timeout=timeout, env={**os.environ, **(env or {})})


def iwr_here(*args: str) -> subprocess.CompletedProcess:
    """The same command in this process (no interpreter start-up): for the many loader cases."""
    import contextlib
    import io

    from iwrbench.cli import main

    out, err = io.StringIO(), io.StringIO()
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
        rc = main(list(args))
    return subprocess.CompletedProcess(list(args), rc, out.getvalue(), err.getvalue())


def one_line_error(r: subprocess.CompletedProcess) -> str:
    assert r.returncode == 2, (r.returncode, r.stdout[-2000:], r.stderr[-2000:])
    assert "Traceback" not in r.stderr
    lines = [x for x in r.stderr.splitlines() if x.strip()]
    assert len(lines) == 1, r.stderr
    return lines[0]


def make_task(root: Path, tid: str, data: dict | None = None) -> Path:
    """A small good task folder (the official fixture's demo_search) named ``tid``."""
    d = root / tid
    shutil.copytree(FIX / "data" / "demo_search", d)
    rec = json.loads(GOOD_LINE) if data is None else data
    rec["id"] = tid
    (d / "task.json").write_text(json.dumps(rec))
    return d


def set_field(d: Path, fn) -> None:
    data = json.loads((d / "task.json").read_text())
    fn(data)
    (d / "task.json").write_text(json.dumps(data))


@pytest.fixture(scope="module")
def outside(tmp_path_factory) -> Path:
    """Files outside every task folder that a hostile task points at."""
    d = tmp_path_factory.mktemp("outside")
    (d / "secret.png").write_bytes(png_bytes(40, 20, SECRET_RGB))
    (d / "secret.txt").write_text("TOP-SECRET-OUTSIDE")
    return d


def serve_marker_source(marker: Path) -> dict:
    """A reference/source.json that would create ``marker`` (and pip-install a package) if obeyed."""
    return {"kind": "pypi", "package": "iwr-hostile-never-installed", "version": "6.6.6",
            "serve": f"{sys.executable} -c \"open('{marker}', 'w').write('ran')\" {{port}}", "page": "/"}


# --------------------------------------------------------------------------- the mixed run


@pytest.fixture(scope="module")
def mixed(tmp_path_factory, outside):
    """One `iwr eval` over good and broken tasks with blank, oracle, two replay folders and a fake provider."""
    root = tmp_path_factory.mktemp("mixed")
    cache = root / "cache"
    suite = root / "suite"
    marker = root / "MARKER"
    make_task(suite, "good")
    serve = make_task(suite, "hostile-serve")  # good files; its source.json would run a command
    (serve / "stitched_assets" / "stitched_image_1.png").write_bytes(png_bytes(40, 20, (200, 0, 0)))  # not "good"'s
    (serve / "reference").mkdir()
    (serve / "reference" / "source.json").write_text(json.dumps(serve_marker_source(marker)))
    d = make_task(suite, "corrupt-png")
    png = (d / "checkpoints" / "step_1.png").read_bytes()
    (d / "checkpoints" / "step_1.png").write_bytes(png[: len(png) // 2])  # valid header, truncated data
    d = make_task(suite, "checkpoint-link-out")
    (d / "checkpoints" / "step_2.png").unlink()
    (d / "checkpoints" / "step_2.png").symlink_to(outside / "secret.png")
    d = make_task(suite, "composite-link-out")
    (d / "stitched_assets" / "zz_secret.png").symlink_to(outside / "secret.png")
    d = make_task(suite, "assets-link-out")
    (d / "assets" / "passwd").symlink_to("/etc/passwd")
    d = make_task(suite, "assets-loop")
    (d / "assets" / "loop").symlink_to(d / "assets" / "loop")
    d = make_task(suite, "bad-metadata")
    (d / "metadata.json").write_bytes(b'{"recording_details": {"resolution": "\xff\xfe"}}')

    pages_a, pages_b = root / "pages-a", root / "pages-b"
    (pages_a / "good").mkdir(parents=True)
    (pages_a / "good" / "index.html").write_text("<!doctype html><html><body><input placeholder=search></body></html>")
    (pages_a / "hostile-serve").mkdir(parents=True)
    (pages_a / "hostile-serve" / "index.html").write_text("<p>hi</p>")
    (pages_a / "hostile-serve" / "a").symlink_to(pages_a / "hostile-serve" / "b")
    (pages_a / "hostile-serve" / "b").symlink_to(pages_a / "hostile-serve" / "a")  # a loop
    (pages_b / "good").mkdir(parents=True)
    (pages_b / "good" / "index.html").write_text("<p>hi</p>")
    (pages_b / "good" / "passwd.txt").symlink_to("/etc/passwd")

    out = root / "run"
    with FakeProviderServer("openai") as fake:
        models = ["blank", "oracle", f"replay:{pages_a}", f"replay:{pages_b}", "openai:fake-model"]
        args = ["eval", "--tasks", str(suite), "--out", str(out), "--base-url", fake.base_url,
                "--cache-dir", str(root / "responses"), "--action-timeout", "5"]
        for m in models:
            args += ["--model", m]
        r = iwr(*args, env={"IWR_CACHE": str(cache), "OPENAI_API_KEY": "x"})
        requests = list(fake.requests)
        images = [fake.images(i) for i in range(len(fake.requests))]
    results = {}
    for line in (out / "results.jsonl").read_text().splitlines():
        x = json.loads(line)
        name = x["model"].rsplit("/", 1)[-1] if x["model"].startswith("replay:") else x["model"].split(":")[-1]
        results[(name, x["task_id"])] = x
    return {"r": r, "results": results, "marker": marker, "cache": cache, "out": out, "suite": suite,
            "requests": requests, "images": images, "root": root}


def test_mixed_run_finishes_with_error_rows(mixed):
    r = mixed["r"]
    assert r.returncode == 0, r.stdout[-3000:] + r.stderr[-3000:]
    assert "Traceback" not in r.stderr and "Traceback" not in r.stdout
    res = mixed["results"]
    assert len(res) == 8 * 5
    broken = ["corrupt-png", "checkpoint-link-out", "composite-link-out", "assets-link-out", "assets-loop", "bad-metadata"]
    why = {"corrupt-png": "step_1.png: unreadable image", "checkpoint-link-out": "step_2.png: points outside the task folder",
           "composite-link-out": "zz_secret.png: points outside the task folder",
           "assets-link-out": "passwd: points outside the task folder", "assets-loop": "loop: symlink loop",
           "bad-metadata": "metadata.json: not UTF-8"}
    for (model, tid), x in res.items():
        if tid in broken:
            assert x["status"] == "task_error", (model, tid, x["status"], x["error"])
            assert why[tid] in x["error"] and "\n" not in x["error"], x["error"]
            assert x["final"] is None and x["steps"] == []
    # the good tasks are judged normally
    for tid in ("good", "hostile-serve"):
        assert res[("blank", tid)]["status"] == "ok" and len(res[("blank", tid)]["steps"]) == 2
        assert res[("fake-model", tid)]["status"] in ("ok", "page_error")
    good_page = res[("pages-a", "good")]
    assert good_page["status"] == "ok" and good_page["steps"][0]["executed"]  # the search box was typed into


def test_task_errors_are_listed_not_scored(mixed):
    summary = json.loads((mixed["out"] / "summary.json").read_text())
    rows = {r["model"]: r for r in summary["leaderboard"]}
    blank = rows["blank"]
    assert blank["tasks"] == 2 and blank["errors"].get("task_error") == 6
    from iwrbench.runs.rundir import RunDir

    done = RunDir(mixed["out"]).done()  # a task_error is finished work: not retried on resume
    assert ("blank", "corrupt-png") in done and ("oracle", "assets-loop") in done


def test_source_json_is_never_executed_or_installed(mixed):
    res = mixed["results"]
    assert not mixed["marker"].exists()
    assert not (mixed["cache"] / "pypi").exists()  # nothing pip-installed
    x = res[("oracle", "hostile-serve")]
    assert x["status"] == "generation_error"
    assert "task hostile-serve has no bundled recipe; pass --oracle-recipes" in x["error"]


@pytest.mark.browser
def test_validate_and_run_with_a_serve_command_run_nothing(tmp_path):
    marker = tmp_path / "MARKER"
    d = make_task(tmp_path / "suite", "hostile-serve")
    (d / "reference").mkdir()
    (d / "reference" / "source.json").write_text(json.dumps(serve_marker_source(marker)))
    env = {"IWR_CACHE": str(tmp_path / "cache")}
    r = iwr("validate", "--oracle", str(d), env=env)
    assert r.returncode == 1 and "Traceback" not in r.stderr
    assert "FAIL  hostile-serve: task hostile-serve has no bundled recipe; pass --oracle-recipes" in r.stdout
    r = iwr("run", "--tasks", str(tmp_path / "suite"), "--model", "oracle", "--out", str(tmp_path / "run"), env=env)
    assert r.returncode == 0 and "Traceback" not in r.stderr, r.stderr
    assert not marker.exists() and not (tmp_path / "cache" / "pypi").exists()


def test_an_id_matching_a_bundled_recipe_gets_our_source_not_the_folder_s(tmp_path):
    from iwrbench.suites.catalog import HERE
    from iwrbench.tasks import load_task
    from iwrbench.validate.oracle import oracle_bundle

    d = make_task(tmp_path, "todo-add-filter")
    (d / "reference").mkdir()
    (d / "reference" / "source.json").write_text(json.dumps(serve_marker_source(tmp_path / "MARKER")))
    bundle = oracle_bundle(load_task(d))
    assert bundle.serve_command is None and bundle.root.is_relative_to(HERE)
    assert not (tmp_path / "MARKER").exists()


@pytest.mark.browser
def test_a_task_recorded_elsewhere_needs_its_recipe_passed_explicitly(tmp_path):
    from iwrbench.record.recipe import load_recipe
    from iwrbench.record.recorder import record

    (tmp_path / "recipes" / "site").mkdir(parents=True)
    (tmp_path / "recipes" / "site" / "index.html").write_text(
        "<!doctype html><html><body><h1>Hi</h1><button onclick=\"this.textContent='Done'\">Go</button></body></html>")
    recipe = tmp_path / "recipes" / "elsewhere.yaml"
    recipe.write_text("id: elsewhere\nsource: {site: ./site}\nviewport: {width: 400, height: 300}\nactions:\n"
                      "  - {type: Click, target: 'button', description: the Go button, assert: Done, visual: true}\n")
    task = tmp_path / "suite" / "elsewhere"
    record(load_recipe(recipe), task, passes=1)
    env = {"IWR_CACHE": str(tmp_path / "cache")}
    r = iwr("validate", "--oracle", str(task), env=env)
    assert r.returncode == 1 and "task elsewhere has no bundled recipe; pass --oracle-recipes" in r.stdout
    r = iwr("validate", "--oracle", "--oracle-recipes", str(tmp_path / "recipes"), str(task), env=env)
    assert r.returncode == 0 and "ok    elsewhere oracle IFS 100" in r.stdout, r.stdout + r.stderr
    r = iwr("eval", "--tasks", str(tmp_path / "suite"), "--model", "oracle", "--oracle-recipes", str(recipe),
            "--out", str(tmp_path / "run"), env=env)
    assert r.returncode == 0, r.stderr
    row = json.loads((tmp_path / "run" / "results.jsonl").read_text())
    assert row["status"] == "ok" and row["ifs"] == 100
    assert json.loads((tmp_path / "run" / "pages" / "oracle" / "elsewhere" / "ORACLE.json").read_text())["recipe"] == str(recipe)


def test_composites_outside_are_never_sent_to_the_provider(mixed):
    sent = [img for imgs in mixed["images"] for _, img in imgs]
    assert len(mixed["requests"]) == 2  # the two good tasks, nothing for the broken ones
    assert png_bytes(40, 20, SECRET_RGB) not in sent
    from iwrbench.models.base import GenerationOptions
    from iwrbench.generate.prompt import build_request
    from iwrbench.tasks import load_task

    task = load_task(mixed["suite"] / "composite-link-out")
    with pytest.raises(TaskError, match="zz_secret.png: points outside the task folder"):
        build_request(task, GenerationOptions())


def test_replay_links_out_and_loops_are_error_rows(mixed):
    res = mixed["results"]
    out = res[("pages-b", "good")]
    assert out["status"] == "generation_error"
    assert "passwd.txt: a symlink pointing outside the page folder" in out["error"]
    loop = res[("pages-a", "hostile-serve")]
    assert loop["status"] == "generation_error" and "symlink loop" in loop["error"]
    copied = list((mixed["out"] / "pages").rglob("passwd*"))
    assert not copied or all("root:" not in p.read_text(errors="replace") for p in copied if p.is_file())


def test_report_and_resume_skip_an_unreadable_results_line(mixed, tmp_path):
    run = tmp_path / "run"
    shutil.copytree(mixed["out"], run)
    lines = (run / "results.jsonl").read_bytes().splitlines(keepends=True)
    lines.insert(3, b'{"model": "blank", "task_id": "\xff\xfe broken"}\n')
    lines.insert(5, b"[" * 5000 + b"\n")
    (run / "results.jsonl").write_bytes(b"".join(lines))
    r = iwr("report", str(run))
    assert r.returncode == 0, r.stderr
    warn = [x for x in r.stderr.splitlines() if x.strip()]
    assert len(warn) == 2 and "results.jsonl line 4: not UTF-8 text; skipped" in warn[0], r.stderr
    assert "results.jsonl line 6" in warn[1] and "Traceback" not in r.stderr
    from iwrbench.runs.rundir import RunDir

    assert len(RunDir(run).done()) == 40  # resume sees every finished unit despite the bad lines
    board = json.loads((run / "leaderboard.json").read_text())
    assert {x["model"]: x for x in board["leaderboard"]}["blank"]["errors"]["task_error"] == 6
    assert "task err" in (run / "report.html").read_text()


class _Buggy:
    """A model with a bug (or a provider SDK that raises something unforeseen)."""

    name = "buggy"

    def describe(self):
        return {"kind": "test"}

    async def generate(self, task, out_dir, options):
        raise ValueError("boom\nsecond line")


class _BlankThatBreaksTheTask:
    """A blank page; while it is "generated" the task's checkpoint is corrupted (a file changing under us)."""

    name = "blank-breaking"

    def describe(self):
        return {"kind": "test"}

    async def generate(self, task, out_dir, options):
        from iwrbench.generate.baselines import BlankModel

        cp = task.checkpoint(0)
        cp.write_bytes(cp.read_bytes()[:60])
        return await BlankModel().generate(task, out_dir, options)


class _DeadServer:
    """A page served by a command that dies at once (as a broken oracle server would)."""

    name = "dead-server"

    def describe(self):
        return {"kind": "test"}

    async def generate(self, task, out_dir, options):
        from iwrbench.browser.host import PageBundle
        from iwrbench.models.base import Generation
        from iwrbench.records import GenerationInfo, GenerationOutcome

        out_dir.mkdir(parents=True, exist_ok=True)
        cmd = f"{sys.executable} -c \"raise SystemExit(3)\" {{port}}"
        return Generation(GenerationOutcome.OK, PageBundle(root=out_dir, serve_command=cmd), GenerationInfo())


@pytest.mark.browser
def test_unexpected_exceptions_become_error_rows(tmp_path):
    import asyncio

    from iwrbench.judge.score import JudgeComponents
    from iwrbench.models.base import GenerationOptions
    from iwrbench.protocols import OFFLINE
    from iwrbench.runs.evaluate import BrowserBox, run_unit
    from iwrbench.runs.rundir import RunDir
    from iwrbench.tasks import load_task

    task = load_task(make_task(tmp_path / "suite", "t1"))
    run = RunDir(tmp_path / "run")

    async def go():
        box = BrowserBox()
        try:
            comps = JudgeComponents.for_protocol(OFFLINE)
            a = await run_unit(box, _Buggy(), task, run, OFFLINE, comps, GenerationOptions(), retries=1)
            c = await run_unit(box, _DeadServer(), task, run, OFFLINE, comps, GenerationOptions(), retries=1)
            b = await run_unit(box, _BlankThatBreaksTheTask(), task, run, OFFLINE, comps, GenerationOptions(), retries=1)
            return a, b, c
        finally:
            await box.close()

    a, b, c = asyncio.run(go())
    assert a.status == "judge_error" and a.error == "generation failed unexpectedly: ValueError: boom"
    assert c.status == "judge_error" and c.error.startswith("judging failed: RecordError: server"), c.error
    assert c.attempts == 1  # not retried within the run (it would fail the same way); redone on resume
    # a checkpoint broken after the unit's checks: the task's error (or ours), one line, never a crash
    assert b.status in ("task_error", "judge_error") and "\n" not in b.error and "step_" in b.error, b.error


# --------------------------------------------------------------------------- loader errors (exit 2, one line)


def _eval(suite: Path, tmp_path: Path) -> str:
    out = tmp_path / "run"
    msg = one_line_error(iwr_here("eval", "--tasks", str(suite), "--model", "blank", "--out", str(out)))
    assert not out.exists()  # nothing ran
    return msg


@pytest.mark.parametrize("path", ["/etc/passwd", "../../../../etc/passwd", "checkpoints/../../x.png", "C:\\x.png"])
def test_checkpoint_screenshot_escaping_is_refused(tmp_path, path):
    d = make_task(tmp_path / "suite", "t1")
    set_field(d, lambda x: x["action_sequence"][0].__setitem__("checkpoint_screenshot", path))
    msg = _eval(tmp_path / "suite", tmp_path)
    assert "t1/task.json" in msg and "action_sequence.0.checkpoint_screenshot" in msg
    assert "must be a relative path inside the task folder" in msg


def _write_raw(d: Path, text: str | bytes) -> None:
    (d / "task.json").write_bytes(text.encode() if isinstance(text, str) else text)


@pytest.mark.parametrize("case, expect", [
    ("deep", "nested deeper than 64 levels"),
    ("deep-under-recursion-limit", "nested deeper than 64 levels"),
    ("huge-int", "an integer of 5000 digits"),
    ("nan", "NaN is not JSON"),
    ("bad-utf8", "not UTF-8 text"),
    ("long-description", "field 'action_sequence.0.description': 20000 characters (max 10000)"),
    ("long-assertion", "field 'action_sequence.1.assertion': 10001 characters (max 10000)"),
    ("long-typed-text", "field 'action_sequence.0.text': 50000 characters (max 10000)"),
    ("too-many-actions", "1001 actions (max 1000)"),
    ("huge-file", "larger than 8388608 bytes"),
    ("id-list", "field 'id': must be a string, got array"),
    ("id-int", "field 'id': must be a string, got integer"),
    ("task-json-link-out", "task.json: points outside the task folder"),
])
def test_bad_task_json_is_one_line(tmp_path, outside, case, expect):
    d = make_task(tmp_path / "suite", "t1")
    good = json.loads(GOOD_LINE)
    good["id"] = "t1"
    if case == "deep":
        _write_raw(d, '{"id": "t1", "action_sequence": [], "x": ' + "[" * 100_000 + "]" * 100_000 + "}")
    elif case == "deep-under-recursion-limit":
        _write_raw(d, '{"id": "t1", "action_sequence": [], "x": ' + "[" * 500 + "]" * 500 + "}")
    elif case == "huge-int":
        _write_raw(d, '{"id": "t1", "action_sequence": [], "x": ' + "9" * 5000 + "}")
    elif case == "nan":
        _write_raw(d, '{"id": "t1", "action_sequence": [], "x": NaN}')
    elif case == "bad-utf8":
        _write_raw(d, b'{"id": "t1\xff", "action_sequence": []}')
    elif case == "long-description":
        good["action_sequence"][0]["parameters"]["description"] = "d" * 20_000
        _write_raw(d, json.dumps(good))
    elif case == "long-assertion":
        good["action_sequence"][1]["logical_assertion"] = "a" * 10_001
        _write_raw(d, json.dumps(good))
    elif case == "long-typed-text":
        good["action_sequence"][0]["parameters"]["text"] = "t" * 50_000
        _write_raw(d, json.dumps(good))
    elif case == "too-many-actions":
        good["action_sequence"] = [good["action_sequence"][1]] * 1001
        _write_raw(d, json.dumps(good))
    elif case == "huge-file":
        good["padding"] = ["x" * 100_000] * 90
        _write_raw(d, json.dumps(good))
    elif case == "id-list":
        good["id"] = ["t1"]
        _write_raw(d, json.dumps(good))
    elif case == "id-int":
        good["id"] = 7
        _write_raw(d, json.dumps(good))
    elif case == "task-json-link-out":
        (outside / "task-out.json").write_text(json.dumps(good))
        (d / "task.json").unlink()
        (d / "task.json").symlink_to(outside / "task-out.json")
    msg = _eval(tmp_path / "suite", tmp_path)
    assert expect in msg, msg
    assert len(msg) < 600


@pytest.mark.parametrize("case, expect", [
    ("id-list", "line 2: field 'id': must be a string or an integer, got array"),
    ("id-object", "line 2: field 'id': must be a string or an integer, got object"),
    ("id-bool", "line 2: field 'id': must be a string or an integer, got boolean"),
    ("deep", "line 2: nested deeper than 64 levels"),
    ("huge-int", "line 2: an integer of 5000 digits"),
    ("bad-utf8", "line 2: not UTF-8 text"),
])
def test_bad_data_jsonl_line_is_one_line(tmp_path, case, expect):
    ds = tmp_path / "ds"
    shutil.copytree(FIX, ds)
    first, second = (FIX / "data.jsonl").read_text().splitlines()[:2]
    if case.startswith("id-"):
        bad = json.loads(second)
        bad["id"] = {"id-list": ["demo_search"], "id-object": {"a": 1}, "id-bool": True}[case]
        line = json.dumps(bad).encode()
    elif case == "deep":
        line = b'{"id": "x", "action_sequence": ' + b"[" * 200 + b"]" * 200 + b"}"
    elif case == "huge-int":
        line = b'{"id": ' + b"1" * 5000 + b', "action_sequence": []}'
    else:
        line = b'{"id": "demo_search\xff", "action_sequence": []}'
    (ds / "data.jsonl").write_bytes(first.encode() + b"\n" + line + b"\n")
    msg = _eval(ds, tmp_path)
    assert "data.jsonl" in msg and expect in msg, msg


def test_integer_ids_are_accepted_in_data_jsonl(tmp_path):
    from iwrbench.tasks import load_suite

    ds = tmp_path / "ds"
    shutil.copytree(FIX, ds)
    (ds / "data" / "demo_search").rename(ds / "data" / "42")
    second = json.loads((FIX / "data.jsonl").read_text().splitlines()[1])
    second["id"] = 42
    (ds / "data.jsonl").write_text(json.dumps(second) + "\n")
    assert [t.id for t in load_suite(ds)] == ["42"]


def test_unreadable_metadata_in_the_official_layout_is_that_task_s_error(tmp_path):
    from iwrbench.tasks import load_suite
    from iwrbench.tasks.files import task_problems

    ds = tmp_path / "ds"
    shutil.copytree(FIX, ds)
    (ds / "data" / "demo_counter" / "metadata.json").write_bytes(b"\xff\xfe{")
    counter, search = load_suite(ds)  # the loader goes on (the resolution falls back to the default)
    assert task_problems(search) == []
    assert any("metadata.json: not UTF-8 text" in p for p in task_problems(counter))
    (ds / "data" / "demo_counter" / "metadata.json").write_text('{"x": ' + "[" * 100 + "]" * 100 + "}")
    assert "nested deeper" in task_problems(load_suite(ds)[0])[0]


def test_alias_bomb_recipe_is_refused(tmp_path):
    levels = ["a: &a [x, x, x, x, x, x, x, x, x, x]"]
    for k in range(1, 9):
        prev, cur = chr(ord("a") + k - 1), chr(ord("a") + k)
        levels.append(f"{cur}: &{cur} [" + ", ".join([f"*{prev}"] * 10) + "]")
    text = ("id: bomb\nsource: {site: ./site}\n" + "\n".join(levels)
            + "\nactions:\n  - {type: Press, key: a, description: *i}\n")
    p = tmp_path / "bomb.yaml"
    p.write_text(text)
    assert len(text) < 1000
    msg = one_line_error(iwr("record", str(p), "--out", str(tmp_path / "t"), timeout=60))
    assert "bomb.yaml: line 4: YAML aliases (*a) are not allowed in recipes" in msg
    assert not (tmp_path / "t").exists()
    # given as --oracle-recipes it is refused the same way, before any work
    d = make_task(tmp_path / "suite", "bomb")
    msg = one_line_error(iwr("eval", "--tasks", str(tmp_path / "suite"), "--model", "oracle", "--out",
                             str(tmp_path / "run"), "--oracle-recipes", str(p), timeout=120))
    assert "YAML aliases" in msg and not (tmp_path / "run").exists() and d.exists()


@pytest.mark.parametrize("text, expect", [
    ("id: x\nsource: {site: s}\nseed: " + "9" * 5000 + "\nactions:\n  - {type: Press, key: a, description: d}\n",
     "an integer with too many digits"),
    ("id: x\nsource: {site: s}\nz: " + "[" * 5000 + "]" * 5000 + "\nactions:\n  - {type: Press, key: a, description: d}\n",
     "nested too deeply"),
    ("id: x\nsource: {site: s}\nactions:\n  - {type: Press, key: a, description: " + "d" * 10_001 + "}\n",
     "line 4: field 'actions.0.description': 10001 characters (max 10000)"),
    ("id: x\nsource: {site: s}\nactions:\n" + "  - {type: Press, key: a, description: d}\n" * 1001,
     "field 'actions': 1001 actions (max 1000)"),
])
def test_hostile_recipes_are_one_line(tmp_path, text, expect):
    from iwrbench.record.recipe import load_recipe

    p = tmp_path / "r.yaml"
    p.write_text(text)
    with pytest.raises(RecipeError) as e:
        load_recipe(p)
    assert expect in str(e.value) and "\n" not in str(e.value)
    p.write_bytes(b"x" * (1024 * 1024 + 1))
    with pytest.raises(RecipeError, match="larger than a recipe may be"):
        load_recipe(p)


# --------------------------------------------------------------------------- files: unit level


def test_symlinked_folders_and_dangling_links_are_refused(tmp_path, outside):
    from iwrbench.tasks import load_task
    from iwrbench.tasks.files import task_problems

    d = make_task(tmp_path, "t1")
    shutil.rmtree(d / "stitched_assets")
    (d / "stitched_assets").symlink_to(outside)  # the whole folder points out
    assert "stitched_assets: points outside the task folder" in task_problems(load_task(d))[0]
    (d / "stitched_assets").unlink()
    (d / "stitched_assets").mkdir()
    (d / "stitched_assets" / "x.png").symlink_to(tmp_path / "nowhere.png")
    assert "x.png: broken symlink" in task_problems(load_task(d))[0]
    (d / "stitched_assets" / "x.png").unlink()
    (d / "video.mp4").rename(outside / "video.mp4")
    (d / "video.mp4").symlink_to(outside / "video.mp4")
    assert "video.mp4: points outside the task folder" in task_problems(load_task(d))[0]


def test_a_link_inside_the_folder_is_refused_too(tmp_path):
    """A link that stays inside can still hand a page the ground truth (tests/tasks/test_ground_truth_reach.py)."""
    from iwrbench.tasks import load_task
    from iwrbench.tasks.files import task_problems

    d = make_task(tmp_path, "t1")
    (d / "stitched_assets" / "again.png").symlink_to(d / "stitched_assets" / "stitched_image_1.png")
    assert "again.png: a symbolic link (to stitched_assets/stitched_image_1.png in the task folder)" in \
        task_problems(load_task(d))[0]


def test_validate_names_escaping_files(tmp_path, outside):
    d = make_task(tmp_path, "t1")
    (d / "reference").mkdir()
    (d / "reference" / "notes.txt").symlink_to(outside / "secret.txt")
    r = iwr("validate", str(d))
    assert r.returncode == 1 and "reference/notes.txt: points outside the task folder" in r.stdout
    assert "Traceback" not in r.stderr


def test_replay_copy_keeps_inner_links_and_caps_the_folder(tmp_path, monkeypatch):
    from iwrbench import limits
    from iwrbench.generate.baselines import PageFolderError, copy_page_folder

    src = tmp_path / "page"
    (src / "css").mkdir(parents=True)
    (src / "index.html").write_text("<link rel=stylesheet href=style/main.css>")
    (src / "css" / "main.css").write_text("body{}")
    (src / "style").symlink_to(src / "css")  # a folder link inside: kept as a link inside the copy
    (src / "home.html").symlink_to(src / "index.html")
    copy_page_folder(src, tmp_path / "out")
    assert (tmp_path / "out" / "style" / "main.css").read_text() == "body{}"
    assert os.path.realpath(tmp_path / "out" / "style") == str((tmp_path / "out" / "css").resolve())
    assert not (tmp_path / "out" / "home.html").is_symlink()
    monkeypatch.setattr(limits, "MAX_PAGE_FILES", 3)
    with pytest.raises(PageFolderError, match="more than 3 files"):
        copy_page_folder(src, tmp_path / "out2")
    monkeypatch.setattr(limits, "MAX_PAGE_FILES", 100)
    monkeypatch.setattr(limits, "MAX_PAGE_FILE_BYTES", 10)
    with pytest.raises(PageFolderError, match=r"\.html: \d+ bytes \(max 10 per file\)"):
        copy_page_folder(src, tmp_path / "out3")


# --------------------------------------------------------------------------- the page server


def _raw(port: int, request: bytes) -> bytes:
    """Send ``request`` as is (asking the server to close after answering); the bytes answered."""
    request = request.replace(b"\r\n", b"\r\nConnection: close\r\n", 1)
    chunks = []
    with socket.create_connection(("127.0.0.1", port), timeout=20) as s:
        try:
            s.sendall(request)
        except (BrokenPipeError, ConnectionResetError):
            pass  # refused before it was all sent: the answer is still there to read
        while True:
            try:
                b = s.recv(65536)
            except ConnectionResetError:
                break
            if not b:
                break
            chunks.append(b)
    return b"".join(chunks)


def test_page_server_refuses_bad_requests_without_tracebacks(tmp_path, outside, capfd):
    from iwrbench.browser.server import StaticServer

    site = tmp_path / "site"
    site.mkdir()
    (site / "index.html").write_text("hello")
    (site / "out.txt").symlink_to(outside / "secret.txt")
    (site / "loop").symlink_to(site / "loop")
    cases = {
        b"GET /index.html HTTP/1.1\r\nHost: x\r\n\r\n": b"200",
        b"GET /a%00b HTTP/1.1\r\nHost: x\r\n\r\n": b"400",
        b"GET /%ff%fe HTTP/1.1\r\nHost: x\r\n\r\n": b"400",
        b"GET /" + b"a" * 300 + b" HTTP/1.1\r\nHost: x\r\n\r\n": b"414",
        b"GET /" + b"a/" * 5000 + b" HTTP/1.1\r\nHost: x\r\n\r\n": b"414",
        b"GET /" + b"%41" * 70000 + b" HTTP/1.1\r\nHost: x\r\n\r\n": b"414",
        b"GET /index.html HTTP/1.1\r\nHost: x\r\nX-Big: " + b"y" * 70000 + b"\r\n\r\n": b"431",
        b"GET /index.html HTTP/1.1\r\n" + b"".join(b"X-%d: 1\r\n" % i for i in range(200)) + b"\r\n": b"431",
        b"POST /index.html HTTP/1.1\r\nHost: x\r\nContent-Length: abc\r\n\r\n": b"400",
        b"POST /index.html HTTP/1.1\r\nHost: x\r\nContent-Length: -5\r\n\r\n": b"400",
        b"GET /out.txt HTTP/1.1\r\nHost: x\r\n\r\n": b"404",
        b"GET /loop HTTP/1.1\r\nHost: x\r\n\r\n": b"404",
        b"GET /../../etc/passwd HTTP/1.1\r\nHost: x\r\n\r\n": b"404",
    }
    with StaticServer({"/": site}) as srv:
        for req, status in cases.items():
            reply = _raw(srv.port, req)
            assert reply.split(b"\r\n", 1)[0].split(b" ")[1] == status, (req[:60], reply[:120])
            assert b"TOP-SECRET" not in reply
        assert _raw(srv.port, b"GET /index.html HTTP/1.1\r\nHost: x\r\n\r\n").endswith(b"hello")  # still serving
    err = capfd.readouterr().err
    assert "Traceback" not in err, err


def _png_header_only(path: Path, w: int, h: int) -> None:
    """A PNG that claims w x h pixels in a few dozen bytes (a decompression bomb's header)."""
    import struct
    import zlib

    def chunk(kind: bytes, data: bytes) -> bytes:
        return struct.pack(">I", len(data)) + kind + data + struct.pack(">I", zlib.crc32(kind + data))

    ihdr = struct.pack(">IIBBBBB", w, h, 8, 0, 0, 0, 0)
    path.write_bytes(b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", ihdr) + chunk(b"IDAT", zlib.compress(b"\0" * 64))
                     + chunk(b"IEND", b""))


@pytest.mark.parametrize("where", ["checkpoints/step_1.png", "stitched_assets/stitched_image_1.png"])
def test_an_image_claiming_too_many_pixels_is_refused_unread(tmp_path, where):
    d = make_task(tmp_path, "t1")
    _png_header_only(d / where, 10_000, 10_000)
    r = iwr("validate", str(d))
    assert r.returncode == 1, r.stdout
    assert f"{where}: 10000x10000 pixels (max 60000000)" in r.stdout
    assert "Traceback" not in r.stderr
