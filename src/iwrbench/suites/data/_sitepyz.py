"""Pack a small site project into one ``.pyz`` that builds it with a PyPI package and serves the result.

Shared by the data scripts of the third-party recipes whose package builds a static site (Sphinx themes,
pdoc, Pelican, Plotly and Bokeh charts). A pypi recipe keeps exactly one data file (``{data}``, copied
into the task's ``reference/data/``), and that file is run with the recipe's Python, the one that has the
package installed:

    python SITE.pyz PORT

unpacks ``project/`` into a temporary folder, runs ``project/build.py SITE_DIR`` there (the project's own
build script, written by the data script) and serves ``SITE_DIR`` on 127.0.0.1:PORT until it is stopped.
The port only listens once the build has finished, so the recorder's wait for the server covers the build.

Every zip entry carries a fixed timestamp and the entries are written in sorted order, so the same
project gives the same bytes on every run.
"""

from __future__ import annotations

import zipfile
from pathlib import Path

MAIN = r'''
import atexit, functools, http.server, os, shutil, signal, subprocess, sys, tempfile, zipfile

def main():
    port = int(sys.argv[1])
    work = tempfile.mkdtemp(prefix="iwr-site-")
    atexit.register(shutil.rmtree, work, True)
    signal.signal(signal.SIGTERM, lambda *a: sys.exit(0))
    with zipfile.ZipFile(sys.argv[0]) as z:
        for name in z.namelist():
            if name.startswith("project/") and not name.endswith("/"):
                dest = os.path.join(work, name)
                os.makedirs(os.path.dirname(dest), exist_ok=True)
                with open(dest, "wb") as f:
                    f.write(z.read(name))
    project = os.path.join(work, "project")
    site = os.path.join(work, "site")
    env = dict(os.environ, PYTHONHASHSEED="0", SOURCE_DATE_EPOCH="1717200000")
    res = subprocess.run([sys.executable, "build.py", site], cwd=project, env=env, capture_output=True, text=True)
    if res.returncode != 0 or not os.path.isdir(site):
        sys.stderr.write((res.stderr or res.stdout or "the site's build failed") + "\n")
        return 1

    class Quiet(http.server.SimpleHTTPRequestHandler):
        def log_message(self, *a):
            pass

    handler = functools.partial(Quiet, directory=site)
    with http.server.ThreadingHTTPServer(("127.0.0.1", port), handler) as srv:
        srv.serve_forever()
    return 0

sys.exit(main())
'''

FIXED_TIME = (2024, 6, 1, 0, 0, 0)


def write_pyz(path: Path, project: dict[str, str]) -> Path:
    """Write ``path`` holding ``__main__.py`` and ``project/<name>`` for each entry of ``project``.

    ``project`` must hold ``build.py``, run as ``python build.py SITE_DIR`` from the project folder."""
    if "build.py" not in project:
        raise ValueError("a site project needs a build.py")
    files = {"__main__.py": MAIN.lstrip()}
    files.update({f"project/{name}": text for name, text in project.items()})
    path.parent.mkdir(parents=True, exist_ok=True)
    with zipfile.ZipFile(path, "w", compression=zipfile.ZIP_DEFLATED) as z:
        for name in sorted(files):
            info = zipfile.ZipInfo(name, date_time=FIXED_TIME)
            info.compress_type = zipfile.ZIP_DEFLATED
            info.external_attr = 0o644 << 16
            z.writestr(info, files[name])
    return path
