/* Fourfold engine: board rules and the computer's two levels, kept free of the page so that the
   moves it picks can be checked outside a browser. Deterministic: no randomness, a fixed
   column order for ties (centre first). */
(function (root) {
  "use strict";
  var COLS = 7, ROWS = 6;
  var ORDER = [3, 2, 4, 1, 5, 0, 6];

  function empty() {
    var b = [];
    for (var c = 0; c < COLS; c++) b.push([]);
    return b; // b[col] = discs from the bottom up, 1 = you, 2 = computer
  }
  function copy(b) { return b.map(function (col) { return col.slice(); }); }
  function legal(b) { return ORDER.filter(function (c) { return b[c].length < ROWS; }); }
  function at(b, c, r) { return c >= 0 && c < COLS && r >= 0 && r < ROWS ? (b[c][r] || 0) : -1; }

  // the four cells of a win through (c, r) for player p, or null
  function lineThrough(b, c, r, p) {
    var dirs = [[1, 0], [0, 1], [1, 1], [1, -1]];
    for (var d = 0; d < dirs.length; d++) {
      var dx = dirs[d][0], dy = dirs[d][1], cells = [[c, r]];
      for (var k = 1; at(b, c + dx * k, r + dy * k) === p; k++) cells.push([c + dx * k, r + dy * k]);
      for (k = 1; at(b, c - dx * k, r - dy * k) === p; k++) cells.unshift([c - dx * k, r - dy * k]);
      if (cells.length >= 4) return { cells: cells.slice(0, 4), dir: ["row", "column", "diagonal", "diagonal"][d] };
    }
    return null;
  }
  function drop(b, c, p) { b[c].push(p); return lineThrough(b, c, b[c].length - 1, p); }
  function winsWith(b, c, p) {
    if (b[c].length >= ROWS) return false;
    var t = copy(b);
    return !!drop(t, c, p);
  }
  function full(b) { return b.every(function (col) { return col.length === ROWS; }); }

  // windows of four: the computer's positional judgement
  function evaluate(b, me) {
    var you = 3 - me, score = 0;
    for (var c = 0; c < COLS; c++) for (var r = 0; r < ROWS; r++) {
      [[1, 0], [0, 1], [1, 1], [1, -1]].forEach(function (d) {
        var mine = 0, theirs = 0, ok = true;
        for (var k = 0; k < 4; k++) {
          var v = at(b, c + d[0] * k, r + d[1] * k);
          if (v < 0) { ok = false; break; }
          if (v === me) mine++; else if (v === you) theirs++;
        }
        if (!ok || (mine && theirs)) return;
        score += [0, 1, 5, 40, 1000][mine] - [0, 2, 12, 90, 1000][theirs];
      });
    }
    for (r = 0; r < ROWS; r++) { if (b[3][r] === me) score += 3; else if (b[3][r] === you) score -= 3; }
    return score;
  }

  function negamax(b, depth, alpha, beta, p) {
    var cols = legal(b);
    if (!cols.length) return 0;
    for (var i = 0; i < cols.length; i++) if (winsWith(b, cols[i], p)) return 100000 + depth;
    if (depth === 0) return evaluate(b, p);
    var best = -Infinity;
    for (i = 0; i < cols.length; i++) {
      var t = copy(b); t[cols[i]].push(p);
      var v = -negamax(t, depth - 1, -beta, -alpha, 3 - p);
      if (v > best) best = v;
      if (v > alpha) alpha = v;
      if (alpha >= beta) break;
    }
    return best;
  }
  // the computer looks `depth` plies past its own move; ties go to the column nearest the centre
  function choose(b, depth) {
    var cols = legal(b), best = cols[0], bestScore = -Infinity;
    for (var i = 0; i < cols.length; i++) if (winsWith(b, cols[i], 2)) return cols[i];
    for (i = 0; i < cols.length; i++) if (winsWith(b, cols[i], 1)) return cols[i];
    cols.forEach(function (c) {
      var t = copy(b); t[c].push(2);
      var v = -negamax(t, depth, -Infinity, Infinity, 1);
      if (v > bestScore) { bestScore = v; best = c; }
    });
    return best;
  }
  function threats(b, p) { return legal(b).filter(function (c) { return winsWith(b, c, p); }).length; }
  // Casual: win, block, then take the square where you would make two threats at once
  function casual(b) {
    var cols = legal(b), i;
    for (i = 0; i < cols.length; i++) if (winsWith(b, cols[i], 2)) return cols[i];
    for (i = 0; i < cols.length; i++) if (winsWith(b, cols[i], 1)) return cols[i];
    for (i = 0; i < cols.length; i++) {
      var t = copy(b); t[cols[i]].push(1);
      var u = copy(b); u[cols[i]].push(2);
      if (threats(t, 1) >= 2 && !winsWith(u, cols[i], 1)) return cols[i];
    }
    return choose(b, 0);
  }
  function sharp(b) { return choose(b, 3); }

  root.FourEngine = { COLS: COLS, ROWS: ROWS, empty: empty, copy: copy, legal: legal, drop: drop,
    winsWith: winsWith, full: full, casual: casual, sharp: sharp, lineThrough: lineThrough };
})(typeof window !== "undefined" ? window : module.exports);
