/* Tapedeck page: a two-sided mixtape. Tracks move by drag handle, by the row menu or with
   Alt+arrow keys; side lengths (with the gap between songs) are checked against the 45-minute
   side of a C90; the cassette and the waveform are drawn on canvases from the tape's state. */
(function () {
  "use strict";
  var TD = window.TD, $ = function (id) { return document.getElementById(id); };
  var tape = { a: TD.tape.a.slice(), b: TD.tape.b.slice() }, side = "a", sel = null, gap = TD.tape.gap;
  var shell = TD.tape.shell, cue = null, listening = false, menuFor = null, undoable = null, rows = {};
  var byId = {};
  TD.songs.forEach(function (s) { byId[s.id] = s; });

  function mmss(t) { t = Math.round(t); return Math.floor(t / 60) + ":" + (t % 60 < 10 ? "0" : "") + (t % 60); }
  function sideSecs(k) { var l = tape[k]; return l.reduce(function (s, id) { return s + byId[id].secs; }, 0) + gap * Math.max(0, l.length - 1); }
  function where(id) { return tape.a.indexOf(id) >= 0 ? "a" : tape.b.indexOf(id) >= 0 ? "b" : null; }
  function hash(s) { var h = 5381; for (var i = 0; i < s.length; i++) h = ((h << 5) + h + s.charCodeAt(i)) >>> 0; return h; }

  // ------------------------------------------------------------------ library
  function renderLibrary() {
    var q = $("q").value.trim().toLowerCase(), box = $("songs"), n = 0;
    box.innerHTML = "";
    TD.songs.forEach(function (s) {
      if (q && (s.title + " " + s.artist + " " + s.album).toLowerCase().indexOf(q) < 0) return;
      n++;
      var li = document.createElement("li"), on = where(s.id);
      li.className = "song";
      li.innerHTML = '<div><b>' + s.title + '</b><span>' + s.artist + " · " + mmss(s.secs) + "</span></div>" +
        (on ? '<span class="on-tape">On side ' + on.toUpperCase() + "</span>"
          : '<button type="button" class="add" data-id="' + s.id + '" aria-label="Add ' + s.title.replace(/"/g, "") + ' to side ' + side.toUpperCase() + '">+</button>');
      var add = li.querySelector(".add");
      if (add) add.addEventListener("click", function () { tape[side].push(s.id); sel = s.id; renderAll(); toastMsg("Added '" + s.title + "' to Side " + side.toUpperCase() + ".", null); });
      box.appendChild(li);
    });
    $("lib-count").textContent = q ? n + (n === 1 ? " song matches" : " songs match") + " '" + $("q").value.trim() + "'" : TD.songs.length + " songs";
  }

  // ------------------------------------------------------------------ tape
  function rowFor(id) {
    if (rows[id]) return rows[id];
    var s = byId[id], li = document.createElement("li");
    li.className = "track"; li.tabIndex = 0; li.dataset.id = id;
    li.innerHTML = '<span class="handle" aria-hidden="true" title="Drag to reorder">⋮⋮</span><span class="no"></span>' +
      '<div class="tt"><b>' + s.title + '</b><span>' + s.artist + '</span></div><span class="album">' + s.album + '</span>' +
      '<span class="dur">' + mmss(s.secs) + '</span><button type="button" class="dots" aria-label="More for ' + s.title.replace(/"/g, "") + '" aria-haspopup="menu">⋯</button>';
    li.addEventListener("click", function (e) { if (!e.target.closest(".dots") && !e.target.closest(".handle")) select(id); });
    li.querySelector(".dots").addEventListener("click", function (e) { e.stopPropagation(); openMenu(id, e.currentTarget); });
    li.querySelector(".handle").addEventListener("pointerdown", function (e) { startDrag(e, id); });
    rows[id] = li;
    return li;
  }
  function renderTape() {
    var box = $("tracks"), list = tape[side];
    Array.prototype.slice.call(box.children).forEach(function (li) { if (list.indexOf(li.dataset.id) < 0) box.removeChild(li); });
    list.forEach(function (id, i) {
      var li = rowFor(id);
      box.appendChild(li);
      li.querySelector(".no").textContent = String(i + 1);
      li.classList.toggle("sel", id === sel);
      li.classList.toggle("cued", !!cue && cue.id === id && listening);
      li.setAttribute("aria-selected", String(id === sel));
    });
    $("empty").hidden = list.length > 0;
    ["a", "b"].forEach(function (k) { $("tab-" + k).setAttribute("aria-selected", String(k === side)); });
    var secs = sideSecs(side), left = TD.SIDE_SECS - secs, n = list.length;
    $("cap-fill").style.width = Math.min(100, secs / TD.SIDE_SECS * 100) + "%";
    $("cap-fill").className = left < 0 ? "over" : "";
    $("cap-text").textContent = "Side " + side.toUpperCase() + " · " + n + (n === 1 ? " song" : " songs") + " · " + mmss(secs) + " of 45:00 · " +
      (left >= 0 ? mmss(left) + " left" : mmss(-left) + " too long");
    $("cap-text").className = left < 0 ? "over" : "";
    var all = tape.a.length + tape.b.length;
    $("totals").textContent = all + " songs · " + mmss(sideSecs("a") + sideSecs("b")) + " in total · " + gap + " s between songs";
    document.querySelector('[data-act="flip"]').textContent = "Move to Side " + (side === "a" ? "B" : "A");
  }
  function select(id) {
    sel = id;
    if (!cue || cue.id !== id) { cue = { id: id, at: 0 }; listening = false; }
    renderAll();
  }
  function move(id, by) {
    var l = tape[side], i = l.indexOf(id), j = i + by;
    if (i < 0 || j < 0 || j >= l.length) return false;
    l.splice(i, 1); l.splice(j, 0, id);
    return true;
  }
  function removeTrack(id) {
    var k = where(id), i = tape[k].indexOf(id);
    tape[k].splice(i, 1);
    if (sel === id) sel = null;
    if (cue && cue.id === id) { cue = null; listening = false; }
    renderAll();
    toastMsg("Removed '" + byId[id].title + "' from Side " + k.toUpperCase() + ".", function () { tape[k].splice(i, 0, id); sel = id; renderAll(); });
  }

  // menu
  function openMenu(id, btn) {
    var m = $("menu"), r = btn.getBoundingClientRect(), host = $("tracks").parentNode.getBoundingClientRect();
    menuFor = id;
    m.hidden = false;
    m.style.top = (r.bottom - host.top + 4) + "px";
    m.style.left = (r.right - host.left - 190) + "px";
    var l = tape[side], i = l.indexOf(id);
    m.querySelector('[data-act="up"]').disabled = i === 0;
    m.querySelector('[data-act="down"]').disabled = i === l.length - 1;
    m.querySelector("button:not(:disabled)").focus();
  }
  function closeMenu() { $("menu").hidden = true; menuFor = null; }
  document.querySelectorAll("#menu button").forEach(function (b) {
    b.addEventListener("click", function () {
      var id = menuFor, act = b.dataset.act;
      closeMenu();
      if (act === "up") move(id, -1);
      if (act === "down") move(id, 1);
      if (act === "flip") {
        var other = side === "a" ? "b" : "a";
        tape[side].splice(tape[side].indexOf(id), 1); tape[other].push(id);
        if (sel === id) sel = null;
        toastMsg("Moved '" + byId[id].title + "' to Side " + other.toUpperCase() + ".", null);
      }
      if (act === "remove") { removeTrack(id); return; }
      renderAll();
    });
  });

  // drag by the handle
  function startDrag(e, id) {
    e.preventDefault();
    var li = rows[id], box = $("tracks");
    li.classList.add("dragging");
    function over(ev) {
      var sibs = Array.prototype.slice.call(box.children).filter(function (x) { return x !== li; });
      var before = sibs.filter(function (x) { var r = x.getBoundingClientRect(); return ev.clientY < r.top + r.height / 2; })[0];
      box.insertBefore(li, before || null);
    }
    function up() {
      document.removeEventListener("pointermove", over);
      document.removeEventListener("pointerup", up);
      li.classList.remove("dragging");
      tape[side] = Array.prototype.map.call(box.children, function (x) { return x.dataset.id; });
      renderAll();
    }
    document.addEventListener("pointermove", over);
    document.addEventListener("pointerup", up);
  }

  // ------------------------------------------------------------------ canvases
  function drawCassette() {
    var c = $("cassette"), g = c.getContext("2d"), col = TD.shells[shell][0];
    g.clearRect(0, 0, c.width, c.height);
    function rr(x, y, w, h, r) { g.beginPath(); g.moveTo(x + r, y); g.arcTo(x + w, y, x + w, y + h, r); g.arcTo(x + w, y + h, x, y + h, r); g.arcTo(x, y + h, x, y, r); g.arcTo(x, y, x + w, y, r); g.closePath(); }
    g.fillStyle = "rgba(0,0,0,.18)"; rr(28, 30, 596, 352, 26); g.fill();
    g.fillStyle = col; rr(20, 20, 600, 350, 26); g.fill();
    g.fillStyle = "rgba(255,255,255,.12)"; rr(20, 20, 600, 60, 26); g.fill();
    g.fillStyle = "#f7f3ea"; rr(60, 48, 520, 200, 12); g.fill();
    g.fillStyle = "#ff5a36"; g.fillRect(60, 70, 520, 6);
    g.fillStyle = "#1e1e24"; g.font = "bold 34px 'DejaVu Sans', Arial, sans-serif"; g.textAlign = "center";
    g.fillText($("label").value || "Untitled tape", 320, 120);
    g.font = "16px 'DejaVu Sans', Arial, sans-serif"; g.fillStyle = "#6b6560";
    g.fillText("A  " + mmss(sideSecs("a")) + "      ·      B  " + mmss(sideSecs("b")), 320, 150);
    g.fillStyle = "#2a2a30"; rr(150, 170, 340, 120, 60); g.fill();
    var fa = Math.min(1, sideSecs("a") / TD.SIDE_SECS), fb = Math.min(1, sideSecs("b") / TD.SIDE_SECS);
    [[230, fa], [410, fb]].forEach(function (r) {
      g.fillStyle = "#4a3b30"; g.beginPath(); g.arc(r[0], 230, 18 + 34 * r[1], 0, Math.PI * 2); g.fill();
      g.fillStyle = "#f7f3ea"; g.beginPath(); g.arc(r[0], 230, 16, 0, Math.PI * 2); g.fill();
      g.fillStyle = "#2a2a30";
      for (var k = 0; k < 6; k++) { var a = k * Math.PI / 3; g.fillRect(r[0] + Math.cos(a) * 9 - 2, 230 + Math.sin(a) * 9 - 2, 4, 4); }
    });
    g.fillStyle = "rgba(0,0,0,.25)"; rr(200, 310, 240, 40, 8); g.fill();
    g.fillStyle = "#c9c2b6"; [[44, 44], [596, 44], [44, 346], [596, 346]].forEach(function (p) { g.beginPath(); g.arc(p[0], p[1], 7, 0, Math.PI * 2); g.fill(); });
  }
  function drawWave() {
    var c = $("wave"), g = c.getContext("2d");
    g.clearRect(0, 0, c.width, c.height);
    if (!cue) { g.fillStyle = "#d9d2c6"; g.fillRect(0, 23, c.width, 2); $("cue").textContent = "—"; return; }
    var s = byId[cue.id], seed = hash(s.id), bars = 112, w = c.width / bars, at = cue.at / s.secs;
    for (var i = 0; i < bars; i++) {
      seed = (seed * 1103515245 + 12345) >>> 0;
      var env = 0.35 + 0.65 * Math.sin(Math.PI * (i + 4) / (bars + 8)), h = Math.max(3, (0.25 + (seed % 1000) / 1333) * env * 44);
      g.fillStyle = i / bars < at ? "#ff5a36" : "#b8b0a4";
      g.fillRect(i * w + 1, (48 - h) / 2, w - 2, h);
    }
    g.fillStyle = "#1e1e24"; g.fillRect(Math.round(at * c.width) - 1, 0, 2, 48);
    $("cue").textContent = (listening ? "Listening from " : "Cue ") + mmss(cue.at) + " of " + mmss(s.secs);
  }
  function renderPlayer() {
    var s = cue && byId[cue.id];
    $("now-title").textContent = s ? s.title : "Pick a track to cue";
    $("now-artist").textContent = s ? s.artist + " · " + s.album : "Click a song on the tape";
    $("art").style.background = s ? "hsl(" + hash(s.album) % 360 + ", 45%, 55%)" : "#d9d2c6";
    $("listen").classList.toggle("on", listening);
    $("listen").setAttribute("aria-label", listening ? "Stop listening" : "Listen from the cue");
    $("listen-icon").setAttribute("d", listening ? "M7 5h4v14H7zM13 5h4v14h-4z" : "M8 5v14l11-7z");
    $("eq").hidden = !listening;
    drawWave();
  }
  function renderAll() { renderTape(); renderLibrary(); drawCassette(); renderPlayer(); }

  // ------------------------------------------------------------------ messages
  function toastMsg(text, undo) {
    $("toast-text").textContent = text;
    $("undo").hidden = !undo;
    undoable = undo;
    $("toast").hidden = false;
  }
  document.addEventListener("pointerdown", function (e) {
    if (!e.target.closest("#toast")) $("toast").hidden = true;
    if (!$("menu").hidden && !e.target.closest("#menu") && !e.target.closest(".dots")) closeMenu();
  }, true);
  $("undo").addEventListener("click", function () { var u = undoable; $("toast").hidden = true; undoable = null; if (u) u(); });

  // ------------------------------------------------------------------ controls
  document.querySelectorAll("[data-side]").forEach(function (t) { t.addEventListener("click", function () { side = t.dataset.side; sel = null; closeMenu(); renderAll(); }); });
  $("q").addEventListener("input", renderLibrary);
  $("label").addEventListener("input", function () {
    var v = $("label").value.trim() || "Untitled tape";
    $("tape-title").textContent = v; $("side-title").textContent = v; document.title = "Tapedeck · " + v;
    drawCassette();
  });
  $("gap").addEventListener("input", function () { gap = Number($("gap").value); $("gap-out").textContent = gap + " s"; renderAll(); });
  Object.keys(TD.shells).forEach(function (k) {
    var b = document.createElement("button");
    b.type = "button"; b.setAttribute("role", "radio"); b.dataset.shell = k;
    b.innerHTML = '<i style="background:' + TD.shells[k][0] + '"></i>' + TD.shells[k][1];
    b.addEventListener("click", function () { shell = k; swatches(); drawCassette(); });
    $("swatches").appendChild(b);
  });
  function swatches() { document.querySelectorAll("#swatches button").forEach(function (b) { b.setAttribute("aria-checked", String(b.dataset.shell === shell)); }); }
  $("wave").addEventListener("click", function (e) {
    if (!cue) return;
    var r = $("wave").getBoundingClientRect(), s = byId[cue.id];
    cue.at = Math.max(0, Math.min(s.secs, Math.round((e.clientX - r.left) / r.width * s.secs)));
    renderPlayer();
  });
  $("listen").addEventListener("click", toggleListen);
  function toggleListen() { if (!cue) { var first = tape[side][0]; if (!first) return; sel = first; cue = { id: first, at: 0 }; } listening = !listening; renderAll(); }
  function step(by) {
    var l = tape[side], i = l.indexOf(sel), j = i < 0 ? 0 : Math.max(0, Math.min(l.length - 1, i + by));
    if (l.length) select(l[j]);
  }
  $("prev").addEventListener("click", function () { step(-1); });
  $("next").addEventListener("click", function () { step(1); });
  document.addEventListener("keydown", function (e) {
    if (e.key === "Escape") { $("keys").hidden = true; closeMenu(); return; }
    var t = e.target, typing = t && (t.tagName === "INPUT" && t.type !== "range" || t.tagName === "TEXTAREA");
    if (typing || t.type === "range") return;
    if (e.key === "?") { $("keys").hidden = false; return; }
    if (!$("keys").hidden) return;
    if (e.key === "a" || e.key === "b") { side = e.key; sel = null; renderAll(); return; }
    if (e.key === " ") { e.preventDefault(); toggleListen(); return; }
    if (e.key === "ArrowUp" || e.key === "ArrowDown") {
      e.preventDefault();
      var by = e.key === "ArrowUp" ? -1 : 1;
      if (e.altKey && sel) { if (move(sel, by)) renderAll(); }
      else step(by);
      return;
    }
    if ((e.key === "Delete" || e.key === "Backspace") && sel) { e.preventDefault(); removeTrack(sel); }
  });
  $("keys").addEventListener("click", function (e) { if (e.target === $("keys")) $("keys").hidden = true; });

  swatches();
  renderAll();
})();
