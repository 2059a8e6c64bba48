"""A model's kind (a reasoning model or not, its largest output) set explicitly or learned from the server's first
refusal, and images brought within each provider's documented limits, against a stand-in on 127.0.0.1 that refuses
what the real services refuse (tests/fake_provider.py)."""

from __future__ import annotations

import io
import json
import random

import pytest
from PIL import Image

from fake_provider import FakeProviderServer, JudgeReplies, png_bytes
from iwrbench.errors import ModelError
from iwrbench.judge.llm import make_assertion_judge
from iwrbench.models.base import GenerationOptions, apply_model_args
from iwrbench.models.chat import ChatRequest, ImagePart, Message, TextPart
from iwrbench.models.clients import resolve_chat_client
from iwrbench.models.http import ApiError
from iwrbench.models.images import LIMITS, ImageLimits, fit_images, published_downscale
from iwrbench.records import Action

CLICK = Action(type="Click", parameters={"description": "the + button"}, logical_assertion="The counter shows 1")


def client_of(srv: FakeProviderServer, name: str, tmp_path, **args):
    opts = apply_model_args(GenerationOptions(cache_dir=tmp_path / "cache", retries=0), args)
    return resolve_chat_client(f"{srv.protocol}:{name}", opts, base_url=srv.base_url)


def ask(text: str = "hi", max_tokens: int | None = 4096, images: tuple[bytes, ...] = ()) -> ChatRequest:
    parts = [TextPart(text), *(ImagePart(d) for d in images)]
    return ChatRequest([Message("user", parts)], temperature=0.0, max_tokens=max_tokens)


# --------------------------------------------------------------------------- the kind of model


async def test_a_renamed_reasoning_deployment_is_learned_from_its_first_refusal(tmp_path):
    # the name says nothing (a deployment named by its owner): sent as an ordinary model first
    with FakeProviderServer("openai", reasoning_model=True) as srv:
        client = client_of(srv, "team-judge-prod", tmp_path)
        first = await client.client.complete(ask("one"))
        assert [sorted(k for k in q.body if k in ("max_tokens", "max_completion_tokens", "temperature"))
                for q in srv.requests] == [["max_tokens", "temperature"], ["max_completion_tokens", "temperature"],
                                           ["max_completion_tokens"]]
        assert [x["setting"] for x in first.learned] == ["max_tokens_param", "send_temperature"]
        assert "Use 'max_completion_tokens' instead" in first.learned[0]["server_message"]
        assert first.calls == 3
        # from then on it is sent as the server wants it, at once
        second = await client.client.complete(ask("two"))
        assert len(srv.requests) == 4 and second.learned is None and second.calls == 1
        assert "temperature" not in srv.requests[-1].body and srv.requests[-1].body["max_completion_tokens"] == 4096
    d = client.describe()
    assert d["reasoning"] is False and d["kind_from"] == "default" and d["max_tokens_param"] == "max_completion_tokens"


async def test_the_kind_set_explicitly_is_sent_from_the_first_call_and_never_overridden(tmp_path):
    with FakeProviderServer("openai", reasoning_model=True) as srv:
        client = client_of(srv, "team-judge-prod", tmp_path, reasoning=True)
        await client.client.complete(ask())
        (q,) = srv.requests
        assert q.body["max_completion_tokens"] == 4096 and "temperature" not in q.body
        assert client.describe()["kind_from"] == "explicit"
        # said to be an ordinary model: the server's refusal is the answer, not a lesson
        wrong = client_of(srv, "team-judge-prod", tmp_path, reasoning=False)
        with pytest.raises(ApiError, match="Unsupported parameter: 'max_tokens'"):
            await wrong.client.complete(ask())
        assert len(srv.requests) == 2


async def test_a_server_that_does_not_know_max_completion_tokens_teaches_the_other_name(tmp_path):
    # an older compatible server serving a model whose name reads as a reasoning model's
    with FakeProviderServer("openai") as srv:
        srv.allowed = srv.allowed - {"max_completion_tokens"}
        client = client_of(srv, "gpt-5-local", tmp_path)
        reply = await client.client.complete(ask())
    assert [list(q.body)[-1] for q in srv.requests] == ["max_completion_tokens", "max_tokens"]
    assert reply.learned[0] == {"setting": "max_tokens_param", "value": "max_tokens",
                                "server_message": "Unrecognized request argument supplied: max_completion_tokens"}


async def test_the_largest_output_set_explicitly_or_learned(tmp_path):
    with FakeProviderServer("openai", max_output_tokens=2048, limit_wording="openai") as srv:
        told = client_of(srv, "small-vlm", tmp_path, max_output=2048)
        await told.client.complete(ask(max_tokens=4096))
        assert [q.body["max_tokens"] for q in srv.requests] == [2048]  # clamped before it is sent
        learner = client_of(srv, "small-vlm", tmp_path)
        reply = await learner.client.complete(ask(max_tokens=4096))
        assert [q.body["max_tokens"] for q in srv.requests[1:]] == [4096, 2048]
        assert reply.learned == [{"setting": "max_output", "value": 2048,
                                  "server_message": reply.output_cap["server_message"]}]
        await learner.client.complete(ask("again", max_tokens=4096))
        assert srv.requests[-1].body["max_tokens"] == 2048 and len(srv.requests) == 4  # learned: no refusal


async def test_a_request_without_a_cap_sends_none_or_the_models_largest(tmp_path):
    with FakeProviderServer("openai") as srv:
        await client_of(srv, "gpt-4o", tmp_path).client.complete(ask(max_tokens=None))
        assert not {"max_tokens", "max_completion_tokens"} & set(srv.requests[0].body)
    # Anthropic's API needs a cap: the model's largest, learned from the refusal when the table does not know it
    with FakeProviderServer("anthropic", max_output_tokens=8192, model_name="claude-next") as srv:
        client = client_of(srv, "claude-next", tmp_path)
        reply = await client.client.complete(ask(max_tokens=None))
        await client.client.complete(ask("again", max_tokens=None))
        with pytest.raises(ModelError, match="reasoning is OpenAI's"):
            client_of(srv, "claude-next", tmp_path, reasoning=True)
    assert [q.body["max_tokens"] for q in srv.requests] == [1_000_000, 8192, 8192]
    assert reply.max_tokens == 8192 and reply.learned[0]["setting"] == "max_output"


# --------------------------------------------------------------------------- images within the provider's limits


def noise_png(w: int, h: int, seed: int = 1) -> bytes:
    """A PNG that compresses badly (random pixels): large in bytes for its size."""
    rnd = random.Random(seed)
    im = Image.frombytes("RGB", (w, h), rnd.randbytes(w * h * 3))
    buf = io.BytesIO()
    im.save(buf, format="PNG")
    return buf.getvalue()


def size_of(data: bytes) -> tuple[int, int]:
    with Image.open(io.BytesIO(data)) as im:
        return im.size


def test_the_published_downscale():
    # the long side to the limit, the other side in proportion rounded down; the format kept
    for (w, h), want in (((1920, 1080), (1000, 562)), ((1080, 1920), (562, 1000)), ((900, 300), (900, 300))):
        data, mime, before, after = published_downscale(png_bytes(w, h, (10, 200, 30)), "image/png", 1000)
        assert (before, after, size_of(data), mime) == ((w, h), want, want, "image/png")
    jpg = io.BytesIO()
    Image.new("RGB", (3000, 100), (1, 2, 3)).save(jpg, format="JPEG")
    data, mime, _, after = published_downscale(jpg.getvalue(), "image/jpeg", 2000)
    assert mime == "image/jpeg" and data[:2] == b"\xff\xd8" and after == (2000, 66)


def test_each_limit_is_kept():
    small = png_bytes(40, 30, (250, 0, 0))
    # within every limit: the request is the same object
    req = ask(images=(small,))
    assert fit_images(req, LIMITS["anthropic"]) == (req, [])
    # a side over the limit
    out, changes = fit_images(ask(images=(png_bytes(9000, 30, (0, 0, 0)),)), LIMITS["anthropic"])
    assert size_of(out.messages[0].content[1].data) == (8000, 26)
    assert changes == [{"index": 0, "before": [9000, 30, changes[0]["before"][2]],
                        "after": [8000, 26, len(out.messages[0].content[1].data)], "why": "longer than 8000 px a side"}]
    # more than 20 images: 2000 px a side, each one over it
    many = [png_bytes(2100, 10, (0, 0, 0))] + [small] * 20
    out, changes = fit_images(ask(images=tuple(many)), LIMITS["anthropic"])
    assert [c["index"] for c in changes] == [0] and size_of(out.messages[0].content[1].data) == (2000, 9)
    # bytes over the limit (counted as base64 here): downscaled step by step until they fit
    lim = ImageLimits(max_bytes=60_000, counted="base64")
    big = noise_png(300, 200)
    out, (c,) = fit_images(ask(images=(big,)), lim)
    got = out.messages[0].content[1].data
    assert 4 * -(-len(got) // 3) <= 60_000 < 4 * -(-len(big) // 3) and c["why"] == "over 0 MB (base64)"
    assert size_of(got)[0] / size_of(got)[1] == pytest.approx(1.5, abs=0.02)
    # the request's images over its total: the largest shrunk first
    lim = ImageLimits(max_total_bytes=150_000)
    out, changes = fit_images(ask(images=(noise_png(200, 200, 1), noise_png(120, 120, 2))), lim)
    assert sum(len(p.data) for p in out.messages[0].content[1:]) <= 150_000 and changes[0]["index"] == 0
    with pytest.raises(ModelError, match="at most 100"):
        fit_images(ask(images=(small,) * 101), LIMITS["anthropic"])


async def test_judge_images_over_anthropics_limits_are_downscaled_and_recorded(tmp_path):
    wide = png_bytes(9000, 40, (255, 255, 255))
    heavy = noise_png(1800, 1100)
    assert len(heavy) * 4 / 3 > 5 * 1024 * 1024  # over the API's 5 MB
    replies = JudgeReplies(["Yes", "Yes"])
    with FakeProviderServer("anthropic", responder=replies, image_limits=True) as srv:
        client = client_of(srv, "claude-sonnet-4-5", tmp_path)
        # the stand-in refuses what the API refuses: sent unchecked, the call fails
        unchecked = client_of(srv, "claude-sonnet-4-5", tmp_path / "u")
        unchecked.client.image_limits = None
        with pytest.raises(ApiError, match="image exceeds 5 MB maximum"):
            await unchecked.client.complete(ask(images=(heavy,)))
        judge = make_assertion_judge(client, tmp_path)
        verdict, _ = await judge(CLICK, wide, heavy)
    assert verdict is True
    sent = srv.images(-1)
    assert size_of(sent[0][1]) == (8000, 35) and len(sent[1][1]) * 4 / 3 <= 5 * 1024 * 1024
    row = json.loads((tmp_path / "llm" / "assert.jsonl").read_text().splitlines()[-1])
    assert [(c["index"], c["before"][:2]) for c in row["images_downscaled"]] == [(0, [9000, 40]), (1, [1800, 1100])]
    assert "longer than 8000 px" in row["images_downscaled"][0]["why"]
    assert "over 5 MB" in row["images_downscaled"][1]["why"]
