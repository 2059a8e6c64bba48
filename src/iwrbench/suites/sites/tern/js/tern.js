/* Tern travel insurance: six answers make a premium for each level of cover (region and length of
   trip, each traveller's age, winter sports, declared conditions, the excess), with the tax shown
   apart; a cover table explains what each level pays. "Today" is the page's clock. */
(function () {
  "use strict";
  var $ = function (id) { return document.getElementById(id); };
  var REGIONS = { eu: ["Europe", 0.95], ww: ["Worldwide, not the USA, Canada or Caribbean", 1.8], us: ["Worldwide, including the USA and Canada", 2.9] };
  var LEVELS = [
    { id: "essential", name: "Essential", k: 0.8, blurb: "£2m medical · £1,500 cancellation · £750 baggage" },
    { id: "standard", name: "Standard", k: 1, blurb: "£10m medical · £3,000 cancellation · missed departure" },
    { id: "premier", name: "Premier", k: 1.45, blurb: "£15m medical · £7,500 cancellation · gadgets and disruption" }
  ];
  var TAX = 0.12, DAY = 86400000;
  var COVER = {
    single: [
      ["Emergency medical expenses", "£2m", "£10m", "£15m"], ["Cancellation", "£1,500", "£3,000", "£7,500"], ["Baggage", "£750", "£1,500", "£2,500"],
      ["Single item limit", "£200", "£300", "£500"], ["Missed departure", "no", "£500", "£1,000"], ["Travel disruption", "no", "no", "£2,500"],
      ["Gadget cover", "no", "no", "yes"], ["24-hour medical helpline", "yes", "yes", "yes"]],
    annual: [
      ["Longest trip", "17 days", "31 days", "45 days"], ["Emergency medical expenses", "£2m", "£10m", "£15m"], ["Cancellation", "£1,000", "£3,000", "£5,000"],
      ["Baggage", "£750", "£1,500", "£2,500"], ["Missed departure", "no", "£500", "£1,000"], ["Travel disruption", "no", "no", "£2,500"],
      ["Gadget cover", "no", "no", "yes"], ["24-hour medical helpline", "yes", "yes", "yes"]]
  };
  var NOTES = { single: "Single-trip prices start at £6.80 for a week in Europe.", annual: "Annual cover starts at £39 a year for one adult in Europe." };
  var TERMS = {
    "Cancellation": "If you must cancel before you go for a reason the policy lists, such as illness or jury service.",
    "Missed departure": "Extra travel and hotel costs if a breakdown or a late train makes you miss your flight.",
    "Travel disruption": "Costs when a strike, volcanic ash or a closed airport stops your trip.",
    "Gadget cover": "Phones, tablets and laptops lost, stolen or broken abroad, up to £1,000 in total."
  };
  var st = { winter: "no", cond: "no", excess: "100", level: null, kind: "single" };
  var now = new Date(), today = new Date(now.getFullYear(), now.getMonth(), now.getDate());

  function money(v) { return "£" + v.toLocaleString("en-GB", { minimumFractionDigits: 2, maximumFractionDigits: 2 }); }
  function parseDate(s) {
    var m = s.trim().match(/^(\d{2})\/(\d{2})\/(\d{4})$/);
    if (!m) return null;
    var d = new Date(Number(m[3]), Number(m[2]) - 1, Number(m[1]));
    return d.getDate() === Number(m[1]) && d.getMonth() === Number(m[2]) - 1 ? d : null;
  }
  function ageFactor(a) { return a < 18 ? 0.5 : a <= 40 ? 1 : a <= 64 ? 1.4 : a <= 74 ? 2.3 : 3.6; }

  var travCount = 0;
  function addTraveller() {
    travCount += 1;
    var li = document.createElement("li"), n = $("trav").children.length + 1;
    li.innerHTML = "<span>Traveller " + n + '</span><input type="text" inputmode="numeric" class="age" id="age' + travCount + '" placeholder="Age" aria-label="Age of traveller ' + n + '">' + (n > 1 ? '<button type="button" class="rm">Remove</button>' : "");
    $("trav").appendChild(li);
  }
  $("add-trav").addEventListener("click", function () {
    if ($("trav").children.length >= 8) { $("trav-err").textContent = "One policy covers up to 8 travellers."; return; }
    addTraveller();
  });
  $("trav").addEventListener("click", function (e) {
    if (!e.target.classList.contains("rm")) return;
    e.target.parentNode.remove();
    Array.prototype.forEach.call($("trav").children, function (li, i) { li.querySelector("span").textContent = "Traveller " + (i + 1); });
  });
  document.querySelectorAll("#quote .seg").forEach(function (seg) {
    seg.addEventListener("click", function (e) {
      var b = e.target.closest("button"); if (!b) return;
      st[seg.dataset.name] = b.dataset.v;
      seg.querySelectorAll("button").forEach(function (x) { x.classList.toggle("on", x === b); });
      if (seg.dataset.name === "excess") $("excess-hint").textContent = b.dataset.v === "0" ? "No excess: you pay nothing towards a claim, and 15% more for the policy." : b.dataset.v === "250" ? "You pay the first £250 of each claim, and 10% less for the policy." : "A higher excess lowers your price.";
    });
  });
  function showDays() {
    var d = parseDate($("depart").value), r = parseDate($("return").value);
    $("days").textContent = d && r && r >= d ? "Trip length: " + Math.round((r - d) / DAY + 1) + " days" : "";
  }
  $("depart").addEventListener("input", showDays);
  $("return").addEventListener("input", showDays);

  function flag(el, errId, msg) { if (el) el.classList.toggle("bad", !!msg); $(errId).textContent = msg; return !msg; }
  function answers() {
    var ok = flag($("region"), "region-err", $("region").value ? "" : "Choose where you are going.");
    var d = parseDate($("depart").value), r = parseDate($("return").value), msg = "";
    if (!d || !r) msg = "Enter both dates as DD/MM/YYYY.";
    else if (d < today) msg = "Your trip must start today or later.";
    else if (r < d) msg = "You must come home after you leave.";
    else if ((r - d) / DAY + 1 > 183) msg = "A single trip can be up to 183 days.";
    $("depart").classList.toggle("bad", !!msg && !d || /start/.test(msg));
    $("return").classList.toggle("bad", !!msg && (!r || /home|183/.test(msg)));
    $("dates-err").textContent = msg; ok = !msg && ok;
    var ages = [], badAge = "";
    document.querySelectorAll("#trav .age").forEach(function (inp) {
      var v = inp.value.trim(), a = Number(v), bad = !/^\d{1,3}$/.test(v) || a > 89;
      inp.classList.toggle("bad", bad);
      if (bad) badAge = /^\d{1,3}$/.test(v) ? "We can cover travellers up to 89 years old." : "Enter each traveller's age in years.";
      else ages.push(a);
    });
    ok = flag(null, "trav-err", badAge) && ok;
    return ok ? { region: $("region").value, days: Math.round((r - d) / DAY + 1), ages: ages } : null;
  }
  function premium(a, level) {
    var per = REGIONS[a.region][1], raw = a.ages.reduce(function (s, age) { return s + per * a.days * ageFactor(age); }, 0);
    if (st.winter === "yes") raw *= 1.35;
    if (st.cond === "yes") raw += 25 * a.ages.length;
    raw *= st.excess === "0" ? 1.15 : st.excess === "250" ? 0.9 : 1;
    var p = Math.max(12, Math.round(raw * level.k * 100) / 100);
    var tax = Math.round(p * TAX * 100) / 100;
    return { premium: p, tax: tax, total: Math.round((p + tax) * 100) / 100 };
  }
  var current = null;
  function renderQuote() {
    var a = current;
    $("q-title").textContent = "Your prices for " + a.days + " days";
    $("q-sub").textContent = REGIONS[a.region][0] + " · " + a.ages.length + (a.ages.length === 1 ? " traveller" : " travellers") + " · " + (st.winter === "yes" ? "winter sports" : "no winter sports") + " · £" + st.excess + " excess";
    $("levels").innerHTML = LEVELS.map(function (l) {
      var p = premium(a, l);
      return '<div class="lvl' + (l.id === "standard" ? " rec" : "") + (st.level === l.id ? " on" : "") + '"><div><h3>' + l.name + "</h3><p>" + l.blurb + '</p></div><div class="price">' + money(p.total) + "<small>incl. " + money(p.tax) + ' tax</small></div><button type="button" class="pick" data-l="' + l.id + '">' + (st.level === l.id ? "Chosen" : "Choose") + "</button></div>";
    }).join("");
    var c = $("chosen");
    if (!st.level) { c.hidden = true; return; }
    var lv = LEVELS.filter(function (l) { return l.id === st.level; })[0], p = premium(a, lv);
    c.hidden = false;
    c.innerHTML = "<h2>" + lv.name + " cover</h2><dl><div><dt>Travellers</dt><dd>" + a.ages.length + " (ages " + a.ages.join(", ") + ")</dd></div><div><dt>Trip</dt><dd>" + a.days + " days, " + REGIONS[a.region][0] + "</dd></div><div><dt>Premium</dt><dd>" + money(p.premium) +
      "</dd></div><div><dt>Insurance Premium Tax (12%)</dt><dd>" + money(p.tax) + '</dd></div><div class="tot"><dt>To pay today</dt><dd>' + money(p.total) + "</dd></div></dl>";
  }
  $("quote").addEventListener("submit", function (e) {
    e.preventDefault();
    var a = answers(); if (!a) return;
    current = a; st.level = null;
    $("form-view").hidden = true; $("quote-view").hidden = false;
    renderQuote(); window.scrollTo(0, 0);
  });
  $("levels").addEventListener("click", function (e) {
    var b = e.target.closest(".pick"); if (!b) return;
    st.level = b.dataset.l; renderQuote();
    $("chosen").scrollIntoView({ block: "nearest" });
  });
  $("edit").addEventListener("click", function () { $("form-view").hidden = false; $("quote-view").hidden = true; window.scrollTo(0, 0); });

  function renderCover() {
    $("cov-body").innerHTML = COVER[st.kind].map(function (row) {
      var head = TERMS[row[0]] ? '<span class="term" tabindex="0" data-term="' + row[0] + '">' + row[0] + "</span>" : row[0];
      return "<tr><th>" + head + "</th>" + row.slice(1).map(function (v) { return v === "yes" ? '<td class="yes">✓</td>' : v === "no" ? '<td class="no">—</td>' : "<td>" + v + "</td>"; }).join("") + "</tr>";
    }).join("");
    $("cov-note").textContent = NOTES[st.kind];
  }
  $("cov-kind").addEventListener("click", function (e) {
    var b = e.target.closest("button"); if (!b) return;
    st.kind = b.dataset.k;
    $("cov-kind").querySelectorAll("button").forEach(function (x) { x.classList.toggle("on", x === b); });
    renderCover();
  });
  $("cov-body").addEventListener("mouseover", function (e) {
    var t = e.target.closest(".term");
    if (t) $("cov-note").textContent = t.dataset.term + ": " + TERMS[t.dataset.term];
  });
  $("cov-body").addEventListener("mouseleave", function () { $("cov-note").textContent = NOTES[st.kind]; });
  addTraveller(); renderCover();
})();
