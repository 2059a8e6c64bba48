"""Everything the judge reads from a page, read where the page cannot reach: an isolated JavaScript world.

A page shares its DOM with the judge but not its JavaScript: in the page's own world it can redefine
``querySelectorAll``, ``getComputedStyle``, ``Element.prototype.getAttribute``, ``MutationObserver``, a
``value`` getter or ``scrollY``, and a reader running there believes it. So every snippet the judge and
the recorder run to read a page (page state, author checks, grounding candidates, scroll positions,
typed values, settling) runs here in *Playwright's utility world* of the page's main frame: an
isolated world with its own pristine copies of every prototype, which the page can neither see nor
change. It is reached through a CDP session of our own (``Runtime.evaluate`` in that world's context),
and elements cross between it and Playwright through a selector engine registered for that world only
(``content_script=True``, ``register_engine``): an element the world found is handed to Playwright as an
``ElementHandle`` (to click, type into, hover), and a handle Playwright found is handed to the world to
be described. What the judge *does* to a page (clicks, keys, clearing a field) still happens in the
page's world, as a person's actions would.

The world also keeps the judge's own state for the page (the settle rule's mutation observer, the media
held still for a screenshot): nothing of it is a property of the page's ``window``. What has to live in
the page's world (the virtual clock's timer wrappers, the observer of closed shadow roots) keeps its state
closed over and answers only on a channel whose name is a per-context secret (``core.new_context``):
DOM events of a type the page cannot guess, dispatched and heard with functions captured before any page
script ran.

If the world cannot be reached (the engine was not registered: a browser not started by
``core.launch_browser``; Playwright changed how its utility world is made), reads raise ``WorldUnavailable``,
an ``InfraError``: the unit is a judge error, never the page's failure.
"""

from __future__ import annotations

import asyncio
import json
import secrets
import weakref
from typing import Any

from ..errors import InfraError

#: the selector engine that carries elements between the world and Playwright (``iwr-world=get:KEY:I``)
ENGINE = "iwr-world"
#: the world's global that holds the judge's state for the document (random per process: nothing to guess)
_KEY = "__iwr_" + secrets.token_hex(8)

_ENGINE_JS = r"""(() => {
  const K = %(key)s;
  const W = () => (globalThis[K] = globalThis[K] || {stash: new Map(), seq: 0});
  const all = (root, body) => {
    const w = W();
    const i = body.indexOf(':');
    const op = i < 0 ? body : body.slice(0, i), rest = i < 0 ? '' : body.slice(i + 1);
    if (op === 'get') {
      const j = rest.indexOf(':');
      const arr = w.stash.get(j < 0 ? rest : rest.slice(0, j)) || [];
      if (j < 0) return arr.filter((e) => e && e.nodeType === 1);
      const e = arr[+rest.slice(j + 1)];
      return e && e.nodeType === 1 ? [e] : [];
    }
    if (op === 'put') {
      const arr = w.stash.get(rest) || [];
      arr.push(root);
      w.stash.set(rest, arr);
    }
    return [];  // 'ping' and 'put' match nothing: they only make the world (and its state) exist
  };
  return {queryAll: all, query: (root, body) => all(root, body)[0] || null};
})()"""

#: the judge's state in the world, made once per document: the mutation observer the settle rule reads (the document
#: and every open shadow root; closed ones are reported by the page-world hook on the secret channel), the
#: answer slot of the clock's channel, the stash of elements. ``%(key)s``, ``%(channel)s`` filled in.
_INIT_JS = r"""((K, CH) => {
  const W = globalThis[K] = globalThis[K] || {stash: new Map(), seq: 0};
  if (W.mut) return;
  const now = () => performance.now();
  const mut = W.mut = {count: 0, last: now(), what: '', roots: new WeakSet(), scanned: -1, scanAt: 0, pending: false};
  const describe = (n) => {
    if (!n) return '';
    const el = n.nodeType === 1 ? n : n.parentElement;
    if (!el) return '';
    let d = el.tagName.toLowerCase();
    if (el.id) d += '#' + el.id;
    else if (el.classList && el.classList.length) d += '.' + Array.from(el.classList).slice(0, 2).join('.');
    return d;
  };
  const opts = {subtree: true, childList: true, attributes: true, characterData: true};
  const obs = new MutationObserver((recs) => {
    mut.count += recs.length; mut.last = now();
    const r = recs[recs.length - 1];
    mut.what = r.type + ' on ' + describe(r.target) + (r.attributeName ? ' [' + r.attributeName + ']' : '');
  });
  obs.observe(document, opts);
  // open shadow roots: now, when one was attached, and when the DOM changed (at most every 200 ms then)
  W.scan = (force) => {
    if (!force && !mut.pending && (mut.scanned === mut.count || now() - mut.scanAt < 200)) return;
    mut.pending = false; mut.scanned = mut.count; mut.scanAt = now();
    const todo = [document];
    for (let k = 0; k < todo.length && k < 2000; k++) {
      for (const el of todo[k].querySelectorAll('*')) {
        const r = el.shadowRoot;
        if (!r) continue;
        if (!mut.roots.has(r)) {
          mut.roots.add(r);
          try { obs.observe(r, opts); } catch (e) {}
          if (!force) { mut.count++; mut.last = now(); mut.what = 'a shadow root on ' + describe(el); }
        }
        todo.push(r);
      }
    }
  };
  W.scan(true);
  if (CH) {
    // the page world's hooks (core.PAGE_HOOKS_SCRIPT): a shadow root attached, a change in a closed one, the clock's answer
    document.addEventListener(CH + ':s', () => { mut.count++; mut.last = now(); mut.what = 'a shadow root attached'; mut.pending = true; }, true);
    document.addEventListener(CH + ':m', (e) => { mut.count++; mut.last = now(); mut.what = 'a change inside a closed shadow root'; }, true);
    document.addEventListener(CH + ':a', (e) => { W.clockAnswer = typeof e.detail === 'string' ? e.detail : null; }, true);
    document.addEventListener(CH + ':d', (e) => { W.drawsAnswer = typeof e.detail === 'string' ? e.detail : null; }, true);
    W.channel = CH;
  }
})"""

# Arguments cross as JSON; an element handle or a stashed list is named by a marker the world revives.
_REVIVE_JS = r"""(W, a) => {
  const r = (v) => {
    if (Array.isArray(v)) return v.map(r);
    if (v && typeof v === 'object') {
      if (Object.prototype.hasOwnProperty.call(v, '__iwr_el__')) { const s = W.stash.get(v.__iwr_el__[0]) || []; return s[v.__iwr_el__[1]] || null; }
      if (Object.prototype.hasOwnProperty.call(v, '__iwr_els__')) return (W.stash.get(v.__iwr_els__) || []).slice();
      const o = {};
      for (const k of Object.keys(v)) o[k] = r(v[k]);
      return o;
    }
    return v;
  };
  return r(a);
}"""

#: stashes kept per document (a stash is the elements of one grounding snapshot or one call's arguments)
_MAX_STASHES = 64


class WorldUnavailable(InfraError):
    """The isolated world cannot be reached: our failure, never the page's."""


class ReadError(RuntimeError):
    """A snippet failed in the world (the page navigated, closed, or the snippet threw on what it found)."""


_registered: "weakref.WeakSet[Any]" = weakref.WeakSet()


async def register_engine(playwright: Any) -> None:
    """Register the world's selector engine with a Playwright instance (once; contexts made afterwards get it)."""
    if playwright in _registered:
        return
    try:
        await playwright.selectors.register(ENGINE, _ENGINE_JS % {"key": json.dumps(_KEY)}, content_script=True)
    except Exception as e:  # registered by an earlier call with another WeakSet entry (a reloaded module)
        if "already registered" not in str(e):
            raise
    _registered.add(playwright)


#: per context: (the secret channel's name, whether the page has a virtual clock); set by core.new_context
_channels: "weakref.WeakKeyDictionary[Any, tuple[str, bool]]" = weakref.WeakKeyDictionary()


def new_channel(ctx: Any, virtual_clock: bool) -> str:
    """A fresh secret channel name for the page-world hooks of ``ctx`` (see the module doc)."""
    ch = "iwr" + secrets.token_hex(16)
    _channels[ctx] = (ch, virtual_clock)
    return ch


def channel_of(page: Any) -> tuple[str | None, bool]:
    try:
        return _channels.get(page.context, (None, False))
    except Exception:
        return None, False


class _Args:
    """The stash one call's element arguments go into, in order."""

    def __init__(self, key: str):
        self.key, self.n = key, 0


class Elements:
    """Elements the world found (a stash in it), handed to Playwright one at a time on request."""

    def __init__(self, world: "PageWorld", key: str, n: int):
        self.world, self.key, self.n = world, key, n

    def __len__(self) -> int:
        return self.n

    async def element(self, i: int) -> Any:
        """The ``i``-th element as a Playwright ``ElementHandle`` (None when it is gone: the page navigated)."""
        return await self.world.page.query_selector(f"{ENGINE}=get:{self.key}:{int(i)}")

    async def get_property(self, name: str) -> Any:
        """``element(int(name))``: what code written against a JSHandle of an array calls."""
        return await self.element(int(name))


class PageWorld:
    """The isolated world of one page's main frame (one per page: ``world(page)``)."""

    def __init__(self, page: Any):
        self.page = page
        self._cdp: Any = None
        self._frame_id: str | None = None
        self._contexts: dict[int, dict] = {}
        self._cid: int | None = None
        self._lock = asyncio.Lock()
        self._seq = 0
        #: set when the world could not be reached: the caller's unit is a judge error
        self.failure: str | None = None

    # ---------------------------------------------------------------- reaching the world
    async def _session(self) -> Any:
        if self._cdp is None:
            cdp = await self.page.context.new_cdp_session(self.page)
            cdp.on("Runtime.executionContextCreated", self._created)
            cdp.on("Runtime.executionContextDestroyed", self._destroyed)
            cdp.on("Runtime.executionContextsCleared", self._cleared)
            tree = await cdp.send("Page.getFrameTree")
            self._frame_id = tree["frameTree"]["frame"]["id"]
            await cdp.send("Runtime.enable")
            self._cdp = cdp
        return self._cdp

    def _created(self, ev: dict) -> None:
        c = ev.get("context") or {}
        if "id" in c:
            self._contexts[c["id"]] = c

    def _destroyed(self, ev: dict) -> None:
        cid = ev.get("executionContextId")
        self._contexts.pop(cid, None)
        if cid == self._cid:
            self._cid = None

    def _cleared(self, *_: Any) -> None:
        self._contexts.clear()
        self._cid = None

    async def _context(self) -> int:
        """The id of the utility world's context for the main frame's current document (made and set up if new)."""
        if self._cid is not None and self._cid in self._contexts:
            return self._cid
        cdp = await self._session()
        for attempt in range(6):
            try:
                # makes Playwright create its utility world for this document, and our engine's state in it
                await self.page.query_selector(f"{ENGINE}=ping")
            except Exception as e:
                msg = str(e).strip().splitlines()[0] if str(e).strip() else e.__class__.__name__
                if "Unknown engine" in msg or "Unknown selector engine" in msg:
                    self.failure = (f"the judge's reading world is not installed ({msg[:120]}); browsers must be started "
                                    "by iwrbench.browser.core.launch_browser")
                    raise WorldUnavailable(self.failure) from None
                raise ReadError(f"the page could not be read: {msg[:160]}") from None
            for cid, c in list(self._contexts.items()):
                aux = c.get("auxData") or {}
                if aux.get("isDefault") or aux.get("frameId") != self._frame_id:
                    continue
                try:
                    r = await cdp.send("Runtime.evaluate", {"expression": f"typeof globalThis[{json.dumps(_KEY)}]",
                                                            "contextId": cid, "returnByValue": True})
                except Exception:
                    continue
                if (r.get("result") or {}).get("value") == "object":
                    ch, _ = channel_of(self.page)
                    init = f"({_INIT_JS})({json.dumps(_KEY)}, {json.dumps(ch)})"
                    res = await cdp.send("Runtime.evaluate", {"expression": init, "contextId": cid, "returnByValue": True})
                    if "exceptionDetails" in res:
                        raise ReadError(f"the judge's state could not be made in the page: {_exception(res)}")
                    self._cid = cid
                    return cid
            await asyncio.sleep(0.02 * (attempt + 1))  # the context's event may still be on its way
        self.failure = "the judge's reading world could not be found in the page (Playwright's utility world)"
        raise WorldUnavailable(self.failure)

    # ---------------------------------------------------------------- arguments and calls
    async def _marshal(self, arg: Any, args: "_Args") -> Any:
        if isinstance(arg, Elements):
            return {"__iwr_els__": arg.key}
        if isinstance(arg, (list, tuple)):
            return [await self._marshal(x, args) for x in arg]
        if isinstance(arg, dict):
            return {str(k): await self._marshal(v, args) for k, v in arg.items()}
        if arg is None or isinstance(arg, (str, int, float, bool)):
            return arg
        if hasattr(arg, "element_handle") and hasattr(arg, "press_sequentially"):  # a Locator
            arg = await arg.element_handle(timeout=5000)
        if hasattr(arg, "query_selector") and hasattr(arg, "bounding_box"):  # an ElementHandle: into the stash
            await arg.query_selector(f"{ENGINE}=put:{args.key}")
            args.n += 1
            return {"__iwr_el__": [args.key, args.n - 1]}
        raise TypeError(f"cannot pass {type(arg).__name__} to the page's isolated world")

    async def _run(self, js: str, arg: Any, keep_elements: bool, timeout_s: float) -> Any:
        async with self._lock:  # one call at a time per page: a call's stash is filled and read in order
            for attempt in (0, 1):
                cid = await self._context()
                self._seq += 1
                args = _Args(f"a{self._seq}")
                marshalled = await self._marshal(arg, args)
                k = json.dumps(f"r{self._seq}")
                body = (f"const W = globalThis[{json.dumps(_KEY)}]; "
                        f"const $a = ({_REVIVE_JS})(W, {json.dumps(marshalled)}); "
                        f"W.stash.delete({json.dumps(args.key)}); "
                        f"const $r = await ({js})($a); ")
                if keep_elements:
                    body += (f"W.stash.set({k}, Array.from(($r && $r[0]) || [])); "
                             f"while (W.stash.size > {_MAX_STASHES}) W.stash.delete(W.stash.keys().next().value); "
                             f"return [{k}, W.stash.get({k}).length, $r ? $r[1] : null];")
                else:
                    body += "return $r;"
                try:
                    res = await asyncio.wait_for(self._cdp.send("Runtime.evaluate", {
                        "expression": f"(async () => {{ {body} }})()", "contextId": cid, "returnByValue": True,
                        "awaitPromise": True}), timeout_s)
                except asyncio.TimeoutError:
                    raise ReadError(f"the page did not answer within {timeout_s:.0f}s (a busy script?)") from None
                except Exception as e:
                    msg = str(e).strip().splitlines()[0] if str(e).strip() else e.__class__.__name__
                    low = msg.lower()
                    if attempt == 0 and "context" in low and ("destroyed" in low or "find" in low):
                        self._cid = None  # the document changed under us: once more, in the new one
                        continue
                    raise ReadError(f"the page could not be read: {msg[:160]}") from None
                if "exceptionDetails" in res:
                    raise ReadError(f"reading the page failed: {_exception(res)}")
                value = (res.get("result") or {}).get("value")
                if keep_elements:
                    key, n, data = value
                    return Elements(self, key, n), data
                return value
        raise ReadError("the page changed documents while it was read")

    async def evaluate(self, js: str, arg: Any = None, *, timeout_s: float = 30.0) -> Any:
        """``js`` (a function of one argument, may be async) called in the world with ``arg``; its result as JSON.

        ``arg`` may hold ``ElementHandle``s, Locators and ``Elements`` anywhere inside lists and dicts."""
        return await self._run(js, arg, False, timeout_s)

    async def evaluate_elements(self, js: str, arg: Any = None, *, timeout_s: float = 30.0) -> tuple[Elements, Any]:
        """``js`` returns ``[elements, data]``: the elements stay in the world (``Elements``), the data comes back."""
        return await self._run(js, arg, True, timeout_s)

    async def close(self) -> None:
        if self._cdp is not None:
            try:
                await self._cdp.detach()
            except Exception:
                pass
            self._cdp = None


def _exception(res: dict) -> str:
    d = res.get("exceptionDetails") or {}
    return str((d.get("exception") or {}).get("description") or d.get("text") or "error").splitlines()[0][:200]


_worlds: "weakref.WeakKeyDictionary[Any, PageWorld]" = weakref.WeakKeyDictionary()


def world(page: Any) -> PageWorld:
    """The isolated world of ``page`` (one per page, made on first use, forgotten when the page closes)."""
    w = _worlds.get(page)
    if w is None:
        w = _worlds[page] = PageWorld(page)
        try:
            page.on("close", lambda *_: _worlds.pop(page, None))
        except Exception:
            pass
    return w


async def read(page: Any, js: str, arg: Any = None, *, timeout_s: float = 30.0) -> Any:
    """``world(page).evaluate(js, arg)``: what ``page.evaluate(js, arg)`` was, where the page cannot reach."""
    return await world(page).evaluate(js, arg, timeout_s=timeout_s)


_DRAWS_JS = r"""() => {
  const W = globalThis[%(key)s];
  W.drawsAnswer = null;
  if (W.channel) document.dispatchEvent(new CustomEvent(W.channel + ':dq'));
  const a = W.drawsAnswer;
  return typeof a === 'string' && /^[0-9]+$/.test(a) ? +a : null;
}"""


async def draws(page: Any) -> int | None:
    """How many random numbers the page's main document drew from the seeded ``Math.random`` (core.INIT_SCRIPT),
    asked on the context's secret channel: the count is closed over in the page's world, which can neither read
    nor set it. None when nothing answered (a context not made by ``core.new_context``, a replaced document)."""
    got = await read(page, _DRAWS_JS % {"key": json.dumps(_KEY)})
    return int(got) if isinstance(got, (int, float)) else None


def failure(page: Any) -> str | None:
    """Why the judge could not read ``page`` in its isolated world, if it could not (an infrastructure failure)."""
    w = _worlds.get(page)
    return w.failure if w is not None else None


__all__ = ["ENGINE", "Elements", "PageWorld", "ReadError", "WorldUnavailable", "channel_of", "draws", "failure",
           "new_channel", "read", "register_engine", "world"]
