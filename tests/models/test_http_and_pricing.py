"""Retry waits, Retry-After parsing, the concurrency slot, the price table and the budget."""

from __future__ import annotations

import asyncio
import email.utils
import threading
import time

import pytest

from iwrbench.models.http import ApiError, RetryPolicy, parse_retry_after, provider_slot
from iwrbench.models.pricing import Budget, is_reasoning_model, lookup, max_output_for, price_for


def test_retry_after_seconds_date_and_ms():
    assert parse_retry_after({"retry-after": "3"}) == 3.0
    assert parse_retry_after({"retry-after": "0.5"}) == 0.5
    assert parse_retry_after({"retry-after-ms": "250", "retry-after": "9"}) == 0.25
    now = time.time()
    date = email.utils.formatdate(now + 30, usegmt=True)
    assert 28 <= parse_retry_after({"retry-after": date}, now=now) <= 31
    assert parse_retry_after({"retry-after": email.utils.formatdate(now - 60, usegmt=True)}, now=now) == 0.0
    assert parse_retry_after({"retry-after": "soon"}) is None
    assert parse_retry_after({}) is None


def test_waits_honour_the_server_and_stay_capped():
    p = RetryPolicy(base_s=1.0, max_s=8.0, max_retry_after_s=20.0)
    assert p.wait(0, 5.0) == 5.0
    assert p.wait(0, 3600.0) == 20.0  # one bad header cannot stall a run
    for n in range(6):
        assert min(8.0, 2**n) * 0.5 <= p.wait(n, None) <= min(8.0, 2**n)


def test_retryable_statuses():
    err = lambda status: ApiError("x", provider="p", kind="status", status=status)  # noqa: E731
    assert all(err(s).retryable for s in (429, 500, 502, 503, 504, 529))
    assert not any(err(s).retryable for s in (400, 401, 403, 404, 422))
    assert ApiError("x", provider="p", kind="timeout").retryable
    assert not ApiError("x", provider="p", kind="malformed").retryable


async def test_provider_slot_limits_each_key():
    running = {"a": 0, "b": 0}
    peak = {"a": 0, "b": 0}

    async def job(key):
        async with provider_slot(f"test-slot {key}", 2):
            running[key] += 1
            peak[key] = max(peak[key], running[key])
            await asyncio.sleep(0.02)
            running[key] -= 1

    await asyncio.gather(*(job(k) for k in "aaaaabbb"))
    assert peak == {"a": 2, "b": 2}


def test_price_table_longest_prefix_and_overrides():
    assert lookup("gpt-4o-2024-08-06").prefix == "gpt-4o"
    assert lookup("gpt-4o-mini-2024-07-18").prefix == "gpt-4o-mini"
    assert lookup("openai/gpt-4.1-mini").prefix == "gpt-4.1-mini"
    assert lookup("claude-sonnet-4-5-20250929").prefix == "claude-sonnet-4-5"
    assert lookup("claude-opus-4-20250514").prefix == "claude-opus-4"
    assert lookup("llava-7b") is None and price_for("llava-7b") is None
    assert price_for("llava-7b", {"price_in": 0.1, "price_out": 0.2}).cost(1_000_000, 500_000) == pytest.approx(0.2)
    assert price_for("gpt-4o").cost(1000, 100) == pytest.approx(0.0035)
    assert max_output_for("gpt-4o") == 16384 and max_output_for("unknown") is None
    assert is_reasoning_model("o3-mini") and is_reasoning_model("gpt-5") and not is_reasoning_model("gpt-4o")


def test_budget_is_thread_safe_and_counts_unpriced_calls():
    b = Budget(max_usd=1.0)
    threads = [threading.Thread(target=lambda: [b.charge(0.001) for _ in range(100)]) for _ in range(8)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert b.spent == pytest.approx(0.8) and b.allow()
    b.charge(None)
    b.charge(0.5)
    assert b.exhausted and not b.allow()
    assert b.as_dict()["unpriced_calls"] == 1 and b.as_dict()["refused"] == 1
    assert Budget(None).allow() and Budget(2.0, spent=2.0).exhausted
