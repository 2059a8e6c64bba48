"""A provider's chat client from a model spec and its settings: what generation's ``ChatModel`` and the
judge's model-based parts both stand on.

``make_client("openai", NAME, options, **overrides)`` resolves the model's settings (``options.extra``,
its ``per_model`` entry, then ``overrides``), its effective options and retry policy, and builds the
provider's client; a missing API key fails here (unless ``dry_run``). ``resolve_chat_client`` puts
the response cache in front of one, for the judge (iwr-bench@1).
"""

from __future__ import annotations

import importlib
from dataclasses import dataclass
from typing import Any

from ..errors import ModelError
from .base import OPTION_KEYS, SETTING_KEYS, GenerationOptions, effective_options, model_settings
from .http import HttpChatClient, RetryPolicy

#: the chat providers, the one table of them: provider prefix -> its module (``client_factory``,
#: ``PROVIDER_DEFAULTS``); every ``PREFIX:NAME`` here is a model (``generate.registry``) and a judge model
PROVIDERS: dict[str, str] = {"openai": "iwrbench.models.openai", "anthropic": "iwrbench.models.anthropic"}


@dataclass
class MadeClient:
    client: HttpChatClient
    #: the options and settings the client was made with (per-model overrides applied)
    options: GenerationOptions
    settings: dict[str, Any]
    overrides: dict[str, Any]
    provider_defaults: dict[str, Any]


def make_client(provider: str, name: str, options: GenerationOptions | None = None, *, base_url: str | None = None,
                api_key: str | None = None, retry: RetryPolicy | None = None, **overrides: Any) -> MadeClient:
    """The client of ``provider:name``; ``overrides``: per-model settings (any key of ``SETTING_KEYS`` or an
    ``OPTION_KEYS`` option), winning over ``options``."""
    if provider not in PROVIDERS:
        raise ModelError(f"unknown provider {provider!r}; known: {', '.join(PROVIDERS)}")
    module = importlib.import_module(PROVIDERS[provider])
    options = options or GenerationOptions()
    overrides = {k: v for k, v in overrides.items() if v is not None}
    unknown = sorted(set(overrides) - set(SETTING_KEYS) - set(OPTION_KEYS))
    if unknown:
        raise ModelError(f"{provider}:{name}: unknown setting(s) {', '.join(unknown)}")
    spec = f"{provider}:{name}"
    defaults = dict(getattr(module, "PROVIDER_DEFAULTS", {}) or {})
    settings = {**model_settings(options, spec), **overrides}
    eff = effective_options(options, spec, defaults, overrides)
    if retry is None:
        retry = RetryPolicy(
            max_retries=int(eff.retries),
            base_s=float(settings.get("retry_base_s", 1.0)),
            max_s=float(settings.get("retry_max_s", 60.0)),
            max_retry_after_s=float(settings.get("max_retry_after_s", 120.0)),
        )
    client = module.client_factory(name, base_url=base_url, api_key=api_key)(settings, eff, retry)
    if not eff.dry_run:
        client.headers()  # a missing API key fails here, before any task runs
    return MadeClient(client, eff, settings, overrides, defaults)


def resolve_chat_client(spec: str, options: GenerationOptions | None = None, **kwargs: Any):
    """A ChatClient (behind the response cache) for the judge's model-based parts (iwr-bench@1)."""
    from .cache import CachedClient, ResponseCache, default_cache_dir

    options = options or GenerationOptions()
    provider, sep, name = spec.strip().partition(":")
    if not sep or provider not in PROVIDERS or not name:
        raise ModelError(f"model {spec!r} is not a chat model; the judge needs openai:NAME or anthropic:NAME")
    made = make_client(provider, name, options, **kwargs)
    # the model's own body fields (-J KEY=VALUE: reasoning_effort, thinking ...) go with every judge request
    return CachedClient(made.client, ResponseCache(options.cache_dir or default_cache_dir()), body=made.settings.get("body"))
