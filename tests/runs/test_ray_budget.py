"""``--max-cost`` is one budget for the whole run, also when Ray workers generate the units."""

from __future__ import annotations

import pytest

pytestmark = pytest.mark.ray


def test_max_cost_holds_across_ray_workers(tmp_path, monkeypatch):
    pytest.importorskip("ray")
    from fake_provider import FakeProviderServer, Scripted, write_synthetic_task

    from iwrbench.models.base import GenerationOptions
    from iwrbench.runs.evaluate import EvalConfig, evaluate
    from iwrbench.runs.rundir import RunDir

    monkeypatch.setenv("IWR_CACHE", str(tmp_path / "cache"))
    for k in range(8):
        write_synthetic_task(tmp_path / "suite" / f"t{k}", task_id=f"t{k}", seconds=2, fps=2)
    # every call costs $1 (1000 input tokens at $1000 per million, output free); the run may spend $2.50, so
    # it stops after 3 calls, plus at most one call per other worker already in flight when it ran out.
    # A budget per worker would let each of the 2 workers make 3 calls.
    reply = Scripted(text="no page here", usage=(1000, 0), delay_s=0.5)
    with FakeProviderServer("openai", [], default=reply) as server:
        opts = GenerationOptions(max_cost_usd=2.5, cache_dir=tmp_path / "responses", retries=0,
                                 extra={"price_in": 1000.0, "price_out": 0.0, "cache": False})
        cfg = EvalConfig(tasks=tmp_path / "suite", models=["openai:test-model"], out=tmp_path / "run",
                         executor="ray", workers=2, options=opts,
                         model_kwargs={"base_url": server.base_url, "api_key": "sk-test"})
        evaluate(cfg)
        calls = len(server.requests)
    rows = list(RunDir(tmp_path / "run").results().values())
    assert 3 <= calls <= 3 + (cfg.workers - 1), calls
    assert len(rows) == calls  # a unit refused by the budget is not run, so it writes no row
