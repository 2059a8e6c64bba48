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


async def test_judge_equals_label_on_every_page(tmp_path):
    rows = await R.run_async(None, tmp_path)
    assert rows and len(rows) == len(R.load_set())
    wrong = [(r.task_id, r.page, r.judged, r.truth, r.note) for r in rows if not r.ok]
    assert not wrong, "\n".join(map(str, wrong))
