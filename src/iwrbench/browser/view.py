"""What a person sees of a page: the text rendered inside the viewport, read from the layout.

The judge's checks read this view, never the DOM's structure: a text counts when it is rendered inside
the viewport, not hidden (display, visibility, zero opacity anywhere up the tree, transparent colour,
clipped away by an ancestor, smaller than 4 px) and not covered by something opaque painted above it.
Form fields contribute the value they show (or their placeholder when empty), buttons of type
submit/button their label. Markup does not matter: the same words read the same whether they sit in a
``<li>``, a ``<div>`` or three nested ``<span>``s.

The page returns fragments (one per text node, or per word when a text node is only partly inside the
viewport) with their boxes; :mod:`iwrbench.checks.view` groups them into lines as a reader would.
"""

from __future__ import annotations

from typing import Any

#: fragments of visible text: {t, x, y, w, h, fs, k (text|field|placeholder|button), b (block id), e (editable),
#: st (struck through)}
VIEW_JS = r"""
() => {
  const W = innerWidth, H = innerHeight;
  const MAX = 6000;
  const out = [];
  const opacityCache = new Map(), clipCache = new Map(), blockIds = new Map(), strikeCache = new Map();
  let nextBlock = 1;
  const alphaOf = (c) => {
    if (!c) return 1;
    if (c === 'transparent') return 0;
    const m = c.match(/rgba?\(([^)]*)\)/);
    if (!m) return 1;
    const p = m[1].split(/[\s,\/]+/).filter(Boolean);
    if (p.length < 4) return 1;
    const a = p[3].endsWith('%') ? parseFloat(p[3]) / 100 : parseFloat(p[3]);
    return isNaN(a) ? 1 : a;
  };
  // the parent as rendered (the flat tree): a slotted element's parent is its slot, a shadow root's child's is the host
  const parentOf = (el) => el.assignedSlot || el.parentElement || (el.parentNode && el.parentNode.host) || null;
  // product of opacities up the tree (shadow hosts included); 0 when an ancestor is not rendered
  const opacity = (el) => {
    if (!el || el.nodeType !== 1) return 1;
    if (opacityCache.has(el)) return opacityCache.get(el);
    const cs = getComputedStyle(el);
    let o = (cs.display === 'none') ? 0 : parseFloat(cs.opacity);
    if (isNaN(o)) o = 1;
    if (o > 0) o *= opacity(parentOf(el));
    opacityCache.set(el, o);
    return o;
  };
  // the box this element's content is clipped to by its ancestors (viewport coordinates)
  const clipOf = (el) => {
    if (!el || el.nodeType !== 1 || el === document.documentElement) return [0, 0, W, H];
    if (clipCache.has(el)) return clipCache.get(el);
    const cs = getComputedStyle(el);
    // a fixed element escapes its ancestors' clipping (it is positioned against the viewport)
    let c = cs.position === 'fixed' ? [0, 0, W, H] : clipOf(parentOf(el));
    const clips = cs.overflowX !== 'visible' || cs.overflowY !== 'visible' || (cs.clip && cs.clip !== 'auto')
                  || (cs.clipPath && cs.clipPath !== 'none' && /inset|polygon|circle|ellipse|rect/.test(cs.clipPath));
    if (clips && el !== document.body) {
      const r = el.getBoundingClientRect();
      let box = [r.left, r.top, r.right, r.bottom];
      if (cs.clip && cs.clip !== 'auto') {
        const m = cs.clip.match(/rect\(([^)]*)\)/);
        if (m) {
          const v = m[1].split(/[\s,]+/).map(parseFloat);
          if (v.length === 4 && v.every(x => !isNaN(x))) box = [r.left + v[3], r.top + v[0], r.left + v[1], r.top + v[2]];
        }
      }
      if (cs.clipPath && /inset\(\s*(100%|50%)/.test(cs.clipPath)) box = [r.left, r.top, r.left, r.top];
      c = [Math.max(c[0], box[0]), Math.max(c[1], box[1]), Math.min(c[2], box[2]), Math.min(c[3], box[3])];
    }
    clipCache.set(el, c);
    return c;
  };
  // struck through: a line-through decoration on the element or an ancestor (decorations propagate)
  const struck = (el) => {
    if (!el || el.nodeType !== 1) return false;
    if (strikeCache.has(el)) return strikeCache.get(el);
    const d = getComputedStyle(el).textDecorationLine || '';
    const v = d.includes('line-through') || (el.tagName === 'S' || el.tagName === 'DEL' || el.tagName === 'STRIKE') || struck(parentOf(el));
    strikeCache.set(el, v);
    return v;
  };
  const blockOf = (el) => {
    let e = el;
    while (e && e.nodeType === 1) {
      const d = getComputedStyle(e).display;
      if (!d.startsWith('inline') && d !== 'contents') break;
      e = parentOf(e);
    }
    if (!e) return 0;
    if (!blockIds.has(e)) blockIds.set(e, nextBlock++);
    return blockIds.get(e);
  };
  const opaqueAt = (el) => {
    const cs = getComputedStyle(el);
    if (opacity(el) < 0.75) return false;
    const tag = el.tagName.toLowerCase();
    if (['img', 'video', 'canvas', 'iframe', 'object', 'embed'].includes(tag)) return true;
    if (alphaOf(cs.backgroundColor) >= 0.75) return true;
    if (cs.backgroundImage && cs.backgroundImage !== 'none' && !/gradient/.test(cs.backgroundImage)) return true;
    return false;
  };
  // is the point covered by something opaque painted above `el`?
  const covered = (el, x, y) => {
    if (x < 0 || y < 0 || x >= W || y >= H) return false;
    let stack;
    try { stack = document.elementsFromPoint(x, y); } catch (e) { return false; }
    for (const top of stack) {
      if (top === el || el.contains(top) || top.contains(el)) return false;
      if (top.shadowRoot && top.shadowRoot.contains(el)) return false;
      if (opaqueAt(top)) return true;
    }
    return false;
  };
  const inView = (r, clip) => {
    const x0 = Math.max(r.left, clip[0], 0), y0 = Math.max(r.top, clip[1], 0);
    const x1 = Math.min(r.right, clip[2], W), y1 = Math.min(r.bottom, clip[3], H);
    if (x1 <= x0 || y1 <= y0) return 0;
    return ((x1 - x0) * (y1 - y0)) / Math.max(1, r.width * r.height);
  };
  const styleOk = (el) => {
    const cs = getComputedStyle(el);
    if (cs.visibility !== 'visible') return null;
    if (opacity(el) < 0.1) return null;
    const fill = cs.webkitTextFillColor || cs.color;
    if (alphaOf(fill) < 0.1 && alphaOf(cs.color) < 0.1) return null;
    if (alphaOf(fill) < 0.1 && !(cs.textShadow && cs.textShadow !== 'none')) return null;
    const fs = parseFloat(cs.fontSize) || 0;
    if (fs < 4) return null;
    if (cs.textIndent && parseFloat(cs.textIndent) < -999) return null;
    return fs;
  };
  const push = (t, r, fs, kind, el, editable) => {
    if (out.length >= MAX) return;
    const clip = clipOf(el);
    if (inView(r, clip) < 0.5) return;
    const cx = Math.min(Math.max(r.left + r.width / 2, 0), W - 1), cy = Math.min(Math.max(r.top + r.height / 2, 0), H - 1);
    if (covered(el, cx, cy)) return;
    out.push({t: t, x: Math.round(r.left), y: Math.round(r.top), w: Math.round(r.width), h: Math.round(r.height),
              fs: Math.round(fs), k: kind, b: blockOf(el), e: !!editable, st: kind === 'text' && struck(el)});
  };
  const textNode = (n) => {
    const s = n.nodeValue;
    if (!s || !/\S/.test(s)) return;
    const el = n.parentElement;
    if (!el) return;
    const tag = el.tagName.toLowerCase();
    if (['script', 'style', 'noscript', 'template', 'textarea', 'option', 'title'].includes(tag)) return;
    const fs = styleOk(el);
    if (!fs) return;
    const range = document.createRange();
    range.selectNodeContents(n);
    const rects = Array.from(range.getClientRects()).filter(r => r.width >= 1 && r.height >= 1);
    if (!rects.length) return;
    const clip = clipOf(el);
    const whole = rects.every(r => inView(r, clip) >= 0.5);
    const editable = el.isContentEditable;
    if (whole || s.length > 4000) {
      if (rects.length === 1) { push(s.replace(/\s+/g, ' ').trim(), rects[0], fs, 'text', el, editable); return; }
      // one fragment per line box: split the text at the words' line boxes
    }
    const re = /\S+/g; let m; let line = null;
    const flush = () => { if (line) push(line.t, {left: line.x0, top: line.y0, right: line.x1, bottom: line.y1,
                                   width: line.x1 - line.x0, height: line.y1 - line.y0}, fs, 'text', el, editable); line = null; };
    let count = 0;
    while ((m = re.exec(s)) && count < 2000) {
      count++;
      range.setStart(n, m.index); range.setEnd(n, m.index + m[0].length);
      const r = range.getBoundingClientRect();
      if (r.width < 1 || r.height < 1) continue;
      if (line && Math.abs(r.top - line.y0) < r.height * 0.5 && r.left >= line.x1 - 2) {
        line.t += ' ' + m[0]; line.x1 = Math.max(line.x1, r.right); line.y1 = Math.max(line.y1, r.bottom);
      } else {
        flush();
        line = {t: m[0], x0: r.left, y0: r.top, x1: r.right, y1: r.bottom};
      }
    }
    flush();
  };
  const field = (el) => {
    const tag = el.tagName.toLowerCase();
    const type = (el.getAttribute('type') || '').toLowerCase();
    if (tag === 'input' && ['hidden', 'checkbox', 'radio', 'file', 'range', 'color', 'image', 'password'].includes(type)) return;
    const fs = styleOk(el);
    if (!fs) return;
    const r = el.getBoundingClientRect();
    if (r.width < 1 || r.height < 1) return;
    let v = '', kind = 'field';
    if (tag === 'select') {
      v = el.selectedOptions && el.selectedOptions.length ? el.selectedOptions[0].text : '';
      if (el.multiple || el.size > 1) {  // a list box shows its options
        for (const o of el.options) {
          const orr = o.getBoundingClientRect();
          if (orr.height >= 1) push(o.text.replace(/\s+/g, ' ').trim(), orr, fs, 'text', el, false);
        }
        return;
      }
    } else if (tag === 'input' && ['submit', 'button', 'reset'].includes(type)) {
      v = el.value || (type === 'submit' ? 'Submit' : type === 'reset' ? 'Reset' : ''); kind = 'button';
    } else {
      v = el.value || '';
      if (!v) { v = el.getAttribute('placeholder') || ''; kind = 'placeholder'; }
    }
    v = v.replace(/\s+/g, ' ').trim();
    if (!v) return;
    push(v.slice(0, 2000), r, fs, kind, el, kind === 'field' && !el.readOnly && !el.disabled);
  };
  const walk = (root) => {
    const it = document.createTreeWalker(root, NodeFilter.SHOW_ELEMENT | NodeFilter.SHOW_TEXT);
    let n = it.currentNode;
    while (n && out.length < MAX) {
      if (n.nodeType === 3) textNode(n);
      else if (n.nodeType === 1) {
        const tag = n.tagName.toLowerCase();
        if (tag === 'input' || tag === 'textarea' || tag === 'select') field(n);
        if (n.shadowRoot) walk(n.shadowRoot);
      }
      n = it.nextNode();
    }
  };
  if (document.body) walk(document.body);
  return {url: location.href, w: W, h: H, scroll: [scrollX, scrollY], frags: out, truncated: out.length >= MAX};
}
"""


#: finite CSS transitions and animations fast-forwarded to their end, as the judge's screenshots do
#: (Playwright's ``animations: 'disabled'``): the reader sees the state the picture shows, not a notice
#: half faded in.
FINISH_JS = r"""() => {
  try {
    for (const a of document.getAnimations()) {
      const t = a.effect && a.effect.getComputedTiming ? a.effect.getComputedTiming() : null;
      if (t && Number.isFinite(t.endTime) && a.playState !== 'finished') a.finish();
    }
  } catch (e) { /* a page without the Web Animations API: read as it is */ }
}"""


async def read_view(page: Any, *, timeout_s: float = 20.0) -> dict:
    """Run :data:`VIEW_JS` in an isolated world of the page's main frame and return its result.

    An isolated world has its own copies of the DOM's JavaScript prototypes: a page that patches
    ``getComputedStyle``, ``Range.prototype.getClientRects`` or ``elementsFromPoint`` to make hidden text
    look visible patches only its own world, not the reader's.
    """
    import asyncio

    cdp = await page.context.new_cdp_session(page)
    try:
        tree = await asyncio.wait_for(cdp.send("Page.getFrameTree"), timeout_s)
        frame_id = tree["frameTree"]["frame"]["id"]
        world = await asyncio.wait_for(
            cdp.send("Page.createIsolatedWorld", {"frameId": frame_id, "worldName": "iwr-reader", "grantUniveralAccess": False}),
            timeout_s)
        res = await asyncio.wait_for(cdp.send("Runtime.evaluate", {
            "expression": f"({FINISH_JS})(), ({VIEW_JS})()", "contextId": world["executionContextId"], "returnByValue": True,
            "awaitPromise": False, "timeout": int(timeout_s * 1000)}), timeout_s + 1)
    finally:
        try:
            await cdp.detach()
        except Exception:
            pass
    if "exceptionDetails" in res:
        d = res["exceptionDetails"]
        raise RuntimeError(f"reader failed: {(d.get('exception') or {}).get('description') or d.get('text')}"[:200])
    return res.get("result", {}).get("value") or {}
