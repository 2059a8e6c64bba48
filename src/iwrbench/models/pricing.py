"""List prices and output limits of well-known models, and the run's cost budget.

Prices are USD per 1M tokens as the vendors listed them in 2025 (standard tier, no batch or
cache discounts). They go stale: override them per model with ``options.extra["price_in"]``
and ``options.extra["price_out"]``. A model not in the table has an unknown cost (``None``),
never a guessed one. Names match by the longest prefix, after dropping a ``vendor/`` prefix
(``openai/gpt-4o-2024-08-06`` -> ``gpt-4o``).

``max_output`` is the largest ``max_tokens`` the model accepts; a larger request is clamped
to it (the default 32,000 would be rejected by e.g. gpt-4o). The effective value is recorded.
"""

from __future__ import annotations

import threading
from dataclasses import dataclass
from typing import Any


@dataclass(frozen=True)
class ModelInfo:
    prefix: str
    price_in: float | None  # USD per 1M input tokens
    price_out: float | None  # USD per 1M output tokens
    max_output: int | None = None


_TABLE: tuple[ModelInfo, ...] = (
    # OpenAI
    ModelInfo("gpt-4o", 2.50, 10.00, 16384),
    ModelInfo("gpt-4o-mini", 0.15, 0.60, 16384),
    ModelInfo("chatgpt-4o", 5.00, 15.00, 16384),
    ModelInfo("gpt-4.1", 2.00, 8.00, 32768),
    ModelInfo("gpt-4.1-mini", 0.40, 1.60, 32768),
    ModelInfo("gpt-4.1-nano", 0.10, 0.40, 32768),
    ModelInfo("gpt-5", 1.25, 10.00, 128000),
    ModelInfo("gpt-5-mini", 0.25, 2.00, 128000),
    ModelInfo("gpt-5-nano", 0.05, 0.40, 128000),
    ModelInfo("o3", 2.00, 8.00, 100000),
    ModelInfo("o3-mini", 1.10, 4.40, 100000),
    ModelInfo("o4-mini", 1.10, 4.40, 100000),
    ModelInfo("o1", 15.00, 60.00, 100000),
    # Anthropic
    ModelInfo("claude-3-5-sonnet", 3.00, 15.00, 8192),
    ModelInfo("claude-3-5-haiku", 0.80, 4.00, 8192),
    ModelInfo("claude-3-7-sonnet", 3.00, 15.00, 64000),
    ModelInfo("claude-sonnet-4", 3.00, 15.00, 64000),
    ModelInfo("claude-sonnet-4-5", 3.00, 15.00, 64000),
    ModelInfo("claude-opus-4", 15.00, 75.00, 32000),
    ModelInfo("claude-opus-4-1", 15.00, 75.00, 32000),
    ModelInfo("claude-opus-4-5", 5.00, 25.00, 64000),
    ModelInfo("claude-haiku-4-5", 1.00, 5.00, 64000),
)

#: OpenAI models that take ``max_completion_tokens`` instead of ``max_tokens``
REASONING_PREFIXES = ("o1", "o3", "o4", "gpt-5")


def _base_name(name: str) -> str:
    return name.rsplit("/", 1)[-1].lower()


def lookup(name: str) -> ModelInfo | None:
    """The table row whose prefix is the longest match of ``name``, if any."""
    n = _base_name(name)
    best: ModelInfo | None = None
    for row in _TABLE:
        if n == row.prefix or n.startswith(row.prefix + "-") or n.startswith(row.prefix + "@"):
            if best is None or len(row.prefix) > len(best.prefix):
                best = row
    return best


def is_reasoning_model(name: str) -> bool:
    n = _base_name(name)
    return any(n == p or n.startswith(p + "-") for p in REASONING_PREFIXES)


@dataclass(frozen=True)
class Price:
    input_per_m: float
    output_per_m: float

    def cost(self, input_tokens: int | None, output_tokens: int | None) -> float | None:
        if input_tokens is None and output_tokens is None:
            return None
        return ((input_tokens or 0) * self.input_per_m + (output_tokens or 0) * self.output_per_m) / 1e6

    def as_dict(self) -> dict[str, float]:
        return {"usd_per_m_input": self.input_per_m, "usd_per_m_output": self.output_per_m}


def price_for(name: str, extra: dict[str, Any] | None = None) -> Price | None:
    """The price of ``name``: ``extra["price_in"/"price_out"]`` if given, else the table."""
    extra = extra or {}
    row = lookup(name)
    pin = extra.get("price_in", row.price_in if row else None)
    pout = extra.get("price_out", row.price_out if row else None)
    if pin is None or pout is None:
        return None
    return Price(float(pin), float(pout))


def max_output_for(name: str) -> int | None:
    row = lookup(name)
    return row.max_output if row else None


class Budget:
    """The ``--max-cost`` budget shared by every model call of a run (thread- and task-safe).

    A call is allowed while ``spent < max_usd``; calls already in flight when the budget runs
    out finish and are counted, so a run can overshoot by at most the calls in flight (at most
    ``concurrency`` per provider). Calls whose cost is unknown (model not in the price table and
    no ``price_in``/``price_out`` given) cost nothing here; ``unpriced_calls`` counts them.
    ``spent`` may start from what an earlier, resumed run already paid.
    """

    def __init__(self, max_usd: float | None, spent: float = 0.0) -> None:
        self.max_usd = max_usd
        self._spent = float(spent)
        self.calls = 0
        self.unpriced_calls = 0
        self.refused = 0
        self._lock = threading.Lock()

    @property
    def spent(self) -> float:
        with self._lock:
            return self._spent

    @property
    def exhausted(self) -> bool:
        with self._lock:
            return self.max_usd is not None and self._spent >= self.max_usd

    def allow(self) -> bool:
        """May a new call start? Counts a refusal when not."""
        with self._lock:
            if self.max_usd is not None and self._spent >= self.max_usd:
                self.refused += 1
                return False
            return True

    def charge(self, cost_usd: float | None) -> None:
        with self._lock:
            self.calls += 1
            if cost_usd is None:
                self.unpriced_calls += 1
            else:
                self._spent += cost_usd

    def as_dict(self) -> dict[str, Any]:
        with self._lock:
            return {
                "max_usd": self.max_usd,
                "spent_usd": round(self._spent, 6),
                "calls": self.calls,
                "unpriced_calls": self.unpriced_calls,
                "refused": self.refused,
            }
