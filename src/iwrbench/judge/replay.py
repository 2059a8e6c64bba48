"""Replaying a task's trajectory on a page: ground -> act -> settle -> screenshot -> checks.

One page, one fresh context, limits per action and per page. Whatever the page does (dialogs,
popups, downloads, navigation away, outside requests) is contained and recorded; a crash of
the page is the page's (``page_error``), a crash of our browser is ours (``InfraError``).
"""

from __future__ import annotations

import asyncio
import dataclasses
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Awaitable, Callable

from ..browser.core import browser_setup, new_context, off_origin
from ..browser.dom import ELEMENT_STATE_JS, STATE_JS
from ..browser.host import PageBundle, host
from ..browser.player import for_protocol, play, wait_idle
from ..browser.settle import TIMERS_AFTER_ACTION_MS, TIMERS_AFTER_LOAD_MS, RequestTracker, run_clock, settle, screenshot
from ..browser.view import read_view, shoot
from ..browser.world import WorldUnavailable, read
from ..browser.world import failure as world_failure
from ..errors import InfraError
from ..protocols import Protocol
from ..timing import timed
from ..records import Action, AssertionResult, Evidence, EvidenceResult, ProbeResult, StepResult, Task
from ..checks.change import required as change_required
from ..checks.author import evaluate_all
from ..checks.evidence import decides, judge_change, judge_still, judge_texts, judge_typed, pinned
from .ground import NEEDS_TARGET, LlmGrounder, ground
from ..checks.view import View

#: (action, screenshot before, screenshot after) -> (passed, raw reply); raises JudgeError / InfraError
#: when it cannot give a verdict (never a pass)
AssertionJudge = Callable[[Action, bytes, bytes], Awaitable[tuple[bool, str]]]


@dataclass
class Limits:
    #: one action, grounding included; None: the protocol's (``Protocol.action_s``: 20 s offline, 30 s published)
    action_s: float | None = None
    page_s: float = 240.0
    load_s: float = 30.0
    settle_quiet_ms: int = 250
    #: the real quiet period after an action when the page runs on a virtual clock (``Protocol.virtual_clock``):
    #: its timers, animation frames and dates wait for ``run_clock``, which then runs them in windows of
    #: ``settle_quiet_ms`` of virtual time, so what this period waits for is only what arrives in real time (the
    #: action's own handlers, promises and messages; requests are counted apart and waited for until they end)
    action_quiet_ms: int = 100
    settle_timeout_ms: int = 4000
    #: most virtual time a page's clock is run after loading / after an action (protocols with a virtual clock)
    clock_cap_load_ms: int = TIMERS_AFTER_LOAD_MS  # the recorder waits as long in real time (settle.wait_timers)
    clock_cap_ms: int = TIMERS_AFTER_ACTION_MS
    max_dialogs: int = 30
    max_popups: int = 10
    max_navigations: int = 30
    #: a step's screenshot: the first attempt's limit (never more than ``action_s``), and the second's, made only when
    #: the page's main thread still answers (the first timed out on our side: a machine loaded by other work)
    shot_s: float = 15.0
    shot_retry_s: float = 30.0

    def resolved(self, protocol: Protocol) -> "Limits":
        """These limits with the protocol's action limit where none was given."""
        if self.action_s is not None:
            return self
        return dataclasses.replace(self, action_s=protocol.action_s)

    def page_limit(self, protocol: Protocol, n_actions: int) -> float:
        """The page's time limit: ``page_s``, or under fixed per-action limits (the published protocol, which has
        no limit per page) never less than the sum of the load's and the actions' limits."""
        if protocol.settle_by_condition:
            return self.page_s
        return max(self.page_s, self.load_s + n_actions * ((self.action_s or protocol.action_s) + 5.0) + 10.0)


@dataclass
class Replay:
    steps: list[StepResult]
    shots: dict[int, Path]
    page_error: str | None = None
    blocked: dict[str, int] = field(default_factory=dict)
    events: dict[str, int] = field(default_factory=dict)
    url: str = ""
    probes: list[ProbeResult] = field(default_factory=list)


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
    inferred: dict[int, Evidence] | None = None,
) -> Replay:
    """Replay ``task`` on the page, then its probes (each in a fresh context) when the protocol uses them.

    ``inferred``: evidence for steps that carry none (tasks of the official layout), made by the caller
    from the checkpoints.
    """
    limits = (limits or Limits()).resolved(protocol)
    if browser_setup(browser) != protocol.page_setup:  # iwr-bench@1 draws scrollbars: never judged in another browser
        raise InfraError(f"{protocol.id} judges in a browser launched for it (browser.core.launch_browser("
                         f"page_setup={protocol.page_setup!r})); this one was launched for {browser_setup(browser)!r}")
    shots_dir.mkdir(parents=True, exist_ok=True)
    steps: list[StepResult] = []
    shots: dict[int, Path] = {}
    out = Replay(steps=steps, shots=shots)
    rd = task.recording_details
    # a plain browser under the published protocol: the page's clock is the machine's
    freeze = None if protocol.page_setup == "published" else rd.freeze_time
    page_seed = rd.seed or seed
    with host(bundle, task.assets_dir) as (url, origins):
        out.url = url
        run = _Trajectory(task, task.action_sequence, url, origins, shots_dir, protocol, limits, llm_grounder,
                          assertion_judge, on_shot, inferred or {}, shots, prefix="")
        err, events, blocked = await timed("judge.main", _in_context(browser, task, origins, page_seed, freeze, limits, run, steps))
        out.page_error = err
        out.events, out.blocked = events, blocked
        if protocol.assertions == "mllm":
            await _judge_assertions(task.action_sequence, steps, run.pngs, assertion_judge)
        lead = _lead(steps)
        if protocol.probes and task.probes and err is None:
            for probe in task.probes:
                pr = ProbeResult(name=probe.name, guards=probe.guards, mirrors=probe.mirrors,
                                 steps_total=len(probe.actions))
                out.probes.append(pr)
                if lead < probe.guards:
                    pr.skipped = f"the main trajectory stopped before step {probe.guards}, which this probe guards"
                    pr.passed = True
                    continue
                pdir = shots_dir / f"probe_{_safe(probe.name)}"
                pdir.mkdir(parents=True, exist_ok=True)
                prun = _Trajectory(task, probe.actions, url, origins, pdir, protocol, limits, llm_grounder,
                                   assertion_judge, None, {}, {}, prefix=f"probe {probe.name}: ",
                                   loose_after=_first_other_input(task.action_sequence, probe.actions) if probe.mirrors else None)
                perr, pev, pbl = await timed("judge.probes", _in_context(browser, task, origins, page_seed, freeze, limits, prun, pr.steps))
                for k, v in pev.items():
                    out.events[f"probe_{k}"] = out.events.get(f"probe_{k}", 0) + v
                for h, n in pbl.items():
                    out.blocked[h] = out.blocked.get(h, 0) + n
                pr.steps_passed = _lead(pr.steps)
                pr.passed = pr.steps_passed == len(probe.actions) and perr is None
                pr.error = perr
                if not pr.passed:
                    m = probe.mirror_of(pr.steps_passed + 1)
                    if m is not None and lead < m and perr is None:
                        # the probe stops at what the main trajectory already failed: the same fault, no
                        # sign of replayed states; the main trajectory's own credit stands
                        pr.note = (f"fails at its step {pr.steps_passed + 1}, which asks what main step {m} asks; "
                                   f"the main trajectory stopped there too")
                    else:
                        pr.cap = (pr.steps_passed if probe.mirrors else probe.guards - 1)
                        pr.cap = max(pr.cap, probe.guards - 1)
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


async def _judge_assertions(actions: list[Action], steps: list[StepResult], pngs: dict[int, bytes],
                            judge: AssertionJudge | None) -> None:
    """The published order: the trajectory first (until an action cannot be executed), then each executed
    action's assertion on the screenshots before and after it, in order; the first No ends the credit there.
    Later assertions are not asked (they cannot change a score). The judge's time is never the page's."""
    failed: int | None = None
    for res in steps:
        if not res.executed:
            break
        if failed is not None:
            res.passed = False
            res.error = res.error or f"not counted: step {failed} failed its assertion"
            continue
        action = actions[res.index - 1]
        if not (res.passed and action.logical_assertion):
            if not res.passed:
                break
            continue
        if judge is None:
            raise InfraError("the protocol needs an assertion judge and none was configured")
        verdict, raw = await judge(action, pngs[res.index - 1], pngs[res.index])
        res.assertion = AssertionResult(text=action.logical_assertion, method="mllm", passed=verdict, raw=raw)
        if not verdict:
            res.passed = False
            res.error = "the assertion judge said No"
            failed = res.index


def _safe(name: str) -> str:
    return "".join(c if c.isalnum() or c in "-_" else "_" for c in name)[:40] or "probe"


def _lead(steps: list[StepResult]) -> int:
    n = 0
    for s in steps:
        if not s.passed:
            break
        n += 1
    return n


async def _in_context(browser: Any, task: Task, origins: set[str], seed: int, freeze_time: str | None, limits: Limits,
                      run: "_Trajectory", steps: list[StepResult]) -> tuple[str | None, dict[str, int], dict[str, int]]:
    """Run one trajectory in a fresh context; returns (page error, events, blocked requests)."""
    try:
        ctx, net = await new_context(browser, task.viewport, allowed_origins=origins, seed=seed,
                                     freeze_time=freeze_time, virtual_time=run.protocol.virtual_clock,
                                     deterministic=run.protocol.page_setup != "published")
    except Exception as e:
        raise InfraError(f"cannot open a browser context: {_short(e)}") from None
    err: str | None = None
    events: dict[str, int] = {}
    try:
        page = await ctx.new_page()
        guard = _Guard(ctx, page, limits)
        tracker = RequestTracker(page)
        run.bind(page, guard, tracker, steps)
        page_s = limits.page_limit(run.protocol, len(run.actions))
        try:
            await asyncio.wait_for(run.run(), timeout=page_s)
        except asyncio.TimeoutError:
            if getattr(run.llm_grounder, "cancelled", False):
                raise InfraError("the LLM grounder was still being asked when the page's time limit ran out") from None
            err = f"{run.prefix}the page exceeded its time limit of {page_s:.0f}s"
        except _PageFailure as e:
            err = f"{run.prefix}{e}"
        except InfraError:
            raise
        except Exception as e:
            if _browser_dead(browser):
                raise InfraError(f"the browser died: {_short(e)}") from None
            err = f"{run.prefix}page failed: {_short(e)}"
        if (why := world_failure(page)) is not None:  # a read of ours failed where a page's failure was assumed
            raise InfraError(f"{run.prefix}{why}")
        if guard.too_many:
            err = f"{run.prefix}{guard.too_many}"
        elif guard.crashed:
            err = f"{run.prefix}{guard.crashed}"
        events = dict(guard.events)
        if run.left_origin:
            events["left_origin"] = run.left_origin
        blocked = dict(net.blocked)
    finally:
        try:
            await asyncio.wait_for(ctx.close(), timeout=15)
        except Exception:
            pass
    return err, events, blocked


class _PageFailure(Exception):
    pass


def _first_other_input(main: list[Action], actions: list[Action]) -> int | None:
    """The first step (1-based) of a probe that mirrors the main trajectory step by step where it types or chooses
    something other than the main step (its other text), or None: the texts the recording showed after it may
    depend on that input."""
    for i, (a, m) in enumerate(zip(actions, main), start=1):
        if a.type in ("Type", "Select") and (a.type != m.type or a.parameters != m.parameters):
            return i
    return None


class _Trajectory:
    """One trajectory (the task's, or a probe's) on one page: ground -> act -> settle -> shot -> judge."""

    def __init__(self, task: Task, actions: list[Action], url: str, origins: set[str], shots_dir: Path,
                 protocol: Protocol, limits: Limits, llm_grounder: LlmGrounder | None,
                 assertion_judge: AssertionJudge | None, on_shot: Callable[[int, Path], None] | None,
                 inferred: dict[int, Evidence], shots: dict[int, Path], prefix: str, loose_after: int | None = None):
        self.task, self.actions, self.url, self.origins = task, actions, url, origins
        self.shots_dir, self.protocol, self.limits = shots_dir, protocol, limits
        self.llm_grounder, self.assertion_judge, self.on_shot = llm_grounder, assertion_judge, on_shot
        self.inferred, self.shots, self.prefix = inferred, shots, prefix
        #: the step after which the recorded targets' texts may read otherwise (a probe's first other input)
        self.loose_after = loose_after
        self.left_origin = 0
        self.anchor: View | None = None
        self.chance = ChanceRecord()
        #: the screenshots' bytes by index (the published order judges assertions after the trajectory)
        self.pngs: dict[int, bytes] = {}
        #: the text-free twin of the last screenshot (the reader's second picture)
        self._hidden: bytes | None = None

    def bind(self, page: Any, guard: _Guard, tracker: RequestTracker, steps: list[StepResult]) -> None:
        self.page, self.guard, self.tracker, self.steps = page, guard, tracker, steps

    async def wait_after(self, first: bool) -> dict:
        if self.protocol.settle_by_condition:
            quiet = self.limits.action_quiet_ms if self.protocol.virtual_clock and not first else self.limits.settle_quiet_ms
            rep = await settle(self.page, self.tracker, quiet_ms=quiet,
                               timeout_ms=self.limits.settle_timeout_ms, after_action=not first)
            out = rep.as_dict()
            if self.protocol.virtual_clock:
                ck = await run_clock(self.page, self.tracker, quiet_ms=self.limits.settle_quiet_ms,
                                     cap_ms=self.limits.clock_cap_load_ms if first else self.limits.clock_cap_ms,
                                     settle_timeout_ms=self.limits.settle_timeout_ms)
                if ck is not None:
                    out.update(ck.as_dict())
                    if ck.animating:
                        self.guard.events["kept_animating"] = self.guard.events.get("kept_animating", 0) + 1
            return out
        # the published waits: 1 s after loading, 0.5 s after an action, then 0.2 s in its screenshot helper
        wait = (1.0 if first else 0.5) + (0.2 if self.protocol.page_setup == "published" else 0.0)
        await asyncio.sleep(wait)
        return {"waited_ms": round(wait * 1000)}

    async def where(self) -> str | None:
        """The URL when the page has left its own origin (counted), else None."""
        away = await off_origin(self.page, self.origins)
        if away is not None:
            self.left_origin += 1
        return away

    async def shot(self, i: int) -> bytes:
        """The screenshot after action ``i`` (0: the loaded page), saved; under the evidence protocol its text-free
        twin is taken in the same hold, for the reader (``view``)."""
        p = self.shots_dir / f"step_{i}.png"
        tmo = int(min(self.limits.action_s, self.limits.shot_s) * 1000)
        try:
            data = await self._take(p, tmo)
        except Exception as e:
            if self.guard.crashed:
                raise _PageFailure(self.guard.crashed) from None
            if not await self._answers():  # a page busy in its own script: its failure
                raise _PageFailure(f"cannot take a screenshot: {_short(e)}") from None
            # the page answers, so the wait was ours (the compositor of a loaded machine): once more, longer
            self.guard.events["screenshot_retried"] = self.guard.events.get("screenshot_retried", 0) + 1
            try:
                data = await self._take(p, int(max(self.limits.shot_retry_s * 1000, tmo)))
            except Exception as e2:
                if self.guard.crashed:
                    raise _PageFailure(self.guard.crashed) from None
                raise _PageFailure(f"cannot take a screenshot (twice, the page answering): {_short(e2)}") from None
        self.shots[i] = p
        if self.protocol.assertions == "mllm":
            self.pngs[i] = data
        if self.on_shot is not None:
            self.on_shot(i, p)
        return data

    async def _take(self, p: Path, timeout_ms: int) -> bytes:
        """One attempt at the step's screenshot (and, under the evidence protocol, its text-free twin)."""
        self._hidden = None
        if self.protocol.assertions == "evidence":
            data, self._hidden = await shoot(self.page, str(p), timeout_ms=timeout_ms)
            return data
        return await screenshot(self.page, str(p), timeout_ms=timeout_ms, still=self.protocol.page_setup != "published")

    async def _answers(self) -> bool:
        """Whether the page's main thread answers a trivial question within a few seconds."""
        try:
            return await asyncio.wait_for(read(self.page, "() => 1", timeout_s=3), timeout=3.5) == 1
        except WorldUnavailable:
            raise
        except Exception:
            return False

    async def view(self, shot: bytes) -> View:
        """What a person sees in ``shot`` (the screenshot just taken)."""
        try:
            return View.from_js(await asyncio.wait_for(read_view(self.page, shot=shot, hidden=self._hidden,
                                                                 timeout_s=self.limits.action_s),
                                                       timeout=self.limits.action_s + 2))
        except asyncio.TimeoutError:
            raise _PageFailure("the page stopped answering") from None
        except Exception as e:
            raise _PageFailure(f"the page stopped answering: {_short(e)}") from None

    async def run(self) -> None:
        page, limits = self.page, self.limits
        try:
            resp = await timed("judge.load", page.goto(self.url, wait_until="load", timeout=limits.load_s * 1000))
        except Exception as e:
            msg = _short(e)
            if "Timeout" not in msg:  # a page that never fires load may still show something: go on
                raise _PageFailure(f"the page did not load: {msg}") from None
        else:
            if resp is not None and resp.status >= 400:
                raise _PageFailure(f"the page did not load: HTTP {resp.status}")
        await timed("judge.settle", self.wait_after(True))
        away = await self.where()
        # the screenshot, then what it shows read from it and the layout at the same moment (browser/view.py)
        before_png = await timed("judge.screenshot", self.shot(0))
        before_view = await timed("judge.view", self.view(before_png)) if self.protocol.assertions == "evidence" and not away else None
        self.anchor = before_view  # the screen after the last asserted step (see evidence.judge_text)
        if away:
            raise _PageFailure(f"the page left its origin before the first action: {away[:120]}")
        for i, action in enumerate(self.actions, start=1):
            if self.guard.too_many:
                raise _PageFailure(self.guard.too_many)
            if self.guard.crashed:
                raise _PageFailure(self.guard.crashed)
            t0 = time.monotonic()
            res = StepResult(index=i, type=action.type, description=action.description)
            handle = None
            note = None
            crop = self._crop(i) if self.prefix == "" else None
            try:
                handle, note = await asyncio.wait_for(
                    _step(page, action, res, self.task.viewport, self.protocol, limits, self.llm_grounder,
                          crop=crop, screenshot_png=before_png, tracker=self.tracker,
                          names_may_change=self.loose_after is not None and i > self.loose_after),
                    timeout=limits.action_s)
            except asyncio.TimeoutError:
                if getattr(self.llm_grounder, "cancelled", False):  # the model was slow, not the page
                    raise InfraError(f"{self.prefix}step {i}: the LLM grounder had not answered when the action's "
                                     f"time limit of {limits.action_s:.0f}s ran out") from None
                res.executed = False
                res.error = f"the action exceeded its time limit of {limits.action_s:.0f}s"
            if res.executed:
                res.settle = await timed("judge.settle", self.wait_after(False))
                if note:
                    res.settle["note"] = note
                away = await self.where()
                after_png = await timed("judge.screenshot", self.shot(i))
                after_view = await timed("judge.view", self.view(after_png)) if self.protocol.assertions == "evidence" and not away else None
                res.screenshot = f"step_{i}.png"
                if away or (away := await self.where()):  # again right before the checks read the page
                    res.error = f"the page left its origin: {away[:160]}"
                    res.passed = False
                    res.duration_s = round(time.monotonic() - t0, 3)
                    self.steps.append(res)
                    break
                state: dict = {}
                if action.checks or action.info or self.protocol.assertions == "checks":
                    try:
                        state = await asyncio.wait_for(read(page, STATE_JS, timeout_s=limits.action_s),
                                                       timeout=limits.action_s + 1)
                    except WorldUnavailable:
                        raise
                    except Exception as e:
                        raise _PageFailure(f"the page stopped answering: {_short(e)}") from None
                acted = await _acted_state(page, handle)
                if self.protocol.assertions == "evidence":
                    await timed("judge.evidence", self._judge_evidence(
                        i, action, res, state, acted, handle, before_view, after_view,  # type: ignore[arg-type]
                        before_png, after_png))
                else:  # "mllm": executed is passed for now; the assertions are judged after the trajectory
                    res.passed = True
                if action.info:
                    res.info_checks = evaluate_all(action.info, state, acted, after_view)
                before_png, before_view = after_png, after_view
                if action.logical_assertion:
                    self.anchor = after_view
            else:
                res.passed = False
            res.duration_s = round(time.monotonic() - t0, 3)
            self.steps.append(res)
            if not res.passed:
                break

    def _crop(self, i: int) -> Any:
        """The recorded target's picture for the appearance rung (``targets/step_<i>.png``), if any."""
        try:
            p = self.task.dir / "targets" / f"step_{i}.png"
        except RuntimeError:
            return None
        if not p.is_file() or p.is_symlink() or p.stat().st_size > 2_000_000:
            return None
        try:
            from PIL import Image

            with Image.open(p) as im:
                return im.convert("RGB")
        except Exception:
            return None

    async def _judge_evidence(self, i: int, action: Action, res: StepResult, state: dict, acted: dict | None,
                              handle: Any, before_view: View, after_view: View, before_png: bytes,
                              after_png: bytes) -> None:
        asserted = bool(action.logical_assertion)
        ev = action.evidence if action.evidence is not None else self.inferred.get(i)
        items: list[EvidenceResult] = []
        checks = evaluate_all(action.checks, state, acted, after_view) if action.checks else []
        for c in checks:
            items.append(EvidenceResult(kind="check", passed=c.passed, text=_check_text(c.check), source="author",
                                        detail=c.detail))
        if ev is not None:
            # An asserted step is decided by what its assertion quotes and by texts it mentions in words;
            # other texts that changed with it decide only when it quotes nothing seen on screen (see
            # evidence.decides). What a typed text must produce (its echo) is required on any step.
            quoted = [t.text for t in ev.texts if t.source in ("assertion", "ocr") and not t.chance]
            chance: list[EvidenceResult] = []
            for t, r in zip(ev.texts, judge_texts(ev.texts, before_view, after_view, self.anchor)):
                if t.chance:
                    r.chance, r.required = True, False
                    chance.append(r)
                else:
                    r.required = r.source == "echo" or (asserted and decides(t, action.logical_assertion, quoted))
                items.append(r)
            if chance:
                self.chance.judge(chance)
            if not asserted:
                # A step without an assertion must still do something of what it did in the recording: one
                # of the texts it changed there (on both recordings) must change here too. Lenient by design
                # (any one of them), so a page with another layout passes; a page of pictures or of buttons
                # that do nothing does not.
                derived = [r for r in items if r.source == "derived" and not r.chance]
                hit = next((r for r in derived if r.passed), None)
                for r in ([hit] if hit is not None else derived):
                    r.required = True
                if action.type == "Scroll":
                    # What stays put while the page scrolls (a sticky header, a breadcrumb, a side menu) is
                    # seen by anyone comparing the screens: where the recording's text left the screen and
                    # the page keeps it pinned in place, the page does not do what the recording shows.
                    for r in derived:
                        if r.kind == "disappears" and not r.passed and r.text and pinned(r.text, before_view, after_view):
                            r.required = True
                            r.detail = (r.detail or "") + " (pinned in place while the page scrolled)"
            if ev.change is not None and not ev.change_unstable and change_required(ev.change, asserted, action.type):
                # the visual change decides where nothing else does (no author check, no text that decides);
                # otherwise it is shown for information (the texts already say what changed). A phrase read by
                # OCR on an official task's checkpoints that merely stays on screen says nothing of what the step
                # did (a typed text that moved from its box into the list reads the same before and after): it
                # does not excuse the step from the change its checkpoints show
                worded = bool(checks) or any(r.required and r.kind != "typed" and not (r.source == "ocr" and r.kind == "visible")
                                             for r in items)
                r = judge_change(ev.change, before_png, after_png)
                r.required = not worded
                items.append(r)
            if ev.still:
                r = judge_still(before_png, after_png)
                r.required = True
                items.append(r)
        if action.type == "Type" and not await _is_password(self.page, handle):
            typed = judge_typed(action.parameters.text, after_view)
            if typed is not None:
                items.append(typed)
        res.evidence = items
        decisive = [r for r in items if r.required]
        if asserted and not any(r.kind != "typed" for r in decisive):
            # never pass an assertion on execution alone
            res.passed = False
            res.error = "the assertion has no evidence to judge it by (the task records none)"
            res.assertion = AssertionResult(text=action.logical_assertion, method="evidence", passed=None, checks=checks)
            return
        ok = all(r.passed for r in decisive)
        res.passed = ok
        if asserted:
            res.assertion = AssertionResult(text=action.logical_assertion, method="evidence", passed=ok, checks=checks)
        if not ok:
            bad = next(r for r in decisive if not r.passed)
            res.error = res.error or (bad.detail or f"{bad.kind} failed")


class ChanceRecord:
    """Whether a page follows the recording's chance (the tiles that spawned, the cards dealt).

    What chance decided in the recording (texts that held with the task's seed, not with another) is not asked of
    a page with chance of its own. A page judged with the task's seed that showed every such outcome so far, on
    at least ``STEPS`` steps and ``ITEMS`` texts, follows the recording's chance (it draws its random numbers as
    the source does): from then on, at a step where it still shows part of what chance decided there, it must
    show all of it -- a 2048 whose tiles merge as recorded but whose score does not add the merge fails there.
    A step where none of it shows means the page's chance went its own way: nothing is asked of it again."""

    STEPS, ITEMS = 2, 3

    def __init__(self) -> None:
        self.steps = self.items = 0
        self.own = False

    @property
    def follows(self) -> bool:
        return not self.own and self.steps >= self.STEPS and self.items >= self.ITEMS

    def judge(self, results: list[EvidenceResult]) -> None:
        held = [r for r in results if r.passed]
        if self.follows and held:
            for r in results:
                r.required = True
                if not r.passed:
                    r.detail = (r.detail or "") + (f" (the page showed the recording's chance outcomes on {self.steps} "
                                                   "earlier steps and part of them here)")
        if len(held) == len(results):
            self.steps += 1
            self.items += len(results)
        elif not self.follows or not held:
            self.own = True


def _check_text(c: Any) -> str:
    d = c.model_dump(exclude={"kind"}, exclude_none=True)
    return f"{c.kind} " + " ".join(f"{k}={v!r}" for k, v in d.items())


async def _is_password(page: Any, handle: Any) -> bool:
    if handle is None:
        return False
    try:
        return bool(await asyncio.wait_for(read(
            page, "(e) => !!e && (e.getAttribute('type') || '').toLowerCase() === 'password'", handle, timeout_s=3),
            timeout=3.5))
    except WorldUnavailable:
        raise
    except Exception:
        return False


async def _acted_state(page: Any, handle: Any | None) -> dict | None:
    if handle is None:
        return None
    try:
        return await asyncio.wait_for(read(page, ELEMENT_STATE_JS, handle, timeout_s=3), timeout=3.5)
    except WorldUnavailable:
        raise
    except Exception:
        return None


async def _step(page: Any, action: Action, res: StepResult, vp: tuple[int, int], protocol: Protocol,
                limits: Limits, llm_grounder: LlmGrounder | None, *, crop: Any = None,
                screenshot_png: bytes | None = None, tracker: Any = None,
                names_may_change: bool = False) -> tuple[Any | None, str | None]:
    """Ground and execute one action; returns the acted-on element and a note."""
    handle = None
    rules = for_protocol(protocol.actions)
    if action.type in NEEDS_TARGET:
        await wait_idle(page, tracker, rules, action)
        g = await timed("judge.ground", ground(page, action, vp, llm=llm_grounder if protocol.llm_grounding else None,
                                               crop=crop, screenshot=screenshot_png, rungs=protocol.grounding,
                                               names_may_change=names_may_change))
        res.grounding = g.grounding
        handle = g.handle
        if handle is None:
            res.executed = False
            res.error = "no element matches the description"
            return None, None
    outcome = await timed("judge.act", play(page, action, handle, vp, rules, timeout_ms=int(limits.action_s * 1000)))
    res.executed = outcome.executed
    res.error = outcome.error
    return handle, outcome.note
