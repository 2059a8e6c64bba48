"""Leaderboard files, merging runs (and refusing to), error units, the CLI and rewrites."""

from __future__ import annotations

import csv
import io
import json
import re
import shutil
from pathlib import Path

import pytest

from iwrbench.cli import main
from iwrbench.errors import IwrError
from iwrbench.records import RunSpec, TaskResult
from iwrbench.report import load_runs, summary_text, write_reports

MODELS = ["oracle", "blank", "screenshot"]  # as in conftest.report_run


def _header_copy(run_dir: Path, dst: Path, **changes) -> Path:
    """A run folder with the same run.json (changed as asked) and results, without pictures."""
    dst.mkdir(parents=True)
    spec = json.loads((run_dir / "run.json").read_text())
    spec.update(changes)
    (dst / "run.json").write_text(json.dumps(spec))
    shutil.copy(run_dir / "results.jsonl", dst / "results.jsonl")
    return dst


def test_leaderboard_files_have_a_row_per_model(report_run):
    folder = report_run.html.parent
    board = report_run.summary["leaderboard"]
    md = (folder / "leaderboard.md").read_text()
    first = md.split("\n\n")[1]  # the leaderboard; the neighbours, the novel/famous split and the categories follow
    table = [line for line in first.splitlines() if line.startswith("| ") and not line.startswith("| #")]
    assert [line.split("|")[2].strip() for line in table] == [r["model"] for r in board]
    for line, r in zip(table, board):  # each score with its interval, steps passed and n
        cells = [c.strip() for c in line.split("|")[1:-1]]
        assert cells[2] == f"{r['final']:.2f}" and cells[3] == f"[{r['final_ci']['low']:.2f}, {r['final_ci']['high']:.2f}]"
        assert cells[10] == f"{r['steps_passed']}/{r['steps_total']}" and cells[11] == "2"
    assert "offline@2" in md and "10,000 resamples" in md and "Neighbours on the leaderboard" in md
    assert "By provenance" in md and "| novel |" in md  # the smoke tasks are apps written for the suite

    rows = list(csv.DictReader(io.StringIO((folder / "leaderboard.csv").read_text())))
    assert [r["model"] for r in rows] == [r["model"] for r in board]
    for got, want in zip(rows, board):
        assert float(got["final"]) == pytest.approx(want["final"])
        assert float(got["ifs"]) == pytest.approx(want["ifs"])
        assert int(got["tasks"]) == want["tasks"] == 2

    data = json.loads((folder / "leaderboard.json").read_text())
    assert data["protocol"] == "offline@2"
    assert data["leaderboard"] == board
    assert set(data["by_tag"]) == {"domain", "visual_complexity", "interaction_complexity", "provenance"}
    assert data["bootstrap"]["resamples"] == 10000 and len(data["adjacent"]) == len(board) - 1

    text = summary_text(report_run.summary)
    assert all(m in text for m in MODELS) and "Final" in text


def test_runs_merge_when_suite_and_protocol_match(report_run, tmp_path):
    other = _header_copy(report_run.run_dir, tmp_path / "again")
    rs = load_runs([report_run.run_dir, other])
    labels = {r["model"] for r in rs.summary()["leaderboard"]}
    assert labels == {f"{m} ({n})" for m in MODELS for n in ("run", "again")}
    # the same folder twice is one run
    assert len(load_runs([report_run.run_dir, report_run.run_dir]).summary()["leaderboard"]) == len(MODELS)


def test_a_merged_report_keeps_the_first_runs_own_leaderboard(report_run, tmp_path):
    first = _header_copy(report_run.run_dir, tmp_path / "first")
    other = _header_copy(report_run.run_dir, tmp_path / "again")
    write_reports([first], formats=["md"])
    own = (first / "leaderboard.md").read_text()
    html = write_reports([first, other], formats=["md", "json"])
    assert html == first / "report-merged.html"
    assert (first / "leaderboard.md").read_text() == own  # the run's own, not the merge's
    merged = json.loads((first / "leaderboard-merged.json").read_text())["leaderboard"]
    assert len(merged) == 2 * len(MODELS) and (first / "leaderboard-merged.md").is_file()
    assert "leaderboard-merged.md" in html.read_text()


@pytest.mark.parametrize("change, words", [
    ({"protocol": "iwr-bench@1"}, ["offline@2", "iwr-bench@1"]),
    ({"suite_hash": "0123456789abcdef"}, ["different suites", "0123456789abcdef"]),
])
def test_runs_that_cannot_be_compared_are_refused(report_run, tmp_path, change, words):
    other = _header_copy(report_run.run_dir, tmp_path / "other", **change)
    with pytest.raises(IwrError) as e:
        write_reports([report_run.run_dir, other], html=tmp_path / "merged.html")
    msg = str(e.value)
    assert "\n" not in msg and msg.startswith("cannot merge runs")
    assert all(w in msg for w in words)
    assert not (tmp_path / "merged.html").exists()


def test_error_units_show_their_status_and_missing_pictures_do_not_break(report_run, tmp_path):
    run = tmp_path / "errors"
    run.mkdir()
    spec = RunSpec.model_validate_json((report_run.run_dir / "run.json").read_text())
    (run / "run.json").write_text(spec.model_copy(update={"models": ["broken"]}).model_dump_json())
    lines = [
        TaskResult(model="broken", task_id="todo-add-filter", status="generation_error", protocol="offline@2",
                   ifs=0, vfs=0, final=0, low_level_visual=0, high_level_visual=0, steps_total=7,
                   error="openai:x: no <html> document in the reply"),
        TaskResult(model="broken", task_id="signup-wizard", status="judge_error", protocol="offline@2",
                   steps_total=11, error="browser crashed", attempts=3),
    ]
    (run / "results.jsonl").write_text("".join(r.model_dump_json() + "\n" for r in lines))
    html = write_reports([run], html=None, formats=["json"])
    assert html == run / "report.html"
    assert (run / "leaderboard.json").is_file() and not (run / "leaderboard.md").exists()
    board = json.loads((run / "leaderboard.json").read_text())["leaderboard"]
    assert board == [{"model": "broken", "tasks": 1, "ifs": 0.0, "vfs": 0.0, "final": 0.0, "low_level_visual": 0.0,
                      "high_level_visual": 0.0, "errors": {"generation_error": 1, "judge_error": 1},
                      "final_ci": None, "ifs_ci": None, "vfs_ci": None, "steps_passed": 0, "steps_total": 7}]
    gen = (run / "report_files" / "broken" / "todo-add-filter.html").read_text()
    assert 'id="status-error"' in gen and "no &lt;html&gt; document in the reply" in gen
    assert "No index.html was kept" in gen
    judge = (run / "report_files" / "broken" / "signup-wizard.html").read_text()
    assert "judge error" in judge and "after 3 attempts" in judge and "browser crashed" in judge
    # a missing screenshot is a labelled placeholder, never an <img> that cannot load
    for page in (gen, judge):
        for src in re.findall(r'<img src="([^"]+)"', page):
            assert (run / "report_files" / "broken" / src).resolve().is_file(), src


def test_cli_report_rewrites_in_place_and_prunes(report_run, tmp_path, capsys):
    # start from a copy of the fixture's report: the rewrite keeps fresh pictures, drops stale files
    out = tmp_path / "cli" / "board.html"
    out.parent.mkdir()
    shutil.copy2(report_run.html, out)
    shutil.copytree(report_run.html.parent / "report_files", out.parent / "board_files")
    files = out.parent / "board_files"
    stray = files / "img" / "stale.jpg"
    stray.write_bytes(b"x")
    kept = files / "img" / "gt" / "todo-add-filter" / "step_0.jpg"
    mtime = kept.stat().st_mtime_ns
    before = {p for p in files.rglob("*") if p.is_file()}
    assert main(["report", str(report_run.run_dir), "--html", str(out), "--format", "md"]) == 0
    assert str(out) in capsys.readouterr().out
    assert (out.parent / "leaderboard.md").is_file() and not (out.parent / "leaderboard.csv").exists()
    assert not stray.exists()
    assert {p for p in files.rglob("*") if p.is_file()} == before - {stray}
    assert kept.stat().st_mtime_ns == mtime  # not redone
    assert 'id="leaderboard"' in out.read_text()


def test_cli_report_refuses_a_folder_it_did_not_write(report_run, tmp_path, capsys):
    (tmp_path / "mine_files").mkdir()
    (tmp_path / "mine_files" / "notes.txt").write_text("keep me")
    assert main(["report", str(report_run.run_dir), "--html", str(tmp_path / "mine.html")]) != 0
    err = capsys.readouterr().err
    assert "was not written by iwr report" in err
    assert (tmp_path / "mine_files" / "notes.txt").read_text() == "keep me"
    assert main(["report", str(tmp_path / "nothing-here")]) != 0
    assert "nothing-here: no such folder" in capsys.readouterr().err
    (tmp_path / "empty").mkdir()
    assert main(["report", str(tmp_path / "empty")]) != 0
    assert "not a run folder" in capsys.readouterr().err


def test_a_run_whose_suite_is_gone_still_reports_what_it_can(report_run, tmp_path):
    other = _header_copy(report_run.run_dir, tmp_path / "moved", suite=str(tmp_path / "gone"))
    html = write_reports([other], html=tmp_path / "r.html", formats=[])
    assert "is not on this machine any more" in html.read_text()
    assert not any(tmp_path.glob("leaderboard.*"))
    page = (tmp_path / "r_files" / "oracle" / "todo-add-filter.html").read_text()
    assert page.count('class="step-row') == 8  # the timeline comes from results.jsonl alone
    assert "no ground truth (suite not available)" in page and "<img" not in page
