"""``iwr prompt``: write what a model is sent for a task, as files a person (or another tool) can open.

The request is built exactly as generation builds it (``prompt.build_request``): the prompt text, then
the asset composites, then the sampled video frames, in that order. Files are numbered in that order so
a sorted listing is the order the model sees.
"""

from __future__ import annotations

import json
from pathlib import Path

from ..models.base import GenerationOptions
from ..models.chat import ImagePart, TextPart
from ..records import Task
from .prompt import build_request, effective_options, request_manifest

_EXT = {"image/png": ".png", "image/jpeg": ".jpg", "image/webp": ".webp", "image/gif": ".gif"}


def export_request(task: Task, out_dir: Path, options: GenerationOptions | None = None) -> dict:
    """Write ``prompt.txt``, ``images/NNN_<label>.<ext>`` and ``request.json``; returns the manifest."""
    options = effective_options(options or GenerationOptions())
    req = build_request(task, options)
    out_dir = Path(out_dir)
    (out_dir / "images").mkdir(parents=True, exist_ok=True)
    n = 0
    texts = []
    for m in req.messages:
        for p in m.content:
            if isinstance(p, TextPart):
                texts.append(p.text)
            elif isinstance(p, ImagePart):
                n += 1
                label = "".join(c if c.isalnum() or c in "._-=" else "_" for c in (p.label or "image"))[:60]
                (out_dir / "images" / f"{n:03d}_{label}{_EXT.get(p.mime, '.bin')}").write_bytes(p.data)
    (out_dir / "prompt.txt").write_text("\n\n".join(texts), encoding="utf-8")
    manifest = request_manifest(req)
    (out_dir / "request.json").write_text(json.dumps(manifest, indent=1), encoding="utf-8")
    return manifest


__all__ = ["export_request"]
