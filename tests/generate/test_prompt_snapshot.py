"""Snapshot of exactly what a model is sent for a small synthetic task.

Any change to the prompt, the order or number of images, their labels and sizes, the
sampling options or either provider's wire format fails this test. If the change is meant,
regenerate the snapshot and review its diff:

    IWR_UPDATE_SNAPSHOTS=1 .venv/bin/python -m pytest tests/generate/test_prompt_snapshot.py

Frames are recorded by label, type and size, not by their bytes: the synthetic video is
encoded at test time and another libx264/libjpeg build may change bytes, not content.
Composites are byte-stable (written uncompressed) and recorded by sha256.
"""

from __future__ import annotations

import json
import os
from pathlib import Path

import pytest

from iwrbench.generate import build_request, describe_options, load_prompt, request_manifest
from iwrbench.models.anthropic import AnthropicClient
from iwrbench.models.base import GenerationOptions
from iwrbench.models.openai import OpenAIClient

SNAPSHOT = Path(__file__).parent / "snapshots" / "iwr-v1.request.json"
UPDATE = os.environ.get("IWR_UPDATE_SNAPSHOTS") == "1"
#: the options that change what is sent (not how: timeouts, retries, concurrency)
SENT = ("fps", "max_frames", "max_images", "max_image_side", "temperature", "max_output_tokens",
        "prompt_version", "frame_format")


def _images(request):
    out = []
    manifest = request_manifest(request)
    for part in manifest["messages"][0]["content"]:
        if part["type"] == "image":
            entry = {k: part[k] for k in ("label", "mime", "size")}
            if not part["label"].startswith("frame "):
                entry["sha256"] = part["sha256"]
            out.append(entry)
    return out


def _wire(body, labels):
    """A provider's request body with texts and images replaced by short stand-ins."""
    it = iter(labels)
    for m in body["messages"]:
        parts = m["content"] if isinstance(m["content"], list) else []
        for p in parts:
            if p.get("type") == "text":
                p["text"] = "<prompt>"
            elif p.get("type") == "image_url":
                head = p["image_url"]["url"].split(",", 1)[0]
                p["image_url"]["url"] = f"{head},<{next(it)}>"
            elif p.get("type") == "image":
                p["source"]["data"] = f"<{next(it)}>"
    return body


def current(task) -> dict:
    opts = GenerationOptions()
    request = build_request(task, opts)
    images = _images(request)
    labels = [i["label"] for i in images]
    text = request.messages[0].content[0].text
    openai = OpenAIClient("MODEL", base_url="http://127.0.0.1:1/v1")
    anthropic = AnthropicClient("MODEL", base_url="http://127.0.0.1:1")
    return {
        "prompt_version": opts.prompt_version,
        "prompt_template_sha256": load_prompt(opts.prompt_version).sha256,
        "options": {k: v for k, v in describe_options(opts).items() if k in SENT},
        "prompt_lines": text.splitlines(),
        "order": ["text"] + labels,
        "images": images,
        "wire": {
            "openai": _wire(openai.body(request), labels),
            "anthropic": _wire(anthropic.body(request), labels),
        },
    }


def test_what_a_model_is_sent_matches_the_snapshot(task):
    got = current(task)
    text = json.dumps(got, indent=1, ensure_ascii=False) + "\n"
    if UPDATE or not SNAPSHOT.exists():
        SNAPSHOT.parent.mkdir(parents=True, exist_ok=True)
        SNAPSHOT.write_text(text)
        if not UPDATE:
            pytest.fail(f"no snapshot yet: wrote {SNAPSHOT}; review it and commit it")
        return
    want = json.loads(SNAPSHOT.read_text())
    assert got == want, (
        "what a model is sent changed; if intended, rerun with IWR_UPDATE_SNAPSHOTS=1 and review the diff of "
        f"{SNAPSHOT}"
    )
