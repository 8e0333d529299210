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

  // --- Search: Pagefind's JavaScript API over the bundles that pagefind/matome-search.json
  // lists (matome/search/bundles.py), loaded the first time the dialog opens.
  var dialog = document.getElementById("search-dialog");
  if (dialog && typeof dialog.showModal === "function") {
    var openers = document.querySelectorAll("[data-search-open]");
    var searchInput = dialog.querySelector(".search-input");
    var searchStatus = dialog.querySelector(".search-status");
    var resultList = dialog.querySelector(".search-results");
    var moreButton = dialog.querySelector(".search-more");
    // Each Japanese or Chinese character is a word of the index: the same classes as
    // matome/search/tokens.py (LETTER, MARK).
    var LETTER = "\u3005-\u3007\u3041-\u3096\u309d-\u309f\u30a1-\u30fa\u30fc-\u30ff\u3400-\u4dbf" +
      "\u4e00-\u9fff\uf900-\ufaff\uff66-\uff9d\u{20000}-\u{3134f}";
    var MARK = "\u3001-\u3004\u3008-\u3020\u3030\u303d\u309b\u309c\u30a0\u30fb" +
      "\uff01-\uff0f\uff1a-\uff20\uff3b-\uff40\uff5b-\uff65";
    var hasLetter = new RegExp("[" + LETTER + "]", "u");
    var eachLetter = new RegExp("[" + LETTER + "]", "gu");
    // The spaces the index put around each such character, which an excerpt shows.
    var gapAfter = new RegExp("([" + LETTER + MARK + "](?:</mark>)?) (?=(?:<mark>)?\\S)", "gu");
    var gapBefore = new RegExp("(\\S(?:</mark>)?) (?=(?:<mark>)?[" + LETTER + MARK + "])", "gu");
    var PAGE = 10;
    var engine = null;
    var hits = [];
    var listed = 0;
    var asked = 0;
    var timer = 0;

    var load = function () {
      if (engine) return engine;
      var index = dialog.dataset.index;
      var base = index.slice(0, index.lastIndexOf("/") + 1);
      // The list of bundles changes with every build that changed an article: asked for
      // again each time; the bundles themselves never change under their name.
      engine = fetch(index, { cache: "no-cache" }).then(function (response) {
        if (!response.ok) throw new Error(index + ": HTTP " + response.status);
        return response.json();
      }).then(function (manifest) {
        var options = { baseUrl: "/", exactDiacritics: true, excerptLength: 60 };
        if (!manifest.bundles.length) return { pagefind: null, hidden: new Set() }; // no article
        return import(base + manifest.bundles[0] + "pagefind.js").then(function (pagefind) {
          return pagefind.options(options).then(function () {
            return pagefind.init();
          }).then(function () {
            return Promise.all(manifest.bundles.slice(1).map(function (bundle) {
              return pagefind.mergeIndex(base + bundle, options);
            }));
          }).then(function () {
            return { pagefind: pagefind, hidden: new Set(manifest.hidden) };
          });
        });
      });
      return engine;
    };
    // A part of the query with those characters is searched as an exact phrase of them
    // (any substring of an article is found); the other words go to Pagefind as typed.
    var terms = function (query) {
      var phrases = [];
      var words = [];
      query.trim().split(/\s+/).forEach(function (part) {
        if (!part) return;
        if (hasLetter.test(part)) phrases.push('"' + part.replace(eachLetter, " $& ").trim() + '"');
        else words.push(part);
      });
      if (words.length) phrases.push(words.join(" "));
      return phrases;
    };
    var failed = function (error) {
      searchStatus.textContent = dialog.dataset.failed;
      console.error(error);
    };
    var result = function (page) {
      var item = document.createElement("li");
      item.className = "search-result";
      var link = document.createElement("a");
      link.className = "search-result-link";
      link.href = page.url;
      if (page.meta.image) {
        var image = document.createElement("img");
        image.className = "search-result-thumb";
        image.src = page.meta.image;
        image.alt = "";
        image.loading = "lazy";
        image.decoding = "async";
        link.appendChild(image);
      }
      var title = document.createElement("span");
      title.className = "search-result-title";
      title.textContent = page.meta.title || page.url;
      link.appendChild(title);
      var excerpt = document.createElement("p");
      excerpt.className = "search-result-excerpt";
      // Pagefind escapes the article's text: its <mark> tags are the only markup.
      excerpt.innerHTML = page.excerpt.replace(gapAfter, "$1").replace(gapBefore, "$1");
      item.appendChild(link);
      item.appendChild(excerpt);
      return item;
    };
    var showMore = function (id) {
      var batch = hits.slice(listed, listed + PAGE);
      listed += batch.length;
      moreButton.hidden = listed >= hits.length;
      return Promise.all(batch.map(function (hit) { return hit.data(); })).then(function (pages) {
        if (id !== asked) return;
        var fragment = document.createDocumentFragment();
        pages.forEach(function (page) { fragment.appendChild(result(page)); });
        resultList.appendChild(fragment);
      });
    };
    var search = function (query) {
      var id = ++asked;
      var parts = terms(query);
      if (!parts.length) {
        hits = [];
        resultList.textContent = searchStatus.textContent = "";
        moreButton.hidden = true;
        return;
      }
      load().then(function (found) {
        var none = { results: [] };
        return Promise.all(parts.map(function (part) { return found.pagefind ? found.pagefind.search(part) : none; }))
          .then(function (answers) {
            if (id !== asked) return;
            var results = answers[0].results.filter(function (hit) { return !found.hidden.has(hit.id); });
            for (var k = 1; k < answers.length; k++) {
              var also = new Set(answers[k].results.map(function (hit) { return hit.id; }));
              results = results.filter(function (hit) { return also.has(hit.id); });
            }
            hits = results;
            listed = 0;
            resultList.textContent = "";
            searchStatus.textContent = results.length
              ? dialog.dataset.found.replace("{n}", results.length.toLocaleString())
              : dialog.dataset.none.replace("{q}", query.trim());
            return showMore(id);
          });
      }).catch(failed);
    };
    searchInput.addEventListener("input", function (event) {
      if (event.isComposing) return; // the word being converted: searched once it is chosen
      clearTimeout(timer);
      // Typed letter by letter, the search waits for a pause; a word pasted or chosen at
      // once is searched at once.
      var typed = !event.data || event.data.length < 2;
      timer = setTimeout(function () { search(searchInput.value); }, typed ? 50 : 0);
    });
    searchInput.addEventListener("compositionend", function () { search(searchInput.value); });
    // Esc closes the dialog, as its button says (in a search field it would only clear it).
    searchInput.addEventListener("keydown", function (event) {
      if (event.key === "Escape" && !event.isComposing) dialog.close();
    });
    moreButton.addEventListener("click", function () { showMore(asked).catch(failed); });
    var open = function () {
      if (!dialog.open) dialog.showModal();
      searchInput.focus();
      load().catch(failed);
    };
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
