// matome serve: live reload, injected into served HTML pages only (never into built files).
// A rebuild sends "reload" (the page reloads, or goes to the changed page with
// --navigateToChanged), "css" (stylesheets are fetched again, the page stays) or
// "builderror" (the errors are shown over the page until the next good rebuild).
// Each change has a number; "hello" says the latest, and the latest that needed a reload,
// when a stream opens: a page that was loading while a change went by reloads instead of
// missing it, or only fetches its stylesheets again when every change since was CSS.
// The same file runs as a SharedWorker that holds the one EventSource for every open
// tab, so many tabs do not use up the browser's six connections to the server.
(function () {
  "use strict";
  var EVENTS = "/__matome/events";
  var TYPES = ["hello", "reload", "css", "builderror"];

  if (typeof document === "undefined") {
    // The SharedWorker: relay the server's events to every connected tab.
    var ports = [];
    var lastError = null;
    var lastHello = null;
    var relay = typeof EventSource !== "undefined";
    if (relay) {
      var shared = new EventSource(EVENTS);
      TYPES.forEach(function (type) {
        shared.addEventListener(type, function (event) {
          if (type === "hello") lastHello = event.data;
          else if (type === "builderror") lastError = event.data;
          else lastError = null;
          if (type === "reload" || type === "css") lastHello = event.data;
          ports.forEach(function (port) {
            port.postMessage({ type: type, data: event.data });
          });
        });
      });
    }
    self.onconnect = function (event) {
      var port = event.ports[0];
      port.onmessage = function (message) {
        if (message.data === "bye") ports.splice(ports.indexOf(port), 1);
      };
      port.start();
      if (!relay) return port.postMessage({ type: "alone" });
      ports.push(port);
      if (lastHello) port.postMessage({ type: "hello", data: lastHello });
      if (lastError) port.postMessage({ type: "builderror", data: lastError });
    };
    return;
  }

  var script = document.currentScript;
  var navigate = script && script.dataset.navigate === "1";
  var build = Number(script && script.dataset.build) || 0; // the change this page shows

  function parse(data) {
    try {
      return JSON.parse(data || "{}");
    } catch (e) {
      return {};
    }
  }

  function showErrors(lines) {
    var box = document.getElementById("matome-build-errors");
    if (!box) {
      box = document.createElement("pre");
      box.id = "matome-build-errors";
      box.setAttribute("role", "alert");
      box.style.cssText =
        "position:fixed;inset:0;z-index:2147483647;margin:0;padding:24px;overflow:auto;" +
        "background:rgba(24,24,27,.94);color:#fecaca;font:14px/1.6 ui-monospace,monospace;" +
        "white-space:pre-wrap;word-break:break-word";
      document.body.appendChild(box);
    }
    // textContent: an error message is shown as text, never run as HTML.
    box.textContent =
      "matome serve: the last rebuild failed; the page below is the last good build.\n\n" +
      lines.join("\n");
  }

  function reloadStyles() {
    var links = document.querySelectorAll('link[rel~="stylesheet"]');
    Array.prototype.forEach.call(links, function (link) {
      var url = new URL(link.href, location.href);
      if (url.origin !== location.origin) return;
      url.searchParams.set("matome-reload", String(Date.now()));
      link.href = url.href;
    });
  }

  function handle(type, data) {
    var message = parse(data);
    if (type === "hello") {
      // Changes went by while this page loaded (or its stream reconnected).
      if ((message.reload || 0) > build) location.reload();
      else if ((message.build || 0) > build) {
        build = message.build;
        reloadStyles();
      }
    } else if (type === "builderror") {
      showErrors(message.errors || []);
    } else if (type === "css") {
      build = Math.max(build, message.build || 0);
      reloadStyles();
    } else if (type === "reload") {
      var path = message.path;
      if (navigate && path && path !== location.pathname) location.assign(path);
      else location.reload();
    }
  }

  function listen() {
    var source = new EventSource(EVENTS);
    TYPES.forEach(function (type) {
      source.addEventListener(type, function (event) {
        handle(type, event.data);
      });
    });
  }

  if (window.SharedWorker) {
    var worker = new SharedWorker(script.src, { name: "matome-livereload" });
    worker.port.onmessage = function (message) {
      if (message.data.type === "alone") listen(); // no EventSource in workers here
      else handle(message.data.type, message.data.data);
    };
    worker.port.start();
    window.addEventListener("pagehide", function () {
      worker.port.postMessage("bye");
    });
    window.addEventListener("pageshow", function (event) {
      if (event.persisted) location.reload(); // back from the cache: its port said bye
    });
  } else {
    listen();
  }
})();
