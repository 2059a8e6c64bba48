/* Matchday's page. Every table is computed from the results in data.js: the league table (all, home
   or away matches, sortable by any column), the form guide, the fixtures, and the predictor, which adds
   the scores a visitor types for the last two rounds and ranks the clubs again (points, then goal
   difference, then goals scored, then name). Views switch on the hash. */
(function () {
  "use strict";
  var $ = function (id) { return document.getElementById(id); };
  var L = window.LEAGUE, T = L.teams, F = L.featured;
  var PLAYED = 20, ROUNDS = L.rounds.length;
  var DATES = { 21: "Sat 17 May · 15:00", 22: "Sat 24 May · 15:00" };
  var NAMES = { p: "played", w: "wins", d: "draws", l: "losses", gf: "goals for", ga: "goals against", gd: "goal difference", pts: "points" };
  var ASC_FIRST = { l: true, ga: true };
  var st = { split: "all", sort: "pts", dir: -1, round: 21, club: "", pred: {}, mtab: "timeline" };

  function code(i) { return T[i][0]; }
  function idx(c) { for (var i = 0; i < T.length; i++) if (T[i][0] === c) return i; return -1; }
  function esc(s) { return String(s).replace(/[&<>"]/g, function (c) { return { "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;" }[c]; }); }
  function crest(i, size) {
    var t = T[i];
    return '<svg class="crest" viewBox="0 0 24 28" width="' + size + '" height="' + Math.round(size * 28 / 24) + '" aria-hidden="true"><path d="M2 3l10-2 10 2v9c0 7-5 11-10 14C7 23 2 19 2 12z" fill="' + t[3] + '" stroke="rgba(0,0,0,.25)"/>' +
      '<path d="M12 1v25" stroke="' + t[4] + '" stroke-width="3" opacity=".55"/><text x="12" y="16" text-anchor="middle" font-size="8" font-weight="700" fill="' + t[4] + '" font-family="Liberation Sans, Arial, sans-serif">' + t[0][0] + "</text></svg>";
  }

  // ---- tables
  function blank() { return T.map(function (t, i) { return { i: i, p: 0, w: 0, d: 0, l: 0, gf: 0, ga: 0, gd: 0, pts: 0, form: [] }; }); }
  function add(row, f, a, opp, home, round) {
    row.p++; row.gf += f; row.ga += a; row.gd = row.gf - row.ga;
    var r = f > a ? "W" : f < a ? "L" : "D";
    if (r === "W") { row.w++; row.pts += 3; } else if (r === "D") { row.d++; row.pts++; } else row.l++;
    row.form.push({ r: r, f: f, a: a, opp: opp, home: home, round: round });
  }
  function table(split, pred) {
    var rows = blank();
    L.rounds.forEach(function (rd, ri) {
      rd.forEach(function (m, mi) {
        var h = m[0], a = m[1], x = m[2], y = m[3];
        if (x === null && pred) {
          var p = pred[(ri + 1) + "-" + (mi + 1)];
          if (!p || p.h === "" || p.a === "") return;
          x = +p.h; y = +p.a;
        }
        if (x === null) return;
        if (split !== "away") add(rows[h], x, y, a, true, ri + 1);
        if (split !== "home") add(rows[a], y, x, h, false, ri + 1);
      });
    });
    return rows;
  }
  function rank(rows) {
    return rows.slice().sort(function (a, b) { return b.pts - a.pts || b.gd - a.gd || b.gf - a.gf || T[a.i][1].localeCompare(T[b.i][1]); });
  }
  function zone(pos) { return pos <= 2 ? "promo" : pos <= 6 ? "play" : pos >= 11 ? "rel" : ""; }

  function renderTable() {
    var rows = rank(table(st.split)), pos = {};
    rows.forEach(function (r, k) { pos[r.i] = k + 1; });
    var shown = rows.slice().sort(function (a, b) {
      return (a[st.sort] - b[st.sort]) * st.dir || (pos[a.i] - pos[b.i]);
    });
    ["all", "home", "away"].forEach(function (s) { $("split-" + s).setAttribute("aria-pressed", String(s === st.split)); });
    var what = st.split === "all" ? "All matches" : st.split === "home" ? "Home matches only" : "Away matches only";
    $("table-sub").textContent = what + " · after round " + PLAYED + " of " + ROUNDS + " · sorted by " + NAMES[st.sort] + (st.dir < 0 ? ", highest first" : ", lowest first");
    document.querySelectorAll(".sort").forEach(function (b) {
      var on = b.dataset.k === st.sort;
      b.classList.toggle("on", on);
      b.setAttribute("aria-sort", on ? (st.dir < 0 ? "descending" : "ascending") : "none");
    });
    var tb = $("league-body");
    tb.innerHTML = "";
    shown.forEach(function (r) {
      var tr = document.createElement("tr");
      var p = pos[r.i];
      tr.className = st.split === "all" ? zone(p) : "";
      tr.id = "row-" + code(r.i).toLowerCase();
      var form = r.form.slice(-5).map(function (f, k) {
        return '<span class="fb ' + f.r + '" tabindex="0" data-tip="' + esc(f.r + " " + f.f + "–" + f.a + (f.home ? " v " : " at ") + T[f.opp][1] + " (round " + f.round + ")") + '" id="form-' + code(r.i).toLowerCase() + "-" + (k + 1) + '">' + f.r + "</span>";
      }).join("");
      tr.innerHTML = '<td class="pos">' + p + '</td><td class="club">' + crest(r.i, 20) + "<span>" + T[r.i][1] + "</span></td>" +
        ["p", "w", "d", "l", "gf", "ga"].map(function (k) { return '<td class="' + (k === st.sort ? "hl" : "") + '">' + r[k] + "</td>"; }).join("") +
        '<td class="' + (st.sort === "gd" ? "hl" : "") + '">' + (r.gd > 0 ? "+" : "") + r.gd + '</td><td class="pts' + (st.sort === "pts" ? " hl" : "") + '">' + r.pts + '</td><td class="form">' + form + "</td>";
      tb.appendChild(tr);
    });
  }

  function renderTiles() {
    var n = 0, goals = 0, home = 0, draws = 0, clean = 0;
    L.rounds.slice(0, PLAYED).forEach(function (rd) {
      rd.forEach(function (m) { n++; goals += m[2] + m[3]; if (m[2] > m[3]) home++; if (m[2] === m[3]) draws++; if (!m[2]) clean++; if (!m[3]) clean++; });
    });
    $("tiles").innerHTML = [[n, "matches played"], [(goals / n).toFixed(2), "goals per match"], [Math.round(home / n * 100) + "%", "home wins"],
      [Math.round(draws / n * 100) + "%", "draws"], [clean, "clean sheets"]].map(function (t) { return '<div class="tile"><b>' + t[0] + "</b><span>" + t[1] + "</span></div>"; }).join("");
  }

  function renderSide() {
    renderTiles();
    var ul = $("latest");
    if (ul.children.length) return;
    L.rounds[PLAYED - 1].forEach(function (m) {
      var li = document.createElement("li");
      var id = code(m[0]).toLowerCase() + "-" + code(m[1]).toLowerCase();
      li.innerHTML = '<a href="#/match/' + id + '" id="res-' + id + '" class="res"><span class="rt">' + crest(m[0], 16) + T[m[0]][2] + '</span><b>' + m[2] + "–" + m[3] + '</b><span class="rt r">' + T[m[1]][2] + crest(m[1], 16) + "</span></a>";
      ul.appendChild(li);
    });
    var all = [];
    Object.keys(L.scorers).forEach(function (c) { L.scorers[c].forEach(function (p) { all.push([p[0], p[1], c]); }); });
    all.sort(function (a, b) { return b[1] - a[1] || a[0].localeCompare(b[0]); });
    $("scorers").innerHTML = all.slice(0, 8).map(function (p) {
      return "<li>" + crest(idx(p[2]), 14) + '<span class="nm">' + esc(p[0]) + '</span><span class="tm">' + T[idx(p[2])][2] + "</span><b>" + p[1] + "</b></li>";
    }).join("");
  }

  // ---- fixtures
  function renderFixtures() {
    var sel = $("round");
    if (!sel.children.length) {
      for (var r = 1; r <= ROUNDS; r++) sel.insertAdjacentHTML("beforeend", '<option value="' + r + '">Round ' + r + (r > PLAYED ? " (to play)" : "") + "</option>");
      T.forEach(function (t) { $("club").insertAdjacentHTML("beforeend", '<option value="' + t[0] + '">' + t[1] + "</option>"); });
    }
    sel.value = String(st.round);
    $("club").value = st.club;
    var rows = [];
    L.rounds.forEach(function (rd, ri) {
      if (!st.club && ri + 1 !== st.round) return;
      rd.forEach(function (m) {
        if (st.club && code(m[0]) !== st.club && code(m[1]) !== st.club) return;
        rows.push([ri + 1, m]);
      });
    });
    $("fixtures").innerHTML = rows.map(function (x) {
      var m = x[1], done = m[2] !== null, id = code(m[0]).toLowerCase() + "-" + code(m[1]).toLowerCase();
      var mid = done ? '<a class="score" href="#/match/' + id + '">' + m[2] + " – " + m[3] + "</a>" : '<span class="ko">' + DATES[x[0]].split(" · ")[1] + "</span>";
      return '<li><span class="rd">Round ' + x[0] + (done ? " · FT" : " · " + DATES[x[0]].split(" · ")[0]) + '</span><span class="h">' + T[m[0]][1] + crest(m[0], 20) + "</span>" + mid + '<span class="a">' + crest(m[1], 20) + T[m[1]][1] + "</span></li>";
    }).join("");
  }

  // ---- match centre
  function findMatch(id) {
    for (var ri = 0; ri < L.rounds.length; ri++) {
      for (var mi = 0; mi < L.rounds[ri].length; mi++) {
        var m = L.rounds[ri][mi];
        if (code(m[0]).toLowerCase() + "-" + code(m[1]).toLowerCase() === id) return { round: ri + 1, m: m };
      }
    }
    return null;
  }
  function renderMatch(id) {
    var x = findMatch(id);
    if (!x || x.m[2] === null) { location.hash = "#/table"; return; }
    var m = x.m, full = id === F.id;
    var goals = function (c) {
      return F.events.filter(function (e) { return e[1] === "goal" && e[2] === c; }).map(function (e) {
        return e[3].split(" ").slice(-1)[0] + " " + e[0] + "'" + (e[4] === "penalty" ? " (pen)" : "");
      }).join(", ");
    };
    $("board").innerHTML = '<div class="bt">' + crest(m[0], 54) + "<h2>" + T[m[0]][1] + "</h2>" + (full ? '<p class="gs">' + goals(code(m[0])) + "</p>" : "") + "</div>" +
      '<div class="mid"><p class="rd">Round ' + x.round + " · Full time</p><p class=\"big\">" + m[2] + " – " + m[3] + "</p>" +
      (full ? '<p class="info">' + F.date + "<br>" + F.venue + " · Crowd " + F.crowd + "<br>Referee " + F.referee + "</p>" : "") + "</div>" +
      '<div class="bt">' + crest(m[1], 54) + "<h2>" + T[m[1]][1] + "</h2>" + (full ? '<p class="gs">' + goals(code(m[1])) + "</p>" : "") + "</div>";
    $("match-detail").hidden = !full;
    $("report").hidden = !full;
    $("no-detail").hidden = full;
    if (!full) return;
    var ICON = { goal: '<svg viewBox="0 0 16 16" width="16" height="16" aria-hidden="true"><circle cx="8" cy="8" r="6.5" fill="#fff" stroke="#111827"/><path d="M8 4.5l2.6 1.9-1 3H6.4l-1-3z" fill="#111827"/></svg>',
      yellow: '<svg viewBox="0 0 16 16" width="16" height="16" aria-hidden="true"><rect x="4" y="2" width="8" height="12" rx="1.5" fill="#facc15"/></svg>',
      sub: '<svg viewBox="0 0 16 16" width="16" height="16" aria-hidden="true"><path d="M5 13V4M2 7l3-3 3 3" stroke="#16a34a" stroke-width="1.8" fill="none"/><path d="M11 3v9M8 9l3 3 3-3" stroke="#dc2626" stroke-width="1.8" fill="none"/></svg>' };
    var hc = code(m[0]);
    $("timeline").innerHTML = F.events.map(function (e) {
      return '<li class="ev ' + (e[2] === hc ? "home" : "away") + '"><span class="min">' + e[0] + "'</span>" + ICON[e[1]] + '<span class="who"><b>' + esc(e[3]) + "</b> " + esc(e[4]) + "</span></li>";
    }).join("") + '<li class="ev end"><span class="min">FT</span><span class="who">Full time: ' + T[m[0]][2] + " " + m[2] + ", " + T[m[1]][2] + " " + m[3] + "</span></li>";
    $("stats").innerHTML = F.stats.map(function (s) {
      var tot = s[3] + s[4] || 1;
      return '<div class="stat"><div class="sl"><b>' + s[1] + "</b><span>" + s[0] + "</span><b>" + s[2] + '</b></div><div class="bars"><i class="hb" style="width:' + (s[3] / tot * 100).toFixed(1) + '%"></i><i class="ab" style="width:' + (s[4] / tot * 100).toFixed(1) + '%"></i></div></div>';
    }).join("");
    $("lineups").innerHTML = [m[0], m[1]].map(function (ti) {
      var lu = F.lineups[code(ti)];
      return '<div class="lu"><h3>' + crest(ti, 20) + T[ti][1] + ' <span class="shape">' + lu.shape + "</span></h3><ol>" +
        lu.xi.map(function (p) { return '<li><span class="no">' + p[0] + "</span>" + esc(p[1]) + '<span class="ps">' + p[2] + "</span></li>"; }).join("") +
        "</ol><h4>Substitutes</h4><ul>" + lu.subs.map(function (p) { return '<li><span class="no">' + p[0] + "</span>" + esc(p[1]) + "</li>"; }).join("") +
        '</ul><p class="coach">Head coach: ' + esc(lu.coach) + "</p></div>";
    }).join("");
    var svg = '<rect x="0" y="0" width="105" height="68" fill="#2f7d46"/>' + [0, 1, 2, 3, 4, 5, 6].map(function (k) { return k % 2 ? '<rect x="' + k * 15 + '" y="0" width="15" height="68" fill="#2b7441"/>' : ""; }).join("") +
      '<g fill="none" stroke="#e8f5ec" stroke-width=".5"><rect x="0" y="0" width="105" height="68"/><path d="M52.5 0v68"/><circle cx="52.5" cy="34" r="9.15"/><rect x="0" y="13.85" width="16.5" height="40.3"/><rect x="88.5" y="13.85" width="16.5" height="40.3"/><rect x="0" y="24.85" width="5.5" height="18.3"/><rect x="99.5" y="24.85" width="5.5" height="18.3"/></g>';
    [[m[0], false], [m[1], true]].forEach(function (side) {
      var c = code(side[0]), col = T[side[0]][3] === "#111827" ? "#111827" : T[side[0]][3];
      F.shots[c].forEach(function (s, k) {
        var x = side[1] ? 105 - s[2] * 1.05 : s[2] * 1.05, y = s[3], r = 1.2 + s[5] * 4;
        svg += '<circle class="shot" id="shot-' + c.toLowerCase() + "-" + (k + 1) + '" cx="' + x.toFixed(1) + '" cy="' + y.toFixed(1) + '" r="' + r.toFixed(2) + '" fill="' + (s[4] === "goal" ? col : "rgba(255,255,255,.25)") + '" stroke="' + (s[4] === "goal" ? "#fff" : col) + '" stroke-width=".6" data-tip="' +
          esc(s[0] + "' " + s[1] + " · " + s[4].charAt(0).toUpperCase() + s[4].slice(1) + " · xG " + s[5].toFixed(2)) + '"/>';
      });
    });
    $("pitch").innerHTML = svg;
    $("shotsum").innerHTML = [m[0], m[1]].map(function (ti) {
      var sh = F.shots[code(ti)], on = sh.filter(function (s) { return s[4] === "goal" || s[4] === "saved"; }).length;
      var xg = sh.reduce(function (a, s) { return a + s[5]; }, 0), best = sh.slice().sort(function (a, b) { return b[5] - a[5]; })[0];
      return '<div class="ss"><h3>' + crest(ti, 18) + T[ti][1] + "</h3><p>" + sh.length + " shots · " + on + " on target · xG " + xg.toFixed(2) + "</p><p class=\"sub\">Best chance: " + best[0] + "' " + esc(best[1]) + " (xG " + best[5].toFixed(2) + ")</p></div>";
    }).join("");
    selectMTab(st.mtab);
  }
  function selectMTab(t) {
    st.mtab = t;
    ["timeline", "stats", "lineups", "shots"].forEach(function (k) {
      $("mtab-" + k).setAttribute("aria-selected", String(k === t));
      $("mpane-" + k).hidden = k !== t;
    });
  }

  // ---- predictor
  function renderPredictorForm() {
    var box = $("pred-rounds");
    if (box.children.length) return;
    for (var r = PLAYED + 1; r <= ROUNDS; r++) {
      var html = '<h3 class="pr-h">Round ' + r + ' <span>' + DATES[r] + "</span></h3><ul class=\"pred\">";
      L.rounds[r - 1].forEach(function (m, mi) {
        var key = r + "-" + (mi + 1);
        html += '<li><span class="h">' + T[m[0]][1] + crest(m[0], 18) + '</span><input type="text" inputmode="numeric" maxlength="2" id="p-' + key + '-h" data-key="' + key + '" data-side="h" aria-label="' + T[m[0]][1] + ' goals">' +
          '<span class="dash">–</span><input type="text" inputmode="numeric" maxlength="2" id="p-' + key + '-a" data-key="' + key + '" data-side="a" aria-label="' + T[m[1]][1] + ' goals"><span class="a">' + crest(m[1], 18) + T[m[1]][1] + "</span></li>";
      });
      box.insertAdjacentHTML("beforeend", html + "</ul>");
    }
  }
  function renderPrediction() {
    var now = rank(table("all")), posNow = {};
    now.forEach(function (r, k) { posNow[r.i] = k + 1; });
    var rows = rank(table("all", st.pred));
    var entered = Object.keys(st.pred).filter(function (k) { var p = st.pred[k]; return p.h !== "" && p.a !== "" && p.h !== undefined && p.a !== undefined; }).length;
    $("pred-body").innerHTML = rows.map(function (r, k) {
      var mv = posNow[r.i] - (k + 1);
      var arrow = mv > 0 ? '<span class="up">▲' + mv + "</span>" : mv < 0 ? '<span class="down">▼' + -mv + "</span>" : '<span class="same">–</span>';
      return '<tr class="' + zone(k + 1) + '"><td>' + (k + 1) + '</td><td class="club">' + crest(r.i, 16) + T[r.i][2] + "</td><td>" + r.p + "</td><td>" + (r.gd > 0 ? "+" : "") + r.gd + '</td><td class="pts">' + r.pts + "</td><td>" + arrow + "</td></tr>";
    }).join("");
    var champ = T[rows[0].i][1], lead = rows[0].pts - rows[1].pts;
    $("verdict").textContent = entered === 0 ? "Type a score to start. Now: " + champ + " lead by " + lead + " points." :
      (entered === 12 ? "Champions: " + champ + "." : "Top if it ends like this: " + champ + (lead ? " by " + lead + (lead === 1 ? " point" : " points") : " on goal difference") + ".") +
      " Relegated: " + T[rows[10].i][1] + " and " + T[rows[11].i][1] + ". " + entered + " of 12 scores in.";
  }

  // ---- tooltip
  function showTip(el) {
    var tip = $("tooltip"), r = el.getBoundingClientRect();
    tip.textContent = el.getAttribute("data-tip");
    tip.hidden = false;
    var w = tip.offsetWidth;
    tip.style.left = Math.max(8, Math.min(window.innerWidth - w - 8, r.left + r.width / 2 - w / 2)) + "px";
    tip.style.top = (r.top + window.scrollY - tip.offsetHeight - 8) + "px";
  }
  document.addEventListener("mouseover", function (e) {
    var el = e.target.closest && e.target.closest("[data-tip]");
    if (el) showTip(el); else $("tooltip").hidden = true;
  });
  document.addEventListener("focusin", function (e) { if (e.target.hasAttribute && e.target.hasAttribute("data-tip")) showTip(e.target); });

  // ---- routing and events
  function route() {
    var parts = location.hash.replace(/^#\/?/, "").split("/"), v = parts[0] || "table";
    if (["table", "fixtures", "match", "predictor"].indexOf(v) < 0) v = "table";
    ["table", "fixtures", "match", "predictor"].forEach(function (k) { $("view-" + k).hidden = k !== v; });
    ["table", "fixtures", "predictor"].forEach(function (k) { $("nav-" + k).className = k === v || (k === "table" && v === "match") ? "on" : ""; });
    $("tooltip").hidden = true;
    if (v === "table") { renderTable(); renderSide(); }
    if (v === "fixtures") renderFixtures();
    if (v === "match") renderMatch(parts[1]);
    if (v === "predictor") { renderPredictorForm(); renderPrediction(); }
    window.scrollTo(0, 0);
  }
  ["all", "home", "away"].forEach(function (s) { $("split-" + s).addEventListener("click", function () { st.split = s; renderTable(); }); });
  document.querySelectorAll(".sort").forEach(function (b) {
    b.addEventListener("click", function () {
      var k = b.dataset.k;
      if (st.sort === k) st.dir = -st.dir; else { st.sort = k; st.dir = ASC_FIRST[k] ? 1 : -1; }
      renderTable();
    });
  });
  $("round").addEventListener("change", function () { st.round = +this.value; st.club = ""; renderFixtures(); });
  $("club").addEventListener("change", function () { st.club = this.value; renderFixtures(); });
  ["timeline", "stats", "lineups", "shots"].forEach(function (k) { $("mtab-" + k).addEventListener("click", function () { selectMTab(k); }); });
  $("pred-rounds").addEventListener("input", function (e) {
    var el = e.target;
    if (!el.dataset.key) return;
    el.value = el.value.replace(/\D/g, "").slice(0, 2);
    var p = st.pred[el.dataset.key] || (st.pred[el.dataset.key] = { h: "", a: "" });
    p[el.dataset.side] = el.value;
    renderPrediction();
  });
  $("reset").addEventListener("click", function () {
    st.pred = {};
    document.querySelectorAll("#pred-rounds input").forEach(function (i) { i.value = ""; });
    renderPrediction();
  });
  var d = new Date(), next = new Date(2025, 4, 17), days = Math.round((next - new Date(d.getFullYear(), d.getMonth(), d.getDate())) / 864e5);
  $("next-round").textContent = days > 0 ? "Round 21 in " + days + (days === 1 ? " day" : " days") : "Round 21: " + DATES[21];
  window.addEventListener("hashchange", route);
  route();
})();
