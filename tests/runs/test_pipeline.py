"""``iwr run`` building and judging at once (runs/pipeline.py), with the real recorder, browser and judge.

Three tiny recipes of one page: two that build, one whose button does not exist (its build fails). A run of
``iwr run --suite DIR`` is interrupted (Ctrl-C to its process group) as soon as its first unit is written; the
same run resumed from Python finishes it. The resumed run's progress events, timed as they arrive, show a task
judged while another is still being recorded; the broken recipe is said in run.json and never judged.
"""

from __future__ import annotations

import asyncio
import json
import os
import shutil
import signal
import subprocess
import sys
import time
from collections import Counter
from pathlib import Path

import pytest
from PIL import Image

from iwrbench.metrics import image_digest
from iwrbench.runs.options import EvalOptions
from iwrbench.runs.pipeline import BuildSource, run_pipelined
from iwrbench.runs.rundir import RunDir
from iwrbench.tasks import load_suite, suite_hash

pytestmark = pytest.mark.browser

SITE = """<!doctype html><html><head><style>body{font:18px sans-serif;margin:24px;background:#fff;color:#222}
button{font:inherit;padding:6px 14px}#n{font-size:28px;margin:12px 0}</style></head><body>
<h1>Counter</h1><p id="n">Count: 0</p>
<button id="inc" onclick="c++;n.textContent='Count: '+c">Add one</button>
<script>let c=0;const n=document.getElementById('n');</script></body></html>"""

HEAD = "id: %s\nsource: {site: ./site}\nviewport: {width: 480, height: 320}\nactions:\n"


def _clicks(n: int) -> str:
    """``n`` clicks on 'Add one', each asserting its count; every one but the first flagged for the visual score
    (a page replaying the video fails the first assertion and reaches no flagged checkpoint: Final <= 15, as
    the build requires)."""
    return "".join(f"  - {{type: Click, target: '#inc', description: the 'Add one' button, visual: {str(k > 1).lower()}, "
                   f"assert: \"The count reads 'Count: {k}'\"}}\n" for k in range(1, n + 1))


RECIPES = {
    "a-count": HEAD % "a-count" + _clicks(3),
    "b-count": HEAD % "b-count" + _clicks(4),
    "c-broken": HEAD % "c-broken" + "  - {type: Click, target: '#no-such-button', description: a button the page "
                                    "does not have, visual: true, assert: A dialog opens}\n",
}
MODELS = ["oracle", "blank"]


def _recipes(tmp_path: Path) -> Path:
    d = tmp_path / "recipes"
    (d / "site").mkdir(parents=True)
    (d / "site" / "index.html").write_text(SITE)
    for rid, text in RECIPES.items():
        (d / f"{rid}.yaml").write_text(text)
    return d


def _rows(out: Path) -> list[dict]:
    f = out / "results.jsonl"
    if not f.is_file():
        return []
    return [json.loads(x) for x in f.read_text().splitlines() if x.endswith("}")]


def test_each_task_is_judged_once_built_a_failed_build_is_said_and_an_interrupted_run_resumes(tmp_path):
    recipes, out = _recipes(tmp_path), tmp_path / "run"
    cmd = [sys.executable, "-m", "iwrbench.cli", "run", "--suite", str(recipes), "--out", str(out),
           "--jobs", "1", "--workers", "1", "--oracle-recipes", str(recipes)]
    for m in MODELS:
        cmd += ["--model", m]
    # 1. `iwr run` interrupted by Ctrl-C once its first unit is written (the first task is built and judged,
    #    the second is being recorded)
    # Ctrl-C as a terminal gives it: a test run started in the background (`make test &`) ignores SIGINT, and the
    # run it starts would inherit that and rightly go on (iwr honours an ignored Ctrl-C)
    p = subprocess.Popen(cmd, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, start_new_session=True,
                         preexec_fn=lambda: signal.signal(signal.SIGINT, signal.SIG_DFL))
    try:
        deadline = time.monotonic() + 600
        while not _rows(out) and p.poll() is None and time.monotonic() < deadline:
            time.sleep(0.2)
        assert p.poll() is None, "the run ended before its first unit was written: " + p.communicate()[1][-2000:]
        assert _rows(out), "no unit written in 10 minutes"
        os.killpg(p.pid, signal.SIGINT)
        _, err = p.communicate(timeout=120)
    finally:
        if p.poll() is None:
            os.killpg(p.pid, signal.SIGKILL)
    assert p.returncode == 130 and "interrupted; rerun the same command to resume" in err, err[-2000:]
    first = _rows(out)
    spec = RunDir(out).read_spec()
    assert spec.build["complete"] is False and not (out / "summary.json").exists()
    assert spec.task_ids == ["a-count"] and {r["task_id"] for r in first} == {"a-count"}
    # (a-count's second unit may have been written while the interrupt was on its way: the blank page judges fast)

    # 2. the same run, resumed (from Python: its progress events timed as they arrive)
    heard: list[tuple[float, str, dict]] = []
    cfg = EvalOptions(workers=1, oracle_recipes=[str(recipes)]).config("", MODELS, out)
    summary = asyncio.run(run_pipelined(cfg, BuildSource.folder(recipes), jobs=1, workers_after=1,
                                        progress=lambda kind, info: heard.append((time.monotonic(), kind, info))))

    def at(kind: str, task: str, **match) -> list[float]:
        return [t for t, k, i in heard if k == kind and i.get("task") == task
                and all(i.get(x) == v for x, v in match.items())]

    # a task is judged while another is still being recorded
    built_b = at("task_built", "b-count", ok=True, reused=False)
    assert built_b, "b-count was built before the interrupt, or not at all: " + repr([(k, i) for _, k, i in heard][:8])
    assert at("task_built", "a-count", ok=True, reused=True)
    # the first run judged a-count's units while b-count was being recorded (rows written, the build incomplete);
    # what it left of them is judged here before b-count's recording ends
    if len(first) < len(MODELS):
        assert min(at("unit_start", "a-count")) < built_b[0], "no unit was judged while b-count was being recorded"
    else:
        assert not at("unit_start", "a-count")
    assert min(at("unit_start", "b-count")) > built_b[0]
    # the broken recipe: built twice, said, never judged
    failed = [i for _, k, i in heard if k == "task_built" and i["task"] == "c-broken"]
    assert len(failed) == 1 and not failed[0]["ok"] and "matches nothing" in failed[0]["reason"]
    assert not at("unit_start", "c-broken")

    rows = _rows(out)
    assert not any(r["task_id"] == "c-broken" for r in rows)
    per_unit = Counter((r["model"], r["task_id"]) for r in rows if r["status"] != "judge_error")
    # every unit judged exactly once across the two runs: what the first wrote is not judged again
    assert per_unit == Counter({(m, t): 1 for m in MODELS for t in ("a-count", "b-count")})
    assert all(r in rows for r in first)
    oracle = {r["task_id"]: r for r in rows if r["model"] == "oracle"}
    assert all(r["status"] == "ok" and r["ifs"] == 100 for r in oracle.values()), oracle
    # nothing judged twice: the oracle of a task this run built is the build's own oracle replay, judged whole by
    # the run's judge (b-count was built by the resumed run), its screenshots copied into the run
    assert oracle["b-count"]["judged_in"] == "build" and oracle["b-count"]["vfs"] > 95, oracle["b-count"]
    shots = RunDir(out).shots_dir("oracle", "b-count")
    assert {s["screenshot"] for s in oracle["b-count"]["steps"]} <= {p.name for p in shots.glob("step_*.png")}
    assert {r["judged_in"] for r in rows if r["model"] == "blank"} == {None}

    # run.json describes the tasks judged, as `iwr eval` on the built folder would, and says what was excluded
    spec = RunDir(out).read_spec()
    built = load_suite(BuildSource.folder(recipes).tasks_dir)
    assert sorted(t.id for t in built) == spec.task_ids == ["a-count", "b-count"]
    assert spec.suite_hash == suite_hash(built) == summary.suite_hash
    assert spec.build["complete"] is True and list(spec.build["excluded"]) == ["c-broken"]
    assert "matches nothing" in spec.build["excluded"]["c-broken"]
    assert sorted(spec.build["task_hashes"]) == ["a-count", "b-count"]
    assert summary.tasks == 2 and {r.model for r in summary.leaderboard} == set(MODELS)
    # the build kept its OCR readings of the ground truth the judge compares (checkpoint 0 and each flagged
    # step; the two tasks share the page's first states), one per distinct image, for the judge to read
    compared = set()
    for t in built:
        for cp in [0] + [i for i, a in enumerate(t.action_sequence, 1) if a.visual_evaluation_flag]:
            with Image.open(t.checkpoint(cp)) as im:
                compared.add(image_digest(im.convert("RGB")))
    kept = [json.loads(f.read_text()) for f in (BuildSource.folder(recipes).root / "ocr").glob("*.json")]
    assert compared <= {k["image_sha256"] for k in kept} and len(compared) == 4


def test_a_kept_oracle_unit_is_taken_only_for_the_task_judge_and_source_it_was_judged_on(tmp_path):
    """``validate.make.kept_oracle``: the build's judged oracle unit stands for the run's only when the task's
    hash, the judge's description and the recipe served all match; anything else (or a damaged folder) is
    judged again."""
    from iwrbench.records import TaskResult
    from iwrbench.tasks.load import load_task
    from iwrbench.validate.make import KEPT_META, KEPT_RESULT, KEPT_SHOTS, kept_oracle

    recipes = _recipes(tmp_path)
    fix = Path(__file__).parent.parent / "fixtures" / "official"
    task_dir = tmp_path / "tasks" / "a-count"
    shutil.copytree(fix / "data" / "demo_search", task_dir)
    data = json.loads((fix / "data.jsonl").read_text().splitlines()[1])  # demo_search
    data["id"] = "a-count"
    (task_dir / "task.json").write_text(json.dumps(data))
    task = load_task(task_dir)
    judge = {"protocol": "offline@2", "ocr": {"engine": "tesseract"}}
    recipe = recipes / "a-count.yaml"
    kept = tmp_path / "kept"
    (kept / KEPT_SHOTS).mkdir(parents=True)
    (kept / KEPT_SHOTS / "step_0.png").write_bytes(b"png")
    (kept / KEPT_RESULT).write_text(TaskResult(model="oracle", task_id="a-count", status="ok", protocol="offline@2",
                                               ifs=100, vfs=99, final=99.7).model_dump_json())
    (kept / KEPT_META).write_text(json.dumps({"task_hash": suite_hash([task]), "judge": judge,
                                              "recipe": str(recipe.resolve())}))
    got = kept_oracle(kept, task, judge, recipe)
    assert got is not None and got[0].final == 99.7 and got[1] == kept / KEPT_SHOTS
    assert kept_oracle(kept, task, {**judge, "ocr": None}, recipe) is None  # another judge
    assert kept_oracle(kept, task, judge, recipes / "b-count.yaml") is None  # another source
    assert kept_oracle(kept, task, judge, None) is None  # no recipe for the task: the oracle cannot serve it
    data = json.loads((task_dir / "task.json").read_text())
    data["action_sequence"][0]["parameters"]["text"] = "boots"
    (task_dir / "task.json").write_text(json.dumps(data))
    assert kept_oracle(kept, load_task(task_dir), judge, recipe) is None  # the task changed since
    (kept / KEPT_RESULT).write_text("{not json")
    assert kept_oracle(kept, task, judge, recipe) is None  # damaged: judged again, never an error
