/* Fernside Health Centre: book a clinician (filters, a month calendar of free days, time slots, a
   validated details form) and a symptom checker that scores the answers into a kind of care.
   "Today" is the page's clock, so a recording freezes it. */
(function () {
  "use strict";
  var $ = function (id) { return document.getElementById(id); };
  var DOCS = [
    { id: "ha", name: "Dr Helen Achterberg", role: "GP partner", svc: "GP", langs: ["English", "Dutch"], days: [1, 2, 4], room: 2, since: 2011, c: "#1f6fb2" },
    { id: "sq", name: "Dr Samir Qureshi-Lowe", role: "GP", svc: "GP", langs: ["English", "Urdu"], days: [1, 3, 5], room: 3, since: 2016, c: "#7a4fb0" },
    { id: "nc", name: "Dr Niamh Corrigan", role: "GP", svc: "GP", langs: ["English", "Irish"], days: [2, 3, 4, 5], room: 4, since: 2019, c: "#13795b" },
    { id: "tr", name: "Tomás Ribeiro", role: "Practice nurse", svc: "Nurse", langs: ["English", "Portuguese"], days: [1, 2, 3, 4, 5], room: 6, since: 2015, c: "#b0602a" },
    { id: "ak", name: "Agata Kowalczyk", role: "Practice nurse", svc: "Nurse", langs: ["English", "Polish"], days: [1, 3], room: 7, since: 2021, c: "#a23b62" },
    { id: "el", name: "Ewa Lindqvist", role: "Physiotherapist", svc: "Physio", langs: ["English"], days: [2, 4], room: 9, since: 2018, c: "#2b7c8f" }
  ];
  var LANG_NAMES = { Dutch: "Nederlands", Urdu: "اردو", Irish: "Gaeilge", Portuguese: "Português", Polish: "Polski", English: "English" };
  var TIMES = ["08:30", "08:50", "09:10", "09:30", "09:50", "10:10", "10:30", "10:50", "11:10", "11:30"];
  var MONTHS = ["January", "February", "March", "April", "May", "June", "July", "August", "September", "October", "November", "December"];
  var DAYS = ["Sunday", "Monday", "Tuesday", "Wednesday", "Thursday", "Friday", "Saturday"];
  var now = new Date();
  var today = new Date(now.getFullYear(), now.getMonth(), now.getDate());
  var st = { doc: null, month: new Date(today.getFullYear(), today.getMonth(), 1), day: null, time: null, mine: [], pain: 0 };

  function sameDay(a, b) { return a && b && a.getTime() === b.getTime(); }
  function docIndex(d) { return DOCS.indexOf(d); }
  function slotsFor(doc, date) {
    if (date < today || doc.days.indexOf(date.getDay()) < 0) return null;
    var k = docIndex(doc), dom = date.getDate() + date.getMonth() * 31;
    var full = (dom + k) % 6 === 0;
    return TIMES.map(function (t, i) {
      var booked = full || (dom * 31 + i * 17 + k * 7) % 10 < 6;
      if (sameDay(date, today) && Number(t.replace(":", "")) < now.getHours() * 100 + now.getMinutes() + 60) booked = true;
      if (st.mine.some(function (m) { return m.doc === doc.id && sameDay(m.date, date) && m.time === t; })) booked = true;
      return { t: t, booked: booked };
    });
  }
  function freeCount(doc, date) { var s = slotsFor(doc, date); return s ? s.filter(function (x) { return !x.booked; }).length : 0; }
  function nextFree(doc) {
    for (var i = 0; i < 45; i++) {
      var d = new Date(today.getFullYear(), today.getMonth(), today.getDate() + i), s = slotsFor(doc, d);
      var f = s && s.filter(function (x) { return !x.booked; })[0];
      if (f) return (i === 0 ? "Today" : i === 1 ? "Tomorrow" : DAYS[d.getDay()].slice(0, 3) + " " + d.getDate() + " " + MONTHS[d.getMonth()].slice(0, 3)) + ", " + f.t;
    }
    return "No slots in the next 6 weeks";
  }
  function longDate(d) { return DAYS[d.getDay()] + " " + d.getDate() + " " + MONTHS[d.getMonth()] + " " + d.getFullYear(); }
  function avatar(doc) {
    var ini = doc.name.replace(/^Dr /, "").split(/[ -]/).map(function (w) { return w[0]; }).slice(0, 2).join("");
    return '<svg width="46" height="46" viewBox="0 0 46 46" aria-hidden="true"><circle cx="23" cy="23" r="23" fill="' + doc.c + '"/><text x="23" y="28" text-anchor="middle" font-size="16" font-weight="700" fill="#fff" font-family="Arial,sans-serif">' + ini + "</text></svg>";
  }

  function renderDocs() {
    var svc = $("svc").value, lang = $("lang").value;
    var list = DOCS.filter(function (d) { return (svc === "all" || d.svc === svc) && (lang === "all" || d.langs.indexOf(lang) >= 0); });
    $("docs").innerHTML = list.length ? list.map(function (d) {
      return '<article class="doc"><div class="doc-top">' + avatar(d) + "<div><h3>" + d.name + '</h3><span class="role">' + d.role + " · at Fernside since " + d.since + '</span></div></div><div class="langs">' +
        d.langs.map(function (l) { return '<span class="lang">' + l + '<span class="tt">' + LANG_NAMES[l] + "</span></span>"; }).join("") +
        '</div><p class="next">Next available: <b>' + nextFree(d) + "</b></p><p class=\"role\">Works " + d.days.map(function (x) { return DAYS[x].slice(0, 3); }).join(", ") + '</p><button type="button" class="primary" data-doc="' + d.id + '">Book with ' + (d.name.indexOf("Dr ") === 0 ? "Dr " + d.name.split(" ").slice(-1)[0] : d.name.split(" ")[0]) + "</button></article>";
    }).join("") : '<p class="empty">Nobody matches. Try another service or language.</p>';
  }

  function progress(n) {
    document.querySelectorAll("#prog li").forEach(function (li, i) { li.className = i + 1 === n ? "on" : i + 1 < n ? "past" : ""; });
    ["b1", "b2", "b3", "b4"].forEach(function (b, i) { $(b).hidden = i + 1 !== n; });
    $("prog").hidden = n === 4;
  }

  function renderCal() {
    var m = st.month, doc = st.doc;
    $("cal-month").textContent = MONTHS[m.getMonth()] + " " + m.getFullYear();
    $("prev-m").disabled = m.getFullYear() === today.getFullYear() && m.getMonth() === today.getMonth();
    $("next-m").disabled = (m.getFullYear() * 12 + m.getMonth()) - (today.getFullYear() * 12 + today.getMonth()) >= 1;
    var html = ["Mo", "Tu", "We", "Th", "Fr", "Sa", "Su"].map(function (d) { return '<span class="dow">' + d + "</span>"; }).join("");
    var first = (m.getDay() + 6) % 7, days = new Date(m.getFullYear(), m.getMonth() + 1, 0).getDate();
    for (var i = 0; i < first; i++) html += "<span></span>";
    for (var d = 1; d <= days; d++) {
      var date = new Date(m.getFullYear(), m.getMonth(), d), s = slotsFor(doc, date), free = freeCount(doc, date);
      var cls = "day" + (s ? (free ? " free" : " full") : "") + (sameDay(date, today) ? " today" : "") + (sameDay(date, st.day) ? " sel" : "");
      html += '<button type="button" class="' + cls + '" data-d="' + d + '"' + (s && free ? "" : " disabled") + ' aria-label="' + longDate(date) + (s ? ", " + free + " free" : "") + '">' + d + "</button>";
    }
    $("cal-grid").innerHTML = html;
  }
  function renderSlots() {
    if (!st.day) { $("slots-title").textContent = "Pick a day"; $("slots").innerHTML = '<p class="muted" style="grid-column:1/-1">Days with a green dot have free appointments.</p>'; $("to3").disabled = true; return; }
    var s = slotsFor(st.doc, st.day), free = s.filter(function (x) { return !x.booked; }).length;
    $("slots-title").textContent = longDate(st.day) + " · " + free + " free";
    $("slots").innerHTML = s.map(function (x) { return '<button type="button" class="slot' + (x.t === st.time ? " sel" : "") + '" data-t="' + x.t + '"' + (x.booked ? " disabled" : "") + ">" + x.t + "</button>"; }).join("");
    $("to3").disabled = !st.time;
    $("to3").textContent = st.time ? "Continue with " + st.time : "Continue";
  }
  function renderSum() {
    $("sum").innerHTML = "<h2>Your appointment</h2><dl><dt>With</dt><dd>" + st.doc.name + " (" + st.doc.role + ")</dd><dt>When</dt><dd>" + longDate(st.day) + " at " + st.time + "</dd><dt>Where</dt><dd>Fernside Health Centre, room " + st.doc.room + "</dd><dt>Length</dt><dd>10 minutes</dd></dl>";
  }

  $("svc").addEventListener("change", renderDocs);
  $("lang").addEventListener("change", renderDocs);
  $("docs").addEventListener("click", function (e) {
    var b = e.target.closest("[data-doc]"); if (!b) return;
    st.doc = DOCS.filter(function (d) { return d.id === b.dataset.doc; })[0];
    st.day = null; st.time = null; st.month = new Date(today.getFullYear(), today.getMonth(), 1);
    $("b2-title").textContent = "When would you like to see " + st.doc.name + "?";
    progress(2); renderCal(); renderSlots();
  });
  $("cal-grid").addEventListener("click", function (e) {
    var b = e.target.closest(".day"); if (!b || b.disabled) return;
    st.day = new Date(st.month.getFullYear(), st.month.getMonth(), Number(b.dataset.d)); st.time = null;
    renderCal(); renderSlots();
  });
  $("slots").addEventListener("click", function (e) {
    var b = e.target.closest(".slot"); if (!b || b.disabled) return;
    st.time = b.dataset.t; renderSlots();
  });
  $("prev-m").addEventListener("click", function () { st.month = new Date(st.month.getFullYear(), st.month.getMonth() - 1, 1); renderCal(); });
  $("next-m").addEventListener("click", function () { st.month = new Date(st.month.getFullYear(), st.month.getMonth() + 1, 1); renderCal(); });
  $("to3").addEventListener("click", function () { progress(3); renderSum(); });
  $("back1").addEventListener("click", function () { progress(1); renderDocs(); });
  $("back2").addEventListener("click", function () { progress(2); renderCal(); renderSlots(); });

  function check(input, errId, msg) { $(errId).textContent = msg; input.classList.toggle("bad", !!msg); return !msg; }
  function dobError(v) {
    var m = v.match(/^(\d{2})\/(\d{2})\/(\d{4})$/);
    if (!m) return "Enter your date of birth as DD/MM/YYYY.";
    var d = new Date(Number(m[3]), Number(m[2]) - 1, Number(m[1]));
    if (d.getDate() !== Number(m[1]) || d.getMonth() !== Number(m[2]) - 1) return "That date does not exist.";
    if (d >= today) return "Your date of birth must be in the past.";
    return "";
  }
  $("details").addEventListener("submit", function (e) {
    e.preventDefault();
    var name = $("pname").value.trim(), phone = $("phone").value.replace(/\s+/g, "");
    var ok = check($("pname"), "pname-err", name.split(/\s+/).length >= 2 ? "" : "Enter your first name and surname.");
    ok = check($("dob"), "dob-err", dobError($("dob").value.trim())) && ok;
    ok = check($("phone"), "phone-err", /^07\d{9}$/.test(phone) ? "" : "Enter a UK mobile number, like 07700 900123.") && ok;
    if (!ok) return;
    var ref = "FHC-" + String(st.day.getMonth() + 1).padStart(2, "0") + String(st.day.getDate()).padStart(2, "0") + "-" + st.time.replace(":", "") + "-" + st.doc.id.toUpperCase();
    st.mine.push({ doc: st.doc.id, date: st.day, time: st.time, ref: ref, who: name });
    $("nav-mine").dataset.count = st.mine.length;
    $("done-msg").textContent = name.split(/\s+/)[0] + ", you are seeing " + st.doc.name + " on " + longDate(st.day) + " at " + st.time + " in room " + st.doc.room + ". We will text a reminder to " + $("phone").value.trim() + " the day before.";
    $("done-ref").textContent = "Reference " + ref;
    progress(4);
  });
  $("again").addEventListener("click", function () { $("details").reset(); progress(1); renderDocs(); });

  // Symptom checker
  var SYMPTOM_POINTS = { cough: 0, stomach: 1, headache: 0, rash: 0, urine: 1, back: 0 };
  $("pain").innerHTML = Array.from({ length: 11 }, function (_, i) { return '<button type="button" data-p="' + i + '">' + i + "</button>"; }).join("");
  function painColour(p) { return p >= 7 ? "#b42318" : p >= 4 ? "#c27a0e" : "#13795b"; }
  $("pain").addEventListener("click", function (e) {
    var b = e.target.closest("[data-p]"); if (!b) return;
    st.pain = Number(b.dataset.p); $("pain-out").textContent = st.pain;
    document.querySelectorAll("#pain button").forEach(function (x) {
      var on = Number(x.dataset.p) === st.pain; x.classList.toggle("sel", on); x.style.background = on ? painColour(st.pain) : "";
    });
  });
  $("tri").addEventListener("submit", function (e) {
    e.preventDefault();
    var sym = $("symptom").value, tRaw = $("temp").value.trim().replace(",", "."), t = tRaw === "" ? null : Number(tRaw);
    var ok = check($("symptom"), "symptom-err", sym ? "" : "Choose your main symptom.");
    ok = check($("temp"), "temp-err", tRaw === "" || (/^\d{2}(\.\d)?$/.test(tRaw) && t >= 34 && t <= 43) ? "" : "Enter a temperature between 34 and 43 °C, like 38.4.") && ok;
    if (!ok) return;
    var res = $("result");
    if ($("rf-chest").checked || $("rf-breath").checked) {
      res.innerHTML = '<div class="verdict v-red"><h2>Call 999 now</h2><p>Chest pain or struggling to breathe needs emergency care. Do not wait for an appointment.</p></div>';
      return;
    }
    var why = [], dur = Number(document.querySelector("input[name=dur]:checked").value);
    if (SYMPTOM_POINTS[sym]) why.push([$("symptom").selectedOptions[0].text, SYMPTOM_POINTS[sym]]);
    if (dur) why.push([dur === 2 ? "More than a week" : "2 to 7 days", dur]);
    if (t !== null && t >= 39.5) why.push(["High temperature (" + t.toFixed(1) + " °C)", 4]);
    else if (t !== null && t >= 38) why.push(["Temperature (" + t.toFixed(1) + " °C)", 2]);
    if (st.pain >= 7) why.push(["Severe pain (" + st.pain + "/10)", 3]);
    else if (st.pain >= 4) why.push(["Moderate pain (" + st.pain + "/10)", 1]);
    if ($("rf-over65").checked) why.push(["Aged 65 or older", 1]);
    if ($("rf-preg").checked) why.push(["Pregnant", 2]);
    var score = why.reduce(function (s, w) { return s + w[1]; }, 0), v;
    if (score >= 5) v = ["v-amber", "Same-day appointment", "Call us before 11:00 or book the first free GP slot today."];
    else if (score >= 2) v = ["v-blue", "Routine GP appointment", "Book a GP appointment in the next two weeks."];
    else v = ["v-green", "Pharmacy and self-care", "A pharmacist can advise you today; no appointment is needed."];
    res.innerHTML = '<div class="verdict ' + v[0] + '"><h2>' + v[1] + "</h2><p>" + v[2] + '</p></div><p class="score">Score ' + score + " of 13</p><ul class=\"why\">" +
      (why.length ? why.map(function (w) { return "<li><span>" + w[0] + "</span><b>+" + w[1] + "</b></li>"; }).join("") : "<li><span>Nothing that raises the score</span><b>0</b></li>") +
      '</ul><a class="primary" href="#/book" id="tri-book" style="display:inline-block;text-decoration:none">Book an appointment</a>';
  });

  function route() {
    var h = location.hash || "#/book";
    $("v-book").hidden = h !== "#/book"; $("v-triage").hidden = h !== "#/triage"; $("v-mine").hidden = h !== "#/mine";
    ["book", "triage", "mine"].forEach(function (k) { $("nav-" + k).classList.toggle("on", h === "#/" + k); });
    if (h === "#/mine") {
      $("mine").innerHTML = st.mine.length ? st.mine.map(function (m) {
        var d = DOCS.filter(function (x) { return x.id === m.doc; })[0];
        return '<div class="appt"><div><strong>' + longDate(m.date) + " at " + m.time + "</strong><br><span class=\"muted\">" + d.name + ", room " + d.room + "</span></div><span class=\"ref\">" + m.ref + "</span></div>";
      }).join("") : '<p class="empty">You have no upcoming appointments.</p>';
    }
    if (h === "#/book" && !$("b1").hidden) renderDocs();
    window.scrollTo(0, 0);
  }
  window.addEventListener("hashchange", route);
  renderDocs(); route();
})();
