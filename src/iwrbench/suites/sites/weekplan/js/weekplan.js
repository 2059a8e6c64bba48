/* Weekplan: a week calendar. Events are laid out per day in lanes (overlapping events side by side); a click
   on an empty slot opens the form at that time, a click on an event opens its card, a drag moves it (15-minute
   steps) and dragging its lower edge changes its end. The form checks the title and the times and warns,
   once, about a clash with another event; every change can be undone from the toast. */
(function () {
  "use strict";
  var $ = function (id) { return document.getElementById(id); };
  var CAL = {}; window.CALENDARS.forEach(function (c) { CAL[c.id] = c; });
  var FIRST = 8, LAST = 19, HOUR = 52, STEP = 15;
  // an hour is as tall as lets the working day fill the window (never less than 52 px)
  HOUR = Math.max(52, Math.floor(($("scroller").clientHeight - 12) / (LAST - FIRST)));
  $("cols").style.setProperty("--hour", HOUR + "px");
  var DAYS = ["Mon", "Tue", "Wed", "Thu", "Fri", "Sat", "Sun"], LONG = ["Monday", "Tuesday", "Wednesday", "Thursday", "Friday", "Saturday", "Sunday"];
  var MON = ["January", "February", "March", "April", "May", "June", "July", "August", "September", "October", "November", "December"];
  var seq = 0, events = window.EVENTS.map(function (e) { return Object.assign({ id: ++seq }, e); });
  var now = new Date(), today = iso(now), nowMin = now.getHours() * 60 + now.getMinutes();
  var weekStart = monday(now), view = "week", hidden = {}, miniMonth = new Date(now.getFullYear(), now.getMonth(), 1);
  var popFor = null, editId = null, formCal = "studio", clashAck = null, lastUndo = null;

  function pad(n) { return ("0" + n).slice(-2); }
  function iso(d) { return d.getFullYear() + "-" + pad(d.getMonth() + 1) + "-" + pad(d.getDate()); }
  function parse(s) { var p = s.split("-"); return new Date(+p[0], +p[1] - 1, +p[2]); }
  function addDays(d, n) { return new Date(d.getFullYear(), d.getMonth(), d.getDate() + n); }
  function monday(d) { return addDays(new Date(d.getFullYear(), d.getMonth(), d.getDate()), -((d.getDay() + 6) % 7)); }
  function hm(m) { return pad(Math.floor(m / 60)) + ":" + pad(m % 60); }
  function dur(m) { var h = Math.floor(m / 60), r = m % 60; return (h ? h + " h" : "") + (h && r ? " " : "") + (r ? r + " min" : "") || "0 h"; }
  function dayLabel(s) { var d = parse(s); return DAYS[(d.getDay() + 6) % 7] + " " + d.getDate() + " " + MON[d.getMonth()].slice(0, 3); }
  function shown() { var n = view === "week" ? 7 : 5, out = []; for (var i = 0; i < n; i++) out.push(iso(addDays(weekStart, i))); return out; }

  /* ---------- week grid ---------- */
  function renderHours() {
    var h = "";
    for (var t = FIRST; t < LAST; t++) h += '<div class="hr" style="height:' + HOUR + 'px"><span>' + pad(t) + ":00</span></div>";
    $("hours").innerHTML = h;
  }
  function lanes(list) { // side-by-side placement of overlapping events
    list.sort(function (a, b) { return a.s - b.s || b.e - a.e; });
    var groups = [], cur = null, end = -1;
    list.forEach(function (e) {
      if (!cur || e.s >= end) { cur = []; groups.push(cur); end = e.e; } else end = Math.max(end, e.e);
      cur.push(e);
    });
    groups.forEach(function (g) {
      var laneEnd = [];
      g.forEach(function (e) {
        var k = 0; while (laneEnd[k] !== undefined && laneEnd[k] > e.s) k++;
        laneEnd[k] = e.e; e._lane = k;
      });
      g.forEach(function (e) { e._lanes = laneEnd.length; });
    });
    return list;
  }
  function render() {
    var days = shown(), s = parse(days[0]), e = parse(days[days.length - 1]);
    $("range").textContent = s.getMonth() === e.getMonth() ? s.getDate() + " – " + e.getDate() + " " + MON[s.getMonth()] + " " + s.getFullYear()
      : s.getDate() + " " + MON[s.getMonth()].slice(0, 3) + " – " + e.getDate() + " " + MON[e.getMonth()].slice(0, 3) + " " + e.getFullYear();
    $("week").style.setProperty("--n", days.length);
    $("days").innerHTML = '<div class="gutter"></div>' + days.map(function (d, i) {
      var dd = parse(d);
      return '<div class="dh' + (d === today ? " today" : "") + (dd.getDay() % 6 === 0 ? " we" : "") + '"><span>' + DAYS[i] + '</span><b>' + dd.getDate() + "</b></div>";
    }).join("");
    var cols = $("cols");
    cols.innerHTML = "";
    days.forEach(function (d) {
      var col = document.createElement("div");
      col.className = "col" + (d === today ? " today" : "") + (parse(d).getDay() % 6 === 0 ? " we" : "");
      col.setAttribute("data-day", d);
      col.style.height = (LAST - FIRST) * HOUR + "px";
      lanes(events.filter(function (ev) { return ev.d === d && !hidden[ev.cal]; })).forEach(function (ev) {
        var b = document.createElement("button"), c = CAL[ev.cal], w = 100 / ev._lanes;
        b.type = "button"; b.className = "ev" + (ev.e - ev.s <= 30 ? " short" : ev.e - ev.s <= 60 ? " one" : "") + (popFor === ev.id ? " on" : "");
        b.setAttribute("data-id", ev.id);
        b.style.cssText = "top:" + (ev.s - FIRST * 60) / 60 * HOUR + "px;height:" + ((ev.e - ev.s) / 60 * HOUR - 2) + "px;left:calc(" + ev._lane * w + "% + 2px);width:calc(" + w + "% - 5px);--c:" + c.colour;
        b.innerHTML = '<span class="ev-t">' + esc(ev.t) + '</span><span class="ev-h">' + hm(ev.s) + " – " + hm(ev.e) + "</span><i class=\"grip\" aria-hidden=\"true\"></i>";
        col.appendChild(b);
      });
      if (d === today && nowMin >= FIRST * 60 && nowMin <= LAST * 60) {
        var line = document.createElement("div"); line.className = "now"; line.style.top = (nowMin - FIRST * 60) / 60 * HOUR + "px"; col.appendChild(line);
      }
      cols.appendChild(col);
    });
    renderMini(); renderLoad();
  }
  function esc(s) { return String(s).replace(/[&<>"]/g, function (c) { return { "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;" }[c]; }); }

  /* ---------- sidebar ---------- */
  function renderMini() {
    var m = miniMonth, first = monday(m), h = DAYS.map(function (d) { return "<span class=\"mh\">" + d.charAt(0) + "</span>"; }).join("");
    $("mini-title").textContent = MON[m.getMonth()] + " " + m.getFullYear();
    var wk = iso(weekStart), busy = {};
    events.forEach(function (e) { busy[e.d] = true; });
    for (var i = 0; i < 42; i++) {
      var d = addDays(first, i), s = iso(d), inWeek = s >= wk && s < iso(addDays(weekStart, 7));
      h += '<button type="button" class="md' + (d.getMonth() !== m.getMonth() ? " out" : "") + (s === today ? " today" : "") + (inWeek ? " wk" : "") + (busy[s] ? " busy" : "") +
        '" data-day="' + s + '" aria-label="' + LONG[(d.getDay() + 6) % 7] + " " + d.getDate() + " " + MON[d.getMonth()] + '">' + d.getDate() + "</button>";
    }
    $("mini-grid").innerHTML = h;
  }
  $("mini-grid").addEventListener("click", function (e) {
    var b = e.target.closest(".md"); if (!b) return;
    weekStart = monday(parse(b.getAttribute("data-day"))); closePop(); render();
  });
  $("mini-prev").addEventListener("click", function () { miniMonth = new Date(miniMonth.getFullYear(), miniMonth.getMonth() - 1, 1); renderMini(); });
  $("mini-next").addEventListener("click", function () { miniMonth = new Date(miniMonth.getFullYear(), miniMonth.getMonth() + 1, 1); renderMini(); });
  function renderCals() {
    $("cal-list").innerHTML = window.CALENDARS.map(function (c) {
      return '<li><label class="cal" style="--c:' + c.colour + '"><input type="checkbox" id="cal-' + c.id + '" checked><i></i>' + c.name + "</label></li>";
    }).join("");
    window.CALENDARS.forEach(function (c) {
      $("cal-" + c.id).addEventListener("change", function (e) { hidden[c.id] = !e.target.checked; closePop(); render(); });
    });
  }
  function renderLoad() {
    var days = shown(), tot = {}, max = 0;
    events.forEach(function (e) { if (days.indexOf(e.d) >= 0 && !hidden[e.cal]) tot[e.cal] = (tot[e.cal] || 0) + e.e - e.s; });
    window.CALENDARS.forEach(function (c) { max = Math.max(max, tot[c.id] || 0); });
    $("load-list").innerHTML = window.CALENDARS.filter(function (c) { return !hidden[c.id]; }).map(function (c) {
      var v = tot[c.id] || 0;
      return '<li><span class="ln">' + c.name + '</span><span class="lv">' + dur(v) + '</span><span class="bar"><i style="width:' + (max ? v / max * 100 : 0) + "%;background:" + c.colour + '"></i></span></li>';
    }).join("");
  }

  /* ---------- event card ---------- */
  function openPop(id, anchor) {
    var ev = events.filter(function (e) { return e.id === id; })[0]; if (!ev) return;
    popFor = id;
    $("pop-title").textContent = ev.t;
    $("pop-when").textContent = LONG[(parse(ev.d).getDay() + 6) % 7] + " " + parse(ev.d).getDate() + " " + MON[parse(ev.d).getMonth()] + " · " + hm(ev.s) + " – " + hm(ev.e);
    $("pop-where").textContent = ev.where || "No location";
    $("pop-cal").innerHTML = '<i style="background:' + CAL[ev.cal].colour + '"></i>' + CAL[ev.cal].name;
    $("pop-notes").textContent = ev.notes || ""; $("pop-notes").hidden = !ev.notes;
    var pop = $("pop"); pop.hidden = false;
    var r = anchor.getBoundingClientRect(), w = pop.offsetWidth, h = pop.offsetHeight;
    var left = r.right + 10 + w > window.innerWidth ? r.left - w - 10 : r.right + 10;
    pop.style.left = Math.max(8, left) + "px";
    pop.style.top = Math.max(64, Math.min(window.innerHeight - h - 10, r.top)) + "px";
    document.querySelectorAll(".ev.on").forEach(function (b) { b.classList.remove("on"); });
    anchor.classList.add("on");
  }
  function closePop() { $("pop").hidden = true; popFor = null; document.querySelectorAll(".ev.on").forEach(function (b) { b.classList.remove("on"); }); }
  $("pop-close").addEventListener("click", closePop);
  $("pop-edit").addEventListener("click", function () { var id = popFor; closePop(); openForm(id); });
  $("pop-del").addEventListener("click", function () {
    var id = popFor, ev = events.filter(function (e) { return e.id === id; })[0];
    closePop(); snapshot(); events = events.filter(function (e) { return e.id !== id; }); render();
    toast("Deleted '" + ev.t + "'");
  });

  /* ---------- form ---------- */
  (function fillSelects() {
    var st = "", en = "";
    for (var m = 7 * 60; m <= 20 * 60; m += 30) { if (m < 20 * 60) st += '<option value="' + m + '">' + hm(m) + "</option>"; if (m > 7 * 60) en += '<option value="' + m + '">' + hm(m) + "</option>"; }
    $("f-start").innerHTML = st; $("f-end").innerHTML = en;
    $("f-cal").innerHTML = window.CALENDARS.map(function (c) {
      return '<button type="button" role="radio" class="cp" id="fc-' + c.id + '" data-cal="' + c.id + '" style="--c:' + c.colour + '" aria-checked="false"><i></i>' + c.name + "</button>";
    }).join("");
    $("f-cal").addEventListener("click", function (e) { var b = e.target.closest(".cp"); if (b) { formCal = b.getAttribute("data-cal"); markCal(); } });
  })();
  function markCal() { document.querySelectorAll(".cp").forEach(function (b) { b.setAttribute("aria-checked", String(b.getAttribute("data-cal") === formCal)); }); }
  function openForm(id, day, start) {
    var ev = id ? events.filter(function (e) { return e.id === id; })[0] : null;
    editId = id || null; clashAck = null;
    $("form-title").textContent = ev ? "Edit event" : "New event";
    $("f-day").innerHTML = shown().concat(view === "work" ? [iso(addDays(weekStart, 5)), iso(addDays(weekStart, 6))] : []).map(function (d) {
      return '<option value="' + d + '">' + dayLabel(d) + "</option>";
    }).join("");
    var d0 = ev ? ev.d : day || (shown().indexOf(today) >= 0 ? today : shown()[0]), s0 = ev ? ev.s : start || 10 * 60;
    $("f-title").value = ev ? ev.t : ""; $("f-where").value = ev ? ev.where || "" : "";
    $("f-day").value = d0; $("f-start").value = String(s0); $("f-end").value = String(ev ? ev.e : Math.min(20 * 60, s0 + 60));
    formCal = ev ? ev.cal : "studio"; markCal();
    ["e-title", "e-time", "w-clash"].forEach(function (k) { $(k).hidden = true; });
    $("f-title").classList.remove("bad"); $("f-end").classList.remove("bad");
    $("f-save").textContent = "Save";
    $("scrim").hidden = false; $("f-title").focus();
  }
  function closeForm() { $("scrim").hidden = true; editId = null; }
  $("f-cancel").addEventListener("click", closeForm);
  ["f-day", "f-start", "f-end"].forEach(function (k) { $(k).addEventListener("change", function () { clashAck = null; $("w-clash").hidden = true; $("f-save").textContent = "Save"; }); });
  $("form").addEventListener("submit", function (e) {
    e.preventDefault();
    var t = $("f-title").value.trim(), d = $("f-day").value, s = +$("f-start").value, en = +$("f-end").value, ok = true;
    $("e-title").hidden = !!t; $("e-title").textContent = "Give the event a title"; $("f-title").classList.toggle("bad", !t); if (!t) ok = false;
    var badTime = en <= s;
    $("e-time").hidden = !badTime; $("e-time").textContent = "The end must be after the start (" + hm(s) + ")"; $("f-end").classList.toggle("bad", badTime); if (badTime) ok = false;
    if (!ok) { $("w-clash").hidden = true; return; }
    var clash = events.filter(function (x) { return x.id !== editId && x.d === d && x.s < en && s < x.e; });
    var key = d + s + "-" + en;
    if (clash.length && clashAck !== key) {
      clashAck = key;
      $("w-clash").textContent = "This overlaps '" + clash[0].t + "' (" + hm(clash[0].s) + "–" + hm(clash[0].e) + ")" + (clash.length > 1 ? " and " + (clash.length - 1) + " more" : "") + ". Save again to keep both.";
      $("w-clash").hidden = false; $("f-save").textContent = "Save anyway";
      return;
    }
    snapshot();
    var rec = { d: d, s: s, e: en, cal: formCal, t: t, where: $("f-where").value.trim() };
    if (editId) { var ev = events.filter(function (x) { return x.id === editId; })[0]; Object.assign(ev, rec); toast("Updated '" + t + "'"); }
    else { events.push(Object.assign({ id: ++seq }, rec)); toast("Added '" + t + "' to " + CAL[formCal].name); }
    hidden[formCal] = false; $("cal-" + formCal).checked = true;
    closeForm(); weekStart = monday(parse(d)); render();
  });

  /* ---------- undo, toast ---------- */
  function snapshot() { lastUndo = events.map(function (e) { return Object.assign({}, e); }); }
  function toast(msg) {
    $("toast-text").textContent = msg; $("toast-undo").hidden = false; $("toast").hidden = false;
  }
  // a toast stays until the person does something else (a click or a key outside it)
  ["mousedown", "keydown"].forEach(function (t) {
    document.addEventListener(t, function (e) { if (!$("toast").hidden && !$("toast").contains(e.target)) $("toast").hidden = true; }, true);
  });
  $("toast-undo").addEventListener("click", function () {
    if (!lastUndo) return;
    events = lastUndo; lastUndo = null; render();
    $("toast-text").textContent = "Undone"; $("toast-undo").hidden = true;
  });

  /* ---------- mouse: click a slot, click or drag an event ---------- */
  var drag = null, justDragged = false;
  $("cols").addEventListener("mousedown", function (e) {
    if (e.button !== 0) return;
    var b = e.target.closest(".ev");
    if (!b) return;
    var ev = events.filter(function (x) { return x.id === +b.getAttribute("data-id"); })[0];
    drag = { ev: ev, el: b, x: e.clientX, y: e.clientY, moved: false, resize: e.target.classList.contains("grip"), s: ev.s, e: ev.e, d: ev.d };
    e.preventDefault();
  });
  document.addEventListener("mousemove", function (e) {
    if (!drag) return;
    var dy = e.clientY - drag.y;
    if (!drag.moved && Math.abs(dy) < 5 && Math.abs(e.clientX - drag.x) < 5) return;
    if (!drag.moved) { drag.moved = true; closePop(); drag.el.classList.add("dragging"); }
    var delta = Math.round(dy / HOUR * 60 / STEP) * STEP;
    if (drag.resize) { drag.ev.e = Math.max(drag.s + STEP, Math.min(LAST * 60, drag.e + delta)); }
    else {
      var len = drag.e - drag.s, s = Math.max(FIRST * 60, Math.min(LAST * 60 - len, drag.s + delta));
      var col = document.elementsFromPoint(e.clientX, e.clientY).filter(function (n) { return n.classList && n.classList.contains("col"); })[0];
      drag.ev.s = s; drag.ev.e = s + len; if (col) drag.ev.d = col.getAttribute("data-day");
    }
    var keep = drag; render(); keep.el = document.querySelector('.ev[data-id="' + keep.ev.id + '"]'); if (keep.el) keep.el.classList.add("dragging");
  });
  document.addEventListener("mouseup", function (e) {
    if (!drag) return;
    var d = drag; drag = null;
    if (!d.moved) return;
    justDragged = true; setTimeout(function () { justDragged = false; }, 0);
    var after = { s: d.ev.s, e: d.ev.e, d: d.ev.d };
    Object.assign(d.ev, { s: d.s, e: d.e, d: d.d }); snapshot(); Object.assign(d.ev, after);
    render(); toast((d.resize ? "Now ends " + hm(after.e) : "Moved to " + dayLabel(after.d) + ", " + hm(after.s)) + "");
    e.preventDefault();
  });
  $("cols").addEventListener("click", function (e) {
    var b = e.target.closest(".ev");
    if (b) { if (!justDragged) openPop(+b.getAttribute("data-id"), b); return; }
    var col = e.target.closest(".col"); if (!col) return;
    if (!$("pop").hidden) { closePop(); return; }
    var y = e.clientY - col.getBoundingClientRect().top, m = FIRST * 60 + Math.floor(y / HOUR * 2) * 30;
    openForm(null, col.getAttribute("data-day"), Math.min(m, 19 * 60));
  });
  document.addEventListener("mousedown", function (e) {
    if (!$("pop").hidden && !$("pop").contains(e.target) && !e.target.closest(".ev")) closePop();
  });

  /* ---------- navigation and keys ---------- */
  function go(n) { weekStart = addDays(weekStart, 7 * n); miniMonth = new Date(weekStart.getFullYear(), weekStart.getMonth(), 1); closePop(); render(); }
  function goToday() { weekStart = monday(now); miniMonth = new Date(now.getFullYear(), now.getMonth(), 1); closePop(); render(); }
  function setView(v) {
    view = v; $("view-week").setAttribute("aria-selected", String(v === "week")); $("view-work").setAttribute("aria-selected", String(v === "work"));
    closePop(); render();
  }
  $("prev").addEventListener("click", function () { go(-1); });
  $("next").addEventListener("click", function () { go(1); });
  $("today-btn").addEventListener("click", goToday);
  $("view-week").addEventListener("click", function () { setView("week"); });
  $("view-work").addEventListener("click", function () { setView("work"); });
  $("create-btn").addEventListener("click", function () { openForm(null); });
  $("help-btn").addEventListener("click", function () { $("help").hidden = false; });
  $("help-close").addEventListener("click", function () { $("help").hidden = true; });
  document.addEventListener("keydown", function (e) {
    if (e.key === "Escape") { if (!$("scrim").hidden) closeForm(); else if (!$("help").hidden) $("help").hidden = true; else closePop(); return; }
    var tag = (e.target.tagName || "").toLowerCase();
    if (tag === "input" || tag === "select" || tag === "textarea" || e.ctrlKey || e.metaKey || e.altKey || !$("scrim").hidden) return;
    var k = e.key.toLowerCase();
    if (k === "n") go(1); else if (k === "p") go(-1); else if (k === "t") goToday();
    else if (k === "c") { e.preventDefault(); openForm(null); }
    else if (k === "w") setView(view === "week" ? "work" : "week");
    else if (e.key === "?") $("help").hidden = false;
  });

  renderHours(); renderCals(); render();
  $("scroller").scrollTop = 0;
})();
