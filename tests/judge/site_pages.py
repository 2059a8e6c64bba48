"""Shared by the judge's page tests: record a one-page site from a recipe, judge a page written as HTML."""

from __future__ import annotations

from pathlib import Path

from iwrbench.browser.host import PageBundle
from iwrbench.judge.score import JudgeComponents, judge_unit
from iwrbench.protocols import get_protocol
from iwrbench.record.recipe import load_recipe
from iwrbench.record.recorder import record
from iwrbench.records import Task, TaskResult
from iwrbench.tasks import load_task


def record_site(root: Path, html: str, recipe: str) -> Task:
    """Record ``recipe`` (YAML whose source is ``site: ./site``) on a site holding only ``html``."""
    (root / "site").mkdir(parents=True)
    (root / "site" / "index.html").write_text(html)
    (root / "r.yaml").write_text(recipe)
    record(load_recipe(root / "r.yaml"), root / "task")
    return load_task(root / "task")


async def judge_html(browser, task: Task, html: str, where: Path) -> TaskResult:
    """Judge a page made of ``html`` on ``task`` with the default protocol, exactly as a model's page."""
    (where / "page").mkdir(parents=True)
    (where / "page" / "index.html").write_text(html)
    proto = get_protocol("offline")
    return await judge_unit(browser, task, PageBundle(root=where / "page"), where / "shots", proto,
                            JudgeComponents.for_protocol(proto))
