"""The HTML report opened from disk in headless Chromium: clean console, every picture loads,
a leaderboard row per model, and every (model, task) page shows its timeline."""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any
from urllib.parse import unquote

from iwrbench.protocols import OFFLINE

MODELS = ["oracle", "blank", "screenshot"]  # as in conftest.report_run


@dataclass
class Opened:
    page: Any
    errors: list[str] = field(default_factory=list)
    requests: list[str] = field(default_factory=list)


async def open_file(browser: Any, path: Path) -> Opened:
    page = await browser.new_page(viewport={"width": 1280, "height": 800})
    o = Opened(page)
    page.on("console", lambda m: o.errors.append(f"console {m.type}: {m.text}") if m.type in ("error", "warning") else None)
    page.on("pageerror", lambda e: o.errors.append(f"pageerror: {e}"))
    page.on("requestfailed", lambda r: o.errors.append(f"request failed: {r.url}"))
    page.on("request", lambda r: o.requests.append(r.url))
    await page.goto(path.resolve().as_uri(), wait_until="load")
    return o


async def all_images_loaded(page: Any) -> list[dict]:
    """Force lazy pictures to load, wait for them, and return the ones that did not."""
    await page.evaluate("() => document.querySelectorAll('img').forEach(i => { i.loading = 'eager'; })")
    await page.wait_for_function(
        "() => Array.from(document.images).every(i => i.complete)", timeout=20_000)
    return await page.evaluate(
        "() => Array.from(document.images).filter(i => !(i.naturalWidth > 0)).map(i => ({src: i.src, alt: i.alt}))")


def only_inside(requests: list[str], folder: Path) -> list[str]:
    """Requests that are not files inside ``folder`` (data: URLs make no request)."""
    root = folder.resolve().as_uri() + "/"
    return [u for u in requests if not u.startswith(root) and not u.startswith("data:")]


async def test_index_opens_cleanly_with_a_row_per_model(report_run, browser):
    o = await open_file(browser, report_run.html)
    page = o.page
    rows = await page.eval_on_selector_all("#leaderboard tbody tr.model-row", "rs => rs.map(r => r.dataset.model)")
    assert sorted(rows) == sorted(MODELS)
    # same order and numbers as summary.json
    assert rows == [r["model"] for r in report_run.summary["leaderboard"]]
    finals = await page.eval_on_selector_all("#leaderboard tbody tr td:nth-child(3)", "cs => cs.map(c => c.textContent)")
    assert finals == [f"{r['final']:.2f}" for r in report_run.summary["leaderboard"]]
    # it opens on the leaderboard: the table is on the first screen, each score with its interval and n
    box = await page.locator("#leaderboard").bounding_box()
    assert box is not None and box["y"] < 400, box
    heads = await page.eval_on_selector_all("#leaderboard thead th", "hs => hs.map(h => h.textContent.trim())")
    assert heads[:8] == ["#", "Model", "Final", "95% CI", "IFS", "95% CI", "VFS", "95% CI"]
    assert "Steps passed" in heads and "n" in heads
    cis = await page.eval_on_selector_all("#leaderboard tbody tr td:nth-child(4)", "cs => cs.map(c => c.textContent)")
    assert cis == [f"[{r['final_ci']['low']:.2f}, {r['final_ci']['high']:.2f}]" for r in report_run.summary["leaderboard"]]
    steps = await page.eval_on_selector_all("#leaderboard tbody tr td:nth-child(11)", "cs => cs.map(c => c.textContent)")
    assert steps == [f"{r['steps_passed']}/{r['steps_total']}" for r in report_run.summary["leaderboard"]]
    assert "10,000 resamples" in await page.text_content("#method")
    assert await page.locator("#neighbours tbody tr").count() == len(MODELS) - 1
    assert await page.locator("#provenance").count() == 1  # the smoke tasks are novel: a column of their own
    # the protocol and its differences from the published one: named in the header, the list folded below
    assert await page.text_content("#protocol") == OFFLINE.id
    assert await page.locator("#differences li").count() == len(OFFLINE.differences)
    assert not await page.locator("#differences").is_visible()
    await page.click("#protocol-differences > summary")
    assert await page.locator("#differences li").first.is_visible()
    about = await page.locator("#about").bounding_box()
    assert about["y"] > (await page.locator("#tasks").bounding_box())["y"]
    # charts: overall, by domain, visual level and interaction level, one bar per model per group
    for tag in ("overall", "domain", "visual_complexity", "interaction_complexity"):
        chart = page.locator(f"svg#chart-{tag}")
        assert await chart.count() == 1, tag
        assert await chart.locator("rect").count() % len(MODELS) == 0
        assert await chart.locator("rect").count() >= len(MODELS)
    # the task matrix links every (model, task)
    assert await page.locator("#tasks-table td.cell a").count() == len(MODELS) * 2
    assert await all_images_loaded(page) == []
    assert o.errors == []
    assert only_inside(o.requests, report_run.html.parent) == []
    # the sortable leaderboard's script runs without error
    await page.click("#leaderboard thead th:nth-child(3)")
    assert o.errors == []


async def test_every_task_page_shows_its_timeline(report_run, browser):
    o = await open_file(browser, report_run.html)
    links = await o.page.eval_on_selector_all("#tasks-table td.cell a", "as => as.map(a => a.href)")
    await o.page.close()
    results = {(r["model"], r["task_id"]): r for r in _results(report_run.run_dir)}
    seen = set()
    for url in links:
        path = Path(url.removeprefix("file://"))
        o = await open_file(browser, path)
        page = o.page
        title = await page.text_content("h1")
        key = next(k for k in results if f"{k[0]} · {k[1]}" in title)
        seen.add(key)
        r = results[key]
        # one row for the initial state and one per action, with the judged verdicts
        rows = page.locator("#timeline tbody tr.step-row")
        assert await rows.count() == r["steps_total"] + 1, key
        executed = await page.eval_on_selector_all(
            "#timeline tbody tr.step-row", "rs => rs.slice(1).map(r => r.cells[4].textContent.trim())")
        for s, text in zip(r["steps"], executed):
            assert text.startswith("yes" if s["executed"] else "no"), (key, s["index"], text)
        verdicts = await page.eval_on_selector_all(
            "#timeline tbody tr.step-row", "rs => rs.slice(1).map(r => r.cells[5].textContent.trim())")
        for s, text in zip(r["steps"], verdicts):
            if s["assertion"] and s["assertion"]["passed"] is not None:
                assert text.startswith("pass" if s["assertion"]["passed"] else "fail"), (key, s["index"], text)
        # ground truth beside the judged screenshot and a difference overlay for the initial state
        assert await page.locator("#step-0 img").count() == 3
        assert await page.locator("#frames img").count() > 0
        assert await page.locator("details#code pre").count() == 1
        assert await all_images_loaded(page) == [], key
        assert o.errors == [], key
        assert only_inside(o.requests, report_run.html.parent) == [], key
        await page.close()
    assert seen == set(results)
    # the oracle passes every step, so every step row is inside the IFS prefix
    oracle = [k for k in results if k[0] == "oracle"]
    assert all(results[k]["steps_passed"] == results[k]["steps_total"] for k in oracle)


def test_report_references_only_its_own_folder(report_run):
    folder = report_run.html.parent
    pages = [report_run.html, *folder.joinpath("report_files").rglob("*.html")]
    assert len(pages) == 1 + len(MODELS) * 2
    for p in pages:
        text = p.read_text()
        for ref in re.findall(r'(?:src|href)="([^"]*)"', text):
            assert not ref.startswith(("/", "file:", "http:", "https:", "//")), (p.name, ref)
            if ref.startswith(("data:", "#")):
                continue
            target = (p.parent / unquote(ref.split("#")[0])).resolve()
            assert target.is_file(), (p.name, ref)
            assert folder.resolve() in target.parents, (p.name, ref)
    # nothing in the report points back into the run folder
    assert str(report_run.run_dir / "shots") not in report_run.html.read_text()


def _results(run_dir: Path) -> list[dict]:
    import json

    return [json.loads(line) for line in (run_dir / "results.jsonl").read_text().splitlines() if line.strip()]
