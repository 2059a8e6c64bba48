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
  if (e.labels) for (const l of e.labels) parts.push(norm(l.innerText));
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

#: interactive/text candidates on the page; returns [elements, descriptions]
CANDIDATES_JS = (
    "() => {"
    + _LIB
    + r"""
  const els = [], out = [];
  const seen = new Set();
  const all = document.querySelectorAll('body *');
  for (const e of all) {
    if (els.length >= 3000) break;
    const tag = e.tagName.toLowerCase();
    if (['script','style','noscript','template','head','meta','link','br','svg','path'].includes(tag)) continue;
    const isClick = clickable(e);
    let ownText = '';
    for (const n of e.childNodes) if (n.nodeType === 3) ownText += n.textContent;
    ownText = norm(ownText);
    if (!isClick && !ownText && !(tag === 'img' && e.getAttribute('alt'))) continue;
    if (!isClick) {  // text inside a clickable element: the element itself is the candidate
      let p = e.parentElement, k = 0, inside = false;
      while (p && k < 6 && p !== document.body) { if (clickable(p)) { inside = true; break; } p = p.parentElement; k++; }
      if (inside) continue;
    }
    if (!visible(e)) continue;
    if (seen.has(e)) continue;
    seen.add(e);
    const d = describe(e);
    d.clickable = isClick;
    d.own_text = ownText.slice(0, 200);
    els.push(e); out.push(d);
  }
  return [els, out];
}"""
)

#: a snapshot of what a person can see and what the checks read
STATE_JS = (
    "() => {"
    + _LIB
    + r"""
  const texts = [];
  const blockish = new Set(['p','li','td','th','h1','h2','h3','h4','h5','h6','button','a','label','span','div','dt','dd',
                            'strong','em','b','small','figcaption','caption','summary','legend','option','output','code','pre']);
  for (const e of document.querySelectorAll('body *')) {
    if (!blockish.has(e.tagName.toLowerCase())) continue;
    let own = '';
    for (const n of e.childNodes) if (n.nodeType === 3) own += n.textContent;
    own = norm(own);
    if (!own) continue;
    const t = norm(e.innerText);
    if (!t || t.length > 160) continue;
    if (!visible(e)) continue;
    texts.push(t);
  }
  const fields = [];
  for (const e of document.querySelectorAll('input, textarea, select')) {
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
  for (const e of document.querySelectorAll('body *')) {
    const r = roleOf(e);
    if (!r || !['listitem','row','option','tab','checkbox','article','img','dialog','cell'].includes(r)) continue;
    if (!visible(e)) continue;
    counts[r] = (counts[r] || 0) + 1;
  }
  const states = [];
  for (const e of document.querySelectorAll('[aria-expanded], [aria-selected], [aria-pressed], [aria-checked], input[type=checkbox], input[type=radio], details')) {
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
