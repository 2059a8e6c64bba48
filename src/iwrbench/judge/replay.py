"""Replaying a task's trajectory on a page: ground -> act -> settle -> screenshot -> checks.

One page, one fresh context, limits per action and per page. Whatever the page does (dialogs,
popups, downloads, navigation away, outside requests) is contained and recorded; a crash of
the page is the page's (``page_error``), a crash of our browser is ours (``InfraError``).
"""

from __future__ import annotations

import asyncio
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Awaitable, Callable

from ..browser.core import new_context
from ..browser.dom import ELEMENT_STATE_JS, STATE_JS
from ..browser.host import PageBundle, host
from ..browser.settle import RequestTracker, settle, screenshot
from ..errors import InfraError
from ..protocols import Protocol
from ..records import Action, AssertionResult, StepResult, Task
from .act import execute
from .checks import evaluate_all
from .ground import NEEDS_TARGET, LlmGrounder, ground

#: (action, screenshot before, screenshot after) -> (passed or None if not judged, raw reply)
AssertionJudge = Callable[[Action, bytes, bytes], Awaitable[tuple[bool | None, str]]]


@dataclass
class Limits:
    action_s: float = 20.0
    page_s: float = 240.0
    load_s: float = 30.0
    settle_quiet_ms: int = 250
    settle_timeout_ms: int = 4000
    max_dialogs: int = 30
    max_popups: int = 10
    max_navigations: int = 30


@dataclass
class Replay:
    steps: list[StepResult]
    shots: dict[int, Path]
    page_error: str | None = None
    blocked: dict[str, int] = field(default_factory=dict)
    events: dict[str, int] = field(default_factory=dict)
    url: str = ""


class _Guard:
    """Counts and neutralises what a hostile page does outside its viewport.

    Dialogs are dismissed, popups and downloads cancelled, navigations counted; past a limit the
    page is closed at once (whatever the judge was waiting for then fails fast) and the reason
    is recorded as a ``page_error``.
    """

    def __init__(self, ctx: Any, page: Any, limits: Limits):
        self.limits = limits
        self.page = page
        self.events: dict[str, int] = {}
        self.crashed: str | None = None
        self.too_many: str | None = None
        page.on("dialog", self._dialog)
        page.on("crash", self._crash)
        page.on("download", self._download)
        page.on("framenavigated", self._navigated)
        ctx.on("page", self._popup)

    def _count(self, k: str) -> int:
        self.events[k] = self.events.get(k, 0) + 1
        return self.events[k]

    def _stop(self, why: str) -> None:
        if not self.too_many:
            self.too_many = why
            asyncio.ensure_future(_quiet(self.page.close()))

    def _dialog(self, d: Any) -> None:
        n = self._count("dialogs")
        if n > self.limits.max_dialogs:
            self._stop(f"the page opened more than {self.limits.max_dialogs} dialogs")
        asyncio.ensure_future(_quiet(d.dismiss()))

    def _navigated(self, frame: Any) -> None:
        if frame.parent_frame is None and self._count("navigations") > self.limits.max_navigations:
            self._stop(f"the page navigated or reloaded more than {self.limits.max_navigations} times")

    def _crash(self, *_: Any) -> None:
        self.crashed = "the page crashed (renderer out of memory or killed)"

    def _download(self, dl: Any) -> None:
        self._count("downloads")
        asyncio.ensure_future(_quiet(dl.cancel()))

    def _popup(self, p: Any) -> None:
        n = self._count("popups")
        if n > self.limits.max_popups:
            self._stop(f"the page opened more than {self.limits.max_popups} windows")
        asyncio.ensure_future(_quiet(p.close()))


async def _quiet(aw: Awaitable) -> None:
    try:
        await aw
    except Exception:
        pass


def _short(e: BaseException) -> str:
    s = str(e).strip().splitlines()
    return (s[0] if s else e.__class__.__name__)[:200]


def _browser_dead(browser: Any) -> bool:
    try:
        return not browser.is_connected()
    except Exception:
        return True


async def replay(
    browser: Any,
    task: Task,
    bundle: PageBundle,
    shots_dir: Path,
    protocol: Protocol,
    *,
    limits: Limits | None = None,
    llm_grounder: LlmGrounder | None = None,
    assertion_judge: AssertionJudge | None = None,
    seed: int = 1,
    on_shot: Callable[[int, Path], None] | None = None,
) -> Replay:
    limits = limits or Limits()
    shots_dir.mkdir(parents=True, exist_ok=True)
    vp = task.viewport
    steps: list[StepResult] = []
    shots: dict[int, Path] = {}
    out = Replay(steps=steps, shots=shots)
    with host(bundle, task.assets_dir) as (url, origins):
        out.url = url
        try:
            extra = task.recording_details.model_extra or {}
            ctx, net = await new_context(browser, vp, allowed_origins=origins, seed=int(extra.get("seed") or seed),
                                         freeze_time=extra.get("freeze_time"))
        except Exception as e:
            raise InfraError(f"cannot open a browser context: {_short(e)}") from None
        try:
            page = await ctx.new_page()
            guard = _Guard(ctx, page, limits)
            tracker = RequestTracker(page)
            try:
                await asyncio.wait_for(
                    _run(page, task, url, shots_dir, protocol, limits, guard, tracker, steps, shots,
                         llm_grounder, assertion_judge, on_shot),
                    timeout=limits.page_s,
                )
            except asyncio.TimeoutError:
                out.page_error = f"the page exceeded its time limit of {limits.page_s:.0f}s"
            except _PageFailure as e:
                out.page_error = str(e)
            except InfraError:
                raise
            except Exception as e:
                if _browser_dead(browser):
                    raise InfraError(f"the browser died: {_short(e)}") from None
                out.page_error = f"page failed: {_short(e)}"
            if guard.too_many:
                out.page_error = guard.too_many
            elif guard.crashed:
                out.page_error = guard.crashed
            out.events = dict(guard.events)
            out.blocked = dict(net.blocked)
        finally:
            try:
                await asyncio.wait_for(ctx.close(), timeout=15)
            except Exception:
                pass
        # whatever the steps recorded, a browser that died under them makes this run ours to redo
        for _ in range(3):
            if _browser_dead(browser):
                raise InfraError("the browser died while judging the page")
            await asyncio.sleep(0.05)
    # every action not reached is recorded as such (the prefix rule needs the full list)
    for i in range(len(steps) + 1, len(task.action_sequence) + 1):
        a = task.action_sequence[i - 1]
        steps.append(StepResult(index=i, type=a.type, description=a.description, executed=False,
                                passed=False, error="not reached"))
    return out


class _PageFailure(Exception):
    pass


async def _run(page: Any, task: Task, url: str, shots_dir: Path, protocol: Protocol, limits: Limits, guard: _Guard,
               tracker: RequestTracker, steps: list[StepResult], shots: dict[int, Path],
               llm_grounder: LlmGrounder | None, assertion_judge: AssertionJudge | None,
               on_shot: Callable[[int, Path], None] | None = None) -> None:
    vp = task.viewport
    try:
        resp = await page.goto(url, wait_until="load", timeout=limits.load_s * 1000)
    except Exception as e:
        msg = _short(e)
        if "Timeout" in msg:
            # a page that never fires load may still show something: go on with what is there
            pass
        else:
            raise _PageFailure(f"the page did not load: {msg}") from None
    else:
        if resp is not None and resp.status >= 400:
            raise _PageFailure(f"the page did not load: HTTP {resp.status}")

    async def wait_after(first: bool) -> dict:
        if protocol.settle_by_condition:
            rep = await settle(page, tracker, quiet_ms=limits.settle_quiet_ms, timeout_ms=limits.settle_timeout_ms)
            return rep.as_dict()
        await asyncio.sleep(1.0 if first else 0.5)
        return {"waited_ms": 1000 if first else 500}

    async def shot(i: int) -> bytes:
        p = shots_dir / f"step_{i}.png"
        try:
            data = await screenshot(page, str(p), timeout_ms=int(min(limits.action_s, 15) * 1000))
        except Exception as e:
            if guard.crashed:
                raise _PageFailure(guard.crashed) from None
            raise _PageFailure(f"cannot take a screenshot: {_short(e)}") from None
        shots[i] = p
        if on_shot is not None:
            on_shot(i, p)
        return data

    await wait_after(True)
    before = await shot(0)
    for i, action in enumerate(task.action_sequence, start=1):
        if guard.too_many:
            raise _PageFailure(guard.too_many)
        if guard.crashed:
            raise _PageFailure(guard.crashed)
        t0 = time.monotonic()
        res = StepResult(index=i, type=action.type, description=action.description)
        handle, note = None, None
        try:
            handle, note = await asyncio.wait_for(
                _step(page, action, res, vp, protocol, limits, llm_grounder), timeout=limits.action_s)
        except asyncio.TimeoutError:
            res.executed = False
            res.error = f"the action exceeded its time limit of {limits.action_s:.0f}s"
        if res.executed:
            res.settle = await wait_after(False)
            if note:
                res.settle["note"] = note
            after = await shot(i)
            res.screenshot = f"step_{i}.png"
            try:
                state = await asyncio.wait_for(page.evaluate(STATE_JS), timeout=limits.action_s)
            except Exception as e:
                raise _PageFailure(f"the page stopped answering: {_short(e)}") from None
            acted = await _acted_state(handle)
            if action.logical_assertion:
                if protocol.assertions == "checks":
                    results = evaluate_all(action.checks, state, acted)
                    res.assertion = AssertionResult(
                        text=action.logical_assertion, method="checks", checks=results,
                        passed=all(r.passed for r in results))
                elif assertion_judge is not None:
                    verdict, raw = await assertion_judge(action, before, after)
                    res.assertion = AssertionResult(text=action.logical_assertion, method="mllm",
                                                    passed=verdict, raw=raw)
                else:
                    raise InfraError("the protocol needs an assertion judge and none was configured")
            elif action.checks:
                res.info_checks = evaluate_all(action.checks, state, acted)
            before = after
        res.passed = res.executed and (res.assertion is None or res.assertion.passed is not False)
        res.duration_s = round(time.monotonic() - t0, 3)
        steps.append(res)
        if not res.passed:
            break


async def _acted_state(handle: Any | None) -> dict | None:
    if handle is None:
        return None
    try:
        return await asyncio.wait_for(handle.evaluate(ELEMENT_STATE_JS), timeout=3)
    except Exception:
        return None


async def _step(page: Any, action: Action, res: StepResult, vp: tuple[int, int], protocol: Protocol,
                limits: Limits, llm_grounder: LlmGrounder | None) -> tuple[Any | None, str | None]:
    """Ground and execute one action; returns the acted-on element and a note."""
    handle = None
    if action.type in NEEDS_TARGET:
        g = await ground(page, action, vp, llm=llm_grounder if protocol.llm_grounding else None)
        res.grounding = g.grounding
        handle = g.handle
        if handle is None:
            res.executed = False
            res.error = "no element matches the description"
            return None, None
    outcome = await execute(page, action, handle, vp, timeout_ms=int(limits.action_s * 1000),
                            published_scroll=not protocol.scroll_direction)
    res.executed = outcome.executed
    res.error = outcome.error
    return handle, outcome.note
