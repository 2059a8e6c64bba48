"""``iwr validate``: a task folder is complete and consistent; with ``--oracle`` its source site
replayed by the judge scores IFS 100 and reproduces every visual checkpoint.

The source site comes from the task's recipe (bundled, or given with ``--oracle-recipes``),
never from the task folder: see ``iwrbench.validate.oracle``.
"""

from __future__ import annotations

import asyncio
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import numpy as np
from PIL import Image, UnidentifiedImageError

from ..errors import IwrError, TaskError
from ..records import Task
from ..tasks.files import containment_problems, image_problem, read_metadata
from ..tasks.load import load_task

#: a checkpoint "matches" when at most this share of pixels differs by more than PIXEL_TOL
MAX_DIFF_SHARE = 0.01
PIXEL_TOL = 24


@dataclass
class Validation:
    task_id: str
    ok: bool
    problems: list[str] = field(default_factory=list)
    ifs: float | None = None
    checkpoints: dict[int, float] = field(default_factory=dict)  # share of differing pixels
    result: Any = None
    #: probes the recorder made (automatic or derived) that the judge fails on the source: name -> the problem
    #: listed for it in ``problems`` (a recording drops them instead: ``droppable``)
    own_probes_failing: dict[str, str] = field(default_factory=dict)

    def droppable(self) -> bool:
        """Is every problem a recorder-made probe that fails on the source (so dropping those probes mends it)?"""
        return bool(self.own_probes_failing) and set(self.problems) <= set(self.own_probes_failing.values())


def check_files(task: Task) -> list[str]:
    """Problems with a task folder's files (empty list when complete)."""
    problems: list[str] = containment_problems(task)
    if problems:  # nothing is read from a folder that points elsewhere
        return problems
    _, why = read_metadata(task.dir)
    if why:
        problems.append(why)
    n = len(task.action_sequence)
    if n == 0:
        problems.append("task has no actions")
    w, h = task.viewport
    for i in range(n + 1):
        cp = task.checkpoint(i)
        if not cp.is_file():
            problems.append(f"{cp}: missing checkpoint")
            continue
        why = image_problem(cp)
        if why:
            problems.append(why)
            continue
        try:
            with Image.open(cp) as im:
                if im.size != (w, h):
                    problems.append(f"{cp}: {im.size[0]}x{im.size[1]}, expected {w}x{h}")
        except (UnidentifiedImageError, OSError):
            problems.append(f"{cp}: unreadable image")
    extra = sorted(task.dir.glob("checkpoints/step_*.png"))
    if len(extra) > n + 1:
        problems.append(f"{task.dir / 'checkpoints'}: {len(extra)} checkpoints for {n} actions (expected {n + 1})")
    for p in task.stitched_assets:
        why = image_problem(p)
        if why:
            problems.append(f"composite {why}")
    try:
        from ..record.video import probe

        frames, dur, size = probe(task.video_path)
        if frames == 0:
            problems.append(f"{task.video_path}: no frames")
    except Exception as e:  # noqa: BLE001 - any decoder failure is a broken video
        problems.append(f"{task.video_path}: unreadable video ({e.__class__.__name__})")
    return problems


def pixel_diff(x: Image.Image, y: Image.Image) -> np.ndarray:
    """Where two screenshots differ: True for each pixel of ``x`` whose colour differs from ``y``'s (resized to
    ``x``'s size) by more than ``PIXEL_TOL`` in some channel."""
    xa = np.asarray(x.convert("RGB"), dtype=np.int16)
    ya = np.asarray(y.convert("RGB").resize(x.size), dtype=np.int16)
    return np.abs(xa - ya).max(axis=2) > PIXEL_TOL


def diff_share(a: Path, b: Path) -> float:
    with Image.open(a) as x, Image.open(b) as y:
        return float(pixel_diff(x, y).mean())


async def validate_oracle(task: Task, browser: Any, out_dir: Path, recipes: Any = None,
                          components: Any = None) -> Validation:
    """Replay the task on its source (from its recipe) with the judge (offline@2). ``components``
    (``judge.score.JudgeComponents`` of offline@2): the source is judged whole, visual metrics included, as a run
    judges the ``oracle`` model, and ``result`` is that unit's ``TaskResult`` (screenshots in ``out_dir``); else
    it is only replayed (no metrics) and ``result`` is the ``Replay``."""
    from ..judge.replay import replay
    from ..protocols import OFFLINE
    from .oracle import oracle_bundle

    v = Validation(task.id, ok=True)
    if components is not None:
        from ..judge.score import judge_unit

        t0 = time.monotonic()
        res = await judge_unit(browser, task, oracle_bundle(task, recipes), out_dir, OFFLINE, components)
        res.model, res.duration_s = "oracle", round(time.monotonic() - t0, 2)
        steps, probes, page_error = res.steps, res.probes, (res.error if res.status == "page_error" else None)
        if res.status not in ("ok", "page_error"):
            v.problems.append(f"oracle replay: {res.status}: {res.error}")
    else:
        rep = await replay(browser, task, oracle_bundle(task, recipes), out_dir, OFFLINE)
        res, steps, probes, page_error = rep, rep.steps, rep.probes, rep.page_error
    v.result = res
    ifs, _ = OFFLINE.ifs(steps, len(task.action_sequence))
    v.ifs = ifs
    if page_error:
        v.problems.append(f"oracle replay: page_error: {page_error}")
    if ifs < 100:
        bad = next((s for s in steps if not s.passed), None)
        why = ""
        if bad is not None:
            why = bad.error or ""
            if bad.assertion and bad.assertion.checks:
                failed = [c.detail for c in bad.assertion.checks if not c.passed]
                why = why or "; ".join(d for d in failed if d)
        v.problems.append(f"oracle IFS {ifs:.1f} < 100 (step {bad.index if bad else '?'}: {why or 'failed'})")
    # a probe must hold on the source as the judge reads it, or it caps the source's own credit when judged
    kinds = {p.name: p.kind for p in task.probes}
    for pr in probes:
        if pr.passed or pr.skipped:
            continue
        bad_step = next((s for s in pr.steps if not s.passed), None)
        msg = (f"probe {pr.name} fails on the source: "
               + (f"step {bad_step.index}: {bad_step.error or 'failed'}" if bad_step else (pr.error or "failed")))
        v.problems.append(msg)
        if kinds.get(pr.name, "recipe") != "recipe":
            v.own_probes_failing[pr.name] = msg
    for i in [0] + [k for k, a in enumerate(task.action_sequence, 1) if a.visual_evaluation_flag]:
        shot = out_dir / f"step_{i}.png"
        if not shot.is_file():
            v.problems.append(f"checkpoint {i}: not reached by the oracle")
            continue
        share = diff_share(task.checkpoint(i), shot)
        v.checkpoints[i] = share
        if share > MAX_DIFF_SHARE:
            v.problems.append(f"checkpoint {i}: {share:.1%} of pixels differ from the recording (max {MAX_DIFF_SHARE:.0%})")
    v.ok = not v.problems
    return v


async def validate_async(paths: list[Path], *, oracle: bool, work_dir: Path,
                         oracle_recipes: Any = None, components: Any = None) -> list[Validation]:
    """Check each task folder; ``oracle``: also replay it on its source, served from its recipe
    (the bundled suites' recipes, and ``oracle_recipes``: a folder of recipes or recipe files); ``components``:
    judge it whole with them (``validate_oracle``)."""
    if oracle and oracle_recipes:
        from .oracle import explicit_recipes

        explicit_recipes(oracle_recipes)  # a wrong --oracle-recipes is an error before any work
    out: list[Validation] = []
    tasks: list[Task] = []
    for p in paths:
        try:
            t = load_task(p)
        except TaskError as e:
            out.append(Validation(Path(p).name, False, [str(e)]))
            continue
        try:
            problems = check_files(t)
        except Exception as e:  # noqa: BLE001 - a file we could not foresee: the task's problem, one line
            problems = [f"{t.dir}: {e.__class__.__name__}: {str(e).splitlines()[0][:200] if str(e) else ''}"]
        if problems:
            out.append(Validation(t.id, False, problems))
        else:
            tasks.append(t)
    if oracle and tasks:
        from playwright.async_api import async_playwright

        from ..browser.core import launch_browser

        async with async_playwright() as pw:
            browser = await launch_browser(pw)
            try:
                for t in tasks:
                    try:
                        out.append(await validate_oracle(t, browser, work_dir / t.id, oracle_recipes, components))
                    except IwrError as e:
                        out.append(Validation(t.id, False, [str(e).replace("\n", " ")]))
                    except Exception as e:  # noqa: BLE001 - ours (browser crash ...): this task fails, the others go on
                        msg = str(e).splitlines()[0][:200] if str(e) else ""
                        out.append(Validation(t.id, False, [f"oracle replay failed: {e.__class__.__name__}: {msg}"]))
            finally:
                await browser.close()
    else:
        out += [Validation(t.id, True) for t in tasks]
    return out


def validate(paths: list[Path], *, oracle: bool = False, work_dir: Path, oracle_recipes: Any = None) -> list[Validation]:
    return asyncio.run(validate_async(paths, oracle=oracle, work_dir=work_dir, oracle_recipes=oracle_recipes))
