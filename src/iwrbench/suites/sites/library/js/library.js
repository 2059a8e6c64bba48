/* Millbrook Libraries catalogue: search with facets whose counts follow the query, item pages with
   tabs, holds placed through a pick-up dialog, and a reading list that can be reordered. Views are
   switched by the URL hash (#/, #/item/ID, #/list, #/holds). */
(function () {
  "use strict";
  var $ = function (id) { return document.getElementById(id); };
  var BRANCHES = ["Central", "Northgate", "Riverside"];
  var FORMATS = ["Book", "eBook", "Audiobook", "DVD"];
  // copies per branch: [on shelf, total]
  var ITEMS = [
    [1, "The Salt Road Orchard", "Imogen Tally", 2021, "Book", "Gardening", { Central: [1, 2], Riverside: [0, 1] }, 0, "312 pages", "An orchard planted on a coastal road survives three storms and a bypass. Tally's memoir of twenty years growing apples in salty wind, with notes on the forty varieties she kept."],
    [2, "River Without a Mouth", "Dario Vence", 2019, "Book", "Fiction", { Central: [0, 2], Northgate: [0, 1] }, 4, "288 pages", "A hydrologist returns to the delta town she left as a child and finds the river has changed course, taking the family house with it."],
    [3, "Tide Tables for Beginners", "Hollis Marr", 2017, "Book", "Science", { Central: [2, 2] }, 0, "196 pages", "How the moon, the sun and the shape of a coastline make the tides, explained with worked examples from twelve harbours."],
    [4, "A Field Guide to Urban Moths", "Petra Quayle", 2022, "Book", "Nature", { Northgate: [1, 1], Riverside: [1, 1] }, 0, "244 pages", "Two hundred moths you can find under a street lamp, each drawn life size, with flight months and food plants."],
    [5, "Kettle & Crumb: Baking at Home", "Sunniva Ade", 2020, "Book", "Cookery", { Central: [0, 1], Northgate: [0, 1] }, 3, "256 pages", "Everyday breads, traybakes and biscuits from a village bakery, written for a home oven and a single mixing bowl."],
    [6, "The River Clerk", "Oona Fairleigh", 2023, "Audiobook", "Fiction", { Central: [1, 1] }, 0, "9 h 42 min", "In 1840s Gloucester a clerk of the river board keeps a ledger of every drowning, until one entry is written in a hand he does not know. Read by Tamsin Orde."],
    [7, "Small Gardens, Big Harvests", "Imogen Tally", 2018, "eBook", "Gardening", { Online: [3, 3] }, 0, "Online", "Vegetables in pots, on balconies and against fences: a season-by-season plan for a space of four square metres."],
    [8, "Northern Lights Over Vardby", "Keld Ostrand", 2016, "DVD", "Documentary", { Riverside: [1, 1] }, 0, "94 min", "A winter with the fishermen and forecasters of a small Arctic harbour town, filmed over five months of darkness."],
    [9, "How Bridges Stand Up", "Amara Okonjo-Bell", 2015, "Book", "Engineering", { Central: [1, 1], Northgate: [0, 1] }, 1, "220 pages", "Arches, beams, trusses and cables, with cardboard models you can build at the kitchen table."],
    [10, "The Quiet River Murders", "J. P. Whitlow", 2022, "Book", "Crime", { Central: [0, 3], Northgate: [0, 1], Riverside: [0, 1] }, 7, "402 pages", "Detective Sergeant Nell Carrick investigates three deaths along a canal that everyone in Ashby Lock swears is perfectly safe."],
    [11, "Letters from the Lock-Keeper", "Maud Penhale", 2014, "Book", "History", { Riverside: [1, 1] }, 0, "180 pages", "Letters written between 1902 and 1931 by the keeper of Penhale Lock to his sister in Canada, with photographs of the canal in its working days."],
    [12, "Code of the Lighthouse", "Tomasz Reyna", 2021, "eBook", "Fiction", { Online: [0, 2] }, 2, "Online", "A radio operator on a decommissioned lighthouse starts receiving messages from a ship that sank in 1954."],
    [13, "Riverbank Walks of the Three Counties", "Ffion Carrow", 2019, "Book", "Travel", { Central: [1, 1], Northgate: [1, 1], Riverside: [2, 2] }, 0, "168 pages", "Thirty walks of three to twelve miles beside rivers and canals, with maps, parking, and where to find a pub at the end."],
    [14, "Sourdough Science", "Sunniva Ade", 2023, "Audiobook", "Cookery", { Central: [0, 1] }, 1, "6 h 15 min", "What the yeast and bacteria in a starter are doing, and how to use that to bake a better loaf. Read by the author."],
    [15, "The Kestrel Year", "Petra Quayle", 2020, "DVD", "Nature", { Central: [1, 1], Northgate: [0, 1] }, 0, "58 min", "A pair of kestrels nesting on a multi-storey car park, filmed from courtship to the young birds' first flight."],
    [16, "Under the Willow Bridge", "Lena Marsh", 2018, "Book", "Children", { Northgate: [2, 2], Riverside: [1, 1] }, 0, "32 pages", "Otter and Heron disagree about who owns the river, until the spring flood teaches them both to share. Ages 3 to 6."],
    [17, "Money Plainly Explained", "Gideon Ashe", 2022, "eBook", "Personal finance", { Online: [1, 2] }, 0, "Online", "Budgets, pensions, mortgages and tax in plain words, with a worked example for every chapter."],
    [18, "The Glass River", "Oona Fairleigh", 2020, "Book", "Fiction", { Central: [1, 2], Riverside: [0, 1] }, 0, "336 pages", "Two sisters inherit a glassworks on the Severn and must decide whether to keep the furnace lit through a hard winter."],
    [19, "Weaving with Wild Wool", "Bryony Keel", 2017, "Book", "Crafts", { Northgate: [1, 1] }, 0, "148 pages", "Gathering, washing, spinning and weaving the wool that sheep leave on hedges, for blankets, bags and wall hangings."],
    [20, "The Last Ferry to Holm", "Keld Ostrand", 2023, "Book", "Fiction", { Central: [0, 2], Northgate: [0, 1] }, 5, "290 pages", "The island's ferry is to stop running in September. Its last captain has one summer to change the council's mind."],
    [21, "Composting Without Fuss", "Imogen Tally", 2016, "Audiobook", "Gardening", { Riverside: [1, 1] }, 0, "3 h 05 min", "Hot heaps, cold heaps, worm bins and leaf mould, and which one suits your garden and your patience."],
    [22, "River Ecology: A Primer", "Hollis Marr", 2021, "Book", "Science", { Central: [1, 1], Riverside: [0, 1] }, 0, "274 pages", "From source to estuary: how water, rock, plants and animals make a river, with a field sampling guide."]
  ].map(function (r) {
    return { id: r[0], title: r[1], author: r[2], year: r[3], format: r[4], subject: r[5], copies: r[6], holds: r[7], extent: r[8], desc: r[9] };
  });
  var COLOURS = ["#7b2d26", "#2f5d7c", "#3f6e3a", "#8a6a1f", "#5b3d7a", "#9c4a2a", "#245a5a", "#6b4f3f"];
  var state = { q: "", formats: [], branches: [], avail: false, sort: "rel", list: [], holds: [{ id: 5, branch: "Northgate", pos: 2 }], tab: "summary" };

  function byId(id) { return ITEMS.filter(function (i) { return i.id === id; })[0]; }
  function onShelf(it) { return Object.keys(it.copies).reduce(function (s, b) { return s + it.copies[b][0]; }, 0); }
  function total(it) { return Object.keys(it.copies).reduce(function (s, b) { return s + it.copies[b][1]; }, 0); }
  function esc(s) { return String(s).replace(/[&<>"]/g, function (c) { return { "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;" }[c]; }); }

  function cover(it, w, h) {
    var c = COLOURS[it.id % COLOURS.length], words = it.title.split(" "), lines = [], cur = "";
    words.forEach(function (wd) { if ((cur + " " + wd).trim().length > 11) { if (cur) lines.push(cur); cur = wd; } else cur = (cur + " " + wd).trim(); });
    if (cur) lines.push(cur);
    var fs = w / 8, t = lines.slice(0, 4).map(function (l, i) {
      return '<text x="' + (w / 2) + '" y="' + (h * 0.3 + i * fs * 1.2) + '" font-size="' + fs + '" text-anchor="middle" fill="#fff" font-family="Georgia,serif">' + esc(l) + "</text>";
    }).join("");
    return '<svg width="' + w + '" height="' + h + '" viewBox="0 0 ' + w + " " + h + '" aria-hidden="true"><rect width="' + w + '" height="' + h + '" fill="' + c + '"/><rect x="' + (w * 0.08) + '" y="' + (h * 0.08) + '" width="' + (w * 0.84) + '" height="' + (h * 0.84) + '" fill="none" stroke="rgba(255,255,255,.45)"/>' + t +
      '<text x="' + (w / 2) + '" y="' + (h * 0.86) + '" font-size="' + (fs * 0.7) + '" text-anchor="middle" fill="rgba(255,255,255,.85)" font-family="Arial,sans-serif">' + esc(it.author.split(" ").slice(-1)[0].toUpperCase()) + "</text></svg>";
  }

  function matchesQuery(it) {
    if (!state.q) return true;
    var hay = (it.title + " " + it.author + " " + it.subject).toLowerCase();
    return state.q.toLowerCase().split(/\s+/).every(function (w) { return hay.indexOf(w) >= 0; });
  }
  function passes(it, skip) {
    if (skip !== "format" && state.formats.length && state.formats.indexOf(it.format) < 0) return false;
    if (skip !== "branch" && state.branches.length && !state.branches.some(function (b) { return it.copies[b]; })) return false;
    if (skip !== "avail" && state.avail && onShelf(it) === 0) return false;
    return true;
  }
  function results() {
    var r = ITEMS.filter(matchesQuery).filter(function (it) { return passes(it); });
    if (state.sort === "title") r.sort(function (a, b) { return a.title.replace(/^The /, "").localeCompare(b.title.replace(/^The /, "")); });
    if (state.sort === "new") r.sort(function (a, b) { return b.year - a.year || a.id - b.id; });
    return r;
  }

  function facetBox(kind, value, n, checked) {
    return '<label class="fc' + (n ? "" : " zero") + '"><input type="checkbox" data-kind="' + kind + '" value="' + value + '"' + (checked ? " checked" : "") + "> " + value + ' <span class="n">' + n + "</span></label>";
  }
  function renderFacets() {
    var base = ITEMS.filter(matchesQuery);
    $("f-format").innerHTML = FORMATS.map(function (f) {
      return facetBox("format", f, base.filter(function (it) { return it.format === f && passes(it, "format"); }).length, state.formats.indexOf(f) >= 0);
    }).join("");
    $("f-branch").innerHTML = BRANCHES.map(function (b) {
      return facetBox("branch", b, base.filter(function (it) { return it.copies[b] && passes(it, "branch"); }).length, state.branches.indexOf(b) >= 0);
    }).join("");
    $("n-avail").textContent = base.filter(function (it) { return onShelf(it) > 0 && passes(it, "avail"); }).length;
    $("f-avail").checked = state.avail;
  }

  function statusHtml(it) {
    var n = onShelf(it), tip = Object.keys(it.copies).map(function (b) { return b + ": " + it.copies[b][0] + " of " + it.copies[b][1] + " on shelf"; }).join(" · ");
    return '<span class="st ' + (n ? "yes" : "no") + '" tabindex="0">' + (n ? n + " available" : "On loan · " + it.holds + (it.holds === 1 ? " hold" : " holds")) + '<span class="tip" role="tooltip">' + tip + "</span></span>";
  }
  var BM = '<svg viewBox="0 0 14 14" aria-hidden="true"><path d="M3 1h8v12l-4-3-4 3z" fill="currentColor"/></svg>';
  function renderResults() {
    var r = results();
    $("res-title").textContent = state.q ? r.length + (r.length === 1 ? " result" : " results") + " for ‘" + state.q + "’" : "All titles · " + r.length;
    $("chips").innerHTML = state.formats.concat(state.branches).concat(state.avail ? ["Available now"] : []).map(function (c) { return '<span class="chip">' + esc(c) + "</span>"; }).join("");
    $("results").innerHTML = r.length ? r.map(function (it) {
      var inList = state.list.indexOf(it.id) >= 0;
      return '<li class="res"><div class="cover">' + cover(it, 64, 96) + '</div><div><h3><a href="#/item/' + it.id + '">' + esc(it.title) + '</a></h3><p class="by">' + esc(it.author) + " · " + it.year + '</p><div class="meta"><span class="fmt-tag">' + it.format + "</span><span>" + esc(it.subject) + "</span>" + statusHtml(it) + "</div></div>" +
        '<button type="button" class="bm' + (inList ? " on" : "") + '" data-id="' + it.id + '">' + BM + (inList ? "On your list" : "Reading list") + "</button></li>";
    }).join("") : '<li class="empty">Nothing matches. Try fewer filters or another word.</li>';
    renderFacets();
  }

  function renderItem(it) {
    $("it-cover").innerHTML = cover(it, 170, 255);
    $("it-format").textContent = it.format + " · " + it.subject;
    $("it-title").textContent = it.title;
    $("it-author").textContent = "by " + it.author + ", " + it.year;
    var n = onShelf(it), av = $("it-avail");
    av.className = "avail-line " + (n ? "yes" : "no");
    av.textContent = n ? n + " of " + total(it) + " copies on the shelf" : "All " + total(it) + " copies on loan · " + it.holds + (it.holds === 1 ? " hold" : " holds") + " waiting";
    var held = state.holds.some(function (h) { return h.id === it.id; });
    $("hold-btn").disabled = held;
    $("hold-btn").textContent = held ? "Hold placed" : "Place a hold";
    var inList = state.list.indexOf(it.id) >= 0;
    $("list-btn").textContent = inList ? "On your reading list ✓" : "Add to reading list";
    $("p-summary").innerHTML = "<p>" + esc(it.desc) + "</p>";
    $("p-copies").innerHTML = "<table><thead><tr><th>Branch</th><th>On shelf</th><th>Copies</th><th>Shelf mark</th></tr></thead><tbody>" +
      Object.keys(it.copies).map(function (b) {
        return "<tr><td>" + b + "</td><td>" + it.copies[b][0] + "</td><td>" + it.copies[b][1] + "</td><td>" + (b === "Online" ? "Borrow in the app" : it.subject.slice(0, 3).toUpperCase() + " " + it.author.split(" ").slice(-1)[0].slice(0, 3).toUpperCase()) + "</td></tr>";
      }).join("") + "</tbody></table>";
    $("p-details").innerHTML = '<dl class="det"><dt>Published</dt><dd>' + it.year + "</dd><dt>Length</dt><dd>" + it.extent + "</dd><dt>Format</dt><dd>" + it.format + "</dd><dt>Subject</dt><dd>" + esc(it.subject) + "</dd><dt>Item number</dt><dd>MB" + String(40211 + it.id * 37) + "</dd></dl>";
    showTab(state.tab);
  }
  function showTab(t) {
    state.tab = t;
    document.querySelectorAll(".tab").forEach(function (b) {
      var on = b.dataset.tab === t; b.classList.toggle("on", on); b.setAttribute("aria-selected", on ? "true" : "false");
      $("p-" + b.dataset.tab).hidden = !on;
    });
  }

  function renderList() {
    $("list-count").textContent = state.list.length ? state.list.length + (state.list.length === 1 ? " title" : " titles") + " to read next. Use the arrows to put them in order." : "Your list is empty. Add titles from the catalogue with the bookmark button.";
    $("rlist").innerHTML = state.list.map(function (id, i) {
      var it = byId(id);
      return '<li><div class="cover">' + cover(it, 48, 72) + '</div><div><strong>' + esc(it.title) + '</strong><p class="by">' + esc(it.author) + " · " + it.format + '</p></div><div class="rl-btns"><button type="button" class="up" data-up="' + i + '" title="Move up"' + (i === 0 ? " disabled" : "") + '>↑</button><button type="button" class="link rm" data-rm="' + id + '">Remove</button></div></li>';
    }).join("");
  }
  function renderHolds() {
    $("holds").innerHTML = state.holds.map(function (h) {
      var it = byId(h.id);
      return "<tr><td><strong>" + esc(it.title) + "</strong><br><span class=\"muted\">" + esc(it.author) + "</span></td><td>" + h.branch + "</td><td>" + (h.pos === 0 ? "—" : "Number " + h.pos) + '</td><td><span class="pill ' + (h.pos === 0 ? "ready\">Ready to collect" : "wait\">Waiting") + "</span></td></tr>";
    }).join("");
  }
  function badges() {
    $("nav-list").dataset.count = state.list.length;
    $("nav-holds").dataset.count = state.holds.length;
  }
  function toast(msg) { var t = $("toast"); t.textContent = msg; t.hidden = false; }

  function route() {
    var h = location.hash || "#/", m = h.match(/^#\/item\/(\d+)/);
    ["v-results", "v-item", "v-list", "v-holds"].forEach(function (v) { $(v).hidden = true; });
    $("facets").style.visibility = "hidden";
    $("nav-list").classList.toggle("on", h === "#/list");
    $("nav-holds").classList.toggle("on", h === "#/holds");
    if (m && byId(Number(m[1]))) { state.current = byId(Number(m[1])); $("v-item").hidden = false; renderItem(state.current); }
    else if (h === "#/list") { $("v-list").hidden = false; renderList(); }
    else if (h === "#/holds") { $("v-holds").hidden = false; renderHolds(); }
    else { $("v-results").hidden = false; $("facets").style.visibility = "visible"; renderResults(); }
    window.scrollTo(0, 0);
  }

  $("search-form").addEventListener("submit", function (e) {
    e.preventDefault(); state.q = $("q").value.trim(); $("toast").hidden = true;
    if (location.hash === "#/" || location.hash === "") route(); else location.hash = "#/";
  });
  $("facets").addEventListener("change", function (e) {
    var el = e.target;
    if (el.id === "f-avail") state.avail = el.checked;
    else if (el.dataset.kind) {
      var arr = el.dataset.kind === "format" ? state.formats : state.branches, i = arr.indexOf(el.value);
      if (el.checked && i < 0) arr.push(el.value); if (!el.checked && i >= 0) arr.splice(i, 1);
    }
    renderResults();
  });
  $("clear").addEventListener("click", function () { state.formats = []; state.branches = []; state.avail = false; renderResults(); });
  $("sort").addEventListener("change", function () { state.sort = this.value; renderResults(); });
  function toggleList(id) {
    var i = state.list.indexOf(id), it = byId(id);
    if (i >= 0) { state.list.splice(i, 1); toast("Removed ‘" + it.title + "’ from your reading list"); }
    else { state.list.push(id); toast("Added ‘" + it.title + "’ to your reading list (" + state.list.length + ")"); }
    badges();
  }
  $("results").addEventListener("click", function (e) {
    var b = e.target.closest(".bm"); if (!b) return;
    toggleList(Number(b.dataset.id)); renderResults();
  });
  $("list-btn").addEventListener("click", function () { toggleList(state.current.id); renderItem(state.current); });
  document.querySelectorAll(".tab").forEach(function (b) { b.addEventListener("click", function () { showTab(b.dataset.tab); }); });
  $("back").addEventListener("click", function (e) { e.preventDefault(); state.tab = "summary"; location.hash = "#/"; });
  $("rlist").addEventListener("click", function (e) {
    var up = e.target.closest("[data-up]"), rm = e.target.closest("[data-rm]");
    if (up) { var i = Number(up.dataset.up), t = state.list[i]; state.list[i] = state.list[i - 1]; state.list[i - 1] = t; renderList(); }
    if (rm) { toggleList(Number(rm.dataset.rm)); renderList(); }
  });

  $("hold-btn").addEventListener("click", function () {
    $("hm-title").textContent = state.current.title + " · " + state.current.format;
    $("pickup").value = ""; $("pickup-err").textContent = ""; $("hold-modal").hidden = false;
  });
  $("hm-cancel").addEventListener("click", function () { $("hold-modal").hidden = true; });
  $("hold-form").addEventListener("submit", function (e) {
    e.preventDefault();
    var b = $("pickup").value;
    if (!b) { $("pickup-err").textContent = "Choose the branch where you will collect it."; return; }
    var it = state.current, pos = onShelf(it) > 0 ? 0 : it.holds + 1;
    state.holds.push({ id: it.id, branch: b, pos: pos });
    if (pos) it.holds += 1;
    $("hold-modal").hidden = true; badges(); renderItem(it);
    toast(pos ? "Hold placed. You are number " + pos + " in the queue; pick up at " + b + "." : "Hold placed. We will set a copy aside at " + b + " within 2 days.");
  });
  document.addEventListener("keydown", function (e) {
    if (e.key === "Escape") { $("hold-modal").hidden = true; $("toast").hidden = true; }
    if (e.key === "/" && document.activeElement !== $("q")) { e.preventDefault(); $("q").focus(); }
  });
  window.addEventListener("hashchange", function () { $("toast").hidden = true; route(); });
  badges(); route();
})();
