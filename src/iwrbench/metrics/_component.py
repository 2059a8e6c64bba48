"""What a run records of a metric component (an OCR engine, a visual backend, a rubric): its ``describe()``, else
its name. At the bottom of metrics/, beside the pixel helpers: every part reports through it."""

from __future__ import annotations

from typing import Any


def describe(component: Any) -> dict[str, Any]:
    d = getattr(component, "describe", None)
    return d() if callable(d) else {"name": getattr(component, "name", type(component).__name__)}
