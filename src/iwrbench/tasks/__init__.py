"""Loading task folders, suite folders and the official layout, and checking the files a task folder holds."""

from .load import load_official, load_suite, load_task, suite_hash

__all__ = ["load_official", "load_suite", "load_task", "suite_hash"]
