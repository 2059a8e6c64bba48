"""A task of the official layout (descriptions and assertions, no recorded targets, evidence or probes) is
judged right: its source passes every step, a blank page and a page that ignores what is done fail.

The task is recorded from a small todo app with the real recorder, then written in the official layout
(``iwrbench.tasks.official``), so that everything the judge knows of it is the checkpoints and the words:
evidence is inferred from the checkpoints by OCR (Tesseract, two readings) and each action grounded by its
description. The steps are those the source failed before: "'Buy milk' appears" in the box it was typed
into (the reading found it in the picture; the page showed it only as a field's value), a todo ticked whose
struck-through light grey text no reading finds, and "the round checkbox at the left of the 'Buy milk'
item", which names no control by its words.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from site_pages import judge_html, record_site
from iwrbench.tasks import load_suite
from iwrbench.tasks.official import export_official

pytestmark = pytest.mark.browser

APP = """<!doctype html><html><head><meta charset="utf-8"><style>
body { font: 20px sans-serif; margin: 0; background: #f5f5f5; }
main { width: 520px; margin: 40px auto; background: #fff; box-shadow: 0 2px 4px #0002; }
h1 { text-align: center; color: #b83f45; font-weight: 200; font-size: 60px; margin: 0; padding: 10px; }
#new { box-sizing: border-box; width: 100%; font-size: 22px; padding: 14px 14px 14px 60px; border: 0; border-top: 1px solid #eee; }
ul { list-style: none; margin: 0; padding: 0; } li { position: relative; border-top: 1px solid #eee; height: 56px; }
li input { appearance: none; position: absolute; left: 10px; top: 10px; width: 34px; height: 34px; margin: 0;
           border: 1px solid #ccc; border-radius: 50%; }
li input:checked { border-color: #59a193; background: #e8f4f1; }
li label { display: block; padding: 15px 15px 15px 60px; }
li.done label { color: #d9d9d9; text-decoration: line-through; }
footer { padding: 10px 15px; font-size: 15px; color: #555; border-top: 1px solid #eee; }
</style></head><body><main><h1>todos</h1><input id="new" placeholder="What needs to be done?" autofocus>
<ul id="list"></ul><footer id="foot" hidden><span id="left"></span></footer></main>
<script>
const todos = [];
const $ = (id) => document.getElementById(id);
function render() {
  $('list').innerHTML = '';
  todos.forEach((t, i) => {
    const li = document.createElement('li'); li.className = t.done ? 'done' : '';
    const box = document.createElement('input'); box.type = 'checkbox'; box.checked = t.done;
    box.onchange = () => { t.done = box.checked; render(); };
    const label = document.createElement('label'); label.textContent = t.text;
    li.append(box, label); $('list').append(li);
  });
  const left = todos.filter((t) => !t.done).length;
  $('foot').hidden = !todos.length;
  $('left').textContent = left + (left === 1 ? ' item left' : ' items left');
}
$('new').addEventListener('keydown', (e) => {
  if (e.key !== 'Enter' || !$('new').value.trim()) return;
  IGNORE_ENTER todos.push({text: $('new').value.trim(), done: false}); $('new').value = ''; render();
});
</script></body></html>"""

SOURCE = APP.replace("IGNORE_ENTER", "")
DEAF = APP.replace("IGNORE_ENTER", "return;")  # looks the same, does nothing on Enter

RECIPE = """id: official-todo
source: {site: ./site}
viewport: {width: 1000, height: 600}
probes: []
actions:
  - type: Type
    target: "#new"
    text: "Buy milk"
    description: "the 'What needs to be done?' text box under the 'todos' heading"
    assert: "'Buy milk' appears in the text box"
  - type: Press
    key: Enter
    target: "#new"
    description: "press Enter to add the item"
    visual: true
    assert: "A todo 'Buy milk' appears in the list and the footer reads '1 item left'"
  - type: Type
    target: "#new"
    text: "Walk the dog"
    description: "the 'What needs to be done?' text box"
  - type: Press
    key: Enter
    target: "#new"
    description: "press Enter to add the item"
    assert: "'Walk the dog' is added and the footer reads '2 items left'"
  - type: Click
    target: "li:nth-child(1) input"
    description: "the round checkbox at the left of the 'Buy milk' item"
    visual: true
    assert: "'Buy milk' is struck through and the footer reads '1 item left'"
"""


@pytest.fixture(scope="module")
def official(tmp_path_factory) -> Path:
    root = tmp_path_factory.mktemp("official-todo")
    record_site(root / "rec", SOURCE, RECIPE)
    return export_official([root / "rec" / "task"], root / "official")


async def test_the_source_passes_every_step_of_its_official_task(browser, official, tmp_path):
    (task,) = load_suite(official)
    assert all(a.target is None and a.evidence is None for a in task.action_sequence) and not task.probes
    r = await judge_html(browser, task, SOURCE, tmp_path)
    assert r.status == "ok" and r.ifs == 100, [(s.index, s.error, [(e.kind, e.text, e.before, e.after)
                                                                   for e in s.evidence if e.required and not e.passed])
                                              for s in r.steps if not s.passed]
    typed = next(e for e in r.steps[0].evidence if e.source == "ocr")
    assert (typed.text, typed.kind, typed.before, typed.after) == ("Buy milk", "appears", 0, 1)  # in its box
    assert r.steps[4].grounding.rung == "relation"


async def test_a_blank_page_and_a_page_that_ignores_enter_fail(browser, official, tmp_path):
    (task,) = load_suite(official)
    blank = await judge_html(browser, task, "<!doctype html><html><body></body></html>", tmp_path / "blank")
    assert blank.steps_passed == 0
    deaf = await judge_html(browser, task, DEAF, tmp_path / "deaf")
    assert deaf.steps_passed == 1, [(s.index, s.passed, s.error) for s in deaf.steps]  # typing shows; Enter adds nothing
    assert not deaf.steps[1].passed
