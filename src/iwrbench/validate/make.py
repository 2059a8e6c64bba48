"""Record a recipe into a task folder that passes its own oracle replay, or write nothing.

``iwr record`` and ``iwrbench.record`` go through here: the recorder writes the task into a
hidden staging folder beside ``out``; the judge then replays it on its source, served from
the same recipe, exactly as ``iwr validate --oracle`` does. Only a task that scores IFS 100
there and reproduces its visual checkpoints replaces ``out``; otherwise the staging folder is
removed and the error names the step and the check that failed.

Then the cheat check: every cheat page (``generate/cheats.py``: a slideshow of the frames, the frames over an
invisible state machine, the first frame with buttons and no logic, the state machine with the recorded texts as
real text) is judged on the new task like a model's page. Their Final is printed; above ``FINAL_BOUND`` (15) it is
a warning, and with ``strict`` (the suite builder) the task is refused, naming the cheat and the steps it passed.
"""

from __future__ import annotations

import asyncio
import json
import shutil
import tempfile
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Callable

from ..errors import RecordError
from ..fileio import replace_dir
from ..records import Task
from ..timing import timed

Progress = Callable[[str], None]


@dataclass
class CheatScore:
    """One cheat page judged on the new task."""

    cheat: str  # the model name: slideshow, cheat-frames, cheat-buttons, cheat-text
    final: float | None
    steps_passed: int | None
    steps: int
    note: str = ""  # where it was stopped, or what capped it

    @property
    def ok(self) -> bool:
        from ..generate.cheats import FINAL_BOUND

        return self.final is not None and self.final <= FINAL_BOUND


@dataclass
class Recorded:
    """What ``record_task`` wrote: the task (bound to ``out``) and how it was checked."""

    task: Task
    out: Path
    validated: bool
    oracle_ifs: float | None = None
    checkpoints: dict[int, float] = field(default_factory=dict)  # share of differing pixels per visual checkpoint
    #: what the recorder warned about (a `url:` source, blocked requests, a quoted text the source does not
    #: show ...), one line each, as in reference/record.json
    warnings: list[str] = field(default_factory=list)
    #: the cheat pages judged on the task (empty when not checked)
    cheats: list[CheatScore] = field(default_factory=list)


async def cheat_check(task_dir: Path, progress: Progress | None = None,
                      ocr_dir: Path | None = None) -> list[CheatScore]:
    """Judge every cheat page on the task in ``task_dir`` with the default protocol (all at once, one browser).

    ``ocr_dir``: the OCR readings of the task's ground-truth checkpoints are written there too (one JSON file per
    reading, keyed by the engine's settings and the pixels), for a run that judges the task next to read
    (``runs.pipeline``) instead of reading them again."""
    from playwright.async_api import async_playwright

    from ..browser.core import launch_browser
    from ..browser.host import PageBundle
    from ..generate.cheats import KINDS, MODEL_NAMES, agenerate
    from ..judge.score import JudgeComponents, judge_unit
    from ..protocols import get_protocol
    from ..tasks.load import load_task

    task = load_task(task_dir)
    protocol = get_protocol("offline", to_run=True)
    comps = JudgeComponents.for_protocol(protocol)
    comps.check()
    if ocr_dir is not None:
        await asyncio.to_thread(_read_ground_truth, task, protocol, comps.ocr, ocr_dir)
    n = len(task.action_sequence)
    with tempfile.TemporaryDirectory(prefix="iwr-cheats-") as work:
        async with async_playwright() as pw:
            browser = await launch_browser(pw)
            try:
                async def one(kind: str) -> CheatScore:
                    unit = Path(work) / kind
                    await agenerate(kind, task, unit / "page")
                    res = await judge_unit(browser, task, PageBundle(root=unit / "page"), unit / "judge", protocol, comps)
                    return CheatScore(MODEL_NAMES[kind], res.final, res.steps_passed, n, _where(res))

                out = await asyncio.gather(*(one(k) for k in KINDS), return_exceptions=True)
            finally:
                await browser.close()
    scores = []
    for kind, r in zip(KINDS, out):
        if isinstance(r, BaseException):
            msg = str(r).strip().splitlines()[0] if str(r).strip() else r.__class__.__name__
            r = CheatScore(MODEL_NAMES[kind], None, None, n, f"not judged: {msg[:200]}")
        scores.append(r)
        if progress:
            fin = f"Final {r.final:.2f}, {r.steps_passed}/{n} step(s) credited" if r.final is not None else "not scored"
            progress(f"cheat {r.cheat}: {fin}" + (f" ({r.note})" if r.note else ""))
    return scores


def _read_ground_truth(task: Any, protocol: Any, ocr: Any, ocr_dir: Path) -> None:
    """Read the ground-truth checkpoints the judge compares (as ``judge.score.judge_unit`` picks them) with
    ``ocr``'s engine, once each, into ``ocr``'s cache and into ``ocr_dir``."""
    from PIL import Image

    from ..metrics import CachedOcr, OcrCache

    if not isinstance(ocr, CachedOcr):
        return
    keep = CachedOcr(ocr.engine, OcrCache(ocr_dir))
    flagged = [i for i, a in enumerate(task.action_sequence, 1) if a.visual_evaluation_flag]
    for cp in (range(len(flagged) + 1) if protocol.pairing == "published" else [0] + flagged):
        gt = protocol.checkpoint_path(task, cp)
        if gt.is_file():
            with Image.open(gt) as im:
                img = im.convert("RGB")
            reading = keep.read(img)
            ocr.cache.put(ocr.key(img), reading.text, words=reading.words)


def _where(res: Any) -> str:
    """Where a judged cheat was stopped, or which probe capped it."""
    caps = [p for p in (res.probes or []) if p.cap is not None]
    stop = next((s for s in res.steps if not s.passed), None)
    bits = []
    if stop is not None:
        bits.append(f"main trajectory stopped at step {stop.index}: {(stop.error or 'failed')[:120]}")
    else:
        bits.append("main trajectory passed every step")
    if caps:
        bits.append("capped by " + ", ".join(f"probe {p.name} at {p.cap} step(s)" for p in caps[:3]))
    return "; ".join(bits)


async def record_task_async(recipe: "Path | str | object", out: Path, *, validate: bool = True, passes: int = 2,
                            force: bool = False, progress: Progress | None = None, cheats: bool = True,
                            strict: bool = False, ocr_dir: Path | None = None,
                            keep_oracle: Path | None = None) -> Recorded:
    """``cheats``: judge the cheat pages on the validated task (only with ``validate``; ``ocr_dir``: keep the OCR
    readings of its ground truth there, ``cheat_check``); ``strict``: refuse the task
    when one of them scores above the bound. ``keep_oracle``: the oracle replay judges the source whole (visual
    metrics included, the default judge of offline@2) and, for a task written, that judged unit is kept in this
    folder (``kept_oracle``) for a run that judges the ``oracle`` model on the task next (``runs.pipeline``)."""
    from ..record.recipe import Recipe, load_recipe
    from ..record.recorder import record_async
    from ..tasks.load import load_task
    from .check import validate_async

    recipe_obj: Recipe = recipe if isinstance(recipe, Recipe) else load_recipe(Path(recipe))  # type: ignore[arg-type]
    recipe_file = recipe_obj.source_file
    if validate and (recipe_file is None or not Path(recipe_file).is_file()):
        raise RecordError(f"{recipe_obj.id}: validating the recording needs the recipe's file (its oracle is served "
                          "from it); load the recipe from a file, or pass validate=False (--no-validate)")
    out = Path(out).resolve()
    if out.exists() and not force and (not out.is_dir() or any(out.iterdir())):
        raise RecordError(f"{out} exists and is not empty; pass --force (force=True) to replace it")
    out.parent.mkdir(parents=True, exist_ok=True)
    staging = Path(tempfile.mkdtemp(prefix=f".{out.name}.staging-", dir=out.parent))
    shutil.rmtree(staging)  # the recorder creates it atomically
    work = ""
    try:
        await timed("record", record_async(recipe_obj, staging, progress=progress, passes=passes))
        done = Recorded(task=load_task(staging), out=out, validated=False, warnings=_warnings(staging))
        if validate:
            if progress:
                progress("validating: replaying the task on its source with the judge (iwr validate --oracle)"
                         + (", and judging the cheat pages on it (each must stay at Final <= 15)" if cheats else ""))
            work = tempfile.mkdtemp(prefix="iwr-validate-")
            comps = None
            if keep_oracle is not None:
                from ..judge.score import JudgeComponents
                from ..protocols import OFFLINE

                comps = JudgeComponents.for_protocol(OFFLINE)
                comps.check()
            # the two are independent: the cheat check's verdicts are kept only for a task that validates
            checked = timed("validate.oracle", validate_async([staging], oracle=True, work_dir=Path(work),
                                                              oracle_recipes=[recipe_file], components=comps))
            judged = timed("validate.cheats", cheat_check(staging, None, ocr_dir)) if cheats else None
            got = await asyncio.gather(checked, *([judged] if judged is not None else []), return_exceptions=True)
            for r in got:
                if isinstance(r, BaseException):
                    raise r
            [v] = got[0]  # type: ignore[misc]
            if not v.ok and v.droppable():
                # probes the recorder made whose answer the judge does not read on the source: dropped (as the
                # recorder drops one whose own guess fails there), and the cheats judged again without them
                for msg in v.own_probes_failing.values():
                    done.warnings.append(f"{msg}; the probe is dropped")
                    if progress:
                        progress(f"warning: {msg}; the probe is dropped")
                _drop_probes(staging, set(v.own_probes_failing), done.warnings)
                comps = None  # the source was judged with the probes dropped now: not the task that is written
                done.task = load_task(staging)
                v.ok, v.problems = True, []
                if cheats:
                    got[1] = await timed("validate.cheats", cheat_check(staging, None, ocr_dir))
            done.oracle_ifs, done.checkpoints = v.ifs, dict(v.checkpoints)
            if not v.ok:
                more = f" (+{len(v.problems) - 1} more)" if len(v.problems) > 1 else ""
                raise RecordError(f"{recipe_obj.id}: the recorded task fails its own oracle replay, so nothing was "
                                  f"written to {out}: {v.problems[0]}{more}. Review that step's `checks:`/`assert` in "
                                  "the recipe (docs/recipes.md), or pass --no-validate to keep it unchecked")
            done.validated = True
            if cheats:
                done.cheats = got[1]  # type: ignore[assignment]
                if progress:
                    for c in done.cheats:
                        fin = (f"Final {c.final:.2f}, {c.steps_passed}/{c.steps} step(s) credited" if c.final is not None
                               else "not scored")
                        progress(f"cheat {c.cheat}: {fin}" + (f" ({c.note})" if c.note else ""))
                bad = [c for c in done.cheats if not c.ok]
                for c in bad:
                    msg = (f"cheat {c.cheat} scores Final {c.final:.2f} on this task ({c.note})" if c.final is not None
                           else f"cheat {c.cheat} could not be judged ({c.note})")
                    msg += (": the task does not defend the steps it credits; a probe of the recipe's own that asks, "
                            "early, what a replay cannot show guards them (docs/recipes.md, \"Probes\")")
                    done.warnings.append(msg)
                    if progress:
                        progress(f"warning: {msg}")
                _note_cheats(staging, done.cheats)
                if strict and bad:
                    c = bad[0]
                    raise RecordError(f"{recipe_obj.id}: cheat {c.cheat} scores "
                                      f"{'Final %.2f' % c.final if c.final is not None else 'no score'} on the recorded "
                                      f"task, above {15} ({c.note}); nothing was written to {out}. Guard those steps "
                                      "with a probe (docs/recipes.md, \"Probes\")")
        replace_dir(staging, out)
        done.task = done.task.bind(out)
        if keep_oracle is not None:
            shutil.rmtree(keep_oracle, ignore_errors=True)
            if comps is not None and done.validated:
                _keep_oracle(keep_oracle, load_task(out), got[0][0].result, Path(work) / done.task.id, comps,
                             Path(recipe_file))
        return done
    finally:
        shutil.rmtree(staging, ignore_errors=True)
        if work:
            shutil.rmtree(work, ignore_errors=True)


#: what a kept oracle unit's folder holds (``keep_oracle``)
KEPT_RESULT, KEPT_META, KEPT_SHOTS = "result.json", "meta.json", "shots"


def _keep_oracle(dest: Path, task: Task, result: Any, shots: Path, comps: Any, recipe: Path) -> None:
    """Write the oracle unit the validation judged (``result``, its screenshots in ``shots``) to ``dest``, whole or
    not at all, with what it was judged on: the task's hash, the judge's description and the recipe whose source
    was served."""
    from ..tasks.load import suite_hash

    dest.parent.mkdir(parents=True, exist_ok=True)
    tmp = Path(tempfile.mkdtemp(prefix=f".{dest.name}.", dir=dest.parent))
    try:
        shutil.copytree(shots, tmp / KEPT_SHOTS, symlinks=True)
        (tmp / KEPT_RESULT).write_text(result.model_dump_json())
        (tmp / KEPT_META).write_text(json.dumps({"task_hash": suite_hash([task]), "judge": comps.describe(),
                                                 "recipe": str(recipe.resolve())}))
        replace_dir(tmp, dest)
    finally:
        shutil.rmtree(tmp, ignore_errors=True)


def kept_oracle(folder: Path, task: Task, judge: dict, recipe: Path | None) -> tuple[Any, Path] | None:
    """The oracle unit a build kept for ``task`` in ``folder`` (``keep_oracle``): its ``TaskResult`` and the folder
    of its screenshots, when it was judged on this very task (same hash), by this judge (same description), on the
    source of ``recipe`` (the one the run's oracle serves for the task); else None (judged again)."""
    from ..records import TaskResult
    from ..tasks.load import suite_hash

    try:
        meta = json.loads((folder / KEPT_META).read_text())
        if (recipe is None or meta.get("recipe") != str(recipe.resolve()) or meta.get("task_hash") != suite_hash([task])
                or meta.get("judge") != json.loads(json.dumps(judge))):
            return None
        res = TaskResult.model_validate_json((folder / KEPT_RESULT).read_text())
    except (OSError, ValueError):
        return None
    if res.task_id != task.id or not (folder / KEPT_SHOTS).is_dir():
        return None
    return res, folder / KEPT_SHOTS


def _drop_probes(task_dir: Path, names: set[str], warnings: list[str]) -> None:
    """Take the probes ``names`` out of the task folder's task.json (and keep ``warnings`` in reference/record.json)."""
    f = task_dir / "task.json"
    data = json.loads(f.read_text(encoding="utf-8"))
    data["probes"] = [p for p in data.get("probes") or [] if p.get("name") not in names]
    f.write_text(json.dumps(data, indent=1, ensure_ascii=False), encoding="utf-8")
    rec = task_dir / "reference" / "record.json"
    try:
        meta = json.loads(rec.read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return
    meta["warnings"] = list(warnings)
    meta["probes_dropped_at_validation"] = sorted(names)
    rec.write_text(json.dumps(meta, indent=1))


def _note_cheats(task_dir: Path, scores: list[CheatScore]) -> None:
    """Keep the cheat check in reference/record.json (``cheats``) and its warnings among the recorder's."""
    f = task_dir / "reference" / "record.json"
    try:
        data = json.loads(f.read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return
    data["cheats"] = [{"cheat": c.cheat, "final": c.final, "steps_passed": c.steps_passed, "note": c.note} for c in scores]
    data["warnings"] = list(data.get("warnings") or []) + [f"cheat {c.cheat} scores Final {c.final:.2f} ({c.note})"
                                                           for c in scores if not c.ok and c.final is not None]
    f.write_text(json.dumps(data, indent=1))


def _warnings(task_dir: Path) -> list[str]:
    """The recorder's warnings, as it wrote them into reference/record.json."""
    try:
        return list(json.loads((task_dir / "reference" / "record.json").read_text(encoding="utf-8"))["warnings"])
    except (OSError, ValueError, KeyError, TypeError):
        return []


def record_task(recipe: "Path | str | object", out: Path, **kw) -> Recorded:
    """Record ``recipe`` into ``out`` and (by default) prove it on its oracle first; see the module docstring."""
    return asyncio.run(record_task_async(recipe, out, **kw))
