"""``write_reports``: the HTML report and the leaderboard files of one or more run folders.

Layout (``--html FILE``; default ``RUN_DIR/report.html`` for one run, and
``FIRST_RUN_DIR/report-merged.html`` for several)::

    report.html             header (protocol, its differences from the published one, runs),
                            leaderboard, charts (inline SVG), the task x model matrix
    report_files/           ``<html stem>_files``, always next to the HTML
      <model>/<task>.html   one page per (model, task): timeline, pictures, frames, code
      img/gt/<task>/        ground-truth checkpoints (JPEG thumbnails, shared by every model)
      img/shots/<model>/<task>/   judged screenshots
      img/diff/<model>/<task>/    difference overlays
      img/frames/<task>/<fps>fps-<n>/  the sampled video frames, img/assets/<task>/ the composites
      img/video/<task>/video.mp4  the task's recording (a hard link or a copy; none above 64 MB)
      .iwr-report           marks the folder as ours (it is pruned of stale files on rewrite)
    leaderboard.md / leaderboard.csv / leaderboard.json   next to the HTML; for several runs
                            leaderboard-merged.*, so a run's own leaderboard files are kept

Why a folder of relative files rather than data URIs in one HTML file: a run of the default
suite has hundreds of screenshots; as base64 they make a page of tens of MB that a browser
must parse before showing the leaderboard. As files, the index page carries no picture at all
(it opens alone), task pages load their pictures lazily, ground truth and frames are stored
once per task rather than once per model, and a rewrite only redoes pictures whose source
changed. Every path is relative and inside ``<stem>_files/`` (nothing points into the run
folder), so the HTML and its folder can be written anywhere (``--html``), moved or zipped
together, and opened from disk with no network.

Leaderboard files: ``formats=None`` (what ``iwr eval`` / ``iwr run`` / a bare ``iwr report``
pass) writes all three; a list (``--format md``) writes only those; ``[]`` none.
"""

from __future__ import annotations

from pathlib import Path
from urllib.parse import quote

from ..errors import IwrError
from ..records import Summary
from ..runs.rundir import model_dir_name
from ..runs.rundir import atomic_write
from ._images import ImageStore
from ._pages import index_page, unit_page
from ._runs import RunSet, load_runs
from ._svg import model_colours
from ._tables import FORMATS

MARKER = ".iwr-report"


def default_html(run_dirs: list[Path]) -> Path:
    first = Path(run_dirs[0])
    return first / ("report.html" if len({Path(d).resolve() for d in run_dirs}) == 1 else "report-merged.html")


def files_dir_for(html: Path) -> Path:
    return html.parent / f"{html.stem}_files"


def write_leaderboards(summary: Summary, folder: Path, formats: list[str] | None = None, *,
                       merged: bool = False) -> list[Path]:
    """leaderboard.{md,csv,json} in ``folder`` (all three when ``formats`` is None); ``merged`` (the leaderboard of
    several runs): leaderboard-merged.*, so that a run folder's own leaderboard is never overwritten by a merge."""
    formats = list(FORMATS) if formats is None else list(dict.fromkeys(formats))
    bad = [f for f in formats if f not in FORMATS]
    if bad:
        raise IwrError(f"unknown leaderboard format(s) {', '.join(bad)}; choose from {', '.join(FORMATS)}")
    out = []
    for f in formats:
        name, fn = FORMATS[f]
        if merged:
            name = name.replace("leaderboard.", "leaderboard-merged.")
        atomic_write(folder / name, fn(summary))
        out.append(folder / name)
    return out


def _prepare_files_dir(d: Path) -> None:
    if d.exists() and not d.is_dir():
        raise IwrError(f"{d} exists and is not a folder; choose another --html name")
    if d.is_dir() and any(d.iterdir()) and not (d / MARKER).is_file():
        raise IwrError(f"{d} exists and was not written by iwr report; choose another --html name")
    d.mkdir(parents=True, exist_ok=True)
    (d / MARKER).write_text("written by iwr report; rewritten (and pruned) on every report\n")


def _label_dirs(labels: list[str]) -> dict[str, str]:
    out: dict[str, str] = {}
    used: set[str] = {"img"}
    for lab in labels:
        base = model_dir_name(lab) or "model"
        name, k = base, 2
        while name in used:
            name, k = f"{base}-{k}", k + 1
        used.add(name)
        out[lab] = name
    return out


def write_reports(run_dirs: list[Path], html: Path | None = None, formats: list[str] | None = None) -> Path:
    """Write the HTML report (and leaderboards) of ``run_dirs``; returns the HTML file's path.

    Several runs are merged into one leaderboard when their suite and protocol match; otherwise
    ``IwrError`` says which differ.
    """
    run_dirs = [Path(d) for d in run_dirs]
    rs = load_runs(run_dirs)
    out = Path(html) if html is not None else default_html(run_dirs)
    if out.suffix.lower() not in (".html", ".htm"):
        raise IwrError(f"--html {out}: give a file name ending in .html")
    out.parent.mkdir(parents=True, exist_ok=True)
    files = files_dir_for(out)
    _prepare_files_dir(files)

    summary = rs.summary()
    write_leaderboards(summary, out.parent, formats, merged=len({d.resolve() for d in run_dirs}) > 1)
    write_html(rs, summary, out, files)
    return out


def write_html(rs: RunSet, summary: Summary, out: Path, files: Path) -> None:
    store = ImageStore(files)
    models = [r.model for r in summary.leaderboard]
    colours = model_colours(models)
    dirs = _label_dirs(models)
    index_href_from_unit = quote(f"../../{out.name}")

    # units in leaderboard order, then task order: prev/next walk a model's tasks
    task_pos = {t: i for i, t in enumerate(rs.task_ids)}
    units = sorted(rs.units, key=lambda u: (models.index(u.label), task_pos.get(u.task_id, 0)))
    hrefs = {(u.label, u.task_id): quote(f"{files.name}/{dirs[u.label]}/{u.task_id}.html") for u in units}
    for k, u in enumerate(units):
        def local(v) -> str | None:
            return None if v is None else quote(f"../{dirs[v.label]}/{v.task_id}.html")

        nav = {"prev": local(units[k - 1]) if k > 0 else None,
               "next": local(units[k + 1]) if k + 1 < len(units) else None}
        siblings = [(m, None if m == u.label else local(rs.unit(m, u.task_id)))
                    for m in models if rs.unit(m, u.task_id) is not None]
        page = unit_page(u, rs.tasks.get(u.task_id), store, label_dir=dirs[u.label],
                         index_href=index_href_from_unit, nav=nav, siblings=siblings)
        dst = files / dirs[u.label] / f"{u.task_id}.html"
        atomic_write(dst, page)
        store.written.add(dst)
    store.remove_stale(keep={files / MARKER})
    atomic_write(out, index_page(rs, summary, colours, hrefs))
