"""What crosses the seams of a run: the header guards what decides a score, the report reads what
generation wrote, a broken task is the task's fault. No browser: units are generated and written
as ``iwr eval`` does, and the judge is not needed where generation already decided the row."""

from __future__ import annotations

import asyncio
import datetime as dt
import shutil
from pathlib import Path

import pytest

from iwrbench.errors import IwrError
from iwrbench.models.base import GenerationOptions
from iwrbench.protocols import get_protocol
from iwrbench.records import RunSpec
from iwrbench.runs.rundir import RunDir


def _spec(judge: dict) -> RunSpec:
    return RunSpec(created=dt.datetime.now(dt.timezone.utc).isoformat(), iwrbench_version="test", suite="s",
                   suite_hash="h", task_ids=["t"], models=["m"], protocol="iwr-bench@1", judge=judge)


def _published_components(tmp_path: Path):
    from iwrbench.judge.score import JudgeComponents

    return JudgeComponents.for_protocol(get_protocol("iwr-bench@1"), judge_model="openai:gpt-4o",
                                        options=GenerationOptions(cache_dir=tmp_path / "cache"),
                                        judge_base_url="http://127.0.0.1:9/v1")


@pytest.mark.parametrize("prompt", ["GROUND_PROMPT", "ASSERT_PROMPT"])
def test_a_changed_judge_prompt_trips_the_resume_guard(prompt, tmp_path, monkeypatch):
    """The grounder's and the assertion judge's prompts decide iwr-bench@1's IFS: run.json carries their
    digests, so a run resumed after either prompt changed is refused like any other changed judge."""
    from iwrbench.judge import llm

    monkeypatch.setenv("OPENAI_API_KEY", "sk-test")
    run = RunDir(tmp_path / "run")
    run.start(_spec(_published_components(tmp_path).describe()))
    assert run.start(_spec(_published_components(tmp_path).describe()))[1]  # the same prompts: resumed

    edited = tmp_path / "prompts"
    shutil.copytree(llm.PROMPTS, edited)
    name = getattr(llm, prompt)
    (edited / name).write_text((edited / name).read_text() + "\nAnswer with care.\n")
    monkeypatch.setattr(llm, "PROMPTS", edited)
    with pytest.raises(IwrError, match="different judge"):
        run.start(_spec(_published_components(tmp_path).describe()))


def test_offline_protocols_carry_no_judge_prompt(tmp_path):
    """offline@2 asks no model: its header does not change when the published judge's prompts do."""
    from iwrbench.judge.score import JudgeComponents

    d = JudgeComponents.for_protocol(get_protocol("offline@2")).describe()
    assert "prompts" not in d


class _NoBrowser:
    """A unit whose generation decides its row never asks for the browser."""

    async def get(self):
        raise AssertionError("this unit should not be judged")

    async def restart(self) -> None:
        pass


def _run_units(tmp_path: Path, task, model, options: GenerationOptions):
    from iwrbench.runs.evaluate import run_unit

    run = RunDir(tmp_path / "run")
    run.start(RunSpec(created="2026-01-01T00:00:00+00:00", iwrbench_version="test", suite=str(task.dir.parent),
                      suite_hash="h", task_ids=[task.id], models=[model.name], protocol="offline@2"))
    res = asyncio.run(run_unit(_NoBrowser(), model, task, run, get_protocol("offline@2"), None, options, 0))
    run.append(res)
    return run, res


def test_the_raw_reply_of_a_chat_model_is_in_its_report_page(tmp_path, monkeypatch):
    """A reply without a page is the model's failure, and what it said is shown on the unit's report page."""
    from fake_provider import FakeProviderServer, Scripted, write_synthetic_task

    from iwrbench.generate.registry import resolve_model
    from iwrbench.report import write_reports

    monkeypatch.setenv("IWR_CACHE", str(tmp_path / "cache"))
    task = write_synthetic_task(tmp_path / "suite" / "t1", task_id="t1")
    said = "I am sorry, I cannot rebuild this website from a video."
    with FakeProviderServer("openai", [Scripted(text=said)]) as server:
        opts = GenerationOptions(cache_dir=tmp_path / "responses", retries=0)
        model = resolve_model("openai:test-model", opts, base_url=server.base_url, api_key="sk-test")
        run, res = _run_units(tmp_path, task, model, opts)
    assert res.status == "generation_error" and res.generation.raw_reply
    assert (run.path / res.generation.raw_reply).read_text() == said  # relative to the run folder, as recorded
    html = write_reports([run.path], html=tmp_path / "report" / "report.html", formats=[])
    page = (html.parent / "report_files" / "openai_test-model" / "t1.html").read_text()
    assert 'id="raw-reply"' in page and said in page


def _corrupt(video: Path, how: str) -> None:
    data = video.read_bytes()
    if how == "garbage":
        video.write_bytes(b"\x00\x00\x00\x18ftypmp42" + b"not a video " * 200)
    elif how == "truncated":
        video.write_bytes(data[: len(data) // 3])
    elif how == "no video stream":  # a well-formed file holding sound only
        import av
        import numpy as np

        with av.open(str(video), "w", format="mp4") as c:
            st = c.add_stream("aac", rate=44100)
            frame = av.AudioFrame.from_ndarray(np.zeros((1, 1024), dtype=np.float32), format="fltp", layout="mono")
            frame.sample_rate = 44100
            for packet in [*st.encode(frame), *st.encode(None)]:
                c.mux(packet)


@pytest.mark.parametrize("how", ["garbage", "truncated", "no video stream"])
def test_a_corrupt_task_video_is_a_task_error_for_every_model(how, tmp_path, monkeypatch):
    """The video is the task's input: when it cannot be read the task is broken (task_error: not scored,
    not retried), whichever model the unit is for — never the model's generation_error, nor ours."""
    from fake_provider import FakeProviderServer, Scripted, html_reply, write_synthetic_task

    from iwrbench.generate.registry import resolve_model

    monkeypatch.setenv("IWR_CACHE", str(tmp_path / "cache"))
    task = write_synthetic_task(tmp_path / "suite" / "t1", task_id="t1")
    _corrupt(task.video_path, how)
    opts = GenerationOptions(cache_dir=tmp_path / "responses", retries=0)
    with FakeProviderServer("openai", [Scripted(text=html_reply())] * 3) as server:
        for spec in ("openai:test-model", "screenshot", "slideshow", "blank"):
            kw = {"base_url": server.base_url, "api_key": "sk-test"} if spec.startswith("openai:") else {}
            model = resolve_model(spec, opts, **kw)
            _, res = _run_units(tmp_path / spec.replace(":", "_"), task, model, opts)
            assert res.status == "task_error", (spec, res.status, res.error)
            assert "video" in res.error, (spec, res.error)
        assert server.requests == []  # nothing is asked of a model about a task it cannot be shown


class _Says:
    """A model whose generation ends as told, with a message that could mislead a reader of text."""

    name = "says"

    def __init__(self, outcome, error: str) -> None:
        self.outcome, self.error = outcome, error

    def describe(self) -> dict:
        return {"kind": "test"}

    async def generate(self, task, out_dir, options):
        from iwrbench.models.base import Generation

        return Generation(self.outcome, None, error=self.error)


@pytest.mark.parametrize("outcome, error, status", [
    ("budget", "the provider said: over quota", None),  # not run: no row, whatever the message says
    ("no_page", "budget: the model wrote about budgets", "generation_error"),  # the model's failure, scored
    ("api_error", "budget: a proxy's text", "generation_error"),
    ("failed", "replay: no page", "generation_error"),
])
def test_the_generation_outcome_decides_the_row_not_its_message(outcome, error, status, tmp_path):
    from fake_provider import write_synthetic_task

    from iwrbench.records import GenerationOutcome

    task = write_synthetic_task(tmp_path / "suite" / "t1", task_id="t1")
    run = RunDir(tmp_path / "run")
    from iwrbench.runs.evaluate import run_unit

    res = asyncio.run(run_unit(_NoBrowser(), _Says(GenerationOutcome(outcome), error), task, run,
                               get_protocol("offline@2"), None, GenerationOptions(), 0))
    if status is None:
        assert res is None
    else:
        assert res.status == status and res.final == 0.0 and res.error == error
        assert res.generation.outcome is GenerationOutcome(outcome)


class _Breaks:
    """A model whose generation hits a bug of ours: an unforeseen exception deep in a helper."""

    name = "breaks"

    def describe(self) -> dict:
        return {"kind": "test"}

    async def generate(self, task, out_dir, options):
        return _a_helper_that_breaks(task)


def _a_helper_that_breaks(task):
    return {}["no such key in " + task.id]


def test_a_failed_unit_keeps_its_traceback_in_a_log_named_by_its_row(tmp_path):
    """The row stays one line; the traceback goes to logs/<model>/<task>.log, appended on each failure, named by
    the row and shown on the unit's report page."""
    from fake_provider import write_synthetic_task

    from iwrbench.report import write_reports

    task = write_synthetic_task(tmp_path / "suite" / "t1", task_id="t1")
    run, res = _run_units(tmp_path, task, _Breaks(), GenerationOptions())
    assert res.status == "judge_error" and "\n" not in res.error and res.error.startswith("generation failed")
    assert res.log == "logs/breaks/t1.log"
    log = (run.path / res.log).read_text()
    assert "Traceback (most recent call last)" in log and "_a_helper_that_breaks" in log and "KeyError" in log
    _run_units(tmp_path, task, _Breaks(), GenerationOptions())  # the unit redone: the earlier traceback is kept
    assert (run.path / res.log).read_text().count("Traceback (most recent call last)") == 2
    html = write_reports([run.path], html=tmp_path / "report" / "report.html", formats=[])
    page = (html.parent / "report_files" / "breaks" / "t1.html").read_text()
    assert 'id="unit-log"' in page and "_a_helper_that_breaks" in page
