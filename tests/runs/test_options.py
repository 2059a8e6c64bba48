"""The evaluation options are declared once (runs/options.py): every field has its flag, every flag its field, and
the command line and the Python API reach the same run configuration through it."""

from __future__ import annotations

import argparse
import dataclasses

import pytest

from iwrbench.cli import build_parser
from iwrbench.errors import IwrError
from iwrbench.runs.options import RUNTIME_OPTIONS, EvalOptions

#: what `iwr eval` takes that is not an option: the tasks, the models and the run folder (and --help)
NOT_OPTIONS = {"--tasks", "--model", "--out", "-h", "--help"}


def _subparser(name: str) -> argparse.ArgumentParser:
    ap = build_parser()
    sub = next(a for a in ap._actions if isinstance(a, argparse._SubParsersAction))
    return sub.choices[name]


@pytest.mark.parametrize("command", ["eval", "run"])
def test_every_field_has_its_flag_and_every_flag_its_field(command):
    actions = _subparser(command)._actions
    flags = {s: a.dest for a in actions for s in a.option_strings}
    declared = EvalOptions.flags()
    for name, fs in declared.items():
        assert fs, f"{name} has no flag"
        for f in fs:
            assert flags.get(f) == name, f"{name}: {f} is not a flag of iwr {command} filling it"
        field = EvalOptions.model_fields[name]
        assert field.description and (field.json_schema_extra or {}).get("recorded") in (
            "run", "generation", "judge", "runtime", "browser", "no"), name
    extra = {"--suite"} if command == "run" else set()
    stray = set(flags) - NOT_OPTIONS - extra - {f for fs in declared.values() for f in fs}
    assert not stray, f"flags of iwr {command} with no EvalOptions field: {sorted(stray)}"


def test_the_command_line_and_the_api_make_the_same_config(tmp_path):
    from iwrbench.api import eval_config
    from iwrbench.cli import _options

    argv = ["eval", "--tasks", "suite", "--model", "blank", "--out", "run", "--protocol", "iwr-bench@1",
            "--workers", "3", "--task", "a", "--task", "b", "--limit", "2", "--max-output-tokens", "900",
            "--max-cost", "1.5", "--cache-dir", str(tmp_path), "-M", "seed=7", "-J", "reasoning_effort=low",
            "--action-timeout", "12", "--oracle-recipes", "recipes", "--retry-errors", "--fps", "0.5"]
    a = build_parser().parse_args(argv)
    typed = _options(a).config("suite", ["blank"], "run")
    called = eval_config("suite", "blank", "run", protocol="iwr-bench@1", workers=3, task=["a", "b"], limit=2,
                         max_output_tokens=900, max_cost=1.5, cache_dir=tmp_path, model_args={"seed": 7},
                         judge_args=["reasoning_effort=low"], action_timeout=12, oracle_recipes="recipes",
                         retry_errors=True, fps=0.5)
    assert dataclasses.asdict(typed.options) == dataclasses.asdict(called.options)
    assert typed.limits.action_s == called.limits.action_s == 12
    for k in ("protocol", "workers", "only", "limit", "judge_args", "oracle_recipes", "retry_errors", "model_kwargs"):
        assert getattr(typed, k) == getattr(called, k), k
    assert typed.options.max_cost_usd == 1.5 and typed.options.max_output_tokens == 900


def test_defaults_are_the_run_defaults():
    from iwrbench.models.base import GenerationOptions

    o = EvalOptions()
    assert (o.protocol, o.workers, o.executor) == ("offline@2", 1, "local")
    assert dataclasses.asdict(o.generation()) == dataclasses.asdict(GenerationOptions())
    assert RUNTIME_OPTIONS == {"concurrency", "timeout_s", "retries", "max_cost_usd", "dry_run", "cache_dir"}


def test_a_bad_option_is_one_line():
    from iwrbench.api import eval_options

    with pytest.raises(IwrError, match="unknown option"):
        eval_options(max_ouput_tokens=5)
    with pytest.raises(IwrError, match="option workers"):
        eval_options(workers="many")


def test_dry_run_from_python_plans_and_writes_nothing(tmp_path):
    """``--dry-run`` is an option of the Python API too: the plan of each model, nothing called or written."""
    from fake_provider import write_synthetic_task

    import iwrbench

    write_synthetic_task(tmp_path / "suite" / "t1", task_id="t1")
    plans = iwrbench.evaluate(tmp_path / "suite", ["blank", "openai:some-model"], tmp_path / "run", dry_run=True,
                              base_url="http://127.0.0.1:9/v1", cache_dir=tmp_path / "cache")
    assert [p["model"] for p in plans] == ["blank", "openai:some-model"]
    assert plans[0]["calls"] == 0 and plans[1]["calls"] == 1 and plans[1]["images"] > 0
    assert not (tmp_path / "run").exists()


def test_iwr_judge_takes_the_judge_options_by_the_same_declaration():
    from iwrbench.api import JUDGE_OPTIONS

    flags = {s: a.dest for a in _subparser("judge")._actions for s in a.option_strings}
    declared = EvalOptions.flags()
    assert set(JUDGE_OPTIONS) <= set(declared)
    for name in JUDGE_OPTIONS:
        assert all(flags.get(f) == name for f in declared[name]), name
    assert set(flags) - {"-h", "--help", "--out", "--tasks"} == {f for n in JUDGE_OPTIONS for f in declared[n]}
