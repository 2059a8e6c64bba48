/* Corvane Siskin configurator: a trim, a paint, wheels and options whose rules include or exclude
   each other; the car drawing, the specs, the price and a hire-purchase quote follow every choice. */
(function () {
  "use strict";
  var $ = function (id) { return document.getElementById(id); };
  var TRIMS = {
    core: { name: "Core", price: 31450, batt: 58, range: 390, acc: "8.1 s", power: 150, dc: 31, tow: false, std: [], blurb: "Rear motor, 58 kWh, heated mirrors, 12.3″ screen" },
    sport: { name: "Sport", price: 35900, batt: 77, range: 460, acc: "5.4 s", power: 250, dc: 28, tow: true, std: ["audio"], blurb: "Dual motor AWD, 77 kWh, Halden audio, sports seats" },
    touring: { name: "Touring", price: 38750, batt: 77, range: 505, acc: "7.0 s", power: 190, dc: 28, tow: true, std: ["heatpump"], blurb: "Long range, heat pump, 1,800 kg towing, ventilated seats" }
  };
  var PAINTS = [
    { id: "white", name: "Glacier White", price: 0, hex: "#eef1f3" },
    { id: "graphite", name: "Graphite", price: 650, hex: "#3b3f46" },
    { id: "fjord", name: "Fjord Blue", price: 650, hex: "#2d5f8a" },
    { id: "moss", name: "Moss Green", price: 650, hex: "#55694a" },
    { id: "ember", name: "Ember Red", price: 950, hex: "#b8322a", only: "sport" }
  ];
  var WHEELS = [
    { id: "aero", name: "18″ Aero", price: 0, factor: 1, r: 34 },
    { id: "vortex", name: "19″ Vortex", price: 900, factor: 0.96, r: 36 },
    { id: "blade", name: "20″ Blade", price: 1600, factor: 0.92, r: 38, only: "sport" }
  ];
  var OPTIONS = [
    { id: "heatpump", name: "Heat pump", price: 900, note: "Keeps more range below 5 °C" },
    { id: "winter", name: "Winter Pack", price: 650, note: "Heated front seats and steering wheel. Needs the heat pump", needs: "heatpump" },
    { id: "roof", name: "Panoramic glass roof", price: 1200, note: "Tinted, with a power blind", excludes: "bars" },
    { id: "bars", name: "Roof bars", price: 380, note: "75 kg load; about 2% less range", excludes: "roof" },
    { id: "tow", name: "Tow bar", price: 820, note: "Electrically folding", towing: true },
    { id: "assist", name: "Driver Assist Plus", price: 1450, note: "Adaptive cruise, lane centring, 360° cameras" },
    { id: "audio", name: "Halden audio, 12 speakers", price: 790, note: "Standard on Sport" }
  ];
  var FEES = 895, APR = 0.069;
  var st = { trim: "core", paint: "white", wheels: "aero", opts: [], deposit: 5000, term: 48, step: "trim" };

  function gbp(v) { return "£" + Math.round(v).toLocaleString("en-GB"); }
  function gbp2(v) { return "£" + v.toLocaleString("en-GB", { minimumFractionDigits: 2, maximumFractionDigits: 2 }); }
  function find(list, id) { return list.filter(function (x) { return x.id === id; })[0]; }
  function trim() { return TRIMS[st.trim]; }
  function std(id) { return trim().std.indexOf(id) >= 0; }
  function has(id) { return std(id) || st.opts.indexOf(id) >= 0; }
  function unavailable(o) { return o.towing && !trim().tow ? "Not available on Core: it is not rated to tow" : ""; }
  function notice(msgs) { var n = $("notice"); n.hidden = !msgs.length; n.textContent = msgs.join(" "); }

  function total() {
    var t = trim().price + find(PAINTS, st.paint).price + find(WHEELS, st.wheels).price + FEES;
    st.opts.forEach(function (id) { if (!std(id)) t += find(OPTIONS, id).price; });
    return t;
  }
  function range() { return Math.round(trim().range * find(WHEELS, st.wheels).factor * (has("bars") ? 0.98 : 1)); }
  function finance() {
    var T = total(), P = T - st.deposit, r = APR / 12, n = st.term;
    var m = P * r / (1 - Math.pow(1 + r, -n));
    m = Math.round(m * 100) / 100;
    return { cash: T, credit: P, monthly: m, payable: m * n + st.deposit, interest: m * n - P };
  }
  function depositError() {
    var T = total(), lo = Math.ceil(T * 0.1), hi = Math.floor(T * 0.5);
    if (!/^\d+$/.test(String(st.depositRaw))) return "Enter the deposit in whole pounds, like 6000.";
    if (st.deposit < lo) return "The smallest deposit on this car is " + gbp(lo) + " (10%).";
    if (st.deposit > hi) return "The largest deposit is " + gbp(hi) + " (50%). Pay cash for more.";
    return "";
  }

  function wheelSvg(w, cx, cy) {
    var s = '<circle cx="' + cx + '" cy="' + cy + '" r="' + (w.r + 10) + '" fill="#1d1f23"/><circle cx="' + cx + '" cy="' + cy + '" r="' + w.r + '" fill="#9aa3ad"/>';
    if (w.id === "aero") {
      s += '<circle cx="' + cx + '" cy="' + cy + '" r="' + (w.r - 4) + '" fill="#c6ccd3"/>';
      for (var i = 0; i < 5; i++) { var a = i * 72 * Math.PI / 180; s += '<circle cx="' + (cx + Math.cos(a) * w.r * 0.6) + '" cy="' + (cy + Math.sin(a) * w.r * 0.6) + '" r="5" fill="#5b636d"/>'; }
    } else {
      var n = w.id === "vortex" ? 10 : 5, width = w.id === "vortex" ? 3 : 8;
      for (var j = 0; j < n; j++) { var b = j * (360 / n) * Math.PI / 180; s += '<line x1="' + cx + '" y1="' + cy + '" x2="' + (cx + Math.cos(b) * (w.r - 2)) + '" y2="' + (cy + Math.sin(b) * (w.r - 2)) + '" stroke="#2b2f35" stroke-width="' + width + '"/>'; }
    }
    return s + '<circle cx="' + cx + '" cy="' + cy + '" r="7" fill="#2b2f35"/>';
  }
  function drawCar() {
    var p = find(PAINTS, st.paint), w = find(WHEELS, st.wheels);
    var svg = '<svg viewBox="0 0 640 260" width="640" height="260" role="img" aria-label="Siskin in ' + p.name + '">' +
      '<ellipse cx="320" cy="226" rx="270" ry="14" fill="rgba(0,0,0,.18)"/>' +
      '<path d="M62 186 L70 140 Q80 118 120 112 L196 104 Q236 64 300 58 L440 58 Q486 62 520 104 L572 116 Q598 124 600 150 L602 186 Z" fill="' + p.hex + '" stroke="rgba(0,0,0,.35)" stroke-width="2"/>' +
      '<path d="M214 106 Q246 74 300 70 L366 70 L366 106 Z" fill="#27303a"/><path d="M378 70 L438 70 Q470 74 500 106 L378 106 Z" fill="#27303a"/>' +
      '<path d="M70 150 L600 150" stroke="rgba(0,0,0,.15)" stroke-width="2"/><rect x="400" y="122" width="26" height="5" rx="2" fill="rgba(0,0,0,.35)"/><rect x="290" y="122" width="26" height="5" rx="2" fill="rgba(0,0,0,.35)"/>' +
      '<path d="M574 128 L600 134 L600 146 L578 142 Z" fill="#ffd7a8"/><path d="M64 146 L78 142 L78 156 L62 158 Z" fill="#d33"/>';
    if (has("roof")) svg += '<path d="M300 60 L440 60" stroke="#0f1720" stroke-width="6" stroke-linecap="round"/>';
    if (has("bars")) svg += '<rect x="270" y="44" width="200" height="6" rx="3" fill="#2b2f35"/><rect x="290" y="48" width="8" height="12" fill="#2b2f35"/><rect x="440" y="48" width="8" height="12" fill="#2b2f35"/>';
    if (has("tow")) svg += '<path d="M62 180 L40 180 Q32 180 32 172" stroke="#2b2f35" stroke-width="6" fill="none" stroke-linecap="round"/><circle cx="32" cy="168" r="6" fill="#2b2f35"/>';
    svg += wheelSvg(w, 160, 190) + wheelSvg(w, 500, 190) + "</svg>";
    $("car").innerHTML = svg;
  }

  function drawChart() {
    var svg = "", max = 540, hi = 120;
    WHEELS.forEach(function (w, i) {
      var v = Math.round(trim().range * w.factor * (has("bars") ? 0.98 : 1)), h = v / max * hi, x = 40 + i * 110;
      var off = w.only && w.only !== st.trim, on = w.id === st.wheels;
      svg += '<g class="bar" data-w="' + w.id + '" data-v="' + v + '"><rect x="' + x + '" y="' + (140 - h) + '" width="64" height="' + h + '" rx="4" fill="' + (off ? "#d9dde2" : on ? "#ff6a3d" : "#8d99a8") + '"/>' +
        '<text x="' + (x + 32) + '" y="158" text-anchor="middle" font-size="12" fill="#4b5563">' + w.name + "</text></g>";
    });
    svg += '<line x1="30" y1="140" x2="350" y2="140" stroke="#c3c9d1"/>';
    $("range-chart").innerHTML = svg;
  }

  function renderPanes() {
    $("pane-trim").innerHTML = Object.keys(TRIMS).map(function (k) {
      var t = TRIMS[k];
      return '<button type="button" class="choice' + (k === st.trim ? " on" : "") + '" data-trim="' + k + '"><span class="c-top"><strong>Siskin ' + t.name + "</strong><span>" + gbp(t.price) + "</span></span><span class=\"c-sub\">" + t.blurb + "</span></button>";
    }).join("");
    $("swatches").innerHTML = PAINTS.map(function (p) {
      var off = p.only && p.only !== st.trim;
      return '<span class="sw-wrap"><button type="button" class="sw' + (p.id === st.paint ? " on" : "") + '" data-paint="' + p.id + '" aria-label="' + p.name + '"' + (off ? " disabled" : "") + ">" +
        '<svg width="44" height="44" viewBox="0 0 44 44"><circle cx="22" cy="22" r="20" fill="' + p.hex + '" stroke="rgba(0,0,0,.2)"/><path d="M10 16a14 14 0 0 1 14-8" stroke="rgba(255,255,255,.5)" stroke-width="3" fill="none" stroke-linecap="round"/></svg></button>' +
        '<span class="tt">' + p.name + " · " + (p.price ? gbp(p.price) : "No charge") + (off ? " · Sport only" : "") + "</span></span>";
    }).join("");
    var cp = find(PAINTS, st.paint);
    $("sw-label").textContent = cp.name + " · " + (cp.price ? gbp(cp.price) : "No charge");
    $("pane-wheels").innerHTML = WHEELS.map(function (w) {
      var off = w.only && w.only !== st.trim;
      return '<button type="button" class="choice wheel' + (w.id === st.wheels ? " on" : "") + '" data-wheel="' + w.id + '"' + (off ? " disabled" : "") + '><svg width="54" height="54" viewBox="0 0 100 100">' + wheelSvg(w, 50, 50) + '</svg><span><strong>' + w.name + "</strong><span class=\"c-sub\">" +
        (off ? "Sport only" : (w.factor < 1 ? Math.round((1 - w.factor) * 100) + "% less range" : "Best range")) + "</span></span><span class=\"w-price\">" + (w.price ? "+" + gbp(w.price) : "Included") + "</span></button>";
    }).join("");
    $("pane-options").innerHTML = OPTIONS.map(function (o) {
      var why = unavailable(o), s = std(o.id), on = has(o.id);
      return '<label class="opt' + (on ? " on" : "") + (why ? " off" : "") + '"><input type="checkbox" data-opt="' + o.id + '"' + (on ? " checked" : "") + (s || why ? " disabled" : "") + '><span class="o-main"><strong>' + o.name + '</strong><span class="c-sub">' + (why || o.note) + '</span></span><span class="o-price">' + (s ? "Included" : "+" + gbp(o.price)) + "</span></label>";
    }).join("");
  }

  function renderSummary() {
    var t = trim(), p = find(PAINTS, st.paint), w = find(WHEELS, st.wheels), rows = [];
    rows.push(["Siskin " + t.name, gbp(t.price)]);
    rows.push(["Paint: " + p.name, p.price ? gbp(p.price) : "£0"]);
    rows.push(["Wheels: " + w.name, w.price ? gbp(w.price) : "£0"]);
    OPTIONS.forEach(function (o) { if (has(o.id)) rows.push([o.name, std(o.id) ? "Included" : gbp(o.price)]); });
    rows.push(["Delivery and number plates", gbp(FEES)]);
    $("breakdown").innerHTML = rows.map(function (r) { return "<div><dt>" + r[0] + "</dt><dd>" + r[1] + "</dd></div>"; }).join("");
    $("total").textContent = gbp(total());
    var err = depositError(), f = finance();
    $("dep-err").textContent = err;
    $("deposit").classList.toggle("bad", !!err);
    $("monthly-label").textContent = "or " + st.term + " months at";
    $("monthly").textContent = err ? "—" : gbp2(f.monthly);
    $("fin-t").innerHTML = err ? "" : [["Cash price", gbp(f.cash)], ["Deposit", gbp(st.deposit)], ["Amount of credit", gbp(f.credit)], ["Interest", gbp2(f.interest)],
      ["Total amount payable", gbp2(f.payable)], [st.term + " monthly payments of", gbp2(f.monthly)]].map(function (r) { return "<tr><th>" + r[0] + "</th><td>" + r[1] + "</td></tr>"; }).join("");
  }

  function render() {
    var t = trim();
    $("car-name").textContent = "Siskin " + t.name;
    $("paint-name").textContent = find(PAINTS, st.paint).name + " · " + find(WHEELS, st.wheels).name;
    $("sp-range").textContent = range() + " km";
    $("sp-acc").textContent = t.acc;
    $("sp-power").textContent = t.power + " kW";
    $("sp-batt").textContent = t.batt + " kWh";
    $("sp-dc").textContent = t.dc + " min";
    drawCar(); drawChart(); renderPanes(); renderSummary();
  }

  function setStep(s) {
    st.step = s;
    document.querySelectorAll(".step").forEach(function (b) { b.classList.toggle("on", b.dataset.step === s); b.setAttribute("aria-selected", b.dataset.step === s ? "true" : "false"); });
    ["trim", "paint", "wheels", "options", "finance"].forEach(function (k) { $("pane-" + k).hidden = k !== s; });
  }
  document.querySelectorAll(".step").forEach(function (b) { b.addEventListener("click", function () { setStep(b.dataset.step); }); });

  document.querySelector(".cfg").addEventListener("click", function (e) {
    var b = e.target.closest("button[data-trim], button[data-paint], button[data-wheel]");
    if (!b || b.disabled) return;
    var msgs = [];
    if (b.dataset.trim) {
      st.trim = b.dataset.trim;
      var p = find(PAINTS, st.paint), w = find(WHEELS, st.wheels);
      if (p.only && p.only !== st.trim) { msgs.push(p.name + " is Sport only: paint changed to Glacier White."); st.paint = "white"; }
      if (w.only && w.only !== st.trim) { msgs.push(w.name + " wheels are Sport only: changed to 18″ Aero."); st.wheels = "aero"; }
      if (!trim().tow && st.opts.indexOf("tow") >= 0) { msgs.push("Tow bar removed: the Core is not rated to tow."); st.opts.splice(st.opts.indexOf("tow"), 1); }
      st.opts.slice().forEach(function (id) { if (std(id)) { msgs.push(find(OPTIONS, id).name + " is standard on " + trim().name + "."); st.opts.splice(st.opts.indexOf(id), 1); } });
    }
    if (b.dataset.paint) st.paint = b.dataset.paint;
    if (b.dataset.wheel) st.wheels = b.dataset.wheel;
    notice(msgs); render();
  });
  document.querySelector(".cfg").addEventListener("change", function (e) {
    var id = e.target.dataset.opt;
    if (!id) return;
    var o = find(OPTIONS, id), msgs = [];
    if (e.target.checked) {
      st.opts.push(id);
      if (o.needs && !has(o.needs)) { st.opts.push(o.needs); msgs.push(find(OPTIONS, o.needs).name + " added: the " + o.name + " needs it."); }
      if (o.excludes && st.opts.indexOf(o.excludes) >= 0) { st.opts.splice(st.opts.indexOf(o.excludes), 1); msgs.push(find(OPTIONS, o.excludes).name + " removed: it cannot be combined with the " + o.name.toLowerCase() + "."); }
    } else {
      st.opts.splice(st.opts.indexOf(id), 1);
      OPTIONS.forEach(function (d) { if (d.needs === id && st.opts.indexOf(d.id) >= 0) { st.opts.splice(st.opts.indexOf(d.id), 1); msgs.push(d.name + " removed: it needs the " + o.name.toLowerCase() + "."); } });
    }
    notice(msgs); render();
  });
  $("deposit").addEventListener("input", function () {
    st.depositRaw = this.value.trim().replace(/,/g, "");
    st.deposit = Number(st.depositRaw) || 0; renderSummary();
  });
  $("term").addEventListener("change", function () { st.term = Number(this.value); renderSummary(); });
  $("range-chart").addEventListener("mouseover", function (e) {
    var g = e.target.closest(".bar"); if (!g) return;
    var w = find(WHEELS, g.dataset.w), off = w.only && w.only !== st.trim;
    $("chart-note").textContent = w.name + " on Siskin " + trim().name + ": " + (off ? "Sport only" : g.dataset.v + " km");
  });
  document.addEventListener("keydown", function (e) {
    if (/INPUT|SELECT|TEXTAREA/.test(document.activeElement.tagName)) return;
    var k = ["trim", "paint", "wheels", "options", "finance"][Number(e.key) - 1];
    if (k) setStep(k);
  });
  st.depositRaw = "5000";
  render();
})();
