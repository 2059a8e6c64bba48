(function () {
  "use strict";
  var LINES = [[1, 2, 3], [4, 5, 6], [7, 8, 9], [1, 4, 7], [2, 5, 8], [3, 6, 9], [1, 5, 9], [3, 5, 7]];
  var NAMES = { 1: "top left", 2: "top middle", 3: "top right", 4: "middle left", 5: "centre", 6: "middle right", 7: "bottom left", 8: "bottom middle", 9: "bottom right" };
  var $ = function (id) { return document.getElementById(id); };
  var board, over, round = 1, moves, score = { you: 0, draw: 0, cpu: 0 };

  function winner() {
    for (var i = 0; i < LINES.length; i++) {
      var l = LINES[i];
      if (board[l[0]] && board[l[0]] === board[l[1]] && board[l[0]] === board[l[2]]) return { mark: board[l[0]], line: l };
    }
    return null;
  }
  function free(k) { return !board[k]; }
  function completing(mark) {
    for (var i = 0; i < LINES.length; i++) {
      var l = LINES[i], mine = l.filter(function (k) { return board[k] === mark; }).length, empty = l.filter(free);
      if (mine === 2 && empty.length === 1) return empty[0];
    }
    return 0;
  }
  function cpuMove() {
    var k = completing("O") || completing("X") || (free(5) ? 5 : 0);
    if (!k) k = [1, 3, 7, 9].filter(free)[0] || [2, 4, 6, 8].filter(free)[0];
    play(k, "O");
  }
  function play(k, mark) {
    board[k] = mark;
    moves.push(mark + " " + NAMES[k]);
    var w = winner(), full = Object.keys(board).length === 9;
    if (w) {
      over = true;
      if (w.mark === "X") score.you++; else score.cpu++;
    } else if (full) { over = true; score.draw++; }
    render(w);
  }
  function render(w) {
    var el = $("board");
    el.innerHTML = "";
    for (var k = 1; k <= 9; k++) {
      var b = document.createElement("button");
      b.type = "button";
      b.className = "cell" + (w && w.line.indexOf(k) >= 0 ? " win" : "");
      b.id = "cell-" + k;
      b.setAttribute("aria-label", NAMES[k].charAt(0).toUpperCase() + NAMES[k].slice(1) + " square: " + (board[k] || "empty"));
      if (board[k]) b.innerHTML = '<img src="img/' + board[k].toLowerCase() + '.svg" width="64" height="64" alt="' + board[k] + '">';
      b.disabled = !!board[k] || over;
      (function (k) { b.addEventListener("click", function () { if (over || board[k]) return; play(k, "X"); if (!over) cpuMove(); }); })(k);
      el.appendChild(b);
    }
    var st = $("status");
    if (w && w.mark === "X") { st.textContent = "You win! Three in a row."; st.className = "status won"; }
    else if (w) { st.textContent = "The computer wins this round."; st.className = "status lost"; }
    else if (over) { st.textContent = "Draw! Nobody wins this round."; st.className = "status draw"; }
    else { st.textContent = "Your turn: you are X."; st.className = "status"; }
    $("score-you").textContent = score.you; $("score-draw").textContent = score.draw; $("score-cpu").textContent = score.cpu;
    $("round").textContent = "Round " + round;
    var ol = $("moves"); ol.innerHTML = "";
    moves.forEach(function (m) { var li = document.createElement("li"); li.textContent = m; ol.appendChild(li); });
    $("no-moves").hidden = moves.length > 0;
  }
  function newGame(first) {
    board = {}; over = false; moves = [];
    if ($("cpu-first").checked) cpuMove(); else render(null);
  }
  $("new-game").addEventListener("click", function () { round++; newGame(); });
  $("cpu-first").addEventListener("change", function () { if (!moves.length) newGame(); });
  newGame();
})();
