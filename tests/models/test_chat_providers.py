"""Both providers against a local server that speaks their protocol.

Each test runs for ``openai`` and ``anthropic``: a good reply, 429 + Retry-After, 500, a
malformed body, a reply slower than the timeout, a reply without a page, a 4xx, the order and
number of images sent, the response cache and the budget.
"""

from __future__ import annotations

import asyncio
import io
import json
import time

import pytest
from PIL import Image

from iwrbench.errors import ModelError
from iwrbench.models.base import ASSETS_URL_PREFIX, GenerationOptions, Model, PLACEHOLDER_PREFIX
from iwrbench.models.pricing import Budget
from iwrbench.generate.registry import resolve_model
from fake_provider import FakeProviderServer, Scripted, frame_index_of, html_reply


@pytest.fixture(params=["openai", "anthropic"])
def protocol(request):
    return request.param


@pytest.fixture
def server(protocol):
    with FakeProviderServer(protocol) as srv:
        yield srv


def options(tmp_path, **kw) -> GenerationOptions:
    extra = {"retry_base_s": 0.01, **kw.pop("extra", {})}
    kw.setdefault("cache_dir", tmp_path / "cache")
    return GenerationOptions(extra=extra, **kw)


def model_for(server, opts, name="test-model", **kw):
    return resolve_model(f"{server.protocol}:{name}", opts, base_url=server.base_url, **kw)


async def test_good_reply_writes_the_page(server, task, tmp_path):
    img = f'<img src="{PLACEHOLDER_PREFIX}asset001.png" width="8" height="8"><iframe src="https://x"></iframe>'
    server.push(Scripted(text=html_reply(img)))
    opts = options(tmp_path)
    model = model_for(server, opts)
    assert isinstance(model, Model)
    gen = await model.generate(task, tmp_path / "out", opts)

    assert gen.status == "ok", gen.error
    page = (gen.page.root / gen.page.entry).read_text()
    assert f'src="{ASSETS_URL_PREFIX}asset001.png"' in page
    assert "iframe" not in page and PLACEHOLDER_PREFIX not in page
    info = gen.info
    assert (info.cached, info.calls, info.images) == (False, 1, 11)
    assert (info.input_tokens, info.output_tokens) == (1000, 500)
    assert info.cost_usd is None  # unknown model: no guessed price
    assert (tmp_path / "out" / info.raw_reply).read_text() == html_reply(img)
    manifest = json.loads((tmp_path / "out" / "request.json").read_text())
    assert manifest["images"] == 11

    (req,) = server.requests
    body = req.body
    assert body["model"] == "test-model" and body["temperature"] == 0.0
    assert body["max_tokens"] == opts.max_output_tokens
    if server.protocol == "openai":
        assert req.path == "/v1/chat/completions"
        assert "authorization" not in req.headers  # no key needed for a local server
        part = body["messages"][0]["content"][1]
        assert part["type"] == "image_url" and part["image_url"]["url"].startswith("data:image/png;base64,")
    else:
        assert req.path == "/v1/messages"
        assert req.headers["anthropic-version"] == "2023-06-01"
        part = body["messages"][0]["content"][1]
        assert part["type"] == "image" and part["source"]["type"] == "base64"


async def test_content_order_text_then_composites_then_frames(server, task, tmp_path):
    opts = options(tmp_path)
    await model_for(server, opts).generate(task, tmp_path / "out", opts)
    assert server.content_kinds() == ["text"] + ["image"] * 11
    assert "__PLACEHOLDER_ASSETS_BASE_DIR__/" in server.texts()[0]
    images = server.images()
    composite = (task.dir / "stitched_assets" / "stitched_image_1.png").read_bytes()
    assert images[0] == ("image/png", composite)
    frames = [Image.open(io.BytesIO(data)) for _, data in images[1:]]
    assert {mime for mime, _ in images[1:]} == {"image/jpeg"}
    # frame i of a 10 fps video encodes i: 1 per second gives 0, 10, ..., 90 in time order
    assert [frame_index_of(f) for f in frames] == list(range(0, 100, 10))


async def test_frames_capped_at_64_and_max_images(server, long_task, tmp_path):
    opts = options(tmp_path)
    await model_for(server, opts).generate(long_task, tmp_path / "a", opts)
    assert server.content_kinds() == ["text"] + ["image"] * (2 + 64)

    opts = options(tmp_path, max_images=10)
    gen = await model_for(server, opts).generate(long_task, tmp_path / "b", opts)
    assert server.content_kinds() == ["text"] + ["image"] * 10
    assert (gen.info.composites, gen.info.frames) == (2, 8)
    times = [json.loads((tmp_path / "b" / "request.json").read_text())["messages"][0]["content"][i]["label"]
             for i in (3, 10)]
    assert times == ["frame 1 (t=0.0s)", "frame 8 (t=70.0s)"]  # still spread over the whole video


async def test_429_honours_retry_after(server, task, tmp_path):
    server.push(Scripted(status=429, headers={"Retry-After": "1"}), Scripted(text=html_reply()))
    opts = options(tmp_path)
    gen = await model_for(server, opts).generate(task, tmp_path / "out", opts)
    assert gen.status == "ok", gen.error
    assert gen.info.calls == 2 and len(server.requests) == 2
    gap = server.requests[1].t - server.requests[0].t
    assert gap >= 0.95, f"retried after {gap:.2f}s, server asked for 1s"


async def test_500_then_success(server, task, tmp_path):
    server.push(Scripted(status=500), Scripted(status=503), Scripted(text=html_reply()))
    opts = options(tmp_path)
    gen = await model_for(server, opts).generate(task, tmp_path / "out", opts)
    assert gen.status == "ok", gen.error
    assert gen.info.calls == 3 and len(server.requests) == 3


async def test_500_until_retries_run_out_is_an_api_error(server, task, tmp_path):
    server.default = Scripted(status=500)
    opts = options(tmp_path, retries=2)
    gen = await model_for(server, opts).generate(task, tmp_path / "out", opts)
    assert gen.status == "generation_error" and gen.page is None
    assert gen.error.startswith("api: ") and "HTTP 500" in gen.error and "3 attempts" in gen.error
    assert len(server.requests) == 3 and gen.info.calls == 3
    assert not (tmp_path / "out" / "index.html").exists()


async def test_malformed_body_is_a_clear_error_without_retry(server, task, tmp_path):
    server.push(Scripted(body='{"choices": [ {"message": '))
    opts = options(tmp_path)
    gen = await model_for(server, opts).generate(task, tmp_path / "out", opts)
    assert gen.status == "generation_error"
    assert gen.error.startswith("api: ") and "malformed JSON body" in gen.error
    assert len(server.requests) == 1


async def test_unexpected_json_shape_is_a_clear_error(server, task, tmp_path):
    server.push(Scripted(body={"unexpected": True}))
    opts = options(tmp_path)
    gen = await model_for(server, opts).generate(task, tmp_path / "out", opts)
    assert gen.status == "generation_error" and gen.error.startswith("api: ")
    assert len(server.requests) == 1


async def test_slow_reply_times_out_is_retried_then_fails_cleanly(server, task, tmp_path):
    server.default = Scripted(text=html_reply(), delay_s=3)
    opts = options(tmp_path, timeout_s=0.3, retries=1)
    gen = await model_for(server, opts).generate(task, tmp_path / "out", opts)
    assert gen.status == "generation_error"
    assert gen.error.startswith("api: ") and "no reply within 0.3s" in gen.error  # cut at the timeout, not waited out
    assert len(server.requests) == 2 and gen.info.calls == 2


async def test_slow_then_fast_reply_succeeds(server, task, tmp_path):
    server.push(Scripted(text=html_reply(), delay_s=3), Scripted(text=html_reply()))
    opts = options(tmp_path, timeout_s=0.5, retries=2)
    gen = await model_for(server, opts).generate(task, tmp_path / "out", opts)
    assert gen.status == "ok" and gen.info.calls == 2


async def test_reply_without_html_is_a_generation_error_with_the_raw_reply(server, task, tmp_path):
    out = tmp_path / "out"
    out.mkdir()
    (out / "index.html").write_text("<html>an older page</html>")
    text = "I'm sorry, I can't rebuild this website."
    server.push(Scripted(text=text))
    opts = options(tmp_path)
    gen = await model_for(server, opts).generate(task, out, opts)
    assert gen.status == "generation_error" and gen.page is None
    assert gen.error.startswith("no_page: ")
    assert (out / gen.info.raw_reply).read_text() == text
    assert not (out / "index.html").exists()  # an older page is never left to be judged


async def test_truncated_reply_says_so(server, task, tmp_path):
    server.push(Scripted(text="```html\n", stop_reason="length" if server.protocol == "openai" else "max_tokens"))
    opts = options(tmp_path)
    gen = await model_for(server, opts).generate(task, tmp_path / "out", opts)
    assert gen.status == "generation_error" and "output token limit" in gen.error


@pytest.mark.parametrize("status", [400, 401, 403, 404])
async def test_client_errors_are_not_retried(server, task, tmp_path, status):
    server.push(Scripted(status=status, body={"error": {"message": "you did something wrong", "type": "x"}}))
    opts = options(tmp_path)
    gen = await model_for(server, opts).generate(task, tmp_path / "out", opts)
    assert gen.error.startswith("api: ")
    assert f"HTTP {status}" in gen.error and "you did something wrong" in gen.error
    assert len(server.requests) == 1


async def test_second_generate_is_served_from_the_cache(server, task, tmp_path):
    opts = options(tmp_path)
    model = model_for(server, opts)
    first = await model.generate(task, tmp_path / "a", opts)
    again = await model_for(server, opts).generate(task, tmp_path / "b", opts)  # a fresh model, same cache
    assert len(server.requests) == 1
    assert again.status == "ok" and again.info.cached and again.info.calls == 0
    assert (tmp_path / "b" / "index.html").read_text() == (tmp_path / "a" / "index.html").read_text()
    assert again.info.cache_key == first.info.cache_key

    changed = options(tmp_path, extra={"max_frames": 5})
    await model_for(server, changed).generate(task, tmp_path / "c", changed)
    assert len(server.requests) == 2  # different inputs, different key


async def test_no_page_replies_are_cached_too(server, task, tmp_path):
    server.default = Scripted(text="no page here")
    opts = options(tmp_path)
    for d in ("a", "b"):
        gen = await model_for(server, opts).generate(task, tmp_path / d, opts)
        assert gen.error.startswith("no_page: ")
    assert len(server.requests) == 1


async def test_failed_calls_are_not_cached(server, task, tmp_path):
    server.push(Scripted(status=400))
    opts = options(tmp_path)
    assert (await model_for(server, opts).generate(task, tmp_path / "a", opts)).status == "generation_error"
    assert (await model_for(server, opts).generate(task, tmp_path / "a", opts)).status == "ok"
    assert len(server.requests) == 2


async def test_budget_stops_new_calls(server, task, long_task, tmp_path):
    opts = options(tmp_path, extra={"price_in": 1.0, "price_out": 2.0})
    budget = Budget(max_usd=0.001)
    model = model_for(server, opts, budget=budget)
    gen = await model.generate(task, tmp_path / "a", opts)
    assert gen.status == "ok" and gen.info.cost_usd == pytest.approx(1000 * 1e-6 + 500 * 2e-6)
    assert budget.spent == pytest.approx(0.002)
    refused = await model.generate(long_task, tmp_path / "b", opts)
    assert refused.status == "generation_error" and refused.error.startswith("budget: ")
    assert refused.info.calls == 0 and len(server.requests) == 1
    # a cached reply costs nothing and is still served
    cached = await model.generate(task, tmp_path / "c", opts)
    assert cached.status == "ok" and cached.info.cached and cached.info.cost_usd == 0.0
    assert budget.as_dict()["refused"] == 1


async def test_concurrency_limit_per_provider(server, tmp_path):
    from iwrbench.models.chat import ChatRequest, Message, TextPart

    server.default = Scripted(text="ok", delay_s=0.15)
    opts = options(tmp_path, concurrency=2, cache_dir=None, extra={"cache": False})
    model = model_for(server, opts)
    req = ChatRequest(messages=[Message("user", [TextPart("hi")])])
    replies = await asyncio.gather(*(model.client.complete(req) for _ in range(5)))
    assert [r.text for r in replies] == ["ok"] * 5
    assert server.max_in_flight == 2


async def test_missing_key_for_the_vendor_api_fails_at_creation(protocol, tmp_path):
    with pytest.raises(ModelError, match="API_KEY"):
        resolve_model(f"{protocol}:some-model", options(tmp_path))
    # a dry run needs no key
    resolve_model(f"{protocol}:some-model", options(tmp_path, dry_run=True))


async def test_api_key_is_sent(server, task, tmp_path, monkeypatch):
    var = "OPENAI_API_KEY" if server.protocol == "openai" else "ANTHROPIC_API_KEY"
    monkeypatch.setenv(var, "sk-test")
    opts = options(tmp_path)
    await model_for(server, opts).generate(task, tmp_path / "out", opts)
    h = server.requests[0].headers
    assert h.get("authorization") == "Bearer sk-test" if server.protocol == "openai" else h["x-api-key"] == "sk-test"


async def test_base_url_from_environment(server, task, tmp_path, monkeypatch):
    monkeypatch.setenv("OPENAI_BASE_URL" if server.protocol == "openai" else "ANTHROPIC_BASE_URL", server.base_url)
    opts = options(tmp_path)
    gen = await resolve_model(f"{server.protocol}:m", opts).generate(task, tmp_path / "out", opts)
    assert gen.status == "ok" and len(server.requests) == 1


def test_describe_records_how_the_model_is_asked(server, tmp_path):
    opts = options(tmp_path, extra={"per_model": {f"{server.protocol}:test-model": {"max_frames": 12}}})
    d = model_for(server, opts).describe()
    assert d["provider"] == server.protocol and d["model"] == "test-model" and d["base_url"] == server.base_url
    assert d["prompt_version"] == "iwr-v1" and len(d["prompt_sha256"]) == 64
    assert d["inputs"]["max_frames"] == 12 and d["inputs"]["order"] == ["prompt", "composites", "frames"]
    assert d["inputs"]["max_image_side"] == (2000 if server.protocol == "anthropic" else None)
    json.dumps(d)  # JSON-safe for run.json


async def test_openai_reasoning_models_use_max_completion_tokens(tmp_path, task):
    with FakeProviderServer("openai") as srv:
        opts = options(tmp_path)
        await resolve_model("openai:gpt-5-mini", opts, base_url=srv.base_url).generate(task, tmp_path / "o", opts)
        body = srv.requests[0].body
        assert "max_tokens" not in body and body["max_completion_tokens"] == 32000
        assert "temperature" not in body
        await resolve_model("openai:gpt-4o", opts, base_url=srv.base_url).generate(task, tmp_path / "p", opts)
        assert srv.requests[1].body["max_tokens"] == 16384  # clamped to what gpt-4o accepts


async def test_anthropic_system_prompt_is_separate(tmp_path):
    from iwrbench.models.chat import ChatRequest, Message, TextPart

    with FakeProviderServer("anthropic") as srv:
        model = resolve_model("anthropic:m", options(tmp_path, extra={"cache": False}), base_url=srv.base_url)
        req = ChatRequest(messages=[Message("system", [TextPart("be brief")]), Message("user", [TextPart("hi")])])
        reply = await model.client.complete(req)
        body = srv.requests[0].body
        assert body["system"] == "be brief" and [m["role"] for m in body["messages"]] == ["user"]
        assert reply.text.startswith("Here is the page")


@pytest.mark.parametrize("stream", [True, False])
async def test_streamed_and_whole_replies_give_the_same_result(server, task, tmp_path, stream):
    opts = options(tmp_path, extra={"stream": stream, "cache": False})
    gen = await model_for(server, opts).generate(task, tmp_path / "out", opts)
    assert gen.status == "ok", gen.error
    assert (gen.info.input_tokens, gen.info.output_tokens) == (1000, 500)
    assert gen.info.stop_reason in ("stop", "end_turn")
    assert (tmp_path / "out" / "raw_reply.txt").read_text() == html_reply()
    assert server.requests[0].body.get("stream", False) is stream


async def test_error_inside_a_stream_is_retried(server, task, tmp_path):
    server.push(Scripted(text=html_reply(), stream_error="overloaded_error"), Scripted(text=html_reply()))
    opts = options(tmp_path, extra={"stream": True})
    gen = await model_for(server, opts).generate(task, tmp_path / "out", opts)
    assert gen.status == "ok", gen.error
    assert gen.info.calls == 2


async def test_a_stream_may_take_longer_than_the_timeout_while_it_keeps_coming(server, task, tmp_path):
    server.push(Scripted(text=html_reply(), chunk_delay_s=0.1))  # ~6 chunks: longer than 0.4 s in all
    opts = options(tmp_path, timeout_s=0.4, retries=0, extra={"stream": True})
    t0 = time.monotonic()
    gen = await model_for(server, opts).generate(task, tmp_path / "out", opts)
    assert gen.status == "ok", gen.error
    assert time.monotonic() - t0 > 0.4 and gen.info.calls == 1


async def test_unreachable_server_is_an_api_error(protocol, task, tmp_path):
    import socket

    with socket.socket() as s:  # a port nobody listens on
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    opts = options(tmp_path, retries=1)
    model = resolve_model(f"{protocol}:m", opts, base_url=f"http://127.0.0.1:{port}")
    gen = await model.generate(task, tmp_path / "out", opts)
    assert gen.status == "generation_error" and gen.error.startswith("api: ") and "cannot reach" in gen.error
    assert gen.info.calls == 2 and (tmp_path / "out" / "api_error.txt").is_file()


async def test_generation_info_is_recorded_as_json(server, task, tmp_path):
    from iwrbench.records import TaskResult

    opts = options(tmp_path)
    gen = await model_for(server, opts).generate(task, tmp_path / "out", opts)
    r = TaskResult(model="m", task_id=task.id, status="ok", protocol="offline@2", generation=gen.info)
    back = json.loads(r.model_dump_json())["generation"]
    assert back["prompt_version"] == "iwr-v1" and back["frames"] == 10 and back["composites"] == 1
    assert back["extraction"]["source"] == "fenced_html" and back["raw_reply"] == "raw_reply.txt"


async def test_fake_provider_refuses_undocumented_body_fields_like_the_real_services(server, tmp_path):
    from iwrbench.models.chat import ChatRequest, Message, TextPart
    from iwrbench.models.http import ApiError

    model = resolve_model(f"{server.protocol}:m", options(tmp_path, extra={"cache": False}),
                          base_url=server.base_url)
    req = ChatRequest(messages=[Message("user", [TextPart("hi")])], extra={"purpose": "visual_rubric"})
    with pytest.raises(ApiError, match="purpose"):
        await model.client.complete(req)
    assert len(server.requests) == 1, "a 400 is not retried"
    assert server.requests[-1].body["purpose"] == "visual_rubric"


async def test_rubric_judge_requests_hold_only_documented_fields(server, tmp_path):
    from PIL import Image

    from iwrbench.metrics._rubric import MllmRubric

    reply = '{"layout": 8, "elements": 12, "content_text": 30, "style": 11, "overall": 15}'
    server.push(Scripted(text=reply))
    model = resolve_model(f"{server.protocol}:m", options(tmp_path, extra={"cache": False}), base_url=server.base_url)
    rubric = MllmRubric(model.client)
    img = Image.new("RGB", (64, 48), "white")
    result = await rubric.score(img, img)
    assert result.score == 76
    body = server.requests[-1].body
    assert not {"purpose", "prompt_version", "prompt_sha256"} & set(body)
