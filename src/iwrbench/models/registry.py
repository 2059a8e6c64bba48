"""The MODEL argument: a name resolves to a Model. Vendor code is imported only when used."""

from __future__ import annotations

import importlib
from typing import Any

from ..errors import ModelError
from .base import GenerationOptions, Model

#: prefix -> "module:function" creating the model from the part after the colon
PROVIDERS: dict[str, str] = {
    "openai": "iwrbench.models.openai:create",
    "anthropic": "iwrbench.models.anthropic:create",
    "replay": "iwrbench.models.baselines:ReplayModel",
}

#: names that need no argument
BASELINES: dict[str, str] = {
    "oracle": "iwrbench.models.baselines:OracleModel",
    "blank": "iwrbench.models.baselines:BlankModel",
    "screenshot": "iwrbench.models.baselines:ScreenshotModel",
    "slideshow": "iwrbench.models.baselines:SlideshowModel",
    # cheat pages (iwrbench.validity.cheats): they must score low
    "cheat-frames": "iwrbench.validity.cheats:FramesCheatModel",
    "cheat-buttons": "iwrbench.validity.cheats:ButtonsCheatModel",
    "cheat-text": "iwrbench.validity.cheats:TextCheatModel",
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


def model_dir_name(name: str) -> str:
    """The folder name of a model in a run folder (published: lower-case, '/' as '__')."""
    out = name.lower().replace("/", "__").replace(":", "_")
    return "".join(c if c.isalnum() or c in "._-" else "_" for c in out)


def resolve_chat_client(spec: str, options: GenerationOptions | None = None, **kwargs: Any):
    """A ChatClient (behind the response cache) for the judge's model-based parts (iwr-bench@1)."""
    from ..generate.cache import CachedClient, ResponseCache, default_cache_dir

    options = options or GenerationOptions()
    model = resolve_model(spec, options, **kwargs)
    client = getattr(model, "client", None)
    if client is None:
        raise ModelError(f"model {spec!r} is not a chat model; the judge needs openai:NAME or anthropic:NAME")
    _, settings = model.resolve()
    # the model's own body fields (-J KEY=VALUE: reasoning_effort, thinking ...) go with every judge request
    return CachedClient(client, ResponseCache(options.cache_dir or default_cache_dir()), body=settings.get("body"))
