"""`iwr eval -M KEY=VALUE`: model arguments as the command line parses them, sent to a local server
(FakeProviderServer, which refuses undocumented body fields unless allowed with ``extra_fields=``)."""

from __future__ import annotations

import pytest

from iwrbench.cli import _gen_options, build_parser, main
from iwrbench.errors import IwrError
from iwrbench.models.base import apply_model_args, parse_model_args
from iwrbench.generate.registry import resolve_model
from fake_provider import FakeProviderServer


def cli_options(tmp_path, *margs: str):
    a = build_parser().parse_args(["eval", "--tasks", "x", "--out", "y", "--model", "openai:m",
                                   "--cache-dir", str(tmp_path / "cache"), *margs])
    return _gen_options(a)


async def test_model_args_reach_the_server(task, tmp_path):
    opts = cli_options(tmp_path, "-M", "temperature=0.3", "-M", "top_p=0.9", "--model-arg", "seed=7",
                       "-M", "top_k=20", "-M", 'stop=["</html>"]', "-M", "user=a=b")
    with FakeProviderServer("openai", extra_fields=("top_k",)) as srv:
        model = resolve_model("openai:local", opts, base_url=srv.base_url)
        gen = await model.generate(task, tmp_path / "out", opts)
        assert gen.status == "ok", gen.error
        body = srv.requests[0].body
        assert body["temperature"] == 0.3 and body["top_p"] == 0.9 and body["seed"] == 7 and body["top_k"] == 20
        assert body["stop"] == ["</html>"] and body["user"] == "a=b"  # not JSON: the string, split at the first '='
        assert model.describe()["body"] == {"top_p": 0.9, "seed": 7, "top_k": 20, "stop": ["</html>"], "user": "a=b"}
        assert model.describe()["temperature"] == 0.3


async def test_a_field_the_server_does_not_know_reaches_it_and_is_refused_there(task, tmp_path):
    opts = cli_options(tmp_path, "-M", "min_p=0.05")
    with FakeProviderServer("openai", extra_fields=("top_k",)) as srv:
        gen = await resolve_model("openai:local", opts, base_url=srv.base_url).generate(task, tmp_path / "o", opts)
        assert srv.requests[0].body["min_p"] == 0.05
        assert gen.status == "generation_error" and "Unrecognized request argument supplied: min_p" in gen.error


async def test_settings_are_settings_not_body_fields(task, tmp_path):
    opts = cli_options(tmp_path, "-M", "stream=true", "-M", "image_detail=low")
    with FakeProviderServer("openai") as srv:
        gen = await resolve_model("openai:local", opts, base_url=srv.base_url).generate(task, tmp_path / "o", opts)
        assert gen.status == "ok", gen.error
        body = srv.requests[0].body
        assert body["stream"] is True and body["stream_options"] == {"include_usage": True}
        assert body["messages"][0]["content"][1]["image_url"]["detail"] == "low"


def test_values_and_refusals():
    assert parse_model_args(["a=1", "b=0.5", "c=true", "d=null", "e=text", "f=", 'g={"x": [1]}']) == {
        "a": 1, "b": 0.5, "c": True, "d": None, "e": "text", "f": "", "g": {"x": [1]}}
    for bad in (["seed"], ["=3"]):
        with pytest.raises(IwrError, match="KEY=VALUE"):
            parse_model_args(bad)
    from iwrbench.models.base import GenerationOptions

    for key, hint in (("max_tokens", "--max-output-tokens"), ("model", "--model"), ("messages", "prompt")):
        with pytest.raises(IwrError, match=hint):
            apply_model_args(GenerationOptions(), {key: 1})
    with pytest.raises(IwrError, match="a number"):
        apply_model_args(GenerationOptions(), {"temperature": "hot"})


def test_a_bad_model_arg_is_one_line_on_the_command_line(tmp_path, capsys):
    rc = main(["eval", "--tasks", str(tmp_path), "--out", str(tmp_path / "run"), "--model", "blank", "-M", "seed"])
    err = capsys.readouterr().err
    assert rc == 2 and err.count("\n") == 1 and "expected KEY=VALUE" in err


def test_every_new_option_has_help():
    for cmd in ("eval", "run"):
        parser = build_parser()._subparsers._group_actions[0].choices[cmd]
        for opt in ("--model-arg", "--retry-errors", "--limit", "--max-output-tokens"):
            action = next(a for a in parser._actions if opt in a.option_strings)
            assert action.help and len(action.help) > 20, opt
