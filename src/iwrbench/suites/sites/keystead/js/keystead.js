/* Keystead page: the search view (filters, sorted cards, price pins on the map) and a home's view
   (photos, facts, mortgage estimate, commute, neighbourhood, viewing request), switched by the URL
   hash. House pictures are drawn here as SVG from each home's facts. */
(function () {
  "use strict";
  var KS = window.KS, M = window.KSMap;
  var $ = function (id) { return document.getElementById(id); };
  var state = { q: "", min: 0, max: 0, beds: 0, types: ["House", "Flat", "Townhouse"], garden: false, sort: "new" };
  var saved = {}, current = null, photoAt = 0, commute = { dest: "station", mode: "walk" }, day = null;
  var PHOTOS = ["Front", "Living room", "Kitchen", "Garden"];

  function eur(n) { return "€" + Math.round(n).toLocaleString("en-GB"); }
  function byId(id) { return KS.homes.filter(function (h) { return h.id === id; })[0]; }
  function hash(s) { var x = 7; for (var i = 0; i < s.length; i++) x = (x * 31 + s.charCodeAt(i)) % 9973; return x; }
  function esc(s) { return String(s).replace(/&/g, "&amp;").replace(/</g, "&lt;").replace(/"/g, "&quot;"); }

  // ------------------------------------------------------------------ pictures
  var WALLS = ["#e9d8c4", "#c9d6df", "#e4c7b7", "#d8e2c8", "#f0e2b6", "#cfc6de"], ROOFS = ["#6b3f2a", "#3d4a5c", "#7a4b3a", "#4f5d3a"];
  function picture(h, v) {
    var k = hash(h.id), wall = WALLS[k % WALLS.length], roof = ROOFS[k % ROOFS.length], s = "";
    if (v === 0) {
      s += '<rect x="-400" y="-100" width="1120" height="400" fill="#cfe3ef"/><circle cx="' + (60 + k % 200) + '" cy="38" r="16" fill="#fff6d8"/><rect x="-400" y="168" width="1120" height="132" fill="#9cbf86"/>';
      if (h.type === "Flat") {
        s += '<rect x="70" y="30" width="180" height="140" fill="' + wall + '"/><rect x="64" y="24" width="192" height="10" fill="' + roof + '"/>';
        for (var r = 0; r < 4; r++) for (var c = 0; c < 5; c++) s += '<rect x="' + (84 + c * 33) + '" y="' + (44 + r * 30) + '" width="20" height="18" fill="#5d7891"/>';
        s += '<rect x="148" y="148" width="24" height="22" fill="' + roof + '"/>';
      } else {
        var w = h.type === "Townhouse" ? 120 : 170, x = 160 - w / 2, top = h.type === "Townhouse" ? 52 : 80;
        s += '<rect x="' + x + '" y="' + top + '" width="' + w + '" height="' + (170 - top) + '" fill="' + wall + '"/>';
        s += '<path d="M' + (x - 10) + ',' + top + ' L160,' + (top - 44) + ' L' + (x + w + 10) + ',' + top + ' Z" fill="' + roof + '"/>';
        var n = Math.min(h.beds, 4);
        for (var i = 0; i < n; i++) s += '<rect x="' + (x + 14 + i * ((w - 28) / n)) + '" y="' + (top + 14) + '" width="' + ((w - 28) / n - 10) + '" height="24" fill="#5d7891" stroke="#fff" stroke-width="3"/>';
        s += '<rect x="' + (x + 16) + '" y="' + (top + 56) + '" width="34" height="28" fill="#5d7891" stroke="#fff" stroke-width="3"/>';
        s += '<rect x="' + (x + w - 46) + '" y="' + (top + 50) + '" width="26" height="' + (120 - top) + '" fill="' + roof + '"/>';
        s += '<rect x="' + (x + w - 24) + '" y="' + (top - 40) + '" width="12" height="26" fill="' + roof + '"/>';
      }
      if (h.garden) s += '<ellipse cx="40" cy="168" rx="34" ry="20" fill="#5f8f4e"/><ellipse cx="284" cy="170" rx="30" ry="18" fill="#6b9b58"/>';
    } else if (v === 1) {
      s += '<rect x="-400" y="-100" width="1120" height="400" fill="' + wall + '"/><rect x="-400" y="150" width="1120" height="150" fill="#b08a63"/><rect x="190" y="36" width="90" height="80" fill="#dcebf5" stroke="#fff" stroke-width="6"/>';
      s += '<rect x="30" y="110" width="140" height="48" rx="10" fill="' + roof + '"/><rect x="40" y="92" width="120" height="30" rx="8" fill="' + roof + '" opacity=".85"/>';
      s += '<rect x="220" y="128" width="52" height="30" fill="#8c6a4a"/><path d="M246,40 v40" stroke="#333" stroke-width="2"/><path d="M232,80 h28 l-6,14 h-16z" fill="#f3d27a"/>';
    } else if (v === 2) {
      s += '<rect x="-400" y="-100" width="1120" height="400" fill="#f4f1ea"/><rect x="-400" y="120" width="1120" height="180" fill="' + roof + '" opacity=".9"/><rect x="-400" y="112" width="1120" height="10" fill="#e3ded3"/>';
      for (var j = 0; j < 5; j++) s += '<rect x="' + (14 + j * 60) + '" y="24" width="52" height="56" fill="' + wall + '" stroke="#d6cfc2"/>';
      s += '<rect x="120" y="92" width="60" height="20" fill="#9aa3a8"/><circle cx="250" cy="100" r="10" fill="#d5573b"/>';
    } else {
      s += '<rect x="-400" y="-100" width="1120" height="400" fill="#d7ecf5"/><rect x="-400" y="110" width="1120" height="190" fill="' + (h.garden ? "#8fbf73" : "#b9cfd9") + '"/>';
      s += h.garden ? '<ellipse cx="70" cy="110" rx="50" ry="36" fill="#5f8f4e"/><rect x="200" y="120" width="70" height="6" fill="#8c6a4a"/><rect x="206" y="126" width="4" height="22" fill="#8c6a4a"/><rect x="260" y="126" width="4" height="22" fill="#8c6a4a"/>'
        : '<rect x="20" y="60" width="60" height="50" fill="#9aa8b8"/><rect x="90" y="40" width="50" height="70" fill="#8595a8"/><rect x="220" y="70" width="80" height="40" fill="#9aa8b8"/>';
    }
    return '<svg viewBox="0 0 320 200" preserveAspectRatio="xMidYMid meet" aria-hidden="true">' + s + "</svg>";
  }

  // ------------------------------------------------------------------ search view
  function matches(h) {
    var q = state.q.trim().toLowerCase();
    if (q && (h.address + " " + h.area + " " + h.title).toLowerCase().indexOf(q) < 0) return false;
    if (state.min && h.price < state.min) return false;
    if (state.max && h.price > state.max) return false;
    if (h.beds < state.beds) return false;
    if (state.types.indexOf(h.type) < 0) return false;
    if (state.garden && !h.garden) return false;
    return true;
  }
  function results() {
    var list = KS.homes.filter(matches), key = {
      "new": function (a, b) { return a.days - b.days; },
      low: function (a, b) { return a.price - b.price; },
      high: function (a, b) { return b.price - a.price; },
      size: function (a, b) { return b.m2 - a.m2; }
    }[state.sort];
    return list.sort(function (a, b) { return key(a, b) || (a.id < b.id ? -1 : 1); });
  }
  var cardEls = {};
  function buildCards() {
    KS.homes.forEach(function (h) {
      var a = document.createElement("article");
      a.className = "card home-card" + (h.days <= 3 ? " new" : "");
      a.dataset.id = h.id;
      a.innerHTML = '<a class="pic" href="#/home/' + h.id + '" aria-label="' + esc(h.title) + '">' + picture(h, 0) + '</a>' +
        '<button type="button" class="heart" aria-pressed="false" aria-label="Save ' + esc(h.title) + '"><svg viewBox="0 0 20 20" width="18" height="18" aria-hidden="true"><path d="M10 17s-6-3.8-6-8.2A3.3 3.3 0 0 1 10 6.6a3.3 3.3 0 0 1 6 2.2C16 13.2 10 17 10 17Z"/></svg></button>' +
        '<div class="body"><p class="c-price">' + eur(h.price) + '</p><h2><a href="#/home/' + h.id + '">' + esc(h.title) + '</a></h2>' +
        '<p class="c-addr">' + esc(h.address) + ", " + h.area + '</p>' +
        '<p class="c-meta"><span>' + h.beds + ' bed</span><span>' + h.baths + ' bath</span><span>' + h.m2 + ' m²</span><span class="epc epc-' + h.epc + '">EPC ' + h.epc + '</span></p></div>';
      a.addEventListener("mouseenter", function () { focusPin(h.id, true); });
      a.addEventListener("mouseleave", function () { focusPin(h.id, false); });
      a.querySelector(".heart").addEventListener("click", function () { toggleSave(h.id); });
      cardEls[h.id] = a;
    });
  }
  function renderList() {
    var list = results(), box = $("cards");
    while (box.firstChild) box.removeChild(box.firstChild);
    list.forEach(function (h) { box.appendChild(cardEls[h.id]); });
    $("empty").hidden = list.length > 0;
    $("result-title").textContent = list.length + (list.length === 1 ? " home" : " homes") + " for sale in Port Averley";
    if (list.length) {
      var avg = list.reduce(function (s, h) { return s + h.price; }, 0) / list.length;
      var per = list.reduce(function (s, h) { return s + h.price / h.m2; }, 0) / list.length;
      $("summary").textContent = "Average asking price " + eur(Math.round(avg / 1000) * 1000) + " · " + eur(Math.round(per / 10) * 10) + " per m²";
    } else $("summary").textContent = "";
    M.draw($("map"), { homes: list, interactive: true });
    bindPins();
  }
  function focusPin(id, on) {
    var p = $("map").querySelector('.pin[data-id="' + id + '"]');
    if (p) { p.classList.toggle("on", on); if (on) p.parentNode.appendChild(p); }
  }
  function bindPins() {
    Array.prototype.forEach.call($("map").querySelectorAll(".pin"), function (p) {
      var h = byId(p.dataset.id);
      p.addEventListener("mouseenter", function () { showTip(p, h); });
      p.addEventListener("mouseleave", function () { $("pin-tip").hidden = true; });
      p.addEventListener("click", function () { location.hash = "#/home/" + h.id; });
      p.addEventListener("keydown", function (e) { if (e.key === "Enter") location.hash = "#/home/" + h.id; });
    });
  }
  function showTip(p, h) {
    var box = $("map-box").getBoundingClientRect(), r = p.getBoundingClientRect(), tip = $("pin-tip");
    tip.innerHTML = '<div class="tip-pic">' + picture(h, 0) + '</div><div><b>' + eur(h.price) + '</b><span>' + esc(h.title) + '</span><span class="muted">' +
      h.beds + " bed · " + h.m2 + " m² · " + h.area + "</span></div>";
    tip.hidden = false;
    var left = r.left - box.left + r.width / 2 - 130, top = r.top - box.top - 96;
    if (top < 6) top = r.bottom - box.top + 8;
    tip.style.left = Math.max(6, Math.min(box.width - 266, left)) + "px";
    tip.style.top = top + "px";
  }
  function toggleSave(id) {
    saved[id] = !saved[id];
    var n = Object.keys(saved).filter(function (k) { return saved[k]; }).length;
    $("saved-count").lastChild.textContent = " Saved (" + n + ")";
    var heart = cardEls[id].querySelector(".heart");
    heart.setAttribute("aria-pressed", String(!!saved[id]));
    if (current && current.id === id) renderSave();
    toast(saved[id] ? "Saved to your list." : "Removed from your list.");
  }

  // ------------------------------------------------------------------ home view
  function openHome(h) {
    current = h; photoAt = 0; day = null;
    $("crumb-area").textContent = " / " + h.area + " / " + h.address;
    $("d-price").textContent = eur(h.price);
    $("d-title").textContent = h.title;
    $("d-addr").textContent = h.address + ", " + h.area + ", Port Averley";
    $("d-inline").innerHTML = "<li><b>" + h.beds + "</b> bedrooms</li><li><b>" + h.baths + "</b> bathrooms</li><li><b>" + h.m2 + "</b> m²</li>";
    $("d-agent").textContent = "Listed by " + h.agent + " · " + (h.days === 1 ? "1 day" : h.days + " days") + " on Keystead";
    renderSave();
    var th = $("thumbs");
    th.innerHTML = "";
    PHOTOS.forEach(function (name, i) {
      var b = document.createElement("button");
      b.type = "button"; b.setAttribute("role", "tab"); b.className = "thumb";
      b.setAttribute("aria-label", name);
      b.innerHTML = picture(h, i) + "<span>" + (i === 3 && !h.garden ? "View" : name) + "</span>";
      b.addEventListener("click", function () { photoAt = i; renderPhoto(); });
      th.appendChild(b);
    });
    renderPhoto();
    overview(h);
    area(h);
    $("m-price").value = h.price.toLocaleString("en-GB");
    $("m-dep").value = "20"; $("m-rate").value = "4.5"; $("m-term").value = "25";
    $("m-err").hidden = true;
    mortgage();
    commute = { dest: "station", mode: "walk" };
    $("c-dest").value = "station";
    renderCommute();
    resetViewing();
    selectTab("overview");
  }
  function renderPhoto() {
    var h = current, name = photoAt === 3 && !h.garden ? "View" : PHOTOS[photoAt];
    $("photo").innerHTML = picture(h, photoAt) + '<span class="ph-count">Photo ' + (photoAt + 1) + " of 4 · " + name + "</span>";
    Array.prototype.forEach.call($("thumbs").children, function (b, i) { b.setAttribute("aria-selected", String(i === photoAt)); });
  }
  function renderSave() {
    var on = !!saved[current.id];
    $("d-save").setAttribute("aria-pressed", String(on));
    $("d-save").textContent = on ? "♥ Saved" : "♡ Save this home";
  }
  function overview(h) {
    var perM2 = Math.round(h.price / h.m2);
    $("panel-overview").innerHTML =
      "<p class='lead'>" + esc(describe(h)) + "</p>" +
      "<table class='facts'><tbody>" +
      [["Property type", h.type], ["Bedrooms", h.beds], ["Bathrooms", h.baths], ["Floor area", h.m2 + " m²"], ["Price per m²", eur(perM2)],
        ["Built", h.built], ["Energy rating", '<span class="epc epc-' + h.epc + '">' + h.epc + "</span>"], ["Garden", h.garden ? "Yes, private" : "No"],
        ["Listed", h.days === 1 ? "1 day ago" : h.days + " days ago"]]
        .map(function (r) { return "<tr><th scope='row'>" + r[0] + "</th><td>" + r[1] + "</td></tr>"; }).join("") + "</tbody></table>";
  }
  function describe(h) {
    var age = h.built < 1919 ? "period" : h.built < 2000 ? "well-kept" : "modern";
    return "A " + age + " " + h.type.toLowerCase() + " with " + h.beds + (h.beds === 1 ? " bedroom" : " bedrooms") + " and " + h.baths +
      (h.baths === 1 ? " bathroom" : " bathrooms") + " on " + h.address.replace(/^.*?, /, "") + ", built in " + h.built + ". " +
      (h.garden ? "It has a private garden. " : "") + KS.blurbs[h.area];
  }
  function area(h) {
    var here = KS.homes.filter(function (x) { return x.area === h.area; });
    var avg = here.reduce(function (s, x) { return s + x.price; }, 0) / here.length;
    var names = KS.areas.map(function (a) { return a.name; });
    var avgs = names.map(function (n) {
      var l = KS.homes.filter(function (x) { return x.area === n; });
      return l.reduce(function (s, x) { return s + x.price / x.m2; }, 0) / l.length;
    });
    var top = Math.max.apply(null, avgs);
    var bars = names.map(function (n, i) {
      return "<li class='" + (n === h.area ? "me" : "") + "'><span>" + n + "</span><i style='width:" + Math.round(avgs[i] / top * 100) + "%'></i><b>" + eur(Math.round(avgs[i] / 10) * 10) + "</b></li>";
    }).join("");
    $("panel-area").innerHTML = "<p class='lead'>" + esc(KS.blurbs[h.area]) + "</p><div class='area-stats'><div><span>Homes for sale in " + h.area + "</span><b>" + here.length +
      "</b></div><div><span>Average asking price</span><b>" + eur(Math.round(avg / 1000) * 1000) + "</b></div></div><h3>Asking price per m² by neighbourhood</h3><ul class='bars'>" + bars + "</ul>";
  }
  function selectTab(name) {
    document.querySelectorAll(".tabs [role=tab]").forEach(function (t) {
      var on = t.dataset.tab === name;
      t.setAttribute("aria-selected", String(on));
      $("panel-" + t.dataset.tab).hidden = !on;
    });
  }

  // mortgage: the standard repayment formula, month by month
  function num(s) { return Number(String(s).replace(/[€,\s]/g, "")); }
  function mortgage() {
    var price = num($("m-price").value), dep = num($("m-dep").value), rate = num($("m-rate").value), years = Number($("m-term").value);
    var err = "";
    if (!(price >= 50000 && price <= 5000000)) err = "Enter a property price between €50,000 and €5,000,000.";
    else if (!(dep >= 10)) err = "A deposit of at least 10% is needed for a mortgage.";
    else if (dep >= 100) err = "With a 100% deposit you do not need a mortgage.";
    else if (!(rate >= 0.1 && rate <= 15)) err = "Enter an interest rate between 0.1% and 15%.";
    $("m-err").hidden = !err;
    $("m-err").textContent = err;
    ["m-price", "m-dep", "m-rate"].forEach(function (id) { $(id).setAttribute("aria-invalid", "false"); });
    if (err) {
      var bad = $(err.indexOf("price") >= 0 ? "m-price" : err.indexOf("rate") >= 0 ? "m-rate" : "m-dep");
      bad.setAttribute("aria-invalid", "true");
      bad.parentNode.after($("m-err")); // the message sits under the field it is about
      $("m-out").classList.add("stale");
      return;
    }
    var loan = price * (1 - dep / 100), r = rate / 100 / 12, n = years * 12;
    var monthly = loan * r / (1 - Math.pow(1 + r, -n)), total = monthly * n, interest = total - loan;
    var pShare = Math.round(loan / total * 100);
    $("m-out").classList.remove("stale");
    $("m-out").innerHTML = "<p class='m-label'>Estimated monthly payment</p><p class='m-big'>" + eur(monthly) + " <small>a month</small></p>" +
      "<svg class='m-bar' viewBox='0 0 100 10' preserveAspectRatio='none' aria-hidden='true'><rect width='" + pShare + "' height='10' fill='#14532d'/><rect x='" + pShare + "' width='" + (100 - pShare) + "' height='10' fill='#f59e0b'/></svg>" +
      "<p class='m-legend'><span class='k1'></span>Loan " + pShare + "% <span class='k2'></span>Interest " + (100 - pShare) + "%</p>" +
      "<table class='facts'><tbody><tr><th scope='row'>Deposit</th><td>" + eur(price - loan) + "</td></tr><tr><th scope='row'>Loan</th><td>" + eur(loan) +
      "</td></tr><tr><th scope='row'>Loan to value</th><td>" + Math.round(100 - dep) + "%</td></tr><tr><th scope='row'>Total interest over " + years + " years</th><td>" + eur(interest) +
      "</td></tr><tr><th scope='row'>Total repaid</th><td>" + eur(total) + "</td></tr></tbody></table>";
  }

  function renderCommute() {
    var h = current, r = M.route(h, commute.dest, commute.mode);
    document.querySelectorAll("#c-mode [role=radio]").forEach(function (b) { b.setAttribute("aria-checked", String(b.dataset.mode === commute.mode)); });
    var how = { walk: "on foot", bike: "by bike", car: "by car" }[commute.mode];
    var all = ["walk", "bike", "car"].map(function (m) {
      var x = M.route(h, commute.dest, m);
      return "<li class='" + (m === commute.mode ? "me" : "") + "'>" + { walk: "Walk", bike: "Bike", car: "Car" }[m] + " <b>" + x.minutes + " min</b></li>";
    }).join("");
    $("c-result").innerHTML = "<p class='c-big'>" + r.minutes + " min " + how + "</p><p class='c-via'>" + r.km.toFixed(1) + (r.via.length ? " km via " + r.via.join(" and ") : " km, just around the corner") +
      "</p><ul class='c-all'>" + all + "</ul>";
    M.draw($("c-map"), { homes: [h], focus: h.id, route: r, dest: commute.dest, pinLabel: "price" });
  }

  // viewing request
  function weekdays() {
    var d = new Date(), out = [], names = ["Sun", "Mon", "Tue", "Wed", "Thu", "Fri", "Sat"],
      months = ["Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"];
    while (out.length < 5) {
      d = new Date(d.getFullYear(), d.getMonth(), d.getDate() + 1);
      if (d.getDay() === 0 || d.getDay() === 6) continue;
      out.push(names[d.getDay()] + " " + d.getDate() + " " + months[d.getMonth()]);
    }
    return out;
  }
  function resetViewing() {
    $("viewing").hidden = false;
    $("viewing").reset();
    var done = $("v-done");
    if (done) done.remove();
    $("v-err").hidden = true;
    ["v-name", "v-email", "v-time"].forEach(function (id) { $(id).setAttribute("aria-invalid", "false"); });
    var box = $("v-days");
    box.innerHTML = "";
    weekdays().forEach(function (label) {
      var b = document.createElement("button");
      b.type = "button"; b.setAttribute("role", "radio"); b.setAttribute("aria-checked", "false");
      b.innerHTML = label.replace(" ", "<br>");
      b.addEventListener("click", function () {
        day = label;
        Array.prototype.forEach.call(box.children, function (c) { c.setAttribute("aria-checked", String(c === b)); });
      });
      box.appendChild(b);
    });
  }
  function submitViewing(e) {
    e.preventDefault();
    var name = $("v-name").value.trim(), email = $("v-email").value.trim(), time = $("v-time").value, err = "";
    ["v-name", "v-email", "v-time"].forEach(function (id) { $(id).setAttribute("aria-invalid", "false"); });
    if (!name) { err = "Enter your name."; $("v-name").setAttribute("aria-invalid", "true"); }
    else if (!/^[^@\s]+@[^@\s]+\.[a-z]{2,}$/i.test(email)) { err = "Enter an email address like name@example.com."; $("v-email").setAttribute("aria-invalid", "true"); }
    else if (!day) err = "Choose a day for the viewing.";
    else if (!time) { err = "Choose a time."; $("v-time").setAttribute("aria-invalid", "true"); }
    $("v-err").hidden = !err;
    $("v-err").textContent = err;
    if (err) return;
    $("viewing").hidden = true;
    var p = document.createElement("div");
    p.id = "v-done"; p.className = "done";
    p.innerHTML = "<p class='done-title'>Viewing requested</p><p>" + esc(day) + " at " + esc(time) + " · " + esc(current.address) + "</p><p class='muted'>" +
      esc(current.agent) + " will confirm by email to " + esc(email) + ".</p>";
    $("viewing").parentNode.insertBefore(p, $("d-agent"));
    toast("Request sent to " + current.agent + ".");
  }

  // ------------------------------------------------------------------ shell
  function toast(text) { $("toast").textContent = text; $("toast").hidden = false; }
  document.addEventListener("pointerdown", function () { $("toast").hidden = true; }, true);
  document.addEventListener("keydown", function () { $("toast").hidden = true; }, true);

  function route() {
    var m = /^#\/home\/([\w-]+)/.exec(location.hash), h = m && byId(m[1]);
    $("view-list").hidden = !!h;
    $("view-home").hidden = !h;
    $("pin-tip").hidden = true;
    if (h) { document.title = h.title + " · " + eur(h.price) + " · Keystead"; openHome(h); }
    else document.title = "Keystead · Homes for sale in Port Averley";
    window.scrollTo(0, 0);
  }

  $("q").addEventListener("input", function () { state.q = $("q").value; renderList(); });
  $("min").addEventListener("change", function () { state.min = Number($("min").value); renderList(); });
  $("max").addEventListener("change", function () { state.max = Number($("max").value); renderList(); });
  $("sort").addEventListener("change", function () { state.sort = $("sort").value; renderList(); });
  $("garden").addEventListener("change", function () { state.garden = $("garden").checked; renderList(); });
  document.querySelectorAll(".types input").forEach(function (c) {
    c.addEventListener("change", function () {
      state.types = Array.prototype.filter.call(document.querySelectorAll(".types input"), function (x) { return x.checked; }).map(function (x) { return x.value; });
      renderList();
    });
  });
  document.querySelectorAll("#beds [role=radio]").forEach(function (b) {
    b.addEventListener("click", function () {
      state.beds = Number(b.dataset.beds);
      document.querySelectorAll("#beds [role=radio]").forEach(function (x) { x.setAttribute("aria-checked", String(x === b)); });
      renderList();
    });
  });
  $("clear").addEventListener("click", function () {
    $("filters").reset();
    state = { q: "", min: 0, max: 0, beds: 0, types: ["House", "Flat", "Townhouse"], garden: false, sort: state.sort };
    document.querySelectorAll("#beds [role=radio]").forEach(function (x) { x.setAttribute("aria-checked", String(x.dataset.beds === "0")); });
    renderList();
  });
  document.querySelectorAll(".tabs [role=tab]").forEach(function (t) { t.addEventListener("click", function () { selectTab(t.dataset.tab); }); });
  $("m-calc").addEventListener("click", mortgage);
  ["m-price", "m-dep", "m-rate"].forEach(function (id) {
    $(id).addEventListener("keydown", function (e) { if (e.key === "Enter") mortgage(); });
  });
  $("m-term").addEventListener("change", mortgage);
  $("c-dest").addEventListener("change", function () { commute.dest = $("c-dest").value; renderCommute(); });
  document.querySelectorAll("#c-mode [role=radio]").forEach(function (b) {
    b.addEventListener("click", function () { commute.mode = b.dataset.mode; renderCommute(); });
  });
  $("d-save").addEventListener("click", function () { toggleSave(current.id); });
  $("viewing").addEventListener("submit", submitViewing);
  window.addEventListener("hashchange", route);

  buildCards();
  renderList();
  route();
})();
