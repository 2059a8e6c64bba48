"""Small local test pages for the visual and OCR metrics (no network, no assets).

Three unrelated page families (a shop, a dashboard, a documentation article) and a mostly-white
login page. Each can be rendered as the original, restyled (same layout and text, other colours
and fonts), shifted by a few pixels, partially broken (half of the content missing), or blank.
Used by ``tests/metrics`` and by ``bench/visual_metric_evidence.py`` and ``bench/ocr_settings.py``.
"""

from __future__ import annotations

FAMILIES = ("shop", "dashboard", "article", "login")
RANKED_FAMILIES = ("shop", "dashboard", "login")  # what the tests render; login is the mostly-white page

BASE_CSS = """
* { box-sizing: border-box; }
body { margin: 0; font-family: 'DejaVu Sans', sans-serif; font-size: 14px; color: #222; background: #fff; }
header { display: flex; align-items: center; gap: 24px; padding: 12px 32px; background: #1f6feb; color: #fff; }
header .logo { font-size: 22px; font-weight: bold; }
header nav a { color: #fff; margin-right: 18px; text-decoration: none; }
header input { margin-left: auto; padding: 6px 10px; width: 240px; border: 1px solid #ccc; border-radius: 4px; }
.btn { display: inline-block; padding: 6px 14px; background: #1f6feb; color: #fff; border-radius: 4px; border: none; font-size: 13px; }
.muted { color: #666; }
footer { padding: 16px 32px; background: #f3f4f6; color: #555; font-size: 12px; }
"""

RESTYLE_CSS = """
body { font-family: 'DejaVu Serif', serif; color: #3b2f2f; background: #fffaf0; }
header { background: #2e7d32; }
.btn { background: #c2185b; border-radius: 14px; }
.card { background: #fdf2e9 !important; border-color: #e0a96d !important; border-radius: 0 !important; }
.thumb { filter: hue-rotate(120deg); }
.side { background: #263238 !important; }
.side a { color: #ffecb3 !important; }
.kpi { background: #e8f5e9 !important; }
table th { background: #ffe0b2 !important; }
pre { background: #fff3e0 !important; color: #4e342e !important; }
.login-card { border-color: #e0a96d !important; background: #fdf2e9 !important; }
footer { background: #efebe9; }
"""


def _shop(broken: bool) -> str:
    names = ["Trail Runner 2", "Canvas Tote", "Desk Lamp Pro", "Wool Beanie",
             "Ceramic Mug", "Travel Kettle", "Linen Shirt", "Steel Bottle"]
    colors = ["#f4a261", "#2a9d8f", "#e76f51", "#8ab17d", "#e9c46a", "#264653", "#b5838d", "#6d597a"]
    items = names[:4] if broken else names
    cards = "".join(
        f"""<div class="card" style="border:1px solid #ddd;border-radius:8px;padding:12px;background:#fff">
        <div class="thumb" style="height:110px;border-radius:6px;background:{c}"></div>
        <h3 style="margin:10px 0 4px;font-size:16px">{n}</h3>
        <div class="muted">Free delivery over $50</div>
        <div style="display:flex;justify-content:space-between;align-items:center;margin-top:8px">
        <b style="font-size:16px">${19 + 7 * i}.99</b><button class="btn">Add to cart</button></div></div>"""
        for i, (n, c) in enumerate(zip(items, colors))
    )
    hero = "" if broken else """<section style="margin:20px 32px;padding:28px;border-radius:10px;background:#eef4ff">
      <h1 style="margin:0 0 8px;font-size:30px">Winter Sale: up to 40% off</h1>
      <p class="muted" style="margin:0 0 14px">Warm layers, outdoor gear and gifts for everyone on your list.</p>
      <button class="btn">Shop the sale</button></section>"""
    return f"""<header><span class="logo">Northwind Store</span><nav><a>Women</a><a>Men</a><a>Home</a><a>Outdoor</a><a>Sale</a></nav>
    <input placeholder="Search products"></header>{hero}
    <main style="margin:20px 32px"><h2 style="font-size:20px;margin:0 0 12px">Popular right now</h2>
    <div style="display:grid;grid-template-columns:repeat(4,1fr);gap:16px">{cards}</div></main>
    <footer>Northwind Store · 12 Harbour Road · Help · Returns · Privacy</footer>"""


def _dashboard(broken: bool) -> str:
    rows = [("INV-1042", "Acme Corp", "Paid", "$1,240.00"), ("INV-1043", "Globex", "Pending", "$980.50"),
            ("INV-1044", "Initech", "Overdue", "$2,310.00"), ("INV-1045", "Umbrella", "Paid", "$415.75"),
            ("INV-1046", "Hooli", "Paid", "$3,120.00"), ("INV-1047", "Stark Ltd", "Pending", "$760.20")]
    trs = "".join(f"<tr><td>{a}</td><td>{b}</td><td>{c}</td><td style='text-align:right'>{d}</td></tr>" for a, b, c, d in rows)
    bars = "".join(f"<div style='width:28px;height:{h}px;background:#1f6feb;border-radius:3px 3px 0 0'></div>"
                   for h in (60, 90, 75, 120, 140, 110, 160, 130, 150, 170))
    kpis = "".join(f"""<div class="kpi" style="flex:1;padding:14px;border-radius:8px;background:#f6f8fa;border:1px solid #e1e4e8">
        <div class="muted">{k}</div><div style="font-size:24px;font-weight:bold;margin-top:4px">{v}</div></div>"""
                   for k, v in (("Revenue", "$48,210"), ("Orders", "1,284"), ("Customers", "312"), ("Refunds", "7")))
    content = "" if broken else f"""<div style="display:flex;gap:16px;margin-top:16px">
        <div style="flex:1;border:1px solid #e1e4e8;border-radius:8px;padding:14px"><h3 style="margin:0 0 10px;font-size:16px">Recent invoices</h3>
        <table style="width:100%;border-collapse:collapse"><tr><th style="text-align:left;background:#f6f8fa;padding:6px">Invoice</th>
        <th style="text-align:left;background:#f6f8fa;padding:6px">Client</th><th style="text-align:left;background:#f6f8fa;padding:6px">Status</th>
        <th style="text-align:right;background:#f6f8fa;padding:6px">Amount</th></tr>{trs}</table></div>
        <div style="width:380px;border:1px solid #e1e4e8;border-radius:8px;padding:14px"><h3 style="margin:0 0 10px;font-size:16px">Weekly sales</h3>
        <div style="display:flex;align-items:flex-end;gap:8px;height:180px">{bars}</div></div></div>"""
    return f"""<div style="display:flex;min-height:720px">
    <aside class="side" style="width:210px;background:#0d1117;padding:20px 16px">
      <div style="color:#fff;font-size:20px;font-weight:bold;margin-bottom:24px">Ledgerly</div>
      {''.join(f'<a style="display:block;color:#c9d1d9;padding:8px 4px;text-decoration:none">{x}</a>' for x in ("Overview", "Invoices", "Customers", "Reports", "Settings"))}
    </aside>
    <div style="flex:1;padding:20px 28px">
      <div style="display:flex;align-items:center;justify-content:space-between"><h1 style="margin:0;font-size:24px">Overview</h1>
      <button class="btn">New invoice</button></div>
      <div style="display:flex;gap:16px;margin-top:16px">{kpis}</div>{content}
    </div></div>"""


def _article(broken: bool) -> str:
    paras = [
        "The command line interface reads a configuration file from the project root and merges it with the options given on the command line.",
        "Each task runs in a fresh browser context so that cookies and local storage never leak from one task into the next one.",
        "Screenshots are taken at the recorded resolution with a device scale factor of one, which keeps every pixel comparable.",
        "When an action cannot be executed the trajectory stops, and the reason is written to the run log together with its evidence.",
    ]
    body = paras[:1] if broken else paras
    ps = "".join(f"<p style='line-height:1.6;margin:0 0 14px'>{p}</p>" for p in body)
    code = "" if broken else """<pre style="background:#f6f8fa;padding:12px;border-radius:6px;font-size:13px">$ iwr run --suite smoke --model scripted
loaded 3 tasks, judging with chromium 131</pre>"""
    return f"""<header><span class="logo">Docs</span><nav><a>Guide</a><a>Reference</a><a>Changelog</a></nav><input placeholder="Search the docs"></header>
    <div style="display:flex;gap:32px;padding:24px 32px">
      <aside style="width:200px;font-size:13px"><b>On this page</b>
      {''.join(f'<div style="margin:8px 0" class="muted">{x}</div>' for x in ("Installation", "Configuration", "Running tasks", "Screenshots", "Failures"))}</aside>
      <article style="flex:1;max-width:760px"><h1 style="margin:0 0 12px;font-size:28px">Running the benchmark</h1>{ps}{code}</article>
    </div>"""


def _login(broken: bool) -> str:
    fields = "" if broken else """<label style="display:block;margin:12px 0 4px">Password</label>
      <input type="password" style="width:100%;padding:8px;border:1px solid #ccc;border-radius:4px">
      <div style="margin-top:16px;display:flex;justify-content:space-between;align-items:center">
      <a style="color:#1f6feb">Forgot password?</a><button class="btn">Sign in</button></div>"""
    return f"""<div style="display:flex;justify-content:center;padding-top:110px">
    <div class="login-card" style="width:360px;padding:24px;border:1px solid #ddd;border-radius:8px">
      <h2 style="margin:0 0 4px;text-align:center">Sign in to Pinecone</h2>
      <p class="muted" style="text-align:center;margin:0 0 12px">Welcome back, please enter your details</p>
      <label style="display:block;margin:12px 0 4px">Email address</label>
      <input style="width:100%;padding:8px;border:1px solid #ccc;border-radius:4px">{fields}
    </div></div>"""


_BODIES = {"shop": _shop, "dashboard": _dashboard, "article": _article, "login": _login}

VARIANTS = ("identical", "shift3", "shift6", "restyled", "broken", "unrelated", "blank")


def page_html(family: str, *, restyled: bool = False, shift: int = 0, broken: bool = False) -> str:
    """HTML of one page of ``family``; ``shift`` moves everything right and down by that many px."""
    css = BASE_CSS + (RESTYLE_CSS if restyled else "")
    if shift:
        css += f"body {{ position: relative; left: {shift}px; top: {shift}px; }}"
    return f"<!doctype html><html><head><meta charset='utf-8'><style>{css}</style></head><body>{_BODIES[family](broken)}</body></html>"


BLANK_HTML = "<!doctype html><html><head><style>body{margin:0;background:#fff}</style></head><body></body></html>"


def unrelated_family(family: str) -> str:
    """A page family that shares nothing with ``family`` but the generic web look."""
    return {"shop": "dashboard", "dashboard": "article", "article": "login", "login": "shop"}[family]


def variant_html(family: str, variant: str) -> str:
    if variant == "identical":
        return page_html(family)
    if variant.startswith("shift"):
        return page_html(family, shift=int(variant[5:]))
    if variant == "restyled":
        return page_html(family, restyled=True)
    if variant == "broken":
        return page_html(family, broken=True)
    if variant == "unrelated":
        return page_html(unrelated_family(family))
    if variant == "blank":
        return BLANK_HTML
    raise ValueError(variant)


CHROMIUM_ARGS = ["--no-sandbox", "--disable-gpu", "--disable-background-networking"]


def chromium_path() -> str | None:
    """The system Chromium ($IWR_CHROMIUM, else chromium / chromium-browser on PATH), or None."""
    import os
    import shutil

    for name in (os.environ.get("IWR_CHROMIUM"), "chromium", "chromium-browser"):
        if name and shutil.which(name):
            return shutil.which(name)
    return None


# Visible text of the viewport from the DOM (text nodes whose box is on screen), for OCR checks.
_VISIBLE_TEXT_JS = """() => { const out = []; const it = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT);
  let n; while ((n = it.nextNode())) { const r = document.createRange(); r.selectNodeContents(n);
  const b = r.getBoundingClientRect(); const t = n.textContent.trim();
  if (t && b.bottom > 0 && b.top < innerHeight - 8 && b.right > 0 && b.left < innerWidth) out.push(t); }
  return out.join(' '); }"""


def render_pages_with_text(htmls: dict[str, str], *, width: int = 1280, height: int = 720) -> dict[str, tuple]:
    """Render each HTML string with one Chromium: {key: (PIL image of the viewport, visible DOM text)}."""
    import io

    from PIL import Image
    from playwright.sync_api import sync_playwright

    out = {}
    with sync_playwright() as p:
        browser = p.chromium.launch(executable_path=chromium_path(), args=CHROMIUM_ARGS)
        try:
            page = browser.new_page(viewport={"width": width, "height": height}, device_scale_factor=1)
            for key, html in htmls.items():
                page.set_content(html, wait_until="load")
                img = Image.open(io.BytesIO(page.screenshot())).convert("RGB")
                out[key] = (img, page.evaluate(_VISIBLE_TEXT_JS))
        finally:
            browser.close()
    return out


def render_pages(htmls: dict[str, str], *, width: int = 1280, height: int = 720) -> dict[str, object]:
    """Render each HTML string to a PIL image (viewport screenshot, device scale factor 1)."""
    return {k: img for k, (img, _) in render_pages_with_text(htmls, width=width, height=height).items()}
