"""Static assets a page used: sniffed from its responses, deduplicated, renamed, composited.

Names give no hints (``asset001.png`` in first-use order); the original URLs go to
``reference/assets.json`` only. Composites are rendered by Chromium itself, so SVG, WebP and
GIF tiles look exactly as they did on the page; each tile is labelled with its new name.
"""

from __future__ import annotations

import hashlib
import html
import json
import math
from dataclasses import dataclass
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit

from ..browser.server import StaticServer

_EXT = {
    "image/png": "png", "image/jpeg": "jpg", "image/jpg": "jpg", "image/gif": "gif", "image/webp": "webp",
    "image/svg+xml": "svg", "image/x-icon": "ico", "image/vnd.microsoft.icon": "ico", "image/avif": "avif",
    "image/bmp": "bmp", "video/mp4": "mp4", "video/webm": "webm", "video/ogg": "ogv", "audio/mpeg": "mp3",
    "audio/ogg": "ogg", "audio/wav": "wav", "audio/webm": "weba", "font/woff2": "woff2", "font/woff": "woff",
    "font/ttf": "ttf", "font/otf": "otf", "application/font-woff": "woff",
}
MEDIA_KINDS = ("image", "media", "font")
TILE = 200
COLS = 5
PER_SHEET = 20


@dataclass
class Sniffed:
    url: str
    content_type: str
    body: bytes
    kind: str  # image | media | font


class AssetSniffer:
    """Collects image/media/font responses of a page (attach before navigating)."""

    def __init__(self, page: Any):
        self.items: list[Sniffed] = []
        self._pending: list[Any] = []
        self._seen_urls: set[str] = set()
        page.on("response", self._on_response)

    def _on_response(self, resp: Any) -> None:
        import asyncio

        req = resp.request
        ctype = (resp.headers.get("content-type") or "").split(";")[0].strip().lower()
        rtype = req.resource_type
        kind = None
        if rtype == "font" or ctype.startswith("font/") or "font" in ctype:
            kind = "font"
        elif rtype == "image" or ctype.startswith("image/"):
            kind = "image"
        elif rtype == "media" or ctype.startswith(("video/", "audio/")):
            kind = "media"
        if kind is None or resp.status >= 400 or req.url in self._seen_urls or req.url.startswith("data:"):
            return
        self._seen_urls.add(req.url)

        async def grab() -> None:
            try:
                body = await resp.body()
            except Exception:
                return
            if body:
                self.items.append(Sniffed(req.url, ctype, body, kind))

        self._pending.append(asyncio.ensure_future(grab()))

    async def drain(self) -> None:
        import asyncio

        if self._pending:
            await asyncio.gather(*self._pending, return_exceptions=True)
            self._pending.clear()


def _ext(item: Sniffed) -> str:
    if item.content_type in _EXT:
        return _EXT[item.content_type]
    suffix = Path(urlsplit(item.url).path).suffix.lower().lstrip(".")
    if suffix and suffix.isalnum() and len(suffix) <= 5:
        return suffix
    if item.body[:8] == b"\x89PNG\r\n\x1a\n":
        return "png"
    if item.body[:3] == b"\xff\xd8\xff":
        return "jpg"
    if b"<svg" in item.body[:512]:
        return "svg"
    return "bin"


def write_assets(items: list[Sniffed], assets_dir: Path, reference_dir: Path) -> list[dict]:
    """Deduplicate by content, write ``assetNNN.ext``; return the manifest (also in reference/).

    Names are numbered in the order of the assets' sha256, not in the order their responses arrived
    (which varies from one recording to the next): the same site always gives the same names, so a
    page written against one build's composites shows the same images on the next.
    """
    assets_dir.mkdir(parents=True, exist_ok=True)
    manifest: list[dict] = []
    fonts: list[dict] = []
    by_hash: dict[str, dict] = {}
    for it in sorted(items, key=lambda i: (hashlib.sha256(i.body).hexdigest(), i.url)):
        digest = hashlib.sha256(it.body).hexdigest()
        if it.kind == "font":
            fonts.append({"url": it.url, "content_type": it.content_type, "sha256": digest, "bytes": len(it.body)})
            continue
        if digest in by_hash:
            by_hash[digest]["urls"].append(it.url)
            continue
        name = f"asset{len(manifest) + 1:03d}.{_ext(it)}"
        (assets_dir / name).write_bytes(it.body)
        entry = {"file": name, "urls": [it.url], "content_type": it.content_type, "kind": it.kind,
                 "sha256": digest, "bytes": len(it.body)}
        by_hash[digest] = entry
        manifest.append(entry)
    reference_dir.mkdir(parents=True, exist_ok=True)
    (reference_dir / "assets.json").write_text(json.dumps(manifest, indent=1))
    (reference_dir / "fonts.json").write_text(json.dumps(fonts, indent=1))
    return manifest


def _sheet_html(files: list[dict]) -> str:
    tiles = []
    for f in files:
        name = html.escape(f["file"])
        if f["kind"] == "image":
            inner = f'<img src="/{name}" alt="">'
        else:
            inner = f'<div class="media">{html.escape(f["content_type"] or "media")}<br>{f["bytes"] // 1024} KB</div>'
        tiles.append(f'<figure><div class="box">{inner}</div><figcaption>{name}</figcaption></figure>')
    return f"""<!doctype html><html><head><meta charset="utf-8"><style>
body{{margin:0;background:#fff;font:600 15px DejaVu Sans,Arial,sans-serif}}
#sheet{{display:grid;grid-template-columns:repeat({COLS},{TILE}px);gap:8px;padding:8px;width:max-content}}
figure{{margin:0;border:1px solid #999;background:#fff}}
.box{{width:{TILE}px;height:{TILE}px;display:flex;align-items:center;justify-content:center;
background-color:#eee;background-image:linear-gradient(45deg,#ddd 25%,transparent 25%,transparent 75%,#ddd 75%),
linear-gradient(45deg,#ddd 25%,transparent 25%,transparent 75%,#ddd 75%);background-size:20px 20px;
background-position:0 0,10px 10px}}
img{{max-width:{TILE - 8}px;max-height:{TILE - 8}px;object-fit:contain}}
.media{{color:#333;text-align:center}}
figcaption{{padding:5px;text-align:center;background:#111;color:#fff}}
</style></head><body><div id="sheet">{''.join(tiles)}</div></body></html>"""


async def render_composites(browser: Any, manifest: list[dict], assets_dir: Path, out_dir: Path) -> list[Path]:
    """Labelled grid composites ``stitched_image_<k>.png`` of every asset (rendered by Chromium)."""
    out_dir.mkdir(parents=True, exist_ok=True)
    if not manifest:
        return []
    sheets = [manifest[i:i + PER_SHEET] for i in range(0, len(manifest), PER_SHEET)]
    written: list[Path] = []
    from playwright.async_api import TimeoutError as PlaywrightTimeout

    from ..browser.core import new_context  # contained like every page: the browser resolves no host itself

    with StaticServer({"/": assets_dir}) as srv:
        ctx, _ = await new_context(browser, (COLS * (TILE + 10) + 16, 600), allowed_origins={srv.origin})
        try:
            page = await ctx.new_page()
            for k, files in enumerate(sheets, start=1):
                sheet = assets_dir / f".sheet{k}.html"
                sheet.write_text(_sheet_html(files))
                try:
                    await page.goto(srv.url(sheet.name), wait_until="load", timeout=30000)
                    await page.evaluate("() => Promise.all(Array.from(document.images).map(i => i.decode().catch(() => null)))")
                    path = out_dir / f"stitched_image_{k}.png"
                    try:
                        await page.locator("#sheet").screenshot(path=str(path), animations="disabled")
                    except PlaywrightTimeout:
                        # a machine loaded by other work can hold the compositor past the first limit: once more,
                        # longer (a sheet is a static page of our own: nothing of it keeps the browser busy)
                        await page.locator("#sheet").screenshot(path=str(path), animations="disabled", timeout=90000)
                    written.append(path)
                finally:
                    sheet.unlink(missing_ok=True)
        finally:
            await ctx.close()
    return written


def sheets_needed(n: int) -> int:
    return math.ceil(n / PER_SHEET)
