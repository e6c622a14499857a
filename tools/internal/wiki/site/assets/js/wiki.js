// The modkit wiki's only script: theme toggle, phone menu, and offline search.
// Search has the semantics of the mod_search_docs tool: a case-insensitive
// substring match on each line of each page, in path order then line order.
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

  // On narrow screens the table of contents sits above the text: start it folded.
  function setupToc() {
    var toc = document.querySelector("details.toc");
    if (toc && window.matchMedia && window.matchMedia("(max-width: 72rem)").matches) {
      toc.open = false;
    }
  }

  var MAX_RESULTS = 200;
  var SNIPPET = 160;

  // ATX headings outside code fences, as the Markdown renderer sees them.
  var headingRe = /^ {0,3}(#{1,6})(?:[ \t]+(.*?))?(?:[ \t]+#+)?[ \t]*$/;
  var fenceRe = /^ {0,3}(`{3,}|~{3,})/;
  var explicitIdRe = /\s*\{#([^}\s]+)\}\s*$/;

  // Annotates every line of a page with the trail of headings above it and the
  // anchor of the nearest one. Heading ids come from the site (in document order).
  function annotate(page) {
    var lines = page.lines || [];
    var ids = page.headings || [];
    // First pass: which lines are headings (code fences hide their contents).
    var found = [];
    var fence = null;
    lines.forEach(function (line, i) {
      var f = fenceRe.exec(line);
      if (f) {
        if (!fence) fence = f[1].charAt(0);
        else if (f[1].charAt(0) === fence) fence = null;
      } else if (!fence) {
        var h = headingRe.exec(line);
        if (h) found.push({ at: i, level: h[1].length, text: h[2] || "" });
      }
    });
    // The site's ids line up with ours only when both saw the same headings.
    var useIds = found.length === ids.length;
    var trail = [];
    var out = [];
    var next = 0;
    for (var i = 0; i < lines.length; i++) {
      if (next < found.length && found[next].at === i) {
        var h = found[next];
        var text = h.text;
        var id = "";
        var explicit = explicitIdRe.exec(text);
        if (explicit) { id = explicit[1]; text = text.replace(explicitIdRe, ""); }
        if (useIds) id = id || ids[next].id;
        text = useIds && ids[next].title ? ids[next].title : text.replace(/[`*]/g, "");
        while (trail.length && trail[trail.length - 1].level >= h.level) trail.pop();
        trail.push({ level: h.level, text: text, id: id });
        next++;
      }
      out.push(trail.slice());
    }
    return out;
  }

  function search(index, query) {
    var q = query.toLowerCase();
    var hits = [];
    var total = 0;
    index.pages.forEach(function (page) {
      var trails = null;
      (page.lines || []).forEach(function (raw, i) {
        var line = raw.replace(/\r$/, "");
        var lower = line.toLowerCase();
        var at = lower.indexOf(q);
        if (at < 0) return;
        total++;
        if (hits.length >= MAX_RESULTS) return;
        trails = trails || annotate(page);
        hits.push({ page: page, line: line, lower: lower, at: at, trail: trails[i] });
      });
    });
    return { hits: hits, total: total };
  }

  function el(tag, cls, text) {
    var e = document.createElement(tag);
    if (cls) e.className = cls;
    if (text != null) e.textContent = text;
    return e;
  }

  // A window of the line around the match, with the match marked when the
  // lower-cased line still lines up with the original (it does not always).
  function snippet(hit, qlen) {
    var line = hit.line;
    var span = el("span", "hit-line");
    var aligned = hit.lower.length === line.length;
    var start = Math.max(0, hit.at - Math.floor((SNIPPET - qlen) / 2));
    var end = Math.min(line.length, start + SNIPPET);
    start = Math.max(0, Math.min(start, end - SNIPPET));
    // Indentation (code, nested lists) would show as an empty first row.
    while (start < hit.at && /\s/.test(line.charAt(start))) start++;
    var pre = (line.slice(0, start).trim() !== "" ? "…" : "");
    var post = (end < line.length ? "…" : "");
    if (!aligned) {
      span.textContent = pre + line.slice(start, end).trim() + post;
      return span;
    }
    span.appendChild(document.createTextNode(pre + line.slice(start, hit.at)));
    span.appendChild(el("mark", null, line.slice(hit.at, hit.at + qlen)));
    span.appendChild(document.createTextNode(line.slice(hit.at + qlen, end) + post));
    return span;
  }

  function setupSearch() {
    var list = document.getElementById("search-results");
    if (!list) return;
    var input = document.getElementById("search-input");
    var status = document.getElementById("search-status");
    var header = document.querySelector(".search-form input");
    var index = null;

    function render(query) {
      list.textContent = "";
      if (!query.trim()) { status.textContent = "Type to search every line of every page."; return; }
      var r = search(index, query);
      status.textContent = r.total === 0 ? "No matches for “" + query + "”." :
        r.total + (r.total === 1 ? " matching line" : " matching lines") +
        (r.total > r.hits.length ? " (showing the first " + r.hits.length + ")" : "") + ".";
      r.hits.forEach(function (hit) {
        var li = el("li");
        var last = hit.trail.length ? hit.trail[hit.trail.length - 1] : null;
        var a = el("a", "hit-title", hit.page.title);
        a.href = hit.page.url + (last && last.id ? "#" + last.id : "");
        li.appendChild(a);
        var where = hit.trail.map(function (t) { return t.text; }).join(" › ");
        li.appendChild(el("div", "hit-path", hit.page.path + (where ? " · " + where : "")));
        li.appendChild(snippet(hit, query.length));
        list.appendChild(li);
      });
    }

    var params = new URLSearchParams(window.location.search);
    var initial = params.get("q") || "";
    input.value = initial;
    if (header) header.value = initial;
    status.textContent = "Loading the search index…";

    fetch(list.dataset.index, { credentials: "same-origin" })
      .then(function (r) {
        if (!r.ok) throw new Error("HTTP " + r.status);
        return r.json();
      })
      .then(function (data) {
        // The index lists pages as the build met them: results go in path order.
        data.pages.sort(function (a, b) { return a.path < b.path ? -1 : a.path > b.path ? 1 : 0; });
        index = data;
        render(input.value);
        input.addEventListener("input", function () {
          var url = new URL(window.location.href);
          if (input.value) url.searchParams.set("q", input.value); else url.searchParams.delete("q");
          history.replaceState(null, "", url);
          render(input.value);
        });
        input.focus();
      })
      .catch(function (err) {
        status.textContent = "The search index could not be loaded (" + err.message + ").";
      });
  }

  setupTheme();
  setupMenu();
  setupToc();
  setupSearch();
})();
