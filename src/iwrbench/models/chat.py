"""Provider-neutral chat messages, used by generation, the LLM grounder and the MLLM judges.

Providers (``iwrbench.models.openai``, ``iwrbench.models.anthropic``) translate these into
their wire format; nothing else in the package knows a vendor's format.
"""

from __future__ import annotations

import base64
import hashlib
from dataclasses import dataclass, field
from typing import Any, Literal, Protocol, runtime_checkable


@dataclass(frozen=True)
class TextPart:
    text: str
    type: Literal["text"] = "text"


@dataclass(frozen=True)
class ImagePart:
    data: bytes
    mime: str = "image/png"
    label: str | None = None  # e.g. "frame 3 (t=3.0s)" or "stitched_image_1.png": for logs only
    type: Literal["image"] = "image"

    def b64(self) -> str:
        return base64.b64encode(self.data).decode("ascii")

    def digest(self) -> str:
        return hashlib.sha256(self.data).hexdigest()


Part = TextPart | ImagePart


@dataclass
class Message:
    role: Literal["system", "user", "assistant"]
    content: list[Part]


@dataclass
class ChatRequest:
    messages: list[Message]
    temperature: float = 0.0
    #: the output cap; None sends none where the provider allows it (OpenAI-compatible servers; Anthropic's API
    #: needs one: the model's largest output is sent, ``AnthropicClient.sent_cap``)
    max_tokens: int | None = 4096
    #: fields added to the request body as they are (a model's ``body:`` setting); only fields the
    #: provider documents belong here: the real services answer HTTP 400 to unknown ones
    extra: dict[str, Any] = field(default_factory=dict)
    #: what the request is for (purpose, prompt version and digest): kept with the run, never sent
    meta: dict[str, Any] = field(default_factory=dict)

    @property
    def images(self) -> int:
        return sum(isinstance(p, ImagePart) for m in self.messages for p in m.content)


@dataclass
class Usage:
    input_tokens: int | None = None
    output_tokens: int | None = None
    cost_usd: float | None = None


@dataclass
class ChatReply:
    text: str
    usage: Usage = field(default_factory=Usage)
    cached: bool = False
    raw: dict[str, Any] | None = None
    #: why the model stopped, as the provider says it ("stop", "length", "end_turn", "max_tokens")
    stop_reason: str | None = None
    #: HTTP requests this reply took, retries included (0 when it came from a cache)
    calls: int = 1
    #: the output cap (max_tokens) the answered request carried, after clamps and any fit
    max_tokens: int | None = None
    #: set when the server refused the first cap and the call was retried once with one that fits:
    #: {"requested", "sent", "reason", "server_message"} (``iwrbench.models.context``)
    output_cap: dict[str, Any] | None = None
    #: what the client learned of the model from a refusal during this call and now sends (``HttpChatClient.learn``):
    #: [{"setting", "value", "server_message"}]
    learned: list[dict[str, Any]] | None = None
    #: images downscaled to the provider's documented limits before the call (``iwrbench.models.images``)
    images: list[dict[str, Any]] | None = None


@runtime_checkable
class ChatClient(Protocol):
    """Anything that answers a chat request (a provider, or a cache in front of one)."""

    name: str

    async def complete(self, request: ChatRequest) -> ChatReply: ...
