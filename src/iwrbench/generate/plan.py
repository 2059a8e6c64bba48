"""``iwr eval --dry-run``: what a run would send and roughly what it would cost, with no call.

Counts come from the files' headers (video duration and size, composite sizes), so a dry run
of a large suite takes seconds. Token counts are estimates (formulas in
``iwrbench.generate.prompt``); the cost shown is the input side only, plus the worst case
where every reply uses its whole output limit.
"""

from __future__ import annotations

from typing import Any, Iterable

from ..models.base import GenerationOptions
from ..models.clients import PROVIDERS as CHAT_PROVIDERS  # the one table of chat providers
from ..records import Task


def dry_run(
    tasks: Iterable[Task],
    model_spec: str,
    options: GenerationOptions | None = None,
    *,
    check_cache: bool = False,
    **model_kwargs: Any,
) -> dict[str, Any]:
    """Calls, images and estimated input tokens for generating ``tasks`` with ``model_spec``.

    Baselines (anything not ``openai:``/``anthropic:``) make no calls. ``check_cache`` also
    builds each request to count replies already cached (decodes the videos: slower).
    ``model_kwargs`` go to the model's ``create`` (``base_url`` ...).
    """
    import dataclasses

    tasks = list(tasks)
    options = dataclasses.replace(options or GenerationOptions(), dry_run=True)
    prefix, _, name = model_spec.partition(":")
    if prefix not in CHAT_PROVIDERS:
        return {
            "model": model_spec, "tasks": len(tasks), "calls": 0, "cached": None, "images": 0,
            "est_input_tokens": 0, "est_cost_usd": 0.0, "worst_cost_usd": 0.0, "per_task": [],
        }
    from ..generate.registry import resolve_model

    model = resolve_model(model_spec, options, **model_kwargs)
    per_task = [model.plan(t, options, check_cache=check_cache) for t in tasks]  # type: ignore[attr-defined]
    cached = sum(1 for p in per_task if p["cached"])
    calls = len(per_task) - cached
    images = sum(p["images"] for p in per_task if not p["cached"])
    tokens = sum(p["est_input_tokens"] for p in per_task if not p["cached"])
    desc = model.describe()
    price = model.client.price  # type: ignore[attr-defined]
    out_cap = desc["max_output_tokens"]
    return {
        "model": model_spec,
        "tasks": len(tasks),
        "calls": calls,
        "cached": cached if check_cache else None,
        "images": images,
        "est_input_tokens": tokens,
        "token_estimate": model.token_style,  # type: ignore[attr-defined]
        "est_cost_usd": round(price.cost(tokens, 0), 4) if price else None,
        "worst_cost_usd": round(price.cost(tokens, calls * out_cap), 4) if price else None,
        "per_task": per_task,
    }


def format_dry_run(result: dict[str, Any]) -> str:
    """One line for people: ``openai:gpt-4o: 12 calls, 780 images, ~1.1M input tokens ...``."""
    tok = result["est_input_tokens"]
    tok_s = f"{tok / 1e6:.2f}M" if tok >= 1e6 else f"{tok / 1e3:.1f}k" if tok >= 1e3 else str(tok)
    parts = [f"{result['calls']} calls", f"{result['images']} images", f"~{tok_s} input tokens (estimate)"]
    if result.get("cached"):
        parts.append(f"{result['cached']} cached")
    if result.get("est_cost_usd") is not None:
        parts.append(f"~${result['est_cost_usd']:.2f} input, at most ${result['worst_cost_usd']:.2f} with full outputs")
    elif result["calls"]:
        parts.append("cost unknown (no price for this model)")
    return f"{result['model']}: " + ", ".join(parts)
