"""A page cannot lie to the judge by redefining what the judge reads with.

The judge reads a page from an isolated world (browser/world.py) and keeps its settle state there; what
must live in the page's world (the virtual clock's counts, closed shadow roots) is closed over and
speaks on a secret channel. So a page that redefines ``querySelectorAll``, ``getComputedStyle``,
``Element.prototype.getAttribute``, the ``checked`` and ``value`` getters, ``MutationObserver`` and the
judge's old hook objects (``__iwrMut``, ``__iwrClock``, ``__iwrReal``, ``__iwrHeld``) gets the verdicts of
its honest twin: a working page still passes, and a broken page that lies about being right still fails.
"""

from __future__ import annotations

import pytest

from site_pages import judge_html, record_site

pytestmark = pytest.mark.browser

BODY = """<h1>Groceries</h1>
<input id=f placeholder="New item"> <button id=add>Add</button>
<ul id=list></ul>
<p id=count>0 items</p>
<label><input type=checkbox id=done %(done)s> Done shopping</label>
<p id=state>Not done yet</p>
<script>
const f = document.getElementById('f'), list = document.getElementById('list');
const count = document.getElementById('count'), state = document.getElementById('state');
let n = 0;
function add() {
  const v = f.value.trim();
  if (!v) return;
  f.value = '';
  // the item shows after 600 ms: the judge must wait for work the page scheduled
  setTimeout(() => { const li = document.createElement('li'); li.textContent = v; list.appendChild(li);
                     n++; count.textContent = n + (n === 1 ? ' item' : ' items'); }, 600);
}
document.getElementById('add').onclick = add;
f.addEventListener('keydown', (e) => { if (e.key === 'Enter') add(); });
document.getElementById('done').addEventListener('click', () => { state.textContent = 'All done'; });
</script>"""


def _page(*, broken: bool = False, lies: str = "") -> str:
    # broken: the checkbox cannot be checked (its click is cancelled), the text still changes
    body = BODY % {"done": "onclick='return false'" if broken else ""}
    head = f"<script>{ {'all': LIES + CLOCK_LIES, 'state': STATE_LIES, 'clock': CLOCK_LIES}[lies]}</script>" if lies else ""
    return f"<!doctype html><html><head><meta charset=utf-8>{head}</head><body>{body}</body></html>"


# The settle rule's hooks: a mutation observer that never reports, and the judge's old hook objects telling it the page
# is quiet and has nothing scheduled (the item the page adds after 600 ms would then never be waited for).
CLOCK_LIES = r"""
(() => {
  window.MutationObserver = class { observe() {} disconnect() {} takeRecords() { return []; } };
  const quiet = {count: 0, last: -1e12, what: ''};
  const clock = {now: () => 0, state: () => ({frames: 0, fired: 0, pending_frames: 0, intervals: 0, next_due: null})};
  const real = {now: () => 1e12, setTimeout: (f) => f(), frame: (f) => f()};
  for (const [k, v] of [['__iwrMut', quiet], ['__iwrClock', clock], ['__iwrHeld', []], ['__iwrReal', real]]) {
    try { Object.defineProperty(window, k, {value: v, configurable: true, writable: true}); } catch (e) {
      // a property the page cannot replace: lie through its fields instead
      for (const x of Object.keys(v)) {
        try { Object.defineProperty(window[k], x, {get: () => v[x], set() {}, configurable: true}); } catch (e2) {}
      }
    }
  }
})();
"""

# Only what a state check reads: every checkbox says it is checked.
STATE_LIES = r"""
(() => {
  const realGet = Element.prototype.getAttribute, realHas = Element.prototype.hasAttribute;
  Element.prototype.getAttribute = function (a) { return a === 'aria-checked' ? 'true' : realGet.call(this, a); };
  Element.prototype.hasAttribute = function (a) { return a === 'aria-checked' || realHas.call(this, a); };
  Object.defineProperty(HTMLInputElement.prototype, 'checked', {get() { return true; }, set() {}, configurable: true});
})();
"""

# Everything the judge used to read in the page's world, redefined to lie (before any other script of the page).
LIES = r"""
(() => {
  const none = document.createDocumentFragment().querySelectorAll('x');
  Document.prototype.querySelectorAll = function () { return none; };
  Element.prototype.querySelectorAll = function () { return none; };
  DocumentFragment.prototype.querySelectorAll = function () { return none; };
  Document.prototype.elementsFromPoint = function () { return []; };
  Document.prototype.elementFromPoint = function () { return null; };
  // everything looks hidden, transparent, not clickable
  window.getComputedStyle = function () {
    return {display: 'none', visibility: 'hidden', opacity: '0', cursor: 'auto', overflowY: 'visible',
            getPropertyValue: () => ''};
  };
  const realGet = Element.prototype.getAttribute;
  Element.prototype.getAttribute = function (a) {
    if (a === 'type') return 'password';            // typed text would not be checked
    if (a === 'aria-checked') return 'true';        // every checkbox says it is checked
    if (a === 'placeholder' || a === 'aria-label' || a === 'title') return null;
    return realGet.call(this, a);
  };
  Element.prototype.hasAttribute = function (a) { return a === 'aria-checked' || a === 'aria-label'; };
  Object.defineProperty(HTMLInputElement.prototype, 'checked', {get() { return true; }, set() {}, configurable: true});
  const valueDesc = Object.getOwnPropertyDescriptor(HTMLInputElement.prototype, 'value');
  Object.defineProperty(HTMLInputElement.prototype, 'value', {configurable: true,
    get() { const v = valueDesc.get.call(this); return v === '' ? 'milk' : v; },  // an emptied field "holds" it
    set(v) { valueDesc.set.call(this, v); }});
  Object.defineProperty(window, 'scrollY', {get() { return 99999; }, configurable: true});
  Element.prototype.getBoundingClientRect = function () { return {x: 0, y: 0, width: 0, height: 0, top: 0, left: 0,
                                                                  right: 0, bottom: 0}; };
})();
"""

RECIPE = """id: twins
source: {site: ./site}
viewport: {width: 800, height: 500}
actions:
  - {type: Type, target: "#f", text: milk, description: "the 'New item' text box"}
  - type: Press
    key: Enter
    description: press Enter to add the item
    assert: "An item 'milk' appears and the count reads '1 item'"
  - type: Click
    target: "#done"
    description: "the 'Done shopping' checkbox"
    assert: "The checkbox is checked and the page says 'All done'"
    checks:
      - {kind: state, state: checked, value: true, role: checkbox, name: Done shopping}
"""


@pytest.fixture(scope="module")
def task(tmp_path_factory):
    return record_site(tmp_path_factory.mktemp("twins"), _page(), RECIPE)


def _verdict(r) -> list:
    steps = [(s.index, s.executed, s.passed, s.error,
              sorted((e.kind, e.text or "", e.passed, e.required) for e in (s.evidence or [])),
              [c.passed for c in (s.assertion.checks if s.assertion else [])])
             for s in r.steps]
    probes = [(p.name, p.steps_passed, p.passed) for p in (r.probes or [])]
    return [steps, probes, r.ifs]


async def test_a_working_page_that_lies_gets_its_honest_twin_s_verdicts(browser, task, tmp_path):
    honest = await judge_html(browser, task, _page(), tmp_path / "honest")
    assert honest.status == "ok" and honest.steps_passed == 3, _verdict(honest)
    for lies in ("clock", "all"):
        liar = await judge_html(browser, task, _page(lies=lies), tmp_path / f"liar-{lies}")
        assert liar.status == "ok", (lies, liar.error)
        assert _verdict(liar) == _verdict(honest), lies
        assert [s.grounding.rung if s.grounding else None for s in liar.steps] == \
            [s.grounding.rung if s.grounding else None for s in honest.steps]


async def test_a_broken_page_that_lies_about_being_right_still_fails(browser, task, tmp_path):
    honest = await judge_html(browser, task, _page(broken=True), tmp_path / "honest")
    assert honest.steps_passed == 2 and not honest.steps[2].passed, _verdict(honest)
    assert "checked=False" in (honest.steps[2].error or ""), honest.steps[2].error
    for lies in ("state", "all"):
        liar = await judge_html(browser, task, _page(broken=True, lies=lies), tmp_path / f"liar-{lies}")
        assert _verdict(liar) == _verdict(honest), lies


async def test_the_page_sees_nothing_of_the_judge(browser, task, tmp_path):
    """After a whole judging, the page's window holds no property of the judge's and its prototypes are its own."""
    probe = ("<script>window.__seen = () => JSON.stringify({own: Object.getOwnPropertyNames(window).filter("
             "(k) => /iwr/i.test(k)), qsa: String(Document.prototype.querySelectorAll).includes('[native code]'), "
             "mo: String(MutationObserver).includes('[native code]')});</script>")
    page_html = _page().replace("</body>", probe + "</body>")
    r = await judge_html(browser, task, page_html, tmp_path / "p")
    assert r.steps_passed == 3
    from iwrbench.browser.core import new_context
    from iwrbench.browser.host import host
    from iwrbench.browser.settle import RequestTracker, run_clock, screenshot, settle
    from iwrbench.browser.world import read
    from iwrbench.sources import PageBundle

    with host(PageBundle(root=tmp_path / "p" / "page")) as (url, origins):
        ctx, _ = await new_context(browser, (800, 500), allowed_origins=origins, virtual_time=True)
        try:
            page = await ctx.new_page()
            await page.goto(url)
            tracker = RequestTracker(page)
            await settle(page, tracker)
            await run_clock(page, tracker)
            await read(page, "() => document.title")
            await screenshot(page)
            seen = await page.evaluate("() => window.__seen()")
        finally:
            await ctx.close()
    assert seen == '{"own":[],"qsa":true,"mo":true}', seen


async def test_a_judge_that_cannot_reach_its_world_is_a_judge_error_not_the_page_s(task, tmp_path):
    """A browser started without the world's engine (not by launch_browser): an InfraError, never a failed step."""
    from playwright.async_api import async_playwright

    from iwrbench.browser.core import LAUNCH_ARGS, find_chromium
    from iwrbench.errors import InfraError

    exe, _ = find_chromium()
    async with async_playwright() as pw:
        b = await pw.chromium.launch(executable_path=exe, args=LAUNCH_ARGS + ["--no-sandbox"])
        try:
            with pytest.raises(InfraError, match="reading world is not installed"):
                await judge_html(b, task, _page(), tmp_path / "x")
        finally:
            await b.close()


async def test_the_count_of_random_draws_is_closed_over(browser, tmp_path):
    """The recorder asks how many numbers a page drew from the seeded Math.random (a probe is replayed with another
    seed only where it drew any) on the context's secret channel: the page neither sees the count nor sets it."""
    from iwrbench.browser.core import new_context
    from iwrbench.browser.host import host
    from iwrbench.browser.world import draws
    from iwrbench.sources import PageBundle

    pages = {
        "quiet": "<p>no dice</p>",
        "dice": "<p id=d>roll</p><script>for (let i = 0; i < 3; i++) Math.random();"
                "document.getElementById('d').onclick = () => { Math.random(); Math.random(); };</script>",
        # a page that claims it drew nothing, and looks for the judge's count
        "liar": "<p>roll</p><script>Math.random(); Math.random();"
                "window.__found = Object.getOwnPropertyNames(window).filter((k) => /iwr/i.test(k)).length;"
                "try { Object.defineProperty(window, '__iwrDraws', {get: () => 0, configurable: true}); } catch (e) {}"
                "</script>",
    }
    for name, body in pages.items():
        (tmp_path / name).mkdir()
        (tmp_path / name / "index.html").write_text(f"<!doctype html><html><body>{body}</body></html>")
    got = {}
    for name in pages:
        with host(PageBundle(root=tmp_path / name)) as (url, origins):
            ctx, _ = await new_context(browser, (800, 500), allowed_origins=origins)
            try:
                page = await ctx.new_page()
                await page.goto(url)
                got[name] = [await draws(page)]
                if name == "dice":
                    await page.click("#d")
                    got[name].append(await draws(page))
                if name == "liar":
                    got[name].append(await page.evaluate("() => window.__found"))
            finally:
                await ctx.close()
    assert got == {"quiet": [0], "dice": [3, 5], "liar": [2, 0]}, got
