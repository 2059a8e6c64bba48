"""The recorder and the judge type through one player: what the recording did to a field, the replay does."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

pytestmark = pytest.mark.browser

SITE = """<!doctype html><html><head><style>body{font:16px sans-serif;margin:20px}</style></head><body>
<input id="to" value="Dear"> <button id="go" onclick="out.textContent = 'Hello, ' + to.value">Greet</button>
<p id="out">Nobody greeted yet</p>
</body></html>"""

RECIPE = """id: keep-typing
source: {site: ./site}
viewport: {width: 640, height: 360}
actions:
  - {type: Type, target: '#to', text: ' Ada', clear: false, description: the name box}
  - {type: Click, target: '#go', description: the Greet button, assert: "'Hello, Dear Ada' is shown"}
"""


def test_a_recipe_that_types_after_a_fields_text_passes_its_own_oracle_replay(tmp_path: Path):
    """``clear: false`` is recorded in the task, and the judge's replay keeps the field's text as the recorder
    did, so the oracle of such a recipe scores IFS 100 (the judge used to clear the field first)."""
    from iwrbench.validate.make import record_task

    (tmp_path / "site").mkdir()
    (tmp_path / "site" / "index.html").write_text(SITE)
    recipe = tmp_path / "keep-typing.yaml"
    recipe.write_text(RECIPE)
    done = record_task(recipe, tmp_path / "task")
    assert done.validated and done.oracle_ifs == 100
    actions = json.loads((tmp_path / "task" / "task.json").read_text())["action_sequence"]
    assert actions[0]["parameters"]["clear"] is False
    assert "clear" not in actions[1]["parameters"]  # left out where the published default holds
