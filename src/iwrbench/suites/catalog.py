"""The bundled suites: folders of recipes in this package (``suites/<name>/*.yaml``) and where their built
tasks live in the cache (``$IWR_CACHE/suites/<name>/tasks/<task_id>/``). Building them is
``iwrbench.validate.build`` (it records and validates, so it sits above record and judge).

A suite folder may instead hold a ``suite.yaml`` that draws its tasks from another suite (``from: full``,
``tasks: [id, ...]``): ``default`` is such a list, a stratified subset of ``full``, so one recipe file serves
both and a task built for one is reused by the other."""

from __future__ import annotations

import hashlib
from pathlib import Path

from ..errors import IwrError
from ..sources import cache_root

#: bump when the recorder's output changes, so cached suites are rebuilt
RECORDER_VERSION = "15"  # 15: idle callbacks on the recorded source get the judge's idle period (Playwright's clock, installed for the start date, gave them no time remaining: a page rendering a list in idle callbacks was recorded empty); 14: after an action (and after loading) the recorder also waits for the timers and animation frames the judge's virtual clock runs (1.5 s; 3 s after loading), so a change made by a timer is recorded at its own step; a typed text shown again as a phrase of its own ('€98.40' for 98.40) is its echo (taken back in 13 for want of this wait); 13: a phrase is also read along one block's own lines (a wrapped tooltip over other text); 12: derived probes weigh every changed text the recording showed, the screen's change where only chance's texts changed, and another text typed in the first Type step; the typed text in its own box decides nothing (any text box shows it); 11: a text faded out (opacity along its ancestors) or visibility hidden is not read, whatever lies under it; reads in an isolated world, the browser sandboxed; 10: visible means painted (the reader reads the layout and the pixels), derived probes; 7: Hover and Scroll actions carry video_time_s (frame anchors); 8: chance outcomes kept as evidence (TextEvidence.chance); 9: screenshots hold SMIL, media and animated images still, smooth scrolls jump, video cues held to the end of their window, the clock starts at the judge's start
HERE = Path(__file__).parent


#: a suite folder's own description (not a recipe)
SUITE_FILE = "suite.yaml"


def suites() -> list[str]:
    return sorted(d.name for d in HERE.iterdir() if d.is_dir() and any(d.glob("*.yaml")))


def recipes_dir(name: str) -> Path:
    d = HERE / name
    if not name or "/" in name or name.startswith(".") or not d.is_dir() or not any(d.glob("*.yaml")):
        raise IwrError(f"unknown suite {name!r}; bundled suites: {', '.join(suites())}")
    return d


def suite_spec(name: str) -> dict:
    """The suite's ``suite.yaml`` ({} when it has none): ``from`` (the suite its recipes come from) and ``tasks``."""
    import yaml

    f = recipes_dir(name) / SUITE_FILE
    if not f.is_file():
        return {}
    spec = yaml.safe_load(f.read_text()) or {}
    if not isinstance(spec, dict) or not isinstance(spec.get("from"), str) or not isinstance(spec.get("tasks"), list):
        raise IwrError(f"{f}: a suite file needs `from: SUITE` and `tasks: [id, ...]`")
    return spec


def build_root(name: str) -> Path:
    return cache_root() / "suites" / name


def tasks_dir(name: str) -> Path:
    return build_root(name) / "tasks"


def is_built(name: str) -> bool:
    """Does the build folder of suite ``name`` hold at least one task?"""
    d = tasks_dir(name)
    return d.is_dir() and any((t / "task.json").is_file() for t in d.iterdir())


def recipe_files(name: str) -> list[Path]:
    """The suite's recipe files: its own ``*.yaml``, or the listed ones of the suite it draws from."""
    spec = suite_spec(name)
    if not spec:
        return sorted(f for f in recipes_dir(name).glob("*.yaml") if f.name != SUITE_FILE)
    if spec["from"] == name:
        raise IwrError(f"suite {name!r} draws its tasks from itself")
    pool = {f.stem: f for f in recipe_files(spec["from"])}
    missing = [t for t in spec["tasks"] if t not in pool]
    if missing:
        raise IwrError(f"suite {name!r} lists task(s) with no recipe in suite {spec['from']!r}: {', '.join(missing[:5])}")
    return sorted(pool[t] for t in dict.fromkeys(spec["tasks"]))


def fingerprint(recipe_path: Path) -> str:
    from ..record.recipe import load_recipe

    r = load_recipe(recipe_path)
    h = hashlib.sha256()
    h.update(RECORDER_VERSION.encode())
    h.update(recipe_path.read_bytes())
    if r.source.site:
        site = (r.base_dir / r.source.site).resolve()
        for f in sorted(site.rglob("*")):
            if f.is_file() and not f.name.startswith("."):
                h.update(str(f.relative_to(site)).encode())
                h.update(f.read_bytes())
    if r.source.pypi and r.source.pypi.data:
        d = (r.base_dir / r.source.pypi.data).resolve()
        if d.is_file():
            h.update(d.read_bytes())
    return h.hexdigest()[:20]
