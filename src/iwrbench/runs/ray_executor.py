"""``--executor ray``: the same (model, task) units on a Ray cluster, one browser per worker.

Workers are Ray actors; each owns one Chromium and judges units one at a time, writing pages
and screenshots into the run folder (which must be on a filesystem every node sees) and
returning the TaskResult. Only the driver appends to results.jsonl, so the file has one writer
and the crash-safety rules of the local executor hold unchanged.

Without ``--ray-address`` a local Ray is started with as many CPUs as workers; with one, the
run joins that cluster (``ray start --head`` on one node, ``ray start --address=...`` on others).

``--max-cost`` is one budget for the run, as with the local executor: one actor holds it and every
worker's models ask it before each call (``RayBudget``), so the run overshoots by at most the calls
in flight on the other workers when it runs out.
"""

from __future__ import annotations

import asyncio
from typing import Any

from ..errors import ComponentMissing
from ..models.base import Model
from ..protocols import Protocol
from ..records import Task, TaskResult
from .progress import UnitDone, UnitStarted, emit
from .rundir import RunDir


def _import_ray() -> Any:
    try:
        import ray
    except ImportError:
        raise ComponentMissing("--executor ray needs Ray: pip install 'iwrbench[ray]'") from None
    return ray


class _BudgetActor:
    """The run's ``Budget``, held by one actor (wrapped by ray.remote at run time)."""

    def __init__(self, max_usd: float | None) -> None:
        from ..models.pricing import Budget

        self.budget = Budget(max_usd)

    def allow(self) -> bool:
        return self.budget.allow()

    def charge(self, cost_usd: float | None) -> None:
        self.budget.charge(cost_usd)

    def state(self) -> dict[str, Any]:
        return self.budget.as_dict()


class RayBudget:
    """What a worker's models see of the run's budget: ``models.pricing.Budget``'s interface, its state in
    the shared ``_BudgetActor``."""

    def __init__(self, actor: Any, max_usd: float | None) -> None:
        self.actor = actor
        self.max_usd = max_usd

    def allow(self) -> bool:
        return bool(_import_ray().get(self.actor.allow.remote()))

    def charge(self, cost_usd: float | None) -> None:
        _import_ray().get(self.actor.charge.remote(cost_usd))

    def as_dict(self) -> dict[str, Any]:
        return _import_ray().get(self.actor.state.remote())

    @property
    def spent(self) -> float:
        return float(self.as_dict()["spent_usd"])

    @property
    def exhausted(self) -> bool:
        return self.max_usd is not None and self.spent >= self.max_usd


class _Worker:
    """The actor body (wrapped by ray.remote at run time so importing this module needs no Ray)."""

    def __init__(self, cfg: Any, budget: Any = None):
        from ..protocols import get_protocol
        from .unit import BrowserBox, make_components

        self.cfg = cfg
        self.protocol = get_protocol(cfg.protocol)
        kwargs = dict(cfg.model_kwargs)
        if budget is not None:  # the run's one budget, never one per worker
            kwargs["budget"] = RayBudget(budget, cfg.options.max_cost_usd)
        self.models = dict(zip(cfg.models, resolve_all(cfg, **kwargs)))
        self.components = make_components(cfg, self.protocol)
        self.components.check()
        self.box = BrowserBox(self.protocol.page_setup, unsafe_no_sandbox=getattr(cfg, "unsafe_no_sandbox", False))
        self.run = RunDir(cfg.out)
        self.tasks: dict[str, Task] | None = None

    async def unit(self, model_spec: str, task_id: str) -> str | None:
        from ..tasks import load_suite
        from .unit import run_unit

        if self.tasks is None:  # the same suite path as the driver's (a shared filesystem)
            self.tasks = {t.id: t for t in load_suite(self.cfg.tasks, only=self.cfg.only)}
        task = self.tasks[task_id]
        res = await run_unit(self.box, self.models[model_spec], task, self.run, self.protocol, self.components,
                             self.cfg.options, self.cfg.retries)
        return None if res is None else res.model_dump_json()

    async def close(self) -> None:
        await self.box.close()


async def run_on_ray(cfg: Any, units: list[tuple[Model, Task]], run: RunDir, protocol: Protocol,
                     progress: Any = None) -> None:
    ray = _import_ray()
    started = False
    if not ray.is_initialized():
        if cfg.ray_address:
            ray.init(address=cfg.ray_address, log_to_driver=False)
        else:
            ray.init(num_cpus=max(1, cfg.workers), include_dashboard=False, log_to_driver=False,
                     object_store_memory=200 * 1024 ** 2, configure_logging=False)
        started = True
    try:
        Worker = ray.remote(num_cpus=1, max_restarts=1, max_task_retries=0)(_Worker)
        budget = None
        if cfg.options.max_cost_usd is not None:
            budget = ray.remote(num_cpus=0)(_BudgetActor).remote(cfg.options.max_cost_usd)
        n = max(1, min(cfg.workers, len(units) or 1))
        actors = [Worker.remote(cfg, budget) for _ in range(n)]
        spec_by_name = {m.name: spec for m, spec in zip_models(cfg)}
        queue = list(units)
        inflight: dict[Any, tuple[Any, Model, Task]] = {}

        def submit(actor: Any) -> None:
            if not queue:
                return
            m, t = queue.pop(0)
            emit(progress, UnitStarted(model=m.name, task=t.id))
            ref = actor.unit.remote(spec_by_name[m.name], t.id)
            inflight[ref] = (actor, m, t)

        for a in actors:
            submit(a)
        while inflight:
            done, _ = await asyncio.to_thread(ray.wait, list(inflight), num_returns=1)
            ref = done[0]
            actor, m, t = inflight.pop(ref)
            try:
                payload = await asyncio.to_thread(ray.get, ref)
                res = None if payload is None else TaskResult.model_validate_json(payload)
            except Exception as e:  # the worker died: ours, never the model's
                first = str(e).strip().splitlines()[0][:200] if str(e).strip() else e.__class__.__name__
                res = TaskResult(model=m.name, task_id=t.id, status="judge_error", protocol=protocol.id,
                                 steps_total=len(t.action_sequence), tags=t.tags,
                                 error=f"ray worker failed: {first}")
            if res is not None:
                run.append(res)
            emit(progress, UnitDone(model=m.name, task=t.id, result=res))
            submit(actor)
        for a in actors:
            try:
                await asyncio.to_thread(ray.get, a.close.remote())
            except Exception:
                pass
    finally:
        if started:
            ray.shutdown()


def resolve_all(cfg: Any, **kwargs: Any) -> list[Model]:
    """The run's models as the driver resolves them (the oracle with ``cfg.oracle_recipes``); ``kwargs``
    default to ``cfg.model_kwargs``."""
    from .unit import resolve_models

    return resolve_models(cfg, **(kwargs or cfg.model_kwargs))


def zip_models(cfg: Any) -> list[tuple[Any, str]]:
    return list(zip(resolve_all(cfg), cfg.models))
