"""Resolving a recipe's ``source:`` into a page the browser can open: one resolver for the recorder and the oracle.

A ``PageBundle`` says how a page is served (a folder and its entry, a server command, or a URL);
``resolve_source`` makes one from a recipe's source, fetching and pinning packages as needed
(``sources.fetch``). It reads the recipe through ``SourceRecipe`` (its ``id``, ``base_dir`` and
``source``), so this layer knows no stage's types.
"""

from __future__ import annotations

import subprocess
import sys
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Protocol

from ..errors import RecordError
from ..records import SourceSpec
from .fetch import cache_root, fetch_npm, pypi_env, pypi_env_digest


@dataclass
class PageBundle:
    """What the browser serves: ``root`` as the web root and ``entry`` (may carry ?query/#hash)."""

    root: Path
    entry: str = "index.html"
    #: a command that serves the page itself (pypi sources): {port} {python} {data} are filled in
    serve_command: str | None = None
    data: Path | None = None
    python: Path | None = None
    #: an already running page elsewhere on loopback (``url`` sources), served as is
    url: str | None = None


class SourceRecipe(Protocol):
    """What the resolver reads of a recipe (``record.recipe.Recipe``)."""

    id: str
    base_dir: Path
    source: Any


@dataclass
class ResolvedSource:
    bundle: PageBundle
    spec: SourceSpec
    site_dir: Path | None = None  # a folder to copy into reference/site
    label: str = ""


def resolve_source(recipe: SourceRecipe) -> ResolvedSource:
    """How to serve ``recipe``'s site: its folder, the pinned npm package (fetched once), the pypi package in
    a venv of its own (installed from its distribution file, checked against the pinned sha256, with the
    ``extra`` requirements) and its data, or a URL. The recorder and the oracle
    both call this one function, so a task is judged against the site it was recorded on."""
    src = recipe.source
    if src.url:
        return ResolvedSource(PageBundle(root=Path("."), url=src.url), SourceSpec(kind="url", url=src.url), None, src.url)
    if src.site:
        d = (recipe.base_dir / src.site).resolve()
        page = src.page or "index.html"
        if not d.is_dir():
            raise RecordError(f"source.site: folder {d} does not exist")
        if not (d / page.split("?")[0].split("#")[0]).is_file():
            raise RecordError(f"source.site: {d} has no {page}")
        return ResolvedSource(PageBundle(root=d, entry=page), SourceSpec(kind="site", site="site", page=page), d,
                              f"site:{d.name}")
    if src.npm:
        n = src.npm
        pkg, digest = fetch_npm(n.package, n.version, n.sha256)
        root = (pkg / n.root).resolve()
        if not root.is_dir():
            raise RecordError(f"source.npm.root: {n.root} is not a folder of {n.package}@{n.version}")
        spec = SourceSpec(kind="npm", package=n.package, version=n.version, sha256=digest, root=n.root, page=n.page)
        return ResolvedSource(PageBundle(root=root, entry=n.page), spec, None, f"npm:{n.package}@{n.version}/{n.root}")
    p = src.pypi
    assert p is not None
    python = pypi_env(p.package, p.version, p.extra, sha256=p.sha256)
    data_path = None
    if p.data:
        given = (recipe.base_dir / p.data).resolve()
        if not given.exists():
            raise RecordError(f"source.pypi.data: {given} does not exist")
        if given.suffix == ".py":  # a script that makes the data file
            out_dir = cache_root() / "data" / recipe.id
            out_dir.mkdir(parents=True, exist_ok=True)
            res = subprocess.run([sys.executable, str(given), str(out_dir)], capture_output=True, text=True, timeout=300)
            if res.returncode != 0:
                raise RecordError(f"source.pypi.data: {given.name} failed: {(res.stderr or '').strip().splitlines()[-1:]}")
            made = sorted(p_ for p_ in out_dir.iterdir() if p_.is_file())
            if not made:
                raise RecordError(f"source.pypi.data: {given.name} wrote no file into its output folder")
            data_path = made[0]
        else:
            data_path = given
    spec = SourceSpec(kind="pypi", package=p.package, version=p.version, serve=p.serve, page=p.page,
                      sha256=pypi_env_digest(python), data=("data/" + data_path.name) if data_path else None)
    bundle = PageBundle(root=data_path.parent if data_path else cache_root(), entry=p.page, serve_command=p.serve,
                        data=data_path, python=python)
    return ResolvedSource(bundle, spec, None, f"pypi:{p.package}=={p.version}")
