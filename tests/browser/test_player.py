"""The one action player (browser/player.py): each named rule set on the same pages, in real Chromium.

The recorder fails where the recipe is wrong (a covered control, a scroll that moves nothing, a field that
refuses the text); the judge gives a page every fair chance; the published set does what the published judge
does. Then each published-protocol knob that iwr-bench@1 does not use yet, shown to act when set."""

from __future__ import annotations

import asyncio
import dataclasses
import time
from contextlib import asynccontextmanager
from pathlib import Path

import pytest

from iwrbench.browser.core import new_context
from iwrbench.browser.player import JUDGE, PUBLISHED, RECORDER, RECORDER_QUICK, Trace, locate, play, wait_idle
from iwrbench.browser.server import StaticServer
from iwrbench.errors import RecordError
from iwrbench.records import Action

PAGE = """<!doctype html><html><head><style>
  body { margin: 0; height: 2000px; }
  #menu:hover + #tip { display: block; }
  #tip { display: none; }
  #veil { position: fixed; left: 0; top: 300px; width: 100%; height: 100px; }
  #box { position: fixed; right: 0; top: 0; width: 200px; height: 120px; overflow-y: auto; }
</style></head><body>
<button id="go" onclick="document.body.dataset.clicked = 'yes'">Go</button>
<button id="hidden-go" style="position:fixed;top:320px" onclick="document.body.dataset.clicked = 'covered'">Covered</button>
<span id="menu" style="position:fixed;top:340px;left:300px">Menu</span><div id="tip">Tip</div>
<div id="veil"></div>
<input id="short" maxlength="3" placeholder="Name">
<div id="box"><div style="height:3000px">a tall list inside a box</div></div>
<select id="pick"><option>One</option><option>Two</option></select>
<script>
  window.wheels = 0;
  addEventListener('wheel', () => { window.wheels += 1; }, {passive: true});
</script>
</body></html>"""

VP = (800, 600)


@pytest.fixture
def site(tmp_path: Path) -> Path:
    (tmp_path / "index.html").write_text(PAGE)
    return tmp_path


@asynccontextmanager
async def opened(browser, site: Path, *, deterministic: bool = True):
    """The site's page in a context of the given kind (offline@2's, or the published plain browser)."""
    with StaticServer({"/": site}) as s:
        ctx, _ = await new_context(browser, VP, allowed_origins={s.origin}, deterministic=deterministic)
        try:
            page = await ctx.new_page()
            await page.goto(s.url("index.html"))
            yield page
        finally:
            await ctx.close()


def act(kind: str, **params) -> Action:
    return Action(type=kind, parameters={"description": "x", **params})


async def outcomes(browser, site, action: Action, selector: str | None, *, prepare: str | None = None):
    """The same action on a fresh copy of the same page with each rule set: {set name: Outcome}."""
    got = {}
    for rules in (RECORDER, JUDGE, PUBLISHED):
        async with opened(browser, site) as page:
            if prepare is not None:
                await page.evaluate(prepare)
            handle = await page.query_selector(selector) if selector else None
            # the recorder waits as long as Playwright lets it (30 s); a test gives it one second
            got[rules.name] = await play(page, action, handle, VP, rules, timeout_ms=1000, trace=Trace(), step=1)
    return got


async def test_a_covered_button(browser, site):
    got = await outcomes(browser, site, act("Click"), "#hidden-go")
    assert not got["recorder"].executed and got["recorder"].error.startswith("click failed")
    assert got["judge"].executed and got["judge"].note.startswith("clicked by event")
    assert got["published"].executed and got["published"].note.startswith("clicked by script")


async def test_a_plain_click_is_the_same_for_all(browser, site):
    for rules in (RECORDER, JUDGE, PUBLISHED):
        async with opened(browser, site) as page:
            out = await play(page, act("Click"), await page.query_selector("#go"), VP, rules, timeout_ms=2000)
            assert out.executed and out.note is None, rules.name
            assert await page.evaluate("document.body.dataset.clicked") == "yes"


async def test_a_covered_hover(browser, site):
    got = await outcomes(browser, site, act("Hover"), "#menu")
    assert not got["recorder"].executed  # the recipe's target is covered: the recording would show another hover
    assert got["judge"].executed  # forced past the overlay, as a person's pointer reaches it
    assert not got["published"].executed and got["published"].error == "the published judge has no Hover action"


async def test_hover_shows_what_hovering_shows_once_uncovered(browser, site):
    for rules in (RECORDER_QUICK, JUDGE):
        async with opened(browser, site) as page:
            await page.evaluate("document.getElementById('veil').remove()")
            out = await play(page, act("Hover"), await page.query_selector("#menu"), VP, rules, timeout_ms=2000)
            assert out.executed, rules.name
            assert await page.is_visible("#tip"), rules.name


async def test_a_scroll_the_wheel_does_not_move(browser, site):
    # the page swallows wheel events (a carousel's handler, say); its window can still scroll
    swallow = "addEventListener('wheel', (e) => e.preventDefault(), {passive: false})"
    got = await outcomes(browser, site, act("Scroll", direction="down"), None, prepare=swallow)
    assert not got["recorder"].executed and "did not scroll" in got["recorder"].error
    assert got["judge"].executed  # the script fallback scrolls the window
    assert got["published"].executed  # the published Scroll is a script


async def test_a_scroll_up_at_the_top(browser, site):
    got = await outcomes(browser, site, act("Scroll", direction="up"), None)
    assert not got["recorder"].executed and not got["judge"].executed  # nothing moved: both say so
    assert got["published"].executed  # the published Scroll goes down whatever the direction


async def test_the_recorder_scrolls_in_six_notches_and_notes_when(browser, site):
    notches = {}
    for rules in (RECORDER, RECORDER_QUICK, JUDGE):
        async with opened(browser, site) as page:
            trace = Trace()
            out = await play(page, act("Scroll", direction="down"), None, VP, rules, trace=trace, step=4)
            assert out.executed, rules.name
            assert await page.evaluate("scrollY") == 300, rules.name  # half a window, however many notches
            notches[rules.name] = await page.evaluate("wheels")
            assert [s for _, s in trace.marks] == [4]
    assert notches == {"recorder": 6, "recorder-quick": 1, "judge": 1}


async def test_a_field_that_refuses_the_text(browser, site):
    got = await outcomes(browser, site, act("Type", text="Oat milk"), "#short")
    assert not got["recorder"].executed and "not the typed text" in got["recorder"].error
    assert not got["judge"].executed and "not the typed text" in got["judge"].error
    assert got["published"].executed  # the published judge does not check the field


async def test_select_and_the_recorder_trace(browser, site):
    for rules in (RECORDER, JUDGE):
        async with opened(browser, site) as page:
            trace = Trace()
            pick = page.locator("#pick") if rules is RECORDER else await page.query_selector("#pick")
            t0 = time.time()
            out = await play(page, act("Select", value="Two"), pick, VP, rules, trace=trace, step=2)
            assert out.executed and await page.evaluate("document.getElementById('pick').value") == "Two"
            assert trace.marks and trace.marks[0][1] == 2 and len(trace.clicks) == 1
            # the recorder's pointer glides there in ten moves over a third of a second; the judge's jumps
            assert len(trace.moves) == (10 if rules is RECORDER else 1), rules.name
            if rules is RECORDER:
                assert trace.marks[0][0] - t0 >= 0.3


async def test_locate_names_the_step(browser, site):
    async with opened(browser, site) as page:
        assert await locate(page, 1, "#go")
        with pytest.raises(RecordError, match="step 3: selector '#nothing' matches nothing"):
            await locate(page, 3, "#nothing")


# --------------------------------------------------------------------------- the published judge's own rules
# Each rule PUBLISHED turns on, on a page made for it, against the same rule turned off (or the project's judge).


def _png() -> bytes:
    import io

    from PIL import Image

    buf = io.BytesIO()
    Image.new("RGB", (4, 4), (200, 30, 30)).save(buf, format="PNG")
    return buf.getvalue()


#: a page that starts loading a picture or fetching data ``ms`` after it is asked to (as a page may while the
#: published judge reads it for its grounder)
IDLE_PAGE = """<!doctype html><body><script>
  window.later = (kind, url, ms) => setTimeout(() => {
    if (kind === 'image') { const i = new Image(); i.src = url; } else { fetch(url); }
  }, ms);
</script></body>"""


async def test_the_published_network_wait_before_grounding(browser, tmp_path):
    (tmp_path / "index.html").write_text(IDLE_PAGE)
    png = _png()

    async def slow(route):
        await asyncio.sleep(1.0)
        await route.fulfill(body=png, content_type="image/png")

    async with opened(browser, tmp_path, deterministic=False) as page:
        await page.route("**/slow-*", slow)
        await page.route("**/never-*", lambda route: route.abort())

        async def waited(rules, script=None, kind="Click"):
            if script:
                await page.evaluate(script)
            t0 = time.monotonic()
            got = await wait_idle(page, None, rules, act(kind))
            return time.monotonic() - t0, got

        # nothing loads: still half a second of quiet
        took, got = await waited(PUBLISHED)
        assert 0.5 <= took < 1.2 and got["ran_out"] is False
        # a picture that starts 0.1 s into the wait and takes a second: waited for, then half a second more
        took, got = await waited(PUBLISHED, "later('image', '/slow-1.png', 100)")
        assert 1.55 <= took < 3.0, took
        # a fetch is not a kind the published wait watches
        took, _ = await waited(PUBLISHED, "later('fetch', '/slow-2.json', 100)")
        assert took < 1.2, took
        # a picture that began before the wait is not watched either
        await page.evaluate("later('image', '/slow-3.png', 0)")
        await asyncio.sleep(0.2)
        took, _ = await waited(PUBLISHED)
        assert took < 1.2, took
        # a picture that never gets a response keeps the wait to its cap (5 s)
        took, got = await waited(PUBLISHED, "later('image', '/never-4.png', 100)")
        assert 5.0 <= took < 6.5 and got["ran_out"] is True and got["pending"] == 1
        # only before a Click or a Type; the project's judge does not wait
        assert (await waited(PUBLISHED, kind="Press"))[1] is None
        took, got = await waited(JUDGE)
        assert got is None and took < 0.2


#: a button no way of clicking can reach: hidden, and its own click() throws
UNCLICKABLE = """<!doctype html><body><button id="gone" style="display:none">Save</button>
<script>document.getElementById('gone').click = () => { throw new Error('no'); };</script></body>"""


async def test_a_grounded_click_counts_as_executed_unless_its_element_is_missing(browser, tmp_path):
    from iwrbench.browser.player import _missing

    (tmp_path / "index.html").write_text(UNCLICKABLE)
    async with opened(browser, tmp_path, deterministic=False) as page:
        handle = await page.query_selector("#gone")
        out = await play(page, act("Click"), handle, VP, PUBLISHED)
        assert out.executed and out.note.startswith("counted as executed") and "click failed" in out.note
        acted = dataclasses.replace(PUBLISHED, executed="acted")
        out = await play(page, act("Click"), handle, VP, acted)
        assert not out.executed and out.error.startswith("click failed")
        # an element the page removed: Playwright says it is not attached, which the published test does not read
        # as missing; the script click still reaches it
        await handle.evaluate("(e) => { delete e.click; e.remove(); }")
        assert (await play(page, act("Click"), handle, VP, PUBLISHED)).executed
        # nothing grounded is never executed
        assert not (await play(page, act("Click"), None, VP, PUBLISHED)).executed
    # the published phrases, as written
    assert _missing("Element with index 7 does not exist - retry or use alternative actions")
    assert _missing("ERROR: no container found")
    assert not _missing("Element is not attached to the DOM") and not _missing("Element Does Not Exist")


async def test_a_key_playwright_does_not_know_is_typed_as_published(browser, tmp_path):
    (tmp_path / "index.html").write_text('<!doctype html><body><input id="f"></body>')
    async with opened(browser, tmp_path, deterministic=False) as page:
        await page.focus("#f")
        out = await play(page, act("Press", key="Return"), None, VP, PUBLISHED)
        assert out.executed and "one character at a time" in out.note
        assert await page.input_value("#f") == "Return"  # browser-use pressed R, e, t, u, r, n
        await page.fill("#f", "")
        out = await play(page, act("Press", key="Return"), None, VP, JUDGE)
        assert not out.executed and "Unknown key" in out.error
        assert await page.input_value("#f") == ""
        assert (await play(page, act("Press", key="Enter"), None, VP, PUBLISHED)).note is None


async def test_a_published_click_waits_for_the_next_page_to_load(browser, tmp_path):
    (tmp_path / "index.html").write_text('<!doctype html><body><a id="go" href="next.html">Next</a></body>')
    (tmp_path / "next.html").write_text('<!doctype html><body><img src="slow-pic.png">Next page</body>')
    png = _png()

    async def slow(route):
        await asyncio.sleep(1.5)
        await route.fulfill(body=png, content_type="image/png")

    for rules, loaded in ((PUBLISHED, True), (dataclasses.replace(PUBLISHED, load_after_click=False), False)):
        async with opened(browser, tmp_path, deterministic=False) as page:
            await page.route("**/slow-pic.png", slow)
            out = await play(page, act("Click"), await page.query_selector("#go"), VP, rules)
            assert out.executed
            state = await page.evaluate("document.readyState")
            assert (state == "complete") is loaded, (rules.load_after_click, state)


async def test_a_published_click_scrolls_its_element_into_view_first(browser, tmp_path):
    # a disabled button far below: Playwright waits for it to be enabled without scrolling, then the script clicks
    (tmp_path / "index.html").write_text("<!doctype html><body style='margin:0;height:3000px'>"
                                         "<button id='b' disabled style='position:absolute;top:2000px'>Far</button>")
    for rules, scrolled in ((PUBLISHED, True), (dataclasses.replace(PUBLISHED, scroll_into_view_first=False), False)):
        async with opened(browser, tmp_path, deterministic=False) as page:
            out = await play(page, act("Click"), await page.query_selector("#b"), VP, rules)
            assert out.executed and out.note.startswith("clicked by script")
            assert (await page.evaluate("scrollY") > 0) is scrolled


# --------------------------------------------------------------------------- the published judge's actions and page
# Scroll counts the window only, Type does not check the field, Hover and Select are not its actions, a covered
# button is clicked by script, and the page runs as in a plain browser (no reduced motion, Math.random its own).

PUBLISHED_PAGE = """<!doctype html><html><body style="margin:0">
<div id="inner" style="height:400px;overflow-y:auto;border:1px solid">
  <div style="height:3000px">a tall list inside a box</div></div>
<input id="name" maxlength="3" placeholder="Name">
<button id="go" onclick="document.body.dataset.clicked = 'yes'" style="position:relative">Go</button>
<div style="position:fixed;left:0;top:0;width:100vw;height:100vh" id="veil"></div>
<select id="pick"><option>One</option><option>Two</option></select>
</body></html>"""




@pytest.fixture
def published_site(tmp_path: Path) -> Path:
    (tmp_path / "index.html").write_text(PUBLISHED_PAGE)
    return tmp_path


async def execute_published(page, action, handle):
    return await play(page, action, handle, VP, PUBLISHED)


async def execute(page, action, handle, viewport):
    return await play(page, action, handle, viewport, JUDGE)


async def test_published_scroll_needs_the_window_to_move(browser, published_site):
    async with opened(browser, published_site, deterministic=False) as page:
        # the page itself does not scroll (it fits the window); only the tall box inside it can
        await page.evaluate("document.getElementById('veil').remove()")
        await page.focus("#inner")
        out = await execute_published(page, act("Scroll", direction="down"), None)
        assert not out.executed and "did not scroll" in out.error
        assert await page.evaluate("document.getElementById('inner').scrollTop") > 0  # the box did move
        # the project's own rule counts the box
        await page.evaluate("document.getElementById('inner').scrollTop = 0")
        assert (await execute(page, act("Scroll", direction="down"), None, VP)).executed


async def test_published_scroll_moves_the_window_down_half_a_window(browser, published_site):
    (published_site / "index.html").write_text("<!doctype html><body style='margin:0'><div style='height:5000px'>long</div>")
    async with opened(browser, published_site, deterministic=False) as page:
        out = await execute_published(page, act("Scroll", direction="up"), None)  # the direction is ignored
        assert out.executed and await page.evaluate("scrollY") == 300


async def test_published_type_click_and_unknown_actions(browser, published_site):
    async with opened(browser, published_site, deterministic=False) as page:
        await page.evaluate("document.getElementById('veil').remove()")
        field = await page.query_selector("#name")
        out = await execute_published(page, act("Type", text="Oat milk"), field)
        assert out.executed  # the published judge does not check what the field shows
        assert await field.evaluate("e => e.value") == "Oat"
        assert not (await execute(page, act("Type", text="Oat milk"), field, VP)).executed
        pick = await page.query_selector("#pick")
        for kind in ("Hover", "Select"):
            out = await execute_published(page, act(kind, value="Two"), pick)
            assert not out.executed and out.error == f"the published judge has no {kind} action"


async def test_a_covered_button_is_clicked_by_script_as_published(browser, published_site):
    async with opened(browser, published_site, deterministic=False) as page:
        button = await page.query_selector("#go")
        out = await execute_published(page, act("Click"), button)
        assert out.executed and out.note.startswith("clicked by script")
        assert await page.evaluate("document.body.dataset.clicked") == "yes"


async def test_the_published_page_is_a_plain_browser(browser, published_site):
    probe = """() => [matchMedia('(prefers-reduced-motion: reduce)').matches,
                      Object.getOwnPropertyDescriptor(Math, 'random').writable,
                      Object.getOwnPropertyNames(window).filter(n => n.startsWith('__iwr')).sort(),
                      /native code/.test(Element.prototype.attachShadow.toString())]"""
    got = {}
    for deterministic in (True, False):
        async with opened(browser, published_site, deterministic=deterministic) as page:
            got[deterministic] = await page.evaluate(probe)
    # offline@2: reduced motion, Math.random replaced by the seeded one, the settle rule's helpers in the page
    assert got[True][:2] == [True, False] and "__iwrMut" in got[True][2] and got[True][3] is False
    assert got[False] == [False, True, [], True]  # iwr-bench@1: none of it, the page's world as in a plain browser
