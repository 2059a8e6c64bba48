"""``iwr doctor``: what this machine can run, and why."""

from __future__ import annotations

import importlib.util
import shutil
import subprocess
from typing import Any


def _line(ok: bool, what: str, detail: str) -> None:
    print(f"{'ok  ' if ok else 'no  '} {what:<22} {detail}")


async def _sandbox_check() -> Any:
    """Start a browser as judging does, open a page, and look at its processes."""
    from playwright.async_api import async_playwright

    from .browser.core import browser_sandbox, launch_browser, new_context
    from .browser.sandbox import sandbox_status

    async with async_playwright() as pw:
        browser = await launch_browser(pw)
        try:
            ctx, _ = await new_context(browser, (320, 240), allowed_origins=set())
            page = await ctx.new_page()
            await page.set_content("<p>sandbox</p>")
            return sandbox_status(browser_sandbox(browser))
        finally:
            await browser.close()


def _sandbox_line() -> int:
    """The browser's sandbox, as found on a browser started here; 1 when judging would refuse to start."""
    import asyncio

    from .browser.sandbox import plan

    try:
        sb = plan()
        st = asyncio.run(_sandbox_check())
    except Exception as e:  # ComponentMissing (no iwr-browser user, no user namespaces ...) or no browser at all
        _line(False, "browser sandbox", f"{str(e).splitlines()[0] if str(e) else e.__class__.__name__}; judging "
                                        "refuses to start without it (--unsafe-no-sandbox to judge anyway)")
        return 1
    _line(st.ok, "browser sandbox", st.detail)
    return 0 if st.ok or not sb.on else 1


def doctor() -> int:
    from .browser.core import find_chromium

    bad = 0
    try:
        exe, why = find_chromium()
        ver = ""
        if exe:
            try:
                ver = subprocess.run([exe, "--version"], capture_output=True, text=True, timeout=20).stdout.strip()
            except Exception:
                ver = "(version unknown)"
        _line(True, "browser", f"{ver or 'Chromium'} at {exe or 'Playwright default'}: {why}")
    except Exception as e:
        bad += 1
        _line(False, "browser", str(e))
    bad += _sandbox_line()
    try:
        from .browser.core import memory_cap

        cap = memory_cap()
        _line(cap.kind != "off", "browser memory cap", cap.describe())
    except Exception as e:
        bad += 1
        _line(False, "browser memory cap", str(e))
    try:
        import playwright  # noqa: F401

        _line(True, "playwright", "importable")
    except ImportError:
        bad += 1
        _line(False, "playwright", "pip install playwright")
    from . import metrics

    for name in ("tesseract", "easyocr"):
        try:
            eng = metrics.get_ocr(name)
            ok, why = eng.available()
            _line(ok, f"ocr:{name}", why or "available")
        except Exception as e:
            _line(False, f"ocr:{name}", str(e))
            bad += name == "tesseract"
    for name in (None, "dinov2"):
        try:
            be = metrics.get_visual(name)
            ok, why = be.available()
            _line(ok, f"visual:{name or 'default'}", f"{getattr(be, 'name', '')} {why or 'available'}".strip())
        except Exception as e:
            _line(False, f"visual:{name or 'default'}", str(e))
    for mod, hint in (("openai", "pip install openai (optional; the built-in HTTP client needs none)"),
                      ("anthropic", "pip install anthropic (optional)"), ("ray", "pip install 'iwrbench[ray]'"),
                      ("torch", "pip install 'iwrbench[dino]'"), ("easyocr", "pip install easyocr")):
        found = importlib.util.find_spec(mod) is not None
        _line(found, f"package:{mod}", "installed" if found else hint)
    _line(shutil.which("npm") is not None, "npm", "fetches third-party suite sites" if shutil.which("npm") else "needed to build npm-sourced suite tasks")
    print("protocols: offline@2 needs browser + tesseract; iwr-bench@1 also needs easyocr, dinov2 weights and a judge model")
    return 1 if bad else 0
