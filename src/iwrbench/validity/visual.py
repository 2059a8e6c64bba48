"""Evidence (f): the visual score ranks pages the way a person does.

A calibration set of *groups*, written down in ``data/visual/groups.json``: each group is one
reference screenshot (a checkpoint of a default-suite task, TodoMVC tasks included) and the
candidate screenshots a person ranks against it, from real pages:

- ``identical``: the checkpoint itself;
- ``implementation:<name>``: the same app by another implementation (a TodoMVC example of the
  pinned ``todomvc`` npm package) driven through the task to the same step;
- ``reconstruction:<variant>``: a page written from the frames (``data/reconstructions``), driven
  to the same step;
- ``restyled`` (other fonts and colours), ``text-replaced`` (every letter another),
  ``text-blurred`` (the text's boxes blurred), ``layout-shifted`` (the page moved right and down),
  ``unstyled`` (no stylesheet): the source driven to the step, changed at the moment of the
  screenshot and restored before the task goes on;
- ``not-reacted``: the checkpoint before the step (a page that did not react to it);
- ``unrelated:<task>``: another task's first screen; ``blank``: a white page.

The ordering a person gives (best first; candidates in one bracket are tied) and the reasons are
written once per group, by looking at the candidates side by side (``--sheets`` draws them), before
any metric's number for that group is seen. Groups are ``tuning`` (looked at while the metric was
settled) or ``held-out`` (ordered, then judged once at the end). The command rebuilds the
candidates at run time (nothing third-party is committed): the suite's checkpoints, the sources and
reconstructions replayed by the judge's own replay, the TodoMVC package fetched and pinned.

A metric agrees with a group by Kendall's tau-b between its scores and the written ordering; the
set's figure is the mean over groups (tuning and held-out reported apart).

    python -m iwrbench.validity.visual --tasks SUITE_TASKS --out DIR [--group ID...] [--metric NAME...]
        [--sheets] [--split tuning|held-out] [--report]
"""

from __future__ import annotations

import argparse
import asyncio
import json
import sys
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Callable

from . import Verdict

DATA = Path(__file__).parent / "data" / "visual" / "groups.json"
SET = "visual"
Progress = Callable[[str], None]
#: the set's criterion: mean Kendall tau-b over the groups
MIN_TAU = 0.8

#: the changes made to the source at the moment of a screenshot (restored right after)
RESTYLE_CSS = """
*, *::before, *::after { font-family: "DejaVu Serif", Georgia, serif !important; letter-spacing: .02em !important;
  transition: none !important; animation: none !important; }
html { filter: hue-rotate(150deg) saturate(1.4) !important; }
"""
SHIFT_CSS = """
html { transform: translate(96px, 64px) !important; }
*, *::before, *::after { transition: none !important; animation: none !important; }
"""
UNSTYLE_JS = """() => {
  const off = [];
  for (const s of Array.from(document.styleSheets)) { if (!s.disabled) { s.disabled = true; off.push(s); } }
  const adopted = document.adoptedStyleSheets; document.adoptedStyleSheets = [];
  window.__iwrUnstyled = {off, adopted};
}"""
RESTYLE_BACK_JS = """() => {
  const u = window.__iwrUnstyled; if (!u) return;
  for (const s of u.off) s.disabled = false; document.adoptedStyleSheets = u.adopted; delete window.__iwrUnstyled;
}"""
REPLACE_JS = r"""() => {
  const lower = 'qwxzjkvbpygfmwucldrhsnioate', upper = lower.toUpperCase();
  let k = 7;
  const swap = (s) => s.replace(/[A-Za-z0-9]/g, (c) => {
    k = (k * 31 + 17) % 997;
    if (c >= '0' && c <= '9') return String((Number(c) + 3 + k % 5) % 10);
    const set = c === c.toLowerCase() ? lower : upper; const i = set.indexOf(c);
    return set[(i + 5 + k % 11) % set.length];
  });
  const saved = [];
  const walk = document.createTreeWalker(document.body || document.documentElement, NodeFilter.SHOW_TEXT);
  for (let n = walk.nextNode(); n; n = walk.nextNode()) {
    const p = n.parentElement; if (!p || /^(SCRIPT|STYLE|NOSCRIPT|TEXTAREA)$/.test(p.tagName)) continue;
    if (!n.nodeValue.trim()) continue;
    saved.push([n, n.nodeValue]); n.nodeValue = swap(n.nodeValue);
  }
  const fields = [];
  for (const el of document.querySelectorAll('input, textarea')) {
    fields.push([el, el.value, el.getAttribute('placeholder')]);
    if (el.value && !/^(checkbox|radio|range|color|button|submit|reset|file|hidden)$/.test(el.type)) el.value = swap(el.value);
    if (el.getAttribute('placeholder')) el.setAttribute('placeholder', swap(el.getAttribute('placeholder')));
  }
  window.__iwrReplaced = {saved, fields};
}"""
REPLACE_BACK_JS = """() => {
  const r = window.__iwrReplaced; if (!r) return;
  for (const [n, v] of r.saved) n.nodeValue = v;
  for (const [el, v, ph] of r.fields) { el.value = v; if (ph !== null) el.setAttribute('placeholder', ph); }
  delete window.__iwrReplaced;
}"""
#: the boxes of the visible text (text nodes' line boxes and the text inside fields), viewport px
TEXT_RECTS_JS = r"""() => {
  const out = [];
  const vw = innerWidth, vh = innerHeight;
  // a box counts when it is on screen and its text is what shows there (not under an overlay)
  const seen = (el, r) => { const x = Math.min(vw - 1, Math.max(0, r.left + r.width / 2)), y = Math.min(vh - 1, Math.max(0, r.top + r.height / 2));
    const hit = document.elementFromPoint(x, y); return !!hit && (el.contains(hit) || hit.contains(el)); };
  const add = (r, el) => { if (r.width > 1 && r.height > 1 && r.right > 0 && r.bottom > 0 && r.left < vw && r.top < vh && seen(el, r))
    out.push([r.left, r.top, r.right, r.bottom]); };
  const walk = document.createTreeWalker(document.body || document.documentElement, NodeFilter.SHOW_TEXT);
  for (let n = walk.nextNode(); n; n = walk.nextNode()) {
    const p = n.parentElement; if (!p || /^(SCRIPT|STYLE|NOSCRIPT)$/.test(p.tagName) || !n.nodeValue.trim()) continue;
    const cs = getComputedStyle(p); if (cs.visibility === 'hidden' || cs.display === 'none') continue;
    const range = document.createRange(); range.selectNodeContents(n);
    for (const r of range.getClientRects()) add(r, p);
  }
  for (const el of document.querySelectorAll('input, textarea, select')) {
    if (/^(checkbox|radio|range|color|hidden|file)$/.test(el.type) || !(el.value || el.placeholder)) continue;
    const r = el.getBoundingClientRect(), cs = getComputedStyle(el);
    const pl = parseFloat(cs.paddingLeft) || 0, pr = parseFloat(cs.paddingRight) || 0;
    const pt = parseFloat(cs.paddingTop) || 0, pb = parseFloat(cs.paddingBottom) || 0;
    add(new DOMRect(r.left + pl, r.top + pt, Math.max(0, r.width - pl - pr), Math.max(0, r.height - pt - pb)), el);
  }
  return out;
}"""

#: variants made by a script and undone by another
_SCRIPTED = {"unstyled": (UNSTYLE_JS, RESTYLE_BACK_JS), "text-replaced": (REPLACE_JS, REPLACE_BACK_JS)}
SOURCE_VARIANTS = ("restyled", "text-replaced", "text-blurred", "layout-shifted", "unstyled")


# --------------------------------------------------------------------------- the set


@dataclass
class Group:
    id: str
    task: str
    checkpoint: int
    split: str
    candidates: list[str]
    ordering: list[list[str]]
    reasons: str = ""
    extra: dict[str, Any] = field(default_factory=dict)

    def rank(self) -> dict[str, int]:
        """Candidate -> place (0 = best); tied candidates share a place."""
        return {c: i for i, tier in enumerate(self.ordering) for c in tier}


def load_groups(path: Path = DATA) -> list[Group]:
    data = json.loads(Path(path).read_text())
    out = []
    for g in data["groups"]:
        grp = Group(id=g["id"], task=g["task"], checkpoint=int(g["checkpoint"]), split=g.get("split", "tuning"),
                    candidates=list(g["candidates"]), ordering=[list(t) for t in g.get("ordering") or []],
                    reasons=g.get("reasons", ""), extra={k: v for k, v in g.items() if k not in {
                        "id", "task", "checkpoint", "split", "candidates", "ordering", "reasons"}})
        if grp.ordering:
            placed = [c for t in grp.ordering for c in t]
            if sorted(placed) != sorted(grp.candidates):
                raise ValueError(f"group {grp.id}: its ordering places {sorted(placed)}, its candidates are "
                                 f"{sorted(grp.candidates)}")
        out.append(grp)
    return out


# --------------------------------------------------------------------------- Kendall tau-b


def kendall_tau_b(truth: dict[str, int], scores: dict[str, float]) -> float:
    """Kendall's tau-b between the written places (0 = best; ties allowed) and a metric's scores
    (higher = better). Pairs tied in either are left out of the numerator; tau-b's denominator
    corrects for them (a metric that orders every untied pair right reaches 1 unless it ties what
    the person did not)."""
    names = [n for n in truth if n in scores]
    conc = disc = t_truth = t_score = 0
    for i, a in enumerate(names):
        for b in names[i + 1:]:
            dt = truth[b] - truth[a]  # > 0: a placed better than b
            ds = scores[a] - scores[b]  # > 0: a scored higher
            if dt == 0 and ds == 0:
                continue
            if dt == 0:
                t_truth += 1
            elif ds == 0:
                t_score += 1
            elif (dt > 0) == (ds > 0):
                conc += 1
            else:
                disc += 1
    n1 = conc + disc + t_score  # pairs the person did not tie
    n2 = conc + disc + t_truth  # pairs the metric did not tie
    if n1 == 0 or n2 == 0:
        return 0.0
    return (conc - disc) / (n1 * n2) ** 0.5


# --------------------------------------------------------------------------- building the candidates


def _white(size: tuple[int, int]) -> Any:
    from PIL import Image

    return Image.new("RGB", size, (255, 255, 255))


def blur_boxes(img: Any, rects: list[list[float]]) -> Any:
    """``img`` with every box blurred (radius 0.35 x its height, at least 3 px): text unreadable,
    everything around it sharp."""
    from PIL import ImageFilter

    out = img.copy()
    w, h = img.size
    for x0, y0, x1, y1 in rects:
        a0, b0 = max(0, int(x0) - 2), max(0, int(y0) - 2)
        a1, b1 = min(w, int(x1 + 0.999) + 2), min(h, int(y1 + 0.999) + 2)
        if a1 - a0 < 2 or b1 - b0 < 2:
            continue
        radius = max(3.0, 0.35 * (b1 - b0))
        pad = int(radius * 2)
        c0, d0, c1, d1 = max(0, a0 - pad), max(0, b0 - pad), min(w, a1 + pad), min(h, b1 + pad)
        region = img.crop((c0, d0, c1, d1)).filter(ImageFilter.GaussianBlur(radius))
        out.paste(region.crop((a0 - c0, b0 - d0, a1 - c0, b1 - d0)), (a0, b0))
    return out


async def drive(browser: Any, task: Any, bundle: Any, shots_dir: Path, steps: dict[int, list[str]]) -> dict[int, dict[str, Path]]:
    """Replay ``task`` on ``bundle`` with the judge's own replay (offline protocol, no probes); at each
    step in ``steps`` also take the named source variants' screenshots. Returns, per step reached,
    {"page": screenshot, variant: screenshot, ...}."""
    import dataclasses

    from ..browser.host import host
    from ..browser.settle import screenshot
    from ..judge.replay import Limits, _in_context, _Trajectory
    from ..protocols import get_protocol

    protocol = dataclasses.replace(get_protocol("offline"), probes=False)
    limits = Limits().resolved(protocol)
    out: dict[int, dict[str, Path]] = {}
    shots_dir.mkdir(parents=True, exist_ok=True)

    class Variants(_Trajectory):
        async def shot(self, i: int) -> bytes:
            data = await super().shot(i)
            out.setdefault(i, {})["page"] = self.shots_dir / f"step_{i}.png"
            for v in steps.get(i, ()):
                p = self.shots_dir / f"step_{i}.{v}.png"
                try:
                    await asyncio.wait_for(_variant_shot(self.page, v, p, screenshot), timeout=30)
                    out[i][v] = p
                except (Exception, asyncio.TimeoutError) as e:  # a variant that cannot be made is left out, with the reason
                    (self.shots_dir / f"step_{i}.{v}.error.txt").write_text(str(e)[:500])
            return data

    seed = task.recording_details.seed or 1
    with host(bundle, task.assets_dir) as (url, origins):
        run = Variants(task, task.action_sequence, url, origins, shots_dir, protocol, limits, None, None, None, {}, {},
                       prefix="")
        await _in_context(browser, task, origins, seed, task.recording_details.freeze_time, limits, run, [])
    return out


async def _variant_shot(page: Any, variant: str, path: Path, screenshot: Any) -> None:
    from PIL import Image

    if variant in ("restyled", "layout-shifted"):
        css = RESTYLE_CSS if variant == "restyled" else SHIFT_CSS
        handle = await page.add_style_tag(content=css)
        try:
            await screenshot(page, str(path))
        finally:
            await handle.evaluate("(el) => el.remove()")
    elif variant in _SCRIPTED:
        change, restore = _SCRIPTED[variant]
        await page.evaluate(change)
        try:
            await screenshot(page, str(path))
        finally:
            await page.evaluate(restore)
    elif variant == "text-blurred":
        rects = await page.evaluate(TEXT_RECTS_JS)
        base = path.with_name(path.name.replace(".text-blurred", ".base"))
        await screenshot(page, str(base))
        with Image.open(base) as im:
            blur_boxes(im.convert("RGB"), rects).save(path)
        base.unlink()
    else:
        raise ValueError(f"unknown source variant {variant!r}")


def _reconstruction(task_id: str, variant: str, dest: Path) -> tuple[Any, Any]:
    from ..browser.host import PageBundle
    from ..tasks import load_task
    from .reconstructions import DATA as RDATA, materialise

    d = RDATA / task_id
    task = load_task(d / "task", require_video=False)
    root = materialise(d / "pages" / variant, dest)
    return task, PageBundle(root=root)


async def build_candidates(groups: list[Group], tasks_dir: Path, work: Path, *, progress: Progress | None = None,
                           browser: Any = None) -> dict[str, dict[str, Path | None]]:
    """Every group's candidate screenshots ({group id: {candidate: path or None when it could not be
    made}}), written under ``work``. Pages are driven once per (task, page) for all their groups."""
    from PIL import Image

    from ..browser.host import PageBundle
    from ..tasks import load_task
    from ..validate.oracle import oracle_bundle
    from .todomvc import entry_for, fetch_package

    work.mkdir(parents=True, exist_ok=True)
    tasks: dict[str, Any] = {}

    def task_of(tid: str) -> Any:
        if tid not in tasks:
            tasks[tid] = load_task(Path(tasks_dir) / tid, require_video=False)
        return tasks[tid]

    # which page drives which steps with which variants
    plans: dict[tuple[str, str], dict[int, list[str]]] = {}
    for g in groups:
        for c in g.candidates:
            kind = c.split(":", 1)[0]
            if kind in SOURCE_VARIANTS:
                plans.setdefault((g.task, "source"), {}).setdefault(g.checkpoint, []).append(c)
            elif kind in ("reconstruction", "implementation"):
                plans.setdefault((g.task, c), {}).setdefault(g.checkpoint, [])
    driven: dict[tuple[str, str], dict[int, dict[str, Path]]] = {}

    async def body(get_browser: Any) -> None:
        for n, ((tid, page), steps) in enumerate(sorted(plans.items()), 1):
            where = work / "pages" / tid / page.replace(":", "_")
            done = where / "driven.json"
            plan = {str(k): sorted(v) for k, v in sorted(steps.items())}
            if done.is_file():
                prior = json.loads(done.read_text())
                have = prior.get("plan") or {}
                if all(set(v) <= set(have.get(k, ())) for k, v in plan.items() if k in have) and set(plan) <= set(have):
                    driven[(tid, page)] = {int(k): {v: Path(p) for v, p in d.items()} for k, d in prior["shots"].items()}
                    continue
            if progress:
                progress(f"[{n}/{len(plans)}] {tid}: driving {page} to steps {sorted(steps)}")
            task = task_of(tid)
            kind = page.split(":", 1)[0]
            if page == "source":
                drive_task, bundle = task, oracle_bundle(task)
            elif kind == "reconstruction":
                drive_task, bundle = _reconstruction(tid, page.split(":", 1)[1], where / "page")
            else:
                root = fetch_package()
                entry = entry_for(root, page.split(":", 1)[1])
                if entry is None:
                    raise ValueError(f"todomvc has no runnable {page}")
                drive_task, bundle = task, PageBundle(root=root, entry=entry)
            t0 = time.monotonic()
            shots = await drive(await get_browser(), drive_task, bundle, where / "shots", steps)
            driven[(tid, page)] = shots
            done.write_text(json.dumps({"plan": plan, "shots": {str(k): {v: str(p) for v, p in d.items()}
                                                                 for k, d in shots.items()}}))
            if progress:
                progress(f"    {time.monotonic() - t0:.0f} s, reached steps {sorted(shots)[-1] if shots else 'none'}")

    from ._judge import with_browser

    if plans:
        await with_browser(body, browser)

    out: dict[str, dict[str, Path | None]] = {}
    for g in groups:
        task = task_of(g.task)
        gt = task.checkpoint(g.checkpoint)
        gdir = work / "groups" / g.id.replace("/", "_")
        gdir.mkdir(parents=True, exist_ok=True)
        with Image.open(gt) as im:
            size = im.size
        cands: dict[str, Path | None] = {}
        for c in g.candidates:
            kind, _, arg = c.partition(":")
            p: Path | None = None
            if kind == "identical":
                p = gt
            elif kind == "not-reacted":
                p = task.checkpoint(g.checkpoint - 1) if g.checkpoint > 0 else None
            elif kind == "blank":
                p = gdir / "blank.png"
                if not p.is_file():
                    _white(size).save(p)
            elif kind == "unrelated":
                p = task_of(arg).checkpoint(int(g.extra.get("unrelated_checkpoint", 0)))
            elif kind in SOURCE_VARIANTS:
                p = driven.get((g.task, "source"), {}).get(g.checkpoint, {}).get(c)
            else:
                p = driven.get((g.task, c), {}).get(g.checkpoint, {}).get("page")
            cands[c] = p if p is not None and Path(p).is_file() else None
        out[g.id] = cands
    return out


# --------------------------------------------------------------------------- scoring


def metric_scores(metric: str, gt: Any, cand: Any, prev: Any, ocr: Any, cache: dict) -> float:
    """One candidate's score on ``metric``: ``visual`` (the default visual similarity), ``hvs``
    (the offline rubric, 0-1), ``lvs``, ``vfs``, ``ocr``, a visual backend's name, or a rubric
    part (``content``, ``layout``, ``style``, ``elements``, ``global``)."""
    from ..metrics import compare, get_visual

    if metric in ("visual", "lvs", "hvs", "vfs", "ocr", "content", "layout", "style", "elements", "global"):
        key = ("compare", id(gt), id(cand))
        if key not in cache:
            cache[key] = compare(gt, cand, ocr=ocr, visual=cache.setdefault("_blocks", get_visual("blocks", ocr=ocr)),
                                 prev=prev)
        r = cache[key]
        if metric == "visual":
            return float(r["visual"])
        if metric == "ocr":
            return float(r["ocr"])
        if metric == "lvs":
            return float(r["low_level"])
        if metric == "hvs":
            return float(r["high_level"]) / 100.0
        if metric == "vfs":
            return 0.5 * float(r["low_level"]) + 0.5 * float(r["high_level"]) / 100.0
        return float(r["visual_parts"][metric])
    backend = cache.setdefault(("backend", metric), get_visual(metric))
    return float(backend.similarity(gt, cand))


def score_groups(groups: list[Group], images: dict[str, dict[str, Path | None]], tasks_dir: Path,
                 metrics: list[str], *, progress: Progress | None = None) -> list[dict[str, Any]]:
    """Per group and metric: every candidate's score and Kendall tau-b against the written ordering."""
    from PIL import Image

    from ..metrics import get_ocr
    from ..tasks import load_task

    ocr = get_ocr()
    rows = []
    for g in groups:
        task = load_task(Path(tasks_dir) / g.task, require_video=False)
        gt = Image.open(task.checkpoint(g.checkpoint)).convert("RGB")
        prev_p = task.checkpoint(g.checkpoint - 1) if g.checkpoint > 0 else None
        prev = Image.open(prev_p).convert("RGB") if prev_p is not None and prev_p.is_file() else None
        cands = {c: Image.open(p).convert("RGB") for c, p in images[g.id].items() if p is not None}
        missing = [c for c, p in images[g.id].items() if p is None]
        cache: dict = {}
        row: dict[str, Any] = {"group": g.id, "split": g.split, "missing": missing, "scores": {}, "tau": {}}
        t0 = time.monotonic()
        for m in metrics:
            sc = {c: metric_scores(m, gt, im, prev, ocr, cache) for c, im in cands.items()}
            row["scores"][m] = {c: round(v, 4) for c, v in sc.items()}
            if g.ordering:
                row["tau"][m] = round(kendall_tau_b(g.rank(), sc), 4)
        if progress:
            progress(f"{g.id} ({g.split}): " + ", ".join(f"{m} tau {row['tau'].get(m, float('nan')):.2f}" for m in metrics)
                     + f"  [{time.monotonic() - t0:.0f} s]")
        rows.append(row)
    return rows


def summarise(rows: list[dict[str, Any]], metrics: list[str]) -> dict[str, Any]:
    out: dict[str, Any] = {}
    for m in metrics:
        s: dict[str, Any] = {}
        for split in ("tuning", "held-out", "all"):
            taus = [r["tau"][m] for r in rows if m in r["tau"] and (split == "all" or r["split"] == split)]
            if taus:
                s[split] = {"groups": len(taus), "mean_tau": round(sum(taus) / len(taus), 3), "min_tau": round(min(taus), 3)}
        out[m] = s
    return out


def not_reacted_margin(rows: list[dict[str, Any]], metric: str = "vfs") -> dict[str, Any]:
    """Where a group has a not-reacted candidate: its score against the best reconstruction /
    implementation that reacted, and against the identical page."""
    out = []
    for r in rows:
        sc = r["scores"].get(metric, {})
        if "not-reacted" not in sc:
            continue
        reacted = {c: v for c, v in sc.items() if c.startswith(("reconstruction:", "implementation:"))}
        out.append({"group": r["group"], "not_reacted": sc["not-reacted"], "identical": sc.get("identical"),
                    "reacted_best": max(reacted.values()) if reacted else None,
                    "reacted_worst": min(reacted.values()) if reacted else None})
    return {"metric": metric, "groups": out}


def checks(rows: list[dict[str, Any]], metric: str = "vfs") -> dict[str, Any]:
    """The issue's two checks on the calibration set: a page that did not react scores below the
    pages that did (the reconstructions and other implementations of the same step), and blurred
    text loses at least half of the content part."""
    nr = [(r["group"], r["scores"][metric]) for r in rows if "not-reacted" in r["scores"].get(metric, {})]
    below, margins, nr_v, re_v = 0, [], [], []
    for _, sc in nr:
        reacted = [v for c, v in sc.items() if c.startswith(("reconstruction:", "implementation:"))]
        if not reacted:
            continue
        nr_v.append(sc["not-reacted"])
        re_v += reacted
        margins.append(min(reacted) - sc["not-reacted"])
        below += all(v > sc["not-reacted"] for v in reacted)
    blurred = [r["scores"]["content"]["text-blurred"] for r in rows if "text-blurred" in r["scores"].get("content", {})]
    mean = lambda v: round(sum(v) / len(v), 3) if v else None  # noqa: E731
    return {"metric": metric, "not_reacted": {"groups": len(margins), "below_every_reacted": below,
                                              "mean_not_reacted": mean(nr_v), "mean_reacted": mean(re_v),
                                              "mean_margin_to_worst_reacted": mean(margins),
                                              "min_margin": round(min(margins), 3) if margins else None},
            "blurred_content": {"groups": len(blurred), "max": round(max(blurred), 3) if blurred else None,
                                "mean": mean(blurred), "at_most_half": sum(v <= 0.5 for v in blurred)}}


def markdown(summary: dict[str, Any], rows: list[dict[str, Any]], metrics: list[str]) -> str:
    lines = ["# Visual score against orderings written by a person", "",
             "| metric | tuning groups | mean tau | min | held-out groups | mean tau | min | all: mean tau |",
             "|---|---|---|---|---|---|---|---|"]
    for m in metrics:
        s = summary[m]
        t, h, a = s.get("tuning", {}), s.get("held-out", {}), s.get("all", {})
        lines.append(f"| {m} | {t.get('groups', 0)} | {t.get('mean_tau', '')} | {t.get('min_tau', '')} | "
                     f"{h.get('groups', 0)} | {h.get('mean_tau', '')} | {h.get('min_tau', '')} | {a.get('mean_tau', '')} |")
    if "vfs" in metrics and "content" in metrics:
        c = checks(rows)
        n, b = c["not_reacted"], c["blurred_content"]
        lines += ["", f"Not reacted (VFS): below every reacting reconstruction / implementation in {n['below_every_reacted']} "
                  f"of {n['groups']} groups; mean {n['mean_not_reacted']} vs {n['mean_reacted']} for the pages that "
                  f"reacted; margin to the worst reacting page: mean {n['mean_margin_to_worst_reacted']}, min {n['min_margin']}.",
                  f"Blurred text (content part, identical = 1): at most 0.5 in {b['at_most_half']} of {b['groups']} "
                  f"groups; mean {b['mean']}, max {b['max']}."]
    lines += ["", "## Per group", "", "| group | split | " + " | ".join(metrics) + " | missing |",
              "|---|---|" + "---|" * len(metrics) + "---|"]
    for r in rows:
        lines.append(f"| {r['group']} | {r['split']} | " + " | ".join(str(r['tau'].get(m, '')) for m in metrics)
                     + f" | {', '.join(r['missing'])} |")
    return "\n".join(lines) + "\n"


# --------------------------------------------------------------------------- contact sheets


def contact_sheet(gt: Path, cands: dict[str, Path | None], out: Path, *, width: int = 640) -> Path:
    """The reference and every candidate side by side, labelled (for writing the ordering)."""
    from PIL import Image, ImageDraw

    items = [("REFERENCE", gt)] + [(c, p) for c, p in cands.items() if p is not None]
    th = round(width * 9 / 16)
    cols = 3
    rows = (len(items) + cols - 1) // cols
    sheet = Image.new("RGB", (cols * (width + 8), rows * (th + 28)), (90, 90, 90))
    draw = ImageDraw.Draw(sheet)
    for i, (name, p) in enumerate(items):
        with Image.open(p) as im:
            t = im.convert("RGB").resize((width, th))
        x, y = (i % cols) * (width + 8), (i // cols) * (th + 28)
        sheet.paste(t, (x, y + 24))
        draw.text((x + 4, y + 6), name, fill=(255, 255, 0) if i == 0 else (255, 255, 255))
    out.parent.mkdir(parents=True, exist_ok=True)
    sheet.save(out)
    return out


# --------------------------------------------------------------------------- entry points

DEFAULT_METRICS = ["vfs", "visual", "hvs", "lvs", "hog-colour", "content"]


def run(tasks_dir: Path | None, out_dir: Path, *, only: list[str] | None = None, progress: Progress | None = None,
        groups_file: Path = DATA, metrics: list[str] | None = None) -> list[Verdict]:
    """The ``iwr validity --set visual`` entry: one Verdict per group (ok = tau-b >= 0.8 on VFS)."""
    if tasks_dir is None:
        raise ValueError("the visual set needs a built suite (--tasks)")
    metrics = metrics or DEFAULT_METRICS
    groups = [g for g in load_groups(groups_file) if g.ordering and (not only or g.task in only or g.id in only)]
    images = asyncio.run(build_candidates(groups, Path(tasks_dir), Path(out_dir) / "candidates", progress=progress))
    rows = score_groups(groups, images, Path(tasks_dir), metrics, progress=progress)
    summary = summarise(rows, metrics)
    Path(out_dir).mkdir(parents=True, exist_ok=True)
    (Path(out_dir) / "visual.json").write_text(json.dumps(
        {"summary": summary, "not_reacted": not_reacted_margin(rows), "checks": checks(rows), "rows": rows}, indent=1))
    (Path(out_dir) / "visual.md").write_text(markdown(summary, rows, metrics))
    out = []
    for g, r in zip(groups, rows):
        tau = r["tau"].get(metrics[0])
        out.append(Verdict(SET, g.task, g.id, 0, None, None, ok=tau is not None and tau >= MIN_TAU,
                           note=f"Kendall tau-b {metrics[0]} {tau}", extra={"batch": g.split, "tau": r["tau"],
                                                                           "missing": r["missing"]}))
    return out


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(prog="python -m iwrbench.validity.visual", description=__doc__.split("\n")[0])
    ap.add_argument("--tasks", required=True, help="the built default suite's tasks folder")
    ap.add_argument("--out", required=True, help="folder for candidates, sheets, visual.json and visual.md")
    ap.add_argument("--groups", default=str(DATA), help="the calibration set (default: the bundled one)")
    ap.add_argument("--group", action="append", help="only this group id (repeatable)")
    ap.add_argument("--split", choices=("tuning", "held-out"), help="only this split")
    ap.add_argument("--metric", action="append", help=f"metrics to rank with (default: {', '.join(DEFAULT_METRICS)})")
    ap.add_argument("--sheets", action="store_true", help="only build the candidates and draw contact sheets "
                    "(to write orderings: no metric is computed)")
    ap.add_argument("--report", action="store_true", help="only re-write visual.md from the visual.json in --out")
    a = ap.parse_args(argv)
    say = lambda m: print(m, flush=True)  # noqa: E731
    if a.report:
        data = json.loads((Path(a.out) / "visual.json").read_text())
        ms = list(data["summary"])
        text = markdown(data["summary"], data["rows"], ms)
        (Path(a.out) / "visual.md").write_text(text)
        print(text)
        return 0
    groups = load_groups(Path(a.groups))
    if a.group:
        groups = [g for g in groups if g.id in a.group]
    if a.split:
        groups = [g for g in groups if g.split == a.split]
    out = Path(a.out)
    images = asyncio.run(build_candidates(groups, Path(a.tasks), out / "candidates", progress=say))
    if a.sheets:
        from ..tasks import load_task

        for g in groups:
            task = load_task(Path(a.tasks) / g.task, require_video=False)
            p = contact_sheet(task.checkpoint(g.checkpoint), images[g.id], out / "sheets" / f"{g.id.replace('/', '_')}.png")
            say(f"{g.id}: {p}  (missing: {', '.join(c for c, v in images[g.id].items() if v is None) or 'none'})")
        return 0
    metrics = a.metric or DEFAULT_METRICS
    groups = [g for g in groups if g.ordering]
    rows = score_groups(groups, images, Path(a.tasks), metrics, progress=say)
    summary = summarise(rows, metrics)
    out.mkdir(parents=True, exist_ok=True)
    (out / "visual.json").write_text(json.dumps({"summary": summary, "not_reacted": not_reacted_margin(rows),
                                                 "checks": checks(rows) if "content" in metrics else None,
                                                 "rows": rows}, indent=1))
    (out / "visual.md").write_text(markdown(summary, rows, metrics))
    print(markdown(summary, rows, metrics))
    return 0 if summary.get(metrics[0], {}).get("all", {}).get("mean_tau", 0) >= MIN_TAU else 1


if __name__ == "__main__":
    sys.exit(main())
