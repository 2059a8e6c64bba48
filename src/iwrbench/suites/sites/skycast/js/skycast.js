/* Skycast's page: the current conditions, an hourly canvas chart (temperature, rain or wind) with a
   readout for the hour under the pointer, a 7-day list whose rows pick the day the chart and the
   details show, a city search with keyboard suggestions, saved places and a °C/°F switch. On a phone
   the sections are split across a bottom tab bar. Times are the city's local time. */
(function () {
  "use strict";
  var $ = function (id) { return document.getElementById(id); };
  var S = window.Skycast;
  var DAYS = ["Sunday", "Monday", "Tuesday", "Wednesday", "Thursday", "Friday", "Saturday"];
  var MONTHS = ["Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"];
  var st = { city: null, week: null, unit: "c", day: 0, tab: "temp", places: ["edinburgh", "porto", "kyoto"], active: -1, matches: [], mtab: "today" };

  function city(slug) { return S.CITIES.filter(function (c) { return c.slug === slug; })[0]; }
  function pad(n) { return (n < 10 ? "0" : "") + n; }
  function hm(x) { var h = Math.floor(x), m = Math.round((x - h) * 60); if (m === 60) { h++; m = 0; } return pad(h) + ":" + pad(m); }
  function local(c) { return new Date(Date.now() + c.tz * 3600e3); }
  function dayDate(k) { return new Date(local(st.city).getTime() + k * 864e5); }
  function t(c) { return Math.round(st.unit === "c" ? c : c * 9 / 5 + 32) + "°"; }
  function speed(k) { return st.unit === "c" ? k + " km/h" : Math.round(k * 0.621) + " mph"; }
  function norm(s) { return s.toLowerCase().normalize("NFD").replace(/[\u0300-\u036f]/g, ""); }

  var ICONS = {
    sun: '<circle cx="24" cy="24" r="9" fill="#facc15"/><g stroke="#f59e0b" stroke-width="3" stroke-linecap="round"><path d="M24 5v5M24 38v5M5 24h5M38 24h5M10.6 10.6l3.5 3.5M33.9 33.9l3.5 3.5M10.6 37.4l3.5-3.5M33.9 14.1l3.5-3.5"/></g>',
    moon: '<path d="M30 8a16 16 0 1 0 10 24A13 13 0 0 1 30 8z" fill="#c7d2fe"/>',
    cloud: '<path d="M14 36a8 8 0 0 1 1-16 11 11 0 0 1 21 3 7 7 0 0 1-1 13z" fill="#cbd5e1"/>',
    cloudDark: '<path d="M14 32a8 8 0 0 1 1-16 11 11 0 0 1 21 3 7 7 0 0 1-1 13z" fill="#94a3b8"/>',
    drops: '<g stroke="#3b82f6" stroke-width="3" stroke-linecap="round"><path d="M17 37l-2 5M25 37l-2 5M33 37l-2 5"/></g>',
    flakes: '<g fill="#93c5fd"><circle cx="17" cy="40" r="2.2"/><circle cx="25" cy="42" r="2.2"/><circle cx="33" cy="40" r="2.2"/></g>'
  };
  function icon(cond, day, size) {
    var body = cond === "clear" ? (day ? ICONS.sun : ICONS.moon)
      : cond === "partly" ? '<g transform="translate(-6 -6) scale(.8)">' + (day ? ICONS.sun : ICONS.moon) + "</g>" + ICONS.cloud
      : cond === "cloudy" ? ICONS.cloud
      : cond === "snow" ? ICONS.cloudDark + ICONS.flakes
      : ICONS.cloudDark + ICONS.drops;
    return '<svg viewBox="0 0 48 48" width="' + size + '" height="' + size + '" aria-hidden="true">' + body + "</svg>";
  }

  function load(slug) {
    var c = city(slug), now = local(c);
    var midnight = Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), now.getUTCDate());
    var doy = Math.floor((midnight - Date.UTC(now.getUTCFullYear(), 0, 0)) / 864e5);
    st.city = c;
    st.week = S.week(c, midnight, doy);
    st.day = 0;
    render();
  }

  function nowHour() { return local(st.city).getUTCHours(); }
  function dayName(k) { var d = dayDate(k); return k === 0 ? "Today" : DAYS[d.getUTCDay()].slice(0, 3); }

  function render() { renderNow(); renderChart(); renderHours(); renderDays(); renderDetails(); renderPlaces(); renderUnits(); }

  function renderNow() {
    var c = st.city, d = local(c), x = st.week[0].hours[nowHour()], cond = S.condition(x);
    $("city").textContent = c.name;
    $("local").textContent = c.country + " · " + DAYS[d.getUTCDay()].slice(0, 3) + " " + d.getUTCDate() + " " + MONTHS[d.getUTCMonth()] + ", " + pad(d.getUTCHours()) + ":" + pad(d.getUTCMinutes()) + " local time";
    $("now-icon").innerHTML = icon(cond, x.day, 76);
    $("now-temp").textContent = t(x.temp);
    $("now-cond").textContent = S.LABELS[cond];
    $("now-feels").textContent = "Feels like " + t(x.feels) + " · wind " + speed(x.wind) + " " + x.dir;
    $("now-hilo").textContent = "High " + t(st.week[0].hi) + " · Low " + t(st.week[0].lo);
    var saved = st.places.indexOf(c.slug) >= 0;
    $("star").setAttribute("aria-pressed", String(saved));
    $("star-label").textContent = saved ? "Saved" : "Save place";
    var warn = null;
    st.week.forEach(function (w, k) { if (!warn && w.gust >= 55) warn = "Wind warning for " + (k === 0 ? "today" : DAYS[dayDate(k).getUTCDay()]) + ": gusts up to " + speed(w.gust) + "."; });
    $("alert").hidden = !warn;
    $("alert").textContent = warn || "";
  }

  function series() {
    var hs = st.week[st.day].hours;
    if (st.tab === "temp") return hs.map(function (x) { return st.unit === "c" ? x.temp : x.temp * 9 / 5 + 32; });
    if (st.tab === "rain") return hs.map(function (x) { return x.rain; });
    return hs.map(function (x) { return st.unit === "c" ? x.wind : x.wind * 0.621; });
  }

  function renderChart() {
    var box = $("chart-box"), cv = $("chart"), W = box.clientWidth || 700, H = 200, dpr = window.devicePixelRatio || 1;
    cv.width = W * dpr; cv.height = H * dpr; cv.style.width = W + "px"; cv.style.height = H + "px";
    var g = cv.getContext("2d");
    g.setTransform(dpr, 0, 0, dpr, 0, 0);
    g.clearRect(0, 0, W, H);
    var vals = series(), top = 22, bottom = H - 26, step = W / 24;
    var lo = Math.min.apply(null, vals), hi = Math.max.apply(null, vals);
    if (st.tab === "rain") { lo = 0; hi = 100; } else { lo = Math.floor(lo - 2); hi = Math.ceil(hi + 2); }
    var y = function (v) { return bottom - (v - lo) / (hi - lo || 1) * (bottom - top); };
    g.strokeStyle = "#e2e8f0"; g.lineWidth = 1;
    for (var k = 0; k <= 4; k++) { var yy = top + k * (bottom - top) / 4; g.beginPath(); g.moveTo(0, yy); g.lineTo(W, yy); g.stroke(); }
    g.fillStyle = "#64748b"; g.font = "11px Liberation Sans, Arial, sans-serif"; g.textAlign = "center";
    for (var h = 0; h < 24; h += 3) { g.textAlign = h ? "center" : "left"; g.fillText(pad(h) + ":00", h ? step * h + step / 2 : 1, H - 8); }
    g.textAlign = "center";
    var hs = st.week[st.day].hours;
    if (st.tab === "rain") {
      hs.forEach(function (x, i) {
        g.fillStyle = x.rain >= 60 ? "#2563eb" : "#93c5fd";
        g.fillRect(step * i + 3, y(x.rain), step - 6, bottom - y(x.rain));
        if (i % 3 === 0) { g.fillStyle = "#1e3a8a"; g.fillText(x.rain + "%", step * i + step / 2, y(x.rain) - 5); }
      });
    } else {
      var grad = g.createLinearGradient(0, top, 0, bottom);
      grad.addColorStop(0, st.tab === "temp" ? "rgba(249,115,22,.35)" : "rgba(20,184,166,.3)");
      grad.addColorStop(1, "rgba(255,255,255,0)");
      g.beginPath();
      vals.forEach(function (v, i) { var px = step * i + step / 2; if (i) g.lineTo(px, y(v)); else g.moveTo(px, y(v)); });
      g.lineTo(step * 23 + step / 2, bottom); g.lineTo(step / 2, bottom); g.closePath();
      g.fillStyle = grad; g.fill();
      g.beginPath();
      vals.forEach(function (v, i) { var px = step * i + step / 2; if (i) g.lineTo(px, y(v)); else g.moveTo(px, y(v)); });
      g.strokeStyle = st.tab === "temp" ? "#f97316" : "#14b8a6"; g.lineWidth = 2.5; g.stroke();
      g.fillStyle = "#0f172a";
      vals.forEach(function (v, i) { if (i % 3 === 0) g.fillText(Math.round(v) + (st.tab === "temp" ? "°" : ""), step * i + step / 2, y(v) - 8); });
    }
    if (st.day === 0) {
      var nx = step * nowHour() + step / 2;
      g.strokeStyle = "#6366f1"; g.setLineDash([4, 4]); g.beginPath(); g.moveTo(nx, top - 8); g.lineTo(nx, bottom); g.stroke(); g.setLineDash([]);
      g.fillStyle = "#6366f1"; g.fillText("Now", nx, top - 10);
    }
    var hits = $("hits");
    if (hits.children.length !== 24) {
      hits.innerHTML = "";
      for (var i = 0; i < 24; i++) { var d = document.createElement("div"); d.className = "hit"; d.id = "h-" + i; d.dataset.h = i; hits.appendChild(d); }
    }
    var names = { temp: "Temperature", rain: "Rain", wind: "Wind" };
    $("chart-title").textContent = (st.day === 0 ? "Today" : DAYS[dayDate(st.day).getUTCDay()]) + ", hour by hour · " + names[st.tab];
    ["temp", "rain", "wind"].forEach(function (k) { $("ctab-" + k).setAttribute("aria-selected", String(k === st.tab)); });
    readout(null);
  }

  function readout(h) {
    var hour = h === null ? (st.day === 0 ? nowHour() : 12) : h, x = st.week[st.day].hours[hour];
    var label = h === null && st.day === 0 ? "Now" : pad(hour) + ":00";
    $("readout").innerHTML = "<b>" + label + "</b> · " + t(x.temp) + " · " + S.LABELS[S.condition(x)].toLowerCase() + " · " + x.rain + "% chance of rain" + (x.mm ? " (" + x.mm + " mm)" : "") + " · wind " + speed(x.wind) + " " + x.dir;
    document.querySelectorAll(".hit").forEach(function (el) { el.classList.toggle("on", +el.dataset.h === h); });
  }

  function renderHours() {
    var start = nowHour(), rows = [];
    for (var k = 0; k < 12; k++) {
      var d = Math.floor((start + k) / 24), h = (start + k) % 24, x = st.week[d].hours[h];
      rows.push('<li><span class="hh">' + (k === 0 ? "Now" : pad(h) + ":00") + "</span>" + icon(S.condition(x), x.day, 26) + '<span class="ht">' + t(x.temp) + '</span><span class="hr">' + x.rain + '%</span><span class="hw">' + speed(x.wind) + " " + x.dir + "</span></li>");
    }
    $("hourlist").innerHTML = rows.join("");
  }

  function renderDays() {
    var all = st.week.map(function (w) { return [w.lo, w.hi]; }), min = Math.min.apply(null, all.map(function (a) { return a[0]; })), max = Math.max.apply(null, all.map(function (a) { return a[1]; }));
    $("daylist").innerHTML = st.week.map(function (w, k) {
      var d = dayDate(k), noon = w.hours[13], cond = S.condition(noon);
      var left = (w.lo - min) / (max - min) * 100, width = (w.hi - w.lo) / (max - min) * 100;
      return '<li><button type="button" class="day' + (k === st.day ? " on" : "") + '" id="day-' + k + '" aria-pressed="' + (k === st.day) + '">' +
        '<span class="dn">' + dayName(k) + '<small>' + d.getUTCDate() + " " + MONTHS[d.getUTCMonth()] + "</small></span>" + icon(cond, true, 30) +
        '<span class="rp">' + (w.rain >= 30 ? w.rain + "%" : "") + "</span>" + '<span class="lo">' + t(w.lo) + '</span><span class="range"><i style="left:' + left.toFixed(1) + "%;width:" + Math.max(4, width).toFixed(1) + '%"></i></span><span class="hi">' + t(w.hi) + "</span></button></li>";
    }).join("");
  }

  function renderDetails() {
    var w = st.week[st.day], noon = w.hours[13];
    $("det-day").textContent = st.day === 0 ? "today" : DAYS[dayDate(st.day).getUTCDay()];
    $("uv").textContent = w.uv;
    $("uv-dot").setAttribute("cx", Math.min(96, Math.max(4, w.uv / 11 * 100)).toFixed(0));
    var uvWord = w.uv <= 2 ? "low" : w.uv <= 5 ? "moderate" : w.uv <= 7 ? "high" : "very high";
    $("uv-tip").textContent = "UV " + w.uv + " is " + uvWord + (w.uv >= 3 ? ": wear sunscreen between " + hm(Math.max(w.rise + 3, 10)) + " and " + hm(Math.min(w.set - 3, 16)) + "." : ": no protection needed.");
    $("hum").textContent = noon.humidity + "%";
    $("dew").textContent = "Dew point " + t(noon.temp - (100 - noon.humidity) / 5);
    var maxWind = Math.max.apply(null, w.hours.map(function (x) { return x.wind; }));
    $("wind").textContent = speed(maxWind);
    $("gust").textContent = "Gusts up to " + speed(w.gust);
    $("press").textContent = w.pressure + " hPa";
    $("press-note").textContent = w.pressure >= 1016 ? "High, settled" : w.pressure <= 1005 ? "Low, unsettled" : "Steady";
    $("rise").textContent = "Sunrise " + hm(w.rise);
    $("set").textContent = "Sunset " + hm(w.set);
    var len = w.set - w.rise;
    $("daylen").textContent = Math.floor(len) + " h " + Math.round((len % 1) * 60) + " min of daylight";
    var at = st.day === 0 ? local(st.city).getUTCHours() + local(st.city).getUTCMinutes() / 60 : (w.rise + w.set) / 2;
    var f = Math.max(0, Math.min(1, (at - w.rise) / len)), a = Math.PI * (1 - f);
    $("sun-dot").setAttribute("cx", (110 + 100 * Math.cos(a)).toFixed(1));
    $("sun-dot").setAttribute("cy", (80 - 70 * Math.sin(a)).toFixed(1));
    $("aqi").textContent = w.aqi;
    $("aqi-note").textContent = w.aqi <= 25 ? "Good" : w.aqi <= 50 ? "Fair" : "Moderate";
  }

  function renderPlaces() {
    $("places").innerHTML = st.places.map(function (slug) {
      var c = city(slug), now = new Date(Date.now() + c.tz * 3600e3), mid = Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), now.getUTCDate());
      var doy = Math.floor((mid - Date.UTC(now.getUTCFullYear(), 0, 0)) / 864e5), x = S.week(c, mid, doy)[0].hours[now.getUTCHours()];
      return '<button type="button" class="place' + (st.city && st.city.slug === slug ? " on" : "") + '" id="place-' + slug + '">' + icon(S.condition(x), x.day, 20) + c.name + " <b>" + t(x.temp) + "</b></button>";
    }).join("");
  }
  function renderUnits() {
    $("unit-c").setAttribute("aria-pressed", String(st.unit === "c"));
    $("unit-f").setAttribute("aria-pressed", String(st.unit === "f"));
  }

  // ---- search
  function suggest() {
    var q = norm($("search").value.trim()), ul = $("suggest");
    st.matches = !q ? [] : S.CITIES.filter(function (c) {
      return norm(c.name).split(/\s+/).concat([norm(c.name)]).some(function (w) { return w.indexOf(q) === 0; });
    }).sort(function (a, b) { return a.name.localeCompare(b.name); }).slice(0, 6);
    st.active = st.matches.length ? 0 : -1;
    drawSuggest();
  }
  function drawSuggest() {
    var ul = $("suggest"), q = $("search").value.trim();
    if (!q) { ul.hidden = true; $("search-box").setAttribute("aria-expanded", "false"); return; }
    ul.innerHTML = st.matches.length ? st.matches.map(function (c, i) {
      return '<li role="option" id="opt-' + c.slug + '" data-slug="' + c.slug + '" aria-selected="' + (i === st.active) + '"><b>' + c.name + "</b> <span>" + c.country + "</span></li>";
    }).join("") : '<li class="empty">No city called “' + q.replace(/[<>&]/g, "") + "”. Try another spelling.</li>";
    ul.hidden = false;
    $("search-box").setAttribute("aria-expanded", "true");
  }
  function choose(slug) {
    $("search").value = "";
    $("suggest").hidden = true;
    $("search-box").setAttribute("aria-expanded", "false");
    load(slug);
  }

  function toast(text) { var el = $("toast"); el.textContent = text; el.hidden = false; }
  document.addEventListener("click", function () { $("toast").hidden = true; }, true);

  function setMTab(tab) {
    st.mtab = tab;
    document.body.className = "tab-" + tab;
    ["today", "week", "details"].forEach(function (k) { $("mtab-" + k).setAttribute("aria-pressed", String(k === tab)); });
    window.scrollTo(0, 0);
    renderChart();
  }

  $("search").addEventListener("input", suggest);
  $("search").addEventListener("keydown", function (e) {
    if ($("suggest").hidden) return;
    if (e.key === "ArrowDown" || e.key === "ArrowUp") {
      e.preventDefault();
      if (!st.matches.length) return;
      st.active = (st.active + (e.key === "ArrowDown" ? 1 : -1) + st.matches.length) % st.matches.length;
      drawSuggest();
    } else if (e.key === "Enter") {
      e.preventDefault();
      if (st.active >= 0) choose(st.matches[st.active].slug);
    } else if (e.key === "Escape") {
      $("suggest").hidden = true;
    }
  });
  $("suggest").addEventListener("mousedown", function (e) {
    var li = e.target.closest("li[data-slug]");
    if (li) { e.preventDefault(); choose(li.dataset.slug); }
  });
  $("unit-c").addEventListener("click", function () { st.unit = "c"; render(); });
  $("unit-f").addEventListener("click", function () { st.unit = "f"; render(); });
  $("ctab-temp").addEventListener("click", function () { st.tab = "temp"; renderChart(); });
  $("ctab-rain").addEventListener("click", function () { st.tab = "rain"; renderChart(); });
  $("ctab-wind").addEventListener("click", function () { st.tab = "wind"; renderChart(); });
  $("hits").addEventListener("mouseover", function (e) { var el = e.target.closest(".hit"); if (el) readout(+el.dataset.h); });
  $("hits").addEventListener("click", function (e) { var el = e.target.closest(".hit"); if (el) readout(+el.dataset.h); });
  $("chart-box").addEventListener("mouseleave", function () { readout(null); });
  $("daylist").addEventListener("click", function (e) {
    var b = e.target.closest(".day");
    if (!b) return;
    st.day = +b.id.replace("day-", "");
    renderChart(); renderDays(); renderDetails();
  });
  $("star").addEventListener("click", function () {
    var i = st.places.indexOf(st.city.slug);
    if (i >= 0) { st.places.splice(i, 1); toast(st.city.name + " removed from your places."); }
    else { st.places.push(st.city.slug); toast(st.city.name + " saved to your places."); }
    renderNow(); renderPlaces();
  });
  $("places").addEventListener("click", function (e) { var b = e.target.closest(".place"); if (b) load(b.id.replace("place-", "")); });
  ["today", "week", "details"].forEach(function (k) { $("mtab-" + k).addEventListener("click", function () { setMTab(k); }); });
  window.addEventListener("resize", renderChart);

  document.body.className = "tab-today";
  load("edinburgh");
})();
