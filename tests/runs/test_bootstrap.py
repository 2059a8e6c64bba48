"""Scores with their uncertainty, on cases whose answer is known: a constant score has an interval of zero
width, two identical models differ by exactly 0, a large effect excludes 0, two tasks give the range of their
two Finals, and a large sample agrees with the normal approximation. Run folders are written by the run's
own writer (``RunDir``) and summarised by the code ``iwr eval`` uses; no browser."""

from __future__ import annotations

import datetime as dt
import importlib.util
import json
import math
import random
import statistics
import subprocess
import sys
from pathlib import Path

import pytest

from iwrbench.cli import main
from iwrbench.errors import IwrError
from iwrbench.protocols import OFFLINE, PUBLISHED
from iwrbench.records import Comparison, RunSpec, Summary, TaskResult
from iwrbench.runs import bootstrap
from iwrbench.runs.compare import compare_runs
from iwrbench.runs.rundir import RunDir
from iwrbench.runs.summary import summarize, summarize_results

ROOT = Path(__file__).resolve().parents[2]


def _r(model: str, task: str, ifs: float, lvs: float | None = None, hvs: float | None = None, *,
       status: str = "ok", protocol: str = "offline@2", provenance: str | None = None, steps: tuple[int, int] = (1, 2)
       ) -> TaskResult:
    lvs = ifs if lvs is None else lvs
    hvs = ifs if hvs is None else hvs
    vfs = 0.5 * lvs + 0.5 * hvs
    tags = {"domain": "shop"} | ({"provenance": provenance} if provenance else {})
    scored = status in ("ok", "page_error") or (status == "generation_error" and protocol == "offline@2")
    return TaskResult(model=model, task_id=task, status=status, protocol=protocol,  # type: ignore[arg-type]
                      ifs=ifs if scored else None, low_level_visual=lvs if scored else None,
                      high_level_visual=hvs if scored else None, vfs=vfs if scored else None,
                      final=0.7 * ifs + 0.3 * vfs if scored else None, steps_passed=steps[0], steps_total=steps[1],
                      tags=tags)


def _run(folder: Path, results: list[TaskResult], *, suite_hash: str = "abc", protocol: str = "offline@2") -> Path:
    """A run folder as ``iwr eval`` writes it: run.json, results.jsonl line by line, summary.json."""
    rd = RunDir(folder)
    folder.mkdir(parents=True)
    rd.write_spec(RunSpec(created=dt.datetime.now(dt.timezone.utc).isoformat(), iwrbench_version="test",
                          suite=str(folder / "suite"), suite_hash=suite_hash,
                          task_ids=list(dict.fromkeys(r.task_id for r in results)),
                          models=list(dict.fromkeys(r.model for r in results)), protocol=protocol))
    for r in results:
        rd.append(r)
    rd.write_summary(summarize(rd, OFFLINE if protocol == "offline@2" else PUBLISHED))
    return folder


def _spread(model: str, n: int, mean: float, sd: float, seed: int, **kw) -> list[TaskResult]:
    rng = random.Random(seed)
    return [_r(model, f"t{k:03d}", min(100.0, max(0.0, rng.gauss(mean, sd))), **kw) for k in range(n)]


# --------------------------------------------------------------------------- a model's row


def test_a_constant_score_has_an_interval_of_zero_width():
    row = summarize_results([_r("m", f"t{k}", 40.0, 60.0, 20.0) for k in range(12)], OFFLINE).leaderboard[0]
    assert row.final == pytest.approx(0.7 * 40 + 0.3 * 40) and row.tasks == 12
    for ci, value in ((row.final_ci, row.final), (row.ifs_ci, row.ifs), (row.vfs_ci, row.vfs)):
        assert ci is not None and ci.low == ci.high == value


def test_two_tasks_give_the_range_of_their_two_finals():
    # resampling two tasks: both the first (p 1/4), one of each (1/2), both the second (1/4): the 2.5th and
    # 97.5th percentiles are the two tasks' own rows
    row = summarize_results([_r("m", "a", 10.0, 50.0, 30.0), _r("m", "b", 90.0, 20.0, 60.0)], OFFLINE).leaderboard[0]
    assert (row.final_ci.low, row.final_ci.high) == (pytest.approx(0.7 * 10 + 0.3 * 40), pytest.approx(0.7 * 90 + 0.3 * 40))
    assert (row.ifs_ci.low, row.ifs_ci.high) == (10.0, 90.0)
    assert (row.vfs_ci.low, row.vfs_ci.high) == (40.0, 40.0)
    assert (row.steps_passed, row.steps_total) == (2, 4)


def test_the_row_is_recomputed_as_published_on_each_resample():
    # LVS and HVS move apart task by task while VFS = 0.5 LVS + 0.5 HVS stays 50: recomputed from the means of
    # one draw, VFS never moves (resampling LVS and HVS apart, or bootstrapping VFS from other draws, would);
    # Final = 0.7 IFS + 0.3 VFS moves with IFS alone, so its interval is IFS's, scaled
    results = [_r("m", f"t{k}", 10.0 * k, 10.0 * k, 100.0 - 10.0 * k) for k in range(11)]
    row = summarize_results(results, OFFLINE).leaderboard[0]
    assert (row.vfs, row.vfs_ci.low, row.vfs_ci.high) == (50.0, 50.0, 50.0)
    assert row.ifs_ci.low < row.ifs == 50.0 < row.ifs_ci.high
    assert row.final_ci.low == pytest.approx(0.7 * row.ifs_ci.low + 15, abs=0.011)
    assert row.final_ci.high == pytest.approx(0.7 * row.ifs_ci.high + 15, abs=0.011)


def test_a_large_sample_agrees_with_the_normal_approximation():
    results = _spread("m", 400, 40, 20, seed=3)
    finals = [r.final for r in results]
    half = 1.96 * statistics.pstdev(finals) / math.sqrt(len(finals))
    ci = summarize_results(results, OFFLINE).leaderboard[0].final_ci
    assert ci.high - ci.low == pytest.approx(2 * half, rel=0.08)
    assert (ci.low + ci.high) / 2 == pytest.approx(statistics.fmean(finals), abs=0.3)


def test_the_same_results_give_the_same_interval_in_any_order():
    results = _spread("m", 30, 35, 25, seed=1)
    a = summarize_results(results, OFFLINE).leaderboard[0]
    b = summarize_results(list(reversed(results)), OFFLINE).leaderboard[0]
    assert a.final_ci == b.final_ci and a.ifs_ci == b.ifs_ci
    other = bootstrap.row_intervals(results, seed=bootstrap.SEED + 1).final
    assert other != a.final_ci  # the seed is what fixes it
    assert abs(other.low - a.final_ci.low) < 1.5 and abs(other.high - a.final_ci.high) < 1.5


def test_one_task_gives_no_interval():
    row = summarize_results([_r("m", "a", 50.0)], OFFLINE).leaderboard[0]
    assert row.tasks == 1 and row.final == 50.0 and row.final_ci is None


@pytest.mark.parametrize("protocol, n", [("offline@2", 4), ("iwr-bench@1", 3)])
def test_errored_units_count_as_the_protocol_says(protocol, n):
    # a generation error scores 0 under offline@2 and is left out under iwr-bench@1 (as published); a judge error
    # and a broken task are left out under both: n says how many tasks the interval is over
    results = [_r("m", f"t{k}", 60.0, protocol=protocol) for k in range(3)]
    results += [_r("m", "gen", 0.0, status="generation_error", protocol=protocol),
                _r("m", "judge", 0.0, status="judge_error", protocol=protocol),
                _r("m", "task", 0.0, status="task_error", protocol=protocol)]
    s = summarize_results(results, OFFLINE if protocol == "offline@2" else PUBLISHED)
    row = s.leaderboard[0]
    assert row.tasks == n and row.errors == {"generation_error": 1, "judge_error": 1, "task_error": 1}
    # four tasks, one of them 0: the 2.5th percentile is a draw with three zeros (P(>= 3) = 5.1%, P(4) = 0.4%)
    assert row.final_ci.high == 60.0 and row.final_ci.low == (15.0 if n == 4 else 60.0)
    assert row.steps_total == 2 * n
    assert ("scores 0 and counts" if n == 4 else "left out, as published") in bootstrap.counting_rule(protocol)


# --------------------------------------------------------------------------- two models


def test_two_identical_models_differ_by_exactly_zero():
    a = _spread("a", 25, 40, 25, seed=7)
    b = [r.model_copy(update={"model": "b"}) for r in a]
    d = bootstrap.paired_difference("a", a, "b", b)
    assert d.tasks == 25 and d.difference == 0.0 and (d.ci.low, d.ci.high) == (0.0, 0.0)
    assert d.excludes_zero is False


def test_a_large_effect_excludes_zero_and_a_null_one_does_not():
    a = _spread("a", 30, 70, 15, seed=1)
    b = _spread("b", 30, 30, 15, seed=2)
    d = bootstrap.paired_difference("a", a, "b", b)
    assert d.difference > 30 and d.ci.low > 0 and d.excludes_zero
    # the same spread twice, another draw: no claim
    c = _spread("c", 30, 70, 15, seed=3)
    assert bootstrap.paired_difference("a", a, "c", c).excludes_zero is False


def test_pairing_sees_a_small_shift_that_two_separate_intervals_cannot():
    # b is a everywhere 3 points lower: their own intervals overlap widely, the paired difference is sure of it
    a = _spread("a", 30, 50, 25, seed=4)
    b = [r.model_copy(update={"model": "b", "ifs": r.ifs - 3, "low_level_visual": r.low_level_visual - 3,
                              "high_level_visual": r.high_level_visual - 3}) for r in a]
    s = summarize_results(a + b, OFFLINE)
    ra, rb = s.leaderboard
    assert rb.final_ci.high > ra.final_ci.low  # the rows' intervals overlap
    [d] = s.adjacent
    assert (d.model, d.other, d.tasks) == ("a", "b", 30)
    assert d.difference == pytest.approx(3.0) and d.ci.low == pytest.approx(3.0) and d.excludes_zero


def test_no_verdict_on_a_difference_over_too_few_tasks():
    a = [_r("a", f"t{k}", 80.0 + k) for k in range(bootstrap.MIN_VERDICT - 1)]
    b = [_r("b", f"t{k}", 20.0 + k) for k in range(bootstrap.MIN_VERDICT - 1)]
    d = bootstrap.paired_difference("a", a, "b", b)
    assert d.ci.low == d.ci.high == 60.0 and d.excludes_zero is None  # the interval, but no claim from it
    d = bootstrap.paired_difference("a", a + [_r("a", "x", 80.0)], "b", b + [_r("b", "x", 20.0)])
    assert d.tasks == bootstrap.MIN_VERDICT and d.excludes_zero is True


def test_adjacent_pairs_use_only_the_tasks_both_were_scored_on():
    a = [_r("a", f"t{k}", 80.0) for k in range(6)]
    b = [_r("b", f"t{k}", 20.0) for k in range(4)] + [_r("b", "t4", 0.0, status="judge_error")]
    s = summarize_results(a + b, OFFLINE)
    [d] = s.adjacent
    assert d.tasks == 4 and d.model_score == 80.0 and d.other_score == 20.0 and d.difference == 60.0


# --------------------------------------------------------------------------- novel and famous


def test_the_memorisation_gap_is_famous_minus_novel_with_its_interval():
    results = ([_r("m", f"n{k}", 20.0, provenance="novel") for k in range(12)]
               + [_r("m", f"f{k}", 80.0, provenance="famous") for k in range(10)]
               + _spread("w", 10, 50, 20, seed=5, provenance="novel") + [_r("w", "f0", 50.0, provenance="famous")]
               + [_r("v", f"n{k}", 20.0 + k, provenance="novel") for k in range(12)]
               + [_r("v", f"f{k}", 80.0 - k, provenance="famous") for k in range(4)])
    s = summarize_results(results, OFFLINE)
    g, v, w = sorted(s.memorisation_gap, key=lambda x: x.model)
    assert (g.model, g.novel_tasks, g.famous_tasks) == ("m", 12, 10)
    assert (g.novel, g.famous, g.difference) == (20.0, 80.0, 60.0)
    assert (g.ci.low, g.ci.high) == (60.0, 60.0) and g.excludes_zero
    assert {r.model: r.tasks for r in s.by_tag["provenance"]["novel"]} == {"m": 12, "v": 12, "w": 10}
    # four famous tasks: an interval, but too few for a verdict; one famous task: no interval either
    assert v.famous_tasks == 4 and v.ci is not None and v.ci.low > 0 and v.excludes_zero is None
    assert (w.model, w.famous_tasks, w.novel_tasks) == ("w", 1, 10)
    assert w.difference is not None and w.ci is None and w.excludes_zero is None
    # a model with tasks of one kind only has no gap
    assert summarize_results([_r("x", "a", 5.0, provenance="novel"), _r("x", "b", 5.0)], OFFLINE).memorisation_gap == []


def test_bundled_tasks_carry_their_provenance_into_results():
    from iwrbench.records import Task

    t = Task.model_validate({"id": "x", "action_sequence": [{"type": "Click"}],
                             "classification": {"domain": "games", "provenance": "famous"}})
    assert t.tags == {"domain": "games", "provenance": "famous"}


# --------------------------------------------------------------------------- files


def test_a_summary_written_before_intervals_still_loads_and_reports(tmp_path):
    old = {"protocol": "offline@2", "suite": "/s", "suite_hash": "h", "tasks": 2,
           "leaderboard": [{"model": "blank", "tasks": 2, "ifs": 0.0, "vfs": 3.1, "final": 0.93,
                            "low_level_visual": 4.0, "high_level_visual": 2.2, "errors": {}}],
           "by_tag": {"domain": {"shop": [{"model": "blank", "tasks": 2, "ifs": 0.0, "vfs": 3.1, "final": 0.93,
                                           "low_level_visual": 4.0, "high_level_visual": 2.2, "errors": {}}]}}}
    (tmp_path / "summary.json").write_text(json.dumps(old))
    s = RunDir(tmp_path).read_summary()
    assert s.bootstrap is None and s.leaderboard[0].final_ci is None and s.adjacent == []
    from iwrbench.report import leaderboard_csv, leaderboard_markdown, summary_text

    md = leaderboard_markdown(s)
    assert "| 1 | blank | 0.93 | - | 0.00 | - |" in md and "written before" in md
    assert "0.93" in summary_text(s) and leaderboard_csv(s).splitlines()[1].startswith("1,blank,0.93,")


def test_summary_json_and_the_leaderboards_carry_the_intervals(tmp_path):
    from iwrbench.report import leaderboard_csv, leaderboard_markdown, summary_text

    run = _run(tmp_path / "run", _spread("a", 20, 70, 10, seed=1, provenance="novel")
               + _spread("b", 20, 30, 10, seed=2, provenance="novel"))
    s = json.loads((run / "summary.json").read_text())
    assert s["bootstrap"] == {"method": "percentile bootstrap over tasks", "resamples": 10000, "level": 0.95, "seed": 0}
    row = s["leaderboard"][0]
    assert set(row["final_ci"]) == {"low", "high"} and row["steps_total"] == 40
    assert s["adjacent"][0]["excludes_zero"] is True and s["by_tag"]["provenance"]["novel"][0]["tasks"] == 20
    summary = Summary.model_validate(s)
    md = leaderboard_markdown(summary)
    lo, hi = row["final_ci"]["low"], row["final_ci"]["high"]
    assert f"[{lo:.2f}, {hi:.2f}]" in md and "10,000 resamples" in md and "| a | b | 20 |" in md
    assert "| novel | a |" in md  # per-category rows with their n
    csv_row = leaderboard_csv(summary).splitlines()[1].split(",")
    assert csv_row[-8:-6] == [f"{lo:.2f}", f"{hi:.2f}"] and csv_row[-2:] == ["20", "40"]
    text = summary_text(summary)
    assert f"[{lo:.2f}, {hi:.2f}]" in text and "a vs b: Final +" in text and "the order holds" in text


def test_schema_shows_the_new_fields(capsys):
    assert main(["schema", "summary"]) == 0
    schema = json.loads(capsys.readouterr().out)
    assert {"bootstrap", "adjacent", "memorisation_gap"} <= set(schema["properties"])
    row = schema["$defs"]["LeaderboardRow"]["properties"]
    assert {"final_ci", "ifs_ci", "vfs_ci", "steps_passed", "steps_total"} <= set(row)
    assert main(["schema", "comparison"]) == 0
    assert "comparisons" in json.loads(capsys.readouterr().out)["properties"]


# --------------------------------------------------------------------------- iwr compare


def test_compare_pairs_two_runs_of_one_suite_by_task(tmp_path, capsys):
    base = _spread("m", 24, 45, 20, seed=11)
    better = [r.model_copy(update={"ifs": min(100.0, r.ifs + 10)}) for r in base]
    a = _run(tmp_path / "a", better)
    b = _run(tmp_path / "b", base)
    c = compare_runs(a, b)
    [mc] = c.comparisons
    assert (mc.model_a, mc.model_b, mc.tasks) == ("m", "m", 24) and c.same_suite
    final, ifs, vfs = mc.differences
    assert final.metric == "final" and final.difference > 0 and final.excludes_zero
    assert vfs.difference == 0.0 and (vfs.ci.low, vfs.ci.high) == (0.0, 0.0) and not vfs.excludes_zero
    # the same run against itself: exactly nothing
    same = compare_runs(a, a).comparisons[0].differences[0]
    assert same.difference == 0.0 and (same.ci.low, same.ci.high) == (0.0, 0.0)
    # the command line: text, and JSON that is a Comparison
    assert main(["compare", str(a), str(b)]) == 0
    out = capsys.readouterr().out
    assert "same suite" in out and "A is better (the interval excludes 0)" in out
    assert main(["compare", str(a), str(b), "--json"]) == 0
    assert Comparison.model_validate_json(capsys.readouterr().out).comparisons[0].tasks == 24


def test_compare_refuses_other_suites_unless_asked_for_the_intersection(tmp_path, capsys):
    a = _run(tmp_path / "a", [_r("m", f"t{k}", 50.0) for k in range(6)], suite_hash="one")
    b = _run(tmp_path / "b", [_r("m", f"t{k}", 40.0) for k in range(3, 10)], suite_hash="two")
    with pytest.raises(IwrError, match=r"different suites \(suite hash one vs two; 3 task id\(s\) in common of 6 and 7\)"):
        compare_runs(a, b)
    c = compare_runs(a, b, intersection=True)
    assert not c.same_suite and c.common_tasks == 3 and "compared on the 3 task id(s) both ran" in c.notes[0]
    assert c.comparisons[0].tasks == 3 and c.comparisons[0].differences[0].difference == 10.0
    assert main(["compare", str(a), str(b)]) == 2
    err = capsys.readouterr().err
    assert "--intersection" in err and "\n" not in err.strip()
    p = _run(tmp_path / "p", [_r("m", f"t{k}", 50.0, protocol="iwr-bench@1") for k in range(6)],
             suite_hash="one", protocol="iwr-bench@1")
    with pytest.raises(IwrError, match="judged under offline@2 but .* under iwr-bench@1"):
        compare_runs(a, p)
    # no task in common: --intersection cannot help, so it is not offered
    far = _run(tmp_path / "far", [_r("m", f"u{k}", 50.0) for k in range(3)], suite_hash="three")
    with pytest.raises(IwrError, match="no task to pair$"):
        compare_runs(a, far)
    # a run with nothing judged yet says so (naming models could not help)
    empty = tmp_path / "empty"
    empty.mkdir()
    (empty / "run.json").write_text((a / "run.json").read_text())
    with pytest.raises(IwrError, match="empty has no results yet"):
        compare_runs(a, empty)


def test_compare_names_the_models_when_the_runs_share_none(tmp_path):
    a = _run(tmp_path / "a", [_r(m, f"t{k}", 50.0) for m in ("x", "y") for k in range(4)])
    b = _run(tmp_path / "b", [_r("z", f"t{k}", 30.0) for k in range(4)])
    with pytest.raises(IwrError, match="--model-a and --model-b"):
        compare_runs(a, b)
    [mc] = compare_runs(a, b, model_a="y").comparisons
    assert (mc.model_a, mc.model_b) == ("y", "z") and mc.differences[0].difference == 20.0
    with pytest.raises(IwrError, match="RUN_B has no results of 'w'"):
        compare_runs(a, b, model_a="x", model_b="w")
    # one model named: the model of that name in the other run
    [mc] = compare_runs(a, a, model_a="y").comparisons
    assert (mc.model_a, mc.model_b) == ("y", "y")


# --------------------------------------------------------------------------- bench/intervals.py


def _bench():
    spec = importlib.util.spec_from_file_location("bench_intervals", ROOT / "bench" / "intervals.py")
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    return mod


def test_bench_intervals_prints_the_width_now_and_at_other_sizes(tmp_path, capsys):
    run = _run(tmp_path / "run", _spread("m", 32, 35, 25, seed=2) + [_r("c", f"t{k:03d}", 50.0) for k in range(32)])
    out = tmp_path / "w.json"
    bench = _bench()
    assert bench.main([str(run), "--sizes", "8,32,128", "--resamples", "4000", "--json", str(out)]) == 0
    text = capsys.readouterr().out
    assert "width" in text and "at 128" in text
    [m] = json.loads(out.read_text())
    spread, const = (next(x for x in m["models"] if x["model"] == k) for k in ("m", "c"))
    assert const["width"] == 0.0 and const["at"]["128"]["width"] == 0.0
    w8, w32, w128 = (spread["at"][k]["width"] for k in ("8", "32", "128"))
    assert w8 > w32 > w128 > 0 and w32 / w128 == pytest.approx(2.0, rel=0.15)  # width ~ 1 / sqrt(n)
    assert spread["at"]["32"]["width"] == pytest.approx(spread["width"], rel=0.1)
    assert spread["at"]["32"]["normal"] == pytest.approx(spread["width"], rel=0.15)
    assert bench.main([str(tmp_path / "nope")]) == 2
    assert "nope: no such folder" in capsys.readouterr().err
    (tmp_path / "empty").mkdir()
    assert bench.main([str(tmp_path / "empty")]) == 2
    assert "not a run folder" in capsys.readouterr().err
    # the script runs as the lead will run it
    r = subprocess.run([sys.executable, str(ROOT / "bench" / "intervals.py"), "--help"], capture_output=True,
                       text=True, timeout=60)
    assert r.returncode == 0 and "--sizes" in r.stdout


def test_the_python_api_reads_the_intervals(tmp_path):
    import iwrbench

    run = _run(tmp_path / "run", _spread("a", 12, 60, 15, seed=8) + _spread("b", 12, 20, 15, seed=9))
    s = iwrbench.EvalSummary.load(run)
    row = json.loads((run / "summary.json").read_text())["leaderboard"][0]
    a = s["a"]
    assert a.final_ci == (row["final_ci"]["low"], row["final_ci"]["high"]) and a.final_ci[0] < a.final < a.final_ci[1]
    assert a.ifs_ci is not None and a.vfs_ci is not None and (a.steps_passed, a.steps_total) == (12, 24)
    assert s.raw["adjacent"][0]["model"] == "a" and s.raw["adjacent"][0]["excludes_zero"] is True
