/* Hireline: filters narrow the job list as they change (keywords, town, type, remote, minimum salary, age of the
   advert) with counts per job type; a job opens in the right-hand pane; the application form checks every field,
   lists the errors at the top and, once sent, gives a reference made from the applicant's name and the job. */
(function () {
  "use strict";
  var $ = function (id) { return document.getElementById(id); };
  var J = window.JOBS, current = null, saved = {}, applied = {};

  function esc(s) { return String(s).replace(/[&<>"]/g, function (c) { return { "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;" }[c]; }); }
  function ago(d) { return d === 0 ? "Today" : d === 1 ? "Yesterday" : d + " days ago"; }
  function initials(co) { return co.replace(/[^A-Za-z ]/g, "").split(" ").filter(Boolean).slice(0, 2).map(function (w) { return w[0]; }).join(""); }
  function pay(j) { return "£" + j.lo + ",000 – £" + j.hi + ",000"; }

  /* ---------- filtering ---------- */
  function state() {
    return {
      kw: $("kw").value.trim().toLowerCase(), town: $("town").value,
      types: Array.prototype.slice.call(document.querySelectorAll("input[name=type]:checked")).map(function (i) { return i.value; }),
      remote: $("remote").checked, sal: +$("sal").value, posted: +document.querySelector("input[name=posted]:checked").value
    };
  }
  function match(j, s, ignoreType) {
    if (s.kw && (j.t + " " + j.co + " " + j.tags.join(" ")).toLowerCase().indexOf(s.kw) < 0) return false;
    if (s.town && j.town !== s.town) return false;
    if (!ignoreType && s.types.length && s.types.indexOf(j.type) < 0) return false;
    if (s.remote && !j.remote) return false;
    if (j.hi < s.sal) return false;
    if (j.days > s.posted) return false;
    return true;
  }
  function render() {
    var s = state(), list = J.filter(function (j) { return match(j, s); });
    list.sort($("sort").value === "pay" ? function (a, b) { return b.hi - a.hi || a.days - b.days; } : function (a, b) { return a.days - b.days || a.id - b.id; });
    $("sal-out").textContent = s.sal > 20 ? "£" + s.sal + "k or more" : "Any";
    document.querySelectorAll(".n").forEach(function (n) {
      var t = n.getAttribute("data-n");
      n.textContent = J.filter(function (j) { return j.type === t && match(j, s, true); }).length;
    });
    $("count").innerHTML = "<b>" + list.length + "</b> " + (list.length === 1 ? "job" : "jobs") + (s.kw ? " for ‘" + esc($("kw").value.trim()) + "’" : "") + (s.town ? " in " + s.town : "");
    $("list").innerHTML = list.length ? list.map(function (j) {
      return '<li><button type="button" class="job' + (current === j.id ? " on" : "") + '" data-id="' + j.id + '" id="job-' + j.id + '">' +
        '<span class="logo" style="background:' + j.c + '">' + initials(j.co) + '</span><span class="jt">' + esc(j.t) + "</span>" +
        '<span class="jc">' + esc(j.co) + " · " + j.town + '</span><span class="jm"><span class="pay">£' + j.lo + "k–£" + j.hi + "k</span>" +
        '<span class="tag">' + j.type + "</span>" + (j.remote ? '<span class="tag rem">Remote / hybrid</span>' : "") + "</span>" +
        '<span class="age">' + ago(j.days) + "</span>" + (applied[j.id] ? '<span class="applied">Applied</span>' : "") + (j.days <= 1 ? '<span class="new">New</span>' : "") + "</button></li>";
    }).join("") : '<li class="none"><b>No jobs match.</b> Try fewer filters or <button type="button" class="link" id="none-clear">clear them all</button>.</li>';
    if (current && !list.some(function (j) { return j.id === current; })) { current = null; }
    renderDetail();
  }
  function renderDetail() {
    var j = J.filter(function (x) { return x.id === current; })[0], d = $("detail");
    if (!j) { d.innerHTML = '<div class="empty"><svg viewBox="0 0 60 60" width="60" height="60" aria-hidden="true"><rect x="8" y="16" width="44" height="32" rx="5" fill="none" stroke="#9bb5ab" stroke-width="3"/><path d="M22 16v-4a3 3 0 0 1 3-3h10a3 3 0 0 1 3 3v4" fill="none" stroke="#9bb5ab" stroke-width="3"/></svg><p>Choose a job to see the details.</p></div>'; return; }
    d.innerHTML = '<div class="dh"><span class="logo big" style="background:' + j.c + '">' + initials(j.co) + "</span><div><h2>" + esc(j.t) + "</h2><p>" + esc(j.co) + " · " + j.town + "</p></div></div>" +
      '<ul class="facts"><li><b>Salary</b>' + pay(j) + "</li><li><b>Type</b>" + j.type + "</li><li><b>Working</b>" + (j.remote ? "Remote or hybrid" : "On site") + "</li><li><b>Posted</b>" + ago(j.days) + "</li></ul>" +
      '<div class="acts"><button type="button" class="go" id="apply-btn"' + (applied[j.id] ? " disabled" : "") + ">" + (applied[j.id] ? "Applied ✓" : "Apply now") + '</button><button type="button" class="heart' + (saved[j.id] ? " on" : "") + '" id="save-btn" aria-pressed="' + !!saved[j.id] + '">' + (saved[j.id] ? "Saved" : "Save") + "</button></div>" +
      "<h3>About the role</h3><p>" + esc(j.about) + "</p><h3>What you need</h3><ul class=\"req\">" + j.req.map(function (r) { return "<li>" + esc(r) + "</li>"; }).join("") + "</ul>" +
      '<p class="skills">' + j.tags.map(function (t) { return '<span class="tag">' + esc(t) + "</span>"; }).join("") + "</p>";
    $("apply-btn").addEventListener("click", function () { openApply(j); });
    $("save-btn").addEventListener("click", function () {
      saved[j.id] = !saved[j.id];
      var n = Object.keys(saved).filter(function (k) { return saved[k]; }).length;
      $("saved-btn").setAttribute("data-count", n);
      toast(saved[j.id] ? "Saved '" + j.t + "'" : "Removed from saved jobs");
      renderDetail();
    });
  }

  /* ---------- events ---------- */
  ["kw", "sal"].forEach(function (id) { $(id).addEventListener("input", render); });
  ["town", "sort", "remote"].forEach(function (id) { $(id).addEventListener("change", render); });
  document.querySelectorAll("input[name=type], input[name=posted]").forEach(function (i) { i.addEventListener("change", render); });
  $("searchbar").addEventListener("submit", function (e) { e.preventDefault(); render(); });
  function clearAll() {
    $("kw").value = ""; $("town").value = ""; $("remote").checked = false; $("sal").value = 20;
    document.querySelectorAll("input[name=type]").forEach(function (i) { i.checked = false; });
    document.querySelector("input[name=posted][value='99']").checked = true;
    render();
  }
  $("clear").addEventListener("click", clearAll);
  $("list").addEventListener("click", function (e) {
    if (e.target.id === "none-clear") { clearAll(); return; }
    var b = e.target.closest(".job"); if (!b) return;
    current = +b.getAttribute("data-id");
    document.querySelectorAll(".job").forEach(function (x) { x.classList.toggle("on", x === b); });
    renderDetail();
  });

  /* ---------- application ---------- */
  function openApply(j) {
    $("m-co").textContent = j.co + " · " + j.town;
    $("m-title").textContent = "Apply: " + j.t;
    $("agree-text").textContent = "Share my details with " + j.co + " for this application";
    ["a-name", "a-email", "a-note"].forEach(function (id) { $(id).value = ""; $(id).classList.remove("bad"); });
    document.querySelectorAll("input[name=rtw]").forEach(function (i) { i.checked = false; });
    $("a-agree").checked = false;
    ["name", "email", "note", "rtw", "agree"].forEach(function (k) { $("e-" + k).hidden = true; });
    $("errsum").hidden = true; $("apply").hidden = false; $("done").hidden = true;
    count(); $("scrim").hidden = false; $("a-name").focus();
  }
  function count() {
    var n = $("a-note").value.trim().length;
    $("a-count").textContent = n + " / 60"; $("a-count").classList.toggle("ok", n >= 60);
  }
  $("a-note").addEventListener("input", count);
  function closeApply() { $("scrim").hidden = true; }
  $("m-close").addEventListener("click", closeApply);
  document.addEventListener("keydown", function (e) { if (e.key === "Escape" && !$("scrim").hidden) closeApply(); });
  $("apply").addEventListener("submit", function (e) {
    e.preventDefault();
    var j = J.filter(function (x) { return x.id === current; })[0], errs = [];
    var name = $("a-name").value.trim(), email = $("a-email").value.trim(), note = $("a-note").value.trim();
    var rtw = document.querySelector("input[name=rtw]:checked");
    function check(key, field, msg) {
      $("e-" + key).textContent = msg || ""; $("e-" + key).hidden = !msg;
      if (field) $(field).classList.toggle("bad", !!msg);
      if (msg) errs.push(msg);
    }
    check("name", "a-name", !name ? "Enter your full name" : name.indexOf(" ") < 0 ? "Enter your first and last name" : "");
    check("email", "a-email", !email ? "Enter your email address" : !/^[^@\s]+@[^@\s]+\.[a-z]{2,}$/i.test(email) ? "Enter an email address like name@example.com" : "");
    check("note", "a-note", note.length < 60 ? "Write at least 60 characters (" + (60 - note.length) + " more)" : "");
    check("rtw", null, !rtw ? "Say whether you have the right to work in the UK" : rtw.value === "no" ? j.co + " cannot sponsor visas for this role" : "");
    check("agree", null, !$("a-agree").checked ? "Tick the box to share your details" : "");
    if (errs.length) {
      $("errlist").innerHTML = errs.map(function (m) { return "<li>" + esc(m) + "</li>"; }).join("");
      $("errsum").hidden = false; $("errsum").scrollIntoView({ block: "nearest" });
      return;
    }
    var h = 0; (name + "|" + j.id).split("").forEach(function (c) { h = (h * 31 + c.charCodeAt(0)) % 900000; });
    var ref = "HL-" + (100000 + h);
    applied[j.id] = true;
    $("apply").hidden = true;
    $("done").innerHTML = '<div class="tick" aria-hidden="true">✓</div><h2>Application sent</h2><p>' + esc(j.co) + " has your application for <b>" + esc(j.t) + "</b>. We sent a copy to <b>" + esc(email) + "</b>.</p>" +
      '<p class="ref">Your reference <b>' + ref + '</b></p><button type="button" class="go" id="done-close">Back to jobs</button>';
    $("done").hidden = false;
    $("done-close").addEventListener("click", function () { closeApply(); render(); });
  });

  function toast(m) { $("toast").textContent = m; $("toast").hidden = false; }
  ["mousedown", "keydown"].forEach(function (ty) {
    document.addEventListener(ty, function (e) { if (!$("toast").hidden && !$("toast").contains(e.target)) $("toast").hidden = true; }, true);
  });
  render();
})();
