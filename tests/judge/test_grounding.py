"""The grounding ladder finds the recorded element on pages written with other markup.

Each case records a target on a "source" page the way the recorder does (DESCRIBE_JS, the role
and name Playwright verifies, an element screenshot as the crop), then grounds that action on a
"rebuilt" page that looks and behaves alike but is written differently (divs for buttons, no
ARIA, other ids/classes, other spellings of the same words, a moved layout). The grounded
element is checked by what a person would see happen: clicking it (or typing into it) reaches
the control the rebuilt page marks with ``data-k`` (an attribute the ladder never reads).
Negative cases: where nothing fitting is there, nothing is grounded.
"""

from __future__ import annotations

import io
import time
from pathlib import Path

import pytest
import pytest_asyncio
from PIL import Image

from iwrbench.browser.dom import DESCRIBE_JS
from iwrbench.browser.server import StaticServer
from iwrbench.judge.ground import ground
from iwrbench.judge.text import loose_name, name_match, names_conflict, norm_name, quoted_phrases
from iwrbench.record.recorder import _verified_role_name
from iwrbench.records import Action, ActionParameters, BBox, Target

pytestmark = pytest.mark.browser

amark = pytest.mark.asyncio(loop_scope="module")

VP = (800, 600)
TIMINGS: list[tuple[str, str, float]] = []  # (case, rung, ms)

HEAD = """<!doctype html><html><head><meta charset="utf-8"><style>
body { margin: 0; font: 16px/1.4 sans-serif; color: #222; }
button, .btn { font: inherit; padding: 6px 12px; margin: 4px; border: 1px solid #888; background: #eee; border-radius: 4px; }
.btn { display: inline-block; }
table { border-collapse: collapse; margin: 20px; }
td { padding: 6px 10px; border-bottom: 1px solid #ddd; height: 24px; }
.card { display: inline-block; width: 220px; margin: 10px; padding: 10px; border: 1px solid #ccc; vertical-align: top; }
.icon { width: 36px; height: 36px; padding: 6px; margin: 2px; border: 0; background: #fff; display: inline-block; box-sizing: border-box; }
.chk { display: inline-block; width: 13px; height: 13px; border: 1px solid #767676; border-radius: 2px; background: #fff; box-sizing: border-box; }
%s</style></head><body>"""
# every rebuilt page records which data-k control a click reached
TAIL = """<script>
window.__hit = null;
document.addEventListener('click', (e) => { const x = e.target.closest('[data-k]'); window.__hit = x ? x.dataset.k : '(none)'; }, true);
</script></body></html>"""

GEAR = ('<svg width="24" height="24" viewBox="0 0 24 24"><circle cx="12" cy="12" r="4" fill="none" stroke="#333" stroke-width="2"/>'
        '<path d="M12 1v5M12 18v5M1 12h5M18 12h5M4 4l3.5 3.5M16.5 16.5L20 20M4 20l3.5-3.5M16.5 7.5L20 4" stroke="#333" stroke-width="2"/></svg>')
BELL = ('<svg width="24" height="24" viewBox="0 0 24 24"><path d="M6 17V11a6 6 0 0 1 12 0v6l2 2H4z" fill="#c33"/>'
        '<circle cx="12" cy="21" r="2" fill="#c33"/></svg>')
USER = ('<svg width="24" height="24" viewBox="0 0 24 24"><circle cx="12" cy="8" r="5" fill="#36c"/>'
        '<path d="M3 23c0-6 4-9 9-9s9 3 9 9z" fill="#36c"/></svg>')

STAR = ('<svg width="24" height="24" viewBox="0 0 24 24"><path d="M12 2l3 7h7l-5.5 4.5 2 7.5-6.5-4.5-6.5 4.5 2-7.5L2 9h7z" '
        'fill="none" stroke="#999" stroke-width="2"/></svg>')

INVOICES = [("Invoice 2288", "$40.00"), ("Invoice 2289", "$75.50"), ("Invoice 2291", "$120.00"), ("Invoice 2295", "$9.99")]
SHOES = [("Summit Trail Runner", "Blue mesh, grippy sole", "$129"), ("Harbor Loafer", "Brown leather", "$89"),
         ("Canyon Boot", "Waterproof suede", "$159")]

CALS = ("Studio", "Clients", "Site visits", "Personal")
CAL_CSS = """.side { position: absolute; left: 0; top: 0; width: 200px; padding: 12px; }
.side li { list-style: none; margin: 6px 0; }
.scrim { position: fixed; inset: 0; background: rgba(22, 28, 40, 0.45); }
.dlg { position: absolute; top: 20px; width: 360px; padding: 14px; background: #fff; border-radius: 8px; font-size: 13px; }
.dlg select { display: block; }
.chip { display: inline-block; padding: 3px 9px; margin: 2px; border: 1px solid #bbb; border-radius: 12px; cursor: pointer; }"""
CAL_SIDE = ('<aside class="side"><h2>My calendars</h2><ul>' + "".join(
    f'<li><label data-k="side-{c.lower()}"><input type="checkbox" checked> {c}</label></li>' for c in CALS) + '</ul></aside>')
#: a new-event form whose menus list days and times: past 400 characters of text before its calendar field, under 600
CAL_FORM = ('<h3>New event</h3><label>Title <input></label><label>Day <select>' + "".join(
    f"<option>{d} {n} Dec</option>" for d, n in zip(("Mon", "Tue", "Wed", "Thu", "Fri", "Sat", "Sun"), range(7, 14)))
    + '</select></label><label>Starts <select>' + "".join(
    f"<option>{h:02d}:{m:02d}</option>" for h in range(7, 20) for m in (0, 30)) + '</select></label><label>Ends <select>' + "".join(
    f"<option>{h:02d}:{m:02d}</option>" for h in range(7, 20) for m in (0, 30)) + '</select></label>')


def CAL_FIELD(label: str, chip) -> str:
    return f'<div class="f"><span>{label}</span><div class="chips">' + "".join(chip(c) for c in CALS) + '</div></div>'

MINE = ("..1..", "111.1", "1....")  # '.': a closed square, a digit: an open one
MINE_CSS = """.mrow { display: flex; margin-left: 20px; } .mrow > * { width: 27px; height: 27px; margin: 1px; padding: 0;
border: 1px solid #999; box-sizing: border-box; font: 600 14px/25px sans-serif; text-align: center; color: #1c5bd6; }
.mrow > button { background: #c9ced6; }"""


def mine(attrs) -> str:
    """The board; ``attrs(row, col)``: a closed square's attributes (rows and columns from 1)."""
    return "".join('<div class="mrow">' + "".join(
        f'<button type="button"{attrs(r, c)}></button>' if ch == "." else f"<span>{ch}</span>"
        for c, ch in enumerate(line, 1)) + "</div>" for r, line in enumerate(MINE, 1))


SHEET = [("Venue hire", "1", "850.00"), ("Catering (per head)", "42", "31.50"), ("Delivery and setup", "", ""),
         ("Staffing", "3", "180.00")]
SHEET_CSS = """.sheet { border-collapse: collapse; margin: 20px; font: 13px sans-serif; }
.sheet td, .sheet th { width: 110px; height: 24px; border: 1px solid #dadce0; padding: 0 6px; }
.sheet th { background: #f1f3f4; font-weight: 500; }"""


def sheet(attrs, rows=SHEET) -> str:
    """A small sheet; its cells get ``attrs(row, col)`` (rows from 1, columns A..E); clicks are heard on the table."""
    head = "<tr><th></th>" + "".join(f"<th>{c}</th>" for c in "ABCDE") + "</tr>"
    body = "".join(f"<tr><th>{r}</th>" + "".join(
        f"<td{attrs(r, c)}>{v}</td>" for c, v in zip("ABCDE", (*row, "", ""))) + "</tr>" for r, row in enumerate(rows, 1))
    return (f'<table class="sheet">{head}{body}</table><script>document.querySelector(".sheet")'
            '.addEventListener("click", () => {});</script>')


def page(body: str, css: str = "", tail: str = TAIL) -> str:
    return HEAD % css + body + tail


def rows(cell) -> str:
    return "".join(f"<tr>{cell(i)}<td>{n}</td><td>{p}</td></tr>" for i, (n, p) in enumerate(INVOICES))


def cards(order, button) -> str:
    return "".join(f'<div class="card"><h3>{SHOES[i][0]}</h3><p>{SHOES[i][1]}</p><p>{SHOES[i][2]}</p>{button(i)}</div>'
                   for i in order)


PAGES = {
    # 1. buttons written as divs with click handlers, no ARIA, other classes
    "bar-src.html": page('<div class="bar"><button id="pub">Publish</button><button id="save" class="primary">Save draft</button>'
                         '<button id="del">Discard</button></div>'),
    "bar-divs.html": page('<section class="q9"><div class="btn z1" data-k="publish">Publish</div>'
                          '<div class="btn z2" data-k="save">Save draft</div><div class="btn z3" data-k="discard">Discard</div></section>'
                          '<script>for (const d of document.querySelectorAll(".btn")) d.addEventListener("click", () => {});</script>'),
    # 2. a close button named by aria-label; rebuilt as a link with a title, another glyph, other spacing/case
    "close-src.html": page('<p>Dialog</p><button id="x" aria-label="Close dialog">\u00d7</button>'),
    "close-title.html": page('<p>Dialog</p><a class="cl" data-k="close" title="close   Dialog" style="cursor:pointer">\u2715</a>'),
    # 3. No (n<sup>o</sup>) vs nº, and case/whitespace
    "sort-src.html": page('<button>Sort by date</button><button id="n">Sort by N<sup>o</sup></button>'),
    "sort-ord.html": page('<button data-k="date">Sort by date</button><button data-k="no">sort  by N\u00ba</button>'),
    # 4. a ligature: "file" vs "\ufb01le", as a link and as a div in capitals
    "up-src.html": page('<nav><a href="#home">Home</a> <a id="up" href="#upload">Upload file</a></nav>'),
    "up-lig.html": page('<nav><a href="#/h" data-k="home">Home</a> <a href="#/x/upload" data-k="upload">Upload \ufb01le</a></nav>'),
    "up-caps.html": page('<nav><div class="btn" data-k="home">Home</div> <div class="btn" data-k="upload">UPLOAD\n   FILE</div></nav>'),
    # 5. icon-font glyphs (private-use characters) in the name
    "search-src.html": page('<button id="s"><i class="mi">\ue8b6</i> Search</button><button>Filters</button>'),
    "search-css.html": page('<button data-k="search"><span class="fa"></span>Search</button><button data-k="filters">Filters</button>',
                            css='.fa::before { content: "\\f002"; margin-right: 4px; }'),
    # 6. an unnamed row checkbox: native in the source, custom spans in the rebuild
    "inv-src.html": page('<table>' + rows(lambda i: f'<td><input type="checkbox" id="c{i}"></td>') + '</table>'),
    "inv-spans.html": page('<table>' + rows(lambda i: f'<td><span class="chk" data-k="row{i}" style="cursor:pointer"></span></td>')
                           + '</table>', css='.chk { margin: 4px 3px; }'),
    # ... an invisible native checkbox over a drawn box (a common way to style one)
    "inv-overlay.html": page('<table>' + rows(lambda i: f'<td><label class="chk" data-k="row{i}" style="position:relative">'
                             '<input type="checkbox" style="opacity:0;position:absolute;inset:0;margin:0;width:100%;height:100%">'
                             '</label></td>') + '</table>', css='.chk { margin: 4px 3px; }'),
    # ... the same table moved 150 px right: nothing at the recorded position, the checkbox by appearance + row text
    "inv-moved.html": page('<div style="margin-left:150px"><table>'
                           + rows(lambda i: f'<td><input type="checkbox" data-k="row{i}"></td>') + '</table></div>'),
    # ... a text field where the checkbox was: an unrelated control
    "inv-field.html": page('<table>' + rows(lambda i: f'<td><input size="1" data-k="field{i}"></td>') + '</table>'),
    # 7. an icon button with no name
    "tools-src.html": page('<div class="tools"><button class="icon" id="g">' + GEAR + '</button><button class="icon">' + BELL
                           + '</button><button class="icon">' + USER + '</button></div>'),
    "tools-divs.html": page('<div class="tb"><div class="icon" data-k="gear" tabindex="0">' + GEAR + '</div><div class="icon" data-k="bell" tabindex="0">'
                            + BELL + '</div><div class="icon" data-k="user" tabindex="0">' + USER + '</div></div>'),
    # ... moved 150 px down and right: nothing at the recorded position
    "tools-moved.html": page('<div style="height:150px"></div><div style="margin-left:150px"><button class="icon" data-k="bell">' + BELL
                             + '</button><button class="icon" data-k="user">' + USER + '</button><button class="icon" data-k="gear">'
                             + GEAR + '</button></div>'),
    # ... shifted by one icon: the bell sits where the gear was (position alone would take it)
    "tools-swapped.html": page('<div><button class="icon" data-k="bell">' + BELL + '</button><button class="icon" data-k="gear">'
                               + GEAR + '</button><button class="icon" data-k="user">' + USER + '</button></div>'),
    # ... the bell where the gear was, the gear only a picture (not a control)
    "tools-deco.html": page('<div><button class="icon" data-k="bell">' + BELL + '</button></div><p style="margin-top:200px">Settings live in '
                            '<span class="icon">' + GEAR + '</span> (coming soon)</p>'),
    # 8. one "Add to cart" per card; rebuilt with the cards in another order
    "shop-src.html": page(cards([0, 1, 2], lambda i: f'<button id="add{i}">Add to cart</button>')),
    "shop-src-aria.html": page(cards([0, 1, 2], lambda i: f'<button id="add{i}" aria-label="Add to cart: {SHOES[i][0]}">Add to cart</button>')),
    "shop-reordered.html": page(cards([1, 2, 0], lambda i: f'<button data-k="{SHOES[i][0]}">Add to cart</button>')),
    "shop-same.html": page(cards([0, 1, 2], lambda i: f'<button data-k="{SHOES[i][0]}">Add to cart</button>')),
    "shop-divs.html": page(cards([2, 0, 1], lambda i: f'<div class="btn" style="cursor:pointer" data-k="{SHOES[i][0]}">Add to cart</div>')),
    # 9. a shifted layout: "Sent" now where "Inbox" was; the name (spelt in capitals, a link) is right
    "mail-src.html": page('<nav><button>Inbox</button><button>Sent</button><button>Drafts</button></nav>'),
    "mail-shifted.html": page('<nav><a class="btn" data-k="sent" href="#s">Sent</a><a class="btn" data-k="drafts" href="#d">Drafts</a>'
                              '<a class="btn" data-k="inbox" href="#i">INBOX</a></nav>'),
    # a checkbox named by its label; rebuilt with a label that is not bound to it
    "keep-src.html": page('<form style="padding:30px"><input type="checkbox" id="rem"> <label for="rem">Keep me signed in for 30 days</label></form>'),
    "keep-loose.html": page('<form style="padding:30px"><input type="checkbox" data-k="remember"> <label data-k="words">Keep me signed in for 30 days</label></form>'),
    "keep-far.html": page('<form style="padding:30px"><label data-k="words">Keep me signed in for 30 days</label>'
                          '<div style="margin:200px 0 0 500px"><input type="checkbox" data-k="remember"></div></form>'),
    # 10. typing: the label became plain text, the placeholder another case
    "form-src.html": page('<form><label for="em">Email</label> <input id="em" placeholder="you@example.com"></form>'),
    "form-div.html": page('<form><div>E-mail</div><input class="f1" data-k="email" placeholder="You@Example.com"></form>'),
    # 11. star icons named only by aria-label; the rebuild's icons have no name, and a "Star" button shows the word
    "star-src.html": page('<div style="padding:20px"><button class="icon" id="st1" aria-label="Star">' + STAR + '</button> Sarah: Q1 review<br>'
                          '<button class="icon" id="st2" aria-label="Star">' + STAR + '</button> Stripe: your invoice</div>'
                          '<div style="margin:40px 0 0 600px"><button>Star</button></div>'),
    "star-divs.html": page('<div style="padding:20px"><div class="icon" data-k="star1" style="cursor:pointer">' + STAR + '</div> Sarah: Q1 review<br>'
                           '<div class="icon" data-k="star2" style="cursor:pointer">' + STAR + '</div> Stripe: your invoice</div>'
                           '<div style="margin:40px 0 0 600px"><div class="btn" data-k="pane" style="cursor:pointer">Star</div></div>'
                           '<script>for (const d of document.querySelectorAll("[data-k]")) d.addEventListener("click", () => {});</script>'),
    # 12. a chip in a dialog's "Calendar" field and the sidebar's calendar of the same name (weekplan's new event):
    # the source's chips are radios; the rebuilds drop the ARIA, so the words find both
    "cal-src.html": page(CAL_SIDE + '<div class="scrim"><form class="dlg" style="left:260px">' + CAL_FORM
                         + CAL_FIELD('Calendar', lambda c: f'<button type="button" role="radio" aria-checked="false" '
                                     f'id="chip-{c.lower()}">{c}</button>') + '</form></div>', css=CAL_CSS),
    # ... the scrim over the sidebar: the sidebar's "Calendar" heading matches the words better, but no pointer
    # reaches it; the dialog moved, and its field lost its label
    "cal-covered.html": page(CAL_SIDE.replace("My calendars", "Calendar") + '<div class="scrim"><form class="dlg" style="left:400px">'
                             + CAL_FIELD('', lambda c: f'<span class="chip" data-k="chip-{c.lower()}">{c}</span>')
                             + '</form></div>', css=CAL_CSS),
    # ... no scrim (a side panel) and a long form: the chip's own field label is past the 400 characters of its form
    "cal-panel.html": page(CAL_SIDE + '<div><form class="dlg" style="left:260px">' + CAL_FORM
                           + CAL_FIELD('Calendar', lambda c: f'<span class="chip" data-k="chip-{c.lower()}">{c}</span>')
                           + '</form></div>', css=CAL_CSS),
    # 13. a minefield: one row div per row, closed squares alike; the source names each cell (aria-label), the
    # rebuild does not. The recorded square's row holds other closed squares; another closed square is alone
    # in a row of numbers (so its surroundings are the whole row, '1's included)
    "mine-src.html": page(mine(lambda r, c: f' id="m-{r}-{c}" aria-label="Row {r}, column {c}: hidden"'), css=MINE_CSS),
    "mine-plain.html": page(mine(lambda r, c: f' data-k="m-{r}-{c}"'), css=MINE_CSS),
    # 14. a sheet that listens on its table: the source's empty cells are gridcells, the rebuild's plain cells with
    # no sign of being controls (no role, handler, tabindex or pointer cursor of their own); a third page has a
    # row of wide banners where the sheet was
    "sheet-src.html": page(sheet(lambda r, c: f' role="gridcell" id="s-{r}-{c}"'), css=SHEET_CSS),
    "sheet-plain.html": page(sheet(lambda r, c: f' data-k="s-{r}-{c}"'), css=SHEET_CSS),
    # ... after other input, the venue's price reads '#NAME?' (a formula typed otherwise)
    "sheet-err.html": page(sheet(lambda r, c: f' data-k="s-{r}-{c}"', [("Venue hire", "1", "#NAME?"), *SHEET[1:]]),
                           css=SHEET_CSS),
    "sheet-gone.html": page('<p style="margin:90px 20px;height:80px;background:#eef">Your sheet was moved to '
                            '<b>Drive</b>.</p>', css=SHEET_CSS),
    # negatives
    "danger-src.html": page('<div style="padding:40px"><button id="d">Delete account</button></div><button>Log out</button>'),
    "danger-text.html": page('<div style="padding:40px"><p>Account settings</p></div><button data-k="logout">Log out</button>'),
    "danger-other.html": page('<div style="padding:40px"><button data-k="archive">Archive</button></div><button data-k="logout">Log out</button>'),
}


@pytest_asyncio.fixture(scope="module", loop_scope="module")
async def env(tmp_path_factory):
    from playwright.async_api import async_playwright

    from iwrbench.browser.core import launch_browser, new_context

    root: Path = tmp_path_factory.mktemp("grounding-pages")
    for name, html in PAGES.items():
        (root / name).write_text(html, encoding="utf-8")
    with StaticServer({"/": root}) as srv:
        async with async_playwright() as pw:
            browser = await launch_browser(pw)
            ctx, _ = await new_context(browser, VP, allowed_origins={srv.origin})
            yield srv, ctx
            await ctx.close()
            await browser.close()
    if TIMINGS:
        print("\nground() per case (ms):")
        for case, rung, ms in TIMINGS:
            print(f"  {case:34s} {rung or 'not grounded':16s} {ms:7.1f}")


async def record(env, src: str, selector: str, description: str, type_: str = "Click", **params) -> tuple[Action, Image.Image]:
    """The action as the recorder would write it, and the target's crop."""
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
        crop = Image.open(io.BytesIO(await el.screenshot(animations="disabled", caret="hide")))
        crop.load()
    finally:
        await p.close()
    return Action(type=type_, parameters=ActionParameters(description=description, **params), target=t), crop


async def judge(env, case: str, variant: str, action: Action, crop: Image.Image | None = None, *, probe=None):
    """Ground on the rebuilt page; return (grounding, data-k of the element, data-k a click reached, probe)."""
    srv, ctx = env
    p = await ctx.new_page()
    try:
        await p.goto(srv.url(variant))
        shot = await p.screenshot() if crop is not None else None
        probed = await p.evaluate(probe) if probe else None
        t0 = time.perf_counter()
        got = await ground(p, action, VP, crop=crop, screenshot=shot)
        TIMINGS.append((case, got.grounding.rung, (time.perf_counter() - t0) * 1000))
        key = hit = None
        if got.handle is not None:
            key = await got.handle.evaluate("(e) => { const x = e.closest('[data-k]'); return x ? x.dataset.k : null; }")
            if action.type == "Type":
                await got.handle.fill(action.parameters.text or "x")
                hit = await p.evaluate("() => document.activeElement && document.activeElement.dataset.k")
            else:
                await got.handle.click(timeout=2000)
                hit = await p.evaluate("() => window.__hit")
        return got.grounding, key, hit, probed
    finally:
        await p.close()


def rungs(g) -> list[str]:
    return [a.rung for a in g.tried]


# --------------------------------------------------------------------------- normalisation


def test_norm_name_folds_spellings():
    assert norm_name("N\u00ba") == norm_name("No") == norm_name("N\u00b0") == "no"
    assert norm_name("Upload \ufb01le") == "upload file"
    assert norm_name("\ue8b6  Search\u200b") == "search"  # icon glyph, double space, zero-width space
    assert norm_name("\uff33\uff41\uff56\uff45") == "save"  # full width
    assert norm_name("Don\u2019t\u00a0save") == "don't save"
    assert norm_name(None) == "" and norm_name("\uf002") == ""
    assert loose_name("Next \u2192") == "next"
    assert name_match("Next \u2192", "next") == 1 and name_match("E-mail", "Email") == 1
    assert name_match("Sort by N<sup>o</sup>".replace("<sup>", "").replace("</sup>", ""), "sort by n\u00ba") == 2
    # not safe: the punctuation is the meaning
    assert name_match("C++", "C#") == 0 and name_match("-10", "10") == 0 and name_match("\u00d7", "+") == 0
    assert names_conflict("Delete", "Archive") and not names_conflict("Add to cart", "Add to basket")
    assert not names_conflict("Colour", "Color") and not names_conflict("", "Archive") and not names_conflict("X", "Close")
    assert quoted_phrases("the 'Add to cart' button on the blue 'Summit Trail Runner' card") == ["Add to cart", "Summit Trail Runner"]
    assert quoted_phrases("click 'Don't save' in the user's dialog") == ["Don't save"]


# --------------------------------------------------------------------------- other markup, same page


@amark
async def test_buttons_rebuilt_as_divs(env):
    a, _ = await record(env, "bar-src.html", "#save", "Click the 'Save draft' button")
    assert a.target.role == "button" and a.target.name == "Save draft"
    g, key, hit, _ = await judge(env, "div buttons", "bar-divs.html", a)
    assert (key, hit) == ("save", "save")
    assert g.rung == "text" and rungs(g)[:2] == ["role_name", "role_name_norm"]


@amark
async def test_icon_named_by_aria_label_is_not_taken_for_a_control_showing_the_word(env):
    # the recorded star showed no text; a button reading "Star" elsewhere is another control
    a, crop = await record(env, "star-src.html", "#st2", "the empty star at the left of the Stripe message")
    assert a.target.name == "Star" and not (a.target.text or "").strip()
    g, key, hit, _ = await judge(env, "icon vs word", "star-divs.html", a, crop)
    assert (key, hit) == ("star2", "star2"), rungs(g)
    assert g.rung in ("position", "appearance"), rungs(g)


@amark
async def test_aria_label_becomes_title_with_other_glyph(env):
    a, _ = await record(env, "close-src.html", "#x", "Close the dialog")
    assert a.target.name == "Close dialog" and a.target.text == "\u00d7"
    g, key, hit, _ = await judge(env, "aria-label -> title", "close-title.html", a)
    assert (key, hit) == ("close", "close")
    assert g.rung == "attribute_norm", rungs(g)


@amark
async def test_superscript_o_vs_ordinal_indicator(env):
    a, _ = await record(env, "sort-src.html", "#n", "Click 'Sort by No'")
    assert a.target.name == "Sort by No"
    g, key, hit, _ = await judge(env, "n<sup>o</sup> vs n\u00ba", "sort-ord.html", a)
    assert (key, hit) == ("no", "no")
    assert g.rung == "role_name_norm"
    assert "role_name" in rungs(g)  # Playwright's exact match was tried first and failed


@amark
async def test_ligature_in_link_and_in_capitals(env):
    a, _ = await record(env, "up-src.html", "#up", "Open 'Upload file'")
    g, key, hit, _ = await judge(env, "ligature link", "up-lig.html", a)
    assert (key, hit) == ("upload", "upload") and g.rung == "role_name_norm"
    g, key, hit, _ = await judge(env, "capitals div", "up-caps.html", a)
    assert (key, hit) == ("upload", "upload") and g.rung == "text_norm"


@amark
async def test_icon_font_glyph_in_name(env):
    a, _ = await record(env, "search-src.html", "#s", "Click the 'Search' button")
    assert "\ue8b6" in (a.target.name or "")
    g, key, hit, _ = await judge(env, "icon glyph", "search-css.html", a)
    assert (key, hit) == ("search", "search") and g.rung == "role_name_norm"


# --------------------------------------------------------------------------- controls without a name


@amark
async def test_unnamed_row_checkbox_by_position(env):
    a, crop = await record(env, "inv-src.html", "#c2", "Tick the checkbox of the third row")
    assert a.target.role == "checkbox" and not a.target.name
    g, key, hit, _ = await judge(env, "row checkbox (position)", "inv-spans.html", a)
    assert (key, hit) == ("row2", "row2")
    assert g.rung == "position"
    g, key, hit, _ = await judge(env, "transparent checkbox (position)", "inv-overlay.html", a)
    assert (key, hit) == ("row2", "row2") and g.rung == "position"


@amark
async def test_unnamed_row_checkbox_by_appearance_and_row_text(env):
    a, crop = await record(env, "inv-src.html", "#c2", "Tick the checkbox on the 'Invoice 2291' row")
    g, key, hit, _ = await judge(env, "row checkbox moved (appearance)", "inv-moved.html", a, crop)
    assert (key, hit) == ("row2", "row2")
    assert g.rung == "appearance" and "position" in rungs(g)
    assert not g.ambiguous  # four look-alike checkboxes; the row's text decided
    # without the crop there is nothing to find: the table moved away from the recorded position
    g, key, _, _ = await judge(env, "row checkbox moved, no crop", "inv-moved.html", a)
    assert key is None and g.rung is None


@amark
async def test_icon_button_without_name(env):
    a, crop = await record(env, "tools-src.html", "#g", "Open the settings (gear icon)")
    assert a.target.role == "button" and not a.target.name
    g, key, hit, _ = await judge(env, "icon button (position)", "tools-divs.html", a)
    assert (key, hit) == ("gear", "gear") and g.rung == "position"
    g, key, hit, _ = await judge(env, "icon button moved 150px (appearance)", "tools-moved.html", a, crop)
    assert (key, hit) == ("gear", "gear") and g.rung == "appearance"


@amark
async def test_lookalike_neighbour_at_position_yields_to_appearance(env):
    a, crop = await record(env, "tools-src.html", "#g", "Open the settings (gear icon)")
    cx, cy = a.target.bbox.center
    probe = f"() => document.elementFromPoint({cx}, {cy}).closest('[data-k]').dataset.k"
    g, key, hit, there = await judge(env, "neighbour swapped in", "tools-swapped.html", a, crop, probe=probe)
    assert there == "bell"  # what position alone would have clicked
    assert (key, hit) == ("gear", "gear") and g.rung == "appearance"
    assert any(t.rung == "position" and "does not look like" in (t.detail or "") for t in g.tried)


@amark
async def test_position_stands_when_the_lookalike_is_no_control(env):
    a, crop = await record(env, "tools-src.html", "#g", "Open the settings (gear icon)")
    g, key, hit, _ = await judge(env, "look-alike is a picture", "tools-deco.html", a, crop)
    assert (key, hit) == ("bell", "bell") and g.rung == "position"
    assert [t.rung for t in g.tried][-3:] == ["position", "appearance", "position"]
    assert "none of the action's kind" in g.tried[-2].detail


# --------------------------------------------------------------------------- several equal matches


@amark
async def test_add_to_cart_on_the_named_card(env):
    desc = "Click the 'Add to cart' button on the blue 'Summit Trail Runner' shoe card"
    a, _ = await record(env, "shop-src.html", "#add0", desc)
    g, key, hit, _ = await judge(env, "cards reordered (buttons)", "shop-reordered.html", a)
    assert (key, hit) == ("Summit Trail Runner", "Summit Trail Runner")
    assert g.rung == "role_name" and not g.ambiguous
    assert "surroundings" in g.tried[-1].detail
    g, key, hit, _ = await judge(env, "cards reordered (divs)", "shop-divs.html", a)
    assert (key, hit) == ("Summit Trail Runner", "Summit Trail Runner") and g.rung == "text"
    # a description that does not say which card: the nearest to the recorded position, flagged
    plain = a.model_copy(update={"parameters": ActionParameters(description="Click 'Add to cart'")})
    g, key, _, _ = await judge(env, "cards, no card named", "shop-reordered.html", plain)
    assert key == SHOES[1][0] and g.ambiguous  # Harbor Loafer now stands where Summit was


@amark
async def test_card_named_in_the_recorded_name_too(env):
    # the source named each button after its card (aria-label); the rebuild has plain "Add to cart"
    desc = "Click the 'Add to cart' button on the blue 'Summit Trail Runner' shoe card"
    a, _ = await record(env, "shop-src-aria.html", "#add0", desc)
    assert a.target.name == "Add to cart: Summit Trail Runner"
    g, key, hit, _ = await judge(env, "card in recorded name", "shop-divs.html", a)
    assert (key, hit) == ("Summit Trail Runner", "Summit Trail Runner") and not g.ambiguous


@amark
async def test_same_layout_keeps_the_recorded_spot_against_a_stray_word(env):
    # "boot" is only in the Canyon Boot card, but it is not what the description points at
    a, _ = await record(env, "shop-src.html", "#add0", "Click 'Add to cart' for the first shoe, not the boot")
    g, key, _, _ = await judge(env, "same layout, stray word", "shop-same.html", a)
    assert key == "Summit Trail Runner" and not g.ambiguous
    assert "recorded spot" in g.tried[-1].detail


@amark
async def test_description_only_action_uses_the_card(env):
    # official-dataset tasks have no recorded target: fuzzy over the description, cards tell ties apart
    a = Action(type="Click", parameters=ActionParameters(
        description="Click the 'Add to cart' button on the 'Harbor Loafer' card"))
    g, key, hit, _ = await judge(env, "no target, card named", "shop-divs.html", a)  # its card is the last one
    assert (key, hit) == ("Harbor Loafer", "Harbor Loafer")
    assert g.rung == "fuzzy" and "surroundings" in g.tried[-1].detail


@amark
async def test_shifted_layout_name_beats_position(env):
    a, _ = await record(env, "mail-src.html", "nav button >> nth=0", "Open the 'Inbox'")
    cx, cy = a.target.bbox.center
    probe = f"() => document.elementFromPoint({cx}, {cy}).closest('[data-k]').dataset.k"
    g, key, hit, there = await judge(env, "shifted layout", "mail-shifted.html", a, probe=probe)
    assert there == "sent"
    assert (key, hit) == ("inbox", "inbox") and g.rung == "text_norm"


@amark
async def test_checkbox_whose_label_lost_its_binding(env):
    a, _ = await record(env, "keep-src.html", "#rem", "Tick 'Keep me signed in for 30 days'")
    assert a.target.role == "checkbox" and a.target.name == "Keep me signed in for 30 days"
    g, key, hit, _ = await judge(env, "unbound label", "keep-loose.html", a)
    assert (key, hit) == ("remember", "remember") and g.rung == "position"
    assert any(t.rung == "text_norm" and "only the words" in (t.detail or "") for t in g.tried)
    # nothing of its kind at the position: the label's words are the best there is
    g, key, _, _ = await judge(env, "unbound label, checkbox far", "keep-far.html", a)
    assert key == "words" and g.rung == "text_norm" and "position" in rungs(g)


@amark
async def test_type_into_field_with_other_label_markup(env):
    a, _ = await record(env, "form-src.html", "#em", "Type your email address", type_="Type", text="ada@example.org")
    assert a.target.name == "Email"
    g, key, hit, _ = await judge(env, "field placeholder case", "form-div.html", a)
    assert (key, hit) == ("email", "email") and g.rung == "attribute_norm"


@amark
async def test_the_dialogs_chip_not_its_twin_in_the_sidebar(env):
    a, _ = await record(env, "cal-src.html", "#chip-clients", "Click the 'Clients' chip (teal dot) under 'Calendar'")
    assert a.target.role == "radio"
    # the sidebar's "Clients" matches the description's 'Calendar' better, but the dialog's scrim covers it: a
    # person clicks the dialog's chip, the one the recording clicked
    g, key, hit, _ = await judge(env, "twin under a scrim", "cal-covered.html", a)
    assert (key, hit) == ("chip-clients", "chip-clients"), g.tried
    assert "under another layer set aside" in g.tried[-1].detail and not g.ambiguous
    # no scrim: both reachable; the chip's group ("Calendar Studio Clients ...") is read before its long form's text
    g, key, hit, _ = await judge(env, "chip label in a long form", "cal-panel.html", a)
    assert (key, hit) == ("chip-clients", "chip-clients"), g.tried
    assert "set aside" not in g.tried[-1].detail


@amark
async def test_a_cell_among_its_rows_lookalikes_keeps_the_recorded_spot(env):
    # the description's '1' is in the row of the closed square that is alone among numbers, not in the recorded
    # square's own surroundings (its row holds other closed squares, so only its own text is read): no evidence
    # against the square at the recorded spot
    a, _ = await record(env, "mine-src.html", "#m-1-4", "Click the closed square in row 1, column 4, right of a blue '1'")
    assert a.target.name == "Row 1, column 4: hidden"
    g, key, hit, _ = await judge(env, "minefield cell, no names", "mine-plain.html", a)
    assert (key, hit) == ("m-1-4", "m-1-4"), g.tried
    assert g.rung == "position" and "the one at the position" in g.tried[-1].detail


@amark
async def test_a_cell_known_only_by_its_role_is_found_by_its_size_at_the_spot(env):
    # the source's cell is a control only by role=gridcell; the rebuild's cell has no sign of being one (the sheet
    # listens on its table), so nothing "of the action's kind" is at the recorded spot: the cell of the recorded
    # size there is clicked, after the rungs that look elsewhere found nothing better
    a, crop = await record(env, "sheet-src.html", "#s-3-D", "Click the empty cell in column D, row 3 (the delivery row)")
    assert a.target.role == "gridcell" and not a.target.name
    g, key, hit, _ = await judge(env, "sheet cell without its role", "sheet-plain.html", a, crop)
    assert (key, hit) == ("s-3-D", "s-3-D"), g.tried
    assert g.rung == "position" and "of the recorded size" in g.tried[-1].detail
    # nothing of about the cell's size where it was (a wide banner): not grounded
    g, key, _, _ = await judge(env, "sheet replaced by a banner", "sheet-gone.html", a, crop)
    assert key is None and g.rung is None, g.tried


@amark
async def test_a_cell_whose_text_follows_other_input_in_a_probe(env):
    # a probe typed another formula: the cell recorded as '850.00' reads '#NAME?' on a correct page. Its recorded
    # name refuses it at the recorded spot in the main trajectory (another name there is another thing) but not in
    # such a probe's later steps
    a, _ = await record(env, "sheet-src.html", "#s-1-C", "Click the venue's price '850.00' in column C")
    assert a.target.name == "850.00"
    g, key, _, _ = await judge(env, "cell renamed by the input", "sheet-err.html", a)
    assert key is None and "refused: named '#NAME?'" in g.tried[-2].detail, g.tried
    srv, ctx = env
    p = await ctx.new_page()
    try:
        await p.goto(srv.url("sheet-err.html"))
        got = await ground(p, a, VP, names_may_change=True)
        assert got.grounding.rung == "position"
        assert await got.handle.get_attribute("data-k") == "s-1-C"
    finally:
        await p.close()


def test_a_probe_loosens_names_after_its_first_other_input():
    from iwrbench.judge.replay import _first_other_input

    def act(type_, **kw):
        return Action(type=type_, parameters=ActionParameters(description="d", **kw))

    main = [act("Click"), act("Type", text="=SUM(B2:B5)"), act("Press", key="Enter"), act("Click")]
    assert _first_other_input(main, main) is None
    assert _first_other_input(main, [main[0], act("Type", text="=AVG(B2:B5)"), *main[2:]]) == 2


# --------------------------------------------------------------------------- nothing to find


@amark
async def test_no_control_no_name_not_grounded(env):
    a, crop = await record(env, "danger-src.html", "#d", "Click the 'Delete account' button")
    cx, cy = a.target.bbox.center
    probe = f"() => document.elementFromPoint({cx}, {cy}).tagName"
    g, key, _, there = await judge(env, "negative: text at position", "danger-text.html", a, crop, probe=probe)
    assert there == "P"  # plain text ("Account settings") where the button was
    assert key is None and g.rung is None and g.element is None
    assert {"position", "appearance", "fuzzy"} <= set(rungs(g))


@amark
async def test_unrelated_control_at_position_not_grounded(env):
    a, crop = await record(env, "danger-src.html", "#d", "Click the 'Delete account' button")
    g, key, _, _ = await judge(env, "negative: other button there", "danger-other.html", a, crop)
    assert key is None and g.rung is None
    pos = next(t for t in g.tried if t.rung == "position")
    assert pos.matches == 0 and "archive" in pos.detail.lower()
    # an unnamed checkbox recorded; a text field at its place is not it
    a, crop = await record(env, "inv-src.html", "#c2", "Tick the checkbox of the third row")
    g, key, _, _ = await judge(env, "negative: field for checkbox", "inv-field.html", a, crop)
    assert key is None and g.rung is None
