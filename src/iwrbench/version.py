"""The package version (core: any stage may name it; the root package re-exports it)."""

__version__ = "0.4.0"
