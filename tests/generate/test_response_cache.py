"""The response cache: what changes the key, atomic entries, and a cached client."""

from __future__ import annotations

import dataclasses

from iwrbench.models.cache import CachedClient, ResponseCache, default_cache_dir, request_key
from iwrbench.models.chat import ChatReply, ChatRequest, ImagePart, Message, TextPart, Usage

CLIENT = {"provider": "openai", "model": "m", "base_url": "http://127.0.0.1:1/v1"}


def req(text="hi", image=b"\x89PNG-1", **kw):
    return ChatRequest(messages=[Message("user", [TextPart(text), ImagePart(image, label="a")])], **kw)


def test_key_depends_on_what_is_sent_only():
    k = request_key(req(), CLIENT)
    assert k == request_key(req(), dict(reversed(list(CLIENT.items()))))
    relabelled = ChatRequest(messages=[Message("user", [TextPart("hi"), ImagePart(b"\x89PNG-1", label="other")])])
    assert request_key(relabelled, CLIENT) == k  # labels are not sent
    assert len({
        k,
        request_key(req(text="hi!"), CLIENT),
        request_key(req(image=b"\x89PNG-2"), CLIENT),
        request_key(req(temperature=0.5), CLIENT),
        request_key(req(max_tokens=10), CLIENT),
        request_key(req(extra={"seed": 1}), CLIENT),
        request_key(req(), {**CLIENT, "model": "m2"}),
        request_key(req(), {**CLIENT, "base_url": "http://127.0.0.1:2/v1"}),
    }) == 8


def test_put_get_roundtrip_and_atomic_layout(tmp_path):
    cache = ResponseCache(tmp_path)
    key = request_key(req(), CLIENT)
    assert cache.get(key) is None and key not in cache
    path = cache.put(key, ChatReply("text", Usage(10, 5, 0.01), stop_reason="stop"), {"model": "m"})
    assert path == tmp_path / key[:2] / f"{key}.json" and key in cache
    assert [p.name for p in path.parent.iterdir()] == [path.name]  # no temporary file left
    hit = cache.get(key)
    assert (hit.text, hit.cached, hit.calls, hit.stop_reason) == ("text", True, 0, "stop")
    assert dataclasses.astuple(hit.usage) == (10, 5, 0.01)


def test_unreadable_entry_is_a_miss(tmp_path):
    cache = ResponseCache(tmp_path)
    key = request_key(req(), CLIENT)
    cache.path(key).parent.mkdir(parents=True)
    cache.path(key).write_text("{not json")
    assert cache.get(key) is None
    cache.put(key, ChatReply("ok"))
    assert cache.get(key).text == "ok"


def test_default_dir_follows_the_environment(monkeypatch, tmp_path):
    monkeypatch.setenv("IWR_CACHE", str(tmp_path / "iwr"))
    assert default_cache_dir() == tmp_path / "iwr" / "responses"
    monkeypatch.delenv("IWR_CACHE")
    monkeypatch.setenv("HOME", str(tmp_path / "home"))
    assert default_cache_dir() == tmp_path / "home" / ".cache" / "iwrbench" / "responses"


async def test_cached_client_calls_once(tmp_path):
    class Counting:
        name = "fake:m"
        calls = 0

        def cache_identity(self):
            return {"provider": "fake", "model": "m"}

        async def complete(self, request):
            Counting.calls += 1
            return ChatReply("answer", Usage(1, 2))

    client = CachedClient(Counting(), ResponseCache(tmp_path))
    first, second = await client.complete(req()), await client.complete(req())
    assert Counting.calls == 1 and not first.cached and second.cached and second.text == "answer"
