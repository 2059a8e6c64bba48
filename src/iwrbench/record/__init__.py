"""Recording a recipe into a task folder (``recipe``, ``recorder``, ``assets``, ``video``).

This package is also the function ``iwrbench.record(recipe, out=...)`` (``iwrbench.api.record``):
``iwrbench.record`` names the package once any of its modules is imported, so the package is
made callable rather than shadowed.
"""

import sys
import types
from typing import Any


class _CallablePackage(types.ModuleType):
    def __call__(self, *args: Any, **kwargs: Any) -> Any:
        from ..api import record

        return record(*args, **kwargs)


sys.modules[__name__].__class__ = _CallablePackage
