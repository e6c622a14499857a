// The modkit wiki's search: the combobox in the top bar, the search page, and
// the highlight of the searched words on the page a result leads to.
//
// The index comes in pieces (the wiki command writes them, searchindex.go):
// a small manifest first, then only the shards of the dictionary the query's
// words fall in, then the excerpt data (Markdown lines, headings) of the
// pages shown. Words match in any order, the last one as a prefix while it
// is typed, English plurals as their singular ("tokens" finds "token"); a
// quoted "exact phrase" must appear as written. A hook's own entry ranks
// first, then page titles, then headings, then lines; pages of the same rank
// in path order.
(function () {
  "use strict";

  // --- Words: split and stemmed exactly as searchindex.go does. ---

  var CJK = "\\p{Script=Han}\\p{Script=Hiragana}\\p{Script=Katakana}\\p{Script=Hangul}";
  var WORD = new RegExp("[" + CJK + "]|(?:(?![" + CJK + "])[\\p{L}\\p{Nd}\\p{Mn}])+", "gu");
  var MAX_TERM = 40;

  // The English plural endings removed, the "S-stemmer" (see stem in searchindex.go).
  function stem(w) {
    if ([...w].length < 4 || w.slice(-1) !== "s") return w;
    if (/ies$/.test(w) && !/[ea]ies$/.test(w)) return w.slice(0, -3) + "y";
    if (/es$/.test(w) && !/[aeo]es$/.test(w)) return w.slice(0, -1);
    if (/(us|ss)$/.test(w)) return w;
    return w.slice(0, -1);
  }

  // w lower-cased as Go's unicode.ToLower does, one character at a time:
  // no context (String.toLowerCase makes a final Σ ς) and no character
  // becoming two (İ becomes i, not i and a combining dot); the final sigma
  // folded to σ, as in searchindex.go.
  function lower(w) {
    var out = "";
    for (var c of w) out += c === "\u0130" ? "i" : c === "ς" ? "σ" : c.toLowerCase();
    return out;
  }

  // The words of text: { term, at, end } with at and end offsets in text.
  function words(text) {
    var out = [];
    WORD.lastIndex = 0;
    for (var m = WORD.exec(text); m; m = WORD.exec(text)) {
      if ([...m[0]].length > MAX_TERM) continue;
      out.push({ term: stem(lower(m[0])), at: m.index, end: m.index + m[0].length });
    }
    return out;
  }

  // A query: its words (the last one a prefix unless a space or a quote
  // follows it) and its quoted phrases (each a list of terms).
  function parseQuery(text) {
    var phrases = [];
    var rest = text.replace(/"([^"]*)("|$)/g, function (_, p) {
      var ts = words(p).map(function (w) { return w.term; });
      if (ts.length > 1) phrases.push(ts);
      return " " + p + " ";
    });
    var seen = {};
    var list = [];
    words(rest).forEach(function (w) {
      if (!seen[w.term]) { seen[w.term] = true; list.push({ term: w.term, prefix: false }); }
    });
    if (list.length && /[^\s"]$/.test(text)) {
      var last = words(text).pop();
      list.forEach(function (w) { if (last && w.term === last.term) w.prefix = true; });
    }
    return { text: text, words: list, phrases: phrases };
  }

  // Whether term matches query word w.
  function hit(w, term) {
    return w.prefix ? term.lastIndexOf(w.term, 0) === 0 : term === w.term;
  }

  // A matcher for a query: whether a text holds all its words (and phrases),
  // any of them, and where they are (for marking).
  function matcher(q) {
    function has(ws, phrase) {
      outer: for (var i = 0; i + phrase.length <= ws.length; i++) {
        for (var j = 0; j < phrase.length; j++) if (ws[i + j].term !== phrase[j]) continue outer;
        return true;
      }
      return false;
    }
    return {
      query: q,
      all: function (text) {
        if (!text) return false;
        var ws = words(text);
        return q.words.every(function (w) { return ws.some(function (x) { return hit(w, x.term); }); }) &&
          q.phrases.every(function (p) { return has(ws, p); });
      },
      any: function (text) {
        if (!text || q.phrases.length) return false;
        var ws = words(text);
        return q.words.some(function (w) { return ws.some(function (x) { return hit(w, x.term); }); });
      },
      spans: function (text) {
        return words(text || "").filter(function (x) {
          return q.words.some(function (w) { return hit(w, x.term); });
        });
      }
    };
  }

  // The words searched are highlighted on the page a result leads to: the
  // result remembers the query for that page (sessionStorage), and the page
  // marks each of its words in its text once, then forgets it.
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
    var m = matcher(parseQuery(saved.q));
    var walker = document.createTreeWalker(article, NodeFilter.SHOW_TEXT);
    var found = [];
    for (var n = walker.nextNode(); n; n = walker.nextNode()) {
      var spans = m.spans(n.nodeValue);
      if (spans.length) found.push({ node: n, spans: spans });
    }
    var first = null;
    found.forEach(function (f) {
      var text = f.node.nodeValue;
      var frag = document.createDocumentFragment();
      var from = 0;
      f.spans.forEach(function (s) {
        frag.appendChild(document.createTextNode(text.slice(from, s.at)));
        var mark = el("mark", "search-target", text.slice(s.at, s.end));
        first = first || mark;
        frag.appendChild(mark);
        from = s.end;
      });
      frag.appendChild(document.createTextNode(text.slice(from)));
      f.node.parentNode.replaceChild(frag, f.node);
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

  // --- The index, in pieces. ---

  function getJSON(url) {
    return fetch(url, { credentials: "same-origin" }).then(function (r) {
      if (!r.ok) {
        var err = new Error("HTTP " + r.status);
        err.status = r.status;
        throw err;
      }
      return r.json();
    });
  }

  // a before b, negative, in code point order: the order Go sorts the terms
  // in (UTF-8 bytes), which JavaScript's < (UTF-16 units) is not always.
  function compareTerms(a, b) {
    var i = 0;
    while (i < a.length && i < b.length && a.charCodeAt(i) === b.charCodeAt(i)) i++;
    if (i === a.length || i === b.length) return a.length - b.length;
    return a.codePointAt(i) - b.codePointAt(i);
  }

  function startsWith(s, prefix) { return s.lastIndexOf(prefix, 0) === 0; }

  // A prefix spanning more shards than this (one or two letters, say) is
  // looked up in the first few only: typing on fetches the rest.
  var MAX_PREFIX_SHARDS = 3;
  // Pages' excerpt data kept for the next queries.
  var PAGE_CACHE = 100;

  // A word's ranks: for each page (by ID) the best rank the word has there
  // (see RANK), or NONE. A typed array, not a Map: a one-letter prefix
  // holds most pages of a large wiki, and on a 19,000-page wiki the
  // postings of "p" and the candidates made from them took 38 ms through
  // Maps and a sort, 7 to 17 ms this way (Chromium's trace).
  var NONE = 255;
  function ranks(count) {
    return new Uint8Array(count).fill(NONE);
  }

  // The pieces the wiki command writes (searchindex.go): each shard and each
  // page fetched once, when a query first needs it.
  function pieces(url, man) {
    var base = new URL(man.base, new URL(url, location.href)).href;
    var shards = {};
    var pages = new Map();
    // A piece gone missing: the wiki was rebuilt since the manifest was
    // read (each build's pieces have their own folder). The next query
    // reads the new manifest.
    function stale(err) {
      if (err.status === 404) { delete loading[url]; delete manifests[url]; }
    }
    function shard(i) {
      if (!shards[i]) {
        shards[i] = getJSON(base + "t/" + i + ".json");
        shards[i].catch(function (err) { delete shards[i]; stale(err); });
      }
      return shards[i];
    }
    function shardOf(term) { // the last shard whose first term is not after term
      var lo = 0, hi = man.shards.length - 1;
      while (lo < hi) {
        var mid = (lo + hi + 1) >> 1;
        if (compareTerms(man.shards[mid], term) <= 0) lo = mid; else hi = mid - 1;
      }
      return lo;
    }
    return {
      count: man.pages,
      // The pages holding word w: its ranks (see ranks); empty when
      // stale() says the query was overtaken.
      lookup: function (w, stale) {
        var from = shardOf(w.term), to = from;
        if (w.prefix) {
          while (to + 1 < man.shards.length && startsWith(man.shards[to + 1], w.term)) to++;
          to = Math.min(to, from + MAX_PREFIX_SHARDS - 1);
        }
        var wanted = [];
        for (var i = from; i <= to; i++) wanted.push(shard(i));
        return Promise.all(wanted).then(function (got) {
          var out = ranks(man.pages);
          if (stale && stale()) return out;
          got.forEach(function (s) {
            for (var ti = 0; ti < s.terms.length; ti++) {
              if (!hit(w, s.terms[ti])) continue;
              var post = s.postings[ti], id = 0;
              for (var k = 0; k < post.length; k++) {
                var v = post[k];
                id += v >> 2;
                if ((v & 3) < out[id]) out[id] = v & 3;
              }
            }
          });
          return out;
        });
      },
      page: function (id) {
        var p = pages.get(id);
        if (!p) {
          p = getJSON(base + "p/" + id + ".json");
          p.catch(function (err) { pages.delete(id); stale(err); });
          pages.set(id, p);
          if (pages.size > PAGE_CACHE) pages.delete(pages.keys().next().value);
        }
        return p;
      }
    };
  }

  // The whole index in one file, as a live preview (wiki serve) has it:
  // the same lookups, made here.
  function whole(url) {
    return getJSON(url).then(function (data) {
      var pages = data.pages.sort(function (a, b) { return compareTerms(a.path, b.path); });
      var dict = new Map(); // term: Map of page ID to its best rank there
      pages.forEach(function (p, id) {
        var note = function (text, rank) {
          words(text || "").forEach(function (w) {
            var m = dict.get(w.term);
            if (!m) dict.set(w.term, m = new Map());
            var o = m.get(id);
            if (o === undefined || rank < o) m.set(id, rank);
          });
        };
        note(p.title, RANK.title);
        (p.headings || []).forEach(function (h) { note(h.title, RANK.heading); });
        (p.lines || []).forEach(function (l) { note(l, RANK.line); });
        (p.hooks || []).forEach(function (h) {
          note(h.name, RANK.hook);
          note(h.const, RANK.hook);
          [h.summary, h.description].concat((h.params || []).map(function (pa) {
            return pa.name + " " + pa.type + " " + pa.description;
          })).forEach(function (f) { note(f, RANK.line); });
        });
      });
      return {
        count: pages.length,
        lookup: function (w) {
          var out = ranks(pages.length);
          dict.forEach(function (m, t) {
            if (!hit(w, t)) return;
            m.forEach(function (r, id) { if (r < out[id]) out[id] = r; });
          });
          return Promise.resolve(out);
        },
        page: function (id) { return Promise.resolve(pages[id]); }
      };
    });
  }

  // The index of the page's wiki, loaded once, when first needed: the
  // manifest at url, or where there is none (a live preview), the whole
  // index at pagesUrl. load.prefetch fetches the manifest alone (a few
  // hundred bytes), which the box does once the page has loaded, so that
  // the first keystroke does not wait for it.
  var manifests = {};
  var loading = {};
  function manifest(url) {
    if (!manifests[url]) {
      manifests[url] = getJSON(url);
      manifests[url].catch(function () { delete manifests[url]; }); // a later try may work
    }
    return manifests[url];
  }
  function indexLoader(url, pagesUrl) {
    var load = function () {
      if (!loading[url]) {
        loading[url] = manifest(url).then(function (man) { return pieces(url, man); }, function (err) {
          if (err.status === 404 && pagesUrl) return whole(pagesUrl);
          throw err;
        });
        loading[url].catch(function () { delete loading[url]; }); // a later try may work
      }
      return loading[url];
    };
    load.prefetch = function () { manifest(url).catch(function () { /* said when searching */ }); };
    return load;
  }

  // --- Matching and ranking. ---

  // The pages holding every word of q, best first: [{ id, rank }], a page's
  // rank the worst of its words' best ranks (all in the title: a title hit),
  // pages of the same rank in path order (ID order, so no sort: one pass
  // over the IDs puts each in its rank's list). None when stale() says
  // a later query overtook q: the shards a word needs are fetched once, and
  // when they come every query waiting for them would otherwise go through
  // their postings (a one-letter prefix's are most of three shards), one
  // after another, before the last query typed.
  function candidates(src, q, stale) {
    if (!q.words.length) return Promise.resolve([]);
    return Promise.all(q.words.map(function (w) { return src.lookup(w, stale); })).then(function (lists) {
      if (stale && stale()) return [];
      var byRank = [[], [], [], []];
      for (var id = 0; id < src.count; id++) {
        var rank = 0;
        for (var i = 0; i < lists.length && rank !== NONE; i++) if (lists[i][id] > rank) rank = lists[i][id];
        if (rank !== NONE) byRank[rank].push({ id: id, rank: rank });
      }
      return [].concat.apply([], byRank);
    });
  }

  // The results of one page for matcher m, in rank order (a hook's own
  // entry, the title, headings, lines; the same rank in document order):
  // the parts holding every word of the query, or where none does (the words
  // are in different lines), those holding any. Items: { rank, label, code
  // (the label is code), text, codeLine (the text is a line of code, shown
  // as is), href }.
  function pageItems(page, m) {
    var items = collect(page, m.all);
    if (!items.length) {
      // Each holds part of the query only: none is a title or hook hit, and
      // the page ranks after those whose parts hold all of it.
      items = collect(page, m.any);
      items.forEach(function (it) { it.rank = RANK.line; it.partial = true; });
    }
    items.sort(function (a, b) { return a.rank - b.rank || a.order - b.order; });
    return items;
  }

  function collect(page, has) {
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
    (page.lines || []).forEach(function (raw, i) {
      if (!has(raw)) return;
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
    return items;
  }

  // A page's rank among those fetched together is that of its best result
  // (items[0]); pages whose results hold only part of the query go last.
  function byBest(a, b) {
    return (a.items[0].partial ? 1 : 0) - (b.items[0].partial ? 1 : 0) || a.items[0].rank - b.items[0].rank;
  }

  // The results of query text in src, fetched a few pages at a time:
  // more(n) fetches the excerpt data of the next pages until n more of them
  // show results (a page can fail a quoted phrase) or none are left. While
  // they come, progress (when given) is told the groups of each run of
  // pages that came in order, with those of the earlier runs: the first
  // results can show when the best page came, not when the slowest did
  // (the browser fetches six at a time, and on a 19,000-page wiki the last
  // of eight came 30 to 90 ms after the first). stale, when given, says the
  // query was overtaken (see candidates).
  function results(src, text, stale) {
    var q = parseQuery(text);
    var m = matcher(q);
    return candidates(src, q, stale).then(function (list) {
      var r = { m: m, total: list.length, groups: [], done: list.length === 0, exact: !q.phrases.length };
      var next = 0;
      r.more = function (n, progress) {
        var shown = [];
        function step() {
          var need = n - shown.length;
          if (need <= 0 || next >= list.length) {
            r.done = next >= list.length;
            if (r.done && !r.exact) { r.total = r.groups.length + shown.length; r.exact = true; }
            shown.sort(byBest);
            r.groups = r.groups.concat(shown);
            return Promise.resolve(shown);
          }
          var batch = list.slice(next, next + need);
          next += batch.length;
          var got = new Array(batch.length); // a group, or null: the page came, with no results
          var ready = 0; // got[0..ready) have all come
          return Promise.all(batch.map(function (c, i) {
            return src.page(c.id).then(function (page) {
              var items = pageItems(page, m);
              got[i] = items.length ? { page: page, items: items } : null;
              var from = ready;
              while (ready < got.length && got[ready] !== undefined) ready++;
              if (progress && ready > from) progress(shown.concat(got.slice(0, ready).filter(Boolean)).sort(byBest));
            });
          })).then(function () {
            got.forEach(function (g) { if (g) shown.push(g); });
            return step();
          });
        }
        return step();
      };
      return r;
    });
  }

  function el(tag, cls, text) {
    var e = document.createElement(tag);
    if (cls) e.className = cls;
    if (text != null) e.textContent = text;
    return e;
  }

  // text with the query's words marked (unless m is null), cut to a window
  // around the first when long.
  function marked(cls, text, m) {
    var span = el("span", cls);
    var spans = m ? m.spans(text) : [];
    var at = spans.length ? spans[0].at : -1;
    var start = 0;
    var end = text.length;
    if (text.length > SNIPPET) {
      start = Math.max(0, (at < 0 ? 0 : at) - Math.floor(SNIPPET / 3));
      end = Math.min(text.length, start + SNIPPET);
      start = Math.max(0, Math.min(start, end - SNIPPET));
      while (start > 0 && start < at && !/\s/.test(text.charAt(start - 1))) start++; // from a word
    }
    var from = start;
    var out = start > 0 ? "…" : "";
    spans.forEach(function (s) {
      if (s.at < from || s.end > end) return;
      span.appendChild(document.createTextNode(out + text.slice(from, s.at)));
      span.appendChild(el("mark", null, text.slice(s.at, s.end)));
      out = "";
      from = s.end;
    });
    span.appendChild(document.createTextNode(out + text.slice(from, end) + (end < text.length ? "…" : "")));
    return span;
  }

  // One result: its label (a hook's name, a title, a heading, or the
  // heading trail of a line) and a plain-text snippet.
  function hitLink(item, m) {
    var a = el("a", "search-hit");
    a.href = item.href;
    a.dataset.q = m.query.text;
    a.dataset.rank = Object.keys(RANK)[item.rank];
    var line = item.rank === RANK.line;
    var label = marked("hit-label", item.label, line ? null : m);
    if (item.code) label.classList.add("hit-code");
    a.appendChild(label);
    if (item.text) a.appendChild(marked(item.codeLine ? "hit-line hit-code" : "hit-line", item.text, line ? m : null));
    return a;
  }

  // Renders results into box: each page a group headed by its title and
  // path, at most maxItems of its items. Returns the links in order.
  function renderGroups(box, groups, m, maxItems, option, first) {
    var links = [];
    groups.forEach(function (g, gi) {
      var group = el("div", "search-group");
      var head = el("div", "search-group-head");
      head.id = box.id + "-group-" + ((first || 0) + gi);
      head.appendChild(el("span", "search-group-title", g.page.title));
      head.appendChild(el("span", "hit-path", g.page.path));
      group.appendChild(head);
      if (option) {
        group.setAttribute("role", "group");
        group.setAttribute("aria-labelledby", head.id);
        head.setAttribute("role", "presentation");
      }
      g.items.slice(0, maxItems).forEach(function (item) {
        var a = hitLink(item, m);
        if (option) {
          a.id = box.id + "-option-" + ((first || 0) + links.length);
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
    var load = indexLoader(form.dataset.index, form.dataset.pages);
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

    // Shows groups, the results of query so far (final: all of them, and
    // the status says how many).
    function show(query, r, groups, final) {
      var n = groups.length ? r.total : 0;
      list.textContent = "";
      options = renderGroups(list, groups, r.m, MAX_GROUP_ITEMS, true);
      var all = el("a", "search-all", n ? "All results on the search page (" + pages(n, r.exact) + ")" : "No matches for “" + query + "”");
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
      if (final) status.textContent = summary(n, r.exact, query);
    }

    function update() {
      var query = input.value;
      var ask = ++asked;
      if (!query.trim()) { close(); status.textContent = ""; return; }
      load().then(function (src) {
        if (ask !== asked) return null; // a later keystroke won
        return results(src, query, function () { return ask !== asked; }).then(function (r) {
          if (ask !== asked) return null;
          // The groups that came so far, once there are some (the browser
          // lays the dropdown out once a frame, however often it changed).
          var progress = function (groups) {
            if (ask === asked && groups.length) show(query, r, groups, false);
          };
          return r.more(MAX_GROUPS, progress).then(function () { return r; });
        });
      }).then(function (r) {
        if (!r || ask !== asked) return;
        show(query, r, r.groups, true);
      }, function (err) {
        status.textContent = "The search index could not be loaded (" + err.message + ").";
      });
    }

    input.addEventListener("input", update);
    var idle = window.requestIdleCallback || setTimeout;
    if (document.readyState === "complete") idle(load.prefetch);
    else window.addEventListener("load", function () { idle(load.prefetch); });
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

  // "12 pages", or "up to 12 pages" while a quoted phrase may rule some out.
  function pages(n, exact) {
    return (exact ? "" : "up to ") + n + (n === 1 ? " page" : " pages");
  }

  function summary(n, exact, query) {
    var s = pages(n, exact) + " with results.";
    return n === 0 ? "No matches for “" + query + "”." : s.charAt(0).toUpperCase() + s.slice(1);
  }

  var PAGE_GROUPS = 20;

  // The search page: every result, grouped by page, in the same order,
  // twenty pages at a time.
  function setupSearchPage() {
    var box = document.getElementById("search-results");
    if (!box) return;
    var input = document.getElementById("search-input");
    var status = document.getElementById("search-status");
    var header = document.querySelector(".search-form input");
    var load = indexLoader(box.dataset.index, box.dataset.pages);
    var asked = 0;

    function render(src, query) {
      var ask = ++asked;
      box.textContent = "";
      if (!query.trim()) { status.textContent = "Type to search every word of every page."; return; }
      results(src, query).then(function (r) {
        var more = el("button", "search-more-pages", "More results");
        more.type = "button";
        function show() {
          more.disabled = true;
          return r.more(PAGE_GROUPS).then(function (shown) {
            if (ask !== asked) return;
            more.remove();
            renderGroups(box, shown, r.m, Infinity, false, r.groups.length - shown.length);
            var n = r.groups.length ? r.total : 0;
            status.textContent = summary(n, r.exact, query);
            if (!r.done) {
              more.disabled = false;
              box.appendChild(more);
            }
          });
        }
        more.addEventListener("click", show);
        return ask === asked && show();
      }).catch(function (err) {
        status.textContent = "The search failed (" + err.message + ").";
      });
    }

    var initial = new URLSearchParams(window.location.search).get("q") || "";
    input.value = initial;
    if (header) header.value = initial;
    status.textContent = "Loading the search index…";
    load().then(function (src) {
      render(src, input.value);
      input.addEventListener("input", function () {
        var url = new URL(window.location.href);
        if (input.value) url.searchParams.set("q", input.value); else url.searchParams.delete("q");
        history.replaceState(null, "", url);
        render(src, input.value);
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
