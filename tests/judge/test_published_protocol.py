"""iwr-bench@1 end to end against a local OpenAI-compatible judge server (no key, no internet).

The server answers like a judge model would: the grounder's numbered list gets an index, the
before/after question gets Yes/No, the rubric gets its five scores as JSON. Components that need
weights we cannot have here (EasyOCR, DINOv2) are swapped by explicit overrides, which run.json
records; without them the protocol refuses to start (tested in the CLI test below).
"""

import json
import re
import subprocess
import sys
import threading
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

import pytest

from iwrbench.runs.evaluate import EvalConfig, evaluate
from iwrbench.runs.rundir import RunDir


class JudgeServer:
    def __init__(self, say_no_after: int | None = None, garbled: bool = False):
        self.garbled = garbled
        self.requests: list[str] = []
        self.say_no_after = say_no_after
        self.asserts = 0
        outer = self

        class H(BaseHTTPRequestHandler):
            def log_message(self, *a):
                pass

            def do_POST(self):
                body = json.loads(self.rfile.read(int(self.headers["Content-Length"])))
                text = " ".join(p.get("text", "") for m in body["messages"]
                                for p in (m["content"] if isinstance(m["content"], list) else [{"text": m["content"]}])
                                if isinstance(p, dict))
                outer.requests.append(text)
                reply = outer.answer(text)
                data = json.dumps({"id": "x", "object": "chat.completion", "model": body.get("model"),
                                   "choices": [{"index": 0, "message": {"role": "assistant", "content": reply},
                                                "finish_reason": "stop"}],
                                   "usage": {"prompt_tokens": 10, "completion_tokens": 2}}).encode()
                self.send_response(200)
                self.send_header("Content-Type", "application/json")
                self.send_header("Content-Length", str(len(data)))
                self.end_headers()
                self.wfile.write(data)

        self.httpd = ThreadingHTTPServer(("127.0.0.1", 0), H)
        threading.Thread(target=self.httpd.serve_forever, daemon=True).start()

    @property
    def base_url(self) -> str:
        return f"http://127.0.0.1:{self.httpd.server_address[1]}/v1"

    def answer(self, text: str) -> str:
        if "Interactive elements, numbered" in text:
            return '{"index": null}'
        if "Decide whether this statement" in text:
            self.asserts += 1
            if self.garbled:
                return "I cannot tell from these pictures."
            if self.say_no_after is not None and self.asserts > self.say_no_after:
                return '```json\n{"think": "the counter did not change", "result": "No"}\n```'
            return '{"think": "the page shows it", "result": "Yes"}'
        return json.dumps({"layout": 9, "elements": 12, "content_text": 30, "style": 12, "overall": 15})

    def stop(self):
        self.httpd.shutdown()


@pytest.fixture(scope="module")
def published_runs(smoke_tasks, tmp_path_factory):
    root = tmp_path_factory.mktemp("pub")
    suite = smoke_tasks["todo-add-filter"]
    out = {}
    for name, say_no_after in (("yes", None), ("no", 1)):
        srv = JudgeServer(say_no_after)
        try:
            cfg = EvalConfig(tasks=suite, models=["oracle", "blank"], out=root / name, protocol="iwr-bench@1",
                             judge_model="openai:judge-mini", judge_base_url=srv.base_url, ocr="tesseract",
                             visual="hog-colour")
            cfg.options.cache_dir = root / f"cache-{name}"
            summary = evaluate(cfg)
        finally:
            srv.stop()
        out[name] = (summary, {r.model: r for r in RunDir(root / name).results().values()}, srv, root / name)
    return out


def test_published_judge_parts_are_used_and_kept(published_runs):
    summary, res, srv, run = published_runs["yes"]
    assert summary["protocol"] == "iwr-bench@1"
    o = res["oracle"]
    assert o.ifs == 100
    asserted = [s for s in o.steps if s.assertion]
    assert asserted and all(s.assertion.method == "mllm" and s.assertion.passed for s in asserted)
    assert o.high_level_visual == pytest.approx(78)  # the rubric reply, summed
    shots = run / "shots" / "oracle" / "todo-add-filter"
    kept = [json.loads(x) for x in (shots / "llm" / "assert.jsonl").read_text().splitlines()]
    assert len(kept) == len(asserted) and all(k["verdict"] is True and '"result": "Yes"' in k["reply"] for k in kept)
    assert list(shots.glob("llm/rubric_*.txt"))
    # the blank page: deterministic rungs fail, so the LLM grounder was asked (and its reply kept)
    b = res["blank"]
    assert b.ifs == 0 and b.steps[0].grounding.tried[-1].rung == "llm"
    assert (run / "shots" / "blank" / "todo-add-filter" / "llm" / "ground.jsonl").is_file()
    spec = json.loads((run / "run.json").read_text())
    assert spec["judge"]["ocr"] and spec["judge"]["chat"]


def test_a_no_from_the_judge_ends_the_trajectory(published_runs):
    _, res, srv, _ = published_runs["no"]
    o = res["oracle"]
    asserted = [s.index for s in o.steps if s.assertion]
    second = asserted[1]
    assert o.steps[second - 1].assertion.passed is False
    assert o.ifs == pytest.approx(100 * (second - 1) / o.steps_total, abs=1e-3)


def test_an_unreadable_verdict_is_a_judge_error_never_a_pass(smoke_tasks, tmp_path):
    srv = JudgeServer(garbled=True)
    try:
        cfg = EvalConfig(tasks=smoke_tasks["todo-add-filter"], models=["oracle"], out=tmp_path / "r",
                         protocol="iwr-bench@1", judge_model="openai:judge-mini", judge_base_url=srv.base_url,
                         ocr="tesseract", visual="hog-colour", retries=0)
        cfg.options.cache_dir = tmp_path / "cache"
        evaluate(cfg)
    finally:
        srv.stop()
    (r,) = RunDir(tmp_path / "r").results().values()
    assert r.status == "judge_error" and "no readable verdict" in (r.error or "")
    assert r.ifs is None  # not scored


def test_the_published_reply_is_read_as_published():
    from iwrbench.judge.llm import parse_yes_no

    assert parse_yes_no('{"think": "ok", "result": "Yes"}') is True
    assert parse_yes_no('Sure:\n```json\n{"think": "no change", "result": "No"}\n```') is False
    assert parse_yes_no('{"think": "hmm", "result": "Maybe"}') is None  # JSON, but no Yes/No result
    assert parse_yes_no("Yes, the counter reads 2") is True  # not JSON: the first of Yes/No in the text
    assert parse_yes_no("I cannot tell") is None


def test_missing_components_are_named(smoke_tasks, tmp_path):
    r = subprocess.run([sys.executable, "-m", "iwrbench.cli", "eval", "--tasks", str(smoke_tasks["todo-add-filter"]),
                        "--model", "blank", "--protocol", "iwr-bench@1", "--out", str(tmp_path / "r")],
                       capture_output=True, text=True, timeout=120)
    assert r.returncode == 2 and "Traceback" not in r.stderr
    assert re.search(r"easyocr.*dinov2.*judge model", r.stderr, re.S)
    assert not (tmp_path / "r").exists()
