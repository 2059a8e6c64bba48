"""The recipe: the input of ``iwr record`` (YAML; see CONTRACTS.md)."""

from __future__ import annotations

from pathlib import Path
from typing import Any, Literal

import yaml
from pydantic import BaseModel, ConfigDict, Field, ValidationError, field_validator, model_validator

from ..errors import RecipeError
from ..records import ACTION_TYPES, Check, Classification


class _Strict(BaseModel):
    model_config = ConfigDict(extra="forbid", populate_by_name=True)


class NpmSource(_Strict):
    package: str
    version: str
    root: str = "."
    page: str = "index.html"
    sha256: str | None = None  # pinned checksum of the registry tarball (checked when given)


class PypiSource(_Strict):
    package: str
    version: str
    serve: str  # command template: {port}, {data}, {python} are filled in
    page: str = "/"
    data: str | None = None  # a file next to the recipe, or a script that makes it (.py)
    extra: list[str] = Field(default_factory=list)  # more pip requirements


class Source(_Strict):
    url: str | None = None
    site: str | None = None
    npm: NpmSource | None = None
    pypi: PypiSource | None = None
    page: str | None = None  # entry path for `site` (default index.html)

    @model_validator(mode="after")
    def _exactly_one(self) -> "Source":
        given = [k for k in ("url", "site", "npm", "pypi") if getattr(self, k) is not None]
        if len(given) != 1:
            raise ValueError(f"source needs exactly one of url, site, npm, pypi (got {given or 'none'})")
        return self

    @property
    def kind(self) -> str:
        return next(k for k in ("url", "site", "npm", "pypi") if getattr(self, k) is not None)


class Viewport(_Strict):
    width: int = Field(1280, ge=200, le=3840)
    height: int = Field(720, ge=200, le=2160)


class RecipeAction(_Strict):
    type: Literal["Click", "Type", "Press", "Scroll", "Hover", "Select"]
    description: str = Field(min_length=1)
    target: str | None = None  # a Playwright selector, used only while recording
    text: str | None = None  # Type
    key: str | None = None  # Press
    value: str | None = None  # Select: option label or value
    direction: Literal["up", "down"] | None = None  # Scroll
    amount: float | None = Field(None, gt=0, le=5)  # Scroll: fraction of the page height
    visual: bool = False
    assertion: str | None = Field(None, alias="assert")
    checks: list[Check] | None = None  # reviewed checks; replaces the derived ones when given
    clear: bool = True  # Type: clear the field first

    @field_validator("type", mode="before")
    @classmethod
    def _canon(cls, v: Any) -> Any:
        if isinstance(v, str):
            for t in ACTION_TYPES:
                if v.lower() == t.lower():
                    return t
        return v

    @model_validator(mode="after")
    def _needs(self) -> "RecipeAction":
        need = {"Click": "target", "Type": "text", "Press": "key", "Hover": "target", "Select": "value"}
        field = need.get(self.type)
        if field and getattr(self, field) in (None, ""):
            raise ValueError(f"a {self.type} action needs '{field}'")
        if self.type == "Select" and not self.target:
            raise ValueError("a Select action needs 'target'")
        if self.type == "Scroll" and self.direction is None:
            self.direction = "down"
        return self


class Recipe(_Strict):
    id: str = Field(pattern=r"^[A-Za-z0-9][A-Za-z0-9._-]*$")
    title: str | None = None
    source: Source
    viewport: Viewport = Field(default_factory=Viewport)
    classification: Classification = Field(default_factory=Classification)
    licence: str | None = None
    seed: int = 1
    freeze_time: str | None = None  # ISO time the page clock starts at (optional)
    actions: list[RecipeAction] = Field(min_length=1)

    #: the folder the recipe was read from (relative paths resolve against it)
    base_dir: Path = Field(default=Path("."), exclude=True)
    #: the recipe file itself (copied into the task's reference/)
    source_file: Path | None = Field(default=None, exclude=True)


def _yaml_line(raw: str, loc: tuple) -> int | None:
    """Best effort: the line of the YAML node at a pydantic error location."""
    try:
        node = yaml.compose(raw)
    except yaml.YAMLError:
        return None
    line = None
    for key in loc:
        if isinstance(node, yaml.MappingNode):
            nxt = None
            for k, v in node.value:
                if k.value == key or (key == "assertion" and k.value == "assert"):
                    nxt, line = v, k.start_mark.line + 1
                    break
            if nxt is None:
                break
            node = nxt
        elif isinstance(node, yaml.SequenceNode) and isinstance(key, int) and key < len(node.value):
            node = node.value[key]
            line = node.start_mark.line + 1
        else:
            break
    return line


def load_recipe(path: str | Path) -> Recipe:
    path = Path(path)
    try:
        raw = path.read_text(encoding="utf-8")
    except FileNotFoundError:
        raise RecipeError(f"{path}: no such recipe file") from None
    except (OSError, UnicodeDecodeError) as e:
        raise RecipeError(f"{path}: cannot read recipe ({e.__class__.__name__}: {e})") from None
    try:
        data = yaml.safe_load(raw)
    except yaml.YAMLError as e:
        mark = getattr(e, "problem_mark", None)
        where = f" line {mark.line + 1}" if mark else ""
        problem = getattr(e, "problem", None) or str(e).splitlines()[0]
        raise RecipeError(f"{path}:{where}: invalid YAML: {problem}") from None
    if not isinstance(data, dict):
        raise RecipeError(f"{path}: a recipe must be a YAML mapping with id, source and actions")
    try:
        recipe = Recipe.model_validate(data)
    except ValidationError as e:
        err = e.errors()[0]
        loc = tuple(x for x in err["loc"] if not (isinstance(x, str) and x[0].isupper() and "[" in x))
        field = ".".join(str(x) for x in loc) or "(top)"
        line = _yaml_line(raw, loc)
        where = f" line {line}" if line else ""
        msg = err["msg"].removeprefix("Value error, ")
        raise RecipeError(f"{path}:{where}: field '{field}': {msg}") from None
    recipe.base_dir = path.resolve().parent
    recipe.source_file = path.resolve()
    return recipe
