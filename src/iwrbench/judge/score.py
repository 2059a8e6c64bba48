"""From a replay to a TaskResult: visual pairs, metrics, protocol scores.

``JudgeComponents`` holds what a protocol needs (OCR engine, visual backend, high-level judge,
and for ``iwr-bench@1`` a chat model for the LLM grounder and the multimodal judges). Each
component has an availability probe; ``check()`` names every missing one before work starts.
"""

from __future__ import annotations

import asyncio
import os
import threading
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from PIL import Image

from ..browser.host import PageBundle
from ..errors import ComponentMissing, InfraError, JudgeError, TaskError
from ..models.base import GenerationOptions
from ..protocols import Protocol
from ..timing import timed
from ..records import Evidence, Task, TaskResult, VisualScores
from .infer import extra_readers, infer_evidence
from .replay import Limits, replay


_OCR_SLOTS = threading.BoundedSemaphore(max(1, os.cpu_count() or 1))
_INFER_LOCK = threading.Lock()


@dataclass
class JudgeComponents:
    protocol: Protocol
    ocr: Any = None
    visual: Any = None
    rubric: Any = None  # OfflineRubric or MllmRubric
    chat: Any = None  # ChatClient for iwr-bench@1
    limits: Limits = field(default_factory=Limits)
    missing: list[str] = field(default_factory=list)
    #: how many times a judge model is asked for a reply it cannot read (as generation retries a call)
    judge_attempts: int = 1
    _extra_readers: list[Any] | None = None

    @classmethod
    def for_protocol(cls, protocol: Protocol, *, judge_model: str | None = None,
                     options: GenerationOptions | None = None, ocr: str | None = None,
                     visual: str | None = None, judge_base_url: str | None = None,
                     judge_args: dict[str, Any] | None = None) -> "JudgeComponents":
        """``options``: the run's generation options; the judge takes their retries, timeout, concurrency and
        cache folder, never what generation sends (``-M`` body fields, output cap): ``judge_args`` are the
        judge model's own (``-J KEY=VALUE``, e.g. ``reasoning_effort``, ``thinking``)."""
        from .. import metrics

        c = cls(protocol=protocol)
        ocr_name = ocr or protocol.ocr
        vis_name = visual or (None if protocol.visual == "default" else protocol.visual)
        try:
            c.ocr = metrics.get_ocr(ocr_name)
        except ComponentMissing as e:
            c.missing.append(str(e))
        try:
            c.visual = metrics.get_visual(vis_name)
        except ComponentMissing as e:
            c.missing.append(str(e))
        if protocol.needs_models:
            if not judge_model:
                c.missing.append(f"{protocol.id} needs a judge model for the LLM grounder and the multimodal judges "
                                 "(--judge-model openai:NAME or anthropic:NAME)")
            else:
                from ..models.base import apply_model_args
                from ..models.clients import resolve_chat_client

                o = options or GenerationOptions()
                if "temperature" in (judge_args or {}):
                    c.missing.append("-J temperature: the judges ask at temperature 0, as published")
                judge_options = apply_model_args(
                    GenerationOptions(retries=o.retries, timeout_s=o.timeout_s, concurrency=o.concurrency,
                                      cache_dir=o.cache_dir), dict(judge_args or {}))
                c.judge_attempts = 1 + max(0, int(judge_options.retries))
                try:
                    kw = {"base_url": judge_base_url} if judge_base_url else {}
                    c.chat = resolve_chat_client(judge_model, judge_options, **kw)
                except Exception as e:
                    c.missing.append(f"judge model {judge_model}: {e}")
            if c.chat is not None:
                c.rubric = metrics.MllmRubric(c.chat, prompt_version=metrics.PUBLISHED_PROMPT_VERSION,
                                              max_tokens=metrics.PUBLISHED_RUBRIC_MAX_TOKENS,
                                              attempts=c.judge_attempts)
        else:
            c.rubric = metrics.OfflineRubric(ocr=c.ocr, visual=c.visual)
        return c

    def inference_readers(self) -> list[Any]:
        """The OCR readings besides ``ocr`` that evidence inferred from checkpoints needs (made on first use:
        only tasks of the official layout need them; ``judge/infer.py``)."""
        with _INFER_LOCK:
            if self._extra_readers is None:
                self._extra_readers = extra_readers()
            return self._extra_readers

    def check(self) -> None:
        if self.missing:
            raise ComponentMissing(f"{self.protocol.id} cannot run: " + "; ".join(self.missing))

    def describe(self) -> dict[str, Any]:
        def d(x: Any) -> Any:
            if x is None:
                return None
            if hasattr(x, "describe"):
                return x.describe()
            return getattr(x, "name", x.__class__.__name__)

        out = {"protocol": self.protocol.id, "ocr": d(self.ocr), "visual": d(self.visual),
               "high_level": d(self.rubric), "chat": d(self.chat),
               "limits": {"action_s": self.limits.resolved(self.protocol).action_s, "page_s": self.limits.page_s}}
        if self.chat is not None:
            out["judge_attempts"] = self.judge_attempts
        if self.protocol.needs_models:  # the grounder's and the assertion judge's prompts decide the IFS
            from .llm import prompt_hashes

            out["prompts"] = prompt_hashes()
        return out

    # ------------------------------------------------------------------ metrics
    def read_ahead(self, path: Path) -> None:
        """Fill the OCR cache for one image (at most one OCR per core at a time)."""
        with _OCR_SLOTS:
            with Image.open(path) as im:
                self.ocr.read_text(im.convert("RGB"))

    async def score_pair(self, checkpoint: int, gt: Path, shot: Path | None, prev: Path | None = None) -> VisualScores:
        """Compare a ground-truth checkpoint with a judged screenshot (None: not reached -> 0).

        ``prev``: the recording's checkpoint before this step; the offline comparison weighs where
        the step changed the screen (other backends ignore it)."""
        from ..metrics import acompare

        from ..metrics import published_ocr_similarity

        vs = VisualScores(checkpoint=checkpoint, gt=str(gt), shot=str(shot) if shot else None, reached=shot is not None)
        if shot is None:
            vs.ocr = vs.visual = vs.low_level = vs.high_level = 0.0
            return vs
        with Image.open(gt) as a, Image.open(shot) as b:
            a, b = a.convert("RGB"), b.convert("RGB")
        published = self.protocol.pairing == "published"
        if b.size != a.size and not published:  # the published code compares the two files as they are
            b = b.resize(a.size)
        before = None
        if prev is not None and prev.is_file():
            with Image.open(prev) as p:
                before = p.convert("RGB")
        try:
            r = await acompare(a, b, ocr=self.ocr, visual=self.visual, rubric=self.rubric, prev=before,
                               text_similarity=published_ocr_similarity if published else None)
        except ComponentMissing:
            raise
        except JudgeError as e:  # the rubric judge's replies could not be read: ours, kept, never a 0
            _keep_reply(shot, checkpoint, e.raw)
            raise JudgeError(f"checkpoint {checkpoint}: {e}", e.raw) from None
        except Exception as e:  # a metric failing is ours, never the page's
            raise InfraError(f"visual metrics failed on checkpoint {checkpoint}: {e}") from None
        vs.ocr = 100.0 * float(r["ocr"])
        vs.visual = 100.0 * float(r["visual"])
        vs.low_level = 100.0 * float(r["low_level"])
        vs.high_level = float(r["high_level"])
        vs.components = {k: round(float(v), 3) for k, v in (r.get("high_level_components") or {}).items()}
        if r.get("high_level_raw") is not None and shot is not None:
            _keep_reply(shot, checkpoint, str(r["high_level_raw"]), r.get("high_level_sent"))
        return vs


def _keep_reply(shot: Path, checkpoint: int, text: str, sent: dict | None = None) -> None:
    """The rubric judge's reply for a checkpoint, beside the judged screenshots (``llm/rubric_<j>.txt``), and what
    was changed in sending its request when anything was (``llm/rubric_<j>.sent.json``: images downscaled to the
    provider's limits, the model's kind learned from a refusal)."""
    import json

    (shot.parent / "llm").mkdir(exist_ok=True)
    (shot.parent / "llm" / f"rubric_{checkpoint}.txt").write_text(text)
    if sent:
        (shot.parent / "llm" / f"rubric_{checkpoint}.sent.json").write_text(json.dumps(sent))


async def judge_unit(browser: Any, task: Task, bundle: PageBundle, shots_dir: Path, protocol: Protocol,
                     components: JudgeComponents) -> TaskResult:
    """Replay ``task`` on the page and score it (raises InfraError when our side failed)."""
    llm_grounder = assertion_judge = None
    if protocol.needs_models and components.chat is not None:
        from .llm import make_assertion_judge, make_llm_grounder

        llm_grounder = make_llm_grounder(components.chat, shots_dir, components.judge_attempts)
        assertion_judge = make_assertion_judge(components.chat, shots_dir, components.judge_attempts)
    # OCR is the slow part of the metrics: read every screenshot in the background while the
    # browser goes on (the OCR cache then answers the comparisons below at once)
    warm: list[asyncio.Future] = []

    def prewarm(_: int, path: Path) -> None:
        warm.append(asyncio.ensure_future(asyncio.to_thread(components.read_ahead, path)))

    flagged = [i for i, a in enumerate(task.action_sequence, 1) if a.visual_evaluation_flag]
    for cp in (range(len(flagged) + 1) if protocol.pairing == "published" else [0] + flagged):
        gt = protocol.checkpoint_path(task, cp)
        if gt.is_file():
            prewarm(cp, gt)
    inferred: dict[int, Evidence] = {}
    if protocol.assertions == "evidence" and any(a.evidence is None for a in task.action_sequence):
        inferred, refusal = await timed("judge.infer_evidence", asyncio.to_thread(
            infer_evidence, task, components.ocr, components.inference_readers()))
        if refusal:
            await asyncio.gather(*warm, return_exceptions=True)
            return TaskResult(model="", task_id=task.id, status="task_error", protocol=protocol.id,
                              steps_total=len(task.action_sequence), tags=task.tags, error=refusal)
    rep = await timed("judge.replay", replay(browser, task, bundle, shots_dir, protocol, limits=components.limits,
                                             llm_grounder=llm_grounder, assertion_judge=assertion_judge,
                                             on_shot=prewarm, inferred=inferred))
    await timed("judge.ocr_wait", asyncio.gather(*warm, return_exceptions=True))
    steps = rep.steps
    caps = [p.cap for p in rep.probes if p.cap is not None]
    cap = min(caps) if caps else None
    visuals: list[VisualScores] = []
    for cp, idx, step in protocol.visual_entries(task, steps, cap):
        gt = protocol.checkpoint_path(task, cp)
        if not gt.is_file():
            if protocol.pairing == "published":  # the published code stops the run on a missing checkpoint
                raise TaskError(f"{gt}: missing; the published pairing needs checkpoints/step_{cp}.png")
            continue  # the task has no ground truth for this checkpoint
        shot = rep.shots.get(idx) if idx is not None else None
        vs = await timed("judge.metrics", components.score_pair(cp, gt, shot, task.checkpoint(cp - 1) if cp > 0 else None))
        vs.gt = f"checkpoints/{gt.name}" if gt.parent.name == "checkpoints" else str(gt)
        vs.shot = shot.name if shot else None
        visuals.append(vs)
        if step is not None:
            steps[step - 1].visual = vs
    scores = protocol.task_scores(steps, len(task.action_sequence), visuals, cap)
    _, lead_main = protocol.ifs(steps, len(task.action_sequence))
    initial = next((v for v in visuals if v.checkpoint == 0), None)
    return TaskResult(
        model="", task_id=task.id, status="page_error" if rep.page_error else "ok", protocol=protocol.id,
        ifs=round(scores["ifs"], 4), vfs=round(scores["vfs"], 4), final=round(scores["final"], 4),
        low_level_visual=round(scores["low_level_visual"], 4), high_level_visual=round(scores["high_level_visual"], 4),
        steps_total=len(task.action_sequence), steps_passed=scores["steps_passed"], initial=initial,
        steps=steps, tags=task.tags, error=rep.page_error, blocked_requests=sum(rep.blocked.values()),
        blocked_hosts=sorted(rep.blocked)[:20],
        steps_passed_main=lead_main if rep.probes else None, probes=rep.probes, page_events=dict(rep.events),
    )


__all__ = ["JudgeComponents", "judge_unit"]
