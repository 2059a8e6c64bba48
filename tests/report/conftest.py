"""The session's real baseline run (oracle, blank, screenshot over the two smoke tasks), shared
with the other end-to-end tests; its report is written outside the run folder on purpose."""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

import pytest
import pytest_asyncio

MODELS = ["oracle", "blank", "screenshot"]


@dataclass
class ReportRun:
    run_dir: Path
    html: Path
    summary: dict


@pytest.fixture(scope="session")
def report_run(baseline_run, tmp_path_factory) -> ReportRun:
    import json

    from iwrbench.report import write_reports

    base = tmp_path_factory.mktemp("report")
    run_dir = baseline_run
    html = write_reports([run_dir], html=base / "elsewhere" / "report.html")
    return ReportRun(run_dir=run_dir, html=html, summary=json.loads((run_dir / "summary.json").read_text()))


@pytest_asyncio.fixture
async def browser():
    """A browser for our own report, opened from disk (file://) as a person opens it: the report is not a judged
    page, and a sandboxed browser started as root has, by design, no view of the test's folders (docs/security.md),
    so this one is started with --no-sandbox."""
    from playwright.async_api import async_playwright

    from iwrbench.browser.core import launch_browser

    async with async_playwright() as pw:
        b = await launch_browser(pw, sandbox=False)
        yield b
        await b.close()
