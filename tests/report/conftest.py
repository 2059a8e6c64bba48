"""The session's real baseline run (oracle, blank, screenshot over the two smoke tasks), shared
with the other end-to-end tests; its report is written outside the run folder on purpose."""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

import pytest

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
