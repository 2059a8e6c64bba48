"""A model with a short context behind an OpenAI-compatible (or Anthropic) server: the default output cap
is refused with HTTP 400, the limit is read from the refusal and the call is retried once with a cap
that fits. Against FakeProviderServer emulating the limits (no mocks)."""

from __future__ import annotations

import pytest

from iwrbench.models.base import GenerationOptions
from iwrbench.models.context import CAP_MARGIN, CapFit, fit_output_cap, read_limits
from iwrbench.generate.registry import resolve_model
from fake_provider import LIMIT_WORDINGS, FakeProviderServer, Scripted, html_reply, prompt_tokens


def options(tmp_path, **kw) -> GenerationOptions:
    kw.setdefault("cache_dir", tmp_path / "cache")
    return GenerationOptions(extra={"retry_base_s": 0.01}, **kw)


@pytest.mark.parametrize("wording", LIMIT_WORDINGS)
async def test_a_32k_model_refuses_the_default_cap_and_the_retry_fits(wording, task, tmp_path):
    protocol = "anthropic" if wording == "anthropic" else "openai"
    with FakeProviderServer(protocol, context_tokens=32768, limit_wording=wording) as srv:
        opts = options(tmp_path)
        assert opts.max_output_tokens == 32000  # the default, unchanged
        model = resolve_model(f"{protocol}:local-32k", opts, base_url=srv.base_url)
        gen = await model.generate(task, tmp_path / "out", opts)
        assert gen.status == "ok", gen.error
        first, second = srv.requests
        assert srv.refused == [first]
        p = prompt_tokens(first.body)
        assert first.body["max_tokens"] == 32000
        assert second.body["max_tokens"] == 32768 - p - CAP_MARGIN
        info = gen.info
        assert info.calls == 2 and info.max_output_tokens == second.body["max_tokens"]
        assert info.output_cap["requested"] == 32000 and info.output_cap["sent"] == second.body["max_tokens"]
        assert "32768" in info.output_cap["reason"] and info.output_cap["server_message"]
        # the same request again is answered from the cache, which kept the cap it was answered with
        again = await model.generate(task, tmp_path / "out2", opts)
        assert again.info.cached and len(srv.requests) == 2
        assert again.info.max_output_tokens == info.max_output_tokens and again.info.output_cap == info.output_cap


@pytest.mark.parametrize("protocol", ["openai", "anthropic"])
async def test_a_stated_largest_output_is_used(protocol, task, tmp_path):
    with FakeProviderServer(protocol, max_output_tokens=4096) as srv:
        opts = options(tmp_path)
        gen = await resolve_model(f"{protocol}:local", opts, base_url=srv.base_url).generate(task, tmp_path / "o", opts)
        assert gen.status == "ok", gen.error
        assert [r.body["max_tokens"] for r in srv.requests] == [32000, 4096]
        assert gen.info.max_output_tokens == 4096 and "at most 4096" in gen.info.output_cap["reason"]


async def test_a_prompt_longer_than_the_context_is_not_retried_and_says_what_to_change(task, tmp_path):
    with FakeProviderServer("openai", context_tokens=1000) as srv:
        opts = options(tmp_path)
        gen = await resolve_model("openai:tiny", opts, base_url=srv.base_url).generate(task, tmp_path / "o", opts)
        assert gen.status == "generation_error" and gen.error.startswith("api:")
        assert len(srv.requests) == 1
        assert "fills the model's context" in gen.error and "--max-frames" in gen.error


async def test_a_cap_that_fits_is_sent_once(task, tmp_path):
    with FakeProviderServer("openai", context_tokens=32768) as srv:
        opts = options(tmp_path, max_output_tokens=4096)
        gen = await resolve_model("openai:tiny", opts, base_url=srv.base_url).generate(task, tmp_path / "o", opts)
        assert gen.status == "ok" and len(srv.requests) == 1
        assert gen.info.max_output_tokens == 4096 and gen.info.output_cap is None


async def test_known_hosted_models_keep_their_table_cap(task, tmp_path):
    with FakeProviderServer("openai") as srv:
        opts = options(tmp_path)
        gen = await resolve_model("openai:gpt-4o", opts, base_url=srv.base_url).generate(task, tmp_path / "o", opts)
        assert gen.status == "ok" and len(srv.requests) == 1
        assert srv.requests[0].body["max_tokens"] == 16384 == gen.info.max_output_tokens
        assert gen.info.output_cap is None


async def test_other_400s_are_not_read_as_limits(task, tmp_path):
    with FakeProviderServer("openai", script=[Scripted(status=400, body={"error": {"message": "model not found"}})],
                            default=Scripted(text=html_reply())) as srv:
        opts = options(tmp_path)
        gen = await resolve_model("openai:tiny", opts, base_url=srv.base_url).generate(task, tmp_path / "o", opts)
        assert gen.status == "generation_error" and len(srv.requests) == 1


def test_reading_limits_from_servers_wordings():
    ollama_like = "max_tokens must be less than or equal to `8192`"
    assert read_limits(ollama_like).max_output == 8192
    assert read_limits("rate limit exceeded, retry in 20 s") is None
    assert read_limits("The model `x` does not exist (context 7)") is None
    fit = fit_output_cap(400, "This model's maximum context length is 32,768 tokens. However, you requested 32,000 "
                              "output tokens and your prompt contains 1,234 tokens (total 33,234 tokens).", None, 32000)
    assert isinstance(fit, CapFit) and fit.cap == 32768 - 1234 - CAP_MARGIN
    assert fit_output_cap(500, "maximum context length is 10 tokens", None, 32000) is None  # not a refusal
    nothing = fit_output_cap(400, "the request exceeds the available context size",
                             '{"error": {"type": "exceed_context_size_error", "n_ctx": 4096}}', 32000)
    assert isinstance(nothing, str) and "--max-output-tokens" in nothing
