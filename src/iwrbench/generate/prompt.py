"""What a model is sent: the versioned prompt, then the asset composites, then the frames.

Order and limits as published: one user message holding the prompt text, the task's
``stitched_assets`` in sorted order, then video frames (``frames.sample_frames``), at most
``max_images`` images in all. Frames give way first: their cap becomes
``min(max_frames, max_images - composites)`` and they stay uniformly spaced over the whole
video (rather than dropping the end of the recording). Composites are cut only if they alone
exceed ``max_images``.

Prompts are template files in ``prompts/`` named by version (``iwr-v1`` ->
``prompts/iwr-v1.txt``). The file is hashed as stored (``prompt_sha256``), so any edit shows
in run.json and in the snapshot test. Placeholders ``{{name}}`` are filled from the task:
``n_composites``, ``n_frames``, ``frame_interval``, ``width``, ``height``.

Per-model settings. ``options.extra`` may hold, at its top level or under
``per_model[MODEL]`` (``MODEL`` as given, e.g. ``"anthropic:claude-sonnet-4-5"``, or its name
alone), any of ``fps``, ``max_frames``, ``max_images``, ``max_image_side``,
``max_output_tokens``, ``temperature``, ``timeout_s``, ``retries``, ``concurrency``, plus the
non-option settings ``frame_format`` (jpeg|png), ``body`` (extra request fields),
``price_in``/``price_out``, and the provider's own (``max_tokens_param``, ``send_temperature``,
``image_detail``). A provider may set defaults of its own (Anthropic: ``max_image_side``
2000), used only where the user left the option unset. ``effective_options`` returns the
result; it is what generation uses and what is recorded.

Input-token estimates (for ``--dry-run``; the provider's count is what is recorded after a
call): text is ``ceil(chars / 4)``. An image, OpenAI style (high detail): fit within
2048x2048, then shrink so the short side is at most 768, then ``85 + 170 * tiles`` with
512-px tiles. Anthropic style: fit the long side within 1568, then ``w * h / 750``, at most
1600.
"""

from __future__ import annotations

import dataclasses
import hashlib
import io
import math
import re
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path
from typing import Any

from ..errors import ModelError
from ..fileio import package_folder, read_packaged
from ..models.base import GenerationOptions, effective_options, model_settings  # noqa: F401 (re-exported)
from ..models.chat import ChatRequest, ImagePart, Message, TextPart
from ..records import Task
from .frames import fit_size, planned_frame_count, sample_frames, sample_times, task_anchors, video_info

#: prompt version -> template file in iwrbench/generate/prompts/
PROMPTS: dict[str, str] = {"iwr-v1": "iwr-v1.txt"}
DEFAULT_PROMPT = "iwr-v1"

_PLACEHOLDER = re.compile(r"\{\{\s*([a-z_]+)\s*\}\}")
_MIME = {".png": "image/png", ".jpg": "image/jpeg", ".jpeg": "image/jpeg", ".webp": "image/webp", ".gif": "image/gif"}


# --------------------------------------------------------------------------- templates


@dataclass(frozen=True)
class PromptTemplate:
    version: str
    text: str

    @property
    def sha256(self) -> str:
        return hashlib.sha256(self.text.encode("utf-8")).hexdigest()

    @property
    def fields(self) -> list[str]:
        return sorted(set(_PLACEHOLDER.findall(self.text)))

    def render(self, **values: Any) -> str:
        missing = [f for f in self.fields if f not in values]
        if missing:
            raise ModelError(f"prompt {self.version}: no value for {', '.join(missing)}")
        return _PLACEHOLDER.sub(lambda m: str(values[m.group(1)]), self.text)


@lru_cache(maxsize=None)
def load_prompt(version: str = DEFAULT_PROMPT) -> PromptTemplate:
    if version not in PROMPTS:
        raise ModelError(f"unknown prompt version {version!r}; known: {', '.join(sorted(PROMPTS))}")
    return PromptTemplate(version, read_packaged(package_folder("iwrbench.generate", "prompts"), PROMPTS[version]).text)


def prompt_sha256(version: str = DEFAULT_PROMPT) -> str:
    return load_prompt(version).sha256


# --------------------------------------------------------------------------- settings


def frame_budget(options: GenerationOptions, n_composites: int) -> int:
    return max(0, min(options.max_frames, options.max_images - n_composites))


# --------------------------------------------------------------------------- requests


def _composites(task: Task, options: GenerationOptions) -> list[Path]:
    """The composites sent, each checked to resolve inside the task folder (TaskError otherwise)."""
    from ..tasks.files import stitched_assets

    return stitched_assets(task)[: max(0, options.max_images)]


def _composite_part(path: Path, max_side: int | None) -> ImagePart:
    from ..tasks.files import image_problem

    why = image_problem(path)  # too large, a decompression bomb or corrupt: the task's error
    if why:
        from ..errors import TaskError

        raise TaskError(why)
    data = path.read_bytes()
    mime = _MIME.get(path.suffix.lower(), "image/png")
    if max_side:
        from PIL import Image

        with Image.open(io.BytesIO(data)) as img:
            if max(img.size) > max_side:
                from .frames import encode_image

                data, mime, _ = encode_image(img, "png", max_side)
    return ImagePart(data=data, mime=mime, label=path.name)


def _interval(times: list[float], fps: float) -> str:
    step = times[1] - times[0] if len(times) > 1 else 1.0 / fps
    return f"{step:.3g}"


def build_request(task: Task, options: GenerationOptions, *, frame_format: str | None = None) -> ChatRequest:
    """The chat request for ``task`` (``options`` as returned by ``effective_options``)."""
    frame_format = frame_format or options.extra.get("frame_format", "jpeg")
    template = load_prompt(options.prompt_version)
    composites = _composites(task, options)
    n_frames = frame_budget(options, len(composites))
    frames = (
        sample_frames(task.video_path, options.fps, n_frames, max_image_side=options.max_image_side, fmt=frame_format,
                      anchors=task_anchors(task))
        if n_frames
        else []
    )
    width, height = task.viewport
    text = template.render(
        n_composites=len(composites),
        n_frames=len(frames),
        frame_interval=_interval(
            sample_times(video_info(task.video_path).duration_s, options.fps, n_frames, task_anchors(task))
            if frames else [], options.fps
        ),
        width=width,
        height=height,
    )
    parts: list[TextPart | ImagePart] = [TextPart(text)]
    parts += [_composite_part(p, options.max_image_side) for p in composites]
    parts += [ImagePart(data=f.data, mime=f.mime, label=f.label) for f in frames]
    return ChatRequest(
        messages=[Message(role="user", content=parts)],
        temperature=options.temperature,
        max_tokens=options.max_output_tokens,
        extra=dict(options.extra.get("body") or {}),
    )


def request_manifest(request: ChatRequest) -> dict[str, Any]:
    """What was sent, without image bytes: texts in full, images by label, size and digest."""
    from PIL import Image

    messages = []
    for m in request.messages:
        parts: list[dict[str, Any]] = []
        for p in m.content:
            if isinstance(p, TextPart):
                parts.append({"type": "text", "sha256": hashlib.sha256(p.text.encode()).hexdigest(), "text": p.text})
            else:
                with Image.open(io.BytesIO(p.data)) as img:
                    size = list(img.size)
                parts.append({"type": "image", "label": p.label, "mime": p.mime, "size": size, "sha256": p.digest()})
        messages.append({"role": m.role, "content": parts})
    return {
        "messages": messages,
        "temperature": request.temperature,
        "max_tokens": request.max_tokens,
        "extra": request.extra,
        "images": request.images,
    }


# --------------------------------------------------------------------------- estimates


def image_tokens(size: tuple[int, int], style: str = "openai") -> int:
    """Estimated input tokens of one image (formulas in the module docstring)."""
    w, h = size
    if w <= 0 or h <= 0:
        return 0
    if style == "anthropic":
        w, h = fit_size((w, h), 1568)
        return min(1600, math.ceil(w * h / 750))
    w, h = fit_size((w, h), 2048)
    if min(w, h) > 768:
        s = 768 / min(w, h)
        w, h = round(w * s), round(h * s)
    return 85 + 170 * math.ceil(w / 512) * math.ceil(h / 512)


def text_tokens(text: str) -> int:
    return math.ceil(len(text) / 4)


def estimate_request_tokens(request: ChatRequest, style: str = "openai") -> int:
    from PIL import Image

    total = 0
    for m in request.messages:
        for p in m.content:
            if isinstance(p, TextPart):
                total += text_tokens(p.text)
            else:
                with Image.open(io.BytesIO(p.data)) as img:
                    total += image_tokens(img.size, style)
    return total


def describe_inputs(task: Task, options: GenerationOptions, style: str = "openai") -> dict[str, Any]:
    """Images and estimated input tokens for ``task`` without decoding the video.

    Reads the video's header and the composites' headers only; ``options`` as returned by
    ``effective_options``.
    """
    from PIL import Image

    composites = _composites(task, options)
    sizes: list[tuple[int, int]] = []
    for p in composites:
        try:
            with Image.open(p) as img:
                sizes.append(fit_size(img.size, options.max_image_side))
        except Exception as e:  # noqa: BLE001 - any decoder failure is a corrupt composite
            from ..errors import TaskError

            raise TaskError(f"{p}: unreadable image ({e.__class__.__name__})") from None
    n_frames = frame_budget(options, len(composites))
    info = video_info(task.video_path)
    frames = planned_frame_count(info.duration_s, options.fps, n_frames, task_anchors(task)) if n_frames else 0
    frame_size = fit_size((info.width, info.height), options.max_image_side)
    template = load_prompt(options.prompt_version)
    width, height = task.viewport
    times = sample_times(info.duration_s, options.fps, n_frames, task_anchors(task)) if n_frames else []
    text = template.render(
        n_composites=len(composites), n_frames=frames, frame_interval=_interval(times, options.fps),
        width=width, height=height,
    )
    est = text_tokens(text) + sum(image_tokens(s, style) for s in sizes) + frames * image_tokens(frame_size, style)
    return {
        "task_id": task.id,
        "composites": len(composites),
        "frames": frames,
        "images": len(composites) + frames,
        "video_duration_s": round(info.duration_s, 3),
        "frame_size": list(frame_size),
        "est_input_tokens": est,
        "token_estimate": style,
    }


def describe_options(options: GenerationOptions) -> dict[str, Any]:
    """``options`` as JSON-safe data for run.json, with the prompt's version and hash."""
    d = dataclasses.asdict(options)
    d["cache_dir"] = str(options.cache_dir) if options.cache_dir else None
    d["prompt_sha256"] = prompt_sha256(options.prompt_version)
    d["frame_format"] = options.extra.get("frame_format", "jpeg")
    return d
