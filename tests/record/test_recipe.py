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
    files = sorted(SUITES.glob("*/*.yaml"))
    assert files, "the package bundles recipes"
    for f in files:
        load_recipe(f)
