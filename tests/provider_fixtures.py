"""Fixtures shared by the provider and generation tests: no key, no proxy, no user cache; synthetic tasks."""

from __future__ import annotations

import pytest

from fake_provider import write_synthetic_task

_ENV = (
    "OPENAI_API_KEY", "OPENAI_BASE_URL", "ANTHROPIC_API_KEY", "ANTHROPIC_BASE_URL",
    "HTTP_PROXY", "HTTPS_PROXY", "ALL_PROXY", "http_proxy", "https_proxy", "all_proxy",
)


@pytest.fixture(autouse=True)
def _offline_env(monkeypatch, tmp_path):
    for k in _ENV:
        monkeypatch.delenv(k, raising=False)
    monkeypatch.setenv("IWR_CACHE", str(tmp_path / "iwr-cache"))  # never the user's cache


@pytest.fixture(scope="session")
def task(tmp_path_factory):
    """10 s at 10 fps, one composite: 1 text + 1 composite + 10 frames."""
    return write_synthetic_task(tmp_path_factory.mktemp("task") / "synthetic")


@pytest.fixture(scope="session")
def long_task(tmp_path_factory):
    """80 s at 1 fps with two composites: more frames than the cap of 64."""
    return write_synthetic_task(
        tmp_path_factory.mktemp("long") / "long", task_id="long", seconds=80, fps=1, size=(32, 32), composites=2
    )
