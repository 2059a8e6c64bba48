"""The data scripts of the third-party recipes (``suites/data/make_*.py``) write the same bytes on every run.

A recipe's data is made again whenever it is recorded or its oracle is served, and the recorder keeps
the first file in ``reference/data/``; a script whose output changed between runs (a zip timestamp, a
set's order, a random id) would make a rebuilt suite differ from the one recorded. The zip apps made
with ``_sitepyz`` are also opened to check that they hold a build script and the ``__main__`` that
serves the site.
"""

from __future__ import annotations

import subprocess
import sys
import zipfile
from pathlib import Path

import pytest

from iwrbench.record.recipe import load_recipe
from iwrbench.suites import catalog

DATA = Path(catalog.__file__).parent / "data"
SCRIPTS = sorted(p for p in DATA.glob("make_*.py"))


def _run(script: Path, out: Path) -> dict[str, bytes]:
    res = subprocess.run([sys.executable, str(script), str(out)], capture_output=True, text=True, timeout=120)
    assert res.returncode == 0, res.stderr
    return {str(p.relative_to(out)): p.read_bytes() for p in sorted(out.rglob("*")) if p.is_file()}


@pytest.mark.parametrize("script", SCRIPTS, ids=[p.stem for p in SCRIPTS])
def test_a_data_script_writes_the_same_bytes_twice(script: Path, tmp_path: Path) -> None:
    first = _run(script, tmp_path / "a")
    second = _run(script, tmp_path / "b")
    assert first, f"{script.name} wrote nothing"
    assert first == second, f"{script.name} wrote different bytes on a second run"


def test_every_site_zip_app_holds_its_build_script_and_server(tmp_path: Path) -> None:
    made = [p for p in SCRIPTS if "write_pyz" in p.read_text()]
    assert made, "no script uses _sitepyz"
    for script in made:
        out = tmp_path / script.stem
        files = _run(script, out)
        (name,) = [n for n in files if n.endswith(".pyz")]
        with zipfile.ZipFile(out / name) as z:
            names = set(z.namelist())
        assert {"__main__.py", "project/build.py"} <= names, (script.name, sorted(names)[:5])


def test_every_pypi_recipe_names_an_existing_data_script() -> None:
    for f in catalog.recipe_files("full"):
        r = load_recipe(f)
        if r.source.pypi is None or r.source.pypi.data is None:
            continue
        path = (f.parent / r.source.pypi.data).resolve()
        assert path.is_file(), (r.id, r.source.pypi.data)
