/* Keystead map and commute: draws Port Averley from the street graph in KS (sea, river, parks,
   roads, the ring road, places, price pins) and finds the quickest route for a mode of travel
   with Dijkstra over the same graph. */
window.KSMap = (function () {
  "use strict";
  var KS = window.KS, NS = "http://www.w3.org/2000/svg", UNIT_KM = 0.006;
  var SPEED = { // km/h by edge kind; missing = not allowed
    walk: { road: 5, path: 5 },
    bike: { road: 16, path: 12 },
    car: { road: 28, ring: 64 }
  };
  var PARKING_MIN = { walk: 0, bike: 1, car: 4 };

  function el(name, attrs, parent) {
    var e = document.createElementNS(NS, name);
    for (var k in attrs) e.setAttribute(k, attrs[k]);
    if (parent) parent.appendChild(e);
    return e;
  }
  function dist(a, b) { return Math.hypot(a[0] - b[0], a[1] - b[1]); }
  function kPrice(p) { return "€" + Math.round(p / 1000) + "k"; }

  function route(home, placeKey, mode) {
    var goal = KS.places[placeKey].node, sp = SPEED[mode], best = {}, prev = {}, done = {};
    var startXY = [home.x, home.y], lead = dist(startXY, KS.nodes[home.node]);
    var leadSpeed = mode === "car" ? sp.road : sp.road;
    best[home.node] = lead * UNIT_KM / leadSpeed * 60;
    while (true) {
      var u = null;
      for (var n in best) if (!done[n] && (u === null || best[n] < best[u])) u = n;
      if (u === null || u === goal) break;
      done[u] = true;
      KS.edges.forEach(function (e) {
        var v = e[0] === u ? e[1] : e[1] === u ? e[0] : null;
        if (!v || done[v] || !sp[e[3]]) return;
        var t = best[u] + dist(KS.nodes[u], KS.nodes[v]) * UNIT_KM / sp[e[3]] * 60;
        if (best[v] === undefined || t < best[v] - 1e-9) { best[v] = t; prev[v] = { from: u, edge: e }; }
      });
    }
    if (best[goal] === undefined) return null;
    var path = [goal], legs = [], km = lead * UNIT_KM;
    for (var c = goal; prev[c]; c = prev[c].from) {
      path.unshift(prev[c].from);
      legs.unshift(prev[c].edge);
      km += dist(KS.nodes[prev[c].from], KS.nodes[c]) * UNIT_KM;
    }
    // the two streets it follows longest, named in the order they come
    var byStreet = {}, order = [];
    legs.forEach(function (e) {
      var d = dist(KS.nodes[e[0]], KS.nodes[e[1]]);
      if (!(e[2] in byStreet)) { byStreet[e[2]] = 0; order.push(e[2]); }
      byStreet[e[2]] += d;
    });
    var top = order.slice().sort(function (a, b) { return byStreet[b] - byStreet[a] || order.indexOf(a) - order.indexOf(b); }).slice(0, 2);
    var via = order.filter(function (s) { return top.indexOf(s) >= 0; });
    return { minutes: Math.max(1, Math.round(best[goal] + PARKING_MIN[mode])), km: km, via: via, path: path, start: startXY };
  }

  function draw(svg, opts) {
    opts = opts || {};
    while (svg.firstChild) svg.removeChild(svg.firstChild);
    svg.setAttribute("viewBox", opts.viewBox || "0 0 1000 700");
    el("rect", { x: 0, y: 0, width: 1000, height: 700, fill: "#eef0e6" }, svg);
    el("path", { d: "M0,0 L70,0 C60,120 95,230 60,330 C40,420 90,520 55,700 L0,700 Z", fill: "#bcd9e6" }, svg);
    el("path", { d: "M1000,360 C900,368 820,350 760,352 C680,356 640,368 560,366 C480,364 420,380 330,392 C250,402 150,398 60,395",
      fill: "none", stroke: "#bcd9e6", "stroke-width": 26, "stroke-linecap": "round" }, svg);
    el("rect", { x: 590, y: 470, width: 110, height: 100, rx: 14, fill: "#cfe5c3" }, svg);
    el("rect", { x: 290, y: 185, width: 90, height: 90, rx: 12, fill: "#d7e8cc" }, svg);
    el("circle", { cx: 220, cy: 515, r: 26, fill: "#d7e8cc" }, svg);
    var roads = el("g", {}, svg);
    [["ring", "#f3cf80", 11], ["road", "#ffffff", 8], ["path", "#7fa56b", 3]].forEach(function (k) {
      KS.edges.filter(function (e) { return e[3] === k[0]; }).forEach(function (e) {
        var a = KS.nodes[e[0]], b = KS.nodes[e[1]];
        if (k[0] === "road") el("line", { x1: a[0], y1: a[1], x2: b[0], y2: b[1], stroke: "#d9dccf", "stroke-width": 11, "stroke-linecap": "round" }, roads);
        el("line", { x1: a[0], y1: a[1], x2: b[0], y2: b[1], stroke: k[1], "stroke-width": k[2], "stroke-linecap": "round",
          "stroke-dasharray": k[0] === "path" ? "6 6" : "" }, roads);
      });
    });
    KS.areas.forEach(function (a) {
      var t = el("text", { x: a.x, y: a.y, "text-anchor": "middle", class: "area-label" }, svg);
      t.textContent = a.name.toUpperCase();
    });
    if (opts.route) {
      var r = opts.route, pts = [r.start].concat(r.path.map(function (n) { return KS.nodes[n]; }));
      el("polyline", { points: pts.map(function (p) { return p.join(","); }).join(" "), fill: "none", stroke: "#ffffff",
        "stroke-width": 12, "stroke-linejoin": "round", "stroke-linecap": "round" }, svg);
      el("polyline", { points: pts.map(function (p) { return p.join(","); }).join(" "), fill: "none", stroke: opts.routeColour || "#2e5bd8",
        "stroke-width": 7, "stroke-linejoin": "round", "stroke-linecap": "round", class: "route-line" }, svg);
    }
    Object.keys(KS.places).forEach(function (k) {
      var p = KS.places[k], xy = KS.nodes[p.node], on = opts.dest === k;
      var g = el("g", { class: "place" + (on ? " on" : ""), transform: "translate(" + xy[0] + "," + xy[1] + ")" }, svg);
      el("circle", { r: on ? 13 : 10, fill: on ? "#2e5bd8" : "#4a5568", stroke: "#fff", "stroke-width": 3 }, g);
      el("path", { d: ICONS[p.icon], fill: "none", stroke: "#fff", "stroke-width": 1.8, "stroke-linecap": "round", "stroke-linejoin": "round" }, g);
      var right = xy[0] > 700, t = el("text", { x: right ? -16 : 16, y: right ? 26 : 4, "text-anchor": right ? "end" : "start", class: "place-label" }, g);
      t.textContent = p.name;
    });
    (opts.homes || []).forEach(function (h) {
      var on = opts.focus === h.id;
      var g = el("g", { class: "pin" + (on ? " on" : ""), transform: "translate(" + h.x + "," + h.y + ")", "data-id": h.id, tabindex: opts.interactive ? "0" : "-1",
        role: opts.interactive ? "button" : "img", "aria-label": h.title + ", " + kPrice(h.price) }, svg);
      var label = opts.pinLabel === "dot" ? "" : kPrice(h.price), w = label ? label.length * 9 + 14 : 16;
      el("path", { d: "M0,0 l-6,-9 h12 z", class: "pin-tail" }, g);
      el("rect", { x: -w / 2, y: -33, width: w, height: 24, rx: 12, class: "pin-body" }, g);
      if (label) { var t = el("text", { x: 0, y: -16, "text-anchor": "middle", class: "pin-text" }, g); t.textContent = label; }
    });
  }

  var ICONS = {
    train: "M-4,-5 h8 v7 h-8 z M-4,-1 h8 M-3,5 l-2,3 M3,5 l2,3",
    cap: "M-6,-2 l6,-3 l6,3 l-6,3 z M-3,0 v3 c2,2 4,2 6,0 v-3",
    cross: "M0,-5 v10 M-5,0 h10",
    briefcase: "M-5,-2 h10 v7 h-10 z M-2,-2 v-2 h4 v2"
  };

  return { route: route, draw: draw, kPrice: kPrice, SPEED: SPEED };
})();
