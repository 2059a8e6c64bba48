"""Write ``handbook.pyz`` into the folder given as the first argument.

Used by the third-party MkDocs Material recipe (``tp-mkdocs-material-*.yaml``). The file is a
Python zip application holding a small documentation project (``mkdocs.yml`` + Markdown pages
for a made-up tool, "Tidewater") and a ``__main__.py`` that, run as

    python handbook.pyz PORT

with the recipe's Python (the one that has ``mkdocs-material`` installed), unpacks the project
into a temporary folder, builds it with ``mkdocs build`` and serves the built site on
127.0.0.1:PORT until it is stopped. One self-contained file, because a recorded task keeps
exactly one data file in ``reference/data/`` to serve its oracle again.

The site works offline: the theme's web fonts are switched off (``font: false``) and nothing
else is loaded from outside the site. The zip entries carry a fixed timestamp, so every run
writes the same bytes.

    python make_mkdocs_site.py OUT_DIR
"""

from __future__ import annotations

import sys
import zipfile
from pathlib import Path

MAIN = r'''
import atexit, functools, http.server, os, shutil, signal, subprocess, sys, tempfile, zipfile

def main():
    port = int(sys.argv[1])
    work = tempfile.mkdtemp(prefix="iwr-mkdocs-")
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
    res = subprocess.run([sys.executable, "-m", "mkdocs", "build", "-q", "-f", os.path.join(project, "mkdocs.yml"),
                          "-d", site], capture_output=True, text=True)
    if res.returncode != 0:
        sys.stderr.write(res.stderr or res.stdout or "mkdocs build failed\n")
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

MKDOCS_YML = """\
site_name: Tidewater Handbook
site_description: How to install, configure and run Tidewater, the tide-table sync service.
copyright: Example documentation written for the IWR-Bench suite
theme:
  name: material
  font: false
  language: en
  features:
    - content.tabs.link
    - navigation.sections
    - navigation.footer
    - search.highlight
    - toc.follow
  palette:
    - scheme: default
      primary: teal
      accent: amber
      toggle:
        icon: material/weather-night
        name: Switch to dark mode
    - scheme: slate
      primary: teal
      accent: amber
      toggle:
        icon: material/weather-sunny
        name: Switch to light mode
plugins:
  - search
markdown_extensions:
  - admonition
  - attr_list
  - tables
  - toc:
      permalink: true
  - pymdownx.details
  - pymdownx.superfences
  - pymdownx.tabbed:
      alternate_style: true
nav:
  - Home: index.md
  - Guide:
      - Getting started: getting-started.md
      - Configuration: configuration.md
      - Backups: backups.md
  - FAQ: faq.md
"""

PAGES = {
    "index.md": """\
# Tidewater Handbook

Tidewater keeps a local copy of published **tide tables** and serves them to the harbour
office, the ferry planners and anyone else on the network.

!!! tip "New here?"
    Start with [Getting started](getting-started.md), then read
    [Configuration](configuration.md) before the first sync.

## What Tidewater does

| Task | How often | Where |
| --- | --- | --- |
| Download new tide tables | every night at 02:00 | `tables/` |
| Check the tables for gaps | after each download | log file |
| Serve the tables over HTTP | always | port 8080 |
| Keep a backup | every Sunday | `backups/` |

## Getting help

Read the [FAQ](faq.md) first. Questions that are not answered there go to the harbour
office's service desk.
""",
    "getting-started.md": """\
# Getting started

Tidewater runs on any machine with Python 3.10 or newer and about 200 MB of disk.

## Install

Pick the way that suits your machine:

=== "pip"

    ```bash
    python -m pip install tidewater
    tidewater --version
    ```

=== "conda"

    ```bash
    conda install -c harbour tidewater
    tidewater --version
    ```

=== "Docker"

    ```bash
    docker run -p 8080:8080 -v ./tables:/data harbour/tidewater
    ```

## First sync

Run the first download by hand so that you can watch it:

```bash
tidewater sync --station "North Pier" --days 30
```

The first sync takes about a minute. Later syncs only fetch what changed.

!!! note
    The station name must match one of the names printed by `tidewater stations`.
""",
    "configuration.md": """\
# Configuration

Tidewater reads `tidewater.toml` from its working folder. Every setting has a default, so
an empty file is a valid configuration.

## Stations

```toml
[stations]
names = ["North Pier", "South Basin", "Lock Gate 3"]
days_ahead = 30
```

## Schedule

The nightly sync starts at `sync_at` (24-hour clock, local time).

```toml
[schedule]
sync_at = "02:00"
backup_day = "sunday"
```

??? info "Advanced: environment variables"
    Every setting can also be given as an environment variable named `TIDEWATER_` followed by
    the section and key in capitals, for example `TIDEWATER_SCHEDULE_SYNC_AT=03:30`.
    Environment variables win over the file.

## Logging

Logs go to `tidewater.log`. Set `level = "debug"` under `[logging]` to see every request.

!!! warning "Disk space"
    Debug logs grow by about 50 MB a day. Switch back to `info` when you are done.
""",
    "backups.md": """\
# Backups

Tidewater writes a compressed copy of `tables/` to `backups/` every week.

## Restoring a backup

1. Stop the service: `tidewater stop`.
2. Pick a file in `backups/`, for example `tables-2024-06-02.tar.gz`.
3. Run `tidewater restore backups/tables-2024-06-02.tar.gz`.
4. Start the service again: `tidewater start`.

!!! danger "Restoring replaces the current tables"
    Anything downloaded after the backup was taken is lost until the next sync.

## Keeping backups elsewhere

Copy the `backups/` folder to another disk with any tool you like; the files are plain
tar archives.
""",
    "faq.md": """\
# Frequently asked questions

## How do I change the sync time?

Set `sync_at` under `[schedule]` in `tidewater.toml`, then restart the service.

## Where are the backups kept?

In the `backups/` folder next to `tidewater.toml`, one file per week. See
[Backups](backups.md) to restore one.

## Why is a station missing?

The station list is read once at start-up. Add the station to `[stations]` and restart.

## Can Tidewater run without network access?

Yes. It keeps serving the tables it has; the nightly sync simply fails and is retried the
next night.
""",
}

FIXED_TIME = (2024, 6, 1, 0, 0, 0)


def build(out: Path) -> Path:
    path = out / "handbook.pyz"
    files = {"__main__.py": MAIN.lstrip(), "project/mkdocs.yml": MKDOCS_YML}
    files.update({f"project/docs/{name}": text for name, text in PAGES.items()})
    with zipfile.ZipFile(path, "w", compression=zipfile.ZIP_DEFLATED) as z:
        for name in sorted(files):
            info = zipfile.ZipInfo(name, date_time=FIXED_TIME)
            info.compress_type = zipfile.ZIP_DEFLATED
            info.external_attr = 0o644 << 16
            z.writestr(info, files[name])
    return path


def main(argv: list[str]) -> int:
    if len(argv) != 2:
        print("usage: python make_mkdocs_site.py OUT_DIR", file=sys.stderr)
        return 2
    out = Path(argv[1])
    out.mkdir(parents=True, exist_ok=True)
    build(out)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
