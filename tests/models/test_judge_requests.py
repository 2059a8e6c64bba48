"""What a judge (grounder, assertion and rubric judges) sends and how it asks again, against the stand-in
that behaves like the real services: undocumented fields refused, reasoning models that answer empty
under a small cap, Anthropic's thinking rules, 429 with Retry-After."""

from __future__ import annotations

import pytest

from iwrbench.errors import JudgeError
from iwrbench.judge.llm import make_assertion_judge
from iwrbench.models.ask import ask
from iwrbench.models.base import GenerationOptions
from iwrbench.models.chat import ChatRequest, Message, TextPart
from iwrbench.models.http import ApiError
from iwrbench.models.clients import resolve_chat_client
from fake_provider import FakeProviderServer, JudgeReplies, png_bytes
from iwrbench.records import Action

PNG = png_bytes(8, 8, (255, 255, 255))
CLICK = Action(type="Click", parameters={"description": "the + button"}, logical_assertion="The counter shows 1")


def judge_client(srv: FakeProviderServer, name: str, tmp_path, **args):
    from iwrbench.models.base import apply_model_args

    opts = apply_model_args(GenerationOptions(cache_dir=tmp_path / "cache", retries=3), args)
    return resolve_chat_client(f"{srv.protocol}:{name}", opts, base_url=srv.base_url)


def _ask(text: str, max_tokens: int) -> ChatRequest:
    return ChatRequest([Message("user", [TextPart(text)])], temperature=0.0, max_tokens=max_tokens)


async def test_a_reasoning_model_gets_the_published_budget_under_its_own_parameter(tmp_path):
    replies = JudgeReplies(["No"])
    with FakeProviderServer("openai", responder=replies, reasoning_model=True, reasoning_tokens=2500) as srv:
        judge = make_assertion_judge(judge_client(srv, "gpt-5-mini", tmp_path), tmp_path)
        verdict, raw = await judge(CLICK, PNG, PNG)
    assert verdict is False and '"result": "No"' in raw
    (req,) = srv.requests
    assert req.body["max_completion_tokens"] == 4096 and "max_tokens" not in req.body and "temperature" not in req.body
    assert not srv.cut_empty


async def test_under_a_small_cap_a_reasoning_model_answers_empty_and_that_is_never_a_verdict(tmp_path):
    with FakeProviderServer("openai", responder=JudgeReplies(), reasoning_model=True, reasoning_tokens=2500) as srv:
        client = judge_client(srv, "gpt-5-mini", tmp_path)
        from iwrbench.judge.llm import parse_yes_no

        with pytest.raises(JudgeError, match=r"empty reply \(stopped: length\)"):
            await ask(client, _ask("Decide whether this statement holds", 20), parse_yes_no, attempts=1)
    assert len(srv.cut_empty) == 1 and srv.cut_empty[0]["max_completion_tokens"] == 20


async def test_a_reply_cut_empty_is_asked_again_with_twice_the_cap(tmp_path):
    with FakeProviderServer("openai", responder=JudgeReplies(), reasoning_model=True, reasoning_tokens=6000) as srv:
        judge = make_assertion_judge(judge_client(srv, "o4-mini", tmp_path), tmp_path, attempts=3)
        verdict, _ = await judge(CLICK, PNG, PNG)
    assert verdict is True
    assert [q.body["max_completion_tokens"] for q in srv.requests] == [4096, 8192]


async def test_the_old_parameters_are_refused_by_a_reasoning_model_as_openai_refuses_them(tmp_path):
    with FakeProviderServer("openai", responder=JudgeReplies(), reasoning_model=True) as srv:
        client = judge_client(srv, "gpt-5-mini", tmp_path, max_tokens_param="max_tokens", send_temperature=True)
        with pytest.raises(ApiError, match="Unsupported parameter: 'max_tokens'"):
            await client.complete(_ask("hi", 4096))
    assert len(srv.requests) == 1  # a 400 is not retried


async def test_an_unreadable_reply_is_asked_again_past_the_cache(tmp_path):
    replies = JudgeReplies(["I am not sure.", "No"])
    with FakeProviderServer("openai", responder=replies) as srv:
        client = judge_client(srv, "gpt-4o", tmp_path)
        judge = make_assertion_judge(client, tmp_path, attempts=3)
        assert (await judge(CLICK, PNG, PNG))[0] is False
        assert len(srv.requests) == 2
        assert (await judge(CLICK, PNG, PNG))[0] is False  # the readable reply was kept in the cache
        assert len(srv.requests) == 2
    kept = (tmp_path / "llm" / "assert.jsonl").read_text().splitlines()
    assert len(kept) == 3 and '"verdict": null' in kept[0]


async def test_429_with_retry_after_is_waited_out(tmp_path):
    with FakeProviderServer("openai", responder=JudgeReplies(["Yes", "No"]), rate_limit_every=2, retry_after=1) as srv:
        judge = make_assertion_judge(judge_client(srv, "gpt-4o", tmp_path), tmp_path)
        assert (await judge(CLICK, PNG, PNG))[0] is True
        other = Action(type="Click", parameters={"description": "the - button"}, logical_assertion="It shows 0")
        assert (await judge(other, PNG, PNG))[0] is False  # its first request was refused with 429
    assert len(srv.rate_limited) == 1 and len(srv.requests) == 3
    assert srv.requests[2].t - srv.requests[1].t >= 0.95  # the server asked for 1 s


@pytest.mark.parametrize("stream", [True, False])
async def test_anthropic_thinking_is_sent_as_the_api_wants_it(tmp_path, stream):
    replies = JudgeReplies(["Yes"])
    with FakeProviderServer("anthropic", responder=replies, reasoning_tokens=1500) as srv:
        client = judge_client(srv, "claude-sonnet-4-5", tmp_path, thinking={"type": "enabled", "budget_tokens": 2048},
                              stream=stream)
        verdict, raw = await make_assertion_judge(client, tmp_path)(CLICK, PNG, PNG)
    assert verdict is True and raw.startswith("```json")  # the thinking block is not part of the reply
    body = srv.requests[0].body
    assert body["max_tokens"] == 4096 + 2048 and "temperature" not in body
    assert body["thinking"] == {"type": "enabled", "budget_tokens": 2048}


async def test_anthropic_refuses_thinking_with_a_temperature_like_the_api(tmp_path):
    with FakeProviderServer("anthropic", responder=JudgeReplies()) as srv:
        body = {"model": "m", "max_tokens": 8000, "temperature": 0, "messages": [],
                "thinking": {"type": "enabled", "budget_tokens": 2048}}
        assert "may only be set to 1" in srv._refusal(body)["error"]["message"]
        body.pop("temperature")
        body["max_tokens"] = 2000
        assert "must be greater than" in srv._refusal(body)["error"]["message"]
