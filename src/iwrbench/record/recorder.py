"""``iwr record``: run a recipe on its source site and write a complete task folder.

Pass 1 records the video, assets, checkpoints, targets (with a crop of each) and what a person sees
before and after every action; from that, each step's *evidence* (see ``iwrbench.checks.evidence``):
the assertion's quoted phrases and the texts that appeared or disappeared, and where the screen
changed. Pass 2 replays the recipe with another random seed: a text that does not hold there too
depends on chance (or the clock); it is kept marked as chance evidence, which the judge asks only of a
page that has shown it follows the recording's chance, and any other evidence is dropped.
Probes (other typed text, or a trajectory of the recipe's own) are recorded the same way, twice.
An asserted step left without any evidence is an error: the recipe must say what to check.
Everything is written into a temporary folder beside the destination and renamed at the end.
"""

from __future__ import annotations

import asyncio
import gzip
import json
import shutil
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Callable

from ..version import __version__
from ..browser.act import choose_option, type_into
from ..browser.core import CLOCK_START, launch_browser, new_context
from ..browser.dom import DESCRIBE_JS, ELEMENT_STATE_JS, STATE_JS
from ..browser.host import host
from ..browser.settle import RequestTracker, settle, screenshot
from ..browser.view import read_view
from ..errors import RecordError
from ..fileio import make_temp_dir, replace_dir
from ..checks.author import derive_info, evaluate_all
from ..checks.evidence import (change_agrees, change_of, decisive, derive_texts, empty_change, judge_still,
                              judge_text)
from ..checks.view import View, contains_phrase, quoted_phrases
from ..records import (
    SCHEMA_VERSION,
    Action,
    ActionParameters,
    BBox,
    Evidence,
    Probe,
    RecordingDetails,
    Target,
    Task,
)
from ..sources import ResolvedSource, resolve_source
from .assets import AssetSniffer, render_composites, write_assets
from .recipe import Recipe, RecipeAction, RecipeProbe
from .video import Timeline, encode

FPS = 10
HOLD_START_S = 1.0
HOLD_STEP_S = 0.7
HOLD_END_S = 1.0
MOVE_S = 0.35
MOVE_STEPS = 10
TYPE_DELAY_MS = 35
SETTLE_TIMEOUT_MS = 8000
NAV_TIMEOUT_MS = 30000
#: pass 2 (and the second recording of a probe) runs with the recipe's seed plus this
OTHER_SEED = 7919
#: a target larger than this share of the viewport gets no crop (it would match anywhere)
MAX_CROP_SHARE = 0.25

Progress = Callable[[str], None]


# --------------------------------------------------------------------------- one pass


@dataclass
class StepRecord:
    target: Target | None = None
    info: list = field(default_factory=list)
    settled: dict = field(default_factory=dict)
    duration_s: float = 0.0


@dataclass
class PassResult:
    steps: list[StepRecord]
    #: what a person sees: index 0 = the initial state, i = after action i (same for shots)
    views: list[View] = field(default_factory=list)
    shots: list[bytes] = field(default_factory=list)
    #: the screen just before action i, pointer already on its target (hover effects are not the action's)
    pre: dict[int, bytes] = field(default_factory=dict)
    frames: list[tuple[float, bytes]] = field(default_factory=list)
    timeline: Timeline = field(default_factory=Timeline)
    t0: float = 0.0
    t1: float = 0.0
    assets: list = field(default_factory=list)
    blocked: dict = field(default_factory=dict)
    url: str = ""
    seed: int = 1
    #: step index -> what kept the DOM changing when it was captured anyway (an endless animation)
    unsettled: dict[int, str] = field(default_factory=dict)
    #: wall-clock windows in which the page was photographed with its text made transparent (reading the view):
    #: the video's frames from them are left out
    blind: list[tuple[float, float]] = field(default_factory=list)

    def video_frames(self) -> list[tuple[float, bytes]]:
        """The screencast's frames, less those taken while the view was read."""
        return [f for f in self.frames if not any(a <= f[0] <= b + 0.05 for a, b in self.blind)]


def _animates(what: str) -> bool:
    """The page did not settle only because its DOM kept changing (a ticker, a progress loop): recorded anyway,
    with a warning; requests in flight or a document still loading remain errors."""
    return what.startswith("DOM kept changing")


async def _locate(page: Any, i: int, sel: str) -> Any:
    loc = page.locator(sel)
    try:
        await loc.first.wait_for(state="attached", timeout=5000)
    except Exception:
        raise RecordError(f"step {i}: selector {sel!r} matches nothing on the page") from None
    n = await loc.count()
    for k in range(min(n, 20)):
        el = loc.nth(k)
        try:
            if await el.is_visible():
                return el
        except Exception:
            continue
    try:
        await loc.first.wait_for(state="visible", timeout=3000)
        return loc.first
    except Exception:
        raise RecordError(f"step {i}: selector {sel!r} matches {n} element(s), none visible") from None


async def _verified_role_name(page: Any, el: Any, desc: dict) -> tuple[str | None, str | None]:
    """The role + accessible name as Playwright computes them, when they find this element."""
    role, name = desc.get("role"), desc.get("name")
    if not role or not name or len(name) > 120:
        return role, None
    try:
        cands = await page.get_by_role(role, name=name, exact=True).element_handles()
        h = await el.element_handle()
        for c in cands[:20]:
            if await c.evaluate("(a, b) => a === b", h):
                return role, name
    except Exception:
        pass
    # Playwright's own view of the element: first line of its ARIA snapshot, `- role "name"`
    try:
        snap = (await el.aria_snapshot(timeout=2000)).splitlines()[0]
        import re

        m = re.match(r'\s*-\s*([a-z]+)\s+"((?:[^"\\]|\\.)*)"', snap)
        if m:
            r2, n2 = m.group(1), m.group(2).replace('\\"', '"')
            cands = await page.get_by_role(r2, name=n2, exact=True).count()
            if cands >= 1:
                return r2, n2
    except Exception:
        pass
    return role, None


async def _move(page: Any, tl: Timeline, to: tuple[float, float], animate: bool) -> None:
    if not animate:
        await page.mouse.move(*to)
        tl.moves.append((time.time(), *to))
        return
    start = tl.moves[-1][1:] if tl.moves else to
    for k in range(1, MOVE_STEPS + 1):
        f = k / MOVE_STEPS
        f = f * f * (3 - 2 * f)  # ease in-out
        x = start[0] + (to[0] - start[0]) * f
        y = start[1] + (to[1] - start[1]) * f
        await page.mouse.move(x, y)
        tl.moves.append((time.time(), x, y))
        await asyncio.sleep(MOVE_S / MOVE_STEPS)


async def _state(page: Any) -> dict:
    return await page.evaluate(STATE_JS)


async def _view(page: Any, shot: bytes, res: "PassResult") -> View:
    """What a person sees in ``shot``, the screenshot just taken (the judge reads a page the same way)."""
    t0 = time.time()
    try:
        return View.from_js(await read_view(page, shot=shot))
    finally:
        res.blind.append((t0, time.time()))


async def _acted_state(el: Any) -> dict | None:
    if el is None:
        return None
    try:
        return await el.evaluate(ELEMENT_STATE_JS, timeout=2000)
    except Exception:
        return None


async def _do(page: Any, i: int, a: RecipeAction, el: Any, tl: Timeline, viewport: tuple[int, int], full: bool) -> None:
    w, h = viewport
    if a.type == "Scroll":
        await _move(page, tl, (w / 2, h / 2), full)
        dy = (a.amount or 0.5) * h * (-1 if a.direction == "up" else 1)
        parts = 6 if full else 1
        for _ in range(parts):
            await page.mouse.wheel(0, dy / parts)
            await asyncio.sleep(0.05 if full else 0.02)
        tl.marks.append((time.time(), i))  # no cue: the page has moved from here on
        return
    if a.type == "Press":
        if el is not None:
            await el.focus()
        tl.keys.append((time.time(), a.key or ""))
        tl.marks.append((tl.keys[-1][0], i))
        await page.keyboard.press(a.key or "Enter")
        return
    box = await el.bounding_box()
    if box is None:
        raise RecordError(f"step {i}: the target {a.target!r} has no box on screen")
    center = (box["x"] + box["width"] / 2, box["y"] + box["height"] / 2)
    await _move(page, tl, center, full)
    if a.type != "Hover":
        tl.marks.append((time.time(), i))
    if a.type == "Hover":
        await el.hover()
        tl.marks.append((time.time(), i))  # no cue: what the hover shows is on screen from here on
    elif a.type == "Click":
        tl.clicks.append((time.time(), *center))
        await el.click()
    elif a.type == "Select":
        tl.clicks.append((time.time(), *center))
        await choose_option(el, a.value or "")
    elif a.type == "Type":
        tl.clicks.append((time.time(), *center))
        # the judge types through the same player: cleared unless `clear: false`, then key by key
        await type_into(el, a.text or "", clear=a.clear, delay_ms=TYPE_DELAY_MS if full else 0)


async def _crop(el: Any, path: Path, vp: tuple[int, int], box: dict) -> None:
    """A picture of the target as it looked when acted on (for the judge's appearance rung)."""
    if not box or box["width"] < 2 or box["height"] < 2:
        return
    if box["width"] * box["height"] > MAX_CROP_SHARE * vp[0] * vp[1]:
        return
    if box["x"] < 0 or box["y"] < 0 or box["x"] + box["width"] > vp[0] or box["y"] + box["height"] > vp[1]:
        return
    try:
        await el.screenshot(path=str(path), animations="disabled", caret="hide", timeout=3000)
    except Exception:
        pass


async def _run_pass(browser: Any, recipe: Recipe, src: ResolvedSource, actions: list[RecipeAction], *, full: bool,
                    tmp: Path | None, progress: Progress | None, seed: int, label: str = "") -> PassResult:
    vp = (recipe.viewport.width, recipe.viewport.height)
    steps: list[StepRecord] = []
    res = PassResult(steps=steps, seed=seed)
    with host(src.bundle) as (url, origins):
        res.url = url
        ctx, net = await new_context(browser, vp, allowed_origins=origins, seed=seed,
                                     freeze_time=recipe.freeze_time or CLOCK_START)  # the judge's start too
        try:
            page = await ctx.new_page()
            tracker = RequestTracker(page)
            sniffer = AssetSniffer(page) if full else None
            cdp = None
            if full:
                cdp = await ctx.new_cdp_session(page)

                def on_frame(params: dict) -> None:
                    import base64

                    res.frames.append((float(params["metadata"]["timestamp"]), base64.b64decode(params["data"])))
                    asyncio.ensure_future(cdp.send("Page.screencastFrameAck", {"sessionId": params["sessionId"]}))

                cdp.on("Page.screencastFrame", on_frame)
            try:
                resp = await page.goto(url, wait_until="load", timeout=NAV_TIMEOUT_MS)
            except Exception as e:
                msg = str(e).strip().splitlines()[0] if str(e).strip() else e.__class__.__name__
                raise RecordError(f"cannot open {url}: {msg}") from None
            if resp is not None and resp.status >= 400:
                raise RecordError(f"cannot open {url}: HTTP {resp.status}")
            if cdp is not None:
                res.t0 = time.time()
                await cdp.send("Page.startScreencast", {"format": "jpeg", "quality": 85, "maxWidth": vp[0],
                                                        "maxHeight": vp[1], "everyNthFrame": 1})
            rep = await settle(page, tracker, timeout_ms=SETTLE_TIMEOUT_MS)
            if not rep.settled:
                if not _animates(rep.what):
                    raise RecordError(f"{label}step 0: the page never settled within {SETTLE_TIMEOUT_MS / 1000:.0f}s ({rep.what})")
                res.unsettled[0] = rep.what
            res.shots.append(await screenshot(page, str(tmp / "checkpoints" / "step_0.png") if full and tmp else None))
            res.views.append(await _view(page, res.shots[-1], res))
            if full and tmp is not None:
                await _dom(page, tmp, 0)
                res.timeline.moves.append((time.time(), vp[0] * 0.5, vp[1] * 0.62))
                await page.mouse.move(vp[0] * 0.5, vp[1] * 0.62)
                await asyncio.sleep(HOLD_START_S)
            n = len(actions)
            for i, a in enumerate(actions, start=1):
                t_step = time.monotonic()
                if progress:
                    progress(f"{label}step {i}/{n}: {a.type} {a.description[:60]}")
                el = await _locate(page, i, a.target) if a.target else None
                target = None
                if el is not None:
                    try:
                        await el.scroll_into_view_if_needed(timeout=3000)
                    except Exception:
                        pass
                    desc = await el.evaluate(DESCRIBE_JS)
                    role, name = await _verified_role_name(page, el, desc)
                    b = desc.get("bbox") or {}
                    target = Target(role=role, name=name, text=desc.get("text") or None, tag=desc.get("tag"),
                                    label=desc.get("label"), attributes=desc.get("attributes") or {},
                                    bbox=BBox(**b) if b else None, editable=bool(desc.get("editable")),
                                    selector=a.target)
                    if full and tmp is not None:
                        (tmp / "targets").mkdir(exist_ok=True)
                        await _crop(el, tmp / "targets" / f"step_{i}.png", vp, b)
                before = await _state(page)
                acted_before = await _acted_state(el)
                if el is not None and a.type in ("Click", "Type", "Select"):
                    box = await el.bounding_box()
                    if box is not None:
                        await _move(page, res.timeline, (box["x"] + box["width"] / 2, box["y"] + box["height"] / 2), full)
                        await asyncio.sleep(0.05)
                        res.pre[i] = await screenshot(page)
                try:
                    await _do(page, i, a, el, res.timeline, vp, full)
                except RecordError:
                    raise
                except Exception as e:
                    msg = str(e).strip().splitlines()[0] if str(e).strip() else e.__class__.__name__
                    raise RecordError(f"{label}step {i}: {a.type} failed: {msg}") from None
                rep = await settle(page, tracker, timeout_ms=SETTLE_TIMEOUT_MS, after_action=True)
                if not rep.settled:
                    if not _animates(rep.what):
                        raise RecordError(f"{label}step {i}: the page never settled within {SETTLE_TIMEOUT_MS / 1000:.0f}s "
                                          f"after the action ({rep.what})")
                    res.unsettled[i] = rep.what
                after = await _state(page)
                acted_after = await _acted_state(el)
                res.shots.append(await screenshot(page, str(tmp / "checkpoints" / f"step_{i}.png") if full and tmp else None))
                view = await _view(page, res.shots[-1], res)
                res.views.append(view)
                if a.checks is not None:  # an author's checks must hold on the source, read as the judge reads them
                    bad = [r for r in evaluate_all(list(a.checks), after, acted_after, view) if not r.passed]
                    if bad:
                        raise RecordError(f"{label}step {i}: reviewed check {bad[0].check.kind} does not hold: {bad[0].detail}")
                info = derive_info(before, after, acted_before, acted_after, target.name if target else None)
                steps.append(StepRecord(target=target, info=info, settled=rep.as_dict(),
                                        duration_s=time.monotonic() - t_step))
                if full and tmp is not None:
                    await _dom(page, tmp, i)
                    await asyncio.sleep(HOLD_STEP_S)
            if full:
                await asyncio.sleep(HOLD_END_S)
                res.t1 = time.time()
                if cdp is not None:
                    await cdp.send("Page.stopScreencast")
                if sniffer is not None:
                    await sniffer.drain()
                    res.assets = sniffer.items
            res.blocked = dict(net.blocked)
        finally:
            await ctx.close()
    return res


async def _dom(page: Any, tmp: Path, i: int) -> None:
    try:
        html = await page.content()
    except Exception:
        return
    d = tmp / "reference" / "dom"
    d.mkdir(parents=True, exist_ok=True)
    (d / f"step_{i}.html.gz").write_bytes(gzip.compress(html.encode("utf-8"), mtime=0))


# --------------------------------------------------------------------------- evidence


def _check_key(c: Any) -> str:
    return c.model_dump_json()


def step_evidence(i: int, ra: RecipeAction, first: PassResult, others: list[PassResult], *,
                  with_change: bool = True, typed: list[str] | None = None, label: str = "") -> Evidence:
    """Evidence for step ``i`` from pass 1, kept where every other pass (another seed) agrees."""
    if ra.unchanged:
        for p in [first, *others]:
            r = judge_still(p.pre.get(i, p.shots[i - 1]), p.shots[i])
            if not r.passed:
                what = (r.detail or "").split(";")[0]
                raise RecordError(f"{label}step {i}: marked 'unchanged', but on the source it {what} (seed {p.seed}); "
                                  "drop 'unchanged' or pick an action that changes nothing")
        return Evidence(still=True, notes=["the recording changed nothing here: the page must not change either"])
    shown = {x for x in (typed or []) if any(v.count(x) > 0 for v in first.views[:i])}
    d = derive_texts(first.views[i - 1], first.views[i], ra.assertion, action_type=ra.type, typed=typed or [],
                     shown_typed=shown)
    notes = list(d.notes)
    texts = []
    for t in d.texts:
        failing = [o for o in others if not judge_text(t, o.views[i - 1], o.views[i]).passed]
        if failing:
            # chance, not behaviour: asked only of a page that follows the recording's chance (the judge decides)
            notes.append(f"chance: {t.kind} {t.text!r} not so with seed {failing[0].seed}")
            texts.append(t.model_copy(update={"chance": True}))
        else:
            texts.append(t)
    ev = Evidence(texts=texts, notes=notes)
    if with_change:
        ch = change_of(first.pre.get(i, first.shots[i - 1]), first.shots[i])
        if not empty_change(ch):
            ev.change = ch
            for o in others:
                if not change_agrees(ch, change_of(o.pre.get(i, o.shots[i - 1]), o.shots[i])):
                    ev.change_unstable = True
                    notes.append(f"the visual change differs with seed {o.seed}: not required")
                    break
    return ev


# --------------------------------------------------------------------------- probes


def other_text(s: str, salt: str = "") -> str:
    """Another text of the same shape: letters to other letters, digits to other digits.

    Deterministic, so a task records the same probe every time; punctuation, spaces and @ stay, so an
    e-mail stays an e-mail and a number stays a number.
    """
    import hashlib
    import random

    rnd = random.Random(hashlib.sha256((salt + "\0" + s).encode()).digest())
    lower = "abcdefghijklmnopqrstuvwxyz"
    perm = list(lower)
    while True:
        rnd.shuffle(perm)
        if all(a != b for a, b in zip(lower, perm)):
            break
    m = dict(zip(lower, perm))
    shift = rnd.randint(1, 9)
    out = []
    for ch in s:
        if ch in m:
            out.append(m[ch])
        elif ch.lower() in m:
            out.append(m[ch.lower()].upper())
        elif ch.isdigit() and ch.isascii():
            out.append(str((int(ch) + shift) % 10))
        else:
            out.append(ch)
    return "".join(out)


@dataclass
class ProbePlan:
    name: str
    kind: str  # text | recipe
    guards: int
    mirrors: bool
    replace: dict[str, str]
    actions: list[RecipeAction]
    #: per probe action, the main step it asks the same of (None: none)
    step_mirrors: list[int | None] = field(default_factory=list)


def _substitute(s: str | None, replace: dict[str, str]) -> str | None:
    if s is None:
        return None
    for old in sorted(replace, key=len, reverse=True):
        s = s.replace(old, replace[old])
    return s


def plan_probes(recipe: Recipe) -> list[ProbePlan]:
    specs: list[RecipeProbe] = list(recipe.probes) if recipe.probes is not None else []
    auto_spec = None
    if recipe.auto_probe and recipe.probes != []:
        typed = [a.text for a in recipe.actions if a.type == "Type" and a.text and a.text.strip()]
        if typed:
            auto_spec = RecipeProbe(name="other-text", replace={t: other_text(t, recipe.id) for t in dict.fromkeys(typed)})
            specs = [auto_spec, *specs]
    plans = []
    for k, sp in enumerate(specs, start=1):
        auto = sp is auto_spec
        if sp.replace is not None:
            acts = []
            first = None
            for j, a in enumerate(recipe.actions, start=1):
                b = a.model_copy()
                if a.type == "Type" and a.text in sp.replace:
                    b.text = sp.replace[a.text]
                    first = first or j
                b.assertion = _substitute(a.assertion, sp.replace)
                if a.checks is not None:
                    b.checks = [c.model_validate_json(_substitute(c.model_dump_json(), sp.replace) or "") for c in a.checks]
                acts.append(b)
            plans.append(ProbePlan(sp.name or f"probe-{k}", "text" if auto else "recipe", first or 1, True,
                                   dict(sp.replace), acts))
        elif sp.skip is not None:
            skipped = set(sp.skip)
            kept = [(j, a) for j, a in enumerate(recipe.actions, start=1) if j not in skipped]
            plans.append(ProbePlan(sp.name or f"probe-{k}", "recipe", int(sp.guards or 1), False, {},
                                   [a for _, a in kept], [j for j, _ in kept]))
        else:
            plans.append(ProbePlan(sp.name or f"probe-{k}", "recipe", int(sp.guards or 1), False, {},
                                   list(sp.actions or []), [a.mirrors for a in sp.actions or []]))
    return plans


def _probe_actions(plan: ProbePlan, a_pass: PassResult, b_pass: PassResult | None,
                   main: list[Action]) -> tuple[list[Action], list[str]]:
    notes = []
    out: list[Action] = []
    others = [b_pass] if b_pass is not None else []
    typed: list[str] = []
    for j, ra in enumerate(plan.actions, start=1):
        if ra.type == "Type" and ra.text:
            typed.append(ra.text)
        ev = step_evidence(j, ra, a_pass, others, with_change=plan.kind == "recipe", typed=typed,
                           label=f"probe {plan.name}, ")
        if plan.kind == "text":
            # an automatic probe only asks for what the new input must produce: the text echoed back
            echo, seen = [], set()
            for t in ev.texts:
                if t.chance:
                    continue
                if t.source == "echo" or (t.source == "assertion" and t.kind == "appears" and t.channel != "struck"
                                          and any(contains_phrase(t.text, new) for new in plan.replace.values())):
                    if t.text not in seen:
                        seen.add(t.text)
                        echo.append(t.model_copy(update={"source": "echo"}))
            ev.texts = echo
            ev.notes = []
        target = main[j - 1].target if plan.mirrors and j <= len(main) else a_pass.steps[j - 1].target
        params = ActionParameters(description=ra.description, text=ra.text, key=ra.key, direction=ra.direction,
                                  scroll_page=ra.amount if ra.type == "Scroll" else None, value=ra.value,
                                  clear=False if ra.type == "Type" and not ra.clear else None)
        # an automatic probe asks only for the echo of its text (no assertion of its own to decide)
        act = Action(type=ra.type, parameters=params, logical_assertion=ra.assertion if plan.kind == "recipe" else None,
                     target=target, checks=list(ra.checks or []), evidence=ev)
        missing = [n for n in ev.notes if n.startswith("quoted ")]
        if plan.kind == "recipe" and ra.assertion and missing and len(missing) >= len(quoted_phrases(ra.assertion)[:4]):
            raise RecordError(f"probe {plan.name}, step {j}: the assertion {ra.assertion!r} quotes nothing the source shows "
                              "in this probe; give the probe its own `actions:` with an assertion that holds there")
        if plan.kind == "recipe" and ra.assertion and not decisive(act, ev):
            raise RecordError(
                f"probe {plan.name}, step {j}: the assertion {ra.assertion!r} has no evidence on the source in this "
                "probe (no quoted phrase on screen, no text appeared or disappeared, no stable visual change); "
                "give the probe its own `actions:` with an assertion that holds there")
        out.append(act)
    if plan.kind == "text":
        last = max((j for j, a in enumerate(out, 1) if a.evidence and a.evidence.texts), default=0)
        if last == 0:
            notes.append(f"probe {plan.name}: the source shows none of the other text typed; probe dropped")
            return [], notes
        out = out[:last]
    return out, notes


# --------------------------------------------------------------------------- public


async def record_async(recipe: Recipe, out: Path, *, progress: Progress | None = None, passes: int = 2,
                       overwrite: bool = True, fps: int = FPS) -> Task:
    from playwright.async_api import async_playwright

    out = Path(out).resolve()
    if out.exists() and not overwrite:
        raise RecordError(f"{out} exists; remove it or pass --force")
    out.parent.mkdir(parents=True, exist_ok=True)
    src = resolve_source(recipe)
    t_start = time.monotonic()
    tmp = make_temp_dir(f".{out.name}.tmp-", out.parent)  # renamed to out: mkdir's mode, not 0700
    warnings: list[str] = []
    try:
        (tmp / "checkpoints").mkdir()
        (tmp / "reference").mkdir()
        plans = plan_probes(recipe)
        probe_passes: list[tuple[ProbePlan, PassResult, PassResult | None]] = []
        async with async_playwright() as pw:
            browser = await launch_browser(pw)
            try:
                first = await _run_pass(browser, recipe, src, recipe.actions, full=True, tmp=tmp, progress=progress,
                                        seed=recipe.seed)
                others: list[PassResult] = []
                for k in range(1, passes):
                    seed = recipe.seed + OTHER_SEED * k
                    if progress:
                        progress(f"pass {k + 1}/{passes}: replaying with seed {seed} to keep only evidence that does not depend on chance")
                    try:
                        others.append(await _run_pass(browser, recipe, src, recipe.actions, full=False, tmp=None,
                                                      progress=None, seed=seed))
                    except RecordError as e:
                        warnings.append(f"pass {k + 1} with seed {seed} failed ({e}); evidence checked with the same seed only")
                        others.append(await _run_pass(browser, recipe, src, recipe.actions, full=False, tmp=None,
                                                      progress=None, seed=recipe.seed))
                for plan in plans:
                    if progress:
                        progress(f"probe {plan.name}: recording it on the source")
                    try:
                        pa = await _run_pass(browser, recipe, src, plan.actions, full=False, tmp=None, progress=None,
                                             seed=recipe.seed, label=f"probe {plan.name}: ")
                        pb = (await _run_pass(browser, recipe, src, plan.actions, full=False, tmp=None, progress=None,
                                              seed=recipe.seed + OTHER_SEED, label=f"probe {plan.name}: ")
                              if passes > 1 else None)
                    except RecordError as e:
                        if plan.kind == "recipe":
                            raise
                        warnings.append(f"probe {plan.name} dropped: {e}")
                        continue
                    probe_passes.append((plan, pa, pb))
                if progress:
                    progress("encoding video and asset composites")
                manifest = write_assets(first.assets, tmp / "assets", tmp / "reference")
                await render_composites(browser, manifest, tmp / "assets", tmp / "stitched_assets")
                version = browser.version
            finally:
                await browser.close()
        vp = (recipe.viewport.width, recipe.viewport.height)
        n_frames, duration = await asyncio.to_thread(
            encode, first.video_frames(), first.t0, first.t1, vp, tmp / "video.mp4", fps=fps, timeline=first.timeline)
        actions: list[Action] = []
        typed: list[str] = []
        cue_at = {step: round(max(0.0, t - first.t0), 3) for t, step in first.timeline.marks}
        for i, (ra, st) in enumerate(zip(recipe.actions, first.steps), start=1):
            if ra.type == "Type" and ra.text:
                typed.append(ra.text)
            info = st.info
            for o in others:
                keep = {_check_key(c) for c in o.steps[i - 1].info}
                info = [c for c in info if _check_key(c) in keep]
            ev = step_evidence(i, ra, first, others, typed=typed)
            params = ActionParameters(description=ra.description, text=ra.text, key=ra.key, direction=ra.direction,
                                      scroll_page=ra.amount if ra.type == "Scroll" else None, value=ra.value,
                                      clear=False if ra.type == "Type" and not ra.clear else None)
            action = Action(type=ra.type, parameters=params, visual_evaluation_flag=ra.visual,
                            checkpoint_screenshot=f"checkpoints/step_{i}.png", logical_assertion=ra.assertion,
                            target=st.target, checks=list(ra.checks or []), evidence=ev, info=info,
                            video_time_s=cue_at.get(i))
            for n in ev.notes:
                if n.startswith("quoted "):
                    warnings.append(f"step {i}: the assertion {ra.assertion!r}: {n} on the source, so the judge cannot "
                                    "ask a page for it; check the recipe's wording")
            if ra.assertion and not decisive(action, ev):
                raise RecordError(
                    f"step {i}: the assertion {ra.assertion!r} has no evidence the judge can check (no quoted phrase "
                    "on screen, no text appeared or disappeared, no stable visual change); write `checks:` for it, "
                    "or drop the assertion")
            actions.append(action)
        for i, what in sorted(first.unsettled.items()):
            warnings.append(f"step {i}: the page never stopped changing ({what}); its checkpoint shows one moment of "
                            "an animation, and the judge shows the rebuilt page at a fixed virtual time")
        probes: list[Probe] = []
        for plan, pa, pb in probe_passes:
            acts, notes = _probe_actions(plan, pa, pb, actions)
            warnings += notes
            if acts:
                probes.append(Probe(name=plan.name, kind=plan.kind, guards=plan.guards, mirrors=plan.mirrors,  # type: ignore[arg-type]
                                    replace=plan.replace, actions=acts,
                                    step_mirrors=list(plan.step_mirrors[:len(acts)]) if plan.step_mirrors else []))
        task = Task(id=recipe.id, schema_version=SCHEMA_VERSION, source_website=src.label,
                    classification=recipe.classification,
                    recording_details=RecordingDetails(resolution=f"{vp[0]}x{vp[1]}",
                                                       environment=f"Chromium {version} headless; iwrbench {__version__}",
                                                       fps=fps, duration_s=round(duration, 2),
                                                       seed=recipe.seed, freeze_time=recipe.freeze_time),
                    action_sequence=actions, probes=probes)
        ref = tmp / "reference"
        if src.site_dir is not None:
            shutil.copytree(src.site_dir, ref / "site", ignore=shutil.ignore_patterns(".*", "__pycache__"))
        if src.bundle.data is not None:
            (ref / "data").mkdir(exist_ok=True)
            shutil.copy2(src.bundle.data, ref / "data" / src.bundle.data.name)
        (ref / "source.json").write_text(src.spec.model_dump_json(indent=1, exclude_none=True))
        recipe_file = recipe.source_file
        (ref / "recipe.json").write_text(recipe.model_dump_json(indent=1, by_alias=True, exclude_none=True))
        if recipe_file is not None and recipe_file.exists():
            shutil.copy2(recipe_file, ref / "recipe.yaml")
        if recipe.source.kind == "url":
            warnings.append("the source is a `url:`: replaying this task later (iwr validate --oracle) needs that server "
                            "up and unchanged; a `site:` folder or an `npm:`/`pypi:` package keeps the task self-contained")
        for host, n in sorted(first.blocked.items()):
            warnings.append(f"blocked {n} request(s) to {host} while recording (only the source's origin is reached): "
                            "the recording shows the page without them")
        (ref / "record.json").write_text(json.dumps({
            "iwrbench": __version__, "browser": version, "passes": passes, "fps": fps, "frames": n_frames,
            "screencast_frames": len(first.frames), "seconds": round(time.monotonic() - t_start, 2),
            "step_seconds": [round(s.duration_s, 3) for s in first.steps], "warnings": warnings,
            "seeds": [first.seed] + [o.seed for o in others],
            "blocked_requests": first.blocked, "url": first.url,
        }, indent=1))
        (tmp / "task.json").write_text(task.model_dump_json(indent=1, exclude_none=True))
        # atomically replace the destination
        replace_dir(tmp, out)
    except BaseException:
        shutil.rmtree(tmp, ignore_errors=True)
        raise
    if progress:
        for w in warnings:
            progress(f"warning: {w}")
    return task.bind(out)


def record(recipe: Recipe, out: Path, **kw: Any) -> Task:
    return asyncio.run(record_async(recipe, out, **kw))
