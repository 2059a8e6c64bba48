"""Reports: the self-contained HTML report and leaderboards (Markdown, CSV, JSON, terminal).

``write_reports(run_dirs, html=None, formats=None)`` is what ``iwr report``, ``iwr eval`` and
``iwr run`` call; the file layout and its reasons are in ``iwrbench.report.write``.
``load_runs`` merges run folders (same suite and protocol, else ``IwrError``) into a ``RunSet``
whose ``summary()`` has summary.json's shape, which every leaderboard writer takes.
"""

from ._runs import RunSet, Unit, load_runs
from ._tables import leaderboard_csv, leaderboard_json, leaderboard_markdown, summary_text
from .write import write_leaderboards, write_reports

__all__ = [
    "RunSet", "Unit", "leaderboard_csv", "leaderboard_json", "leaderboard_markdown", "load_runs",
    "summary_text", "write_leaderboards", "write_reports",
]
