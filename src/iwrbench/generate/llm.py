"""``ChatModel``: any chat provider as a ``Model`` that writes ``index.html`` for a task.

One call per task: build the request (``iwrbench.generate.prompt``), answer it from the
response cache when the same request was answered before (no call, ``cached=True``,
``calls=0``), else check the budget and call the provider. Files in ``out_dir``:
``request.json`` (what was sent: texts in full, images by label, size and sha256),
``raw_reply.txt`` (the reply, whenever there is one), ``api_error.txt`` (the last provider
error and its body, after an ``api:`` failure) and ``index.html`` (the extracted page, only
when there is one; an older one is removed on failure).

Outcomes, each a ``Generation`` whose ``outcome`` (``records.GenerationOutcome``) says how it ended:

- ``OK``: the page is in ``out_dir``.
- ``NO_PAGE`` (``error`` starts ``no_page:``): the model answered without a usable page. The
  model's failure; the raw reply is kept.
- ``API_ERROR`` (``error`` starts ``api:``): the provider kept failing after the retries (or
  refused the request: 4xx, malformed body). Neither the model's answer nor our bug; the caller
  decides whether it is scored. Not cached, so a rerun tries again.
- ``BUDGET`` (``error`` starts ``budget:``): ``--max-cost`` was reached before this call; no call
  was made. Not the model's failure: the task was not run.

A task whose inputs cannot be read (missing or corrupt video) raises ``TaskError``; a
missing API key raises ``ModelError`` when the model is created (unless ``dry_run``).

Costs: tokens as the provider reports them, priced by ``iwrbench.models.pricing``. A cache
hit costs nothing in this run (``cost_usd`` 0.0; what the original call cost is kept as
``original_cost_usd``). For a run-wide ``--max-cost``, create every model with the same
``Budget`` (``resolve_model(spec, options, budget=b)``); without one, each model gets its own
from ``options.max_cost_usd``. Per-model settings (image limits, sizes, prices ...) are
described in ``iwrbench.generate.prompt``.
"""

from __future__ import annotations

import json
import logging
import time
from pathlib import Path
from typing import Any

from ..errors import ModelError
from ..fileio import atomic_write
from ..models.base import SETTING_KEYS, Generation, GenerationOptions, PageBundle  # noqa: F401 (SETTING_KEYS re-exported)
from ..models.clients import make_client
from ..models.http import ApiError, HttpChatClient, RetryPolicy
from ..models.pricing import Budget
from ..records import GenerationInfo, GenerationOutcome, Task

log = logging.getLogger(__name__)

RAW_REPLY = "raw_reply.txt"
REQUEST_MANIFEST = "request.json"
API_ERROR = "api_error.txt"
PAGE = "index.html"


class ChatModel:
    """A chat provider as a ``Model``; create it with ``build_chat_model`` (``openai_model`` / ``anthropic_model``)."""

    def __init__(
        self,
        spec: str,
        client: HttpChatClient,
        *,
        options: GenerationOptions,
        overrides: dict[str, Any] | None = None,
        provider_defaults: dict[str, Any] | None = None,
        budget: Budget | None = None,
        cache: Any = None,
        token_style: str = "openai",
    ) -> None:
        self.name = spec
        self.client = client
        self.options = options
        self.overrides = dict(overrides or {})
        self.provider_defaults = dict(provider_defaults or {})
        self.budget = budget
        self.cache = cache
        self.token_style = token_style

    # ----------------------------------------------------------------- settings

    def resolve(self, options: GenerationOptions | None = None) -> tuple[GenerationOptions, dict[str, Any]]:
        """The options and settings this model really uses (per-model overrides applied)."""
        from .prompt import effective_options, model_settings

        options = options or self.options
        settings = {**model_settings(options, self.name), **self.overrides}
        eff = effective_options(options, self.name, self.provider_defaults, self.overrides)
        return eff, settings

    def describe(self) -> dict[str, Any]:
        """How this model asks (for run.json). ``runtime`` holds what does not change the
        request or the reply (timeouts, retries, concurrency, streaming, cache, budget): leave
        it out when comparing two runs' configurations."""
        from .prompt import prompt_sha256

        eff, settings = self.resolve()
        client = self.client.describe()
        runtime = {
            **client.pop("runtime", {}),
            "cache_dir": str(self.cache.root) if self.cache is not None else None,
            "max_cost_usd": self.budget.max_usd if self.budget is not None else None,
        }
        requested = eff.max_output_tokens
        send_temp = getattr(self.client, "send_temperature", True)
        return {
            "name": self.name,
            **client,
            "prompt_version": eff.prompt_version,
            "prompt_sha256": prompt_sha256(eff.prompt_version),
            "inputs": {
                "fps": eff.fps,
                "max_frames": eff.max_frames,
                "max_images": eff.max_images,
                "max_image_side": eff.max_image_side,
                "frame_format": settings.get("frame_format", "jpeg"),
                "order": ["prompt", "composites", "frames"],
            },
            "temperature": eff.temperature if send_temp else None,
            "max_output_tokens": self.client.effective_max_tokens(requested),
            "max_output_tokens_requested": requested,
            "body": settings.get("body") or {},
            "provider_defaults": self.provider_defaults,
            "runtime": runtime,
        }

    # ----------------------------------------------------------------- planning

    def plan(self, task: Task, options: GenerationOptions | None = None, *, check_cache: bool = False) -> dict[str, Any]:
        """What generating ``task`` would send, without calling (for ``--dry-run``).

        ``check_cache`` builds the real request (decodes the video) to tell whether the
        reply is already cached; otherwise only headers are read.
        """
        from ..models.cache import request_key
        from .prompt import describe_inputs

        eff, settings = self.resolve(options)
        d = describe_inputs(task, eff, self.token_style)
        d["cached"] = None
        if check_cache and self.cache is not None:
            request = self._request(task, eff, settings)
            d["cached"] = request_key(request, self.client.cache_identity()) in self.cache
        return d

    def _request(self, task: Task, eff: GenerationOptions, settings: dict[str, Any]):
        from .prompt import build_request

        request = build_request(task, eff, frame_format=settings.get("frame_format", "jpeg"))
        request.extra = dict(settings.get("body") or {})
        return request

    # ----------------------------------------------------------------- generation

    async def generate(self, task: Task, out_dir: Path, options: GenerationOptions | None = None) -> Generation:
        from ..models.cache import request_key
        from .extract import NoPageError, extract_page
        from .prompt import prompt_sha256, request_manifest

        t0 = time.monotonic()
        eff, settings = self.resolve(options)
        if eff.dry_run:
            raise ModelError(f"{self.name}: dry run: use plan()/dry_run(), not generate()")
        out_dir = Path(out_dir)
        out_dir.mkdir(parents=True, exist_ok=True)
        request = self._request(task, eff, settings)
        manifest = request_manifest(request)
        atomic_write(out_dir / REQUEST_MANIFEST, json.dumps(manifest, indent=1, ensure_ascii=False) + "\n")
        key = request_key(request, self.client.cache_identity())
        labels = [p["label"] for m in manifest["messages"] for p in m["content"] if p["type"] == "image"]
        info = GenerationInfo(
            images=request.images,
            prompt_version=eff.prompt_version,
            prompt_sha256=prompt_sha256(eff.prompt_version),
            composites=sum(1 for lab in labels if not (lab or "").startswith("frame ")),
            frames=sum(1 for lab in labels if (lab or "").startswith("frame ")),
            cache_key=key,
        )

        def done(outcome: GenerationOutcome, error: str | None = None, page: PageBundle | None = None) -> Generation:
            info.duration_s = round(time.monotonic() - t0, 3)
            if outcome is not GenerationOutcome.OK:
                (out_dir / PAGE).unlink(missing_ok=True)  # never leave an older page to be judged
                if info.raw_reply is None:
                    (out_dir / RAW_REPLY).unlink(missing_ok=True)  # nor an older reply
            return Generation(outcome, page=page, info=info, error=error)

        reply = self.cache.get(key) if self.cache is not None else None
        if reply is not None:
            info.cached = True
            info.calls = 0
            info.original_cost_usd = reply.usage.cost_usd
            reply.usage.cost_usd = 0.0
        else:
            if self.budget is not None and not self.budget.allow():
                return done(
                    GenerationOutcome.BUDGET,
                    f"budget: --max-cost ${self.budget.max_usd:g} reached (spent ${self.budget.spent:.4f}); no call made",
                )
            try:
                reply = await self.client.complete(request)
            except ApiError as e:
                info.calls = e.attempts
                info.learned = e.learned
                if e.output_cap is not None:  # refused again after the retry with a fitted cap
                    info.output_cap = e.output_cap
                    info.max_output_tokens = e.output_cap.get("sent")
                atomic_write(out_dir / API_ERROR, f"{e}\n\n{e.body or ''}")
                return done(GenerationOutcome.API_ERROR, f"api: {e}")
            info.calls = reply.calls
            if self.budget is not None:
                self.budget.charge(reply.usage.cost_usd)
            if self.cache is not None:
                self.cache.put(key, reply, {"model": self.name, "task_id": task.id, **self.client.cache_identity()})
        (out_dir / API_ERROR).unlink(missing_ok=True)

        info.input_tokens = reply.usage.input_tokens
        info.output_tokens = reply.usage.output_tokens
        info.max_output_tokens = reply.max_tokens or self.client.effective_max_tokens(request.max_tokens)
        info.output_cap = reply.output_cap
        info.learned = reply.learned
        info.images_downscaled = reply.images
        if reply.output_cap is not None:
            log.warning("%s / %s: generated with max_tokens %s instead of %s (%s)", self.name, task.id,
                        reply.output_cap.get("sent"), reply.output_cap.get("requested"), reply.output_cap.get("reason"))
        info.cost_usd = reply.usage.cost_usd
        info.stop_reason = reply.stop_reason
        atomic_write(out_dir / RAW_REPLY, reply.text)
        info.raw_reply = RAW_REPLY
        try:
            page = extract_page(reply.text)
        except NoPageError as e:
            cut = " (the reply hit the output token limit)" if reply.stop_reason in ("length", "max_tokens") else ""
            return done(GenerationOutcome.NO_PAGE, f"no_page: {e}{cut}; raw reply kept in {RAW_REPLY}")
        info.extraction = {
            "source": page.source,
            "iframes_removed": page.iframes_removed,
            "placeholders_rewritten": page.placeholders_rewritten,
            "truncated": page.truncated,
        }
        atomic_write(out_dir / PAGE, page.html)
        return done(GenerationOutcome.OK, page=PageBundle(root=out_dir, entry=PAGE))


def build_chat_model(
    provider: str,
    name: str,
    *,
    options: GenerationOptions | None = None,
    budget: Budget | None = None,
    cache: Any = None,
    retry: RetryPolicy | None = None,
    base_url: str | None = None,
    api_key: str | None = None,
    **overrides: Any,
) -> ChatModel:
    """``provider:name`` as a ``ChatModel`` (the registry's ``openai:`` / ``anthropic:``).

    ``budget``: the run's shared ``Budget``; without one, a model gets its own from
    ``options.max_cost_usd``. ``cache``: a ``ResponseCache``, ``False`` for none, or ``None``
    for the default folder. ``overrides``: per-model settings given as keyword arguments
    (any key of ``SETTING_KEYS`` or a ``GenerationOptions`` field), winning over ``options``.
    """
    from ..models.cache import ResponseCache

    options = options or GenerationOptions()
    made = make_client(provider, name, options, base_url=base_url, api_key=api_key, retry=retry, **overrides)
    eff, settings, client = made.options, made.settings, made.client
    spec = f"{provider}:{name}"
    if cache is None and settings.get("cache", True) is not False:
        cache = ResponseCache(eff.cache_dir)
    if budget is None and eff.max_cost_usd is not None:
        budget = Budget(eff.max_cost_usd)
    if budget is not None and budget.max_usd is not None and client.price is None:
        log.warning("%s: no known price (give price_in/price_out); --max-cost cannot count its calls", spec)
    return ChatModel(
        spec, client, options=options, overrides=made.overrides, provider_defaults=made.provider_defaults,
        budget=budget, cache=cache or None, token_style="anthropic" if provider == "anthropic" else "openai",
    )
