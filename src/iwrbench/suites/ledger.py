"""What ``iwr validity`` last found for each task of a built suite, kept beside the suite's build manifest.

A built bundled suite lives in ``$IWR_CACHE/suites/<name>/`` (``tasks/`` and ``manifest.json``). When the oracle,
cheats or markup set judges tasks of such a folder, each task's outcome per set is written to ``checked.json`` there,
with the task's build fingerprint and stamp (``built``) and the package version that judged it, so that ``iwr suite
stats`` can say how many tasks each check covers and how many met it. A task rebuilt since (another fingerprint, or
the same recorded again: another stamp) is no longer counted as checked. Other task folders (a stranger's, the reconstructions) get no ledger.

A task one bundled suite's build copied from another's (its manifest entry says ``copied_from``, the fingerprints are
equal: ``validate/build.py`` reuses a task built for the same recipe and sources) is the same folder twice: its
outcome is written to both suites' ledgers, so that checking ``full`` also counts for the tasks ``default`` shares.
Two builds of one fingerprint that were recorded apart are not twins: their recordings may differ.
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
    when = time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime())
    writes: dict[Path, dict[tuple[str, str], dict]] = {}
    for (tid, s), rs in sorted(by.items()):
        entry = manifest.get(tid)
        if not isinstance(entry, dict):
            continue
        row = {**outcome(s, rs), "fingerprint": entry.get("fingerprint"), "built": entry.get("built"), "when": when,
               "version": __version__}
        for r in [root, *twins(root, tid, entry)]:
            writes.setdefault(r, {})[(tid, s)] = row
    for r, entries in writes.items():
        f = r / LEDGER
        ledger = read_dict(f)
        for (tid, s), row in entries.items():
            ledger.setdefault(tid, {})[s] = row
        atomic_write(f, json.dumps(ledger, indent=1, sort_keys=True))
    return root / LEDGER


def twins(root: Path, task_id: str, entry: dict) -> list[Path]:
    """The folders of the other bundled suites' builds holding the very same built task as ``root``'s: one copied from
    the other (``copied_from`` in either manifest names the other suite), with the same fingerprint."""
    from .catalog import build_root, suites

    fp = entry.get("fingerprint")
    if not fp or root.resolve() != build_root(root.name).resolve():  # a copy elsewhere is no bundled suite's build
        return []
    out: list[Path] = []
    for name in suites():
        other = build_root(name)
        if other.resolve() == root.resolve():
            continue
        theirs = read_dict(other / "manifest.json").get(task_id)
        if not isinstance(theirs, dict) or theirs.get("fingerprint") != fp or theirs.get("built") != entry.get("built"):
            continue  # a copy keeps its build's stamp; one side rebuilt since (--force) is another recording
        if theirs.get("copied_from") == root.name or entry.get("copied_from") == name:
            out.append(other)
    return out


def current(root: Path, manifest: dict) -> dict[str, dict[str, dict]]:
    """The ledger's entries still about the built tasks (the manifest's fingerprint and build stamp: a task recorded
    again, ``--force`` on an unchanged recipe included, is another recording): task -> set -> outcome."""
    out: dict[str, dict[str, dict]] = {}
    for tid, sets in read_dict(root / LEDGER).items():
        entry = manifest.get(tid) or {}
        fp = entry.get("fingerprint")
        if not fp or not isinstance(sets, dict):
            continue
        keep = {s: o for s, o in sets.items()
                if isinstance(o, dict) and o.get("fingerprint") == fp and o.get("built") == entry.get("built")}
        if keep:
            out[tid] = keep
    return out


def outdated(root: Path, manifest: dict) -> int:
    """How many task-set outcomes the ledger holds about an earlier build of a task still in the suite (not counted
    by ``current``: the task was recorded again since)."""
    kept = current(root, manifest)
    n = 0
    for tid, sets in read_dict(root / LEDGER).items():
        if tid in manifest and isinstance(sets, dict):
            n += sum(1 for s in sets if s not in kept.get(tid, {}))
    return n
