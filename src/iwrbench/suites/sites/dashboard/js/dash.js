(function () {
  "use strict";
  var $ = function (id) { return document.getElementById(id); };
  var DOW = ["Sun", "Mon", "Tue", "Wed", "Thu", "Fri", "Sat"];
  // May 2024: the 1st is a Wednesday.
  var DAYS = [];
  for (var d = 1; d <= 31; d++) {
    var dow = (3 + d - 1) % 7, weekend = dow === 0 || dow === 6 ? 1 : 0;
    var sessions = Math.round(9000 + 800 * Math.sin(d * 0.7) + 60 * d + 1500 * weekend);
    var conv = 0.031 + 0.003 * Math.sin(d * 0.5);
    var orders = Math.round(sessions * conv);
    var aov = 42 + 4 * Math.sin(d * 0.3);
    DAYS.push({ d: d, dow: DOW[dow], sessions: sessions, orders: orders, revenue: Math.round(orders * aov) });
  }
  var RANGES = {
    "May 2024": { from: 1, deltas: { revenue: 8.4, orders: 5.1, aov: 3.1, conv: -0.2 } },
    "Last 14 days": { from: 18, deltas: { revenue: 12.7, orders: 9.8, aov: 2.6, conv: 0.3 } },
    "Last 7 days": { from: 25, deltas: { revenue: -3.2, orders: -4.5, aov: 1.4, conv: -0.1 } }
  };
  var CHANNELS = [["Organic search", 0.38], ["Paid ads", 0.24], ["Email", 0.17], ["Social", 0.13], ["Referral", 0.08]];
  var FUNNEL = [["Sessions", 1], ["Product views", 0.612], ["Added to cart", 0.148], ["Reached checkout", 0.061]];
  var NAMES = [
    ["Cedar & Smoke Candle", "Candles", 38], ["Linen Throw Blanket", "Textiles", 96], ["Stoneware Mug Set", "Kitchen", 54],
    ["Amber Glass Diffuser", "Fragrance", 44], ["Walnut Serving Board", "Kitchen", 68], ["Wool Pillow Cover", "Textiles", 49],
    ["Fig Leaf Candle", "Candles", 36], ["Brass Candle Snuffer", "Accessories", 24], ["Ceramic Vase – Sand", "Decor", 58],
    ["Matchbox Trio", "Accessories", 12], ["Sea Salt Room Spray", "Fragrance", 22], ["Oak Wall Shelf", "Decor", 84],
    ["Beeswax Taper Pair", "Candles", 18], ["Cotton Waffle Towel", "Textiles", 32], ["Marble Coaster Set", "Kitchen", 29],
    ["Rattan Storage Basket", "Decor", 46], ["Lavender Bath Soak", "Fragrance", 19], ["Linen Napkins (4)", "Textiles", 34],
    ["Travel Tin Candle", "Candles", 16], ["Hand-thrown Bowl", "Kitchen", 41], ["Wick Trimmer", "Accessories", 21],
    ["Jute Doormat", "Decor", 39], ["Incense Sampler", "Fragrance", 15], ["Gift Card $50", "Gift cards", 50]
  ];
  var PRODUCTS = NAMES.map(function (n, i) {
    var sessions = 5200 - i * 170 + (i % 3) * 240;
    var orders = Math.round(sessions * (0.02 + (i % 5) * 0.006));
    var stock = i % 7 === 3 ? "Low stock (4)" : i % 11 === 9 ? "Out of stock" : "In stock";
    return { name: n[0], cat: n[1], price: n[2], sessions: sessions, orders: orders, conv: orders / sessions, revenue: orders * n[2], stock: stock };
  });
  var state = { range: "May 2024", tab: "revenue", sort: "revenue", dir: -1, page: 1 };
  var PER = 10;

  function money(n, dec) { return "$" + n.toFixed(dec || 0).replace(/\B(?=(\d{3})+(?!\d))/g, ","); }
  function int(n) { return String(n).replace(/\B(?=(\d{3})+(?!\d))/g, ","); }
  function days() { return DAYS.slice(RANGES[state.range].from - 1); }
  function sum(list, k) { return list.reduce(function (s, x) { return s + x[k]; }, 0); }
  function svgEl(tag, attrs) {
    var e = document.createElementNS("http://www.w3.org/2000/svg", tag);
    for (var k in attrs) e.setAttribute(k, attrs[k]);
    return e;
  }
  function spark(id, values) {
    var svg = $(id); svg.innerHTML = "";
    var mn = Math.min.apply(null, values), mx = Math.max.apply(null, values);
    var pts = values.map(function (v, i) { return (i / (values.length - 1) * 120).toFixed(1) + "," + (28 - (v - mn) / (mx - mn || 1) * 26).toFixed(1); });
    svg.appendChild(svgEl("polyline", { points: pts.join(" "), fill: "none", stroke: "currentColor", "stroke-width": "2" }));
  }

  function renderKpis() {
    var ds = days(), r = RANGES[state.range].deltas;
    var rev = sum(ds, "revenue"), ord = sum(ds, "orders"), ses = sum(ds, "sessions");
    $("val-revenue").textContent = money(rev);
    $("val-orders").textContent = int(ord);
    $("val-aov").textContent = money(rev / ord, 2);
    $("val-conv").textContent = (ord / ses * 100).toFixed(2) + "%";
    [["revenue", "%"], ["orders", "%"], ["aov", "%"], ["conv", " pts"]].forEach(function (k) {
      var v = r[k[0]], el = $("d-" + k[0]);
      el.textContent = (v >= 0 ? "▲ +" : "▼ −") + Math.abs(v).toFixed(1) + k[1] + " vs previous period";
      el.className = "delta " + (v >= 0 ? "up" : "down");
      $("kpi-" + k[0]).classList.toggle("neg", v < 0);
    });
    spark("sp-revenue", ds.map(function (x) { return x.revenue; }));
    spark("sp-orders", ds.map(function (x) { return x.orders; }));
    spark("sp-aov", ds.map(function (x) { return x.revenue / x.orders; }));
    spark("sp-conv", ds.map(function (x) { return x.orders / x.sessions; }));
  }

  function renderChart() {
    var wrap = $("chart-wrap"); wrap.innerHTML = "";
    var ds = days();
    var tip = $("chart-tip");
    if (state.tab === "funnel") {
      $("chart-title").textContent = "Conversion funnel";
      var ses = sum(ds, "sessions"), ord = sum(ds, "orders");
      var ul = document.createElement("ul"); ul.className = "funnel";
      FUNNEL.concat([["Purchased", ord / ses]]).forEach(function (f) {
        var li = document.createElement("li");
        li.innerHTML = '<span class="fl">' + f[0] + '</span><span class="fb"><i style="width:' + (f[1] * 100).toFixed(1) + '%"></i></span><span class="fv">' + int(Math.round(ses * f[1])) + ' · ' + (f[1] * 100).toFixed(1) + '%</span>';
        ul.appendChild(li);
      });
      wrap.appendChild(ul);
      tip.textContent = "Purchased: " + int(ord) + " of " + int(ses) + " sessions.";
      return;
    }
    var key = state.tab === "traffic" ? "sessions" : "revenue";
    $("chart-title").textContent = key === "sessions" ? "Sessions by day" : "Revenue by day";
    tip.textContent = "Hover a point to see the day's figures.";
    var W = 860, H = 250, L = 56, B = 26, T = 10;
    var vals = ds.map(function (x) { return x[key]; });
    var mx = Math.ceil(Math.max.apply(null, vals) / 5000) * 5000;
    var svg = svgEl("svg", { viewBox: "0 0 " + W + " " + H, width: W, height: H, role: "img", "aria-label": $("chart-title").textContent });
    for (var g = 0; g <= 4; g++) {
      var y = T + (H - B - T) * (1 - g / 4);
      svg.appendChild(svgEl("line", { x1: L, x2: W - 10, y1: y, y2: y, stroke: "#e6e9f0" }));
      var lab = svgEl("text", { x: L - 8, y: y + 4, "text-anchor": "end", "font-size": "11", fill: "#7a8194" });
      var v = mx * g / 4;
      lab.textContent = key === "revenue" ? "$" + (v / 1000) + "k" : (v / 1000) + "k";
      svg.appendChild(lab);
    }
    function X(i) { return L + (W - 10 - L) * (ds.length === 1 ? 0.5 : i / (ds.length - 1)); }
    function Y(v) { return T + (H - B - T) * (1 - v / mx); }
    var area = "M" + X(0) + "," + Y(0) + " " + ds.map(function (x, i) { return "L" + X(i).toFixed(1) + "," + Y(x[key]).toFixed(1); }).join(" ") + " L" + X(ds.length - 1) + "," + Y(0) + " Z";
    svg.appendChild(svgEl("path", { d: area, fill: key === "revenue" ? "rgba(79,70,229,.10)" : "rgba(13,148,136,.10)" }));
    svg.appendChild(svgEl("polyline", { points: ds.map(function (x, i) { return X(i).toFixed(1) + "," + Y(x[key]).toFixed(1); }).join(" "), fill: "none", stroke: key === "revenue" ? "#4f46e5" : "#0d9488", "stroke-width": "2.5" }));
    ds.forEach(function (x, i) {
      if (ds.length <= 14 || (x.d - 1) % 7 === 0) {
        var t = svgEl("text", { x: X(i), y: H - 8, "text-anchor": "middle", "font-size": "11", fill: "#7a8194" });
        t.textContent = x.d + " May"; svg.appendChild(t);
      }
      var c = svgEl("circle", { cx: X(i).toFixed(1), cy: Y(x[key]).toFixed(1), r: 4.5, "class": "pt", "data-day": x.d, fill: "#fff", stroke: key === "revenue" ? "#4f46e5" : "#0d9488", "stroke-width": "2", tabindex: "0" });
      var label = x.dow + " " + x.d + " May · " + (key === "revenue" ? "Revenue " + money(x.revenue) + " · " + x.orders + " orders" : int(x.sessions) + " sessions");
      c.setAttribute("aria-label", label);
      function show() {
        svg.querySelectorAll(".pt").forEach(function (p) { p.classList.remove("on"); });
        c.classList.add("on");
        tip.textContent = label;
      }
      c.addEventListener("mouseenter", show);
      c.addEventListener("focus", show);
      svg.appendChild(c);
    });
    wrap.appendChild(svg);
  }

  function renderChannels() {
    var ses = sum(days(), "sessions");
    var ul = $("channels"); ul.innerHTML = "";
    CHANNELS.forEach(function (c, i) {
      var li = document.createElement("li");
      li.id = "channel-" + c[0].toLowerCase().replace(/\s+/g, "-");
      li.tabIndex = 0;
      li.setAttribute("aria-label", c[0] + " bar: " + Math.round(c[1] * 100) + "% of sessions");
      li.innerHTML = '<span class="bl">' + c[0] + '</span><span class="bb"><i style="width:' + (c[1] / 0.38 * 100).toFixed(0) + '%"></i></span><span class="bv">' + Math.round(c[1] * 100) + '%</span><span class="bn">' + int(Math.round(ses * c[1])) + ' sessions</span>';
      ul.appendChild(li);
    });
  }

  function renderTable() {
    var list = PRODUCTS.slice().sort(function (a, b) {
      var x = a[state.sort], y = b[state.sort];
      return (typeof x === "string" ? x.localeCompare(y) : x - y) * state.dir;
    });
    var pages = Math.ceil(list.length / PER);
    var start = (state.page - 1) * PER, rows = list.slice(start, start + PER);
    var tb = $("rows"); tb.innerHTML = "";
    rows.forEach(function (p, i) {
      var tr = document.createElement("tr");
      var cls = p.stock === "In stock" ? "ok" : p.stock === "Out of stock" ? "out" : "low";
      tr.innerHTML = '<td><span class="rank">' + (start + i + 1) + '</span>' + p.name + '</td><td>' + p.cat + '</td><td class="num">' + int(p.sessions) +
        '</td><td class="num">' + int(p.orders) + '</td><td class="num">' + (p.conv * 100).toFixed(1) + '%</td><td class="num strong">' + money(p.revenue) +
        '</td><td><span class="stock ' + cls + '"' + (cls === "low" ? ' tabindex="0" id="stock-' + p.name.toLowerCase().replace(/[^a-z0-9]+/g, "-") + '"' : '') + '>' + p.stock +
        (cls === "low" ? '<span class="stip" role="tooltip">Only 4 left · about 6 sold a day · reorder suggested</span>' : '') + '</span></td>';
      tb.appendChild(tr);
    });
    $("pager-text").textContent = "Showing " + (start + 1) + "–" + (start + rows.length) + " of " + list.length + " products";
    $("page-no").textContent = "Page " + state.page + " of " + pages;
    $("prev-page").disabled = state.page === 1;
    $("next-page").disabled = state.page === pages;
    document.querySelectorAll("th[aria-sort]").forEach(function (th) {
      var k = th.querySelector("button").getAttribute("data-key");
      th.setAttribute("aria-sort", k === state.sort ? (state.dir < 0 ? "descending" : "ascending") : "none");
    });
  }

  document.querySelectorAll("th button").forEach(function (b) {
    b.addEventListener("click", function () {
      var k = b.getAttribute("data-key");
      if (state.sort === k) state.dir = -state.dir; else { state.sort = k; state.dir = k === "name" ? 1 : -1; }
      state.page = 1; renderTable();
    });
  });
  $("prev-page").addEventListener("click", function () { state.page--; renderTable(); });
  $("next-page").addEventListener("click", function () { state.page++; renderTable(); });
  var tabs = ["revenue", "traffic", "funnel"];
  tabs.forEach(function (t) {
    $("tab-" + t).addEventListener("click", function () {
      state.tab = t;
      tabs.forEach(function (o) {
        $("tab-" + o).setAttribute("aria-selected", String(o === t));
        $("tab-" + o).tabIndex = o === t ? 0 : -1;
      });
      $("chart-panel").setAttribute("aria-labelledby", "tab-" + t);
      renderChart();
    });
  });
  $("range").addEventListener("change", function () { state.range = this.value; renderKpis(); renderChart(); renderChannels(); });
  renderKpis(); renderChart(); renderChannels(); renderTable();
})();
