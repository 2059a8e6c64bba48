"""The options of an evaluation, declared once: ``iwr eval``'s flags, ``iwrbench.evaluate``'s keywords, run.json.

Each field of ``EvalOptions`` carries its flag(s), its help and where run.json records it (``recorded``):

- ``run``: a top-level key of run.json (the protocol, the executor, the task ids, ``limit``, ``retries``);
- ``generation``: under ``generation`` (what a model is sent: compared when a run is resumed);
- ``judge``: under ``judge`` (how pages are judged: compared when a run is resumed);
- ``runtime``: under ``runtime`` (how the run goes, not what it measures: may change between resumes);
- ``browser``: under ``browser`` (how Chromium was started: its sandbox; a resume started another way is
  recorded beside it, ``sandbox_on_resume``);
- ``no``: not recorded (it changes nothing a score depends on: where a Ray cluster is, resuming despite a
  change).

The command line builds its parser from the fields (``add_arguments``), fills the model from what was
typed (``from_namespace``) and calls the Python API with it, which turns it into the ``EvalConfig`` a run
is made from (``config``): one path for both, so an option cannot exist in one and not the other, or be
converted twice in two ways.
"""

from __future__ import annotations

import argparse
from pathlib import Path
from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field, field_validator

Recorded = Literal["run", "generation", "judge", "runtime", "browser", "no"]


def opt(default: Any, *flags: str, help: str, recorded: Recorded, metavar: str | None = None,
        gen: str | None = None, **cli: Any) -> Any:
    """A field with its command-line flags, help and run.json place. ``gen``: the ``GenerationOptions`` field it
    sets (if any); ``cli``: more ``add_argument`` keywords (type, action, choices)."""
    extra: dict[str, Any] = {"flags": list(flags), "recorded": recorded}
    if metavar:
        extra["metavar"] = metavar
    if gen:
        extra["gen"] = gen
    if cli:
        extra["cli"] = cli
    return Field(default, description=help, json_schema_extra=extra)


def _kv(v: Any) -> dict[str, Any]:
    """``KEY=VALUE`` items (the command line's) or a dict (Python's) -> a dict."""
    from ..models.base import parse_model_args

    if not v:
        return {}
    return dict(v) if isinstance(v, dict) else parse_model_args(list(v) if not isinstance(v, str) else [v])


class EvalOptions(BaseModel):
    """What ``iwr eval`` and ``iwrbench.evaluate`` take besides the tasks, the models and the run folder."""

    model_config = ConfigDict(extra="forbid")

    protocol: str = opt("offline@2", "--protocol", recorded="run",
                        help="judging protocol: offline@2 (default; no model calls by the judge) or iwr-bench@1 (the "
                             "published one: LLM grounder and multimodal judges, needs --judge-model)")
    workers: int = opt(1, "--workers", recorded="run", type=int, help="units judged at once (default 1)")
    executor: Literal["local", "ray"] = opt("local", "--executor", recorded="run", choices=("local", "ray"),
                                            help="where units are judged: local processes (default) or a Ray cluster")
    ray_address: str | None = opt(None, "--ray-address", recorded="no",
                                  help="an existing Ray cluster (default: start a local one)")
    task: list[str] | None = opt(None, "--task", recorded="run", metavar="ID", action="append",
                                 help="only this task id (repeatable; default: every task)")
    limit: int | None = opt(None, "--limit", recorded="run", metavar="N", type=int,
                            help="only the first N tasks, sorted by task id (after --task); recorded in run.json")
    base_url: str | None = opt(None, "--base-url", recorded="generation",
                               help="OpenAI-compatible server URL for openai:NAME models (default: OPENAI_BASE_URL, "
                                    "else api.openai.com)")
    judge_model: str | None = opt(None, "--judge-model", recorded="judge",
                                  help="iwr-bench@1: the model behind the LLM grounder and multimodal judges "
                                       "(default: none; offline@2 needs none)")
    judge_base_url: str | None = opt(None, "--judge-base-url", recorded="judge",
                                     help="OpenAI-compatible server of the judge model (default: OPENAI_BASE_URL)")
    judge_args: dict[str, Any] = opt({}, "-J", "--judge-arg", recorded="judge", metavar="KEY=VALUE", action="append",
                                     help="iwr-bench@1: a request field or setting of the judge model (repeatable; "
                                          "like -M, which the judge never takes), e.g. -J reasoning_effort=low, -J "
                                          "'thinking={\"type\": \"enabled\", \"budget_tokens\": 2048}', -J "
                                          "reasoning=true (a reasoning model, whatever its name), -J max_output=8192 "
                                          "(its largest output); both are also learned from the server's first "
                                          "refusal")
    action_timeout: float | None = opt(None, "--action-timeout", recorded="judge", type=float,
                                       help="seconds one action may take on a judged page (default: the protocol's, "
                                            "20 for offline@2, 30 for iwr-bench@1)")
    page_timeout: float | None = opt(None, "--page-timeout", recorded="judge", type=float,
                                     help="seconds a whole judged page may take (default 240)")
    ocr: str | None = opt(None, "--ocr", recorded="judge",
                          help="override the protocol's OCR engine (tesseract, easyocr); recorded in run.json "
                               "(default: the protocol's: tesseract for offline@2, easyocr for iwr-bench@1)")
    visual: str | None = opt(None, "--visual", recorded="judge",
                             help="override the protocol's visual backend (blocks, hog-colour, dinov2, ssim, ...; "
                                  "default: the protocol's: blocks for offline@2, dinov2 for iwr-bench@1)")
    fps: float | None = opt(None, "--fps", recorded="generation", gen="fps", type=float,
                            help="frames per second sent to the model (default 1)")
    max_frames: int | None = opt(None, "--max-frames", recorded="generation", gen="max_frames", type=int,
                                 help="at most this many frames (default 64)")
    max_images: int | None = opt(None, "--max-images", recorded="generation", gen="max_images", type=int,
                                 help="at most this many images in all (default 70)")
    max_image_side: int | None = opt(None, "--max-image-side", recorded="generation", gen="max_image_side",
                                     metavar="PX", type=int,
                                     help="downscale images whose long side is larger than PX pixels (default: no "
                                          "limit, or the provider's own: 2000 for anthropic)")
    max_output_tokens: int | None = opt(None, "--max-output-tokens", recorded="generation", gen="max_output_tokens",
                                        metavar="N", type=int,
                                        help="the most tokens a model may write in its reply (default 32000, lowered "
                                             "to a known hosted model's limit; a server that refuses it as too long "
                                             "for its model's context is asked once more with a cap that fits, "
                                             "recorded per unit as generation.max_output_tokens)")
    prompt_version: str | None = opt(None, "--prompt-version", recorded="generation", gen="prompt_version",
                                     metavar="NAME",
                                     help="which prompt text models are sent, from iwrbench/generate/prompts "
                                          "(default iwr-v1, the published prompt)")
    model_args: dict[str, Any] = opt({}, "-M", "--model-arg", recorded="generation", metavar="KEY=VALUE",
                                     action="append",
                                     help="a model argument for every chat model of the run (repeatable); VALUE is "
                                          "read as JSON when it parses (7, 0.2, true, [\"</html>\"]), else as a "
                                          "string. temperature sets the sampling temperature; stream, image_detail, "
                                          "max_tokens_param, send_temperature, reasoning, max_output, frame_format, "
                                          "price_in, price_out set that model setting; any other key (top_p, seed, top_k, ...) is added to "
                                          "the request body as is, so the server must accept it. Recorded in "
                                          "run.json and part of the response cache key")
    oracle_recipes: list[Path] | None = opt(None, "--oracle-recipes", recorded="generation", metavar="DIR",
                                            action="append",
                                            help="recipes for the oracle of tasks recorded elsewhere: a folder of "
                                                 "*.yaml recipes or one recipe file (repeatable), looked at before "
                                                 "the bundled suites' recipes; the oracle is served from the recipe "
                                                 "whose id is the task's, never from the task folder")
    concurrency: int | None = opt(None, "--concurrency", recorded="runtime", gen="concurrency", metavar="N", type=int,
                                  help="model calls at once per provider (default 4)")
    timeout_s: float | None = opt(None, "--timeout-s", recorded="runtime", gen="timeout_s", metavar="S", type=float,
                                  help="seconds one model call may take (default 600)")
    retries: int | None = opt(None, "--retries", recorded="runtime", gen="retries", metavar="N", type=int,
                              help="retries of a model call on 429/5xx/timeouts, with backoff (default 5)")
    max_cost: float | None = opt(None, "--max-cost", recorded="runtime", gen="max_cost_usd", metavar="USD", type=float,
                                 help="stop making new model calls once this many USD are spent (default: no limit)")
    cache_dir: Path | None = opt(None, "--cache-dir", recorded="runtime", gen="cache_dir", metavar="DIR",
                                 help="response cache: the same request is never paid twice (default "
                                      "$IWR_CACHE/responses, i.e. ~/.cache/iwrbench/responses)")
    dry_run: bool = opt(False, "--dry-run", recorded="runtime", gen="dry_run", action="store_true",
                        help="print calls, images and an input-token estimate; call no model and judge nothing "
                             "(`iwr run` without --tasks still builds the suite first: the plan needs its frames; "
                             "Python: evaluate() returns the plan)")
    retry_errors: bool = opt(False, "--retry-errors", recorded="run", action="store_true",
                             help="on an existing run folder, redo the units whose result is a generation_error or a "
                                  "judge_error (scored and passed units are left untouched); generation settings "
                                  "(e.g. --max-output-tokens, -M) may differ from the run's, and then only those "
                                  "units are redone; run.json lists the units retried and the settings they were "
                                  "retried with")
    allow_changed_config: bool = opt(False, "--allow-changed-config", recorded="no", action="store_true",
                                     help="resume a run although its configuration changed")
    unsafe_no_sandbox: bool = opt(False, "--unsafe-no-sandbox", recorded="browser", action="store_true",
                                  help="start Chromium with --no-sandbox: its own sandbox off (the judge's other walls "
                                       "still hold); recorded in run.json. Default: the sandbox is on (as root, the "
                                       "browser runs as the user iwr-browser that `make setup` makes) and judging "
                                       "refuses to start without it")

    @field_validator("task", "oracle_recipes", mode="before")
    @classmethod
    def _listed(cls, v: Any) -> Any:
        return [v] if isinstance(v, (str, Path)) else v

    @field_validator("model_args", "judge_args", mode="before")
    @classmethod
    def _key_values(cls, v: Any) -> dict[str, Any]:
        return _kv(v)

    # ------------------------------------------------------------------ the command line

    @classmethod
    def flags(cls) -> dict[str, list[str]]:
        """field -> its flags."""
        return {name: list((f.json_schema_extra or {})["flags"]) for name, f in cls.model_fields.items()}  # type: ignore[index]

    @classmethod
    def recorded(cls, where: Recorded) -> list[str]:
        """The fields run.json records in ``where``."""
        return [n for n, f in cls.model_fields.items() if (f.json_schema_extra or {})["recorded"] == where]  # type: ignore[index]

    @classmethod
    def add_arguments(cls, p: argparse.ArgumentParser, only: tuple[str, ...] | None = None) -> None:
        """Every option (or those named in ``only``) as a flag of ``p`` (dest = the field's name; unset flags stay
        None)."""
        for name, f in cls.model_fields.items():
            if only is not None and name not in only:
                continue
            x: dict[str, Any] = f.json_schema_extra  # type: ignore[assignment]
            kw = dict(x.get("cli") or {})
            if x.get("metavar"):
                kw["metavar"] = x["metavar"]
            if kw.get("action") != "store_true":
                kw.setdefault("default", None)
            p.add_argument(*x["flags"], dest=name, help=f.description, **kw)

    @classmethod
    def from_namespace(cls, a: argparse.Namespace) -> "EvalOptions":
        """The options typed on the command line (what was not typed keeps its default)."""
        given = {n: getattr(a, n) for n in cls.model_fields if getattr(a, n, None) is not None}
        return cls(**given)

    # ------------------------------------------------------------------ what a run is made from

    def generation(self) -> Any:
        """The ``GenerationOptions`` these options ask for."""
        from ..models.base import GenerationOptions, apply_model_args

        o = GenerationOptions()
        for name, f in type(self).model_fields.items():
            target = (f.json_schema_extra or {}).get("gen")  # type: ignore[union-attr]
            value = getattr(self, name)
            if target and value is not None:
                setattr(o, target, value)
        if self.model_args:
            o = apply_model_args(o, dict(self.model_args))
        return o

    def limits(self) -> Any:
        from ..judge.replay import Limits

        lim = Limits()
        if self.action_timeout:
            lim.action_s = float(self.action_timeout)
        if self.page_timeout:
            lim.page_s = float(self.page_timeout)
        return lim

    def config(self, tasks: str | Path, models: list[str], out: str | Path) -> Any:
        """The ``EvalConfig`` of a run of ``models`` on ``tasks`` into ``out`` with these options."""
        from .config import EvalConfig

        return EvalConfig(
            tasks=tasks, models=list(models), out=out, protocol=self.protocol, workers=self.workers,
            executor=self.executor, options=self.generation(),
            model_kwargs={"base_url": self.base_url} if self.base_url else {},
            judge_model=self.judge_model, judge_base_url=self.judge_base_url, judge_args=dict(self.judge_args),
            ocr=self.ocr, visual=self.visual, limits=self.limits(), allow_changed_config=self.allow_changed_config,
            only=list(self.task) if self.task else None, ray_address=self.ray_address,
            oracle_recipes=list(self.oracle_recipes) if self.oracle_recipes else None,
            retry_errors=self.retry_errors, limit=self.limit, unsafe_no_sandbox=self.unsafe_no_sandbox)


#: GenerationOptions fields that change how a run goes, not what a model is sent: run.json's ``runtime``
RUNTIME_OPTIONS = frozenset((EvalOptions.model_fields[n].json_schema_extra or {})["gen"]  # type: ignore[index]
                            for n in EvalOptions.recorded("runtime"))
