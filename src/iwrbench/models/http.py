"""What every HTTP provider shares: retries, a concurrency limit per provider, typed errors.

Why these rules:

- Retried: 408, 409, 429, 500, 502, 503, 504, 529 (Anthropic "overloaded"), timeouts and
  connection errors. These say "not now", not "never".
- Not retried: any other 4xx (bad request, bad key, unknown model ...). Repeating them only
  burns time; the error names the status and the server's own message.
- A 200 whose body is not the JSON the protocol promises is not retried either: the call may
  already have been billed, and a proxy that mangles one body usually mangles the next.
- Waits: exponential backoff with jitter (``base * 2**n`` scaled by a random factor in
  [0.5, 1], capped at ``max_s``). A ``Retry-After`` (seconds or an HTTP date) or
  ``retry-after-ms`` header is honoured: the wait is what the server asked for, capped at
  ``max_retry_after_s`` so one bad header cannot stall a run for hours.
- Streams (server-sent events): the timeout applies between chunks, so a long answer that
  keeps coming is never cut; an error event inside a stream (Anthropic's mid-stream
  "overloaded") counts as the status it stands for, and a dropped stream as a connection
  error: the whole call is retried.
- An output cap the model cannot take (a 400 such as vLLM's "maximum context length is 32768
  tokens. However, you requested 32000 output tokens and your prompt contains ...") is read
  and the call is retried once with a cap that fits (``iwrbench.models.context``), logged and
  recorded with the reply.
- A model's kind (a reasoning model takes its cap under another name and no temperature; the largest output
  it takes) is set explicitly (settings ``reasoning``, ``max_output``), else guessed from its name, and in any
  case learned from the server's first refusal that names it: the call is retried once as the server asks, the
  client sends it so from then on, and the reply records what was learned (``ChatReply.learned``). A setting
  given explicitly is never overridden by a refusal.
- Images over the provider's documented limits are downscaled before the call (``iwrbench.models.images``);
  the reply records which (``ChatReply.images``).
- Concurrency: one ``asyncio.Semaphore`` per (provider, base URL) and event loop, held for
  the whole call including its retries, so a provider under pressure is not hit harder. The
  limit holds within one event loop, i.e. per worker process; N processes allow N times it.

``ApiError`` is what a provider raises once it gives up; the generation layer turns it into
a ``generation_error`` whose message starts with ``api:``.
"""

from __future__ import annotations

import asyncio
import dataclasses
import email.utils
import json
import logging
import random
import time
import weakref
from contextlib import asynccontextmanager
from dataclasses import dataclass
from typing import Any, AsyncIterator, Literal

log = logging.getLogger(__name__)

RETRY_STATUSES = frozenset({408, 409, 429, 500, 502, 503, 504, 529})

ErrorKind = Literal["status", "timeout", "connection", "malformed"]


class ApiError(Exception):
    """A provider call that failed for good (after any retries)."""

    def __init__(
        self,
        message: str,
        *,
        provider: str,
        kind: ErrorKind,
        status: int | None = None,
        attempts: int = 1,
        body: str | None = None,
        retry_after: float | None = None,
    ) -> None:
        super().__init__(message)
        self.retry_after = retry_after
        #: set when this error came from the retry with a fitted output cap (see ``HttpChatClient.complete``)
        self.output_cap: dict[str, Any] | None = None
        #: what the client learned of the model from refusals during the failed call (``ChatReply.learned``)
        self.learned: list[dict[str, Any]] | None = None
        self.provider = provider
        self.kind = kind
        self.status = status
        self.attempts = attempts
        self.body = body

    @property
    def retryable(self) -> bool:
        return self.kind in ("timeout", "connection") or (self.kind == "status" and self.status in RETRY_STATUSES)


@dataclass(frozen=True)
class RetryPolicy:
    """How often and how long to wait. ``max_retries`` = extra attempts after the first."""

    max_retries: int = 5
    base_s: float = 1.0
    max_s: float = 60.0
    max_retry_after_s: float = 120.0
    jitter: bool = True

    def backoff(self, retry: int) -> float:
        """Wait before retry number ``retry`` (0-based) when the server gave no hint."""
        d = min(self.max_s, self.base_s * (2**retry))
        return d * random.uniform(0.5, 1.0) if self.jitter else d

    def wait(self, retry: int, retry_after: float | None) -> float:
        if retry_after is not None:
            return min(max(retry_after, 0.0), self.max_retry_after_s)
        return self.backoff(retry)


def parse_retry_after(headers: Any, now: float | None = None) -> float | None:
    """Seconds to wait from ``retry-after-ms`` or ``Retry-After`` (delta seconds or HTTP date)."""
    ms = headers.get("retry-after-ms")
    if ms:
        try:
            return float(ms) / 1000.0
        except ValueError:
            pass
    v = headers.get("retry-after")
    if not v:
        return None
    v = v.strip()
    try:
        return max(0.0, float(v))
    except ValueError:
        pass
    try:
        when = email.utils.parsedate_to_datetime(v)
    except (TypeError, ValueError, IndexError):
        return None
    if when is None:
        return None
    return max(0.0, when.timestamp() - (time.time() if now is None else now))


# --------------------------------------------------------------------------- concurrency

_LIMITS: "weakref.WeakKeyDictionary[asyncio.AbstractEventLoop, dict[str, asyncio.Semaphore]]" = (
    weakref.WeakKeyDictionary()
)


@asynccontextmanager
async def provider_slot(key: str, limit: int) -> AsyncIterator[None]:
    """Hold one of ``limit`` slots for ``key`` (e.g. ``openai https://api.openai.com/v1``).

    Semaphores are per event loop (asyncio primitives belong to the loop they first ran on);
    the first caller of a key fixes its size.
    """
    loop = asyncio.get_running_loop()
    per_loop = _LIMITS.setdefault(loop, {})
    sem = per_loop.get(key)
    if sem is None:
        sem = per_loop[key] = asyncio.Semaphore(max(1, int(limit)))
    async with sem:
        yield


# --------------------------------------------------------------------------- the call


def _server_message(text: str) -> str:
    """The human part of an error body (OpenAI and Anthropic both use {"error": {"message"}})."""
    try:
        data = json.loads(text)
    except (ValueError, TypeError):
        return text.strip()[:300]
    if isinstance(data, dict):
        err = data.get("error", data)
        if isinstance(err, dict):
            msg = err.get("message") or err.get("detail") or err.get("type")
            if msg:
                return str(msg)[:300]
        elif isinstance(err, str):
            return err[:300]
        if "detail" in data:
            return str(data["detail"])[:300]
    return text.strip()[:300]


#: error types sent inside a stream -> the HTTP status they stand for (decides retrying)
_STREAM_ERRORS = {"overloaded_error": 529, "rate_limit_error": 429, "api_error": 500, "timeout_error": 504,
                  "invalid_request_error": 400, "authentication_error": 401, "permission_error": 403,
                  "not_found_error": 404, "request_too_large": 413}


def _malformed(provider: str, url: str, status: int, what: str, text: str, attempts: int) -> ApiError:
    return ApiError(
        f"{provider}: malformed {what} (HTTP {status}) from {url}: {text[:200]!r}",
        provider=provider, kind="malformed", status=status, attempts=attempts, body=text[:4000],
    )


def _parse_body(provider: str, url: str, status: int, text: str, attempts: int) -> dict[str, Any]:
    try:
        data = json.loads(text)
    except ValueError:
        raise _malformed(provider, url, status, "JSON body", text, attempts) from None
    if not isinstance(data, dict):
        raise _malformed(provider, url, status, "JSON body (not an object)", text, attempts)
    return data


async def _read_events(provider: str, url: str, resp: Any, attempts: int) -> list[dict[str, Any]]:
    """Server-sent events as ``{"event": name or None, "data": parsed JSON}``, ``[DONE]`` dropped.

    An error event inside the stream raises ``ApiError`` with the status it stands for, so an
    "overloaded" mid-stream is retried like a 529.
    """
    events: list[dict[str, Any]] = []
    name: str | None = None
    data_lines: list[str] = []

    def dispatch() -> None:
        nonlocal name, data_lines
        raw = "\n".join(data_lines)
        ev, name, data_lines = name, None, []
        if not raw or raw.strip() == "[DONE]":
            return
        try:
            data = json.loads(raw)
        except ValueError:
            raise _malformed(provider, url, resp.status_code, "event in the stream", raw, attempts) from None
        err = data.get("error") if isinstance(data, dict) else None
        if ev == "error" or (isinstance(data, dict) and data.get("type") == "error") or (err and "choices" not in data):
            etype = err.get("type") if isinstance(err, dict) else None
            msg = (err.get("message") if isinstance(err, dict) else err) or raw[:300]
            status = _STREAM_ERRORS.get(etype or "", 500)
            raise ApiError(f"{provider}: error in the stream from {url}: {msg}", provider=provider,
                           kind="status", status=status, attempts=attempts, body=raw[:4000])
        events.append({"event": ev, "data": data})

    async for line in resp.aiter_lines():
        if not line:
            dispatch()
        elif line.startswith(":"):
            continue  # comment / keep-alive
        else:
            field, _, value = line.partition(":")
            value = value[1:] if value.startswith(" ") else value
            if field == "event":
                name = value
            elif field == "data":
                data_lines.append(value)
    dispatch()
    return events


async def post_json(
    *,
    provider: str,
    url: str,
    headers: dict[str, str],
    body: dict[str, Any],
    timeout_s: float,
    retry: RetryPolicy,
    limit_key: str,
    concurrency: int,
    stream: bool = False,
) -> tuple[dict[str, Any] | list[dict[str, Any]], int]:
    """POST ``body`` as JSON; return (the reply, number of HTTP requests sent).

    The reply is the parsed JSON object, or with ``stream`` the list of server-sent events
    (a server that answers a stream request with plain JSON gives the JSON object). With
    ``stream`` the timeout applies between chunks, so a long answer that keeps coming is
    not cut. Raises ``ApiError`` when the call cannot succeed (see the module docstring).
    """
    import httpx  # a core dependency, imported here to keep ``import iwrbench`` light

    payload = json.dumps(body).encode("utf-8")
    hdrs = {"content-type": "application/json", **headers}
    if stream:
        hdrs.setdefault("accept", "text/event-stream")
    timeout = httpx.Timeout(timeout_s, connect=min(timeout_s, 30.0))
    attempts = 0
    last: ApiError | None = None

    async def attempt(client: Any) -> Any:
        async with client.stream("POST", url, content=payload, headers=hdrs) as resp:
            if resp.status_code >= 400:
                text = (await resp.aread()).decode("utf-8", "replace")
                raise ApiError(
                    f"{provider}: HTTP {resp.status_code} from {url}: {_server_message(text)}",
                    provider=provider, kind="status", status=resp.status_code, attempts=attempts,
                    body=text[:4000], retry_after=parse_retry_after(resp.headers),
                )
            if stream and "text/event-stream" in resp.headers.get("content-type", ""):
                return await _read_events(provider, url, resp, attempts)
            text = (await resp.aread()).decode("utf-8", "replace")
            return _parse_body(provider, url, resp.status_code, text, attempts)

    async with provider_slot(limit_key, concurrency):
        async with httpx.AsyncClient(timeout=timeout) as client:
            for n in range(retry.max_retries + 1):
                attempts += 1
                try:
                    return await attempt(client), attempts
                except httpx.TimeoutException as e:
                    last = ApiError(
                        f"{provider}: no reply within {timeout_s:g}s from {url} ({type(e).__name__})",
                        provider=provider, kind="timeout", attempts=attempts,
                    )
                except httpx.TransportError as e:
                    last = ApiError(
                        f"{provider}: cannot reach {url}: {type(e).__name__}: {e}",
                        provider=provider, kind="connection", attempts=attempts,
                    )
                except ApiError as e:
                    last = e
                assert last is not None
                if not last.retryable or n >= retry.max_retries:
                    break
                wait = retry.wait(n, last.retry_after)
                log.info("%s; retry %d/%d in %.2fs", last, n + 1, retry.max_retries, wait)
                await asyncio.sleep(wait)
    assert last is not None
    last.attempts = attempts
    if attempts > 1:
        last.args = (f"{last.args[0]} (gave up after {attempts} attempts)",)
    raise last


# --------------------------------------------------------------------------- provider base


class HttpChatClient:
    """A ``ChatClient`` over one vendor's HTTP API; subclasses give the wire format.

    Subclasses set ``provider`` and implement ``endpoint``, ``headers``, ``body`` and
    ``parse``. ``price`` (``iwrbench.models.pricing.Price``) fills ``Usage.cost_usd``.
    """

    provider: str = "http"
    #: what the provider accepts as images (``iwrbench.models.images.LIMITS``); None: not checked
    image_limits: Any = None

    def __init__(
        self,
        model: str,
        *,
        base_url: str,
        api_key: str | None = None,
        timeout_s: float = 600.0,
        retry: RetryPolicy | None = None,
        concurrency: int = 4,
        price: Any = None,
        max_output: int | None = None,
        stream: bool = False,
        explicit: frozenset[str] = frozenset(),
    ) -> None:
        self.model = model
        self.base_url = base_url.rstrip("/")
        self.api_key = api_key
        self.timeout_s = float(timeout_s)
        self.retry = retry or RetryPolicy()
        self.concurrency = int(concurrency)
        self.price = price
        self.max_output = max_output
        self.stream = bool(stream)
        self.name = f"{self.provider}:{model}"
        #: the settings of the model's kind given explicitly (never overridden by what a refusal says)
        self.explicit = frozenset(explicit)
        #: what was learned from refusals so far, by setting (``learn``)
        self.learned: dict[str, Any] = {}

    # -- wire format (subclasses)
    def endpoint(self) -> str:
        raise NotImplementedError

    def headers(self) -> dict[str, str]:
        raise NotImplementedError

    def body(self, request: Any) -> dict[str, Any]:
        raise NotImplementedError

    def parse(self, data: dict[str, Any]) -> Any:
        raise NotImplementedError

    def parse_events(self, events: list[dict[str, Any]]) -> Any:
        """A streamed reply (server-sent events, see ``post_json``) as one ``ChatReply``."""
        raise NotImplementedError

    def learn(self, error: ApiError) -> dict[str, Any] | None:
        """What a refusal says about the model's kind that the client can change, changed: {"setting", "value",
        "server_message"}; None when it says nothing the client can act on (the provider's subclass reads it)."""
        return None

    # -- shared
    def effective_max_tokens(self, requested: int | None) -> int | None:
        if requested is None:
            return None
        return min(requested, self.max_output) if self.max_output else requested

    def sent_cap(self, request: Any) -> int | None:
        """The output cap the request's body carries (None: none is sent)."""
        return self.effective_max_tokens(request.max_tokens)

    def cache_identity(self) -> dict[str, Any]:
        """What, besides the request, decides the reply (part of the cache key)."""
        return {"provider": self.provider, "model": self.model, "base_url": self.base_url}

    def describe(self) -> dict[str, Any]:
        return {
            "provider": self.provider,
            "model": self.model,
            "base_url": self.base_url,
            "max_output_tokens_cap": self.max_output,
            "explicit": sorted(self.explicit),
            "price": self.price.as_dict() if self.price is not None else None,
            # how, not what: these do not change what the model is sent or answers
            "runtime": {
                "timeout_s": self.timeout_s,
                "retries": self.retry.max_retries,
                "concurrency": self.concurrency,
                "stream": self.stream,
            },
        }

    async def complete(self, request: Any) -> Any:
        """Answer ``request``. A refusal that names the model's kind (``learn``) is retried once as the server asks,
        and so is one that refuses the output cap as too large for the model (``iwrbench.models.context``); the
        reply's ``max_tokens``, ``output_cap`` and ``learned`` say what was sent and learned."""
        from .context import CapFit, fit_output_cap, read_limits

        calls = 0
        learned: list[dict[str, Any]] = []
        note: dict[str, Any] | None = None
        while True:
            sent = self.sent_cap(request)
            try:
                reply = await self._complete_once(request)
                break
            except ApiError as e:
                calls += e.attempts
                lesson = self.learn(e) if e.kind == "status" and len(learned) < 3 else None
                if lesson is not None:
                    learned.append(lesson)
                    log.warning("%s: the server refused the request (%s); from now on %s = %r", self.name,
                                lesson["server_message"][:200], lesson["setting"], lesson["value"])
                    continue
                fit = (fit_output_cap(e.status, str(e), e.body, sent) if e.kind == "status" and sent is not None
                       and note is None else None)
                if isinstance(fit, str):
                    e.args = (f"{e.args[0]} ({fit})",)
                if not isinstance(fit, CapFit):
                    e.attempts = calls
                    e.output_cap = note
                    e.learned = learned or None
                    raise
                note = {"requested": sent, "sent": fit.cap, "reason": fit.reason,
                        "server_message": _server_message(e.body or "") or str(e)}
                log.info("%s: the server refused max_tokens %d (%s); retrying once with %d (%s)",
                         self.name, sent, note["server_message"][:200], fit.cap, fit.reason)
                hint = read_limits(str(e), e.body)
                if hint is not None and hint.max_output == fit.cap and "max_output" not in self.explicit:
                    self.max_output = self.learned["max_output"] = fit.cap  # the model's own limit, from now on
                    learned.append({"setting": "max_output", "value": fit.cap,
                                    "server_message": note["server_message"]})
                request = dataclasses.replace(request, max_tokens=fit.cap)
        reply.calls += calls
        reply.max_tokens = sent
        reply.output_cap = note
        reply.learned = learned or None
        return reply

    async def _complete_once(self, request: Any) -> Any:
        from .images import fit_images

        url = self.endpoint()
        request, fitted = fit_images(request, self.image_limits)
        if fitted:
            log.warning("%s: %d image(s) downscaled to the provider's limits: %s", self.name, len(fitted),
                        "; ".join(f"#{c['index']} {c['before'][0]}x{c['before'][1]} -> {c['after'][0]}x{c['after'][1]} "
                                  f"({c['why']})" for c in fitted))
        data, attempts = await post_json(
            provider=self.provider,
            url=url,
            headers=self.headers(),
            body=self.body(request),
            timeout_s=self.timeout_s,
            retry=self.retry,
            limit_key=f"{self.provider} {self.base_url}",
            concurrency=self.concurrency,
            stream=self.stream,
        )
        try:
            reply = self.parse_events(data) if isinstance(data, list) else self.parse(data)
        except ApiError as e:
            e.attempts = attempts
            raise
        except (KeyError, IndexError, TypeError, AttributeError, ValueError) as e:
            raise ApiError(
                f"{self.provider}: unexpected reply shape from {url}: {type(e).__name__}: {e}; "
                f"reply starts {json.dumps(data)[:200]}",
                provider=self.provider, kind="malformed", attempts=attempts, body=json.dumps(data)[:4000],
            ) from None
        reply.calls = attempts
        reply.images = fitted or None
        if self.price is not None and reply.usage.cost_usd is None:
            reply.usage.cost_usd = self.price.cost(reply.usage.input_tokens, reply.usage.output_tokens)
        return reply
