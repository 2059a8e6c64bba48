/* Fourfold page: renders the board in place (columns are real buttons that never get replaced),
   takes clicks and the 1-7 / U / N keys, and asks the engine for the computer's reply after a
   short "thinking" pause. */
(function () {
  "use strict";
  var E = window.FourEngine;
  var $ = function (id) { return document.getElementById(id); };
  var LEVEL_NAMES = { casual: "Casual", sharp: "Sharp" };
  var board, history, over, thinking, game = 1, score = { you: 0, draw: 0, cpu: 0 };
  var cols = [], ghosts = [];

  function build() {
    for (var c = 0; c < E.COLS; c++) {
      var b = document.createElement("button");
      b.type = "button";
      b.className = "col";
      b.setAttribute("aria-label", "Column " + (c + 1));
      for (var r = 0; r < E.ROWS; r++) {
        var s = document.createElement("span");
        s.className = "slot";
        b.appendChild(s);
      }
      (function (c) {
        // a column played with the mouse does not keep the focus (no ring appears on the next key press)
        b.addEventListener("click", function (e) { if (e.detail) e.currentTarget.blur(); human(c); });
        b.addEventListener("mouseenter", function () { ghost(c, true); });
        b.addEventListener("mousemove", function () { if (!ghosts[c].className) ghost(c, true); });
        b.addEventListener("mouseleave", function () { ghost(c, false); });
      })(c);
      $("board").appendChild(b);
      cols.push(b);
      var g = document.createElement("span");
      $("drop-row").appendChild(g);
      ghosts.push(g);
    }
  }
  function ghost(c, on) {
    ghosts[c].className = on && !over && !thinking && board[c].length < E.ROWS ? "p1 on" : "";
  }

  function newGame() {
    board = E.empty();
    history = [];
    over = false;
    thinking = false;
    cols.forEach(function (b) {
      Array.prototype.forEach.call(b.children, function (s) { s.innerHTML = ""; });
    });
    $("sub").textContent = "Game " + game + " · Level: " + LEVEL_NAMES[$("level").value];
    if ($("cpu-first").checked) cpuTurn(); else render(null);
  }

  function place(c, p) {
    var r = board[c].length;
    var win = E.drop(board, c, p);
    history.push({ c: c, p: p });
    var slot = cols[c].children[r];
    var d = document.createElement("span");
    d.className = "disc p" + p;
    d.style.setProperty("--fall", String(E.ROWS - r));
    slot.appendChild(d);
    return win;
  }

  function finish(win, who) {
    over = true;
    if (win) {
      win.cells.forEach(function (cell) {
        var d = cols[cell[0]].children[cell[1]].firstChild;
        if (d) d.classList.add("win");
      });
    }
    if (who === 1) score.you++; else if (who === 2) score.cpu++; else score.draw++;
    toast("Game " + game + " saved to your history.");
  }

  function human(c) {
    if (over || thinking || board[c].length >= E.ROWS) return;
    ghost(c, false);
    var win = place(c, 1);
    if (win) { finish(win, 1); render(win, 1); return; }
    if (E.full(board)) { finish(null, 0); render(null, 0); return; }
    cpuTurn();
  }

  function cpuTurn() {
    thinking = true;
    render(null);
    setTimeout(function () {
      var c = $("level").value === "sharp" ? E.sharp(board) : E.casual(board);
      var win = place(c, 2);
      thinking = false;
      if (win) { finish(win, 2); render(win, 2); return; }
      if (E.full(board)) { finish(null, 0); render(null, 0); return; }
      render(null);
    }, 200);
  }

  function undo() {
    if (over || thinking) return;
    var firstHuman = -1;
    for (var i = history.length - 1; i >= 0; i--) if (history[i].p === 1) { firstHuman = i; break; }
    if (firstHuman < 0) return;
    while (history.length > firstHuman) {
      var m = history.pop();
      board[m.c].pop();
      cols[m.c].children[board[m.c].length].innerHTML = "";
    }
    render(null);
    toast("Took back your last move.");
  }

  function threats() {
    return E.legal(board).filter(function (c) { return E.winsWith(board, c, 2); })
      .sort(function (a, b) { return a - b; }).map(function (c) { return c + 1; });
  }

  function render(win, who) {
    var st = $("status"), last = history[history.length - 1];
    document.querySelectorAll(".disc.last").forEach(function (d) { d.classList.remove("last"); });
    if (last) {
      var d = cols[last.c].children[board[last.c].length - 1].firstChild;
      if (d) d.classList.add("last");
    }
    if (over && who === 1) { st.textContent = "You win! Four in a " + (win.dir === "diagonal" ? "diagonal line" : win.dir) + "."; st.className = "status won"; }
    else if (over && who === 2) { st.textContent = "The computer wins with four in a " + (win.dir === "diagonal" ? "diagonal line" : win.dir) + "."; st.className = "status lost"; }
    else if (over) { st.textContent = "Draw: the board is full."; st.className = "status draw"; }
    else if (thinking) { st.textContent = "Computer is thinking…"; st.className = "status"; }
    else if (last && last.p === 2) { st.textContent = "Computer played column " + (last.c + 1) + ". Your turn."; st.className = "status"; }
    else { st.textContent = "Your turn: drop a coral disc."; st.className = "status"; }

    var t = over || thinking ? [] : threats();
    $("threat").hidden = !t.length;
    $("threat").textContent = t.length === 1 ? "The computer threatens column " + t[0] + "."
      : "The computer threatens columns " + t.slice(0, -1).join(", ") + " and " + t[t.length - 1] + ".";

    $("sc-you").textContent = score.you;
    $("sc-draw").textContent = score.draw;
    $("sc-cpu").textContent = score.cpu;
    $("undo").disabled = over || thinking || !history.some(function (m) { return m.p === 1; });
    cols.forEach(function (b, c) { b.disabled = over || board[c].length >= E.ROWS; });

    // the move table: one row per turn, the starter's column first
    var starter = history.length ? history[0].p : ($("cpu-first").checked ? 2 : 1);
    var heads = document.querySelectorAll(".moves th");
    heads[1].textContent = starter === 1 ? "You" : "Computer";
    heads[2].textContent = starter === 1 ? "Computer" : "You";
    var tb = $("moves"), rows = Math.ceil(history.length / 2);
    while (tb.rows.length > rows) tb.deleteRow(-1);
    while (tb.rows.length < rows) { var tr = tb.insertRow(-1); tr.insertCell(); tr.insertCell(); tr.insertCell(); }
    for (var i = 0; i < rows; i++) {
      var row = tb.rows[i];
      row.cells[0].textContent = String(i + 1);
      [0, 1].forEach(function (k) {
        var m = history[i * 2 + k], cell = row.cells[1 + k];
        cell.innerHTML = m ? '<span class="dot p' + m.p + '"></span>column ' + (m.c + 1) : "";
      });
    }
    $("no-moves").hidden = history.length > 0;
    $("move-count").textContent = history.length + (history.length === 1 ? " disc" : " discs");
  }

  function toast(text) {
    var t = $("toast");
    t.textContent = text;
    t.hidden = false;
  }
  // a toast stays until the next click or key press (no timer: what is on screen follows the actions)
  function dismiss() { $("toast").hidden = true; }
  document.addEventListener("pointerdown", dismiss, true);
  document.addEventListener("keydown", dismiss, true);

  $("new-game").addEventListener("click", function () { if (history.length) game++; newGame(); });
  $("undo").addEventListener("click", undo);
  $("how-toggle").addEventListener("click", function () {
    var open = $("how-toggle").getAttribute("aria-expanded") !== "true";
    $("how-toggle").setAttribute("aria-expanded", String(open));
    $("how-body").hidden = !open;
  });
  $("level").addEventListener("change", function () {
    $("sub").textContent = "Game " + game + " · Level: " + LEVEL_NAMES[$("level").value];
    toast("Level set to " + LEVEL_NAMES[$("level").value] + ".");
  });
  $("cpu-first").addEventListener("change", function () {
    if (!history.length && !thinking) newGame();
    else toast($("cpu-first").checked ? "The computer will start the next game." : "You will start the next game.");
  });
  document.addEventListener("keydown", function (e) {
    if (e.ctrlKey || e.metaKey || e.altKey) return;
    if (/^[1-7]$/.test(e.key)) { e.preventDefault(); human(Number(e.key) - 1); }
    else if (e.key === "u" || e.key === "U") undo();
    else if (e.key === "n" || e.key === "N") { if (history.length) game++; newGame(); }
  });

  build();
  newGame();
})();
