"""Evidence (a): the judge on independent implementations of one app, TodoMVC.

The ``todomvc`` npm package (0.1.1) ships about 70 implementations of one spec under
``examples/<name>/index.html``: the same look and behaviour, written by different people, so
their DOMs differ. A judge that is right passes every implementation that behaves like the
recording, whatever its markup, and fails the ones that do not.

Three parts, kept apart:

1. **Listing** (:func:`list_implementations`): which implementations run here. The package root
   is served on 127.0.0.1, each ``examples/<name>/index.html`` is opened in a contained context
   (every other origin blocked); an implementation *runs* when its new-todo field appears and
   adding one todo shows it in the list. The others are kept with the reason (no index.html,
   no field, needs the network, needs a build step, script errors, adding did not work).
2. **Truth** (:func:`probe`): a spec-level probe drives each task's steps the way the TodoMVC
   spec defines the app -- the spec's ids/classes (``#new-todo``/``.new-todo``,
   ``#toggle-all``/``.toggle-all``, the filter links by name, ``#clear-completed``/
   ``.clear-completed``), real key presses and clicks -- and after each step reads the
   *visible* state: the visible todo titles in order, which of them are struck through, the
   "N item(s) left" text, the selected filter, whether "Clear completed" and the footer show.
   What each step of each task must show is encoded below (:data:`SPECS`) from the task's
   ``logical_assertion`` in those terms. Truth = the number of leading steps that hold. The
   probe may use the spec's ids and classes; the judge never does.
3. **Judging** (:func:`run`): each implementation is judged exactly as a model's page
   (``judge_unit`` with the ``offline`` protocol, the package root as the page bundle), and
   its prefix of passed steps is compared with the truth: one :class:`Verdict` per
   (task, implementation).

``python -m iwrbench.validity.todomvc --tasks SUITE_TASKS --out DIR [--only NAME...]`` runs it
and prints the agreement; ``DIR`` then holds, per task and implementation, the probe's
screenshots and state (``probe/``) and the judge's shots and result (``judge/``).
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import json
import re
import sys
import time
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Any, Callable, Iterable

from . import Verdict

PACKAGE = "todomvc"
VERSION = "0.1.1"
SHA256 = "fd6f05a878cddee9b987ee449d8defa447d087d6b6ffc1d816bbb2cd64a6705f"
SET = "todomvc"

Progress = Callable[[str], None]

#: how long an implementation may take to show its new-todo field (some load many scripts)
FIELD_TIMEOUT_MS = 10_000
#: how long the probe waits for a step's expected state to appear after the page settled
EXPECT_WAIT_S = 2.5
LISTING_VIEWPORT = (1280, 720)
LISTING_TODO = "Probe the listing"


# --------------------------------------------------------------------------- the spec, per task


@dataclass(frozen=True)
class Op:
    """One step in spec terms: what to do and what must be visible afterwards.

    ``op``: ``type`` (text into the new-todo field), ``enter`` (Enter in that field),
    ``toggle_all``, ``filter`` (the filter link named ``arg``), ``clear`` (Clear completed).
    ``expect`` keys (all optional; only those given are checked):
    ``field`` the new-todo field's value; ``titles`` the visible todo titles in order;
    ``done`` the visible titles that are struck through (in order); ``left`` N, for the
    footer text "N item left" / "N items left"; ``clear`` False = no Clear completed shown,
    an int N = shown and reading "Clear completed (N)"; ``footer`` whether the footer shows.
    A step with no ``expect`` holds when its action could be done (the judge's rule for
    steps without an assertion).
    """

    op: str
    arg: str | None = None
    expect: dict[str, Any] = field(default_factory=dict)


def _t(text: str) -> Op:
    return Op("type", text, {"field": text})


def _enter(**expect: Any) -> Op:
    return Op("enter", None, expect)


def _toggle(**expect: Any) -> Op:
    return Op("toggle_all", None, expect)


def _filter(name: str, **expect: Any) -> Op:
    return Op("filter", name, expect)


def _clear(**expect: Any) -> Op:
    return Op("clear", None, expect)


_W, _P, _B = "Water the plants", "Pay the electricity bill", "Book a table for Friday"
_D, _O, _R = "Draft the quarterly report", "Order printer toner", "Reply to the landlord"
_M, _F, _L = "Buy oat milk", "Fix the squeaky door", "Return library books"

#: per task, per action: the spec op and what the step's assertion means in visible state
SPECS: dict[str, list[Op]] = {
    "tp-todomvc-vanillajs": [
        _t(_W),
        # "A todo 'Water the plants' appears in the list and the footer reads '1 item left'"
        _enter(titles=[_W], left=1),
        _t(_P),
        # "A second todo 'Pay the electricity bill' appears and the footer reads '2 items left'"
        _enter(titles=[_W, _P], left=2),
        # "Both todos are struck through, the footer reads '0 items left' and a 'Clear completed (2)' button appears"
        _toggle(titles=[_W, _P], done=[_W, _P], left=0, clear=2),
        _t(_B),
        # "'Book a table for Friday' is added, not struck through, and the footer reads '1 item left'"
        _enter(titles=[_W, _P, _B], done=[_W, _P], left=1),
        # "Only 'Book a table for Friday' is listed"
        _filter("Active", titles=[_B]),
        # "Only the two struck-through todos are listed"
        _filter("Completed", titles=[_W, _P], done=[_W, _P]),
        # "The completed list is empty and the 'Clear completed' button is gone"
        _clear(titles=[], clear=False),
    ],
    "tp-todomvc-knockoutjs": [
        _t(_M),
        # "A todo 'Buy oat milk' appears and the footer reads '1 item left'"
        _enter(titles=[_M], left=1),
        _t(_F),
        # "'Fix the squeaky door' is added and the footer reads '2 items left'"
        _enter(titles=[_M, _F], left=2),
        # "Both todos are struck through and the footer shows 'Clear completed (2)'"
        _toggle(titles=[_M, _F], done=[_M, _F], clear=2),
        # "The Active view shows no todos"
        _filter("Active", titles=[]),
        _t(_L),
        # "'Return library books' appears in the Active view and the footer reads '1 item left'"
        _enter(titles=[_L], left=1),
        # (no assertion)
        _clear(),
        # "Only 'Return library books' remains in the list"
        _filter("All", titles=[_L]),
    ],
    "tp-todomvc-backbone": [
        _t(_D),
        # "A todo 'Draft the quarterly report' appears and the footer reads '1 item left'"
        _enter(titles=[_D], left=1),
        _t(_O),
        _enter(),
        _t(_R),
        # "Three todos are listed and the footer reads '3 items left'"
        _enter(titles=[_D, _O, _R], left=3),
        # "All three todos are struck through, the footer reads '0 items left' and shows 'Clear completed (3)'"
        _toggle(titles=[_D, _O, _R], done=[_D, _O, _R], left=0, clear=3),
        # "No todo is struck through any more and the footer reads '3 items left'"
        _toggle(titles=[_D, _O, _R], done=[], left=3),
        # "The list is empty because nothing is completed"
        _filter("Completed", titles=[], left=3),
        # "The three todos reappear in the Completed view, struck through"
        _toggle(titles=[_D, _O, _R], done=[_D, _O, _R]),
        # "Every todo is gone and the list footer disappears"
        _clear(titles=[], footer=False),
    ],
}

TASK_IDS = tuple(SPECS)


def task_from_recipe(path: str | Path) -> Any:
    """A task's actions straight from its recipe, not recorded (no targets, checks, video or
    checkpoints): all the probe needs, so the truth can be had without a recording."""
    from ..record.recipe import load_recipe
    from ..records import RecordingDetails, Task

    r = load_recipe(path)
    acts = [a.action for a in r.actions]
    rd = RecordingDetails(resolution=f"{r.viewport.width}x{r.viewport.height}", seed=r.seed, freeze_time=r.freeze_time)
    return Task(id=r.id, recording_details=rd, action_sequence=acts).bind(Path(path).resolve().parent)


def spec_for(task: Any) -> list[Op]:
    """The encoded spec of a task, after checking it still matches the task's actions."""
    ops = SPECS.get(task.id)
    if ops is None:
        raise ValueError(f"no TodoMVC spec is encoded for task {task.id!r} (known: {', '.join(SPECS)})")
    acts = task.action_sequence
    if len(acts) != len(ops):
        raise ValueError(f"task {task.id} has {len(acts)} actions, its encoded spec {len(ops)} (the recipe changed?)")
    want_type = {"type": "Type", "enter": "Press", "toggle_all": "Click", "filter": "Click", "clear": "Click"}
    for i, (a, o) in enumerate(zip(acts, ops), start=1):
        desc = (a.parameters.description or "").lower()
        bad = None
        if a.type != want_type[o.op]:
            bad = f"is a {a.type}, the spec says {o.op}"
        elif o.op == "type" and (a.parameters.text or "") != o.arg:
            bad = f"types {a.parameters.text!r}, the spec {o.arg!r}"
        elif o.op == "enter" and (a.parameters.key or "Enter") != "Enter":
            bad = f"presses {a.parameters.key!r}, the spec Enter"
        elif o.op == "toggle_all" and "mark all" not in desc:
            bad = "does not describe the 'Mark all as complete' toggle"
        elif o.op == "filter" and f"'{(o.arg or '').lower()}'" not in desc:
            bad = f"does not describe the {o.arg!r} filter"
        elif o.op == "clear" and "clear completed" not in desc:
            bad = "does not describe the 'Clear completed' button"
        if bad:
            raise ValueError(f"task {task.id} step {i} {bad} (the recipe changed?)")
    return ops


# --------------------------------------------------------------------------- reading the visible state

#: spec selectors (ids in the 0.1.x spec, classes in later ones)
SEL_FIELD = "#new-todo, .new-todo"
SEL_TOGGLE_ALL = "#toggle-all, .toggle-all"
SEL_FILTER_LINKS = "#filters a, .filters a"
SEL_CLEAR = "#clear-completed, .clear-completed"

#: the parts of a TodoMVC app the probe reads, found by Playwright's selector engine (it runs
#: apart from the page's scripts and pierces shadow roots, so a Shadow DOM polyfill that wraps
#: ``document`` -- Polymer 0.x -- cannot hide the real elements)
STATE_PARTS = {
    "field": SEL_FIELD,
    "lists": "#todo-list, .todo-list",
    "labels": "#todo-list label, .todo-list label",
    "items": "#todo-list li, .todo-list li",
    "count": "#todo-count, .todo-count",
    "filters": SEL_FILTER_LINKS,
    "clear": SEL_CLEAR,
    "footer": "#footer, .footer",
    "toggle": SEL_TOGGLE_ALL,
}

#: what a person sees of those parts (argument: {part: [elements]}); only plain DOM getters
VISIBLE_STATE_JS = r"""
(parts) => {
  const norm = (s) => (s || '').replace(/\s+/g, ' ').trim();
  const up = (e) => e.parentElement || (e.parentNode && e.parentNode.host) || null;
  const vis = (e) => {
    if (!e || !e.isConnected) return false;
    const r = e.getBoundingClientRect();
    if (r.width < 1 || r.height < 1) return false;
    if (getComputedStyle(e).visibility !== 'visible') return false;
    for (let p = e; p; p = up(p)) {
      if (p.nodeType !== 1) break;
      const c = getComputedStyle(p);
      if (c.display === 'none' || parseFloat(c.opacity) === 0) return false;
    }
    return true;
  };
  const firstVis = (k) => (parts[k] || []).find(vis) || null;
  const within = (e, stop, test) => {
    for (let p = e; p; p = up(p)) {
      if (p.nodeType !== 1) break;
      if (test(p)) return true;
      if (p === stop) break;
    }
    return false;
  };
  const inside = (e, box) => { for (let p = e; p; p = up(p)) if (p === box) return true; return false; };
  const row = (e, box) => { for (let p = e; p && p !== box; p = up(p)) if (p.tagName === 'LI') return p; return up(e); };
  const field = firstVis('field');
  // one todo = one visible label in a visible list (the spec's li > .view > label); a list
  // without labels falls back to its visible li items
  const rows = [];
  for (const box of (parts.lists || []).filter(vis)) {
    const labels = (parts.labels || []).filter((l) => inside(l, box) && vis(l));
    const items = labels.length ? labels : (parts.items || []).filter((l) => inside(l, box) && vis(l));
    for (const el of items) {
      const li = row(el, box);
      const toggle = li && li.querySelector ? li.querySelector('input[type=checkbox]') : null;
      rows.push({title: norm(el.innerText),
                 struck: within(el, box, (p) => (getComputedStyle(p).textDecorationLine || '').includes('line-through')),
                 cls_completed: within(el, box, (p) => p.classList && p.classList.contains('completed')),
                 checked: toggle ? !!toggle.checked : null});
    }
  }
  const count = firstVis('count');
  const filters = (parts.filters || []).filter(vis).map((a) => ({text: norm(a.innerText),
      selected: a.classList.contains('selected') || !!(a.parentElement && a.parentElement.tagName !== 'UL'
                && a.parentElement.classList.contains('selected'))}));
  const clear = firstVis('clear');
  const toggle = (parts.toggle || [])[0];
  return {field: field ? field.value : null, field_present: !!field,
          rows: rows, titles: rows.map((r) => r.title), done: rows.filter((r) => r.struck).map((r) => r.title),
          count_text: count ? norm(count.innerText) : null,
          filters: filters, filter: (filters.find((f) => f.selected) || {}).text || null,
          clear_text: clear ? norm(clear.innerText || clear.value) : null,
          footer: !!firstVis('footer'), toggle_all: toggle ? !!toggle.checked : null};
}
"""


def _left_text(n: int) -> str:
    return f"{n} item left" if n == 1 else f"{n} items left"


def _norm(s: str | None) -> str:
    return re.sub(r"\s+", " ", s or "").strip().lower()


def check_expect(expect: dict[str, Any], st: dict[str, Any]) -> list[str]:
    """What does not hold of ``expect`` in the visible state ``st`` (empty: it holds)."""
    bad: list[str] = []
    if "field" in expect and (st.get("field") or "") != expect["field"]:
        bad.append(f"the new-todo field shows {st.get('field')!r}, not {expect['field']!r}")
    if "titles" in expect and st.get("titles") != expect["titles"]:
        bad.append(f"visible todos {st.get('titles')}, expected {expect['titles']}")
    if "done" in expect and st.get("done") != expect["done"]:
        bad.append(f"struck through {st.get('done')}, expected {expect['done']}")
    if "left" in expect:
        want = _left_text(expect["left"])
        if _norm(st.get("count_text")) != want:
            bad.append(f"the count reads {st.get('count_text')!r}, expected {want!r}")
    if "clear" in expect:
        c = expect["clear"]
        shown = st.get("clear_text")
        if c is False:
            if shown is not None:
                bad.append(f"'Clear completed' still shown ({shown!r})")
        elif shown is None:
            bad.append(f"no 'Clear completed ({c})' shown")
        elif _norm(shown) != f"clear completed ({c})":
            bad.append(f"the clear button reads {shown!r}, expected 'Clear completed ({c})'")
    if "footer" in expect and bool(st.get("footer")) != bool(expect["footer"]):
        bad.append("the footer is " + ("hidden" if expect["footer"] else "still shown"))
    return bad


# --------------------------------------------------------------------------- driving the page


def _short(e: BaseException) -> str:
    s = str(e).strip().splitlines()
    return (s[0] if s else e.__class__.__name__)[:160]


async def _visible_first(page: Any, selector: str) -> Any | None:
    loc = page.locator(selector).locator("visible=true")
    try:
        if await loc.count() == 0:
            return None
    except Exception:
        return None
    return loc.first


async def _click(loc: Any) -> str | None:
    try:
        await loc.click(timeout=3000)
        return None
    except Exception as e:
        return f"click failed: {_short(e)}"


async def do_op(page: Any, op: Op) -> str | None:
    """Do one spec op like a person would; returns why it could not be done (None: done)."""
    if op.op in ("type", "enter"):
        f = await _visible_first(page, SEL_FIELD)
        if f is None:
            return "no visible new-todo field"
        try:
            await f.click(timeout=3000)
        except Exception:
            with contextlib.suppress(Exception):
                await f.focus()
        if op.op == "type":
            await page.keyboard.press("Control+A")
            await page.keyboard.press("Backspace")
            await page.keyboard.type(op.arg or "", delay=5)
        else:
            await page.keyboard.press("Enter")
        return None
    if op.op == "toggle_all":
        t = await _visible_first(page, SEL_TOGGLE_ALL)
        why = await _click(t) if t is not None else "no visible toggle-all"
        if why is None:
            return None
        lab = await _visible_first(page, "label[for='toggle-all']")
        if lab is not None and await _click(lab) is None:
            return None
        return why
    if op.op == "filter":
        links = page.locator(SEL_FILTER_LINKS).locator("visible=true").filter(
            has_text=re.compile(r"^\s*" + re.escape(op.arg or "") + r"\s*$", re.I))
        if await links.count() == 0:
            return f"no visible {op.arg!r} filter link"
        return await _click(links.first)
    if op.op == "clear":
        c = await _visible_first(page, SEL_CLEAR)
        if c is None:
            return "no visible 'Clear completed' button"
        return await _click(c)
    return f"unknown op {op.op}"


async def _do_bounded(page: Any, op: Op, timeout_s: float = 15) -> str | None:
    """:func:`do_op` with a time limit; a page that hangs or dies fails the op, not the run."""
    try:
        return await asyncio.wait_for(do_op(page, op), timeout=timeout_s)
    except asyncio.TimeoutError:
        return "the action timed out"
    except Exception as e:
        return f"{op.op} failed: {_short(e)}"


@dataclass
class ProbeStep:
    index: int
    op: str
    arg: str | None
    done: bool  # the op could be done
    holds: bool
    problems: list[str] = field(default_factory=list)
    state: dict[str, Any] = field(default_factory=dict)
    screenshot: str | None = None


@dataclass
class ProbeResult:
    truth: int | None
    steps: list[ProbeStep] = field(default_factory=list)
    error: str | None = None
    console_errors: list[str] = field(default_factory=list)

    def first_failure(self) -> ProbeStep | None:
        return next((s for s in self.steps if not s.holds), None)

    def as_dict(self) -> dict[str, Any]:
        return asdict(self)


class _Watch:
    """Console errors, uncaught exceptions and failed local files of one page."""

    def __init__(self, page: Any):
        self.errors: list[str] = []
        self.missing: list[str] = []
        page.on("pageerror", lambda e: self.errors.append(f"uncaught: {_short(e)}"))
        page.on("console", self._console)
        page.on("response", self._response)

    def _console(self, m: Any) -> None:
        with contextlib.suppress(Exception):
            if m.type == "error":
                self.errors.append(f"console: {m.text[:160]}")

    def _response(self, r: Any) -> None:
        with contextlib.suppress(Exception):
            if r.status >= 400:
                self.missing.append(re.sub(r"^[a-z]+://[^/]+", "", r.url))


async def _open(browser: Any, url: str, origin: str, viewport: tuple[int, int], *, seed: int = 1,
                freeze_time: str | None = None) -> tuple[Any, Any, Any, Any, _Watch]:
    from ..browser.core import new_context
    from ..browser.settle import RequestTracker

    ctx, net = await new_context(browser, viewport, allowed_origins={origin}, seed=seed, freeze_time=freeze_time,
                                 watch_timers=True)
    page = await ctx.new_page()
    page.on("dialog", lambda d: asyncio.ensure_future(d.dismiss()))
    watch = _Watch(page)
    tracker = RequestTracker(page)
    try:
        await page.goto(url, wait_until="load", timeout=30_000)
    except Exception as e:
        if "Timeout" not in str(e):
            await ctx.close()
            raise
    return ctx, net, page, tracker, watch


async def _settle(page: Any, tracker: Any) -> None:
    """Quiet, then the timers the judge's clock would run after an action (as the recorder waits)."""
    from ..browser.settle import wait_timers, settle

    since = time.monotonic()
    with contextlib.suppress(Exception):
        await settle(page, tracker, quiet_ms=250, timeout_ms=4000)
        await wait_timers(page, tracker, since=since)


async def _state(page: Any) -> dict[str, Any]:
    async def read() -> dict[str, Any]:
        parts = {}
        for k, sel in STATE_PARTS.items():
            parts[k] = (await page.locator(sel).element_handles())[:200]
        try:
            st = await page.evaluate(VISIBLE_STATE_JS, parts)
        finally:
            for hs in parts.values():
                for h in hs:
                    with contextlib.suppress(Exception):
                        await h.dispose()
        st["url"] = page.url
        return st

    try:
        return await asyncio.wait_for(read(), timeout=10)
    except Exception as e:
        return {"error": _short(e)}


async def _field_appears(page: Any, timeout_ms: int = FIELD_TIMEOUT_MS) -> bool:
    try:
        await page.locator(SEL_FIELD).locator("visible=true").first.wait_for(timeout=timeout_ms)
        return True
    except Exception:
        return False


async def probe(browser: Any, root: Path, entry: str, task: Any, shots_dir: Path | None = None, *,
                ops: list[Op] | None = None) -> ProbeResult:
    """Drive ``task``'s steps on ``root/entry`` by the spec and decide which hold.

    ``ops`` defaults to the task's encoded spec (:func:`spec_for`). Screenshots of every step
    (``step_0.png`` = loaded) go to ``shots_dir`` when given.
    """
    from ..browser.server import StaticServer
    from ..browser.settle import screenshot

    ops = ops if ops is not None else spec_for(task)
    res = ProbeResult(truth=None)
    if shots_dir is not None:
        shots_dir.mkdir(parents=True, exist_ok=True)
    with StaticServer({"/": root}) as srv:
        try:
            ctx, _net, page, tracker, watch = await _open(
                browser, srv.url(entry), srv.origin, task.viewport, seed=task.recording_details.seed or 1,
                freeze_time=task.recording_details.freeze_time)
        except Exception as e:
            res.error = f"the page did not load: {_short(e)}"
            return res
        try:
            if not await _field_appears(page):
                res.error = "no new-todo field appeared"
            await _settle(page, tracker)

            async def shot(i: int) -> str | None:
                if shots_dir is None:
                    return None
                p = shots_dir / f"step_{i}.png"
                try:
                    await screenshot(page, str(p))
                    return p.name
                except Exception:
                    return None

            await shot(0)
            failed = False
            for i, op in enumerate(ops, start=1):
                step = ProbeStep(index=i, op=op.op, arg=op.arg, done=False, holds=False)
                why = await _do_bounded(page, op)
                step.done = why is None
                if why:
                    step.problems.append(why)
                await _settle(page, tracker)
                st = await _state(page)
                if step.done and op.expect:
                    # give a slow framework a moment to render what the step must show (past
                    # the first failing step the state is only recorded, as evidence)
                    deadline = time.monotonic() + (0 if failed else EXPECT_WAIT_S)
                    bad = check_expect(op.expect, st)
                    while bad and time.monotonic() < deadline:
                        await asyncio.sleep(0.2)
                        st = await _state(page)
                        bad = check_expect(op.expect, st)
                    step.problems += bad
                step.holds = step.done and not step.problems
                failed = failed or not step.holds
                step.state = st
                step.screenshot = await shot(i)
                res.steps.append(step)
            res.console_errors = watch.errors[:20]
        finally:
            with contextlib.suppress(Exception):
                await asyncio.wait_for(ctx.close(), timeout=15)
    lead = 0
    for s in res.steps:
        if not s.holds:
            break
        lead += 1
    res.truth = lead
    return res


# --------------------------------------------------------------------------- which implementations run


@dataclass
class Listing:
    name: str
    runs: bool
    reason: str = ""
    entry: str = ""
    blocked_hosts: list[str] = field(default_factory=list)
    missing_files: list[str] = field(default_factory=list)
    errors: list[str] = field(default_factory=list)
    seconds: float = 0.0


def implementations(root: Path) -> list[str]:
    """Every example folder of the package (with or without an index.html)."""
    ex = root / "examples"
    return sorted(p.name for p in ex.iterdir() if p.is_dir() and not p.name.startswith(".")) if ex.is_dir() else []


def entry_for(root: Path, name: str) -> str | None:
    """The page of an implementation: the one the package's own index.html links to (a few
    ship a built copy under ``public/``, ``www/`` or ``build/web/``), else its index.html."""
    links: list[str] = []
    try:
        html = (root / "index.html").read_text(encoding="utf-8", errors="replace")
        links = re.findall(r'href="(examples/' + re.escape(name) + r'/[^"#?]*)"', html)
    except OSError:
        pass
    base = (root / "examples" / name).resolve()
    for rel in links + [f"examples/{name}/index.html"]:
        if rel.endswith("/"):
            rel += "index.html"
        f = (root / rel).resolve()
        if (f == base or base in f.parents) and f.is_file():
            return rel
    return None


def _why_not(watch: _Watch, blocked: dict[str, int], what: str) -> str:
    if blocked:
        return f"{what}; needs the network (blocked: {', '.join(sorted(blocked)[:4])})"
    own_missing = [m for m in watch.missing if not m.endswith("favicon.ico")]
    if own_missing:
        return f"{what}; files the package does not ship (a build step?): {', '.join(own_missing[:4])}"
    if watch.errors:
        return f"{what}; script errors: {watch.errors[0]}"
    return what


async def check_runs(browser: Any, root: Path, name: str, *, field_timeout_ms: int = FIELD_TIMEOUT_MS) -> Listing:
    """Does ``examples/<name>`` run offline: its field appears and one todo can be added."""
    from ..browser.server import StaticServer

    t0 = time.monotonic()
    out = Listing(name=name, runs=False)
    entry = entry_for(root, name)
    if entry is None:
        out.reason = "no index.html (it runs on its own server or must be built first)"
        return out
    out.entry = entry
    with StaticServer({"/": root}) as srv:
        try:
            ctx, net, page, tracker, watch = await _open(browser, srv.url(entry), srv.origin, LISTING_VIEWPORT)
        except Exception as e:
            out.reason = f"the page did not load: {_short(e)}"
            return out
        try:
            if not await _field_appears(page, field_timeout_ms):
                if not page.url.split("#")[0].endswith(entry.rsplit("/", 1)[-1]) and not page.url.endswith("/"):
                    what = f"the page went to {page.url.rsplit('/', 1)[-1]!r} instead of an app"
                elif await page.get_by_placeholder("What needs to be done?").count():
                    what = "no field with the spec's id/class (#new-todo/.new-todo): its markup is its own"
                else:
                    what = "no new-todo field appeared"
                out.reason = _why_not(watch, net.blocked, what)
            else:
                await _settle(page, tracker)
                why = await _do_bounded(page, Op("type", LISTING_TODO))
                if why is None:
                    why = await _do_bounded(page, Op("enter"))
                if why is not None:
                    out.reason = _why_not(watch, net.blocked, f"cannot add a todo ({why})")
                else:
                    await _settle(page, tracker)
                    deadline = time.monotonic() + EXPECT_WAIT_S
                    st = await _state(page)
                    while LISTING_TODO not in (st.get("titles") or []) and time.monotonic() < deadline:
                        await asyncio.sleep(0.2)
                        st = await _state(page)
                    if LISTING_TODO in (st.get("titles") or []):
                        out.runs = True
                    else:
                        out.reason = _why_not(watch, net.blocked,
                                              f"adding a todo did not show it (visible: {st.get('titles')})")
            out.blocked_hosts = sorted(net.blocked)
            out.missing_files = watch.missing[:10]
            out.errors = watch.errors[:10]
        finally:
            with contextlib.suppress(Exception):
                await asyncio.wait_for(ctx.close(), timeout=15)
    out.seconds = round(time.monotonic() - t0, 2)
    return out


async def list_implementations(browser: Any, root: Path, names: Iterable[str] | None = None,
                               progress: Progress | None = None) -> list[Listing]:
    out = []
    for n in (list(names) if names is not None else implementations(root)):
        lst = await check_runs(browser, root, n)
        if progress:
            progress(f"listing {n}: " + ("runs" if lst.runs else f"left out ({lst.reason})"))
        out.append(lst)
    return out


# --------------------------------------------------------------------------- judging against the truth


def fetch_package() -> Path:
    from ..sources import fetch_npm

    root, _ = fetch_npm(PACKAGE, VERSION, SHA256)
    return root


def _judge_failure(result: Any, at: int) -> dict[str, Any]:
    """What the judge did at step ``at`` (1-based), for the report."""
    steps = getattr(result, "steps", []) or []
    if not (1 <= at <= len(steps)):
        return {}
    s = steps[at - 1]
    g = getattr(s, "grounding", None)
    a = getattr(s, "assertion", None)
    d: dict[str, Any] = {"step": at, "type": s.type, "executed": s.executed, "passed": s.passed, "error": s.error}
    if g is not None:
        d["grounding"] = {"rung": g.rung, "ambiguous": g.ambiguous,
                          "element": g.element.model_dump(exclude_none=True) if g.element else None,
                          "tried": [t.model_dump(exclude_none=True) for t in g.tried]}
    if a is not None:
        d["assertion"] = {"passed": a.passed, "method": a.method,
                          "failed_checks": [{"check": c.check.model_dump(), "detail": c.detail}
                                            for c in (a.checks or []) if not c.passed]}
    ev = getattr(s, "evidence", None)
    if ev:
        d["evidence"] = [e.model_dump(exclude_none=True) for e in ev][:8]  # what the judge looked at
    return d


def _load_tasks(tasks_dir: Path, wanted: list[str], progress: Progress | None) -> list[Any]:
    from ..errors import TaskError
    from ..tasks.load import load_task

    tasks = []
    for tid in wanted:
        try:
            tasks.append(load_task(tasks_dir / tid, require_video=False))
        except TaskError as e:
            if progress:
                progress(f"skipped task {tid}: {e}")
    return tasks


async def run_async(tasks_dir: Path | None, out_dir: Path, *, only: list[str] | None = None,
                    progress: Progress | None = None, root: Path | None = None) -> list[Verdict]:
    """Listing, probe and judge; one Verdict per (task, runnable implementation).

    ``only`` names task ids and/or implementations to keep (default: every task of
    :data:`SPECS` and every implementation); when it names neither (tasks of other sets),
    nothing is run. ``tasks_dir`` defaults to the built default suite; ``root`` is the
    package folder (default: fetched into ``$IWR_CACHE``).
    """
    from playwright.async_api import async_playwright

    from ..browser.core import launch_browser
    from ..browser.host import PageBundle
    from ..errors import InfraError, IwrError
    from ..judge.score import JudgeComponents, judge_unit
    from ..protocols import get_protocol

    out_dir = Path(out_dir)
    out_dir.mkdir(parents=True, exist_ok=True)
    root = Path(root) if root is not None else fetch_package()
    names = implementations(root)
    sel = [str(x) for x in (only or [])]
    want_tasks = [t for t in TASK_IDS if t in sel]
    want_impls = [n for n in names if n in sel]
    if sel and not want_tasks and not want_impls:
        # ``only`` names tasks of other sets (``iwr validity --task``): nothing of this set is chosen
        if progress:
            progress("todomvc: none of its tasks or implementations is among the chosen ones")
        return []
    want_tasks = want_tasks or list(TASK_IDS)
    names = want_impls or names
    if tasks_dir is None:
        from ..suites.catalog import tasks_dir as suite_tasks

        tasks_dir = suite_tasks("default")
    tasks = _load_tasks(Path(tasks_dir), want_tasks, progress)
    if not tasks:
        raise IwrError(f"{tasks_dir}: no TodoMVC task folder ({', '.join(want_tasks)}); build the default suite first")
    protocol = get_protocol("offline")
    components = JudgeComponents.for_protocol(protocol)
    components.check()
    verdicts: list[Verdict] = []
    (out_dir / "verdicts.jsonl").write_text("")  # this run's rows, appended as they come
    async with async_playwright() as pw:
        browser = await launch_browser(pw)
        try:
            listing = await list_implementations(browser, root, names, progress)
            (out_dir / "implementations.json").write_text(json.dumps([asdict(x) for x in listing], indent=1))
            runnable = [(x.name, x.entry) for x in listing if x.runs]
            for task in tasks:
                try:
                    spec_for(task)
                except ValueError as e:
                    if progress:
                        progress(f"skipped task {task.id}: {e}")
                    continue
                for name, entry in runnable:
                    if not browser.is_connected():
                        with contextlib.suppress(Exception):
                            await browser.close()
                        browser = await launch_browser(pw)
                    try:
                        v = await _one(browser, root, name, entry, task, out_dir / task.id / name, protocol,
                                       components, judge_unit, PageBundle, InfraError)
                    except Exception as e:  # one page going wrong never stops the set
                        v = Verdict(set=SET, task_id=task.id, page=name, steps=len(task.action_sequence),
                                    judged=None, truth=None, note=f"not judged: {e.__class__.__name__}: {_short(e)}")
                    verdicts.append(v)
                    with open(out_dir / "verdicts.jsonl", "a") as f:
                        f.write(json.dumps(v.as_dict()) + "\n")
                    if progress:
                        progress(f"{task.id} {name}: judged {v.judged} truth {v.truth} "
                                 + ("ok" if v.ok else ("FALSE PASS" if v.false_pass else
                                                       "FALSE FAIL" if v.false_fail else "not judged")))
        finally:
            with contextlib.suppress(Exception):
                await browser.close()
    (out_dir / "summary.json").write_text(json.dumps(summarise(verdicts), indent=1))
    return verdicts


async def _one(browser: Any, root: Path, name: str, entry: str, task: Any, where: Path, protocol: Any,
               components: Any, judge_unit: Any, PageBundle: Any, InfraError: Any) -> Verdict:
    where.mkdir(parents=True, exist_ok=True)
    n = len(task.action_sequence)
    pr = await probe(browser, root, entry, task, where / "probe")
    (where / "probe" / "probe.json").write_text(json.dumps(pr.as_dict(), indent=1))
    v = Verdict(set=SET, task_id=task.id, page=name, steps=n, judged=None, truth=pr.truth)
    fail = pr.first_failure()
    if fail is not None:
        v.extra["truth_fails"] = {"step": fail.index, "op": fail.op, "arg": fail.arg, "problems": fail.problems}
    result = None
    for _attempt in (1, 2):  # our side failing (browser crash) is retried once
        try:
            result = await judge_unit(browser, task, PageBundle(root=root, entry=entry), where / "judge",
                                      protocol, components)
            break
        except InfraError as e:
            v.note = f"judge infrastructure error: {e}"
    if result is None:
        return v
    (where / "judge" / "result.json").write_text(result.model_dump_json(indent=1))
    v.judged, v.ifs, v.final, v.note = result.steps_passed, result.ifs, result.final, ""
    v.ok = v.judged == v.truth
    if result.error:
        v.note = f"page error: {result.error}"
    if not v.ok and v.truth is not None:
        at = min(v.judged, v.truth) + 1  # where the two part
        v.extra["judge_at"] = _judge_failure(result, at)
    # step by step, where both looked (the prefix hides disagreements past the first failure)
    v.extra["step_disagreements"] = [
        {"step": s.index, "judge": s.passed, "truth": p.holds}
        for s, p in zip(result.steps, pr.steps) if s.executed and s.passed != p.holds]
    return v


def summarise(verdicts: list[Verdict]) -> dict[str, Any]:
    """Agreement, false passes and false fails, overall and per task."""
    def block(vs: list[Verdict]) -> dict[str, Any]:
        judged = [v for v in vs if v.judged is not None and v.truth is not None]
        return {"pages": len(vs), "judged": len(judged), "agree": sum(v.ok for v in judged),
                "agreement": round(sum(v.ok for v in judged) / len(judged), 4) if judged else None,
                "false_pass": sum(v.false_pass for v in judged), "false_fail": sum(v.false_fail for v in judged),
                "mean_truth": round(sum(v.truth for v in judged) / len(judged), 2) if judged else None,
                "mean_judged": round(sum(v.judged for v in judged) / len(judged), 2) if judged else None}

    per: dict[str, list[Verdict]] = {}
    for v in verdicts:
        per.setdefault(v.task_id, []).append(v)
    return {"all": block(verdicts), "tasks": {t: block(vs) for t, vs in sorted(per.items())}}


def run(tasks_dir: str | Path | None, out_dir: str | Path, *, only: list[str] | None = None,
        progress: Progress | None = None) -> list[Verdict]:
    """The TodoMVC evidence set (see the module doc); writes its evidence into ``out_dir``."""
    return asyncio.run(run_async(None if tasks_dir is None else Path(tasks_dir), Path(out_dir), only=only,
                                 progress=progress))


def main(argv: list[str] | None = None) -> int:
    from ..errors import IwrError

    ap = argparse.ArgumentParser(prog="python -m iwrbench.validity.todomvc", description=__doc__.splitlines()[0])
    ap.add_argument("--tasks", required=True, help="the built suite's task folder (holding tp-todomvc-*)")
    ap.add_argument("--out", required=True, help="where the evidence goes")
    ap.add_argument("--only", nargs="*", default=None, help="implementation names and/or task ids to keep")
    a = ap.parse_args(argv)
    t0 = time.monotonic()
    try:
        vs = run(a.tasks, a.out, only=a.only, progress=lambda m: print(m, flush=True))
    except IwrError as e:
        print(f"error: {e}", file=sys.stderr)
        return 2
    s = summarise(vs)
    for tid, b in s["tasks"].items():
        print(f"{tid}: {b['agree']}/{b['judged']} agree, {b['false_pass']} false pass, {b['false_fail']} false fail "
              f"(mean truth {b['mean_truth']}, mean judged {b['mean_judged']})")
    b = s["all"]
    print(f"all: {b['agree']}/{b['judged']} agree ({b['agreement']}), {b['false_pass']} false pass, "
          f"{b['false_fail']} false fail; {time.monotonic() - t0:.0f}s")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
