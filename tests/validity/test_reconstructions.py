"""The judge agrees with labels made by eye on pages written from the frames as a model would write them.

The set (src/iwrbench/validity/data/reconstructions/) holds, per task, the recorded task (no video, no
checkpoints), one-shot pages written without rendering them (careful: all frames; quick: a few frames),
mutants that break one behaviour, and the labels a person made by driving each page and comparing it with
the checkpoints. Every page must be judged exactly as labelled: no false pass, no false fail.
"""

import json

import pytest

from iwrbench.validity import reconstructions as R

pytestmark = pytest.mark.browser


def test_the_set_covers_enough_tasks_and_domains():
    items = R.load_set()
    tasks = {t.parent.name for t, _, _, _ in items}
    domains = {json.loads((R.DATA / t / "task" / "task.json").read_text())["classification"]["domain"] for t in tasks}
    assert len(tasks) >= 8 and len(domains) >= 6, (tasks, domains)
    assert all(any(v == "careful" for t, v, _, _ in items if t.parent.name == k) for k in tasks)
    failing = [(t.parent.name, v) for t, v, _, e in items if e["label"] < e.get("steps", 10 ** 6)]
    assert len(failing) >= 8, "the set needs pages whose steps really fail, not only perfect pages"


def test_a_variant_is_exported_as_a_folder_a_replay_model_reads(tmp_path):
    """``--export-pages``: each task's page of one variant at DIR/<task_id>/index.html (a mutant: its careful page
    with the edits applied), so the set can be judged as one model's pages on a built suite."""
    items = R.load_set()
    mutants = [(t.parent.name, v, p) for t, v, p, _ in items if (p / "edits.json").is_file()]
    assert mutants
    task, variant, page = mutants[0]
    ids = R.export_pages(tmp_path / "m", variant, only=[task])
    assert ids == [task] and (tmp_path / "m" / task / "index.html").read_text() == R.page_html(page)
    careful = R.export_pages(tmp_path / "c", "careful")
    assert sorted(careful) == sorted({t.parent.name for t, v, _, _ in items if v == "careful"})
    assert all((tmp_path / "c" / t / "index.html").is_file() for t in careful)


#: careful pages of the held-out batch judged in the everyday tier too (a false fail would show): a chart
#: point under a transparent hit area, a form with typed text, a third-party app's dialog
EVERYDAY_CAREFUL = ("dashboard-explore", "login-errors", "tp-gentelella-kanban")


def _sample() -> list[tuple[str, str]]:
    """About ten pages for the everyday tier (the whole set runs with ``-m validity``):
    the page with the lowest label on every third task (a step that really fails, so a false pass would show), plus a few
    careful pages that pass by eye."""
    best: dict[str, tuple[int, str]] = {}
    for t, v, _, e in R.load_set():
        k = t.parent.name
        if k not in best or e["label"] < best[k][0]:
            best[k] = (e["label"], v)
    lowest = {(k, best[k][1]) for k in sorted(best)[::3]}
    return sorted(lowest | {(k, "careful") for k in EVERYDAY_CAREFUL if k in best})


async def _check(tmp_path, pages: list[tuple[str, str]] | None):
    rows = await R.run_async(None, tmp_path, pages=pages)
    want = len(pages) if pages is not None else len(R.load_set())
    assert rows and len(rows) == want
    wrong = [(r.task_id, r.page, r.judged, r.truth, r.note) for r in rows if not r.ok]
    assert not wrong, "\n".join(map(str, wrong))


async def test_judge_equals_label_on_a_sample(tmp_path):
    await _check(tmp_path, _sample())


@pytest.mark.validity
async def test_judge_equals_label_on_every_page(tmp_path):
    await _check(tmp_path, None)
