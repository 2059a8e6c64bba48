"""Reading a server's context / output limit from its refusal, and the output cap that fits.

Generation asks for ``max_output_tokens`` (default 32,000), clamped to a known hosted model's
limit (``iwrbench.models.pricing``). A model the table does not know, e.g. a 32k-context model
behind vLLM, llama.cpp, SGLang, TGI or Ollama, may refuse that request with a 4xx that states its
limit. ``fit_output_cap`` reads the limit from such a refusal and returns a cap that fits:

- a stated largest output ("supports at most N completion tokens", "N, which is the maximum
  allowed number of output tokens") -> N;
- a context length and the prompt's tokens ("maximum context length is C tokens ... your
  prompt contains P tokens") -> ``C - P - CAP_MARGIN``.

The provider client (``HttpChatClient.complete``) then retries the call once with that cap,
logs it, and the reply records it (``GenerationInfo.max_output_tokens`` and ``output_cap``).
When the prompt alone fills the context, or the limit cannot be read, nothing is retried and
the error says what to change.
"""

from __future__ import annotations

import json
import re
from dataclasses import dataclass
from typing import Any

#: statuses a server uses to refuse a request that does not fit (TGI: 422, some proxies: 413)
FIT_STATUSES = frozenset({400, 413, 422})
#: tokens kept free between prompt + output and the context length (chat templates, counting drift)
CAP_MARGIN = 64

_N = r"`?(\d[\d,]*)`?"

#: the largest output the model accepts, as servers state it
_MAX_OUTPUT = [
    re.compile(r"supports at most " + _N + r" (?:completion|output) tokens", re.I),  # OpenAI
    re.compile(r"max_tokens`?: " + _N + r" > " + _N + r", which is the maximum allowed number of output tokens", re.I),
    re.compile(r"maximum (?:allowed )?(?:number of )?(?:output|completion) tokens (?:is|of) " + _N, re.I),
    re.compile(r"max_(?:completion_)?tokens`? must be (?:less than or equal to|at most|<=) " + _N, re.I),
]
#: the context length
_CONTEXT = [
    re.compile(r"maximum context length (?:is|of) " + _N, re.I),  # vLLM, OpenAI, SGLang
    re.compile(r"exceed context limit: " + _N + r" \+ " + _N + r" > " + _N, re.I),  # Anthropic
    re.compile(r"`inputs` tokens \+ `max_new_tokens` must be <= " + _N, re.I),  # TGI
    re.compile(r"context (?:length|window|size) (?:of|is) " + _N, re.I),
]
#: the prompt's tokens
_PROMPT = [
    re.compile(r"your prompt contains " + _N + r" tokens", re.I),  # vLLM
    re.compile(r"your request has " + _N + r" input tokens", re.I),  # vLLM (V1 engine)
    re.compile(r"\(" + _N + r" in the messages, " + _N + r" in the completion\)", re.I),  # OpenAI, older vLLM
    re.compile(_N + r" tokens from the input messages", re.I),  # SGLang
    re.compile(r"Given: " + _N + r" `inputs` tokens", re.I),  # TGI
    re.compile(r"exceed context limit: " + _N + r" \+", re.I),  # Anthropic
    re.compile(r"prompt (?:contains|has|is) " + _N + r" tokens", re.I),
]
#: words that say the refusal is about length at all (a guard against reading numbers from other errors)
_ABOUT_LENGTH = re.compile(r"context|max_tokens|max_completion_tokens|max_new_tokens|output tokens|completion tokens",
                           re.I)


def _int(s: str) -> int:
    return int(s.replace(",", ""))


@dataclass(frozen=True)
class LimitHint:
    """What a refusal says about the model's limits (None: not said)."""

    max_output: int | None = None
    context: int | None = None
    prompt_tokens: int | None = None


def read_limits(message: str, body: str | None = None) -> LimitHint | None:
    """The limits stated in a refusal's message (and its JSON body), or None when it is not about length."""
    text = f"{message}\n{body or ''}"
    data: Any = None
    if body:
        try:
            data = json.loads(body)
        except ValueError:
            data = None
    err = data.get("error", data) if isinstance(data, dict) else None
    fields = err if isinstance(err, dict) else {}
    if not _ABOUT_LENGTH.search(text) and not ("n_ctx" in fields or fields.get("type") == "exceed_context_size_error"):
        return None
    max_output = context = prompt = None
    for rx in _MAX_OUTPUT:
        m = rx.search(text)
        if m:
            max_output = _int(m.groups()[-1])
            break
    for rx in _CONTEXT:
        m = rx.search(text)
        if m:
            context = _int(m.groups()[-1])
            break
    for rx in _PROMPT:
        m = rx.search(text)
        if m:
            prompt = _int(m.group(1))
            break
    if prompt is None:  # vLLM: "... (total T tokens)" with "you requested R output tokens"
        total = re.search(r"\(total " + _N + r" tokens\)", text, re.I)
        req = re.search(r"you requested " + _N + r" output tokens", text, re.I)
        if total and req:
            prompt = _int(total.group(1)) - _int(req.group(1))
    # llama.cpp: {"error": {"type": "exceed_context_size_error", "n_ctx": C, "n_prompt_tokens": P}}
    if context is None and isinstance(fields.get("n_ctx"), int):
        context = fields["n_ctx"]
    if prompt is None and isinstance(fields.get("n_prompt_tokens"), int):
        prompt = fields["n_prompt_tokens"]
    if max_output is None and context is None:
        return None
    return LimitHint(max_output=max_output, context=context, prompt_tokens=prompt)


@dataclass(frozen=True)
class CapFit:
    """The cap to retry with, and why."""

    cap: int
    reason: str


def fit_output_cap(status: int | None, message: str, body: str | None, sent: int,
                   margin: int = CAP_MARGIN) -> CapFit | str | None:
    """The output cap that fits after a refusal of a request that asked for ``sent`` output tokens.

    Returns a ``CapFit`` to retry with; a string (what to change) when the refusal is about
    length but no smaller cap can help (the prompt alone fills the context, or no number to go
    by); None when the refusal is not about length.
    """
    if status not in FIT_STATUSES:
        return None
    hint = read_limits(message, body)
    if hint is None:
        return None
    caps: list[tuple[int, str]] = []
    if hint.max_output is not None:
        caps.append((hint.max_output, f"the server allows at most {hint.max_output} output tokens"))
    if hint.context is not None and hint.prompt_tokens is not None:
        room = hint.context - hint.prompt_tokens - margin
        if room <= 0 and not caps:
            return (f"the prompt alone ({hint.prompt_tokens} tokens) fills the model's context ({hint.context}): "
                    "send fewer or smaller images (--max-frames, --max-images, --max-image-side) or serve the model "
                    "with a longer context")
        caps.append((room, f"context {hint.context} - prompt {hint.prompt_tokens} - margin {margin}"))
    if not caps:
        return ("the server refused the output cap without saying how much fits: pass a smaller "
                "--max-output-tokens")
    cap, reason = min(caps)
    if cap <= 0 or cap >= sent:
        return None
    return CapFit(cap=cap, reason=reason)
