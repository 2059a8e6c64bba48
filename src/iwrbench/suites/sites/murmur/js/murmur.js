/* Murmur page: a phone-sized social feed. Views (home, a post's thread, notifications, profile)
   follow the URL hash; posts are built once and updated in place when liked, reposted or replied
   to; the composer counts characters against the 280 limit. */
(function () {
  "use strict";
  var MM = window.MM, $ = function (id) { return document.getElementById(id); };
  var LIMIT = 280, feed = "all", notesTab = "all", mine = 0, els = {};
  var NOW = Date.now(); // relative times are as of opening the page, so they do not tick while it is read
  var ICON = {
    reply: '<path d="M4 5h16v10H9l-5 4z" fill="none" stroke="currentColor" stroke-width="1.8" stroke-linejoin="round"/>',
    repost: '<path d="M7 7h10l-3-3M17 17H7l3 3M17 7v5M7 17v-5" fill="none" stroke="currentColor" stroke-width="1.8" stroke-linecap="round" stroke-linejoin="round"/>',
    like: '<path d="M12 20s-7-4.4-7-9.6A3.9 3.9 0 0 1 12 8a3.9 3.9 0 0 1 7 2.4C19 15.6 12 20 12 20Z" stroke="currentColor" stroke-width="1.8"/>',
    share: '<path d="M12 4v11M7 9l5-5 5 5M5 14v5h14v-5" fill="none" stroke="currentColor" stroke-width="1.8" stroke-linecap="round" stroke-linejoin="round"/>',
    lock: '<path d="M7 11V8a5 5 0 0 1 10 0v3M5 11h14v9H5z" fill="none" stroke="currentColor" stroke-width="2"/>'
  };
  function svg(name, size) { return '<svg viewBox="0 0 24 24" width="' + (size || 18) + '" height="' + (size || 18) + '" aria-hidden="true">' + ICON[name] + "</svg>"; }
  function person(key) { return key === "me" ? MM.me : MM.people[key]; }
  function initials(p) { return p.name.split(" ").map(function (w) { return w[0]; }).join("").slice(0, 2).toUpperCase(); }
  function esc(s) { return String(s).replace(/&/g, "&amp;").replace(/</g, "&lt;").replace(/>/g, "&gt;"); }
  function rich(s) { return esc(s).replace(/(^|\s)([@#][\w.]+\w)/g, '$1<span class="tag">$2</span>'); }
  function ago(iso) {
    var m = Math.floor((NOW - Date.parse(iso)) / 60000);
    if (m < 1) return "now";
    if (m < 60) return m + "m";
    if (m < 1440) return Math.floor(m / 60) + "h";
    var d = new Date(iso);
    return d.getUTCDate() + " " + ["Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"][d.getUTCMonth()];
  }
  function avatar(p, cls) { return '<span class="av ' + (cls || "") + '" style="background:' + p.colour + '" aria-hidden="true">' + initials(p) + "</span>"; }
  function post(id) { return MM.posts.filter(function (p) { return p.id === id; })[0]; }

  // ------------------------------------------------------------------ posts
  function postEl(p, big) {
    var a = person(p.by), el = document.createElement("article");
    el.className = "post" + (big ? " big" : "");
    el.dataset.id = p.id;
    el.innerHTML = avatar(a) + '<div class="pbody"><header><b>' + esc(a.name) + "</b>" + (a.org ? '<span class="org" title="Organisation">✓</span>' : "") +
      ' <span class="h">@' + a.handle + " · " + ago(p.at) + "</span>" + (p.audience === "followers" ? '<span class="aud-badge">' + svg("lock", 12) + " Followers</span>" : "") + "</header>" +
      '<p class="ptext">' + rich(p.text) + "</p>" + (p.image ? '<img class="pimg" src="img/' + p.image + '.svg" alt="">' : "") +
      '<div class="acts">' +
      '<button type="button" class="act reply">' + svg("reply") + "<span></span></button>" +
      '<button type="button" class="act repost" aria-pressed="false">' + svg("repost") + "<span></span></button>" +
      '<button type="button" class="act like" aria-pressed="false">' + svg("like") + "<span></span></button>" +
      '<button type="button" class="act share" aria-label="Share">' + svg("share") + "</button></div></div>";
    el.querySelector(".reply").addEventListener("click", function (e) { e.stopPropagation(); location.hash = "#/post/" + p.id; });
    el.querySelector(".like").addEventListener("click", function (e) { e.stopPropagation(); p.liked = !p.liked; p.likes += p.liked ? 1 : -1; sync(p); });
    el.querySelector(".repost").addEventListener("click", function (e) {
      e.stopPropagation(); p.reposted = !p.reposted; p.reposts += p.reposted ? 1 : -1; sync(p);
      toast(p.reposted ? "Reposted to your followers." : "Repost removed.");
    });
    el.querySelector(".share").addEventListener("click", function (e) { e.stopPropagation(); toast("Link copied: murmur.example/" + a.handle + "/" + p.id); });
    if (!big) el.addEventListener("click", function () { location.hash = "#/post/" + p.id; });
    (els[p.id] = els[p.id] || []).push(el);
    fill(el, p);
    return el;
  }
  function fill(el, p) {
    var r = el.querySelector(".reply"), rp = el.querySelector(".repost"), l = el.querySelector(".like");
    r.lastChild.textContent = p.replies.length; r.setAttribute("aria-label", "Reply, " + p.replies.length + " replies");
    rp.lastChild.textContent = p.reposts; rp.setAttribute("aria-pressed", String(!!p.reposted)); rp.setAttribute("aria-label", "Repost, " + p.reposts);
    l.lastChild.textContent = p.likes; l.setAttribute("aria-pressed", String(!!p.liked)); l.setAttribute("aria-label", "Like, " + p.likes);
  }
  function sync(p) { (els[p.id] || []).forEach(function (el) { if (el.isConnected) fill(el, p); }); }

  function renderFeed() {
    var box = $("feed");
    box.innerHTML = ""; els = {};
    MM.posts.filter(function (p) { return feed === "all" || p.following || p.by === "me"; })
      .forEach(function (p) { box.appendChild(postEl(p)); });
    document.querySelectorAll("[data-feed]").forEach(function (t) { t.setAttribute("aria-selected", String(t.dataset.feed === feed)); });
  }
  function renderThread(p) {
    var box = $("thread");
    box.innerHTML = ""; els = {};
    box.appendChild(postEl(p, true));
    var h = document.createElement("h3");
    h.className = "sub"; h.id = "reply-head";
    h.textContent = p.replies.length === 1 ? "1 reply" : p.replies.length + " replies";
    box.appendChild(h);
    p.replies.forEach(function (r) { box.appendChild(replyEl(r)); });
    $("reply-text").value = "";
    $("reply-text").placeholder = "Reply to @" + person(p.by).handle;
    count("reply");
  }
  function replyEl(r) {
    var a = person(r.by), el = document.createElement("div");
    el.className = "reply";
    el.innerHTML = avatar(a, "sm") + '<div><header><b>' + esc(a.name) + '</b> <span class="h">@' + a.handle + " · " + ago(r.at) + "</span></header><p>" + rich(r.text) + "</p></div>";
    return el;
  }

  // ------------------------------------------------------------------ counting
  function count(which) {
    var text = $(which + "-text").value, left = LIMIT - text.length, ring = $(which + "-ring"), c = 2 * Math.PI * 9;
    var share = Math.min(text.length / LIMIT, 1);
    ring.setAttribute("stroke-dasharray", (c * share).toFixed(1) + " " + c.toFixed(1));
    ring.setAttribute("class", "ring-fg" + (left < 0 ? " over" : left <= 20 ? " warn" : ""));
    var cnt = $(which + "-count");
    cnt.textContent = String(left);
    cnt.className = "count" + (left < 0 ? " over" : left <= 20 ? " warn" : "");
    var note = $(which + "-note");
    if (left < 0) note.textContent = -left + (left === -1 ? " character" : " characters") + " over the limit";
    else if (which === "compose") note.textContent = text.length ? left + " characters left" : "Up to 280 characters";
    else note.textContent = "";
    note.className = "count-note" + (left < 0 ? " over" : "");
    $(which === "compose" ? "post-btn" : "reply-send").disabled = !text.trim() || left < 0;
  }

  function openSheet() { $("sheet").hidden = false; $("compose-text").value = ""; $("audience").value = "everyone"; count("compose"); $("compose-text").focus(); }
  function closeSheet() { $("sheet").hidden = true; }
  function publish(e) {
    e.preventDefault();
    var text = $("compose-text").value.trim();
    if (!text || text.length > LIMIT) return;
    mine++;
    MM.posts.unshift({ id: "m" + mine, by: "me", at: new Date(NOW).toISOString(), following: true, likes: 0, reposts: 0,
      text: text, replies: [], audience: $("audience").value });
    closeSheet();
    location.hash = "#/";
    render();
    toast($("audience").value === "followers" ? "Posted to your followers." : "Your post is live.");
  }
  function sendReply(e) {
    e.preventDefault();
    var p = post(currentPost), text = $("reply-text").value.trim();
    if (!p || !text || text.length > LIMIT) return;
    var r = { by: "me", at: new Date(NOW).toISOString(), text: text };
    p.replies.push(r);
    $("thread").appendChild(replyEl(r));
    $("reply-head").textContent = p.replies.length === 1 ? "1 reply" : p.replies.length + " replies";
    $("reply-text").value = "";
    count("reply");
    sync(p);
    toast("Reply sent.");
  }

  // ------------------------------------------------------------------ notifications
  function unread() { return MM.notes.filter(function (n) { return n.unread; }).length; }
  function renderNotes() {
    var box = $("notes");
    box.innerHTML = "";
    MM.notes.filter(function (n) { return notesTab === "all" || n.kind === notesTab; }).forEach(function (n) {
      var li = document.createElement("li"), who = n.who.map(person);
      li.className = "note " + n.kind + (n.unread ? " unread" : "");
      li.innerHTML = '<span class="kind" aria-hidden="true">' + { like: "♥", mention: "@", follow: "+", repost: "⟳" }[n.kind] + "</span>" +
        '<div><div class="who">' + who.map(function (p) { return avatar(p, "xs"); }).join("") + "</div><p><b>" +
        esc(who.map(function (p) { return p.name; }).join(" and ")) + "</b> " + esc(n.text) + '</p><span class="h">' + ago(n.at) + "</span></div>";
      if (n.post) { li.tabIndex = 0; li.addEventListener("click", function () { n.unread = false; location.hash = "#/post/" + n.post; }); }
      box.appendChild(li);
    });
    document.querySelectorAll("[data-notes]").forEach(function (t) { t.setAttribute("aria-selected", String(t.dataset.notes === notesTab)); });
    var u = unread();
    $("unread-line").textContent = u ? u + (u === 1 ? " unread notification" : " unread notifications") : "All caught up";
    $("mark-read").disabled = !u;
    badge();
  }
  function badge() {
    var u = unread();
    if (u) $("nav-notes").setAttribute("data-count", String(u)); else $("nav-notes").removeAttribute("data-count");
  }

  // ------------------------------------------------------------------ shell
  var currentPost = null;
  function render() {
    var h = location.hash, m = /^#\/post\/(\w+)/.exec(h), view = m && post(m[1]) ? "post" : h === "#/notifications" ? "notes" : h === "#/me" ? "me" : "home";
    ["home", "post", "notes", "me"].forEach(function (v) { $("view-" + v).hidden = v !== view; });
    $("back").hidden = view === "home";
    $("brand").hidden = view !== "home";
    $("top-title").hidden = view === "home";
    $("top-title").textContent = { post: "Post", notes: "Notifications", me: "Profile", home: "" }[view];
    $("fab").hidden = view === "post";
    document.querySelectorAll(".bottom a").forEach(function (a) { a.classList.toggle("on", a.dataset.view === view); });
    if (view === "home") renderFeed();
    if (view === "post") { currentPost = m[1]; renderThread(post(m[1])); }
    if (view === "notes") renderNotes();
    if (view === "me") {
      var box = $("my-feed"), list = MM.posts.filter(function (p) { return p.by === "me"; });
      box.innerHTML = ""; els = {};
      list.forEach(function (p) { box.appendChild(postEl(p)); });
      $("my-empty").hidden = list.length > 0;
    }
    badge();
    window.scrollTo(0, 0);
  }
  function toast(t) { $("toast").textContent = t; $("toast").hidden = false; }
  document.addEventListener("pointerdown", function () { $("toast").hidden = true; }, true);
  document.addEventListener("keydown", function () { $("toast").hidden = true; }, true);

  document.querySelectorAll("[data-feed]").forEach(function (t) { t.addEventListener("click", function () { feed = t.dataset.feed; renderFeed(); }); });
  document.querySelectorAll("[data-notes]").forEach(function (t) { t.addEventListener("click", function () { notesTab = t.dataset.notes; renderNotes(); }); });
  $("mark-read").addEventListener("click", function () { MM.notes.forEach(function (n) { n.unread = false; }); renderNotes(); });
  $("back").addEventListener("click", function () { history.length > 1 ? history.back() : (location.hash = "#/"); });
  $("fab").addEventListener("click", openSheet);
  $("prompt").addEventListener("click", openSheet);
  $("cancel").addEventListener("click", closeSheet);
  $("backdrop").addEventListener("click", closeSheet);
  $("compose").addEventListener("submit", publish);
  $("compose-text").addEventListener("input", function () { count("compose"); });
  $("reply-text").addEventListener("input", function () { count("reply"); });
  $("reply-form").addEventListener("submit", sendReply);
  document.addEventListener("keydown", function (e) { if (e.key === "Escape" && !$("sheet").hidden) closeSheet(); });
  window.addEventListener("hashchange", render);
  render();
})();
