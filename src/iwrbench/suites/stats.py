"""``iwr suite stats``: coverage of a built suite (domains, V/L levels, actions, assertions);
``iwr suite list``: the bundled suites, or a suite's tasks and whether each is built;
``iwr suite table``: the Markdown table of docs/suite.md."""

from __future__ import annotations

import json
from collections import Counter

from ..tasks import load_suite
from .catalog import tasks_dir


def suite_stats(tasks: list, manifest: dict | None = None, checked: dict | None = None) -> dict:
    """Coverage of built ``tasks``; with the build's ``manifest``, how many were validated when built (the oracle's
    replay passed and every cheat page stayed at Final <= 15: ``iwr record --strict``); with ``checked`` (the
    ledger of ``suites/ledger.py``), per task set of ``iwr validity`` how many tasks it judged and how many met it."""
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
        # novel (an app written for the suite) or famous (a published package): the leaderboard reports them apart
        "provenance": dict(sorted(Counter(t.tags.get("provenance") or "?" for t in tasks).items())),
        **({"validated_at_build": sum(1 for t in tasks if (manifest.get(t.id) or {}).get("ok"))}
           if manifest is not None else {}),
        **({"checked": _checked(tasks, checked)} if checked is not None else {}),
    }


def _checked(tasks: list, checked: dict) -> dict:
    from .ledger import TASK_SETS

    out = {}
    for s in TASK_SETS:
        got = [checked[t.id][s] for t in tasks if s in checked.get(t.id, {})]
        row = {"tasks": len(got), "met": sum(1 for o in got if o.get("met")),
               "not_met": sorted(t.id for t in tasks if s in checked.get(t.id, {}) and not checked[t.id][s].get("met"))}
        whens = sorted(str(o["when"]) for o in got if o.get("when"))
        if whens:
            row.update(first=whens[0], last=whens[-1])
        if s == "markup":
            row.update(verified=sum(o.get("verified", 0) for o in got), at_100=sum(o.get("at_100", 0) for o in got))
        out[s] = row
    return out


def _manifest(name: str) -> dict:
    """The build manifest of bundled suite ``name`` ({} before its first build)."""
    from .catalog import build_root
    from .ledger import read_dict

    return read_dict(build_root(name) / "manifest.json")


def _built_tasks(name: str) -> list:
    """The built tasks of bundled suite ``name``; a one-line ``IwrError`` saying how to build it when none are."""
    from ..errors import IwrError
    from .catalog import is_built, recipes_dir

    recipes_dir(name)  # an unknown suite names the bundled ones
    d = tasks_dir(name)
    if not is_built(name):
        raise IwrError(f"suite {name} is not built yet (nothing in {d}); build it with `iwr suite build {name}`, "
                       f"or see its tasks with `iwr suite list {name}`")
    return load_suite(d)


def _share(n: int, total: int) -> str:
    return f"{n} ({n / total:.0%})" if total else str(n)


def print_stats(name: str, as_json: bool = False) -> int:
    """``iwr suite stats``: the built suite's coverage as tables (``as_json``: the dict of ``suite_stats``)."""
    from .ledger import current, outdated
    from .catalog import build_root

    tasks = _built_tasks(name)
    manifest = _manifest(name)
    st = suite_stats(tasks, manifest, current(build_root(name), manifest))
    st["checks_of_earlier_builds"] = outdated(build_root(name), manifest)
    if as_json:
        print(json.dumps(st, indent=1))
        return 0
    from rich.table import Table

    con = _console()
    n, acts = st["tasks"], st["actions"]
    t = Table(title=escape(f"Suite {name}: {n} built task(s) in {tasks_dir(name)}"), show_header=False,
              title_justify="left")
    t.add_column("what", style="bold")
    t.add_column("value", overflow="fold")
    t.add_row("tasks", str(n))
    t.add_row("actions", f"{acts} ({st['mean_actions']:g} per task)")
    t.add_row("with an assertion", _share(st["asserted_actions"], acts))
    t.add_row("scored visually", _share(st["visual_actions"], acts))
    t.add_row("resolutions", ", ".join(f"{k}: {v}" for k, v in sorted(st["resolutions"].items())))
    t.add_row("sources", ", ".join(f"{k}: {v}" for k, v in sorted(st["sources"].items())))
    t.add_row("apps", ", ".join(f"{k}: {v}" for k, v in st["provenance"].items())
              + " (novel: written for the suite; famous: a published package)")
    t.add_row("validated when built", f"{_share(st['validated_at_build'], n)}: the oracle's replay passed, every "
              "cheat page Final <= 15")
    what = {"oracle": "IFS 100", "cheats": "every cheat Final <= 15", "markup": "IFS 100 on every verified mutant"}
    for s, row in st["checked"].items():
        extra = f"; {row['at_100']} of {row['verified']} verified mutants at IFS 100" if s == "markup" else ""
        if row["not_met"]:
            shown = ", ".join(row["not_met"][:5]) + (f" and {len(row['not_met']) - 5} more" if len(row["not_met"]) > 5 else "")
            extra += f"; not met: {shown}"
        if row.get("first"):
            extra += f"; judged {_day(row['first'])}" + (f" to {_day(row['last'])}" if row["last"] != row["first"] else "")
        t.add_row(f"`iwr validity` {s}", f"{row['tasks']} of {n} checked since built, {row['met']} met it ({what[s]}){extra}")
    if st["checks_of_earlier_builds"]:
        t.add_row("", f"({st['checks_of_earlier_builds']} outcome(s) of `iwr validity` in the ledger are not about "
                      "these tasks as built now, and not counted: run the sets again to check them)")
    con.print(t)
    c = Table(title="Coverage (tasks per value)", title_justify="left")
    c.add_column("by")
    c.add_column("value", overflow="fold")
    c.add_column("tasks", justify="right")
    c.add_column("share", justify="right")
    for key, label in (("provenance", "app"), ("domains", "domain"), ("visual_complexity", "visual level"),
                       ("interaction_complexity", "interaction level")):
        for k, (value, count) in enumerate(st[key].items()):
            c.add_row(label if k == 0 else "", str(value), str(count), f"{count / n:.0%}" if n else "-",
                      end_section=k == len(st[key]) - 1)
    con.print(c)
    return 0


def _day(stamp: str) -> str:
    """``2026-12-05 17:40`` from the ledger's ``2026-12-05T17:40:12Z``."""
    return stamp.replace("T", " ")[:16]


def _console():
    from rich.console import Console

    return Console(highlight=False)


def suite_listing(name: str) -> list[dict]:
    """Each task of bundled suite ``name``, from its recipes (no build needed), with its build state:
    ``built`` (up to date), ``outdated`` (built from an older recipe, site or recorder; rebuilt by the
    next build), ``excluded`` (its last build failed validation; ``reason`` says why) or ``not built``."""
    from ..record.recipe import load_recipe
    from .catalog import fingerprint, recipe_files

    manifest = _manifest(name)
    rows = []
    for f in recipe_files(name):
        r = load_recipe(f)
        entry = manifest.get(r.id) or {}
        on_disk = (tasks_dir(name) / r.id / "task.json").is_file()
        if entry and not entry.get("ok"):
            state = "excluded"
        elif on_disk and entry.get("fingerprint") == fingerprint(f):
            state = "built"
        elif on_disk:
            state = "outdated"
        else:
            state = "not built"
        c = r.classification
        rows.append({"id": r.id, "domain": c.domain, "visual_complexity": c.visual_complexity,
                     "interaction_complexity": c.interaction_complexity, "steps": len(r.actions),
                     "assertions": sum(1 for a in r.actions if a.assertion), "state": state,
                     "reason": (entry.get("reason") or "") if state == "excluded" else ""})
    return rows


def print_listing(name: str | None) -> int:
    """``iwr suite list``: the bundled suites (no name) or one suite's tasks, as tables."""
    from rich.table import Table

    from .catalog import suites

    con = _console()
    if name is None:
        t = Table(title="Bundled suites", title_justify="left")
        for col in ("suite", "tasks", "built", "cache folder"):
            t.add_column(col, justify="right" if col in ("tasks", "built") else "left",
                         overflow="fold" if col == "cache folder" else "ellipsis")
        for s in suites():
            rows = suite_listing(s)
            t.add_row(s, str(len(rows)), str(sum(1 for r in rows if r["state"] == "built")), escape(str(tasks_dir(s))))
        con.print(t)
        con.print("Tasks of one suite: iwr suite list NAME")
        return 0
    rows = suite_listing(name)
    t = Table(title=f"Suite {name}: {len(rows)} task(s)", title_justify="left")
    t.add_column("task", no_wrap=True, min_width=max([len(r["id"]) for r in rows] or [4]))
    t.add_column("domain", overflow="fold")
    t.add_column("V", justify="center")
    t.add_column("L", justify="center")
    t.add_column("steps", justify="right")
    t.add_column("built", overflow="fold")
    for r in rows:
        state = r["state"] + (f": {r['reason']}" if r["reason"] else "")
        style = {"built": "green", "excluded": "red", "outdated": "yellow"}.get(r["state"], "dim")
        t.add_row(r["id"], r["domain"] or "?", r["visual_complexity"] or "?", r["interaction_complexity"] or "?",
                  str(r["steps"]), f"[{style}]{escape(state)}[/]")
    con.print(t)
    built = sum(1 for r in rows if r["state"] == "built")
    con.print(f"{built} of {len(rows)} built in {tasks_dir(name)}"
              + ("" if built == len(rows) else f"; build the rest with `iwr suite build {name}`"), markup=False)
    return 0


def escape(text: str) -> str:
    from rich.markup import escape as _escape

    return _escape(text)


def _provenance(recipe) -> str:
    return (recipe.classification.model_extra or {}).get("provenance") or "?"


def suite_table(name: str) -> str:
    """A Markdown table of a suite from its recipes (no build needed)."""
    from ..record.recipe import load_recipe
    from .catalog import recipe_files

    rows = ["| task | app | domain | V | L | actions | assertions | source | licence |",
            "|---|---|---|---|---|---|---|---|---|"]
    recipes = [load_recipe(f) for f in recipe_files(name)]
    for r in recipes:
        c = r.classification
        src = r.source
        if src.npm:
            where = f"npm `{src.npm.package}@{src.npm.version}` {src.npm.root}/{src.npm.page}"
        elif src.pypi:
            where = f"PyPI `{src.pypi.package}=={src.pypi.version}`"
        elif src.site:
            where = f"own site `{src.site.rstrip('/').split('/')[-1]}`"
        else:
            where = src.url or "?"
        rows.append(f"| {r.id} | {_provenance(r)} | {c.domain or '?'} | {c.visual_complexity or '?'} | {c.interaction_complexity or '?'} | "
                    f"{len(r.actions)} | {sum(1 for a in r.actions if a.assertion)} | {where} | {r.licence or '?'} |")
    n = len(recipes)
    acts = sum(len(r.actions) for r in recipes)
    asserted = sum(1 for r in recipes for a in r.actions if a.assertion)
    cov = {k: Counter(getattr(r.classification, k) for r in recipes) for k in ("visual_complexity", "interaction_complexity", "domain")}
    kinds = Counter(_provenance(r) for r in recipes)
    foot = [f"\n{n} tasks, {acts} actions ({acts / max(1, n):.1f} per task), {asserted} with an assertion "
            f"({asserted / max(1, acts):.0%}); third-party: {sum(1 for r in recipes if r.source.npm or r.source.pypi)}; "
            + ", ".join(f"{k}: {v}" for k, v in sorted(kinds.items()))
            + " (novel: an app written for the suite; famous: a published package).",
            "Visual levels: " + ", ".join(f"{k} {v}" for k, v in sorted(cov['visual_complexity'].items())) + "; "
            "interaction levels: " + ", ".join(f"{k} {v}" for k, v in sorted(cov['interaction_complexity'].items())) + "; "
            f"{len(cov['domain'])} domains."]
    return f"# Suite `{name}`\n\nGenerated by `iwr suite table {name}`; do not edit.\n\n" + "\n".join(rows) + "\n" + "\n".join(foot) + "\n"
