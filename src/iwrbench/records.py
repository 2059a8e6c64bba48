"""The records every stage reads and writes (pydantic, versioned).

One direction: a stage reads what the one before wrote through these models, never through
another stage's internals. ``SCHEMA_VERSION`` is bumped when a field changes meaning;
``iwrbench.records.json_schemas()`` exports the JSON Schema of each record.
"""

from __future__ import annotations

import enum
from pathlib import Path
from typing import Annotated, Any, Literal, Union

from pydantic import BaseModel, ConfigDict, Field, PrivateAttr, field_validator, model_validator

SCHEMA_VERSION = 2
#: version 2 (iwrbench 0.2): recorded checks split into author ``checks``, ``evidence`` and ``info``;
#: task-level ``probes``. Version 1 task folders load: their derived checks become ``info``.

ActionType = Literal["Click", "Type", "Press", "Scroll", "Hover", "Select"]
ACTION_TYPES: tuple[str, ...] = ("Click", "Type", "Press", "Scroll", "Hover", "Select")
#: the actions performed on one element (grounded by the judge); Press and Scroll act on the page
TARGETED_ACTIONS: frozenset[str] = frozenset({"Click", "Type", "Hover", "Select"})
#: task_error: the task itself is broken (corrupt checkpoint, a file outside its folder ...): not
#: the model's failure nor ours; not scored, listed under errors, not retried
Status = Literal["ok", "generation_error", "page_error", "judge_error", "task_error"]


class _Open(BaseModel):
    """A record that keeps unknown keys (the official data carries extra fields)."""

    model_config = ConfigDict(extra="allow")


class _Closed(BaseModel):
    model_config = ConfigDict(extra="forbid")


# --------------------------------------------------------------------------- targets


class BBox(_Closed):
    x: float
    y: float
    width: float
    height: float

    @property
    def center(self) -> tuple[float, float]:
        return (self.x + self.width / 2, self.y + self.height / 2)


class Target(_Open):
    """What the recorder saw of the element an action acted on.

    The judge never uses ``selector`` (it names the source site's DOM); it grounds by role and
    accessible name, visible text, attributes and the description.
    """

    role: str | None = None
    name: str | None = None
    text: str | None = None
    tag: str | None = None
    label: str | None = None
    attributes: dict[str, str] = Field(default_factory=dict)
    bbox: BBox | None = None
    editable: bool = False
    selector: str | None = None


# --------------------------------------------------------------------------- checks
# Typed, deterministic checks, routed to small functions in iwrbench.checks.author.


class TextVisible(_Closed):
    """A text is painted on screen after the step."""

    kind: Literal["text_visible"] = "text_visible"
    text: str = Field(description="the words, as a person reads them")


class TextAbsent(_Closed):
    """A text is not painted on screen after the step."""

    kind: Literal["text_absent"] = "text_absent"
    text: str = Field(description="the words, as a person reads them")


class ValueEquals(_Closed):
    """Some form field shows this value (``field`` says which one on the source, for people)."""

    kind: Literal["value_equals"] = "value_equals"
    value: str = Field(description="the value a field shows")
    field: str | None = Field(None, description="which field on the source, for people (not judged)")


class CountEquals(_Closed):
    """The number of visible elements with this ARIA role."""

    kind: Literal["count"] = "count"
    role: str = Field(description="an ARIA role (judged only because the recipe's author chose it)")
    value: int = Field(description="how many visible elements have it")


class UrlContains(_Closed):
    """The page's URL holds this text (judged only because the recipe's author chose it)."""

    kind: Literal["url"] = "url"
    contains: str = Field(description="a part of the URL")


class StateEquals(_Closed):
    """An element's state: the acted-on element when ``name`` is None, else role + name."""

    kind: Literal["state"] = "state"
    state: Literal["checked", "selected", "expanded", "pressed", "disabled"] = Field(description="which state")
    value: bool = Field(description="whether the element is in it")
    role: str | None = Field(None, description="with name: the element's ARIA role (else the acted-on element)")
    name: str | None = Field(None, description="with role: the element's accessible name")


Check = Annotated[
    Union[TextVisible, TextAbsent, ValueEquals, CountEquals, UrlContains, StateEquals],
    Field(discriminator="kind"),
]


# --------------------------------------------------------------------------- evidence
# What the judge requires of a step, recorded on the source but stated in terms of what a person sees
# (see iwrbench.checks.evidence). Derived DOM facts (role counts, ARIA states, URLs) are kept as
# ``Action.info`` and only reported; checks a recipe author wrote stay in ``Action.checks`` and decide.


class TextEvidence(_Closed):
    """A phrase whose visible count changes with the action (``appears``/``disappears``), stays on
    screen (``visible``) or stays off it (``absent``: a text typed earlier that the recording no longer
    shows); ``before``/``after`` are the counts seen on the source."""

    kind: Literal["appears", "disappears", "visible", "absent"]
    text: str
    source: Literal["assertion", "derived", "echo", "ocr"] = "derived"
    #: where it is counted: rendered text, what fields show (values of editable fields, placeholders,
    #: the option a select shows), both, or text drawn struck through
    channel: Literal["text", "field", "any", "struck"] = "text"
    before: int | None = None
    after: int | None = None
    #: True: it held on the recording made with the task's seed, not on the one made with another seed: what
    #: chance decided there (a tile that spawned, a card dealt). A rebuilt page has its own chance, so such a text
    #: is asked of a page only once it has shown the recording's chance outcomes so far (docs/judge.md, "Chance")
    chance: bool | None = None


class ChangeEvidence(_Closed):
    """Where the recording changed with the action: a grid of ``cell`` px cells, packed row-major bits."""

    cell: int = 16
    rows: int
    cols: int
    bits: str  # base64 of numpy.packbits of the row-major boolean grid
    share: float  # changed cells / all cells


class Evidence(_Closed):
    texts: list[TextEvidence] = Field(default_factory=list)
    change: ChangeEvidence | None = None
    #: the visual change was not the same on a second recording (with another seed): not required
    change_unstable: bool = False
    #: the step changed nothing on screen on every recording (a key the page does not use, a click on
    #: empty space), and the page must not change either: a page that walks through recorded states on
    #: any input fails it
    still: bool = False
    notes: list[str] = Field(default_factory=list)


# --------------------------------------------------------------------------- tasks


class ActionParameters(_Open):
    description: str = ""
    text: str | None = None
    key: str | None = None
    direction: Literal["up", "down"] | None = None
    scroll_page: float | None = None
    value: str | None = None  # Select: the option's label or value
    element_index: int | None = None
    #: Type: False when the recording typed after what the field held (a recipe's ``clear: false``); the
    #: judge then does too. None (left out of task.json): the field is emptied first, as published
    clear: bool | None = None

    @field_validator("direction", mode="before")
    @classmethod
    def _lower(cls, v: Any) -> Any:
        return v.lower() if isinstance(v, str) else v


class Action(_Open):
    type: ActionType
    parameters: ActionParameters = Field(default_factory=ActionParameters)
    visual_evaluation_flag: bool = False
    checkpoint_screenshot: str | None = None
    logical_assertion: str | None = None
    target: Target | None = None
    #: checks written by a recipe author: they decide the assertion, as written
    checks: list[Check] = Field(default_factory=list)
    #: what the recording shows changed, in terms of what a person sees (None: not recorded; the judge
    #: then infers it from the checkpoints, as for the official layout)
    evidence: Evidence | None = None
    #: derived DOM facts (counts, ARIA states, URL): reported, never scored
    info: list[Check] = Field(default_factory=list)
    #: seconds into video.mp4 where this action shows: its click or key cue starts (Click, Type, Select,
    #: Press), or its effect is on screen (Hover, Scroll). Recorded tasks only; frames sampled for a model
    #: always include one showing it
    video_time_s: float | None = Field(None, ge=0)

    @field_validator("type", mode="before")
    @classmethod
    def _canon_type(cls, v: Any) -> Any:
        if isinstance(v, str):
            for t in ACTION_TYPES:
                if v.lower() == t.lower():
                    return t
        return v

    @field_validator("logical_assertion", mode="before")
    @classmethod
    def _blank_is_none(cls, v: Any) -> Any:
        if isinstance(v, str) and not v.strip():
            return None
        return v

    @field_validator("checkpoint_screenshot")
    @classmethod
    def _inside_task(cls, v: str | None) -> str | None:
        """A relative path inside the task folder: no absolute path, drive, '..' or control character."""
        if v is None or not v.strip():
            return None
        parts = v.replace("\\", "/").split("/")
        if (v.startswith(("/", "\\")) or (len(v) > 1 and v[1] == ":") or ".." in parts
                or any(ord(c) < 32 for c in v) or len(v) > 1024):
            raise ValueError(f"must be a relative path inside the task folder, got {v[:80]!r}")
        return "/".join(p for p in parts if p not in ("", ".")) or None

    @property
    def description(self) -> str:
        return self.parameters.description


def step_text(action_type: str, description: str | None) -> str:
    """An action as people read it in progress lines and titles: its type, then its description. A description
    that already starts with the type's verb ("press Enter", "Clicking the tab") is not prefixed again, so no
    line reads "Press press Enter"; its first letter is capitalised instead."""
    desc = (description or "").strip()
    if not desc:
        return action_type
    first = desc.split(None, 1)[0].lower()
    if first.startswith(action_type.lower()):
        return desc[0].upper() + desc[1:]
    verb = {"Type": "Type into", "Select": "Select in", "Hover": "Hover over"}.get(action_type, action_type)
    if first in ("into", "in", "over", "on", "onto", "at", "to"):  # the description brings its own preposition
        verb = action_type
    return f"{verb} {desc}"


def clip(text: str, n: int) -> str:
    """``text`` cut to at most ``n`` characters at a word's end, with an ellipsis when cut."""
    if len(text) <= n:
        return text
    cut = text[:n - 1].rsplit(None, 1)[0] if " " in text[:n - 1] else text[:n - 1]
    return cut.rstrip(" ,;:") + "\u2026"


class Classification(_Open):
    domain: str | None = Field(None, description="the site's domain in the paper's taxonomy (e-commerce, gaming ...)")
    sub_domain: str | None = Field(None, description="a finer domain, for people")
    visual_complexity: str | None = Field(None, description="V1 (a plain page) to V4 (a dense, animated or "
                                                            "canvas-drawn one)")
    interaction_complexity: str | None = Field(None, description="L1 (one or two clicks) to L4 (long flows with "
                                                                 "typing, validation and state across views)")


class RecordingDetails(_Open):
    resolution: str = "1920x1080"
    environment: str | None = None
    fps: float | None = None
    duration_s: float | None = None
    #: the recipe's seed: the judged page's Math.random is seeded with it (offline protocols), as the recording's was
    seed: int | None = None
    #: the recipe's ISO time the page's clock started at (None: the judge's own start); the judge starts the
    #: judged page's clock there too (offline protocols; the published one runs a plain browser)
    freeze_time: str | None = None

    @field_validator("freeze_time")
    @classmethod
    def _iso(cls, v: str | None) -> str | None:
        if v is None:
            return None
        from datetime import datetime

        try:
            datetime.fromisoformat(v.replace("Z", "+00:00"))
        except ValueError:
            raise ValueError(f"freeze_time must be an ISO time (2026-01-01T09:00:00Z), got {v[:40]!r}") from None
        return v

    @field_validator("resolution", mode="before")
    @classmethod
    def _res(cls, v: Any) -> Any:
        if v is None:
            return "1920x1080"
        if isinstance(v, str):
            v = v.lower().replace(" ", "")
            w, _, h = v.partition("x")
            if not (w.isdigit() and h.isdigit()):
                raise ValueError(f"resolution must look like 1280x720, got {v!r}")
        return v


class Probe(_Closed):
    """A second trajectory that asks for a response to other input (e.g. other text typed).

    A page that shows recorded states whatever the input passes the main trajectory but not its probes.
    ``mirrors``: probe step j replays main step j with other input, so a probe failing at step j caps the
    credit of the main trajectory at j - 1; otherwise a failure caps it at ``guards`` - 1.
    ``step_mirrors`` (a probe with its own trajectory): for each probe step, the main step it asks the
    same of in another context (None: none). A probe that first fails at a step mirroring a main step the
    main trajectory did not pass shows the same fault again and caps nothing more.
    """

    name: str
    #: text: other typed text (automatic); recipe: the recipe's own; derived: made by the recorder from the trajectory
    #: (skip, twice, swap, another option, an unused key) and kept because a replay of the recording fails it
    kind: Literal["text", "recipe", "derived"] = "text"
    guards: int = Field(ge=1)
    mirrors: bool = True
    replace: dict[str, str] = Field(default_factory=dict)
    actions: list["Action"]
    step_mirrors: list[int | None] = Field(default_factory=list)

    def mirror_of(self, j: int) -> int | None:
        """The main step probe step ``j`` (1-based) asks the same of, if any."""
        if self.mirrors:
            return j
        return self.step_mirrors[j - 1] if 0 < j <= len(self.step_mirrors) else None


class Task(_Open):
    id: str
    schema_version: int = SCHEMA_VERSION
    source_website: str | None = None
    classification: Classification = Field(default_factory=Classification)
    recording_details: RecordingDetails = Field(default_factory=RecordingDetails)
    action_sequence: list[Action]
    probes: list[Probe] = Field(default_factory=list)

    _dir: Path | None = PrivateAttr(default=None)

    @model_validator(mode="before")
    @classmethod
    def _upgrade(cls, data: Any) -> Any:
        # version 1: `checks` mixed derived and reviewed checks; derived DOM facts no longer decide
        if isinstance(data, dict) and data.get("schema_version") == 1 and isinstance(data.get("action_sequence"), list):
            data = dict(data)
            seq = []
            for a in data["action_sequence"]:
                if isinstance(a, dict) and a.get("checks"):
                    a = {**a, "info": list(a.get("checks") or []), "checks": []}
                seq.append(a)
            data["action_sequence"] = seq
        return data

    @field_validator("id")
    @classmethod
    def _id(cls, v: str) -> str:
        v = str(v)
        if not v or v in (".", "..") or any(c in v for c in "/\\") or any(ord(c) < 32 or ord(c) == 127 for c in v):
            raise ValueError(f"task id must be a plain name (no slashes or control characters), got {v!r}")
        return v

    # where the task's files are (set by the loader)
    @property
    def dir(self) -> Path:
        if self._dir is None:
            raise RuntimeError(f"task {self.id} was not loaded from a folder")
        return self._dir

    def bind(self, folder: Path) -> "Task":
        self._dir = Path(folder)
        return self

    @property
    def viewport(self) -> tuple[int, int]:
        w, _, h = self.recording_details.resolution.partition("x")
        return int(w), int(h)

    @property
    def video_path(self) -> Path:
        return self.dir / "video.mp4"

    @property
    def assets_dir(self) -> Path:
        return self.dir / "assets"

    @property
    def stitched_assets(self) -> list[Path]:
        d = self.dir / "stitched_assets"
        return sorted(p for p in d.glob("*") if p.suffix.lower() in (".png", ".jpg", ".jpeg", ".webp")) if d.is_dir() else []

    def checkpoint(self, index: int) -> Path:
        """Ground truth after action ``index`` (0 = initial state)."""
        if index > 0:
            rel = self.action_sequence[index - 1].checkpoint_screenshot
            if rel:
                p = self.dir / rel
                if p.exists():
                    return p
        return self.dir / "checkpoints" / f"step_{index}.png"

    @property
    def tags(self) -> dict[str, str]:
        c = self.classification
        return {
            k: v
            for k, v in {
                "domain": c.domain,
                "visual_complexity": c.visual_complexity,
                "interaction_complexity": c.interaction_complexity,
                # novel (an app written for the suite) or famous (a published package): a bundled recipe's
                # classification.provenance; the leaderboard reports the two apart
                "provenance": (c.model_extra or {}).get("provenance"),
            }.items()
            if isinstance(v, str) and v
        }


# --------------------------------------------------------------------------- oracle source


class SourceSpec(_Open):
    """How to serve the site a task was recorded on (``reference/source.json``)."""

    kind: Literal["url", "site", "npm", "pypi"]
    url: str | None = None  # kind=url
    site: str | None = None  # kind=site: folder relative to the task's reference/ (copied there)
    package: str | None = None  # npm / pypi
    version: str | None = None
    sha256: str | None = None  # of the fetched archive
    root: str | None = None  # folder inside the package served as the web root
    serve: str | None = None  # pypi: command template
    data: str | None = None  # pypi: data file relative to reference/
    page: str = "index.html"  # entry path under the root (may carry ?query or #hash)


# --------------------------------------------------------------------------- results


class Candidate(_Closed):
    tag: str | None = None
    role: str | None = None
    name: str | None = None
    text: str | None = None
    score: float | None = None


class RungAttempt(_Closed):
    rung: str
    matches: int
    detail: str | None = None


class Grounding(_Closed):
    rung: str | None = None  # role_name | text | attribute | fuzzy | llm | page | None (not found)
    tried: list[RungAttempt] = Field(default_factory=list)
    ambiguous: bool = False
    element: Candidate | None = None
    alternatives: list[Candidate] = Field(default_factory=list)


class CheckResult(_Closed):
    check: Check
    passed: bool
    detail: str | None = None


class AssertionResult(_Closed):
    text: str | None = None
    passed: bool | None = None  # None = not judged (e.g. judge API error: not counted as a failure)
    method: str = "checks"  # checks | mllm
    checks: list[CheckResult] = Field(default_factory=list)
    raw: str | None = None


class EvidenceResult(_Closed):
    """One piece of evidence judged on the page: a phrase's visible count, the visual change, the
    typed text, an author's check, or a page that had to stay as it was (``kind``: appears | disappears |
    visible | absent | change | still | typed | check)."""

    kind: str
    passed: bool
    text: str | None = None
    source: str | None = None
    detail: str | None = None
    before: int | float | None = None
    after: int | float | None = None
    #: False: shown for information (e.g. texts that changed on a step without an assertion)
    required: bool = True
    #: an outcome chance decided in the recording (``TextEvidence.chance``)
    chance: bool | None = None


class ProbeResult(_Closed):
    name: str
    guards: int
    mirrors: bool = True
    steps_total: int = 0
    steps_passed: int = 0
    passed: bool = False
    #: the credit of the main trajectory this probe allows (leading actions); None = no cap
    cap: int | None = None
    #: why a failed probe caps nothing (it fails where the main trajectory already failed)
    note: str | None = None
    skipped: str | None = None
    steps: list["StepResult"] = Field(default_factory=list)
    error: str | None = None


class VisualScores(_Closed):
    """Scores for one (ground truth, judged) screenshot pair, each 0-100 or None."""

    checkpoint: int  # 0 = initial state, i = after action i
    gt: str | None = None
    shot: str | None = None
    reached: bool = True
    ocr: float | None = None
    visual: float | None = None
    low_level: float | None = None
    high_level: float | None = None
    components: dict[str, float] = Field(default_factory=dict)


class StepResult(_Closed):
    index: int  # 1-based action index
    type: str
    description: str = ""
    executed: bool = False
    passed: bool = False  # executed and its assertion (if any) held
    error: str | None = None
    grounding: Grounding | None = None
    assertion: AssertionResult | None = None
    info_checks: list[CheckResult] = Field(default_factory=list)
    #: what decided the step beyond execution (offline protocols): every item must pass
    evidence: list[EvidenceResult] = Field(default_factory=list)
    visual: VisualScores | None = None
    screenshot: str | None = None
    settle: dict[str, Any] = Field(default_factory=dict)
    duration_s: float = 0.0


class GenerationOutcome(str, enum.Enum):
    """How a model's attempt at a page ended; what a run does with the unit follows from it alone."""

    #: a page to judge
    OK = "ok"
    #: the model answered without a usable page: the model's failure (scored 0, the raw reply kept)
    NO_PAGE = "no_page"
    #: the provider kept failing or refused the request, after the retries (scored 0; not cached, so a
    #: rerun tries again)
    API_ERROR = "api_error"
    #: no page for another reason of the model's (a replay folder without the task, an oracle without a
    #: recipe, a model that raised ``IwrError``) (scored 0)
    FAILED = "failed"
    #: ``--max-cost`` was reached before the call; no call was made and the unit is not run (no row)
    BUDGET = "budget"

    @property
    def status(self) -> Status:
        """The unit's status when generation decides it (``ok`` goes on to the judge)."""
        return "ok" if self is GenerationOutcome.OK else "generation_error"


class GenerationInfo(_Open):
    #: how generation ended (None: rows written before it was recorded)
    outcome: GenerationOutcome | None = None
    cached: bool = False
    calls: int = 0
    input_tokens: int | None = None
    output_tokens: int | None = None
    cost_usd: float | None = None
    images: int | None = None
    raw_reply: str | None = None  # path (relative to the run folder) of the kept raw reply
    duration_s: float | None = None
    #: the output cap (max_tokens) the answered request carried: after a known model's clamp and any fit
    max_output_tokens: int | None = None
    #: set when the server refused the first cap and it was retried once with one that fits:
    #: {requested, sent, reason, server_message} (iwrbench.models.context)
    output_cap: dict[str, Any] | None = None
    #: what the client learned of the model's kind from a refusal during this call: [{setting, value, server_message}]
    learned: list[dict[str, Any]] | None = None
    #: images downscaled to the provider's documented limits: [{index, before: [w, h, bytes], after, why}]
    images_downscaled: list[dict[str, Any]] | None = None
    # a chat model's request, as sent (the report shows these rather than work them out again)
    prompt_version: str | None = None
    prompt_sha256: str | None = None
    #: images sent: the task's composites, then the video frames sampled
    composites: int | None = None
    frames: int | None = None
    #: the response cache's key of the request
    cache_key: str | None = None
    #: a cached reply: what its call cost when it was made (``cost_usd`` is then 0)
    original_cost_usd: float | None = None
    #: why the model stopped, as the provider said it ("stop", "length", "end_turn", "max_tokens")
    stop_reason: str | None = None
    #: how the page was taken from the reply: {source, iframes_removed, placeholders_rewritten, truncated}
    extraction: dict[str, Any] | None = None


class TaskResult(_Closed):
    schema_version: int = SCHEMA_VERSION
    model: str
    task_id: str
    status: Status
    protocol: str
    ifs: float | None = None
    vfs: float | None = None
    final: float | None = None
    low_level_visual: float | None = None
    high_level_visual: float | None = None
    steps_total: int = 0
    steps_passed: int = 0
    initial: VisualScores | None = None
    steps: list[StepResult] = Field(default_factory=list)
    tags: dict[str, str] = Field(default_factory=dict)
    error: str | None = None
    blocked_requests: int = 0
    blocked_hosts: list[str] = Field(default_factory=list)
    #: what the page did besides the actions: dialogs, popups, downloads, navigations, left_origin
    #: (times the judge found it off its own origin) — counted, contained
    page_events: dict[str, int] = Field(default_factory=dict)
    #: leading actions passed by the main trajectory before probes capped it (None: no probes ran)
    steps_passed_main: int | None = None
    probes: list[ProbeResult] = Field(default_factory=list)
    generation: GenerationInfo | None = None
    attempts: int = 1
    duration_s: float = 0.0
    #: the unit's log in the run folder (relative path, ``logs/<model>/<task_id>.log``): the traceback of every
    #: exception the unit ended or retried on (None: nothing was raised)
    log: str | None = None
    #: None: judged by this run; "build": the ``oracle`` of a task this run built, judged by the build's own oracle
    #: replay (the same judge, components and task, checked by hash), so the source is not judged twice
    judged_in: Literal["build"] | None = None


# --------------------------------------------------------------------------- the run folder
# run.json (RunSpec), results.jsonl (TaskResult, one per line) and summary.json (Summary); the folder's
# layout is iwrbench.runs.rundir.RunDir's.


class _ReadsLikeJson(_Open):
    """A record that also reads like the JSON it is written as (``row["final"]``, ``row.get("errors")``), for
    code written against the file."""

    def __getitem__(self, key: str) -> Any:
        if key not in self:
            raise KeyError(key)
        return getattr(self, key)

    def get(self, key: str, default: Any = None) -> Any:
        return getattr(self, key) if key in self else default

    def __contains__(self, key: object) -> bool:
        return isinstance(key, str) and (key in type(self).model_fields or key in (self.model_extra or {}))


class JudgeSpec(_ReadsLikeJson):
    """``run.json`` ``judge``: the judge's components as they describe themselves. Compared on resume: a
    run is continued only by the same judge."""

    protocol: str | None = None
    ocr: Any = None
    visual: Any = None
    high_level: Any = None
    #: the judge's chat client (iwr-bench@1), None for the offline protocols
    chat: Any = None
    limits: dict[str, Any] = Field(default_factory=dict)
    #: iwr-bench@1: prompt file -> sha256 of the grounder's and the assertion judge's prompts
    prompts: dict[str, str] | None = None


class PromptSpec(_ReadsLikeJson):
    version: str
    sha256: str


class GenerationSpec(_ReadsLikeJson):
    """``run.json`` ``generation``: what decides what each model is sent. Compared on resume."""

    #: the run's ``GenerationOptions`` (runtime ones left out: they are ``RunSpec.runtime``)
    options: dict[str, Any] = Field(default_factory=dict)
    prompt: PromptSpec | None = None
    #: model name -> how it was configured (``Model.describe()``)
    models: dict[str, dict[str, Any]] = Field(default_factory=dict)


class RetryUnit(_ReadsLikeJson):
    model: str
    task_id: str
    status: Status
    error: str | None = None


class RetryNote(_ReadsLikeJson):
    """One ``--retry-errors`` pass, listed in ``run.json`` ``retries``: the units it redid and, when its
    settings differed from the run's, every setting that differed and the generation settings used."""

    at: str
    units: list[RetryUnit] = Field(default_factory=list)
    changed: list[str] = Field(default_factory=list)
    #: dotted path -> {"run": the run's value, "retry": the retry's}
    settings_changed: dict[str, dict[str, Any]] = Field(default_factory=dict)
    generation: GenerationSpec | None = None


class RunSpec(_Open):
    """``run.json``: enough to re-judge a run without guessing how it was made."""

    schema_version: int = SCHEMA_VERSION
    created: str
    iwrbench_version: str
    suite: str
    suite_hash: str
    task_ids: list[str]
    models: list[str]
    protocol: str
    judge: JudgeSpec = Field(default_factory=JudgeSpec)
    generation: GenerationSpec = Field(default_factory=GenerationSpec)
    browser: dict[str, Any] = Field(default_factory=dict)
    packages: dict[str, str] = Field(default_factory=dict)
    executor: str = "local"
    workers: int = 1
    #: options that change how the run goes, not what a model is sent (may change between resumes)
    runtime: dict[str, Any] = Field(default_factory=dict)
    #: ``--limit``: {n, of, order}
    limit: dict[str, Any] | None = None
    retries: list[RetryNote] = Field(default_factory=list)
    #: ``iwr judge``: the run whose pages this run judged again ({run, created, protocol, suite_hash}); its
    #: generation record is this run's ``generation``
    pages_from: dict[str, Any] | None = None
    #: ``iwr run`` building while it judges (runs/pipeline.py): {suite, complete, excluded: {task_id: reason},
    #: task_hashes: {task_id: suite hash of that task alone}}; ``task_ids`` and ``suite_hash`` are those of the
    #: tasks judged so far, and of every task built once ``complete``
    build: dict[str, Any] | None = None


class Interval(_ReadsLikeJson):
    """A 95% bootstrap interval of a score or of a difference of scores (0-100 points): ``low`` to ``high``."""

    low: float
    high: float

    @property
    def width(self) -> float:
        return self.high - self.low

    def excludes_zero(self) -> bool:
        return self.low > 0 or self.high < 0


class LeaderboardRow(_ReadsLikeJson):
    """One model's row: macro means over its scored tasks (0-100), and its units that were not ``ok``.

    ``tasks`` is n, the scored tasks the means and intervals are over (``Summary.bootstrap`` says how the
    intervals are made); units left out of the scores are counted under ``errors``."""

    model: str
    tasks: int = 0
    ifs: float | None = None
    vfs: float | None = None
    final: float | None = None
    low_level_visual: float | None = None
    high_level_visual: float | None = None
    #: status -> units (generation_error, page_error, judge_error, task_error)
    errors: dict[str, int] = Field(default_factory=dict)
    #: 95% intervals of Final, IFS and VFS by bootstrap over the scored tasks; None with fewer than 2 scored
    #: tasks, and in summaries written before iwrbench 0.4
    final_ci: Interval | None = None
    ifs_ci: Interval | None = None
    vfs_ci: Interval | None = None
    #: leading steps passed (what IFS counts) and steps, summed over the scored tasks (None: before 0.4)
    steps_passed: int | None = None
    steps_total: int | None = None


class Bootstrap(_ReadsLikeJson):
    """How the intervals of a summary are made: a percentile bootstrap over tasks. Each resample draws the
    tasks with replacement and recomputes the row as the published aggregation does (means of IFS, LVS and
    HVS, then combined); a fixed seed gives the same intervals for the same results."""

    method: str = "percentile bootstrap over tasks"
    resamples: int
    level: float = 0.95
    seed: int = 0


class PairedDifference(_ReadsLikeJson):
    """``model`` minus ``other`` on the tasks both were scored on (``tasks``), with a paired bootstrap interval:
    each resample draws those tasks once and recomputes both rows on them (``ci``: None below 2 common tasks).
    ``excludes_zero``: the interval does not contain 0, so the order of the two is not a draw of the tasks;
    None below 10 common tasks, too few for the interval to carry that verdict."""

    model: str
    other: str
    metric: Literal["final", "ifs", "vfs"] = "final"
    tasks: int = 0
    #: the two rows recomputed on the common tasks
    model_score: float | None = None
    other_score: float | None = None
    difference: float | None = None
    ci: Interval | None = None
    excludes_zero: bool | None = None


class ProvenanceGap(_ReadsLikeJson):
    """One model's memorisation gap: Final on ``famous`` tasks (published packages whose code models may have
    read) minus Final on ``novel`` ones (apps written for the suite). The two are different tasks, so each
    group is resampled on its own (an unpaired bootstrap). ``ci`` None: a group with fewer than 2 scored tasks;
    ``excludes_zero`` None: a group with fewer than 10."""

    model: str
    novel_tasks: int = 0
    famous_tasks: int = 0
    novel: float | None = None
    famous: float | None = None
    difference: float | None = None
    ci: Interval | None = None
    excludes_zero: bool | None = None


class ModelComparison(_ReadsLikeJson):
    """``iwr compare``: one model of run A against one of run B, paired over the tasks both scored."""

    model_a: str
    model_b: str
    #: tasks scored in both runs (what the differences are over)
    tasks: int = 0
    #: tasks scored in one run only (the other left them out: an error, or not run), by run
    only_a: list[str] = Field(default_factory=list)
    only_b: list[str] = Field(default_factory=list)
    #: Final, IFS and VFS: A minus B with its paired bootstrap interval
    differences: list[PairedDifference] = Field(default_factory=list)


class Comparison(_ReadsLikeJson):
    """``iwr compare RUN_A RUN_B`` (``--json``): two runs of one suite under one protocol, paired by task."""

    run_a: str
    run_b: str
    protocol: str
    suite_hash_a: str
    suite_hash_b: str
    #: False: the suites differ and only the tasks both ran are compared (``--intersection``)
    same_suite: bool = True
    #: task ids both runs hold
    common_tasks: int = 0
    bootstrap: Bootstrap | None = None
    comparisons: list[ModelComparison] = Field(default_factory=list)
    notes: list[str] = Field(default_factory=list)


class Summary(_ReadsLikeJson):
    """``summary.json`` (and the leaderboard files of a report): the leaderboard, best Final first, and the
    same by taxonomy tag."""

    protocol: str
    suite: str | None = None
    suite_hash: str | None = None
    #: the run folders merged (a report over several runs; absent from a run's own summary.json)
    runs: list[str] | None = None
    tasks: int = 0
    leaderboard: list[LeaderboardRow] = Field(default_factory=list)
    #: tag (domain, visual_complexity, interaction_complexity, provenance) -> value -> leaderboard
    by_tag: dict[str, dict[str, list[LeaderboardRow]]] = Field(default_factory=dict)
    #: how the intervals were made (None: a summary written before iwrbench 0.4, without intervals)
    bootstrap: Bootstrap | None = None
    #: each model against the next one down the leaderboard: Final's paired difference on their common tasks
    adjacent: list[PairedDifference] = Field(default_factory=list)
    #: per model with scored tasks of both kinds: Final on famous tasks minus Final on novel ones
    memorisation_gap: list[ProvenanceGap] = Field(default_factory=list)

    def __contains__(self, key: object) -> bool:  # "runs" is there only for a merged report
        return super().__contains__(key) and not (key == "runs" and self.runs is None)

    def row(self, model: str) -> LeaderboardRow | None:
        return next((r for r in self.leaderboard if r.model == model), None)

    def to_json(self) -> str:
        return self.model_dump_json(indent=1, exclude={"runs"} if self.runs is None else None)


def json_schemas() -> dict[str, dict]:
    """The JSON Schema of every public record, keyed by record name."""
    return {
        m.__name__: m.model_json_schema()
        for m in (Task, Action, Target, SourceSpec, StepResult, TaskResult, RunSpec, Summary, Comparison)
    }
