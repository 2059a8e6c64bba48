"""The visual backends by name (``get_visual``): the offline default (``blocks``), DINOv2 and the other candidates.

Above every backend's module (``_visual``'s own, ``_blocks``, ``_dino``): a registry that names them, so no
backend module imports the registry or another backend's module to be built.
"""

from __future__ import annotations

from typing import Any, Callable

from iwrbench.metrics._component import build
from iwrbench.metrics import _visual as v
from iwrbench.metrics._visual import VisualBackend

DEFAULT_VISUAL = "blocks"


def hog_colour() -> v.ComboBackend:
    """The offline default: structure x colour. The product keeps a blank page at 0 (no structure)
    and makes a restyled page lose what its colours changed, while a small shift costs little."""
    return v.ComboBackend("hog-colour", [(v.GradHistBackend(), 1.0), (v.ColourLayoutBackend(), 1.0)], mode="product")


def _blocks(**kw: Any) -> VisualBackend:
    from iwrbench.metrics._blocks import BlocksBackend

    return BlocksBackend(**kw)


def _dinov2(**kw: Any) -> VisualBackend:
    from iwrbench.metrics._dino import Dinov2Backend

    return Dinov2Backend(**kw)


VISUAL_BACKENDS: dict[str, Callable[..., VisualBackend]] = {
    "blocks": _blocks,
    "hog-colour": hog_colour,
    "hog": v.GradHistBackend,
    "colour": v.ColourLayoutBackend,
    "edges": v.EdgeF1Backend,
    "ssim": v.SsimBackend,
    "phash": v.PHashBackend,
    "hog-edges": lambda: v.ComboBackend("hog-edges", [(v.GradHistBackend(), 1.0), (v.EdgeF1Backend(), 1.0)]),
    "dinov2": _dinov2,
}


def get_visual(name: str | None = None, **kwargs: Any) -> VisualBackend:
    """The visual backend called ``name`` (None: the offline default, ``"blocks"``).

    Raises ``ComponentMissing`` when the backend cannot run here, with the reason and the fix.
    """
    key = DEFAULT_VISUAL if name is None else name.lower()
    if key in ("dino", "dinov2-base"):
        key = "dinov2"
    return build("visual backend", VISUAL_BACKENDS, key, name, **kwargs)
