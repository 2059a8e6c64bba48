"""Evidence that the judge is right, on pages not derived from the source's DOM.

Four kinds of evidence, each a module here, each producing :class:`Verdict` rows that compare what the
judge said (the prefix of steps it passed) with the truth established without the judge:

- ``todomvc``: independent TodoMVC implementations (truth from a spec-level probe)
- ``reconstructions``: one-shot pages written from the frames as a model would, labelled by eye
- ``markup``: markup changes of the source (behaviour and looks unchanged: IFS must stay 100)
- ``cheats``: pages that replay what the video showed (must score low)
- ``oracle``: the source judged exactly like a model's page (IFS 100)
"""

from __future__ import annotations

from dataclasses import asdict, dataclass, field
from typing import Any


@dataclass
class Verdict:
    """One judged page against its truth."""

    set: str  # todomvc | reconstructions | markup | cheats | oracle
    task_id: str
    page: str  # which page (implementation name, variant, mutation, cheat kind)
    steps: int  # actions in the task
    judged: int | None  # leading steps the judge passed (None: not judged, see note)
    truth: int | None  # leading steps that hold by the truth of this set (None: no prefix truth)
    ifs: float | None = None
    final: float | None = None
    ok: bool = False  # the set's own criterion (agreement, IFS 100, Final <= bound, ...)
    note: str = ""
    extra: dict[str, Any] = field(default_factory=dict)

    @property
    def false_pass(self) -> bool:
        return self.judged is not None and self.truth is not None and self.judged > self.truth

    @property
    def false_fail(self) -> bool:
        return self.judged is not None and self.truth is not None and self.judged < self.truth

    def as_dict(self) -> dict[str, Any]:
        d = asdict(self)
        d["false_pass"], d["false_fail"] = self.false_pass, self.false_fail
        return d
