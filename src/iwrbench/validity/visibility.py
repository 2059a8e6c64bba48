"""The visibility set: does the reader count a text as seen exactly when it is painted?

Small pages of the CSS a real product uses -- tooltips that take no pointer events, toasts, badges drawn by
pseudo-elements, SVG labels, overlays, modals, placeholders, field values, clipping, text drawn only by its
shadow or its background -- each with a twin in which the same text is still laid out but hidden by paint
alone (a cover, a colour, a clip, an opacity). Truth is by construction (``shown`` or ``hidden``), and the
pixels are asked independently: Tesseract reads the screenshot, and a case whose OCR disagrees with its label
is reported as a bad case, not counted for the reader. The reader (``browser/view.py``) must agree with the
label on every page.

Rows (``Verdict``, set ``visibility``): ``task_id`` = the case, ``page`` = ``shown`` | ``hidden``, ``judged`` = 1
when the reader finds the phrase on screen, ``truth`` = 1 when it is shown, ``ok`` = reader, label and OCR agree.

Try it: ``iwr validity --set visibility --out DIR`` (about a minute; screenshots in ``DIR/visibility/``).
"""

from __future__ import annotations

import asyncio
import html
from dataclasses import dataclass
from pathlib import Path
from typing import Callable

from . import Verdict

Progress = Callable[[str], None]

_BASE = ("<!doctype html><html><head><meta charset=utf-8><style>"
         "body{margin:0;padding:40px;font:24px 'Liberation Sans',Arial,sans-serif;color:#1f2933;background:#fff}"
         "%s</style></head><body>%s</body></html>")


@dataclass(frozen=True)
class Case:
    name: str
    phrase: str
    css: str
    body: str
    #: CSS added to the twin: the same text, still laid out, hidden by paint alone
    hide: str
    note: str = ""

    def page(self, hidden: bool) -> str:
        return _BASE % (self.css + ("\n" + self.hide if hidden else ""), self.body)


CASES: tuple[Case, ...] = (
    Case("tooltip-no-pointer-events", "Copied to clipboard",
         ".cover{display:none} .row{position:relative;height:120px}"
         ".card{position:absolute;left:0;top:0;width:640px;padding:14px 20px;background:#fff;border:1px solid #cbd2d9;"
         "border-radius:8px;color:#52606d} .tip{position:absolute;left:30px;top:8px;padding:10px 16px;"
         "background:#111827;color:#fff;border-radius:8px;pointer-events:none;z-index:5}",
         "<div class=row><div class=card>Share link: tinyurl.example/abc123 - press to copy</div>"
         "<div class=tip>Copied to clipboard</div><div class=cover></div></div>",
         ".cover{display:block;position:absolute;left:0;top:0;width:700px;height:90px;background:#fff;"
         "pointer-events:none;z-index:9}",
         note="a tooltip that takes no pointer events, over a card; its twin lies under an opaque panel that takes "
              "none either"),
    Case("text-under-tooltip", "Share link tinyurl",
         ".row{position:relative;height:120px} .tip{position:absolute;left:10px;top:6px;width:520px;height:44px;"
         "background:rgba(17,24,39,0);pointer-events:none;z-index:5}",
         "<div class=row><span>Share link: tinyurl.example/abc123</span><div class=tip></div></div>",
         ".tip{background:#111827}", note="a panel without pointer events over a text: glass, or opaque"),
    Case("half-covered-line", "Delivery to Leith",
         ".row{position:relative;height:80px} .tip{position:absolute;left:250px;top:0;width:520px;height:44px;"
         "background:#1e293b;color:#fff;pointer-events:none;border-radius:6px;padding:8px;box-sizing:border-box;"
         "font-size:18px}",
         "<div class=row><span>Delivery to Leith on Friday 14 June, before noon</span>"
         "<div class=tip>Free for orders over 40 pounds</div></div>",
         ".tip{left:20px;width:760px}", note="a tooltip over the end of a line: the words it leaves show"),
    Case("toast", "Saved 3 changes",
         ".toast{position:fixed;right:40px;bottom:40px;padding:14px 22px;background:#0f766e;color:#fff;"
         "border-radius:10px;box-shadow:0 6px 20px rgba(0,0,0,.2)}",
         "<h2>Settings</h2><div class=toast role=status>Saved 3 changes</div>",
         ".toast{opacity:0}", note="a toast faded out keeps its box"),
    Case("badge-after", "12 new",
         ".inbox{position:relative;display:inline-block;padding:10px 18px;background:#e4e7eb;border-radius:8px}"
         ".inbox::after{content:'12 new';position:absolute;left:110%;top:-6px;padding:4px 12px;background:#dc2626;"
         "color:#fff;border-radius:14px;white-space:nowrap}",
         "<p style='margin-top:40px'><span class=inbox>Inbox</span></p>",
         ".inbox::after{color:#dc2626}", note="generated content, in the colour of its own background"),
    Case("svg-label", "Revenue 2025",
         "svg text{font:28px 'Liberation Sans',Arial,sans-serif}",
         "<svg width=600 height=120><rect x=0 y=60 width=400 height=40 fill=#93c5fd></rect>"
         "<text x=10 y=40 fill=#1e3a8a>Revenue 2025</text></svg>",
         "svg text{fill:#fff}", note="SVG text, white on white"),
    Case("veil-no-pointer-events", "Quarterly report",
         ".veil{position:fixed;inset:0;background:rgba(255,255,255,.35);pointer-events:none}",
         "<h1>Quarterly report</h1><div class=veil></div>",
         ".veil{background:#fff}", note="a full-page layer without pointer events: a light veil, or opaque"),
    Case("modal-backdrop", "Project settings",
         ".backdrop{position:fixed;inset:0;background:rgba(0,0,0,.3)}"
         ".dialog{position:fixed;left:480px;top:380px;width:420px;padding:24px;background:#fff;border-radius:12px}",
         "<p>Project settings</p><div class=backdrop></div><div class=dialog>Delete 4 files?</div>",
         ".dialog{left:20px;top:20px;height:90px}", note="dimmed by a backdrop, or under the dialog itself"),
    Case("placeholder", "Search products",
         "input{font:24px 'Liberation Sans',Arial,sans-serif;padding:10px;width:420px;border:2px solid #9aa5b1}",
         "<input placeholder='Search products'>",
         "input::placeholder{color:transparent}", note="an empty field's placeholder"),
    Case("field-value", "Ada Lovelace",
         "input{font:24px 'Liberation Sans',Arial,sans-serif;padding:10px;width:420px;border:2px solid #9aa5b1;"
         "background:#fff;color:#1f2933}",
         "<input value='Ada Lovelace'>",
         "input{color:#fff}", note="a typed value in the colour of the field"),
    Case("clip-path", "Limited offer",
         ".box{display:inline-block;padding:12px 20px;background:#fef3c7;clip-path:inset(0 0 0 0)}",
         "<div class=box>Limited offer ends Sunday</div>",
         ".box{clip-path:inset(0 100% 0 0)}", note="clipped away by clip-path"),
    Case("scrolled-away", "Shipping address",
         ".pane{height:140px;overflow:auto;border:1px solid #cbd2d9;width:520px} .pane p{margin:10px 16px}",
         "<div class=pane id=p><p>Shipping address</p><p>12 Harbour Street</p><p>Leith</p><p>Edinburgh</p>"
         "<p>EH6 6JJ</p><p>United Kingdom</p><p>Phone 0131 496 0000</p></div>",
         ".pane p:first-child{margin-top:-80px}", note="clipped by its scrolling pane"),
    Case("shadow-only", "Free delivery",
         ".engraved{font-size:32px;color:transparent;text-shadow:0 0 0 #334e68}",
         "<p class=engraved>Free delivery</p>",
         ".engraved{text-shadow:none}", note="transparent glyphs drawn by their shadow"),
    Case("gradient-text", "Build faster",
         ".grad{font-size:40px;font-weight:bold;background:linear-gradient(90deg,#7c3aed,#2563eb);"
         "-webkit-background-clip:text;background-clip:text;color:transparent;display:inline-block}",
         "<p><span class=grad>Build faster</span></p>",
         ".grad{background:none}", note="transparent glyphs painted by the background clipped to them"),
    Case("shadow-root", "Order 1042",
         "", "<div id=host></div><script>const r=document.getElementById('host').attachShadow({mode:'closed'});"
         "r.innerHTML='<style>p{color:var(--ink,#1f2933)}</style><p>Order 1042 shipped</p>';</script>",
         "#host{--ink:#fff}", note="a closed shadow tree"),
    Case("canvas-cover", "Live map",
         ".wrap{position:relative;height:140px} canvas{position:absolute;left:0;top:0}",
         "<div class=wrap><p style='margin:0;padding:20px'>Live map of deliveries</p><canvas id=c width=600 height=120>"
         "</canvas></div><script>const g=document.getElementById('c').getContext('2d');"
         "if(getComputedStyle(document.body).getPropertyValue('--cover').trim()==='1'){g.fillStyle='#e5e7eb';"
         "g.fillRect(0,0,600,120);}</script>",
         "body{--cover:1}", note="a canvas painted over the text, or left clear"),
    Case("low-contrast", "Terms apply",
         ".fine{color:#616e7c}", "<p class=fine>Terms apply to every order</p>",
         ".fine{color:#fff}", note="white on white"),
    Case("background-image", "Summer sale",
         ".hero{height:150px;padding:30px;background:linear-gradient(#ffffff,#ffffff 60%,#f1f5f9);color:#0f172a;"
         "font-size:36px}", "<div class=hero>Summer sale</div>",
         ".hero{color:#fff}", note="the colour of the picture behind it"),
    Case("opacity-ancestor", "Step 2 of 3",
         ".step{opacity:1}", "<div class=step><div><p>Step 2 of 3: payment</p></div></div>",
         ".step{opacity:.02}", note="faded out by an ancestor's opacity"),
    Case("faded-tooltip-over-text", "Ride 75 min",
         ".chart{position:relative;height:120px;font-size:20px;color:#334155}"
         ".tip{position:absolute;left:30px;top:2px;padding:6px 10px;background:#0f172a;color:#fff;font-size:22px;"
         "pointer-events:none;transition:opacity .15s;opacity:1}",
         "<div class=chart><p>Mon 12 May yoga 40 min, Wed 14 May strength 35 min, Thu 15 May rest</p>"
         "<span class=tip>Tue 13 May: Ride 75 min</span></div>",
         ".tip{opacity:0}", note="a tooltip faded out (opacity 0, the usual CSS) lying over another text, "
         "which differs between the two pictures where the tip's box is"),
)


def _ocr_has(png: bytes, phrase: str) -> bool:
    """Does Tesseract read ``phrase`` in the picture? The picture's levels are first rounded to multiples of 32,
    so that what no person can tell from its background (a 2% opacity, near-white on white), which Tesseract's
    binarisation still finds, reads as background; then it is read several ways (two page-segmentation modes,
    global and local thresholds, and with polarity normalised for light text on dark), and any reading counts."""
    import io
    import shutil
    import subprocess

    import numpy as np
    from PIL import Image

    from ..checks.view import contains_phrase
    from ..errors import ComponentMissing
    from ..metrics._ocr import normalise_polarity

    exe = shutil.which("tesseract")
    if exe is None:
        raise ComponentMissing("the visibility set reads its pages with Tesseract (apt-get install tesseract-ocr)")
    with Image.open(io.BytesIO(png)) as im:
        a = np.asarray(im.convert("RGB"), dtype=np.float32)
    q = Image.fromarray((np.round(a / 32) * 32).clip(0, 255).astype(np.uint8))
    for img in (q.convert("L"), normalise_polarity(q)):
        buf = io.BytesIO()
        img.save(buf, format="PNG")
        for psm in ("6", "11"):
            for thr in ("0", "2"):
                out = subprocess.run([exe, "stdin", "stdout", "--psm", psm, "-c", f"thresholding_method={thr}"],
                                     input=buf.getvalue(), capture_output=True, timeout=60)
                if contains_phrase(" ".join(out.stdout.decode("utf-8", "replace").split()), phrase):
                    return True
    return False


async def judge_case(browser, case: Case, hidden: bool, out_dir: Path | None = None) -> tuple[bool, bool]:
    """(the reader finds the phrase, OCR finds it) on one page of the case."""
    from ..browser.core import new_context
    from ..browser.server import StaticServer
    from ..browser.settle import screenshot
    from ..browser.view import read_view
    from ..checks.view import View
    import tempfile

    with tempfile.TemporaryDirectory() as d:
        Path(d, "index.html").write_text(case.page(hidden))
        with StaticServer({"/": Path(d)}) as s:
            ctx, _ = await new_context(browser, (1000, 600), allowed_origins={s.origin})
            try:
                page = await ctx.new_page()
                await page.goto(s.url("index.html"), wait_until="load")
                await page.wait_for_timeout(100)
                png = await screenshot(page)
                v = View.from_js(await read_view(page, shot=png))
            finally:
                await ctx.close()
    if out_dir is not None:
        out_dir.mkdir(parents=True, exist_ok=True)
        (out_dir / f"{case.name}-{'hidden' if hidden else 'shown'}.png").write_bytes(png)
    seen = v.count(case.phrase) > 0 or v.count(case.phrase, "field") > 0
    ocr = await asyncio.to_thread(_ocr_has, png, case.phrase)
    return seen, ocr


def run(tasks_dir: Path | None, out_dir: Path, *, only: list[str] | None = None,
        progress: Progress | None = None) -> list[Verdict]:
    """Every case, shown and hidden (``only``: case names)."""
    from ._judge import with_browser

    cases = [c for c in CASES if not only or c.name in only]

    rows: list[Verdict] = []

    async def go(get_browser) -> None:
        browser = await get_browser()
        for c in cases:
            for hidden in (False, True):
                seen, ocr = await judge_case(browser, c, hidden, out_dir)
                truth = not hidden
                ok = seen == truth and ocr == truth
                note = c.note
                if ocr != truth:
                    note = f"bad case: OCR {'reads' if ocr else 'misses'} {c.phrase!r} ({note})"
                elif seen != truth:
                    note = f"the reader {'counts' if seen else 'misses'} {c.phrase!r}: {note}"
                rows.append(Verdict(set="visibility", task_id=c.name, page="hidden" if hidden else "shown", steps=1,
                                    judged=int(seen), truth=int(truth), ok=ok, note=note,
                                    extra={"ocr": ocr, "phrase": c.phrase}))
                if progress:
                    progress(f"  {c.name} ({'hidden' if hidden else 'shown'}): reader {'sees' if seen else 'does not see'}"
                             f" {html.unescape(c.phrase)!r}, OCR {'reads' if ocr else 'does not read'} it"
                             f"{'' if ok else '  <- DISAGREES'}")

    asyncio.run(with_browser(go))
    return rows
