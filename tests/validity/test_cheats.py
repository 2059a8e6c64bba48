"""Cheat pages: generated from a task folder alone, behaving as described, and judged."""

from __future__ import annotations

import asyncio
import re
from pathlib import Path

import pytest

from iwrbench.validity.cheats import FINAL_BOUND, KINDS, controls, generate, run_async

pytestmark = pytest.mark.browser

SITE = {
    "index.html": """<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>Counter</title>
<style>
body { font: 20px/1.4 sans-serif; margin: 30px; background: #fbf8f1; }
h1 { color: #a33; margin: 0 0 16px; }
#q { font-size: 18px; padding: 6px; width: 240px; }
button { font-size: 18px; padding: 6px 16px; margin: 8px 8px 0 0; }
#out { margin-top: 18px; font-size: 26px; color: #225; }
#log { margin-top: 12px; color: #666; }
</style></head><body>
<h1>Tally counter</h1>
<input id="q" placeholder="Your name" aria-label="Name">
<div><button id="inc">Add one</button><button id="reset">Reset</button></div>
<p id="out">Count: 0</p><p id="log">Nobody counted yet</p>
<script>
let n = 0;
const out = document.getElementById('out'), log = document.getElementById('log');
const show = () => { out.textContent = 'Count: ' + n;
  log.textContent = (document.getElementById('q').value || 'Nobody') + ' counted ' + n + ' time' + (n === 1 ? '' : 's'); };
document.getElementById('inc').onclick = () => { n++; show(); };
document.getElementById('reset').onclick = () => { n = 0; show(); };
</script></body></html>
""",
}

RECIPE = """id: mini-counter
source: {site: ./site}
viewport: {width: 640, height: 400}
actions:
  - type: Click
    target: "#inc"
    description: "the 'Add one' button"
    visual: true
    assert: "The count reads 'Count: 1' and 'Nobody counted 1 time' shows"
  - type: Type
    target: "#q"
    text: "Ada"
    description: "the 'Your name' text box"
  - type: Click
    target: "#inc"
    description: "the 'Add one' button"
    visual: true
    assert: "The count reads 'Count: 2' and 'Ada counted 2 times' shows"
  - type: Click
    target: "#reset"
    description: "the 'Reset' button"
    visual: true
    assert: "The count is back to 'Count: 0'"
"""


@pytest.fixture(scope="module")
def mini_task(tmp_path_factory) -> Path:
    from iwrbench.record.recipe import load_recipe
    from iwrbench.record.recorder import record

    root = tmp_path_factory.mktemp("mini-cheats")
    (root / "site").mkdir()
    for name, text in SITE.items():
        (root / "site" / name).write_text(text)
    (root / "recipe.yaml").write_text(RECIPE)
    recipe = load_recipe(root / "recipe.yaml")
    record(recipe, root / "tasks" / recipe.id, passes=1)
    return root / "tasks" / recipe.id


def _task(d: Path):
    from iwrbench.tasks.load import load_task

    return load_task(d)


def _local_refs_exist(page_dir: Path) -> None:
    html = (page_dir / "index.html").read_text()
    for ref in re.findall(r"""(?:src|href)=["']([^"'#]+)["']""", html):
        assert not re.match(r"^[a-z]+:", ref), ref  # nothing from elsewhere
        assert (page_dir / ref).is_file(), ref


@pytest.mark.parametrize("kind", [k for k in KINDS if k != "slideshow"])
def test_generated_from_the_task_folder_alone(kind, mini_task, tmp_path):
    task = _task(mini_task)
    info = generate(kind, task, tmp_path / kind)
    _local_refs_exist(tmp_path / kind)
    html = (tmp_path / kind / "index.html").read_text()
    for c in controls(task):
        assert f'aria-label="{c.name}"' in html
    if kind == "buttons-no-logic":
        assert "<script" not in html and info["controls"] == 3  # the field and two distinct buttons
    else:
        assert "frames/step_4.png" in html
    if kind == "frames-text-replay":
        assert info["texts_per_state"][0] >= 2
        assert "Tally counter" in html and "Count: 2" in html and "Ada counted 2 times" in html


async def test_state_machine_and_texts_follow_events_not_input(browser, mini_task, tmp_path):
    from iwrbench.browser.core import new_context
    from iwrbench.browser.server import StaticServer

    task = _task(mini_task)
    generate("frames-text-replay", task, tmp_path / "p")
    with StaticServer({"/": tmp_path / "p"}) as srv:
        ctx, _ = await new_context(browser, (640, 400), allowed_origins={srv.origin})
        page = await ctx.new_page()
        await page.goto(srv.url("index.html"))
        src = lambda: page.eval_on_selector("#f", "e => e.getAttribute('src')")  # noqa: E731
        assert await src() == "frames/step_0.png"
        assert "Count: 0" in await page.inner_text("body")
        button = page.get_by_role("button", name="Add one")
        assert await button.count() == 1  # only the next action's control is there
        await page.mouse.click(5, 5)  # a click anywhere counts as the next Click
        assert await src() == "frames/step_1.png"
        assert "Count: 1" in await page.inner_text("body") and "Count: 0" not in await page.inner_text("body")
        field = page.get_by_role("textbox", name="Name")
        await field.fill("anything at all")  # any input moves on: the typed text does not matter
        assert await src() == "frames/step_2.png"
        await ctx.close()


def test_registered_as_baseline_models(mini_task, tmp_path):
    from iwrbench.models.base import GenerationOptions
    from iwrbench.generate.registry import known_models, resolve_model

    task = _task(mini_task)
    for name in ("cheat-frames", "cheat-buttons", "cheat-text"):
        assert name in known_models()
        m = resolve_model(name)
        g = asyncio.run(m.generate(task, tmp_path / name, GenerationOptions()))
        assert g.status == "ok" and (g.page.root / "index.html").is_file(), name
        assert m.describe()["name"] == name


@pytest.mark.validity
async def test_each_cheat_is_judged(browser, mini_task, tmp_path):
    vs = await run_async(mini_task.parent, tmp_path / "out", browser=browser)
    assert [v.page for v in vs] == list(KINDS)
    for v in vs:
        assert v.final is not None and v.judged is not None and v.truth is None, f"{v.page}: {v.note}"
        assert v.ok == (v.final <= FINAL_BOUND) and v.note
        assert (tmp_path / "out" / "mini-counter" / v.page / "result.json").is_file()
    # the first action is an asserted click: pictures alone, or controls without logic, pass nothing
    weak = {v.page: v for v in vs if v.page in ("slideshow", "buttons-no-logic")}
    for v in weak.values():
        assert v.judged == 0 and v.ok, f"{v.page} scored Final {v.final} ({v.note})"
    assert (tmp_path / "out" / "summary.md").read_text().count("| mini-counter |") == 4
