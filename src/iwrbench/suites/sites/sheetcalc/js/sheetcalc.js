/* Tallysheet: a keyboard-driven grid over formula.js. Every cell holds what was typed (a number, a text or a
   "=formula"); after each change the whole sheet is recomputed (it is small), with cycles reported as #CIRC!.
   The formula bar edits the selected cell; Enter and Tab commit and move, Shift+arrows select a range whose
   sum, average and count show in the status bar, Ctrl+D fills down (shifting relative references). */
(function () {
  "use strict";
  var F = window.Formula;
  var ROWS = 18, COLS = 8;
  var $ = function (id) { return document.getElementById(id); };
  var raw = {}, fmt = {}, bold = {}, notes = {}, values = {};
  var sel = { r: 0, c: 0 }, anchor = { r: 0, c: 0 }, editing = false, undo = [];
  var HL = ["#1a73e8", "#d93025", "#7b3fc4", "#188038", "#e37400"];

  /* ---------- the quote ---------- */
  var ITEMS = [
    ["Three-tier lemon & elderflower cake", 1, 96, 240],
    ["Sourdough rolls (dozen)", 10, 3.1, 7.5],
    ["Lemon drizzle loaf", 24, 2.35, 5.8],
    ["Sausage rolls (tray of 20)", 6, 14.2, 22],
    ["Cheese scones", 120, 0.42, 1.1],
    ["Chocolate brownies", 80, 0.55, 1.6],
    ["Evening grazing board", 4, 38, 85],
    ["Delivery & setup", 1, 30, 60]
  ];
  function put(ref, v, f, b) { raw[ref] = String(v); if (f) fmt[ref] = f; if (b) bold[ref] = true; }
  ["Item", "Qty", "Unit cost", "Unit price", "Line total", "Margin"].forEach(function (h, c) { put(F.colName(c) + "1", h, null, true); });
  ITEMS.forEach(function (it, i) {
    var r = i + 2;
    put("A" + r, it[0]); put("B" + r, it[1]); put("C" + r, it[2], { t: "gbp", d: 2 }); put("D" + r, it[3], { t: "gbp", d: 2 });
    fmt["E" + r] = { t: "gbp", d: 2 }; fmt["F" + r] = { t: "pct", d: 1 };
    if (r < 9) { put("E" + r, "=B" + r + "*D" + r); put("F" + r, "=(D" + r + "-C" + r + ")/D" + r); }
  });
  put("A11", "Subtotal", null, true); put("E11", "=SUM(E2:E9)", { t: "gbp", d: 2 }, true);
  put("A12", "Discount"); put("B12", "5%", { t: "pct", d: 0 }); put("E12", "=-ROUND(E11*B12,2)", { t: "gbp", d: 2 });
  put("A13", "VAT (20%)"); put("E13", "=ROUND((E11+E12)*20%,2)", { t: "gbp", d: 2 });
  put("A14", "Total", null, true); put("E14", "=E11+E12+E13", { t: "gbp", d: 2 }, true);
  put("A15", "Deposit (25%)"); put("E15", "=ROUND(E14*25%,2)", { t: "gbp", d: 2 });
  put("A17", "Average margin"); put("F17", "=AVERAGE(F2:F9)", { t: "pct", d: 1 });
  put("G1", "Checked", null, true); put("G2", "yes"); put("G3", "yes"); put("G4", "yes");
  notes.B6 = "One per day guest (120).";
  notes.B12 = "Returning customer: 5%. Over £1,250 we usually give 10%.";
  notes.D8 = "Includes slate boards, chutneys and three cheeses.";

  /* ---------- compute ---------- */
  function refOf(r, c) { return F.colName(c) + (r + 1); }
  function literal(s) {
    if (s === undefined || s === "") return null;
    var t = s.trim();
    if (/^-?(\d+\.?\d*|\.\d+)%$/.test(t)) return parseFloat(t) / 100;
    if (/^-?£?(\d{1,3}(,\d{3})+|\d+)(\.\d+)?$/.test(t)) return parseFloat(t.replace(/[£,]/g, ""));
    return s;
  }
  function recompute() {
    var state = {};
    values = {};
    function get(r, c) {
      if (r < 0 || c < 0 || r >= ROWS || c >= COLS) return F.E.ref;
      var ref = refOf(r, c);
      if (state[ref] === 2) return values[ref];
      if (state[ref] === 1) return F.E.circ;
      state[ref] = 1;
      var s = raw[ref], v;
      if (s && s.charAt(0) === "=") {
        var tree = F.parse(s.slice(1));
        v = tree ? F.evaluate(tree, get) : F.E.parse;
      } else v = literal(s);
      values[ref] = v; state[ref] = 2;
      return v;
    }
    for (var r = 0; r < ROWS; r++) for (var c = 0; c < COLS; c++) get(r, c);
  }
  function money(n, d) {
    var neg = n < 0, s = Math.abs(n).toFixed(d), parts = s.split(".");
    parts[0] = parts[0].replace(/\B(?=(\d{3})+(?!\d))/g, ",");
    return (neg ? "−" : "") + "£" + parts.join(".");
  }
  function show(ref) {
    var v = values[ref], f = fmt[ref];
    if (v === null || v === undefined) return "";
    if (F.isErr(v)) return v.err;
    if (typeof v === "boolean") return v ? "TRUE" : "FALSE";
    if (typeof v === "number") {
      if (f && f.t === "gbp") return money(v, f.d);
      if (f && f.t === "pct") return (v * 100).toFixed(f.d) + "%";
      if (f && f.t === "num") return v.toFixed(f.d);
      return String(Math.round(v * 1e9) / 1e9);
    }
    return String(v);
  }

  /* ---------- grid ---------- */
  var grid = $("grid"), TD = {};
  (function build() {
    var h = "<thead><tr><th class=\"corner\"></th>";
    for (var c = 0; c < COLS; c++) h += '<th class="colh" data-c="' + c + '">' + F.colName(c) + "</th>";
    h += "</tr></thead><tbody>";
    for (var r = 0; r < ROWS; r++) {
      h += '<tr><th class="rowh" data-r="' + r + '">' + (r + 1) + "</th>";
      for (var c2 = 0; c2 < COLS; c2++) h += '<td role="gridcell" data-ref="' + refOf(r, c2) + '" data-r="' + r + '" data-c="' + c2 + '"></td>';
      h += "</tr>";
    }
    grid.innerHTML = h + "</tbody>";
    grid.tabIndex = 0;
    grid.querySelectorAll("td").forEach(function (td) { TD[td.getAttribute("data-ref")] = td; });
  })();
  function refsIn(src) {
    var out = [], re = /("(?:[^"]|"")*")|\$?([A-Z]{1,2})\$?(\d+)(?::\$?([A-Z]{1,2})\$?(\d+))?(?![A-Za-z0-9(])/gi, m;
    while ((m = re.exec(src))) {
      if (m[1]) continue;
      var a = { c: F.colIndex(m[2].toUpperCase()), r: +m[3] - 1 }, b = m[4] ? { c: F.colIndex(m[4].toUpperCase()), r: +m[5] - 1 } : a;
      out.push([a, b]);
    }
    return out;
  }
  function render() {
    var lo = { r: Math.min(sel.r, anchor.r), c: Math.min(sel.c, anchor.c) }, hi = { r: Math.max(sel.r, anchor.r), c: Math.max(sel.c, anchor.c) };
    var cur = refOf(sel.r, sel.c), src = editing ? $("fx").value : (raw[cur] || ""), hl = {};
    if (src.charAt(0) === "=") refsIn(src).forEach(function (p, i) {
      for (var r = Math.min(p[0].r, p[1].r); r <= Math.max(p[0].r, p[1].r); r++)
        for (var c = Math.min(p[0].c, p[1].c); c <= Math.max(p[0].c, p[1].c); c++) if (!hl[refOf(r, c)]) hl[refOf(r, c)] = HL[i % HL.length];
    });
    Object.keys(TD).forEach(function (ref) {
      var td = TD[ref], r = +td.getAttribute("data-r"), c = +td.getAttribute("data-c"), v = values[ref];
      td.textContent = editing && ref === cur ? $("fx").value : show(ref);
      td.className = "";
      if (typeof v === "number") td.classList.add("n");
      if (F.isErr(v)) td.classList.add("err");
      if (bold[ref]) td.classList.add("b");
      if (notes[ref]) td.classList.add("has-note");
      if (c === 5 && r >= 1 && r <= 8 && typeof v === "number" && v < 0.4) td.classList.add("warn");
      if (r >= lo.r && r <= hi.r && c >= lo.c && c <= hi.c && (lo.r !== hi.r || lo.c !== hi.c)) td.classList.add("in-range");
      if (ref === cur) td.classList.add("cur");
      if (editing && ref === cur) td.classList.add("editing");
      if (hl[ref]) { td.classList.add("hl"); td.style.setProperty("--hl", hl[ref]); } else td.style.removeProperty("--hl");
    });
    grid.querySelectorAll(".colh").forEach(function (th) { var c = +th.getAttribute("data-c"); th.classList.toggle("on", c >= lo.c && c <= hi.c); });
    grid.querySelectorAll(".rowh").forEach(function (th) { var r = +th.getAttribute("data-r"); th.classList.toggle("on", r >= lo.r && r <= hi.r); });
    $("namebox").textContent = lo.r === hi.r && lo.c === hi.c ? cur : refOf(lo.r, lo.c) + ":" + refOf(hi.r, hi.c);
    if (!editing) $("fx").value = raw[cur] || "";
    status(lo, hi);
  }
  function status(lo, hi) {
    var nums = [], count = 0, f = null;
    for (var r = lo.r; r <= hi.r; r++) for (var c = lo.c; c <= hi.c; c++) {
      var v = values[refOf(r, c)];
      if (v !== null && v !== undefined && v !== "") count++;
      if (typeof v === "number") { nums.push(v); f = f || fmt[refOf(r, c)]; }
    }
    var one = lo.r === hi.r && lo.c === hi.c;
    if (one || !nums.length) { $("stat").textContent = one ? "" : "Count: " + count; return; }
    var sum = nums.reduce(function (s, x) { return s + x; }, 0);
    var fm = function (x) { return f && f.t === "gbp" ? money(x, 2) : f && f.t === "pct" ? (x * 100).toFixed(1) + "%" : String(Math.round(x * 100) / 100); };
    $("stat").textContent = "Sum: " + fm(sum) + "   Average: " + fm(sum / nums.length) + "   Count: " + count;
  }

  /* ---------- editing ---------- */
  function setRaw(changes) { // [[ref, text]]
    var batch = changes.map(function (ch) { return [ch[0], raw[ch[0]]]; });
    undo.push(batch);
    changes.forEach(function (ch) { if (ch[1] === "" || ch[1] === undefined) delete raw[ch[0]]; else raw[ch[0]] = ch[1]; });
    recompute();
    $("saved").textContent = "All changes saved";
  }
  function commit(dr, dc) {
    if (!editing) return;
    var ref = refOf(sel.r, sel.c), text = $("fx").value;
    editing = false;
    if (text.charAt(0) === "=") text = "=" + text.slice(1).replace(/(\$?[a-z]{1,2}\$?\d+)/gi, function (m) { return m.toUpperCase(); });
    if (text !== (raw[ref] || "")) {
      if (!fmt[ref] && /^-?(\d+\.?\d*|\.\d+)%$/.test(text.trim())) fmt[ref] = { t: "pct", d: 0 };
      if (!fmt[ref] && /^£/.test(text.trim())) fmt[ref] = { t: "gbp", d: 2 };
      setRaw([[ref, text]]);
    }
    move(dr, dc, false);
    grid.focus();
  }
  function cancel() { editing = false; render(); grid.focus(); }
  function move(dr, dc, extend) {
    sel = { r: Math.max(0, Math.min(ROWS - 1, sel.r + dr)), c: Math.max(0, Math.min(COLS - 1, sel.c + dc)) };
    if (!extend) anchor = { r: sel.r, c: sel.c };
    render();
    var td = TD[refOf(sel.r, sel.c)];
    if (td && td.scrollIntoView) td.scrollIntoView({ block: "nearest", inline: "nearest" });
  }
  function startEdit(initial) {
    editing = true;
    var fx = $("fx");
    fx.value = initial === undefined ? (raw[refOf(sel.r, sel.c)] || "") : initial;
    fx.focus();
    fx.setSelectionRange(fx.value.length, fx.value.length);
    render();
  }
  function fillDown() {
    var lo = { r: Math.min(sel.r, anchor.r), c: Math.min(sel.c, anchor.c) }, hi = { r: Math.max(sel.r, anchor.r), c: Math.max(sel.c, anchor.c) };
    var top = lo.r === hi.r ? lo.r - 1 : lo.r, changes = [];
    if (top < 0) return;
    for (var c = lo.c; c <= hi.c; c++) {
      var src = raw[refOf(top, c)] || "";
      for (var r = top + 1; r <= hi.r; r++) {
        changes.push([refOf(r, c), src.charAt(0) === "=" ? "=" + F.shift(src.slice(1), r - top, 0) : src]);
        if (fmt[refOf(top, c)]) fmt[refOf(r, c)] = fmt[refOf(top, c)];
      }
    }
    setRaw(changes); render();
    toast("Filled " + changes.length + (changes.length > 1 ? " cells" : " cell") + " down");
  }
  function doUndo() {
    var batch = undo.pop();
    if (!batch) { toast("Nothing to undo"); return; }
    batch.forEach(function (b) { if (b[1] === undefined) delete raw[b[0]]; else raw[b[0]] = b[1]; });
    recompute(); render(); toast("Undone");
  }
  function rangeRefs() {
    var out = [];
    for (var r = Math.min(sel.r, anchor.r); r <= Math.max(sel.r, anchor.r); r++)
      for (var c = Math.min(sel.c, anchor.c); c <= Math.max(sel.c, anchor.c); c++) out.push(refOf(r, c));
    return out;
  }
  function format(kind) {
    rangeRefs().forEach(function (ref) {
      var f = fmt[ref] || { t: "num", d: 2 };
      if (kind === "gbp" || kind === "pct") fmt[ref] = { t: kind, d: kind === "gbp" ? 2 : 1 };
      else fmt[ref] = { t: f.t, d: Math.max(0, Math.min(6, f.d + (kind === "more" ? 1 : -1))) };
    });
    render();
  }
  function toast(msg) {
    var t = $("toast"); t.textContent = msg; t.hidden = false;
  }
  ["mousedown", "keydown"].forEach(function (ty) {
    document.addEventListener(ty, function (e) { if (!$("toast").hidden && !$("toast").contains(e.target)) $("toast").hidden = true; }, true);
  });

  /* ---------- events ---------- */
  grid.addEventListener("mousedown", function (e) {
    var td = e.target.closest("td");
    if (!td) return;
    if (editing) commit(0, 0);
    sel = { r: +td.getAttribute("data-r"), c: +td.getAttribute("data-c") };
    if (!e.shiftKey) anchor = { r: sel.r, c: sel.c };
    render();
  });
  grid.addEventListener("dblclick", function (e) { if (e.target.closest("td")) startEdit(); });
  grid.addEventListener("keydown", function (e) {
    var k = e.key, mod = e.ctrlKey || e.metaKey;
    var arrows = { ArrowUp: [-1, 0], ArrowDown: [1, 0], ArrowLeft: [0, -1], ArrowRight: [0, 1] };
    if (arrows[k]) { e.preventDefault(); move(arrows[k][0], arrows[k][1], e.shiftKey); return; }
    if (mod && (k === "d" || k === "D")) { e.preventDefault(); fillDown(); return; }
    if (mod && (k === "z" || k === "Z")) { e.preventDefault(); doUndo(); return; }
    if (mod && (k === "b" || k === "B")) { e.preventDefault(); toggleBold(); return; }
    if (mod) return;
    if (k === "Enter") { e.preventDefault(); move(e.shiftKey ? -1 : 1, 0, false); return; }
    if (k === "Tab") { e.preventDefault(); move(0, e.shiftKey ? -1 : 1, false); return; }
    if (k === "F2") { e.preventDefault(); startEdit(); return; }
    if (k === "Delete" || k === "Backspace") { e.preventDefault(); setRaw(rangeRefs().map(function (r) { return [r, ""]; })); render(); return; }
    if (k.length === 1) { e.preventDefault(); startEdit(k); }
  });
  var fx = $("fx");
  fx.addEventListener("focus", function () { if (!editing) { editing = true; render(); } });
  fx.addEventListener("input", function () { editing = true; render(); });
  fx.addEventListener("keydown", function (e) {
    if (e.key === "Enter") { e.preventDefault(); commit(e.shiftKey ? -1 : 1, 0); }
    else if (e.key === "Tab") { e.preventDefault(); commit(0, e.shiftKey ? -1 : 1); }
    else if (e.key === "Escape") { e.preventDefault(); cancel(); }
  });
  function toggleBold() { var refs = rangeRefs(), on = !bold[refs[0]]; refs.forEach(function (r) { if (on) bold[r] = true; else delete bold[r]; }); render(); }
  $("tb-undo").addEventListener("click", doUndo);
  $("tb-gbp").addEventListener("click", function () { format("gbp"); });
  $("tb-pct").addEventListener("click", function () { format("pct"); });
  $("tb-dec-").addEventListener("click", function () { format("less"); });
  $("tb-dec+").addEventListener("click", function () { format("more"); });
  $("tb-bold").addEventListener("click", toggleBold);
  $("tb-fill").addEventListener("click", fillDown);
  document.querySelectorAll(".toolbar .tb").forEach(function (b) { b.addEventListener("mousedown", function (e) { e.preventDefault(); }); });

  // notes and error explanations on hover
  var ERR = { "#DIV/0!": "Division by zero.", "#NAME?": "Unknown function name.", "#VALUE!": "A value is not a number.", "#REF!": "A reference points outside the sheet.", "#CIRC!": "The formula refers to itself.", "#ERROR!": "The formula could not be read." };
  grid.addEventListener("mouseover", function (e) {
    var td = e.target.closest("td"), tip = $("cell-tip");
    if (!td) { tip.hidden = true; return; }
    var ref = td.getAttribute("data-ref"), v = values[ref], text = notes[ref] || "";
    if (F.isErr(v)) text = ERR[v.err] || v.err;
    else if (td.classList.contains("warn")) text = "Margin under 40%: check the price before sending.";
    if (!text) { tip.hidden = true; return; }
    tip.textContent = text; tip.hidden = false;
    var w = $("gridwrap").getBoundingClientRect(), b = td.getBoundingClientRect();
    tip.style.left = (b.right - w.left + $("gridwrap").scrollLeft + 6) + "px";
    tip.style.top = (b.top - w.top + $("gridwrap").scrollTop) + "px";
  });
  grid.addEventListener("mouseleave", function () { $("cell-tip").hidden = true; });

  ["quote", "notes"].forEach(function (name) {
    $("sheet-" + name).addEventListener("click", function () {
      var q = name === "quote";
      $("sheet-quote").classList.toggle("on", q); $("sheet-notes").classList.toggle("on", !q);
      $("sheet-quote").setAttribute("aria-selected", String(q)); $("sheet-notes").setAttribute("aria-selected", String(!q));
      $("gridwrap").hidden = !q; $("notes").hidden = q; document.querySelector(".fxbar").classList.toggle("dim", !q);
    });
  });

  recompute(); render(); grid.focus();
})();
