"""A content-addressed cache of model replies: the same request never costs twice.

Key: sha256 of a canonical JSON (sorted keys, no whitespace) of
``{"v": 1, "client": {provider, model, base_url, and wire settings such as
max_tokens_param}, "messages": [...], "temperature", "max_tokens", "extra"}`` where every
image is replaced by ``{"image": sha256 of its bytes, "mime"}`` and every text is kept as is.
So a changed prompt, frame, composite, sampling option or model changes the key, and an API
key or a label (which is not sent) does not. The cache is only ever consulted with the same
inputs, so it is safe to share between runs; delete the folder to forget.

Layout: ``<dir>/<key[:2]>/<key>.json`` holding the reply text, usage, stop reason and a
summary of what was asked. Writes go to a temporary file in the same folder then
``os.replace``: a crash never leaves half an entry, and concurrent writers of the same key
both write the same content. Only replies the provider actually gave are stored (including
ones with no usable page); failed calls are not.

Default folder: ``options.cache_dir``, else ``$IWR_CACHE/responses`` (``IWR_CACHE`` is the
project's cache root, default ``~/.cache/iwrbench``, shared with the suite builder).
"""

from __future__ import annotations

import hashlib
import json
import os
import time
from pathlib import Path
from typing import Any

from ..models.chat import ChatReply, ChatRequest, ImagePart, TextPart, Usage
from ..fileio import atomic_write

KEY_VERSION = 1


def default_cache_dir() -> Path:
    """``$IWR_CACHE/responses`` (the project's cache root, default ``~/.cache/iwrbench``)."""
    return Path(os.environ.get("IWR_CACHE") or Path.home() / ".cache" / "iwrbench") / "responses"


def canonical_request(request: ChatRequest, client: dict[str, Any]) -> dict[str, Any]:
    messages = []
    for m in request.messages:
        parts: list[Any] = []
        for p in m.content:
            if isinstance(p, TextPart):
                parts.append({"text": p.text})
            elif isinstance(p, ImagePart):
                parts.append({"image": p.digest(), "mime": p.mime})
        messages.append({"role": m.role, "content": parts})
    return {
        "v": KEY_VERSION,
        "client": client,
        "messages": messages,
        "temperature": request.temperature,
        "max_tokens": request.max_tokens,
        "extra": request.extra,
    }


def request_key(request: ChatRequest, client: dict[str, Any]) -> str:
    """The cache key of ``request`` sent by the client described by ``client``."""
    blob = json.dumps(canonical_request(request, client), sort_keys=True, separators=(",", ":"), ensure_ascii=False)
    return hashlib.sha256(blob.encode("utf-8")).hexdigest()


class ResponseCache:
    def __init__(self, root: Path | str | None = None) -> None:
        self.root = Path(root).expanduser() if root else default_cache_dir()

    def path(self, key: str) -> Path:
        return self.root / key[:2] / f"{key}.json"

    def get(self, key: str) -> ChatReply | None:
        p = self.path(key)
        try:
            data = json.loads(p.read_text(encoding="utf-8"))
        except FileNotFoundError:
            return None
        except (OSError, ValueError):
            return None  # unreadable entry: treat as a miss; the next put replaces it
        if data.get("key") != key or not isinstance(data.get("text"), str):
            return None
        u = data.get("usage") or {}
        return ChatReply(
            text=data["text"],
            usage=Usage(u.get("input_tokens"), u.get("output_tokens"), u.get("cost_usd")),
            cached=True,
            stop_reason=data.get("stop_reason"),
            calls=0,
            max_tokens=data.get("max_tokens") if isinstance(data.get("max_tokens"), int) else None,
            output_cap=data.get("output_cap") if isinstance(data.get("output_cap"), dict) else None,
            learned=data.get("learned") if isinstance(data.get("learned"), list) else None,
            images=data.get("images") if isinstance(data.get("images"), list) else None,
        )

    def put(self, key: str, reply: ChatReply, about: dict[str, Any] | None = None) -> Path:
        p = self.path(key)
        p.parent.mkdir(parents=True, exist_ok=True)
        entry = {
            "key": key,
            "created": time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime()),
            "about": about or {},
            "text": reply.text,
            "usage": {
                "input_tokens": reply.usage.input_tokens,
                "output_tokens": reply.usage.output_tokens,
                "cost_usd": reply.usage.cost_usd,
            },
            "stop_reason": reply.stop_reason,
            # the cap the answered request carried, when the server made us fit a smaller one
            "max_tokens": reply.max_tokens,
            "output_cap": reply.output_cap,
            # what was changed in sending the answered request (the key is the request as asked)
            "learned": reply.learned,
            "images": reply.images,
        }
        atomic_write(p, json.dumps(entry, ensure_ascii=False))
        return p

    def __contains__(self, key: str) -> bool:
        return self.path(key).is_file()


class CachedClient:
    """A ``ChatClient`` that answers from ``cache`` when it can and fills it otherwise.

    For other callers of a provider (grounder, judges); generation uses the cache directly so
    that the budget is only consulted on a miss.
    """

    def __init__(self, client: Any, cache: ResponseCache, *, body: dict[str, Any] | None = None) -> None:
        """``body``: fields added to every request's body (the model's ``body:`` setting), the request's own
        winning."""
        self.client = client
        self.cache = cache
        self.name = client.name
        self.body = dict(body or {})

    def _with_body(self, request: ChatRequest) -> ChatRequest:
        if not self.body:
            return request
        import dataclasses

        return dataclasses.replace(request, extra={**self.body, **request.extra})

    def describe(self) -> dict[str, Any]:
        d = getattr(self.client, "describe", None)
        out = d() if callable(d) else {"name": self.name}
        return {**out, "body": self.body}

    def _identity(self) -> dict[str, Any]:
        ident = getattr(self.client, "cache_identity", None)
        return ident() if callable(ident) else {"name": self.client.name}

    async def complete(self, request: ChatRequest) -> ChatReply:
        request = self._with_body(request)
        key = request_key(request, self._identity())
        hit = self.cache.get(key)
        if hit is not None:
            return hit
        return await self.refresh(request)

    async def refresh(self, request: ChatRequest) -> ChatReply:
        """Ask the provider again, whatever the cache holds, and keep the new reply (a judge asking again
        after a reply it could not read)."""
        request = self._with_body(request)
        reply = await self.client.complete(request)
        self.cache.put(request_key(request, self._identity()), reply, {"client": self._identity()})
        return reply
