"""Do tasks defend themselves without hand-written probes? Cheat Finals with the derived probes alone.

    .venv/bin/python bench/cheats_derived.py [--suite default] [--task ID ...] [--out DIR] [--json FILE]

For every recipe of the suite it records the task as ``iwr record`` does, but with the recipe's own ``probes:``
removed (the automatic probe and the probes the recorder derives stay), then judges the cheat pages on it (the
record-time cheat check). Beside it, the cheat Finals of the suite as built (recipes' probes included), read from
each built task's ``reference/record.json``. Prints, per cheat, the mean and max Final over the suite both ways,
and every task above 15. Slow: a recording per task (the figures go into the README).
"""

from __future__ import annotations

import argparse
import asyncio
import json
import statistics
import tempfile
from pathlib import Path


def _built_cheats(tasks_dir: Path, task_id: str) -> dict[str, float] | None:
    f = tasks_dir / task_id / "reference" / "record.json"
    try:
        data = json.loads(f.read_text())
    except (OSError, ValueError):
        return None
    got = {c["cheat"]: c["final"] for c in data.get("cheats") or [] if c.get("final") is not None}
    return got or None


async def _derived_only(recipe_path: Path, out: Path) -> dict:
    from iwrbench.errors import IwrError
    from iwrbench.record.recipe import load_recipe
    from iwrbench.validate.make import record_task_async

    recipe = load_recipe(recipe_path)
    bare = recipe.model_copy(update={"probes": None})
    try:
        done = await record_task_async(bare, out / recipe.id, force=True, cheats=True)
    except IwrError as e:
        return {"task": recipe.id, "error": str(e).splitlines()[0][:300]}
    return {"task": recipe.id, "probes": [p.name for p in done.task.probes],
            "cheats": {c.cheat: c.final for c in done.cheats if c.final is not None},
            "notes": {c.cheat: c.note for c in done.cheats}}


def _summary(rows: list[dict], key: str) -> list[str]:
    out = []
    cheats = sorted({c for r in rows for c in (r.get(key) or {})})
    for c in cheats:
        vals = [(r[key][c], r["task"]) for r in rows if c in (r.get(key) or {})]
        if not vals:
            continue
        above = [t for v, t in vals if v > 15]
        out.append(f"  {c:14} mean {statistics.mean(v for v, _ in vals):6.2f}  max {max(vals)[0]:6.2f} ({max(vals)[1]})"
                   f"  above 15: {len(above)} of {len(vals)}" + (f" ({', '.join(above)})" if above else ""))
    return out


def main(argv: list[str] | None = None) -> int:
    from iwrbench.suites.catalog import recipe_files, tasks_dir

    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--suite", default="default")
    ap.add_argument("--task", action="append", help="only this task id (repeatable)")
    ap.add_argument("--out", type=Path, help="where the tasks recorded without their recipe's probes go")
    ap.add_argument("--json", type=Path)
    a = ap.parse_args(argv)
    out = a.out or Path(tempfile.mkdtemp(prefix="iwr-derived-"))
    files = [f for f in recipe_files(a.suite) if not a.task or f.stem in a.task]
    built = tasks_dir(a.suite)
    rows = []
    for f in files:
        row = asyncio.run(_derived_only(f, out))
        row["built"] = _built_cheats(built, f.stem)
        rows.append(row)
        got = row.get("cheats")
        print(f"{f.stem}: derived probes alone " + (", ".join(f"{k} {v:.2f}" for k, v in got.items()) if got
                                                     else row.get("error", "not judged"))
              + ("; as built " + ", ".join(f"{k} {v:.2f}" for k, v in row["built"].items()) if row["built"] else ""),
              flush=True)
    print(f"\n{len(rows)} task(s); with the derived probes alone (recipes' own probes removed):")
    print("\n".join(_summary(rows, "cheats")))
    if any(r["built"] for r in rows):
        print("as built (recipes' own probes too):")
        print("\n".join(_summary([dict(r, built=r["built"] or {}) for r in rows], "built")))
    errors = [r for r in rows if r.get("error")]
    for r in errors:
        print(f"not recorded: {r['task']}: {r['error']}")
    if a.json:
        a.json.write_text(json.dumps(rows, indent=1))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
