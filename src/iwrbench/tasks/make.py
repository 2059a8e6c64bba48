"""Kept import path: ``record_task`` lives in ``iwrbench.validate.make`` (it records and validates, above the
stages that ``tasks`` sits below). Prefer ``iwrbench.record(...)``."""

from __future__ import annotations

from typing import Any


def __getattr__(name: str) -> Any:
    from ..validate import make

    return getattr(make, name)
