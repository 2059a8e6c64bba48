"""The judge credits behaviour a person sees, and only that: hard-coded answers, dead controls, hidden or
transparent text and a page that leaves its origin fail; the source served as a model's page passes.

Uses the smoke task todo-add-filter, recorded once per session with the real recorder (its steps carry
evidence and an automatic probe with other typed text)."""

import shutil
from pathlib import Path

import pytest

from iwrbench.browser.host import PageBundle
from iwrbench.judge.score import JudgeComponents, judge_unit
from iwrbench.protocols import get_protocol
from iwrbench.tasks import load_task

SITE = Path(__file__).resolve().parents[2] / "src" / "iwrbench" / "suites" / "sites" / "todo"


def _variant(root: Path, name: str, old: str | None = None, new: str | None = None, head: str = "") -> Path:
    d = root / name
    shutil.copytree(SITE, d)
    if old is not None:
        js = d / "js" / "app.js"
        text = js.read_text()
        assert old in text, old
        js.write_text(text.replace(old, new or "", 1))
    if head:
        html = d / "index.html"
        html.write_text(html.read_text().replace("</head>", head + "</head>", 1))
    return d


@pytest.fixture(scope="module")
def task(smoke_tasks):
    t = load_task(smoke_tasks["todo-add-filter"])
    assert t.probes and t.probes[0].guards == 1, "the recorder adds a probe with other typed text"
    assert all(a.evidence is not None for a in t.action_sequence)
    return t


async def _judge(browser, task, root: Path, tmp_path: Path):
    proto = get_protocol("offline")
    return await judge_unit(browser, task, PageBundle(root=root), tmp_path / "shots", proto,
                            JudgeComponents.for_protocol(proto))


async def test_source_copy_passes_with_its_probe(browser, task, tmp_path):
    r = await _judge(browser, task, _variant(tmp_path, "copy"), tmp_path)
    assert r.ifs == 100, [(s.index, s.error) for s in r.steps if not s.passed]
    assert r.probes and r.probes[0].passed and r.probes[0].cap is None


async def test_hard_coded_answer_is_capped_by_the_probe(browser, task, tmp_path):
    # every new task is called 'Buy oat milk', whatever was typed: the main trajectory looks perfect
    page = _variant(tmp_path, "hardcoded", "var text = input.value.trim();",
                    "var text = input.value.trim() ? 'Buy oat milk' : '';")
    r = await _judge(browser, task, page, tmp_path)
    assert r.steps_passed_main == len(task.action_sequence)
    p = r.probes[0]
    assert not p.passed and p.cap == 1, p
    assert r.steps_passed == 1 and r.ifs == pytest.approx(100 / len(task.action_sequence), abs=0.01)


async def test_dead_checkbox_fails_its_step(browser, task, tmp_path):
    page = _variant(tmp_path, "dead", "t.done = cb.checked; render();", "cb.checked = false;")
    r = await _judge(browser, task, page, tmp_path)
    assert r.steps_passed == 2  # step 3 ticks the checkbox: nothing a person sees changes
    assert not r.steps[2].passed and r.steps[2].executed


async def test_transparent_and_hidden_text_does_not_count(browser, task, tmp_path):
    # the counter is written but cannot be seen: 'items left' texts are transparent
    page = _variant(tmp_path, "invisible", head="<style>#count{color:transparent !important}</style>")
    r = await _judge(browser, task, page, tmp_path)
    assert r.steps_passed == 1
    assert any(e.kind == "appears" and not e.passed and "items left" in (e.text or "") for e in r.steps[1].evidence)


async def test_page_that_leaves_its_origin_fails(browser, task, tmp_path):
    page = _variant(tmp_path, "away", head="<script>addEventListener('load', () => setTimeout(() => "
                    "{ location.href = 'http://127.0.0.1:9/x' }, 10))</script>")
    r = await _judge(browser, task, page, tmp_path)
    assert r.steps_passed == 0
