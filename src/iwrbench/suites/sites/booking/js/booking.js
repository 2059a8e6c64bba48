(function () {
  "use strict";
  var $ = function (id) { return document.getElementById(id); };
  var DEST = {
    "Lisbon (LIS)": { base: 189, mins: 165 }, "Paris (CDG)": { base: 129, mins: 80 },
    "Rome (FCO)": { base: 159, mins: 150 }, "Reykjavik (KEF)": { base: 219, mins: 190 },
    "New York (JFK)": { base: 489, mins: 480 }
  };
  var TEMPLATES = [
    { code: "SW 214", airline: "Skyway", dep: 7 * 60 + 5, delta: 0, stops: 0 },
    { code: "AT 882", airline: "Atlantica", dep: 10 * 60 + 40, delta: 36, stops: 0 },
    { code: "SW 530", airline: "Skyway", dep: 13 * 60 + 15, delta: -22, stops: 1, extra: 155, via: "MAD" },
    { code: "AT 890", airline: "Atlantica", dep: 18 * 60 + 55, delta: 58, stops: 0 }
  ];
  var MONTHS = ["Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"];
  var DAYS = ["Sun", "Mon", "Tue", "Wed", "Thu", "Fri", "Sat"];
  var trip = null, chosen = null;

  function money(n) { return "$" + n.toFixed(2).replace(/\B(?=(\d{3})+(?!\d))/g, ","); }
  function hhmm(m) { m = ((m % 1440) + 1440) % 1440; return ("0" + Math.floor(m / 60)).slice(-2) + ":" + ("0" + m % 60).slice(-2); }
  function dur(m) { return Math.floor(m / 60) + "h " + ("0" + m % 60).slice(-2) + "m"; }
  function parseDate(s) {
    var m = /^(\d{4})-(\d{2})-(\d{2})$/.exec(s.trim());
    if (!m) return null;
    var d = new Date(Date.UTC(+m[1], +m[2] - 1, +m[3]));
    if (d.getUTCMonth() !== +m[2] - 1 || d.getUTCDate() !== +m[3]) return null;
    return d;
  }
  function fmt(d) { return DAYS[d.getUTCDay()] + " " + d.getUTCDate() + " " + MONTHS[d.getUTCMonth()] + " " + d.getUTCFullYear(); }
  function err(id, msg) {
    $(id + "-err").textContent = msg || "";
    $(id).classList.toggle("bad", !!msg);
    $(id).setAttribute("aria-invalid", msg ? "true" : "false");
    return !msg;
  }
  function step(n) {
    ["step-search", "step-results", "step-pax", "step-done"].forEach(function (id, i) { $(id).hidden = i + 1 !== n; });
    for (var i = 1; i <= 4; i++) {
      var li = $("s" + i);
      li.className = i === n ? "on" : (i < n ? "past" : "");
      if (i === n) li.setAttribute("aria-current", "step"); else li.removeAttribute("aria-current");
    }
  }
  function oneway() { return $("trip-oneway").checked; }

  document.querySelectorAll('input[name=trip]').forEach(function (r) {
    r.addEventListener("change", function () { $("return-wrap").hidden = oneway(); });
  });

  $("search-form").addEventListener("submit", function (e) {
    e.preventDefault();
    var to = $("to").value, from = $("from").value;
    var ok = err("to", !to ? "Choose a destination." : "");
    var dep = parseDate($("depart").value);
    ok = err("depart", dep ? "" : "Enter the date as YYYY-MM-DD.") && ok;
    var ret = null;
    if (!oneway()) {
      ret = parseDate($("return").value);
      var msg = !ret ? "Enter the date as YYYY-MM-DD." : (dep && ret <= dep ? "Return date must be after the departure date." : "");
      ok = err("return", msg) && ok;
    } else { err("return", ""); }
    if (!ok) return;
    trip = { from: from, to: to, dep: dep, ret: ret, pax: parseInt($("pax").value, 10) };
    renderFlights();
    step(2);
  });

  function flightsFor() {
    var d = DEST[trip.to];
    return TEMPLATES.map(function (t) {
      var mins = d.mins + (t.extra || 0);
      var price = d.base + t.delta;
      if (!trip.ret) price = Math.round(price * 0.6);
      return { code: t.code, airline: t.airline, dep: t.dep, arr: t.dep + mins, mins: mins, stops: t.stops, via: t.via, price: price };
    });
  }

  function renderFlights() {
    var list = flightsFor();
    if ($("nonstop").checked) list = list.filter(function (f) { return f.stops === 0; });
    if ($("sort").value === "Cheapest first") list.sort(function (a, b) { return a.price - b.price; });
    else list.sort(function (a, b) { return a.dep - b.dep; });
    $("results-title").textContent = list.length + " flights · " + trip.from + " → " + trip.to;
    $("results-sub").textContent = fmt(trip.dep) + (trip.ret ? " – " + fmt(trip.ret) + " · Round trip" : " · One way") + " · " + trip.pax + (trip.pax === 1 ? " adult" : " adults");
    var ul = $("flights");
    ul.innerHTML = "";
    list.forEach(function (f) {
      var li = document.createElement("li");
      li.className = "flight";
      li.setAttribute("data-flight", f.code);
      li.innerHTML = '<img src="img/' + (f.airline === "Skyway" ? "airline-sw" : "airline-at") + '.svg" width="40" height="40" alt="' + f.airline + '">' +
        '<div><div class="times">' + hhmm(f.dep) + ' – ' + hhmm(f.arr) + '</div><div class="sub">' + f.airline + ' · ' + f.code + '</div></div>' +
        '<div><div>' + dur(f.mins) + '</div><div class="sub">' + trip.from.slice(-4, -1) + ' → ' + trip.to.slice(-4, -1) + '</div></div>' +
        '<div class="stops' + (f.stops ? '' : ' non') + '">' + (f.stops ? '1 stop (' + f.via + ')' : 'Nonstop') + '</div>' +
        '<div class="price"><div>' + money(f.price) + '<small>per person</small></div><button type="button" class="sel" data-testid="select-' + f.code.replace(" ", "") + '" aria-label="Select flight ' + f.code + ' for ' + money(f.price) + '">Select</button></div>';
      li.querySelector(".sel").addEventListener("click", function () { chosen = f; renderSummary(); step(3); });
      ul.appendChild(li);
    });
  }
  $("nonstop").addEventListener("change", renderFlights);
  $("sort").addEventListener("change", renderFlights);
  $("modify-btn").addEventListener("click", function () { step(1); });
  $("back-results").addEventListener("click", function () { step(2); });

  function totals() {
    var cabinAdd = [0, 120, 480][$("cabin").selectedIndex];
    var fare = chosen.price * trip.pax, cabin = cabinAdd * trip.pax, bags = $("bag").checked ? 35 * trip.pax : 0;
    return { fare: fare, cabin: cabin, bags: bags, total: fare + cabin + bags };
  }
  function renderSummary() {
    $("sum-route").textContent = trip.from + " → " + trip.to;
    $("sum-dates").textContent = fmt(trip.dep) + (trip.ret ? " – " + fmt(trip.ret) : " · One way");
    $("sum-flight").textContent = chosen.code + " · departs " + hhmm(chosen.dep);
    var t = totals();
    $("sum-fare-label").textContent = "Fare (" + trip.pax + " × " + money(chosen.price) + ")";
    $("sum-fare").textContent = money(t.fare);
    $("sum-cabin").textContent = money(t.cabin);
    $("sum-bags").textContent = money(t.bags);
    $("sum-total").textContent = money(t.total);
  }
  $("cabin").addEventListener("change", renderSummary);
  $("bag").addEventListener("change", renderSummary);

  $("pax-form").addEventListener("submit", function (e) {
    e.preventDefault();
    var ok = err("first", $("first").value.trim() ? "" : "Enter the first name.");
    ok = err("last", $("last").value.trim() ? "" : "Enter the last name.") && ok;
    ok = err("pemail", /^[^\s@]+@[^\s@]+\.[^\s@]+$/.test($("pemail").value.trim()) ? "" : "Enter a valid email address.") && ok;
    if (!ok) return;
    var key = ($("last").value.trim() + chosen.code + trip.to).toUpperCase();
    var h = 7;
    for (var i = 0; i < key.length; i++) h = (h * 31 + key.charCodeAt(i)) % 60466176;
    var ref = "SKY-" + h.toString(36).toUpperCase().slice(-5);
    $("done-ref").textContent = "Booking reference " + ref;
    $("done-text").textContent = $("first").value.trim() + " " + $("last").value.trim() + " · " + trip.from + " → " + trip.to +
      " · " + fmt(trip.dep) + " · Total paid " + money(totals().total) + ". E-tickets sent to " + $("pemail").value.trim() + ".";
    step(4);
  });
  $("new-search").addEventListener("click", function () { step(1); });
  step(1);
})();
