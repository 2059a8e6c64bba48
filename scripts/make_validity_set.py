"""Assemble the reconstructions regression set (src/iwrbench/validity/data/reconstructions/).

    .venv/bin/python scripts/make_validity_set.py BUILT_TASKS_DIR [RECON_DIR[=BATCH] ...]

With no RECON_DIR, the set's own task folders are refreshed from BUILT_TASKS_DIR (pages and labels
and the assets the pages were written against kept): do this after the recorder's output changes. With RECON_DIRs, their tasks are added to the set
(a task already in it is replaced); the others stay.

BUILT_TASKS_DIR: a built suite (``iwr suite path default``). RECON_DIR: one folder per task holding
``labels.json`` and ``<variant>/page/index.html`` (pages written from the frames as a model would, then
post-processed as generation does: placeholders -> /__iwr_assets__/, iframes removed). For each labelled
task this copies the task's ``task.json``, ``targets/`` and ``assets/`` (no video, no checkpoints: the set
compares IFS prefixes), every labelled page, and the labels (with the fields the labeller wrote).
BATCH names when the pages were labelled relative to the judge's rules (e.g. ``tuning``: seen while the
judge's rules were settled; ``held-out``: written and labelled after, judged without any change): it is
kept in each label so agreement can be reported per batch. Rerun it after the recorder's output changes
so the set's tasks match what the recorder writes.
"""

from __future__ import annotations

import json
import shutil
import sys
from pathlib import Path

OUT = Path(__file__).resolve().parent.parent / "src" / "iwrbench" / "validity" / "data" / "reconstructions"
KEEP = ("label", "steps", "first_failing_step", "why", "other_input", "broken", "relabelled", "label_by_labeller",
        "how_decided", "per_step", "known_disagreement", "known_judged")


def replacements(a: str, b: str) -> list[list[str]]:
    """[old, new] pairs that turn ``a`` into ``b`` when applied in order, each ``old`` unique in ``a``."""
    import difflib

    al, bl = a.splitlines(keepends=True), b.splitlines(keepends=True)
    out = []
    for tag, i1, i2, j1, j2 in difflib.SequenceMatcher(None, al, bl, autojunk=False).get_opcodes():
        if tag == "equal":
            continue
        ctx = 1
        while True:
            lo, hi = max(0, i1 - ctx), min(len(al), i2 + ctx)
            old = "".join(al[lo:hi])
            if a.count(old) == 1 or (lo == 0 and hi == len(al)):
                break
            ctx += 1
        new = "".join(al[lo:i1]) + "".join(bl[j1:j2]) + "".join(al[i2:hi])
        out.append([old, new])
    text = a
    for old, new in out:
        text = text.replace(old, new, 1)
    assert text == b, "edits do not rebuild the mutant"
    return out


def copy_task(built_task: Path, dst: Path, *, keep_assets: bool = False) -> None:
    """The parts of a built task the set keeps: task.json, targets/, assets/ (no video, no checkpoints).

    ``keep_assets``: keep the set's own assets/ (the images the pages were written against: a page
    names its images by the composites its writer saw)."""
    # a third-party site's images are its package's files, fetched at build time and never committed: the
    # set keeps only our own sites' assets (pages of tp-* tasks then show no images; the set compares IFS)
    third_party = built_task.name.startswith("tp-")
    subs = ("targets",) if keep_assets or third_party else ("targets", "assets")
    (dst / "task").mkdir(parents=True, exist_ok=True)
    shutil.copy2(built_task / "task.json", dst / "task" / "task.json")
    for sub in subs:
        if (dst / "task" / sub).exists():
            shutil.rmtree(dst / "task" / sub)
        if (built_task / sub).is_dir():
            shutil.copytree(built_task / sub, dst / "task" / sub)


def refresh(built: Path) -> int:
    n = 0
    for dst in sorted(p for p in OUT.iterdir() if (p / "labels.json").is_file()):
        if not (built / dst.name / "task.json").is_file():
            print(f"keep {dst.name}: not in {built}", file=sys.stderr)
            continue
        copy_task(built / dst.name, dst, keep_assets=True)
        n += 1
        print(f"{dst.name}: task refreshed")
    print(f"{n} tasks refreshed in {OUT}")
    return 0


def main(built: Path, recons: list[tuple[Path, str]]) -> int:
    n_pages = 0
    dirs = [(d, batch) for recon, batch in recons for d in sorted(p for p in recon.iterdir() if (p / "labels.json").is_file())]
    for d, batch in dirs:
        task = built / d.name
        if not (task / "task.json").is_file():
            print(f"skip {d.name}: not in {built}", file=sys.stderr)
            continue
        labels = json.loads((d / "labels.json").read_text())
        dst = OUT / d.name
        if dst.exists():
            shutil.rmtree(dst)
        copy_task(task, dst)
        kept = {}
        for variant, entry in labels.items():
            page = d / variant / "page" / "index.html"
            if not page.is_file():
                print(f"skip {d.name}/{variant}: no page", file=sys.stderr)
                continue
            (dst / "pages" / variant).mkdir(parents=True)
            base = d / "careful" / "page" / "index.html"
            if variant.startswith("mutant") and base.is_file():
                # a mutant is its careful page with one behaviour broken: kept as that edit
                edits = replacements(base.read_text(), page.read_text())
                (dst / "pages" / variant / "edits.json").write_text(
                    json.dumps({"from": "careful", "replace": edits}, indent=1) + "\n")
            else:
                shutil.copy2(page, dst / "pages" / variant / "index.html")
            kept[variant] = {k: entry[k] for k in KEEP if k in entry}
            if batch:
                kept[variant]["batch"] = batch
            n_pages += 1
        (dst / "labels.json").write_text(json.dumps(kept, indent=1) + "\n")
        shown = ", ".join(f"{v}={e['label']}" for v, e in kept.items())
        print(f"{d.name}: {shown}")
    print(f"{n_pages} pages in {OUT}")
    return 0


if __name__ == "__main__":
    if len(sys.argv) < 2 or sys.argv[1] in ("-h", "--help"):
        print(__doc__, file=sys.stderr)
        sys.exit(2)
    if len(sys.argv) == 2:
        sys.exit(refresh(Path(sys.argv[1])))
    recons = [(Path(a.split("=")[0]), a.split("=")[1] if "=" in a else "") for a in sys.argv[2:]]
    sys.exit(main(Path(sys.argv[1]), recons))
