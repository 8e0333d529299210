// matome default theme: dark mode toggle, search dialog, tag filter. No framework.
(function () {
  "use strict";
  var root = document.documentElement;

  // --- Dark mode: follows the system until the reader chooses; the choice is remembered.
  var systemDark = window.matchMedia("(prefers-color-scheme: dark)");
  var toggles = document.querySelectorAll(".theme-toggle");
  function isDark() {
    return root.dataset.theme ? root.dataset.theme === "dark" : systemDark.matches;
  }
  function showTheme() {
    for (var i = 0; i < toggles.length; i++) toggles[i].setAttribute("aria-pressed", String(isDark()));
  }
  for (var i = 0; i < toggles.length; i++) {
    toggles[i].addEventListener("click", function () {
      var next = isDark() ? "light" : "dark";
      root.dataset.theme = next;
      try { localStorage.setItem("matome-theme", next); } catch (e) { /* storage off: this page only */ }
      showTheme();
    });
  }
  if (systemDark.addEventListener) systemDark.addEventListener("change", showTheme);
  showTheme();

  // --- Search: Pagefind's own UI, loaded from /pagefind/ the first time it is opened.
  var dialog = document.getElementById("search-dialog");
  if (dialog && typeof dialog.showModal === "function") {
    var openers = document.querySelectorAll("[data-search-open]");
    var loaded = null;
    function load() {
      if (loaded) return loaded;
      var bundle = dialog.dataset.bundle;
      loaded = new Promise(function (resolve, reject) {
        var css = document.createElement("link");
        css.rel = "stylesheet";
        css.href = bundle + "pagefind-ui.css";
        document.head.appendChild(css);
        var script = document.createElement("script");
        script.src = bundle + "pagefind-ui.js";
        script.onload = resolve;
        script.onerror = reject;
        document.head.appendChild(script);
      }).then(function () {
        /* global PagefindUI */
        new PagefindUI({
          element: "#search-ui",
          bundlePath: bundle,
          baseUrl: dialog.dataset.base,
          showSubResults: true,
          showImages: false,
          excerptLength: 40,
          translations: { placeholder: dialog.dataset.placeholder }
        });
      });
      return loaded;
    }
    function focusInput() {
      var input = dialog.querySelector("input");
      if (input) input.focus();
    }
    function open() {
      if (!dialog.open) dialog.showModal();
      load().then(focusInput, function () {
        document.getElementById("search-ui").textContent = "Search index not found (/pagefind/).";
      });
    }
    for (var j = 0; j < openers.length; j++) {
      openers[j].hidden = false;
      openers[j].addEventListener("click", open);
    }
    dialog.querySelector("[data-search-close]").addEventListener("click", function () { dialog.close(); });
    // A click on the backdrop (outside the panel) closes the dialog.
    dialog.addEventListener("click", function (event) { if (event.target === dialog) dialog.close(); });
    document.addEventListener("keydown", function (event) {
      var target = event.target;
      var typing = target && (target.isContentEditable || /^(INPUT|TEXTAREA|SELECT)$/.test(target.tagName));
      if ((event.key === "/" && !typing) || (event.key === "k" && (event.metaKey || event.ctrlKey))) {
        event.preventDefault();
        open();
      }
    });
  }

  // --- The tags page: filter thousands of terms as you type; most used first or by name.
  var list = document.getElementById("term-list");
  var tools = document.querySelector("[data-term-tools]");
  if (list && tools) {
    tools.hidden = false;
    var items = Array.prototype.slice.call(list.children);
    var countOrder = items.slice();
    var nameOrder = null;
    var input = document.getElementById("term-filter");
    var status = tools.querySelector(".term-status");
    var normalize = function (text) { return (text.normalize ? text.normalize("NFKC") : text).toLowerCase(); };
    var names = items.map(function (li) { return normalize(li.firstElementChild.textContent); });
    var filter = function () {
      var query = normalize(input.value.trim());
      var shown = 0;
      for (var k = 0; k < items.length; k++) {
        var match = !query || names[k].indexOf(query) !== -1;
        items[k].hidden = !match;
        if (match) shown++;
      }
      status.textContent = !query ? "" : shown ? status.dataset.shown.replace("{n}", shown.toLocaleString()) : status.dataset.noMatch;
    };
    input.addEventListener("input", filter);
    var buttons = tools.querySelectorAll("[data-sort]");
    for (var b = 0; b < buttons.length; b++) {
      buttons[b].addEventListener("click", function () {
        var byName = this.dataset.sort === "name";
        if (byName && !nameOrder) {
          var collator = new Intl.Collator(root.lang || undefined, { numeric: true, sensitivity: "base" });
          nameOrder = items.slice().sort(function (x, y) {
            return collator.compare(x.firstElementChild.textContent, y.firstElementChild.textContent);
          });
        }
        var fragment = document.createDocumentFragment();
        (byName ? nameOrder : countOrder).forEach(function (li) { fragment.appendChild(li); });
        list.appendChild(fragment);
        for (var c = 0; c < buttons.length; c++) buttons[c].setAttribute("aria-pressed", String(buttons[c] === this));
      });
    }
  }
})();
