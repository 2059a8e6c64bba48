"""Bad input: a clear one-line error naming the file or the name, non-zero exit, no traceback."""

import json
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

FIX = Path(__file__).parent / "fixtures" / "official"


def iwr(*args: str, cwd: Path | None = None) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "iwrbench.cli", *args], capture_output=True, text=True, cwd=cwd,
                          timeout=120)


def _one_line_error(r: subprocess.CompletedProcess) -> str:
    assert r.returncode != 0
    assert "Traceback" not in r.stderr
    lines = [x for x in r.stderr.splitlines() if x.strip()]
    assert len(lines) == 1, r.stderr
    return lines[0]


@pytest.fixture
def suite(tmp_path) -> Path:
    d = tmp_path / "suite" / "demo_search"
    shutil.copytree(FIX / "data" / "demo_search", d)
    (d / "task.json").write_text((FIX / "data.jsonl").read_text().splitlines()[1])
    return d.parent


def test_malformed_task_json(suite, tmp_path):
    (suite / "demo_search" / "task.json").write_text("{not json")
    msg = _one_line_error(iwr("eval", "--tasks", str(suite), "--model", "blank", "--out", str(tmp_path / "run")))
    assert "demo_search/task.json" in msg and "malformed JSON" in msg
    assert not (tmp_path / "run").exists()


def test_missing_video(suite, tmp_path):
    (suite / "demo_search" / "video.mp4").unlink()
    msg = _one_line_error(iwr("eval", "--tasks", str(suite), "--model", "blank", "--out", str(tmp_path / "run")))
    assert "demo_search/video.mp4" in msg and "missing video" in msg


def test_unknown_model(suite, tmp_path):
    msg = _one_line_error(iwr("eval", "--tasks", str(suite), "--model", "gpt-17-ultra", "--out", str(tmp_path / "run")))
    assert "unknown model 'gpt-17-ultra'" in msg
    assert not (tmp_path / "run").exists()


def test_bad_recipe_names_field_and_line(tmp_path):
    p = tmp_path / "r.yaml"
    p.write_text("id: x\nsource: {site: s}\nactions:\n  - type: Fly\n    description: up\n")
    msg = _one_line_error(iwr("record", str(p), "--out", str(tmp_path / "t")))
    assert "r.yaml" in msg and "line 4" in msg and "actions.0.type" in msg
    assert not (tmp_path / "t").exists()


def test_validate_reports_missing_checkpoint(suite):
    (suite / "demo_search" / "checkpoints" / "step_2.png").unlink()
    r = iwr("validate", str(suite / "demo_search"))
    assert r.returncode != 0 and "step_2.png: missing checkpoint" in r.stdout
    assert "Traceback" not in r.stderr


def test_official_fixture_validates(suite):
    r = iwr("validate", str(suite / "demo_search"))
    assert r.returncode == 0, r.stdout + r.stderr
    assert r.stdout.splitlines()[-1] == "1 task(s) valid"
    data = json.loads((suite / "demo_search" / "task.json").read_text())
    assert data["id"] == "demo_search"


def _commands(parser, prefix: tuple[str, ...] = ()) -> list[tuple[tuple[str, ...], list[str]]]:
    """Every (sub)command of ``parser`` with the arguments it requires filled in with placeholders."""
    import argparse

    out = []
    for action in parser._actions:
        if not isinstance(action, argparse._SubParsersAction):
            continue
        for name, sub in action.choices.items():
            nested = [a for a in sub._actions if isinstance(a, argparse._SubParsersAction)]
            if nested:
                out += _commands(sub, prefix + (name,))
                continue
            args: list[str] = []
            for a in sub._actions:
                if not a.option_strings and a.nargs not in ("?", "*"):
                    args.append(str(next(iter(a.choices))) if a.choices else "x")
                elif a.option_strings and a.required:
                    args += [a.option_strings[-1], "x"]
            out.append((prefix + (name,), args))
    return out


def test_a_bad_flag_prints_the_subcommands_usage_not_the_top_level_one(capsys):
    """``iwr validity --out DIR --bogus`` printed ``usage: iwr [-h] [--version] COMMAND ...``: argparse hands a
    subcommand's unknown arguments up to the top-level parser. Every subcommand says its own usage now."""
    from iwrbench.cli import build_parser, main

    commands = _commands(build_parser())
    assert {c[0] for c, _ in commands} >= {"record", "validate", "eval", "run", "report", "compare", "suite",
                                            "prompt", "validity", "doctor", "schema"}
    for cmd, required in commands:
        with pytest.raises(SystemExit) as e:
            main([*cmd, *required, "--no-such-flag"])
        err = capsys.readouterr().err
        assert e.value.code == 2, cmd
        assert err.startswith(f"usage: iwr {' '.join(cmd)} "), (cmd, err)
        assert f"iwr {' '.join(cmd)}: error: unrecognized arguments: --no-such-flag" in err, (cmd, err)


def test_a_reader_that_goes_away_is_no_error_of_ours():
    """`iwr suite stats full --json | head -1`: the pipe closes early; no 'internal error', no traceback."""
    import subprocess
    import sys

    p = subprocess.Popen([sys.executable, "-c", "import sys; from iwrbench.cli import main; "
                          "sys.exit(main(['schema']))"], stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    assert p.stdout is not None and p.stdout.read(10)
    p.stdout.close()  # as `head` does once it has its lines
    err = p.stderr.read().decode() if p.stderr else ""
    rc = p.wait(timeout=60)
    assert "internal error" not in err and "Traceback" not in err, err
    assert rc in (0, 141)


def test_a_refused_eval_names_no_run_folder_to_resume(tmp_path):
    """Bad values, a bad -M and tasks that are not there are refused before a run folder is named (the old order
    said 'rerun with --out runs/... to resume it' of a folder never made)."""
    import os

    env_cache = {**os.environ, "IWR_CACHE": str(tmp_path / "cache")}
    for args, words in ((["--tasks", "/nonexistent", "-M", "model=x"], "-M model"),
                        (["--tasks", "/nonexistent"], "no such file or folder"),
                        (["--tasks", "smoke"], "iwr suite build smoke"),  # a bundled suite's name, not built here
                        (["--tasks", str(FIX), "--fps", "0"], "fps 0.0")):
        r = subprocess.run([sys.executable, "-m", "iwrbench.cli", "eval", *args, "--model", "blank"],
                           capture_output=True, text=True, cwd=tmp_path, timeout=120, env=env_cache)
        msg = _one_line_error(r)
        assert words in msg, msg
        assert "run folder" not in r.stdout and not (tmp_path / "runs").exists()


def test_report_says_what_is_wrong_with_the_folder(tmp_path):
    msg = _one_line_error(iwr("report", str(tmp_path / "nosuch")))
    assert "no such folder" in msg
    (tmp_path / "bad").mkdir()
    (tmp_path / "bad" / "run.json").write_text("{}")
    msg = _one_line_error(iwr("report", str(tmp_path / "bad")))
    assert "unreadable run header" in msg and "created field required" in msg  # the fields, not '7 validation errors'
