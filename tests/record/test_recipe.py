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
    # a typo would make a leaderboard category of its own
    ("id: x\nsource: {site: s}\nclassification: {visual_complexity: V7}\nactions:\n  - {type: Press, key: a, description: d}\n",
     r"visual_complexity 'V7': one of V1, V2, V3, V4"),
    ("id: x\nsource: {site: s}\nclassification: {provenance: famus}\nactions:\n  - {type: Press, key: a, description: d}\n",
     r"provenance 'famus': one of novel, famous"),
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
    assert step_text("Type", "the 'Full name' box") == "Type into the 'Full name' box"
    assert step_text("Type", "into the search field") == "Type into the search field"
    assert step_text("Hover", "the 'i' icon") == "Hover over the 'i' icon"
    assert step_text("Select", "the 'Country' menu") == "Select in the 'Country' menu"
    from iwrbench.records import clip
    assert clip("Hover the small circled 'i' icon in the top right corner", 30) == "Hover the small circled 'i'\u2026"
    assert clip("short", 30) == "short"
    assert step_text("Type", "the 'Email' box") == "Type into the 'Email' box"
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


KEYS_AND_PINS = """\
id: pins
source: {site: ./site}
actions:
  - {type: Hover, target: "#p1", description: "the '€415k' price pin in the north of the map"}
  - {type: Click, target: "#save", description: "the 'Save' button on the card"}
  - {type: Press, key: ArrowRight, description: "press the right arrow"}
  - {type: Press, key: ArrowRight, description: "press the right arrow again"}
"""


def test_two_shapes_of_replay_and_the_state_each_shows(tmp_path):
    # a replay in order moves on at any event; a replay by kind of event only on the recorded kind: the same
    # hovered control, any click, the recorded key
    from iwrbench.record.probes import RecipeAction, replay_states

    p = tmp_path / "r.yaml"
    p.write_text(KEYS_AND_PINS)
    main = load_recipe(p).actions
    other_pin = RecipeAction(type="Hover", target="#p2", description="another pin")
    left = RecipeAction(type="Press", key="ArrowLeft", description="left")
    probe = [other_pin, main[0], main[1], main[2], left]
    assert replay_states(probe, main, "order") == [(0, 1), (1, 2), (2, 3), (3, 4), (4, 4)]
    assert replay_states(probe, main, "kind") == [(0, 0), (0, 1), (1, 2), (2, 3), (3, 3)]
    # a key the page does not use does not move a replay by kind; the recorded key does
    f9 = RecipeAction(type="Press", key="F9", description="f9")
    assert replay_states([main[0], main[1], f9, main[2]], main, "kind") == [(0, 1), (1, 2), (2, 2), (2, 3)]


def test_a_neighbour_is_named_by_its_own_text_in_the_step_s_words():
    from iwrbench.record.probes import RecipeAction, neighbour_description

    d = "the red 'Too many courgettes' title under 'Other articles'"
    assert neighbour_description(d, "Too many courgettes", "The first raspberries", []) == \
        "the red 'The first raspberries' title under 'Other articles'"
    # only the quote that names the target is replaced, whatever its place; or the quote of its surroundings
    assert neighbour_description("the tag under ‘Lifting potatoes’, “harvest”", "harvest", "onions", []) == \
        "the tag under ‘Lifting potatoes’, “onions”"
    assert neighbour_description("the '+' button at the right of the 'Review' column header", "Review", "Doing", []) == \
        "the '+' button at the right of the 'Doing' column header"
    # no quote of the target's own text (a pin named by its place), a quoted or long text, or a control another
    # step names: no neighbour
    assert neighbour_description("the pin in Fenwick Park", "€745k", "€415k", []) is None
    assert neighbour_description(d, "Too many courgettes", "it's", []) is None
    assert neighbour_description(d, "Too many courgettes", "x" * 61, []) is None
    taken = [RecipeAction(type="Click", target="#a", description="the red 'Onions' title under 'Other articles'")]
    assert neighbour_description(d, "Too many courgettes", "Onions", taken) is None


def test_derived_candidates_undo_a_key_and_act_on_a_look_alike_neighbour(tmp_path):
    from iwrbench.record.probes import derive_plans

    p = tmp_path / "r.yaml"
    p.write_text(KEYS_AND_PINS)
    r = load_recipe(p)
    nb = {1: [("html > body > i:nth-child(2)", "€415k", "€745k"), ("html > body > i:nth-child(3)", "€415k", "€329k")]}
    plans = {x.name: x for x in derive_plans(r, changed={1, 2, 3, 4}, neighbours=nb)}
    undo = plans["derived-undo-key-3"]
    assert [(a.type, a.key) for a in undo.actions][-2:] == [("Press", "ArrowRight"), ("Press", "ArrowLeft")]
    assert undo.guards == 4 and undo.step_mirrors == [1, 2, 3, None]
    near = plans["derived-neighbour-1"]
    assert len(near.actions) == 1 and near.guards == 1 and near.step_mirrors == [None]
    assert (near.actions[0].type, near.actions[0].target) == ("Hover", "html > body > i:nth-child(2)")
    assert near.actions[0].description == "the '€745k' price pin in the north of the map"
    # a step whose screen did not change gets neither; a recipe without derived probes gets none
    plans = {x.name for x in derive_plans(r, changed={2}, neighbours=nb)}
    assert not any(x.startswith(("derived-undo-key", "derived-neighbour")) for x in plans)
    p.write_text(KEYS_AND_PINS + "auto_probe: false\n")
    assert derive_plans(load_recipe(p), changed={1, 2, 3, 4}, neighbours=nb) == []


def test_a_probe_failing_where_it_asks_a_main_step_guards_only_from_that_step():
    # the judge waives a probe's cap for a page that stopped at the main step the probe's failing step asks again
    # (the same fault): so the visit without step 1, decided at what main step 2 asks, leaves step 1 open
    from iwrbench.record.probes import guard_map
    from iwrbench.records import Probe

    skip = Probe(name="skip", kind="derived", guards=1, mirrors=False, actions=[], step_mirrors=[2, 3])
    other = Probe(name="other", kind="derived", guards=1, mirrors=False, actions=[], step_mirrors=[None])
    gm = guard_map([skip], 3, {"skip": 1})
    assert [gm[i] for i in (1, 2, 3)] == [[], ["skip"], ["skip"]]
    gm = guard_map([skip, other], 3, {"skip": 1, "other": 1})
    assert gm[1] == ["other"] and gm[3] == ["skip", "other"]
    assert guard_map([skip, other], 3, {"skip": 1, "other": None})[1] == []
    # a page that passes every main step gets no waiver: the skip probe caps it below step 1
    gm = guard_map([skip], 3, {"skip": 1}, waiver=False)
    assert [gm[i] for i in (1, 2, 3)] == [["skip"], ["skip"], ["skip"]]
    # two probes alike under the waiver differ without it (what the recorder compares before dropping one)
    twice2 = Probe(name="twice2", kind="derived", guards=2, mirrors=False, actions=[], step_mirrors=[1, 2, None, 3])
    twice1 = Probe(name="twice1", kind="derived", guards=1, mirrors=False, actions=[], step_mirrors=[1, None, 2, 3])
    def covered(p: Probe, waiver: bool) -> list[int]:
        return [i for i, names in guard_map([p], 3, {p.name: 4}, waiver=waiver).items() if names]

    assert covered(twice1, True) == covered(twice2, True) == [3]
    assert covered(twice1, False) == [1, 2, 3] and covered(twice2, False) == [2, 3]


def test_derived_candidates_press_another_key_the_recording_uses(tmp_path):
    from iwrbench.record.probes import derive_plans

    p = tmp_path / "r.yaml"
    p.write_text("id: cards\nsource: {site: ./site}\nactions:\n"
                 "  - {type: Press, key: Space, description: the Space bar}\n"
                 "  - {type: Press, key: '3', description: the 3 key (Good)}\n"
                 "  - {type: Press, key: Space, description: the Space bar}\n"
                 "  - {type: Press, key: '1', description: the 1 key (Again)}\n")
    plans = {x.name: x for x in derive_plans(load_recipe(p), changed={1, 2, 3, 4})}
    other = plans["derived-other-key-2"]
    assert [(a.type, a.key) for a in other.actions] == [("Press", "Space"), ("Press", "1")]
    assert other.guards == 2 and other.step_mirrors == [1, None]
    # Space has no other key of its family in the recording: nothing in its place
    assert not any(n.startswith("derived-other-key-1") for n in plans)
    # arrows for arrows (2048: the up arrow where the recording moved the tiles left)
    p.write_text("id: tiles\nsource: {site: ./site}\nactions:\n"
                 "  - {type: Press, key: ArrowLeft, description: the left arrow}\n"
                 "  - {type: Press, key: ArrowUp, description: the up arrow}\n")
    plans = {x.name: x for x in derive_plans(load_recipe(p), changed={1, 2})}
    assert [(a.type, a.key) for a in plans["derived-other-key-1"].actions] == [("Press", "ArrowUp")]


def test_other_text_keeps_the_echo_checks_and_drops_those_that_quote_the_typed_text_among_other_words(tmp_path):
    # a filter box: 'page' typed, the cards that mention it checked; with other text, what the filter shows is not
    # known (the source's recording decides), but the typed text's own echo and unrelated checks stay
    from iwrbench.record.recorder import plan_probes

    p = tmp_path / "r.yaml"
    p.write_text("id: f\nsource: {site: ./site}\nactions:\n"
                 "  - type: Type\n    target: '#q'\n    text: page\n    description: the filter box\n"
                 "    checks:\n      - {kind: value_equals, value: page}\n"
                 "      - {kind: text_visible, text: Design product detail page}\n"
                 "      - {kind: text_absent, text: Define onboarding email sequence}\n")
    auto = plan_probes(load_recipe(p))[0]
    other = auto.replace["page"]
    assert [(c.kind, getattr(c, "value", None) or getattr(c, "text", None)) for c in auto.actions[0].checks] == [
        ("value_equals", other), ("text_absent", "Define onboarding email sequence")]


def _v(*lines: str, field: str | None = None):
    from iwrbench.checks.view import Frag, View

    frags = [Frag(t=t, x=20, y=40 + 30 * i, w=8 * len(t), h=16, fs=14) for i, t in enumerate(lines)]
    if field is not None:
        frags.append(Frag(t=field, x=600, y=20, w=8 * len(field), h=16, fs=14, k="field", e=True))
    return View(size=(1280, 720), frags=frags)


def _png(changed: bool) -> bytes:
    import io

    from PIL import Image, ImageDraw

    im = Image.new("RGB", (320, 180), "white")
    if changed:
        ImageDraw.Draw(im).rectangle((20, 20, 300, 160), fill="black")
    buf = io.BytesIO()
    im.save(buf, "PNG")
    return buf.getvalue()


def test_another_text_in_a_filter_decides_by_what_it_hides_never_by_its_echo(tmp_path):
    """kanban: 'page' typed in the filter kept two cards; 'cety' typed instead hides them. A page that replays the
    recording over a real text box shows 'cety' in it too, so the echo decides nothing; the cards gone do."""
    from iwrbench.record.probes import decisive_step, derive_plans, keep_decisive, replay_states
    from iwrbench.records import Action, Evidence, TextEvidence

    p = tmp_path / "r.yaml"
    p.write_text("id: kanban\nsource: {site: ./site}\nactions:\n"
                 "  - {type: Type, target: '#q', text: page, description: the filter box}\n"
                 "  - {type: Click, target: '#add', description: the '+' button}\n")
    r = load_recipe(p)
    plan = {x.name: x for x in derive_plans(r, changed={1, 2})}["derived-other-text-1"]
    new = plan.actions[0].text
    # mirrored, as the automatic probe: a page that fails it at step j keeps the steps before j
    assert new != "page" and len(new) == 4 and plan.mirrors and plan.replace == {"page": new}
    cards = ("Design product detail page", "Build chat page", "Define onboarding email sequence")
    main_views = [_v(*cards), _v(*cards[:2], field="page"), _v(*cards[:2], "New card", field="page")]
    shots = [_png(False), _png(True), _png(True)]
    echo = TextEvidence(kind="appears", text=new, source="echo", channel="text", before=0, after=1)
    gone = TextEvidence(kind="disappears", text="Design product detail page", source="derived", before=1, after=0)
    unseen = TextEvidence(kind="appears", text=f"No card matches {new}", source="derived", before=0, after=1)

    def act(*texts: TextEvidence) -> Action:
        return Action(type="Type", action_description="the filter box", logical_assertion=None,
                      evidence=Evidence(texts=list(texts)))

    states = replay_states(plan.actions[:1], r.actions, "kind")
    # the echo alone, or with a text no screen of the recording showed: nothing tells the source from a replay
    d = decisive_step([act(echo, unseen)], main_views, shots, fair_views=main_views, own_texts={"page", new},
                      states=states)
    assert d.decisive is None
    # a card the recording showed, gone with the other text: decisive, and all the decisive step asks
    acts = [act(echo, gone)]
    d = decisive_step(acts, main_views, shots, fair_views=main_views, own_texts={"page", new}, states=states)
    assert d.decisive == 1 and "Design product detail page" in d.reason
    kept = keep_decisive(acts, 1, main_views, shots, fair_views=main_views, own_texts={"page", new}, states=states)
    assert [t.text for t in kept[0].evidence.texts] == ["Design product detail page"]
    # on a later step the typed text shown again (the to-do the Enter key made) still decides
    enter = Action(type="Press", action_description="Enter", logical_assertion=None,
                   evidence=Evidence(texts=[echo]))
    d = decisive_step([acts[0].model_copy(update={"evidence": Evidence()}), enter], main_views, shots,
                      fair_views=main_views, own_texts={"page", new})
    assert d.decisive == 2


def test_a_key_in_place_of_another_decides_by_the_screen_s_change_when_only_chance_texts_changed():
    """2048: the up arrow in place of the recorded left arrow. The tiles' numbers are chance's; the board changing
    at all is not, and a replay keyed on the recorded left arrow does not change it."""
    from iwrbench.record.probes import decisive_step
    from iwrbench.records import Action, Evidence, TextEvidence
    from iwrbench.checks.evidence import change_of

    shots = [_png(False), _png(True)]
    views = [_v("Score 0"), _v("Score 0", "4")]
    ev = Evidence(texts=[TextEvidence(kind="appears", text="4", chance=True)], change=change_of(shots[0], shots[1]))
    up = Action(type="Press", action_description="the up arrow", logical_assertion=None, evidence=ev)
    # a replay by kind of event stays at the first state on the up arrow: nothing changes there
    d = decisive_step([up], views, shots, fair_views=views, states=[(0, 0)])
    assert d.decisive == 1 and "change" in d.reason
    # a replay in order shows the left arrow's state: the board changed there too, so this does not decide
    assert decisive_step([up], views, shots, fair_views=views, states=[(0, 1)]).decisive is None


def test_a_typed_amount_shown_again_as_a_phrase_of_its_own_is_its_echo():
    # a new user's budget app: 98.40 typed, Enter, the row reads '€98.40' and a toast quotes it; the assertion quotes
    # the totals only. The echo was lost: '€98.40' counted as a changed text like any other, then dropped inside the
    # toast's longer phrase, and the automatic probe (other text of the same shape) was dropped for want of an echo
    from iwrbench.checks.evidence import derive_texts

    before = _v("Total spent €1,339.93", "Stadtwerke München", field="98.40")
    after = _v("Total spent €1,325.83", "Stadtwerke München", "€98.40", "Saved Stadtwerke München: €112.50 → €98.40",
               "Utilities 6.6%", "Housing 74.7%", "Groceries 11.4%", "Remaining €1,074.17")
    d = derive_texts(before, after, "The total spent reads '€1,325.83'", action_type="Press", typed=["98.40"])
    echo = [t for t in d.texts if t.source == "echo"]
    assert [(t.text, t.kind) for t in echo] == [("98.40", "appears")], d.texts
    assert not any(t.source == "derived" and t.text == "€98.40" for t in d.texts)  # said once, as the echo
    # quoted by the assertion: evidence of the assertion's, not an echo besides
    q = derive_texts(before, after, "The row reads '€98.40'", action_type="Press", typed=["98.40"])
    assert [t.source for t in q.texts if t.text in ("98.40", "€98.40")] == ["assertion"]
