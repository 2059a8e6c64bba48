"""Judging a page for a validity set exactly as a model's page is judged (same function, same limits)."""

from __future__ import annotations

import shutil
from contextlib import asynccontextmanager
from pathlib import Path
from typing import Any, AsyncIterator

from ..browser.host import PageBundle
from ..judge.score import JudgeComponents, judge_unit
from ..protocols import get_protocol
from ..records import Task, TaskResult


@asynccontextmanager
async def judge_session(protocol: str = "offline", *, metrics: bool = False) -> AsyncIterator["Session"]:
    """A browser and judge components, shared by the pages of one validity run."""
    from playwright.async_api import async_playwright

    from ..browser.core import launch_browser

    proto = get_protocol(protocol, to_run=True)
    comps = JudgeComponents.for_protocol(proto)
    async with async_playwright() as pw:
        browser = await launch_browser(pw)
        try:
            yield Session(browser, proto, comps, metrics)
        finally:
            await browser.close()


class Session:
    def __init__(self, browser: Any, protocol: Any, components: JudgeComponents, metrics: bool):
        self.browser, self.protocol, self.components, self.metrics = browser, protocol, components, metrics

    async def judge(self, task: Task, bundle: PageBundle, shots_dir: Path) -> TaskResult:
        """Judge ``bundle`` on ``task``; a browser that died is restarted once."""
        from ..errors import InfraError

        if shots_dir.exists():
            shutil.rmtree(shots_dir)
        for attempt in (1, 2):
            try:
                return await judge_unit(self.browser, task, bundle, shots_dir, self.protocol, self.components)
            except InfraError:
                if attempt == 2:
                    raise
                await self._restart()
        raise AssertionError("unreachable")

    async def _restart(self) -> None:
        from playwright.async_api import async_playwright

        from ..browser.core import launch_browser

        try:
            await self.browser.close()
        except Exception:
            pass
        self._pw = await async_playwright().start()
        self.browser = await launch_browser(self._pw)


def copy_page(src_root: Path, dst: Path) -> Path:
    """A private copy of a page folder (links are not followed: a link is copied as a link, never its target)."""
    if dst.exists():
        shutil.rmtree(dst)
    shutil.copytree(src_root, dst, symlinks=True, ignore=shutil.ignore_patterns(".git", "__pycache__", ".iwr-*"))
    return dst
