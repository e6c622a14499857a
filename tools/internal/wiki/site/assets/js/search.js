// The modkit wiki's search: the combobox in the top bar, the search page, and
// the highlight of the searched words on the page a result leads to. Search
// matches like the mod_search_docs tool: a case-insensitive substring of a
// line; it also matches page titles, headings and the hooks of the registry,
// and ranks a hook's own entry first, then page titles, then headings, then
// lines (pages in path order, lines in line order).
(function () {
  "use strict";

  // The words searched are highlighted on the page a result leads to: the
  // result remembers the query for that page (sessionStorage), and the page
  // marks each occurrence in its text once, then forgets it.
  var HIGHLIGHT_KEY = "wiki-highlight";

  function rememberSearch(a) {
    if (!a || !a.dataset.q) return;
    try {
      sessionStorage.setItem(HIGHLIGHT_KEY, JSON.stringify({ path: new URL(a.href, location.href).pathname, q: a.dataset.q }));
    } catch (e) { /* storage refused: no highlight */ }
  }

  function setupHighlight() {
    document.addEventListener("click", function (e) {
      rememberSearch(e.target.closest && e.target.closest("a.search-hit"));
    });
    var saved = null;
    try {
      saved = JSON.parse(sessionStorage.getItem(HIGHLIGHT_KEY) || "null");
      sessionStorage.removeItem(HIGHLIGHT_KEY);
    } catch (e) { return; }
    var article = document.querySelector("article.doc");
    if (!saved || !saved.q || saved.path !== location.pathname || !article) return;
    var q = saved.q.toLowerCase();
    var walker = document.createTreeWalker(article, NodeFilter.SHOW_TEXT);
    var nodes = [];
    for (var n = walker.nextNode(); n; n = walker.nextNode()) {
      var low = n.nodeValue.toLowerCase();
      // Only where lower-casing keeps every offset (not so around the Kelvin sign, say).
      if (low.length === n.nodeValue.length && low.indexOf(q) >= 0) nodes.push(n);
    }
    var first = null;
    nodes.forEach(function (node) {
      var text = node.nodeValue;
      var lower = text.toLowerCase();
      var frag = document.createDocumentFragment();
      var from = 0;
      for (var at = lower.indexOf(q); at >= 0; at = lower.indexOf(q, at + q.length)) {
        frag.appendChild(document.createTextNode(text.slice(from, at)));
        var mark = el("mark", "search-target", text.slice(at, at + q.length));
        first = first || mark;
        frag.appendChild(mark);
        from = at + q.length;
      }
      frag.appendChild(document.createTextNode(text.slice(from)));
      node.parentNode.replaceChild(frag, node);
    });
    if (first && !location.hash) first.scrollIntoView({ block: "center" });
  }

  var SNIPPET = 160;
  var RANK = { hook: 0, title: 1, heading: 2, line: 3 };

  // ATX headings outside code fences, as the Markdown renderer sees them.
  var headingRe = /^ {0,3}(#{1,6})(?:[ \t]+(.*?))?(?:[ \t]+#+)?[ \t]*$/;
  var fenceRe = /^ {0,3}(`{3,}|~{3,})/;
  var explicitIdRe = /\s*\{#([^}\s]+)\}\s*$/;

  // Annotates every line of a page, once: the trail of headings above it
  // (with the anchor of each, from the site's ids in document order), whether
  // it is a heading, and whether it is inside a code fence.
  function annotate(page) {
    if (page.annotated) return page.annotated;
    var lines = page.lines || [];
    var ids = page.headings || [];
    // First pass: which lines are headings (code fences hide their contents).
    var found = [];
    var code = [];
    var fence = null;
    lines.forEach(function (line, i) {
      var f = fenceRe.exec(line);
      code[i] = fence !== null || !!f;
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
    var trails = [];
    var heading = [];
    var next = 0;
    for (var i = 0; i < lines.length; i++) {
      if (next < found.length && found[next].at === i) {
        var h = found[next];
        var text = h.text;
        var id = "";
        var explicit = explicitIdRe.exec(text);
        if (explicit) { id = explicit[1]; text = text.replace(explicitIdRe, ""); }
        if (useIds) id = id || ids[next].id;
        text = useIds && ids[next].title ? ids[next].title : plain(text);
        while (trail.length && trail[trail.length - 1].level >= h.level) trail.pop();
        trail.push({ level: h.level, text: text, id: id });
        heading[i] = true;
        next++;
      }
      trails.push(trail.slice());
    }
    page.annotated = { trails: trails, heading: heading, code: code };
    return page.annotated;
  }

  // A Markdown line as a reader sees it: no list or quote markers, no
  // backticks or emphasis, links as their text, table cells joined.
  function plain(line) {
    var s = line.trim();
    if (/^\|?[\s:|-]*-[\s:|-]*$/.test(s) && s.indexOf("|") >= 0) return ""; // a table's rule
    if (s.charAt(0) === "|") {
      s = s.replace(/^\|/, "").replace(/\|$/, "").split(/(?<!\\)\|/).map(function (c) { return c.trim(); })
        .filter(Boolean).join(" · ").replace(/\\\|/g, "|");
    }
    s = s.replace(/^#{1,6}\s+/, "").replace(explicitIdRe, "")
      .replace(/^(?:>\s?)+/, "")
      .replace(/^(?:[-*+]|\d+[.)])\s+(?:\[[ xX]\]\s+)?/, "")
      .replace(/!?\[([^\]]*)\]\([^)]*\)/g, "$1")
      .replace(/\[([^\]]+)\]\[[^\]]*\]/g, "$1")
      .replace(/<\/?[a-zA-Z][^>]*>/g, "")
      .replace(/`+/g, "")
      .replace(/\*\*|~~/g, "")
      .replace(/(^|[\s(])\*(?=\S)/g, "$1")
      .replace(/(\S)\*(?=$|[\s).,;:!?])/g, "$1");
    return s;
  }

  // Every match of query in index, grouped by page. A page's items are in
  // rank order (a hook's own entry, the title, headings, lines; the same
  // rank in document order); pages are in the order of their best item,
  // then path order. Items: { rank, label, code (the label is code), text,
  // codeLine (the text is a line of code, shown as is), href }.
  function search(index, query) {
    var q = query.toLowerCase();
    var has = function (s) { return (s || "").toLowerCase().indexOf(q) >= 0; };
    var groups = [];
    var total = 0;
    index.pages.forEach(function (page) {
      var items = [];
      var add = function (rank, order, item) { item.rank = rank; item.order = order; items.push(item); };
      if (has(page.title)) add(RANK.title, 0, { label: page.title, text: page.summary, href: page.url });
      (page.hooks || []).forEach(function (h, i) {
        var href = page.url + "#" + h.name;
        if (has(h.name) || has(h.const)) { add(RANK.hook, i, { label: h.name, code: true, text: plain(h.summary), href: href }); return; }
        var fields = [h.summary, h.description].concat((h.params || []).map(function (p) {
          return p.name + " (" + p.type + "): " + p.description;
        }));
        for (var f = 0; f < fields.length; f++) {
          if (has(fields[f])) { add(RANK.line, i, { label: h.name, code: true, text: plain(fields[f]), href: href }); return; }
        }
      });
      (page.headings || []).forEach(function (h, i) {
        if (h.level === 1 && h.title === page.title) return; // the title, again
        if (has(h.title)) add(RANK.heading, i, { label: h.title, text: "", href: page.url + "#" + h.id });
      });
      // Lines are most of the index: lower-cased once per page, not per keystroke.
      var lower = page.lower || (page.lower = (page.lines || []).map(function (l) { return l.toLowerCase(); }));
      (page.lines || []).forEach(function (raw, i) {
        if (lower[i].indexOf(q) < 0) return;
        var a = annotate(page);
        if (a.heading[i]) return; // matched above, as a heading
        var trail = a.trails[i];
        var last = trail.length ? trail[trail.length - 1] : null;
        var where = trail.filter(function (t) { return !(t.level === 1 && t.text === page.title); });
        add(RANK.line, i, {
          label: where.length ? where.map(function (t) { return t.text; }).join(" › ") : page.title,
          text: a.code[i] ? raw.trim() : plain(raw),
          codeLine: a.code[i],
          href: page.url + (last && last.id ? "#" + last.id : "")
        });
      });
      if (!items.length) return;
      items.sort(function (a, b) { return a.rank - b.rank || a.order - b.order; });
      groups.push({ page: page, items: items });
      total += items.length;
    });
    groups.sort(function (a, b) { return a.items[0].rank - b.items[0].rank; }); // stable: path order kept
    return { groups: groups, total: total };
  }

  function el(tag, cls, text) {
    var e = document.createElement(tag);
    if (cls) e.className = cls;
    if (text != null) e.textContent = text;
    return e;
  }

  // text with the first match of q (unless empty) marked, cut to a window around it when
  // long. The match is marked only when the lower-cased text still lines up
  // with the original (it does not always).
  function marked(cls, text, q) {
    var span = el("span", cls);
    var lower = text.toLowerCase();
    var at = q ? lower.indexOf(q) : -1;
    var start = 0;
    var end = text.length;
    if (text.length > SNIPPET) {
      start = Math.max(0, (at < 0 ? 0 : at) - Math.floor((SNIPPET - q.length) / 2));
      end = Math.min(text.length, start + SNIPPET);
      start = Math.max(0, Math.min(start, end - SNIPPET));
      while (start > 0 && start < at && !/\s/.test(text.charAt(start - 1))) start++; // from a word
    }
    var pre = start > 0 ? "…" : "";
    var post = end < text.length ? "…" : "";
    if (at < 0 || lower.length !== text.length || at + q.length > end) {
      span.textContent = pre + text.slice(start, end) + post;
      return span;
    }
    span.appendChild(document.createTextNode(pre + text.slice(start, at)));
    span.appendChild(el("mark", null, text.slice(at, at + q.length)));
    span.appendChild(document.createTextNode(text.slice(at + q.length, end) + post));
    return span;
  }

  // One result: its label (a hook's name, a title, a heading, or the
  // heading trail of a line) and a plain-text snippet.
  function hitLink(item, q) {
    var a = el("a", "search-hit");
    a.href = item.href;
    a.dataset.q = q;
    a.dataset.rank = Object.keys(RANK)[item.rank];
    var line = item.rank === RANK.line;
    var label = marked("hit-label", item.label, line ? "" : q);
    if (item.code) label.classList.add("hit-code");
    a.appendChild(label);
    if (item.text) a.appendChild(marked(item.codeLine ? "hit-line hit-code" : "hit-line", item.text, line ? q : ""));
    return a;
  }

  // Renders results into box: each page a group headed by its title and
  // path, at most maxItems of its items. Returns the links in order.
  function renderGroups(box, groups, q, maxItems, option) {
    var links = [];
    groups.forEach(function (g, gi) {
      var group = el("div", "search-group");
      var head = el("div", "search-group-head");
      head.id = box.id + "-group-" + gi;
      head.appendChild(el("span", "search-group-title", g.page.title));
      head.appendChild(el("span", "hit-path", g.page.path));
      group.appendChild(head);
      if (option) {
        group.setAttribute("role", "group");
        group.setAttribute("aria-labelledby", head.id);
        head.setAttribute("role", "presentation");
      }
      g.items.slice(0, maxItems).forEach(function (item) {
        var a = hitLink(item, q);
        if (option) {
          a.id = box.id + "-option-" + links.length;
          a.setAttribute("role", "option");
          a.setAttribute("aria-selected", "false");
          a.tabIndex = -1;
        }
        links.push(a);
        group.appendChild(a);
      });
      if (g.items.length > maxItems) {
        group.appendChild(el("div", "search-more", (g.items.length - maxItems) + " more on this page"));
      }
      box.appendChild(group);
    });
    return links;
  }

  function summary(r, q) {
    var pages = r.groups.length;
    return r.total === 0 ? "No matches for “" + q + "”." :
      r.total + (r.total === 1 ? " result" : " results") + " in " + pages + (pages === 1 ? " page" : " pages") + ".";
  }

  // The index, fetched once, when first needed; its pages in path order.
  function indexLoader(url) {
    var loading = null;
    return function () {
      loading = loading || fetch(url, { credentials: "same-origin" })
        .then(function (r) {
          if (!r.ok) throw new Error("HTTP " + r.status);
          return r.json();
        })
        .then(function (data) {
          data.pages.sort(function (a, b) { return a.path < b.path ? -1 : a.path > b.path ? 1 : 0; });
          return data;
        });
      loading.catch(function () { loading = null; }); // a later try may work
      return loading;
    };
  }

  var MAX_GROUPS = 8;
  var MAX_GROUP_ITEMS = 3;

  // The search box in the top bar: a combobox whose listbox shows the best
  // results as you type. "/" or Ctrl-K (Cmd-K) focuses it, the arrow keys
  // choose a result, Enter opens it (or, with none chosen, the search page),
  // Escape closes the list.
  function setupCombobox() {
    var form = document.querySelector(".search-form");
    if (!form) return;
    var input = form.querySelector("input");
    var list = document.getElementById("search-listbox");
    var status = form.querySelector("[data-search-status]");
    var load = indexLoader(form.dataset.index);
    var options = [];
    var active = -1;
    var asked = 0;

    function close() {
      list.hidden = true;
      input.setAttribute("aria-expanded", "false");
      input.removeAttribute("aria-activedescendant");
      active = -1;
    }

    function choose(i) {
      if (active >= 0) options[active].setAttribute("aria-selected", "false");
      active = i;
      if (i < 0) { input.removeAttribute("aria-activedescendant"); return; }
      options[i].setAttribute("aria-selected", "true");
      input.setAttribute("aria-activedescendant", options[i].id);
      options[i].scrollIntoView({ block: "nearest" });
    }

    function update() {
      var query = input.value;
      var ask = ++asked;
      if (!query.trim()) { close(); status.textContent = ""; return; }
      load().then(function (index) {
        if (ask !== asked) return; // a later keystroke won
        var q = query.toLowerCase();
        var r = search(index, query);
        list.textContent = "";
        options = renderGroups(list, r.groups.slice(0, MAX_GROUPS), q, MAX_GROUP_ITEMS, true);
        var all = el("a", "search-all", r.total ? "All " + r.total + " results on the search page" : "No matches for “" + query + "”");
        all.href = form.action + "?q=" + encodeURIComponent(query);
        all.id = list.id + "-option-all";
        all.setAttribute("role", "option");
        all.setAttribute("aria-selected", "false");
        all.tabIndex = -1;
        list.appendChild(all);
        options.push(all);
        active = -1;
        input.removeAttribute("aria-activedescendant");
        list.hidden = false;
        input.setAttribute("aria-expanded", "true");
        status.textContent = summary(r, query);
      }, function (err) {
        status.textContent = "The search index could not be loaded (" + err.message + ").";
      });
    }

    input.addEventListener("input", update);
    input.addEventListener("focus", function () {
      load().catch(function () { /* said when searching */ });
      if (input.value.trim() && list.hidden) update();
    });
    input.addEventListener("keydown", function (e) {
      if (e.key === "ArrowDown" || e.key === "ArrowUp") {
        if (list.hidden) { update(); return; }
        e.preventDefault();
        var n = options.length;
        if (!n) return;
        choose(e.key === "ArrowDown" ? (active + 1) % n : (active <= 0 ? n - 1 : active - 1));
      } else if (e.key === "Enter" && active >= 0 && !list.hidden) {
        e.preventDefault();
        var href = options[active].href;
        rememberSearch(options[active]);
        close();
        window.location.href = href;
      } else if (e.key === "Escape" && !list.hidden) {
        e.preventDefault();
        close();
      }
    });
    list.addEventListener("mousemove", function (e) {
      var i = options.indexOf(e.target.closest("[role=option]"));
      if (i >= 0 && i !== active) choose(i);
    });
    document.addEventListener("click", function (e) {
      if (!form.contains(e.target)) close();
    });
    document.addEventListener("keydown", function (e) {
      var t = e.target;
      var typing = t.isContentEditable || /^(INPUT|TEXTAREA|SELECT)$/.test(t.tagName);
      if ((e.key === "k" || e.key === "K") && (e.ctrlKey || e.metaKey) && !e.altKey) {
        e.preventDefault();
        input.focus();
        input.select();
      } else if (e.key === "/" && !typing && !e.ctrlKey && !e.metaKey && !e.altKey) {
        e.preventDefault();
        input.focus();
      }
    });
  }

  // The search page: every result, grouped by page, in the same order.
  function setupSearchPage() {
    var box = document.getElementById("search-results");
    if (!box) return;
    var input = document.getElementById("search-input");
    var status = document.getElementById("search-status");
    var header = document.querySelector(".search-form input");
    var load = indexLoader(box.dataset.index);

    function render(index, query) {
      box.textContent = "";
      if (!query.trim()) { status.textContent = "Type to search every line of every page."; return; }
      var r = search(index, query);
      status.textContent = summary(r, query);
      renderGroups(box, r.groups, query.toLowerCase(), Infinity, false);
    }

    var initial = new URLSearchParams(window.location.search).get("q") || "";
    input.value = initial;
    if (header) header.value = initial;
    status.textContent = "Loading the search index…";
    load().then(function (index) {
      render(index, input.value);
      input.addEventListener("input", function () {
        var url = new URL(window.location.href);
        if (input.value) url.searchParams.set("q", input.value); else url.searchParams.delete("q");
        history.replaceState(null, "", url);
        render(index, input.value);
      });
      input.focus();
    }, function (err) {
      status.textContent = "The search index could not be loaded (" + err.message + ").";
    });
  }

  setupHighlight();
  setupCombobox();
  setupSearchPage();
})();
