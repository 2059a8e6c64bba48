"""The oracle serves a task's site exactly as the recorder resolved it: one resolver for both."""

from __future__ import annotations

from pathlib import Path

from iwrbench.records import Action, Task

RECIPE = """id: pypi-extra
source:
  pypi:
    package: some-web-app
    version: "1.2.3"
    serve: "{python} -m some_web_app --port {port}"
    page: /start
    extra: ["plugin-a==2.0", "plugin-b>=1"]
actions:
  - {type: Press, key: Enter, description: "press Enter"}
"""


def test_a_pypi_extra_reaches_the_oracle(tmp_path, monkeypatch):
    from iwrbench.sources import resolve
    from iwrbench.validate.oracle import oracle_bundle

    installs = []

    def pypi_env(package: str, version: str, extra=None, sha256=None) -> Path:  # pip stands in: no registry in a unit test
        installs.append((package, version, list(extra or [])))
        return tmp_path / "venv" / "bin" / "python"

    monkeypatch.setattr(resolve, "pypi_env", pypi_env)
    recipe = tmp_path / "pypi-extra.yaml"
    recipe.write_text(RECIPE)
    task = Task(id="pypi-extra", action_sequence=[Action(type="Press")]).bind(tmp_path / "task")
    bundle = oracle_bundle(task, [recipe])
    assert installs == [("some-web-app", "1.2.3", ["plugin-a==2.0", "plugin-b>=1"])]
    assert bundle.serve_command == "{python} -m some_web_app --port {port}" and bundle.entry == "/start"
    assert bundle.python == tmp_path / "venv" / "bin" / "python"

