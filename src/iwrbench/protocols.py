"""The two protocols, versioned, in one place: how step results and metrics become scores.

``iwr-bench@1`` is the published protocol, kept faithful to the published code step by step so
numbers compare with the published leaderboard, quirks included (docs/judge.md maps each step); what
it still does differently is listed in ``Protocol.differences``. ``offline@2`` is deterministic, needs
no model, and makes the project's own choices (listed in its ``differences``). Both lists are printed
in the report header.

Scores (both protocols):
- IFS per task = leading actions that executed and passed their assertion / actions.
- LVS = mean(OCR similarity, visual similarity); HVS = rubric score (0-100);
  VFS = 0.5 LVS + 0.5 HVS; Final = 0.7 IFS + 0.3 VFS.
- A model's row: macro-average IFS, LVS and HVS over tasks, then VFS and Final from those
  means. From the published two-decimal IFS, LVS and HVS this gives each of the 28 published rows' VFS and
  Final to within 0.01 (the rounding of the published inputs; 18 rows exactly: tests/test_protocols.py).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path
from statistics import mean
from typing import Iterable, NamedTuple

from .errors import IwrError
from .records import StepResult, Task, TaskResult, VisualScores

W_IFS, W_VFS = 0.7, 0.3
W_LVS, W_HVS = 0.5, 0.5

#: the deterministic grounding rungs, in order (``judge/ground.py`` says what each does); the
#: published protocol ends with the LLM grounder
GROUNDING = ("role_name", "role_name_norm", "text", "attribute", "text_norm", "attribute_norm", "position",
             "appearance", "relation", "grid", "fuzzy")


class VisualPair(NamedTuple):
    """One scored pair: ground-truth checkpoint, judged screenshot (None: not reached) and the action
    (1-based) it belongs to (None: the initial state)."""

    checkpoint: int
    shot: int | None
    step: int | None


class Difference(str):
    """One way a protocol acts otherwise than the published code: its text (what the report prints) with a short
    ``key`` that docs/judge.md's step-by-step table names (a str, so it reads, joins and prints as its text)."""

    key: str

    def __new__(cls, key: str, text: str) -> "Difference":
        d = super().__new__(cls, text)
        d.key = key
        return d

    def __getnewargs__(self) -> tuple[str, str]:  # type: ignore[override]
        return (self.key, str(self))


@dataclass(frozen=True)
class Protocol:
    name: str
    version: int
    description: str
    #: offline: settle by condition; published: fixed waits (1 s after load, 0.5 s per action)
    settle_by_condition: bool
    #: Scroll honours its direction (published: always down half a page)
    scroll_direction: bool
    #: visual pairs: "after" = checkpoint i with the page after action i; "published" = as the published
    #: code: the list [initial screenshot] + [screenshot i (0-based) of every reached flagged action i],
    #: cut to [:steps passed + 1], its j-th entry paired with checkpoints/step_<j>.png
    pairing: str
    #: unreached visual checkpoints score 0 instead of being left out
    unreached_counts: bool
    #: how assertions are judged: "evidence" (what a person sees: texts, visual change, author checks),
    #: "checks" (retired offline@1: typed checks of the source's DOM) or "mllm" (multimodal judge)
    assertions: str
    #: the grounding ladder, its rungs by name in order (``judge/ground.py`` ``RUNGS``)
    grounding: tuple[str, ...]
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
    #: "deterministic": reduced motion, seeded Math.random, the recipe's frozen clock, screenshots with CSS
    #: animations stopped; "published": none of these (a plain browser)
    page_setup: str = "deterministic"
    #: how actions execute (iwrbench.browser.player): "project" (the rules JUDGE) or "published" (PUBLISHED)
    actions: str = "project"
    #: time limit of one action, grounding included (published: 30 s)
    action_s: float = 20.0
    #: a generation_error scores 0 (True) or is left out like a task without a page (False, published)
    scores_generation_errors: bool = True

    @property
    def id(self) -> str:
        return f"{self.name}@{self.version}"

    @property
    def llm_grounding(self) -> bool:
        """Grounding may end with the LLM grounder."""
        return "llm" in self.grounding

    # ------------------------------------------------------------------ per task

    def visual_pairs(self, task: Task, steps: list[StepResult], cap: int | None = None) -> list[tuple[int, int | None]]:
        """(checkpoint index, judged screenshot index or None when unreached); see ``visual_entries``."""
        return [(p.checkpoint, p.shot) for p in self.visual_entries(task, steps, cap)]

    def visual_entries(self, task: Task, steps: list[StepResult], cap: int | None = None) -> list[VisualPair]:
        """The pairs a task's visual score is the mean of.

        ``cap``: a failed probe showed the page does not respond to input past this step; what it shows
        after action ``cap`` is not credited: those checkpoints count as unreached (a page capped at 0 steps is
        scored on its first screen alone)."""
        if self.pairing == "published":
            return published_pairs(task, steps)
        pairs = [VisualPair(0, 0, None)]
        for a_i, action in enumerate(task.action_sequence, start=1):
            if not action.visual_evaluation_flag:
                continue
            reached = a_i <= len(steps) and steps[a_i - 1].executed and (cap is None or a_i <= cap)
            if reached:
                pairs.append(VisualPair(a_i, a_i, a_i))
            elif self.unreached_counts:
                pairs.append(VisualPair(a_i, None, a_i))
        return pairs

    def checkpoint_path(self, task: Task, checkpoint: int) -> Path:
        """The ground truth of a pair: ``checkpoints/step_<j>.png`` as the published code reads it (whatever
        the actions' ``checkpoint_screenshot`` say), else the task's checkpoint after action ``checkpoint``."""
        if self.pairing == "published":
            return task.dir / "checkpoints" / f"step_{checkpoint}.png"
        return task.checkpoint(checkpoint)

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


def published_pairs(task: Task, steps: list[StepResult]) -> list[VisualPair]:
    """The published code's visual list, in terms of this project's replay (docs/judge.md).

    Published: screenshot k is taken after k actions executed (0 = the loaded page); the list is
    [screenshot 0] + [screenshot i for each 0-based action i with its visual flag set, while i is a
    screenshot taken and no earlier assertion said No], cut to [:success_step + 1], where success_step is
    the index of the first action whose assertion said No, else the number of actions executed; entry j is
    paired with checkpoints/step_<j>.png. Here the replay stops at the first step that does not pass, so
    ``lead`` (leading passed steps) is success_step: a step that said No keeps its own screenshot (and
    every later one) out of the list, any other stop (not executed) leaves screenshots 0..lead taken.
    """
    lead = 0
    for st in steps:
        if not st.passed:
            break
        lead += 1
    stop = steps[lead] if lead < len(steps) else None
    said_no = stop is not None and stop.executed and stop.assertion is not None and stop.assertion.passed is False
    last = lead - 1 if said_no else lead  # the last screenshot index the list may take
    entries = [VisualPair(0, 0, None)]
    for i, action in enumerate(task.action_sequence):
        if i > last:
            break
        if action.visual_evaluation_flag:
            entries.append(VisualPair(len(entries), i, i + 1))
    return entries[: lead + 1]


OFFLINE = Protocol(
    name="offline", version=2,
    description=("A deterministic judge that calls no model: steps judged by what a person sees (visible text "
                 "that changed, the assertion's quoted phrases, visual change), probes with other input; OCR + "
                 "offline visual similarity, offline rubric."),
    settle_by_condition=True, scroll_direction=True, pairing="after", unreached_counts=True,
    assertions="evidence", grounding=GROUNDING, ocr="tesseract", visual="default", high_level="offline-rubric",
    needs_models=False, probes=True, virtual_clock=True,
    differences=(
        "Assertions are judged by what a person sees, recorded on the source: phrases the assertion quotes and "
        "texts that appeared or disappeared (visible in the viewport; absent before and present after), and a "
        "visual change near where the recording changed; never by the source's markup (ids, classes, ARIA, "
        "element counts, URLs), except checks a task author wrote. No multimodal judge.",
        "A typed text must be visible afterwards; a step without an assertion must still change one of the "
        "texts it changed in the recording (any one), or, where it changed none, change the screen where the "
        "recording changed a lot (key presses and scrolls); a scroll must not keep pinned in place (a sticky bar) "
        "a text the recording's scroll took off the screen.",
        "Probes: the task is replayed again with other input (e.g. other text typed); a page that shows the "
        "recorded states whatever the input fails them, and its IFS is capped where the probe failed.",
        "Tasks of the official layout (no recorded evidence) are judged by their checkpoints' visual change and "
        "the assertion's quoted text where two OCR readings of the checkpoints are sure of it (counted in text and "
        "fields); an asserted step with neither is refused (task_error).",
        "Grounding stops before the LLM rung (role+name, text, attributes, position, appearance, relation to a named "
        "text, cell of a board, fuzzy); no LLM grounder.",
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
        "The page runs with reduced motion, a seeded Math.random and the recipe's frozen clock; screenshots are "
        "taken with CSS animations stopped (the published judge: a plain browser).",
        "Scroll succeeds when the window or the container under the pointer moved (published: the window only).",
        "Type succeeds only when the field then shows the typed text (published: when the keys were sent).",
        "Hover and Select are executed (the published judge knows neither: such a step fails).",
        "A click Playwright cannot perform is dispatched as a click event (published: a script click, then a "
        "mouse click at the element's centre).",
        "20 s per action (published: 30 s).",
        "A generation_error (no usable page) scores 0 (published: the task is left out).",
        "Chromium hides scrollbars (the page gets the window's whole width), does not hint fonts and does not "
        "scroll smoothly, so screenshots repeat (published: scrollbars drawn, Chromium's font hinting and smooth "
        "scrolling).",
    ),
)

#: the first offline protocol (iwrbench 0.1): its typed checks read the source's DOM; results still report
OFFLINE_V1 = Protocol(
    name="offline", version=1,
    description="Retired (iwrbench 0.1): typed checks of the source's DOM, OCR + offline visual similarity.",
    settle_by_condition=True, scroll_direction=True, pairing="after", unreached_counts=True,
    assertions="checks", grounding=GROUNDING, ocr="tesseract", visual="default", high_level="offline-rubric",
    needs_models=False,
    differences=("Assertions were typed checks of the source's DOM (role counts, ARIA states, URLs, body text); "
                 "pages with other markup failed them. Retired for offline@2.",),
    retired="offline@1 judged the source's markup and was retired in iwrbench 0.2; use offline@2 (the default)",
)

PUBLISHED = Protocol(
    name="iwr-bench", version=1,
    description="The published IWR-Bench protocol: LLM grounder, multimodal assertion and rubric judges, EasyOCR, DINOv2.",
    settle_by_condition=False, scroll_direction=False, pairing="published", unreached_counts=False,
    assertions="mllm", grounding=GROUNDING + ("llm",), ocr="easyocr", visual="dinov2", high_level="mllm",
    needs_models=True, page_setup="published", actions="published", action_s=30.0, scores_generation_errors=False,
    # Every way iwr-bench@1 still acts otherwise than the published code (docs/judge.md maps each step of that code
    # to these keys; tests/test_protocols.py checks the table and this list name the same ones). Each says what
    # is done here, what the published code did, and why it is not reproduced.
    differences=(
        Difference("unreadable-reply",
                   "A judge reply that cannot be read (empty, no Yes/No by the published parsing, a rubric reply "
                   "without 'Score: n/100') is asked again, as many times as generation retries a call; if it still "
                   "cannot be read the unit is a judge_error (not scored) and the reply is kept. The published code "
                   "counted an unreadable assertion as passed and a rubric reply without a score as 0: a verdict "
                   "without evidence is never given here."),
        Difference("judge-api-error",
                   "A judge API error (after the provider's retries) is a judge_error, never the page's failure "
                   "(published: an assertion counted as passed; a failed rubric call stopped the run)."),
        Difference("cut-reply",
                   "An empty judge reply cut by its output cap (a reasoning model that spent the cap thinking) is "
                   "asked again with twice the cap (published: read as unreadable, so passed)."),
        Difference("reasoning-models",
                   "Reasoning models are sent what they accept: OpenAI's max_completion_tokens and no temperature, "
                   "Anthropic's thinking budget added to max_tokens and no temperature; the kind is set explicitly "
                   "(-J reasoning=true), read from the name, or learned from the server's first refusal (published: "
                   "max_tokens and temperature 0, which these models refuse: every assertion then passed and the rubric "
                   "stopped the run)."),
        Difference("provider-api",
                   "The judge may be any OpenAI-compatible server or Anthropic's Messages API; that API needs an "
                   "output cap, so there the grounder sends the model's largest output (published: OpenAI's Chat "
                   "Completions client only)."),
        Difference("one-judge-model",
                   "One --judge-model serves the grounder and both judges (published: OPENAI_MODEL_NAME, default "
                   "gpt-4o, grounds; MODEL_FOR_EVAL judges)."),
        Difference("judge-prompts",
                   "The before/after question and the rubric are put in our own words, with the published inputs in "
                   "the published order, the same reply formats and limits (a JSON {think, result} in at most 100 "
                   "words; the five criteria with their points and a 'Score: n/100' line): the published sentences "
                   "are not copied."),
        Difference("timeouts-retries",
                   "Judge calls time out after --timeout-s (default 600 s; published: 120 s an assertion, 180 s a "
                   "grounder call, 300 s the rubric) and are retried on 429 (honouring Retry-After), 5xx and "
                   "timeouts (published: not retried)."),
        Difference("response-cache",
                   "Judge replies are kept in a response cache: the same request in a later run (a resume, a "
                   "re-judging) is answered from it without a call (published: every run asks anew)."),
        Difference("judge-images",
                   "A judge image over the provider's documented limits (Anthropic: 5 MB, 8000 px a side) is "
                   "downscaled the published way (the long side to the limit, area averaging) before the call and "
                   "the downscale is logged (published: sent as it is, which the provider refuses: an assertion "
                   "then passed, a rubric call stopped the run)."),
        Difference("grounding",
                   "Grounding tries the deterministic rungs (role+name, text, attributes, position, appearance, "
                   "relation to a named text, cell of a board, fuzzy) before the LLM grounder; the grounder is shown our numbered candidates, the ARIA snapshot "
                   "and a screenshot in one call at temperature 0 (published: always the LLM, shown browser-use's "
                   "element list and the accessibility tree at temperature 0, then, when that names no element, a "
                   "second call with a screenshot at the provider's default temperature). browser-use's element "
                   "list and its numbering are not rebuilt: its code is not ours to copy."),
        Difference("grounding-boxes",
                   "Nothing is drawn on the page while it is read for grounding (published: browser-use draws a "
                   "numbered box over every element it lists, in the page's own document, and removes them after "
                   "the action; a page that watches its DOM sees them come and go)."),
        Difference("grounding-time",
                   "Before a Click or Type the page gets the published network-idle wait (at least 0.5 s, at most "
                   "5 s), once, and then our grounding's own time (published: the wait once per grounding call, "
                   "twice when the first call names no element, then the time browser-use takes to read the page "
                   "and the model takes to answer, seconds in all, during which the page's timers run on)."),
        Difference("type-text",
                   "Type types the task's own text (published: the text the grounder LLM reads off the description; "
                   "a task's element_index, an index into browser-use's element list, is not used here, the field "
                   "is grounded by its description); Press without a key presses Enter (published: the LLM names a "
                   "key)."),
        Difference("scroll-container",
                   "Scroll scrolls the element that owns the vertical scroll, as browser-use does without an element "
                   "index (published: it passes index 0, which may pick another container)."),
        Difference("element-handle",
                   "The grounded element is acted on as it was found, and a click's last fallback aims at its centre "
                   "at that moment (published: found again just before the click by a CSS selector browser-use builds "
                   "from its path, classes and attributes, and the fallback aims at the centre it had when the page "
                   "was read for grounding)."),
        Difference("http-origin",
                   "Pages are served over HTTP from their own port on 127.0.0.1 (published: opened as file://, where "
                   "Chromium refuses a page's fetch/XHR of its own files and its module scripts, and lets it show any "
                   "file of the machine as an image). Not reproduced: a judged page reaches its own files only."),
        Difference("network",
                   "Every other origin is unreachable, loopback and private addresses included (published: "
                   "browser-use blocks cross-origin requests too, but lets through localhost, 127.0.0.1 and addresses "
                   "starting 10., 172. or 192.168.). Not reproduced: a judged page reaches nothing but its own "
                   "origin."),
        Difference("page-guard",
                   "Dialogs are dismissed, popups closed, downloads cancelled; a page that leaves its origin stops "
                   "there; past 30 dialogs, 10 windows or 30 navigations the page is closed (page_error) (published: "
                   "dialogs dismissed by Playwright, popups left open, downloads accepted, no limit)."),
        Difference("context",
                   "Locale en-US, time zone UTC, the screen the size of the viewport, no permission granted "
                   "(published: the machine's locale and time zone, the machine's screen or 1280x1100, clipboard and "
                   "notification permissions granted)."),
        Difference("browser-switches",
                   "Chromium runs without GPU and QUIC, under a memory cap (V8 heap 512 MB, a cgroup), with our list "
                   "of features turned off, draws a frame only once it is fully rastered and decodes images before "
                   "the frame that shows them (published: browser-use's own list of switches, features turned off "
                   "and its profile's theme among them, not rebuilt here; nothing holds a frame back, so a "
                   "screenshot on a busy machine may catch one half rastered)."),
        Difference("limits",
                   "The page's own time limit is the sum of its actions' limits; loading may take 30 s (published: "
                   "60 s), a screenshot 15 s (published: 30 s). The LLM grounder's API time is never the page's: a "
                   "grounder that has not answered within the action's 30 s is a judge_error (published: the action "
                   "fails)."),
        Difference("assertions-after-no",
                   "Assertions after the first 'No' are not asked (they cannot change a score; the published code "
                   "asks them)."),
        Difference("no-html-block",
                   "A reply without an html block is a generation_error, left out like the published code's missing "
                   "pages (the published post-processing judges the reply's text as the page)."),
        Difference("missing-checkpoint",
                   "A missing checkpoint makes the task a task_error (not scored; the published code stops the run)."),
        Difference("ocr-failure",
                   "An OCR failure is a judge_error (published: read as empty text, so two failures score 1.0)."),
        Difference("metric-precision",
                   "EasyOCR and DINOv2 run on the CPU in float32, DINOv2 one image at a time (published: on a GPU when "
                   "there is one, DINOv2 in float16, a task's checkpoints in one batch and its screenshots in "
                   "another): the same weights, scores close but not bit-identical. The weights are never "
                   "downloaded here."),
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


def unscored(r: TaskResult) -> bool:
    """Left out of the means (but listed under errors): judge errors, and generation errors under a
    protocol that leaves tasks without a page out (the published one)."""
    if r.status == "judge_error":
        return True
    p = PROTOCOLS.get(r.protocol)
    return r.status == "generation_error" and p is not None and not p.scores_generation_errors


def leaderboard_row(model: str, results: Iterable[TaskResult]) -> dict:
    """One model's row: macro means over scored tasks (see ``unscored``); errors are listed."""
    results = list(results)
    scored = [r for r in results if not unscored(r)]
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
