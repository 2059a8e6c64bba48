"""Where sites come from: a folder, a URL, or a package fetched from a registry and pinned (``fetch``),
and how a recipe's source is served (``resolve``: ``PageBundle``, ``resolve_source``)."""

from .fetch import cache_root, fetch_npm, free_port, pypi_env, pypi_env_digest, run_server, sha256_file
from .resolve import PageBundle, ResolvedSource, SourceRecipe, resolve_source

__all__ = ["PageBundle", "ResolvedSource", "SourceRecipe", "cache_root", "fetch_npm", "free_port", "pypi_env",
           "pypi_env_digest", "resolve_source", "run_server", "sha256_file"]
