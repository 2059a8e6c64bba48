"""Recipes: valid ones load; invalid ones say which field and which line."""

from pathlib import Path

import pytest

from iwrbench.errors import RecipeError
from iwrbench.record.recipe import load_recipe

SUITES = Path(__file__).resolve().parents[2] / "src" / "iwrbench" / "suites"

GOOD = """\
id: demo
source: {site: ./site}
actions:
  - type: Click
    target: "#go"
    description: "the Go button"
    assert: "It went"
  - type: scroll
    description: "scroll down"
"""


def test_good_recipe(tmp_path):
    p = tmp_path / "r.yaml"
    p.write_text(GOOD)
    r = load_recipe(p)
    assert r.actions[0].assertion == "It went"
    assert r.actions[1].type == "Scroll" and r.actions[1].direction == "down"
    assert r.viewport.width == 1280 and r.base_dir == tmp_path


@pytest.mark.parametrize("text,pattern", [
    ("id: x\nsource: {site: s}\nactions:\n  - type: Jump\n    description: d\n", r"line 4: field 'actions\.0\.type'"),
    ("id: x\nsource: {site: s}\nactions:\n  - type: Type\n    target: '#a'\n    description: d\n", r"needs 'text'"),
    ("id: x\nsource: {site: s, url: 'http://x'}\nactions:\n  - {type: Press, key: a, description: d}\n", r"exactly one of"),
    ("id: x\nsource: {site: s}\nactions: []\n", r"field 'actions'"),
    ("id: x\nsource: {site: s}\nactions:\n  - type: Click\n   target: bad indent\n", r"line \d+: invalid YAML"),
    ("- just\n- a list\n", r"must be a YAML mapping"),
    ("id: x\nsource: {site: s}\nbogus: 1\nactions:\n  - {type: Press, key: a, description: d}\n", r"line 3: field 'bogus'"),
])
def test_bad_recipes(tmp_path, text, pattern):
    p = tmp_path / "r.yaml"
    p.write_text(text)
    with pytest.raises(RecipeError, match=pattern):
        load_recipe(p)


def test_missing_recipe(tmp_path):
    with pytest.raises(RecipeError, match="no such recipe file"):
        load_recipe(tmp_path / "nope.yaml")


def test_bundled_recipes_all_load():
    from iwrbench.suites.catalog import SUITE_FILE

    files = sorted(f for f in SUITES.glob("*/*.yaml") if f.name != SUITE_FILE)  # suite.yaml lists, it is no recipe
    assert files, "the package bundles recipes"
    for f in files:
        load_recipe(f)


PROBES = GOOD + """\
  - type: Type
    target: "#q"
    text: "hello"
    description: "the search box"
  - type: Click
    target: "#go"
    description: "the Go button"
    assert: "It went"
"""


@pytest.mark.parametrize("probes,pattern", [
    ("[{skip: [1], replace: {hello: world}}]", "exactly one of 'replace'"),
    ("[{skip: []}]", "'skip' needs main step numbers"),
    ("[{skip: [9]}]", r"probes\[0\]\.skip: step 9 is past the last action \(4\)"),
    ("[{skip: [1, 2, 3, 4]}]", r"probes\[0\]\.skip: leaves no action"),
    ("[{guards: 1, actions: [{type: Click, target: '#go', description: go, mirrors: 7}]}]",
     r"probes\[0\]\.actions\[1\]\.mirrors: step 7 is past the last action"),
    ("[{guards: 1, actions: [{type: Press, key: x, description: x, unchanged: true, assert: 'Nothing'}]}]",
     "takes no 'assert'"),
])
def test_bad_probes(tmp_path, probes, pattern):
    p = tmp_path / "r.yaml"
    p.write_text(PROBES + "probes: " + probes + "\n")
    with pytest.raises(RecipeError, match=pattern):
        load_recipe(p)


def test_main_action_cannot_mirror(tmp_path):
    p = tmp_path / "r.yaml"
    p.write_text(GOOD.replace('    assert: "It went"\n', '    assert: "It went"\n    mirrors: 1\n', 1))
    with pytest.raises(RecipeError, match=r"actions\[1\]\.mirrors: only a probe's actions"):
        load_recipe(p)


def test_probe_plans_keep_the_automatic_probe_and_map_steps(tmp_path):
    from iwrbench.record.recorder import plan_probes

    p = tmp_path / "r.yaml"
    p.write_text(PROBES + "probes:\n  - {name: late, skip: [1, 3]}\n  - name: own\n    guards: 2\n    actions:\n"
                 "      - {type: Press, key: x, description: an unused key, unchanged: true}\n"
                 "      - {type: Click, target: '#go', description: the Go button, mirrors: 4}\n")
    plans = plan_probes(load_recipe(p))
    assert [(x.name, x.kind, x.guards, x.mirrors) for x in plans] == [
        ("other-text", "text", 3, True), ("late", "recipe", 1, False), ("own", "recipe", 2, False)]
    assert plans[1].step_mirrors == [2, 4] and [a.type for a in plans[1].actions] == ["Scroll", "Click"]
    assert plans[2].step_mirrors == [None, 4] and plans[2].actions[0].unchanged
    p.write_text(PROBES + "auto_probe: false\nprobes: [{skip: [1]}]\n")
    assert [x.name for x in plan_probes(load_recipe(p))] == ["probe-1"]
    p.write_text(PROBES + "probes: []\n")
    assert plan_probes(load_recipe(p)) == []


def test_probe_mirror_of():
    from iwrbench.records import Probe

    assert Probe(name="t", guards=1, actions=[]).mirror_of(3) == 3
    p = Probe(name="r", kind="recipe", guards=1, mirrors=False, actions=[], step_mirrors=[None, 4])
    assert [p.mirror_of(j) for j in (1, 2, 3)] == [None, 4, None]


def test_still_allows_a_trace_only():
    import numpy as np

    from iwrbench.checks import change as chg

    g = np.zeros((45, 80), dtype=bool)
    assert chg.still(g).passed
    g[0, :3] = True  # a caret, a focus ring
    assert chg.still(g).passed
    g[10:20, 10:20] = True  # a panel
    v = chg.still(g)
    assert not v.passed and "103 cells" in v.detail


def test_schema_documents_the_recipe():
    import json
    import subprocess
    import sys

    r = subprocess.run([sys.executable, "-m", "iwrbench.cli", "schema"], capture_output=True, text=True, timeout=120)
    assert r.returncode == 0, r.stderr
    recipe = json.loads(r.stdout)["Recipe"]
    assert {"id", "source", "actions", "probes", "auto_probe"} <= set(recipe["properties"])
    assert "base_dir" not in recipe["properties"]
    defs = recipe["$defs"]
    assert {"skip", "actions", "guards", "replace"} <= set(defs["RecipeProbe"]["properties"])
    assert {"assert", "mirrors", "unchanged"} <= set(defs["RecipeAction"]["properties"])


def test_a_step_is_named_by_its_type_once():
    from iwrbench.records import step_text

    assert step_text("Press", "press Enter to add the item") == "Press Enter to add the item"
    assert step_text("Press", "the K key") == "Press the K key"
    assert step_text("Click", "Clicking the 'Next' tab") == "Clicking the 'Next' tab"
    assert step_text("Scroll", "scroll down to the footer") == "Scroll down to the footer"
    assert step_text("Type", "the 'Email' box") == "Type the 'Email' box"
    assert step_text("Hover", "") == "Hover"


def test_recorder_made_probes_the_judge_fails_on_the_source_are_dropped_recipe_ones_refuse(tmp_path):
    """Validation lists each probe that fails on the source; when every problem is such a probe made by the
    recorder (automatic or derived), recording drops them from task.json (and says so); a recipe's own probe
    failing, or any other problem, keeps the task refused."""
    import json as _json

    from iwrbench.validate.check import Validation
    from iwrbench.validate.make import _drop_probes

    mine = "probe derived-skip-1 fails on the source: step 1: 'Symptom checker' is still on screen"
    v = Validation("t", ok=False, problems=[mine], own_probes_failing={"derived-skip-1": mine})
    assert v.droppable()
    v.problems.append("probe back-with-keys fails on the source: step 2: failed")  # a recipe probe
    assert not v.droppable()
    assert not Validation("t", ok=False, problems=["oracle IFS 50.0 < 100 (step 2: failed)"]).droppable()
    assert not Validation("t", ok=True).droppable()

    (tmp_path / "reference").mkdir()
    (tmp_path / "task.json").write_text(_json.dumps({"id": "t", "probes": [
        {"name": "derived-skip-1", "kind": "derived"}, {"name": "back-with-keys", "kind": "recipe"}]}))
    (tmp_path / "reference" / "record.json").write_text(_json.dumps({"warnings": []}))
    _drop_probes(tmp_path, {"derived-skip-1"}, [mine + "; the probe is dropped"])
    assert [p["name"] for p in _json.loads((tmp_path / "task.json").read_text())["probes"]] == ["back-with-keys"]
    meta = _json.loads((tmp_path / "reference" / "record.json").read_text())
    assert meta["probes_dropped_at_validation"] == ["derived-skip-1"] and "dropped" in meta["warnings"][0]
