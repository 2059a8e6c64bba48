"""The page's own part of a mutant: the runtime shim (shim.js, packaged data) that mutates what scripts write
at run time, the census of what survived (survivors.js) and the UA stylesheet the divs need."""

from __future__ import annotations

import json

from ...fileio import package_folder, read_packaged
from .names import SALT, Mut, Names
from .selectors import _ID_REF_ATTRS

# =========================================================================== the page's own runtime part

#: lowest-specificity stylesheet giving the divs what their tag gave them (Chromium's UA rules)
UA_CSS = (
    ":where(div[data-b],span[data-b]){display:inline-block;box-sizing:border-box;margin:0;padding:1px 6px;"
    "border:2px outset buttonborder;background-color:buttonface;color:buttontext;font:-webkit-small-control;"
    "text-rendering:auto;letter-spacing:normal;word-spacing:normal;line-height:normal;text-transform:none;"
    "text-indent:0;text-shadow:none;text-align:center;cursor:default;align-items:flex-start}"
    ":where(div[data-b][disabled],span[data-b][disabled]){color:rgba(16,16,16,.3);"
    "background-color:rgba(239,239,239,.3);border-color:rgba(118,118,118,.3)}"
    ":where(div[data-i]){display:list-item;text-align:match-parent;unicode-bidi:isolate}"
)

#: Runs first in every document of the mutant. It only changes what the page *writes* (new
#: attributes, class names, HTML strings, created elements) and adds the divs' handlers; it
#: patches no API that reads the DOM, so the judge sees the mutant as it is.

SHIM_JS = read_packaged(package_folder("iwrbench.validity", "markup"), "shim.js").text

#: read-only census of what survived a mutation (run by our harness, never by the page)
SURVIVORS_JS = read_packaged(package_folder("iwrbench.validity", "markup"), "survivors.js").text

def shim_html(mut: Mut, names: Names) -> str:
    cfg = {"aria": mut.aria, "divs": mut.divs, "rename": mut.rename, "salt": SALT,
           "ids": sorted(names.ids)[:5000] if mut.rename else [], "idrefs": sorted(_ID_REF_ATTRS)}
    js = SHIM_JS.replace("__CFG__", json.dumps(cfg, separators=(",", ":")).replace("</", "<\\/"))
    style = f"<style>{UA_CSS}</style>" if mut.divs else ""
    return style + "<script>" + js + "</script>"
