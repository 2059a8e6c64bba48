/* Slidewell puzzle rules: boards numbered 1-9999 are scrambled by a fixed generator (not
   Math.random), so "Puzzle 42 · Easy" is the same board for everyone; the hint is an IDA* search
   (Manhattan distance plus linear conflicts), which is exact for the easy and medium levels. */
(function (root) {
  "use strict";
  var N = 4;
  var LEVELS = { easy: 10, medium: 22, hard: 80 };

  function rng(seed) { // mulberry32
    var a = seed >>> 0;
    return function () {
      a = (a + 0x6d2b79f5) >>> 0;
      var t = a;
      t = Math.imul(t ^ (t >>> 15), t | 1);
      t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
      return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
    };
  }
  function solved() { var b = []; for (var i = 1; i < N * N; i++) b.push(i); b.push(0); return b; }
  function neighbours(gap) {
    var r = Math.floor(gap / N), c = gap % N, out = [];
    if (r > 0) out.push(gap - N);
    if (r < N - 1) out.push(gap + N);
    if (c > 0) out.push(gap - 1);
    if (c < N - 1) out.push(gap + 1);
    return out;
  }
  function scramble(number, level) {
    var b = solved(), gap = N * N - 1, prev = -1, next = rng(number * 7919 + LEVELS[level]);
    var steps = LEVELS[level], done = 0;
    while (done < steps) {
      var opts = neighbours(gap).filter(function (k) { return k !== prev; });
      var k = opts[Math.floor(next() * opts.length)];
      b[gap] = b[k]; b[k] = 0; prev = gap; gap = k; done++;
    }
    if (isSolved(b)) return scramble(number + 10000, level);
    return b;
  }
  function isSolved(b) { for (var i = 0; i < N * N - 1; i++) if (b[i] !== i + 1) return false; return true; }

  function heuristic(b) {
    var h = 0, i, j;
    for (i = 0; i < N * N; i++) {
      var v = b[i];
      if (!v) continue;
      h += Math.abs(Math.floor(i / N) - Math.floor((v - 1) / N)) + Math.abs(i % N - (v - 1) % N);
    }
    for (var line = 0; line < N; line++) { // linear conflicts in rows and columns
      for (i = 0; i < N; i++) for (j = i + 1; j < N; j++) {
        var a = b[line * N + i], c = b[line * N + j];
        if (a && c && Math.floor((a - 1) / N) === line && Math.floor((c - 1) / N) === line && a > c) h += 2;
        a = b[i * N + line]; c = b[j * N + line];
        if (a && c && (a - 1) % N === line && (c - 1) % N === line && a > c) h += 2;
      }
    }
    return h;
  }

  // the tiles to move, in order, for a shortest solution (null when the search is too long)
  function solve(board, budget) {
    var b = board.slice(), gap = b.indexOf(0), path = [], nodes = 0, limit = budget || 400000;
    var bound = heuristic(b);
    function search(g, bnd, prev) {
      var h = heuristic(b), f = g + h;
      if (f > bnd) return f;
      if (h === 0) return -1;
      if (++nodes > limit) return Infinity;
      var min = Infinity, opts = neighbours(gap);
      for (var i = 0; i < opts.length; i++) {
        var k = opts[i];
        if (k === prev) continue;
        var tile = b[k], old = gap;
        b[old] = tile; b[k] = 0; gap = k; path.push(tile);
        var t = search(g + 1, bnd, old);
        if (t === -1) return -1;
        if (t < min) min = t;
        path.pop(); b[k] = tile; b[old] = 0; gap = old;
      }
      return min;
    }
    while (true) {
      var t = search(0, bound, -1);
      if (t === -1) return path.slice();
      if (t === Infinity || nodes > limit) return null;
      bound = t;
    }
  }

  root.Puzzle = { N: N, LEVELS: LEVELS, solved: solved, scramble: scramble, isSolved: isSolved,
    neighbours: neighbours, solve: solve };
})(typeof window !== "undefined" ? window : module.exports);
