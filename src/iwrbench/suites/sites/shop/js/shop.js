(function () {
  "use strict";
  var PRODUCTS = [
    { id: "summit-trail-runner", name: "Summit Trail Runner", cat: "footwear", price: 129, rating: 4.7, reviews: 412, color: "Blue" },
    { id: "alpine-40l-pack", name: "Alpine 40L Pack", cat: "backpacks", price: 149, rating: 4.6, reviews: 238, color: "Red" },
    { id: "storm-shell-jacket", name: "Storm Shell Jacket", cat: "jackets", price: 199, rating: 4.4, reviews: 167, color: "Yellow" },
    { id: "basecamp-2p-tent", name: "Basecamp 2P Tent", cat: "camping", price: 289, rating: 4.8, reviews: 96, color: "Orange" },
    { id: "ridgeline-hiking-boot", name: "Ridgeline Hiking Boot", cat: "footwear", price: 169, rating: 4.5, reviews: 301, color: "Brown" },
    { id: "daytrip-22l-pack", name: "Daytrip 22L Pack", cat: "backpacks", price: 79, rating: 4.3, reviews: 188, color: "Amber" },
    { id: "cirrus-down-jacket", name: "Cirrus Down Jacket", cat: "jackets", price: 229, rating: 4.9, reviews: 144, color: "Indigo" },
    { id: "ember-camp-stove", name: "Ember Camp Stove", cat: "camping", price: 59, rating: 4.2, reviews: 75, color: "Grey" },
    { id: "drift-camp-sandal", name: "Drift Camp Sandal", cat: "footwear", price: 49, rating: 4.1, reviews: 122, color: "Green" },
    { id: "hydration-vest", name: "Hydration Vest 8L", cat: "backpacks", price: 89, rating: 4.5, reviews: 64, color: "Teal" },
    { id: "trail-fleece-pullover", name: "Trail Fleece Pullover", cat: "jackets", price: 69, rating: 4.6, reviews: 210, color: "Olive" },
    { id: "insulated-bottle", name: "Insulated Bottle 750ml", cat: "camping", price: 32, rating: 4.7, reviews: 530, color: "Teal" }
  ];
  var CATS = { footwear: "Footwear", backpacks: "Backpacks", jackets: "Jackets", camping: "Camping" };
  var state = { cat: "all", sort: "featured", q: "", under100: false, cart: [], promo: false };
  var $ = function (id) { return document.getElementById(id); };
  var money = function (n) { return "$" + n.toFixed(2).replace(/\B(?=(\d{3})+(?!\d))/g, ","); };
  function stars(r) { var full = Math.round(r); return "\u2605\u2605\u2605\u2605\u2605".slice(0, full) + "\u2606\u2606\u2606\u2606\u2606".slice(full); }

  function renderGrid() {
    var list = PRODUCTS.filter(function (p) {
      return (state.cat === "all" || p.cat === state.cat) &&
        (!state.q || p.name.toLowerCase().indexOf(state.q) >= 0 || p.cat.indexOf(state.q) >= 0) &&
        (!state.under100 || p.price < 100);
    });
    if (state.sort === "price-asc") list.sort(function (a, b) { return a.price - b.price; });
    if (state.sort === "price-desc") list.sort(function (a, b) { return b.price - a.price; });
    if (state.sort === "rating") list.sort(function (a, b) { return b.rating - a.rating; });
    var grid = $("grid");
    grid.innerHTML = "";
    list.forEach(function (p) {
      var li = document.createElement("li");
      li.className = "card";
      li.setAttribute("data-product", p.id);
      li.innerHTML =
        '<img src="img/' + p.id + '.svg" width="240" height="180" alt="' + p.name + ' in ' + p.color.toLowerCase() + '">' +
        '<div class="info"><span class="cat-name">' + CATS[p.cat] + '</span>' +
        '<h3>' + p.name + '</h3>' +
        '<span class="rating" aria-label="Rated ' + p.rating + ' out of 5">' + stars(p.rating) + ' <span>' + p.rating.toFixed(1) + ' (' + p.reviews + ')</span></span>' +
        '<div class="row"><span class="price">' + money(p.price) + '</span>' +
        '<button type="button" class="add" data-testid="add-' + p.id + '" aria-label="Add to cart: ' + p.name + '">Add to cart</button></div></div>';
      li.querySelector(".add").addEventListener("click", function () { addToCart(p.id); });
      grid.appendChild(li);
    });
    $("result-count").textContent = "Showing " + list.length + (list.length === 1 ? " product" : " products");
    $("no-results").hidden = list.length > 0;
    document.querySelectorAll(".cat").forEach(function (b) {
      b.setAttribute("aria-pressed", String(b.getAttribute("data-cat") === state.cat));
    });
  }

  function find(id) { return PRODUCTS.filter(function (p) { return p.id === id; })[0]; }
  function addToCart(id) {
    var line = state.cart.filter(function (l) { return l.id === id; })[0];
    if (line) line.qty++; else state.cart.push({ id: id, qty: 1 });
    renderCart();
    var btn = document.querySelector('[data-testid="add-' + id + '"]');
    if (btn) { btn.textContent = "Added \u2713"; }
  }

  function renderCart() {
    var count = state.cart.reduce(function (s, l) { return s + l.qty; }, 0);
    $("cart-label").textContent = "Cart (" + count + ")";
    var ul = $("lines");
    ul.innerHTML = "";
    state.cart.forEach(function (l) {
      var p = find(l.id);
      var li = document.createElement("li");
      li.className = "line";
      li.setAttribute("data-line", p.id);
      li.innerHTML = '<img src="img/' + p.id + '.svg" width="64" height="48" alt="">' +
        '<div><div class="name">' + p.name + '</div><div class="unit">' + money(p.price) + ' each</div>' +
        '<div class="qty"><button type="button" data-testid="dec-' + p.id + '" aria-label="Decrease quantity of ' + p.name + '">\u2212</button>' +
        '<output>Qty ' + l.qty + '</output>' +
        '<button type="button" data-testid="inc-' + p.id + '" aria-label="Increase quantity of ' + p.name + '">+</button></div></div>' +
        '<div><div class="lt">' + money(p.price * l.qty) + '</div><button type="button" class="remove" data-testid="remove-' + p.id + '">Remove</button></div>';
      li.querySelector('[data-testid="dec-' + p.id + '"]').addEventListener("click", function () {
        l.qty--; if (l.qty <= 0) state.cart = state.cart.filter(function (x) { return x !== l; }); renderCart();
      });
      li.querySelector('[data-testid="inc-' + p.id + '"]').addEventListener("click", function () { l.qty++; renderCart(); });
      li.querySelector(".remove").addEventListener("click", function () {
        state.cart = state.cart.filter(function (x) { return x !== l; }); renderCart();
      });
      ul.appendChild(li);
    });
    var sub = state.cart.reduce(function (s, l) { return s + find(l.id).price * l.qty; }, 0);
    var disc = state.promo ? Math.round(sub * 10) / 100 : 0;
    var ship = sub === 0 || sub - disc >= 150 ? 0 : 9.95;
    $("subtotal").textContent = money(sub);
    $("discount-row").hidden = !state.promo;
    $("discount").textContent = "\u2212" + money(disc);
    $("shipping").textContent = ship === 0 ? (sub === 0 ? "$0.00" : "Free") : money(ship);
    $("total").textContent = money(sub - disc + ship);
    $("cart-empty").hidden = state.cart.length > 0;
    $("checkout").disabled = state.cart.length === 0;
  }

  function openCart() { $("cart").hidden = false; $("overlay").hidden = false; $("cart-btn").setAttribute("aria-expanded", "true"); $("close-cart").focus(); }
  function closeCart() { $("cart").hidden = true; $("overlay").hidden = true; $("cart-btn").setAttribute("aria-expanded", "false"); }

  document.querySelectorAll(".cat").forEach(function (b) {
    b.addEventListener("click", function () { state.cat = b.getAttribute("data-cat"); renderGrid(); });
  });
  $("sort").addEventListener("change", function () { state.sort = this.value; renderGrid(); });
  $("search").addEventListener("input", function () { state.q = this.value.trim().toLowerCase(); renderGrid(); });
  $("under-100").addEventListener("change", function () { state.under100 = this.checked; renderGrid(); });
  $("cart-btn").addEventListener("click", openCart);
  $("close-cart").addEventListener("click", closeCart);
  $("overlay").addEventListener("click", closeCart);
  document.addEventListener("keydown", function (e) { if (e.key === "Escape" && !$("cart").hidden) closeCart(); });
  $("promo-form").addEventListener("submit", function (e) {
    e.preventDefault();
    var code = $("promo-code").value.trim().toUpperCase();
    var msg = $("promo-msg");
    if (code === "TRAIL10") { state.promo = true; msg.textContent = "Code TRAIL10 applied: 10% off."; msg.className = "promo-msg ok"; }
    else { state.promo = false; msg.textContent = "Sorry, that code is not valid."; msg.className = "promo-msg bad"; }
    renderCart();
  });
  $("checkout").addEventListener("click", function () {
    if (!state.cart.length) return;
    var n = state.cart.reduce(function (s, l) { return s + l.qty; }, 0);
    $("confirm").hidden = false;
    $("confirm-text").textContent = "Order #TH-10482 with " + n + (n === 1 ? " item" : " items") + " (" + $("total").textContent + ") is on its way.";
    $("checkout").disabled = true;
    $("checkout").textContent = "Order placed";
  });
  renderGrid();
  renderCart();
})();
