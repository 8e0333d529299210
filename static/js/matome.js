// Dark mode toggle: follows the system until the reader chooses, then remembers the choice.
(function () {
  const root = document.documentElement;
  const button = document.querySelector(".theme-toggle");
  if (!button) return;
  button.addEventListener("click", function () {
    const systemDark = window.matchMedia("(prefers-color-scheme: dark)").matches;
    const current = root.dataset.theme || (systemDark ? "dark" : "light");
    const next = current === "dark" ? "light" : "dark";
    root.dataset.theme = next;
    try { localStorage.setItem("matome-theme", next); } catch (e) { /* private mode */ }
  });
})();
