"""The recipe: the input of ``iwr record`` (YAML; the format is in docs/recipes.md, its schema in ``iwr schema``).

Recipes are read with a safe YAML loader that refuses aliases (``*name``, and so ``<<: *name``
merges): a few hundred bytes of nested aliases would otherwise expand into gigabytes. A recipe
is also held to ``iwrbench.limits`` (file size, nesting, number of actions, text lengths).
"""

from __future__ import annotations

from pathlib import Path
from typing import Any, Literal

import yaml
from pydantic import BaseModel, ConfigDict, Field, ValidationError, field_validator, model_validator

from .. import limits
from ..errors import RecipeError
from ..records import ACTION_TYPES, TARGETED_ACTIONS, Action, ActionParameters, Check, Classification, StateEquals


class _AliasRefused(yaml.YAMLError):
    def __init__(self, line: int, anchor: str):
        super().__init__(f"line {line}: YAML aliases (*{anchor}) are not allowed in recipes")
        self.line = line


class _NoAliasLoader(yaml.SafeLoader):
    """``yaml.SafeLoader`` that refuses every alias (no billion-laughs expansion)."""

    def compose_node(self, parent, index):  # type: ignore[override]
        if self.check_event(yaml.AliasEvent):
            ev = self.peek_event()
            raise _AliasRefused(ev.start_mark.line + 1, ev.anchor)
        return super().compose_node(parent, index)


def _yaml_load(raw: str) -> Any:
    return yaml.load(raw, Loader=_NoAliasLoader)  # noqa: S506 - a SafeLoader subclass


class _Strict(BaseModel):
    model_config = ConfigDict(extra="forbid", populate_by_name=True)


class NpmSource(_Strict):
    """A static site shipped in an npm package, fetched once and cached in $IWR_CACHE."""

    package: str = Field(description="the npm package's name")
    version: str = Field(description="its exact version")
    root: str = Field(".", description="the folder inside the package that is served")
    page: str = Field("index.html", description="the page opened, relative to root")
    sha256: str | None = Field(None, description="pinned checksum of the registry tarball (checked when given)")


class PypiSource(_Strict):
    """A web app from a PyPI package, installed in its own virtual environment and served by ``serve``."""

    package: str = Field(description="the PyPI package's name")
    version: str = Field(description="its exact version")
    serve: str = Field(description="command template that serves the app: {port}, {data}, {python} and {root} (the folder holding {data}) are filled in")
    page: str = Field("/", description="the path opened")
    data: str | None = Field(None, description="a file next to the recipe, or a script (.py) that makes it")
    extra: list[str] = Field(default_factory=list, description="more pip requirements")
    sha256: str | None = Field(None, description="pinned checksum of the package's own distribution file (the wheel "
                                                 "or sdist pip downloads for it; checked when given)")


class Source(_Strict):
    """Where the site comes from: exactly one of ``site``, ``npm``, ``pypi``, ``url``."""

    url: str | None = Field(None, description="a server you run yourself (the task depends on it staying up: "
                                              "prefer site or npm)")
    site: str | None = Field(None, description="a folder next to the recipe, served on 127.0.0.1 and copied "
                                               "into the task")
    npm: NpmSource | None = Field(None, description="a published npm package, pinned by version and sha256, fetched "
                                                    "at build time (never committed)")
    pypi: PypiSource | None = Field(None, description="a published PyPI package, pinned by version and sha256, whose "
                                                      "command serves the site (or builds it) on 127.0.0.1")
    page: str | None = Field(None, description="entry path for site (default index.html)")

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
    width: int = Field(1280, ge=200, le=3840, description="CSS pixels (200-3840)")
    height: int = Field(720, ge=200, le=2160, description="CSS pixels (200-2160)")


class RecipeAction(_Strict):
    """One scripted action. ``action`` is the same action as the task record says it (``records.Action``):
    made when the recipe loads and again whenever a field is changed (a probe's other text), so the recorder
    plays and writes exactly one form of it."""

    # a changed field is validated, and ``action`` made again
    model_config = ConfigDict(extra="forbid", populate_by_name=True, validate_assignment=True)

    type: Literal["Click", "Type", "Press", "Scroll", "Hover", "Select"] = Field(
        description="the action: Click, Type, Press, Scroll, Hover or Select (docs/recipes.md, \"Actions\")")
    description: str = Field(min_length=1, description="what the model and the judge see: the control as a "
                                                       "person would name it (\"the green 'Sign in' button\")")
    target: str | None = Field(None, description="a Playwright selector, used only while recording (needed by "
                                                 "Click, Type, Hover, Select; optional for Press: the element meant, never focused "
                                                 "for it: the key goes where the focus is)")
    text: str | None = Field(None, description="Type: the text typed")
    key: str | None = Field(None, description="Press: a Playwright key name (Enter, ArrowLeft, x)")
    value: str | None = Field(None, description="Select: the option's label or value")
    direction: Literal["up", "down"] | None = Field(None, description="Scroll: up or down (default down)")
    amount: float | None = Field(None, gt=0, le=5, description="Scroll: a fraction of the viewport height "
                                                               "(default 0.5)")
    visual: bool = Field(False, description="the checkpoint after this step is compared for the visual score")
    assertion: str | None = Field(None, alias="assert", description="what must hold after the step, in words; "
                                                                    "quote what is shown on screen in single quotes")
    checks: list[Check] | None = Field(None, description="checks written by hand; they decide the step as written "
                                                         "(replacing the evidence derived from the recording)")
    clear: bool = Field(True, description="Type: clear the field first (false: type after what is there)")
    #: in a probe's own trajectory: the main step this action asks the same of, in another context
    mirrors: int | None = Field(None, ge=1, description="in a probe's own actions: the main step this action asks "
                                                        "the same of")
    #: the action changes nothing on screen (a key the page does not use, a click on empty space); the
    #: recorder checks the source agrees, and the judge fails a page that changes there
    unchanged: bool = Field(False, description="the action must change nothing on screen (checked on the source; "
                                               "a page that changes there fails)")

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
        if self.unchanged and (self.assertion or self.checks):
            raise ValueError("an 'unchanged' action asserts that nothing changes; it takes no 'assert' or 'checks'")
        if self.type == "Select" and not self.target:
            raise ValueError("a Select action needs 'target'")
        if self.type not in TARGETED_ACTIONS:
            for k, c in enumerate(self.checks or []):
                if isinstance(c, StateEquals) and c.name is None:
                    raise ValueError(f"checks[{k}]: a {self.type} acts on no element, so a `state` check needs the "
                                     "`name` (and `role`) of the element whose state it reads")
        if self.type == "Scroll" and self.direction is None:
            self.direction = "down"
        return self

    @property
    def action(self) -> Action:
        """The action as a task records it and the player plays it (type, parameters, visual flag, assertion,
        author checks); the recorder adds what it saw (target, evidence, checkpoint). Made from the fields each
        time, so a copy with other fields (a probe's other text or option) plays what it says."""
        params = ActionParameters(description=self.description, text=self.text, key=self.key,
                                  direction=self.direction, value=self.value,
                                  scroll_page=self.amount if self.type == "Scroll" else None,
                                  clear=False if self.type == "Type" and not self.clear else None)
        return Action(type=self.type, parameters=params, visual_evaluation_flag=self.visual,
                      logical_assertion=self.assertion, checks=list(self.checks or []))


class RecipeProbe(_Strict):
    """A second trajectory recorded on the source and replayed by the judge after the main one.

    ``replace``: the main actions again with other typed text (keys: texts typed in the recipe; values:
    what the probe types instead) — probe step j mirrors main step j. ``skip``: the main actions without
    the listed steps (1-based), each kept action asking what it asked in the main trajectory: a page that
    walks through recorded states in order fails it. ``actions``: a trajectory of its own (e.g. another
    order; an action's ``mirrors: k`` says it asks what main step k asks). ``guards`` names the first main
    step whose credit depends on the probe (default 1 for ``skip``).
    """

    name: str | None = Field(None, description="the probe's name, shown in the report")
    replace: dict[str, str] | None = Field(None, description="the main actions with other typed text: "
                                                             "{typed text: other text}")
    skip: list[int] | None = Field(None, description="the main actions without these steps (1-based)")
    actions: list[RecipeAction] | None = Field(None, description="a trajectory of its own (needs guards)")
    guards: int | None = Field(None, ge=1, description="the first main step whose credit depends on the probe")

    @model_validator(mode="after")
    def _one(self) -> "RecipeProbe":
        given = [k for k in ("replace", "skip", "actions") if getattr(self, k) is not None]
        if len(given) != 1:
            raise ValueError("a probe needs exactly one of 'replace' (same actions, other text), 'skip' (same "
                             "actions without some steps) or 'actions' (a trajectory of its own)")
        if self.actions is not None and self.guards is None:
            raise ValueError("a probe with its own 'actions' needs 'guards' (the first main step it protects)")
        if self.skip is not None:
            if not self.skip or any(k < 1 for k in self.skip):
                raise ValueError("'skip' needs main step numbers (1-based)")
            if self.guards is None:
                self.guards = 1
        if self.replace is not None and not self.replace:
            raise ValueError("'replace' needs at least one text to replace")
        return self


class Recipe(_Strict):
    id: str = Field(pattern=r"^[A-Za-z0-9][A-Za-z0-9._-]*$", description="the task's id: letters, digits, . _ -")
    title: str | None = Field(None, description="a title for people (optional)")
    source: Source = Field(description="where the site comes from: exactly one of site, npm, pypi, url")
    viewport: Viewport = Field(default_factory=Viewport, description="the browser window (default 1280x720)")
    classification: Classification = Field(default_factory=Classification,
                                           description="domain, sub_domain, visual_complexity (V1-V4), "
                                                       "interaction_complexity (L1-L4)")
    licence: str | None = Field(None, description="the site's licence, shown in `iwr suite table`")
    seed: int = Field(1, description="Math.random is seeded with it (a second recording uses another, to keep "
                                     "only evidence that does not depend on chance)")
    freeze_time: str | None = Field(None, description="ISO time the page's clock starts at (optional)")
    actions: list[RecipeAction] = Field(min_length=1, description="the scripted interaction, in order")
    #: the recipe's own probes; the automatic one (other typed text, when the recipe types text) comes
    #: first unless ``auto_probe`` is false or ``probes`` is ``[]`` (no probe at all)
    probes: list[RecipeProbe] | None = Field(None, description="replays with other input after the main "
                                                               "trajectory ([]: none at all)")
    auto_probe: bool = Field(True, description="add the probes the recorder makes itself: the automatic one (other "
                                               "typed text, when the recipe types text) and the derived ones (the "
                                               "trajectory varied: a step skipped, done twice, swapped ...); false: "
                                               "only the recipe's own `probes:`")

    @field_validator("classification")
    @classmethod
    def _levels(cls, c: Classification) -> Classification:
        # the levels and the provenance group the leaderboard's rows: a typo would make a category of its own
        allowed = {"visual_complexity": ("V1", "V2", "V3", "V4"), "interaction_complexity": ("L1", "L2", "L3", "L4"),
                   "provenance": ("novel", "famous")}
        for name, values in allowed.items():
            v = getattr(c, name, None)
            if v is not None and v not in values:
                raise ValueError(f"{name} {v!r}: one of {', '.join(values)}")
        return c

    @model_validator(mode="after")
    def _probes_fit(self) -> "Recipe":
        typed = {a.text for a in self.actions if a.type == "Type" and a.text}
        for k, p in enumerate(self.probes or []):
            for old in (p.replace or {}):
                if old not in typed:
                    raise ValueError(f"probes[{k}].replace: {old!r} is not a text this recipe types")
            if p.guards is not None and p.guards > len(self.actions):
                raise ValueError(f"probes[{k}].guards: {p.guards} is past the last action ({len(self.actions)})")
            for j in p.skip or []:
                if j > len(self.actions):
                    raise ValueError(f"probes[{k}].skip: step {j} is past the last action ({len(self.actions)})")
            if p.skip is not None and len(set(p.skip)) >= len(self.actions):
                raise ValueError(f"probes[{k}].skip: leaves no action")
            for j, a in enumerate(p.actions or [], start=1):
                if a.mirrors is not None and a.mirrors > len(self.actions):
                    raise ValueError(f"probes[{k}].actions[{j}].mirrors: step {a.mirrors} is past the last action "
                                     f"({len(self.actions)})")
        for j, a in enumerate(self.actions, start=1):
            if a.mirrors is not None:
                raise ValueError(f"actions[{j}].mirrors: only a probe's actions mirror main steps")
        return self

    #: the folder the recipe was read from (relative paths resolve against it)
    base_dir: Path = Field(default=Path("."), exclude=True)
    #: the recipe file itself (copied into the task's reference/)
    source_file: Path | None = Field(default=None, exclude=True)


def _yaml_line(raw: str, loc: tuple) -> int | None:
    """Best effort: the line of the YAML node at a pydantic error location."""
    try:
        node = yaml.compose(raw, Loader=_NoAliasLoader)
    except (yaml.YAMLError, RecursionError, ValueError):
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
        size = path.stat().st_size
        if size > limits.MAX_RECIPE_BYTES:
            raise RecipeError(f"{path}: {size} bytes, larger than a recipe may be ({limits.MAX_RECIPE_BYTES})")
        raw = path.read_bytes().decode("utf-8")
    except FileNotFoundError:
        raise RecipeError(f"{path}: no such recipe file") from None
    except UnicodeDecodeError:
        raise RecipeError(f"{path}: cannot read recipe (not UTF-8 text)") from None
    except OSError as e:
        raise RecipeError(f"{path}: cannot read recipe ({e.__class__.__name__}: {e.strerror or e})") from None
    try:
        data = _yaml_load(raw)
        limits.check_json_shape(data)
    except _AliasRefused as e:
        raise RecipeError(f"{path}: {e}") from None
    except yaml.YAMLError as e:
        mark = getattr(e, "problem_mark", None)
        where = f" line {mark.line + 1}" if mark else ""
        problem = getattr(e, "problem", None) or str(e).splitlines()[0]
        raise RecipeError(f"{path}:{where}: invalid YAML: {problem}") from None
    except RecursionError:
        raise RecipeError(f"{path}: invalid YAML: nested too deeply") from None
    except limits.LimitError as e:
        raise RecipeError(f"{path}: {e}") from None
    except ValueError as e:  # e.g. an integer of thousands of digits
        why = "an integer with too many digits" if "digits" in str(e) else (str(e).splitlines() or ["bad value"])[0][:120]
        raise RecipeError(f"{path}: invalid YAML: {why}") from None
    if not isinstance(data, dict):
        raise RecipeError(f"{path}: a recipe must be a YAML mapping with id, source and actions")
    try:
        recipe = Recipe.model_validate(data)
    except RecursionError:
        raise RecipeError(f"{path}: nested too deeply") from None
    except ValidationError as e:
        err = e.errors()[0]
        loc = tuple(x for x in err["loc"] if not (isinstance(x, str) and x[0].isupper() and "[" in x))
        field = ".".join(str(x) for x in loc) or "(top)"
        line = _yaml_line(raw, loc)
        where = f" line {line}" if line else ""
        msg = err["msg"].removeprefix("Value error, ")
        raise RecipeError(f"{path}:{where}: field '{field}': {msg}") from None
    try:
        limits.check_action_texts(recipe.actions, _recipe_text, prefix="actions")
        for k, probe in enumerate(getattr(recipe, "probes", None) or []):
            limits.check_action_texts(getattr(probe, "actions", None) or [], _recipe_text, prefix=f"probes.{k}.actions")
            for new_text in (getattr(probe, "replace", None) or {}).values():
                limits.check_text(new_text, f"probes.{k}.replace")
        limits.check_text(recipe.id, "id", limits.MAX_ID_CHARS)
    except limits.LimitError as e:
        field = str(e).split("'")[1] if "'" in str(e) else ""
        loc = tuple(int(x) if x.isdigit() else x for x in field.split(".")) if field else ()
        line = _yaml_line(raw, loc)
        raise RecipeError(f"{path}:{f' line {line}' if line else ''}: {e}") from None
    recipe.base_dir = path.resolve().parent
    recipe.source_file = path.resolve()
    return recipe


def _recipe_text(a: RecipeAction, name: str) -> Any:
    return getattr(a, name, None)
