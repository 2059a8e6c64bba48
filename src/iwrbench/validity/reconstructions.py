"""Evidence (b): pages written from the frames as a model would write them, labelled by eye.

The regression set ships with the package (``validity/data/reconstructions/<task_id>/``):

- ``task/``: the task as recorded (``task.json``, ``targets/``, and ``assets/`` for our own sites only: a
  third-party site's images are its package's files, never committed) — no video, no
  checkpoints: the verdicts compared here are IFS prefixes, which need neither;
- ``pages/<variant>/index.html``: pages written by a writer who saw only what a model sees (the prompt,
  the composites, the frames) and never rendered them while writing (``careful``: all frames; ``quick``:
  a few frames), and ``mutant-*`` copies that break one behaviour on purpose;
- ``labels.json``: per variant, the number of leading steps that hold when a person drives the page and
  looks (side-by-side with the checkpoints), made without the judge; with the reason for the first
  failing step. A label the judge is known to miss carries ``known_disagreement`` (why) and
  ``known_judged`` (what the judge says): the row is expected, but still counted as a disagreement.

A row agrees when the judge's prefix (after probes) equals the label. ``tasks_dir`` is not used: the set
carries its own tasks, so it runs anywhere (and in the test suite) without building the suite.
"""

from __future__ import annotations

import asyncio
import json
from pathlib import Path
from typing import Callable

from ..browser.host import PageBundle
from ..tasks import load_task
from ..timing import Pace
from . import Verdict
from ._judge import judge_session

DATA = Path(__file__).parent / "data" / "reconstructions"
Progress = Callable[[str], None]


def load_set(root: Path = DATA) -> list[tuple[Path, str, Path, dict]]:
    """(task folder, variant, page folder, label entry) for every labelled page of the set.

    A mutant is stored as the edit that breaks its careful page (``edits.json``: ``from`` and
    ``replace`` pairs); its page folder is the careful one plus ``edits.json``: ``page_html`` builds it.
    """
    out = []
    for d in sorted(p for p in root.iterdir() if p.is_dir()) if root.is_dir() else []:
        lf = d / "labels.json"
        if not lf.is_file():
            continue
        labels = json.loads(lf.read_text())
        for variant, entry in sorted(labels.items()):
            page = d / "pages" / variant
            if (page / "index.html").is_file() or (page / "edits.json").is_file():
                out.append((d / "task", variant, page, entry))
    return out


def page_html(page: Path) -> str:
    """The page's index.html (a mutant: its careful page with the recorded edits applied)."""
    if (page / "index.html").is_file():
        return (page / "index.html").read_text(encoding="utf-8")
    spec = json.loads((page / "edits.json").read_text())
    text = page_html(page.parent / spec["from"])
    for old, new in spec["replace"]:
        if text.count(old) != 1:
            raise ValueError(f"{page / 'edits.json'}: an edit does not apply to {spec['from']} (the page changed?)")
        text = text.replace(old, new, 1)
    return text


def materialise(page: Path, dest: Path) -> Path:
    """A folder holding the page's index.html, ready to be served."""
    dest.mkdir(parents=True, exist_ok=True)
    (dest / "index.html").write_text(page_html(page), encoding="utf-8")
    return dest


async def run_async(tasks_dir: Path | None, out_dir: Path, *, only: list[str] | None = None,
                    progress: Progress | None = None, root: Path = DATA,
                    pages: list[tuple[str, str]] | None = None) -> list[Verdict]:
    """``pages``: only these (task id, variant) pairs."""
    items = load_set(root)
    if pages is not None:
        wanted = set(pages)
        items = [it for it in items if (it[0].parent.name, it[1]) in wanted]
    out: list[Verdict] = []
    pace = Pace(len(items))
    async with judge_session() as js:
        for k, (task_dir, variant, page, entry) in enumerate(items, 1):
            task = load_task(task_dir, require_video=False)
            if only and task.id not in only:
                continue
            if progress:
                progress(pace.line(k, f"{task.id} / {variant}"))
            root = materialise(page, out_dir / task.id / variant / "page")
            res = await js.judge(task, PageBundle(root=root), out_dir / task.id / variant / "shots")
            (out_dir / task.id / variant / "result.json").write_text(res.model_dump_json(indent=1))
            label = int(entry["label"])
            judged = res.steps_passed if res.status in ("ok", "page_error") else None
            bad = next((s for s in res.steps if not s.passed), None)
            note = ""
            if judged is None:
                note = f"{res.status}: {res.error}"
            elif judged != label:
                why = bad.error if bad else ""
                probe = next((p for p in res.probes if p.cap is not None), None)
                if probe is not None and judged == probe.cap:
                    why = f"probe {probe.name} capped it: " + (next((s.error for s in probe.steps if not s.passed), "") or "")
                note = (f"judge stopped at step {judged + 1}: {why}" if judged < len(task.action_sequence) else "judge passed all")
                if res.status == "page_error":  # what ended the replay (a step 'not reached' says nothing of why)
                    note += f" ({res.error})"
                note += f" | label: {entry.get('why') or 'all steps hold'}"
            ok = judged == label
            known = entry.get("known_disagreement")
            if known and judged is not None and judged == entry.get("known_judged"):
                # a documented limit of the judge: still counted as a disagreement (false pass/fail) in the
                # summary, but expected, so a change of it (better or worse) shows
                ok, note = True, f"known disagreement: {known}"
            out.append(Verdict("reconstructions", task.id, variant, len(task.action_sequence), judged, label,
                               ifs=res.ifs, final=res.final, ok=ok, note=note[:400],
                               extra={"known": bool(known), "batch": entry.get("batch", "")}))
    return out


def run(tasks_dir: Path | None, out_dir: Path, *, only: list[str] | None = None, progress: Progress | None = None,
        root: Path = DATA) -> list[Verdict]:
    return asyncio.run(run_async(tasks_dir, Path(out_dir), only=only, progress=progress, root=root))


def refresh_tasks(suite_dir: Path, root: Path = DATA, *, only: list[str] | None = None) -> list[str]:
    """Replace the set's task folders by the tasks of a built suite (after a recorder change: the labels stay, they
    are about the pages; the evidence and probes the judge asks come from the recorder). Copies ``task.json``,
    ``targets/`` and, for an own site, ``assets/`` (a third-party site's files are never committed). Returns the ids
    refreshed."""
    import shutil

    done = []
    for d in sorted(p for p in root.iterdir() if p.is_dir()):
        if only and d.name not in only:
            continue
        src = Path(suite_dir) / d.name
        if not (src / "task.json").is_file():
            continue
        dst = d / "task"
        for sub in ("targets", "assets"):
            shutil.rmtree(dst / sub, ignore_errors=True)
        (dst / "task.json").write_bytes((src / "task.json").read_bytes())
        if (src / "targets").is_dir():
            shutil.copytree(src / "targets", dst / "targets")
        if not d.name.startswith("tp-") and (src / "assets").is_dir():
            shutil.copytree(src / "assets", dst / "assets")
        done.append(d.name)
    return done


def export_pages(dest: Path, variant: str, root: Path = DATA, *, only: list[str] | None = None) -> list[str]:
    """Write each task's ``variant`` page as ``dest/<task_id>/index.html``: a folder for ``--model replay:DIR``, so
    the set's pages are judged as one model's on a built suite (with its video and checkpoints: Final, not only the
    prefix). Returns the task ids written."""
    done = []
    for task_dir, v, page, _ in load_set(root):
        if v == variant and (not only or task_dir.parent.name in only):
            materialise(page, Path(dest) / task_dir.parent.name)
            done.append(task_dir.parent.name)
    return done


if __name__ == "__main__":
    import argparse
    import sys

    ap = argparse.ArgumentParser(prog="python -m iwrbench.validity.reconstructions",
                                 description="Refresh the reconstruction set's task folders from a built suite "
                                             "(the pages and their labels stay), or write one variant's pages as a "
                                             "folder for `--model replay:DIR`.")
    ap.add_argument("--refresh-tasks", type=Path, metavar="SUITE_DIR")
    ap.add_argument("--export-pages", type=Path, metavar="DIR", help="write DIR/<task_id>/index.html")
    ap.add_argument("--variant", default="careful", help="the pages --export-pages writes (default %(default)s)")
    ap.add_argument("--task", action="append")
    a = ap.parse_args()
    if not a.refresh_tasks and not a.export_pages:
        ap.error("give --refresh-tasks SUITE_DIR or --export-pages DIR")
    if a.refresh_tasks:
        ids = refresh_tasks(a.refresh_tasks, only=a.task)
        print(f"refreshed {len(ids)} task(s): {', '.join(ids)}", file=sys.stderr)
    if a.export_pages:
        ids = export_pages(a.export_pages, a.variant, only=a.task)
        print(f"wrote the {a.variant} pages of {len(ids)} task(s) to {a.export_pages}", file=sys.stderr)
