"""`iwr judge RUN_DIR`: a finished run's pages judged again without generating, into another run folder."""

from __future__ import annotations

import asyncio
import hashlib
import json
import subprocess
import sys
from pathlib import Path

import pytest

from iwrbench.errors import InfraError, IwrError
from iwrbench.models.base import GenerationOptions
from iwrbench.records import GenerationInfo, GenerationOutcome, RunSpec, TaskResult
from iwrbench.runs.options import EvalOptions
from iwrbench.runs.rejudge import RunPages, rejudge_config
from iwrbench.runs.rundir import RunDir


def _finished_run(tmp_path: Path) -> RunDir:
    """A run folder as `iwr eval` leaves it: one page with its raw reply, one generation error, one judge error."""
    from fake_provider import write_synthetic_task

    write_synthetic_task(tmp_path / "suite" / "t1", task_id="t1")
    run = RunDir(tmp_path / "run")
    run.start(RunSpec(created="2026-01-01T00:00:00+00:00", iwrbench_version="test", suite=str(tmp_path / "suite"),
                      suite_hash="h", task_ids=["t1"], models=["m", "n", "o"], protocol="offline@2"))
    page = run.page_dir("m", "t1")
    page.mkdir(parents=True)
    (page / "index.html").write_text("<p>the page m wrote</p>")
    (page / "raw_reply.txt").write_text("here is the page")
    info = GenerationInfo(outcome=GenerationOutcome.OK, raw_reply=run.relative(page / "raw_reply.txt"), calls=1)
    run.append(TaskResult(model="m", task_id="t1", status="ok", protocol="offline@2", ifs=100.0, generation=info))
    run.append(TaskResult(model="n", task_id="t1", status="generation_error", protocol="offline@2", ifs=0.0,
                          error="no_page: the reply held no html",
                          generation=GenerationInfo(outcome=GenerationOutcome.NO_PAGE)))
    run.append(TaskResult(model="o", task_id="t1", status="judge_error", protocol="offline@2",
                          error="judging failed: our bug"))
    return run


def test_the_pages_of_a_run_are_handed_over_as_they_were(tmp_path):
    from iwrbench.tasks import load_task

    run = _finished_run(tmp_path)
    task = load_task(tmp_path / "suite" / "t1")
    rows = {r.model: r for r in run.iter_results()}
    new = RunDir(tmp_path / "new")
    gen = asyncio.run(RunPages("m", run, {"t1": rows["m"]}).generate(task, new.page_dir("m", "t1"), GenerationOptions()))
    assert gen.outcome is GenerationOutcome.OK
    assert (gen.page.root / "index.html").read_text() == "<p>the page m wrote</p>"
    assert gen.info.raw_reply == "raw_reply.txt" and gen.info.calls == 1  # named from the page folder, as a model does
    gen = asyncio.run(RunPages("n", run, {"t1": rows["n"]}).generate(task, new.page_dir("n", "t1"), GenerationOptions()))
    assert gen.outcome is GenerationOutcome.NO_PAGE and gen.error == "no_page: the reply held no html"
    with pytest.raises(InfraError, match="has no page for"):  # ours to redo, never the model's score
        asyncio.run(RunPages("o", run, {"t1": rows["o"]}).generate(task, new.page_dir("o", "t1"), GenerationOptions()))


def test_the_run_judged_is_never_the_new_one(tmp_path):
    run = _finished_run(tmp_path)
    for out in (run.path, run.path / "again"):
        with pytest.raises(IwrError, match="another folder than the run judged"):
            rejudge_config(run.path, out, EvalOptions())
    with pytest.raises(IwrError, match="not a run folder"):
        rejudge_config(tmp_path / "suite", tmp_path / "x", EvalOptions())
    cfg = rejudge_config(run.path, tmp_path / "new", EvalOptions(protocol="iwr-bench@1"))
    assert (cfg.models, cfg.only, cfg.protocol, Path(cfg.pages_from)) == (["m", "n", "o"], ["t1"], "iwr-bench@1", run.path)
    # how a judge model is called is the judge's to set (`iwr judge --retries 1 --timeout-s 30 --concurrency 2`)
    cfg = rejudge_config(run.path, tmp_path / "new2", EvalOptions(protocol="iwr-bench@1", retries=1, timeout_s=30,
                                                                  concurrency=2))
    assert (cfg.options.retries, cfg.options.timeout_s, cfg.options.concurrency) == (1, 30, 2)


def _digest(folder: Path) -> str:
    h = hashlib.sha256()
    for p in sorted(folder.rglob("*")):
        if p.is_file():
            h.update(p.relative_to(folder).as_posix().encode() + b"\0" + p.read_bytes())
    return h.hexdigest()


@pytest.mark.browser
def test_iwr_judge_judges_a_finished_run_again(baseline_run, tmp_path):
    """The baselines' run judged again under the same protocol: the same units and step verdicts, the models'
    names kept, run.json saying where the pages came from, the run judged left as it was."""
    before = _digest(baseline_run)
    out = tmp_path / "again"
    r = subprocess.run([sys.executable, "-m", "iwrbench.cli", "judge", str(baseline_run), "--out", str(out)],
                       capture_output=True, text=True, timeout=1200)
    assert r.returncode == 0, r.stdout[-3000:] + r.stderr[-3000:]
    assert _digest(baseline_run) == before
    old = {(x.model, x.task_id): x for x in RunDir(baseline_run).iter_results()}
    new = {(x.model, x.task_id): x for x in RunDir(out).iter_results()}
    assert new.keys() == old.keys()
    for k, x in new.items():
        assert (x.status, x.ifs, [s.passed for s in x.steps]) == (old[k].status, old[k].ifs, [s.passed for s in old[k].steps]), k
    spec = json.loads((out / "run.json").read_text())
    old_spec = json.loads((baseline_run / "run.json").read_text())
    assert spec["pages_from"]["run"] == str(baseline_run.resolve()) and spec["models"] == old_spec["models"]
    assert spec["generation"] == old_spec["generation"]
    r = subprocess.run([sys.executable, "-m", "iwrbench.cli", "judge", str(baseline_run), "--out", str(baseline_run)],
                       capture_output=True, text=True, timeout=120)
    assert r.returncode != 0 and "another folder than the run judged" in r.stderr
