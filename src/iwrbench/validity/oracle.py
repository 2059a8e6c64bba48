"""Evidence (e): the source judged exactly like a model's page scores IFS 100 on every task.

The source is not special to the judge: its files are copied into a fresh page folder and served from
there as any model's ``index.html`` would be (``replay:`` of a copy). Sources that are served by a
program (PyPI apps such as Datasette) cannot be copied as files; they are judged through the same
judge path from their own server, and the row says so.
"""

from __future__ import annotations

import asyncio
from pathlib import Path
from typing import Callable

from ..errors import IwrError
from ..tasks import load_suite
from ..timing import Pace
from . import Verdict
from ._judge import copy_page, judge_session

Progress = Callable[[str], None]


async def run_async(tasks_dir: Path, out_dir: Path, *, only: list[str] | None = None,
                    progress: Progress | None = None, recipes: list[Path] | None = None) -> list[Verdict]:
    from ..browser.host import PageBundle
    from ..validate.oracle import oracle_bundle

    tasks = load_suite(tasks_dir, only=only, require_video=False)
    out: list[Verdict] = []
    pace = Pace(len(tasks))
    async with judge_session() as js:
        for k, task in enumerate(tasks, 1):
            if progress:
                progress(pace.line(k, f"oracle {task.id}"))
            n = len(task.action_sequence)
            try:
                src = oracle_bundle(task, recipes)
            except IwrError as e:
                out.append(Verdict("oracle", task.id, "source", n, None, n, note=f"no oracle: {e}"))
                continue
            how = "copy"
            if src.serve_command or src.url:
                bundle, how = src, "own server"
            else:
                root = copy_page(src.root, out_dir / "pages" / task.id)
                bundle = PageBundle(root=root, entry=src.entry)
            res = await js.judge(task, bundle, out_dir / "shots" / task.id)
            ok = res.status == "ok" and (res.ifs or 0) >= 100 - 1e-9
            bad = next((s for s in res.steps if not s.passed), None)
            note = "" if ok else (res.error or (f"step {bad.index}: {bad.error}" if bad else res.status))
            out.append(Verdict("oracle", task.id, f"source ({how})", n, res.steps_passed, n, ifs=res.ifs,
                               final=res.final, ok=ok, note=note[:300]))
    return out


def run(tasks_dir: Path, out_dir: Path, *, only: list[str] | None = None, progress: Progress | None = None,
        recipes: list[Path] | None = None) -> list[Verdict]:
    return asyncio.run(run_async(Path(tasks_dir), Path(out_dir), only=only, progress=progress, recipes=recipes))
