"""``iwr record``: run a recipe on its source site and write a complete task folder.

Pass 1 records the video, assets, checkpoints, targets (with a crop of each) and what a person sees
before and after every action; from that, each step's *evidence* (see ``iwrbench.checks.evidence``):
the assertion's quoted phrases and the texts that appeared or disappeared, and where the screen
changed. Pass 2 replays the recipe with another random seed: a text that does not hold there too
depends on chance (or the clock); it is kept marked as chance evidence, which the judge asks only of a
page that has shown it follows the recording's chance, and any other evidence is dropped.
Probes (other typed text, or a trajectory of the recipe's own) are recorded the same way, twice.
An asserted step left without any evidence is an error: the recipe must say what to check.
Everything is written into a temporary folder beside the destination and renamed at the end.
"""

from __future__ import annotations

import asyncio
import gzip
import json
import os
import shutil
import time
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any, Callable

from ..timing import phase, timed
from ..version import __version__
from ..browser.player import RECORDER, RECORDER_QUICK, Pace, Rules, glide, locate, play
from ..browser.core import CLOCK_START, launch_browser, new_context
from ..browser.dom import DESCRIBE_JS, ELEMENT_STATE_JS, STATE_JS
from ..browser.host import host
from ..browser.settle import TIMERS_AFTER_ACTION_MS, TIMERS_AFTER_LOAD_MS, RequestTracker, settle, screenshot, wait_timers
from ..browser.view import read_view, shoot
from ..browser.world import WorldUnavailable, draws, read
from ..errors import RecordError
from ..fileio import make_temp_dir, replace_dir
from ..checks.author import derive_info, evaluate_all
from ..checks.evidence import (change_agrees, change_of, decisive, derive_texts, empty_change, judge_still,
                              judge_text)
from ..checks.view import View, contains_phrase, quoted_phrases
from ..records import (
    SCHEMA_VERSION,
    Action,
    BBox,
    Evidence,
    Probe,
    RecordingDetails,
    Target,
    Task,
    clip,
    step_text,
)
from ..sources import ResolvedSource, resolve_source
from .assets import AssetSniffer, render_composites, write_assets
from .probes import (REPLAYS, ProbePlan, decisive_step, derive_plans, guard_map, keep_decisive, other_text, plan_probes,  # noqa: F401 (other_text: a kept import path)
                     replay_states, unfair_quotes)
from .recipe import Recipe, RecipeAction
from .video import Timeline, encode

FPS = 10
HOLD_START_S = 1.0
HOLD_STEP_S = 0.7
HOLD_END_S = 1.0
SETTLE_TIMEOUT_MS = 8000
NAV_TIMEOUT_MS = 30000
#: pass 2 (and the second recording of a probe) runs with the recipe's seed plus this
OTHER_SEED = 7919
#: a target larger than this share of the viewport gets no crop (it would match anywhere)
MAX_CROP_SHARE = 0.25

Progress = Callable[[str], None]


# --------------------------------------------------------------------------- one pass

#: look-alike elements near a target (the same tag and classes, painted whole in the viewport: the topmost element at
#: their centre; enabled), up to three, each with the swap of a quoted name of the step's description that names it
#: (``quotes``): its own text, when the target's is quoted and each has a short text of its own shown once on the
#: page ('Too many courgettes' -> 'The first raspberries'); else the text of its surroundings that stands where a
#: quoted text stands around the target (the '+' of the 'Review' column -> the '+' of the 'Doing' column; the
#: 'Study' button of the 'At the café' deck -> that of the 'Travel phrases' deck). Nearest first (siblings, then up
#: to four levels up). Each gets a selector by position in the DOM (used on the source only, to record the derived
#: probe that acts on it)
NEIGHBOURS_JS = r"""({el, quotes}) => {
  const norm = (s) => (s || '').replace(/\s+/g, ' ').trim();
  const shown = (e) => norm(e.innerText !== undefined ? e.innerText : e.textContent);  // SVG has no innerText
  const low = (s) => s.toLowerCase();
  const own_text = (e) => norm(Array.from(e.childNodes).filter((n) => n.nodeType === 3).map((n) => n.textContent).join(' '));
  const own = shown(el);
  const out = {own, items: []};
  const qs = (quotes || []).map(norm).filter(Boolean);
  const sig = (e) => e.tagName + '|' + Array.from(e.classList).filter((c) => !/active|current|selected|hover|focus|open|show/i.test(c)).sort().join(' ');
  const want = sig(el);
  const r0 = el.getBoundingClientRect();
  const page = low(norm(document.body.innerText));
  const once = (t) => { const x = low(t); return page.indexOf(x) >= 0 && page.indexOf(x) === page.lastIndexOf(x); };
  const good = (t) => !!t && t.length <= 60 && !/['"\u2018\u2019\u201c\u201d]/.test(t);
  const path = (e) => {
    const parts = [];
    for (; e && e.nodeType === 1 && e !== document.documentElement; e = e.parentElement) {
      let i = 1;
      for (let s = e.previousElementSibling; s; s = s.previousElementSibling) i++;
      parts.unshift(e.tagName.toLowerCase() + ':nth-child(' + i + ')');
    }
    return 'html > ' + parts.join(' > ');
  };
  const up = (e, n) => { for (let i = 0; i < n && e; i++) e = e.parentElement; return e; };
  // the target's own name, if the description quotes it
  const byName = qs.some((q) => low(q) === low(own)) && good(own);
  // a quoted text around the target: the smallest ancestor (up to six levels) holding an element that shows it
  let ctx = null;
  for (const q of qs) {
    if (low(q) === low(own)) continue;
    let a = el.parentElement;
    for (let d = 1; d <= 6 && a && a !== document.body && !ctx; d++, a = a.parentElement) {
      for (const x of a.querySelectorAll('*')) {
        if (x.contains(el)) continue;
        // an element showing the quote, or whose own text (beside its children's: a heading with a badge) is it
        const how = low(own_text(x)) === low(q) ? 'own' : (low(shown(x)) === low(q) && !Array.from(x.children).some((y) => low(shown(y)) === low(q))) ? 'all' : null;
        if (how) { ctx = {q, depth: d, sig: sig(x), how}; break; }
      }
    }
    if (ctx) break;
  }
  const cx = r0.left + r0.width / 2, cy = r0.top + r0.height / 2;
  const seen = new Set([low(own)]);
  let anc = el.parentElement;
  for (let depth = 0; depth < 4 && anc && anc !== document.documentElement && out.items.length < 3; depth++, anc = anc.parentElement) {
    const level = [];
    for (const c of anc.querySelectorAll(el.tagName)) {
      if (c === el || c.contains(el) || el.contains(c) || sig(c) !== want) continue;
      if (c.disabled || c.getAttribute('aria-disabled') === 'true' || c.closest('[inert]')) continue;
      const r = c.getBoundingClientRect();
      if (r.width < 4 || r.height < 4 || r.left < 0 || r.top < 0 || r.right > innerWidth || r.bottom > innerHeight) continue;
      if (r.height > 3 * r0.height + 8 || r0.height > 3 * r.height + 8) continue;
      const hit = document.elementFromPoint(r.left + r.width / 2, r.top + r.height / 2);
      if (!hit || !(hit === c || c.contains(hit))) continue;
      let swap = null;
      const t = shown(c);
      if (byName && good(t) && low(t) !== low(own) && once(t)) swap = [own, t];
      else if (ctx) {
        const a = up(c, ctx.depth);
        if (a && !a.contains(el)) {
          const label = Array.from(a.querySelectorAll('*')).find((x) => !x.contains(c) && sig(x) === ctx.sig && shown(x));
          const n = label ? (ctx.how === 'own' ? own_text(label) : shown(label)) : '';
          if (good(n) && low(n) !== low(ctx.q) && once(n)) swap = [ctx.q, n];
        }
      }
      if (swap && !seen.has(low(swap[1]))) level.push({c, swap, d: Math.hypot(r.left + r.width / 2 - cx, r.top + r.height / 2 - cy)});
    }
    level.sort((x, y) => x.d - y.d);
    for (const {c, swap} of level) {
      if (out.items.length >= 3 || seen.has(low(swap[1]))) continue;
      seen.add(low(swap[1]));
      out.items.push({selector: path(c), old: swap[0], new: swap[1]});
    }
  }
  return out;
}"""


@dataclass
class StepRecord:
    target: Target | None = None
    info: list = field(default_factory=list)
    settled: dict = field(default_factory=dict)
    duration_s: float = 0.0
    #: a Select's menu: the labels of its options on the source (derived probes choose another one)
    options: list[str] = field(default_factory=list)
    #: a Click's or Hover's look-alike neighbours, as (selector, the quoted text of the step's description that
    #: names the target, the text that names the neighbour instead) (a derived probe acts on one instead)
    neighbours: list[tuple[str, str, str]] | None = None


@dataclass
class PassResult:
    steps: list[StepRecord]
    #: what a person sees: index 0 = the initial state, i = after action i (same for shots)
    views: list[View] = field(default_factory=list)
    shots: list[bytes] = field(default_factory=list)
    #: the screen just before action i, pointer already on its target (hover effects are not the action's)
    pre: dict[int, bytes] = field(default_factory=dict)
    frames: list[tuple[float, bytes]] = field(default_factory=list)
    timeline: Timeline = field(default_factory=Timeline)
    t0: float = 0.0
    t1: float = 0.0
    assets: list = field(default_factory=list)
    blocked: dict = field(default_factory=dict)
    url: str = ""
    seed: int = 1
    #: step index -> what kept the DOM changing when it was captured anyway (an endless animation)
    unsettled: dict[int, str] = field(default_factory=dict)
    #: step index -> a Press whose target did not hold the focus (the key went where the focus was)
    unfocused: dict[int, str] = field(default_factory=dict)
    #: wall-clock windows in which the page was photographed with its text made transparent (reading the view):
    #: the video's frames from them are left out
    blind: list[tuple[float, float]] = field(default_factory=list)
    #: random numbers the page drew in this pass (its documents summed); 0: another seed would change nothing
    draws: int = 0
    _last_draws: int = 0

    def count_draws(self, now: int) -> None:
        self.draws += now - self._last_draws if now >= self._last_draws else now  # a new document counts from 0
        self._last_draws = now

    def video_frames(self) -> list[tuple[float, bytes]]:
        """The screencast's frames, less those taken while the view was read."""
        return [f for f in self.frames if not any(a <= f[0] <= b + 0.05 for a, b in self.blind)]


#: does the element hold the focus (itself or something inside it, through open shadow roots)?
_HAS_FOCUS_JS = """(el) => { let a = document.activeElement;
  while (a && a.shadowRoot && a.shadowRoot.activeElement) a = a.shadowRoot.activeElement;
  if (!a || a === document.body || a === document.documentElement) {
    return el === document.body || el === document.documentElement || el.contains(document.body); }
  return el === a || el.contains(a) || (a.getRootNode && a.getRootNode().host && el.contains(a.getRootNode().host)); }"""


def _site_copy_ignore(root: Path, skipped: list[str]) -> Callable[[str, list[str]], set[str]]:
    """copytree's ``ignore`` for the recipe's site folder copied into reference/site: dot files, __pycache__, and
    links that leave the folder or point at a folder (a link to a file inside is copied as the file). A recipe
    is a stranger's: its site folder must not carry the recording machine's files into the task folder."""
    top = os.path.realpath(root)

    def ignore(d: str, names: list[str]) -> set[str]:
        out = {n for n in names if n.startswith(".") or n == "__pycache__"}
        for n in names:
            p = os.path.join(d, n)
            if n in out or not os.path.islink(p):
                continue
            real = os.path.realpath(p)
            if not (real == top or real.startswith(top + os.sep)) or not os.path.isfile(real):
                out.add(n)
                skipped.append(os.path.relpath(p, root))
        return out

    return ignore


async def _wait_timers(page: Any, tracker: RequestTracker, res: PassResult, i: int, since: float, horizon_ms: int) -> None:
    """After the DOM settled, wait for the work the page scheduled that the judge's clock runs before it shows step
    ``i`` (``settle.wait_timers``): a change made by a timer 600 ms after the action is recorded at this step, as
    the judge shows it. A page still animating at the horizon is recorded then (and noted, as an unsettled step)."""
    ck = await wait_timers(page, tracker, since=since, horizon_ms=horizon_ms)
    if ck is not None and ck.animating and i not in res.unsettled:
        res.unsettled[i] = ck.animating


def _animates(what: str) -> bool:
    """The page did not settle only because its DOM kept changing (a ticker, a progress loop): recorded anyway,
    with a warning; requests in flight or a document still loading remain errors."""
    return what.startswith("DOM kept changing")


async def _verified_role_name(page: Any, el: Any, desc: dict) -> tuple[str | None, str | None]:
    """The role + accessible name as Playwright computes them, when they find this element."""
    role, name = desc.get("role"), desc.get("name")
    if not role or not name or len(name) > 120:
        return role, None
    try:
        cands = await page.get_by_role(role, name=name, exact=True).element_handles()
        h = await el.element_handle()
        for c in cands[:20]:
            if await c.evaluate("(a, b) => a === b", h):
                return role, name
    except Exception:
        pass
    # Playwright's own view of the element: first line of its ARIA snapshot, `- role "name"`
    try:
        snap = (await el.aria_snapshot(timeout=2000)).splitlines()[0]
        import re

        m = re.match(r'\s*-\s*([a-z]+)\s+"((?:[^"\\]|\\.)*)"', snap)
        if m:
            r2, n2 = m.group(1), m.group(2).replace('\\"', '"')
            cands = await page.get_by_role(r2, name=n2, exact=True).count()
            if cands >= 1:
                return r2, n2
    except Exception:
        pass
    return role, None


async def _move(page: Any, tl: Timeline, to: tuple[float, float], animate: bool) -> None:
    await glide(page, tl, to, RECORDER.pace if animate else Pace())


async def _state(page: Any) -> dict:
    return await read(page, STATE_JS)


async def _shoot(page: Any, path: str | None, res: "PassResult") -> tuple[bytes, View]:
    """The screenshot of this moment (saved to ``path``) and what a person sees in it (the judge reads a page the
    same way). The text-free twin the reader needs is taken in the same hold: the video's frames of that window
    are left out."""
    t0 = time.time()
    try:
        shot, hidden = await shoot(page, path)
        return shot, View.from_js(await read_view(page, shot=shot, hidden=hidden))
    finally:
        res.blind.append((t0, time.time()))


async def _acted_state(page: Any, el: Any) -> dict | None:
    if el is None:
        return None
    try:
        return await read(page, ELEMENT_STATE_JS, el, timeout_s=2)
    except WorldUnavailable:
        raise
    except Exception:
        return None


async def _crop(page: Any, path: Path, vp: tuple[int, int], box: dict) -> None:
    """A picture of the target as it looked when acted on (for the judge's appearance rung), cut out of a
    viewport screenshot. Not ``locator.screenshot()``: Chromium takes a clipped screenshot by emulating a
    viewport of the clip's size, and the screencast recording the video sends a frame of that emulated view,
    which the video then showed as a full-screen zoom on the target (the element hovered or clicked next)."""
    if not box or box["width"] < 2 or box["height"] < 2:
        return
    if box["width"] * box["height"] > MAX_CROP_SHARE * vp[0] * vp[1]:
        return
    if box["x"] < 0 or box["y"] < 0 or box["x"] + box["width"] > vp[0] or box["y"] + box["height"] > vp[1]:
        return
    try:
        png = await page.screenshot(full_page=False, animations="disabled", caret="hide", timeout=3000, scale="css")
    except Exception:
        return
    import io
    import math

    from PIL import Image

    with Image.open(io.BytesIO(png)) as shot:
        x0, y0 = math.floor(box["x"]), math.floor(box["y"])
        x1 = min(shot.width, math.ceil(box["x"] + box["width"]))
        y1 = min(shot.height, math.ceil(box["y"] + box["height"]))
        shot.crop((x0, y0, x1, y1)).save(path)


async def _run_pass(browser: Any, recipe: Recipe, src: ResolvedSource, actions: list[RecipeAction], *, full: bool,
                    tmp: Path | None, progress: Progress | None, seed: int, label: str = "", describe: bool = True,
                    states: bool = True, rules: Rules | None = None) -> PassResult:
    """One replay of ``actions`` on the source (``full``: the video pass, which also writes checkpoints, targets, the
    DOM snapshots and sniffs the assets). ``describe``: record each target (role, name, box: the main pass and probes
    with their own actions); ``states``: read the DOM facts the recorder derives information from (the main pass
    and the passes with other seeds; a probe reads them only for its author's checks). ``rules``: how actions are
    played (default: the recorder's, at a person's pace on the video pass)."""
    vp = (recipe.viewport.width, recipe.viewport.height)
    steps: list[StepRecord] = []
    res = PassResult(steps=steps, seed=seed)
    P = "record.video_pass." if full else "record.pass."  # timing phases (iwrbench.timing)
    with host(src.bundle) as (url, origins):
        res.url = url
        ctx, net = await new_context(browser, vp, allowed_origins=origins, seed=seed,  # the judge's start too
                                     freeze_time=recipe.freeze_time or CLOCK_START, watch_timers=True)
        try:
            page = await ctx.new_page()
            tracker = RequestTracker(page)
            sniffer = AssetSniffer(page) if full else None
            cdp = None
            if full:
                cdp = await ctx.new_cdp_session(page)

                def on_frame(params: dict) -> None:
                    import base64

                    res.frames.append((float(params["metadata"]["timestamp"]), base64.b64decode(params["data"])))
                    asyncio.ensure_future(cdp.send("Page.screencastFrameAck", {"sessionId": params["sessionId"]}))

                cdp.on("Page.screencastFrame", on_frame)
            t_open = time.monotonic()
            try:
                resp = await page.goto(url, wait_until="load", timeout=NAV_TIMEOUT_MS)
            except Exception as e:
                msg = str(e).strip().splitlines()[0] if str(e).strip() else e.__class__.__name__
                raise RecordError(f"cannot open {url}: {msg}") from None
            if resp is not None and resp.status >= 400:
                raise RecordError(f"cannot open {url}: HTTP {resp.status}")
            if cdp is not None:
                res.t0 = time.time()
                await cdp.send("Page.startScreencast", {"format": "jpeg", "quality": 85, "maxWidth": vp[0],
                                                        "maxHeight": vp[1], "everyNthFrame": 1})
            rep = await settle(page, tracker, timeout_ms=SETTLE_TIMEOUT_MS)
            if not rep.settled:
                if not _animates(rep.what):
                    raise RecordError(f"{label}step 0: the page never settled within {SETTLE_TIMEOUT_MS / 1000:.0f}s ({rep.what})")
                res.unsettled[0] = rep.what
            await _wait_timers(page, tracker, res, 0, t_open, TIMERS_AFTER_LOAD_MS)
            shot0, view0 = await _shoot(page, str(tmp / "checkpoints" / "step_0.png") if full and tmp else None, res)
            res.shots.append(shot0)
            res.views.append(view0)
            if full and tmp is not None:
                await _dom(page, tmp, 0)
                res.timeline.moves.append((time.time(), vp[0] * 0.5, vp[1] * 0.62))
                await page.mouse.move(vp[0] * 0.5, vp[1] * 0.62)
                await asyncio.sleep(HOLD_START_S)
            n = len(actions)
            for i, a in enumerate(actions, start=1):
                t_step = time.monotonic()
                if progress:
                    progress(f"{label}step {i}/{n}: {clip(step_text(a.type, a.description), 80)}")
                el = await timed(P + "locate", locate(page, i, a.target)) if a.target else None
                target = None
                if el is not None:
                    try:
                        await el.scroll_into_view_if_needed(timeout=3000)
                    except Exception:
                        pass
                if el is not None and describe:
                    desc = await timed(P + "describe", read(page, DESCRIBE_JS, el))
                    role, name = await timed(P + "describe", _verified_role_name(page, el, desc))
                    b = desc.get("bbox") or {}
                    target = Target(role=role, name=name, text=desc.get("text") or None, tag=desc.get("tag"),
                                    label=desc.get("label"), attributes=desc.get("attributes") or {},
                                    bbox=BBox(**b) if b else None, editable=bool(desc.get("editable")),
                                    selector=a.target)
                    if full and tmp is not None:
                        (tmp / "targets").mkdir(exist_ok=True)
                        await timed(P + "crop", _crop(page, tmp / "targets" / f"step_{i}.png", vp, b))
                options: list[str] = []
                if el is not None and a.type == "Select":
                    try:
                        options = await read(
                            page, "(s) => Array.from(s.options || []).filter(o => !o.disabled).map(o => o.label || o.text)",
                            el)
                    except WorldUnavailable:
                        raise
                    except Exception:
                        options = []
                neighbours = None
                if el is not None and full and a.type in ("Click", "Hover"):
                    try:
                        got = await timed(P + "describe", read(page, NEIGHBOURS_JS,
                                                               {"el": el, "quotes": quoted_phrases(a.description)}))
                        neighbours = [(str(x["selector"]), str(x["old"]), str(x["new"])) for x in got.get("items") or []][:3]
                    except WorldUnavailable:
                        raise
                    except Exception:
                        neighbours = None
                reads_after = states or a.checks is not None
                before = await timed(P + "state", _state(page)) if states else {}
                acted_before = await timed(P + "state", _acted_state(page, el)) if states else None
                if el is not None and a.type in ("Click", "Type", "Select"):
                    box = await el.bounding_box()
                    if box is not None:
                        await _move(page, res.timeline, (box["x"] + box["width"] / 2, box["y"] + box["height"] / 2), full)
                        await asyncio.sleep(0.05)
                        res.pre[i] = await timed(P + "screenshot", screenshot(page))
                if full and a.type == "Press" and el is not None:
                    # a key goes where the focus is, as in the judge (which grounds no element for a Press): the
                    # recorder's rules never move the focus for it (press_focus="no"), a person would have clicked
                    # or tabbed there first; the video pass notes a target without the focus for the warning
                    try:
                        has = await read(page, _HAS_FOCUS_JS, el)
                    except WorldUnavailable:
                        raise
                    except Exception:
                        has = True
                    if not has:
                        res.unfocused[i] = a.target or ""
                done = await timed(P + "play", play(page, a.action, el, vp, rules or (RECORDER if full else RECORDER_QUICK),
                                                    trace=res.timeline, step=i))
                if not done.executed:  # the recorder falls back on nothing: the recipe is wrong
                    raise RecordError(f"{label}step {i}: {a.type} failed: {done.reason(a.type)}")
                t_done = time.monotonic()
                rep = await timed(P + "settle", settle(page, tracker, timeout_ms=SETTLE_TIMEOUT_MS, after_action=True))
                if not rep.settled:
                    if not _animates(rep.what):
                        raise RecordError(f"{label}step {i}: the page never settled within {SETTLE_TIMEOUT_MS / 1000:.0f}s "
                                          f"after the action ({rep.what})")
                    res.unsettled[i] = rep.what
                await timed(P + "timers", _wait_timers(page, tracker, res, i, t_done, TIMERS_AFTER_ACTION_MS))
                after = await timed(P + "state", _state(page)) if reads_after else {}
                acted_after = await timed(P + "state", _acted_state(page, el)) if reads_after else None
                shot, view = await timed(P + "view", _shoot(page, str(tmp / "checkpoints" / f"step_{i}.png")
                                                            if full and tmp else None, res))
                res.shots.append(shot)
                res.views.append(view)
                try:
                    n_drawn = await draws(page)  # asked on the context's secret channel (world.draws)
                except WorldUnavailable:
                    raise
                except Exception:
                    n_drawn = None
                if n_drawn is None:
                    res.draws += 1  # unknown: as if it drew
                else:
                    res.count_draws(n_drawn)
                if a.checks is not None:  # an author's checks must hold on the source, read as the judge reads them
                    bad = [r for r in evaluate_all(list(a.checks), after, acted_after, view) if not r.passed]
                    if bad:
                        raise RecordError(f"{label}step {i}: reviewed check {bad[0].check.kind} does not hold: {bad[0].detail}")
                info = derive_info(before, after, acted_before, acted_after, target.name if target else None) if states else []
                steps.append(StepRecord(target=target, info=info, settled=rep.as_dict(),
                                        duration_s=time.monotonic() - t_step, options=list(options or [])[:50],
                                        neighbours=neighbours))
                if full and tmp is not None:
                    await timed(P + "dom", _dom(page, tmp, i))
                    await timed(P + "hold", asyncio.sleep(HOLD_STEP_S))
            if full:
                await asyncio.sleep(HOLD_END_S)
                res.t1 = time.time()
                if cdp is not None:
                    await cdp.send("Page.stopScreencast")
                if sniffer is not None:
                    await sniffer.drain()
                    res.assets = sniffer.items
            res.blocked = dict(net.blocked)
        finally:
            await ctx.close()
    return res


async def _dom(page: Any, tmp: Path, i: int) -> None:
    try:
        html = await page.content()
    except Exception:
        return
    d = tmp / "reference" / "dom"
    d.mkdir(parents=True, exist_ok=True)
    (d / f"step_{i}.html.gz").write_bytes(gzip.compress(html.encode("utf-8"), mtime=0))


# --------------------------------------------------------------------------- evidence


def _check_key(c: Any) -> str:
    return c.model_dump_json()


def step_evidence(i: int, ra: RecipeAction, first: PassResult, others: list[PassResult], *,
                  with_change: bool = True, typed: list[str] | None = None, label: str = "",
                  wide: bool = False) -> Evidence:
    """Evidence for step ``i`` from pass 1, kept where every other pass (another seed) agrees. ``wide``: every
    changed text (``derive_texts``), for a derived probe, which keeps only the ones that tell it from a replay."""
    if ra.unchanged:
        for p in [first, *others]:
            r = judge_still(p.pre.get(i, p.shots[i - 1]), p.shots[i])
            if not r.passed:
                what = (r.detail or "").split(";")[0]
                raise RecordError(f"{label}step {i}: marked 'unchanged', but on the source it {what} (seed {p.seed}); "
                                  "drop 'unchanged' or pick an action that changes nothing")
        return Evidence(still=True, notes=["the recording changed nothing here: the page must not change either"])
    shown = {x for x in (typed or []) if any(v.count(x) > 0 for v in first.views[:i])}
    d = derive_texts(first.views[i - 1], first.views[i], ra.assertion, action_type=ra.type, typed=typed or [],
                     shown_typed=shown, wide=wide)
    notes = list(d.notes)
    texts = []
    for t in d.texts:
        failing = [o for o in others if not judge_text(t, o.views[i - 1], o.views[i]).passed]
        if failing:
            # chance, not behaviour: asked only of a page that follows the recording's chance (the judge decides)
            notes.append(f"chance: {t.kind} {t.text!r} not so with seed {failing[0].seed}")
            texts.append(t.model_copy(update={"chance": True}))
        else:
            texts.append(t)
    ev = Evidence(texts=texts, notes=notes)
    if with_change:
        ch = change_of(first.pre.get(i, first.shots[i - 1]), first.shots[i])
        if not empty_change(ch):
            ev.change = ch
            for o in others:
                if not change_agrees(ch, change_of(o.pre.get(i, o.shots[i - 1]), o.shots[i])):
                    ev.change_unstable = True
                    notes.append(f"the visual change differs with seed {o.seed}: not required")
                    break
    return ev


# --------------------------------------------------------------------------- probes


def _probe_actions(plan: ProbePlan, a_pass: PassResult, b_pass: PassResult | None,
                   main: list[Action]) -> tuple[list[Action], list[str]]:
    notes = []
    out: list[Action] = []
    others = [b_pass] if b_pass is not None else []
    typed: list[str] = []
    for j, ra in enumerate(plan.actions, start=1):
        if ra.type == "Type" and ra.text:
            typed.append(ra.text)
        ev = step_evidence(j, ra, a_pass, others, with_change=plan.kind in ("recipe", "derived"), typed=typed,
                           label=f"probe {plan.name}, ", wide=plan.kind == "derived")
        if plan.kind == "text":
            # an automatic probe only asks for what the new input must produce: the text echoed back
            echo, seen = [], set()
            for t in ev.texts:
                if t.chance:
                    continue
                if t.source == "echo" or (t.source == "assertion" and t.kind == "appears" and t.channel != "struck"
                                          and any(contains_phrase(t.text, new) for new in plan.replace.values())):
                    if t.text not in seen:
                        seen.add(t.text)
                        echo.append(t.model_copy(update={"source": "echo"}))
            ev.texts = echo
            ev.notes = []
        target = main[j - 1].target if plan.mirrors and j <= len(main) else a_pass.steps[j - 1].target
        # an automatic probe asks only for the echo of its text (no assertion of its own to decide)
        act = ra.action.model_copy(update=dict(visual_evaluation_flag=False, target=target, evidence=ev,
                                               logical_assertion=ra.assertion if plan.kind == "recipe" else None))
        missing = [n for n in ev.notes if n.startswith("quoted ")]
        if plan.kind == "recipe" and ra.assertion and missing and len(missing) >= len(quoted_phrases(ra.assertion)[:4]):
            raise RecordError(f"probe {plan.name}, step {j}: the assertion {ra.assertion!r} quotes nothing the source shows "
                              "in this probe; give the probe its own `actions:` with an assertion that holds there")
        if plan.kind == "recipe" and ra.assertion and not decisive(act, ev):
            raise RecordError(
                f"probe {plan.name}, step {j}: the assertion {ra.assertion!r} has no evidence on the source in this "
                "probe (no quoted phrase on screen, no text appeared or disappeared, no stable visual change); "
                "give the probe its own `actions:` with an assertion that holds there")
        out.append(act)
    if plan.kind == "text":
        last = max((j for j, a in enumerate(out, 1) if a.evidence and a.evidence.texts), default=0)
        if last == 0:
            notes.append(f"probe {plan.name}: the source shows none of the other text typed; probe dropped")
            return [], notes
        out = out[:last]
    return out, notes


def _changed_steps(p: PassResult) -> set[int]:
    """The steps after which the source showed other texts than before."""
    return {i for i in range(1, len(p.views)) if p.views[i].text() != p.views[i - 1].text()}


#: passes recorded at once beside the video pass (each in its own browser context; they mostly wait for the page)
PARALLEL_PASSES = 2
#: a derived probe (the recorder's guess at another path) gives up on a click or hover after this long: on a path the
#: source does not offer (a time slot still disabled before a room is chosen) Playwright's 30 s would be waited out;
#: a probe that fails so is not kept, as before
DERIVED_CLICK_TIMEOUT_MS = 5000
RECORDER_DERIVED = replace(RECORDER_QUICK, name="recorder-derived", click_timeout_ms=DERIVED_CLICK_TIMEOUT_MS)


async def _other_passes(browser: Any, recipe: Recipe, src: ResolvedSource, plans: list[ProbePlan], passes: int,
                        warnings: list[str], derived_log: list[str], progress: Progress | None, *,
                        main_seeds: bool = True,
                        ) -> tuple[list[PassResult], list[tuple[ProbePlan, PassResult, PassResult | None]]]:
    """The recipe again with other seeds (``main_seeds``), and every probe (twice: the recipe's seed and another),
    a few at a time."""
    sem = asyncio.Semaphore(PARALLEL_PASSES)

    async def one(actions: list[RecipeAction], seed: int, label: str, *, describe: bool, states: bool,
                  derived: bool = False) -> PassResult:
        async with sem:
            return await _run_pass(browser, recipe, src, actions, full=False, tmp=None, progress=None, seed=seed,
                                   label=label, describe=describe, states=states,
                                   rules=RECORDER_DERIVED if derived else None)

    seeds = [recipe.seed + OTHER_SEED * k for k in range(1, passes)] if main_seeds else []
    if progress:
        what = (f"replaying the recipe with seed(s) {', '.join(map(str, seeds))} (evidence that does not depend on "
                "chance) and " if seeds else "")
        progress(f"{what}recording {len(plans)} probe(s) on the source ({', '.join(p.name for p in plans) or '-'}), "
                 f"{PARALLEL_PASSES} passes at a time")
    # each probe once with the recipe's seed, and again with another only where the page drew random numbers: a page
    # that draws none shows the same whatever the seed
    main_jobs = [one(recipe.actions, seed, "", describe=False, states=True) for seed in seeds]
    probe_jobs = [one(plan.actions, recipe.seed, f"probe {plan.name}: ", describe=not plan.mirrors, states=False,
                      derived=plan.kind == "derived") for plan in plans]
    done = await asyncio.gather(*main_jobs, *probe_jobs, return_exceptions=True)
    for r in done:
        if isinstance(r, BaseException) and not isinstance(r, RecordError):
            raise r
    again = [j for j, r in enumerate(done[len(seeds):]) if passes > 1 and isinstance(r, PassResult) and r.draws > 0]
    second = await asyncio.gather(*(one(plans[j].actions, recipe.seed + OTHER_SEED, f"probe {plans[j].name}: ",
                                        describe=False, states=False, derived=plans[j].kind == "derived")
                                    for j in again), return_exceptions=True)
    for r in second:
        if isinstance(r, BaseException) and not isinstance(r, RecordError):
            raise r
    seconds = dict(zip(again, second))
    others: list[PassResult] = []
    for k, (seed, r) in enumerate(zip(seeds, done[:len(seeds)]), start=2):
        if isinstance(r, RecordError):
            warnings.append(f"pass {k} with seed {seed} failed ({r}); evidence checked with the same seed only")
            r = await one(recipe.actions, recipe.seed, "", describe=False, states=True)
        others.append(r)  # type: ignore[arg-type]
    out: list[tuple[ProbePlan, PassResult, PassResult | None]] = []
    rest = done[len(seeds):]
    for j, plan in enumerate(plans):
        got = [rest[j], *([seconds[j]] if j in seconds else [])]
        err = next((r for r in got if isinstance(r, RecordError)), None)
        if err is not None:
            if plan.kind == "recipe":
                raise err
            if plan.kind == "derived":
                derived_log.append(f"{plan.name} ({plan.why}): not kept, the source cannot play it ({err})")
            else:
                warnings.append(f"probe {plan.name} dropped: {err}")
            continue
        out.append((plan, got[0], got[1] if len(got) > 1 else None))  # type: ignore[arg-type]
    return others, out


#: derived probes tried first (the rest only when these leave main steps unguarded)
FIRST_DERIVED = ("derived-skip-1", "derived-idle-key-")


def _main_actions(recipe: Recipe, first: PassResult, others: list[PassResult], warnings: list[str],
                  ) -> tuple[list[Action], list[str]]:
    """The task's actions with the evidence of the main recording (kept where the other seeds agree), and the texts
    typed in it."""
    actions: list[Action] = []
    typed: list[str] = []
    cue_at = {step: round(max(0.0, t - first.t0), 3) for t, step in first.timeline.marks}
    for i, (ra, st) in enumerate(zip(recipe.actions, first.steps), start=1):
        if ra.type == "Type" and ra.text:
            typed.append(ra.text)
        info = st.info
        for o in others:
            keep = {_check_key(c) for c in o.steps[i - 1].info}
            info = [c for c in info if _check_key(c) in keep]
        ev = step_evidence(i, ra, first, others, typed=typed)
        action = ra.action.model_copy(update=dict(checkpoint_screenshot=f"checkpoints/step_{i}.png",
                                                  target=st.target, evidence=ev, info=info,
                                                  video_time_s=cue_at.get(i)))
        for n in ev.notes:
            if n.startswith("quoted "):
                warnings.append(f"step {i}: the assertion {ra.assertion!r}: {n} on the source, so the judge cannot "
                                "ask a page for it; check the recipe's wording")
        if ra.assertion and not decisive(action, ev):
            raise RecordError(
                f"step {i}: the assertion {ra.assertion!r} has no evidence the judge can check (no quoted phrase "
                "on screen, no text appeared or disappeared, no stable visual change); write `checks:` for it, "
                "or drop the assertion")
        actions.append(action)
    return actions, typed


#: at most this many derived probes are kept (each is replayed on every judged page)
MAX_DERIVED = 3


def _build_probes(recipe: Recipe, probe_passes: list[tuple[ProbePlan, PassResult, PassResult | None]],
                  actions: list[Action], first: PassResult, typed: list[str], warnings: list[str],
                  derived_log: list[str]) -> tuple[list[Probe], list[str], list[int]]:
    """The probes of the task from their recordings: a recipe's own probe only when it asks what the recording
    showed; a derived one only when a replay of the recording fails it (cut at that step), and only as many as guard
    steps no other probe guards against some shape of replay (``probes.REPLAYS``; the earliest guard first, then the
    shortest). Returns the probes, the lines that say which main steps each one guards, and the main steps left
    unguarded against some shape."""
    probes: list[Probe] = []
    derived: list[tuple[int, int, Probe]] = []
    #: per shape of replay, each probe's decisive step against it (None: that replay passes it)
    decides: dict[str, dict[str, int | None]] = {shape: {} for shape in REPLAYS}
    n = len(actions)
    for plan, pa, pb in probe_passes:
        if plan.kind == "recipe":
            bad = unfair_quotes(plan, first.views)
            if bad is not None:
                raise RecordError(f"probe {plan.name}, step {bad[0]}: its assertion quotes {bad[1]!r}, which no screen of "
                                  "the recording shows; a probe may ask only what the video showed a person (the same "
                                  "controls, the same texts, the response to other input of the same kind)")
        try:
            acts, notes = _probe_actions(plan, pa, pb, actions)
        except RecordError as e:
            if plan.kind != "derived":
                raise
            # the recorder's own guess did not hold on the source (a key it thought unused changed the page in
            # one of the two passes): the probe is not kept, the task stands
            derived_log.append(f"{plan.name} ({plan.why}): not kept, {str(e).splitlines()[0][:200]}")
            continue
        warnings += notes
        if not acts:
            continue
        own = set(typed) | set(plan.replace.values()) | {a.text for a in plan.actions if a.type == "Type" and a.text}

        def against(cut: list[Action], plan: ProbePlan = plan, own: set[str] = own) -> dict[str, Any]:
            return {shape: decisive_step(cut, first.views, first.shots, fair_views=first.views, own_texts=own,
                                         states=replay_states(plan.actions[:len(cut)], recipe.actions, shape))
                    for shape in REPLAYS}

        if plan.kind == "derived":
            # cut where one shape of replay fails it; of the cuts, the one that the most shapes fail (then the first)
            best: tuple[int, list[Action], dict[str, Any], str] | None = None
            for shape, d in against(acts).items():
                if d.decisive is None:
                    continue
                cut = keep_decisive(acts, d.decisive, first.views, first.shots, fair_views=first.views, own_texts=own,
                                    states=replay_states(plan.actions[:len(acts)], recipe.actions, shape))
                ds = against(cut)
                beaten = sum(x.decisive is not None for x in ds.values())
                if best is None or beaten > best[0]:
                    best = (beaten, cut, ds, d.reason)
            if best is None:
                derived_log.append(f"{plan.name} ({plan.why}): not kept, a replay of the recording passes it")
                continue
            _, cut, ds, reason = best
            shapes = [shape for shape, x in ds.items() if x.decisive is not None]
            derived_log.append(f"{plan.name} ({plan.why}): {reason} (fails a replay {' and '.join(_SHAPE_WORDS[x] for x in shapes)})")
            derived.append((plan.guards, len(cut), Probe(
                name=plan.name, kind="derived", guards=plan.guards, mirrors=plan.mirrors, replace=plan.replace,
                actions=cut, step_mirrors=list(plan.step_mirrors[:len(cut)]))))
            for shape, x in ds.items():
                decides[shape][plan.name] = x.decisive
            continue
        ds = against(acts)
        for shape, x in ds.items():
            decides[shape][plan.name] = x.decisive if x.kept else None
        if all(x.decisive is None for x in ds.values()) and plan.kind != "text":
            warnings.append(f"probe {plan.name}: a page that replays the recording passes it, so it guards no step "
                            "(ask, early in it, something whose answer differs from the recorded state at that point)")
        probes.append(Probe(name=plan.name, kind=plan.kind, guards=plan.guards, mirrors=plan.mirrors,  # type: ignore[arg-type]
                            replace=plan.replace, actions=acts,
                            step_mirrors=list(plan.step_mirrors[:len(acts)]) if plan.step_mirrors else []))
    derived.sort(key=lambda x: (x[0], x[1]))

    def maps(ps: list[Probe]) -> dict[tuple[str, bool], dict[int, list[str]]]:
        # each replay shape, as a page that stops where the probe's decisive step mirrors a main step (the judge's
        # waiver) and as one that passes the whole main trajectory (capped at the probe's guards)
        return {(shape, w): guard_map(ps, n, decides[shape], waiver=w) for shape in REPLAYS for w in (True, False)}

    kept: list[Probe] = []
    for _, _, p in derived:
        gms = maps(probes + kept)
        if len(kept) < MAX_DERIVED and any(decides[shape].get(p.name) is not None and not gm[i]
                                           for (shape, _), gm in gms.items() for i in range(p.guards, n + 1)):
            kept.append(p)
            derived_log.append(f"{p.name}: kept")
        else:
            derived_log.append(f"{p.name}: not kept, the steps it guards are guarded already")
    # a kept one that the later ones made redundant (every step it guards, against each shape, is guarded without
    # it) is dropped: each probe is replayed on every judged page
    def covered(ps: list[Probe]) -> list[set[int]]:
        return [{i for i, names in gm.items() if names} for gm in maps(ps).values()]

    for p in list(kept):
        rest = [x for x in kept if x is not p]
        if covered(probes + rest) == covered(probes + kept):
            kept = rest
            derived_log.append(f"{p.name}: dropped again, the probes kept after it guard its steps")
    probes += kept
    every = maps(probes)
    gms = {shape: gm for (shape, w), gm in every.items() if w}
    lines = []
    for p in probes:
        spans = {shape: _span([i for i in gms[shape] if p.name in gms[shape][i]]) for shape in REPLAYS}
        said = spans[REPLAYS[0]] if len(set(spans.values())) == 1 else \
            "; ".join(f"against a replay {_SHAPE_WORDS[shape]}: {spans[shape]}" for shape in REPLAYS)
        whole = {_span([i for i, names in every[(shape, False)].items() if p.name in names]) for shape in REPLAYS}
        if len(whole) == 1 and whole != {spans[REPLAYS[0]]} and len(set(spans.values())) == 1:
            said += f" ({whole.pop()} on a page that passes every main step: the steps before its decisive one stay " \
                    "open only to a page that also fails the main step that one asks about)"
        lines.append(f"probe {p.name} ({p.kind}, {len(p.actions)} step(s)) guards main steps {said}")
    open_by = {shape: [i for i in range(1, n + 1) if not gms[shape][i]] for shape in REPLAYS}
    open_steps = sorted(set().union(*open_by.values()))
    if open_steps:
        against = "; ".join(f"{_span(steps)} against a replay {_SHAPE_WORDS[shape]}"
                            for shape, steps in open_by.items() if steps)
        warnings.append(f"main step(s) {_span(open_steps)} guarded by no probe against some page that replays the "
                        f"recording ({against}): such a page earns them (the cheat check below says how much); a probe "
                        "of the recipe's own can guard them (docs/recipes.md, \"Probes\")")
    else:
        lines.append(f"every main step (1-{n}) is guarded by a probe")
    return probes, lines, open_steps


#: how ``iwr record`` names each shape of replaying page
_SHAPE_WORDS = {"order": "in order (the next state on any event)",
                "kind": "by kind of event (the next state on the recorded kind of event only)"}


def _span(steps: list[int]) -> str:
    """1, 2, 3, 5 -> '1-3, 5'."""
    if not steps:
        return "none"
    out, start, prev = [], steps[0], steps[0]
    for x in steps[1:] + [None]:  # type: ignore[list-item]
        if x is not None and x == prev + 1:
            prev = x
            continue
        out.append(f"{start}-{prev}" if prev != start else f"{start}")
        if x is not None:
            start = prev = x
    return ", ".join(out)


# --------------------------------------------------------------------------- public


async def record_async(recipe: Recipe, out: Path, *, progress: Progress | None = None, passes: int = 2,
                       overwrite: bool = True, fps: int = FPS) -> Task:
    from playwright.async_api import async_playwright

    out = Path(out).resolve()
    if out.exists() and not overwrite:
        raise RecordError(f"{out} exists; remove it or pass --force")
    out.parent.mkdir(parents=True, exist_ok=True)
    src = resolve_source(recipe)
    t_start = time.monotonic()
    tmp = make_temp_dir(f".{out.name}.tmp-", out.parent)  # renamed to out: mkdir's mode, not 0700
    warnings: list[str] = []
    try:
        (tmp / "checkpoints").mkdir()
        (tmp / "reference").mkdir()
        plans = plan_probes(recipe)
        probe_passes: list[tuple[ProbePlan, PassResult, PassResult | None]] = []
        derived_log: list[str] = []
        async with async_playwright() as pw:
            browser = await launch_browser(pw)
            try:
                # the video pass runs in real time (the pointer's moves, typing at a person's pace, holds between
                # steps) and mostly waits: the other seed's pass, the recipe's probes and the derived probes that need
                # nothing from it are recorded meanwhile
                early = [p for p in derive_plans(recipe) if p.name.startswith(FIRST_DERIVED)]
                video = asyncio.ensure_future(timed("record.video_pass", _run_pass(
                    browser, recipe, src, recipe.actions, full=True, tmp=tmp, progress=progress, seed=recipe.seed)))
                rest = asyncio.ensure_future(timed("record.other_passes", _other_passes(
                    browser, recipe, src, plans + early, passes, warnings, derived_log, progress)))
                try:
                    first = await video
                except BaseException:
                    rest.cancel()
                    await asyncio.gather(rest, return_exceptions=True)
                    raise
                others, probe_passes = await rest
                derived = derive_plans(recipe, options={i: st.options for i, st in enumerate(first.steps, 1) if st.options},
                                       changed=_changed_steps(first),
                                       neighbours={i: st.neighbours for i, st in enumerate(first.steps, 1) if st.neighbours})
                later = [p for p in derived if not p.name.startswith(FIRST_DERIVED)]
                actions, typed = _main_actions(recipe, first, others, warnings)
                with phase("record.probes"):
                    probes, guard_lines, open_steps = _build_probes(recipe, probe_passes, actions, first, typed,
                                                                    list(warnings), list(derived_log))
                # more derived candidates, only while some main step is unguarded, and only those that can guard
                # it (a probe guards no step before the one it departs at)
                later = [p for p in later if any(i >= p.guards for i in open_steps)]
                if later:
                    _, more = await timed("record.other_passes", _other_passes(
                        browser, recipe, src, later, passes, warnings, derived_log, progress, main_seeds=False))
                    probe_passes += more
                with phase("record.probes"):
                    probes, guard_lines, open_steps = _build_probes(recipe, probe_passes, actions, first, typed,
                                                                    warnings, derived_log)
                if progress:
                    progress("encoding video and asset composites")
                with phase("record.assets"):
                    manifest = write_assets(first.assets, tmp / "assets", tmp / "reference")
                    await render_composites(browser, manifest, tmp / "assets", tmp / "stitched_assets")
                version = browser.version
            finally:
                await browser.close()
        vp = (recipe.viewport.width, recipe.viewport.height)
        n_frames, duration = await timed("record.encode", asyncio.to_thread(
            encode, first.video_frames(), first.t0, first.t1, vp, tmp / "video.mp4", fps=fps, timeline=first.timeline))
        for i, sel in sorted(first.unfocused.items()):
            warnings.append(f"step {i}: the Press's target {sel!r} did not have the focus, so the key went where the "
                            "focus was (as it does when the judge replays it); if it was meant for that element, click "
                            "it (or Tab to it) in a step before")
        for i, what in sorted(first.unsettled.items()):
            warnings.append(f"step {i}: the page never stopped changing ({what}); its checkpoint shows one moment of "
                            "an animation, and the judge shows the rebuilt page at a fixed virtual time")
        task = Task(id=recipe.id, schema_version=SCHEMA_VERSION, source_website=src.label,
                    classification=recipe.classification,
                    recording_details=RecordingDetails(resolution=f"{vp[0]}x{vp[1]}",
                                                       environment=f"Chromium {version} headless; iwrbench {__version__}",
                                                       fps=fps, duration_s=round(duration, 2),
                                                       seed=recipe.seed, freeze_time=recipe.freeze_time),
                    action_sequence=actions, probes=probes)
        ref = tmp / "reference"
        if src.site_dir is not None:
            skipped: list[str] = []
            shutil.copytree(src.site_dir, ref / "site", ignore=_site_copy_ignore(Path(src.site_dir), skipped))
            if skipped:
                warnings.append("reference/site: links not copied (a task folder holds no links; one to a file inside "
                                f"is copied as the file): {', '.join(skipped[:5])}")
        if src.bundle.data is not None:
            (ref / "data").mkdir(exist_ok=True)
            shutil.copy2(src.bundle.data, ref / "data" / src.bundle.data.name)
        (ref / "source.json").write_text(src.spec.model_dump_json(indent=1, exclude_none=True))
        recipe_file = recipe.source_file
        (ref / "recipe.json").write_text(recipe.model_dump_json(indent=1, by_alias=True, exclude_none=True))
        if recipe_file is not None and recipe_file.exists():
            shutil.copy2(recipe_file, ref / "recipe.yaml")
        if recipe.source.kind == "url":
            warnings.append("the source is a `url:`: replaying this task later (iwr validate --oracle) needs that server "
                            "up and unchanged; a `site:` folder or an `npm:`/`pypi:` package keeps the task self-contained")
        for host, n in sorted(first.blocked.items()):
            warnings.append(f"blocked {n} request(s) to {host} while recording (only the source's origin is reached): "
                            "the recording shows the page without them")
        (ref / "record.json").write_text(json.dumps({
            "iwrbench": __version__, "browser": version, "passes": passes, "fps": fps, "frames": n_frames,
            "screencast_frames": len(first.frames), "seconds": round(time.monotonic() - t_start, 2),
            "step_seconds": [round(s.duration_s, 3) for s in first.steps], "warnings": warnings,
            "seeds": [first.seed] + [o.seed for o in others],
            "blocked_requests": first.blocked, "url": first.url, "probes": guard_lines,
            "derived_probes": derived_log,
        }, indent=1))
        (tmp / "task.json").write_text(task.model_dump_json(indent=1, exclude_none=True))
        # atomically replace the destination
        replace_dir(tmp, out)
    except BaseException:
        shutil.rmtree(tmp, ignore_errors=True)
        raise
    if progress:
        for line in derived_log:
            progress(f"derived probe {line}")
        for line in guard_lines:
            progress(line)
        for w in warnings:
            progress(f"warning: {w}")
    return task.bind(out)


def record(recipe: Recipe, out: Path, **kw: Any) -> Task:
    return asyncio.run(record_async(recipe, out, **kw))
