/* Slidewell page: 15 tile buttons created once and moved with transforms; clicks slide a whole
   row or column segment toward the gap, arrow keys slide the tile next to the gap. After every
   move the page re-runs the solver to show how far the board is from solved. */
(function () {
  "use strict";
  var P = window.Puzzle, N = P.N;
  var $ = function (id) { return document.getElementById(id); };
  var NAMES = { easy: "Easy", medium: "Medium", hard: "Hard" };
  var number = 1, level = "easy", start, board, moves = 0, par = null, tiles = {}, hinted = 0;

  function build() {
    for (var v = 1; v < N * N; v++) {
      var b = document.createElement("button");
      b.type = "button";
      b.className = "tile";
      b.textContent = String(v);
      b.setAttribute("aria-label", "Tile " + v);
      // a tile moved with the mouse does not keep the focus (no ring appears on the next arrow key)
      (function (v, b) { b.addEventListener("click", function (e) { if (e.detail) b.blur(); clickTile(v); }); })(v, b);
      $("board").appendChild(b);
      tiles[v] = b;
    }
  }

  function load(n, lv) {
    number = n; level = lv;
    start = P.scramble(number, level);
    board = start.slice();
    moves = 0; hinted = 0;
    var sol = P.solve(start, 300000);
    par = sol ? sol.length : null;
    $("num").value = String(number);
    $("num").setAttribute("aria-invalid", "false");
    $("num-err").hidden = true;
    $("title").textContent = "Puzzle " + number + " · " + NAMES[level];
    document.title = "Puzzle " + number + " · " + NAMES[level] + " · Slidewell";
    document.querySelectorAll(".seg button").forEach(function (b) {
      b.setAttribute("aria-checked", String(b.dataset.level === level));
    });
    $("hint-text").textContent = "";
    render(sol);
  }

  function render(sol) {
    var size = parseFloat(getComputedStyle(document.documentElement).getPropertyValue("--tile")) || 76;
    for (var i = 0; i < N * N; i++) {
      var v = board[i];
      if (!v) continue;
      var t = tiles[v];
      t.style.transform = "translate(" + (i % N) * (size + 8) + "px," + Math.floor(i / N) * (size + 8) + "px)";
      t.classList.toggle("home", v === i + 1);
      t.classList.toggle("hinted", v === hinted);
    }
    var inPlace = 0;
    for (i = 0; i < N * N - 1; i++) if (board[i] === i + 1) inPlace++;
    $("moves").textContent = String(moves);
    $("inplace").textContent = inPlace + " / 15";
    $("par").textContent = par === null ? "—" : par + (par === 1 ? " move" : " moves");
    var done = P.isSolved(board);
    if (sol === undefined) sol = done ? [] : P.solve(board, 60000);
    $("togo").textContent = done ? "Solved" : sol ? sol.length + (sol.length === 1 ? " move" : " moves") : "—";
    $("board").classList.toggle("done", done);
    $("solved").hidden = !done;
    if (done) {
      $("solved-title").textContent = "Solved in " + moves + (moves === 1 ? " move" : " moves") + "!";
      $("solved-sub").textContent = par === null ? "Puzzle " + number + " · " + NAMES[level]
        : moves === par ? "Par " + par + " · a perfect solve" : "Par " + par + " · " + (moves - par) + " over par";
      $("hint-text").textContent = "";
    }
  }

  function slide(fromIdx) { // move the tiles between fromIdx and the gap one step toward the gap
    var gap = board.indexOf(0), step;
    if (Math.floor(fromIdx / N) === Math.floor(gap / N)) step = fromIdx > gap ? 1 : -1;
    else if (fromIdx % N === gap % N) step = fromIdx > gap ? N : -N;
    else return false;
    var count = 0;
    for (var k = gap; k !== fromIdx; k += step) { board[k] = board[k + step]; board[k + step] = 0; count++; }
    moves += count;
    hinted = 0;
    $("hint-text").textContent = "";
    render();
    return true;
  }
  function clickTile(v) {
    if (P.isSolved(board)) return;
    slide(board.indexOf(v));
  }

  function hint() {
    if (P.isSolved(board)) return;
    var sol = P.solve(board, 150000);
    if (!sol) {
      $("hint-text").textContent = "This board is too far from solved for a hint. Try Reset or an easier level.";
      return;
    }
    var v = sol[0], idx = board.indexOf(v), gap = board.indexOf(0);
    var dir = idx === gap + 1 ? "left" : idx === gap - 1 ? "right" : idx === gap + N ? "up" : "down";
    hinted = v;
    render(sol);
    $("hint-text").textContent = "Hint: slide " + v + " " + dir + " (" + sol.length + (sol.length === 1 ? " move" : " moves") + " to go)";
  }

  function openTyped(e) {
    if (e) e.preventDefault();
    var raw = $("num").value.trim(), n = Number(raw);
    var ok = /^\d{1,4}$/.test(raw) && n >= 1 && n <= 9999;
    $("num-err").hidden = ok;
    $("num").setAttribute("aria-invalid", String(!ok));
    if (!ok) { $("num-err").textContent = "Enter a puzzle number from 1 to 9,999."; return; }
    load(n, level);
    $("board").focus();
  }

  $("pick").addEventListener("submit", openTyped);
  $("prev").addEventListener("click", function () { if (number > 1) load(number - 1, level); });
  $("next").addEventListener("click", function () { if (number < 9999) load(number + 1, level); });
  $("next-after").addEventListener("click", function () { load(number < 9999 ? number + 1 : 1, level); });
  $("hint").addEventListener("click", hint);
  $("reset").addEventListener("click", function () { board = start.slice(); moves = 0; hinted = 0; $("hint-text").textContent = ""; render(); });
  document.querySelectorAll(".seg button").forEach(function (b) {
    b.addEventListener("click", function () { load(number, b.dataset.level); });
  });
  document.addEventListener("keydown", function (e) {
    if (e.target && e.target.tagName === "INPUT") return;
    var gap = board.indexOf(0), r = Math.floor(gap / N), c = gap % N, from = -1;
    if (e.key === "ArrowLeft" && c < N - 1) from = gap + 1;
    else if (e.key === "ArrowRight" && c > 0) from = gap - 1;
    else if (e.key === "ArrowUp" && r < N - 1) from = gap + N;
    else if (e.key === "ArrowDown" && r > 0) from = gap - N;
    else if (e.key === "h" || e.key === "H") { hint(); return; }
    else return;
    e.preventDefault();
    if (!P.isSolved(board)) slide(from);
  });

  $("board").tabIndex = -1;
  build();
  load(1, "easy");
})();
