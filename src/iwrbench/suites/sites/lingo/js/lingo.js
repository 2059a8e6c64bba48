/* Parola's page: decks, a flashcard review driven from the keyboard (Space shows the answer, 1-4
   grade it), a typing quiz, and a progress page, switched by the URL hash. Reviews are scheduled
   the usual spaced-repetition way: a card graded Good comes back after its interval times its ease,
   Hard a little later than before, Easy later still, Again later in the same session. */
(function () {
  "use strict";
  var $ = function (id) { return document.getElementById(id); };
  var DAY = 86400000;
  var DAYS = ["Sun", "Mon", "Tue", "Wed", "Thu", "Fri", "Sat"];
  var LONG_DAYS = ["Sunday", "Monday", "Tuesday", "Wednesday", "Thursday", "Friday", "Saturday"];
  var MONTHS = ["Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"];
  var LONG_MONTHS = ["January", "February", "March", "April", "May", "June", "July", "August", "September", "October", "November", "December"];
  var GRADE_NAMES = { 1: "Again", 2: "Hard", 3: "Good", 4: "Easy" };
  var START_INTERVALS = [3, 5, 2, 8, 4, 6];
  var WEEK = [14, 22, 9, 18, 25, 12];

  var decks = window.DECKS.map(function (d) {
    var n = 0;
    return { id: d.id, title: d.title, blurb: d.blurb, colour: d.colour, cards: d.cards.map(function (c, i) {
      var due = c[5];
      return { it: c[0], en: c[1], say: c[2], ex: c[3], exEn: c[4], due: due, learned: due || i % 3 === 0,
               interval: due ? START_INTERVALS[n++ % START_INTERVALS.length] : 0, ease: 2.5, learning: false };
    }) };
  });
  var reviewedToday = 4;
  var study = null, quiz = null;

  function deck(id) { return decks.filter(function (d) { return d.id === id; })[0]; }
  function today() { var t = new Date(); return new Date(t.getFullYear(), t.getMonth(), t.getDate()); }
  function fmt(d) { return DAYS[d.getDay()] + " " + d.getDate() + " " + MONTHS[d.getMonth()]; }
  function inDays(n) { return new Date(today().getTime() + n * DAY); }
  function esc(s) { return String(s).replace(/[&<>"']/g, function (c) { return { "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&#39;" }[c]; }); }

  // ---- scheduling
  function nextInterval(card, g) {
    if (g === 1) return null; // again: back into this session
    if (card.learning) return { 2: 1, 3: 2, 4: 4 }[g];
    var I = card.interval;
    if (g === 2) return Math.max(I + 1, Math.round(I * 1.2));
    if (g === 3) return Math.round(I * card.ease);
    return Math.round(I * card.ease * 1.3);
  }
  function label(days) { return days === null ? "10 min" : days === 1 ? "1 day" : days + " days"; }

  // ---- goal ring
  function renderGoal() {
    $("goal-count").textContent = reviewedToday;
    var f = Math.min(1, reviewedToday / 20);
    $("goal-ring").setAttribute("stroke-dashoffset", (94.2 * (1 - f)).toFixed(1));
  }

  // ---- home
  function renderHome() {
    var h = new Date().getHours();
    $("greeting").textContent = (h < 12 ? "Buongiorno" : h < 18 ? "Buon pomeriggio" : "Buonasera") + ", Sam";
    var due = 0, withDue = 0;
    decks.forEach(function (d) { var n = d.cards.filter(function (c) { return c.due; }).length; due += n; if (n) withDue++; });
    var t = today();
    $("today-line").textContent = LONG_DAYS[t.getDay()] + " " + t.getDate() + " " + LONG_MONTHS[t.getMonth()] + " · " +
      (due ? due + " cards due across " + withDue + " decks" : "Nothing due. Well done!");
    var ul = $("decks");
    ul.innerHTML = "";
    decks.forEach(function (d) {
      var n = d.cards.filter(function (c) { return c.due; }).length;
      var learned = d.cards.filter(function (c) { return c.learned; }).length;
      var li = document.createElement("li");
      li.className = "deck";
      li.style.setProperty("--c", d.colour);
      li.innerHTML = '<div class="deck-main"><h2>' + esc(d.title) + (n ? ' <span class="due" data-n="' + n + '">due</span>' : "") + "</h2>" +
        '<p class="muted">' + esc(d.blurb) + "</p>" +
        '<div class="learned"><div class="meter"><i style="width:' + (100 * learned / d.cards.length).toFixed(0) + '%"></i></div>' +
        "<span>" + learned + " of " + d.cards.length + " learned</span></div></div>" +
        '<div class="deck-btns"><button type="button" class="primary" id="study-' + d.id + '"' + (n ? "" : " disabled") + ">" + (n ? "Study" : "All caught up") + "</button>" +
        '<button type="button" class="ghost" id="quiz-' + d.id + '">Quiz</button></div>';
      ul.appendChild(li);
    });
  }

  // ---- flashcards
  function startStudy(id) {
    var d = deck(id);
    var queue = d.cards.filter(function (c) { return c.due; });
    if (!queue.length) return;
    study = { deck: d, queue: queue, pos: 0, flipped: false, answers: [], last: "" };
    if (location.hash === "#/study/" + id) route(); else location.hash = "#/study/" + id;
  }
  function renderStudy() {
    var s = study;
    $("study-title").textContent = s.deck.title + " · Review";
    var done = s.pos >= s.queue.length;
    $("study-card-wrap").hidden = done;
    $("summary").hidden = !done;
    $("study-track").style.width = (100 * s.pos / s.queue.length).toFixed(1) + "%";
    if (done) {
      $("study-count").textContent = "Done";
      var tally = [1, 2, 3, 4].map(function (g) { return GRADE_NAMES[g] + " " + s.answers.filter(function (a) { return a.g === g; }).length; });
      var words = {};
      s.answers.forEach(function (a) { words[a.card.it] = true; });
      $("tally").textContent = Object.keys(words).length + " cards, " + s.answers.length + " answers · " + tally.join(" · ");
      var tb = $("sched");
      tb.innerHTML = "";
      s.answers.filter(function (a) { return a.days !== null; }).forEach(function (a) {
        var tr = document.createElement("tr");
        tr.innerHTML = "<td>" + esc(a.card.it) + "</td><td>" + GRADE_NAMES[a.g] + "</td><td>" + fmt(inDays(a.days)) + " (in " + label(a.days) + ")</td>";
        tb.appendChild(tr);
      });
      return;
    }
    var c = s.queue[s.pos];
    $("study-count").textContent = "Card " + (s.pos + 1) + " of " + s.queue.length;
    $("card-front").textContent = c.it;
    $("card-say").textContent = c.say;
    $("card-meaning").textContent = c.en;
    $("card-ex").innerHTML = "«" + esc(c.ex) + "»<br><span class=\"muted\">" + esc(c.exEn) + "</span>";
    $("card-back").hidden = !s.flipped;
    $("card").classList.toggle("flipped", s.flipped);
    $("show-row").hidden = s.flipped;
    $("grades").hidden = !s.flipped;
    [1, 2, 3, 4].forEach(function (g) { $("g" + g + "-i").textContent = label(nextInterval(c, g)); });
    $("last-line").textContent = s.last;
  }
  function flip() { if (study && !study.flipped && study.pos < study.queue.length) { study.flipped = true; renderStudy(); } }
  function grade(g) {
    var s = study;
    if (!s || !s.flipped || s.pos >= s.queue.length) return;
    var c = s.queue[s.pos], days = nextInterval(c, g);
    s.answers.push({ card: c, g: g, days: days });
    reviewedToday++;
    if (days === null) {
      c.learning = true;
      s.queue.push(c);
      s.last = c.it + ": again in 10 min, it comes back this session.";
    } else {
      c.interval = days;
      c.due = false;
      c.learning = false;
      if (g === 2) c.ease = Math.max(1.3, c.ease - 0.15);
      if (g === 4) c.ease += 0.15;
      s.last = c.it + ": " + GRADE_NAMES[g] + ", next review " + fmt(inDays(days)) + ".";
    }
    s.pos++;
    s.flipped = false;
    renderGoal();
    renderStudy();
  }

  // ---- quiz
  function norm(s) { return s.toLowerCase().replace(/[.,!?;:]/g, "").replace(/\s+/g, " ").trim(); }
  function bare(s) { return norm(s).normalize("NFD").replace(/[\u0300-\u036f]/g, ""); }
  function noArticle(s) { return s.replace(/^(il|la|lo|l'|i|gli|le) ?/, ""); }
  function startQuiz(id, cards, practice) {
    var d = deck(id);
    var qs = cards || d.cards.filter(function (c) { return c.due; });
    if (!qs.length) qs = d.cards.slice(0, 4);
    quiz = { deck: d, qs: qs, pos: 0, results: [], score: 0, practice: !!practice, feedback: null };
    if (location.hash === "#/quiz/" + id) route(); else location.hash = "#/quiz/" + id;
  }
  function mark(c, typed) {
    var a = norm(typed), want = norm(c.it);
    if (a === want) return { kind: "ok", pts: 10, text: "Correct! You wrote '" + typed + "'. +10" };
    if (bare(a) === bare(want)) return { kind: "almost", pts: 5, text: "Almost! You wrote '" + typed + "'. Watch the accent: " + c.it + ". +5" };
    if (a === noArticle(want) || bare(a) === bare(noArticle(want))) return { kind: "almost", pts: 5, text: "Almost! You wrote '" + typed + "'. Don't forget the article: " + c.it + ". +5" };
    return { kind: "miss", pts: 0, text: "Not quite. You wrote '" + typed + "'. The answer is " + c.it + "." };
  }
  function renderQuiz() {
    var q = quiz, n = q.qs.length, done = q.pos >= n;
    $("quiz-title").textContent = q.deck.title + (q.practice ? " · Practice" : " · Quiz");
    $("quiz-score").textContent = "Score " + q.score;
    var dots = $("dots");
    dots.innerHTML = "";
    q.qs.forEach(function (c, i) {
      var li = document.createElement("li");
      li.className = i < q.results.length ? q.results[i].kind : i === q.pos ? "now" : "";
      li.textContent = i + 1;
      dots.appendChild(li);
    });
    $("quiz-play").hidden = done;
    $("quiz-done").hidden = !done;
    var fb = $("feedback");
    fb.hidden = !q.feedback;
    if (q.feedback) { fb.textContent = q.feedback.text; fb.className = "feedback " + q.feedback.kind; }
    if (done) {
      var ok = q.results.filter(function (r) { return r.kind === "ok"; }).length;
      var al = q.results.filter(function (r) { return r.kind === "almost"; }).length;
      var miss = n - ok - al;
      $("quiz-done-title").textContent = q.practice ? "Practice complete" : "Quiz complete";
      $("quiz-tally").textContent = "Score " + q.score + " of " + n * 10 + " · " + ok + " right, " + al + " almost, " + miss + " missed";
      var tb = $("quiz-rows");
      tb.innerHTML = "";
      q.results.forEach(function (r) {
        var tr = document.createElement("tr");
        tr.className = r.kind;
        tr.innerHTML = "<td>" + esc(r.card.en) + "</td><td>" + esc(r.typed) + "</td><td>" + esc(r.card.it) + "</td><td>" + r.pts + "</td>";
        tb.appendChild(tr);
      });
      $("retry").hidden = !miss;
      $("retry").textContent = "Practise " + miss + " missed word" + (miss === 1 ? "" : "s");
      return;
    }
    $("q-count").textContent = "Question " + (q.pos + 1) + " of " + n;
    $("q-word").textContent = q.qs[q.pos].en;
  }
  function answer(typed) {
    var q = quiz;
    if (!q || q.pos >= q.qs.length || !typed.trim()) return;
    var c = q.qs[q.pos], m = mark(c, typed.trim());
    q.results.push({ card: c, typed: typed.trim(), kind: m.kind, pts: m.pts });
    q.score += m.pts;
    q.feedback = m;
    q.pos++;
    reviewedToday++;
    renderGoal();
    renderQuiz();
  }

  // ---- progress
  function renderProgress() {
    var svg = $("week-chart"), vals = WEEK.concat([reviewedToday]), max = 30, out = "";
    for (var k = 0; k <= 3; k++) {
      var y = 170 - k * 50;
      out += '<line x1="40" x2="550" y1="' + y + '" y2="' + y + '" stroke="#eef0f3"/><text x="30" y="' + (y + 4) + '" text-anchor="end" font-size="11" fill="#6b7280">' + k * 10 + "</text>";
    }
    vals.forEach(function (v, i) {
      var h = v / max * 150, x = 60 + i * 70, d = inDays(i - 6);
      out += '<rect x="' + x + '" y="' + (170 - h).toFixed(1) + '" width="40" height="' + h.toFixed(1) + '" rx="5" fill="' + (i === 6 ? "#0f7b5f" : "#a7d7c5") + '"><title>' + v + " cards</title></rect>" +
        '<text x="' + (x + 20) + '" y="' + (164 - h).toFixed(1) + '" text-anchor="middle" font-size="11" fill="#374151">' + v + "</text>" +
        '<text x="' + (x + 20) + '" y="190" text-anchor="middle" font-size="11" fill="#6b7280">' + (i === 6 ? "Today" : DAYS[d.getDay()]) + "</text>";
    });
    svg.innerHTML = out;
  }

  // ---- routing
  function route() {
    var parts = location.hash.replace(/^#\/?/, "").split("/");
    var view = parts[0] || "home";
    if (view === "study" && (!study || study.deck.id !== parts[1])) { if (deck(parts[1])) { startStudy(parts[1]); return; } view = "home"; }
    if (view === "quiz" && (!quiz || quiz.deck.id !== parts[1])) { if (deck(parts[1])) { startQuiz(parts[1]); return; } view = "home"; }
    if (["home", "study", "quiz", "progress"].indexOf(view) < 0) view = "home";
    ["home", "study", "quiz", "progress"].forEach(function (v) { $("view-" + v).hidden = v !== view; });
    $("nav-decks").className = view === "progress" ? "" : "on";
    $("nav-progress").className = view === "progress" ? "on" : "";
    if (view === "home") { study = null; quiz = null; renderHome(); }
    if (view === "study") renderStudy();
    if (view === "quiz") { renderQuiz(); $("answer").value = ""; $("answer").focus(); }
    if (view === "progress") renderProgress();
    renderGoal();
  }

  $("decks").addEventListener("click", function (e) {
    var b = e.target.closest("button");
    if (!b) return;
    var m = b.id.match(/^(study|quiz)-(\w+)$/);
    if (m && m[1] === "study") startStudy(m[2]);
    if (m && m[1] === "quiz") startQuiz(m[2]);
  });
  $("show").addEventListener("click", flip);
  $("grades").addEventListener("click", function (e) { var b = e.target.closest(".grade"); if (b) grade(+b.dataset.g); });
  $("quiz-form").addEventListener("submit", function (e) {
    e.preventDefault();
    answer($("answer").value);
    $("answer").value = "";
    $("answer").focus();
  });
  $("retry").addEventListener("click", function () {
    var missed = quiz.results.filter(function (r) { return r.kind === "miss"; }).map(function (r) { return r.card; });
    startQuiz(quiz.deck.id, missed, true);
  });
  document.addEventListener("keydown", function (e) {
    if ($("view-study").hidden || !study || e.ctrlKey || e.metaKey || e.altKey) return;
    if (e.key === " ") { e.preventDefault(); flip(); }
    else if (/^[1-4]$/.test(e.key)) { e.preventDefault(); grade(+e.key); }
    else if (e.key === "Escape") location.hash = "#/";
  });
  window.addEventListener("hashchange", route);
  route();
})();
