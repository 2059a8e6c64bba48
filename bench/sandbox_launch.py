"""What Chromium's sandbox costs: browser start and first page, with the sandbox on and off.

    .venv/bin/python bench/sandbox_launch.py [--rounds N]

Each round starts a browser as the judge does (``launch_browser``: the memory cage, and with the sandbox on as
root the launcher that drops to ``iwr-browser`` in its own filesystem), opens a contained context, loads a small
page and takes a screenshot, then closes the browser: once with the sandbox on, once with ``--no-sandbox``, in
alternating order so that a busy machine weighs on both alike. Prints the median and quartiles of the start and of
start-to-first-screenshot for each. The judge starts one browser per worker (and again after a crash), not one per
page: what a page costs is the context, shown as ``context+page``. Run it on a quiet machine; the figures go into
the README.
"""

from __future__ import annotations

import argparse
import asyncio
import statistics
import time


async def one(pw, sandbox: bool) -> tuple[float, float, float]:
    from iwrbench.browser.core import launch_browser, new_context

    t0 = time.perf_counter()
    browser = await launch_browser(pw, sandbox=sandbox)
    t1 = time.perf_counter()
    try:
        ctx, _ = await new_context(browser, (800, 600), allowed_origins=set())
        t2 = time.perf_counter()
        page = await ctx.new_page()
        await page.set_content("<h1>Hello</h1><p>a small page</p>")
        await page.screenshot()
        t3 = time.perf_counter()
        await ctx.close()
    finally:
        await browser.close()
    return t1 - t0, t3 - t0, t3 - t2


def _q(xs: list[float]) -> str:
    qs = statistics.quantiles(xs, n=4) if len(xs) >= 2 else [xs[0]] * 3
    return f"median {statistics.median(xs):.3f} s (quartiles {qs[0]:.3f}-{qs[2]:.3f})"


async def main_async(rounds: int) -> None:
    from playwright.async_api import async_playwright

    from iwrbench.browser.sandbox import plan

    on = plan(True)
    print(f"sandbox on here: {on.describe()}")
    res: dict[bool, list[tuple[float, float, float]]] = {True: [], False: []}
    async with async_playwright() as pw:
        await one(pw, True)  # warm the disk cache for both
        await one(pw, False)
        for i in range(rounds):
            for sandbox in ((True, False) if i % 2 == 0 else (False, True)):
                res[sandbox].append(await one(pw, sandbox))
    for sandbox in (True, False):
        r = res[sandbox]
        print(f"sandbox {'on ' if sandbox else 'off'}: start {_q([x[0] for x in r])}; start to first screenshot "
              f"{_q([x[1] for x in r])}; context+page {_q([x[2] for x in r])}")


def main() -> int:
    ap = argparse.ArgumentParser()
    ap.add_argument("--rounds", type=int, default=10)
    a = ap.parse_args()
    asyncio.run(main_async(a.rounds))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
