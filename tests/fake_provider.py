"""Offline test doubles: a local server that speaks a provider's protocol, and a tiny task.

``FakeProviderServer`` listens on 127.0.0.1 (stdlib ``http.server`` in a thread), answers
OpenAI Chat Completions (``POST /v1/chat/completions``) or Anthropic Messages
(``POST /v1/messages``) from a script of replies, and records every request, so tests can
check what a client sent and how it handled 429s, 5xx, slow or malformed replies. Anything
that talks to a provider (generation, an LLM grounder, an MLLM judge) can be tested with it.

``context_tokens=`` / ``max_output_tokens=`` make it a model with limits (a 32k-context model
behind vLLM, llama.cpp ...): a request whose prompt (``prompt_tokens``: text / 4 + a fixed
count per image) plus ``max_tokens`` exceeds the context, or whose ``max_tokens`` exceeds the
largest output, is refused with HTTP 400 in the wording of ``limit_wording`` (``LIMIT_WORDINGS``).

Behaving like the real services (for judges and generation alike):

- ``responder=``: a function of the request body giving the reply text (e.g. a judge that answers each
  prompt); used when the script is empty, before ``default``.
- ``reasoning_tokens=``: the model thinks that many tokens before it answers (OpenAI reasoning
  models always; Anthropic only with ``thinking`` enabled, at most its budget). A request whose
  output cap cannot hold the thinking and the answer gets what the real services give: empty
  content, finish reason ``length`` (``max_tokens`` for Anthropic) and the cap spent as
  reasoning tokens in the usage.
- ``reasoning_model=True`` (OpenAI): refuses ``max_tokens`` and a temperature other than 1 with
  HTTP 400 in OpenAI's words, as its reasoning models do; Anthropic's ``thinking`` is checked as
  the Messages API checks it (budget at least 1024 and below ``max_tokens``, no temperature but 1).
- ``rate_limit_every=N``: every N-th request is refused with HTTP 429, a ``Retry-After`` header
  (``retry_after=``, seconds) and the real error body.
- ``image_limits=True``: images over the provider's documented limits are refused with HTTP 400 (Anthropic, in
  its words: over 5 MB of base64, over 8000 px a side, over 2000 px a side in a request of more than 20 images;
  OpenAI: over 20 MB an image or 50 MB a request, in words of the stand-in's own).

``write_synthetic_task`` writes a small task folder: a video whose frame ``i`` encodes ``i``
in its colour (``frame_index_of`` reads it back), one composite, one asset, a checkpoint.
"""

from __future__ import annotations

import json
import struct
import threading
import time
import zlib
from dataclasses import dataclass, field
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from typing import Any

PATHS = {"openai": "/v1/chat/completions", "anthropic": "/v1/messages"}

#: request body fields the real services document; like them, the fake answers HTTP 400 to any other
#: (OpenAI: "Unrecognized request argument supplied"; Anthropic: "Extra inputs are not permitted")
DOCUMENTED_FIELDS = {
    "openai": frozenset("""model messages max_tokens max_completion_tokens temperature top_p n stream stream_options
        stop presence_penalty frequency_penalty logit_bias logprobs top_logprobs user seed tools tool_choice
        parallel_tool_calls response_format reasoning_effort service_tier store metadata modalities prediction
        audio web_search_options verbosity prompt_cache_key safety_identifier""".split()),
    "anthropic": frozenset("""model messages max_tokens system temperature top_p top_k stop_sequences stream metadata
        tools tool_choice thinking service_tier container mcp_servers""".split()),
}


#: tokens the stand-in counts per image when it emulates a context length
IMAGE_TOKENS = 256
#: how servers word a refusal of a request longer than the model's context (``limit_wording=``)
LIMIT_WORDINGS = ("vllm", "vllm-v1", "openai", "llama.cpp", "sglang", "tgi", "anthropic")


def prompt_tokens(body: Any) -> int:
    """The stand-in's count of a request's prompt: ceil(characters / 4) of its texts, ``IMAGE_TOKENS`` per image."""
    chars = images = 0
    messages = list(body.get("messages") or []) if isinstance(body, dict) else []
    if isinstance(body, dict) and isinstance(body.get("system"), str):
        chars += len(body["system"])
    for m in messages:
        content = m.get("content") if isinstance(m, dict) else None
        if isinstance(content, str):
            chars += len(content)
            continue
        for part in content or []:
            if not isinstance(part, dict):
                continue
            if part.get("type") in ("image_url", "image"):
                images += 1
            elif isinstance(part.get("text"), str):
                chars += len(part["text"])
    return -(-chars // 4) + images * IMAGE_TOKENS


@dataclass
class Scripted:
    """One scripted reply. ``text`` makes a well-formed completion; ``body`` is sent as is."""

    status: int = 200
    text: str | None = None
    body: Any = None  # dict/list -> JSON; str/bytes -> verbatim (e.g. a malformed body)
    headers: dict[str, str] = field(default_factory=dict)
    delay_s: float = 0.0
    usage: tuple[int, int] = (1000, 500)
    stop_reason: str | None = None
    #: when the client asks for a stream: seconds between chunks, and an error event after the first
    chunk_delay_s: float = 0.0
    stream_error: str | None = None  # e.g. "overloaded_error"
    #: tokens spent thinking (reasoning models): with ``reasoning_tokens=`` on the server, the larger wins
    reasoning_tokens: int = 0


@dataclass
class Recorded:
    path: str
    headers: dict[str, str]
    body: Any
    t: float  # time.monotonic() on arrival


def html_reply(body: str = "<h1>Hello</h1>", title: str = "Test") -> str:
    """A model-like reply holding one fenced html block."""
    return (
        "Here is the page.\n\n```html\n<!DOCTYPE html>\n<html><head><title>"
        f"{title}</title></head>\n<body>{body}</body>\n</html>\n```\n"
    )


class FakeProviderServer:
    def __init__(self, protocol: str = "openai", script: list[Scripted] | None = None,
                 default: Scripted | None = None, *, extra_fields: tuple[str, ...] | None = (),
                 context_tokens: int | None = None, max_output_tokens: int | None = None,
                 limit_wording: str | None = None, model_name: str = "tiny-vlm",
                 responder: Any = None, reasoning_tokens: int = 0, reasoning_model: bool = False,
                 rate_limit_every: int | None = None, retry_after: float = 1.0, image_limits: bool = False) -> None:
        """``extra_fields``: body fields accepted beyond the documented ones (an OpenAI-compatible
        server's own, e.g. ``top_k``); None accepts any field. ``context_tokens``,
        ``max_output_tokens``: the served model's limits (None: none), refused with HTTP 400 in
        the wording of ``limit_wording`` (default ``vllm`` for openai, ``anthropic`` for anthropic)."""
        if protocol not in PATHS:
            raise ValueError(f"protocol must be one of {sorted(PATHS)}")
        wording = limit_wording or ("vllm" if protocol == "openai" else "anthropic")
        if wording not in LIMIT_WORDINGS:
            raise ValueError(f"limit_wording must be one of {LIMIT_WORDINGS}")
        self.context_tokens = context_tokens
        self.max_output_tokens = max_output_tokens
        self.responder = responder
        self.reasoning_tokens = int(reasoning_tokens)
        self.reasoning_model = reasoning_model
        self.rate_limit_every = rate_limit_every
        self.retry_after = retry_after
        self.image_limits = image_limits
        #: requests refused with 429 (they are in ``requests`` too), and the bodies of requests answered
        #: with empty content because their output cap could not hold the thinking and the answer
        self.rate_limited: list[Recorded] = []
        self.cut_empty: list[Any] = []
        self.limit_wording = wording
        self.model_name = model_name
        #: requests refused for their length (they are in ``requests`` too)
        self.refused: list[Recorded] = []
        self.protocol = protocol
        self.allowed = None if extra_fields is None else DOCUMENTED_FIELDS[protocol] | set(extra_fields)
        self.script: list[Scripted] = list(script or [])
        self.default = default or Scripted(text=html_reply())
        self.requests: list[Recorded] = []
        #: the most requests being answered at the same time (for concurrency limits)
        self.max_in_flight = 0
        self._in_flight = 0
        self._lock = threading.Lock()
        self._stop = threading.Event()
        self._httpd: ThreadingHTTPServer | None = None
        self._thread: threading.Thread | None = None

    # ------------------------------------------------------------------ lifecycle
    def start(self) -> "FakeProviderServer":
        fake = self

        class Handler(BaseHTTPRequestHandler):
            protocol_version = "HTTP/1.1"

            def log_message(self, *a: Any) -> None:  # quiet
                pass

            def do_POST(self) -> None:  # noqa: N802
                fake._handle(self)

            def do_GET(self) -> None:  # noqa: N802
                fake._send(self, 404, {"error": {"message": "not found"}}, {})

        self._httpd = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self._httpd.daemon_threads = True
        self._httpd.block_on_close = False
        self._thread = threading.Thread(target=self._httpd.serve_forever, kwargs={"poll_interval": 0.05}, daemon=True)
        self._thread.start()
        return self

    def stop(self) -> None:
        self._stop.set()
        if self._httpd is not None:
            self._httpd.shutdown()
            self._httpd.server_close()
            self._httpd = None

    def __enter__(self) -> "FakeProviderServer":
        return self.start()

    def __exit__(self, *exc: Any) -> None:
        self.stop()

    @property
    def port(self) -> int:
        assert self._httpd is not None, "server not started"
        return self._httpd.server_address[1]

    @property
    def base_url(self) -> str:
        """What to give the client as its base URL (OpenAI style ends in /v1)."""
        return f"http://127.0.0.1:{self.port}" + ("/v1" if self.protocol == "openai" else "")

    def push(self, *replies: Scripted) -> None:
        with self._lock:
            self.script.extend(replies)

    # ------------------------------------------------------------------ serving
    def _next(self, body: Any) -> Scripted:
        with self._lock:
            if self.script:
                return self.script.pop(0)
        if self.responder is not None and isinstance(body, dict):
            return Scripted(text=str(self.responder(body)))
        return self.default

    # ------------------------------------------------------------------ real-service rules
    def _refusal(self, body: Any) -> dict[str, Any] | None:
        """The 400 body a real service answers to a request it does not accept, or None."""
        if not isinstance(body, dict):
            return None
        unknown = sorted(set(body) - self.allowed) if self.allowed is not None else []
        if unknown:
            msg = (f"Unrecognized request argument supplied: {unknown[0]}" if self.protocol == "openai"
                   else f"{unknown[0]}: Extra inputs are not permitted")
            return self._error_body(msg, "invalid_request_error", unknown[0])
        if self.image_limits:
            too_big = self._image_refusal(body)
            if too_big is not None:
                return self._error_body(too_big, "invalid_request_error")
        if self.protocol == "openai" and self.reasoning_model:
            if "max_tokens" in body:
                return self._error_body("Unsupported parameter: 'max_tokens' is not supported with this model. "
                                        "Use 'max_completion_tokens' instead.", "invalid_request_error", "max_tokens",
                                        code="unsupported_parameter")
            t = body.get("temperature")
            if t is not None and t != 1:
                return self._error_body(f"Unsupported value: 'temperature' does not support {t} with this model. "
                                        "Only the default (1) value is supported.", "invalid_request_error",
                                        "temperature", code="unsupported_value")
        thinking = body.get("thinking") if self.protocol == "anthropic" else None
        if isinstance(thinking, dict) and thinking.get("type") == "enabled":
            budget = thinking.get("budget_tokens")
            if not isinstance(budget, int) or budget < 1024:
                return self._error_body("thinking.enabled.budget_tokens: Input should be greater than or equal to 1024",
                                        "invalid_request_error")
            if not isinstance(body.get("max_tokens"), int) or body["max_tokens"] <= budget:
                return self._error_body("`max_tokens` must be greater than `thinking.budget_tokens`. Please consult "
                                        "our documentation at https://docs.anthropic.com/en/docs/build-with-claude/"
                                        "extended-thinking#max-tokens-and-context-window-size", "invalid_request_error")
            if body.get("temperature") not in (None, 1):
                return self._error_body("`temperature` may only be set to 1 when thinking is enabled or in "
                                        "interleaved thinking mode. Please consult our documentation at "
                                        "https://docs.anthropic.com/en/docs/build-with-claude/extended-thinking"
                                        "#feature-compatibility", "invalid_request_error")
        return None

    def _image_refusal(self, body: dict[str, Any]) -> str | None:
        """Why the real service would refuse the request's images, or None."""
        import base64
        import io

        from PIL import Image

        found: list[tuple[str, str]] = []  # (where, base64 data)
        for mi, m in enumerate(body.get("messages") or []):
            for pi, part in enumerate(m.get("content") if isinstance(m.get("content"), list) else []):
                if part.get("type") == "image":
                    found.append((f"messages.{mi}.content.{pi}.image.source.base64", part["source"]["data"]))
                elif part.get("type") == "image_url":
                    found.append((f"messages.{mi}.content.{pi}", part["image_url"]["url"].partition(",")[2]))
        total = 0
        for where, data in found:
            raw = base64.b64decode(data)
            total += len(raw)
            with Image.open(io.BytesIO(raw)) as im:
                w, h = im.size
            if self.protocol == "anthropic":
                if len(data) > 5 * 1024 * 1024:
                    return f"{where}: image exceeds 5 MB maximum: {len(data)} bytes > 5242880 bytes"
                if len(found) > 20 and max(w, h) > 2000:
                    return (f"{where}.data: At least one of the image dimensions exceed max allowed size for "
                            "many-image requests: 2000 pixels")
                if max(w, h) > 8000:
                    return f"{where}.data: At least one of the image dimensions exceed max allowed size: 8000 pixels"
            elif len(raw) > 20 * 1024 * 1024:
                return f"{where}: the image is larger than 20 MB ({len(raw)} bytes)"
        if self.protocol == "openai" and total > 50 * 1024 * 1024:
            return f"the request's images are larger than 50 MB in all ({total} bytes)"
        return None

    def _error_body(self, msg: str, etype: str, param: str | None = None, code: str | None = None) -> dict[str, Any]:
        if self.protocol == "anthropic":
            return {"type": "error", "error": {"type": etype, "message": msg}}
        return {"error": {"message": msg, "type": etype, "param": param, "code": code}}

    def _thinking(self, body: Any, s: Scripted) -> int:
        """Tokens this request spends thinking before it answers."""
        want = max(self.reasoning_tokens, s.reasoning_tokens)
        if self.protocol == "anthropic":
            th = body.get("thinking") if isinstance(body, dict) else None
            if not (isinstance(th, dict) and th.get("type") == "enabled"):
                return 0
            return min(want, int(th.get("budget_tokens") or 0))
        return want

    def _think(self, text: str, request: Any, s: Scripted) -> tuple[str, str | None, int, int]:
        """(text, stop reason, output tokens, reasoning tokens) once the thinking is paid for: a cap that
        cannot hold the thinking and the answer leaves the answer empty, as the real services do."""
        thinking = self._thinking(request, s)
        if not thinking:
            return text, s.stop_reason, s.usage[1], 0
        cap = request.get("max_completion_tokens", request.get("max_tokens")) if isinstance(request, dict) else None
        answer = -(-len(text) // 4)
        if isinstance(cap, int) and cap < thinking + answer:
            with self._lock:
                self.cut_empty.append(request)
            return "", "length" if self.protocol == "openai" else "max_tokens", cap, cap
        return text, s.stop_reason, thinking + answer, thinking

    def _completion(self, text: str, request: Any, s: Scripted) -> dict[str, Any]:
        model = request.get("model") if isinstance(request, dict) else None
        text, stop, out_tokens, reasoning = self._think(text, request, s)
        if self.protocol == "openai":
            usage: dict[str, Any] = {"prompt_tokens": s.usage[0], "completion_tokens": out_tokens,
                                     "total_tokens": s.usage[0] + out_tokens}
            if reasoning:
                usage["completion_tokens_details"] = {"reasoning_tokens": reasoning}
            return {
                "id": "chatcmpl-fake", "object": "chat.completion", "model": model,
                "choices": [{"index": 0, "message": {"role": "assistant", "content": text},
                             "finish_reason": stop or "stop"}],
                "usage": usage,
            }
        content: list[dict[str, Any]] = []
        if reasoning:
            content.append({"type": "thinking", "thinking": "Let me look at both pictures.", "signature": "c2ln"})
        if text or not reasoning:
            content.append({"type": "text", "text": text})
        return {
            "id": "msg_fake", "type": "message", "role": "assistant", "model": model,
            "content": content, "stop_reason": stop or "end_turn",
            "usage": {"input_tokens": s.usage[0], "output_tokens": out_tokens},
        }

    def _send(self, h: BaseHTTPRequestHandler, status: int, body: Any, headers: dict[str, str]) -> None:
        data = body if isinstance(body, bytes) else body.encode() if isinstance(body, str) else json.dumps(body).encode()
        try:
            h.send_response(status)
            h.send_header("content-type", "application/json")
            h.send_header("content-length", str(len(data)))
            for k, v in headers.items():
                h.send_header(k, v)
            h.end_headers()
            h.wfile.write(data)
        except (BrokenPipeError, ConnectionResetError):
            pass  # the client gave up (timeout): nothing to do

    def _handle(self, h: BaseHTTPRequestHandler) -> None:
        n = int(h.headers.get("content-length") or 0)
        raw = h.rfile.read(n) if n else b""
        try:
            body: Any = json.loads(raw) if raw else None
        except ValueError:
            body = None
        rec = Recorded(path=h.path, headers={k.lower(): v for k, v in h.headers.items()}, body=body, t=time.monotonic())
        with self._lock:
            self.requests.append(rec)
        if h.path != PATHS[self.protocol]:
            self._send(h, 404, {"error": {"message": f"no route {h.path}"}}, {})
            return
        with self._lock:
            n_req = len(self.requests)
        if self.rate_limit_every and n_req % self.rate_limit_every == 0:
            with self._lock:
                self.rate_limited.append(rec)
            wait = f"{self.retry_after:g}"
            if self.protocol == "openai":
                err = self._error_body(f"Rate limit reached for {self.model_name} on requests per min (RPM): "
                                       f"Limit 3, Used 3, Requested 1. Please try again in {wait}s.",
                                       "requests", code="rate_limit_exceeded")
            else:
                err = self._error_body("This request would exceed the rate limit for your organization of 3 "
                                       "requests per minute. Please try again later.", "rate_limit_error")
            self._send(h, 429, err, {"retry-after": wait})
            return
        refused = self._refusal(body)
        if refused is not None:
            self._send(h, 400, refused, {})
            return
        refusal = self._limit_refusal(body)
        if refusal is not None:
            with self._lock:
                self.refused.append(rec)
            self._send(h, 400, refusal, {})
            return
        s = self._next(body)
        with self._lock:
            self._in_flight += 1
            self.max_in_flight = max(self.max_in_flight, self._in_flight)
        try:
            if s.delay_s and self._stop.wait(s.delay_s):
                return
            self._reply(h, s, body)
        finally:
            with self._lock:
                self._in_flight -= 1

    def _limit_refusal(self, body: Any) -> Any:
        """The 400 body a server with this context / output limit answers to ``body``, or None."""
        if not isinstance(body, dict) or (self.context_tokens is None and self.max_output_tokens is None):
            return None
        req = body.get("max_tokens", body.get("max_completion_tokens"))
        if not isinstance(req, int):
            return None
        p = prompt_tokens(body)
        ctx, cap, w = self.context_tokens, self.max_output_tokens, self.limit_wording
        if cap is not None and req > cap:
            if w == "anthropic":
                msg = (f"max_tokens: {req} > {cap}, which is the maximum allowed number of output tokens "
                       f"for {self.model_name}")
            else:
                msg = (f"max_tokens is too large: {req}. This model supports at most {cap} completion tokens, "
                       f"whereas you provided {req}.")
        elif ctx is not None and p + req > ctx:
            if w == "llama.cpp":
                return {"error": {"code": 400, "message": "the request exceeds the available context size, try "
                                  "increasing it", "type": "exceed_context_size_error",
                                  "n_prompt_tokens": p, "n_ctx": ctx}}
            msg = {
                "vllm": (f"This model's maximum context length is {ctx} tokens. However, you requested {req} output "
                         f"tokens and your prompt contains {p} tokens (total {p + req} tokens). Please reduce the "
                         "length of the input prompt or the requested output tokens."),
                "vllm-v1": (f"'max_tokens' or 'max_completion_tokens' is too large: {req}. This model's maximum "
                            f"context length is {ctx} tokens and your request has {p} input tokens "
                            f"({req} > {ctx} - {p})."),
                "openai": (f"This model's maximum context length is {ctx} tokens. However, you requested {p + req} "
                           f"tokens ({p} in the messages, {req} in the completion). Please reduce the length of "
                           "the messages or completion."),
                "sglang": (f"Requested token count exceeds the model's maximum context length of {ctx} tokens. You "
                           f"requested a total of {p + req} tokens: {p} tokens from the input messages and {req} "
                           "tokens for the completion. Please reduce the number of tokens in the input messages or "
                           "the completion to fit within the limit."),
                "tgi": (f"Input validation error: `inputs` tokens + `max_new_tokens` must be <= {ctx}. "
                        f"Given: {p} `inputs` tokens and {req} `max_new_tokens`"),
                "anthropic": (f"input length and `max_tokens` exceed context limit: {p} + {req} > {ctx}, decrease "
                              "input length or `max_tokens` and try again"),
            }[w]
        else:
            return None
        if w == "vllm":  # vLLM's own error shape (OpenAI-compatible servers vary)
            return {"object": "error", "message": msg, "type": "BadRequestError", "param": None, "code": 400}
        if self.protocol == "anthropic":
            return {"type": "error", "error": {"type": "invalid_request_error", "message": msg}}
        return {"error": {"message": msg, "type": "invalid_request_error", "param": "max_tokens", "code": None}}

    def _reply(self, h: BaseHTTPRequestHandler, s: Scripted, body: Any) -> None:
        if s.body is not None:
            payload = s.body
        elif s.status >= 400:
            payload = {"error": {"type": "error", "message": f"scripted error {s.status}"}}
            if self.protocol == "anthropic":
                payload["type"] = "error"
        elif isinstance(body, dict) and body.get("stream"):
            self._stream(h, s, body)
            return
        else:
            payload = self._completion(s.text or "", body, s)
        self._send(h, s.status, payload, s.headers)

    def _events(self, s: Scripted, request: dict[str, Any]) -> list[tuple[str | None, Any]]:
        text, stop, out_tokens, reasoning = self._think(s.text or "", request, s)
        pieces = [text[i : i + 40] for i in range(0, len(text), 40)] or [""]
        model = request.get("model")
        if self.protocol == "openai":
            ev: list[tuple[str | None, Any]] = [
                (None, {"id": "c", "object": "chat.completion.chunk", "model": model,
                        "choices": [{"index": 0, "delta": {"content": p}, "finish_reason": None}]})
                for p in pieces
            ]
            ev.append((None, {"id": "c", "choices": [{"index": 0, "delta": {}, "finish_reason": stop or "stop"}]}))
            if (request.get("stream_options") or {}).get("include_usage"):
                usage: dict[str, Any] = {"prompt_tokens": s.usage[0], "completion_tokens": out_tokens,
                                         "total_tokens": s.usage[0] + out_tokens}
                if reasoning:
                    usage["completion_tokens_details"] = {"reasoning_tokens": reasoning}
                ev.append((None, {"id": "c", "choices": [], "usage": usage}))
            ev.append((None, "[DONE]"))
            return ev
        ev = [("message_start", {"type": "message_start", "message": {
            "id": "msg_fake", "type": "message", "role": "assistant", "model": model, "content": [],
            "stop_reason": None, "usage": {"input_tokens": s.usage[0], "output_tokens": 1}}})]
        k = 0
        if reasoning:
            ev += [("content_block_start", {"type": "content_block_start", "index": 0,
                                            "content_block": {"type": "thinking", "thinking": ""}}),
                   ("content_block_delta", {"type": "content_block_delta", "index": 0,
                                            "delta": {"type": "thinking_delta", "thinking": "Let me look."}}),
                   ("content_block_delta", {"type": "content_block_delta", "index": 0,
                                            "delta": {"type": "signature_delta", "signature": "c2ln"}}),
                   ("content_block_stop", {"type": "content_block_stop", "index": 0})]
            k = 1
        if text or not reasoning:
            ev.append(("content_block_start", {"type": "content_block_start", "index": k,
                                               "content_block": {"type": "text", "text": ""}}))
            ev += [("content_block_delta", {"type": "content_block_delta", "index": k,
                                            "delta": {"type": "text_delta", "text": p}}) for p in pieces]
            ev.append(("content_block_stop", {"type": "content_block_stop", "index": k}))
        ev += [("message_delta", {"type": "message_delta", "delta": {"stop_reason": stop or "end_turn"},
                                  "usage": {"output_tokens": out_tokens}}),
               ("message_stop", {"type": "message_stop"})]
        return ev

    def _stream(self, h: BaseHTTPRequestHandler, s: Scripted, request: dict[str, Any]) -> None:
        events = self._events(s, request)
        if s.stream_error:
            err = {"type": "error", "error": {"type": s.stream_error, "message": f"scripted {s.stream_error}"}}
            events = events[:1] + [("error" if self.protocol == "anthropic" else None, err)]
        h.close_connection = True
        try:
            h.send_response(s.status)
            h.send_header("content-type", "text/event-stream")
            h.send_header("connection", "close")
            for k, v in s.headers.items():
                h.send_header(k, v)
            h.end_headers()
            for name, data in events:
                if s.chunk_delay_s and self._stop.wait(s.chunk_delay_s):
                    return
                chunk = (f"event: {name}\n" if name else "") + "data: " + (
                    data if isinstance(data, str) else json.dumps(data)) + "\n\n"
                h.wfile.write(chunk.encode())
                h.wfile.flush()
        except (BrokenPipeError, ConnectionResetError):
            pass

    # ------------------------------------------------------------------ inspection
    def content_kinds(self, i: int = -1) -> list[str]:
        """The content of request ``i`` in order, as "text" or "image" per part."""
        kinds: list[str] = []
        for m in self.requests[i].body["messages"]:
            content = m["content"]
            if isinstance(content, str):
                kinds.append("text")
                continue
            for part in content:
                t = part.get("type")
                kinds.append("image" if t in ("image_url", "image") else t)
        return kinds

    def images(self, i: int = -1) -> list[tuple[str, bytes]]:
        """The images of request ``i`` in order, as (mime, decoded bytes)."""
        import base64

        out: list[tuple[str, bytes]] = []
        for m in self.requests[i].body["messages"]:
            if isinstance(m["content"], str):
                continue
            for part in m["content"]:
                if part.get("type") == "image_url":
                    head, _, data = part["image_url"]["url"].partition(",")
                    out.append((head[len("data:"):].split(";")[0], base64.b64decode(data)))
                elif part.get("type") == "image":
                    src = part["source"]
                    out.append((src["media_type"], base64.b64decode(src["data"])))
        return out

    def texts(self, i: int = -1) -> list[str]:
        out: list[str] = []
        for m in self.requests[i].body["messages"]:
            if isinstance(m["content"], str):
                out.append(m["content"])
            else:
                out += [p["text"] for p in m["content"] if p.get("type") == "text"]
        return out


# --------------------------------------------------------------------------- synthetic task


def png_bytes(width: int, height: int, rgb: tuple[int, int, int]) -> bytes:
    """A solid-colour PNG, byte-for-byte the same everywhere (stored, uncompressed deflate)."""
    row = b"\x00" + bytes(rgb) * width
    raw = row * height

    def chunk(kind: bytes, data: bytes) -> bytes:
        return struct.pack(">I", len(data)) + kind + data + struct.pack(">I", zlib.crc32(kind + data) & 0xFFFFFFFF)

    ihdr = struct.pack(">IIBBBBB", width, height, 8, 2, 0, 0, 0)
    return b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", ihdr) + chunk(b"IDAT", zlib.compress(raw, 0)) + chunk(b"IEND", b"")


def frame_colour(i: int) -> tuple[int, int, int]:
    return ((i // 10) % 10 * 25, i % 10 * 25, 128)


def frame_index_of(img: Any) -> int:
    """Read back ``i`` from a decoded frame written by ``write_video`` (a PIL image)."""
    small = img.convert("RGB").resize((1, 1))
    r, g, _ = small.getpixel((0, 0))
    return round(r / 25) * 10 + round(g / 25)


def write_video(path: Path, seconds: float = 10, fps: int = 10, size: tuple[int, int] = (64, 48)) -> Path:
    """An H.264 mp4 of ``seconds * fps`` solid frames; frame ``i`` has ``frame_colour(i)``."""
    import av
    import numpy as np

    path = Path(path)
    path.parent.mkdir(parents=True, exist_ok=True)
    w, h = size
    with av.open(str(path), "w") as container:
        stream = container.add_stream("libx264", rate=fps)
        stream.width, stream.height, stream.pix_fmt = w, h, "yuv420p"
        for i in range(int(round(seconds * fps))):
            arr = np.empty((h, w, 3), np.uint8)
            arr[:, :] = frame_colour(i)
            for packet in stream.encode(av.VideoFrame.from_ndarray(arr, format="rgb24")):
                container.mux(packet)
        for packet in stream.encode():
            container.mux(packet)
    return path


def write_synthetic_task(
    folder: Path,
    *,
    task_id: str = "synthetic",
    seconds: float = 10,
    fps: int = 10,
    size: tuple[int, int] = (64, 48),
    composites: int = 1,
    resolution: str = "1280x720",
):
    """A minimal task folder (video, composites, an asset, a checkpoint, task.json) as a Task."""
    from iwrbench.records import Task

    folder = Path(folder)
    (folder / "stitched_assets").mkdir(parents=True, exist_ok=True)
    (folder / "assets").mkdir(exist_ok=True)
    (folder / "checkpoints").mkdir(exist_ok=True)
    write_video(folder / "video.mp4", seconds, fps, size)
    for k in range(1, composites + 1):
        (folder / "stitched_assets" / f"stitched_image_{k}.png").write_bytes(png_bytes(40, 20, (200, 10 * k, 30)))
    (folder / "assets" / "asset001.png").write_bytes(png_bytes(8, 8, (255, 0, 0)))
    (folder / "checkpoints" / "step_0.png").write_bytes(png_bytes(16, 9, (255, 255, 255)))
    data = {
        "id": task_id,
        "recording_details": {"resolution": resolution},
        "action_sequence": [
            {"type": "Click", "parameters": {"description": "the red button"}, "visual_evaluation_flag": True},
        ],
    }
    (folder / "task.json").write_text(json.dumps(data, indent=1))
    return Task.model_validate(data).bind(folder)


# --------------------------------------------------------------------------- a judge model


def request_texts(body: Any) -> str:
    """Every text of a request body (OpenAI or Anthropic), joined by spaces."""
    out: list[str] = []
    for m in (body.get("messages") or []) if isinstance(body, dict) else []:
        content = m.get("content") if isinstance(m, dict) else None
        if isinstance(content, str):
            out.append(content)
            continue
        out += [p["text"] for p in content or [] if isinstance(p, dict) and isinstance(p.get("text"), str)]
    return " ".join(out)


class JudgeReplies:
    """A ``responder`` that answers the judge's prompts as a judge model would: the grounder's numbered
    list with ``index`` (None: no element), the before/after question with the next of ``verdicts``
    ("Yes", "No" or any raw text; "Yes" once they run out), the rubric with ``Score: <score>/100`` (the
    published format) or five JSON scores (the v1 prompt). It counts what it was asked."""

    def __init__(self, verdicts: list[str] | None = None, score: int = 77, index: int | None = None):
        self.verdicts = list(verdicts or [])
        self.score = score
        self.index = index
        self.asked = {"ground": 0, "assert": 0, "rubric": 0}
        self._lock = threading.Lock()

    def __call__(self, body: Any) -> str:
        text = request_texts(body)
        with self._lock:
            if "Interactive elements, numbered" in text:
                self.asked["ground"] += 1
                return json.dumps({"index": self.index})
            if "Decide whether this statement" in text:
                self.asked["assert"] += 1
                v = self.verdicts.pop(0) if self.verdicts else "Yes"
                if v in ("Yes", "No"):
                    return "```json\n" + json.dumps({"think": "compared the two steps", "result": v}) + "\n```"
                return v
            self.asked["rubric"] += 1
        if "Score: ${" in text:
            return ("Comments:\n-Layout (10 points): similar, 8\n-Elements (15 points): most are there, 11\n"
                    "-Content and Text (40 points): close, 30\n-Style (15 points): 12\n-Overall (20 points): 16\n\n"
                    f"Score: {self.score}/100")
        return json.dumps({"layout": 8, "elements": 11, "content_text": 30, "style": 12, "overall": 16})
