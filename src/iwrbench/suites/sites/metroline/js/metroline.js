/* Halloran Transit journey planner. Trains run to a timetable (first departure + headway + minutes per hop),
   so a journey is an earliest-arrival search over (line, direction, station) with a change time at
   interchanges: "Fastest" orders by arrival then changes, "Fewest changes" by changes then arrival. The fare
   follows the zones passed through, the departure time (peak or not), the passenger and the Express. */
(function () {
  "use strict";
  var N = window.NETWORK, S = N.stations;
  var $ = function (id) { return document.getElementById(id); };
  var SVGNS = "http://www.w3.org/2000/svg";
  var DAYS = ["Sun", "Mon", "Tue", "Wed", "Thu", "Fri", "Sat"], MON = ["Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"];
  var LINE = {}; N.lines.forEach(function (l) { LINE[l.id] = l; });
  var avoid = {}, plan = null, chosen = 0, popFor = null;

  function hhmm(m) { m = ((Math.round(m) % 1440) + 1440) % 1440; return ("0" + Math.floor(m / 60)).slice(-2) + ":" + ("0" + m % 60).slice(-2); }
  function money(v) { return "£" + v.toFixed(2); }
  function el(tag, attrs, parent) {
    var e = document.createElementNS(SVGNS, tag);
    for (var k in attrs) e.setAttribute(k, attrs[k]);
    if (parent) parent.appendChild(e);
    return e;
  }
  function pt(p) { return typeof p === "string" ? [S[p].x, S[p].y] : p; }

  /* ---------- timetable ---------- */
  // every line in both directions: stations in order, minutes from the first, hop minutes
  var RUNS = [];
  N.lines.forEach(function (l) {
    var ids = l.path.filter(function (p) { return typeof p === "string"; });
    if (l.loop) ids = ids.slice(0, -1);
    [0, 1].forEach(function (d) {
      var seq = d === 0 ? ids.slice() : ids.slice().reverse();
      var n = l.mins.length, hops = l.mins.slice();
      if (d === 1) hops = l.loop ? l.mins.map(function (_, i) { return l.mins[(n - 2 - i + n) % n]; }) : l.mins.slice().reverse();
      var cum = [0];
      for (var i = 1; i < seq.length; i++) cum.push(cum[i - 1] + hops[i - 1]);
      RUNS.push({ line: l, dir: d, seq: seq, hops: hops, cum: cum, key: l.id + d, towards: l.ends[d] });
    });
  });
  function nextDep(run, i, t) {
    var base = (run.line.loop ? 0 : 330) + run.line.first[run.dir] + run.cum[i], h = run.line.headway;
    var k = Math.max(0, Math.ceil((t - base) / h));
    return base + k * h;
  }
  function nextIndex(run, i) {
    if (i + 1 < run.seq.length) return i + 1;
    return run.line.loop ? 0 : -1;
  }
  function hopMins(run, i) { return run.hops[i]; }
  function closed(lineId, a, b, day) {
    return N.closures.some(function (c) {
      return c.line === lineId && c.days.indexOf(day) >= 0 && ((c.between[0] === a && c.between[1] === b) || (c.between[0] === b && c.between[1] === a));
    });
  }
  var SERVES = {}; // station -> [[run, index]]
  RUNS.forEach(function (r) { r.seq.forEach(function (s, i) { (SERVES[s] = SERVES[s] || []).push([r, i]); }); });

  /* ---------- search ---------- */
  function better(a, b, mode) {
    var x = mode === "changes" ? [a.changes, a.t] : [a.t, a.changes];
    var y = mode === "changes" ? [b.changes, b.t] : [b.t, b.changes];
    return x[0] < y[0] || (x[0] === y[0] && x[1] < y[1]);
  }
  function search(from, to, t0, day, mode) {
    var best = {}, open = [];
    function push(run, i, t, changes, prev, boardT) {
      if (avoid[run.line.id]) return;
      var key = run.key + ":" + i, lab = { run: run, i: i, t: t, changes: changes, prev: prev, boardT: boardT };
      if (best[key] && !better(lab, best[key], mode)) return;
      best[key] = lab; open.push(lab);
    }
    (SERVES[from] || []).forEach(function (ri) { push(ri[0], ri[1], nextDep(ri[0], ri[1], t0), 0, null, null); });
    var guard = 0;
    while (open.length && guard++ < 20000) {
      var bi = 0;
      for (var k = 1; k < open.length; k++) if (better(open[k], open[bi], mode)) bi = k;
      var cur = open.splice(bi, 1)[0];
      if (best[cur.run.key + ":" + cur.i] !== cur) continue;
      var here = cur.run.seq[cur.i];
      if (here === to && cur.prev && cur.prev.run === cur.run) return cur;
      var j = nextIndex(cur.run, cur.i);
      if (j >= 0 && !closed(cur.run.line.id, here, cur.run.seq[j], day) && !(cur.run.line.loop && cur.run.seq[j] === from)) {
        push(cur.run, j, cur.t + hopMins(cur.run, cur.i), cur.changes, cur, null);
      }
      if (cur.prev && cur.prev.run === cur.run) {
        (SERVES[here] || []).forEach(function (ri) {
          if (ri[0].line === cur.run.line) return;
          push(ri[0], ri[1], nextDep(ri[0], ri[1], cur.t + N.change), cur.changes + 1, cur, cur.t);
        });
      }
    }
    return null;
  }
  function legsOf(end) {
    var chain = [];
    for (var n = end; n; n = n.prev) chain.unshift(n);
    var legs = [], leg = null;
    chain.forEach(function (n) {
      if (!leg || n.run !== leg.run) {
        leg = { run: n.run, stops: [n.run.seq[n.i]], times: [n.t] };
        legs.push(leg);
      } else { leg.stops.push(n.run.seq[n.i]); leg.times.push(n.t); }
    });
    return legs.filter(function (l) { return l.stops.length > 1; });
  }
  function fareOf(legs, day, dep) {
    var zs = [];
    legs.forEach(function (l) { l.stops.forEach(function (s) { zs.push(S[s].zone); }); });
    var lo = Math.min.apply(null, zs), hi = Math.max.apply(null, zs), count = hi - lo + 1;
    var weekday = day >= 0 && day <= 4;
    var peak = weekday && N.fares.peak.some(function (w) { return dep >= w[0] && dep < w[1]; });
    var base = N.fares.zones[count][peak ? 0 : 1];
    var express = legs.some(function (l) { return l.run.line.id === "X"; }) ? N.fares.express : 0;
    var pax = $("pax").value;
    if (pax.indexOf("Child") === 0) { base /= 2; express /= 2; }
    if (pax.indexOf("Senior") === 0) base = peak ? base / 2 : 0;
    return { total: base + express, peak: peak, zones: lo === hi ? "Zone " + lo : "Zones " + lo + "–" + hi, express: express };
  }

  /* ---------- form ---------- */
  var names = Object.keys(S).sort(function (a, b) { return S[a].name < S[b].name ? -1 : 1; });
  ["from", "to"].forEach(function (id) {
    names.forEach(function (s) { var o = document.createElement("option"); o.value = s; o.textContent = S[s].name; $(id).appendChild(o); });
  });
  var now = new Date(), nowMin = now.getHours() * 60 + now.getMinutes();
  $("clock").textContent = DAYS[now.getDay()] + " " + now.getDate() + " " + MON[now.getMonth()] + " · " + hhmm(nowMin);
  $("status-time").textContent = "at " + hhmm(nowMin);
  for (var d = 0; d < 7; d++) {
    var dt = new Date(now.getFullYear(), now.getMonth(), now.getDate() + d), o = document.createElement("option");
    o.value = String((dt.getDay() + 6) % 7); // 0 = Monday
    o.textContent = d === 0 ? "Today" : d === 1 ? "Tomorrow" : DAYS[dt.getDay()] + " " + dt.getDate() + " " + MON[dt.getMonth()];
    $("day").appendChild(o);
  }
  var nowOpt = document.createElement("option"); nowOpt.value = "now"; nowOpt.textContent = "Now (" + hhmm(nowMin) + ")"; $("when").appendChild(nowOpt);
  for (var m = 5 * 60 + 30; m <= 23 * 60 + 30; m += 15) { var op = document.createElement("option"); op.value = String(m); op.textContent = hhmm(m); $("when").appendChild(op); }
  function leaveAt() {
    var v = $("when").value;
    return v === "now" ? nowMin : +v;
  }
  N.lines.forEach(function (l) {
    var b = document.createElement("button");
    b.type = "button"; b.className = "chip"; b.id = "avoid-" + l.id; b.setAttribute("aria-pressed", "false");
    b.innerHTML = '<i style="background:' + l.colour + '"></i>' + l.short;
    b.addEventListener("click", function () {
      avoid[l.id] = !avoid[l.id];
      b.setAttribute("aria-pressed", avoid[l.id] ? "true" : "false");
      if (plan) run(true);
    });
    $("avoid-chips").appendChild(b);
  });

  function run(keepTab) {
    var from = $("from").value, to = $("to").value, err = "";
    if (!from || !to) err = "Choose a station to travel " + (!from ? "from." : "to.");
    else if (from === to) err = "From and To are the same station.";
    $("form-error").textContent = err; $("form-error").hidden = !err;
    if (err) { plan = null; renderResults(); return; }
    var day = +$("day").value, t0 = leaveAt();
    var fast = search(from, to, t0, day, "time"), few = search(from, to, t0, day, "changes");
    plan = { from: from, to: to, day: day, options: [] };
    if (fast) plan.options.push(option(fast, "Fastest", day));
    if (few) {
      var o = option(few, "Fewest changes", day);
      if (!fast || o.sig !== plan.options[0].sig) plan.options.push(o);
      else plan.options[0].label = "Fastest · fewest changes";
    }
    if (!keepTab || chosen >= plan.options.length) chosen = 0;
    renderResults();
  }
  function option(end, label, day) {
    var legs = legsOf(end), dep = legs[0].times[0], arr = legs[legs.length - 1].times[legs[legs.length - 1].times.length - 1];
    return { label: label, legs: legs, dep: dep, arr: arr, mins: arr - dep, changes: legs.length - 1, fare: fareOf(legs, day, dep),
      sig: legs.map(function (l) { return l.run.key + l.stops.join(","); }).join("|") };
  }
  $("plan-form").addEventListener("submit", function (e) { e.preventDefault(); run(false); });
  ["day", "when", "pax"].forEach(function (id) { $(id).addEventListener("change", function () { if (plan) run(true); }); });
  ["from", "to"].forEach(function (id) { $(id).addEventListener("change", function () { plan = null; renderResults(); }); });
  $("swap").addEventListener("click", function () {
    var a = $("from").value; $("from").value = $("to").value; $("to").value = a;
    if (plan) run(false); else renderResults();
  });

  /* ---------- results ---------- */
  function hint() {
    var f = $("from").value, t = $("to").value;
    if (f && t && f !== t) return "<b>" + S[f].name + "</b> to <b>" + S[t].name + "</b>: press Plan journey.";
    if (f && !t) return "From <b>" + S[f].name + "</b>. Now choose where you are going.";
    if (t && !f) return "To <b>" + S[t].name + "</b>. Now choose where you start.";
    return "Choose two stations, or click them on the map.";
  }
  function renderResults() {
    var box = $("results");
    drawRoute();
    if (!plan) { box.innerHTML = '<p class="empty">' + hint() + "</p>"; return; }
    if (!plan.options.length) {
      box.innerHTML = '<p class="none"><b>No route found.</b> Every way from ' + S[plan.from].name + " to " + S[plan.to].name + " uses a line you chose to avoid or a closed section.</p>";
      return;
    }
    var h = '<div class="otabs" role="tablist" aria-label="Journey options">';
    plan.options.forEach(function (o, i) {
      h += '<button type="button" role="tab" class="otab" id="opt-' + i + '" aria-selected="' + (i === chosen) + '"><span>' + o.label + "</span><b>arrive " + hhmm(o.arr) + "</b></button>";
    });
    h += "</div>";
    var o = plan.options[chosen], f = o.fare;
    h += '<div class="summary"><div class="times"><b>' + hhmm(o.dep) + " → " + hhmm(o.arr) + "</b><span>" + o.mins + " min · " +
      (o.changes ? o.changes + (o.changes > 1 ? " changes" : " change") : "no changes") + '</span></div><div class="fare"><b>' + money(f.total) +
      "</b><span>" + (f.peak ? "Peak" : "Off-peak") + " · " + f.zones + (f.express ? " · incl. Express" : "") + "</span></div></div>";
    h += '<ol class="legs">';
    o.legs.forEach(function (l, i) {
      var ln = l.run.line, n = l.stops.length - 1;
      if (i > 0) h += '<li class="change"><span class="walk" aria-hidden="true"></span>Change at ' + S[l.stops[0]].name + " · " + N.change + " min to the platform</li>";
      h += '<li class="leg" style="--c:' + ln.colour + '"><div class="leg-top"><span class="badge" style="background:' + ln.colour + '">' + ln.short + "</span>" +
        (ln.loop ? "Circle " + l.run.towards : "towards " + l.run.towards) + '</div><div class="stop"><b>' + hhmm(l.times[0]) + "</b> " + S[l.stops[0]].name +
        '</div><div class="ride">' + n + (n > 1 ? " stops" : " stop") + " · " + (l.times[n] - l.times[0]) + ' min</div><div class="stop"><b>' + hhmm(l.times[n]) + "</b> " + S[l.stops[n]].name + "</div></li>";
    });
    h += "</ol>";
    box.innerHTML = h;
    plan.options.forEach(function (_, i) { $("opt-" + i).addEventListener("click", function () { chosen = i; renderResults(); }); });
  }

  /* ---------- map ---------- */
  var svg = $("svg"), gBase = el("g", {}, svg), gLines = el("g", {}, svg), gRoute = el("g", {}, svg), gStations = el("g", {}, svg), gPins = el("g", {}, svg);
  function drawBase() {
    el("rect", { x: -400, y: -300, width: 1760, height: 1240, fill: "#f5f2ea" }, gBase);
    el("path", { d: "M-400 560 H0 C120 540 200 600 330 585 S560 560 640 600 760 560 960 520 H1360 V940 H-400Z", fill: "#cfe2ec" }, gBase);
    el("path", { d: "M660 940 C720 700 820 470 960 430 H1360 V940Z", fill: "#bcd8e6" }, gBase);
    el("path", { d: "M-400 470 H-10 C90 450 150 470 220 452 S330 432 420 446 560 470 600 455", fill: "none", stroke: "#cfe2ec", "stroke-width": 16, "stroke-linecap": "round" }, gBase);
    el("rect", { x: 160, y: 90, width: 90, height: 70, rx: 18, fill: "#dcebd2" }, gBase);
    el("rect", { x: 540, y: 40, width: 130, height: 60, rx: 18, fill: "#dcebd2" }, gBase);
    el("rect", { x: 225, y: 105, width: 510, height: 430, rx: 40, fill: "none", stroke: "#c9c2b0", "stroke-dasharray": "6 6", "stroke-width": 1.5 }, gBase);
    el("rect", { x: 140, y: 22, width: 700, height: 600, rx: 60, fill: "none", stroke: "#d8d1c0", "stroke-dasharray": "6 6", "stroke-width": 1.5 }, gBase);
    [["Zone 1", 236, 126], ["Zone 2", 152, 44], ["Zone 3", 36, 44]].forEach(function (z) {
      var t = el("text", { x: z[1], y: z[2], class: "zlabel" }, gBase); t.textContent = z[0];
    });
    var t1 = el("text", { x: 820, y: 600, class: "water" }, gBase); t1.textContent = "Halloran Harbour";
    var t2 = el("text", { x: 60, y: 494, class: "water" }, gBase); t2.textContent = "River Seld";
  }
  var HOPS = []; // {line, a, b, el}
  function drawLines() {
    N.lines.forEach(function (l) {
      var pts = [], lastStation = null;
      l.path.forEach(function (p) {
        pts.push(pt(p));
        if (typeof p === "string") {
          if (lastStation !== null) {
            var d = "M" + pts.map(function (q) { return q[0] + " " + q[1]; }).join(" L");
            var path = el("path", { d: d, class: "hop", stroke: l.colour }, gLines);
            HOPS.push({ line: l.id, a: lastStation, b: p, el: path, d: d });
          }
          lastStation = p; pts = [pt(p)];
        }
      });
    });
  }
  function drawStations() {
    Object.keys(S).forEach(function (id) {
      var s = S[id], lines = (SERVES[id] || []).map(function (ri) { return ri[0].line.id; }).filter(function (v, i, a) { return a.indexOf(v) === i; });
      var g = el("g", { class: "stn" + (lines.length > 1 ? " ix" : ""), "data-id": id, tabindex: "0", role: "button", "aria-label": s.name }, gStations);
      if (lines.length > 1) el("circle", { cx: s.x, cy: s.y, r: 8, class: "mk-ix" }, g);
      else el("circle", { cx: s.x, cy: s.y, r: 5.5, class: "mk", stroke: LINE[lines[0]].colour }, g);
      var side = s.label.replace(/\d/, ""), far = /\d/.test(s.label) ? 6 : 0, dx = 0, dy = 0, anchor = "middle";
      if (side.indexOf("n") >= 0) dy = -14 - far; if (side.indexOf("s") >= 0) dy = 24 + far;
      if (side.indexOf("e") >= 0) { dx = 13 + far; anchor = "start"; } if (side.indexOf("w") >= 0) { dx = -13 - far; anchor = "end"; }
      if (side === "e" || side === "w") dy = 5;
      var t = el("text", { x: s.x + dx, y: s.y + dy, "text-anchor": anchor, class: "lbl" }, g); t.textContent = s.name;
      el("circle", { cx: s.x, cy: s.y, r: 14, class: "hit" }, g);
      g.addEventListener("mouseenter", function () { showTip(id); });
      g.addEventListener("mouseleave", function () { $("tip").hidden = true; });
      g.addEventListener("click", function (e) { e.stopPropagation(); openPop(id); });
      g.addEventListener("keydown", function (e) { if (e.key === "Enter" || e.key === " ") { e.preventDefault(); openPop(id); } });
    });
  }
  function linesAt(id) {
    return (SERVES[id] || []).map(function (ri) { return ri[0].line; }).filter(function (v, i, a) { return a.indexOf(v) === i; });
  }
  function place(box, id, below) {
    var r = svg.getBoundingClientRect(), m = $("map").getBoundingClientRect(), k = r.width / 960;
    var x = r.left - m.left + S[id].x * k, y = r.top - m.top + S[id].y * k;
    box.style.left = Math.max(8, Math.min(m.width - box.offsetWidth - 8, x - box.offsetWidth / 2)) + "px";
    box.style.top = (below || y < 120 ? y + 18 : y - box.offsetHeight - 16) + "px";
  }
  function showTip(id) {
    if (popFor === id) return;
    var tip = $("tip");
    tip.innerHTML = "<b>" + S[id].name + "</b> · Zone " + S[id].zone + '<span class="tl">' + linesAt(id).map(function (l) {
      return '<i style="background:' + l.colour + '"></i>' + l.short; }).join(" ") + "</span>";
    tip.hidden = false; place(tip, id);
  }
  function openPop(id) {
    popFor = id; $("tip").hidden = true;
    $("pop-name").textContent = S[id].name;
    $("pop-meta").innerHTML = "Zone " + S[id].zone + " · " + linesAt(id).map(function (l) { return '<i style="background:' + l.colour + '"></i>' + l.name; }).join(", ");
    $("pop").hidden = false; place($("pop"), id);
  }
  function closePop() { $("pop").hidden = true; popFor = null; }
  $("pop-close").addEventListener("click", closePop);
  $("pop-from").addEventListener("click", function () { pick("from"); });
  $("pop-to").addEventListener("click", function () { pick("to"); });
  function pick(which) {
    var id = popFor; closePop();
    $(which).value = id;
    if ($("from").value && $("to").value) run(false); else { plan = null; renderResults(); }
  }
  document.addEventListener("click", function (e) { if (!$("pop").hidden && !$("pop").contains(e.target)) closePop(); });
  document.addEventListener("keydown", function (e) { if (e.key === "Escape" && !$("pop").hidden) closePop(); });

  function drawRoute() {
    gRoute.innerHTML = ""; gPins.innerHTML = "";
    var o = plan && plan.options[chosen];
    svg.classList.toggle("routed", !!o);
    if (o) {
      o.legs.forEach(function (l) {
        for (var i = 0; i < l.stops.length - 1; i++) {
          var a = l.stops[i], b = l.stops[i + 1];
          HOPS.forEach(function (h) {
            if (h.line === l.run.line.id && ((h.a === a && h.b === b) || (h.a === b && h.b === a))) {
              el("path", { d: h.d, class: "hop-on", stroke: l.run.line.colour }, gRoute);
            }
          });
        }
      });
    }
    [["from", "A", "#0f7b5f"], ["to", "B", "#1b1f2a"]].forEach(function (p) {
      var id = $(p[0]).value; if (!id) return;
      var s = S[id], g = el("g", { class: "pinmark" }, gPins);
      el("path", { d: "M" + s.x + " " + (s.y - 9) + " l-10 -16 a12 12 0 1 1 20 0z", fill: p[2] }, g);
      var t = el("text", { x: s.x, y: s.y - 27, "text-anchor": "middle", class: "pintext" }, g); t.textContent = p[1];
    });
    gStations.querySelectorAll(".stn").forEach(function (g) {
      var id = g.getAttribute("data-id"), on = !!o && o.legs.some(function (l) { return l.stops.indexOf(id) >= 0; });
      g.classList.toggle("on", on);
    });
  }
  drawBase(); drawLines(); drawStations();
  N.lines.forEach(function (l) {
    var li = document.createElement("li");
    li.innerHTML = '<i style="background:' + l.colour + '"></i>' + l.name;
    $("legend").appendChild(li);
  });
  var ix = document.createElement("li"); ix.innerHTML = '<i class="ixl"></i>Interchange'; $("legend").appendChild(ix);

  /* ---------- status and fares ---------- */
  $("status-list").innerHTML = N.status.map(function (s, i) {
    var l = LINE[s.line];
    return '<li class="st"><button type="button" class="st-head" id="st-' + s.line + '" aria-expanded="false" aria-controls="st-body-' + i + '">' +
      '<span class="badge" style="background:' + l.colour + '">' + l.short + "</span><span class=\"st-name\">" + l.name + '</span><span class="lvl ' + s.level + '">' + s.state + "</span></button>" +
      '<div class="st-body" id="st-body-' + i + '" hidden>' + s.text + "</div></li>";
  }).join("");
  document.querySelectorAll(".st-head").forEach(function (b) {
    b.addEventListener("click", function () {
      var open = b.getAttribute("aria-expanded") === "true";
      b.setAttribute("aria-expanded", open ? "false" : "true");
      $(b.getAttribute("aria-controls")).hidden = open;
    });
  });
  $("fare-rows").innerHTML = [1, 2, 3].map(function (z) {
    var f = N.fares.zones[z];
    return "<tr><td>" + z + (z > 1 ? " zones" : " zone") + "</td><td>" + money(f[0]) + "</td><td>" + money(f[1]) + "</td></tr>";
  }).join("");

  /* ---------- tabs, toast ---------- */
  var TABS = ["plan", "status", "fares"];
  function selectTab(name) {
    TABS.forEach(function (t) {
      var b = $("tab-" + t), on = t === name;
      b.setAttribute("aria-selected", on ? "true" : "false"); b.tabIndex = on ? 0 : -1;
      $("pane-" + t).hidden = !on;
    });
  }
  TABS.forEach(function (t, i) {
    $("tab-" + t).addEventListener("click", function () { selectTab(t); });
    $("tab-" + t).addEventListener("keydown", function (e) {
      if (e.key !== "ArrowRight" && e.key !== "ArrowLeft") return;
      var n = TABS[(i + (e.key === "ArrowRight" ? 1 : 2)) % 3]; selectTab(n); $("tab-" + n).focus();
    });
  });
})();
