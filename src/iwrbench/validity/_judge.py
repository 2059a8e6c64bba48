"""Judging a page for a validity set exactly as a model's page is judged (same function, same limits)."""

from __future__ import annotations

import contextlib
import shutil
from contextlib import asynccontextmanager
from pathlib import Path
from typing import Any, AsyncIterator, Awaitable, Callable

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


def task_dirs(tasks_dir: Path, only: Any = None) -> list[Path]:
    """The task folders under ``tasks_dir`` (or ``tasks_dir`` itself when it is one), ``only`` ids kept."""
    tasks_dir = Path(tasks_dir)
    if (tasks_dir / "task.json").is_file():
        dirs = [tasks_dir]
    else:
        dirs = sorted(p for p in tasks_dir.iterdir() if p.is_dir() and not p.name.startswith(".")
                      and (p / "task.json").is_file())
    if only:
        want = {only} if isinstance(only, str) else set(only)
        dirs = [d for d in dirs if d.name in want]
    return dirs


def load_or_errors(d: Path, set_name: str, pages: Any) -> tuple[Task | None, list[Any]]:
    """The task in folder ``d``, or (None, one error verdict per page of the set): a task that cannot be read is
    listed, never dropped."""
    from ..tasks.load import load_task
    from . import Verdict

    try:
        return load_task(d), []
    except Exception as e:  # noqa: BLE001
        return None, [Verdict(set=set_name, task_id=d.name, page=p, steps=0, judged=None, truth=None,
                              note=f"error: {str(e).splitlines()[0][:200]}") for p in pages]


class VerdictLog:
    """This run's verdicts, one JSON object a line, written as they come (a cut run keeps what it judged)."""

    def __init__(self, path: Path):
        self.path = Path(path)
        self.path.write_text("")
        self.verdicts: list[Any] = []

    def add(self, verdicts: list[Any]) -> None:
        import json

        self.verdicts.extend(verdicts)
        with self.path.open("a") as f:
            for v in verdicts:
                f.write(json.dumps(v.as_dict(), default=str) + "\n")

    async def run(self, body: Callable[[Callable[[], Awaitable[Any]]], Awaitable[None]], browser: Any,
                  table: Callable[[list[Any]], str]) -> list[Any]:
        """A set's run: ``body`` adds its verdicts here (``with_browser``), then summary.md beside the log."""
        await with_browser(body, browser)
        (self.path.parent / "summary.md").write_text(table(self.verdicts))
        return self.verdicts


def offline_judge() -> tuple[Any, JudgeComponents]:
    """The protocol the judge's validity sets judge with (offline@2) and its components, checked."""
    protocol = get_protocol("offline")
    components = JudgeComponents.for_protocol(protocol)
    components.check()
    return protocol, components


async def with_browser(body: Callable[[Callable[[], Awaitable[Any]]], Awaitable[None]], browser: Any = None) -> None:
    """Run ``body(get_browser)``: the given browser, or one launched here and replaced when it dies under a task."""
    if browser is not None:
        async def given() -> Any:
            return browser

        await body(given)
        return
    from playwright.async_api import async_playwright

    from ..browser.core import launch_browser

    async with async_playwright() as pw:
        held: list[Any] = []

        async def fresh() -> Any:
            if held and held[0].is_connected():
                return held[0]
            if held:
                with contextlib.suppress(Exception):
                    await held[0].close()
                held.clear()
            held.append(await launch_browser(pw))
            return held[0]

        try:
            await body(fresh)
        finally:
            for b in held:
                with contextlib.suppress(Exception):
                    await b.close()
