"""The TodoMVC evidence set: the spec probe's truth, the listing, and (validity tier) the judge."""

from __future__ import annotations

import asyncio
import json
import shutil
from pathlib import Path

import pytest

from iwrbench.validity import todomvc as T

pytestmark = pytest.mark.browser

ROOT = Path(__file__).resolve().parents[2]
RECIPES = ROOT / "src" / "iwrbench" / "suites" / "full"
VANILLA = "tp-todomvc-vanillajs"

#: expected truth on the vanillajs task: the two follow the spec throughout; dojo's footer
#: reads "0 item left" after "Mark all as complete" (the assertion quotes "0 items left")
EXPECTED = {"vanillajs": 10, "react": 10, "dojo": 4}


@pytest.fixture(scope="module")
def pkg() -> Path:
    return T.fetch_package()


@pytest.fixture(scope="module")
def vanilla_task():
    return T.task_from_recipe(RECIPES / f"{VANILLA}.yaml")


def _broken_root(pkg: Path, dest: Path) -> Path:
    """A copy of the vanillajs implementation whose "Clear completed" does nothing."""
    shutil.copytree(pkg / "examples" / "vanillajs", dest / "examples" / "vanillajs")
    js = dest / "examples" / "vanillajs" / "js" / "controller.js"
    src = js.read_text()
    hook = "Controller.prototype.removeCompletedItems = function () {"
    assert hook in src  # the package changed: pick another hook
    js.write_text(src.replace(hook, hook + "\n\t\treturn;", 1))
    return dest


@pytest.fixture(scope="module")
def probes(pkg, vanilla_task, tmp_path_factory):
    """Every probe of this file at once, in one browser (they are independent pages)."""
    from playwright.async_api import async_playwright

    from iwrbench.browser.core import launch_browser

    broken = _broken_root(pkg, tmp_path_factory.mktemp("broken"))
    shots = tmp_path_factory.mktemp("probe-shots")

    async def go():
        async with async_playwright() as pw:
            b = await launch_browser(pw)
            try:
                jobs = {n: T.probe(b, pkg, T.entry_for(pkg, n), vanilla_task, shots / n) for n in EXPECTED}
                jobs["broken"] = T.probe(b, broken, "examples/vanillajs/index.html", vanilla_task, shots / "broken")
                done = await asyncio.gather(*jobs.values())
                return dict(zip(jobs, done)), shots
            finally:
                await b.close()

    return asyncio.run(go())


def test_probe_truth_on_implementations(probes):
    res, shots = probes
    got = {n: res[n].truth for n in EXPECTED}
    assert got == EXPECTED, {n: (r.first_failure().problems if r.first_failure() else None) for n, r in res.items()}
    # the state read at the end of the task, in the vanillajs implementation: Completed view emptied
    last = res["vanillajs"].steps[-1].state
    assert last["titles"] == [] and last["clear_text"] is None and last["count_text"] == "1 item left"
    assert last["filter"] == "Completed"
    # the deviation is where the spec says: the count's wording, nothing else at that step
    dojo = res["dojo"].first_failure()
    assert dojo.index == 5 and dojo.problems == ["the count reads '0 item left', expected '0 items left'"]
    assert (shots / "vanillajs" / "step_10.png").is_file()


def test_broken_clear_completed_lowers_truth_at_its_step(probes):
    res, _ = probes
    broken = res["broken"]
    assert broken.truth == 9
    f = broken.first_failure()
    assert f.index == 10 and f.op == "clear" and f.done
    assert any("visible todos" in p for p in f.problems) and any("Clear completed" in p for p in f.problems)


def test_spec_must_match_the_task(vanilla_task):
    T.spec_for(vanilla_task)  # the encoded spec fits the recipe as it is
    changed = vanilla_task.model_copy(deep=True)
    changed.action_sequence[5].parameters.text = "Something else"
    with pytest.raises(ValueError, match="step 6 types 'Something else'"):
        T.spec_for(changed)
    shorter = vanilla_task.model_copy(deep=True)
    shorter.action_sequence.pop()
    with pytest.raises(ValueError, match="9 actions"):
        T.spec_for(shorter)


def test_check_expect_reads_the_spec_terms():
    st = {"field": "", "titles": ["a", "b"], "done": ["a"], "count_text": "1 item left",
          "clear_text": "Clear completed (1)", "footer": True}
    assert T.check_expect({"titles": ["a", "b"], "done": ["a"], "left": 1, "clear": 1, "footer": True}, st) == []
    assert T.check_expect({"left": 2}, st) == ["the count reads '1 item left', expected '2 items left'"]
    assert T.check_expect({"left": 1}, {**st, "count_text": "1 items left"})
    assert T.check_expect({"clear": 2}, st) and T.check_expect({"clear": False}, st)
    assert T.check_expect({"titles": ["b", "a"]}, st)  # order matters


async def test_listing_keeps_runners_and_says_why_not(pkg, browser, tmp_path):
    ok = await T.check_runs(browser, pkg, "vanillajs")
    assert ok.runs and ok.entry == "examples/vanillajs/index.html", ok.reason
    fake = tmp_path / "pkg"
    (fake / "examples" / "nofield").mkdir(parents=True)
    (fake / "examples" / "nofield" / "index.html").write_text(
        "<!doctype html><title>x</title><script src='missing.js'></script><p>no app here</p>")
    (fake / "examples" / "noindex").mkdir()
    assert T.implementations(fake) == ["nofield", "noindex"]
    a = await T.check_runs(browser, fake, "nofield", field_timeout_ms=1500)
    assert not a.runs and "no new-todo field" in a.reason and "missing.js" in a.reason
    b = await T.check_runs(browser, fake, "noindex")
    assert not b.runs and "no index.html" in b.reason


@pytest.mark.validity
def test_judge_against_truth(pkg, tmp_path):
    """The harness end to end on a recorded task: the source judged as a model's page agrees
    with its truth (10 of 10); an implementation without filter links has truth 7."""
    from iwrbench.record.recipe import load_recipe
    from iwrbench.record.recorder import record

    tasks = tmp_path / "tasks"
    record(load_recipe(RECIPES / f"{VANILLA}.yaml"), tasks / VANILLA)
    out = tmp_path / "out"
    seen: list[str] = []
    vs = asyncio.run(T.run_async(tasks, out, only=[VANILLA, "vanillajs", "cujo"], progress=seen.append, root=pkg))
    by = {v.page: v for v in vs}
    assert set(by) == {"vanillajs", "cujo"}
    assert by["vanillajs"].truth == by["vanillajs"].judged == 10 and by["vanillajs"].ok
    assert by["cujo"].truth == 7 and isinstance(by["cujo"].judged, int)
    assert by["cujo"].ok == (by["cujo"].judged == 7)
    for name in by:
        assert (out / VANILLA / name / "probe" / "step_10.png").is_file()
        assert (out / VANILLA / name / "probe" / "probe.json").is_file()
        assert json.loads((out / VANILLA / name / "judge" / "result.json").read_text())["task_id"] == VANILLA
    lines = (out / "verdicts.jsonl").read_text().splitlines()
    assert [json.loads(x)["page"] for x in lines] == [v.page for v in vs]
    assert json.loads((out / "summary.json").read_text())["all"]["judged"] == 2
    assert any("judged" in m for m in seen)
