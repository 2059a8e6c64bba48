"""Write ``ferrylog-rtd.pyz`` into the folder given as the first argument.

Used by the third-party sphinx-rtd-theme recipes (``tp-sphinx-rtd-theme-*.yaml``): the Ferrylog documentation
project (``_ferrylog_docs``) with ``html_theme = "sphinx_rtd_theme"``, packed by ``_sitepyz`` into one
zip app that the recipe's Python (the venv with ``sphinx-rtd-theme`` and Sphinx) runs as
``python ferrylog-rtd.pyz PORT``: it builds the site with ``sphinx-build`` and serves it on
127.0.0.1:PORT.

    python make_sphinx_rtd_site.py OUT_DIR
"""

from __future__ import annotations

import sys
from pathlib import Path

from _ferrylog_docs import project
from _sitepyz import write_pyz

OPTIONS = {"navigation_depth": 3, "collapse_navigation": True}


def main(argv: list[str]) -> int:
    if len(argv) != 2:
        print("usage: python make_sphinx_rtd_site.py OUT_DIR", file=sys.stderr)
        return 2
    write_pyz(Path(argv[1]) / "ferrylog-rtd.pyz", project("sphinx_rtd_theme", OPTIONS))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
