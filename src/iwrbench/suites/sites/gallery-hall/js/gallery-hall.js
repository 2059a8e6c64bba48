/* Fenwick Hall exhibition page: the section under the header is marked in the menu as the page scrolls; the
   room plan tells what each room holds; ticket tabs; a menu button on phones. */
(function () {
  "use strict";
  var $ = function (id) { return document.getElementById(id); };
  var ROOMS = {
    4: ["Room 4", "Measuring the mouth", "Hurne's chart, the 1812 survey and the pilots' own sketchbooks.", 38],
    5: ["Room 5", "The Great Bank", "The storm of 1847 in prints and letters; the Voss herbarium (low light).", 31],
    6: ["Room 6", "Steam and dredging", "Builder's models, dredger logs and the first channel buoys.", 27],
    7: ["Room 7", "The modern port", "Railway plans, tide almanacs and the last pilot cutter's log.", 46]
  };
  // scroll spy: the last section whose top has passed under the header
  var links = Array.prototype.slice.call(document.querySelectorAll(".nav a"));
  function spy() {
    var cur = null;
    links.forEach(function (a) { var s = $(a.getAttribute("data-s")); if (s.getBoundingClientRect().top < 140) cur = a; });
    links.forEach(function (a) { a.classList.toggle("on", a === cur); });
    document.querySelector(".site").classList.toggle("scrolled", window.scrollY > 10);
  }
  window.addEventListener("scroll", spy, { passive: true });
  spy();
  // room plan
  document.querySelectorAll(".room").forEach(function (g) {
    function show() {
      var r = ROOMS[g.getAttribute("data-room")];
      document.querySelectorAll(".room").forEach(function (x) { x.classList.toggle("on", x === g); });
      $("room-info").innerHTML = '<p class="ri-room">' + r[0] + "</p><h3>" + r[1] + "</h3><p>" + r[2] + '</p><p class="ri-n"><b>' + r[3] + "</b> objects</p>";
    }
    g.addEventListener("mouseenter", show);
    g.addEventListener("click", show);
  });
  // ticket tabs
  var tabs = ["day", "members", "groups"];
  tabs.forEach(function (t) {
    $("tab-" + t).addEventListener("click", function () {
      tabs.forEach(function (u) { $("tab-" + u).setAttribute("aria-selected", String(u === t)); $("panel-" + u).hidden = u !== t; });
    });
  });
  // phone menu
  $("burger").addEventListener("click", function () {
    var open = $("burger").getAttribute("aria-expanded") !== "true";
    $("burger").setAttribute("aria-expanded", String(open)); document.body.classList.toggle("menu-open", open);
  });
  links.forEach(function (a) { a.addEventListener("click", function () { $("burger").setAttribute("aria-expanded", "false"); document.body.classList.remove("menu-open"); }); });
})();
