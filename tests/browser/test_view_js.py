"""What the reader counts as visible on a real page in Chromium: painted in the viewport (not hidden,
transparent, clipped away or covered); fields, placeholders and buttons in their channels."""

import pytest

from iwrbench.browser.core import new_context
from iwrbench.browser.server import StaticServer
from iwrbench.browser.view import read_view
from iwrbench.checks.view import View

PAGE = """<!doctype html><html><head><style>
body{margin:0;font:16px sans-serif}
.sr{position:absolute;width:1px;height:1px;overflow:hidden;clip:rect(0,0,0,0)}
</style></head><body>
<h1>todos</h1>
<p><strong>1</strong> item left</p>
<span class=sr>Screen reader only</span>
<p style="opacity:0">Invisible opacity</p>
<div style="opacity:.5"><div style="opacity:.1">Faded twice</div></div>
<p style="color:transparent">Transparent text</p>
<p style="visibility:hidden">Hidden visibility</p>
<p hidden>Hidden attribute</p>
<p style="font-size:2px">Tiny text</p>
<div style="position:relative;height:30px"><span>Covered text</span>
  <div style="position:absolute;inset:0;background:#fff"></div></div>
<div style="position:relative;height:30px"><span>Under glass</span>
  <div style="position:absolute;inset:0;background:transparent"></div></div>
<div style="height:20px;overflow:hidden"><div style="height:20px">Clipped in</div><div>Clipped out</div></div>
<input value="Buy milk"> <input placeholder="What needs to be done?"> <input value="Shown" readonly>
<input type=password value="secret"> <button>Add <span>to</span> cart</button> <input type=submit value="Go">
<div style="position:absolute;top:3000px">Below the fold</div>
<div style="position:absolute;left:-500px;top:10px">Left of the viewport</div>
<p>n<sup>o</sup> 5 and \ufb01le</p>
<div id=host></div>
<script>document.getElementById('host').attachShadow({mode:'open'}).innerHTML = '<b>Inside shadow</b>';</script>
</body></html>"""


@pytest.fixture
def server(tmp_path):
    (tmp_path / "index.html").write_text(PAGE)
    with StaticServer({"/": tmp_path}) as s:
        yield s


async def test_reader_keeps_only_what_a_person_sees(browser, server):
    ctx, _ = await new_context(browser, (1000, 700), allowed_origins={server.origin})
    page = await ctx.new_page()
    await page.goto(server.url("index.html"))
    v = View.from_js(await read_view(page))
    seen = {p: v.count(p) for p in ["1 item left", "Add to cart", "Go", "Under glass", "Clipped in", "nº 5", "file",
                                    "Inside shadow", "Shown"]}
    assert all(seen.values()), seen
    hidden = {p: v.count(p) + v.count(p, "field") for p in [
        "Screen reader only", "Invisible opacity", "Faded twice", "Transparent text", "Hidden visibility",
        "Hidden attribute", "Tiny text", "Covered text", "Clipped out", "Below the fold", "Left of the viewport",
        "secret"]}
    assert not any(hidden.values()), hidden
    assert v.count("Buy milk", "field") == 1 and v.count("Buy milk") == 0
    assert v.count("What needs to be done?", "field") == 1
    await page.evaluate("scrollTo(0, 2600)")
    assert View.from_js(await read_view(page)).count("Below the fold") == 1
    await ctx.close()


CHEAT = """<!doctype html><html><body><h1>Shop</h1>
<div style="display:none" id=secret>Order confirmed!</div>
<script>
// a page that lies to readers in its own world: hidden text made to look visible
const real = window.getComputedStyle;
window.getComputedStyle = (e, p) => { const cs = real(e, p); return new Proxy(cs, {get: (t, k) =>
  k === 'display' ? 'block' : k === 'visibility' ? 'visible' : k === 'opacity' ? '1' : (typeof t[k] === 'function' ? t[k].bind(t) : t[k])}); };
Range.prototype.getClientRects = function () { return [new DOMRect(10, 100, 200, 20)]; };
Range.prototype.getBoundingClientRect = function () { return new DOMRect(10, 100, 60, 20); };
Element.prototype.getBoundingClientRect = function () { return new DOMRect(10, 100, 200, 20); };
</script></body></html>"""


async def test_reader_runs_in_its_own_world(browser, tmp_path):
    (tmp_path / "index.html").write_text(CHEAT)
    with StaticServer({"/": tmp_path}) as s:
        ctx, _ = await new_context(browser, (1000, 700), allowed_origins={s.origin})
        page = await ctx.new_page()
        await page.goto(s.url("index.html"))
        fooled = await page.evaluate("() => getComputedStyle(document.getElementById('secret')).display")
        v = View.from_js(await read_view(page))
        await ctx.close()
    assert fooled == "block"  # the page's own world believes the lies; the reader never asks it
    assert v.count("Order confirmed!") == 0 and v.count("Shop") == 1


SLOTTED = """<!doctype html><html><body>
<todo-row id=a><span>Water the plants</span></todo-row>
<todo-row id=b><span>Buy milk</span></todo-row>
<script>
for (const [id, css] of [['a', 'label{text-decoration:line-through}'], ['b', 'label{opacity:0}']]) {
  document.getElementById(id).attachShadow({mode: 'open'}).innerHTML = `<style>${css}</style><label><slot></slot></label>`;
}
</script></body></html>"""


async def test_reader_follows_slotted_text_into_its_shadow_tree(browser, tmp_path):
    """Text slotted into a shadow tree is rendered, struck through or faded, as the shadow tree says (the flat
    tree), not as its light-DOM parents say: a web-components TodoMVC strikes its completed items this way."""
    (tmp_path / "index.html").write_text(SLOTTED)
    with StaticServer({"/": tmp_path}) as s:
        ctx, _ = await new_context(browser, (1000, 700), allowed_origins={s.origin})
        page = await ctx.new_page()
        await page.goto(s.url("index.html"))
        v = View.from_js(await read_view(page))
        await ctx.close()
    assert v.count("Water the plants", "struck") == 1
    assert v.count("Buy milk") == 0
