// The docs reader: an MCP App (SEP-1865) that shows what docs-mcp's tools answer (a doc or one
// of its sections, a hook, a search, a release's changes) as the wiki shows it, and opens a
// link by calling the server's tools through the host. It talks to the host with the
// extension's JSON-RPC over postMessage, written here against the specification (about sixty
// lines) rather than bundling @modelcontextprotocol/ext-apps, whose App needs its SDK and zod
// (540 KB). It builds the page from DOM nodes and text: nothing a doc holds becomes markup.
(function () {
  "use strict";

  var PROTOCOL = "2026-01-26"; // the extension's revision (ext-apps 2.x)
  var wikiBase = document.querySelector('meta[name="docs-mcp-wiki"]').content;
  var main = document.getElementById("main");
  var back = document.getElementById("back");
  var where = document.getElementById("where");
  var wikiLink = document.getElementById("wiki");
  var history = []; // the views before this one, for Back
  var current = null;
  var lastArgs = {}; // the arguments of the call whose answer is shown
  var tables = 0; // the tables of the view so far, each labelled with its number

  // --- JSON-RPC with the host -------------------------------------------------------------
  var nextId = 1;
  var pending = {};
  function send(msg) { window.parent.postMessage(msg, "*"); }
  function request(method, params) {
    var id = nextId++;
    send({ jsonrpc: "2.0", id: id, method: method, params: params });
    return new Promise(function (resolve, reject) { pending[id] = { resolve: resolve, reject: reject }; });
  }
  function notify(method, params) { send({ jsonrpc: "2.0", method: method, params: params || {} }); }

  window.addEventListener("message", function (e) {
    if (e.source !== window.parent) return;
    var m = e.data;
    if (!m || m.jsonrpc !== "2.0") return;
    if (m.method === undefined) { // an answer to one of ours
      var p = pending[m.id];
      if (!p) return;
      delete pending[m.id];
      if (m.error) p.reject(new Error(m.error.message || "the host refused the request"));
      else p.resolve(m.result);
      return;
    }
    if (m.id !== undefined) { // a request from the host
      if (m.method === "ping" || m.method === "ui/resource-teardown") send({ jsonrpc: "2.0", id: m.id, result: {} });
      else send({ jsonrpc: "2.0", id: m.id, error: { code: -32601, message: "Method not found: " + m.method } });
      return;
    }
    switch (m.method) {
      case "ui/notifications/tool-input": lastArgs = (m.params && m.params.arguments) || {}; break;
      case "ui/notifications/tool-result": history = []; show(m.params, lastArgs); break;
      case "ui/notifications/host-context-changed": applyContext(m.params); break;
    }
  });

  function applyContext(ctx) {
    if (ctx && (ctx.theme === "light" || ctx.theme === "dark")) document.documentElement.setAttribute("data-theme", ctx.theme);
  }

  // call runs a tool through the host and shows its answer, keeping the view before for Back.
  function call(name, args) {
    status("Loading…");
    return request("tools/call", { name: name, arguments: args }).then(function (res) {
      if (current) history.push(current);
      show(res, args);
      main.focus();
    }, function (err) { status("The host could not call " + name + ": " + err.message, true); });
  }

  function openLink(url) {
    request("ui/open-link", { url: url }).catch(function (err) { status("The host did not open " + url + ": " + err.message, true); });
  }

  function status(text, isError) {
    var s = document.getElementById("status");
    if (!s) { s = el("p", "muted"); s.id = "status"; s.setAttribute("role", "status"); main.insertBefore(s, main.firstChild); }
    s.textContent = text;
    s.className = isError ? "error" : "muted";
  }

  // --- views --------------------------------------------------------------------------------
  function show(res, args) {
    tables = 0;
    current = { res: res, args: args || {} };
    lastArgs = current.args;
    back.hidden = history.length === 0;
    main.textContent = "";
    setWiki("");
    var sc = res && res.structuredContent;
    if (!res || res.isError || !sc) {
      where.textContent = "Error";
      main.appendChild(el("h1", "", "The server answered with an error"));
      var p = el("p", "error", textOf(res) || "No answer.");
      p.setAttribute("role", "alert");
      main.appendChild(p);
    } else if (sc.hook) showHook(sc.hook);
    else if (typeof sc.content === "string" && sc.path) showDoc(sc);
    else if (Array.isArray(sc.docs)) showSearch(sc, current.args);
    else if (Array.isArray(sc.words) && Array.isArray(sc.sections)) showAsk(sc, current.args);
    else if (sc.from !== undefined && sc.to !== undefined && sc.hooks) showChanges(sc);
    else { main.appendChild(el("h1", "", "Answer")); main.appendChild(el("pre", "", textOf(res))); }
    document.title = (main.querySelector("h1") || {}).textContent || "Docs reader";
    sizeChanged();
  }

  function textOf(res) {
    return ((res && res.content) || []).filter(function (c) { return c.type === "text"; }).map(function (c) { return c.text; }).join("\n");
  }

  function showDoc(d) {
    where.textContent = d.path + (d.section ? " › " + d.section.heading : "");
    var body = stripFrontMatter(d.content);
    var first = firstHeading(body);
    if (!first || first.level !== 1) main.appendChild(el("h1", "", d.title || d.path));
    markdown(body, main, { doc: d.path, top: first && first.level !== 1 ? first.level : 1, version: lastArgs.version });
    if (d.subsections && d.subsections.length) {
      main.appendChild(el("h2", "", "In this section"));
      var ul = el("ul");
      d.subsections.forEach(function (s) {
        var li = el("li");
        li.appendChild(docLink(s.heading, d.path, s.anchor));
        ul.appendChild(li);
      });
      main.appendChild(ul);
    }
    if (d.next_start_line) {
      var more = el("button", "reader-button", "Read on from line " + d.next_start_line);
      more.type = "button";
      more.addEventListener("click", function () { call("mod_read_doc", withVersion({ path: d.path, start_line: d.next_start_line })); });
      main.appendChild(more);
    }
    setWiki(pageURL(d.path, d.title, d.section && d.section.anchor));
  }

  function showHook(h) {
    where.textContent = "Hook registry › " + h.name;
    var h1 = el("h1");
    h1.appendChild(el("code", "", h.name));
    main.appendChild(h1);
    var meta = el("p", "hook-meta muted");
    [h.kind, h.category && "category " + h.category, h.since && "since " + h.since, h.cancellable && "cancellable",
      h.deprecated && "deprecated since " + h.deprecated.since + (h.deprecated.replacement ? ", use " + h.deprecated.replacement : "")]
      .filter(Boolean).forEach(function (t) { meta.appendChild(el("span", "", t)); });
    main.appendChild(meta);
    if (h.summary) main.appendChild(el("p", "", h.summary));
    if (h.description) markdown(h.description, main, { top: 2 });
    if (h.params && h.params.length) {
      main.appendChild(el("h2", "", "Parameters"));
      main.appendChild(table(["Name", "Type", "Description"], h.params.map(function (p) {
        return [code(p.name), code(p.type), p.description || ""];
      })));
    }
    if (h.returns) {
      main.appendChild(el("h2", "", "Returns"));
      var r = el("p");
      if (h.returns.type) { r.appendChild(code(h.returns.type)); r.appendChild(text(" ")); }
      r.appendChild(text(h.returns.description || ""));
      main.appendChild(r);
    }
    if (h.example) { main.appendChild(el("h2", "", "Example")); main.appendChild(pre(h.example, "go")); }
    var more = el("p");
    more.appendChild(toolLink("Search the docs for " + h.name, "mod_search_docs", { query: h.name }));
    main.appendChild(more);
    setWiki(wikiBase && wikiBase + "hook-reference/#" + encodeURIComponent(h.name));
  }

  // searchForm is a search box that runs tool. Not a <form>: a host's sandbox may not allow
  // forms (allow-forms), and a sandboxed form does not even fire its submit event.
  function searchForm(tool, value) {
    var form = el("div", "search-page-form");
    form.setAttribute("role", "search");
    var input = el("input");
    input.type = "search";
    input.name = "q";
    input.value = value || "";
    input.setAttribute("aria-label", tool === "mod_ask_docs" ? "Question" : "Text to find");
    var go = el("button", "reader-button", "Search");
    go.type = "button";
    form.appendChild(input);
    form.appendChild(go);
    function run() {
      var q = input.value.trim();
      if (q) call(tool, tool === "mod_ask_docs" ? { question: q } : { query: q });
    }
    go.addEventListener("click", run);
    input.addEventListener("keydown", function (e) { if (e.key === "Enter") { e.preventDefault(); run(); } });
    return form;
  }

  function showSearch(r, args) {
    where.textContent = "Search" + (r.version ? " · " + r.version : "");
    main.appendChild(el("h1", "", args.query ? "Lines with “" + args.query + "”" : "Search"));
    main.appendChild(searchForm("mod_search_docs", args.query));
    if (r.hooks && r.hooks.length) {
      main.appendChild(el("h2", "", "Hooks"));
      var hl = el("ul");
      r.hooks.forEach(function (h) {
        var li = el("li");
        li.appendChild(toolLink(h.name, "mod_get_hook", { name: h.name }));
        if (h.summary) li.appendChild(text(" — " + h.summary));
        hl.appendChild(li);
      });
      main.appendChild(hl);
    }
    if (!r.docs.length) main.appendChild(el("p", "muted", "No doc has this text."));
    r.docs.forEach(function (d) {
      main.appendChild(el("h2", "", d.path));
      var ul = el("ul", "hits");
      (d.sections || []).forEach(function (s) {
        var li = el("li");
        li.appendChild(docLink(s.heading || d.path, d.path, s.anchor));
        var lines = el("ul", "hit-lines");
        (s.lines || []).forEach(function (l) {
          var item = el("li");
          item.appendChild(el("span", "muted", l.line + ": "));
          item.appendChild(code(l.snippet));
          lines.appendChild(item);
        });
        li.appendChild(lines);
        ul.appendChild(li);
      });
      main.appendChild(ul);
    });
    if (r.has_more && r.next_cursor) {
      var more = el("button", "reader-button", "More results");
      more.type = "button";
      more.addEventListener("click", function () {
        call("mod_search_docs", Object.assign({}, args, { cursor: r.next_cursor }));
      });
      main.appendChild(more);
    }
    setWiki(wikiBase && args.query ? wikiBase + "search/?q=" + encodeURIComponent(args.query) : "");
  }

  function showAsk(r, args) {
    where.textContent = "Best answers" + (r.version ? " · " + r.version : "");
    main.appendChild(el("h1", "", args.question ? "Sections that answer “" + args.question + "”" : "Sections that answer"));
    main.appendChild(searchForm("mod_ask_docs", args.question));
    if (!r.sections.length) main.appendChild(el("p", "muted", "No section answers this."));
    var ol = el("ol", "hits");
    r.sections.forEach(function (s) {
      var li = el("li");
      li.appendChild(docLink(s.heading || s.title || s.path, s.path, s.anchor));
      li.appendChild(el("div", "muted", s.path + (s.start_line ? ", lines " + s.start_line + "–" + s.end_line : "")));
      if (s.snippet) {
        var lines = el("ul", "hit-lines");
        var item = el("li");
        item.appendChild(code(s.snippet));
        lines.appendChild(item);
        li.appendChild(lines);
      }
      ol.appendChild(li);
    });
    main.appendChild(ol);
    setWiki(wikiBase && args.question ? wikiBase + "search/?q=" + encodeURIComponent(args.question) : "");
  }

  function showChanges(c) {
    where.textContent = "Changes " + c.from + " → " + c.to;
    main.appendChild(el("h1", "", "What changed from " + c.from + " to " + c.to));
    var to = c.to === "working tree" ? undefined : c.to;
    function docList(title, paths, linked) {
      if (!paths || !paths.length) return;
      main.appendChild(el("h2", "", title));
      var ul = el("ul");
      paths.forEach(function (p) {
        var li = el("li");
        li.appendChild(linked ? docLink(p, p, "", to) : code(p));
        ul.appendChild(li);
      });
      main.appendChild(ul);
    }
    docList("Added docs", c.added, true);
    docList("Removed docs", c.removed, false);
    if (c.changed && c.changed.length) {
      main.appendChild(el("h2", "", "Changed docs"));
      var ul = el("ul");
      c.changed.forEach(function (d) {
        var li = el("li");
        li.appendChild(docLink(d.path, d.path, "", to));
        var secs = el("ul");
        (d.sections || []).forEach(function (s) {
          var si = el("li");
          if (s.change === "removed" || !s.anchor) si.appendChild(text(s.heading || "(before the first heading)"));
          else si.appendChild(docLink(s.heading, d.path, s.anchor, to));
          si.appendChild(el("span", "muted", " — " + s.change));
          secs.appendChild(si);
        });
        li.appendChild(secs);
        ul.appendChild(li);
      });
      main.appendChild(ul);
    }
    var h = c.hooks || {};
    if (h.changed) {
      main.appendChild(el("h2", "", "Hooks"));
      var hl = el("ul");
      [["added", h.added], ["changed", h.edited], ["removed", h.removed]].forEach(function (kind) {
        (kind[1] || []).forEach(function (name) {
          var li = el("li");
          li.appendChild(kind[0] === "removed" ? code(name) : toolLink(name, "mod_get_hook", to ? { name: name, version: to } : { name: name }));
          li.appendChild(el("span", "muted", " — " + kind[0]));
          hl.appendChild(li);
        });
      });
      main.appendChild(hl);
    }
    if (c.truncated) main.appendChild(el("p", "muted", "The lists were cut at the server's size limit."));
  }

  // --- links ----------------------------------------------------------------------------------
  function withVersion(args, version) {
    var v = version || lastArgs.version;
    if (v) args.version = v;
    return args;
  }

  // docLink opens a doc, or one of its sections, by calling mod_read_doc.
  function docLink(label, path, anchor, version) {
    var args = withVersion({ path: path }, version);
    if (anchor) args.section = anchor;
    var a = toolLink(label, "mod_read_doc", args);
    a.href = "docs://" + path + (anchor ? "#" + anchor : "");
    return a;
  }

  function toolLink(label, tool, args) {
    var a = el("a", "", label);
    a.href = "#";
    a.addEventListener("click", function (e) { e.preventDefault(); call(tool, args); });
    return a;
  }

  function externalLink(label, url) {
    var a = el("a", "", label);
    a.href = url;
    a.addEventListener("click", function (e) { e.preventDefault(); openLink(url); });
    return a;
  }

  function setWiki(url) {
    wikiLink.hidden = !url;
    if (!url) return;
    wikiLink.href = url;
    wikiLink.onclick = function (e) { e.preventDefault(); openLink(url); };
  }

  // pageURL is a doc's page in the wiki (mcp-server/wikipage's Of, for the paths most trees
  // use; another path opens the wiki's search for the doc's title).
  function pageURL(path, title, anchor) {
    if (!wikiBase) return "";
    if (!/^[A-Za-z0-9_.\/-]+\.md$/.test(path) || /\.en\.md$/i.test(path)) {
      return wikiBase + "search/?q=" + encodeURIComponent(title || path);
    }
    var p = path.toLowerCase().replace(/\.md$/, "");
    p = p === "index" || p === "_index" ? "" : p.replace(/\/_?index$/, "");
    return wikiBase + (p ? p + "/" : "") + (anchor ? "#" + encodeURIComponent(anchor) : "");
  }

  back.addEventListener("click", function () {
    var prev = history.pop();
    if (!prev) return;
    current = null;
    show(prev.res, prev.args);
    main.focus();
  });

  // --- Markdown ---------------------------------------------------------------------------------
  function stripFrontMatter(s) {
    var m = /^---\r?\n[\s\S]*?\r?\n---\r?\n/.exec(s);
    return m ? s.slice(m[0].length) : s;
  }

  function firstHeading(s) {
    var inFence = false;
    var lines = s.split("\n");
    for (var i = 0; i < lines.length; i++) {
      if (/^\s{0,3}(```|~~~)/.test(lines[i])) inFence = !inFence;
      var m = !inFence && /^\s{0,3}(#{1,6})\s/.exec(lines[i]);
      if (m) return { level: m[1].length };
    }
    return null;
  }

  // markdown renders CommonMark's common blocks (headings, paragraphs, lists, quotes, fenced
  // code, GitHub tables, rules) into parent. Heading levels are renumbered so that the page has
  // one h1 and no level is skipped; opts.doc is the doc its relative links are relative to.
  function markdown(src, parent, opts) {
    var state = { last: opts.top === 1 ? 0 : 1, shift: opts.top > 1 ? opts.top - 2 : 0 };
    blocks(src.replace(/\r\n?/g, "\n").split("\n"), parent, opts, state);
  }

  var reFence = /^(\s{0,3})(`{3,}|~{3,})\s*([^`\s]*)/;
  var reHeading = /^\s{0,3}(#{1,6})(?:\s+(.*?))?(?:\s+#+)?\s*$/;
  var reRule = /^\s{0,3}([-*_])(\s*\1){2,}\s*$/;
  var reItem = /^(\s*)([-*+]|\d{1,9}[.)])(\s+|$)(.*)$/;
  var reSep = /^\s*\|?\s*:?-+:?\s*(\|\s*:?-+:?\s*)*\|?\s*$/;

  function blocks(lines, parent, opts, state) {
    var i = 0, para = [];
    function flush() {
      if (!para.length) return;
      var p = el("p");
      inline(para.join("\n"), p, opts);
      parent.appendChild(p);
      para = [];
    }
    while (i < lines.length) {
      var line = lines[i], m;
      if (!line.trim()) { flush(); i++; continue; }
      if ((m = reFence.exec(line))) {
        flush();
        var fence = m[2], body = [];
        for (i++; i < lines.length && !(lines[i].trim().indexOf(fence) === 0 && !lines[i].trim().slice(fence.length).trim()); i++) {
          body.push(lines[i].slice(Math.min(m[1].length, lines[i].length - lines[i].trimStart().length)));
        }
        i++;
        parent.appendChild(pre(body.join("\n"), m[3]));
        continue;
      }
      if ((m = reHeading.exec(line))) {
        flush();
        var level = Math.max(1, m[1].length - state.shift);
        level = Math.min(level, state.last + 1, 6);
        state.last = level;
        var h = el("h" + level);
        inline(m[2] || "", h, opts);
        parent.appendChild(h);
        i++;
        continue;
      }
      if (reRule.test(line) && !para.length) { parent.appendChild(el("hr")); i++; continue; }
      if (/^\s{0,3}>/.test(line)) {
        flush();
        var quote = [];
        for (; i < lines.length && /^\s{0,3}>/.test(lines[i]); i++) quote.push(lines[i].replace(/^\s{0,3}>\s?/, ""));
        var bq = el("blockquote");
        blocks(quote, bq, opts, state);
        parent.appendChild(bq);
        continue;
      }
      if ((m = reItem.exec(line)) && (!para.length || m[4])) {
        flush();
        i = list(lines, i, parent, opts, state);
        continue;
      }
      if (line.indexOf("|") >= 0 && i + 1 < lines.length && reSep.test(lines[i + 1]) && lines[i + 1].indexOf("-") >= 0) {
        flush();
        var head = cells(line), rows = [];
        for (i += 2; i < lines.length && lines[i].trim() && lines[i].indexOf("|") >= 0; i++) rows.push(cells(lines[i]));
        parent.appendChild(table(head, rows, opts));
        continue;
      }
      para.push(line.trim());
      i++;
    }
    flush();
  }

  // list renders the list that starts at lines[i] and returns the line after it.
  function list(lines, i, parent, opts, state) {
    var first = reItem.exec(lines[i]);
    var ordered = /\d/.test(first[2]);
    var indent = first[1].length;
    var ul = el(ordered ? "ol" : "ul");
    if (ordered && parseInt(first[2], 10) !== 1) ul.setAttribute("start", String(parseInt(first[2], 10)));
    while (i < lines.length) {
      var m = reItem.exec(lines[i]);
      if (!m || m[1].length !== indent || /\d/.test(m[2]) !== ordered) break;
      var width = m[1].length + m[2].length + Math.max(1, Math.min(m[3].length, 4));
      var body = [m[4]];
      var blank = false;
      for (i++; i < lines.length; i++) {
        var l = lines[i];
        if (!l.trim()) { blank = true; body.push(""); continue; }
        var lead = l.length - l.trimStart().length;
        var item = reItem.exec(l);
        if (lead < width && (item || blank || reHeading.test(l) || reFence.test(l))) break;
        blank = false;
        body.push(lead >= width ? l.slice(width) : l.trim());
      }
      while (body.length && !body[body.length - 1]) body.pop();
      var li = el("li");
      if (body.length === 1 || body.indexOf("") < 0 && !body.slice(1).some(function (b) { return reItem.test(b) || reFence.test(b); })) {
        inline(body.join("\n"), li, opts);
      } else {
        blocks(body, li, opts, state);
        var only = li.children.length && li.firstElementChild.tagName === "P" && body.indexOf("") < 0;
        if (only) { var p = li.firstElementChild; while (p.firstChild) li.insertBefore(p.firstChild, p); li.removeChild(p); }
      }
      ul.appendChild(li);
      if (blank && !(i < lines.length && reItem.test(lines[i]) && reItem.exec(lines[i])[1].length === indent)) break;
    }
    parent.appendChild(ul);
    return i;
  }

  function cells(line) {
    var s = line.trim().replace(/^\|/, "").replace(/\|$/, "");
    var out = [], cur = "", tick = false;
    for (var i = 0; i < s.length; i++) {
      var c = s[i];
      if (c === "\\" && s[i + 1] === "|") { cur += "|"; i++; continue; }
      if (c === "`") tick = !tick;
      if (c === "|" && !tick) { out.push(cur.trim()); cur = ""; continue; }
      cur += c;
    }
    out.push(cur.trim());
    return out;
  }

  // table makes a table in a box that scrolls sideways (focusable, so a keyboard scrolls it);
  // cells are text, nodes, or Markdown when opts is given.
  function table(head, rows, opts) {
    var wrap = el("div", "table-wrap");
    wrap.tabIndex = 0;
    wrap.setAttribute("role", "region");
    tables++;
    wrap.setAttribute("aria-label", "Table " + tables + ": " + head.map(function (h) { return typeof h === "string" ? h : h.textContent; }).join(", "));
    var t = el("table"), thead = el("thead"), tr = el("tr");
    head.forEach(function (h) { tr.appendChild(cell("th", h, opts)); });
    thead.appendChild(tr);
    t.appendChild(thead);
    var tbody = el("tbody");
    rows.forEach(function (r) {
      var row = el("tr");
      for (var i = 0; i < head.length; i++) row.appendChild(cell("td", r[i] === undefined ? "" : r[i], opts));
      tbody.appendChild(row);
    });
    t.appendChild(tbody);
    wrap.appendChild(t);
    return wrap;
  }

  function cell(tag, v, opts) {
    var c = el(tag);
    if (tag === "th") c.setAttribute("scope", "col");
    if (typeof v !== "string") c.appendChild(v);
    else if (opts) inline(v, c, opts);
    else c.textContent = v;
    return c;
  }

  // inline renders code spans, links, images (as their text), autolinks, emphasis and escapes.
  function inline(s, parent, opts) {
    var i = 0, buf = "";
    function out() { if (buf) { parent.appendChild(text(buf)); buf = ""; } }
    while (i < s.length) {
      var c = s[i], m;
      if (c === "\\" && i + 1 < s.length && /[!-\/:-@\[-`{-~]/.test(s[i + 1])) { buf += s[i + 1]; i += 2; continue; }
      if (c === "\n") { buf += " "; i++; continue; }
      if (c === "`") {
        var run = /^`+/.exec(s.slice(i))[0];
        var end = s.indexOf(run, i + run.length);
        while (end >= 0 && s[end + run.length] === "`") end = s.indexOf(run, end + run.length + 1);
        if (end < 0) { buf += run; i += run.length; continue; }
        out();
        var body = s.slice(i + run.length, end).replace(/\n/g, " ");
        if (/^ .* $/.test(body) && body.trim()) body = body.slice(1, -1);
        parent.appendChild(code(body));
        i = end + run.length;
        continue;
      }
      if ((c === "[" || (c === "!" && s[i + 1] === "[")) && (m = link(s, c === "!" ? i + 1 : i))) {
        out();
        if (c === "!") parent.appendChild(text(m.label)); // the frame loads no images: their text stands in
        else parent.appendChild(mdLink(m.label, m.dest, opts));
        i = m.end;
        continue;
      }
      if (c === "<" && (m = /^<(https?:\/\/[^\s<>]+)>/.exec(s.slice(i)))) {
        out();
        parent.appendChild(externalLink(m[1], m[1]));
        i += m[0].length;
        continue;
      }
      if ((c === "*" || c === "_") && (m = emphasis(s, i))) {
        out();
        var e = el(m.strong ? "strong" : "em");
        inline(m.body, e, opts);
        parent.appendChild(e);
        i = m.end;
        continue;
      }
      buf += c;
      i++;
    }
    out();
  }

  function emphasis(s, i) {
    var c = s[i];
    var strong = s[i + 1] === c;
    var mark = strong ? c + c : c;
    if (c === "_" && i > 0 && /\w/.test(s[i - 1])) return null;
    var from = i + mark.length;
    if (from >= s.length || /\s/.test(s[from])) return null;
    var end = s.indexOf(mark, from + 1);
    while (end >= 0 && (/\s/.test(s[end - 1]) || (!strong && s[end + 1] === c) || (c === "_" && /\w/.test(s[end + mark.length] || "")))) {
      end = s.indexOf(mark, end + (strong ? 1 : 2));
    }
    if (end < 0) return null;
    return { strong: strong, body: s.slice(from, end), end: end + mark.length };
  }

  // link parses [label](dest "title") at s[i]: the label, the destination and where it ends.
  function link(s, i) {
    var depth = 0, j = i;
    for (; j < s.length; j++) {
      if (s[j] === "\\") { j++; continue; }
      if (s[j] === "`") { var k = s.indexOf("`", j + 1); if (k > 0) j = k; continue; }
      if (s[j] === "[") depth++;
      else if (s[j] === "]" && --depth === 0) break;
    }
    if (j >= s.length || s[j + 1] !== "(") return null;
    var k = j + 2, dest = "";
    if (s[k] === "<") {
      var close = s.indexOf(">", k);
      if (close < 0) return null;
      dest = s.slice(k + 1, close);
      k = close + 1;
    } else {
      var par = 0;
      for (; k < s.length && !/\s/.test(s[k]); k++) {
        if (s[k] === "(") par++;
        else if (s[k] === ")") { if (par === 0) break; par--; }
        dest += s[k];
      }
    }
    var rest = /^\s*(?:"[^"]*"|'[^']*')?\s*\)/.exec(s.slice(k));
    if (!rest) return null;
    return { label: s.slice(i + 1, j), dest: dest, end: k + rest[0].length };
  }

  // mdLink is a link of a doc: to a doc (or one of its sections) by a tool call, to the web
  // through the host; a link to a repository file the server does not serve is only text.
  function mdLink(label, dest, opts) {
    var span = el("span");
    if (/^https?:\/\//i.test(dest)) { var a = externalLink("", dest); inline(label, a, opts); return a; }
    if (/^mailto:/i.test(dest) || /^[a-z][a-z0-9+.-]*:/i.test(dest) || !opts.doc) { inline(label, span, opts); return span; }
    var hash = dest.indexOf("#");
    var file = hash >= 0 ? dest.slice(0, hash) : dest;
    var anchor = hash >= 0 ? decodeURIComponentSafe(dest.slice(hash + 1)) : "";
    var target = file ? resolve(opts.doc, decodeURIComponentSafe(file)) : opts.doc;
    if (target === null || !/\.md$/i.test(target)) { inline(label, span, opts); return span; }
    var d = docLink("", target, anchor, opts.version);
    inline(label, d, opts);
    return d;
  }

  function decodeURIComponentSafe(s) { try { return decodeURIComponent(s); } catch (e) { return s; } }

  // resolve is dest relative to the doc at from (both relative to docs/), or null outside docs/.
  function resolve(from, dest) {
    if (dest[0] === "/") return null;
    var parts = from.split("/");
    parts.pop();
    var segs = dest.split("/");
    for (var i = 0; i < segs.length; i++) {
      if (segs[i] === "..") { if (!parts.length) return null; parts.pop(); }
      else if (segs[i] !== "." && segs[i] !== "") parts.push(segs[i]);
    }
    return parts.join("/");
  }

  // --- DOM --------------------------------------------------------------------------------------
  function el(tag, cls, content) {
    var e = document.createElement(tag);
    if (cls) e.className = cls;
    if (content !== undefined) e.textContent = content;
    return e;
  }
  function text(s) { return document.createTextNode(s); }
  function code(s) { return el("code", "", s); }
  function pre(body, lang) {
    var p = el("pre");
    p.tabIndex = 0; // it may scroll sideways: a keyboard must reach it
    var c = code(body);
    if (lang) c.className = "language-" + lang.replace(/[^\w+-]/g, "");
    p.appendChild(c);
    return p;
  }

  // --- size and start ---------------------------------------------------------------------------
  var lastHeight = 0;
  function sizeChanged() {
    var h = Math.ceil(document.documentElement.getBoundingClientRect().height);
    if (h === lastHeight) return;
    lastHeight = h;
    notify("ui/notifications/size-changed", { height: h });
  }
  if (window.ResizeObserver) new ResizeObserver(sizeChanged).observe(document.documentElement);

  request("ui/initialize", {
    appInfo: { name: "docs-mcp reader", version: "1" },
    appCapabilities: {},
    protocolVersion: PROTOCOL,
  }).then(function (res) {
    applyContext(res && res.hostContext);
    notify("ui/notifications/initialized");
  }, function (err) { status("The host did not start the reader: " + err.message, true); });
})();
