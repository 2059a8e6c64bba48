"""Loading and validating tasks (task folders, suite folders, the official layout)."""

from .load import load_official, load_suite, load_task, suite_hash

__all__ = ["load_official", "load_suite", "load_task", "suite_hash"]
