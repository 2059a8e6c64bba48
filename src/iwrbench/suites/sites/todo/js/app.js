(function () {
  "use strict";
  var TAGS = {
    work: { label: "Work", icon: "img/icon-work.svg" },
    home: { label: "Home", icon: "img/icon-home.svg" },
    personal: { label: "Personal", icon: "img/icon-heart.svg" }
  };
  var todos = [
    { id: 1, text: "Review pull request #42", tag: "work", done: false },
    { id: 2, text: "Buy groceries for the week", tag: "home", done: false },
    { id: 3, text: "Book dentist appointment", tag: "personal", done: true }
  ];
  var nextId = 4;
  var filter = "all";

  var list = document.getElementById("todo-list");
  var input = document.getElementById("new-todo");
  var count = document.getElementById("count");
  var clearBtn = document.getElementById("clear-completed");
  var empty = document.getElementById("empty");
  var emptyText = document.getElementById("empty-text");
  var progress = document.getElementById("progress-text");

  function render() {
    list.innerHTML = "";
    var shown = todos.filter(function (t) {
      return filter === "all" || (filter === "active" ? !t.done : t.done);
    });
    shown.forEach(function (t) {
      var li = document.createElement("li");
      li.className = "todo" + (t.done ? " done" : "");
      li.setAttribute("data-id", String(t.id));
      var cb = document.createElement("input");
      cb.type = "checkbox";
      cb.id = "toggle-" + t.id;
      cb.checked = t.done;
      cb.addEventListener("change", function () { t.done = cb.checked; render(); });
      var label = document.createElement("label");
      label.setAttribute("for", cb.id);
      label.textContent = t.text;
      var tag = document.createElement("span");
      tag.className = "tag";
      var img = document.createElement("img");
      img.src = TAGS[t.tag].icon; img.width = 14; img.height = 14; img.alt = "";
      tag.appendChild(img);
      tag.appendChild(document.createTextNode(TAGS[t.tag].label));
      var del = document.createElement("button");
      del.type = "button";
      del.className = "del";
      del.id = "delete-" + t.id;
      del.setAttribute("aria-label", "Delete " + t.text);
      del.textContent = "\u00d7";
      del.addEventListener("click", function () {
        todos = todos.filter(function (x) { return x !== t; });
        render();
      });
      li.appendChild(cb); li.appendChild(label); li.appendChild(tag); li.appendChild(del);
      list.appendChild(li);
    });
    var left = todos.filter(function (t) { return !t.done; }).length;
    var doneN = todos.length - left;
    count.textContent = left + (left === 1 ? " item left" : " items left");
    clearBtn.textContent = "Clear completed (" + doneN + ")";
    clearBtn.disabled = doneN === 0;
    progress.textContent = doneN + " of " + todos.length + " done";
    empty.hidden = shown.length > 0;
    emptyText.textContent = filter === "completed" ? "No completed tasks." :
      filter === "active" ? "All caught up! No active tasks." : "Nothing here yet. Add your first task above.";
    document.querySelectorAll(".filter").forEach(function (b) {
      b.setAttribute("aria-pressed", String(b.getAttribute("data-filter") === filter));
    });
  }

  document.getElementById("new-form").addEventListener("submit", function (e) {
    e.preventDefault();
    var text = input.value.trim();
    if (!text) return;
    todos.push({ id: nextId++, text: text, tag: "personal", done: false });
    input.value = "";
    render();
  });
  document.querySelectorAll(".filter").forEach(function (b) {
    b.addEventListener("click", function () { filter = b.getAttribute("data-filter"); render(); });
  });
  clearBtn.addEventListener("click", function () {
    todos = todos.filter(function (t) { return !t.done; });
    render();
  });
  render();
})();
