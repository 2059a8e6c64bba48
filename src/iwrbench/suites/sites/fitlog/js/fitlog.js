/* Stride's dashboard: this week's figures against last week's, the weekly goal ring, active minutes by
   day (or by week) as stacked bars with tips, a 30-day canvas trend with a readout, the workout log
   (sortable) and today's food. "Log workout" opens a form with a calendar, live pace and an effort
   slider; a saved workout flows into every figure above. Dates count from the page's clock. */
(function () {
  "use strict";
  var $ = function (id) { return document.getElementById(id); };
  var D = window.STRIDE, DAY = 864e5;
  var TYPES = { Run: "#ff5a36", Ride: "#2f80ed", Swim: "#14b8a6", Strength: "#8b5cf6", Yoga: "#f2b705" };
  var MET = { Run: 9.8, Ride: 7.5, Swim: 8, Strength: 5, Yoga: 2.8 };
  var DN = ["Sun", "Mon", "Tue", "Wed", "Thu", "Fri", "Sat"], MN = ["Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"];
  var LONG_MONTHS = ["January", "February", "March", "April", "May", "June", "July", "August", "September", "October", "November", "December"];
  var st = { range: "week", trend: "hr", sort: "date", dir: -1, water: D.food.water[0], form: null, fresh: null };
  var workouts = D.workouts.map(function (w, i) { return { id: i, date: parse(w[0]), type: w[1], min: w[2], km: w[3], effort: w[4], note: w[5] }; });

  function parse(s) { var p = s.split("-"); return new Date(+p[0], +p[1] - 1, +p[2]); }
  function today() { var n = new Date(); return new Date(n.getFullYear(), n.getMonth(), n.getDate()); }
  function monday(d) { return new Date(d.getFullYear(), d.getMonth(), d.getDate() - (d.getDay() + 6) % 7); }
  function addDays(d, n) { return new Date(d.getFullYear(), d.getMonth(), d.getDate() + n); }
  function same(a, b) { return a.getTime() === b.getTime(); }
  function fmt(d) { return DN[d.getDay()] + " " + d.getDate() + " " + MN[d.getMonth()]; }
  function dur(m) { return m >= 60 ? Math.floor(m / 60) + " h" + (m % 60 ? " " + (m % 60) + " min" : "") : m + " min"; }
  function kcal(w) { return Math.round(MET[w.type] * D.member.weightKg * w.min / 60 * (0.7 + w.effort * 0.06)); }
  function n1(x) { return (Math.round(x * 10) / 10).toFixed(1); }
  function thousands(n) { return String(n).replace(/\B(?=(\d{3})+(?!\d))/g, ","); }
  function pace(type, min, km) {
    if (!km || !min) return "";
    if (type === "Run") { var s = Math.round(min * 60 / km); return Math.floor(s / 60) + ":" + String(s % 60).padStart(2, "0") + " /km"; }
    if (type === "Ride") return n1(km / (min / 60)) + " km/h";
    if (type === "Swim") { var p = Math.round(min * 60 / (km * 10)); return Math.floor(p / 60) + ":" + String(p % 60).padStart(2, "0") + " /100 m"; }
    return "";
  }
  function effortWord(e) { return e <= 2 ? "Very easy" : e <= 4 ? "Easy" : e === 5 ? "Moderate" : e <= 7 ? "Hard" : e <= 9 ? "Very hard" : "All out"; }
  function inRange(a, b) { return workouts.filter(function (w) { return w.date >= a && w.date < b; }); }
  function sum(ws, k) { return ws.reduce(function (s, w) { return s + (k === "kcal" ? kcal(w) : (w[k] || 0)); }, 0); }

  // ---- header, stats, goal
  function renderTop() {
    var h = new Date().getHours(), mon = monday(today());
    $("hello").textContent = (h < 12 ? "Good morning" : h < 18 ? "Good afternoon" : "Good evening") + ", " + D.member.name.split(" ")[0];
    $("week-title").textContent = "Week of " + mon.getDate() + " " + LONG_MONTHS[mon.getMonth()];
    var now = inRange(mon, addDays(mon, 7)), last = inRange(addDays(mon, -7), mon);
    var cards = [["Workouts", now.length, last.length, String(now.length)], ["Distance", sum(now, "km"), sum(last, "km"), n1(sum(now, "km")) + " km"],
      ["Active time", sum(now, "min"), sum(last, "min"), dur(sum(now, "min"))], ["Calories", sum(now, "kcal"), sum(last, "kcal"), thousands(sum(now, "kcal")) + " kcal"]];
    var lastTxt = [String(last.length), n1(sum(last, "km")) + " km", dur(sum(last, "min")), thousands(sum(last, "kcal")) + " kcal"];
    $("stats").innerHTML = cards.map(function (c, i) {
      return '<div class="stat"><span class="sl">' + c[0] + ' this week</span><b>' + c[3] + '</b><span class="vs">last week ' + lastTxt[i] + "</span></div>";
    }).join("");
    var m = sum(now, "min"), goal = D.member.goalMinutes, left = 7 - (today().getDay() + 6) % 7 - 1;
    $("goal-min").textContent = m;
    $("ring").setAttribute("stroke-dashoffset", (314.16 * (1 - Math.min(1, m / goal))).toFixed(1));
    $("goal-note").textContent = m >= goal ? "Goal reached. Nice work!" : (goal - m) + " minutes to go, " + left + " days left this week.";
  }

  // ---- stacked bars
  function renderBars() {
    var cols = [], mon = monday(today());
    if (st.range === "week") {
      for (var i = 0; i < 7; i++) {
        var d = addDays(mon, i), ws = inRange(d, addDays(d, 1));
        var tip = fmt(d) + " · " + (ws.length ? ws.map(function (w) { return w.type + " " + w.min + " min" + (w.km ? " · " + n1(w.km) + " km" : ""); }).join("; ") : d > today() ? "nothing logged yet" : "rest day");
        cols.push({ label: DN[d.getDay()], ws: ws, tip: tip, id: "bar-" + DN[d.getDay()].toLowerCase(), on: same(d, today()) });
      }
    } else {
      for (var k = 4; k >= 0; k--) {
        var a = addDays(mon, -7 * k), ws2 = inRange(a, addDays(a, 7));
        cols.push({ label: a.getDate() + " " + MN[a.getMonth()], ws: ws2, tip: "Week of " + a.getDate() + " " + MN[a.getMonth()] + " · " + ws2.length + " workouts · " + sum(ws2, "min") + " min", id: "bar-w" + (5 - k), on: k === 0 });
      }
    }
    var max = Math.max(st.range === "week" ? 120 : 300, Math.max.apply(null, cols.map(function (c) { return sum(c.ws, "min"); })));
    $("bars").innerHTML = cols.map(function (c) {
      var tot = sum(c.ws, "min");
      var segs = c.ws.map(function (w) { return '<i style="height:' + (w.min / max * 100).toFixed(1) + "%;background:" + TYPES[w.type] + '"></i>'; }).join("");
      return '<div class="col' + (c.on ? " today" : "") + '" id="' + c.id + '"><span class="tot">' + (tot ? tot : "") + '</span><div class="stack">' + segs + '</div><span class="lab">' + c.label + '</span><span class="btip">' + c.tip + "</span></div>";
    }).join("");
    $("bars-title").textContent = st.range === "week" ? "Active minutes this week" : "Active minutes, last 5 weeks";
    $("range-week").setAttribute("aria-selected", String(st.range === "week"));
    $("range-month").setAttribute("aria-selected", String(st.range === "month"));
    $("legend").innerHTML = Object.keys(TYPES).map(function (t) { return '<li><i style="background:' + TYPES[t] + '"></i>' + t + "</li>"; }).join("");
  }

  // ---- trend canvas
  function trendData() { return st.trend === "hr" ? D.restingHr : D.weight; }
  function renderTrend() {
    var box = $("trend-box"), cv = $("trend"), W = box.clientWidth || 300, H = 150, dpr = window.devicePixelRatio || 1;
    cv.width = W * dpr; cv.height = H * dpr; cv.style.width = W + "px"; cv.style.height = H + "px";
    var g = cv.getContext("2d"), vals = trendData(), n = vals.length;
    g.setTransform(dpr, 0, 0, dpr, 0, 0);
    g.clearRect(0, 0, W, H);
    var lo = Math.min.apply(null, vals), hi = Math.max.apply(null, vals), pad = st.trend === "hr" ? 2 : 0.3;
    lo -= pad; hi += pad;
    var x = function (i) { return 6 + i * (W - 12) / (n - 1); }, y = function (v) { return 12 + (hi - v) / (hi - lo) * (H - 34); };
    g.strokeStyle = "#f1f0ee"; g.lineWidth = 1;
    for (var k = 0; k < 4; k++) { var yy = 12 + k * (H - 34) / 3; g.beginPath(); g.moveTo(0, yy); g.lineTo(W, yy); g.stroke(); }
    var avg = vals.reduce(function (a, b) { return a + b; }, 0) / n;
    g.setLineDash([4, 4]); g.strokeStyle = "#b8b2aa"; g.beginPath(); g.moveTo(0, y(avg)); g.lineTo(W, y(avg)); g.stroke(); g.setLineDash([]);
    g.beginPath();
    vals.forEach(function (v, i) { if (i) g.lineTo(x(i), y(v)); else g.moveTo(x(i), y(v)); });
    g.strokeStyle = st.trend === "hr" ? "#e11d48" : "#2f80ed"; g.lineWidth = 2.2; g.stroke();
    g.fillStyle = g.strokeStyle; g.beginPath(); g.arc(x(n - 1), y(vals[n - 1]), 3.5, 0, 7); g.fill();
    g.fillStyle = "#8a847c"; g.font = "11px Liberation Sans, Arial, sans-serif"; g.textAlign = "left";
    g.fillText(fmt(addDays(today(), -(n - 1))), 2, H - 6); g.textAlign = "right"; g.fillText("Today", W - 2, H - 6);
    var hits = $("thits");
    if (hits.children.length !== n) {
      hits.innerHTML = "";
      for (var i = 0; i < n; i++) { var dv = document.createElement("div"); dv.className = "th"; dv.id = "t-" + (i + 1); dv.dataset.i = i; hits.appendChild(dv); }
    }
    $("trend-hr").setAttribute("aria-selected", String(st.trend === "hr"));
    $("trend-weight").setAttribute("aria-selected", String(st.trend === "weight"));
    trendReadout(null);
  }
  function trendReadout(i) {
    var vals = trendData(), n = vals.length, k = i === null ? n - 1 : i, d = addDays(today(), k - (n - 1));
    var v = st.trend === "hr" ? vals[k] + " bpm resting heart rate" : n1(vals[k]) + " kg";
    var diff = vals[k] - vals[0];
    $("trend-readout").innerHTML = "<b>" + (i === null ? "Today" : fmt(d)) + "</b> · " + v + " · " + (diff <= 0 ? "down " : "up ") + (st.trend === "hr" ? Math.abs(diff) + " bpm" : n1(Math.abs(diff)) + " kg") + " since " + fmt(addDays(today(), -(n - 1)));
  }

  // ---- log table
  function renderLog() {
    var rows = workouts.slice().sort(function (a, b) {
      var k = st.sort, av = k === "date" ? a.date.getTime() : a[k] || 0, bv = k === "date" ? b.date.getTime() : b[k] || 0;
      return (av - bv) * st.dir || b.date - a.date;
    }).slice(0, 8);
    $("log-body").innerHTML = rows.map(function (w) {
      var dots = "";
      for (var i = 1; i <= 10; i++) dots += '<i class="' + (i <= w.effort ? "f" : "") + '"></i>';
      return '<tr class="' + (w.id === st.fresh ? "new" : "") + '"><td>' + fmt(w.date) + '</td><td><span class="badge" style="--c:' + TYPES[w.type] + '">' + w.type + "</span></td><td>" + dur(w.min) + "</td><td>" + (w.km ? n1(w.km) + " km" : "–") + "</td><td>" + (pace(w.type, w.min, w.km) || "–") +
        '</td><td><span class="dots" title="Effort ' + w.effort + ' of 10">' + dots + "</span> " + w.effort + '</td><td class="note">' + w.note.replace(/[<>&]/g, "") + "</td></tr>";
    }).join("");
    $("count-line").textContent = "8 of " + workouts.length + " · sorted by " + { date: "date", min: "time", km: "distance", effort: "effort" }[st.sort] + (st.dir < 0 ? ", highest first" : ", lowest first");
    document.querySelectorAll(".sort").forEach(function (b) { b.classList.toggle("on", b.dataset.k === st.sort); b.setAttribute("aria-sort", b.dataset.k === st.sort ? (st.dir < 0 ? "descending" : "ascending") : "none"); });
  }

  // ---- food
  function renderFood() {
    var f = D.food, C = 2 * Math.PI * 40, part = f.kcal[0] / f.kcal[1];
    $("donut").innerHTML = '<circle cx="50" cy="50" r="40" fill="none" stroke="#f1f0ee" stroke-width="11"/><circle cx="50" cy="50" r="40" fill="none" stroke="#16a34a" stroke-width="11" stroke-linecap="round" stroke-dasharray="' + (C * part).toFixed(1) + " " + C.toFixed(1) + '" transform="rotate(-90 50 50)"/>' +
      '<text x="50" y="50" text-anchor="middle" font-size="15" font-weight="700" fill="#1c1917" font-family="Liberation Sans, Arial, sans-serif">' + thousands(f.kcal[0]) + '</text><text x="50" y="64" text-anchor="middle" font-size="9" fill="#8a847c" font-family="Liberation Sans, Arial, sans-serif">kcal eaten</text>';
    $("kcal-line").textContent = thousands(f.kcal[1] - f.kcal[0]) + " kcal left of " + thousands(f.kcal[1]);
    $("macros").innerHTML = [["Protein", f.protein, "#e11d48"], ["Carbs", f.carbs, "#f2b705"], ["Fat", f.fat, "#2f80ed"]].map(function (m) {
      return '<div class="macro" id="macro-' + m[0].toLowerCase() + '"><span class="ml">' + m[0] + "<b>" + m[1][0] + " g</b></span><div class=\"mbar\"><i style=\"width:" + (m[1][0] / m[1][1] * 100).toFixed(0) + "%;background:" + m[2] + '"></i></div><span class="mtip">' + m[0] + " " + m[1][0] + " of " + m[1][1] + " g · " + (m[1][1] - m[1][0]) + " g to go</span></div>";
    }).join("");
    var gl = "";
    for (var i = 1; i <= f.water[1]; i++) gl += '<button type="button" class="glass' + (i <= st.water ? " full" : "") + '" id="glass-' + i + '" aria-label="Glass ' + i + '"></button>';
    $("glasses").innerHTML = gl;
    $("water-line").textContent = st.water + " of " + f.water[1] + " glasses";
    $("meals").innerHTML = f.meals.map(function (m) { return "<li><span class=\"mt\">" + m[0] + "</span><span>" + m[1] + "</span><b>" + m[2] + " kcal</b></li>"; }).join("");
  }

  function renderAll() { renderTop(); renderBars(); renderTrend(); renderLog(); renderFood(); }

  // ---- the form
  function openForm() {
    st.form = { type: "Run", date: null, month: new Date(today().getFullYear(), today().getMonth(), 1) };
    $("types").innerHTML = "<legend>Type</legend>" + Object.keys(TYPES).map(function (t) {
      return '<button type="button" class="type" id="type-' + t.toLowerCase() + '" data-t="' + t + '" aria-pressed="' + (t === "Run") + '" style="--c:' + TYPES[t] + '">' + t + "</button>";
    }).join("");
    $("minutes").value = ""; $("km").value = ""; $("notes").value = ""; $("effort").value = 5;
    ["date", "minutes", "km"].forEach(function (k) { $("err-" + k).textContent = ""; });
    $("date").classList.remove("bad"); $("minutes").classList.remove("bad"); $("km").classList.remove("bad");
    $("date-text").textContent = "Pick a day";
    $("cal").hidden = true;
    $("modal").hidden = false; $("scrim").hidden = false;
    formChanged();
  }
  function closeForm() { $("modal").hidden = true; $("scrim").hidden = true; $("cal").hidden = true; }
  function formChanged() {
    var f = st.form, needsKm = f.type !== "Strength" && f.type !== "Yoga";
    document.querySelectorAll(".type").forEach(function (b) { b.setAttribute("aria-pressed", String(b.dataset.t === f.type)); });
    $("km-f").hidden = !needsKm;
    var e = +$("effort").value;
    $("effort-out").textContent = e + " · " + effortWord(e);
    var min = parseFloat($("minutes").value), km = parseFloat($("km").value.replace(",", "."));
    var p = needsKm ? pace(f.type, min, km) : "";
    $("pace").textContent = p ? (f.type === "Ride" ? "Average speed " : "Average pace ") + p : needsKm ? "Pace appears here once you add the time and distance." : "No distance needed for " + f.type.toLowerCase() + ".";
    $("pace").classList.toggle("on", !!p);
  }
  function renderCal() {
    var f = st.form, m = f.month, first = (m.getDay() + 6) % 7, days = new Date(m.getFullYear(), m.getMonth() + 1, 0).getDate(), html = "";
    $("cal-title").textContent = LONG_MONTHS[m.getMonth()] + " " + m.getFullYear();
    ["Mo", "Tu", "We", "Th", "Fr", "Sa", "Su"].forEach(function (d) { html += '<span class="dow">' + d + "</span>"; });
    for (var i = 0; i < first; i++) html += "<span></span>";
    for (var d = 1; d <= days; d++) {
      var dt = new Date(m.getFullYear(), m.getMonth(), d), fut = dt > today();
      var has = workouts.some(function (w) { return same(w.date, dt); });
      html += '<button type="button" class="cd' + (same(dt, today()) ? " now" : "") + (f.date && same(dt, f.date) ? " picked" : "") + (has ? " has" : "") + '" id="cal-' + d + '"' + (fut ? " disabled" : "") + ' data-d="' + d + '">' + d + "</button>";
    }
    $("cal-grid").innerHTML = html;
    $("cal-next").disabled = m.getFullYear() === today().getFullYear() && m.getMonth() === today().getMonth();
  }
  function save(e) {
    e.preventDefault();
    var f = st.form, needsKm = f.type !== "Strength" && f.type !== "Yoga", ok = true;
    var min = $("minutes").value.trim(), km = $("km").value.trim().replace(",", ".");
    var errs = { date: !f.date ? "Choose the day you trained." : "",
                 minutes: !/^\d+$/.test(min) || +min < 5 || +min > 600 ? "Enter 5 to 600 minutes." : "",
                 km: needsKm && (!/^\d+(\.\d+)?$/.test(km) || +km <= 0 || +km > 300) ? "Enter the distance in km." : "" };
    Object.keys(errs).forEach(function (k) {
      $("err-" + k).textContent = errs[k];
      $(k).classList.toggle("bad", !!errs[k]);
      if (errs[k]) ok = false;
    });
    if (!ok) return;
    var w = { id: workouts.length, date: f.date, type: f.type, min: +min, km: needsKm ? +km : null, effort: +$("effort").value, note: $("notes").value.trim() || "No notes" };
    workouts.push(w);
    st.fresh = w.id;
    closeForm();
    renderAll();
    toast(w.type + " saved: " + (w.km ? n1(w.km) + " km in " : "") + dur(w.min) + " on " + fmt(w.date) + ".");
  }

  function toast(t) { var el = $("toast"); el.textContent = t; el.hidden = false; }
  document.addEventListener("click", function () { $("toast").hidden = true; }, true);

  $("log-btn").addEventListener("click", openForm);
  $("close").addEventListener("click", closeForm);
  $("cancel").addEventListener("click", closeForm);
  $("scrim").addEventListener("click", closeForm);
  document.addEventListener("keydown", function (e) { if (e.key === "Escape" && !$("modal").hidden) closeForm(); });
  $("types").addEventListener("click", function (e) { var b = e.target.closest(".type"); if (b) { st.form.type = b.dataset.t; formChanged(); } });
  $("date").addEventListener("click", function () { var c = $("cal"); c.hidden = !c.hidden; if (!c.hidden) renderCal(); });
  $("cal-prev").addEventListener("click", function () { var m = st.form.month; st.form.month = new Date(m.getFullYear(), m.getMonth() - 1, 1); renderCal(); });
  $("cal-next").addEventListener("click", function () { var m = st.form.month; st.form.month = new Date(m.getFullYear(), m.getMonth() + 1, 1); renderCal(); });
  $("cal-grid").addEventListener("click", function (e) {
    var b = e.target.closest(".cd");
    if (!b || b.disabled) return;
    var m = st.form.month;
    st.form.date = new Date(m.getFullYear(), m.getMonth(), +b.dataset.d);
    $("date-text").textContent = fmt(st.form.date) + " " + m.getFullYear();
    $("err-date").textContent = ""; $("date").classList.remove("bad");
    $("cal").hidden = true;
  });
  ["minutes", "km", "effort"].forEach(function (k) { $(k).addEventListener("input", formChanged); });
  // an error goes away as soon as the field is edited; Save checks everything again
  ["minutes", "km"].forEach(function (k) { $(k).addEventListener("input", function () { $("err-" + k).textContent = ""; $(k).classList.remove("bad"); }); });
  $("form").addEventListener("submit", save);
  $("range-week").addEventListener("click", function () { st.range = "week"; renderBars(); });
  $("range-month").addEventListener("click", function () { st.range = "month"; renderBars(); });
  $("trend-hr").addEventListener("click", function () { st.trend = "hr"; renderTrend(); });
  $("trend-weight").addEventListener("click", function () { st.trend = "weight"; renderTrend(); });
  $("thits").addEventListener("mouseover", function (e) { var h = e.target.closest(".th"); if (h) trendReadout(+h.dataset.i); });
  $("trend-box").addEventListener("mouseleave", function () { trendReadout(null); });
  document.querySelectorAll(".sort").forEach(function (b) {
    b.addEventListener("click", function () {
      if (st.sort === b.dataset.k) st.dir = -st.dir; else { st.sort = b.dataset.k; st.dir = -1; }
      renderLog();
    });
  });
  $("glasses").addEventListener("click", function (e) {
    var g = e.target.closest(".glass");
    if (!g) return;
    var i = +g.id.replace("glass-", "");
    st.water = i === st.water ? i - 1 : i;
    renderFood();
  });
  window.addEventListener("resize", renderTrend);
  renderAll();
})();
