"""iwr-bench@1 end to end against a stand-in judge server on 127.0.0.1 that behaves like the real
services (no key, no internet): it refuses undocumented body fields (HTTP 400), is a reasoning model
(refuses max_tokens and temperature 0, thinks before it answers and answers empty under a small cap)
and rate-limits with 429 + Retry-After. Its replies are a judge model's (``JudgeReplies``): an index
for the grounder, JSON Yes/No for the before/after question, ``Score: n/100`` for the rubric.
Components that need weights we cannot have here (EasyOCR, DINOv2) are swapped by explicit
overrides, which run.json records; without them the protocol refuses to start (tested below).
"""

import json
import re
import subprocess
import sys

import pytest

from fake_provider import FakeProviderServer, JudgeReplies
from iwrbench.runs.evaluate import EvalConfig, evaluate
from iwrbench.runs.rundir import RunDir

#: a reasoning judge (max_completion_tokens, no temperature); it thinks 2,500 tokens before each answer
JUDGE = "openai:gpt-5-mini"
THINKS = 2500


def judge_server(replies: JudgeReplies, **kw) -> FakeProviderServer:
    kw.setdefault("rate_limit_every", 7)
    kw.setdefault("reasoning_tokens", THINKS)
    return FakeProviderServer("openai", responder=replies, reasoning_model=True, retry_after=1, **kw)


def published_eval(tasks, out, srv, cache, models=("oracle", "blank"), **kw):
    cfg = EvalConfig(tasks=tasks, models=list(models), out=out, protocol="iwr-bench@1", judge_model=JUDGE,
                     judge_base_url=srv.base_url, ocr="tesseract", visual="hog-colour", **kw)
    cfg.options.cache_dir = cache
    return evaluate(cfg)


@pytest.fixture(scope="module")
def published_runs(smoke_tasks, tmp_path_factory):
    root = tmp_path_factory.mktemp("pub")
    suite = smoke_tasks["todo-add-filter"]
    out = {}
    for name, verdicts in (("yes", None), ("no", ["Yes", "No"])):
        replies = JudgeReplies(verdicts)
        with judge_server(replies) as srv:
            summary = published_eval(suite, root / name, srv, root / f"cache-{name}")
        out[name] = (summary, {r.model: r for r in RunDir(root / name).results().values()}, srv, root / name)
    return out


def run_dir_task(runs):
    import json as _json

    return _json.loads((runs["no"][3] / "run.json").read_text())["suite"]


def test_a_stand_in_like_the_real_services_judges_a_suite_with_no_judge_error(smoke_suite, tmp_path):
    replies = JudgeReplies()
    with judge_server(replies) as srv:
        summary = published_eval(smoke_suite, tmp_path / "r", srv, tmp_path / "cache")
    results = list(RunDir(tmp_path / "r").results().values())
    assert len(results) == 4 and not [r for r in results if r.status != "ok"], [(r.status, r.error) for r in results]
    assert all(row["errors"] == {} for row in summary["leaderboard"])
    # what the real services refuse was never sent, so no request was refused but the rate limit's
    bodies = [q.body for q in srv.requests]
    assert all("max_tokens" not in b and "temperature" not in b for b in bodies)
    # the grounder sends no output cap, as published; the judges the published 4,096 (assertions) and 16,384
    from fake_provider import request_texts

    grounder = [b for b in bodies if "Interactive elements, numbered" in request_texts(b)]
    assert grounder and all("max_completion_tokens" not in b for b in grounder)
    assert all(b["max_completion_tokens"] >= 4096 for b in bodies if b not in grounder)
    assert srv.rate_limited and not srv.cut_empty  # 429s were waited out; no reply came back empty
    assert len(srv.requests) == sum(replies.asked.values()) + len(srv.rate_limited)
    oracle = {r.task_id: r for r in results if r.model == "oracle"}
    assert all(r.high_level_visual == pytest.approx(77) for r in oracle.values())
    assert oracle["todo-add-filter"].ifs == 100
    # the published judge knows no Select: the wizard's oracle stops there, as it would in the published code
    wizard = oracle["signup-wizard"]
    sel = next(s for s in wizard.steps if s.type == "Select")
    assert not sel.executed and sel.error == "the published judge has no Select action"
    assert wizard.ifs == pytest.approx(100 * (sel.index - 1) / wizard.steps_total, abs=1e-3)
    assert replies.asked["assert"] == sum(1 for r in oracle.values() for s in r.steps if s.assertion)


def test_published_judge_parts_are_used_and_kept(published_runs):
    summary, res, srv, run = published_runs["yes"]
    assert summary["protocol"] == "iwr-bench@1"
    o = res["oracle"]
    assert o.ifs == 100
    asserted = [s for s in o.steps if s.assertion]
    assert asserted and all(s.assertion.method == "mllm" and s.assertion.passed for s in asserted)
    assert o.high_level_visual == pytest.approx(77)  # the rubric reply's Score: line
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
    # the visual pairs are the published code's for this trajectory (tests/test_protocols.py transcribes it)
    from test_protocols import transcribed_published_pairs

    from iwrbench.tasks import load_task

    task = load_task(run_dir_task(published_runs))
    flags = [a.visual_evaluation_flag for a in task.action_sequence]
    results = [("No" if s.index == second else "Yes") if task.action_sequence[s.index - 1].logical_assertion else None
               for s in o.steps]
    got = [(o.initial.checkpoint, int(o.initial.shot[5:-4]))] + [
        (s.visual.checkpoint, int(s.visual.shot[5:-4])) for s in o.steps if s.visual is not None]
    assert got == transcribed_published_pairs(flags, len(flags), results)
    assert all(s.visual.gt == f"checkpoints/step_{s.visual.checkpoint}.png" for s in o.steps if s.visual)


def test_an_unreadable_verdict_is_a_judge_error_never_a_pass(smoke_tasks, tmp_path):
    garbled = ["I cannot tell from these pictures."] * 10
    with judge_server(JudgeReplies(garbled), rate_limit_every=None) as srv:
        published_eval(smoke_tasks["todo-add-filter"], tmp_path / "r", srv, tmp_path / "cache", models=("oracle",),
                       retries=0)
    (r,) = RunDir(tmp_path / "r").results().values()
    assert r.status == "judge_error" and "no readable reply in 6 attempt" in (r.error or "")
    assert "I cannot tell" in r.error and r.ifs is None  # not scored; the reply is in the row
    kept = (tmp_path / "r" / "shots" / "oracle" / "todo-add-filter" / "llm" / "assert.jsonl").read_text().splitlines()
    assert len(kept) == 6 and all(json.loads(k)["verdict"] is None for k in kept)  # every attempt kept


def test_an_empty_reply_is_never_a_pass_and_a_cut_one_is_asked_with_more_room(smoke_tasks, tmp_path):
    # a judge that thinks more than the published 4096 tokens: the first reply to each question is empty
    replies = JudgeReplies()
    with judge_server(replies, rate_limit_every=None, reasoning_tokens=6000) as srv:
        published_eval(smoke_tasks["todo-add-filter"], tmp_path / "r", srv, tmp_path / "cache", models=("oracle",))
    (r,) = RunDir(tmp_path / "r").results().values()
    assert r.status == "ok" and r.ifs == 100
    assert srv.cut_empty and all(b["max_completion_tokens"] == 4096 for b in srv.cut_empty)
    assert all(q.body["max_completion_tokens"] in (4096, 8192, 16384, 32768) for q in srv.requests)


def test_the_published_reply_is_read_as_published():
    from iwrbench.judge.llm import parse_yes_no

    assert parse_yes_no('{"think": "ok", "result": "Yes"}') is True
    assert parse_yes_no('Sure:\n```json\n{"think": "no change", "result": "No"}\n```') is False
    assert parse_yes_no('{"think": "hmm", "result": "Maybe"}') is None  # JSON, but no Yes/No result
    assert parse_yes_no("Yes, the counter reads 2") is True  # not JSON: the first of Yes/No in the text
    assert parse_yes_no("I cannot tell") is None


def published_reading(reply: str) -> str:
    """A transcription of the published reading (assertion_scorer.evaluate_assertion), in its own terms: the
    stripped reply, JSON from the first ```json block, else the first ``` block, else the whole (a slice ending at
    ``find`` = -1 when the fence is left open), ``result`` kept when Yes/No; any failure, the text decides."""
    t = reply.strip()
    try:
        if "```json" in t:
            a = t.find("```json") + 7
            body = t[a:t.find("```", a)].strip()
        elif "```" in t:
            a = t.find("```") + 3
            body = t[a:t.find("```", a)].strip()
        else:
            body = t
        result = json.loads(body).get("result", "Error")
        return result if result in ("Yes", "No") else "Error"
    except Exception:
        return "Yes" if "Yes" in t else "No" if "No" in t else "Error"


EDGE_REPLIES = [
    # a fence left open: the slice loses the reply's last character, the object no longer parses, the text decides
    'Here:\n```json\n{"think": "Yes, it moved, but the count is wrong", "result": "No"}',
    '```json\n{"think": "the total is 3", "result": "No"}\n',
    '```\n{"think": "Yes", "result": "No"}',
    '```json\n{"result": "Yes"}',
    # JSON that is not an object: the text decides
    '["No"]', '"Yes"', "null", "42", '[{"result": "Yes"}]',
    # an object with another result: no verdict, whatever the text says
    '{"think": "Yes", "result": true}', '{"think": "No"}',
    # the ordinary ones
    '```json\n{"think": "ok", "result": "Yes"}\n```', 'Yes.', 'No', '', 'I cannot say',
]


@pytest.mark.parametrize("reply", EDGE_REPLIES)
def test_the_published_reading_edge_cases(reply):
    from iwrbench.judge.llm import parse_yes_no

    want = {"Yes": True, "No": False, "Error": None}[published_reading(reply)]
    assert parse_yes_no(reply) is want


def test_the_edge_cases_read_as_published_differ_from_a_plain_reading():
    from iwrbench.judge.llm import parse_yes_no

    # an open fence whose JSON says No, with "Yes" in its reasoning: published, a pass
    assert parse_yes_no(EDGE_REPLIES[0]) is True
    assert parse_yes_no('["No"]') is False and parse_yes_no('"Yes"') is True


def test_missing_components_are_named(smoke_tasks, tmp_path):
    r = subprocess.run([sys.executable, "-m", "iwrbench.cli", "eval", "--tasks", str(smoke_tasks["todo-add-filter"]),
                        "--model", "blank", "--protocol", "iwr-bench@1", "--out", str(tmp_path / "r")],
                       capture_output=True, text=True, timeout=120)
    assert r.returncode == 2 and "Traceback" not in r.stderr
    assert re.search(r"easyocr.*dinov2.*judge model", r.stderr, re.S)
    assert not (tmp_path / "r").exists()
