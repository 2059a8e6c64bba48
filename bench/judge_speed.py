"""Judge time per action against a bare scripted replay of the same actions on the same pages.

    .venv/bin/python bench/judge_speed.py [SUITE_PATH] [--task ID ...] [--no-metrics]

For every task, on its source served as a model's page (the oracle, which executes every action):

- **bare**: a plain Playwright script — open the page, and for each action use the recorder's own
  selector, act, wait until the page is quiet (the same settle rule), take a screenshot. No grounding,
  no reading, no checks: the floor any judge pays.
- **judge (replay)**: ``iwrbench.judge.replay.replay`` with ``offline@2``: grounding ladder, settle,
  screenshots, the visible-text reader before/after, evidence, origin checks, and the probes (their
  actions are counted as actions: time per replayed action).
- **judge (full)**: ``judge_unit``: the replay plus the visual metrics of the checkpoints (OCR,
  visual similarity, rubric).

Prints the median and quartiles of seconds per action for each, and the ratio judge/bare per task.
Run it on a quiet machine (one heavy job at a time); the figures go into the README.
"""

from __future__ import annotations

import argparse
import asyncio
import statistics
import sys
import tempfile
import time
from pathlib import Path


async def bare(browser, task, bundle) -> float:
    """Seconds per action of a plain scripted replay (recorded selectors, settle, screenshot)."""
    from iwrbench.browser.core import new_context
    from iwrbench.browser.host import host
    from iwrbench.browser.settle import RequestTracker, screenshot, settle

    extra = task.recording_details.model_extra or {}
    with host(bundle, task.assets_dir) as (url, origins):
        ctx, _ = await new_context(browser, task.viewport, allowed_origins=origins, seed=int(extra.get("seed") or 1),
                                   freeze_time=extra.get("freeze_time"))
        try:
            page = await ctx.new_page()
            tracker = RequestTracker(page)
            await page.goto(url, wait_until="load")
            await settle(page, tracker)
            await screenshot(page)
            t0 = time.monotonic()
            w, h = task.viewport
            for a in task.action_sequence:
                p = a.parameters
                sel = a.target.selector if a.target else None
                el = page.locator(sel).first if sel else None
                if a.type == "Click":
                    await el.click()
                elif a.type == "Type":
                    await el.click()
                    await el.fill("")
                    await el.press_sequentially(p.text or "")
                elif a.type == "Press":
                    if el is not None:
                        await el.focus()
                    await page.keyboard.press(p.key or "Enter")
                elif a.type == "Scroll":
                    await page.mouse.move(w / 2, h / 2)
                    await page.mouse.wheel(0, (p.scroll_page or 0.5) * h * (-1 if p.direction == "up" else 1))
                elif a.type == "Hover":
                    await el.hover()
                elif a.type == "Select":
                    try:
                        await el.select_option(label=p.value)
                    except Exception:
                        await el.select_option(value=p.value)
                await settle(page, tracker)
                await screenshot(page)
            return (time.monotonic() - t0) / max(1, len(task.action_sequence))
        finally:
            await ctx.close()


def q(xs: list[float]) -> str:
    xs = sorted(xs)
    if not xs:
        return "-"
    qs = statistics.quantiles(xs, n=4) if len(xs) > 1 else [xs[0]] * 3
    return f"median {statistics.median(xs):.2f} s (q1 {qs[0]:.2f}, q3 {qs[2]:.2f}, n={len(xs)})"


async def main_async(a: argparse.Namespace) -> int:
    from playwright.async_api import async_playwright

    from iwrbench.browser.core import launch_browser
    from iwrbench.judge.replay import replay
    from iwrbench.judge.score import JudgeComponents, judge_unit
    from iwrbench.protocols import get_protocol
    from iwrbench.tasks import load_suite
    from iwrbench.validate.oracle import oracle_bundle

    suite = a.suite
    if suite is None:
        from iwrbench.validate.build import ensure_built

        suite = str(ensure_built("default"))
    tasks = load_suite(suite, only=a.task)
    proto = get_protocol("offline")
    comps = JudgeComponents.for_protocol(proto)
    rows = []
    async with async_playwright() as pw:
        browser = await launch_browser(pw)
        try:
            for t in tasks:
                b = oracle_bundle(t)
                s_bare = await bare(browser, t, b)
                with tempfile.TemporaryDirectory() as tmp:
                    t0 = time.monotonic()
                    rep = await replay(browser, t, b, Path(tmp) / "r", proto, limits=comps.limits)
                    dt = time.monotonic() - t0
                    n_main = sum(1 for s in rep.steps if s.executed)
                    n_probe = sum(len(p.steps) for p in rep.probes)
                    s_judge = dt / max(1, n_main + n_probe)
                    s_full = None
                    if not a.no_metrics:
                        t0 = time.monotonic()
                        await judge_unit(browser, t, b, Path(tmp) / "f", proto, comps)
                        s_full = (time.monotonic() - t0) / max(1, n_main + n_probe)
                rows.append((t.id, s_bare, s_judge, s_full, n_main, n_probe))
                print(f"{t.id:32s} bare {s_bare:.2f}  judge {s_judge:.2f}  ratio {s_judge / s_bare:.2f}"
                      + (f"  full {s_full:.2f}" if s_full is not None else "")
                      + f"  ({n_main} actions + {n_probe} probe actions)", flush=True)
        finally:
            await browser.close()
    print(f"\nsuite: {suite}")
    print(f"bare scripted replay, s/action: {q([r[1] for r in rows])}")
    print(f"judge replay (offline@2), s/action: {q([r[2] for r in rows])}")
    print(f"ratio judge/bare per task: {q([r[2] / r[1] for r in rows])}")
    if not a.no_metrics:
        print(f"judge with visual metrics, s/action: {q([r[3] for r in rows])}")
    return 0


def main() -> int:
    ap = argparse.ArgumentParser()
    ap.add_argument("suite", nargs="?")
    ap.add_argument("--task", action="append")
    ap.add_argument("--no-metrics", action="store_true", help="skip the full judge_unit run (replay only)")
    return asyncio.run(main_async(ap.parse_args()))


if __name__ == "__main__":
    sys.exit(main())
