/* Lanternhall page: the week's timetable, a seat map per showing (sold seats fixed by the showing's
   id), ticket counts, the single-gap seat rule, a promo code and payment, with the views switched
   by the URL hash. Today comes from the page's clock (the recipes freeze it). */
(function () {
  "use strict";
  var LH = window.LH, $ = function (id) { return document.getElementById(id); };
  var ROWS = "ABCDEFGHIJ".split(""), SEATS = 16, AISLES = [4, 12], RECLINER = "HIJ";
  var DAYS = ["Sun", "Mon", "Tue", "Wed", "Thu", "Fri", "Sat"], MONTHS = ["Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"];
  var dayAt = 0, chip = "all", order = null, seatEls = {};

  function hash(s) { var h = 2166136261; for (var i = 0; i < s.length; i++) { h ^= s.charCodeAt(i); h = Math.imul(h, 16777619); } return h >>> 0; }
  function rng(seed) { var a = seed; return function () { a = (a + 0x6d2b79f5) >>> 0; var t = Math.imul(a ^ (a >>> 15), a | 1); t ^= t + Math.imul(t ^ (t >>> 7), t | 61); return ((t ^ (t >>> 14)) >>> 0) / 4294967296; }; }
  function gbp(n) { return "£" + n.toFixed(2); }
  function film(id) { return LH.films.filter(function (f) { return f.id === id; })[0]; }
  function day(i) { var n = new Date(); return new Date(n.getFullYear(), n.getMonth(), n.getDate() + i); }
  function dayName(i) { var d = day(i); return (i === 0 ? "Today" : i === 1 ? "Tomorrow" : DAYS[d.getDay()]) + " " + d.getDate() + " " + MONTHS[d.getMonth()]; }
  function longDay(i) { var d = day(i); return ["Sunday", "Monday", "Tuesday", "Wednesday", "Thursday", "Friday", "Saturday"][d.getDay()] + " " + d.getDate() + " " + MONTHS[d.getMonth()]; }
  function hm(t) { return Number(t.slice(0, 2)) * 60 + Number(t.slice(3)); }
  function runtime(m) { return Math.floor(m / 60) + "h " + (m % 60 < 10 ? "0" : "") + (m % 60) + "m"; }

  function showings(f, i) {
    var weekday = day(i).getDay();
    return f.times.filter(function (t, k) { return !(weekday === 0 && k === f.times.length - 1 && f.times.length > 2); }).map(function (t, k) {
      var id = f.id + "-" + i + "-" + t.replace(":", ""), h = hash(id);
      var level = h % 17 === 0 ? "sold" : h % 6 === 0 ? "full" : "open";
      var tag = (i + k) % 5 === 0 ? "Subtitled" : (i * 3 + k) % 7 === 0 ? "Audio described" : "";
      return { id: id, film: f, day: i, time: t, level: level, tag: tag, screen: LH.screens[h % 3] };
    });
  }
  function taken(show) {
    var r = rng(hash(show.id)), share = show.level === "full" ? 0.86 : show.level === "sold" ? 1 : 0.34, out = {};
    ROWS.forEach(function (row, ri) {
      for (var n = 1; n <= SEATS; n++) {
        var front = ri < 2 ? 0.5 : 1; // the front rows fill last
        if (r() < share * front) out[row + n] = true;
      }
    });
    return out;
  }

  // ------------------------------------------------------------------ what's on
  function renderDays() {
    var box = $("days");
    if (!box.children.length) {
      for (var i = 0; i < 7; i++) {
        var b = document.createElement("button");
        b.type = "button"; b.setAttribute("role", "tab"); b.dataset.day = String(i);
        b.textContent = dayName(i);
        (function (i) { b.addEventListener("click", function () { dayAt = i; renderOn(); }); })(i);
        box.appendChild(b);
      }
    }
    Array.prototype.forEach.call(box.children, function (b, i) { b.setAttribute("aria-selected", String(i === dayAt)); });
  }
  function renderOn() {
    renderDays();
    document.querySelectorAll(".chip").forEach(function (c) { c.setAttribute("aria-pressed", String(c.dataset.chip === chip)); });
    var box = $("films"), shown = 0, count = 0;
    box.innerHTML = "";
    LH.films.forEach(function (f) {
      if (chip === "family" && !f.family) return;
      var list = showings(f, dayAt).filter(function (s) { return chip !== "late" || hm(s.time) >= 20 * 60; });
      if (!list.length) return;
      shown++; count += list.length;
      var art = document.createElement("article");
      art.className = "film"; art.dataset.film = f.id;
      art.innerHTML = '<div class="poster"><img src="img/' + f.id + '.svg" alt="Poster for ' + f.title + '"><div class="over"><p>' + f.blurb + '</p><span>' + f.cert + " · " + runtime(f.mins) + '</span></div></div>' +
        '<div class="info"><h2>' + f.title + ' <span class="cert c' + f.cert + '">' + f.cert + '</span></h2><p class="meta">' + f.genre + " · " + runtime(f.mins) + '</p>' +
        '<button type="button" class="more">More info</button><div class="times"></div></div>';
      var times = art.querySelector(".times");
      list.forEach(function (s) {
        var b = document.createElement("button");
        b.type = "button"; b.className = "time " + s.level; b.dataset.show = s.id;
        b.disabled = s.level === "sold";
        b.innerHTML = "<b>" + s.time + "</b><span>" + s.screen + (s.tag ? " · " + s.tag : "") + "</span>" +
          (s.level === "full" ? '<em class="badge">Almost full<span class="tip" role="tooltip">Fewer than 25 seats left</span></em>' : s.level === "sold" ? '<em class="badge">Sold out</em>' : "");
        b.addEventListener("click", function () { location.hash = "#/book/" + s.id; });
        times.appendChild(b);
      });
      art.querySelector(".more").addEventListener("click", function () { openModal(f); });
      box.appendChild(art);
    });
    $("day-line").textContent = longDay(dayAt) + " · " + shown + (shown === 1 ? " film" : " films") + ", " + count + (count === 1 ? " showing" : " showings");
    if (!shown) box.innerHTML = '<p class="none">No showings match. Try another day.</p>';
  }
  function openModal(f) {
    $("m-poster").src = "img/" + f.id + ".svg";
    $("m-title").textContent = f.title;
    $("m-meta").textContent = f.cert + " · " + f.genre + " · " + runtime(f.mins);
    $("m-blurb").textContent = f.blurb;
    $("m-dir").textContent = f.director;
    $("m-cast").textContent = f.cast || "Documentary";
    $("modal").hidden = false;
    $("m-close").focus();
  }
  function closeModal() { $("modal").hidden = true; }

  // ------------------------------------------------------------------ seats and tickets
  function findShow(id) {
    var m = /^(.+)-(\d)-(\d{4})$/.exec(id), f = m && film(m[1]);
    if (!f) return null;
    return showings(f, Number(m[2])).filter(function (s) { return s.id === id; })[0] || null;
  }
  function startOrder(show) {
    if (order && order.show.id === show.id) return;
    order = { show: show, taken: taken(show), seats: [], tickets: { adult: 0, child: 0, senior: 0 }, code: null, email: "" };
    var map = $("seatmap");
    map.innerHTML = ""; seatEls = {};
    ROWS.forEach(function (row) {
      var line = document.createElement("div");
      line.className = "row";
      line.innerHTML = '<span class="rl">' + row + "</span>";
      for (var n = 1; n <= SEATS; n++) {
        var id = row + n, b = document.createElement("button");
        b.type = "button";
        b.className = "s" + (RECLINER.indexOf(row) >= 0 ? " rec" : "") + (row === "A" && n <= 2 ? " wc" : "") + (order.taken[id] ? " taken" : " free");
        b.textContent = String(n);
        b.setAttribute("aria-label", "Seat " + id + (order.taken[id] ? ", sold" : ""));
        b.disabled = !!order.taken[id];
        if (AISLES.indexOf(n) >= 0) b.classList.add("aisle");
        (function (id) { b.addEventListener("click", function () { toggleSeat(id); }); })(id);
        line.appendChild(b);
        seatEls[id] = b;
      }
      line.insertAdjacentHTML("beforeend", '<span class="rl">' + row + "</span>");
      map.appendChild(line);
    });
  }
  function ticketCount() { var t = order.tickets; return t.adult + t.child + t.senior; }
  function toggleSeat(id) {
    var at = order.seats.indexOf(id);
    if (at >= 0) order.seats.splice(at, 1);
    else if (!ticketCount()) { message("Choose how many tickets you need first."); return; }
    else if (order.seats.length >= ticketCount()) { message("You have " + ticketCount() + (ticketCount() === 1 ? " ticket" : " tickets") + ". Deselect a seat first, or add another ticket."); return; }
    else order.seats.push(id);
    renderSeats();
  }
  function gap() { // a single empty seat left between two occupied ones, at least one of them yours
    var occ = function (id) { return !!order.taken[id] || order.seats.indexOf(id) >= 0; };
    var mine = function (id) { return order.seats.indexOf(id) >= 0; };
    var bounds = [[1, AISLES[0]], [AISLES[0] + 1, AISLES[1]], [AISLES[1] + 1, SEATS]];
    for (var r = 0; r < ROWS.length; r++) for (var b = 0; b < bounds.length; b++) for (var n = bounds[b][0] + 1; n < bounds[b][1]; n++) {
      var row = ROWS[r], id = row + n, l = row + (n - 1), rt = row + (n + 1);
      if (!occ(id) && occ(l) && occ(rt) && (mine(l) || mine(rt))) return id;
    }
    return null;
  }
  function sortSeats(a) { return a.slice().sort(function (x, y) { return x[0] === y[0] ? Number(x.slice(1)) - Number(y.slice(1)) : x < y ? -1 : 1; }); }
  function money() {
    var t = order.tickets, p = LH.prices, tickets = t.adult * p.adult + t.child * p.child + t.senior * p.senior;
    var rec = order.seats.filter(function (s) { return RECLINER.indexOf(s[0]) >= 0; }).length * p.recliner;
    var off = order.code ? Math.round(tickets * LH.promo[order.code].off * 100) / 100 : 0;
    var fee = ticketCount() * p.fee;
    return { tickets: tickets, rec: rec, off: off, fee: fee, total: tickets + rec - off + fee };
  }
  function message(text) { $("seat-msg").textContent = text; $("seat-msg").hidden = !text; }
  function renderSeats() {
    Object.keys(seatEls).forEach(function (id) {
      var on = order.seats.indexOf(id) >= 0;
      seatEls[id].classList.toggle("sel", on);
      seatEls[id].setAttribute("aria-pressed", String(on));
    });
    document.querySelectorAll(".tk").forEach(function (row) {
      var n = order.tickets[row.dataset.kind];
      row.querySelector("output").textContent = String(n);
      row.querySelector(".minus").disabled = n === 0;
    });
    var n = ticketCount(), m = money(), left = n - order.seats.length, g = gap();
    $("t-count").textContent = n ? n + (n === 1 ? " ticket" : " tickets") + (left > 0 ? " · choose " + left + " more " + (left === 1 ? "seat" : "seats") : "") : "No tickets yet";
    $("t-seats").textContent = "Seats: " + (order.seats.length ? sortSeats(order.seats).join(", ") : "none chosen");
    $("t-total").textContent = gbp(m.tickets + m.rec);
    message(g ? "Please don't leave a single empty seat: " + g + " would be left on its own." : order.seats.length > n ? "You have more seats than tickets." : "");
    $("to-pay").disabled = !n || order.seats.length !== n || !!g;
  }

  // ------------------------------------------------------------------ payment
  function renderPay() {
    var s = order.show, t = order.tickets, p = LH.prices, m = money(), rows = [];
    $("p-show").textContent = s.film.title + " · " + longDay(s.day) + " at " + s.time + " · " + s.screen + " · Seats " + sortSeats(order.seats).join(", ");
    if (t.adult) rows.push([t.adult + " × Adult", gbp(t.adult * p.adult)]);
    if (t.child) rows.push([t.child + " × Child", gbp(t.child * p.child)]);
    if (t.senior) rows.push([t.senior + " × Senior", gbp(t.senior * p.senior)]);
    if (m.rec) rows.push(["Recliner supplement", gbp(m.rec)]);
    if (m.off) rows.push([LH.promo[order.code].label, "−" + gbp(m.off)]);
    rows.push(["Booking fee (" + ticketCount() + " × £0.95)", gbp(m.fee)]);
    $("p-lines").innerHTML = rows.map(function (r) { return "<tr><th scope='row'>" + r[0] + "</th><td>" + r[1] + "</td></tr>"; }).join("") +
      "<tr class='total'><th scope='row'>Total</th><td>" + gbp(m.total) + "</td></tr>";
    $("pay-btn").textContent = "Pay " + gbp(m.total);
  }
  function applyCode(e) {
    e.preventDefault();
    var code = $("code").value.trim().toUpperCase(), msg = $("code-msg");
    msg.hidden = false;
    if (LH.promo[code]) { order.code = code; msg.textContent = "Code " + code + " applied: " + LH.promo[code].label + "."; msg.className = "msg ok"; }
    else { order.code = null; msg.textContent = code ? "Sorry, " + code + " isn't a valid code for this showing." : "Enter a code first."; msg.className = "msg"; }
    renderPay();
  }
  function pay(e) {
    e.preventDefault();
    var email = $("email").value.trim(), err = "";
    if (!/^[^@\s]+@[^@\s]+\.[a-z]{2,}$/i.test(email)) err = "Enter the email address for your e-tickets.";
    else if (!$("terms").checked) err = "Please accept the booking terms.";
    $("pay-msg").textContent = err; $("pay-msg").hidden = !err;
    if (err) return;
    order.email = email;
    var ref = "LH-" + (hash(order.show.id + order.seats.join()) % 900000 + 100000);
    $("d-ref").textContent = "Booking reference " + ref;
    $("d-show").textContent = order.show.film.title + " · " + longDay(order.show.day) + " at " + order.show.time + " · " + order.show.screen;
    $("d-seats").textContent = "Seats " + sortSeats(order.seats).join(", ") + " · Paid " + gbp(money().total);
    $("d-mail").textContent = "Your e-tickets are on their way to " + email + ".";
    order.paid = true;
    location.hash = "#/done";
  }

  // ------------------------------------------------------------------ shell
  function route() {
    var h = location.hash, m = /^#\/book\/(.+)$/.exec(h), view = "on";
    if (m) { var s = findShow(m[1]); if (s && s.level !== "sold") { startOrder(s); view = "seats"; } }
    else if (h === "#/pay" && order && order.seats.length) view = "pay";
    else if (h === "#/done" && order && order.paid) view = "done";
    ["on", "seats", "pay", "done"].forEach(function (v) { $("view-" + v).hidden = v !== view; });
    if (view === "on") { if (order && order.paid) order = null; renderOn(); }
    if (view === "seats") {
      var f = order.show.film;
      $("seats-title").textContent = f.title;
      $("s-poster").src = "img/" + f.id + ".svg";
      $("s-when").textContent = longDay(order.show.day) + " at " + order.show.time + " · " + order.show.screen + " · " + f.cert + " · " + runtime(f.mins);
      renderSeats();
    }
    if (view === "pay") renderPay();
    window.scrollTo(0, 0);
  }
  document.querySelectorAll(".chip").forEach(function (c) { c.addEventListener("click", function () { chip = c.dataset.chip; renderOn(); }); });
  document.querySelectorAll(".tk").forEach(function (row) {
    var kind = row.dataset.kind;
    row.querySelector(".plus").addEventListener("click", function () {
      if (ticketCount() >= 10) { message("You can book up to 10 tickets at a time."); return; }
      order.tickets[kind]++; renderSeats();
    });
    row.querySelector(".minus").addEventListener("click", function () {
      if (!order.tickets[kind]) return;
      order.tickets[kind]--;
      while (order.seats.length > ticketCount()) order.seats.pop();
      renderSeats();
    });
  });
  $("to-pay").addEventListener("click", function () { location.hash = "#/pay"; });
  $("promo").addEventListener("submit", applyCode);
  $("payform").addEventListener("submit", pay);
  $("m-close").addEventListener("click", closeModal);
  $("backdrop").addEventListener("click", closeModal);
  document.addEventListener("keydown", function (e) { if (e.key === "Escape" && !$("modal").hidden) closeModal(); });
  window.addEventListener("hashchange", route);
  route();
})();
