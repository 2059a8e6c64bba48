"""``iwr suite stats``: coverage of a built suite (domains, V/L levels, actions, assertions)."""

from __future__ import annotations

from collections import Counter

from ..tasks import load_suite
from .build import tasks_dir


def suite_stats(tasks: list) -> dict:
    n = len(tasks)
    actions = sum(len(t.action_sequence) for t in tasks)
    asserted = sum(1 for t in tasks for a in t.action_sequence if a.logical_assertion)
    visual = sum(1 for t in tasks for a in t.action_sequence if a.visual_evaluation_flag)
    c = lambda key: Counter(getattr(t.classification, key) or "?" for t in tasks)  # noqa: E731
    return {
        "tasks": n, "actions": actions, "mean_actions": round(actions / n, 2) if n else 0,
        "asserted_actions": asserted, "asserted_share": round(asserted / actions, 3) if actions else 0,
        "visual_actions": visual,
        "domains": dict(sorted(c("domain").items())),
        "visual_complexity": dict(sorted(c("visual_complexity").items())),
        "interaction_complexity": dict(sorted(c("interaction_complexity").items())),
        "resolutions": dict(Counter(t.recording_details.resolution for t in tasks)),
        "sources": dict(Counter((t.source_website or "?").split(":")[0] for t in tasks)),
    }


def print_stats(name: str) -> int:
    import json

    tasks = load_suite(tasks_dir(name))
    print(json.dumps(suite_stats(tasks), indent=1))
    return 0
