// The modkit wiki's page script: theme toggle, phone menu, the assistant
// connection box, the table of contents that follows the reading position,
// and copy buttons. Search lives in search.js.
(function () {
  "use strict";

  var THEME_KEY = "wiki-theme";
  var root = document.documentElement;

  function systemDark() {
    return window.matchMedia && window.matchMedia("(prefers-color-scheme: dark)").matches;
  }

  function currentTheme() {
    return root.dataset.theme || (systemDark() ? "dark" : "light");
  }

  function setupTheme() {
    var button = document.querySelector(".theme-toggle");
    if (!button) return;
    var sync = function () {
      button.setAttribute("aria-pressed", currentTheme() === "dark" ? "true" : "false");
    };
    sync();
    button.addEventListener("click", function () {
      var next = currentTheme() === "dark" ? "light" : "dark";
      root.dataset.theme = next;
      try { localStorage.setItem(THEME_KEY, next); } catch (e) { /* private mode: not persisted */ }
      sync();
    });
  }

  function setupMenu() {
    var button = document.querySelector(".menu-toggle");
    if (!button) return;
    button.addEventListener("click", function () {
      var open = document.body.classList.toggle("nav-open");
      button.setAttribute("aria-expanded", open ? "true" : "false");
    });
  }

  // The home page's "Connect an assistant": the MCP endpoint is this page's
  // origin + /mcp (docs-mcp serves the wiki and MCP side by side), written
  // into each configuration and each one-click install link.
  function setupConnect() {
    var box = document.querySelector("[data-mcp-connect]");
    if (!box || !/^https?:$/.test(location.protocol)) return;
    var url = location.origin + "/mcp";
    box.querySelectorAll("[data-mcp-url]").forEach(function (c) { c.textContent = url; });
    box.querySelectorAll("[data-mcp-template]").forEach(function (c) {
      c.textContent = c.getAttribute("data-mcp-template").replace("{url}", url);
    });
    var links = {
      vscode: "vscode:mcp/install?" + encodeURIComponent(JSON.stringify({ name: "docs-mcp", type: "http", url: url })),
      cursor: "cursor://anysphere.cursor-deeplink/mcp/install?name=docs-mcp&config=" + encodeURIComponent(btoa(JSON.stringify({ url: url })))
    };
    box.querySelectorAll("[data-mcp-install]").forEach(function (a) {
      a.href = links[a.getAttribute("data-mcp-install")];
    });
  }

  // The table of contents follows the reading position: the link of the
  // section being read (the last heading above the top of the window) is
  // marked aria-current.
  function setupTocFollow() {
    var toc = document.querySelector(".toc");
    if (!toc) return;
    var links = {};
    toc.querySelectorAll('a[href^="#"]').forEach(function (a) { links[decodeURIComponent(a.getAttribute("href").slice(1))] = a; });
    var heads = [].filter.call(document.querySelectorAll("article.doc :is(h2, h3)[id]"), function (h) { return links[h.id]; });
    if (!heads.length) return;
    var current = null;
    var pending = false;
    function update() {
      pending = false;
      var at = null;
      for (var i = 0; i < heads.length && heads[i].getBoundingClientRect().top < 120; i++) at = heads[i];
      var a = at ? links[at.id] : null;
      if (a === current) return;
      if (current) current.removeAttribute("aria-current");
      if (a) a.setAttribute("aria-current", "true");
      current = a;
    }
    function schedule() {
      if (!pending) { pending = true; requestAnimationFrame(update); }
    }
    window.addEventListener("scroll", schedule, { passive: true });
    schedule(); // in the next frame, when layout is done anyway: no forced reflow at load
  }

  // A copy button on every code block. It writes the code to the clipboard
  // and says "Copied" (data-copied on the button) once it is there.
  function setupCopy() {
    document.querySelectorAll(".doc pre").forEach(function (pre) {
      var box = pre.parentElement;
      if (!box.classList.contains("highlight")) {
        box = el("div");
        pre.parentNode.insertBefore(box, pre);
        box.appendChild(pre);
      }
      box.classList.add("code-block");
      var button = el("button", "copy", "Copy");
      button.type = "button";
      button.setAttribute("aria-label", "Copy the code");
      button.addEventListener("click", function () {
        var text = pre.textContent.replace(/\n$/, "");
        copyText(text).then(function () {
          button.textContent = "Copied";
          button.dataset.copied = "true";
        }, function () {
          button.textContent = "Copy failed";
        }).then(function () {
          setTimeout(function () { button.textContent = "Copy"; delete button.dataset.copied; }, 2000);
        });
      });
      box.appendChild(button);
    });
  }

  // The clipboard API needs a secure context (https, localhost); elsewhere
  // the older copy command on a selected, hidden text area.
  function copyText(text) {
    if (navigator.clipboard && window.isSecureContext) return navigator.clipboard.writeText(text);
    return new Promise(function (resolve, reject) {
      var area = el("textarea");
      area.value = text;
      area.setAttribute("readonly", "");
      area.className = "visually-hidden";
      document.body.appendChild(area);
      area.select();
      var ok = false;
      try { ok = document.execCommand("copy"); } catch (e) { /* not allowed */ }
      area.remove();
      if (ok) resolve(); else reject(new Error("copy refused"));
    });
  }

  function el(tag, cls, text) {
    var e = document.createElement(tag);
    if (cls) e.className = cls;
    if (text != null) e.textContent = text;
    return e;
  }

  setupTheme();
  setupMenu();
  setupConnect();
  setupTocFollow();
  setupCopy();
})();
