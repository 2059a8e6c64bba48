"""The oracle of a task: the site it was recorded on, served again from ``reference/``."""

from __future__ import annotations

import json
from pydantic import ValidationError

from ..browser.host import PageBundle
from ..errors import TaskError
from ..records import SourceSpec, Task
from ..sources import fetch_npm, pypi_env


def source_spec(task: Task) -> SourceSpec:
    f = task.dir / "reference" / "source.json"
    if not f.is_file():
        raise TaskError(f"{f}: missing; task {task.id} has no recorded source, so it has no oracle "
                        "(tasks of the official dataset carry none)")
    try:
        return SourceSpec.model_validate(json.loads(f.read_text()))
    except (json.JSONDecodeError, ValidationError) as e:
        raise TaskError(f"{f}: invalid source record ({str(e).splitlines()[0]})") from None


def oracle_bundle(task: Task) -> PageBundle:
    """How to serve the source site of ``task`` (fetching a pinned package when needed)."""
    spec = source_spec(task)
    ref = task.dir / "reference"
    if spec.kind == "url":
        return PageBundle(root=ref, url=spec.url)
    if spec.kind == "site":
        root = ref / (spec.site or "site")
        if not root.is_dir():
            raise TaskError(f"{root}: missing copy of the source site of task {task.id}")
        return PageBundle(root=root, entry=spec.page)
    if spec.kind == "npm":
        pkg, _ = fetch_npm(spec.package or "", spec.version or "", spec.sha256)
        return PageBundle(root=(pkg / (spec.root or ".")).resolve(), entry=spec.page)
    python = pypi_env(spec.package or "", spec.version or "")
    data = (ref / spec.data) if spec.data else None
    return PageBundle(root=data.parent if data else ref, entry=spec.page, serve_command=spec.serve, data=data,
                      python=python)


def oracle_description(task: Task) -> dict:
    return source_spec(task).model_dump(exclude_none=True)


__all__ = ["oracle_bundle", "source_spec", "oracle_description"]
