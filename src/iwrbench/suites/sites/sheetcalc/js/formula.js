/* Tallysheet's formula language: numbers, "text", cell references (A1, $B$2), ranges (A1:C3), + - * / ^ &,
   comparisons and the functions a small business sheet needs. A formula is parsed once into a tree and
   evaluated against a lookup of cell values; errors are values that flow through (#DIV/0!, #REF!, #NAME?,
   #VALUE!, #CIRC!), as in every spreadsheet. */
window.Formula = (function () {
  "use strict";
  function Err(code) { this.err = code; }
  Err.prototype.toString = function () { return this.err; };
  var E = { div: new Err("#DIV/0!"), ref: new Err("#REF!"), name: new Err("#NAME?"), value: new Err("#VALUE!"), circ: new Err("#CIRC!"), parse: new Err("#ERROR!") };

  function colIndex(letters) { var n = 0; for (var i = 0; i < letters.length; i++) n = n * 26 + letters.charCodeAt(i) - 64; return n - 1; }
  function colName(i) { var s = ""; i++; while (i > 0) { var m = (i - 1) % 26; s = String.fromCharCode(65 + m) + s; i = Math.floor((i - 1) / 26); } return s; }

  /* ---------- tokens ---------- */
  var TOKEN = /\s*(?:(\d+(?:\.\d+)?%?|\.\d+%?)|("(?:[^"]|"")*")|(\$?[A-Za-z]{1,2}\$?\d+)|([A-Za-z][A-Za-z0-9.]*)(?=\s*\()|(<>|<=|>=|[-+*/^&(),:=<>]))/y;
  function tokenize(src) {
    var out = [], m, pos = 0;
    TOKEN.lastIndex = 0;
    while (pos < src.length) {
      if (/^\s*$/.test(src.slice(pos))) break;
      TOKEN.lastIndex = pos;
      m = TOKEN.exec(src);
      if (!m) return null;
      pos = TOKEN.lastIndex;
      if (m[1]) out.push({ t: "num", v: m[1].slice(-1) === "%" ? parseFloat(m[1]) / 100 : parseFloat(m[1]) });
      else if (m[2]) out.push({ t: "str", v: m[2].slice(1, -1).replace(/""/g, '"') });
      else if (m[3]) out.push({ t: "ref", v: m[3].toUpperCase() });
      else if (m[4]) out.push({ t: "fn", v: m[4].toUpperCase() });
      else out.push({ t: "op", v: m[5] });
    }
    return out;
  }

  /* ---------- parser (precedence climbing) ---------- */
  function parse(src) {
    var toks = tokenize(src), i = 0;
    if (!toks) return null;
    function peek(v) { return toks[i] && toks[i].t === "op" && toks[i].v === v; }
    function take(v) { if (peek(v)) { i++; return true; } return false; }
    function cmp() {
      var a = cat();
      while (toks[i] && toks[i].t === "op" && /^(=|<>|<=|>=|<|>)$/.test(toks[i].v)) { var op = toks[i++].v; a = { k: "bin", op: op, a: a, b: cat() }; }
      return a;
    }
    function cat() { var a = add(); while (take("&")) a = { k: "bin", op: "&", a: a, b: add() }; return a; }
    function add() {
      var a = mul();
      while (peek("+") || peek("-")) { var op = toks[i++].v; a = { k: "bin", op: op, a: a, b: mul() }; }
      return a;
    }
    function mul() {
      var a = pow();
      while (peek("*") || peek("/")) { var op = toks[i++].v; a = { k: "bin", op: op, a: a, b: pow() }; }
      return a;
    }
    function pow() { var a = unary(); while (take("^")) a = { k: "bin", op: "^", a: a, b: unary() }; return a; }
    function unary() {
      if (take("-")) return { k: "neg", a: unary() };
      if (take("+")) return unary();
      return primary();
    }
    function primary() {
      var tk = toks[i++];
      if (!tk) throw E.parse;
      if (tk.t === "num") return { k: "num", v: tk.v };
      if (tk.t === "str") return { k: "str", v: tk.v };
      if (tk.t === "ref") {
        if (take(":")) { var b = toks[i++]; if (!b || b.t !== "ref") throw E.parse; return { k: "range", a: tk.v, b: b.v }; }
        return { k: "ref", v: tk.v };
      }
      if (tk.t === "fn") {
        if (!take("(")) throw E.parse;
        var args = [];
        if (!take(")")) {
          do { args.push(cmp()); } while (take(","));
          if (!take(")")) throw E.parse;
        }
        return { k: "fn", name: tk.v, args: args };
      }
      if (tk.t === "op" && tk.v === "(") { var e = cmp(); if (!take(")")) throw E.parse; return e; }
      throw E.parse;
    }
    try {
      var tree = cmp();
      if (i !== toks.length) return null;
      return tree;
    } catch (e) { return null; }
  }

  function splitRef(ref) {
    var m = /^(\$?)([A-Z]{1,2})(\$?)(\d+)$/.exec(ref);
    return { c: colIndex(m[2]), r: parseInt(m[4], 10) - 1, absC: !!m[1], absR: !!m[3] };
  }

  /* ---------- evaluation ---------- */
  function isErr(v) { return v instanceof Err; }
  function num(v) {
    if (isErr(v)) return v;
    if (v === null || v === undefined || v === "") return 0;
    if (typeof v === "boolean") return v ? 1 : 0;
    if (typeof v === "number") return v;
    var n = parseFloat(String(v).replace(/[$,]/g, ""));
    return isNaN(n) ? E.value : n;
  }
  function flat(args) {
    var out = [];
    args.forEach(function (a) { if (Array.isArray(a)) a.forEach(function (x) { out.push({ v: x, fromRange: true }); }); else out.push({ v: a, fromRange: false }); });
    return out;
  }
  function numbers(args) { // numbers of ranges (text and blanks skipped) and of direct arguments
    var out = [];
    for (var k = 0, f = flat(args); k < f.length; k++) {
      var x = f[k];
      if (isErr(x.v)) return x.v;
      if (x.fromRange) { if (typeof x.v === "number") out.push(x.v); }
      else { var n = num(x.v); if (isErr(n)) return n; out.push(n); }
    }
    return out;
  }
  var FN = {
    SUM: function (a) { var n = numbers(a); return isErr(n) ? n : n.reduce(function (s, x) { return s + x; }, 0); },
    AVERAGE: function (a) { var n = numbers(a); if (isErr(n)) return n; return n.length ? n.reduce(function (s, x) { return s + x; }, 0) / n.length : E.div; },
    MIN: function (a) { var n = numbers(a); return isErr(n) ? n : (n.length ? Math.min.apply(null, n) : 0); },
    MAX: function (a) { var n = numbers(a); return isErr(n) ? n : (n.length ? Math.max.apply(null, n) : 0); },
    COUNT: function (a) { var c = 0; flat(a).forEach(function (x) { if (typeof x.v === "number") c++; }); return c; },
    ROUND: function (a) { var x = num(a[0]), d = a.length > 1 ? num(a[1]) : 0; if (isErr(x)) return x; if (isErr(d)) return d; var p = Math.pow(10, d); return Math.round(x * p + (x >= 0 ? 1e-9 : -1e-9)) / p; },
    ABS: function (a) { var x = num(a[0]); return isErr(x) ? x : Math.abs(x); },
    IF: function (a) { var c = a[0]; if (isErr(c)) return c; var t = typeof c === "string" ? c !== "" : !!num(c); return t ? (a.length > 1 ? a[1] : true) : (a.length > 2 ? a[2] : false); }
  };
  function evaluate(tree, get) {
    function ev(n) {
      switch (n.k) {
        case "num": case "str": return n.v;
        case "ref": var p = splitRef(n.v); return get(p.r, p.c);
        case "range":
          var a = splitRef(n.a), b = splitRef(n.b), out = [];
          for (var r = Math.min(a.r, b.r); r <= Math.max(a.r, b.r); r++)
            for (var c = Math.min(a.c, b.c); c <= Math.max(a.c, b.c); c++) { var v = get(r, c); if (isErr(v)) return v; out.push(v); }
          return out;
        case "neg": var x = num(ev(n.a)); return isErr(x) ? x : -x;
        case "fn":
          if (!FN[n.name]) return E.name;
          var args = n.args.map(ev);
          if (n.name !== "IF") for (var k = 0; k < args.length; k++) if (isErr(args[k])) return args[k];
          return FN[n.name](args);
        case "bin":
          var l = ev(n.a), rr = ev(n.b);
          if (Array.isArray(l) || Array.isArray(rr)) return E.value;
          if (isErr(l)) return l; if (isErr(rr)) return rr;
          if (n.op === "&") return text(l) + text(rr);
          if (/^(=|<>|<=|>=|<|>)$/.test(n.op)) {
            var L = typeof l === "string" ? l.toLowerCase() : num(l), R = typeof rr === "string" ? rr.toLowerCase() : num(rr);
            return { "=": L === R, "<>": L !== R, "<": L < R, ">": L > R, "<=": L <= R, ">=": L >= R }[n.op];
          }
          var u = num(l), w = num(rr);
          if (isErr(u)) return u; if (isErr(w)) return w;
          if (n.op === "+") return u + w;
          if (n.op === "-") return u - w;
          if (n.op === "*") return u * w;
          if (n.op === "/") return w === 0 ? E.div : u / w;
          if (n.op === "^") return Math.pow(u, w);
      }
      return E.parse;
    }
    var v = ev(tree);
    return Array.isArray(v) ? E.value : v;
  }
  function text(v) { return typeof v === "boolean" ? (v ? "TRUE" : "FALSE") : v === null || v === undefined ? "" : String(v); }

  /* move the relative references of a formula by dr rows and dc columns (copying, sorting rows) */
  function shift(src, dr, dc) {
    return src.replace(/("(?:[^"]|"")*")|(\$?)([A-Za-z]{1,2})(\$?)(\d+)(?![A-Za-z0-9(])/g, function (all, str, ac, col, ar, row) {
      if (str) return str;
      var c = colIndex(col.toUpperCase()), r = parseInt(row, 10) - 1;
      if (!ac) c += dc; if (!ar) r += dr;
      if (c < 0 || r < 0) return "#REF!";
      return ac + colName(c) + ar + (r + 1);
    });
  }
  return { parse: parse, evaluate: evaluate, Err: Err, E: E, isErr: isErr, colName: colName, colIndex: colIndex, shift: shift, text: text };
})();
