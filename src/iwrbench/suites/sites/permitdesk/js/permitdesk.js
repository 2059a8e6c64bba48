/* Marrowby resident parking permits: a question-per-page service with hash routing. The eligibility rules
   (zone by postcode, at most two permits per address) and the price (emissions band, diesel supplement,
   zone factor, second-permit surcharge, length share) are computed from the answers, so every outcome
   follows from what was typed and chosen. */
(function () {
  "use strict";
  var D = window.PERMIT_DATA;
  var $ = function (id) { return document.getElementById(id); };
  var MONTHS = ["January", "February", "March", "April", "May", "June", "July", "August", "September", "October", "November", "December"];
  var PREV = { address: "start", vehicle: "address", check: "vehicle", ineligible: "start" };
  var NEEDS = { address: "postcode", vehicle: "address", check: "reg", done: "ref" };
  var state = {};

  function money(n) { return "£" + n.toFixed(2).replace(/\B(?=(\d{3})+(?!\d))/g, ","); }
  function longDate(d) { return d.getDate() + " " + MONTHS[d.getMonth()] + " " + d.getFullYear(); }
  function today() { var n = new Date(); return new Date(n.getFullYear(), n.getMonth(), n.getDate()); }
  function endDate(start, months) { var e = new Date(start.getFullYear(), start.getMonth() + months, start.getDate()); e.setDate(e.getDate() - 1); return e; }
  function esc(s) { return String(s).replace(/[&<>"]/g, function (c) { return { "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;" }[c]; }); }

  /* ---------- routing ---------- */
  function go(view) { if (location.hash !== "#" + view) location.hash = view; else render(); }
  function current() {
    var v = location.hash.replace(/^#/, "") || "start";
    if (!$("view-" + v)) v = "start";
    if (NEEDS[v] && !state[NEEDS[v]]) v = "start";
    if (v === "ineligible" && !state.inel) v = "start";
    return v;
  }
  function render() {
    var v = current();
    document.querySelectorAll(".view").forEach(function (s) { s.hidden = s.getAttribute("data-view") !== v; });
    clearErrors();
    var back = $("back");
    back.hidden = !PREV[v];
    if (PREV[v]) back.setAttribute("href", "#" + PREV[v]);
    if (v === "address") renderAddress();
    if (v === "check") renderCheck();
    if (v === "ineligible") renderIneligible();
    document.title = ($("view-" + v).querySelector("h1").textContent.trim()) + " – Marrowby City Council";
    window.scrollTo(0, 0);
  }
  window.addEventListener("hashchange", render);

  /* ---------- errors ---------- */
  function clearErrors() {
    $("errors").hidden = true;
    $("error-list").innerHTML = "";
    document.querySelectorAll(".group.has-error").forEach(function (g) { g.classList.remove("has-error"); });
    document.querySelectorAll(".field-error").forEach(function (p) { p.hidden = true; p.textContent = ""; });
  }
  function showErrors(list, inline) {
    clearErrors();
    if (!list.length) return false;
    list.forEach(function (e) {
      var li = document.createElement("li");
      var a = document.createElement("a");
      a.href = "#" + e.field; a.textContent = e.msg;
      a.addEventListener("click", function (ev) { ev.preventDefault(); var f = $(e.focus || e.field); if (f) f.focus(); });
      li.appendChild(a); $("error-list").appendChild(li);
      var p = $(e.key + "-error"); p.textContent = e.msg; p.hidden = false;
      $("g-" + e.key).classList.add("has-error");
    });
    if (inline) return true;
    $("errors").hidden = false;
    window.scrollTo(0, 0);
    return true;
  }

  /* ---------- start ---------- */
  $("again").addEventListener("click", function () {
    state = {};
    ["form-postcode", "form-address", "form-vehicle", "form-check"].forEach(function (f) { $(f).reset(); });
    $("co2-band").textContent = ""; $("g-co2").hidden = false;
  });

  /* ---------- postcode ---------- */
  function normPostcode(s) {
    var t = s.toUpperCase().replace(/\s+/g, "");
    return t.length > 3 ? t.slice(0, -3) + " " + t.slice(-3) : t;
  }
  $("form-postcode").addEventListener("submit", function (e) {
    e.preventDefault();
    var raw = $("postcode").value.trim();
    var pc = normPostcode(raw), compact = pc.replace(" ", "");
    var msg = "";
    if (!raw) msg = "Enter your postcode";
    else if (/^[A-Z]{1,2}\d[A-Z\d]?$/.test(compact)) msg = "Enter a full postcode, like MB4 2QT";
    else if (!/^[A-Z]{1,2}\d[A-Z\d]?\d[A-Z]{2}$/.test(compact)) msg = "Enter a real postcode, like MB4 2QT";
    if (msg) { showErrors([{ field: "postcode", key: "postcode", msg: msg }], true); return; }
    $("postcode").value = pc;
    state.postcode = pc; state.address = null; state.inel = null;
    if (D.postcodes[pc]) { state.zone = D.postcodes[pc].zone; $("form-address").reset(); go("address"); return; }
    if (!/^MB\d/.test(compact)) {
      state.inel = { title: "Your postcode is not in Marrowby",
        text: pc + " is outside the city. Resident permits are issued by the council for the area you live in.",
        next: "Check the postcode you typed. If you have just moved to Marrowby, use the postcode of your new home." };
    } else {
      var area = D.outside[pc] ? " (" + D.outside[pc] + ")" : "";
      state.inel = { title: "You cannot apply for a resident permit",
        text: pc + area + " is not in a controlled parking zone, so you do not need a permit to park on the street there.",
        next: "If parking near your home has become difficult, you can ask us to consult your street about a new zone." };
    }
    go("ineligible");
  });

  /* ---------- address ---------- */
  function renderAddress() {
    var pc = D.postcodes[state.postcode], z = D.zones[pc.zone];
    $("address-caption").textContent = "Postcode " + state.postcode;
    $("zone-card").innerHTML = '<span class="dot" style="background:' + z.colour + '">' + pc.zone + "</span><div><b>Zone " + pc.zone + " – " + esc(z.name) +
      "</b>Permits in this zone are checked " + esc(z.hours) + ".</div>";
    var list = $("address-list");
    if (list.getAttribute("data-pc") !== state.postcode) {
      list.innerHTML = pc.addresses.map(function (a, i) {
        return '<div class="radio"><input type="radio" name="address" id="addr-' + i + '" value="' + i + '"><label for="addr-' + i + '">' + esc(a[0]) + '</label></div><p class="reveal" id="held-' + i + '" hidden></p>';
      }).join("");
      list.setAttribute("data-pc", state.postcode);
    }
  }
  function heldText(a) {
    if (a[1] === 0) return "No resident permits are registered at " + a[0] + ".";
    if (a[1] === 1) return a[0] + " already holds 1 resident permit. A second permit costs 50% more.";
    return a[0] + " already holds 2 resident permits, the most a household can have.";
  }
  $("address-list").addEventListener("change", function (e) {
    var a = D.postcodes[state.postcode].addresses[+e.target.value];
    document.querySelectorAll("#address-list .reveal").forEach(function (p) { p.hidden = true; });
    var note = $("held-" + e.target.value);
    note.textContent = heldText(a); note.hidden = false; note.className = "reveal" + (a[1] ? " warn" : "");
  });
  $("form-address").addEventListener("submit", function (e) {
    e.preventDefault();
    var pick = document.querySelector("input[name=address]:checked");
    if (!pick) { showErrors([{ field: "addr-0", key: "address", msg: "Select your address" }]); return; }
    var a = D.postcodes[state.postcode].addresses[+pick.value];
    state.address = a[0]; state.held = a[1];
    if (a[1] >= 2) {
      state.inel = { title: "You cannot get another permit for this address",
        text: a[0] + " already holds 2 resident permits. A household can hold no more than 2.",
        next: "If one of those vehicles has been sold or scrapped, cancel its permit first from your account, then apply again." };
      go("ineligible"); return;
    }
    go("vehicle");
  });

  /* ---------- vehicle ---------- */
  function fuel() { var f = document.querySelector("input[name=fuel]:checked"); return f ? f.value : ""; }
  function bandFor(g) { for (var i = 0; i < D.bands.length; i++) if (g <= D.bands[i].max) return D.bands[i]; return D.bands[D.bands.length - 1]; }
  function co2Value() { var s = $("co2").value.trim(); return /^\d{1,3}$/.test(s) ? parseInt(s, 10) : null; }
  function showBand() {
    var f = fuel();
    $("g-co2").hidden = f === "Electric";
    var g = f === "Electric" ? 0 : co2Value();
    if (g === null || (g === 0 && f !== "Electric") || g > 400) { $("co2-band").textContent = ""; return; }
    var b = bandFor(g);
    $("co2-band").textContent = "Band " + b.band + ": £" + b.price + " a year" + (f === "Diesel" ? ", plus the £40 diesel supplement" : "");
  }
  $("co2").addEventListener("input", showBand);
  $("fuel-list").addEventListener("change", showBand);
  $("form-vehicle").addEventListener("submit", function (e) {
    e.preventDefault();
    var errs = [];
    var reg = $("reg").value.trim().toUpperCase().replace(/\s+/g, "");
    if (!reg) errs.push({ field: "reg", key: "reg", msg: "Enter the vehicle's registration number" });
    else if (!/^[A-Z]{2}\d{2}[A-Z]{3}$/.test(reg)) errs.push({ field: "reg", key: "reg", msg: "Enter a registration number in the right format, like MK19 XTA" });
    var f = fuel();
    if (!f) errs.push({ field: "fuel-petrol", key: "fuel", msg: "Select the fuel type" });
    var raw = $("co2").value.trim(), g = co2Value();
    if (f !== "Electric") {
      if (!raw) errs.push({ field: "co2", key: "co2", msg: "Enter the CO2 emissions in grams per kilometre" });
      else if (g === null) errs.push({ field: "co2", key: "co2", msg: "CO2 emissions must be a whole number, like 128" });
      else if (g === 0) errs.push({ field: "co2", key: "co2", msg: "Only electric vehicles have 0 g/km. Check the fuel type" });
      else if (g > 400) errs.push({ field: "co2", key: "co2", msg: "CO2 emissions must be 400 g/km or less" });
    }
    var len = document.querySelector("input[name=length]:checked");
    if (!len) errs.push({ field: "len-3", key: "length", msg: "Select how long you need the permit for" });
    if (showErrors(errs)) return;
    state.reg = reg.slice(0, 4) + " " + reg.slice(4);
    $("reg").value = state.reg;
    state.fuel = f; state.co2 = f === "Electric" ? 0 : g; state.months = +len.value;
    go("check");
  });

  /* ---------- check and price ---------- */
  function price() {
    var b = bandFor(state.co2), z = D.zones[state.zone];
    var base = b.price, diesel = state.fuel === "Diesel" ? D.dieselSupplement : 0;
    var yearly = (base + diesel) * z.factor * (state.held === 1 ? 1.5 : 1);
    var share = D.lengthShare[state.months];
    return { band: b, diesel: diesel, zone: z, yearly: yearly, share: share, total: Math.round(yearly * share * 100) / 100 };
  }
  function row(k, v, change) {
    return '<div class="row"><dt>' + k + "</dt><dd>" + v + '</dd><dd class="act">' +
      (change ? '<a href="#' + change + '">Change<span class="sr-only"> ' + k.toLowerCase() + "</span></a>" : "") + "</dd></div>";
  }
  function renderCheck() {
    var p = price(), start = today(), end = endDate(start, state.months);
    state.start = start; state.end = end;
    $("summary").innerHTML =
      row("Address", esc(state.address) + "<br>Marrowby " + state.postcode, "address") +
      row("Parking zone", "Zone " + state.zone + " – " + esc(p.zone.name), "") +
      row("Registration number", state.reg, "vehicle") +
      row("Fuel and emissions", state.fuel + (state.fuel === "Electric" ? "" : ", " + state.co2 + " g/km") + " (band " + p.band.band + ")", "vehicle") +
      row("Permit", state.months + " months, " + longDate(start) + " to " + longDate(end), "vehicle") +
      row("Total to pay", "<b>" + money(p.total) + "</b>", "");
    var h = '<tr><th scope="row">Band ' + p.band.band + ", " + p.band.label + '</th><td class="num">' + money(p.band.price) + " a year</td></tr>";
    if (p.diesel) h += '<tr><th scope="row">Diesel supplement</th><td class="num">' + money(p.diesel) + " a year</td></tr>";
    if (p.zone.factor !== 1) h += '<tr><th scope="row">Zone ' + state.zone + " – " + esc(p.zone.name) + '</th><td class="num">+' + Math.round((p.zone.factor - 1) * 100) + "%</td></tr>";
    if (state.held === 1) h += '<tr><th scope="row">Second permit at this address</th><td class="num">+50%</td></tr>';
    h += '<tr><th scope="row">Yearly price</th><td class="num">' + money(p.yearly) + "</td></tr>";
    if (state.months !== 12) h += '<tr><th scope="row">' + state.months + " months (" + Math.round(p.share * 100) + '% of the yearly price)</th><td class="num"></td></tr>';
    h += '<tr class="total"><th scope="row">Total to pay</th><td class="num">' + money(p.total) + "</td></tr>";
    $("cost").innerHTML = h;
  }
  $("form-check").addEventListener("submit", function (e) {
    e.preventDefault();
    if (!$("declare").checked) { showErrors([{ field: "declare", key: "declare", msg: "Confirm that you live at this address as your main home" }]); return; }
    var p = price(), seed = state.reg + "|" + state.address + "|" + state.months, h = 2166136261;
    for (var i = 0; i < seed.length; i++) { h ^= seed.charCodeAt(i); h = Math.imul(h, 16777619) >>> 0; }
    var ABC = "ABCDEFGHJKLMNPQRSTUVWXYZ23456789", ref = "";
    for (var k = 0; k < 6; k++) { ref += ABC[h % 32]; h = Math.floor(h / 32); }
    state.ref = "MRB-" + ref;
    $("ref").textContent = state.ref;
    $("done-text").textContent = "Your " + state.months + "-month permit for " + state.reg + " at " + state.address + " is valid from " +
      longDate(state.start) + " to " + longDate(state.end) + ". You paid " + money(p.total) + ".";
    go("done");
  });

  /* ---------- not eligible ---------- */
  function renderIneligible() {
    $("inel-title").textContent = state.inel.title;
    $("inel-text").textContent = state.inel.text;
    $("inel-next").textContent = state.inel.next;
  }
  $("inel-again").addEventListener("click", function () { $("postcode").value = ""; });

  render();
})();
