"""Provider tests run against FakeProviderServer on 127.0.0.1: no key, no internet."""

from provider_fixtures import _offline_env, long_task, task  # noqa: F401  (fixtures)
