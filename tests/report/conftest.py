"""One real run (oracle, blank, screenshot over the two smoke tasks), evaluated once per session
and shared by the report tests; its report is written outside the run folder on purpose."""

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
def report_run(smoke_suite, tmp_path_factory) -> ReportRun:
    import json

    from iwrbench.report import write_reports
    from iwrbench.runs.evaluate import EvalConfig, evaluate

    base = tmp_path_factory.mktemp("report")
    run_dir = base / "run"
    evaluate(EvalConfig(tasks=smoke_suite, models=MODELS, out=run_dir))
    html = write_reports([run_dir], html=base / "elsewhere" / "report.html")
    return ReportRun(run_dir=run_dir, html=html, summary=json.loads((run_dir / "summary.json").read_text()))
