"""One unit of work of a run: generate and judge one (model, task), never raising for what a unit can fail at.

Used by both executors (``evaluate``: local; ``ray_executor``: one per Ray worker). The row says what went
wrong: the task's files are checked first (``tasks.files.task_problems``: a broken task is a
``task_error``), a ``TaskError`` while generating or judging is a ``task_error`` too, an ``IwrError`` of
the model a ``generation_error``, our browser dying a retried ``judge_error``, anything unforeseen a
``judge_error`` with a one-line message. Whatever was raised, its traceback is appended to the unit's log in
the run folder (``RunDir.log_file``), which the row names (``TaskResult.log``) and the report shows: the
row stays one line, the traceback is not lost.
"""

from __future__ import annotations

import asyncio
import time
from pathlib import Path
from typing import Any

from ..errors import InfraError, IwrError, JudgeError, TaskError
from ..generate.registry import resolve_model
from ..judge.score import JudgeComponents, judge_unit
from ..models.base import Generation, GenerationOptions, Model
from ..protocols import Protocol
from ..records import GenerationInfo, GenerationOutcome, Task, TaskResult
from .config import EvalConfig
from .rundir import RunDir


def make_components(cfg: EvalConfig, protocol: Protocol) -> JudgeComponents:
    c = JudgeComponents.for_protocol(protocol, judge_model=cfg.judge_model, options=cfg.options,
                                     ocr=cfg.ocr, visual=cfg.visual, judge_base_url=cfg.judge_base_url,
                                     judge_args=cfg.judge_args)
    if cfg.limits is not None:
        c.limits = cfg.limits
    return c


def resolve_models(cfg: EvalConfig, **kwargs: Any) -> list[Model]:
    """The run's models; the oracle gets ``cfg.oracle_recipes``. Judging a finished run's pages again
    (``cfg.pages_from``): its models, each handing over its pages (``rejudge.RunPages``)."""
    from ..validate.oracle import OracleModel

    if cfg.pages_from is not None:
        from .rejudge import run_pages

        return run_pages(cfg, **kwargs)

    models = [resolve_model(m, cfg.options, **kwargs) for m in cfg.models]
    for m in models:
        if isinstance(m, OracleModel) and cfg.oracle_recipes:
            m.recipes = [Path(p) for p in cfg.oracle_recipes]
    return models


def one_line(e: BaseException, limit: int = 300) -> str:
    """An exception as one line: its class and the first line of its message."""
    text = str(e).strip().splitlines()[0] if str(e).strip() else ""
    text = text[:limit] + ("..." if len(text) > limit else "")
    return f"{e.__class__.__name__}: {text}" if text else e.__class__.__name__


def _row(model: Model, task: Task, protocol: Protocol, status: str, error: str, t0: float,
         gen: Generation | None = None, attempts: int = 1, log: str | None = None) -> TaskResult:
    return TaskResult(model=model.name, task_id=task.id, status=status, protocol=protocol.id,  # type: ignore[arg-type]
                      steps_total=len(task.action_sequence), tags=task.tags, error=error.replace("\n", " "),
                      generation=gen.info if gen else None, attempts=attempts,
                      duration_s=round(time.monotonic() - t0, 2), log=log)


def _log(run: RunDir, model: Model, task: Task, what: str, e: BaseException) -> str | None:
    """Keep ``e``'s traceback in the unit's log; the log's path for the row (None if it cannot be written)."""
    try:
        return run.write_log(model.name, task.id, what, e)
    except OSError:
        return None


async def run_unit(browser_box: "BrowserBox", model: Model, task: Task, run: RunDir, protocol: Protocol,
                   components: JudgeComponents, options: GenerationOptions, retries: int,
                   judged: tuple[TaskResult, Path] | None = None) -> TaskResult | None:
    """Generate and judge one (model, task); None when the unit was skipped (budget). ``judged``: the unit was
    judged already, by the build's oracle replay of this run (``validate.make.kept_oracle``: its result and
    screenshots), and is taken as it is once the model has made its page.

    Never raises for a bad task, a bad page or a bug of ours: the row says what went wrong.
    """
    t0 = time.monotonic()
    try:
        from ..tasks.files import task_problems

        problems = await asyncio.to_thread(task_problems, task)
    except Exception as e:  # noqa: BLE001
        problems = [f"{task.dir}: cannot check the task's files ({one_line(e)})"]
        log = _log(run, model, task, "task_error: cannot check the task's files", e)
    else:
        log = None
    if problems:
        more = f" (and {len(problems) - 1} more)" if len(problems) > 1 else ""
        return _row(model, task, protocol, "task_error", problems[0] + more, t0, log=log)
    page_dir = run.page_dir(model.name, task.id)
    try:
        gen = await model.generate(task, page_dir, options)
    except TaskError as e:
        return _row(model, task, protocol, "task_error", str(e), t0,
                    log=_log(run, model, task, "task_error while generating", e))
    except IwrError as e:
        gen = Generation(GenerationOutcome.FAILED, None, GenerationInfo(), error=str(e))
        log = _log(run, model, task, "generation_error", e)
    except Exception as e:  # noqa: BLE001 - a bug of ours (or of a provider's SDK): never the model's fault
        return _row(model, task, protocol, "judge_error", f"generation failed unexpectedly: {one_line(e)}", t0,
                    log=_log(run, model, task, "judge_error: generation failed unexpectedly", e))
    if gen.info.raw_reply:  # a model names its files in its page folder; the run's records, in the run folder
        gen.info.raw_reply = run.relative(page_dir / gen.info.raw_reply)
    gen.info.outcome = gen.outcome
    if gen.outcome is GenerationOutcome.BUDGET:
        return None
    if gen.outcome is not GenerationOutcome.OK:
        # scored 0, or left out like the published code's tasks without a page (protocols.unscored)
        zero = 0.0 if protocol.scores_generation_errors else None
        return TaskResult(model=model.name, task_id=task.id, status=gen.outcome.status, protocol=protocol.id,
                          ifs=zero, vfs=zero, final=zero, low_level_visual=zero, high_level_visual=zero,
                          steps_total=len(task.action_sequence), tags=task.tags, error=gen.error,
                          generation=gen.info, duration_s=round(time.monotonic() - t0, 2), log=log)
    if judged is not None:
        try:
            return await asyncio.to_thread(_take_judged, judged, model, task, run, gen, log, t0)
        except OSError:  # its screenshots could not be copied: judged here instead
            pass
    last_err = ""
    for attempt in range(1, retries + 2):
        try:
            browser = await browser_box.get()
            res = await judge_unit(browser, task, gen.page, run.shots_dir(model.name, task.id), protocol, components)
            res.model = model.name
            res.generation = gen.info
            res.attempts = attempt
            res.duration_s = round(time.monotonic() - t0, 2)
            res.log = log
            return res
        except JudgeError as e:  # the judge model was asked again already: redoing the unit asks the same
            return _row(model, task, protocol, "judge_error", str(e), t0, gen, attempt,
                        _log(run, model, task, f"judge_error (attempt {attempt})", e))
        except InfraError as e:
            last_err = str(e)
            log = _log(run, model, task, f"judge_error (attempt {attempt}; the browser is restarted)", e)
            await browser_box.restart()
        except TaskError as e:  # e.g. a checkpoint that changed under us
            return _row(model, task, protocol, "task_error", str(e), t0, gen, attempt,
                        _log(run, model, task, f"task_error (attempt {attempt})", e))
        except Exception as e:  # noqa: BLE001 - unforeseen: this unit is ours to redo, the run goes on
            # what judge/score.py could raise here on a bad file is caught by task_problems() first
            return _row(model, task, protocol, "judge_error", f"judging failed: {one_line(e)}", t0, gen, attempt,
                        _log(run, model, task, f"judge_error: judging failed (attempt {attempt})", e))
    return _row(model, task, protocol, "judge_error", last_err, t0, gen, retries + 1, log)


def _take_judged(judged: tuple[TaskResult, Path], model: Model, task: Task, run: RunDir, gen: Generation,
                 log: str | None, t0: float) -> TaskResult:
    """The unit judged by the build (``run_unit``'s ``judged``) as this run's row, its screenshots in the run."""
    import shutil

    kept, shots = judged
    dest = run.shots_dir(model.name, task.id)
    shutil.rmtree(dest, ignore_errors=True)
    shutil.copytree(shots, dest, symlinks=True)
    return kept.model_copy(update={"model": model.name, "generation": gen.info, "attempts": 1, "log": log,
                                   "tags": task.tags, "judged_in": "build",
                                   "duration_s": round(kept.duration_s + time.monotonic() - t0, 2)})


class BrowserBox:
    """One Playwright browser shared by the units of a worker, restarted after a crash; launched for the run's
    protocol (``page_setup``: iwr-bench@1 judges in the published browser, ``browser.core.launch_browser``)."""

    def __init__(self, page_setup: str = "deterministic", *, unsafe_no_sandbox: bool = False) -> None:
        self.page_setup = page_setup
        self._pw: Any = None
        self._browser: Any = None
        self._lock = asyncio.Lock()
        #: None: the process's setting (IWR_UNSAFE_NO_SANDBOX); False: --no-sandbox, as asked
        self._sandbox: bool | None = False if unsafe_no_sandbox else None

    async def get(self) -> Any:
        async with self._lock:
            if self._browser is None or not self._browser.is_connected():
                from ..browser.core import launch_browser, start_playwright

                if self._pw is None:
                    self._pw = await start_playwright(published=self.page_setup == "published")
                self._browser = await launch_browser(self._pw, page_setup=self.page_setup, sandbox=self._sandbox)
            return self._browser

    async def restart(self) -> None:
        async with self._lock:
            if self._browser is not None:
                try:
                    await asyncio.wait_for(self._browser.close(), timeout=10)
                except Exception:
                    pass
                self._browser = None

    async def close(self) -> None:
        await self.restart()
        if self._pw is not None:
            await self._pw.stop()
            self._pw = None
