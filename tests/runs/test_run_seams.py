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
