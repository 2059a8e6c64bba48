"""Generation tests: synthetic tasks written with PyAV, no key, no internet."""

from provider_fixtures import _offline_env, long_task, task  # noqa: F401  (fixtures)
