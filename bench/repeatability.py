"""Same page, same numbers: judge each task's source (served as a model's page) several times with
``offline@2`` and report the largest difference of every score between the runs.

    .venv/bin/python bench/repeatability.py [--tasks DIR] [--no-suite] [--runs 3] [--task ID ...]
                                            [--real-clock] [--json FILE]

Tasks: the built default suite (``--tasks`` for another folder, ``--no-suite`` for none) and the
animated pages of ``bench/animated/``, recorded once into ``$IWR_CACHE/bench/animated``. On the page's
clock: a canvas chart that grows on animation frames, a slide deck with CSS transitions, a CSS spinner
before a timed result, an endless requestAnimationFrame loop, a ticker moved by a 40 ms interval with a
Web Animations fade, a list rendered in idle callbacks, a progress bar fed by a Worker's timer. On the
browser's own clock: an endless GIF, SVG (SMIL) animations, a looping video, smooth-scrolling links, a
marquee. (``bench/animated/make_media.py`` made the GIF and the video.)

``--real-clock`` judges with the page's clock left running in real time (offline@2 before the virtual
clock), to show what the virtual clock changes. Run it on a quiet machine, one heavy job at a time.
The target (issue 17): identical IFS and VFS within 0.01 on every task.
"""

from __future__ import annotations

import argparse
import asyncio
import dataclasses
import json
import sys
import tempfile
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent
ANIMATED = HERE / "animated"
SCORES = ("ifs", "vfs", "final", "low_level_visual", "high_level_visual")


async def animated_tasks(progress) -> list[tuple[object, Path]]:
    """(task, its recipe file) for every page of bench/animated, recorded once into the cache."""
    from iwrbench.record.recipe import load_recipe
    from iwrbench.sources import cache_root
    from iwrbench.tasks import load_task
    from iwrbench.validate.make import record_task_async

    out = []
    base = cache_root() / "bench" / "animated"
    base.mkdir(parents=True, exist_ok=True)
    for recipe in sorted(ANIMATED.glob("*/recipe.yaml")):
        rid = load_recipe(recipe).id
        folder = base / rid
        stamp = folder / ".recipe-mtime"
        mtime = str(max(p.stat().st_mtime_ns for p in recipe.parent.rglob("*") if p.is_file()))
        if not (folder / "task.json").is_file() or not stamp.is_file() or stamp.read_text() != mtime:
            progress(f"recording {rid} ...")
            await record_task_async(recipe, folder, validate=False, force=True,
                                    progress=lambda m: progress(f"  {m}"))
            stamp.write_text(mtime)
        out.append((load_task(folder), recipe))
    return out


async def main_async(a: argparse.Namespace) -> int:
    from playwright.async_api import async_playwright

    from iwrbench.browser.core import launch_browser
    from iwrbench.judge.score import JudgeComponents, judge_unit
    from iwrbench.protocols import get_protocol
    from iwrbench.tasks import load_suite
    from iwrbench.validate.oracle import oracle_bundle

    def say(m: str) -> None:
        print(m, file=sys.stderr, flush=True)

    units: list[tuple[object, Path | None, str]] = []
    if not a.no_suite:
        suite = a.tasks
        if suite is None:
            from iwrbench.validate.build import ensure_built

            suite = str(ensure_built("default"))
        units += [(t, None, "suite") for t in load_suite(suite, only=a.task)]
    if not a.no_animated:
        units += [(t, r, "animated") for t, r in await animated_tasks(say)
                  if not a.task or t.id in a.task]  # type: ignore[attr-defined]
    proto = get_protocol("offline")
    if a.real_clock:
        proto = dataclasses.replace(proto, virtual_clock=False)
    comps = JudgeComponents.for_protocol(proto)
    rows = []
    t_all = time.monotonic()
    async with async_playwright() as pw:
        browser = await launch_browser(pw)
        try:
            for n, (t, recipe, kind) in enumerate(units, 1):
                bundle = oracle_bundle(t, recipe)  # type: ignore[arg-type]
                results = []
                with tempfile.TemporaryDirectory() as tmp:
                    for r in range(a.runs):
                        res = await judge_unit(browser, t, bundle, Path(tmp) / f"run{r}", proto, comps)  # type: ignore[arg-type]
                        results.append(res)
                spread = {k: max(getattr(x, k) or 0 for x in results) - min(getattr(x, k) or 0 for x in results)
                          for k in SCORES}
                animating = max(x.page_events.get("kept_animating", 0) for x in results)
                row = {"task": t.id, "kind": kind, "runs": [{k: getattr(x, k) for k in SCORES} | {"status": x.status}  # type: ignore[attr-defined]
                                                           for x in results],
                       "spread": spread, "kept_animating_steps": animating}
                rows.append(row)
                say(f"[{n}/{len(units)}] {t.id:30s} IFS {results[0].ifs:6.2f}  max diff IFS {spread['ifs']:.4f} "  # type: ignore[attr-defined]
                    f"VFS {spread['vfs']:.4f} Final {spread['final']:.4f}"
                    + (f"  (never stopped animating on {animating} step(s))" if animating else ""))
        finally:
            await browser.close()
    worst = {k: max((r["spread"][k] for r in rows), default=0.0) for k in SCORES}
    over = [r["task"] for r in rows if r["spread"]["ifs"] > 0.01 or r["spread"]["vfs"] > 0.01]
    clock = "real clock (--real-clock)" if a.real_clock else "virtual clock"
    print(f"\n{len(rows)} tasks x {a.runs} runs, offline@2 with the {clock}, {time.monotonic() - t_all:.0f} s")
    print("largest difference between runs: " + ", ".join(f"{k} {v:.4f}" for k, v in worst.items()))
    print(f"tasks over 0.01 in IFS or VFS: {len(over)}" + (f" ({', '.join(over)})" if over else ""))
    if a.json:
        Path(a.json).write_text(json.dumps({"clock": clock, "runs": a.runs, "worst": worst, "over": over,
                                            "tasks": rows}, indent=1))
    return 0


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--tasks", metavar="DIR", help="a folder of task folders (default: the built default suite)")
    ap.add_argument("--no-suite", action="store_true", help="only the animated pages of bench/animated")
    ap.add_argument("--no-animated", action="store_true", help="only the suite's tasks")
    ap.add_argument("--runs", type=int, default=3, help="judgements per task (default 3)")
    ap.add_argument("--task", action="append", metavar="ID", help="only this task (repeatable)")
    ap.add_argument("--real-clock", action="store_true", help="leave the page's clock in real time (for comparison)")
    ap.add_argument("--json", metavar="FILE", help="also write every score of every run here")
    return asyncio.run(main_async(ap.parse_args()))


if __name__ == "__main__":
    sys.exit(main())
