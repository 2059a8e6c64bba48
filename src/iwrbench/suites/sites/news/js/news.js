(function () {
  "use strict";
  var STORIES = [
    { sec: "World", t: "Ceasefire talks to resume on Friday, mediators say", time: "08:42", mins: 3 },
    { sec: "Business", t: "Harbour Bank profits rise 12% on higher lending margins", time: "08:30", mins: 4 },
    { sec: "Tech", t: "City rolls out free public wi-fi on every tram line", time: "08:15", mins: 2 },
    { sec: "Sport", t: "Olympic sailing trials to be held in the outer harbour", time: "07:58", mins: 3 },
    { sec: "Business", t: "Coffee prices hit a 13-year high as harvests shrink", time: "07:41", mins: 5 },
    { sec: "World", t: "Volcano on Isla Verde erupts; flights diverted", time: "07:20", mins: 2 },
    { sec: "Tech", t: "Start-up unveils a phone charger that runs on sea water", time: "07:02", mins: 4 },
    { sec: "Sport", t: "Tennis: local teenager reaches quarter-finals in Madrid", time: "06:47", mins: 3 },
    { sec: "Business", t: "Port strike called off after late-night pay deal", time: "06:30", mins: 4 },
    { sec: "World", t: "Record number of students apply to study abroad", time: "06:12", mins: 3 },
    { sec: "Tech", t: "Review: the e-reader that finally gets footnotes right", time: "05:55", mins: 6 },
    { sec: "Sport", t: "Harbour marathon route changed because of bridge works", time: "05:31", mins: 2 }
  ];
  var $ = function (id) { return document.getElementById(id); };
  var sec = "all", limit = 6;

  function renderFeed() {
    var list = STORIES.filter(function (s) { return sec === "all" || s.sec === sec; });
    var shown = list.slice(0, limit);
    var ul = $("feed");
    ul.innerHTML = "";
    shown.forEach(function (s) {
      var li = document.createElement("li");
      li.innerHTML = '<span class="time">' + s.time + '</span><span class="tag ' + s.sec.toLowerCase() + '">' + s.sec + '</span>' +
        '<a href="#">' + s.t + '</a><span class="mins">' + s.mins + ' min read</span>';
      ul.appendChild(li);
    });
    $("feed-count").textContent = "Showing " + shown.length + " of " + list.length + " stories";
    $("load-more").hidden = shown.length >= list.length;
    document.querySelectorAll(".filters button").forEach(function (b) {
      b.setAttribute("aria-pressed", String(b.getAttribute("data-sec") === sec));
    });
    $("latest-title").textContent = sec === "all" ? "Latest news" : "Latest in " + sec;
  }
  document.querySelectorAll(".filters button").forEach(function (b) {
    b.addEventListener("click", function () { sec = b.getAttribute("data-sec"); limit = 6; renderFeed(); });
  });
  $("load-more").addEventListener("click", function () { limit += 6; renderFeed(); });

  var tabs = Array.prototype.slice.call(document.querySelectorAll("[role=tab]"));
  function select(tab) {
    tabs.forEach(function (t) {
      var on = t === tab;
      t.setAttribute("aria-selected", String(on));
      t.tabIndex = on ? 0 : -1;
      $(t.getAttribute("aria-controls")).hidden = !on;
    });
  }
  tabs.forEach(function (t, i) {
    t.addEventListener("click", function () { select(t); });
    t.addEventListener("keydown", function (e) {
      var j = e.key === "ArrowRight" ? (i + 1) % tabs.length : e.key === "ArrowLeft" ? (i - 1 + tabs.length) % tabs.length : -1;
      if (j >= 0) { select(tabs[j]); tabs[j].focus(); }
    });
  });

  // Accordion: one section open at a time.
  var accBtns = Array.prototype.slice.call(document.querySelectorAll("#acc button"));
  accBtns.forEach(function (b) {
    b.addEventListener("click", function () {
      var open = b.getAttribute("aria-expanded") === "true";
      accBtns.forEach(function (o) {
        o.setAttribute("aria-expanded", "false");
        $(o.getAttribute("aria-controls")).hidden = true;
      });
      if (!open) {
        b.setAttribute("aria-expanded", "true");
        $(b.getAttribute("aria-controls")).hidden = false;
      }
    });
  });

  $("newsletter").addEventListener("submit", function (e) {
    e.preventDefault();
    var v = $("nl-email").value.trim(), m = $("nl-msg");
    if (!/^[^\s@]+@[^\s@]+\.[^\s@]+$/.test(v)) { m.textContent = "Please enter a valid email address."; m.className = "nl-msg bad"; return; }
    m.textContent = "Thanks! The Morning Brief will arrive at " + v + " from tomorrow.";
    m.className = "nl-msg ok";
    $("nl-btn").textContent = "Subscribed ✓";
    $("nl-btn").disabled = true;
  });
  renderFeed();
})();
