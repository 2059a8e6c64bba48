"""``EvalConfig``: what ``iwr eval`` was asked to do (the driver's and every Ray worker's copy)."""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from ..judge.replay import Limits
from ..models.base import GenerationOptions


@dataclass
class EvalConfig:
    tasks: str | Path
    models: list[str]
    out: str | Path
    protocol: str = "offline@2"
    workers: int = 1
    executor: str = "local"
    options: GenerationOptions = field(default_factory=GenerationOptions)
    model_kwargs: dict[str, Any] = field(default_factory=dict)
    judge_model: str | None = None  # iwr-bench@1: model for the LLM grounder and the MLLM judges
    judge_base_url: str | None = None
    #: the judge model's own request fields and settings (``-J KEY=VALUE``: reasoning_effort, thinking, ...);
    #: the judge never takes generation's ``-M`` fields
    judge_args: dict[str, Any] = field(default_factory=dict)
    limits: Limits | None = None  # time limits per action / page (default: judge.replay.Limits())
    ocr: str | None = None  # override the protocol's OCR engine (recorded in run.json)
    visual: str | None = None  # override the protocol's visual backend
    allow_changed_config: bool = False
    retries: int = 2
    only: list[str] | None = None
    ray_address: str | None = None
    #: recipes (folders of *.yaml or files) the ``oracle`` model looks in before the bundled suites',
    #: for tasks recorded elsewhere (``--oracle-recipes``); nothing in a task folder serves an oracle
    oracle_recipes: list[str | Path] | None = None
    #: redo the units whose result is a generation_error or judge_error (``--retry-errors``); generation
    #: settings may then differ from the run's, and only those units are redone (listed in run.json)
    retry_errors: bool = False
    #: only the first N tasks, sorted by id, after ``only`` (``--limit``; recorded in run.json)
    limit: int | None = None
    #: start Chromium with ``--no-sandbox`` (``--unsafe-no-sandbox``; recorded in run.json). Default: its own
    #: sandbox on, and judging refuses to start where it cannot be had (browser/sandbox.py)
    unsafe_no_sandbox: bool = False
    #: a finished run whose pages are judged again instead of generating (``iwr judge``; runs/rejudge.py)
    pages_from: str | Path | None = None
