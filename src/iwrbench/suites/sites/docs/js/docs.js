(function () {
  "use strict";
  var links = Array.prototype.slice.call(document.querySelectorAll("#toc a"));
  var heads = links.map(function (a) { return document.getElementById(a.getAttribute("data-target")); });
  var crumb = document.getElementById("crumb-current");
  function spy() {
    var line = 140, cur = 0;
    heads.forEach(function (h, i) { if (h.getBoundingClientRect().top <= line) cur = i; });
    if (window.innerHeight + window.scrollY >= document.documentElement.scrollHeight - 2) cur = heads.length - 1;
    links.forEach(function (a, i) {
      if (i === cur) { a.classList.add("active"); a.setAttribute("aria-current", "location"); }
      else { a.classList.remove("active"); a.removeAttribute("aria-current"); }
    });
    crumb.textContent = links[cur].textContent;
  }
  window.addEventListener("scroll", spy, { passive: true });
  window.addEventListener("resize", spy);
  spy();
  document.querySelectorAll(".copy").forEach(function (b) {
    b.addEventListener("click", function () {
      var text = b.closest(".code").querySelector("code").textContent;
      try { if (navigator.clipboard) navigator.clipboard.writeText(text).catch(function () {}); } catch (e) { /* ignore */ }
      b.textContent = "Copied!";
      b.classList.add("done");
    });
  });
})();
