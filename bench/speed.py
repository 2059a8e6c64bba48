"""Where the time of a recording and of a judged unit goes, per action.

    .venv/bin/python bench/speed.py [RECIPE.yaml ...] [--out DIR] [--no-cheats] [--json FILE]

For each recipe (default: three bundled ones of different kinds: a form, a keyboard game, a scrolling page):

1. ``iwr record`` as a user runs it (record, the oracle replay, the cheat check), timed by phase
   (``iwrbench.timing``): the video pass and its parts (locating, describing the target, the screenshots, the
   reader, settling, the action, the video's holds), the other passes (another seed, the probes), assets and
   composites, video encoding, building the probes, the oracle validation, the cheat check;
2. the task's source judged once as a model's page (``judge_unit``, offline@2), by phase: loading, settling,
   grounding, acting, screenshots, the reader, evidence, probes, visual metrics;
3. a bare scripted replay of the same actions on the same page (bench/judge_speed.py's ``bare``: recorded
   selectors, the same settle rule, a screenshot) for the ratio judge / bare per executed action.

Prints a table per recipe and per-action figures; ``--json`` keeps everything. Run it on a quiet machine for the
figures of the README, and once with the machine loaded to see what load does (the README gives both).
"""

from __future__ import annotations

import argparse
import asyncio
import json
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
DEFAULT = ["login-errors", "tp-2048-classic", "landing-scroll-hover"]


def _table(title: str, seconds: dict[str, dict], n: int, total: float) -> str:
    rows = [f"{title}: {total:.1f} s in all, {total / max(n, 1):.2f} s per action ({n} actions)",
            f"  {'phase':44} {'seconds':>9} {'count':>6} {'per action':>11}"]
    for k, v in sorted(seconds.items(), key=lambda kv: -kv[1]["seconds"]):
        rows.append(f"  {k:44} {v['seconds']:9.2f} {v['count']:6d} {v['seconds'] / max(n, 1):11.3f}")
    return "\n".join(rows)


async def one(recipe_path: Path, out: Path, cheats: bool) -> dict:
    from playwright.async_api import async_playwright

    sys.path.insert(0, str(ROOT / "bench"))
    from judge_speed import bare  # noqa: E402

    from iwrbench.browser.core import launch_browser
    from iwrbench.judge.score import JudgeComponents, judge_unit
    from iwrbench.protocols import get_protocol
    from iwrbench.record.recipe import load_recipe
    from iwrbench.timing import Timings
    from iwrbench.validate.make import record_task_async
    from iwrbench.validate.oracle import OracleModel

    recipe = load_recipe(recipe_path)
    n = len(recipe.actions)
    with Timings() as rec:
        t0 = time.perf_counter()
        done = await record_task_async(recipe, out / recipe.id, force=True, cheats=cheats)
        rec_total = time.perf_counter() - t0
    task = done.task
    protocol = get_protocol("offline", to_run=True)
    comps = JudgeComponents.for_protocol(protocol)
    with tempfile.TemporaryDirectory() as d:
        page_dir = Path(d) / "page"
        gen = await OracleModel(recipes=[recipe_path]).generate(task, page_dir, None)
        bundle = gen.page
        async with async_playwright() as pw:
            browser = await launch_browser(pw)
            try:
                with Timings() as jt:
                    t0 = time.perf_counter()
                    res = await judge_unit(browser, task, bundle, Path(d) / "shots", protocol, comps)
                    judge_total = time.perf_counter() - t0
                bare_per = await bare(browser, task, bundle)
            finally:
                await browser.close()
    executed = sum(1 for s in res.steps if s.executed) + sum(len(p.steps) for p in res.probes)
    return {"recipe": recipe.id, "actions": n, "record_s": round(rec_total, 2), "record": rec.as_dict(),
            "judge_s": round(judge_total, 2), "judge": jt.as_dict(), "judge_ifs": res.ifs,
            "executed_actions": executed, "bare_s_per_action": round(bare_per, 3),
            "judge_s_per_executed_action": round(judge_total / max(executed, 1), 3),
            "ratio": round(judge_total / max(executed, 1) / max(bare_per, 1e-6), 2),
            "cheats": [{"cheat": c.cheat, "final": c.final} for c in done.cheats]}


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("recipes", nargs="*", type=Path)
    ap.add_argument("--out", type=Path, default=None, help="where the recorded tasks go (default: a temporary folder)")
    ap.add_argument("--no-cheats", action="store_true", help="leave the cheat check out of the recording")
    ap.add_argument("--json", type=Path, help="write every figure here")
    a = ap.parse_args(argv)
    recipes = a.recipes or [ROOT / "src" / "iwrbench" / "suites" / "full" / f"{r}.yaml" for r in DEFAULT]
    out = a.out or Path(tempfile.mkdtemp(prefix="iwr-speed-"))
    rows = []
    for r in recipes:
        print(f"== {r.name}", flush=True)
        row = asyncio.run(one(r, out, not a.no_cheats))
        rows.append(row)
        print(_table(f"recording {row['recipe']}", row["record"], row["actions"], row["record_s"]))
        print(_table(f"judging its source (IFS {row['judge_ifs']:.0f})", row["judge"], row["executed_actions"],
                     row["judge_s"]))
        print(f"  bare scripted replay: {row['bare_s_per_action']:.3f} s per action; judge "
              f"{row['judge_s_per_executed_action']:.3f} s per executed action (probes included): "
              f"ratio {row['ratio']:.2f}", flush=True)
    n = sum(r["actions"] for r in rows)
    print(f"\nall: recording {sum(r['record_s'] for r in rows) / n:.2f} s per action; judging "
          f"{sum(r['judge_s'] for r in rows) / max(1, sum(r['executed_actions'] for r in rows)):.3f} s per executed "
          f"action; ratio judge/bare {sum(r['ratio'] for r in rows) / len(rows):.2f} (mean over recipes)")
    if a.json:
        a.json.write_text(json.dumps(rows, indent=1))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
