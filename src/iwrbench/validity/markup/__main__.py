"""``python -m iwrbench.validity.markup``: the markup set on a built suite (see the package docstring)."""

from __future__ import annotations

from .run import main

raise SystemExit(main())
