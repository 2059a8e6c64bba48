(function () {
  "use strict";
  var PHOTOS = [
    { id: "alpine-lake", title: "Alpine Lake", author: "Ana Ortiz", album: "landscapes", likes: 214 },
    { id: "neon-alley", title: "Neon Alley", author: "Yuki Sato", album: "city", likes: 298 },
    { id: "kingfisher", title: "Kingfisher", author: "Tom Reed", album: "wildlife", likes: 512 },
    { id: "misty-forest", title: "Misty Forest", author: "Lena Berg", album: "landscapes", likes: 342 },
    { id: "city-dusk", title: "City at Dusk", author: "Marco Rossi", album: "city", likes: 156 },
    { id: "red-deer", title: "Red Deer", author: "Lena Berg", album: "wildlife", likes: 233 },
    { id: "coast-sunset", title: "Coast Sunset", author: "Kai Nakamura", album: "landscapes", likes: 405 },
    { id: "harbour-lights", title: "Harbour Lights", author: "Lena Berg", album: "city", likes: 97 },
    { id: "arctic-fox", title: "Arctic Fox", author: "Nora Lind", album: "wildlife", likes: 389 },
    { id: "desert-dunes", title: "Desert Dunes", author: "Omar Haddad", album: "landscapes", likes: 187 },
    { id: "rooftops-morning", title: "Rooftops at Morning", author: "Ana Ortiz", album: "city", likes: 121 },
    { id: "humpback", title: "Humpback", author: "Kai Nakamura", album: "wildlife", likes: 276 }
  ];
  var liked = {};
  var album = "all", sort = "Curated", shown = [], pos = 0;
  var $ = function (id) { return document.getElementById(id); };
  function likes(p) { return p.likes + (liked[p.id] ? 1 : 0); }
  function fmt(n) { return String(n).replace(/\B(?=(\d{3})+(?!\d))/g, ","); }

  function render() {
    shown = PHOTOS.filter(function (p) { return album === "all" || p.album === album; });
    if (sort === "Most liked") shown.sort(function (a, b) { return likes(b) - likes(a); });
    if (sort === "Title A–Z") shown.sort(function (a, b) { return a.title < b.title ? -1 : 1; });
    var grid = $("grid");
    grid.innerHTML = "";
    shown.forEach(function (p, i) {
      var li = document.createElement("li");
      li.className = "tile";
      li.innerHTML = '<button type="button" class="open" data-testid="open-' + p.id + '" aria-label="Open photo: ' + p.title + '">' +
        '<img src="img/' + p.id + '.png" width="540" height="360" alt="' + p.title + '">' +
        '<span class="hover">View photo · ♥ ' + likes(p) + '</span></button>' +
        '<div class="meta"><div><b>' + p.title + '</b><span>' + p.author + '</span></div><span class="likes">♥ ' + likes(p) + '</span></div>';
      li.querySelector(".open").addEventListener("click", function () { openAt(i); });
      grid.appendChild(li);
    });
    $("count").textContent = "Showing " + shown.length + " photos";
    var total = PHOTOS.reduce(function (s, p) { return s + likes(p); }, 0);
    $("stats").textContent = "12 photos · " + fmt(total) + " likes";
    document.querySelectorAll("[role=tab]").forEach(function (t) {
      var on = t.getAttribute("data-album") === album;
      t.setAttribute("aria-selected", String(on));
      t.tabIndex = on ? 0 : -1;
      if (on) $("panel").setAttribute("aria-labelledby", t.id);
    });
  }

  function showLb() {
    var p = shown[pos];
    $("lb-img").src = "img/" + p.id + ".png";
    $("lb-img").alt = p.title;
    $("lb-title").textContent = p.title;
    $("lb-author").textContent = "by " + p.author;
    $("lb-pos").textContent = "Photo " + (pos + 1) + " of " + shown.length;
    var on = !!liked[p.id];
    $("lb-like").textContent = (on ? "♥ Liked · " : "♥ Like · ") + likes(p);
    $("lb-like").setAttribute("aria-pressed", String(on));
  }
  function openAt(i) { pos = i; $("lightbox").hidden = false; showLb(); $("lb-next").focus(); }
  function close() { $("lightbox").hidden = true; render(); }
  function step(d) { pos = (pos + d + shown.length) % shown.length; showLb(); }

  $("lb-next").addEventListener("click", function () { step(1); });
  $("lb-prev").addEventListener("click", function () { step(-1); });
  $("lb-close").addEventListener("click", close);
  $("lb-like").addEventListener("click", function () {
    var p = shown[pos]; liked[p.id] = !liked[p.id]; showLb();
    var total = PHOTOS.reduce(function (s, q) { return s + likes(q); }, 0);
    $("stats").textContent = "12 photos · " + fmt(total) + " likes";
  });
  document.addEventListener("keydown", function (e) {
    if ($("lightbox").hidden) return;
    if (e.key === "ArrowRight") step(1);
    else if (e.key === "ArrowLeft") step(-1);
    else if (e.key === "Escape") close();
  });
  document.querySelectorAll("[role=tab]").forEach(function (t) {
    t.addEventListener("click", function () { album = t.getAttribute("data-album"); render(); });
  });
  $("sort").addEventListener("change", function () { sort = this.value; render(); });
  render();
})();
