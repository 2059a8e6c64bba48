(function () {
  "use strict";
  var N = 5;
  // Each level is the board you get by pressing these cells on a dark board.
  var LEVELS = {
    1: { presses: [[2, 2], [2, 4], [4, 3]], par: 3 },
    2: { presses: [[1, 1], [1, 5], [3, 3], [5, 2]], par: 4 },
    3: { presses: [[1, 3], [2, 1], [3, 5], [4, 2], [5, 4], [5, 5]], par: 6 }
  };
  var level = 1, grid, moves, history;
  var $ = function (id) { return document.getElementById(id); };
  var board = $("board");

  function flip(g, r, c) {
    [[0, 0], [1, 0], [-1, 0], [0, 1], [0, -1]].forEach(function (d) {
      var rr = r + d[0], cc = c + d[1];
      if (rr >= 1 && rr <= N && cc >= 1 && cc <= N) g[rr - 1][cc - 1] = !g[rr - 1][cc - 1];
    });
  }
  function fresh() {
    var g = [];
    for (var r = 0; r < N; r++) { g.push([]); for (var c = 0; c < N; c++) g[r].push(false); }
    return g;
  }
  function lightsOn() { return grid.reduce(function (s, row) { return s + row.filter(Boolean).length; }, 0); }

  // Solve over GF(2); among all solutions pick the one with fewest presses.
  function solve() {
    var M = N * N, A = [], i, j, k;
    for (i = 0; i < M; i++) {
      var row = [], ri = Math.floor(i / N), ci = i % N;
      for (j = 0; j < M; j++) {
        var rj = Math.floor(j / N), cj = j % N;
        row.push(Math.abs(ri - rj) + Math.abs(ci - cj) <= 1 ? 1 : 0);
      }
      row.push(grid[ri][ci] ? 1 : 0);
      A.push(row);
    }
    var pivots = [], r = 0;
    for (var col = 0; col < M && r < M; col++) {
      var sel = -1;
      for (i = r; i < M; i++) if (A[i][col]) { sel = i; break; }
      if (sel < 0) continue;
      var t = A[sel]; A[sel] = A[r]; A[r] = t;
      for (i = 0; i < M; i++) if (i !== r && A[i][col]) for (k = col; k <= M; k++) A[i][k] ^= A[r][k];
      pivots.push(col); r++;
    }
    var free = [];
    for (j = 0; j < M; j++) if (pivots.indexOf(j) < 0) free.push(j);
    var best = null;
    for (var mask = 0; mask < (1 << free.length); mask++) {
      var x = new Array(M).fill(0);
      free.forEach(function (f, b) { x[f] = (mask >> b) & 1; });
      pivots.forEach(function (pc, pr) {
        var v = A[pr][M];
        free.forEach(function (f) { v ^= A[pr][f] & x[f]; });
        x[pc] = v;
      });
      var n = x.reduce(function (s, v) { return s + v; }, 0);
      if (!best || n < best.n) best = { x: x, n: n };
    }
    return best.x;
  }

  function buildBoard() {
    for (var r = 1; r <= N; r++) {
      for (var c = 1; c <= N; c++) {
        var b = document.createElement("button");
        b.type = "button";
        b.className = "cell";
        b.id = "cell-" + r + "-" + c;
        (function (r, c) { b.addEventListener("click", function () { press(r, c); }); })(r, c);
        board.appendChild(b);
      }
    }
  }

  function render() {
    for (var r = 1; r <= N; r++) {
      for (var c = 1; c <= N; c++) {
        var b = document.getElementById("cell-" + r + "-" + c);
        var on = grid[r - 1][c - 1];
        b.classList.remove("hint");
        b.setAttribute("aria-pressed", String(on));
        b.setAttribute("aria-label", "Row " + r + ", column " + c + (on ? ", on" : ", off"));
      }
    }
    $("moves").textContent = String(moves);
    var on = lightsOn();
    $("lights").textContent = String(on);
    var st = $("status");
    if (on === 0) {
      st.textContent = "Solved in " + moves + (moves === 1 ? " move!" : " moves!") + (moves <= LEVELS[level].par ? " That is par." : "");
      st.className = "status win";
    } else {
      st.textContent = "Turn every light off.";
      st.className = "status";
    }
    var log = $("log");
    log.innerHTML = "";
    history.forEach(function (h) {
      var li = document.createElement("li");
      li.textContent = "Row " + h[0] + ", column " + h[1];
      log.appendChild(li);
    });
    $("empty-log").hidden = history.length > 0;
    $("undo-btn").disabled = history.length === 0;
    $("hint-btn").disabled = on === 0;
  }

  function press(r, c) {
    if (lightsOn() === 0) return;
    flip(grid, r, c);
    moves++;
    history.push([r, c]);
    render();
  }

  function load(n) {
    level = n;
    grid = fresh();
    LEVELS[n].presses.forEach(function (p) { flip(grid, p[0], p[1]); });
    moves = 0; history = [];
    $("board-title").textContent = "Level " + n;
    $("par").textContent = "Par for this level: " + LEVELS[n].par + " moves";
    document.querySelectorAll(".level").forEach(function (b) {
      b.setAttribute("aria-pressed", String(+b.getAttribute("data-level") === n));
    });
    render();
  }

  $("undo-btn").addEventListener("click", function () {
    var h = history.pop();
    if (!h) return;
    flip(grid, h[0], h[1]);
    moves = history.length;
    render();
  });
  $("hint-btn").addEventListener("click", function () {
    var x = solve();
    var i = x.indexOf(1);
    if (i < 0) return;
    var r = Math.floor(i / N) + 1, c = i % N + 1;
    render();
    $("cell-" + r + "-" + c).classList.add("hint");
    $("status").textContent = "Hint: press row " + r + ", column " + c + ".";
  });
  $("reset-btn").addEventListener("click", function () { load(level); });
  document.querySelectorAll(".level").forEach(function (b) {
    b.addEventListener("click", function () { load(+b.getAttribute("data-level")); });
  });
  buildBoard();
  load(1);
})();
