"""What ``iwr validity`` last found for each task of a built suite, kept beside the suite's build manifest.

A built bundled suite lives in ``$IWR_CACHE/suites/<name>/`` (``tasks/`` and ``manifest.json``). When the oracle,
cheats or markup set judges tasks of such a folder, each task's outcome per set is written to ``checked.json`` there,
with the task's build fingerprint and the package version that judged it, so that ``iwr suite stats`` can say how many
tasks each check covers and how many met it. A task rebuilt since (another fingerprint) is no longer counted as
checked. Other task folders (a stranger's, the reconstructions) get no ledger.
"""

from __future__ import annotations

import json
import time
from pathlib import Path
from typing import Any, Iterable

from ..fileio import atomic_write

LEDGER = "checked.json"
#: the sets whose rows are about a suite's own tasks
TASK_SETS = ("oracle", "cheats", "markup")


def read_dict(f: Path) -> dict:
    """A JSON object from ``f``; {} when it is missing, unreadable or not an object (a manifest, the ledger)."""
    try:
        data = json.loads(f.read_text()) if f.is_file() else {}
    except (OSError, ValueError):
        return {}
    return data if isinstance(data, dict) else {}


def outcome(set_name: str, rows: list[Any]) -> dict[str, Any]:
    """One task's outcome in one set: ``met`` (every row that counts meets the set's criterion), ``pages`` and, for
    markup, ``verified`` (mutants that still look like the recording: only they count) and ``at_100``."""
    if set_name == "markup":
        counted = [r for r in rows if (r.extra or {}).get("verified")]
        out = {"pages": len(rows), "verified": len(counted), "at_100": sum(1 for r in counted if r.ok)}
    else:
        counted = rows
        out = {"pages": len(rows)}
    out["met"] = bool(counted) and all(r.ok for r in counted)
    return out


def record(tasks_dir: Path | None, rows: Iterable[Any]) -> Path | None:
    """Write the task sets' outcomes of ``rows`` (``validity.Verdict``: set, task_id, ok, extra) into the ledger of
    the built suite ``tasks_dir`` belongs to (its parent holds ``manifest.json``); None when it is no built suite.
    Written whole by rename: never half."""
    if tasks_dir is None:
        return None
    root = Path(tasks_dir).resolve().parent
    manifest = read_dict(root / "manifest.json")
    if not manifest:
        return None
    from ..version import __version__

    by: dict[tuple[str, str], list[Any]] = {}
    for r in rows:
        if r.set in TASK_SETS:
            by.setdefault((r.task_id, r.set), []).append(r)
    if not by:
        return None
    f = root / LEDGER
    ledger = read_dict(f)
    when = time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime())
    for (tid, s), rs in sorted(by.items()):
        entry = manifest.get(tid)
        if not isinstance(entry, dict):
            continue
        ledger.setdefault(tid, {})[s] = {**outcome(s, rs), "fingerprint": entry.get("fingerprint"), "when": when,
                                         "version": __version__}
    atomic_write(f, json.dumps(ledger, indent=1, sort_keys=True))
    return f


def current(root: Path, manifest: dict) -> dict[str, dict[str, dict]]:
    """The ledger's entries still about the built tasks (same fingerprint as the manifest's): task -> set -> outcome."""
    out: dict[str, dict[str, dict]] = {}
    for tid, sets in read_dict(root / LEDGER).items():
        fp = (manifest.get(tid) or {}).get("fingerprint")
        if not fp or not isinstance(sets, dict):
            continue
        keep = {s: o for s, o in sets.items() if isinstance(o, dict) and o.get("fingerprint") == fp}
        if keep:
            out[tid] = keep
    return out
