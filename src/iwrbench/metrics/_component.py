"""Metric components (an OCR engine, a visual backend, a rubric): how one is built by name and checked usable
here (``build``), and what a run records of it (``describe``). At the bottom of metrics/, beside the pixel
helpers: every part is built and reported through it."""

from __future__ import annotations

from typing import Any, Callable

from iwrbench.errors import ComponentMissing


def build(kind: str, registry: dict[str, Callable[..., Any]], key: str, asked: str | None, *,
          shown: str | None = None, **kwargs: Any) -> Any:
    """``registry[key](**kwargs)``, refused with ``ComponentMissing`` (naming the ``kind``, what was ``asked``
    and why) when there is no such component or it cannot run here; ``shown``: the name said then (default: the
    component's own)."""
    factory = registry.get(key)
    if factory is None:
        raise ComponentMissing(f"unknown {kind} {asked!r}; known: {', '.join(registry)}")
    component = factory(**kwargs)
    ok, why = component.available()
    if not ok:
        said = shown if shown is not None else component.name
        raise ComponentMissing(f"{kind} {said!r} is not available here: {why}")
    return component


def describe(component: Any) -> dict[str, Any]:
    d = getattr(component, "describe", None)
    return d() if callable(d) else {"name": getattr(component, "name", type(component).__name__)}
