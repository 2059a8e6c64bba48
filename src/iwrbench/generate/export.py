"""``iwr prompt``: write what a model is sent for a task, as files a person (or another tool) can open.

The request is built exactly as generation builds it (``prompt.build_request``): the prompt text, then
the asset composites, then the sampled video frames, in that order. Files are numbered in that order so
a sorted listing is the order the model sees.
"""

from __future__ import annotations

import json
import shutil
from pathlib import Path

from ..errors import IwrError
from ..fileio import make_temp_dir, replace_dir
from ..models.base import GenerationOptions
from ..models.chat import ImagePart, TextPart
from ..records import Task
from .prompt import build_request, effective_options, request_manifest

_EXT = {"image/png": ".png", "image/jpeg": ".jpg", "image/webp": ".webp", "image/gif": ".gif"}


#: what ``export_request`` writes into its folder (anything else there is not ours to replace)
_OURS = {"prompt.txt", "request.json", "images"}


def export_request(task: Task, out_dir: Path, options: GenerationOptions | None = None) -> dict:
    """Write ``prompt.txt``, ``images/NNN_<label>.<ext>`` and ``request.json``; returns the manifest.

    Written whole into a folder beside ``out_dir`` and then put in its place, so a second export into the same
    folder leaves no image of the first (a listing is exactly the request); a folder holding anything else is
    refused rather than replaced."""
    options = effective_options(options or GenerationOptions())
    req = build_request(task, options)
    out_dir = Path(out_dir)
    if out_dir.exists():
        if not out_dir.is_dir():
            raise IwrError(f"--out {out_dir}: exists and is not a folder")
        other = sorted(p.name for p in out_dir.iterdir() if p.name not in _OURS)
        if other:
            raise IwrError(f"--out {out_dir}: holds files iwr prompt did not write ({', '.join(other[:3])}); "
                           "choose a new or empty folder")
    out_dir.parent.mkdir(parents=True, exist_ok=True)
    tmp = make_temp_dir(f".{out_dir.name}.tmp-", out_dir.parent)
    try:
        (tmp / "images").mkdir()
        n = 0
        texts = []
        for m in req.messages:
            for p in m.content:
                if isinstance(p, TextPart):
                    texts.append(p.text)
                elif isinstance(p, ImagePart):
                    n += 1
                    ext = _EXT.get(p.mime, ".bin")
                    label = p.label or "image"
                    if label.lower().endswith(ext):  # a composite named like a file: not 'x.png.png'
                        label = label[: -len(ext)]
                    label = "".join(c if c.isalnum() or c in "._-=" else "_" for c in label)[:60]
                    (tmp / "images" / f"{n:03d}_{label}{ext}").write_bytes(p.data)
        (tmp / "prompt.txt").write_text("\n\n".join(texts), encoding="utf-8")
        manifest = request_manifest(req)
        (tmp / "request.json").write_text(json.dumps(manifest, indent=1), encoding="utf-8")
        replace_dir(tmp, out_dir)
    except BaseException:
        shutil.rmtree(tmp, ignore_errors=True)
        raise
    return manifest


__all__ = ["export_request"]
