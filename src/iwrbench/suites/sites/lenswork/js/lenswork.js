/* Lenswork: series tabs that filter the grid, and a lightbox that walks through the photographs
   shown in the grid (arrow keys, Escape). Everything else on the page is plain HTML and CSS. */
(function () {
  "use strict";
  var $ = function (id) { return document.getElementById(id); };
  var byId = {}, shown = [], at = 0, lastFocus = null;
  window.PHOTOS.forEach(function (p) { byId[p.id] = p; });

  function filter(series) {
    document.querySelectorAll(".tabs button").forEach(function (b) {
      b.setAttribute("aria-selected", String(b.dataset.series === series));
    });
    var n = 0;
    document.querySelectorAll(".ph").forEach(function (f) {
      var on = series === "all" || f.dataset.series === series;
      f.hidden = !on;
      if (on) n++;
    });
    $("count").textContent = n + (n === 1 ? " photograph" : " photographs");
  }

  function visibleIds() {
    return Array.prototype.filter.call(document.querySelectorAll(".ph"), function (f) { return !f.hidden; })
      .map(function (f) { return f.querySelector(".open").dataset.id; });
  }

  function show(i) {
    at = (i + shown.length) % shown.length;
    var p = byId[shown[at]];
    $("lb-img").src = "img/" + p.id + ".svg";
    $("lb-img").alt = p.title;
    $("lb-title").textContent = p.title;
    $("lb-place").textContent = p.place + " · " + p.year;
    $("lb-count").textContent = (at + 1) + " / " + shown.length;
    $("lb-note").textContent = p.note;
    $("lb-exif").textContent = p.exif;
  }
  function open(id) {
    shown = visibleIds();
    lastFocus = document.activeElement;
    $("lightbox").hidden = false;
    document.body.classList.add("locked");
    show(shown.indexOf(id));
    $("lb-close").focus();
  }
  function close() {
    $("lightbox").hidden = true;
    document.body.classList.remove("locked");
    if (lastFocus) lastFocus.focus();
  }

  document.querySelectorAll(".tabs button").forEach(function (b) {
    b.addEventListener("click", function () { filter(b.dataset.series); });
  });
  document.querySelectorAll(".ph .open").forEach(function (b) {
    b.addEventListener("click", function () { open(b.dataset.id); });
  });
  $("lb-prev").addEventListener("click", function () { show(at - 1); });
  $("lb-next").addEventListener("click", function () { show(at + 1); });
  $("lb-close").addEventListener("click", close);
  $("lb-info").addEventListener("click", function () {
    var on = $("lb-info").getAttribute("aria-expanded") !== "true";
    $("lb-info").setAttribute("aria-expanded", String(on));
    $("lb-info").textContent = on ? "Hide details" : "Details";
    $("lb-details").hidden = !on;
  });
  $("lightbox").addEventListener("click", function (e) { if (e.target === $("lightbox")) close(); });
  document.addEventListener("keydown", function (e) {
    if ($("lightbox").hidden) return;
    if (e.key === "Escape") close();
    else if (e.key === "ArrowRight") show(at + 1);
    else if (e.key === "ArrowLeft") show(at - 1);
  });
  document.querySelectorAll(".more").forEach(function (b) {
    b.addEventListener("click", function () {
      var rest = $(b.getAttribute("aria-controls")), on = rest.hidden;
      rest.hidden = !on;
      b.setAttribute("aria-expanded", String(on));
      b.textContent = on ? "Show less" : "Read more";
    });
  });
})();
