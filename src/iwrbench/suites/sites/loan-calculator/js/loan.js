(function () {
  "use strict";
  var $ = function (id) { return document.getElementById(id); };
  var MONTHS = ["January", "February", "March", "April", "May", "June", "July", "August", "September", "October", "November", "December"];
  var START_YEAR = 2025;
  function num(id) { var v = $(id).value.replace(/[,$\s]/g, ""); return v === "" ? NaN : Number(v); }
  function money(n) { return "$" + n.toFixed(2).replace(/\B(?=(\d{3})+(?!\d))/g, ","); }
  function setErr(id, msg) {
    $(id + "-err").textContent = msg || "";
    $(id).closest(".affix").classList.toggle("bad", !!msg);
    $(id).setAttribute("aria-invalid", msg ? "true" : "false");
    return !msg;
  }
  function downPct() {
    var p = num("price"), d = num("down");
    $("down-pct").textContent = (p > 0 && d >= 0) ? (d / p * 100).toFixed(1) + "% of the home price" : "";
  }
  $("price").addEventListener("input", downPct);
  $("down").addEventListener("input", downPct);

  function schedule(principal, ratePct, years, extra) {
    var r = ratePct / 100 / 12, n = years * 12;
    var pay = r === 0 ? principal / n : principal * r / (1 - Math.pow(1 + r, -n));
    pay = Math.round(pay * 100) / 100;
    var bal = principal, rows = [];
    for (var k = 1; bal > 0.005 && k <= n; k++) {
      var interest = Math.round(bal * r * 100) / 100;
      var prin = Math.min(bal, pay - interest + extra);
      bal = Math.round((bal - prin) * 100) / 100;
      rows.push({ k: k, prin: prin, interest: interest, bal: bal });
    }
    return { pay: pay, rows: rows };
  }

  function calc(withExtra) {
    var price = num("price"), down = num("down"), rate = num("rate"), extra = num("extra");
    var ok = setErr("price", price > 0 ? "" : "Enter a home price greater than $0.");
    ok = setErr("down", down >= 0 && down < price ? "" : "Down payment must be less than the home price.") && ok;
    ok = setErr("rate", rate >= 0 && rate <= 25 ? "" : "Enter an interest rate between 0 and 25%.") && ok;
    if (!(extra >= 0)) extra = 0;
    if (!ok) return;
    var years = parseInt($("term").value, 10);
    var loan = price - down;
    var s = schedule(loan, rate, years, extra);
    var totInt = s.rows.reduce(function (a, x) { return a + x.interest; }, 0);
    var totPay = loan + totInt;
    $("monthly").textContent = money(s.pay + extra);
    $("monthly-note").textContent = extra > 0 ? "Principal and interest " + money(s.pay) + " + extra " + money(extra) : "Principal and interest only";
    $("loan-amt").textContent = money(loan);
    $("tot-int").textContent = money(totInt);
    $("tot-pay").textContent = money(totPay);
    var last = s.rows.length - 1;
    $("payoff").textContent = MONTHS[last % 12] + " " + (START_YEAR + Math.floor(last / 12));
    $("n-pay").textContent = String(s.rows.length);
    var share = totPay > 0 ? loan / totPay * 100 : 100;
    $("donut-principal").setAttribute("stroke-dasharray", share.toFixed(2) + " " + (100 - share).toFixed(2));
    $("donut-principal").setAttribute("stroke-dashoffset", "0");
    if (extra > 0) {
      var base = schedule(loan, rate, years, 0);
      var baseInt = base.rows.reduce(function (a, x) { return a + x.interest; }, 0);
      var saved = base.rows.length - s.rows.length;
      $("saving").hidden = false;
      $("saving").textContent = "Paying " + money(extra) + " extra each month saves " + money(baseInt - totInt) + " in interest and pays the loan off " +
        Math.floor(saved / 12) + " years " + (saved % 12) + " months early.";
    } else { $("saving").hidden = true; }
    // yearly table
    var yb = $("yearly-body"); yb.innerHTML = "";
    for (var y = 0; y * 12 < s.rows.length; y++) {
      var chunk = s.rows.slice(y * 12, y * 12 + 12);
      var p = chunk.reduce(function (a, x) { return a + x.prin; }, 0), i = chunk.reduce(function (a, x) { return a + x.interest; }, 0);
      var tr = document.createElement("tr");
      tr.innerHTML = "<td>" + (START_YEAR + y) + "</td><td>" + money(p) + "</td><td>" + money(i) + "</td><td>" + money(p + i) + "</td><td>" + money(chunk[chunk.length - 1].bal) + "</td>";
      yb.appendChild(tr);
    }
    var mb = $("monthly-body"); mb.innerHTML = "";
    s.rows.forEach(function (x) {
      var tr = document.createElement("tr");
      tr.innerHTML = "<td>" + x.k + "</td><td>" + MONTHS[(x.k - 1) % 12].slice(0, 3) + " " + (START_YEAR + Math.floor((x.k - 1) / 12)) + "</td><td>" + money(x.prin) + "</td><td>" + money(x.interest) + "</td><td>" + money(x.bal) + "</td>";
      mb.appendChild(tr);
    });
  }
  $("calc-form").addEventListener("submit", function (e) { e.preventDefault(); calc(); });

  var tabs = [$("tab-yearly"), $("tab-monthly")];
  tabs.forEach(function (t) {
    t.addEventListener("click", function () {
      tabs.forEach(function (o) {
        var on = o === t;
        o.setAttribute("aria-selected", String(on));
        o.tabIndex = on ? 0 : -1;
        $(o.getAttribute("aria-controls")).hidden = !on;
      });
    });
  });
  downPct();
  calc();
})();
