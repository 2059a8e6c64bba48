"""The MODEL argument: a name resolves to a Model. Vendor code is imported only when used.

The chat providers are not listed here: ``models.clients.PROVIDERS`` is their one table (prefix -> the
module that speaks the provider's API), and every ``PREFIX:NAME`` of it is a chat model
(``generate.llm.build_chat_model``). Only what is not a chat model is named below."""

from __future__ import annotations

import importlib
from typing import Any

from ..errors import ModelError
from ..models.base import GenerationOptions, Model
from ..models.clients import PROVIDERS as CHAT_PROVIDERS

#: prefixes that are not chat providers -> "module:attribute" creating the model from the part after the colon
PREFIXED: dict[str, str] = {
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
    return sorted(BASELINES) + [f"{p}:NAME" for p in CHAT_PROVIDERS] + ["replay:DIR"]


def resolve_model(spec: str, options: GenerationOptions | None = None, **kwargs: Any) -> Model:
    """Turn a MODEL argument (``oracle``, ``openai:gpt-4o``, ``replay:DIR`` ...) into a Model."""
    spec = spec.strip()
    if spec in BASELINES:
        return _load(BASELINES[spec])()
    prefix, sep, rest = spec.partition(":")
    if sep and (prefix in CHAT_PROVIDERS or prefix in PREFIXED):
        if not rest:
            raise ModelError(f"model {spec!r}: give a name after '{prefix}:' (e.g. {prefix}:NAME)")
        if prefix in CHAT_PROVIDERS:
            from .llm import build_chat_model

            return build_chat_model(prefix, rest, options=options or GenerationOptions(), **kwargs)
        return _load(PREFIXED[prefix])(rest, options=options or GenerationOptions(), **kwargs)
    raise ModelError(f"unknown model {spec!r}; known: {', '.join(known_models())}")
