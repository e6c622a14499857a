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

  // The theme has three states: "system" (nothing saved: the page follows
  // the system's setting, also when it changes while the page is open),
  // "light" and "dark" (saved). Each click moves to the next: from system
  // first to the look the system does not give, so that the first click
  // always changes the page, then to the other, then back to system.
  function setupTheme() {
    var button = document.querySelector(".theme-toggle");
    if (!button) return;
    var choice = function () { return root.dataset.theme || "system"; };
    var sync = function () {
      var label = "Theme: " + choice() + " (click to change)";
      button.setAttribute("aria-label", label);
      button.title = label;
    };
    sync();
    button.addEventListener("click", function () {
      var away = systemDark() ? "light" : "dark"; // the look the system does not give
      var now = choice();
      var next = now === "system" ? away : now === away ? (away === "dark" ? "light" : "dark") : "system";
      if (next === "system") delete root.dataset.theme; else root.dataset.theme = next;
      try {
        if (next === "system") localStorage.removeItem(THEME_KEY); else localStorage.setItem(THEME_KEY, next);
      } catch (e) { /* private mode: not persisted */ }
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
  // section being read is marked aria-current, and kept in view inside the
  // contents' own box when that box scrolls (a long list beside the text).
  // The section being read is the last heading above the reading line near
  // the top of the window; once the page can scroll no further, the last
  // heading on screen (or the one the address names, if on screen), so that
  // a short last section is marked too.
  //
  // Nothing is measured while the page loads: the headings are looked up on
  // the first scroll (or after the load event, for a page opened scrolled,
  // at a section or where a reload left it; opened at its top, no heading
  // is above the reading line yet, and measuring would lay out the whole
  // page once more: 10 ms here, 40 at a phone's speed, on a large reference
  // page), and each frame that scrolled reads a few heading positions in a
  // binary search, not one per heading (1,389 on a large reference page).
  var READING_LINE = 120; // px below the window's top: under the top bar and a heading's scroll margin

  function setupTocFollow() {
    var toc = document.querySelector(".toc");
    if (!toc) return;
    var heads = null;
    var links = {};
    var current = null;
    var pending = false;

    function collect() {
      toc.querySelectorAll('a[href^="#"]').forEach(function (a) {
        try { links[decodeURIComponent(a.getAttribute("href").slice(1))] = a; } catch (e) { /* malformed: not followed */ }
      });
      heads = [].filter.call(document.querySelectorAll("article.doc :is(h2, h3)[id]"), function (h) { return links[h.id]; });
    }

    // The last heading whose top is above y (heads are in page order, so
    // their tops only grow), or null.
    function lastAbove(y) {
      var lo = 0, hi = heads.length; // heads[0..lo) are above y, heads[hi..) are not
      while (lo < hi) {
        var mid = (lo + hi) >> 1;
        if (heads[mid].getBoundingClientRect().top < y) lo = mid + 1; else hi = mid;
      }
      return lo > 0 ? heads[lo - 1] : null;
    }

    function reading() {
      var doc = document.documentElement;
      var bottom = window.scrollY > 0 && window.innerHeight + window.scrollY >= doc.scrollHeight - 2;
      if (!bottom) return lastAbove(READING_LINE);
      var named = null;
      try { named = location.hash && document.getElementById(decodeURIComponent(location.hash.slice(1))); } catch (e) { /* malformed */ }
      if (named && links[named.id]) {
        var top = named.getBoundingClientRect().top;
        if (top >= 0 && top < window.innerHeight) return named;
      }
      return lastAbove(window.innerHeight);
    }

    // Scrolls the contents' box (not the page) so that a is inside it.
    function reveal(a) {
      if (!toc.open || toc.scrollHeight <= toc.clientHeight + 1) return;
      var box = toc.getBoundingClientRect();
      var r = a.getBoundingClientRect();
      if (r.top < box.top || r.bottom > box.bottom) toc.scrollTop += r.top - box.top - box.height / 2;
    }

    function update() {
      pending = false;
      if (!heads) collect();
      var at = heads.length ? reading() : null;
      var a = at ? links[at.id] : null;
      if (a === current) return;
      if (current) current.removeAttribute("aria-current");
      if (a) { a.setAttribute("aria-current", "true"); reveal(a); }
      current = a;
    }
    function schedule() {
      if (!pending) { pending = true; requestAnimationFrame(update); }
    }
    window.addEventListener("scroll", schedule, { passive: true });
    window.addEventListener("resize", schedule, { passive: true });
    var opened = function () { if (window.scrollY > 0) schedule(); };
    if (document.readyState === "complete") opened(); else window.addEventListener("load", opened);
  }

  // A copy button on every code block: highlighted blocks have theirs in
  // the page's HTML (render-codeblock.html); a block without one (plain
  // <pre>, such as the home page's commands) gets it here; a diagram's
  // source (pre.mermaid) is no code to copy. One listener on
  // the document handles them all. A button writes its block's code to the
  // clipboard and says "Copied" (data-copied on the button) once it is there.
  function setupCopy() {
    document.querySelectorAll(".doc pre:not(.code-block > pre, .mermaid)").forEach(function (pre) {
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
      box.appendChild(button);
    });
    document.addEventListener("click", function (e) {
      var button = e.target.closest && e.target.closest(".code-block > button.copy");
      if (!button) return;
      var pre = button.parentElement.querySelector("pre");
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

  // The version switcher and, on an older version's page, the banner
  // (wiki build -versions). A page's HTML names no version, so that a page
  // that did not change is the same file in every version: versions.json,
  // the same list at every version's top, says which versions there are.
  // The version read is the one whose folder ends the path of this page's
  // home (data-home, relative); the working tree's folder is the site's top.
  // An entry leads to this page in that version when it has it (asked with
  // HEAD on the click), else to its home. Without JavaScript the switcher
  // links to the "All versions" page.
  function setupVersions() {
    var box = document.querySelector("details.versions[data-versions]");
    if (!box || !window.fetch) return;
    var home = new URL(box.getAttribute("data-home"), location.href).pathname;
    fetch(new URL(box.getAttribute("data-versions"), location.href)).then(function (r) {
      if (!r.ok) throw new Error(r.status);
      return r.json();
    }).then(function (data) {
      var list = data.list || [];
      var cur = null;
      list.forEach(function (v) {
        if (home.slice(-v.path.length - 1) === "/" + v.path && (!cur || v.path.length > cur.path.length)) cur = v;
      });
      if (!cur) return;
      var top = home.slice(0, home.length - cur.path.length);
      var page = location.pathname.indexOf(home) === 0 ? location.pathname.slice(home.length) : "";
      // go opens this page in version v, or v's home when v has no such page.
      var go = function (v) {
        var target = top + v.path + page;
        fetch(target, { method: "HEAD" }).then(function (r) {
          location.href = r.ok ? target : top + v.path;
        }, function () { location.href = top + v.path; });
      };
      box.querySelector("[data-versions-for]").textContent = "Version: ";
      box.querySelector(".versions-label").textContent = cur.label;
      box.querySelector("summary").title = "Documentation version: " + cur.label;
      var menu = box.querySelector(".versions-menu");
      var ul = el("ul");
      list.forEach(function (v) {
        var a = el("a", null, v.label);
        a.href = top + v.path + page;
        if (v.date) { a.appendChild(document.createTextNode(" ")); a.appendChild(el("span", "versions-date", v.date)); }
        if (v === cur) a.setAttribute("aria-current", "page");
        else a.addEventListener("click", function (e) { e.preventDefault(); go(v); });
        var li = el("li");
        li.appendChild(a);
        ul.appendChild(li);
      });
      menu.textContent = "";
      menu.appendChild(ul);
      if (cur.changes) {
        var changes = el("a", "versions-changes", cur.changes);
        changes.href = top + cur.path + "what-changed/";
        menu.appendChild(changes);
      }
      var newest = list[0];
      var main = document.getElementById("main");
      if (cur === newest || !main) return;
      var same = top + newest.path + page;
      fetch(same, { method: "HEAD" }).then(function (r) { return r.ok; }, function () { return false; }).then(function (has) {
        var banner = el("div", "version-banner");
        banner.setAttribute("role", "note");
        var p = el("p", null, "You are reading the docs of ");
        p.appendChild(el("strong", null, cur.label));
        p.appendChild(document.createTextNode((cur.date ? " (" + cur.date + ")" : "") + ", an older version. " + (has ? "" : "This page is not in the newest docs: ")));
        var a = el("a", null, has ? "Read this page in the newest docs" : "go to the newest docs");
        a.href = has ? same : top + newest.path;
        p.appendChild(a);
        p.appendChild(document.createTextNode(" (" + newest.label + ")."));
        banner.appendChild(p);
        main.insertBefore(banner, main.firstChild);
      });
    }).catch(function () { /* the switcher keeps its link to the versions list */ });
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
  setupVersions();
})();
