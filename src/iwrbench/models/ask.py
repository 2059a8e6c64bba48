"""Asking a judge model until its reply can be read (the grounder, the assertion and rubric judges).

A judge reply that cannot be read is never a verdict: ``ask`` sends the request again (fresh, past
the response cache), up to ``attempts`` times in all, then raises ``JudgeError`` with the last reply.
An empty reply cut by the output cap (``stop_reason`` "length" / "max_tokens": a reasoning model
that spent the whole cap thinking) is asked again with twice the cap, up to ``MAX_JUDGE_TOKENS``.
A provider error (after the provider's own retries) is an ``InfraError``: ours, never the page's.
"""

from __future__ import annotations

import dataclasses
from typing import Any, Callable, TypeVar

from ..errors import InfraError, JudgeError
from .chat import ChatReply, ChatRequest

T = TypeVar("T")

#: the largest output cap a judge request is raised to after replies cut empty
MAX_JUDGE_TOKENS = 65536
CUT = ("length", "max_tokens")

#: called after each reply: (attempt, request sent, reply or None, what was read or None, error or None)
Log = Callable[[int, ChatRequest, "ChatReply | None", Any, "str | None"], None]


async def ask(client: Any, request: ChatRequest, read: Callable[[str], T | None], *, attempts: int = 1,
              what: str = "the judge", log: Log | None = None) -> tuple[T, ChatReply]:
    """(what ``read`` made of the first readable reply, that reply)."""
    reply: ChatReply | None = None
    for attempt in range(1, max(1, attempts) + 1):
        fresh = getattr(client, "refresh", None) if attempt > 1 else None
        try:
            reply = await (fresh(request) if callable(fresh) else client.complete(request))
        except Exception as e:  # noqa: BLE001 - any provider failure is ours
            if log:
                log(attempt, request, None, None, str(e)[:300])
            raise InfraError(f"{what}: the judge model failed: {str(e).splitlines()[0][:200] if str(e) else e!r}") from None
        value = read(reply.text or "")
        if log:
            log(attempt, request, reply, value, None)
        if value is not None:
            return value, reply
        if (not (reply.text or "").strip() and reply.stop_reason in CUT and request.max_tokens is not None
                and request.max_tokens < MAX_JUDGE_TOKENS):
            request = dataclasses.replace(request, max_tokens=min(MAX_JUDGE_TOKENS, 2 * request.max_tokens))
    raw = reply.text if reply is not None else ""
    shown = repr(raw[:120]) if raw.strip() else "an empty reply" + (
        f" (stopped: {reply.stop_reason})" if reply is not None and reply.stop_reason else "")
    raise JudgeError(f"{what} gave no readable reply in {max(1, attempts)} attempt(s); the last was {shown}", raw)
