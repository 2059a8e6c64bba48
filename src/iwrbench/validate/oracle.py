"""The oracle of a task: its source site, served from the recipe it was recorded from.

Oracles come from recipes we trust, never from the task folder: nothing in a task folder or a
data.jsonl is executed, installed or served as the oracle (``reference/source.json`` is kept
for people to read, and ignored here). The recipe is found by the task's id:

1. among the recipes given explicitly (``--oracle-recipes DIR`` / ``recipes=``: a folder of
   ``*.yaml`` recipes or one recipe file), first;
2. among the bundled suites' recipes (``src/iwrbench/suites/<suite>/*.yaml``).

The recipe's source is then resolved exactly as ``iwr record`` does
(``sources.resolve_source``): the site folder next to the recipe, the pinned npm
package, or the pypi package with the serve command written in the recipe. A task with no
such recipe has no oracle: a one-line ``TaskError`` says to pass ``--oracle-recipes``.
"""

from __future__ import annotations

import asyncio
import dataclasses
import functools
import json
import shutil
import threading
from pathlib import Path
from typing import Any, Iterable, Sequence

from ..browser.host import PageBundle
from ..errors import IwrError, TaskError
from ..models.base import Generation, GenerationOptions
from ..records import GenerationInfo, GenerationOutcome, Task

RecipePaths = Sequence[str | Path] | str | Path | None


def _recipe_files(where: Path) -> list[Path]:
    if where.is_file():
        return [where]
    if where.is_dir():
        return sorted(p for p in where.iterdir() if p.suffix in (".yaml", ".yml") and p.is_file())
    raise TaskError(f"--oracle-recipes {where}: no such recipe file or folder")


def _index(files: Iterable[Path], *, strict: bool) -> dict[str, Path]:
    """recipe id -> recipe file (the first file wins). ``strict``: a broken recipe is an error."""
    from ..record.recipe import load_recipe

    out: dict[str, Path] = {}
    for f in files:
        try:
            r = load_recipe(f)
        except IwrError:
            if strict:
                raise
            continue
        out.setdefault(r.id, f.resolve())
    return out


@functools.lru_cache(maxsize=1)
def bundled_recipes() -> dict[str, Path]:
    """Recipe id -> recipe file, over every bundled suite (read once per process)."""
    from ..suites.catalog import recipe_files, suites

    files: list[Path] = []
    for name in suites():
        files += recipe_files(name)
    return _index(files, strict=False)


def _as_list(recipes: RecipePaths) -> list[Path]:
    if recipes is None:
        return []
    if isinstance(recipes, (str, Path)):
        return [Path(recipes)]
    return [Path(r) for r in recipes]


def explicit_recipes(recipes: RecipePaths) -> dict[str, Path]:
    """Recipe id -> file over the recipes given explicitly (a broken one named there is an error)."""
    return dict(_explicit(tuple(str(p.expanduser().resolve()) for p in _as_list(recipes))))


@functools.lru_cache(maxsize=8)
def _explicit(paths: tuple[str, ...]) -> tuple[tuple[str, Path], ...]:
    files: list[Path] = []
    for r in paths:
        files += _recipe_files(Path(r))
    return tuple(_index(files, strict=True).items())


def find_recipe(task_id: str, recipes: RecipePaths = None) -> Path | None:
    """The recipe file of ``task_id``: the explicit recipes first, then the bundled suites."""
    given = explicit_recipes(recipes)
    if task_id in given:
        return given[task_id]
    return bundled_recipes().get(task_id)


def no_recipe_message(task_id: str) -> str:
    return (f"task {task_id} has no bundled recipe; pass --oracle-recipes DIR (a folder of recipes, or one "
            "recipe file) holding the recipe it was recorded from to serve its oracle")


def oracle_recipe(task: Task, recipes: RecipePaths = None):
    """The loaded recipe of ``task`` (TaskError when there is none)."""
    from ..record.recipe import load_recipe

    f = find_recipe(task.id, recipes)
    if f is None:
        raise TaskError(no_recipe_message(task.id))
    return load_recipe(f)


_resolved: dict[tuple[str, int], PageBundle] = {}
_resolve_lock = threading.Lock()


def oracle_bundle(task: Task, recipes: RecipePaths = None) -> PageBundle:
    """How to serve the source site of ``task``, from its recipe (fetching a pinned package when needed).

    Resolved once per recipe (and modification time) in a process: a pypi recipe's data script
    and package check do not run again for every unit.
    """
    from ..sources import resolve_source

    recipe = oracle_recipe(task, recipes)
    f = recipe.source_file
    key = (str(f), f.stat().st_mtime_ns if f else 0)
    with _resolve_lock:
        if key not in _resolved:
            _resolved[key] = resolve_source(recipe).bundle
        return dataclasses.replace(_resolved[key])


def oracle_description(task: Task, recipes: RecipePaths = None) -> dict:
    """What the oracle serves, for people (ORACLE.json beside the oracle's page)."""
    recipe = oracle_recipe(task, recipes)
    src = recipe.source
    out: dict = {"recipe": str(recipe.source_file), "kind": src.kind}
    if src.url:
        out["url"] = src.url
    elif src.site:
        out["site"] = str((recipe.base_dir / src.site).resolve())
        out["page"] = src.page or "index.html"
    elif src.npm:
        out.update(package=src.npm.package, version=src.npm.version, root=src.npm.root, page=src.npm.page)
    elif src.pypi:
        out.update(package=src.pypi.package, version=src.pypi.version, page=src.pypi.page)
    return out


# --------------------------------------------------------------------------- the oracle as a model


class OracleModel:
    """The source site of each task, from its recipe: the bundled suites' recipes, and ``recipes``
    (folders of recipes or recipe files, looked at first) for tasks recorded elsewhere."""

    name = "oracle"

    def __init__(self, recipes: Any = None, **_: Any):
        self.recipes = [Path(r) for r in ([recipes] if isinstance(recipes, (str, Path)) else recipes or [])]

    def describe(self) -> dict[str, Any]:
        d: dict[str, Any] = {"kind": "baseline", "name": self.name}
        if self.recipes:
            d["recipes"] = [str(p.expanduser().resolve()) for p in self.recipes]
        return d

    async def generate(self, task: Task, out_dir: Path, options: GenerationOptions) -> Generation:
        def resolve() -> tuple[Any, dict]:
            return oracle_bundle(task, self.recipes), oracle_description(task, self.recipes)

        try:
            bundle, desc = await asyncio.to_thread(resolve)
        except IwrError as e:
            return Generation(GenerationOutcome.FAILED, None, GenerationInfo(), error=f"oracle: {e}")
        out_dir.mkdir(parents=True, exist_ok=True)
        (out_dir / "ORACLE.json").write_text(json.dumps(desc, indent=1))
        entry = (bundle.root / bundle.entry.split("?")[0].split("#")[0]) if not bundle.url else None
        if entry is not None and entry.is_file() and entry.stat().st_size < 2_000_000:
            shutil.copy2(entry, out_dir / "index.html")
        return Generation(GenerationOutcome.OK, bundle, GenerationInfo())


__all__ = ["OracleModel", "oracle_bundle", "oracle_description", "oracle_recipe", "find_recipe", "bundled_recipes",
           "explicit_recipes", "no_recipe_message"]
