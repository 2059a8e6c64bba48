/* Open Wells donation page: a gift's amount, frequency and Gift Aid drive the impact line, the
   button label and the thank-you; the calculator turns a monthly sum into people and litres. */
(function () {
  "use strict";
  var $ = function (id) { return document.getElementById(id); };
  var PER_PERSON = 5;            // pounds for one person's safe water for a year
  var state = { freq: "once", amount: 25, other: false, giftaid: false, raised: 48210, supporters: 1146 };

  function money(v) {
    return "£" + (Math.round(v * 100) % 100 === 0 ? String(Math.round(v)) : v.toFixed(2));
  }
  function money2(v) { return "£" + v.toFixed(2); }
  function grouped(n) { return String(n).replace(/\B(?=(\d{3})+(?!\d))/g, ","); }
  function per() { return state.freq === "monthly" ? " a month" : ""; }

  function impactText(a) {
    var yearly = state.freq === "monthly" ? a * 12 : a;
    var people = Math.floor(yearly / PER_PERSON);
    if (people < 1) return money(a) + per() + " buys a set of washers that keeps a pump working.";
    return money(a) + per() + " gives " + people + (people === 1 ? " person" : " people") + " safe water for a year.";
  }

  function render() {
    var a = state.amount;
    var ok = a !== null && a >= 2;
    $("impact").textContent = ok ? impactText(a) : "Choose an amount to see what it does.";
    $("donate").textContent = ok ? "Donate " + money(a) + per() : "Donate";
    var note = $("ga-note");
    if (state.giftaid && ok) {
      note.hidden = false;
      note.textContent = "Your " + money2(a) + per() + " becomes " + money2(a * 1.25) + per() + " at no extra cost to you.";
    } else {
      note.hidden = true;
    }
    document.querySelectorAll(".amt").forEach(function (b) {
      b.classList.toggle("on", !state.other && Number(b.dataset.amt) === a);
    });
    document.querySelectorAll(".seg-b").forEach(function (b) {
      var on = b.dataset.freq === state.freq;
      b.classList.toggle("on", on);
      b.setAttribute("aria-pressed", on ? "true" : "false");
    });
  }

  document.querySelectorAll(".seg-b").forEach(function (b) {
    b.addEventListener("click", function () { state.freq = b.dataset.freq; render(); });
  });
  document.querySelectorAll(".amt").forEach(function (b) {
    b.addEventListener("click", function () {
      state.amount = Number(b.dataset.amt); state.other = false;
      $("other").value = ""; $("amt-err").textContent = ""; render();
    });
  });
  $("other").addEventListener("input", function () {
    var raw = this.value.trim().replace(/^£/, "");
    state.other = true;
    if (raw === "") { state.amount = null; $("amt-err").textContent = ""; render(); return; }
    var v = Number(raw);
    if (!/^\d+(\.\d{1,2})?$/.test(raw) || isNaN(v)) {
      state.amount = null; $("amt-err").textContent = "Enter an amount in pounds, like 15 or 12.50.";
    } else if (v < 2) {
      state.amount = null; $("amt-err").textContent = "The smallest gift we can take is £2.";
    } else {
      state.amount = v; $("amt-err").textContent = "";
    }
    render();
  });
  $("giftaid").addEventListener("change", function () { state.giftaid = this.checked; render(); });

  function fieldError(input, errId, msg) {
    $(errId).textContent = msg;
    input.classList.toggle("bad", !!msg);
    return !msg;
  }
  $("donate").addEventListener("click", function () {
    var name = $("name").value.trim(), email = $("email").value.trim();
    var okAmt = state.amount !== null && state.amount >= 2;
    if (!okAmt && !$("amt-err").textContent) $("amt-err").textContent = "Choose or enter an amount.";
    var okName = fieldError($("name"), "name-err", name ? "" : "Please tell us your name.");
    var okMail = fieldError($("email"), "email-err",
      /^[^\s@]+@[^\s@]+\.[a-z]{2,}$/i.test(email) ? "" : "Enter an email address like name@example.com.");
    if (!(okAmt && okName && okMail)) return;
    var a = state.amount, worth = state.giftaid ? a * 1.25 : a;
    var first = name.split(/\s+/)[0];
    $("thanks-h").textContent = "Thank you, " + first + "!";
    $("thanks-msg").textContent = (state.freq === "monthly" ? "Your monthly gift of " + money2(a) + " is set up." : "Your gift of " + money2(a) + " has been received.") +
      (state.giftaid ? " With Gift Aid it is worth " + money2(worth) + per() + " to the valley." : "") +
      " A receipt is on its way to " + email + ".";
    $("thanks-impact").textContent = impactText(worth).replace(/^£[\d.]+( a month)? gives/, "That gives");
    state.raised += worth; state.supporters += 1;
    $("raised").textContent = "£" + grouped(Math.round(state.raised));
    $("bar-fill").style.width = Math.min(100, state.raised / 600).toFixed(2) + "%";
    document.querySelector(".meta span").textContent = grouped(state.supporters) + " supporters";
    document.querySelector(".meta span:last-child").textContent = Math.floor(state.raised / 600) + "% of the goal";
    $("thanks").hidden = false;
    $("thanks-close").focus();
  });
  function closeModal() { $("thanks").hidden = true; }
  $("thanks-close").addEventListener("click", closeModal);
  document.addEventListener("keydown", function (e) { if (e.key === "Escape") closeModal(); });

  // Impact calculator
  var PROJECTS = {
    repair: { cost: 3, unit: "people with working pumps" },
    bore: { cost: 6, unit: "people with a new borehole" },
    tank: { cost: 9, unit: "pupils with water at school" }
  };
  function calc() {
    var m = Number($("calc-amt").value), p = PROJECTS[$("calc-proj").value], y = Number($("calc-years").value);
    var people = Math.floor(m * 12 / p.cost);
    $("calc-out").textContent = "£" + m;
    $("calc-people").textContent = grouped(people);
    $("calc-unit").textContent = p.unit;
    $("calc-litres").textContent = grouped(people * 7300 * y);
    $("calc-total").textContent = "£" + grouped(m * 12 * y);
  }
  function nudge(d) {
    var r = $("calc-amt"); r.value = String(Math.min(100, Math.max(5, Number(r.value) + d))); calc();
  }
  $("calc-minus").addEventListener("click", function () { nudge(-5); });
  $("calc-plus").addEventListener("click", function () { nudge(5); });
  ["calc-amt", "calc-proj", "calc-years"].forEach(function (id) {
    $(id).addEventListener("input", calc); $(id).addEventListener("change", calc);
  });

  // FAQ accordion: one answer open at a time
  document.querySelectorAll(".acc-h").forEach(function (h) {
    h.addEventListener("click", function () {
      var open = h.getAttribute("aria-expanded") === "true";
      document.querySelectorAll(".acc-h").forEach(function (o) {
        o.setAttribute("aria-expanded", "false"); $(o.getAttribute("aria-controls")).hidden = true;
      });
      if (!open) { h.setAttribute("aria-expanded", "true"); $(h.getAttribute("aria-controls")).hidden = false; }
    });
  });
  render(); calc();
})();
