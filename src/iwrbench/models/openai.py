"""``openai:NAME``: the Chat Completions API, from OpenAI or any compatible server.

Spoken over plain HTTP with httpx (no SDK needed): ``POST {base_url}/chat/completions``,
``Authorization: Bearer $OPENAI_API_KEY`` (optional for a local server), images as
``image_url`` data URLs. ``base_url`` comes from ``--base-url``, else ``OPENAI_BASE_URL``,
else ``https://api.openai.com/v1``.

Reasoning models take ``max_completion_tokens`` and refuse a temperature other than the default,
so for them the limit is sent under that name and the temperature is left out (recorded as
``temperature: null``). Which models are: the setting ``reasoning`` (true or false) says so
explicitly; without it the name decides (o1/o3/o4/gpt-5 families), and a server that refuses
``max_tokens`` or the temperature in OpenAI's words ("Unsupported parameter: 'max_tokens' ... Use
'max_completion_tokens' instead", "'temperature' does not support 0 ... Only the default (1)")
teaches the client on its first refusal: the call is retried once as asked and later calls are
sent so (a deployment renamed so its name says nothing, a local server of a reasoning model). The
settings ``max_tokens_param`` and ``send_temperature`` force either half; explicit settings are
never overridden by a refusal. A request without an output cap (``max_tokens`` None) sends none.

Replies are read in one piece by default (not every compatible server streams); the setting
``stream: true`` streams them (``stream_options.include_usage`` asks for the token counts),
so the timeout applies between chunks rather than to the whole answer.
"""

from __future__ import annotations

import os
from typing import Any

from ..errors import ModelError
from .base import GenerationOptions
from .chat import ChatReply, ChatRequest, ImagePart, Message, TextPart, Usage
from .http import ApiError, HttpChatClient, RetryPolicy, _server_message
from .images import LIMITS
from .pricing import is_reasoning_model, max_output_for, price_for

DEFAULT_BASE_URL = "https://api.openai.com/v1"


#: a refusal of the cap's name or of the temperature, in OpenAI's words (Azure OpenAI words them alike)
_WANTS_COMPLETION_TOKENS = ("'max_tokens' is not supported", "use 'max_completion_tokens'")
_REFUSES_COMPLETION_TOKENS = ("unrecognized request argument supplied: max_completion_tokens",
                              "max_completion_tokens: extra inputs are not permitted")
_REFUSES_TEMPERATURE = ("'temperature' does not support", "only the default (1) value is supported")


class OpenAIClient(HttpChatClient):
    provider = "openai"
    image_limits = LIMITS["openai"]

    def __init__(
        self,
        model: str,
        *,
        base_url: str | None = None,
        api_key: str | None = None,
        max_tokens_param: str | None = None,
        send_temperature: bool | None = None,
        image_detail: str | None = None,
        reasoning: bool | None = None,
        max_output: int | None = None,
        **kw: Any,
    ) -> None:
        base_url = base_url or os.environ.get("OPENAI_BASE_URL") or DEFAULT_BASE_URL
        api_key = api_key if api_key is not None else os.environ.get("OPENAI_API_KEY")
        explicit = {k for k, v in (("reasoning", reasoning), ("max_output", max_output),
                                   ("max_tokens_param", max_tokens_param),
                                   ("send_temperature", send_temperature)) if v is not None}
        if reasoning is not None and not isinstance(reasoning, bool):
            raise ModelError(f"{model}: reasoning must be true or false, got {reasoning!r}")
        if max_output is not None and (isinstance(max_output, bool) or not isinstance(max_output, int) or max_output < 1):
            raise ModelError(f"{model}: max_output must be a positive number of tokens, got {max_output!r}")
        super().__init__(model, base_url=base_url, api_key=api_key,
                         max_output=max_output if max_output is not None else max_output_for(model),
                         explicit=frozenset(explicit), **kw)
        #: how the kind was known: "explicit" (the setting), "name" (o1/o3/o4/gpt-5), or "default" (neither)
        self.kind_from = "explicit" if reasoning is not None else "name" if is_reasoning_model(model) else "default"
        if reasoning is None:
            reasoning = is_reasoning_model(model)
        if max_tokens_param is None:
            max_tokens_param = "max_completion_tokens" if reasoning else "max_tokens"
        if max_tokens_param not in ("max_tokens", "max_completion_tokens"):
            raise ModelError(f"max_tokens_param must be max_tokens or max_completion_tokens, got {max_tokens_param!r}")
        self.reasoning = reasoning
        self.max_tokens_param = max_tokens_param
        self.send_temperature = (not reasoning) if send_temperature is None else bool(send_temperature)
        self.image_detail = image_detail
        self._as_made = (self.max_tokens_param, self.send_temperature)

    def learn(self, error: ApiError) -> dict[str, Any] | None:
        """A refusal of ``max_tokens`` (use ``max_completion_tokens``), of ``max_completion_tokens`` (an older server),
        or of the temperature, read from OpenAI's wording: the setting it names is changed (unless explicit)."""
        if error.status != 400:
            return None
        said = _server_message(error.body or "") or str(error)
        text = f"{error} {error.body or ''}".lower()
        change: tuple[str, Any] | None = None
        if any(w in text for w in _WANTS_COMPLETION_TOKENS) and self.max_tokens_param == "max_tokens":
            change = ("max_tokens_param", "max_completion_tokens")
        elif any(w in text for w in _REFUSES_COMPLETION_TOKENS) and self.max_tokens_param == "max_completion_tokens":
            change = ("max_tokens_param", "max_tokens")
        elif any(w in text for w in _REFUSES_TEMPERATURE) and self.send_temperature:
            change = ("send_temperature", False)
        if change is None or change[0] in self.explicit or "reasoning" in self.explicit:
            return None
        setattr(self, change[0], change[1])
        self.learned[change[0]] = change[1]
        return {"setting": change[0], "value": change[1], "server_message": said}

    @property
    def is_vendor(self) -> bool:
        return self.base_url == DEFAULT_BASE_URL

    def endpoint(self) -> str:
        return f"{self.base_url}/chat/completions"

    def headers(self) -> dict[str, str]:
        if not self.api_key:
            if self.is_vendor:
                raise ModelError(f"{self.name}: set OPENAI_API_KEY (or use --base-url for a local server)")
            return {}
        return {"authorization": f"Bearer {self.api_key}"}

    def cache_identity(self) -> dict[str, Any]:
        # the kind as set or guessed when the client was made, not as later learned: a reply does not change when
        # the client learns to word the same request as the server wants it
        max_tokens_param, send_temperature = self._as_made
        return {**super().cache_identity(), "max_tokens_param": max_tokens_param,
                "send_temperature": send_temperature, "image_detail": self.image_detail}

    def describe(self) -> dict[str, Any]:
        return {**super().describe(), "reasoning": self.reasoning, "kind_from": self.kind_from,
                "max_tokens_param": self.max_tokens_param, "send_temperature": self.send_temperature,
                "image_detail": self.image_detail}

    def _part(self, p: TextPart | ImagePart) -> dict[str, Any]:
        if isinstance(p, TextPart):
            return {"type": "text", "text": p.text}
        url: dict[str, Any] = {"url": f"data:{p.mime};base64,{p.b64()}"}
        if self.image_detail:
            url["detail"] = self.image_detail
        return {"type": "image_url", "image_url": url}

    def _message(self, m: Message) -> dict[str, Any]:
        if m.role == "user" and any(isinstance(p, ImagePart) for p in m.content):
            return {"role": m.role, "content": [self._part(p) for p in m.content]}
        if any(isinstance(p, ImagePart) for p in m.content):
            raise ModelError(f"{self.name}: images are only allowed in user messages")
        return {"role": m.role, "content": "".join(p.text for p in m.content if isinstance(p, TextPart))}

    def body(self, request: ChatRequest) -> dict[str, Any]:
        body: dict[str, Any] = {
            "model": self.model,
            "messages": [self._message(m) for m in request.messages],
        }
        cap = self.sent_cap(request)
        if cap is not None:
            body[self.max_tokens_param] = cap
        if self.send_temperature:
            body["temperature"] = request.temperature
        if self.stream:
            body["stream"] = True
            body["stream_options"] = {"include_usage": True}
        body.update(request.extra)
        return body

    def parse_events(self, events: list[dict[str, Any]]) -> ChatReply:
        text: list[str] = []
        finish = None
        usage: dict[str, Any] = {}
        for e in events:
            d = e["data"]
            for choice in d.get("choices") or []:
                delta = choice.get("delta") or {}
                if isinstance(delta.get("content"), str):
                    text.append(delta["content"])
                finish = choice.get("finish_reason") or finish
            usage = d.get("usage") or usage
        if not events:
            raise ApiError(f"{self.provider}: empty stream", provider=self.provider, kind="malformed")
        return ChatReply(
            text="".join(text),
            usage=Usage(input_tokens=usage.get("prompt_tokens"), output_tokens=usage.get("completion_tokens")),
            stop_reason=finish,
        )

    def parse(self, data: dict[str, Any]) -> ChatReply:
        choices = data.get("choices")
        if not choices:
            err = data.get("error")
            msg = (err.get("message") if isinstance(err, dict) else err) or "no 'choices' in the reply"
            raise ApiError(f"{self.provider}: {msg}", provider=self.provider, kind="malformed")
        choice = choices[0]
        message = choice.get("message") or {}
        content = message.get("content")
        if isinstance(content, list):  # some compatible servers answer with parts
            content = "".join(
                c.get("text", "") if isinstance(c, dict) else str(c) for c in content
            )
        text = content if isinstance(content, str) else ""
        if not text and message.get("refusal"):
            text = str(message["refusal"])
        usage = data.get("usage") or {}
        return ChatReply(
            text=text,
            usage=Usage(input_tokens=usage.get("prompt_tokens"), output_tokens=usage.get("completion_tokens")),
            raw=data,
            stop_reason=choice.get("finish_reason"),
        )


#: no option defaults of its own
PROVIDER_DEFAULTS: dict[str, Any] = {}


def client_factory(name: str, base_url: str | None = None, api_key: str | None = None):
    """How ``openai:NAME``'s client is made from a model's settings (``models.clients.make_client``)."""

    def client(settings: dict[str, Any], options: GenerationOptions, retry: RetryPolicy) -> OpenAIClient:
        return OpenAIClient(
            name,
            base_url=base_url,
            api_key=api_key,
            max_tokens_param=settings.get("max_tokens_param"),
            send_temperature=settings.get("send_temperature"),
            image_detail=settings.get("image_detail"),
            reasoning=settings.get("reasoning"),
            max_output=settings.get("max_output"),
            stream=bool(settings.get("stream", False)),
            timeout_s=options.timeout_s,
            retry=retry,
            concurrency=int(settings.get("concurrency", options.concurrency)),
            price=price_for(name, settings),
        )

    return client
