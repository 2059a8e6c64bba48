"""Limits on what strangers may hand us: task folders, data.jsonl, recipes and page folders.

Everything read from a task folder, a ``data.jsonl`` line, a recipe or a model's page folder
comes from someone else. These caps keep one bad input from filling the disk, the memory or the
stack, and say in one line what was too big (``docs/contracts-extensions.md`` lists them).
The numbers are far above anything a real task needs (the bundled suite's largest task.json is
about 13 KB, its longest description or assertion about 150 characters, its longest task 15
actions).

Nothing here imports the rest of the package: callers turn ``LimitError`` into their own
error (``TaskError`` for tasks, ``RecipeError`` for recipes, a row for a page folder).
"""

from __future__ import annotations

import json
import math
from typing import Any, Callable

KiB = 1024
MiB = 1024 * KiB

# ---------------------------------------------------------------- task records (task.json, data.jsonl)
#: bytes of one task.json
MAX_TASK_JSON_BYTES = 8 * MiB
#: bytes of one data.jsonl line (one task)
MAX_JSONL_LINE_BYTES = 8 * MiB
#: tasks in one suite folder or data.jsonl
MAX_SUITE_TASKS = 20_000
#: bytes of an official metadata.json
MAX_METADATA_BYTES = 1 * MiB
#: nesting of arrays/objects in any JSON we read from strangers
MAX_JSON_DEPTH = 64
#: digits of an integer literal in that JSON (no real field needs more than 20)
MAX_INT_DIGITS = 40
#: characters of any single string in that JSON
MAX_JSON_STRING_CHARS = 200_000
#: characters of a description, an assertion, a typed text, a key or a Select value
MAX_TEXT_CHARS = 10_000
#: characters of a task id (it names folders in the run folder)
MAX_ID_CHARS = 128
#: actions in one task (or one recipe)
MAX_ACTIONS = 1_000
#: typed checks on one action
MAX_CHECKS_PER_ACTION = 200

# ---------------------------------------------------------------- files of a task folder
#: files and folders in one task folder, at every depth
MAX_TASK_DIR_ENTRIES = 20_000
#: folders nested in a task folder
MAX_TASK_DIR_DEPTH = 32
#: bytes of one checkpoint or composite image
MAX_IMAGE_BYTES = 64 * MiB
#: pixels of one checkpoint or composite image (a decompression bomb is refused)
MAX_IMAGE_PIXELS = 60_000_000

# ---------------------------------------------------------------- recipes
#: bytes of one recipe file (YAML aliases are refused outright: see record/recipe.py)
MAX_RECIPE_BYTES = 1 * MiB

# ---------------------------------------------------------------- page folders (replay:DIR, generated pages)
#: files and folders in one page folder
MAX_PAGE_FILES = 5_000
#: bytes of one file of a page folder
MAX_PAGE_FILE_BYTES = 64 * MiB
#: bytes of a whole page folder
MAX_PAGE_BYTES = 256 * MiB
#: nesting of folders in a page folder
MAX_PAGE_DEPTH = 32

# ---------------------------------------------------------------- the loopback page server
#: characters of a request target (longer: 414)
MAX_URL_CHARS = 8_192
#: bytes of one path segment after decoding (longer: 414)
MAX_PATH_SEGMENT_BYTES = 255
#: bytes of a request body the server reads (and drops)
MAX_REQUEST_BODY_BYTES = 1 * MiB


class LimitError(ValueError):
    """An input over one of the limits above, or JSON we refuse; the message is one line."""


def _refuse_constant(name: str) -> Any:
    raise LimitError(f"{name} is not JSON")


def _parse_int(s: str) -> int:
    digits = len(s.lstrip("-"))
    if digits > MAX_INT_DIGITS:
        raise LimitError(f"an integer of {digits} digits (max {MAX_INT_DIGITS})")
    return int(s)


def _parse_float(s: str) -> float:
    if len(s) > MAX_INT_DIGITS * 4:
        raise LimitError(f"a number of {len(s)} characters")
    v = float(s)
    if not math.isfinite(v):
        raise LimitError(f"a number out of range ({s[:20]})")
    return v


def loads_json(text: str | bytes) -> Any:
    """Strict JSON for strangers' data: no NaN/Infinity, bounded integers, depth and strings.

    Raises ``LimitError`` (over a limit) or ``json.JSONDecodeError`` (malformed; has lineno/colno).
    """
    try:
        data = json.loads(text, parse_int=_parse_int, parse_float=_parse_float, parse_constant=_refuse_constant)
    except RecursionError:
        raise LimitError(f"nested deeper than {MAX_JSON_DEPTH} levels") from None
    check_json_shape(data)
    return data


def check_json_shape(data: Any, *, max_depth: int = MAX_JSON_DEPTH, max_string: int = MAX_JSON_STRING_CHARS) -> None:
    """Depth and string lengths of already parsed data (iterative: no recursion to exhaust)."""
    stack: list[tuple[Any, int]] = [(data, 1)]
    while stack:
        v, depth = stack.pop()
        if isinstance(v, dict):
            if depth > max_depth:
                raise LimitError(f"nested deeper than {max_depth} levels")
            for k, x in v.items():
                if isinstance(k, str) and len(k) > max_string:
                    raise LimitError(f"a key of {len(k)} characters (max {max_string})")
                stack.append((x, depth + 1))
        elif isinstance(v, list):
            if depth > max_depth:
                raise LimitError(f"nested deeper than {max_depth} levels")
            stack.extend((x, depth + 1) for x in v)
        elif isinstance(v, str) and len(v) > max_string:
            raise LimitError(f"a string of {len(v)} characters (max {max_string})")


def check_text(value: Any, field: str, limit: int = MAX_TEXT_CHARS) -> None:
    """``value`` (a string or None) is at most ``limit`` characters; else LimitError naming ``field``."""
    if isinstance(value, str) and len(value) > limit:
        raise LimitError(f"field '{field}': {len(value)} characters (max {limit})")


def check_action_texts(actions: list[Any], get: Callable[[Any, str], Any], prefix: str = "action_sequence") -> None:
    """The per-action caps, for tasks and recipes alike (``get(action, name)`` reads a text)."""
    if len(actions) > MAX_ACTIONS:
        raise LimitError(f"field '{prefix}': {len(actions)} actions (max {MAX_ACTIONS})")
    for i, a in enumerate(actions):
        for name in ("description", "text", "key", "value", "assertion"):
            check_text(get(a, name), f"{prefix}.{i}.{name}")
        checks = get(a, "checks") or []
        if len(checks) > MAX_CHECKS_PER_ACTION:
            raise LimitError(f"field '{prefix}.{i}.checks': {len(checks)} checks (max {MAX_CHECKS_PER_ACTION})")


__all__ = [n for n in dir() if n.isupper()] + ["LimitError", "loads_json", "check_json_shape", "check_text",
                                                "check_action_texts"]
