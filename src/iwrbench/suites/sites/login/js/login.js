(function () {
  "use strict";
  var $ = function (id) { return document.getElementById(id); };
  var attempts = 3;
  var USER = "demo@ledgerly.io", PASS = "correct-horse";
  function err(id, msg) {
    $(id + "-error").textContent = msg || "";
    $(id).classList.toggle("invalid", !!msg);
    $(id).setAttribute("aria-invalid", msg ? "true" : "false");
    return !msg;
  }
  function banner(msg, cls) {
    $("banner").hidden = !msg;
    $("banner").className = "banner" + (cls ? " " + cls : "");
    $("banner-text").textContent = msg || "";
  }
  function show(card) {
    ["signin-card", "reset-card", "home-card"].forEach(function (c) { $(c).hidden = c !== card; });
  }
  $("signin-form").addEventListener("submit", function (e) {
    e.preventDefault();
    var email = $("email").value.trim(), pw = $("password").value;
    var ok = err("email", !email ? "Email is required." : (/^[^\s@]+@[^\s@]+\.[^\s@]+$/.test(email) ? "" : "Enter a valid email address."));
    ok = err("password", pw ? "" : "Password is required.") && ok;
    if (!ok) { banner(""); return; }
    if (email.toLowerCase() === USER && pw === PASS) {
      banner("");
      $("home-title").textContent = "Welcome back, Demo!";
      $("home-text").textContent = "Signed in as " + USER + ($("remember").checked ? " · you will stay signed in for 30 days." : " · this session ends when you close the browser.");
      show("home-card");
      return;
    }
    attempts--;
    if (attempts <= 0) {
      banner("Too many failed attempts. Your account is locked for 15 minutes.", "locked");
      $("signin-btn").disabled = true;
    } else {
      banner("Incorrect email or password. " + attempts + (attempts === 1 ? " attempt left." : " attempts left."));
    }
  });
  $("toggle-pw").addEventListener("click", function () {
    var shown = $("password").type === "text";
    $("password").type = shown ? "password" : "text";
    this.textContent = shown ? "Show" : "Hide";
    this.setAttribute("aria-pressed", String(!shown));
    this.setAttribute("aria-label", shown ? "Show password" : "Hide password");
  });
  $("toggle-pw").setAttribute("aria-label", "Show password");
  $("forgot-link").addEventListener("click", function (e) {
    e.preventDefault();
    $("reset-email").value = $("email").value;
    $("reset-note").hidden = true; $("reset-form").hidden = false;
    show("reset-card");
  });
  $("back-link").addEventListener("click", function (e) { e.preventDefault(); show("signin-card"); });
  $("reset-form").addEventListener("submit", function (e) {
    e.preventDefault();
    var v = $("reset-email").value.trim();
    if (!err("reset-email", /^[^\s@]+@[^\s@]+\.[^\s@]+$/.test(v) ? "" : "Enter a valid email address.")) return;
    $("reset-form").hidden = true;
    $("reset-note").hidden = false;
    $("reset-note").textContent = "Check your inbox: we sent a reset link to " + v + ".";
  });
  $("signout-btn").addEventListener("click", function () {
    $("password").value = "";
    show("signin-card");
    banner("You have been signed out.", "locked");
  });
})();
