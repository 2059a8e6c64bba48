"""iwr-bench@1's browser (browser/core.py, ``page_setup="published"``): what the published judge's browser does
that the project's does not, each on a page made for it, in real Chromium beside the project's browser: scrollbars
drawn (they take layout width), smooth scrolling, ``navigator.webdriver`` false, screenshots that do not wait for
web fonts. A published replay refuses any other browser."""

from __future__ import annotations

import asyncio
import time
from contextlib import asynccontextmanager
from pathlib import Path

import pytest
from PIL import Image

from iwrbench.browser.core import (LAUNCH_ARGS, PUBLISHED_IGNORED_DEFAULT_ARGS, PUBLISHED_LAUNCH_ARGS, browser_setup,
                                   launch_browser, new_context)
from iwrbench.browser.host import PageBundle
from iwrbench.browser.server import StaticServer
from iwrbench.browser.settle import screenshot
from iwrbench.errors import ComponentMissing, InfraError
from iwrbench.judge.replay import replay
from iwrbench.protocols import OFFLINE, PUBLISHED
from iwrbench.records import Task

VP = (800, 600)

#: taller than the window, one colour edge to edge
TALL = "<!doctype html><body style='margin:0;background:rgb(250,250,250)'><div style='height:3000px'>tall</div>"


@asynccontextmanager
async def page_of(browser, site: Path):
    with StaticServer({"/": site}) as s:
        ctx, _ = await new_context(browser, VP, allowed_origins={s.origin}, deterministic=False)
        try:
            page = await ctx.new_page()
            await page.goto(s.url("index.html"))
            yield page
        finally:
            await ctx.close()


def test_the_published_switches():
    # what differs from the project's browser, and nothing else (the walls and the rastering switches stay)
    assert set(LAUNCH_ARGS) - set(PUBLISHED_LAUNCH_ARGS) == {
        "--hide-scrollbars", "--font-render-hinting=none", "--disable-smooth-scrolling",
        "--enable-blink-features=CSSImageAnimation"}
    assert set(PUBLISHED_LAUNCH_ARGS) - set(LAUNCH_ARGS) == {"--disable-blink-features=AutomationControlled"}
    assert PUBLISHED_IGNORED_DEFAULT_ARGS == ["--hide-scrollbars", "--enable-automation"]


async def test_scrollbars_are_drawn_and_take_layout_width(browser, published_browser, tmp_path):
    (tmp_path / "index.html").write_text(TALL)
    got = {}
    for name, b in (("project", browser), ("published", published_browser)):
        async with page_of(b, tmp_path) as page:
            width = await page.evaluate("document.documentElement.clientWidth")
            png = await screenshot(page, str(tmp_path / f"{name}.png"), still=False)
            assert png
            with Image.open(tmp_path / f"{name}.png") as im:
                edge = im.convert("RGB").getpixel((VP[0] - 5, VP[1] // 2))
            got[name] = (width, edge)
    assert got["project"] == (800, (250, 250, 250))
    width, edge = got["published"]
    assert width < 800 and edge != (250, 250, 250)  # the page is narrower; its right edge shows the scrollbar


async def test_smooth_scrolling_and_webdriver(browser, published_browser, tmp_path):
    (tmp_path / "index.html").write_text(TALL.replace("<body", "<style>html{scroll-behavior:smooth}</style><body"))
    probe = "() => { scrollBy(0, 300); return [scrollY, navigator.webdriver]; }"
    async with page_of(browser, tmp_path) as page:
        assert await page.evaluate(probe) == [300, True]  # jumps; Playwright's automation flag
    async with page_of(published_browser, tmp_path) as page:
        y, webdriver = await page.evaluate(probe)
        assert y < 300 and webdriver is False  # still on its way; as browser-use's browser
        await asyncio.sleep(1.5)
        assert await page.evaluate("scrollY") == 300


#: text in a web font that takes two seconds to arrive (requested once the text is added, after loading)
FONT_PAGE = """<!doctype html><style>
@font-face { font-family: Slow; src: url(slow-font.woff2); font-display: block; }
</style><body><script>
window.show = () => { const p = document.createElement('p'); p.style.fontFamily = 'Slow'; p.textContent = 'Hello';
                      document.body.append(p); };
</script></body>"""


async def test_a_published_screenshot_does_not_wait_for_web_fonts(browser, published_browser, tmp_path):
    (tmp_path / "index.html").write_text(FONT_PAGE)

    async def slow(route):
        await asyncio.sleep(2.0)
        await route.fulfill(body=b"not a font", content_type="font/woff2")

    took = {}
    for name, b in (("project", browser), ("published", published_browser)):
        async with page_of(b, tmp_path) as page:
            await page.route("**/slow-font.woff2", slow)
            await page.evaluate("show()")
            await page.evaluate("() => new Promise(r => requestAnimationFrame(() => requestAnimationFrame(r)))")
            assert await page.evaluate("document.fonts.status") == "loading"
            t0 = time.monotonic()
            await screenshot(page, None, still=False)
            took[name] = time.monotonic() - t0
    assert took["project"] >= 1.0 and took["published"] < 1.0, took


async def test_the_published_browser_needs_its_own_driver():
    from playwright.async_api import async_playwright

    async with async_playwright() as pw:
        with pytest.raises(ComponentMissing, match="start_playwright"):
            await launch_browser(pw, page_setup="published")


def _scroll_task(folder: Path) -> Task:
    (folder / "assets").mkdir(parents=True, exist_ok=True)
    return Task.model_validate({"id": "tall", "recording_details": {"resolution": f"{VP[0]}x{VP[1]}"},
                                "action_sequence": [{"type": "Scroll", "parameters": {"description": "down"}}]
                                }).bind(folder)


async def test_a_published_replay_shows_the_scrollbar_and_refuses_another_browser(browser, published_browser,
                                                                                 tmp_path):
    (tmp_path / "page").mkdir()
    (tmp_path / "page" / "index.html").write_text(TALL)
    task = _scroll_task(tmp_path / "task")
    bundle = PageBundle(root=tmp_path / "page")
    assert browser_setup(published_browser) == "published" and browser_setup(browser) == "deterministic"
    with pytest.raises(InfraError, match="launched for 'deterministic'"):
        await replay(browser, task, bundle, tmp_path / "wrong", PUBLISHED)
    with pytest.raises(InfraError, match="launched for 'published'"):
        await replay(published_browser, task, bundle, tmp_path / "wrong2", OFFLINE)
    rep = await replay(published_browser, task, bundle, tmp_path / "shots", PUBLISHED)
    assert rep.steps[0].executed and rep.page_error is None
    with Image.open(rep.shots[0]) as im:
        assert im.convert("RGB").getpixel((VP[0] - 5, VP[1] // 2)) != (250, 250, 250)
