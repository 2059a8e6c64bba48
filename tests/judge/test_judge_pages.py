"""The judge on broken, unstyled, gamed and repeated pages (issue: the judge must be shown right)."""

import json
import shutil
from pathlib import Path

import pytest

from iwrbench.runs.evaluate import EvalConfig, evaluate
from iwrbench.tasks import load_task

BLOCK_JS = """<script>
document.addEventListener('click', (e) => {
  if (e.target.closest && e.target.closest(%s)) { e.stopImmediatePropagation(); e.preventDefault(); }
}, true);
</script>"""


#: looks only: every colour, background, border, corner and shadow replaced (no transition, so nothing is caught mid-way)
RESTYLE = """<style>
*, *::before, *::after { color: #222 !important; background: #fff !important; border-color: #888 !important;
  box-shadow: none !important; border-radius: 0 !important; transition: none !important; }
</style>"""


def _site_copy(task_dir: Path, dest: Path) -> Path:
    shutil.copytree(task_dir / "reference" / "site", dest)
    return dest / "index.html"


def _variants(task_dir: Path, root: Path) -> tuple[Path, Path, int, int]:
    """replay dirs: one with asserted click k blocked, one restyled (other colours, backgrounds, borders and
    shadows; the same layout, so what a person sees on screen after each step is the same)."""
    task = load_task(task_dir)
    k = next(i for i, a in enumerate(task.action_sequence, 1)
             if a.type == "Click" and a.logical_assertion and a.evidence and a.evidence.texts and i > 1)
    sel = task.action_sequence[k - 1].target.selector
    broken = root / "broken"
    html = _site_copy(task_dir, broken / task.id)
    html.write_text(html.read_text().replace("</head>", BLOCK_JS % json.dumps(sel) + "</head>", 1))
    plain = root / "unstyled"
    html = _site_copy(task_dir, plain / task.id)
    html.write_text(html.read_text().replace("</head>", RESTYLE + "</head>", 1))
    return broken, plain, k, len(task.action_sequence)


@pytest.fixture(scope="module")
def judged(smoke_tasks, tmp_path_factory):
    root = tmp_path_factory.mktemp("judge-pages")
    tid, tdir = "todo-add-filter", smoke_tasks["todo-add-filter"]
    suite = root / "suite"
    shutil.copytree(tdir, suite / tid)
    broken, plain, k, n = _variants(tdir, root)
    cfg = EvalConfig(tasks=suite, models=["oracle", f"replay:{broken}", f"replay:{plain}", "slideshow", "screenshot"],
                     out=root / "run")
    summary = evaluate(cfg)
    from iwrbench.runs.rundir import RunDir

    results = {r.model: r for r in RunDir(root / "run").results().values()}
    return summary, results, k, n, root, cfg


def test_broken_step_k_gives_prefix_score(judged):
    summary, results, k, n, root, _ = judged
    r = results[f"replay:{root / 'broken'}"]
    assert r.status == "ok"
    assert r.ifs == pytest.approx(100 * (k - 1) / n, abs=1e-3)
    failed = r.steps[k - 1]
    assert failed.executed and failed.assertion.passed is False
    assert all(not s.executed for s in r.steps[k:])


def test_restyled_page_keeps_ifs_loses_vfs(judged):
    summary, results, k, n, root, _ = judged
    oracle, plain = results["oracle"], results[f"replay:{root / 'unstyled'}"]
    assert oracle.ifs == 100
    assert plain.ifs == oracle.ifs
    assert oracle.vfs - plain.vfs >= 15, (oracle.vfs, plain.vfs)


def test_gaming_pages_score_low(judged):
    summary, results, *_ = judged
    assert results["slideshow"].final <= 25
    assert results["screenshot"].ifs <= 10


def test_judging_twice_gives_identical_numbers(judged):
    summary, results, k, n, root, cfg = judged
    from iwrbench.runs.rundir import RunDir

    import dataclasses

    again_dir = root / "run-again"  # a run of its own: the module's shared run stays as the other tests saw it
    shutil.rmtree(again_dir, ignore_errors=True)
    evaluate(dataclasses.replace(cfg, out=again_dir))
    again = {r.model: r for r in RunDir(again_dir).results().values()}
    for m, r in results.items():
        a = again[m]
        assert (a.ifs, a.vfs, a.final, a.low_level_visual, a.high_level_visual) == \
               (r.ifs, r.vfs, r.final, r.low_level_visual, r.high_level_visual), m
        assert [s.passed for s in a.steps] == [s.passed for s in r.steps]
