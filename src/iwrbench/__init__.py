"""iwrbench: can a model watch a video of someone using a website and rebuild it?

The Python API (``iwrbench.api``), loaded on first use so that ``import iwrbench`` stays light:

- ``iwrbench.evaluate(tasks=..., models=[...], out=..., **options)`` -> ``EvalSummary`` (as ``iwr eval``)
- ``iwrbench.record(recipe, out=...)`` -> ``Task`` (as ``iwr record``; its warnings are ``RecordingWarning``)
"""

from typing import Any

from .version import __version__

_API = ("evaluate", "EvalSummary", "ModelScore", "RecordingWarning")


def __getattr__(name: str) -> Any:
    if name in _API:
        from . import api

        return getattr(api, name)
    if name == "record":  # the subpackage iwrbench.record, callable as iwrbench.api.record
        import importlib

        return importlib.import_module(".record", __name__)
    raise AttributeError(f"module 'iwrbench' has no attribute {name!r}")


def __dir__() -> list[str]:
    return sorted([*globals(), *_API, "record"])


__all__ = ["__version__", "evaluate", "record", "EvalSummary", "ModelScore", "RecordingWarning"]
