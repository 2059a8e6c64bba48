"""``anthropic:NAME``: the Messages API, over plain HTTP with httpx (no SDK needed).

``POST {base_url}/v1/messages`` with ``x-api-key: $ANTHROPIC_API_KEY`` and
``anthropic-version``; images as base64 ``image`` blocks; system text in the top-level
``system`` field. ``base_url`` comes from ``--base-url``, else ``ANTHROPIC_BASE_URL``, else
``https://api.anthropic.com`` (a base URL ending in ``/v1`` is accepted too).

Replies are streamed by default (the API's advice for long outputs: the timeout then applies
between chunks, and a 30,000-token page is not cut by a proxy that drops idle connections);
the setting ``stream: false`` reads them in one piece.

Extended thinking (``-M``/``-J thinking={"type": "enabled", "budget_tokens": N}``): the API
counts the thinking in ``max_tokens`` and refuses a temperature other than 1, so the budget is
added to the requested cap (the answer keeps its room; clamped to the model's largest output) and
no temperature is sent. Thinking blocks in the reply are skipped: the reply is its text.

The API needs an output cap. A request without one (``max_tokens`` None: the published grounder sends none)
gets the model's largest output: the setting ``max_output``, else the price table's, else learned from the
server's refusal of ``UNCAPPED_ASK`` ("max_tokens: N > M, which is the maximum allowed number of output
tokens"), which is then sent from the first call on.

Provider default: images are downscaled to at most 2000 px on their long side, because the
API rejects larger images in a request that carries more than 20 of them (ours carry up to
70). Set ``max_image_side`` to change it; the value used is recorded.
"""

from __future__ import annotations

import os
from typing import Any

from ..errors import ModelError
from .base import GenerationOptions
from .chat import ChatReply, ChatRequest, ImagePart, TextPart, Usage
from .http import ApiError, HttpChatClient, RetryPolicy
from .images import LIMITS
from .pricing import max_output_for, price_for

DEFAULT_BASE_URL = "https://api.anthropic.com"
API_VERSION = "2023-06-01"
#: what this provider changes in the generation inputs unless the user set it
PROVIDER_DEFAULTS: dict[str, Any] = {"max_image_side": 2000}
#: the cap asked of a model whose largest output is not known, when a request sets none: more than any model
#: takes, so the server states the model's own, which is learned
UNCAPPED_ASK = 1_000_000


def thinking_budget(thinking: Any) -> int | None:
    """The budget of an enabled ``thinking`` setting, else None."""
    if isinstance(thinking, dict) and thinking.get("type") == "enabled" and isinstance(thinking.get("budget_tokens"), int):
        return int(thinking["budget_tokens"])
    return None


class AnthropicClient(HttpChatClient):
    provider = "anthropic"
    image_limits = LIMITS["anthropic"]

    def __init__(
        self,
        model: str,
        *,
        base_url: str | None = None,
        api_key: str | None = None,
        api_version: str = API_VERSION,
        stream: bool = True,
        max_output: int | None = None,
        reasoning: bool | None = None,
        **kw: Any,
    ) -> None:
        base_url = base_url or os.environ.get("ANTHROPIC_BASE_URL") or DEFAULT_BASE_URL
        api_key = api_key if api_key is not None else os.environ.get("ANTHROPIC_API_KEY")
        if reasoning is not None:
            raise ModelError(f"anthropic:{model}: the setting reasoning is OpenAI's; a Claude model thinks when asked "
                             "with thinking={\"type\": \"enabled\", \"budget_tokens\": N}")
        if max_output is not None and (isinstance(max_output, bool) or not isinstance(max_output, int) or max_output < 1):
            raise ModelError(f"anthropic:{model}: max_output must be a positive number of tokens, got {max_output!r}")
        super().__init__(model, base_url=base_url, api_key=api_key, stream=stream,
                         max_output=max_output if max_output is not None else max_output_for(model),
                         explicit=frozenset({"max_output"} if max_output is not None else ()), **kw)
        self.api_version = api_version

    def sent_cap(self, request: ChatRequest) -> int | None:
        """The request's cap within the model's largest output; with none requested, the largest output itself (or
        ``UNCAPPED_ASK`` when it is not known yet: the refusal states it)."""
        if request.max_tokens is None:
            return self.max_output or UNCAPPED_ASK
        return self.effective_max_tokens(request.max_tokens)

    @property
    def is_vendor(self) -> bool:
        return self.base_url == DEFAULT_BASE_URL

    def endpoint(self) -> str:
        if self.base_url.endswith("/v1"):
            return f"{self.base_url}/messages"
        return f"{self.base_url}/v1/messages"

    def headers(self) -> dict[str, str]:
        h = {"anthropic-version": self.api_version}
        if self.api_key:
            h["x-api-key"] = self.api_key
        elif self.is_vendor:
            raise ModelError(f"{self.name}: set ANTHROPIC_API_KEY (or use --base-url for a local server)")
        return h

    def describe(self) -> dict[str, Any]:
        return {**super().describe(), "api_version": self.api_version}

    @staticmethod
    def _block(p: TextPart | ImagePart) -> dict[str, Any]:
        if isinstance(p, TextPart):
            return {"type": "text", "text": p.text}
        return {"type": "image", "source": {"type": "base64", "media_type": p.mime, "data": p.b64()}}

    def body(self, request: ChatRequest) -> dict[str, Any]:
        system: list[str] = []
        messages: list[dict[str, Any]] = []
        for m in request.messages:
            if m.role == "system":
                if any(isinstance(p, ImagePart) for p in m.content):
                    raise ModelError(f"{self.name}: images are not allowed in the system prompt")
                system.append("".join(p.text for p in m.content if isinstance(p, TextPart)))
            else:
                messages.append({"role": m.role, "content": [self._block(p) for p in m.content]})
        body: dict[str, Any] = {
            "model": self.model,
            "max_tokens": self.sent_cap(request),
            "temperature": request.temperature,
            "messages": messages,
        }
        if system:
            body["system"] = "\n\n".join(system)
        if self.stream:
            body["stream"] = True
        body.update(request.extra)
        budget = thinking_budget(body.get("thinking"))
        if budget is not None:
            body.pop("temperature", None)  # only 1 is allowed with thinking: leave it to the API
            asked = self.sent_cap(request) if request.max_tokens is None else request.max_tokens + budget
            cap = self.effective_max_tokens(asked) or asked
            if cap <= budget:
                raise ModelError(f"{self.name}: a thinking budget of {budget} tokens leaves no room for the answer "
                                 f"under the model's output limit of {cap}")
            body["max_tokens"] = cap
        return body

    def parse_events(self, events: list[dict[str, Any]]) -> ChatReply:
        text: list[str] = []
        usage: dict[str, Any] = {}
        stop = None
        for e in events:
            d = e["data"]
            kind = d.get("type") or e["event"]
            if kind == "message_start":
                usage.update((d.get("message") or {}).get("usage") or {})
            elif kind == "content_block_delta":
                delta = d.get("delta") or {}
                if delta.get("type") == "text_delta":
                    text.append(delta.get("text", ""))
            elif kind == "message_delta":
                stop = (d.get("delta") or {}).get("stop_reason") or stop
                usage.update({k: v for k, v in (d.get("usage") or {}).items() if v is not None})
        if not any((e["data"].get("type") or e["event"]) == "message_start" for e in events):
            raise ApiError(f"{self.provider}: the stream has no message_start", provider=self.provider, kind="malformed")
        return self.parse({"content": [{"type": "text", "text": "".join(text)}], "usage": usage, "stop_reason": stop})

    def parse(self, data: dict[str, Any]) -> ChatReply:
        if data.get("type") == "error" or "content" not in data:
            err = data.get("error")
            msg = (err.get("message") if isinstance(err, dict) else err) or "no 'content' in the reply"
            raise ApiError(f"{self.provider}: {msg}", provider=self.provider, kind="malformed")
        text = "".join(b.get("text", "") for b in data["content"] if isinstance(b, dict) and b.get("type") == "text")
        usage = data.get("usage") or {}
        inp = usage.get("input_tokens")
        if inp is not None:
            inp += (usage.get("cache_creation_input_tokens") or 0) + (usage.get("cache_read_input_tokens") or 0)
        return ChatReply(
            text=text,
            usage=Usage(input_tokens=inp, output_tokens=usage.get("output_tokens")),
            raw=data,
            stop_reason=data.get("stop_reason"),
        )


def client_factory(name: str, base_url: str | None = None, api_key: str | None = None):
    """How ``anthropic:NAME``'s client is made from a model's settings (``models.clients.make_client``)."""

    def client(settings: dict[str, Any], options: GenerationOptions, retry: RetryPolicy) -> AnthropicClient:
        return AnthropicClient(
            name,
            base_url=base_url,
            api_key=api_key,
            api_version=settings.get("anthropic_version", API_VERSION),
            stream=bool(settings.get("stream", True)),
            max_output=settings.get("max_output"),
            reasoning=settings.get("reasoning"),
            timeout_s=options.timeout_s,
            retry=retry,
            concurrency=int(settings.get("concurrency", options.concurrency)),
            price=price_for(name, settings),
        )

    return client
