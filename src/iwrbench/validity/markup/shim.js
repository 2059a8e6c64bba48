(() => {
const C = __CFG__;
if (window.__mkShim) return;
Object.defineProperty(window, '__mkShim', {value: true});
const B36 = '0123456789abcdefghijklmnopqrstuvwxyz', MAPPED = /^z[0-9a-z]{6}z$/, SEP = /([-_]+)/;
const enc = new TextEncoder();
const word = (w) => {
  if (!w || /^\d+$/.test(w) || MAPPED.test(w)) return w;
  let h = 0x811c9dc5;
  for (const b of enc.encode(C.salt + w)) { h ^= b; h = Math.imul(h, 0x01000193) >>> 0; }
  let s = '';
  for (let k = 0; k < 6; k++) { s = B36[h % 36] + s; h = Math.floor(h / 36); }
  return 'z' + s + 'z';
};
const ren = (n) => String(n).split(SEP).map((p, k) => (k % 2 ? p : word(p))).join('');
const renList = (v) => String(v).replace(/[^\s]+/g, ren);
const IDS = new Set(C.ids || []);
const ID_REFS = new Set(C.idrefs || []);
const SELV = /^\s*[#.][\w-]+(\s*,\s*[#.][\w-]+)*\s*$/;
const hrefV = (v, always) => {
  v = String(v);
  const k = v.indexOf('#');
  if (k < 0) return v;
  const f = v.slice(k + 1);
  if (f && (always || IDS.has(f)) && /^[\w\-.:]+$/.test(f)) return v.slice(0, k + 1) + ren(f);
  return v;
};
const urlRefs = (v) => String(v).replace(/url\(\s*(['"]?)#([\w\-.:]+)\1\s*\)/g, (m, q, id) => 'url(' + q + '#' + ren(id) + q + ')');
const EP = Element.prototype;
const oSet = EP.setAttribute, oSetNS = EP.setAttributeNS, oRem = EP.removeAttribute, oTog = EP.toggleAttribute;
const isB = (el) => !!(el && el.nodeType === 1 && el.hasAttribute('data-b'));
// [name, value] as the mutant writes them
const attr = (el, name, value, tag) => {
  let n = String(name);
  const ln = n.toLowerCase();
  let v = value;
  tag = tag || (el && el.localName) || '';
  if (C.rename && v !== null && v !== undefined) {
    const s = String(v);
    if (/<%|\{\{|\$\{/.test(s)) {}
    else if (ln === 'class') v = renList(s);
    else if (ln === 'id') { if (s.trim()) { IDS.add(s.trim()); v = ren(s.trim()); } }
    else if (ID_REFS.has(ln)) v = renList(s);
    else if (ln === 'href' || ln === 'xlink:href') v = hrefV(s, tag === 'use');
    else if (ln === 'style' || ln === 'fill' || ln === 'stroke' || ln === 'clip-path' || ln === 'mask' || ln === 'filter') v = urlRefs(s);
    else if (/(^|-)(target|parent)$/.test(ln) && SELV.test(s)) v = s.replace(/([#.])([\w-]+)/g, (m, c, id) => c + ren(id));
  }
  if (C.aria && (ln === 'role' || ln.startsWith('aria-'))) n = ln === 'role' ? 'data-rl' : 'data-st-' + ln.slice(5);
  if (C.divs && (el ? isB(el) : tag === 'button') && (ln === 'type' || ln === 'value' || ln === 'name' || ln === 'form'))
    n = {type: 'data-t', value: 'data-v', name: 'data-n', form: 'data-f'}[ln];
  return [n, v];
};
const attrName = (el, name) => attr(el, name, null)[0];
EP.setAttribute = function (n, v) { const [a, b] = attr(this, n, v); return oSet.call(this, a, b); };
EP.setAttributeNS = function (ns, n, v) { const [a, b] = attr(this, n, v); return oSetNS.call(this, ns, a, b); };
EP.removeAttribute = function (n) { return oRem.call(this, attrName(this, n)); };
EP.toggleAttribute = function (n, f) { return f === undefined ? oTog.call(this, attrName(this, n)) : oTog.call(this, attrName(this, n), f); };
const setter = (proto, prop, map) => {
  const d = Object.getOwnPropertyDescriptor(proto, prop);
  if (!d || !d.set) return;
  Object.defineProperty(proto, prop, {configurable: true, enumerable: d.enumerable, get: d.get,
    set(v) { return d.set.call(this, map(v, this)); }});
};
// HTML strings the page writes
const TAG = /<(\/?)([a-zA-Z][^\s\/>]*)((?:[^>"']|"[^"]*"|'[^']*')*)>/g;
const ATTR = /([^\s"'>\/=]+)(?:\s*=\s*("[^"]*"|'[^']*'|[^\s>]+))?/g;
const rwHTML = (s) => {
  if (typeof s !== 'string' || s.indexOf('<') < 0) return s;
  return s.replace(TAG, (all, close, tag, rest) => {
    const low = tag.toLowerCase();
    if (close) return (C.divs && (low === 'button' || low === 'li')) ? '</div>' : all;
    const sc = /\/\s*$/.test(rest);
    const body = sc ? rest.replace(/\/\s*$/, '') : rest;
    const out = [];
    let m, changed = false;
    ATTR.lastIndex = 0;
    while ((m = ATTR.exec(body))) {
      let v = m[2], q = '';
      if (v !== undefined && (v[0] === '"' || v[0] === "'")) { q = v[0]; v = v.slice(1, -1); }
      const [n2, v2] = attr(null, m[1], v === undefined ? null : v, low);
      if (n2 !== m[1] || v2 !== (v === undefined ? null : v)) changed = true;
      out.push(v2 === null || v2 === undefined ? n2 : n2 + '=' + (q || '"') + v2 + (q || '"'));
    }
    let t = tag;
    if (C.divs && low === 'button') {
      t = 'div'; changed = true; out.unshift('data-b');
      if (!out.some((a) => /^tabindex\b/i.test(a))) out.push('tabindex="0"');
    } else if (C.divs && low === 'li') { t = 'div'; changed = true; out.unshift('data-i'); }
    if (!changed) return all;
    return '<' + [t].concat(out).join(' ') + (sc ? '/' : '') + '>';
  });
};
if (C.rename || C.divs || C.aria) {
  setter(EP, 'innerHTML', (v, el) => (el instanceof HTMLScriptElement) ? v : (el instanceof HTMLStyleElement) ? rwCSS(String(v)) : rwHTML(v));
  setter(EP, 'outerHTML', rwHTML);
  if (window.ShadowRoot) setter(ShadowRoot.prototype, 'innerHTML', rwHTML);
  const oIAH = EP.insertAdjacentHTML;
  EP.insertAdjacentHTML = function (p, h) { return oIAH.call(this, p, rwHTML(h)); };
  const oCCF = Range.prototype.createContextualFragment;
  Range.prototype.createContextualFragment = function (h) { return oCCF.call(this, rwHTML(h)); };
  const oPFS = DOMParser.prototype.parseFromString;
  DOMParser.prototype.parseFromString = function (h, t) { return oPFS.call(this, /html/.test(String(t)) ? rwHTML(h) : h, t); };
  const oW = Document.prototype.write, oWl = Document.prototype.writeln;
  Document.prototype.write = function (...a) { return oW.apply(this, a.map(rwHTML)); };
  Document.prototype.writeln = function (...a) { return oWl.apply(this, a.map(rwHTML)); };
}
// the page's own renaming for names it computes before reading the DOM (wrapped calls)
const IDENT = /^(?:--|-?[A-Za-z_\u00a0-\uffff])[\w\u00a0-\uffff-]*/;
const SELARG = new Set(['not', 'is', 'where', 'has', 'matches', '-webkit-any', 'any', 'nth-child', 'nth-last-child', 'host', 'host-context']);
const closeOf = (s, i, o, c) => {
  let d = 0;
  for (let j = i; j < s.length; j++) {
    const ch = s[j];
    if (ch === '"' || ch === "'") { let k = j + 1; while (k < s.length && s[k] !== ch) k += s[k] === '\\' ? 2 : 1; j = k; continue; }
    if (ch === '\\') { j++; continue; }
    if (ch === o) d++;
    else if (ch === c && --d === 0) return j;
  }
  return s.length;
};
const TYPES = {button: ':is(div,span):where([data-b])', li: 'div:where([data-i])', div: 'div:not(:where([data-b],[data-i]))',
               span: 'span:not(:where([data-b]))'};
const attrSel = (body, tag) => {
  const m = /^\s*([^\s~|^$*!=\]]+)\s*(?:([~|^$*]?=)\s*([\s\S]*?))?\s*$/.exec(body);
  if (!m) return '[' + body + ']';
  let [, name, op, rest] = m;
  const low = name.toLowerCase();
  let v = null, q = '', fl = '';
  if (op) {
    const f = /^(["'])([\s\S]*)\1(\s+[iIsS])?$/.exec(rest || '');
    if (f) { q = f[1]; v = f[2]; fl = f[3] || ''; }
    else { const u = /^(\S+?)(\s+[iIsS])?$/.exec(rest || ''); v = u ? u[1] : rest; fl = u ? (u[2] || '') : ''; }
  }
  if (C.aria && (low === 'role' || low.startsWith('aria-'))) name = low === 'role' ? 'data-rl' : 'data-st-' + low.slice(5);
  if (C.divs && tag === 'button' && (low === 'type' || low === 'value' || low === 'name')) name = {type: 'data-t', value: 'data-v', name: 'data-n'}[low];
  if (v !== null && C.rename) {
    if (low === 'class' || low === 'id' || ID_REFS.has(low)) v = (op === '=' || op === '~=') ? renList(v) : String(v).replace(/[^\s\-_]+/g, word);
    else if (low === 'href' || low === 'xlink:href') v = hrefV(v, false);
    else if (/(^|-)(target|parent)$/.test(low) && SELV.test(v)) v = v.replace(/([#.])([\w-]+)/g, (mm, c, id) => c + ren(id));
  }
  return op ? '[' + name + op + q + v + q + fl + ']' : '[' + name + ']';
};
const GEN = [TYPES.button, TYPES.li, TYPES.div, TYPES.span, ':is(:disabled,:is(div,span):where([data-b][disabled]))',
             ':is(:enabled,:is(div,span):where([data-b]:not([disabled])))'].sort((a, b) => b.length - a.length);
const mapSel = (sel) => {
  if (typeof sel !== 'string' || /^\s*</.test(sel)) return sel;
  let out = '', i = 0, expect = true, tag = '';
  const n = sel.length;
  while (i < n) {
    const c = sel[i];
    if (c === ':' || c === 'd' || c === 's') {
      const g = GEN.find((x) => sel.startsWith(x, i));
      if (g) { out += g; i += g.length; expect = false; continue; }
    }
    if (c === '"' || c === "'") { let j = i + 1; while (j < n && sel[j] !== c) j += sel[j] === '\\' ? 2 : 1; out += sel.slice(i, j + 1); i = j + 1; expect = false; continue; }
    if (c === '\\') { out += sel.slice(i, i + 2); i += 2; continue; }
    if (c === '[') {
      const j = closeOf(sel, i, '[', ']');
      if (j >= n) { out += sel.slice(i); break; }
      out += attrSel(sel.slice(i + 1, j), tag); i = j + 1; expect = false; continue;
    }
    if (c === '.' || c === '#') {
      const m = IDENT.exec(sel.slice(i + 1));
      if (m) { out += c + (C.rename ? ren(m[0]) : m[0]); i += 1 + m[0].length; expect = false; continue; }
      out += c; i++; continue;
    }
    if (c === ':') {
      let j = i + 1;
      if (sel[j] === ':') j++;
      const m = IDENT.exec(sel.slice(j));
      if (!m) { out += sel.slice(i, j); i = j; continue; }
      const pn = m[0].toLowerCase(), k = j + m[0].length;
      if (sel[k] === '(') {
        const e = closeOf(sel, k, '(', ')');
        if (e >= n) { out += sel.slice(i); break; }
        let inner = sel.slice(k + 1, e);
        if (SELARG.has(pn) && j === i + 1) inner = mapSel(inner);
        out += sel.slice(i, k) + '(' + inner + ')'; i = e + 1;
      } else {
        let t = sel.slice(i, k);
        if (C.divs && j === i + 1 && pn === 'disabled') t = ':is(:disabled,:is(div,span):where([data-b][disabled]))';
        if (C.divs && j === i + 1 && pn === 'enabled') t = ':is(:enabled,:is(div,span):where([data-b]:not([disabled])))';
        out += t; i = k;
      }
      expect = false; continue;
    }
    if (' \t\n\r\f>+~,('.includes(c)) { out += c; i++; expect = true; if (!/\s/.test(c)) tag = ''; continue; }
    if (c === '*' || c === '&' || c === '|') { out += c; i++; expect = false; continue; }
    const m = IDENT.exec(sel.slice(i));
    if (m) {
      if (expect) { tag = m[0].toLowerCase(); out += (C.divs && TYPES[tag]) ? TYPES[tag] : m[0]; expect = false; }
      else out += m[0];
      i += m[0].length; continue;
    }
    out += c; i++;
  }
  return out;
};
// stylesheets the page writes from script (editors and widgets inject their CSS as text)
const AT_RULES = new Set(['media', 'supports', 'layer', 'container', 'document', '-moz-document', 'scope', 'starting-style']);
const rwCSS = (text) => {
  if (typeof text !== 'string' || !(C.rename || C.divs || C.aria)) return text;
  let out = '', i = 0, start = 0;
  const n = text.length, stack = [];
  const block = () => (stack.length ? stack[stack.length - 1] : 'rules');
  while (i < n) {
    const c = text[i];
    if (c === '/' && text[i + 1] === '*') { const j = text.indexOf('*/', i + 2); i = j < 0 ? n : j + 2; continue; }
    if (c === '"' || c === "'") { let j = i + 1; while (j < n && text[j] !== c && text[j] !== '\n') j += text[j] === '\\' ? 2 : 1; i = j + 1; continue; }
    if (c === '\\') { i += 2; continue; }
    if (c === '{') {
      let pre = text.slice(start, i);
      const kind = block(), t = pre.trimStart();
      if ((kind === 'rules' || kind === 'decls') && t && t[0] !== '@') {
        if (kind === 'decls') { const cut = pre.lastIndexOf(';') + 1; out += C.rename ? urlRefs(pre.slice(0, cut)) : pre.slice(0, cut); pre = pre.slice(cut); }
        out += mapSel(pre) + '{'; stack.push('decls');
      } else if (t[0] === '@') {
        const m = /^@([\w-]+)/.exec(t);
        out += pre + '{'; stack.push(m && AT_RULES.has(m[1].toLowerCase()) ? 'rules' : 'other');
      } else { out += pre + '{'; stack.push('other'); }
      i++; start = i; continue;
    }
    if (c === '}') {
      const seg = text.slice(start, i);
      out += (block() === 'decls' && C.rename) ? urlRefs(seg) : seg;
      out += '}'; stack.pop(); i++; start = i; continue;
    }
    if (c === ';' && block() === 'rules') { out += text.slice(start, i + 1); i++; start = i; continue; }
    i++;
  }
  return out + text.slice(start);
};
if (C.rename || C.divs || C.aria) {
  const isStyle = (el) => !!el && el.localName === 'style';
  const NP = Node.prototype;
  setter(NP, 'textContent', (v, el) => (isStyle(el) && v !== null && v !== undefined) ? rwCSS(String(v)) : v);
  const fixText = (parent, node) => {
    if (isStyle(parent) && node && node.nodeType === 3) node.data = rwCSS(node.data);
  };
  const oApp = NP.appendChild, oIns = NP.insertBefore;
  NP.appendChild = function (c) { fixText(this, c); return oApp.call(this, c); };
  NP.insertBefore = function (c, r) { fixText(this, c); return oIns.call(this, c, r); };
  for (const k of ['append', 'prepend']) {
    const o = EP[k];
    EP[k] = function (...a) {
      if (isStyle(this)) a = a.map((x) => (typeof x === 'string' ? rwCSS(x) : (fixText(this, x), x)));
      return o.apply(this, a);
    };
  }
  const SP = CSSStyleSheet.prototype;
  const oIR = SP.insertRule;
  SP.insertRule = function (r, i) { return i === undefined ? oIR.call(this, rwCSS(r)) : oIR.call(this, rwCSS(r), i); };
  if (SP.replaceSync) { const o = SP.replaceSync; SP.replaceSync = function (t) { return o.call(this, rwCSS(t)); }; }
  if (SP.replace) { const o = SP.replace; SP.replace = function (t) { return o.call(this, rwCSS(t)); }; }
}
const def = (k, f) => Object.defineProperty(window, k, {value: f, configurable: false, enumerable: false, writable: false});
def('__mkI', (x) => (typeof x === 'string' && C.rename) ? ren(x) : x);
def('__mkC', (x) => (typeof x === 'string' && C.rename) ? renList(x) : x);
def('__mkS', (x) => { try { return mapSel(x); } catch (e) { return x; } });
def('__mkJ', (x) => { try { return (typeof window.jQuery === 'function') ? mapSel(x) : x; } catch (e) { return x; } });
if (C.rename) {
  setter(EP, 'className', (v) => renList(v));
  setter(EP, 'id', (v) => { const s = String(v).trim(); if (s) IDS.add(s); return s ? ren(s) : v; });
  if (window.HTMLLabelElement) setter(HTMLLabelElement.prototype, 'htmlFor', (v) => ren(String(v)));
  // classList writes (only on class lists: the getter remembers which token lists those are)
  const CL = new WeakSet();
  const dcl = Object.getOwnPropertyDescriptor(EP, 'classList');
  Object.defineProperty(EP, 'classList', {configurable: true, enumerable: dcl.enumerable,
    get() { const l = dcl.get.call(this); CL.add(l); return l; }, set: dcl.set});
  const TP = DOMTokenList.prototype;
  const oAdd = TP.add, oRm = TP.remove, oTg = TP.toggle, oRp = TP.replace, oCt = TP.contains;
  TP.add = function (...a) { return oAdd.apply(this, CL.has(this) ? a.map(ren) : a); };
  TP.remove = function (...a) { return oRm.apply(this, CL.has(this) ? a.map(ren) : a); };
  TP.toggle = function (t, f) { if (CL.has(this)) t = ren(t); return f === undefined ? oTg.call(this, t) : oTg.call(this, t, f); };
  TP.replace = function (a, b) { return CL.has(this) ? oRp.call(this, ren(a), ren(b)) : oRp.call(this, a, b); };
  void oCt;
}
if (C.aria) {
  // reflected ARIA properties (el.ariaPressed = ..., el.role = ...) write the neutral attribute
  for (const p of Object.getOwnPropertyNames(EP)) {
    if (!/^aria[A-Z]/.test(p) && p !== 'role') continue;
    const d = Object.getOwnPropertyDescriptor(EP, p);
    if (!d || !d.set || !d.get) continue;
    const a = p === 'role' ? 'data-rl' : 'data-st-' + p.slice(4).replace(/[A-Z]/g, (c) => c.toLowerCase());
    Object.defineProperty(EP, p, {configurable: true, enumerable: d.enumerable, get: d.get,
      set(v) { if (v === null || v === undefined) oRem.call(this, a); else oSet.call(this, a, String(v)); }});
  }
  // whatever still lands (parser, libraries writing attributes another way) is moved at once
  const fix = (el) => {
    if (!el.attributes) return;
    for (const a of Array.from(el.attributes)) {
      const n = a.name;
      if (n === 'role' || n.startsWith('aria-')) {
        oSet.call(el, n === 'role' ? 'data-rl' : 'data-st-' + n.slice(5), a.value);
        oRem.call(el, n);
      }
    }
  };
  new MutationObserver((recs) => {
    for (const r of recs) {
      if (r.type === 'attributes') { fix(r.target); continue; }
      for (const n of r.addedNodes) {
        if (n.nodeType !== 1) continue;
        fix(n);
        for (const e of n.querySelectorAll('[role], *')) fix(e);
      }
    }
  }).observe(document, {subtree: true, childList: true, attributes: true});
}
if (C.divs) {
  const oCE = Document.prototype.createElement;
  Document.prototype.createElement = function (t, o) {
    const low = String(t).toLowerCase();
    if (low === 'button' || low === 'li') {
      const d = oCE.call(this, 'div', o);
      if (low === 'button') { oSet.call(d, 'data-b', ''); oSet.call(d, 'tabindex', '0'); }
      else oSet.call(d, 'data-i', '');
      return d;
    }
    return oCE.call(this, t, o);
  };
  // what the button element gave: disabled, value, name as properties
  const store = new WeakMap();
  const prop = (name, attrName, bool) => {
    for (const proto of [HTMLDivElement.prototype, HTMLSpanElement.prototype]) {
      if (Object.getOwnPropertyDescriptor(proto, name)) continue;
      Object.defineProperty(proto, name, {configurable: true, enumerable: true,
        get() {
          if (!isB(this)) { const s = store.get(this); return s ? s[name] : undefined; }
          return bool ? this.hasAttribute(attrName) : (this.getAttribute(attrName) || '');
        },
        set(v) {
          if (!isB(this)) { const s = store.get(this) || {}; s[name] = v; store.set(this, s); return; }
          if (bool) { if (v) oSet.call(this, attrName, ''); else oRem.call(this, attrName); }
          else oSet.call(this, attrName, String(v));
        }});
    }
  };
  prop('disabled', 'disabled', true);
  prop('value', 'data-v', false);
  prop('name', 'data-n', false);
  const bOf = (t) => (t && t.nodeType === 1 && t.closest) ? t.closest('[data-b]') : null;
  const typeOf = (b) => String((typeof b.type === 'string' && b.type) || b.getAttribute('data-t') || 'submit').toLowerCase();
  const formOf = (b) => { const f = b.getAttribute('data-f'); return (f && document.getElementById(f)) || b.closest('form'); };
  for (const ev of ['click', 'mousedown', 'mouseup', 'dblclick', 'auxclick']) {
    addEventListener(ev, (e) => {
      const b = bOf(e.target);
      if (b && b.hasAttribute('disabled')) { e.stopImmediatePropagation(); e.preventDefault(); }
    }, true);
  }
  addEventListener('click', (e) => {
    const b = bOf(e.target);
    if (!b || b.hasAttribute('disabled')) return;
    const form = formOf(b);
    if (!form) return;
    const type = typeOf(b);
    setTimeout(() => {
      if (e.defaultPrevented || !form.isConnected) return;
      if (type === 'submit') { if (form.requestSubmit) form.requestSubmit(); else form.submit(); }
      else if (type === 'reset') form.reset();
    }, 0);
  });
  const NO_IMPLICIT = /^(button|submit|reset|image|file|hidden|checkbox|radio|range|color)$/;
  addEventListener('keydown', (e) => {
    const t = e.target;
    if (isB(t)) {
      if (t.hasAttribute('disabled')) return;
      if (e.key === 'Enter' && !e.defaultPrevented) t.click();
      else if (e.key === ' ') e.preventDefault();
      return;
    }
    // Enter in a field: the form's default button is clicked (implicit submission)
    if (e.key !== 'Enter' || e.defaultPrevented || !t || t.localName !== 'input' || NO_IMPLICIT.test(t.type || '')) return;
    const form = t.form;
    if (!form) return;
    let def = null;
    for (const x of form.querySelectorAll('[data-b], button, input[type=submit], input[type=image]')) {
      if (isB(x)) { if (typeOf(x) === 'submit') { def = x; break; } }
      else if ((x.type || '').toLowerCase() === 'submit' || x.type === 'image') { def = null; break; }
    }
    if (!def) return;
    e.preventDefault();
    if (!def.hasAttribute('disabled')) def.click();
  });
  addEventListener('keyup', (e) => {
    const t = e.target;
    if (isB(t) && !t.hasAttribute('disabled') && e.key === ' ' && !e.defaultPrevented) t.click();
  });
}
})();