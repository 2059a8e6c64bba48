"""The progress of a run that builds while it judges (runs/progress.py ``Pace``) and how it splits the cores
(runs/pipeline.py ``split_cores``): no browser, the events as the pipeline emits them."""

from __future__ import annotations

from iwrbench.records import TaskResult
from iwrbench.runs.pipeline import split_cores
from iwrbench.runs.progress import BuildDone, BuildStarted, Pace, RunStarted, TaskBuilt, UnitDone


def _feed(pace: Pace, event) -> None:
    pace.feed(event.KIND, event.info())


def _unit(task: str, seconds: float) -> UnitDone:
    r = TaskResult(model="blank", task_id=task, status="ok", protocol="offline@2", duration_s=seconds)
    return UnitDone(model="blank", task=task, result=r)


def test_time_left_is_the_later_of_the_build_and_the_judge():
    pace = Pace(models=2)
    _feed(pace, BuildStarted(total=4, todo=4, reused=0, jobs=1, workers=1))
    _feed(pace, RunStarted(total=8, todo=8, resumed=False, run="r"))
    assert pace.seconds_left() is None and "not known yet" in pace.line()  # nothing has ended yet
    _feed(pace, TaskBuilt(task="a", ok=True, seconds=10.0))
    _feed(pace, _unit("a", 2.0))
    # 3 recordings left at 10 s, then the last task's 2 units at 2 s; all 7 units left at 2 s is less
    assert pace.seconds_left() == 3 * 10.0 + 2 * 2.0
    assert pace.line() == "built 1/4 | judged 1/8 | about 0 min 34 s left"
    # a task that could not be built: its units leave the count, it is said
    _feed(pace, TaskBuilt(task="b", ok=False, reason="selector matches nothing", seconds=20.0))
    assert pace.units_total == 6 and pace.line().startswith("built 1/4 (1 excluded) | judged 1/6")
    assert pace.seconds_left() == 2 * 15.0 + 2 * 2.0  # the mean recording is now 15 s
    _feed(pace, TaskBuilt(task="c", ok=True, seconds=15.0))
    _feed(pace, TaskBuilt(task="d", ok=True, seconds=15.0))
    _feed(pace, BuildDone(built=3, excluded={"b": "selector matches nothing"}, workers=2))
    # only units left, over the two workers the judge has once the recordings have ended
    assert pace.seconds_left() == 5 * 2.0 / 2


def test_a_slow_judge_outlasts_the_build():
    pace = Pace(models=3)
    _feed(pace, BuildStarted(total=2, todo=1, reused=1, jobs=1, workers=1))
    _feed(pace, RunStarted(total=6, todo=6, resumed=False, run="r"))
    _feed(pace, TaskBuilt(task="a", ok=True, reused=True))
    _feed(pace, _unit("a", 30.0))
    assert pace.seconds_left() is None  # no recording has ended: its pace is not known
    _feed(pace, TaskBuilt(task="b", ok=True, seconds=5.0))
    _feed(pace, BuildDone(built=2, excluded={}, workers=1))
    assert pace.seconds_left() == 5 * 30.0


def test_a_resumed_run_counts_what_was_done():
    pace = Pace(models=1)
    _feed(pace, BuildStarted(total=3, todo=0, reused=3, jobs=1, workers=2))
    _feed(pace, RunStarted(total=3, todo=1, resumed=True, run="r"))
    assert pace.line().startswith("built 0/3 | judged 2/3")
    _feed(pace, _unit("c", 4.0))
    _feed(pace, BuildDone(built=3, excluded={}, workers=2))
    assert pace.seconds_left() == 0.0


def test_the_cores_go_to_the_build_then_all_to_the_judge():
    assert split_cores(2) == (2, 1, 2)  # the build as `iwr suite build` runs it, one judge worker beside it
    assert split_cores(1) == (1, 1, 1)
    assert split_cores(8) == (4, 4, 8)
    assert split_cores(16) == (4, 12, 16)
    # what the user gave is kept as given
    assert split_cores(2, jobs=1) == (1, 1, 2)
    assert split_cores(8, workers=3) == (4, 3, 3)
    # more recordings than the build runs at once: taken as its most, and the cores it leaves judge
    assert split_cores(16, jobs=8) == (4, 12, 16)


def test_what_makes_a_run_build_first(tmp_path):
    """A run folder judged after its suite was built, --retry-errors and Ray keep the old order: build, then judge."""
    from iwrbench.records import RunSpec
    from iwrbench.runs.config import EvalConfig
    from iwrbench.runs.pipeline import refused
    from iwrbench.runs.rundir import RunDir

    cfg = EvalConfig(tasks="", models=["blank"], out=tmp_path / "run")
    assert refused(cfg) is None  # a new run builds while it judges
    spec = RunSpec(created="now", iwrbench_version="0", suite="s", suite_hash="h", task_ids=["a"], models=["blank"],
                   protocol="offline@2")
    RunDir(cfg.out).start(spec)
    assert "judged after its suite was built" in refused(cfg)
    RunDir(cfg.out).write_spec(spec.model_copy(update={"build": {"suite": "smoke", "complete": False}}))
    assert refused(cfg) is None  # a pipelined run resumes pipelined
    cfg.retry_errors = True
    assert refused(cfg) == "--retry-errors"
    cfg.retry_errors, cfg.executor = False, "ray"
    assert refused(cfg) == "--executor ray"
