"""Write ``ferrylog-pydata.pyz`` into the folder given as the first argument.

Used by the third-party pydata-sphinx-theme recipes (``tp-pydata-sphinx-theme-*.yaml``): the Ferrylog documentation
project (``_ferrylog_docs``) with ``html_theme = "pydata_sphinx_theme"``, packed by ``_sitepyz`` into one
zip app that the recipe's Python (the venv with ``pydata-sphinx-theme`` and Sphinx) runs as
``python ferrylog-pydata.pyz PORT``: it builds the site with ``sphinx-build`` and serves it on
127.0.0.1:PORT.

    python make_sphinx_pydata_site.py OUT_DIR
"""

from __future__ import annotations

import sys
from pathlib import Path

from _ferrylog_docs import project
from _sitepyz import write_pyz

OPTIONS = {"navigation_with_keys": False, "show_prev_next": True, "header_links_before_dropdown": 4}


def main(argv: list[str]) -> int:
    if len(argv) != 2:
        print("usage: python make_sphinx_pydata_site.py OUT_DIR", file=sys.stderr)
        return 2
    write_pyz(Path(argv[1]) / "ferrylog-pydata.pyz", project("pydata_sphinx_theme", OPTIONS, nested=True))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
