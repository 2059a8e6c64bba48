(cfg) => {
  const MAPPED = /^z[0-9a-z]{6}z$/;
  const words = (n) => n.split(/[-_]+/).filter((w) => w && !/^\d+$/.test(w));
  const kept = (n) => words(n).some((w) => !MAPPED.test(w));
  const out = {buttons: 0, list_items: 0, aria: 0, roles: 0, ids: 0, classes: 0, examples: []};
  for (const e of document.querySelectorAll('*')) {
    const t = e.localName;
    if (cfg.divs && t === 'button') { out.buttons++; if (out.examples.length < 8) out.examples.push('<button>'); }
    if (cfg.divs && t === 'li') out.list_items++;
    if (cfg.aria) for (const a of e.attributes) {
      if (a.name.startsWith('aria-')) out.aria++;
      if (a.name === 'role') out.roles++;
    }
    if (cfg.rename) {
      if (e.id && kept(e.id)) { out.ids++; if (out.examples.length < 8) out.examples.push('#' + e.id); }
      const cls = e.getAttribute('class');
      if (cls) for (const c of cls.split(/\s+/)) if (c && kept(c)) {
        out.classes++; if (out.examples.length < 8) out.examples.push('.' + c);
      }
    }
  }
  return out;
}