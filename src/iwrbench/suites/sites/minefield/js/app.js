/* Minefield's page: draws the board kept by engine.js, the side panel, the records and the keys.
   Cells are built once per board and updated in place, so a clicked square stays the same element. */
(function () {
  "use strict";
  var M = window.Minefield;
  var $ = function (id) { return document.getElementById(id); };
  var FIRST_BOARD = 2442;
  var ICON = {
    flag: '<svg viewBox="0 0 16 16" aria-hidden="true"><path d="M5 14V2" stroke="#1f2937" stroke-width="1.6"/><path d="M5.5 2.2h7l-2 2.8 2 2.8h-7z" fill="#dc2626"/><rect x="3" y="13" width="5" height="1.6" rx=".8" fill="#1f2937"/></svg>',
    mine: '<svg viewBox="0 0 16 16" aria-hidden="true"><g stroke="#111827" stroke-width="1.4" stroke-linecap="round"><path d="M8 1.5v13M1.5 8h13M3.4 3.4l9.2 9.2M12.6 3.4l-9.2 9.2"/></g><circle cx="8" cy="8" r="4.6" fill="#111827"/><circle cx="6.4" cy="6.4" r="1.3" fill="#fff"/></svg>',
    cross: '<svg viewBox="0 0 16 16" aria-hidden="true"><path d="M3 3l10 10M13 3L3 13" stroke="#dc2626" stroke-width="2" stroke-linecap="round"/></svg>'
  };
  var FACES = {
    play: '<svg viewBox="0 0 32 32" aria-hidden="true"><circle cx="16" cy="16" r="13" fill="#fcd34d" stroke="#b45309" stroke-width="1.5"/><circle cx="11.5" cy="13" r="1.8" fill="#1f2937"/><circle cx="20.5" cy="13" r="1.8" fill="#1f2937"/><path d="M10.5 19.5q5.5 5 11 0" stroke="#1f2937" stroke-width="1.8" fill="none" stroke-linecap="round"/></svg>',
    won: '<svg viewBox="0 0 32 32" aria-hidden="true"><circle cx="16" cy="16" r="13" fill="#fcd34d" stroke="#b45309" stroke-width="1.5"/><path d="M6.5 12.5h19" stroke="#1f2937" stroke-width="1.6"/><rect x="8" y="11" width="7" height="4.5" rx="1.5" fill="#1f2937"/><rect x="17" y="11" width="7" height="4.5" rx="1.5" fill="#1f2937"/><path d="M10.5 20q5.5 4.5 11 0" stroke="#1f2937" stroke-width="1.8" fill="none" stroke-linecap="round"/></svg>',
    lost: '<svg viewBox="0 0 32 32" aria-hidden="true"><circle cx="16" cy="16" r="13" fill="#fcd34d" stroke="#b45309" stroke-width="1.5"/><path d="M9.5 11l4 4M13.5 11l-4 4M18.5 11l4 4M22.5 11l-4 4" stroke="#1f2937" stroke-width="1.6" stroke-linecap="round"/><circle cx="16" cy="21.5" r="2.6" fill="none" stroke="#1f2937" stroke-width="1.8"/></svg>'
  };
  var RECORDS = [
    [2431, "beginner", "Ines Varga", 9, "Mon"], [2436, "beginner", "Tomasz Ruel", 12, "Mon"],
    [2437, "intermediate", "Priya Halden", 41, "Tue"], [2439, "beginner", "Oskar Lindqvist", 7, "Tue"],
    [2440, "intermediate", "Maren Kofi", 38, "Wed"], [2441, "beginner", "Ines Varga", 11, "Wed"]
  ];

  var level = "beginner", number = FIRST_BOARD, game, flagMode = false, log = [], streak = 0;
  var stats = { beginner: { played: 0, won: 0, best: null }, intermediate: { played: 0, won: 0, best: null } };
  var cellEls = [], cursor = [1, 1];

  function pad3(n) { var s = String(Math.max(-99, Math.min(999, n))); while (s.length < 3) s = "0" + s; return s; }
  function where(r, c) { return "row " + r + ", column " + c; }

  function newGame() {
    game = new M.Game(level, number);
    log = [];
    var L = M.LEVELS[level];
    var board = $("board");
    board.innerHTML = "";
    board.className = "board " + level;
    board.style.gridTemplateColumns = "repeat(" + L.cols + ", var(--cell))";
    cellEls = [];
    for (var r = 1; r <= L.rows; r++) {
      for (var c = 1; c <= L.cols; c++) {
        var b = document.createElement("button");
        b.type = "button";
        b.className = "cell";
        b.id = "c-" + r + "-" + c;
        b.setAttribute("role", "gridcell");
        b.dataset.r = r;
        b.dataset.c = c;
        board.appendChild(b);
        cellEls.push(b);
      }
    }
    cursor = [1, 1];
    $("board-title").textContent = "Board #" + number;
    $("board-sub").textContent = L.label + " · " + L.rows + " × " + L.cols + " · " + L.mines + " mines";
    setStatus("Click any square to start. The first click is always safe.", "");
    hideToast();
    render();
  }

  function render() {
    var g = game;
    cellEls.forEach(function (b) {
      var r = +b.dataset.r, c = +b.dataset.c, q = g.at(r, c);
      var cls = "cell";
      var html = "";
      if (q.open) {
        cls += " open";
        if (q.adj) { cls += " n" + q.adj; html = String(q.adj); }
      } else if (g.over === "lost" && q.mine && !q.flag) {
        cls += " open mine" + (q.boom ? " boom" : "");
        html = ICON.mine;
      } else if (q.flag) {
        cls += " flagged" + (q.wrong ? " wrong" : "");
        html = q.wrong ? ICON.cross : ICON.flag;
      }
      if (b.className !== cls) b.className = cls;
      if (b.innerHTML !== html) b.innerHTML = html;
      b.setAttribute("aria-label", "Row " + r + ", column " + c + ": " + (q.open ? (q.adj ? q.adj + " mines around" : "empty") : q.flag ? "flagged" : "hidden"));
    });
    $("mines-left").textContent = pad3(g.mines - g.flags);
    $("moves").textContent = pad3(g.moves);
    $("opened").textContent = g.opened + " of " + g.safeTotal() + " safe squares open";
    $("bar").style.width = (100 * g.opened / g.safeTotal()).toFixed(1) + "%";
    $("face").innerHTML = FACES[g.over || "play"];
    $("board").classList.toggle("shake", g.over === "lost");
    $("streak").textContent = streak;
    renderLog();
    renderStats();
  }

  function renderLog() {
    var ol = $("log");
    ol.innerHTML = "";
    log.slice(-7).reverse().forEach(function (m) {
      var li = document.createElement("li");
      li.innerHTML = '<span class="mv">' + m.n + "</span> " + m.text;
      ol.appendChild(li);
    });
    $("log-empty").hidden = log.length > 0;
  }

  function renderStats() {
    var tb = $("stats-body");
    tb.innerHTML = "";
    Object.keys(stats).forEach(function (k) {
      var s = stats[k], tr = document.createElement("tr");
      tr.innerHTML = "<td>" + M.LEVELS[k].label + "</td><td>" + s.played + "</td><td>" + s.won + "</td><td>" + (s.best === null ? "–" : s.best + " moves") + "</td>";
      tb.appendChild(tr);
    });
    var rb = $("records-body");
    rb.innerHTML = "";
    RECORDS.slice().sort(function (a, b) { return b[0] - a[0]; }).forEach(function (x) {
      var tr = document.createElement("tr");
      if (x[2] === "You") tr.className = "mine-row";
      tr.innerHTML = "<td>#" + x[0] + "</td><td>" + M.LEVELS[x[1]].label + "</td><td>" + x[2] + "</td><td>" + x[3] + "</td><td>" + x[4] + "</td>";
      rb.appendChild(tr);
    });
  }

  function setStatus(text, kind) {
    var s = $("status");
    s.textContent = text;
    s.className = "status" + (kind ? " " + kind : "");
  }

  function toast(text, kind) {
    var t = $("toast");
    t.textContent = text;
    t.className = "toast " + kind;
    t.hidden = false;
  }
  function hideToast() { $("toast").hidden = true; }

  function record(text) {
    game.moves++;
    log.push({ n: game.moves, text: text });
  }

  function finish() {
    var s = stats[level];
    if (game.over === "won") {
      s.played++; s.won++;
      s.best = s.best === null ? game.moves : Math.min(s.best, game.moves);
      streak++;
      RECORDS.push([number, level, "You", game.moves, "Today"]);
      setStatus("Board #" + number + " cleared in " + game.moves + " moves!", "good");
      toast("Cleared! " + game.moves + " moves · streak " + streak, "good");
    } else if (game.over === "lost") {
      s.played++;
      streak = 0;
      setStatus("Boom! " + where(game.boom[0], game.boom[1]).replace("row", "Row") + " was a mine.", "bad");
      toast("You hit a mine. Restart to try board #" + number + " again.", "bad");
    }
  }

  function clickCell(r, c) {
    if (game.over) return;
    var q = game.at(r, c);
    if (flagMode) {
      if (!game.started) { setStatus("Open a square first: flags go down once the board is laid.", "warn"); return; }
      if (q.open) { chord(r, c); return; }
      game.toggleFlag(r, c);
      record((q.flag ? "Flagged " : "Unflagged ") + where(r, c));
      setStatus(q.flag ? "Flag planted on " + where(r, c) + ". " + (game.mines - game.flags) + " mines left." : "Flag lifted from " + where(r, c) + ".", "");
    } else if (q.open) {
      chord(r, c);
      return;
    } else if (q.flag) {
      setStatus("That square is flagged. Switch to Flag mode to lift the flag.", "warn");
      return;
    } else {
      var first = !game.started;
      var n = game.open(r, c), left = game.safeTotal() - game.opened;
      record("Opened " + where(r, c) + (n > 1 ? " (+" + n + ")" : ""));
      if (!game.over) setStatus(first ? "Good start: " + n + " square" + (n === 1 ? "" : "s") + " opened." : n > 1 ? n + " squares opened." : "Safe. " + left + " safe square" + (left === 1 ? "" : "s") + " to go.", "");
    }
    finish();
    render();
  }

  function chord(r, c) {
    var n = game.chord(r, c);
    if (n < 0) {
      var q = game.at(r, c);
      setStatus(q.adj ? "A chord needs exactly " + q.adj + " flag" + (q.adj > 1 ? "s" : "") + " around " + where(r, c) + "." : "Nothing to open around " + where(r, c) + ".", "warn");
      render();
      return;
    }
    record("Chord on " + where(r, c) + " (+" + n + ")");
    if (!game.over) setStatus("Chord opened " + n + " square" + (n === 1 ? "" : "s") + ".", "");
    finish();
    render();
  }

  function setMode(flag) {
    flagMode = flag;
    $("mode-open").setAttribute("aria-pressed", String(!flag));
    $("mode-flag").setAttribute("aria-pressed", String(flag));
    $("board").classList.toggle("flagging", flag);
    if (!game.over) setStatus(flag ? "Flag mode: clicks plant or lift flags." : "Reveal mode: clicks open squares.", "");
  }

  function selectTab(id) {
    ["moves", "stats", "keys"].forEach(function (k) {
      $("tab-" + k).setAttribute("aria-selected", String(k === id));
      $("pane-" + k).hidden = k !== id;
    });
  }

  function route() {
    hideToast();
    var v = (location.hash.replace(/^#\//, "") || "play").split("/")[0];
    if (["play", "records", "rules"].indexOf(v) < 0) v = "play";
    ["play", "records", "rules"].forEach(function (k) {
      $("view-" + k).hidden = k !== v;
      $("nav-" + k).classList.toggle("on", k === v);
    });
  }

  $("board").addEventListener("click", function (e) {
    var b = e.target.closest(".cell");
    if (b) { cursor = [+b.dataset.r, +b.dataset.c]; clickCell(cursor[0], cursor[1]); }
  });
  $("board").addEventListener("keydown", function (e) {
    var d = { ArrowUp: [-1, 0], ArrowDown: [1, 0], ArrowLeft: [0, -1], ArrowRight: [0, 1] }[e.key];
    if (!d) return;
    e.preventDefault();
    var r = Math.min(game.rows, Math.max(1, cursor[0] + d[0])), c = Math.min(game.cols, Math.max(1, cursor[1] + d[1]));
    cursor = [r, c];
    $("c-" + r + "-" + c).focus();
  });
  $("mode-open").addEventListener("click", function () { setMode(false); });
  $("mode-flag").addEventListener("click", function () { setMode(true); });
  $("restart").addEventListener("click", function () { newGame(); });
  $("face").addEventListener("click", function () { newGame(); });
  $("next").addEventListener("click", function () { number++; newGame(); });
  $("level").addEventListener("change", function () { level = this.value; newGame(); });
  ["moves", "stats", "keys"].forEach(function (k) { $("tab-" + k).addEventListener("click", function () { selectTab(k); }); });
  $("toast").addEventListener("click", hideToast);
  document.addEventListener("keydown", function (e) {
    if (e.ctrlKey || e.metaKey || e.altKey || /^(INPUT|SELECT|TEXTAREA)$/.test(e.target.tagName)) return;
    var k = e.key.toLowerCase();
    if (k === "f") setMode(!flagMode);
    else if (k === "r") newGame();
    else if (k === "n") { number++; newGame(); }
  });
  window.addEventListener("hashchange", route);

  route();
  newGame();
})();
