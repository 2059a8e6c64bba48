"""``iwr record``: run a recipe on its source site and write a complete task folder.

Two passes: the first records the video, assets, checkpoints, targets and checks; the second
replays the recipe quickly and derives the checks again. Only checks that both passes agree
on are kept, so randomness or clocks cannot make a task fail its own oracle. Everything is
written into a temporary folder beside the destination and renamed at the end.
"""

from __future__ import annotations

import asyncio
import gzip
import json
import shutil
import subprocess
import sys
import tempfile
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Callable

from .. import __version__
from ..browser.core import launch_browser, new_context
from ..browser.dom import DESCRIBE_JS, ELEMENT_STATE_JS, STATE_JS
from ..browser.host import PageBundle, host
from ..browser.settle import RequestTracker, settle, screenshot
from ..errors import RecordError
from ..judge.checks import derive_checks, evaluate_all
from ..records import (
    SCHEMA_VERSION,
    Action,
    ActionParameters,
    BBox,
    RecordingDetails,
    SourceSpec,
    Target,
    Task,
)
from ..sources import cache_root, fetch_npm, pypi_env
from .assets import AssetSniffer, render_composites, write_assets
from .recipe import Recipe, RecipeAction
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

Progress = Callable[[str], None]


@dataclass
class ResolvedSource:
    bundle: PageBundle
    spec: SourceSpec
    site_dir: Path | None = None  # a folder to copy into reference/site
    label: str = ""


def resolve_source(recipe: Recipe) -> ResolvedSource:
    src = recipe.source
    if src.url:
        return ResolvedSource(PageBundle(root=Path("."), url=src.url), SourceSpec(kind="url", url=src.url), None, src.url)
    if src.site:
        d = (recipe.base_dir / src.site).resolve()
        page = src.page or "index.html"
        if not d.is_dir():
            raise RecordError(f"source.site: folder {d} does not exist")
        if not (d / page.split("?")[0].split("#")[0]).is_file():
            raise RecordError(f"source.site: {d} has no {page}")
        return ResolvedSource(PageBundle(root=d, entry=page), SourceSpec(kind="site", site="site", page=page), d,
                              f"site:{d.name}")
    if src.npm:
        n = src.npm
        pkg, digest = fetch_npm(n.package, n.version, n.sha256)
        root = (pkg / n.root).resolve()
        if not root.is_dir():
            raise RecordError(f"source.npm.root: {n.root} is not a folder of {n.package}@{n.version}")
        spec = SourceSpec(kind="npm", package=n.package, version=n.version, sha256=digest, root=n.root, page=n.page)
        return ResolvedSource(PageBundle(root=root, entry=n.page), spec, None, f"npm:{n.package}@{n.version}/{n.root}")
    p = src.pypi
    assert p is not None
    python = pypi_env(p.package, p.version, p.extra)
    data_path = None
    if p.data:
        given = (recipe.base_dir / p.data).resolve()
        if not given.exists():
            raise RecordError(f"source.pypi.data: {given} does not exist")
        if given.suffix == ".py":  # a script that makes the data file
            out_dir = cache_root() / "data" / recipe.id
            out_dir.mkdir(parents=True, exist_ok=True)
            res = subprocess.run([sys.executable, str(given), str(out_dir)], capture_output=True, text=True, timeout=300)
            if res.returncode != 0:
                raise RecordError(f"source.pypi.data: {given.name} failed: {(res.stderr or '').strip().splitlines()[-1:]}")
            made = sorted(p_ for p_ in out_dir.iterdir() if p_.is_file())
            if not made:
                raise RecordError(f"source.pypi.data: {given.name} wrote no file into its output folder")
            data_path = made[0]
        else:
            data_path = given
    spec = SourceSpec(kind="pypi", package=p.package, version=p.version, serve=p.serve, page=p.page,
                      data=("data/" + data_path.name) if data_path else None)
    bundle = PageBundle(root=data_path.parent if data_path else cache_root(), entry=p.page, serve_command=p.serve,
                        data=data_path, python=python)
    return ResolvedSource(bundle, spec, None, f"pypi:{p.package}=={p.version}")


# --------------------------------------------------------------------------- one pass


@dataclass
class StepRecord:
    target: Target | None = None
    checks: list = field(default_factory=list)
    settled: dict = field(default_factory=dict)
    duration_s: float = 0.0


@dataclass
class PassResult:
    steps: list[StepRecord]
    frames: list[tuple[float, bytes]] = field(default_factory=list)
    timeline: Timeline = field(default_factory=Timeline)
    t0: float = 0.0
    t1: float = 0.0
    assets: list = field(default_factory=list)
    blocked: dict = field(default_factory=dict)
    url: str = ""


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
        return
    if a.type == "Press":
        if el is not None:
            await el.focus()
        tl.keys.append((time.time(), a.key or ""))
        await page.keyboard.press(a.key or "Enter")
        return
    box = await el.bounding_box()
    if box is None:
        raise RecordError(f"step {i}: the target {a.target!r} has no box on screen")
    center = (box["x"] + box["width"] / 2, box["y"] + box["height"] / 2)
    await _move(page, tl, center, full)
    if a.type == "Hover":
        await el.hover()
    elif a.type == "Click":
        tl.clicks.append((time.time(), *center))
        await el.click()
    elif a.type == "Select":
        tl.clicks.append((time.time(), *center))
        try:
            await el.select_option(label=a.value)
        except Exception:
            await el.select_option(value=a.value)
    elif a.type == "Type":
        tl.clicks.append((time.time(), *center))
        await el.click()
        if a.clear:
            await el.fill("")
        if full:
            await el.press_sequentially(a.text or "", delay=TYPE_DELAY_MS)
        else:
            await el.fill(a.text or "") if a.clear else await el.press_sequentially(a.text or "")


async def _run_pass(browser: Any, recipe: Recipe, src: ResolvedSource, *, full: bool, tmp: Path | None,
                    progress: Progress | None) -> PassResult:
    vp = (recipe.viewport.width, recipe.viewport.height)
    steps: list[StepRecord] = []
    res = PassResult(steps=steps)
    with host(src.bundle) as (url, origins):
        res.url = url
        ctx, net = await new_context(browser, vp, allowed_origins=origins, seed=recipe.seed,
                                     freeze_time=recipe.freeze_time)
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
                raise RecordError(f"step 0: the page never settled within {SETTLE_TIMEOUT_MS / 1000:.0f}s ({rep.what})")
            if full and tmp is not None:
                await screenshot(page, str(tmp / "checkpoints" / "step_0.png"))
                await _dom(page, tmp, 0)
                res.timeline.moves.append((time.time(), vp[0] * 0.5, vp[1] * 0.62))
                await page.mouse.move(vp[0] * 0.5, vp[1] * 0.62)
                await asyncio.sleep(HOLD_START_S)
            n = len(recipe.actions)
            for i, a in enumerate(recipe.actions, start=1):
                t_step = time.monotonic()
                if progress:
                    progress(f"step {i}/{n}: {a.type} {a.description[:60]}")
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
                before = await _state(page)
                acted_before = await _acted_state(el)
                try:
                    await _do(page, i, a, el, res.timeline, vp, full)
                except RecordError:
                    raise
                except Exception as e:
                    msg = str(e).strip().splitlines()[0] if str(e).strip() else e.__class__.__name__
                    raise RecordError(f"step {i}: {a.type} failed: {msg}") from None
                rep = await settle(page, tracker, timeout_ms=SETTLE_TIMEOUT_MS)
                if not rep.settled:
                    raise RecordError(f"step {i}: the page never settled within {SETTLE_TIMEOUT_MS / 1000:.0f}s "
                                      f"after the action ({rep.what})")
                after = await _state(page)
                acted_after = await _acted_state(el)
                if a.checks is not None:
                    checks = list(a.checks)
                else:
                    checks = derive_checks(before, after, acted_before, acted_after, target.name if target else None)
                # keep only checks that hold right now, judged the way the judge will judge them
                checks = [r.check for r in evaluate_all(checks, after, acted_after) if r.passed or a.checks is not None]
                if a.checks is not None:
                    bad = [r for r in evaluate_all(checks, after, acted_after) if not r.passed]
                    if bad:
                        raise RecordError(f"step {i}: reviewed check {bad[0].check.kind} does not hold: {bad[0].detail}")
                steps.append(StepRecord(target=target, checks=checks, settled=rep.as_dict(),
                                        duration_s=time.monotonic() - t_step))
                if full and tmp is not None:
                    await screenshot(page, str(tmp / "checkpoints" / f"step_{i}.png"))
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


# --------------------------------------------------------------------------- public


def _check_key(c: Any) -> str:
    return c.model_dump_json()


async def record_async(recipe: Recipe, out: Path, *, progress: Progress | None = None, passes: int = 2,
                       overwrite: bool = True, fps: int = FPS) -> Task:
    from playwright.async_api import async_playwright

    out = Path(out).resolve()
    if out.exists() and not overwrite:
        raise RecordError(f"{out} exists; remove it or pass --force")
    out.parent.mkdir(parents=True, exist_ok=True)
    src = resolve_source(recipe)
    t_start = time.monotonic()
    tmp = Path(tempfile.mkdtemp(prefix=f".{out.name}.tmp-", dir=out.parent))
    try:
        (tmp / "checkpoints").mkdir()
        (tmp / "reference").mkdir()
        async with async_playwright() as pw:
            browser = await launch_browser(pw)
            try:
                first = await _run_pass(browser, recipe, src, full=True, tmp=tmp, progress=progress)
                others = []
                for k in range(1, passes):
                    if progress:
                        progress(f"pass {k + 1}/{passes}: checking which checks are stable")
                    others.append(await _run_pass(browser, recipe, src, full=False, tmp=None, progress=None))
                if progress:
                    progress("encoding video and asset composites")
                manifest = write_assets(first.assets, tmp / "assets", tmp / "reference")
                await render_composites(browser, manifest, tmp / "assets", tmp / "stitched_assets")
                version = browser.version
            finally:
                await browser.close()
        vp = (recipe.viewport.width, recipe.viewport.height)
        n_frames, duration = await asyncio.to_thread(
            encode, first.frames, first.t0, first.t1, vp, tmp / "video.mp4", fps=fps, timeline=first.timeline)
        actions: list[Action] = []
        warnings: list[str] = []
        for i, (ra, st) in enumerate(zip(recipe.actions, first.steps), start=1):
            checks = st.checks
            if ra.checks is None:
                for o in others:
                    keep = {_check_key(c) for c in o.steps[i - 1].checks}
                    dropped = [c for c in checks if _check_key(c) not in keep]
                    if dropped:
                        warnings.append(f"step {i}: dropped {len(dropped)} check(s) that differed between passes")
                    checks = [c for c in checks if _check_key(c) in keep]
            if ra.assertion and not checks:
                warnings.append(f"step {i}: the assertion has no typed check (nothing measurable changed)")
            params = ActionParameters(description=ra.description, text=ra.text, key=ra.key, direction=ra.direction,
                                      scroll_page=ra.amount if ra.type == "Scroll" else None, value=ra.value)
            actions.append(Action(type=ra.type, parameters=params, visual_evaluation_flag=ra.visual,
                                  checkpoint_screenshot=f"checkpoints/step_{i}.png", logical_assertion=ra.assertion,
                                  target=st.target, checks=checks))
        task = Task(id=recipe.id, schema_version=SCHEMA_VERSION, source_website=src.label,
                    classification=recipe.classification,
                    recording_details=RecordingDetails(resolution=f"{vp[0]}x{vp[1]}",
                                                       environment=f"Chromium {version} headless; iwrbench {__version__}",
                                                       fps=fps, duration_s=round(duration, 2),
                                                       seed=recipe.seed, freeze_time=recipe.freeze_time),
                    action_sequence=actions)
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
        (ref / "record.json").write_text(json.dumps({
            "iwrbench": __version__, "browser": version, "passes": passes, "fps": fps, "frames": n_frames,
            "screencast_frames": len(first.frames), "seconds": round(time.monotonic() - t_start, 2),
            "step_seconds": [round(s.duration_s, 3) for s in first.steps], "warnings": warnings,
            "blocked_requests": first.blocked, "url": first.url,
        }, indent=1))
        (tmp / "task.json").write_text(task.model_dump_json(indent=1, exclude_none=True))
        # atomically replace the destination
        if out.exists():
            old = out.with_name(f".{out.name}.old-{int(time.time() * 1000)}")
            out.rename(old)
            tmp.rename(out)
            shutil.rmtree(old, ignore_errors=True)
        else:
            tmp.rename(out)
    except BaseException:
        shutil.rmtree(tmp, ignore_errors=True)
        raise
    if progress:
        for w in warnings:
            progress(f"warning: {w}")
    return task.bind(out)


def record(recipe: Recipe, out: Path, **kw: Any) -> Task:
    return asyncio.run(record_async(recipe, out, **kw))
