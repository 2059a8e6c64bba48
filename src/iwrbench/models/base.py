"""The small protocol every model (provider or baseline) implements.

A model turns a task into a page the judge can serve: a folder used as the web root and an
entry path in it. Models never judge; the judge never generates.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Protocol, runtime_checkable

from ..browser.host import ASSETS_URL_PREFIX, PageBundle  # noqa: F401 (re-exported)
from ..records import GenerationInfo, Task

#: The literal prefix the published prompt asks models to put before every asset file name.
PLACEHOLDER_PREFIX = "__PLACEHOLDER_ASSETS_BASE_DIR__/"
@dataclass
class Generation:
    status: str  # "ok" | "generation_error"
    page: PageBundle | None = None
    info: GenerationInfo = field(default_factory=GenerationInfo)
    error: str | None = None


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


@runtime_checkable
class Model(Protocol):
    name: str

    async def generate(self, task: Task, out_dir: Path, options: GenerationOptions) -> Generation:
        """Write the page for ``task`` under ``out_dir`` (pages/<model>/<task_id>/)."""
        ...

    def describe(self) -> dict[str, Any]:
        """How this model was configured (for run.json)."""
        ...
