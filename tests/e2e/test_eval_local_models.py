"""`iwr eval` the way a researcher starts: a small local model behind an OpenAI-compatible server (the
stand-in FakeProviderServer on 127.0.0.1, emulating a 32k context), a unit that fails and is retried
with `--retry-errors`, `--limit`, and the Python API. Small synthetic tasks, judged in the real Chromium."""

from __future__ import annotations

import hashlib
import json
import subprocess
import sys
from pathlib import Path

import pytest

from iwrbench.models.context import CAP_MARGIN
from fake_provider import FakeProviderServer, Scripted, html_reply, prompt_tokens, write_synthetic_task

pytestmark = pytest.mark.browser

PAGE = '<button style="background:red;color:white;font-size:40px">the red button</button>'


@pytest.fixture(scope="module")
def suite(tmp_path_factory) -> Path:
    root = tmp_path_factory.mktemp("suite")
    for tid in ("alpha", "beta", "gamma"):
        write_synthetic_task(root / tid, task_id=tid, seconds=3, fps=5)
    return root


def iwr(*args: str) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "iwrbench.cli", *args], capture_output=True, text=True, timeout=900)


def results(run: Path) -> list[dict]:
    return [json.loads(x) for x in (run / "results.jsonl").read_text().splitlines()]


def unit_files(run: Path, skip: set[Path] = frozenset()) -> dict[str, str]:
    """sha256 of every file of the units (pages/, shots/), except under ``skip``."""
    return {str(p.relative_to(run)): hashlib.sha256(p.read_bytes()).hexdigest()
            for d in ("pages", "shots") for p in sorted((run / d).rglob("*"))
            if p.is_file() and not any(s in p.parents for s in skip)}


def test_the_default_cap_fits_a_32k_model_end_to_end(suite, tmp_path):
    out = tmp_path / "run"
    with FakeProviderServer("openai", default=Scripted(text=html_reply(PAGE)), context_tokens=32768,
                            extra_fields=("top_k",)) as srv:
        r = iwr("eval", "--tasks", str(suite), "--task", "alpha", "--model", "openai:local-32k", "--base-url",
                srv.base_url, "--out", str(out), "--cache-dir", str(tmp_path / "cache"),
                "-M", "temperature=0.2", "-M", "top_p=0.9", "-M", "seed=7", "-M", "top_k=20")
        assert r.returncode == 0, r.stdout[-2000:] + r.stderr[-2000:]
        refused, answered = srv.requests
        assert srv.refused == [refused] and refused.body["max_tokens"] == 32000  # the defaults, as they are
        fitted = 32768 - prompt_tokens(refused.body) - CAP_MARGIN
        assert answered.body["max_tokens"] == fitted
        assert (answered.body["temperature"], answered.body["top_p"], answered.body["seed"],
                answered.body["top_k"]) == (0.2, 0.9, 7, 20)
    (row,) = results(out)
    assert row["status"] == "ok", row["error"]
    gen = row["generation"]
    assert gen["calls"] == 2 and gen["max_output_tokens"] == fitted
    assert gen["output_cap"]["requested"] == 32000 and "maximum context length is 32768" in gen["output_cap"][
        "server_message"]
    assert f"max_tokens {fitted} instead of 32000" in r.stderr  # said, not hidden
    spec = json.loads((out / "run.json").read_text())
    assert spec["generation"]["options"]["extra"]["body"] == {"top_p": 0.9, "seed": 7, "top_k": 20}
    assert spec["generation"]["options"]["temperature"] == 0.2


def test_retry_errors_redoes_only_the_failed_unit(suite, tmp_path):
    out = tmp_path / "run"
    refusal = Scripted(status=400, body={"error": {"message": "the model is loading, try later"}})
    with FakeProviderServer("openai", script=[refusal], default=Scripted(text=html_reply(PAGE))) as srv:
        base = ["eval", "--tasks", str(suite), "--model", "openai:local", "--model", "blank", "--base-url",
                srv.base_url, "--out", str(out), "--cache-dir", str(tmp_path / "cache"), "--limit", "2"]
        r = iwr(*base)
        assert r.returncode == 0, r.stdout[-2000:] + r.stderr[-2000:]
        assert "--limit 2: the first 2 of 3 tasks (sorted by id): alpha, beta" in r.stdout
        # said once, with the command that redoes it
        assert "1 generation_error unit(s): their errors are in" in r.stderr and " --retry-errors" in r.stderr
        rows = results(out)
        assert sorted((x["model"], x["task_id"]) for x in rows) == [
            ("blank", "alpha"), ("blank", "beta"), ("openai:local", "alpha"), ("openai:local", "beta")]
        (failed,) = [x for x in rows if x["status"] != "ok"]
        assert failed["model"] == "openai:local" and failed["status"] == "generation_error"
        assert "the model is loading" in failed["error"]
        assert len(srv.requests) == 2
        before_rows = (out / "results.jsonl").read_bytes()
        fdir = {out / d / "openai_local" / failed["task_id"] for d in ("pages", "shots")}
        before_files = unit_files(out, fdir)
        assert len(before_files) >= 6  # three other units' pages and screenshots
        spec0 = json.loads((out / "run.json").read_text())
        assert spec0["limit"] == {"n": 2, "of": 3, "order": "task id"}

        # a plain rerun has nothing to do; other settings without --retry-errors are refused
        r = iwr(*base)
        assert r.returncode == 0 and "0 to do" in r.stdout and len(srv.requests) == 2
        r = iwr(*base, "--max-output-tokens", "4096")
        assert r.returncode == 2 and "different generation" in r.stderr and "--allow-changed-config" in r.stderr
        assert "--retry-errors to redo only its failed units with these settings" in r.stderr

        r = iwr(*base, "--retry-errors", "--max-output-tokens", "4096")
        assert r.returncode == 0, r.stdout[-2000:] + r.stderr[-2000:]
        assert "--retry-errors: redoing 1 unit(s)" in r.stdout and "1 to do" in r.stdout
        assert "unit(s): their errors are in" not in r.stderr  # nothing failed any more
        assert len(srv.requests) == 3 and srv.requests[2].body["max_tokens"] == 4096  # only the failed unit
        after_rows = (out / "results.jsonl").read_bytes()
        assert after_rows.startswith(before_rows)  # every earlier row byte-identical
        (new,) = [json.loads(x) for x in after_rows[len(before_rows):].decode().splitlines()]
        assert (new["model"], new["task_id"], new["status"]) == ("openai:local", failed["task_id"], "ok")
        assert new["generation"]["max_output_tokens"] == 4096
        assert unit_files(out, fdir) == before_files  # the other units' pages and screenshots untouched
        assert (out / "pages" / "openai_local" / failed["task_id"] / "index.html").is_file()

        spec = json.loads((out / "run.json").read_text())
        assert spec["generation"] == spec0["generation"]  # the run's own settings stay the run's
        (entry,) = spec["retries"]
        assert entry["units"] == [{"model": "openai:local", "task_id": failed["task_id"], "status": "generation_error",
                                   "error": failed["error"]}]
        assert entry["changed"] == ["generation"]
        assert entry["settings_changed"]["generation.options.max_output_tokens"] == {"run": 32000, "retry": 4096}
        assert entry["generation"]["options"]["max_output_tokens"] == 4096
        summary = json.loads((out / "summary.json").read_text())
        assert {r["model"]: r["errors"] for r in summary["leaderboard"]}["openai:local"] == {}

        # nothing failed any more: nothing to redo, nothing sent
        r = iwr(*base, "--retry-errors")
        assert r.returncode == 0 and "0 to do" in r.stdout and len(srv.requests) == 3


def test_python_api_on_the_baselines(suite, tmp_path, capsys):
    import iwrbench

    events: list[str] = []
    s = iwrbench.evaluate(tasks=suite, models=["blank", "screenshot"], out=tmp_path / "run", limit=1,
                          progress=lambda e, info: events.append(e))
    assert isinstance(s, iwrbench.EvalSummary) and s.tasks == 1 and s.protocol == "offline@2"
    assert set(s.models) == {"blank", "screenshot"}
    blank = s["blank"]
    assert isinstance(blank, iwrbench.ModelScore) and blank.tasks == 1 and blank.errors == {}
    assert isinstance(blank.final, float) and blank.ifs == 0.0
    assert s.leaderboard[0].final >= s.leaderboard[1].final
    assert events[0] == "start" and events.count("unit_done") == 2
    assert [json.loads(x)["task_id"] for x in (tmp_path / "run" / "results.jsonl").read_text().splitlines()] == [
        "alpha", "alpha"]
    assert iwrbench.EvalSummary.load(tmp_path / "run") == s
    again = iwrbench.evaluate(tasks=str(suite), models=["blank", "screenshot"], out=tmp_path / "run", limit=1,
                              progress=lambda e, info: events.append((e, info.get("todo"))))
    assert again["blank"] == blank and ("start", 0) in events  # resumed: nothing to do
    # without a callable, a line per step on stderr (as iwrbench.record); progress=False: nothing
    capsys.readouterr()
    iwrbench.evaluate(tasks=suite, models=["blank", "screenshot"], out=tmp_path / "run", limit=1)
    assert "evaluating: 0 unit(s) to do (resuming: 2 done)" in capsys.readouterr().err
    iwrbench.evaluate(tasks=suite, models=["blank", "screenshot"], out=tmp_path / "run", limit=1, progress=False)
    assert capsys.readouterr().err == ""
    assert blank.final_ci is None and blank.steps_total is not None  # one task: no interval, said as None
    with pytest.raises(iwrbench.api.IwrError, match="unknown option.*max_tokens"):
        iwrbench.evaluate(tasks=suite, models=["blank"], out=tmp_path / "run2", max_tokens=5)
