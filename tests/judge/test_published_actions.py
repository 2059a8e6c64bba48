"""The published judge's actions and page, in real Chromium: Scroll counts the window only, Type does
not check the field, Hover and Select are not its actions, a covered button is clicked by script, and
the page runs as in a plain browser (no reduced motion, Math.random its own)."""

from contextlib import asynccontextmanager
from pathlib import Path

import pytest

from iwrbench.browser.core import new_context
from iwrbench.browser.server import StaticServer
from iwrbench.browser.player import JUDGE, PUBLISHED, play
from iwrbench.records import Action

PAGE = """<!doctype html><html><body style="margin:0">
<div id="inner" style="height:400px;overflow-y:auto;border:1px solid">
  <div style="height:3000px">a tall list inside a box</div></div>
<input id="name" maxlength="3" placeholder="Name">
<button id="go" onclick="document.body.dataset.clicked = 'yes'" style="position:relative">Go</button>
<div style="position:fixed;left:0;top:0;width:100vw;height:100vh" id="veil"></div>
<select id="pick"><option>One</option><option>Two</option></select>
</body></html>"""


@pytest.fixture
def site(tmp_path: Path) -> Path:
    (tmp_path / "index.html").write_text(PAGE)
    return tmp_path


@asynccontextmanager
async def opened(browser, site, *, deterministic=False):
    """The site's page in a context of the given kind, closed afterwards."""
    with StaticServer({"/": site}) as s:
        ctx, _ = await new_context(browser, (800, 600), allowed_origins={s.origin}, deterministic=deterministic)
        try:
            page = await ctx.new_page()
            await page.goto(s.url("index.html"))
            yield page
        finally:
            await ctx.close()


def act(kind: str, **params) -> Action:
    return Action(type=kind, parameters={"description": "x", **params})


async def execute_published(page, action, handle):
    return await play(page, action, handle, (800, 600), PUBLISHED)


async def execute(page, action, handle, viewport):
    return await play(page, action, handle, viewport, JUDGE)


async def test_published_scroll_needs_the_window_to_move(browser, site):
    async with opened(browser, site, deterministic=False) as page:
        # the page itself does not scroll (it fits the window); only the tall box inside it can
        await page.evaluate("document.getElementById('veil').remove()")
        await page.focus("#inner")
        out = await execute_published(page, act("Scroll", direction="down"), None)
        assert not out.executed and "did not scroll" in out.error
        assert await page.evaluate("document.getElementById('inner').scrollTop") > 0  # the box did move
        # the project's own rule counts the box
        await page.evaluate("document.getElementById('inner').scrollTop = 0")
        assert (await execute(page, act("Scroll", direction="down"), None, (800, 600))).executed


async def test_published_scroll_moves_the_window_down_half_a_window(browser, site):
    (site / "index.html").write_text("<!doctype html><body style='margin:0'><div style='height:5000px'>long</div>")
    async with opened(browser, site, deterministic=False) as page:
        out = await execute_published(page, act("Scroll", direction="up"), None)  # the direction is ignored
        assert out.executed and await page.evaluate("scrollY") == 300


async def test_published_type_click_and_unknown_actions(browser, site):
    async with opened(browser, site, deterministic=False) as page:
        await page.evaluate("document.getElementById('veil').remove()")
        field = await page.query_selector("#name")
        out = await execute_published(page, act("Type", text="Oat milk"), field)
        assert out.executed  # the published judge does not check what the field shows
        assert await field.evaluate("e => e.value") == "Oat"
        assert not (await execute(page, act("Type", text="Oat milk"), field, (800, 600))).executed
        pick = await page.query_selector("#pick")
        for kind in ("Hover", "Select"):
            out = await execute_published(page, act(kind, value="Two"), pick)
            assert not out.executed and out.error == f"the published judge has no {kind} action"


async def test_a_covered_button_is_clicked_by_script_as_published(browser, site):
    async with opened(browser, site, deterministic=False) as page:
        button = await page.query_selector("#go")
        out = await execute_published(page, act("Click"), button)
        assert out.executed and out.note.startswith("clicked by script")
        assert await page.evaluate("document.body.dataset.clicked") == "yes"


async def test_the_published_page_is_a_plain_browser(browser, site):
    probe = """() => [matchMedia('(prefers-reduced-motion: reduce)').matches,
                      Object.getOwnPropertyDescriptor(Math, 'random').writable]"""
    got = {}
    for deterministic in (True, False):
        async with opened(browser, site, deterministic=deterministic) as page:
            got[deterministic] = await page.evaluate(probe)
    assert got[True] == [True, False]  # offline@2: reduced motion, Math.random replaced by the seeded one
    assert got[False] == [False, True]  # iwr-bench@1: neither
