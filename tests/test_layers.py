"""The import contract between stages (pyproject.toml ``[tool.importlinter]``, docs/design.md "Layers")."""

from __future__ import annotations

import tomllib
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
PACKAGE = ROOT / "src" / "iwrbench"


def _contract() -> dict:
    return tomllib.loads((ROOT / "pyproject.toml").read_text())["tool"]["importlinter"]["contracts"][0]


def test_stages_depend_one_way():
    """import-linter over the source: a module imports only from its layer's package and the layers below it
    (imports inside functions count too); the output names every import that breaks it."""
    from importlinter.cli import lint_imports

    assert lint_imports(config_filename=str(ROOT / "pyproject.toml"), no_cache=True, no_logo=True) == 0


def test_every_module_of_the_package_has_a_layer():
    """A new package or top-level module must be placed in a layer, or the contract would not cover it."""
    placed = {name.strip() for layer in _contract()["layers"] for name in layer.split("|")}
    top = {p.stem for p in PACKAGE.glob("*.py") if p.name != "__init__.py"}
    top |= {p.name for p in PACKAGE.iterdir() if p.is_dir() and (p / "__init__.py").is_file()}
    assert sorted(top - placed) == [], "add these to a layer in pyproject.toml [tool.importlinter]"
    assert sorted(placed - top) == [], "layers that name nothing"


def _lint_a_copy_with(tmp_path, monkeypatch, module: str, code: str) -> int:
    """import-linter's verdict on a copy of the package where ``code`` is added at the end of ``module``."""
    import shutil
    import sys

    from importlinter.cli import lint_imports

    copy = tmp_path / "src" / "iwrbench"
    shutil.copytree(PACKAGE, copy, ignore=shutil.ignore_patterns("__pycache__", "sites", "data", "*.png", "*.mp4"))
    target = copy / module
    target.write_text(target.read_text() + code)
    config = tmp_path / "pyproject.toml"
    config.write_text((ROOT / "pyproject.toml").read_text())
    for name in [m for m in sys.modules if m == "iwrbench" or m.startswith("iwrbench.")]:
        monkeypatch.delitem(sys.modules, name)
    monkeypatch.syspath_prepend(str(copy.parent))
    return lint_imports(config_filename=str(config), no_cache=True, no_logo=True)


def test_the_contract_would_catch_an_upward_import(tmp_path, monkeypatch):
    """The contract is not vacuous: a copy of the package where a low layer imports a high one is refused."""
    code = "\n\ndef _upward():\n    from .runs import rundir  # noqa: F401\n"
    assert _lint_a_copy_with(tmp_path, monkeypatch, "records.py", code) != 0


@pytest.mark.parametrize("ignored", _contract().get("ignore_imports", []))
def test_each_exception_to_the_contract_is_still_needed(ignored, tmp_path):
    """Without any one of its ignored imports the contract breaks: an exception the code no longer needs
    is removed from pyproject.toml."""
    from importlinter.cli import lint_imports

    text = (ROOT / "pyproject.toml").read_text()
    line = f'  "{ignored}",\n'
    assert line in text
    config = tmp_path / "pyproject.toml"
    config.write_text(text.replace(line, ""))
    assert lint_imports(config_filename=str(config), no_cache=True, no_logo=True) != 0


def test_a_circle_inside_a_package_breaks_the_contract(tmp_path, monkeypatch):
    """Inside a package too: a copy where the pixel helpers (the bottom of metrics/) import the comparison that
    stands on them, inside a function, is refused (metrics once had such circles, hidden that way)."""
    code = "\n\ndef _circle():\n    from iwrbench.metrics import _blocks  # noqa: F401\n"
    assert _lint_a_copy_with(tmp_path, monkeypatch, "metrics/_pixels.py", code) != 0
