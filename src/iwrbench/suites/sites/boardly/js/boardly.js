/* Boardly: a kanban board. Cards move between columns by dragging (a placeholder shows where they land), by
   Shift+arrow keys on a focused card, or with the 'Move to' menu of the card dialog; a column with a limit shows
   its count against it and turns red over it. The filter bar (text, labels, my cards) narrows every column.
   On a phone the columns become tabs and one column is shown at a time. */
(function () {
  "use strict";
  var B = window.BOARD, $ = function (id) { return document.getElementById(id); };
  var seq = 0, cards = B.cards.map(function (c) { return Object.assign({ id: ++seq }, c, { items: c.items.map(function (i) { return i.slice(); }) }); });
  var COLS = B.columns.map(function (c) { return c.id; });
  var q = "", labelOn = {}, mine = false, active = "todo", openId = null, adding = null, drag = null;

  function esc(s) { return String(s).replace(/[&<>"]/g, function (c) { return { "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;" }[c]; }); }
  function colName(id) { return B.columns.filter(function (c) { return c.id === id; })[0].name; }
  function byId(id) { return cards.filter(function (c) { return c.id === id; })[0]; }
  function visible(c) {
    if (q && c.t.toLowerCase().indexOf(q) < 0 && c.desc.toLowerCase().indexOf(q) < 0) return false;
    var any = Object.keys(labelOn).filter(function (k) { return labelOn[k]; });
    if (any.length && !c.labels.some(function (l) { return labelOn[l]; })) return false;
    if (mine && c.who !== B.me) return false;
    return true;
  }
  function inCol(id) { return cards.filter(function (c) { return c.col === id; }); }

  /* ---------- render ---------- */
  function cardHtml(c) {
    var done = c.items.filter(function (i) { return i[1]; }).length, n = c.items.length, p = B.people[c.who];
    return '<article class="card" tabindex="0" data-id="' + c.id + '" aria-label="' + esc(c.t) + '">' +
      '<div class="lbls">' + c.labels.map(function (l) { return '<span class="lbl" style="--l:' + B.labels[l][1] + '">' + B.labels[l][0] + "</span>"; }).join("") + "</div>" +
      '<p class="ct">' + esc(c.t) + "</p>" +
      '<div class="cm">' + (c.due ? '<span class="due"><svg viewBox="0 0 16 16" width="13" height="13" aria-hidden="true"><rect x="2" y="3" width="12" height="11" rx="2" fill="none" stroke="currentColor" stroke-width="1.4"/><path d="M2 6.5h12M5 1.5v3M11 1.5v3" stroke="currentColor" stroke-width="1.4"/></svg>' + c.due + "</span>" : "") +
      (n ? '<span class="chk' + (done === n ? " all" : "") + '"><svg viewBox="0 0 16 16" width="13" height="13" aria-hidden="true"><path d="m3 8.5 3 3 7-7" fill="none" stroke="currentColor" stroke-width="1.8" stroke-linecap="round" stroke-linejoin="round"/></svg>' + done + "/" + n + "</span>" : "") +
      '<span class="av sm" style="--a:' + p[1] + '" title="' + p[0] + '">' + c.who + "</span></div></article>";
  }
  function render() {
    var total = 0, shownN = 0, board = $("board"), keepFocus = document.activeElement && document.activeElement.getAttribute("data-id");
    board.innerHTML = B.columns.map(function (col) {
      var all = inCol(col.id), vis = all.filter(visible), over = col.limit && all.length > col.limit;
      total += all.length; shownN += vis.length;
      return '<section class="col' + (col.id === active ? " active" : "") + (over ? " over" : "") + '" data-col="' + col.id + '" aria-label="' + col.name + '">' +
        '<header class="ch"><h2>' + col.name + '</h2><span class="cnt">' + (col.limit ? all.length + " / " + col.limit : all.length) + "</span>" +
        (over ? '<span class="overmsg">Over limit</span>' : "") + "</header>" +
        '<div class="cards">' + vis.map(cardHtml).join("") + (vis.length ? "" : '<p class="nocards">' + (all.length ? "No cards match the filter" : "No cards yet") + "</p>") + "</div>" +
        (adding === col.id ? '<form class="addf" data-col="' + col.id + '"><textarea id="add-text" rows="2" placeholder="What needs doing?" aria-label="Card title"></textarea><div class="addacts"><button type="submit" class="btn primary" id="add-save">Add card</button><button type="button" class="btn ghost" id="add-cancel" aria-label="Cancel">×</button></div><p class="adderr" id="add-err" hidden>Give the card a title</p></form>'
          : '<button type="button" class="addbtn" data-col="' + col.id + '" id="add-' + col.id + '">+ Add a card</button>') + "</section>";
    }).join("");
    $("count").textContent = shownN === total ? total + " cards" : "Showing " + shownN + " of " + total + " cards";
    $("coltabs").innerHTML = B.columns.map(function (col) {
      var n = inCol(col.id).filter(visible).length;
      return '<button type="button" role="tab" class="ctab" id="tab-' + col.id + '" data-col="' + col.id + '" aria-selected="' + (col.id === active) + '">' + col.name + " <b>" + n + "</b></button>";
    }).join("");
    if (adding) { var ta = $("add-text"); if (ta) ta.focus(); }
    if (keepFocus) { var el = document.querySelector('.card[data-id="' + keepFocus + '"]'); if (el) el.focus(); }
  }
  function renderChips() {
    $("label-chips").innerHTML = Object.keys(B.labels).map(function (k) {
      return '<button type="button" class="fchip" id="lf-' + k + '" data-l="' + k + '" style="--l:' + B.labels[k][1] + '" aria-pressed="' + !!labelOn[k] + '"><i></i>' + B.labels[k][0] + "</button>";
    }).join("");
  }

  /* ---------- moving ---------- */
  function moveCard(c, col, index, how) {
    var from = c.col;
    cards = cards.filter(function (x) { return x !== c; });
    c.col = col;
    var peers = inCol(col), at = index === undefined || index > peers.length ? peers.length : index;
    var before = peers[at], pos = before ? cards.indexOf(before) : cards.length;
    if (!before && peers.length) pos = cards.indexOf(peers[peers.length - 1]) + 1;
    cards.splice(pos, 0, c);
    render();
    if (from !== col) {
      var lim = B.columns.filter(function (x) { return x.id === col; })[0].limit;
      toast("Moved to " + colName(col) + (lim && inCol(col).length > lim ? ": " + colName(col) + " is over its limit of " + lim : ""), lim && inCol(col).length > lim);
    } else if (how) toast("Reordered in " + colName(col));
  }
  function toast(msg, warn) {
    var t = $("toast"); t.textContent = msg; t.className = "toast" + (warn ? " warn" : ""); t.hidden = false;
  }
  // a toast stays until the next click or key elsewhere
  ["mousedown", "keydown"].forEach(function (ty) {
    document.addEventListener(ty, function (e) { if (!$("toast").hidden && !$("toast").contains(e.target)) $("toast").hidden = true; }, true);
  });

  /* ---------- card dialog ---------- */
  function openCard(id) {
    var c = byId(id); if (!c) return;
    openId = id;
    $("d-col").innerHTML = "in <b>" + colName(c.col) + "</b>";
    $("d-title").textContent = c.t;
    $("d-labels").innerHTML = Object.keys(B.labels).map(function (k) {
      return '<button type="button" class="dl" id="dl-' + k + '" data-l="' + k + '" style="--l:' + B.labels[k][1] + '" aria-pressed="' + (c.labels.indexOf(k) >= 0) + '">' + B.labels[k][0] + "</button>";
    }).join("");
    $("d-due").innerHTML = c.due ? "Due <b>" + c.due + "</b>" : "No due date";
    $("d-who").innerHTML = '<span class="av sm" style="--a:' + B.people[c.who][1] + '">' + c.who + "</span>" + B.people[c.who][0];
    $("d-desc").textContent = c.desc || "No description.";
    $("d-move").innerHTML = B.columns.map(function (col) { return '<option value="' + col.id + '"' + (col.id === c.col ? " selected" : "") + ">" + col.name + "</option>"; }).join("");
    renderItems(c);
    $("scrim").hidden = false;
    $("d-close").focus();
  }
  function renderItems(c) {
    var done = c.items.filter(function (i) { return i[1]; }).length, n = c.items.length;
    $("d-prog").textContent = n ? (done === n ? "All " + n + " done" : done + " of " + n + " done") : "No items";
    $("d-bar").style.width = n ? done / n * 100 + "%" : "0";
    $("d-bar").parentNode.classList.toggle("full", n > 0 && done === n);
    $("d-items").innerHTML = c.items.map(function (it, i) {
      return '<li><label class="item' + (it[1] ? " on" : "") + '"><input type="checkbox" id="it-' + i + '"' + (it[1] ? " checked" : "") + "><span>" + esc(it[0]) + "</span></label></li>";
    }).join("");
  }
  function closeCard() { $("scrim").hidden = true; var id = openId; openId = null; render(); var el = document.querySelector('.card[data-id="' + id + '"]'); if (el) el.focus(); }
  $("d-close").addEventListener("click", closeCard);
  $("scrim").addEventListener("mousedown", function (e) { if (e.target === $("scrim")) closeCard(); });
  $("d-items").addEventListener("change", function (e) {
    var c = byId(openId), i = +e.target.id.slice(3);
    c.items[i][1] = e.target.checked ? 1 : 0; renderItems(c);
  });
  $("d-labels").addEventListener("click", function (e) {
    var b = e.target.closest(".dl"); if (!b) return;
    var c = byId(openId), l = b.getAttribute("data-l"), k = c.labels.indexOf(l);
    if (k >= 0) c.labels.splice(k, 1); else c.labels.push(l);
    c.labels.sort(function (a, b2) { return Object.keys(B.labels).indexOf(a) - Object.keys(B.labels).indexOf(b2); });
    b.setAttribute("aria-pressed", String(k < 0));
  });
  $("d-move").addEventListener("change", function (e) {
    var c = byId(openId); moveCard(c, e.target.value);
    $("d-col").innerHTML = "in <b>" + colName(c.col) + "</b>";
  });

  /* ---------- board events ---------- */
  $("board").addEventListener("click", function (e) {
    var add = e.target.closest(".addbtn");
    if (add) { adding = add.getAttribute("data-col"); render(); return; }
    if (e.target.id === "add-cancel") { adding = null; render(); return; }
    var card = e.target.closest(".card");
    if (card && !justDragged) openCard(+card.getAttribute("data-id"));
  });
  $("board").addEventListener("submit", function (e) {
    e.preventDefault();
    var text = $("add-text").value.trim();
    if (!text) { $("add-err").hidden = false; $("add-text").classList.add("bad"); $("add-text").focus(); return; }
    cards.push({ id: ++seq, col: adding, t: text, labels: [], who: B.me, due: "", desc: "", items: [] });
    var col = adding; adding = col; render(); $("add-text").value = "";
    toast("Added to " + colName(col));
  });
  $("board").addEventListener("keydown", function (e) {
    if (e.target.id === "add-text") {
      if (e.key === "Enter" && !e.shiftKey) { e.preventDefault(); $("add-save").click(); }
      if (e.key === "Escape") { adding = null; render(); }
      return;
    }
    var card = e.target.closest(".card"); if (!card) return;
    var c = byId(+card.getAttribute("data-id"));
    if (e.key === "Enter") { e.preventDefault(); openCard(c.id); return; }
    if (!e.shiftKey) return;
    var ci = COLS.indexOf(c.col), peers = inCol(c.col), pi = peers.indexOf(c);
    if (e.key === "ArrowRight" && ci < COLS.length - 1) { e.preventDefault(); moveCard(c, COLS[ci + 1]); active = c.col; render(); }
    else if (e.key === "ArrowLeft" && ci > 0) { e.preventDefault(); moveCard(c, COLS[ci - 1]); active = c.col; render(); }
    else if (e.key === "ArrowUp" && pi > 0) { e.preventDefault(); moveCard(c, c.col, pi - 1, true); }
    else if (e.key === "ArrowDown" && pi < peers.length - 1) { e.preventDefault(); moveCard(c, c.col, pi + 1, true); }
  });
  document.addEventListener("keydown", function (e) { if (e.key === "Escape" && !$("scrim").hidden) closeCard(); });

  // drag with the mouse: a floating copy follows the pointer, a placeholder marks the drop
  var justDragged = false;
  $("board").addEventListener("mousedown", function (e) {
    var card = e.target.closest(".card"); if (!card || e.button !== 0) return;
    drag = { id: +card.getAttribute("data-id"), el: card, x: e.clientX, y: e.clientY, on: false };
  });
  document.addEventListener("mousemove", function (e) {
    if (!drag) return;
    if (!drag.on) {
      if (Math.abs(e.clientX - drag.x) + Math.abs(e.clientY - drag.y) < 6) return;
      var r = drag.el.getBoundingClientRect();
      drag.on = true; drag.dx = e.clientX - r.left; drag.dy = e.clientY - r.top;
      drag.ghost = drag.el.cloneNode(true); drag.ghost.classList.add("ghost"); drag.ghost.style.width = r.width + "px"; document.body.appendChild(drag.ghost);
      drag.ph = document.createElement("div"); drag.ph.className = "ph"; drag.ph.style.height = r.height + "px";
      drag.el.parentNode.insertBefore(drag.ph, drag.el); drag.el.style.display = "none";
    }
    drag.ghost.style.left = e.clientX - drag.dx + "px"; drag.ghost.style.top = e.clientY - drag.dy + "px";
    var col = document.elementsFromPoint(e.clientX, e.clientY).map(function (n) { return n.closest && n.closest(".col"); }).filter(Boolean)[0];
    if (!col) return;
    var list = col.querySelector(".cards"), after = null;
    list.querySelectorAll(".card").forEach(function (k) {
      if (k === drag.el || after) return;
      var b = k.getBoundingClientRect(); if (e.clientY < b.top + b.height / 2) after = k;
    });
    if (after) list.insertBefore(drag.ph, after); else list.appendChild(drag.ph);
  });
  document.addEventListener("mouseup", function () {
    if (!drag) return;
    var d = drag; drag = null;
    if (!d.on) return;
    justDragged = true; setTimeout(function () { justDragged = false; }, 0);
    var list = d.ph.parentNode, col = list.closest(".col").getAttribute("data-col");
    var idx = 0, n = list.firstChild;
    for (; n && n !== d.ph; n = n.nextSibling) if (n.classList && n.classList.contains("card") && n !== d.el) idx++;
    d.ghost.remove();
    var c = byId(d.id), vis = inCol(col).filter(function (x) { return x !== c && visible(x); }), target = vis[idx];
    var all = inCol(col).filter(function (x) { return x !== c; });
    moveCard(c, col, target ? all.indexOf(target) : all.length, true);
  });

  /* ---------- filters and tabs ---------- */
  $("q").addEventListener("input", function (e) { q = e.target.value.trim().toLowerCase(); render(); });
  $("label-chips").addEventListener("click", function (e) {
    var b = e.target.closest(".fchip"); if (!b) return;
    var k = b.getAttribute("data-l"); labelOn[k] = !labelOn[k]; renderChips(); render();
  });
  $("mine").addEventListener("click", function () { mine = !mine; $("mine").setAttribute("aria-pressed", String(mine)); render(); });
  $("coltabs").addEventListener("click", function (e) { var b = e.target.closest(".ctab"); if (b) { active = b.getAttribute("data-col"); adding = null; render(); } });

  renderChips(); render();
})();
