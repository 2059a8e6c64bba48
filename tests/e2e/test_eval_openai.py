"""`iwr eval` with an OpenAI-compatible server on 127.0.0.1: what is sent, what is judged, and a
second run on the same folder sends nothing."""

import json
import subprocess
import sys

from fake_provider import FakeProviderServer, Scripted, html_reply
from iwrbench.tasks import load_task

PAGE = ('<h1>Today\'s tasks</h1><img src="__PLACEHOLDER_ASSETS_BASE_DIR__/asset001.png" width="32" height="32">'
        '<input class="btn" placeholder="What needs to be done?"><ul><li>Review pull request #42</li></ul>'
        '<iframe src="https://example.com/"></iframe>')


def test_eval_with_an_openai_compatible_server(smoke_tasks, tmp_path):
    task_dir = smoke_tasks["todo-add-filter"]
    task = load_task(task_dir)
    out = tmp_path / "run"
    with FakeProviderServer("openai", default=Scripted(text=html_reply(PAGE))) as srv:
        cmd = [sys.executable, "-m", "iwrbench.cli", "eval", "--tasks", str(task_dir), "--model", "openai:tiny-vlm",
               "--base-url", srv.base_url, "--out", str(out), "--cache-dir", str(tmp_path / "cache")]
        r = subprocess.run(cmd, capture_output=True, text=True, timeout=600)
        assert r.returncode == 0, r.stdout[-2000:] + r.stderr[-2000:]
        assert len(srv.requests) == 1  # one request per task
        kinds = srv.content_kinds(0)
        n_comp = len(task.stitched_assets)
        assert kinds[0] == "text" and set(kinds[1:]) == {"image"}
        frames = len(kinds) - 1 - n_comp
        assert 1 <= frames <= 64 and frames >= int(task.recording_details.duration_s) - 1
        sent = srv.images(0)
        assert len(sent) == n_comp + frames
        # judged: the page was served with its assets, iframes gone
        res = [json.loads(x) for x in (out / "results.jsonl").read_text().splitlines()]
        assert len(res) == 1 and res[0]["status"] == "ok" and res[0]["generation"]["calls"] == 1
        page = (out / "pages" / "openai_tiny-vlm" / task.id / "index.html").read_text()
        assert "/__iwr_assets__/asset001.png" in page and "<iframe" not in page
        assert (out / "shots" / "openai_tiny-vlm" / task.id / "step_0.png").is_file()
        assert res[0]["steps"][0]["grounding"]["rung"] in ("attribute", "fuzzy")  # the box was found by its placeholder
        # a second eval on the same run folder sends no request
        r = subprocess.run(cmd, capture_output=True, text=True, timeout=600)
        assert r.returncode == 0 and len(srv.requests) == 1
        # even a fresh run folder with the same request is answered from the response cache
        r = subprocess.run(cmd[:-4] + ["--out", str(tmp_path / "run2"), "--cache-dir", str(tmp_path / "cache")],
                           capture_output=True, text=True, timeout=600)
        assert r.returncode == 0 and len(srv.requests) == 1
