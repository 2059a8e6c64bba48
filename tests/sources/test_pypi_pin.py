"""A PyPI source is installed from its own distribution file, hashed, and refused when a pinned sha256 differs.

A real pip talks to a real package index: a small HTTP server on 127.0.0.1 that serves a "simple" index
page and one wheel made here (the machine's pip configuration is switched off, so nothing else is asked).
"""

from __future__ import annotations

import base64
import contextlib
import hashlib
import http.server
import subprocess
import zipfile
from pathlib import Path

import pytest
from loopback import serving

from iwrbench.errors import RecordError
from iwrbench.sources import fetch

NAME, VERSION = "iwr-pin-probe", "1.0"
WHEEL = "iwr_pin_probe-1.0-py3-none-any.whl"


def _make_wheel(folder: Path, answer: str) -> Path:
    files = {
        "iwr_pin_probe.py": f"ANSWER = {answer!r}\n",
        "iwr_pin_probe-1.0.dist-info/METADATA": f"Metadata-Version: 2.1\nName: {NAME}\nVersion: {VERSION}\n",
        "iwr_pin_probe-1.0.dist-info/WHEEL": "Wheel-Version: 1.0\nGenerator: iwr-test\nRoot-Is-Purelib: true\nTag: py3-none-any\n",
    }
    record = []
    for name, text in files.items():
        digest = base64.urlsafe_b64encode(hashlib.sha256(text.encode()).digest()).rstrip(b"=").decode()
        record.append(f"{name},sha256={digest},{len(text.encode())}")
    record.append("iwr_pin_probe-1.0.dist-info/RECORD,,")
    files["iwr_pin_probe-1.0.dist-info/RECORD"] = "\n".join(record) + "\n"
    path = folder / WHEEL
    with zipfile.ZipFile(path, "w") as z:
        for name, text in files.items():
            z.writestr(zipfile.ZipInfo(name, date_time=(2024, 1, 1, 0, 0, 0)), text)
    return path


@contextlib.contextmanager
def _index(root: Path):
    """A PEP 503 index for one project at http://127.0.0.1:PORT/simple/."""
    (root / "simple" / NAME).mkdir(parents=True)
    (root / "simple" / NAME / "index.html").write_text(f'<a href="../../files/{WHEEL}">{WHEEL}</a>\n')

    class Quiet(http.server.SimpleHTTPRequestHandler):
        def __init__(self, *a, **kw):
            super().__init__(*a, directory=str(root), **kw)

        def log_message(self, *a):
            pass

    with serving(Quiet) as origin:
        yield f"{origin}/simple/"


@pytest.fixture
def index(tmp_path, monkeypatch):
    root = tmp_path / "index"
    (root / "files").mkdir(parents=True)
    wheel = _make_wheel(root / "files", "forty-two")
    monkeypatch.setenv("IWR_CACHE", str(tmp_path / "cache"))
    monkeypatch.setenv("PIP_CONFIG_FILE", "/dev/null")  # no machine-wide extra index or find-links
    monkeypatch.setenv("PIP_FIND_LINKS", str(tmp_path / "no-links"))
    monkeypatch.delenv("PIP_EXTRA_INDEX_URL", raising=False)
    monkeypatch.delenv("PIP_CONSTRAINT", raising=False)
    (tmp_path / "no-links").mkdir()
    with _index(root) as url:
        monkeypatch.setenv("PIP_INDEX_URL", url)
        yield wheel


def _answer(python: Path) -> str:
    return subprocess.run([str(python), "-c", "import iwr_pin_probe; print(iwr_pin_probe.ANSWER)"],
                          capture_output=True, text=True, check=True).stdout.strip()


def test_an_unpinned_package_is_installed_from_its_file_and_its_digest_recorded(index, tmp_path) -> None:
    from iwrbench.record.recipe import load_recipe
    from iwrbench.sources import resolve_source

    digest = fetch.sha256_file(index)
    recipe = tmp_path / "probe.yaml"
    recipe.write_text(f"id: probe\nsource:\n  pypi: {{package: {NAME}, version: '{VERSION}', serve: '{{python}} -m http.server {{port}}'}}\n"
                      "actions:\n  - {type: Press, key: Enter, description: press Enter}\n")
    resolved = resolve_source(load_recipe(recipe))  # what iwr record does: reference/source.json gets the digest
    assert resolved.spec.kind == "pypi" and resolved.spec.sha256 == digest
    py = resolved.bundle.python
    assert _answer(py) == "forty-two"
    assert fetch.pypi_env_digest(py) == digest
    # the pinned digest finds the same venv again, without installing anything
    stamp = (py.parent.parent / ".iwr-ok").stat().st_mtime_ns
    assert fetch.pypi_env(NAME, VERSION, sha256=digest.upper()) == py
    assert (py.parent.parent / ".iwr-ok").stat().st_mtime_ns == stamp


def test_a_pinned_sha256_that_differs_is_refused_and_nothing_installed(index) -> None:
    wrong = "0" * 64
    with pytest.raises(RecordError, match=rf"{WHEEL} sha256 [0-9a-f]{{64}} does not match the pinned {wrong}"):
        fetch.pypi_env(NAME, VERSION, sha256=wrong)
    assert not list((fetch.cache_root() / "pypi").glob(f"{NAME}-*")), "a venv was made for a refused package"
