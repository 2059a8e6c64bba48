"""The names a mutation gives: the mutations themselves and the word-by-word renaming of ids and classes
(deterministic, so the page's runtime part renames exactly as the rewriter does)."""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from typing import Callable

MUTATIONS = ("no-aria", "divs", "renamed", "all")
SALT = "iwr-markup-1"

Progress = Callable[[str], None]


@dataclass(frozen=True)
class Mut:
    """Which markup changes are on."""

    aria: bool = False
    divs: bool = False
    rename: bool = False

    @classmethod
    def named(cls, name: str) -> "Mut":
        if name == "none":
            return cls()
        if name == "no-aria":
            return cls(aria=True)
        if name == "divs":
            return cls(divs=True)
        if name == "renamed":
            return cls(rename=True)
        if name == "all":
            return cls(aria=True, divs=True, rename=True)
        raise ValueError(f"unknown mutation {name!r}; known: {', '.join(MUTATIONS)}")

    @property
    def any(self) -> bool:
        return self.aria or self.divs or self.rename


# =========================================================================== names

_MAPPED = re.compile(r"^z[0-9a-z]{6}z$")
_SEP = re.compile(r"([-_]+)")
_B36 = "0123456789abcdefghijklmnopqrstuvwxyz"


def _fnv1a(data: bytes) -> int:
    h = 0x811C9DC5
    for b in data:
        h ^= b
        h = (h * 0x01000193) & 0xFFFFFFFF
    return h


def _word(w: str) -> str:
    if not w or w.isdigit() or _MAPPED.match(w):
        return w
    h = _fnv1a((SALT + w).encode("utf-8"))
    s = ""
    for _ in range(6):
        h, r = divmod(h, 36)
        s = _B36[r] + s
    return "z" + s + "z"


def rename(name: str) -> str:
    """Rename one id or class, word by word (separators and digit-only words kept); idempotent."""
    return "".join(p if k % 2 else _word(p) for k, p in enumerate(_SEP.split(name)))


def rename_list(value: str) -> str:
    """A whitespace-separated list of names (class attribute, id list), spacing kept."""
    return re.sub(r"[^\s]+", lambda m: rename(m.group(0)), value)


@dataclass
class Names:
    """Ids and classes the page is known to use (static HTML and the recorded DOM snapshots)."""

    ids: set[str] = field(default_factory=set)
    classes: set[str] = field(default_factory=set)

    def add_html(self, text: str) -> None:
        for m in re.finditer(r"""\s(id|class)\s*=\s*("([^"]*)"|'([^']*)'|([^\s"'>]+))""", text, re.I):
            v = m.group(3) if m.group(3) is not None else m.group(4) if m.group(4) is not None else m.group(5)
            if v is None or "<%" in v or "{{" in v or "${" in v:
                continue
            if m.group(1).lower() == "id":
                if v.strip():
                    self.ids.add(v.strip())
            else:
                self.classes.update(v.split())

    @property
    def all(self) -> set[str]:
        return self.ids | self.classes
