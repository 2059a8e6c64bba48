"""JavaScript run in pages: element descriptions, interactive candidates and page state.

Shared by the recorder (what a target is; what an action changed) and the judge (what can be
grounded; whether a typed check holds), so both sides see a page the same way.
"""

from __future__ import annotations

# Common helpers, prepended to each snippet.
_LIB = r"""
const IMPLICIT = {a: (e) => e.hasAttribute('href') ? 'link' : null, button: () => 'button',
  select: (e) => (e.multiple || e.size > 1) ? 'listbox' : 'combobox', textarea: () => 'textbox',
  li: () => 'listitem', ul: () => 'list', ol: () => 'list', tr: () => 'row', table: () => 'table',
  td: () => 'cell', th: () => 'columnheader', option: () => 'option', nav: () => 'navigation',
  img: (e) => e.getAttribute('alt') === '' ? 'presentation' : 'img', h1: () => 'heading', h2: () => 'heading',
  h3: () => 'heading', h4: () => 'heading', h5: () => 'heading', h6: () => 'heading', dialog: () => 'dialog',
  summary: () => 'button', details: () => 'group', form: () => 'form', main: () => 'main',
  progress: () => 'progressbar', fieldset: () => 'group', article: () => 'article',
  input: (e) => {
    const t = (e.getAttribute('type') || 'text').toLowerCase();
    return ({checkbox: 'checkbox', radio: 'radio', button: 'button', submit: 'button', reset: 'button',
      image: 'button', range: 'slider', number: 'spinbutton', search: 'searchbox', hidden: null}[t] ?? 'textbox');
  }};
const roleOf = (e) => {
  const r = (e.getAttribute('role') || '').trim().split(/\s+/)[0];
  if (r) return r;
  const f = IMPLICIT[e.tagName.toLowerCase()];
  return f ? f(e) : null;
};
const norm = (s) => (s || '').replace(/\s+/g, ' ').trim();
const visible = (e) => {
  if (!e.isConnected) return false;
  const r = e.getBoundingClientRect();
  if (r.width < 1 || r.height < 1) return false;
  const cs = getComputedStyle(e);
  if (cs.visibility === 'hidden' || cs.visibility === 'collapse' || cs.display === 'none') return false;
  if (parseFloat(cs.opacity) === 0) return false;
  return true;
};
const labelText = (e) => {
  const parts = [];
  if (e.labels) for (const l of Array.from(e.labels)) parts.push(norm(l.innerText));
  return norm(parts.join(' '));
};
const nameOf = (e) => {
  const al = e.getAttribute('aria-label');
  if (al && norm(al)) return norm(al);
  const lb = e.getAttribute('aria-labelledby');
  if (lb) {
    const t = lb.split(/\s+/).map(id => document.getElementById(id)).filter(Boolean).map(x => norm(x.innerText || x.textContent)).join(' ');
    if (norm(t)) return norm(t);
  }
  const tag = e.tagName.toLowerCase();
  if (['input', 'textarea', 'select'].includes(tag)) {
    const t = (e.getAttribute('type') || '').toLowerCase();
    if (['submit', 'button', 'reset'].includes(t)) return norm(e.value || e.getAttribute('value'));
    const l = labelText(e); if (l) return l;
    return norm(e.getAttribute('title') || e.getAttribute('placeholder') || '');
  }
  if (tag === 'img') return norm(e.getAttribute('alt') || e.getAttribute('title'));
  const txt = norm(e.innerText || e.textContent);
  if (txt) return txt.slice(0, 200);
  const img = e.querySelector('img[alt]');
  if (img) return norm(img.getAttribute('alt'));
  return norm(e.getAttribute('title'));
};
const editable = (e) => {
  const tag = e.tagName.toLowerCase();
  if (tag === 'textarea') return !e.disabled && !e.readOnly;
  if (tag === 'input') {
    const t = (e.getAttribute('type') || 'text').toLowerCase();
    return !['checkbox','radio','button','submit','reset','image','range','color','file','hidden'].includes(t) && !e.disabled && !e.readOnly;
  }
  return e.isContentEditable;
};
const ATTRS = ['id', 'name', 'type', 'placeholder', 'aria-label', 'title', 'alt', 'href', 'role', 'value', 'for', 'aria-expanded', 'aria-checked', 'aria-selected', 'aria-pressed'];
const describe = (e) => {
  const r = e.getBoundingClientRect();
  const attrs = {};
  for (const a of ATTRS) { const v = e.getAttribute(a); if (v !== null && v !== '' && v.length < 200) attrs[a] = v; }
  if (e.classList && e.classList.length) attrs['class'] = Array.from(e.classList).slice(0, 6).join(' ');
  return {tag: e.tagName.toLowerCase(), role: roleOf(e), name: nameOf(e), text: norm(e.innerText || e.textContent).slice(0, 200),
          label: labelText(e) || null, attributes: attrs, editable: editable(e),
          bbox: {x: r.x, y: r.y, width: r.width, height: r.height}};
};
const INTERACTIVE_ROLES = new Set(['button','link','checkbox','radio','tab','menuitem','menuitemcheckbox','menuitemradio',
  'option','switch','combobox','textbox','searchbox','slider','spinbutton','treeitem','listbox','gridcell']);
const clickable = (e) => {
  const tag = e.tagName.toLowerCase();
  if (['a','button','input','select','textarea','summary','label','option'].includes(tag)) return true;
  const r = roleOf(e);
  if (r && INTERACTIVE_ROLES.has(r)) return true;
  if (e.hasAttribute('onclick') || e.hasAttribute('tabindex') || e.isContentEditable) return true;
  try { if (getComputedStyle(e).cursor === 'pointer' && !(e.parentElement && getComputedStyle(e.parentElement).cursor === 'pointer')) return true; } catch (x) {}
  return false;
};
"""

#: describe one element (argument: the element)
DESCRIBE_JS = "(el) => {" + _LIB + " return describe(el); }"

#: a snapshot of what a person can see and what the checks read
STATE_JS = (
    "() => {"
    + _LIB
    + r"""
  const texts = [];
  const blockish = new Set(['p','li','td','th','h1','h2','h3','h4','h5','h6','button','a','label','span','div','dt','dd',
                            'strong','em','b','small','figcaption','caption','summary','legend','option','output','code','pre']);
  for (const e of Array.from(document.querySelectorAll('body *'))) {
    if (!blockish.has(e.tagName.toLowerCase())) continue;
    let own = '';
    for (const n of Array.from(e.childNodes)) if (n.nodeType === 3) own += n.textContent;
    own = norm(own);
    if (!own) continue;
    const t = norm(e.innerText);
    if (!t || t.length > 160) continue;
    if (!visible(e)) continue;
    texts.push(t);
  }
  const fields = [];
  for (const e of Array.from(document.querySelectorAll('input, textarea, select'))) {
    const t = (e.getAttribute('type') || '').toLowerCase();
    if (['hidden','submit','button','reset','image','file','password'].includes(t)) continue;
    if (!visible(e)) continue;
    let v = e.value;
    if (e.tagName.toLowerCase() === 'select' && e.selectedOptions && e.selectedOptions.length) v = norm(e.selectedOptions[0].text);
    const role = roleOf(e);
    const entry = {role: role, name: nameOf(e), value: (t === 'checkbox' || t === 'radio') ? null : v};
    if (t === 'checkbox' || t === 'radio') entry.checked = e.checked;
    fields.push(entry);
  }
  const counts = {};
  for (const e of Array.from(document.querySelectorAll('body *'))) {
    const r = roleOf(e);
    if (!r || !['listitem','row','option','tab','checkbox','article','img','dialog','cell'].includes(r)) continue;
    if (!visible(e)) continue;
    counts[r] = (counts[r] || 0) + 1;
  }
  const states = [];
  for (const e of Array.from(document.querySelectorAll('[aria-expanded], [aria-selected], [aria-pressed], [aria-checked], input[type=checkbox], input[type=radio], details'))) {
    if (!visible(e)) continue;
    const r = roleOf(e), n = nameOf(e);
    if (!n || n.length > 80) continue;
    const s = {};
    if (e.hasAttribute('aria-expanded')) s.expanded = e.getAttribute('aria-expanded') === 'true';
    if (e.tagName.toLowerCase() === 'details') s.expanded = e.open;
    if (e.hasAttribute('aria-selected')) s.selected = e.getAttribute('aria-selected') === 'true';
    if (e.hasAttribute('aria-pressed')) s.pressed = e.getAttribute('aria-pressed') === 'true';
    if (e.hasAttribute('aria-checked')) s.checked = e.getAttribute('aria-checked') === 'true';
    if (e.tagName.toLowerCase() === 'input') s.checked = e.checked;
    states.push({role: r, name: n, states: s});
  }
  return {url: location.href, title: document.title, body_text: norm(document.body ? document.body.innerText : ''),
          texts: texts, fields: fields, counts: counts, states: states,
          scroll: {x: scrollX, y: scrollY}};
}"""
)

#: element state by name (argument: element) for StateEquals on the acted-on element
ELEMENT_STATE_JS = r"""(e) => {
  const aria = (a) => e.hasAttribute(a) ? e.getAttribute(a) === 'true' : null;
  const tag = e.tagName.toLowerCase();
  const s = {checked: aria('aria-checked'), selected: aria('aria-selected'), expanded: aria('aria-expanded'),
             pressed: aria('aria-pressed'), disabled: e.disabled === true || aria('aria-disabled') === true};
  if (tag === 'input') s.checked = e.checked;
  if (tag === 'details') s.expanded = e.open;
  if (tag === 'option') s.selected = e.selected;
  if (s.checked === null) {
    const inner = e.querySelector && e.querySelector('input[type=checkbox], input[type=radio]');
    if (inner) s.checked = inner.checked;
  }
  return s;
}"""


# --------------------------------------------------------------------------- grounding (judge/ground.py)
# Extra helpers for the grounding snippets below (prepended after _LIB).
_GROUND_LIB = r"""
const subLabels = (e) => {  // names given by descendants: <svg aria-label>, <img alt>, <svg><title>
  const parts = [];
  for (const x of Array.from(e.querySelectorAll('[aria-label], [title], img[alt], svg title'))) {
    if (parts.length >= 4) break;
    const v = x.tagName.toLowerCase() === 'title' ? x.textContent
      : (x.getAttribute('aria-label') || x.getAttribute('alt') || x.getAttribute('title'));
    if (v && norm(v)) parts.push(norm(v));
  }
  return parts.join(' ').slice(0, 120);
};
const selectable = (e) => { const r = roleOf(e); return e.tagName.toLowerCase() === 'select' || r === 'combobox' || r === 'listbox'; };
const groundDescribe = (e) => {
  const d = describe(e);
  d.clickable = clickable(e);
  d.selectable = selectable(e);
  let own = '';
  for (const n of Array.from(e.childNodes)) if (n.nodeType === 3) own += n.textContent;
  d.own_text = norm(own).slice(0, 200);
  if (!d.name) d.sub = subLabels(e);
  if (d.tag === 'label') d.has_control = !!e.control;  // clicking it reaches a field/checkbox
  return d;
};
"""

#: everything the grounding ladder compares against (no argument); returns [elements, descriptions].
#: The entries without ``extra`` are the interactive/text candidates of the fuzzy and LLM rungs:
#: every visible clickable element, and every visible element with its own text (or an image
#: with alt text) that is not inside a clickable one. ``extra`` entries are other visible
#: elements named by an attribute (role, aria-label, title, placeholder, alt); ``up`` is the
#: index of the clickable element they sit in (or -1).
GROUND_SNAPSHOT_JS = (
    "() => {"
    + _LIB
    + _GROUND_LIB
    + r"""
  const els = [], out = [], ups = [];
  let nBase = 0, nExtra = 0;
  const SKIP = new Set(['script','style','noscript','template','head','meta','link','br','svg','path']);
  const NAMED = ['aria-label', 'aria-labelledby', 'title', 'role', 'placeholder', 'alt'];
  for (const e of Array.from(document.querySelectorAll('body *'))) {
    if (nBase >= 3000 && nExtra >= 1500) break;
    const tag = e.tagName.toLowerCase();
    if (SKIP.has(tag)) continue;
    const isClick = clickable(e);
    let own = '';
    for (const n of Array.from(e.childNodes)) if (n.nodeType === 3) own += n.textContent;
    own = norm(own);
    let base = isClick || !!own || (tag === 'img' && !!e.getAttribute('alt'));
    let up = null;
    if (!isClick) {  // text inside a clickable element: the element itself is the candidate
      let p = e.parentElement, k = 0;
      while (p && k < 6 && p !== document.body) { if (clickable(p)) { up = p; break; } p = p.parentElement; k++; }
      if (up) base = false;
    }
    if (!base && !NAMED.some((a) => e.hasAttribute(a))) continue;
    if (base ? nBase >= 3000 : nExtra >= 1500) continue;
    if (!visible(e)) continue;
    const d = groundDescribe(e);
    if (!base) { d.extra = true; nExtra++; } else nBase++;
    els.push(e); out.push(d); ups.push(up);
  }
  const index = new Map(els.map((e, i) => [e, i]));
  out.forEach((d, i) => { if (d.extra) d.up = ups[i] && index.has(ups[i]) ? index.get(ups[i]) : -1; });
  return [els, out];
}"""
)

#: the elements at viewport points that fit an action. Argument: {points: [[x, y], ...], kind:
#: 'click'|'type'|'select'|'hover', max_area: px² or 0, twins: bool, want_area: px²}. For 'hover', the
#: element on the path up whose size is closest to want_area (any kind). From the topmost element at each
#: point, walks up (at most 6 levels) to the first element of the right kind, unless it is larger
#: than max_area (a row or card, not the control). Returns [elements, descriptions]; each found
#: element lists the indices of the points that hit it (``points``). With ``twins``, elements
#: that look like a found one (same tag, role, type and text) follow, with ``twin_of``.
POINT_PICK_JS = (
    "(arg) => {"
    + _LIB
    + _GROUND_LIB
    + r"""
  const fits = (e) => arg.kind === 'type' ? editable(e) : arg.kind === 'select' ? selectable(e) : clickable(e);
  const els = [], out = [];
  const index = new Map();
  const add = (e, extra) => {
    let j = index.get(e);
    if (j === undefined) {
      j = els.length; index.set(e, j); els.push(e);
      const d = groundDescribe(e); d.points = []; Object.assign(d, extra || {}); out.push(d);
    }
    return j;
  };
  (arg.points || []).forEach((pt, i) => {
    const x = pt[0], y = pt[1];
    if (!(x >= 0 && y >= 0 && x < innerWidth && y < innerHeight)) return;
    const stack = document.elementsFromPoint(x, y);
    if (arg.kind === 'hover') {
      // the element of about the recorded size under the point (a card, a row, a chart point), any
      // kind: from each element stacked there (a transparent hit area may lie over the visible dot),
      // up its ancestors. Moving the pointer to it is what a person does; whatever is on top there
      // receives the hover, as it would for them.
      let best = null, bestR = 0;
      stack.slice(0, 8).forEach((top, s) => {
        let e = top, k = 0;
        while (e && e !== document.body && e !== document.documentElement && k <= 12) {
          const r = e.getBoundingClientRect(), a = r.width * r.height, w = arg.want_area || a;
          if (a > 3 * w) break;
          const ratio = Math.min(a, w) / Math.max(a, w, 1) - 0.02 * s;  // the topmost wins a tie
          if (ratio > bestR) { best = e; bestR = ratio; }
          e = e.parentElement; k++;
        }
      });
      if (best && bestR >= 0.4) out[add(best, {depth: 0})].points.push(i);
      return;
    }
    let e = stack.length ? stack[0] : null, k = 0;
    while (e && e !== document.body && e !== document.documentElement && k <= 6) {
      if (fits(e)) {
        const r = e.getBoundingClientRect();
        if (arg.max_area && r.width * r.height > arg.max_area) break;
        // hit testing found it: it takes the click even if transparent (an opacity-0 native checkbox over its picture)
        out[add(e, {depth: k})].points.push(i);
        break;
      }
      e = e.parentElement; k++;
    }
  });
  if (arg.twins) {
    const key = (e) => [e.tagName, roleOf(e) || '', e.getAttribute('type') || '',
                        norm(e.textContent).toLowerCase().slice(0, 80)].join('|');
    const n = els.length;
    for (let j = 0; j < n; j++) {
      const k0 = key(els[j]);
      let c = 0;
      for (const o of Array.from(document.getElementsByTagName(els[j].tagName))) {
        if (index.has(o) || key(o) !== k0 || !visible(o)) continue;
        add(o, {twin_of: j});
        if (++c >= 40) break;
      }
    }
  }
  return [els, out];
}"""
)

#: the surroundings of each of several alike elements (argument: the elements): ``[text, under, alone]``.
#: ``text``: the text of its largest ancestor that holds none of the others and not much text (a product card, a
#: table row), at most 400 characters, after the text of its largest such ancestor of at most 300 (its group: a
#: field's label and its chips, which the 400 characters of a long form may not reach). ``under``: whether a
#: pointer cannot reach it: the element hit at the centre of its part on screen is not it, inside it or around it
#: (composed tree), and it or an ancestor of it (not around the element) is a painted layer that holds the
#: element's whole box and is at least four times its size (a modal's backdrop, a dialog over a sidebar). A sibling
#: drawn over a control of about its size (the picture of a styled checkbox over the real one) and a transparent hit
#: area (over a chart's dot) do not count. null: not on screen, not known. ``alone``: no ancestor was read (its
#: parent holds another of them: a cell among its row's look-alikes), so its text is its own.
CONTEXT_JS = (
    "(els) => {"
    + _LIB
    + r"""
  const up = (n) => n.parentElement || (n.getRootNode && n.getRootNode().host) || null;
  const around = (a, b) => { for (let n = b; n; n = up(n)) if (n === a) return true; return false; };
  const under = (el) => {
    const r = el.getBoundingClientRect();
    const x0 = Math.max(r.left, 0), x1 = Math.min(r.right, innerWidth);
    const y0 = Math.max(r.top, 0), y1 = Math.min(r.bottom, innerHeight);
    if (x1 - x0 < 1 || y1 - y0 < 1) return null;
    const root = el.getRootNode && el.getRootNode();
    const hitAt = root && root !== document && root.elementFromPoint ? root : document;
    const top = hitAt.elementFromPoint((x0 + x1) / 2, (y0 + y1) / 2);
    if (!top || around(el, top) || around(top, el)) return false;
    // the layer: the hit element or one of its ancestors that is not around el, painted (a transparent hit
    // area over a chart's dot is how the dot is reached, not a cover)
    for (let n = top; n && !around(n, el); n = up(n)) {
      const t = n.getBoundingClientRect();
      const holds = t.left <= r.left + 1 && t.top <= r.top + 1 && t.right >= r.right - 1 && t.bottom >= r.bottom - 1;
      if (!holds || t.width * t.height < 4 * Math.max(r.width * r.height, 1)) continue;
      const cs = getComputedStyle(n);
      const bg = cs.backgroundColor.match(/[\d.]+/g);
      const painted = (bg && bg.length === 4 ? parseFloat(bg[3]) > 0.05 : !!bg && cs.backgroundColor !== 'transparent')
        || (cs.backgroundImage && cs.backgroundImage !== 'none') || (cs.backdropFilter && cs.backdropFilter !== 'none');
      if (painted && parseFloat(cs.opacity) > 0.05) return true;
    }
    return false;
  };
  const textOf = (e) => norm(e.innerText || e.textContent);
  return els.map((el) => {
    let cur = el, text = textOf(el), near = text.length <= 300 ? text : '';
    for (let k = 0; k < 12; k++) {
      const p = cur.parentElement;
      if (!p || p === document.body || p === document.documentElement) break;
      if (els.some((o) => o !== el && p.contains(o))) break;
      const pt = textOf(p);
      if (pt.length > 600) break;
      cur = p; text = pt;
      if (pt.length <= 300) near = pt;
    }
    let u = null;
    try { u = under(el); } catch (e) {}
    // the nearest surroundings first: a long container (a form whose menus list 60 options) cut at 400
    // characters would lose the element's own group label
    return [(near && near !== text ? near + ' | ' : '') + text.slice(0, 400), u, cur === el];
  });
}"""
)

#: several elements at once (argument: the elements): for each, null when Playwright would call it
#: hidden (no box, visibility not visible), else its description with ``clickable``.
DESCRIBE_MANY_JS = (
    "(els) => {"
    + _LIB
    + _GROUND_LIB
    + r"""
  return els.map((e) => {
    if (!e || !e.isConnected) return null;
    const r = e.getBoundingClientRect();
    if (r.width <= 0 || r.height <= 0 || getComputedStyle(e).visibility !== 'visible') return null;
    return groundDescribe(e);
  });
}"""
)

#: CONTEXT_JS over some of an array's elements (argument: {arr: the array, idx: [indices]})
CONTEXT_AT_JS = "(a) => (" + CONTEXT_JS + ")(a.idx.map((i) => a.arr[i]))"
