"""The small protocol every model (provider or baseline) implements.

A model turns a task into a page the judge can serve: a folder used as the web root and an
entry path in it. Models never judge; the judge never generates.
"""

from __future__ import annotations

import dataclasses
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Protocol, runtime_checkable

from ..browser.host import ASSETS_URL_PREFIX, PageBundle  # noqa: F401 (re-exported)
from ..errors import IwrError
from ..records import GenerationInfo, GenerationOutcome, Task

#: The literal prefix the published prompt asks models to put before every asset file name.
PLACEHOLDER_PREFIX = "__PLACEHOLDER_ASSETS_BASE_DIR__/"


@dataclass
class Generation:
    """What ``Model.generate`` returns: how it ended (``outcome``), the page when there is one, what it cost
    and a one-line ``error`` for people. Runs decide by ``outcome``, never by the text of ``error``.

    ``outcome`` also takes the statuses ``"ok"`` and ``"generation_error"`` (read as ``OK`` and ``FAILED``).
    """

    outcome: GenerationOutcome
    page: PageBundle | None = None
    info: GenerationInfo = field(default_factory=GenerationInfo)
    error: str | None = None

    def __post_init__(self) -> None:
        legacy = {"generation_error": GenerationOutcome.FAILED}
        self.outcome = legacy.get(self.outcome, None) or GenerationOutcome(self.outcome)  # type: ignore[call-overload]
        if self.outcome is GenerationOutcome.OK and self.page is None:
            raise ValueError("a generation that ended OK carries its page")

    @property
    def status(self) -> str:
        return self.outcome.status


@dataclass
class GenerationOptions:
    """Everything about how a model is asked; recorded in run.json."""

    fps: float = 1.0
    max_frames: int = 64
    max_images: int = 70
    max_image_side: int | None = None  # downscale images whose long side exceeds this
    temperature: float = 0.0
    max_output_tokens: int = 32000
    prompt_version: str = "iwr-v1"
    timeout_s: float = 600.0
    retries: int = 5
    concurrency: int = 4
    max_cost_usd: float | None = None
    dry_run: bool = False
    cache_dir: Path | None = None
    extra: dict[str, Any] = field(default_factory=dict)

    def __setattr__(self, name: str, value: Any) -> None:
        # a value that cannot make sense is refused before any request is built or paid for (`--fps 0` divided by
        # zero, `--fps -1` told the model "one frame every -1 s"): when made, set, or overridden per model
        if name in _RANGES and value is not None:
            low, strict, what = _RANGES[name]
            try:
                x = float(value)
                bad = isinstance(value, bool) or x != x or not (x > low if strict else x >= low)
            except (TypeError, ValueError):
                bad = True
            if bad:
                raise IwrError(f"{name.replace('_', '-')} {value!r}: {what}")
        super().__setattr__(name, value)


#: option -> (bound, strictly above it, what is expected)
_RANGES: dict[str, tuple[float, bool, str]] = {
    "fps": (0, True, "frames per second must be above 0 (e.g. --fps 1)"),
    "max_frames": (0, False, "a number of frames, 0 or more"),
    "max_images": (0, False, "a number of images, 0 or more"),
    "max_image_side": (16, False, "a side in pixels, at least 16"),
    "temperature": (0, False, "a temperature, 0 or more"),
    "max_output_tokens": (1, False, "a number of tokens, at least 1"),
    "timeout_s": (0, True, "seconds, above 0"),
    "retries": (0, False, "a number of retries, 0 or more"),
    "concurrency": (1, False, "calls at once, at least 1"),
    "max_cost_usd": (0, False, "dollars, 0 or more"),
}


#: ``GenerationOptions`` fields a model's settings may override (``extra``, ``per_model``, keyword arguments)
OPTION_KEYS = (
    "fps", "max_frames", "max_images", "max_image_side", "max_output_tokens",
    "temperature", "timeout_s", "retries", "concurrency",
)
#: settings that are not GenerationOptions fields but change how a model is asked or billed
SETTING_KEYS = (
    "frame_format", "body", "price_in", "price_out", "max_tokens_param", "send_temperature",
    "image_detail", "anthropic_version", "stream", "cache", "retry_base_s", "retry_max_s", "max_retry_after_s",
    "reasoning", "max_output",
)


def model_settings(options: GenerationOptions, model: str | None = None) -> dict[str, Any]:
    """``options.extra`` with the overrides for ``model`` applied (``extra["per_model"][MODEL]``, the bare name first,
    the full spec winning; see ``iwrbench.generate.prompt``)."""
    extra = dict(options.extra or {})
    per_model = extra.pop("per_model", None) or {}
    out = dict(extra)
    if model:
        names = [model]
        if ":" in model:
            names.insert(0, model.split(":", 1)[1])  # the bare name first, the full spec wins
        for n in names:
            out.update(per_model.get(n) or {})
    return out


def effective_options(
    options: GenerationOptions,
    model: str | None = None,
    provider_defaults: dict[str, Any] | None = None,
    overrides: dict[str, Any] | None = None,
) -> GenerationOptions:
    """``options`` with provider defaults (where unset), then per-model settings applied.

    ``overrides`` (e.g. keyword arguments given when the model was created) win over both.
    """
    settings = {**model_settings(options, model), **(overrides or {})}
    changes: dict[str, Any] = {}
    for k, v in (provider_defaults or {}).items():
        if k in OPTION_KEYS and getattr(options, k) is None:
            changes[k] = v
    for k in OPTION_KEYS:
        if k in settings:
            changes[k] = settings[k]
    return dataclasses.replace(options, **changes) if changes else options


#: request fields ``-M`` may not set: they are the request itself, or have an option of their own
RESERVED_MODEL_ARGS = {
    "model": "the model is named by --model",
    "messages": "the messages are the task's prompt, composites and frames",
    "max_tokens": "use --max-output-tokens",
    "max_completion_tokens": "use --max-output-tokens",
    "stream_options": "use -M stream=true",
    "system": "the prompt is versioned (--prompt-version)",
}
#: ``-M`` keys that are model settings (of ``SETTING_KEYS``), not request fields
MODEL_ARG_SETTINGS = ("stream", "image_detail", "max_tokens_param", "send_temperature", "frame_format",
                      "price_in", "price_out", "anthropic_version", "reasoning", "max_output")


def parse_model_args(items: list[str] | None) -> dict[str, Any]:
    """``-M KEY=VALUE`` items as a dict; a value is JSON when it parses as JSON, else the string."""
    import json

    from ..errors import IwrError

    out: dict[str, Any] = {}
    for item in items or []:
        key, sep, raw = item.partition("=")
        key = key.strip()
        if not sep or not key:
            raise IwrError(f"-M {item!r}: expected KEY=VALUE (e.g. -M temperature=0.2, -M seed=7, -M top_k=20)")
        try:
            value: Any = json.loads(raw)
        except ValueError:
            value = raw
        out[key] = value
    return out


def apply_model_args(options: GenerationOptions, args: dict[str, Any]) -> GenerationOptions:
    """``options`` with ``-M`` model arguments applied (a copy): ``temperature`` sets the sampling
    temperature, keys of ``MODEL_ARG_SETTINGS`` set that model setting, any other key is added to
    every chat request's body as is (``top_p``, ``seed``, ``top_k``, ...). Baselines ignore them."""
    import dataclasses

    from ..errors import IwrError

    if not args:
        return options
    extra = dict(options.extra or {})
    body = dict(extra.get("body") or {})
    temperature = options.temperature
    for key, value in args.items():
        if key in RESERVED_MODEL_ARGS:
            raise IwrError(f"-M {key}: not allowed ({RESERVED_MODEL_ARGS[key]})")
        if key == "temperature":
            if isinstance(value, bool) or not isinstance(value, (int, float)):
                raise IwrError(f"-M temperature={value!r}: expected a number, e.g. -M temperature=0.2")
            temperature = float(value)
        elif key in MODEL_ARG_SETTINGS:
            extra[key] = value
        else:
            body[key] = value
    if body:
        extra["body"] = body
    return dataclasses.replace(options, temperature=temperature, extra=extra)


@runtime_checkable
class Model(Protocol):
    name: str

    async def generate(self, task: Task, out_dir: Path, options: GenerationOptions) -> Generation:
        """Write the page for ``task`` under ``out_dir`` (pages/<model>/<task_id>/)."""
        ...

    def describe(self) -> dict[str, Any]:
        """How this model was configured (for run.json)."""
        ...
