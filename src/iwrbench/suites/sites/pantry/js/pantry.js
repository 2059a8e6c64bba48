/* Larder's page: the recipe index (search, category chips, sort), a recipe page whose ingredient
   amounts follow the servings and the units chosen, and a shopping list that adds up what several
   recipes need, leaving out what was ticked as already in the cupboard. Views switch on the hash. */
(function () {
  "use strict";
  var $ = function (id) { return document.getElementById(id); };
  var R = window.RECIPES;
  var CHIPS = ["All", "Vegetarian", "Quick", "Baking", "Soups", "One-pot"];
  var AISLES = ["Fruit & veg", "Meat", "Fish", "Dairy", "Pasta & grains", "Tins & jars", "Oils & spices", "World foods", "Baking", "Frozen"];
  var FRACTIONS = [[0.25, "¼"], [0.333, "⅓"], [0.5, "½"], [0.667, "⅔"], [0.75, "¾"]];
  var state = { chip: "All", q: "", sort: "popular", units: "metric", saved: {}, per: {}, list: {}, current: null, timers: [] };
  var tick = null;

  function bySlug(s) { return R.filter(function (r) { return r.slug === s; })[0]; }
  function esc(s) { return String(s).replace(/[&<>"]/g, function (c) { return { "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;" }[c]; }); }
  function per(r) {
    if (!state.per[r.slug]) state.per[r.slug] = { serves: r.serves, ticked: {}, tab: "method" };
    return state.per[r.slug];
  }

  // ---- amounts
  function frac(x, step) {
    var whole = Math.floor(x + 1e-9), rest = x - whole, best = null;
    if (rest < 0.12) return String(whole || (step ? "" : "0"));
    if (rest > 0.88) return String(whole + 1);
    FRACTIONS.forEach(function (f) { if (!best || Math.abs(f[0] - rest) < Math.abs(best[0] - rest)) best = f; });
    return (whole ? whole : "") + best[1];
  }
  function round(x) { return x >= 50 ? Math.round(x / 5) * 5 : Math.round(x); }
  function plural(name, n) { return n > 1 && !/s$/.test(name) ? name + "s" : name; }
  function base(unit, amt) {
    if (unit === "kg") return ["g", amt * 1000];
    if (unit === "l") return ["ml", amt * 1000];
    return [unit, amt];
  }
  // forList: whole things are rounded up (nobody buys half an onion)
  function show(unit, amt, name, forList) {
    var b = base(unit, amt), u = b[0], x = b[1];
    if (u === "") { var n = forList ? Math.ceil(x - 1e-9) : Math.round(x * 2) / 2; return frac(n) + " " + plural(name, n); }
    if (u === "cloves") { var c = Math.max(1, Math.round(x)); return c + (c === 1 ? " clove " : " cloves ") + name; }
    if (u === "tsp" || u === "tbsp") return frac(Math.round(x * 4) / 4) + " " + u + " " + name;
    if (state.units === "us") {
      if (u === "g") {
        var oz = x / 28.35;
        if (oz >= 16) { var lb = Math.floor(oz / 16), rest = Math.round(oz - lb * 16); if (rest === 16) { lb++; rest = 0; } return lb + " lb" + (rest ? " " + rest + " oz" : "") + " " + name; }
        return frac(Math.max(0.25, Math.round(oz * 2) / 2)) + " oz " + name;
      }
      var cups = x / 236.6;
      if (cups >= 0.25) { var cq = Math.round(cups * 4) / 4; return frac(cq) + (cq > 1 ? " cups " : " cup ") + name; }
      return frac(Math.max(0.5, Math.round(x / 14.8 * 2) / 2)) + " tbsp " + name;
    }
    if (u === "g") return x >= 1000 ? +(x / 1000).toFixed(2) + " kg " + name : round(x) + " g " + name;
    return x >= 1000 ? +(x / 1000).toFixed(2) + " l " + name : round(x) + " ml " + name;
  }
  function temps(text) {
    if (state.units !== "us") return text;
    return text.replace(/(\d+)°C/g, function (m, c) { return Math.round((c * 9 / 5 + 32) / 25) * 25 + "°F"; });
  }

  // ---- index
  function matches(r) {
    if (state.chip !== "All" && r.tags.indexOf(state.chip) < 0) return false;
    var q = state.q.trim().toLowerCase();
    if (!q) return true;
    return r.title.toLowerCase().indexOf(q) >= 0 || r.ingredients.some(function (i) { return i[2].toLowerCase().indexOf(q) >= 0; });
  }
  function stars(r, ctx) {
    var out = '<span class="stars" aria-label="Rated ' + r.rating + ' out of 5">';
    for (var k = 1; k <= 5; k++) {
      var f = Math.max(0, Math.min(1, r.rating - k + 1));
      out += '<svg viewBox="0 0 20 20" width="14" height="14" aria-hidden="true"><defs><linearGradient id="g' + ctx + r.slug + k + '"><stop offset="' + f + '" stop-color="#e0a030"/><stop offset="' + f + '" stop-color="#e5e0d6"/></linearGradient></defs>' +
        '<path d="M10 1.8l2.5 5.2 5.7.8-4.1 4 1 5.6L10 14.7l-5.1 2.7 1-5.6-4.1-4 5.7-.8z" fill="url(#g' + ctx + r.slug + k + ')"/></svg>';
    }
    return out + '<span class="tip">' + r.rating + " from " + r.votes + " ratings</span></span>";
  }
  function renderChips() {
    var box = $("chips");
    if (!box.children.length) {
      CHIPS.forEach(function (c) {
        var b = document.createElement("button");
        b.type = "button";
        b.className = "chip";
        b.id = "chip-" + c.toLowerCase();
        b.textContent = c;
        b.addEventListener("click", function () { state.chip = c; renderIndex(); });
        box.appendChild(b);
      });
    }
    CHIPS.forEach(function (c) { $("chip-" + c.toLowerCase()).setAttribute("aria-pressed", String(c === state.chip)); });
  }
  function renderIndex() {
    renderChips();
    var list = R.filter(matches).sort(function (a, b) {
      return state.sort === "quick" ? a.mins - b.mins : state.sort === "new" ? a.added - b.added : b.votes - a.votes;
    });
    var line = list.length + (list.length === 1 ? " recipe" : " recipes");
    if (state.chip !== "All") line += " in " + state.chip;
    if (state.q.trim()) line += " for “" + state.q.trim() + "”";
    $("results-line").textContent = line;
    $("none").hidden = list.length > 0;
    var grid = $("grid");
    grid.innerHTML = "";
    list.forEach(function (r) {
      var li = document.createElement("li");
      li.className = "card";
      li.innerHTML = '<a href="#/recipe/' + r.slug + '" id="card-' + r.slug + '" class="card-link">' +
        '<span class="thumb"><img src="img/' + r.slug + '.svg" width="320" height="200" alt=""><span class="view-cta">View recipe →</span></span>' +
        '<span class="tags">' + r.tags.map(function (t) { return '<span class="tag">' + t + "</span>"; }).join("") + "</span>" +
        '<span class="card-title">' + esc(r.title) + "</span></a>" +
        '<div class="card-meta"><span class="mins"><svg viewBox="0 0 16 16" width="13" height="13" aria-hidden="true"><circle cx="8" cy="8" r="6.3" fill="none" stroke="currentColor" stroke-width="1.5"/><path d="M8 4.5V8l2.4 1.6" stroke="currentColor" stroke-width="1.5" fill="none" stroke-linecap="round"/></svg>' + r.mins + " min</span>" +
        '<span class="lvl">' + r.level + "</span>" + stars(r, "c") +
        '<button type="button" class="save" id="save-' + r.slug + '" aria-pressed="' + !!state.saved[r.slug] + '" aria-label="Save ' + esc(r.title) + '"><svg viewBox="0 0 20 20" width="18" height="18" aria-hidden="true"><path d="M10 17s-6.5-4-6.5-8.5A3.5 3.5 0 0 1 10 6a3.5 3.5 0 0 1 6.5 2.5C16.5 13 10 17 10 17z" stroke="currentColor" stroke-width="1.6"/></svg></button></div>';
      grid.appendChild(li);
    });
  }

  // ---- recipe page
  function renderRecipe() {
    var r = state.current, p = per(r), k = p.serves / r.serves;
    $("crumb-tag").textContent = r.tags[0];
    $("crumb-title").textContent = r.title;
    $("r-title").textContent = r.title;
    $("r-intro").textContent = r.intro;
    $("r-meta").innerHTML = "<span>Prep <b>" + r.prep + " min</b></span><span>Cook <b>" + r.cook + " min</b></span><span>Total <b>" + r.mins + " min</b></span><span>" + r.level + "</span>";
    $("r-rating").innerHTML = stars(r, "r") + '<span class="votes">' + r.rating + " · " + r.votes + " ratings</span>";
    $("r-img").src = "img/" + r.slug + ".svg";
    $("r-img").alt = r.title;
    var baking = r.tags.indexOf("Baking") >= 0;
    $("serves").textContent = (baking ? "Makes " : "Serves ") + p.serves;
    $("serve-minus").disabled = p.serves <= 1;
    $("serve-plus").disabled = p.serves >= 12;
    $("unit-metric").setAttribute("aria-pressed", String(state.units === "metric"));
    $("unit-us").setAttribute("aria-pressed", String(state.units === "us"));
    var ul = $("ings");
    ul.innerHTML = "";
    r.ingredients.forEach(function (g, i) {
      var li = document.createElement("li");
      var txt = esc(show(g[1], g[0] * k, g[2]));
      if (g[4]) txt = txt.replace(esc(g[2]), '<span class="has-tip">' + esc(g[2]) + '<span class="tip">' + esc(g[4]) + "</span></span>");
      li.className = p.ticked[i] ? "done" : "";
      li.innerHTML = '<label><input type="checkbox" id="ing-' + i + '"' + (p.ticked[i] ? " checked" : "") + "> <span>" + txt + "</span></label>";
      ul.appendChild(li);
    });
    var nt = Object.keys(p.ticked).length;
    $("ticked").textContent = nt ? nt + " of " + r.ingredients.length + " ticked off: they stay off the shopping list." : "Tick off what you already have.";
    $("add-list").textContent = state.list[r.slug] ? "Update shopping list" : "Add to shopping list";
    var ol = $("steps");
    ol.innerHTML = "";
    r.method.forEach(function (m, i) {
      var li = document.createElement("li");
      li.innerHTML = "<p>" + esc(temps(m[0])) + "</p>" + (m[1] ? '<button type="button" class="timer-btn" id="timer-' + (i + 1) + '">Start ' + m[1] + " min timer</button>" : "");
      ol.appendChild(li);
    });
    renderNutrition(r);
    var rv = $("reviews");
    rv.innerHTML = "";
    r.reviews.forEach(function (x, i) {
      var d = document.createElement("div");
      d.className = "review";
      d.innerHTML = '<button type="button" class="rv-head" id="review-' + (i + 1) + '" aria-expanded="false"><span>' + esc(x[0]) + '</span><span class="rv-stars">' + "★★★★★".slice(0, x[1]) + '<span class="dim">' + "★★★★★".slice(x[1]) + "</span></span></button>" +
        '<p class="rv-body" hidden>' + esc(x[2]) + "</p>";
      rv.appendChild(d);
    });
    selectTab(p.tab);
  }
  function renderNutrition(r) {
    var m = r.macros, kc = [m[0] * 4, m[1] * 4, m[2] * 9], tot = kc[0] + kc[1] + kc[2], off = 0, C = 2 * Math.PI * 44;
    var cols = ["#2f855a", "#e0a030", "#c2410c"], svg = "";
    kc.forEach(function (v, i) {
      var len = v / tot * C;
      svg += '<circle cx="60" cy="60" r="44" fill="none" stroke="' + cols[i] + '" stroke-width="16" stroke-dasharray="' + len.toFixed(1) + " " + (C - len).toFixed(1) + '" stroke-dashoffset="' + (-off).toFixed(1) + '" transform="rotate(-90 60 60)"/>';
      off += len;
    });
    svg += '<text x="60" y="58" text-anchor="middle" font-size="18" font-weight="700" fill="#1f2a24">' + r.kcal + '</text><text x="60" y="74" text-anchor="middle" font-size="10" fill="#6b7a70">kcal</text>';
    $("donut").innerHTML = svg;
    var names = ["Protein", "Carbohydrate", "Fat"];
    $("ntable").innerHTML = "<tr><th scope=\"row\">Energy</th><td>" + r.kcal + " kcal</td><td></td></tr>" + names.map(function (n, i) {
      return '<tr><th scope="row"><i class="dot" style="background:' + cols[i] + '"></i>' + n + "</th><td>" + m[i] + " g</td><td>" + Math.round(kc[i] / tot * 100) + "% of energy</td></tr>";
    }).join("");
  }
  function selectTab(t) {
    if (state.current) per(state.current).tab = t;
    ["method", "nutrition", "reviews"].forEach(function (x) {
      $("tab-" + x).setAttribute("aria-selected", String(x === t));
      $("pane-" + x).hidden = x !== t;
    });
  }

  // ---- shopping list
  function listItems() {
    var items = {}, order = [];
    Object.keys(state.list).forEach(function (slug) {
      var r = bySlug(slug), e = state.list[slug], k = e.serves / r.serves;
      r.ingredients.forEach(function (g, i) {
        if (e.skip[i]) return;
        var b = base(g[1], g[0] * k), key = g[2] + "|" + b[0];
        if (!items[key]) { items[key] = { name: g[2], unit: b[0], amt: 0, aisle: g[3], from: [] }; order.push(key); }
        items[key].amt += b[1];
        items[key].from.push(slug);
      });
    });
    return order.map(function (key) { items[key].key = key; return items[key]; });
  }
  function addToList() {
    var r = state.current, p = per(r), before = {};
    listItems().forEach(function (it) { before[it.key] = true; });
    var was = !!state.list[r.slug];
    state.list[r.slug] = { serves: p.serves, skip: Object.assign({}, p.ticked) };
    var added = 0, merged = 0;
    r.ingredients.forEach(function (g, i) {
      if (p.ticked[i]) return;
      if (before[g[2] + "|" + base(g[1], 0)[0]]) merged++; else added++;
    });
    if (was) toast("List updated: " + r.title + " for " + p.serves + ".");
    else toast(added + " item" + (added === 1 ? "" : "s") + " added" + (merged ? ", " + merged + " combined with your list." : " to your list."));
    renderList();
    renderRecipe();
  }
  function renderList() {
    var items = listItems(), bought = state.bought || (state.bought = {});
    var left = items.filter(function (it) { return !bought[it.key]; }).length, n = Object.keys(state.list).length;
    $("list-btn").dataset.count = left;
    $("list-summary").textContent = n ? n + (n === 1 ? " recipe · " : " recipes · ") + items.length + " items, " + left + " to buy" : "Your list is empty. Add a recipe's ingredients from its page.";
    $("list-recipes").innerHTML = Object.keys(state.list).map(function (slug) {
      return '<span class="lr">' + esc(bySlug(slug).title) + " · " + state.list[slug].serves + ' <button type="button" class="rm" id="rm-' + slug + '" aria-label="Remove ' + esc(bySlug(slug).title) + '">×</button></span>';
    }).join("");
    var html = "";
    AISLES.forEach(function (a) {
      var its = items.filter(function (it) { return it.aisle === a; });
      if (!its.length) return;
      html += '<h3 class="aisle">' + a + "</h3><ul class=\"litems\">" + its.map(function (it) {
        var id = "li-" + it.key.replace(/[^a-z0-9]+/gi, "-").replace(/-$/, "");
        return '<li class="' + (bought[it.key] ? "got" : "") + '"><label><input type="checkbox" id="' + id + '" data-key="' + esc(it.key) + '"' + (bought[it.key] ? " checked" : "") + "> " +
          esc(show(it.unit, it.amt, it.name, true)) + (it.from.length > 1 ? ' <small class="x2">' + it.from.length + " recipes</small>" : "") + "</label></li>";
      }).join("") + "</ul>";
    });
    $("list-groups").innerHTML = html;
  }
  function openList(open) {
    $("drawer").hidden = !open;
    $("scrim").hidden = !open;
    if (open) renderList();
  }

  // ---- toasts and timers
  function toast(t) { var el = $("toast"); el.textContent = t; el.hidden = false; }
  function renderTimers() {
    $("timers").innerHTML = state.timers.map(function (t, i) {
      var m = Math.floor(t.left / 60), s = t.left % 60;
      return '<div class="timer' + (t.left ? "" : " rang") + '"><b>' + t.label + "</b> " + (t.left ? m + ":" + (s < 10 ? "0" : "") + s : "done") +
        ' <button type="button" class="tx" data-i="' + i + '" aria-label="Stop timer">×</button></div>';
    }).join("");
    var running = state.timers.some(function (t) { return t.left > 0; });
    if (running && !tick) tick = setInterval(function () { state.timers.forEach(function (t) { if (t.left > 0) t.left--; }); renderTimers(); }, 1000);
    if (!running && tick) { clearInterval(tick); tick = null; }
  }

  // ---- routing and events
  function route() {
    var m = location.hash.match(/^#\/recipe\/([\w-]+)/), r = m && bySlug(m[1]);
    $("view-index").hidden = !!r;
    $("view-recipe").hidden = !r;
    if (r) { state.current = r; renderRecipe(); window.scrollTo(0, 0); } else { state.current = null; renderIndex(); }
  }
  // a notice stays until the next click anywhere (this listener runs before the click that may show a new one)
  document.addEventListener("click", function () { $("toast").hidden = true; }, true);
  $("search").addEventListener("input", function () { state.q = this.value; renderIndex(); });
  $("sort").addEventListener("change", function () { state.sort = this.value; renderIndex(); });
  $("grid").addEventListener("click", function (e) {
    var b = e.target.closest(".save");
    if (!b) return;
    var slug = b.id.replace("save-", "");
    state.saved[slug] = !state.saved[slug];
    b.setAttribute("aria-pressed", String(state.saved[slug]));
    toast(state.saved[slug] ? "Saved to your recipe box." : "Removed from your recipe box.");
  });
  $("serve-minus").addEventListener("click", function () { var p = per(state.current); if (p.serves > 1) { p.serves--; renderRecipe(); } });
  $("serve-plus").addEventListener("click", function () { var p = per(state.current); if (p.serves < 12) { p.serves++; renderRecipe(); } });
  $("unit-metric").addEventListener("click", function () { state.units = "metric"; renderRecipe(); });
  $("unit-us").addEventListener("click", function () { state.units = "us"; renderRecipe(); });
  $("ings").addEventListener("change", function (e) {
    var i = +e.target.id.replace("ing-", ""), p = per(state.current);
    if (e.target.checked) p.ticked[i] = true; else delete p.ticked[i];
    renderRecipe();
  });
  $("add-list").addEventListener("click", addToList);
  ["method", "nutrition", "reviews"].forEach(function (t) { $("tab-" + t).addEventListener("click", function () { selectTab(t); }); });
  $("reviews").addEventListener("click", function (e) {
    var b = e.target.closest(".rv-head");
    if (!b) return;
    var open = b.getAttribute("aria-expanded") !== "true";
    b.setAttribute("aria-expanded", String(open));
    b.nextElementSibling.hidden = !open;
  });
  $("steps").addEventListener("click", function (e) {
    var b = e.target.closest(".timer-btn");
    if (!b) return;
    var i = +b.id.replace("timer-", ""), mins = state.current.method[i - 1][1];
    state.timers.push({ label: "Step " + i, left: mins * 60 });
    renderTimers();
  });
  $("timers").addEventListener("click", function (e) {
    var b = e.target.closest(".tx");
    if (b) { state.timers.splice(+b.dataset.i, 1); renderTimers(); }
  });
  $("list-btn").addEventListener("click", function () { openList(true); });
  $("close-list").addEventListener("click", function () { openList(false); });
  $("scrim").addEventListener("click", function () { openList(false); });
  $("clear-list").addEventListener("click", function () { state.list = {}; state.bought = {}; renderList(); if (state.current) renderRecipe(); });
  $("list-groups").addEventListener("change", function (e) {
    var key = e.target.dataset.key;
    if (!key) return;
    if (e.target.checked) state.bought[key] = true; else delete state.bought[key];
    renderList();
  });
  $("list-recipes").addEventListener("click", function (e) {
    var b = e.target.closest(".rm");
    if (!b) return;
    delete state.list[b.id.replace("rm-", "")];
    renderList();
    if (state.current) renderRecipe();
  });
  $("news").addEventListener("submit", function (e) {
    e.preventDefault();
    var v = $("news-email").value.trim(), msg = $("news-msg");
    var ok = /^[^\s@]+@[^\s@]+\.[a-z]{2,}$/i.test(v);
    msg.textContent = ok ? "Thanks! We sent a link to " + v + " to confirm." : "Enter an email address like name@example.com.";
    msg.className = "news-msg " + (ok ? "ok" : "bad");
    $("news-email").classList.toggle("bad", !ok);
  });
  window.addEventListener("hashchange", route);
  renderList();
  route();
})();
