"""A pack of hostile pages is judged to completion within its limits, with no request leaving
the page's own origin; a crash of our browser is retried and never scored as the model's."""

import asyncio
import os
import signal
import subprocess
import threading
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path

import pytest

from iwrbench.judge.replay import Limits
from iwrbench.record.recipe import load_recipe
from iwrbench.record.recorder import record
from iwrbench.runs.evaluate import EvalConfig, evaluate
from iwrbench.runs.rundir import RunDir

pytestmark = pytest.mark.browser

SITE = """<!doctype html><html><body><h1>Counter</h1><p id=c>0 clicks</p>
<button id=go onclick="document.getElementById('c').textContent = (parseInt(document.getElementById('c').textContent) + 1) + ' clicks'">Add one</button>
<input id=name placeholder="Your name"></body></html>"""

RECIPE = """id: counter
source: {site: ./site}
viewport: {width: 800, height: 600}
actions:
  - {type: Click, target: '#go', description: "the 'Add one' button", assert: "1 clicks", visual: true}
  - {type: Type, target: '#name', text: Ada, description: "the 'Your name' box"}
  - {type: Click, target: '#go', description: "the 'Add one' button again", assert: "2 clicks", visual: true}
"""

OUT = "http://127.0.0.1:{port}"  # an "outside" host: another origin on this machine, counting hits

HOSTILE = {
    "loop-at-load": "<script>while (true) {}</script><button>Add one</button>",
    "loop-on-click": "<button onclick='while(true){}'>Add one</button>",
    "alert-storm": "<script>setInterval(() => alert('hi'), 5)</script><button>Add one</button>",
    "confirm-prompt-loop": "<button onclick='for(;;){confirm(1); prompt(2)}'>Add one</button>",
    "popup-storm": "<script>setInterval(() => window.open('/index.html?' + Math.random()), 10)</script><button onclick='window.open(\"" + OUT + "/x\")'>Add one</button>",
    "navigate-away": "<button onclick='location.href=\"" + OUT + "/away\"'>Add one</button><script>setTimeout(() => location.href='https://example.com/', 50)</script>",
    "reload-loop": "<script>setTimeout(() => location.reload(), 30)</script><button>Add one</button>",
    "beforeunload-trap": "<script>addEventListener('beforeunload', e => { e.preventDefault(); e.returnValue = 'stay'; });</script><button onclick='location.reload()'>Add one</button>",
    "dom-growth": "<script>setInterval(() => { for (let i = 0; i < 2000; i++) document.body.appendChild(document.createElement('div')).textContent = 'x' + i }, 10)</script><button>Add one</button>",
    "memory-growth": "<script>const a = []; setInterval(() => { for (let i = 0; i < 50; i++) a.push(new Array(1e6).fill(i)) }, 5)</script><button>Add one</button>",
    "service-worker": "<script>navigator.serviceWorker && navigator.serviceWorker.register('/sw.js').catch(() => {})</script><button>Add one</button>",
    "download": "<a id=d href='data:text/plain,hello' download='x.txt'>file</a><script>setTimeout(() => document.getElementById('d').click(), 10)</script><button onclick=\"document.getElementById('d').click()\">Add one</button>",
    "outside-requests": ("<img src='" + OUT + "/img.png'><link rel=stylesheet href='" + OUT + "/s.css'>"
                         "<script src='" + OUT + "/s.js'></script><script>fetch('" + OUT + "/f').catch(()=>{});"
                         "navigator.sendBeacon && navigator.sendBeacon('" + OUT + "/b', 'x');"
                         "try { new WebSocket('ws://127.0.0.1:{port}/ws') } catch (e) {};"
                         "fetch('https://api.example.org/').catch(()=>{})</script><button>Add one</button>"),
    "history-spam": "<script>setInterval(() => { for (let i = 0; i < 100; i++) history.pushState({}, '', '?' + i) }, 5)</script><button>Add one</button>",
}


class Outside:
    """A server standing for the outside world: any hit on it is a containment failure."""

    def __init__(self):
        self.hits: list[str] = []
        outer = self

        class H(BaseHTTPRequestHandler):
            def log_message(self, *a):
                pass

            def do_GET(self):
                outer.hits.append(self.path)
                self.send_response(200)
                self.send_header("Content-Length", "0")
                self.end_headers()

            do_POST = do_GET

        self.httpd = ThreadingHTTPServer(("127.0.0.1", 0), H)
        threading.Thread(target=self.httpd.serve_forever, daemon=True).start()
        self.port = self.httpd.server_address[1]


@pytest.fixture(scope="module")
def counter_task(tmp_path_factory) -> Path:
    root = tmp_path_factory.mktemp("counter")
    (root / "site").mkdir()
    (root / "site" / "index.html").write_text(SITE)
    (root / "counter.yaml").write_text(RECIPE)
    record(load_recipe(root / "counter.yaml"), root / "suite" / "counter")
    return root / "suite"


def test_hostile_pack_is_contained(counter_task, tmp_path):
    out = Outside()
    models = []
    for name, body in HOSTILE.items():
        d = tmp_path / "pages" / name / "counter"
        d.mkdir(parents=True)
        (d / "index.html").write_text("<!doctype html><html><body>" + body.replace("{port}", str(out.port)) + "</body></html>")
        (d / "sw.js").write_text("self.addEventListener('fetch', () => {})")
        models.append(f"replay:{d.parent}")
    limits = Limits(action_s=4, page_s=20, load_s=4, settle_timeout_ms=1500, max_dialogs=20, max_popups=5,
                    max_navigations=15)
    cfg = EvalConfig(tasks=counter_task, models=models, out=tmp_path / "run", limits=limits, workers=2)
    evaluate(cfg)
    results = {r.model.split("/pages/")[-1]: r for r in RunDir(tmp_path / "run").results().values()}
    assert set(results) == set(HOSTILE)
    for name, r in results.items():
        assert r.status in ("ok", "page_error"), (name, r.status, r.error)
        assert r.duration_s < limits.page_s + 25, (name, r.duration_s)
        assert r.ifs < 100, name  # none of them works
    assert out.hits == [], f"requests left the page's origin: {out.hits}"
    assert results["outside-requests"].blocked_requests >= 4
    assert results["alert-storm"].status == "page_error" and "dialogs" in results["alert-storm"].error
    assert results["popup-storm"].status == "page_error" and "windows" in results["popup-storm"].error
    assert results["loop-at-load"].status == "page_error"


def _chromium_children(pid: int) -> list[int]:
    out = subprocess.run(["ps", "-eo", "pid,ppid,comm"], capture_output=True, text=True).stdout.splitlines()[1:]
    kids: dict[int, list[tuple[int, str]]] = {}
    for line in out:
        p, pp, comm = line.split(None, 2)
        kids.setdefault(int(pp), []).append((int(p), comm))
    found, todo = [], [pid]
    while todo:
        for child, comm in kids.get(todo.pop(), []):
            todo.append(child)
            if "chrom" in comm:
                found.append(child)
    return found


def test_browser_crash_is_retried_as_ours(counter_task, tmp_path):
    """Kill our Chromium in the middle of judging: the unit is retried on a new browser."""
    from iwrbench.judge.score import JudgeComponents
    from iwrbench.validate.oracle import OracleModel
    from iwrbench.protocols import OFFLINE
    from iwrbench.runs.evaluate import BrowserBox, run_unit
    from iwrbench.models.base import GenerationOptions
    from iwrbench.tasks import load_suite

    task = load_suite(counter_task)[0]
    run = RunDir(tmp_path / "run")

    async def go():
        box = BrowserBox()
        await box.get()
        comps = JudgeComponents.for_protocol(OFFLINE)
        killed = []

        async def killer():
            shots = run.shots_dir("oracle", task.id)
            while not (shots / "step_1.png").exists():
                await asyncio.sleep(0.02)
            for p in _chromium_children(os.getpid()):
                try:
                    os.kill(p, signal.SIGKILL)
                    killed.append(p)
                except ProcessLookupError:
                    pass

        k = asyncio.ensure_future(killer())
        # the task was recorded from a recipe of this test (not a bundled one): pass it explicitly
        oracle = OracleModel(recipes=counter_task.parent / "counter.yaml")
        res = await run_unit(box, oracle, task, run, OFFLINE, comps, GenerationOptions(), retries=2)
        k.cancel()
        await box.close()
        return res, killed

    res, killed = asyncio.run(go())
    assert killed, "no browser process was found to kill"
    assert res.status == "ok" and res.attempts >= 2 and res.ifs == 100


def test_screenshot_timeout_of_ours_is_taken_again(counter_task, tmp_path):
    """A screenshot that times out while the page's main thread answers was slow on our side (a loaded machine): it
    is taken once more with a longer wait, and a working page is not failed for it. Here the first attempt's limit is
    1 ms, so every first attempt times out."""
    d = tmp_path / "pages" / "counter"
    d.mkdir(parents=True)
    (d / "index.html").write_text(SITE)
    limits = Limits(action_s=6, page_s=60, load_s=6, shot_s=0.001, shot_retry_s=20)
    evaluate(EvalConfig(tasks=counter_task, models=[f"replay:{d.parent}"], out=tmp_path / "run", limits=limits,
                        workers=1))
    (r,) = RunDir(tmp_path / "run").results().values()
    assert r.status == "ok" and r.ifs == 100, (r.status, r.error, r.ifs)
    assert r.page_events.get("screenshot_retried", 0) >= 4, r.page_events  # the load and three steps at least
