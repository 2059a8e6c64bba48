"""The MODEL argument: a name resolves to a Model. Vendor code is imported only when used."""

from __future__ import annotations

import importlib
from typing import Any

from ..errors import ModelError
from ..models.base import GenerationOptions, Model

#: prefix -> "module:function" creating the model from the part after the colon
PROVIDERS: dict[str, str] = {
    "openai": "iwrbench.generate.llm:openai_model",
    "anthropic": "iwrbench.generate.llm:anthropic_model",
    "replay": "iwrbench.generate.baselines:ReplayModel",
}

#: names that need no argument
BASELINES: dict[str, str] = {
    "oracle": "iwrbench.validate.oracle:OracleModel",  # above the stages: it needs the recipes
    "blank": "iwrbench.generate.baselines:BlankModel",
    "screenshot": "iwrbench.generate.baselines:ScreenshotModel",
    "slideshow": "iwrbench.generate.baselines:SlideshowModel",
    # cheat pages (iwrbench.generate.cheats): they must score low
    "cheat-frames": "iwrbench.generate.cheats:FramesCheatModel",
    "cheat-buttons": "iwrbench.generate.cheats:ButtonsCheatModel",
    "cheat-text": "iwrbench.generate.cheats:TextCheatModel",
}


def _load(ref: str):
    mod, _, attr = ref.partition(":")
    return getattr(importlib.import_module(mod), attr)


def known_models() -> list[str]:
    return sorted(BASELINES) + [f"{p}:NAME" for p in ("openai", "anthropic")] + ["replay:DIR"]


def resolve_model(spec: str, options: GenerationOptions | None = None, **kwargs: Any) -> Model:
    """Turn a MODEL argument (``oracle``, ``openai:gpt-4o``, ``replay:DIR`` ...) into a Model."""
    spec = spec.strip()
    if spec in BASELINES:
        return _load(BASELINES[spec])()
    prefix, sep, rest = spec.partition(":")
    if sep and prefix in PROVIDERS:
        if not rest:
            raise ModelError(f"model {spec!r}: give a name after '{prefix}:' (e.g. {prefix}:NAME)")
        return _load(PROVIDERS[prefix])(rest, options=options or GenerationOptions(), **kwargs)
    raise ModelError(f"unknown model {spec!r}; known: {', '.join(known_models())}")
