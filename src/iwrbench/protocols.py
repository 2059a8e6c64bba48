"""The two protocols, versioned, in one place: how step results and metrics become scores.

``iwr-bench@1`` is the published protocol, kept faithful so numbers compare with the published
leaderboard (including its known quirks, listed in ``Protocol.differences`` and the README's protocol table).
``offline@1`` is deterministic, needs no model, and fixes those quirks; every difference is
listed in ``Protocol.differences`` and printed in the report header.

Scores (both protocols):
- IFS per task = leading actions that executed and passed their assertion / actions.
- LVS = mean(OCR similarity, visual similarity); HVS = rubric score (0-100);
  VFS = 0.5 LVS + 0.5 HVS; Final = 0.7 IFS + 0.3 VFS.
- A model's row: macro-average IFS, LVS and HVS over tasks, then VFS and Final from those
  means (this reproduces every published leaderboard row).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from statistics import mean
from typing import Iterable

from .errors import IwrError
from .records import StepResult, Task, TaskResult, VisualScores

W_IFS, W_VFS = 0.7, 0.3
W_LVS, W_HVS = 0.5, 0.5


@dataclass(frozen=True)
class Protocol:
    name: str
    version: int
    description: str
    #: offline: settle by condition; published: fixed waits (1 s after load, 0.5 s per action)
    settle_by_condition: bool
    #: Scroll honours its direction (published: always down half a page)
    scroll_direction: bool
    #: visual pairs: "after" = checkpoint i with the page after action i;
    #: "published" = checkpoint i with the screenshot taken before action i (as the published code)
    pairing: str
    #: unreached visual checkpoints score 0 instead of being left out
    unreached_counts: bool
    #: how assertions are judged: "evidence" (what a person sees: texts, visual change, author checks),
    #: "checks" (retired offline@1: typed checks of the source's DOM) or "mllm" (multimodal judge)
    assertions: str
    #: grounding may end with the LLM grounder
    llm_grounding: bool
    ocr: str
    visual: str
    high_level: str
    needs_models: bool
    differences: tuple[str, ...] = field(default_factory=tuple)
    #: replay the task's probes (other input) after the main trajectory; a failed probe caps IFS
    probes: bool = False
    #: set when the protocol can no longer be run (its results still load and report)
    retired: str | None = None
    #: the judged page's clock is virtual: timers and animation frames run only in windows the judge
    #: advances after loading and after each action, so animated pages are judged the same on every run
    virtual_clock: bool = False

    @property
    def id(self) -> str:
        return f"{self.name}@{self.version}"

    # ------------------------------------------------------------------ per task

    def visual_pairs(self, task: Task, steps: list[StepResult], cap: int | None = None) -> list[tuple[int, int | None]]:
        """(checkpoint index, judged screenshot index or None when unreached).

        ``cap``: a failed probe showed the page does not respond to input past this step; what it shows
        later is not credited (counted as unreached)."""
        pairs: list[tuple[int, int | None]] = [(0, 0)]
        for a_i, action in enumerate(task.action_sequence, start=1):
            if not action.visual_evaluation_flag:
                continue
            reached = a_i <= len(steps) and steps[a_i - 1].executed and (cap is None or a_i <= cap + 1)
            if self.pairing == "published":
                if reached:
                    pairs.append((a_i, a_i - 1))
            elif reached:
                pairs.append((a_i, a_i))
            elif self.unreached_counts:
                pairs.append((a_i, None))
        return pairs

    @staticmethod
    def ifs(steps: list[StepResult], n_actions: int, cap: int | None = None) -> tuple[float, int]:
        """Leading actions passed (at most ``cap``, what the probes allow) / actions."""
        lead = 0
        for s in steps:
            if not s.passed:
                break
            lead += 1
        if cap is not None:
            lead = min(lead, cap)
        return (100.0 * lead / n_actions if n_actions else 0.0), lead

    def task_scores(self, steps: list[StepResult], n_actions: int, visuals: list[VisualScores],
                    cap: int | None = None) -> dict:
        ifs, lead = self.ifs(steps, n_actions, cap)
        lvs_vals = [v.low_level if v.reached and v.low_level is not None else 0.0 for v in visuals]
        hvs_vals = [v.high_level if v.reached and v.high_level is not None else 0.0 for v in visuals]
        lvs = mean(lvs_vals) if lvs_vals else 0.0
        hvs = mean(hvs_vals) if hvs_vals else 0.0
        vfs = W_LVS * lvs + W_HVS * hvs
        return {"ifs": ifs, "low_level_visual": lvs, "high_level_visual": hvs, "vfs": vfs,
                "final": W_IFS * ifs + W_VFS * vfs, "steps_passed": lead}


OFFLINE = Protocol(
    name="offline", version=2,
    description=("A deterministic judge that calls no model: steps judged by what a person sees (visible text "
                 "that changed, the assertion's quoted phrases, visual change), probes with other input; OCR + "
                 "offline visual similarity, offline rubric."),
    settle_by_condition=True, scroll_direction=True, pairing="after", unreached_counts=True,
    assertions="evidence", llm_grounding=False, ocr="tesseract", visual="default", high_level="offline-rubric",
    needs_models=False, probes=True, virtual_clock=True,
    differences=(
        "Assertions are judged by what a person sees, recorded on the source: phrases the assertion quotes and "
        "texts that appeared or disappeared (visible in the viewport; absent before and present after), and a "
        "visual change near where the recording changed; never by the source's markup (ids, classes, ARIA, "
        "element counts, URLs), except checks a task author wrote. No multimodal judge.",
        "A typed text must be visible afterwards; a step without an assertion must still change one of the "
        "texts it changed in the recording (any one), or, where it changed none, change the screen where the "
        "recording changed a lot (key presses and scrolls).",
        "Probes: the task is replayed again with other input (e.g. other text typed); a page that shows the "
        "recorded states whatever the input fails them, and its IFS is capped where the probe failed.",
        "Tasks of the official layout (no recorded evidence) are judged by their checkpoints' visual change and "
        "the assertion's quoted text read by OCR; an asserted step with neither is refused (task_error).",
        "Grounding stops before the LLM rung (role+name, text, attributes, position, appearance, fuzzy); no LLM grounder.",
        "Scroll honours its direction (the published judge always scrolls down).",
        "Visual pairs compare the checkpoint after action i with the page after action i (the published code pairs it with the page before).",
        "Unreached visual checkpoints score 0 (the published judge leaves them out, so a static picture scores ~30).",
        "Pages settle by condition (network idle, fonts, quiet DOM) instead of fixed 1 s / 0.5 s waits; the page's "
        "clock is virtual and runs in windows of 250 ms until one changes nothing (at most 3 s after loading, "
        "1.5 s after an action), so script animations are shown at the same moment on every run.",
        "OCR by Tesseract instead of EasyOCR; visual similarity by an offline comparison instead of DINOv2 "
        "(blocks@1: text blocks matched on text, position, size and colour, non-text elements, the global picture; "
        "where the recording changed at the step weighs half; runs before it used hog-colour).",
        "High-level visual by a deterministic rubric (same five weights; offline-rubric v2: each criterion one part "
        "of that comparison) instead of a multimodal judge.",
    ),
)

#: the first offline protocol (iwrbench 0.1): its typed checks read the source's DOM; results still report
OFFLINE_V1 = Protocol(
    name="offline", version=1,
    description="Retired (iwrbench 0.1): typed checks of the source's DOM, OCR + offline visual similarity.",
    settle_by_condition=True, scroll_direction=True, pairing="after", unreached_counts=True,
    assertions="checks", llm_grounding=False, ocr="tesseract", visual="default", high_level="offline-rubric",
    needs_models=False,
    differences=("Assertions were typed checks of the source's DOM (role counts, ARIA states, URLs, body text); "
                 "pages with other markup failed them. Retired for offline@2.",),
    retired="offline@1 judged the source's markup and was retired in iwrbench 0.2; use offline@2 (the default)",
)

PUBLISHED = Protocol(
    name="iwr-bench", version=1,
    description="The published IWR-Bench protocol: LLM grounder, multimodal assertion and rubric judges, EasyOCR, DINOv2.",
    settle_by_condition=False, scroll_direction=False, pairing="published", unreached_counts=False,
    assertions="mllm", llm_grounding=True, ocr="easyocr", visual="dinov2", high_level="mllm",
    needs_models=True,
    differences=(
        "Grounding tries the deterministic rungs (role+name, text, attributes, position, appearance, fuzzy) before the published LLM grounder.",
        "Pages are served over HTTP on 127.0.0.1 and every other origin is unreachable.",
        "A judge reply that cannot be read, or a judge API error, is a judge_error (ours: retried, not scored); "
        "the published code counted it as a pass.",
    ),
)

PROTOCOLS = {p.id: p for p in (OFFLINE, OFFLINE_V1, PUBLISHED)}
ALIASES = {"offline": OFFLINE.id, "iwr-bench": PUBLISHED.id, "published": PUBLISHED.id}


def get_protocol(name: str, *, to_run: bool = False) -> Protocol:
    """The protocol named ``name`` (an alias or ``name@version``); ``to_run`` refuses retired ones."""
    pid = ALIASES.get(name, name)
    if pid not in PROTOCOLS:
        known = sorted(p for p, v in PROTOCOLS.items() if not v.retired)
        raise IwrError(f"unknown protocol {name!r}; known: {', '.join(known)}")
    p = PROTOCOLS[pid]
    if to_run and p.retired:
        raise IwrError(p.retired)
    return p


# ------------------------------------------------------------------ aggregation


def _r(x: float | None) -> float | None:
    return None if x is None else round(x + 0.0, 2)


def leaderboard_row(model: str, results: Iterable[TaskResult]) -> dict:
    """One model's row: macro means over scored tasks; judge errors are listed, not scored."""
    results = list(results)
    scored = [r for r in results if r.status != "judge_error"]
    errors: dict[str, int] = {}
    for r in results:
        if r.status != "ok":
            errors[r.status] = errors.get(r.status, 0) + 1
    if not scored:
        return {"model": model, "tasks": 0, "ifs": None, "vfs": None, "final": None,
                "low_level_visual": None, "high_level_visual": None, "errors": errors}
    ifs = mean(r.ifs or 0.0 for r in scored)
    lvs = mean(r.low_level_visual or 0.0 for r in scored)
    hvs = mean(r.high_level_visual or 0.0 for r in scored)
    return combine(model, len(scored), ifs, lvs, hvs, errors)


def combine(model: str, tasks: int, ifs: float, lvs: float, hvs: float, errors: dict | None = None) -> dict:
    """VFS and Final from mean IFS, LVS and HVS (the published arithmetic)."""
    vfs = W_LVS * lvs + W_HVS * hvs
    final = W_IFS * ifs + W_VFS * vfs
    return {"model": model, "tasks": tasks, "ifs": _r(ifs), "vfs": _r(vfs), "final": _r(final),
            "low_level_visual": _r(lvs), "high_level_visual": _r(hvs), "errors": errors or {}}
