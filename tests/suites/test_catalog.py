"""The bundled suites' catalogue: `default` is a stratified subset of `full`, one recipe file per task."""

from __future__ import annotations

from collections import Counter

import pytest

from iwrbench.errors import IwrError
from iwrbench.record.recipe import load_recipe
from iwrbench.suites import catalog


def _recipes(name: str) -> list:
    return [load_recipe(f) for f in catalog.recipe_files(name)]


def test_every_recipe_file_is_named_after_its_task() -> None:
    for name in catalog.suites():
        for f in catalog.recipe_files(name):
            assert load_recipe(f).id == f.stem, f


def test_default_is_a_stratified_subset_of_full() -> None:
    full = _recipes("full")
    default = _recipes("default")
    assert {r.id for r in default} <= {r.id for r in full}
    assert 0 < len(default) <= 40
    for axis in ("domain", "visual_complexity", "interaction_complexity"):
        have = Counter(getattr(r.classification, axis) for r in default)
        want = {getattr(r.classification, axis) for r in full}
        assert want <= set(have), f"default misses {axis} {sorted(want - set(have))}"


def test_a_suite_list_naming_a_missing_recipe_is_refused(tmp_path, monkeypatch) -> None:
    for n in ("pool", "sub"):
        (tmp_path / n).mkdir()
    src = catalog.recipe_files("full")[0]
    (tmp_path / "pool" / src.name).write_text(src.read_text().replace("../sites/", str(src.parent.parent / "sites") + "/"))
    (tmp_path / "sub" / "suite.yaml").write_text("from: pool\ntasks: [nope]\n")
    monkeypatch.setattr(catalog, "HERE", tmp_path)
    with pytest.raises(IwrError, match="no recipe in suite 'pool': nope"):
        catalog.recipe_files("sub")
    (tmp_path / "sub" / "suite.yaml").write_text(f"from: pool\ntasks: [{src.stem}]\n")
    assert [f.name for f in catalog.recipe_files("sub")] == [src.name]
    with pytest.raises(IwrError, match="unknown suite"):
        catalog.recipe_files("../pool")


def test_every_bundled_task_says_whether_it_is_novel_or_famous() -> None:
    for r in _recipes("full"):
        prov = (r.classification.model_extra or {}).get("provenance")
        assert prov in ("novel", "famous"), r.id
        # a published package is famous (models may have read its code); an own site is novel
        assert (prov == "famous") == (r.source.site is None), r.id
