(function () {
  "use strict";
  var step = 1;
  var $ = function (id) { return document.getElementById(id); };
  var titles = { 1: "Account", 2: "Profile", 3: "Review" };

  function setError(id, msg) {
    var input = $(id), err = $(id + "-error");
    err.textContent = msg || "";
    if (input) {
      input.classList.toggle("invalid", !!msg);
      input.setAttribute("aria-invalid", msg ? "true" : "false");
    }
    return !msg;
  }

  function strength(pw) {
    var s = $("strength");
    s.className = "hint";
    if (!pw) { s.textContent = "Use 8 or more characters with a number."; return; }
    var score = (pw.length >= 8) + /\d/.test(pw) + /[A-Z]/.test(pw) + /[^A-Za-z0-9]/.test(pw);
    if (pw.length < 8 || score <= 1) { s.textContent = "Password strength: Weak"; s.classList.add("weak"); }
    else if (score <= 3) { s.textContent = "Password strength: Fair"; s.classList.add("fair"); }
    else { s.textContent = "Password strength: Strong"; s.classList.add("strong"); }
  }
  $("password").addEventListener("input", function () { strength(this.value); });

  function validate(n) {
    var ok = true;
    if (n === 1) {
      var email = $("email").value.trim();
      ok = setError("email", /^[^\s@]+@[^\s@]+\.[^\s@]+$/.test(email) ? "" : "Enter a valid email address.") && ok;
      var pw = $("password").value;
      ok = setError("password", pw.length >= 8 ? "" : "Password must be at least 8 characters.") && ok;
      var c = $("confirm").value;
      ok = setError("confirm", pw.length >= 8 && c !== pw ? "Passwords do not match." : "") && ok;
    } else if (n === 2) {
      ok = setError("fullname", $("fullname").value.trim() ? "" : "Please enter your full name.") && ok;
      ok = setError("role", $("role").value ? "" : "Please choose your role.") && ok;
    } else if (n === 3) {
      ok = setError("terms", $("terms").checked ? "" : "You must accept the terms to continue.") && ok;
    }
    return ok;
  }

  function show(n) {
    step = n;
    for (var i = 1; i <= 3; i++) { $("panel-" + i).hidden = i !== n; }
    $("progress-label").textContent = "Step " + n + " of 3 · " + titles[n];
    document.querySelectorAll(".step").forEach(function (li) {
      var k = +li.getAttribute("data-step");
      li.classList.toggle("current", k === n);
      li.classList.toggle("complete", k < n);
      li.querySelector(".dot").textContent = k < n ? "\u2713" : String(k);
      if (k === n) li.setAttribute("aria-current", "step"); else li.removeAttribute("aria-current");
    });
    $("bar-fill").style.width = Math.round(n / 3 * 100) + "%";
    $("back-btn").hidden = n === 1;
    $("next-btn").textContent = n === 3 ? "Create account" : "Next";
    if (n === 3) {
      var role = $("role");
      $("sum-email").textContent = $("email").value.trim();
      $("sum-name").textContent = $("fullname").value.trim();
      $("sum-role").textContent = role.options[role.selectedIndex].text;
      $("sum-team").textContent = $("team").value;
      $("sum-company").textContent = $("company").value.trim() || "—";
    }
  }

  $("wizard").addEventListener("submit", function (e) {
    e.preventDefault();
    if (!validate(step)) return;
    if (step < 3) { show(step + 1); return; }
    var first = $("fullname").value.trim().split(/\s+/)[0];
    $("wizard").hidden = true;
    document.querySelector(".progress").hidden = true;
    $("done").hidden = false;
    $("welcome").textContent = "Welcome aboard, " + first + "!";
    $("done-text").textContent = "We sent a confirmation link to " + $("email").value.trim() + ".";
  });
  $("back-btn").addEventListener("click", function () { if (step > 1) show(step - 1); });
  $("terms").addEventListener("change", function () { if (this.checked) setError("terms", ""); });
  show(1);
})();
