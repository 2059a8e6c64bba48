"""The relation rung: an element described by where it is relative to a text on screen.

"The round checkbox at the left of the 'Buy milk' item", "the button under 'Total'", "the x to the right of
'Milk'", "the field above 'Password'": a person finds the named text and looks that way for the nearest thing
of the right kind. Each case grounds on a real page (Chromium, a loopback server) and checks by what a click
(or typing) reaches: the control the page marks with ``data-k``, an attribute the ladder never reads.

Each positive case also grounds without the relation rung (the ladder as it was before it), to show the
rung is what makes the difference: there the fuzzy rung takes the words of the description to another
element, or finds nothing. The negative cases show it never takes a wrong control where the other rungs
are right, and stays out when the named text is not on screen.
"""

from __future__ import annotations

from pathlib import Path

import pytest
import pytest_asyncio

from iwrbench.browser.dom import DESCRIBE_JS
from iwrbench.browser.server import StaticServer
from iwrbench.judge.ground import ground
from iwrbench.protocols import OFFLINE
from iwrbench.record.recorder import _verified_role_name
from iwrbench.records import Action, ActionParameters, BBox, Target

pytestmark = pytest.mark.browser
amark = pytest.mark.asyncio(loop_scope="module")

VP = (800, 600)
WITHOUT = tuple(r for r in OFFLINE.grounding if r != "relation")  # the ladder before the relation rung
NO_GRID = tuple(r for r in OFFLINE.grounding if r != "grid")

TAIL = """<script>
window.__hit = null;
document.addEventListener('click', (e) => { const x = e.target.closest('[data-k]'); window.__hit = x ? x.dataset.k : '(none)'; }, true);
</script></body></html>"""

TODOS = ["Buy milk", "Walk the dog", "Call mum"]


def _doc(body: str, css: str = "") -> str:
    return f"<!doctype html><html><head><meta charset=utf-8><style>body{{font:16px sans-serif;margin:0}}{css}</style></head><body>{body}{TAIL}"


def _todo_items(i0: int = 0) -> str:
    return "".join(f'<li><input class="toggle" type="checkbox" data-k="toggle{i}"><label data-k="label{i}">{t}</label>'
                   f'<button class="destroy" data-k="destroy{i}"></button></li>' for i, t in enumerate(TODOS, i0))


TODO_CSS = """
header { height: 130px; text-align: center; } h1 { font-size: 80px; color: #e6c4c4; margin: 0; font-weight: 100; }
.main { width: 550px; margin: 0 auto; box-shadow: 0 2px 4px #0003; position: relative; }
.toggle-all { position: absolute; top: -50px; left: 10px; }
ul { list-style: none; margin: 0; padding: 0; } li { position: relative; font-size: 24px; border-bottom: 1px solid #ededed; height: 58px; }
li .toggle { appearance: none; position: absolute; left: 8px; top: 9px; width: 36px; height: 36px; margin: 0;
             border: 1px solid #bbb; border-radius: 50%; }
li .toggle:checked { border-color: #5dc2af; }
li label { display: block; padding: 15px 15px 15px 60px; line-height: 1.2; }
li .destroy { position: absolute; right: 10px; top: 10px; width: 36px; height: 36px; border: 0; background: none; }
li .destroy::after { content: '\\00d7'; font-size: 28px; color: #cc9a9a; }
"""

# the source (TodoMVC's look) and an unstyled copy of it: the same markup without its stylesheet, so the
# row checkbox is a small native box somewhere else, named by nothing
TODO_SRC = _doc('<header><h1>todos</h1></header><section class="main"><input class="toggle-all" type="checkbox" '
                'id="toggle-all" data-k="toggle-all"><label for="toggle-all" data-k="toggle-all-label">Mark all as complete'
                f'</label><ul>{_todo_items()}</ul></section>', TODO_CSS)
TODO_BARE = _doc('<header><h1>todos</h1></header><section class="main"><input class="toggle-all" type="checkbox" '
                 'id="toggle-all" data-k="toggle-all"><label for="toggle-all" data-k="toggle-all-label">Mark all as complete'
                 f'</label><ul>{_todo_items()}</ul></section>')

PAGES = {
    "todo-src.html": TODO_SRC,
    "todo-bare.html": TODO_BARE,
    # an icon button under a total, beside look-alike buttons under other figures
    "totals.html": _doc('<div style="display:flex;gap:80px;padding:40px">'
                        + "".join(f'<div><div style="font-size:14px;color:#666">{n}</div><div style="font-size:22px">{v}</div>'
                                  f'<button data-k="{k}" style="width:32px;height:32px;margin-top:10px">&#8635;</button></div>'
                                  for n, v, k in (("Subtotal", "$40.00", "sub"), ("Tax", "$3.20", "tax"),
                                                  ("Total", "$43.20", "total")))
                        + '</div>'),
    # a shopping list: each row a word and an x (as text, no name): the x of one row
    "list.html": _doc('<ul style="list-style:none;width:260px;padding:20px">'
                      + "".join(f'<li style="display:flex;justify-content:space-between;padding:6px;border-bottom:1px solid #ddd">'
                                f'<span>{w}</span><span data-k="x-{w}" onclick="this.parentNode.remove()" '
                                f'style="cursor:pointer;color:#999">x</span></li>' for w in ("Bread", "Milk", "Eggs"))
                      + '</ul>'),
    # a 3x3 board of unnamed squares (divs with handlers), a button under it
    "board.html": _doc('<div style="padding:40px 200px"><div style="display:grid;grid-template-columns:repeat(3,90px);gap:6px">'
                       + "".join(f'<div class="sq" data-k="sq{k}" style="height:90px;background:#eef;cursor:pointer" '
                                 f'onclick="this.textContent=\'X\'"></div>' for k in range(1, 10))
                       + '</div><button data-k="new" style="margin-top:20px">New game</button></div>'),
    # a checkbox whose label holds links: clicking the words may follow a link instead of ticking it
    "terms.html": _doc('<form style="padding:40px"><input type="checkbox" id="t" data-k="box"> <label for="t" data-k="words">'
                       'I agree to the <a href="#tos" data-k="tos">Terms of Service</a> and <a href="#pp" data-k="pp">'
                       'Privacy Policy</a></label></form>'),
    # fields with their captions under them (no label element, no placeholder)
    "captions.html": _doc('<form style="padding:30px;width:300px">'
                          '<input data-k="user" style="display:block;width:100%"><div style="font-size:12px;margin-bottom:18px">Username</div>'
                          '<input data-k="pw" type="password" style="display:block;width:100%"><div style="font-size:12px">Password</div>'
                          '</form>'),
}


@pytest_asyncio.fixture(scope="module", loop_scope="module")
async def env(tmp_path_factory):
    from playwright.async_api import async_playwright

    from iwrbench.browser.core import launch_browser, new_context

    root: Path = tmp_path_factory.mktemp("relation-pages")
    for name, html in PAGES.items():
        (root / name).write_text(html, encoding="utf-8")
    with StaticServer({"/": root}) as srv:
        async with async_playwright() as pw:
            browser = await launch_browser(pw)
            ctx, _ = await new_context(browser, VP, allowed_origins={srv.origin})
            yield srv, ctx
            await ctx.close()
            await browser.close()


async def recorded(env, src: str, selector: str, description: str) -> Action:
    """The action as the recorder writes it (role, name, box of the target on the source)."""
    srv, ctx = env
    p = await ctx.new_page()
    try:
        await p.goto(srv.url(src))
        el = p.locator(selector)
        d = await el.evaluate(DESCRIBE_JS)
        role, name = await _verified_role_name(p, el, d)
        t = Target(role=role, name=name, text=d.get("text") or None, tag=d.get("tag"), label=d.get("label"),
                   attributes=d.get("attributes") or {}, bbox=BBox(**d["bbox"]), editable=bool(d.get("editable")),
                   selector=selector)
    finally:
        await p.close()
    return Action(type="Click", parameters=ActionParameters(description=description), target=t)


def described(description: str, type_: str = "Click", **params) -> Action:
    """An action of the official layout: a description and nothing recorded."""
    return Action(type=type_, parameters=ActionParameters(description=description, **params))


async def judge(env, variant: str, action: Action, rungs=None):
    """Ground on the page; return (grounding, data-k of the element, data-k a click or typing reached)."""
    srv, ctx = env
    p = await ctx.new_page()
    try:
        await p.goto(srv.url(variant))
        got = await ground(p, action, VP, rungs=rungs)
        key = hit = None
        if got.handle is not None:
            key = await got.handle.evaluate("(e) => { const x = e.closest('[data-k]'); return x ? x.dataset.k : null; }")
            if action.type == "Type":
                await got.handle.fill(action.parameters.text or "x")
                hit = await p.evaluate("() => document.activeElement && document.activeElement.dataset.k")
            else:
                await got.handle.click(timeout=2000)
                hit = await p.evaluate("() => window.__hit")
        return got.grounding, key, hit
    finally:
        await p.close()


@amark
async def test_round_checkbox_at_the_left_of_an_item_on_an_unstyled_copy(env):
    a = await recorded(env, "todo-src.html", "li:nth-child(1) .toggle", "the round checkbox at the left of the 'Buy milk' item")
    assert a.target.role == "checkbox" and not a.target.name  # nothing names it
    g, key, hit = await judge(env, "todo-src.html", a)
    assert (key, hit) == ("toggle0", "toggle0") and g.rung == "position"  # the source: where it was
    g, key, hit = await judge(env, "todo-bare.html", a)
    assert (key, hit) == ("toggle0", "toggle0"), [(t.rung, t.detail) for t in g.tried]
    assert g.rung == "relation" and "left of 'Buy milk'" in g.tried[-1].detail
    # without the rung the words of the description took another element
    g0, key0, _ = await judge(env, "todo-bare.html", a, rungs=WITHOUT)
    assert key0 != "toggle0", (g0.rung, key0)


@amark
async def test_official_layout_actions_by_relation(env):
    cases = [
        (described("the round checkbox at the left of the 'Walk the dog' item"), "todo-bare.html", "toggle1"),
        (described("the button under 'Total'"), "totals.html", "total"),
        (described("the x to the right of 'Milk'"), "list.html", "x-Milk"),
        (described("the field above 'Password'", "Type", text="hunter2"), "captions.html", "pw"),
        (described("the field above 'Username'", "Type", text="ada"), "captions.html", "user"),
    ]
    for a, page, want in cases:
        g, key, hit = await judge(env, page, a)
        assert (key, hit) == (want, want), (a.description, g.rung, [(t.rung, t.detail) for t in g.tried])
        assert g.rung == "relation", (a.description, g.rung)
        g0, key0, _ = await judge(env, page, a, rungs=WITHOUT)
        assert key0 != want, (a.description, g0.rung, key0)  # the fuzzy rung alone does not find it


@amark
async def test_relation_does_not_overrule_the_name_rungs_and_needs_the_named_text(env):
    # a recorded target found by its name: the relation (which points elsewhere) is never asked
    a = await recorded(env, "todo-src.html", "#toggle-all", "the 'Mark all as complete' toggle at the left of 'Buy milk'")
    g, key, _ = await judge(env, "todo-bare.html", a)
    assert key == "toggle-all" and g.rung != "relation" and "relation" not in [t.rung for t in g.tried]
    # the named text is nowhere on screen: the rung says so and finds nothing
    g, key, _ = await judge(env, "list.html", described("the x to the right of 'Butter'"))
    rel = next(t for t in g.tried if t.rung == "relation")
    assert rel.matches == 0 and "not on screen" in rel.detail and g.rung != "relation"
    # the description names the element too: an element that way that does not say it is not taken
    g, key, _ = await judge(env, "totals.html", described("the 'Refund' button under 'Total'"))
    rel = next(t for t in g.tried if t.rung == "relation")
    assert rel.matches == 0 and "saying 'Refund'" in rel.detail and key != "total"
    # a button above 'Total' there is none: nothing is taken from below or beside
    g, key, _ = await judge(env, "totals.html", described("the button above 'Total'"))
    assert g.rung != "relation" and next(t for t in g.tried if t.rung == "relation").matches == 0


@amark
async def test_a_cell_of_a_board_named_by_its_place(env):
    cases = [("the top-left square of the 3\u00d73 board", "sq1"), ("the bottom-right square of the board", "sq9"),
             ("the middle-left square of the board, completing the left column", "sq4"),
             ("the square in row 2, column 3 of the board", "sq6"), ("the centre of the board", "sq5"),
             ("the top-middle square of the board", "sq2")]
    for desc, want in cases:
        g, key, hit = await judge(env, "board.html", described(desc))
        assert (key, hit) == (want, want), (desc, g.rung, [(t.rung, t.detail) for t in g.tried])
        assert g.rung == "grid"
        g0, key0, _ = await judge(env, "board.html", described(desc), rungs=NO_GRID)
        assert key0 != want, (desc, g0.rung, key0)  # the words alone name no square
    # a board of another size than the description's, and a place off the board: nothing taken
    for desc in ("the top-left square of the 4\u00d74 board", "the square in row 4, column 1 of the board"):
        g, key, _ = await judge(env, "board.html", described(desc))
        assert key is None or g.rung != "grid", (desc, key)
        assert next(t for t in g.tried if t.rung == "grid").matches == 0
    # the button under the board is found by its name, not taken for a square
    g, key, hit = await judge(env, "board.html", described("the 'New game' button under the board"))
    assert (key, hit) == ("new", "new")


@amark
async def test_the_kind_a_description_names_ranks_a_checkbox_above_its_label(env):
    # the label's words match as well as the checkbox's name; clicking them follows 'Terms of Service'
    g, key, hit = await judge(env, "terms.html", described("the checkbox 'I agree to the Terms of Service and Privacy Policy'"))
    assert (key, hit) == ("box", "box"), (g.rung, g.element)
    g, key, hit = await judge(env, "todo-bare.html", described("the 'Mark all as complete' checkbox"))
    assert (key, hit) == ("toggle-all", "toggle-all"), (g.rung, g.element)
