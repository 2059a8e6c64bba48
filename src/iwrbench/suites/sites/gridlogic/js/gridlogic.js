/* Gridlogic's page: a sudoku board with notes, undo, conflicts shown as they happen, a Check that
   compares entries with the solution, and a Hint that finds the next single by the usual rules
   (a square with one candidate left, else a digit with one place left in a box, row or column).
   Each puzzle keeps its own state, so switching tabs and back resumes where the player was. */
(function () {
  "use strict";
  var $ = function (id) { return document.getElementById(id); };
  var P = window.PUZZLES;
  var games = {}, current = "daily", sel = null, notesOn = false;
  var cellEls = [];

  function digits(s) { return s.split("").map(Number); }
  function rc(i) { return [Math.floor(i / 9) + 1, (i % 9) + 1]; }
  function boxOf(i) { return Math.floor(Math.floor(i / 9) / 3) * 3 + Math.floor((i % 9) / 3) + 1; }
  function where(i) { var p = rc(i); return "row " + p[0] + ", column " + p[1]; }
  function article(d) { return d === 8 ? "an " + d : "a " + d; }
  function units(i) {
    var r = Math.floor(i / 9), c = i % 9, br = r - r % 3, bc = c - c % 3, row = [], col = [], box = [];
    for (var k = 0; k < 9; k++) {
      row.push(r * 9 + k);
      col.push(k * 9 + c);
      box.push((br + Math.floor(k / 3)) * 9 + bc + (k % 3));
    }
    return { row: row, col: col, box: box };
  }
  function peers(i) {
    var u = units(i), s = {};
    u.row.concat(u.col, u.box).forEach(function (j) { if (j !== i) s[j] = true; });
    return Object.keys(s).map(Number);
  }

  function load(key) {
    var p = P[key], g = digits(p.givens), prog = p.progress ? digits(p.progress) : [];
    var v = g.map(function (d, i) { return d || prog[i] || 0; });
    return { key: key, given: g.map(Boolean), sol: digits(p.solution), v: v, notes: v.map(function () { return []; }),
             wrong: {}, undo: [], hints: 0, checks: 0, moves: 0, solved: false, status: null };
  }
  function game() { return games[current]; }

  function candidates(g, i) {
    if (g.v[i]) return [];
    var used = {};
    peers(i).forEach(function (j) { if (g.v[j]) used[g.v[j]] = true; });
    var out = [];
    for (var d = 1; d <= 9; d++) if (!used[d]) out.push(d);
    return out;
  }

  // The first conflict of square i's digit: its row, then its column, then its box.
  function conflict(g, i) {
    var d = g.v[i];
    if (!d) return null;
    var u = units(i), names = [["row", "Row " + rc(i)[0]], ["col", "Column " + rc(i)[1]], ["box", "Box " + boxOf(i)]];
    for (var k = 0; k < 3; k++) {
      var hit = u[names[k][0]].filter(function (j) { return j !== i && g.v[j] === d; });
      if (hit.length) return { text: names[k][1] + " already has " + article(d) + ".", cells: hit };
    }
    return null;
  }
  function clashes(g) {
    var bad = {};
    g.v.forEach(function (d, i) {
      if (!d) return;
      peers(i).forEach(function (j) { if (g.v[j] === d) { bad[i] = true; bad[j] = true; } });
    });
    return bad;
  }

  function snapshot(g) { return { v: g.v.slice(), notes: g.notes.map(function (n) { return n.slice(); }), wrong: Object.assign({}, g.wrong) }; }
  function push(g) { g.undo.push(snapshot(g)); if (g.undo.length > 200) g.undo.shift(); }

  function setStatus(text, kind) { game().status = { text: text, kind: kind || "" }; }

  function place(d) {
    var g = game();
    if (g.solved) return;
    if (sel === null) { setStatus("Pick a square first.", "warn"); return render(); }
    if (g.given[sel]) { setStatus("That square is part of the puzzle.", "warn"); return render(); }
    push(g);
    if (notesOn) {
      if (g.v[sel]) { g.undo.pop(); setStatus("Erase the number first to add notes.", "warn"); return render(); }
      var n = g.notes[sel], k = n.indexOf(d);
      if (k >= 0) n.splice(k, 1); else { n.push(d); n.sort(); }
      setStatus("Notes in " + where(sel) + ": " + (n.length ? n.join(" ") : "none") + ".", "");
      return render();
    }
    g.v[sel] = d;
    g.notes[sel] = [];
    delete g.wrong[sel];
    g.moves++;
    peers(sel).forEach(function (j) { var k2 = g.notes[j].indexOf(d); if (k2 >= 0) g.notes[j].splice(k2, 1); });
    var c = conflict(g, sel);
    if (c) setStatus(c.text, "bad");
    else setStatus(d + " placed in " + where(sel) + ".", "");
    finishIfSolved(g);
    render();
  }

  function erase() {
    var g = game();
    if (g.solved || sel === null || g.given[sel]) return;
    if (!g.v[sel] && !g.notes[sel].length) return;
    push(g);
    g.v[sel] = 0;
    g.notes[sel] = [];
    delete g.wrong[sel];
    setStatus("Cleared " + where(sel) + ".", "");
    render();
  }

  function undo() {
    var g = game();
    if (g.solved) return;
    var s = g.undo.pop();
    if (!s) { setStatus("Nothing to undo.", "warn"); return render(); }
    g.v = s.v; g.notes = s.notes; g.wrong = s.wrong;
    setStatus("Undone.", "");
    render();
  }

  function check() {
    var g = game();
    if (g.solved) return;
    g.checks++;
    g.wrong = {};
    var bad = [];
    g.v.forEach(function (d, i) { if (d && !g.given[i] && d !== g.sol[i]) { g.wrong[i] = true; bad.push(i); } });
    var filled = g.v.filter(Boolean).length;
    if (!bad.length) setStatus("No mistakes so far. " + filled + " of 81 filled.", "good");
    else setStatus(bad.length + " mistake" + (bad.length > 1 ? "s" : "") + " found: " + bad.map(where).join("; ") + ".", "bad");
    render();
  }

  function hint() {
    var g = game();
    if (g.solved) return;
    var wrong = g.v.some(function (d, i) { return d && d !== g.sol[i]; });
    if (wrong) { setStatus("There is a mistake on the board. Check your entries before taking a hint.", "warn"); return render(); }
    var i, cs, found = null;
    for (i = 0; i < 81 && !found; i++) {
      cs = candidates(g, i);
      if (!g.v[i] && cs.length === 1) found = { i: i, d: cs[0], why: where(i).replace("row", "Row") + " can only be " + cs[0] + ": every other digit is already in its row, column or box." };
    }
    if (!found) {
      var kinds = [["box", function (k) { return "box " + k; }], ["row", function (k) { return "row " + k; }], ["col", function (k) { return "column " + k; }]];
      for (var t = 0; t < 3 && !found; t++) {
        for (var u = 0; u < 9 && !found; u++) {
          var anchor = t === 0 ? (Math.floor(u / 3) * 27 + (u % 3) * 3) : t === 1 ? u * 9 : u;
          var unit = units(anchor)[kinds[t][0]];
          for (var d = 1; d <= 9 && !found; d++) {
            if (unit.some(function (j) { return g.v[j] === d; })) continue;
            var spots = unit.filter(function (j) { return candidates(g, j).indexOf(d) >= 0; });
            if (spots.length === 1) found = { i: spots[0], d: d, why: d + " can only go in " + where(spots[0]) + " within " + kinds[t][1](u + 1) + "." };
          }
        }
      }
    }
    if (!found) { setStatus("No single step left here. Try notes.", "warn"); return render(); }
    push(g);
    g.v[found.i] = found.d;
    g.notes[found.i] = [];
    g.hints++;
    g.moves++;
    sel = found.i;
    setStatus("Hint: " + found.why, "hint");
    finishIfSolved(g);
    render();
  }

  function finishIfSolved(g) {
    if (g.v.every(function (d, i) { return d === g.sol[i]; })) {
      g.solved = true;
      setStatus("Solved! " + P[g.key].title + " finished in " + g.moves + " moves with " + g.hints + " hint" + (g.hints === 1 ? "" : "s") + ".", "good");
    }
  }

  function buildBoard() {
    var board = $("board");
    for (var i = 0; i < 81; i++) {
      var b = document.createElement("button");
      var p = rc(i);
      b.type = "button";
      b.id = "s-" + p[0] + "-" + p[1];
      b.setAttribute("role", "gridcell");
      b.className = "sq" + (p[1] % 3 === 0 && p[1] < 9 ? " br" : "") + (p[0] % 3 === 0 && p[0] < 9 ? " bb" : "");
      b.dataset.i = i;
      board.appendChild(b);
      cellEls.push(b);
    }
    var pad = $("pad");
    for (var d = 1; d <= 9; d++) {
      var k = document.createElement("button");
      k.type = "button";
      k.id = "pad-" + d;
      k.className = "key";
      k.dataset.d = d;
      k.innerHTML = '<span class="kd">' + d + '</span><small></small>';
      pad.appendChild(k);
    }
  }

  function render() {
    var g = game(), bad = clashes(g), selD = sel !== null ? g.v[sel] : 0;
    var rel = {};
    if (sel !== null) peers(sel).forEach(function (j) { rel[j] = true; });
    cellEls.forEach(function (b, i) {
      var cls = b.className.replace(/ (given|entry|sel|rel|same|clash|wrong|solved)/g, "");
      if (g.v[i]) cls += g.given[i] ? " given" : " entry";
      if (i === sel) cls += " sel";
      else if (rel[i]) cls += " rel";
      if (selD && g.v[i] === selD && i !== sel) cls += " same";
      if (bad[i] && !g.given[i]) cls += " clash";
      if (g.wrong[i]) cls += " wrong";
      if (g.solved) cls += " solved";
      b.className = cls;
      var html = g.v[i] ? String(g.v[i]) : g.notes[i].length ? '<span class="nt">' + [1, 2, 3, 4, 5, 6, 7, 8, 9].map(function (d) {
        return "<i>" + (g.notes[i].indexOf(d) >= 0 ? d : "") + "</i>";
      }).join("") + "</span>" : "";
      if (b.innerHTML !== html) b.innerHTML = html;
      var p = rc(i);
      b.setAttribute("aria-label", "Row " + p[0] + ", column " + p[1] + ": " + (g.v[i] || (g.notes[i].length ? "notes " + g.notes[i].join(" ") : "empty")));
    });
    var filled = g.v.filter(Boolean).length;
    $("filled").textContent = filled;
    $("meter").style.width = (filled / 81 * 100).toFixed(1) + "%";
    $("hints-used").textContent = g.hints + " hint" + (g.hints === 1 ? "" : "s");
    $("checks-used").textContent = g.checks + " check" + (g.checks === 1 ? "" : "s");
    for (var d = 1; d <= 9; d++) {
      var left = 9 - g.v.filter(function (x, i) { return x === d && x === g.sol[i]; }).length;
      var k = $("pad-" + d);
      k.querySelector("small").textContent = left ? left + " left" : "done";
      k.disabled = !left || g.solved;
    }
    var s = g.status || { text: "Pick a square, then a number.", kind: "" };
    $("status").textContent = s.text;
    $("status").className = "status " + s.kind;
    $("notes").setAttribute("aria-pressed", String(notesOn));
    $("notes-state").textContent = notesOn ? "on" : "off";
    $("board").classList.toggle("noting", notesOn);
    ["daily", "tuesday"].forEach(function (k2) { $("game-" + k2).setAttribute("aria-selected", String(k2 === current)); });
    $("game-tuesday").querySelector(".pill").textContent = games.tuesday.solved ? "solved" : "in progress";
  }

  function select(i) { sel = i; render(); }

  function switchGame(key) {
    if (key === current) return;
    current = key;
    sel = null;
    if (key === "tuesday" && !game().status) {
      var g = game();
      setStatus("Welcome back: " + g.v.filter(Boolean).length + " of 81 filled on Tuesday's puzzle.", "");
    }
    render();
  }

  $("board").addEventListener("click", function (e) {
    var b = e.target.closest(".sq");
    if (b) select(+b.dataset.i);
  });
  $("pad").addEventListener("click", function (e) {
    var k = e.target.closest(".key");
    if (k) place(+k.dataset.d);
  });
  $("undo").addEventListener("click", undo);
  $("erase").addEventListener("click", erase);
  $("hint").addEventListener("click", hint);
  $("check").addEventListener("click", check);
  $("notes").addEventListener("click", function () { notesOn = !notesOn; setStatus(notesOn ? "Notes are on: numbers go in as pencil marks." : "Notes are off.", ""); render(); });
  $("game-daily").addEventListener("click", function () { switchGame("daily"); });
  $("game-tuesday").addEventListener("click", function () { switchGame("tuesday"); });

  document.addEventListener("keydown", function (e) {
    if (e.ctrlKey || e.metaKey || e.altKey) return;
    var k = e.key;
    if (/^[1-9]$/.test(k)) { e.preventDefault(); place(+k); return; }
    var mv = { ArrowUp: -9, ArrowDown: 9, ArrowLeft: -1, ArrowRight: 1 }[k];
    if (mv) {
      e.preventDefault();
      if (sel === null) sel = 0;
      else if ((mv === 1 && sel % 9 < 8) || (mv === -1 && sel % 9 > 0) || (Math.abs(mv) === 9 && sel + mv >= 0 && sel + mv < 81)) sel += mv;
      cellEls[sel].focus();
      render();
      return;
    }
    if (k === "Backspace" || k === "Delete") { e.preventDefault(); erase(); }
    else if (k === "n" || k === "N") $("notes").click();
    else if (k === "h" || k === "H") hint();
    else if (k === "z" || k === "Z") undo();
  });

  Object.keys(P).forEach(function (k) { games[k] = load(k); });
  buildBoard();
  render();
})();
