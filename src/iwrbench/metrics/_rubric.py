"""High-level visual score: the published 0-100 rubric (layout 10, elements 15, content and text
40, style 15, overall 20), by a multimodal judge (``MllmRubric``) or by a deterministic analogue
that needs no model (``OfflineRubric``).

Both report components as points out of each criterion's maximum, so their components line up;
their totals are not calibrated against each other (see docs/metrics.md).

The MLLM judge speaks one of two prompts: ``v1`` asks for the five scores as JSON and sums them;
``v2`` (``PUBLISHED_PROMPT_VERSION``, used by iwr-bench@1) gives what the published prompt gives (the
five criteria and their points, the answer format, then the two screenshots unlabelled, reference
first) and reads the total from its ``Score: n/100`` line as the published code does
(``parse_score_line``). A reply that cannot be read (no five in-range scores for v1, no score line
for v2, an empty reply) is asked again, then raises ``JudgeError`` with the last reply attached: a
judge failure to report, never a score of 0 (the published code scores a reply without its score
line 0).
"""

from __future__ import annotations

import hashlib
import io
import json
import re
from typing import TYPE_CHECKING, Any, NamedTuple

from iwrbench.metrics._component import describe

if TYPE_CHECKING:  # pragma: no cover
    from PIL.Image import Image

    from iwrbench.metrics._ocr import OcrEngine
    from iwrbench.metrics._visual import VisualBackend
    from iwrbench.models.chat import ChatClient, ChatRequest

RUBRIC_WEIGHTS: dict[str, int] = {"layout": 10, "elements": 15, "content_text": 40, "style": 15, "overall": 20}


class RubricScore(NamedTuple):
    """A rubric total (0-100) and its components as points out of ``RUBRIC_WEIGHTS``."""

    score: float
    components: dict[str, float]


class JudgedRubricScore(NamedTuple):
    """An MLLM rubric total (0-100), its components (points) and the judge's raw reply."""

    score: float
    components: dict[str, float]
    raw: str
    #: what was changed in sending the request (images downscaled to the provider's limits, the model's kind
    #: learned from a refusal); None when nothing was
    sent: dict[str, Any] | None = None


class RubricParseError(ValueError):
    """A judge reply that does not hold five in-range rubric scores (``.raw`` is the reply)."""

    def __init__(self, message: str, raw: str):
        super().__init__(f"{message}; reply was: {raw[:300]!r}")
        self.raw = raw


# ----------------------------------------------------------------------------- prompt

PROMPT_VERSION = "v1"
#: the prompt that gives what the published rubric prompt gives, and its reply format
PUBLISHED_PROMPT_VERSION = "v2"
#: the published rubric call's output cap (its default max_tokens)
PUBLISHED_RUBRIC_MAX_TOKENS = 16384
#: how each prompt's replies are read: the five components as JSON/prose, or the published score line
REPLY_FORMATS = {"v1": "components", "v2": "score-line"}
_IMAGE_MARK = re.compile(r"\{\{image:(reference|candidate)\}\}")


def rubric_prompt(version: str = PROMPT_VERSION) -> str:
    """The text of the rubric prompt template ``prompts/visual_rubric_<version>.txt``."""
    from iwrbench.fileio import package_folder, read_packaged

    return read_packaged(package_folder("iwrbench.metrics", "prompts"), f"visual_rubric_{version}.txt").text


def prompt_sha256(version: str = PROMPT_VERSION) -> str:
    from iwrbench.fileio import package_folder, read_packaged

    return read_packaged(package_folder("iwrbench.metrics", "prompts"), f"visual_rubric_{version}.txt").sha256


# ----------------------------------------------------------------------------- parsing

_ALIASES = {
    "layout": "layout",
    "layout_score": "layout",
    "elements": "elements",
    "element": "elements",
    "ui_elements": "elements",
    "elements_score": "elements",
    "content_text": "content_text",
    "content_and_text": "content_text",
    "content": "content_text",
    "text": "content_text",
    "text_content": "content_text",
    "content_text_score": "content_text",
    "style": "style",
    "styling": "style",
    "visual_style": "style",
    "style_score": "style",
    "overall": "overall",
    "overall_impression": "overall",
    "overall_similarity": "overall",
    "overall_score": "overall",
}
_NUMBER = r"(-?\d+(?:\.\d+)?)"


def _canon(key: str) -> str | None:
    k = re.sub(r"[^a-z]+", "_", key.lower()).strip("_")
    return _ALIASES.get(k)


def _value(v: Any) -> tuple[float, float | None] | None:
    """(points, out_of or None) from 8, 8.5, "8", "8/10", {"score": 8}."""
    if isinstance(v, bool):
        return None
    if isinstance(v, (int, float)):
        return float(v), None
    if isinstance(v, dict):
        for k in ("score", "points", "value"):
            if k in v:
                return _value(v[k])
        return None
    if isinstance(v, str):
        m = re.fullmatch(r"\s*" + _NUMBER + r"\s*(?:/\s*" + _NUMBER + r")?\s*", v)
        if m:
            return float(m.group(1)), float(m.group(2)) if m.group(2) else None
    return None


def _json_objects(text: str) -> list[dict[str, Any]]:
    """Every JSON object in ``text`` (fenced or bare), outermost first."""
    out = []
    decoder = json.JSONDecoder()
    i = text.find("{")
    while i != -1:
        try:
            obj, end = decoder.raw_decode(text, i)
        except ValueError:
            i = text.find("{", i + 1)
            continue
        if isinstance(obj, dict):
            out.append(obj)
            # nested objects (e.g. {"scores": {...}}) are searched too
            out.extend(v for v in obj.values() if isinstance(v, dict))
        i = text.find("{", end)
    return out


def _from_json(text: str) -> dict[str, tuple[float, float | None]] | None:
    for obj in _json_objects(text):
        found: dict[str, tuple[float, float | None]] = {}
        for k, v in obj.items():
            c = _canon(str(k))
            val = _value(v)
            if c and val is not None and c not in found:
                found[c] = val
        if len(found) == len(RUBRIC_WEIGHTS):
            return found
    return None


_PROSE_NAMES = {
    "layout": r"layout",
    "elements": r"(?:ui\s+)?elements?",
    "content_text": r"content(?:\s*(?:and|&|/)\s*text)?|text\s+content",
    "style": r"styl(?:e|ing)",
    "overall": r"overall(?:\s+(?:impression|similarity))?",
}


def _from_prose(text: str) -> dict[str, tuple[float, float | None]] | None:
    found: dict[str, tuple[float, float | None]] = {}
    for comp, name in _PROSE_NAMES.items():
        # "Layout: 8/10", "**Layout** (10 points): 8", "layout score = 8 out of 10"
        pat = re.compile(
            r"(?i)\b(?:" + name + r")\b[^0-9\n]{0,40}?(?:\(\s*(?:0\s*-\s*)?\d+\s*(?:points?|pts)?\s*\)[^0-9\n]{0,10}?)?"
            + _NUMBER + r"(?:\s*(?:/|out\s+of)\s*" + _NUMBER + r")?"
        )
        m = pat.search(text)
        if not m:
            return None
        found[comp] = (float(m.group(1)), float(m.group(2)) if m.group(2) else None)
    return found


def parse_rubric_reply(text: str) -> RubricScore:
    """Read the five component scores from a judge reply (JSON preferred, prose tolerated).

    A score given as "x/y" with y different from the criterion's maximum is rescaled; a bare
    score above its maximum or below 0 is an error (the judge used another scale), as is a
    missing component. Raises ``RubricParseError``.
    """
    raw = text or ""
    found = _from_json(raw) or _from_prose(raw)
    if found is None:
        raise RubricParseError("no five rubric scores (layout, elements, content_text, style, overall) found", raw)
    components: dict[str, float] = {}
    for comp, top in RUBRIC_WEIGHTS.items():
        points, out_of = found[comp]
        if out_of is not None and out_of > 0 and out_of != top:
            points = points * top / out_of
        if points < 0 or points > top + 1e-6:
            raise RubricParseError(f"{comp} = {points:g} is outside 0..{top}", raw)
        components[comp] = round(float(points), 4)
    return RubricScore(round(sum(components.values()), 4), components)


_SCORE_LINE = re.compile(r"score:.*?(\d{1,3})/100", re.IGNORECASE)


def parse_score_line(text: str) -> RubricScore | None:
    """The total of a reply in the published format: the first ``Score: n/100`` (n on the same line,
    case-insensitive), clipped to 0..100; None when there is none (the published code then scores 0)."""
    m = _SCORE_LINE.search(text or "")
    if m is None:
        return None
    return RubricScore(float(max(0, min(100, int(m.group(1))))), {})


# ----------------------------------------------------------------------------- MLLM judge


def _png(img: "Image") -> bytes:
    buf = io.BytesIO()
    img.convert("RGB").save(buf, format="PNG", optimize=False, compress_level=6)
    return buf.getvalue()


class MllmRubric:
    """The published high-level score: a multimodal judge grades the candidate against the
    reference on the 0-100 rubric. Async; one chat call per pair, temperature 0."""

    name = "mllm-rubric"

    def __init__(self, client: "ChatClient", *, prompt_version: str = PROMPT_VERSION, max_tokens: int = 1024,
                 attempts: int = 1):
        self.client = client
        self.prompt_version = prompt_version
        self.prompt = rubric_prompt(prompt_version)
        self.prompt_sha256 = hashlib.sha256(self.prompt.encode("utf-8")).hexdigest()
        self.max_tokens = max_tokens
        self.attempts = max(1, int(attempts))
        self.reply_format = REPLY_FORMATS.get(prompt_version, "components")
        marks = _IMAGE_MARK.findall(self.prompt)
        if sorted(marks) != ["candidate", "reference"]:
            raise ValueError(f"prompt {prompt_version} must hold {{{{image:reference}}}} and {{{{image:candidate}}}} once each")

    def available(self) -> tuple[bool, str]:
        return True, f"judge {getattr(self.client, 'name', type(self.client).__name__)}"

    def describe(self) -> dict[str, Any]:
        return {
            "name": self.name,
            "client": getattr(self.client, "name", type(self.client).__name__),
            "prompt_version": self.prompt_version,
            "prompt_sha256": self.prompt_sha256,
            "weights": dict(RUBRIC_WEIGHTS),
            "temperature": 0.0,
            "max_tokens": self.max_tokens,
            "reply_format": self.reply_format,
            "attempts": self.attempts,
        }

    def request(self, gt: "Image", gen: "Image") -> "ChatRequest":
        """The chat request for one pair: the template's text with the two screenshots in place."""
        from iwrbench.models.chat import ChatRequest, ImagePart, Message, TextPart

        # labels are for the run's logs; they are never sent
        images = {
            "reference": ImagePart(_png(gt), label="reference screenshot (ground truth)"),
            "candidate": ImagePart(_png(gen), label="candidate screenshot (generated page)"),
        }
        parts: list[Any] = []
        pos = 0
        for m in _IMAGE_MARK.finditer(self.prompt):
            before = self.prompt[pos : m.start()].strip("\n")
            if before:
                parts.append(TextPart(before))
            parts.append(images[m.group(1)])
            pos = m.end()
        rest = self.prompt[pos:].strip("\n")
        if rest:
            parts.append(TextPart(rest))
        return ChatRequest(
            messages=[Message(role="user", content=parts)],
            temperature=0.0,
            max_tokens=self.max_tokens,
            meta={"purpose": "visual_rubric", "prompt_version": self.prompt_version, "prompt_sha256": self.prompt_sha256},
        )

    def read(self, text: str) -> RubricScore | None:
        """What a reply says in this prompt's format, or None when it cannot be read."""
        if not (text or "").strip():
            return None
        if self.reply_format == "score-line":
            return parse_score_line(text)
        try:
            return parse_rubric_reply(text)
        except RubricParseError:
            return None

    async def score(self, gt: "Image", gen: "Image") -> JudgedRubricScore:
        """Raises ``JudgeError`` (with the last reply) when no reply can be read in ``attempts``."""
        from iwrbench.models.ask import ask

        parsed, reply = await ask(self.client, self.request(gt, gen), self.read, attempts=self.attempts,
                                  what=f"the rubric judge ({self.prompt_version})")
        sent = {k: v for k, v in (("images_downscaled", reply.images), ("learned", reply.learned)) if v}
        return JudgedRubricScore(parsed.score, parsed.components, reply.text, sent or None)


# ----------------------------------------------------------------------------- offline analogue


class OfflineRubric:
    """A deterministic analogue of the published rubric, from measurable things; no model.

    Version 2: each criterion is one part of the offline visual comparison (``_blocks.py``), its own
    signal, none reusing another's number nor the low-level scores (OCR similarity, visual
    similarity):

    * layout (10): where things are: matched words' position agreement + ink-occupancy overlap.
    * elements (15): the non-text elements (images, large shapes, frames) matched by overlap and colour.
    * content_text (40): the text of the matched words (text blocks), weighted by characters x size.
    * style (15): matched words' ink colour and size + the colour palette of ink and background.
    * overall (20): the global structure x colour similarity of the picture.

    With ``prev`` (the recording's screenshot before the step), each criterion weighs the step's
    changed region as much as the whole page. A blank page has no words, no elements and no
    structure: against a real page it keeps at most the background share of style.
    """

    name = "offline-rubric"
    version = 2

    def __init__(self, *, ocr: "OcrEngine | None" = None, visual: "VisualBackend | None" = None, width: int = 320):
        self._ocr = ocr
        self._visual = visual  # kept for the callers that pass it; the rubric has its own signals
        self.width = width
        self._blocks: Any = None

    @property
    def blocks(self) -> Any:
        if self._blocks is None:
            from iwrbench.metrics._blocks import BlocksBackend

            vis = self._visual
            if isinstance(vis, BlocksBackend) and vis.width == self.width:
                self._blocks = vis
            else:
                self._blocks = BlocksBackend(self._ocr, width=self.width)
        return self._blocks

    def available(self) -> tuple[bool, str]:
        return True, "numpy + scipy + scikit-image (+ the OCR engine it is given, for word boxes)"

    def describe(self) -> dict[str, Any]:
        return {
            "name": self.name,
            "version": self.version,
            "weights": dict(RUBRIC_WEIGHTS),
            "width": self.width,
            "signals": dict(_CRITERION_PART),
            "ocr": describe(self._ocr) if self._ocr is not None else "default",
        }

    def components01(self, gt: "Image", gen: "Image", *, analysis: Any = None, prev: "Image | None" = None,
                     **_ignored: Any) -> dict[str, float]:
        """Each criterion in [0, 1] (before weighting). ``analysis``: a comparison already made by
        ``BlocksBackend.analyse`` (``compare`` passes it, so nothing is computed twice)."""
        if analysis is None:
            analysis = self.blocks.analyse(gt, gen, prev=prev)
        return {crit: float(analysis.parts[part]) for crit, part in _CRITERION_PART.items()}

    def score(self, gt: "Image", gen: "Image", *, analysis: Any = None, prev: "Image | None" = None,
              **_ignored: Any) -> RubricScore:
        """Total 0-100 and components in points."""
        c = self.components01(gt, gen, analysis=analysis, prev=prev)
        components = {k: round(RUBRIC_WEIGHTS[k] * min(1.0, max(0.0, v)), 4) for k, v in c.items()}
        return RubricScore(round(sum(components.values()), 4), components)


#: which part of the visual comparison measures each criterion
_CRITERION_PART = {"layout": "layout", "elements": "elements", "content_text": "content", "style": "style",
                   "overall": "global"}
