// Draws a page's ```mermaid blocks (render-codeblock.html) with mermaid,
// which baseof.html loads before this, on those pages only, in the colours
// of the theme the page shows (the reader's choice, else the system's):
// mermaid's "base" theme on the wiki's palette (wiki.css), whose text
// keeps its contrast on every box and label (mermaid's own dark theme puts
// edge labels' text on a background axe finds too faint).
(function () {
  "use strict";
  if (!window.mermaid) return;
  var chosen = document.documentElement.dataset.theme;
  var dark = chosen === "dark" || (chosen !== "light" && window.matchMedia("(prefers-color-scheme: dark)").matches);
  var palette = dark
    ? { darkMode: true, background: "#0d1117", primaryColor: "#12263f", primaryTextColor: "#e6edf3", primaryBorderColor: "#4493f8",
        lineColor: "#9198a1", textColor: "#e6edf3", edgeLabelBackground: "#151b23", secondaryColor: "#151b23", tertiaryColor: "#151b23" }
    : { darkMode: false, background: "#ffffff", primaryColor: "#ddf4ff", primaryTextColor: "#1f2328", primaryBorderColor: "#0969da",
        lineColor: "#59636e", textColor: "#1f2328", edgeLabelBackground: "#f6f8fa", secondaryColor: "#f6f8fa", tertiaryColor: "#f6f8fa" };
  window.mermaid.initialize({ startOnLoad: false, securityLevel: "strict", theme: "base", themeVariables: palette });
  window.mermaid.run({ querySelector: ".doc pre.mermaid" });
})();
