"""The aggregate arithmetic reproduces the published leaderboard, and the prefix rule holds."""

import pytest

from iwrbench.protocols import OFFLINE, PUBLISHED, combine, get_protocol, leaderboard_row
from iwrbench.records import StepResult, Task, TaskResult, VisualScores
from iwrbench.errors import IwrError


@pytest.mark.parametrize("ifs,lvs,hvs,vfs,final", [
    (24.39, 68.29, 60.21, 64.25, 36.35),  # GPT-5, the best published row
])
def test_published_arithmetic(ifs, lvs, hvs, vfs, final):
    row = combine("gpt-5", 113, ifs, lvs, hvs)
    assert row["vfs"] == vfs
    assert row["final"] == final


def _steps(flags):
    return [StepResult(index=i, type="Click", executed=True, passed=p) for i, p in enumerate(flags, 1)]


def test_prefix_rule_counts_leading_passes_only():
    ifs, lead = OFFLINE.ifs(_steps([True, True, False, True]), 4)
    assert (ifs, lead) == (50.0, 2)
    assert OFFLINE.ifs(_steps([False, True, True]), 3) == (0.0, 0)
    assert OFFLINE.ifs(_steps([True] * 3), 3) == (100.0, 3)


def _task(flags):
    return Task.model_validate({"id": "t", "action_sequence": [
        {"type": "Click", "parameters": {"description": "x"}, "visual_evaluation_flag": f} for f in flags]})


def test_visual_pairs_offline_counts_unreached():
    task = _task([True, False, True])
    steps = [StepResult(index=1, type="Click", executed=True, passed=True),
             StepResult(index=2, type="Click", executed=False, passed=False),
             StepResult(index=3, type="Click", executed=False, passed=False)]
    assert OFFLINE.visual_pairs(task, steps) == [(0, 0), (1, 1), (3, None)]
    # the published pairing: checkpoint i against the screenshot before action i; unreached left out
    assert PUBLISHED.visual_pairs(task, steps) == [(0, 0), (1, 0)]


def test_unreached_pairs_score_zero():
    v = [VisualScores(checkpoint=0, low_level=80, high_level=60),
         VisualScores(checkpoint=1, reached=False, low_level=None, high_level=None)]
    s = OFFLINE.task_scores(_steps([False]), 1, v)
    assert s["low_level_visual"] == 40 and s["high_level_visual"] == 30
    assert s["final"] == pytest.approx(0.3 * 35)


def test_leaderboard_row_macro_means_and_errors():
    rs = [TaskResult(model="m", task_id="a", status="ok", protocol="offline@2", ifs=100, low_level_visual=50, high_level_visual=50),
          TaskResult(model="m", task_id="b", status="generation_error", protocol="offline@2", ifs=0, low_level_visual=0, high_level_visual=0),
          TaskResult(model="m", task_id="c", status="judge_error", protocol="offline@2")]
    row = leaderboard_row("m", rs)
    assert row["tasks"] == 2
    assert row["ifs"] == 50 and row["vfs"] == 25 and row["final"] == 42.5
    assert row["errors"] == {"generation_error": 1, "judge_error": 1}


def test_protocol_names():
    assert get_protocol("offline").id == "offline@2"
    # the retired protocol still describes old runs, but cannot be run
    assert get_protocol("offline@1").retired
    with pytest.raises(IwrError, match="retired"):
        get_protocol("offline@1", to_run=True)
    assert get_protocol("iwr-bench@1") is PUBLISHED
    with pytest.raises(IwrError, match="unknown protocol"):
        get_protocol("nope@9")


def test_probe_cap_limits_ifs_and_visual_credit():
    steps = _steps([True, True, True, True])
    ifs, lead = OFFLINE.ifs(steps, 4, cap=1)
    assert (ifs, lead) == (25.0, 1)
    from iwrbench.records import Action, Task

    task = Task(id="t", action_sequence=[Action(type="Click", visual_evaluation_flag=True) for _ in range(4)])
    for s in steps:
        s.executed = True
    pairs = OFFLINE.visual_pairs(task, steps, cap=1)
    # the step where the probe failed still shows what the page did; later ones are not credited
    assert pairs == [(0, 0), (1, 1), (2, 2), (3, None), (4, None)]
