/* Minefield's rules, apart from the page so they can be reasoned about on their own.
   A board is numbered; its mines are laid by a small seeded generator (not Math.random) from that
   number alone, so board #2442 is the same field for everyone, whatever square is opened first. */
(function (root) {
  "use strict";

  var LEVELS = {
    beginner: { label: "Beginner", rows: 9, cols: 9, mines: 10 },
    intermediate: { label: "Intermediate", rows: 16, cols: 16, mines: 40 }
  };

  function generator(seed) {
    var a = seed >>> 0;
    return function () {
      a = (a + 0x6d2b79f5) >>> 0;
      var t = a;
      t = Math.imul(t ^ (t >>> 15), t | 1);
      t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
      return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
    };
  }

  function Game(level, number) {
    var L = LEVELS[level];
    this.level = level;
    this.number = number;
    this.rows = L.rows;
    this.cols = L.cols;
    this.mines = L.mines;
    this.cells = [];
    for (var i = 0; i < L.rows * L.cols; i++) this.cells.push({ mine: false, adj: 0, open: false, flag: false, wrong: false, boom: false });
    this.started = false;
    this.over = null; // null | "won" | "lost"
    this.moves = 0;
    this.opened = 0;
    this.flags = 0;
    this.boom = null;
  }

  Game.prototype.at = function (r, c) {
    if (r < 1 || c < 1 || r > this.rows || c > this.cols) return null;
    return this.cells[(r - 1) * this.cols + (c - 1)];
  };

  Game.prototype.around = function (r, c) {
    var out = [];
    for (var dr = -1; dr <= 1; dr++) {
      for (var dc = -1; dc <= 1; dc++) {
        if ((dr || dc) && this.at(r + dr, c + dc)) out.push([r + dr, c + dc]);
      }
    }
    return out;
  };

  // The field depends on the board number only. If the first click lands on a mine, that mine moves to
  // the first free square from the top-left corner (reading along the rows), so the first click is safe.
  Game.prototype.layMines = function (r0, c0) {
    var rand = generator(this.number * 7919 + this.rows * 131);
    var all = [];
    for (var r = 1; r <= this.rows; r++) {
      for (var c = 1; c <= this.cols; c++) all.push([r, c]);
    }
    for (var i = all.length - 1; i > 0; i--) {
      var j = Math.floor(rand() * (i + 1));
      var t = all[i]; all[i] = all[j]; all[j] = t;
    }
    for (var k = 0; k < this.mines; k++) this.at(all[k][0], all[k][1]).mine = true;
    if (this.at(r0, c0).mine) {
      this.at(r0, c0).mine = false;
      for (k = 0; k < this.cells.length; k++) {
        if (!this.cells[k].mine && k !== (r0 - 1) * this.cols + (c0 - 1)) { this.cells[k].mine = true; break; }
      }
    }
    var self = this;
    for (r = 1; r <= this.rows; r++) {
      for (c = 1; c <= this.cols; c++) {
        this.at(r, c).adj = this.around(r, c).filter(function (p) { return self.at(p[0], p[1]).mine; }).length;
      }
    }
    this.started = true;
  };

  Game.prototype.safeTotal = function () { return this.rows * this.cols - this.mines; };

  // Opens one square (flood-filling from blanks); returns how many squares opened.
  Game.prototype.open = function (r, c) {
    var cell = this.at(r, c);
    if (!cell || cell.open || cell.flag || this.over) return 0;
    if (!this.started) this.layMines(r, c);
    if (cell.mine) { this.explode(r, c); return 0; }
    var n = 0, queue = [[r, c]];
    while (queue.length) {
      var p = queue.shift(), q = this.at(p[0], p[1]);
      if (q.open || q.flag) continue;
      q.open = true; n++;
      if (q.adj === 0) {
        this.around(p[0], p[1]).forEach(function (nb) { queue.push(nb); });
      }
    }
    this.opened += n;
    if (this.opened === this.safeTotal()) this.win();
    return n;
  };

  // On an open number whose flags around it match it: open every other square around it.
  Game.prototype.chord = function (r, c) {
    var cell = this.at(r, c), self = this;
    if (!cell || !cell.open || cell.adj === 0 || this.over) return -1;
    var nb = this.around(r, c);
    var flags = nb.filter(function (p) { return self.at(p[0], p[1]).flag; }).length;
    if (flags !== cell.adj) return -1;
    var n = 0;
    nb.forEach(function (p) {
      var q = self.at(p[0], p[1]);
      if (self.over || q.open || q.flag) return;
      if (q.mine) { self.explode(p[0], p[1]); return; }
      n += self.open(p[0], p[1]);
    });
    return n;
  };

  Game.prototype.toggleFlag = function (r, c) {
    var cell = this.at(r, c);
    if (!cell || cell.open || this.over || !this.started) return false;
    cell.flag = !cell.flag;
    this.flags += cell.flag ? 1 : -1;
    return true;
  };

  Game.prototype.explode = function (r, c) {
    this.over = "lost";
    this.boom = [r, c];
    this.at(r, c).boom = true;
    this.cells.forEach(function (q) {
      if (q.flag && !q.mine) q.wrong = true;
    });
  };

  Game.prototype.win = function () {
    this.over = "won";
    var self = this;
    this.cells.forEach(function (q) {
      if (q.mine && !q.flag) { q.flag = true; self.flags++; }
    });
  };

  root.Minefield = { LEVELS: LEVELS, Game: Game };
  if (typeof module !== "undefined") module.exports = root.Minefield;
})(typeof window !== "undefined" ? window : globalThis);
