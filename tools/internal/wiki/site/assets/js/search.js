// The modkit wiki's search: the combobox in the top bar, the search page, and
// the highlight of the searched words on the page a result leads to.
//
// It ranks as the server's mod_ask_docs does, by the rules written in
// docs/server/ranking.md, with what a static index holds: the words of a
// query and of the pages are cut alike (an exact port of package
// mcp-server/terms below), stop words and question words carry no weight,
// and each section of a page (a heading's own text) is scored with BM25F
// (its body, its heading, the headings above it, the page's title and
// file name), times the share of the query it holds. A page ranks by its
// best section, pages of equal score in path order; a hook whose own name
// holds the words comes first of all. The last word also matches longer
// words that begin with it while it is typed; a quoted "exact phrase" must
// appear as written.
//
// The index comes in pieces (the wiki command writes them, searchindex.go):
// a small manifest first, then only the shards of the dictionary the query's
// words fall in, then the excerpt data (Markdown lines, headings) of the
// pages shown.
(function () {
  "use strict";

  // --- Words: mcp-server/terms's Each, ported exactly (searchindex_test.go
  // runs both over the docs and every code point). ---

  // The letters and digits of Unicode versions newer than Go's tables
  // (15.0), which this browser may know: not word characters to Go, so not
  // here either, or a query would hold words the index cannot.
  var NEWER = /[\u{88f}\u{c5c}\u{cdc}\u{1c89}-\u{1c8a}\u{a7cb}-\u{a7cf}\u{a7d2}\u{a7d4}\u{a7da}-\u{a7dc}\u{a7f1}\u{105c0}-\u{105f3}\u{10940}-\u{10959}\u{10d40}-\u{10d65}\u{10d6f}-\u{10d85}\u{10ec2}-\u{10ec7}\u{11380}-\u{11389}\u{1138b}\u{1138e}\u{11390}-\u{113b5}\u{113b7}\u{113d1}\u{113d3}\u{116d0}-\u{116e3}\u{11bc0}-\u{11be0}\u{11bf0}-\u{11bf9}\u{11db0}-\u{11ddb}\u{11de0}-\u{11de9}\u{13460}-\u{143fa}\u{16100}-\u{1611d}\u{16130}-\u{16139}\u{16d40}-\u{16d6c}\u{16d70}-\u{16d79}\u{16ea0}-\u{16eb8}\u{16ebb}-\u{16ed3}\u{16ff2}-\u{16ff3}\u{187f8}-\u{187ff}\u{18cff}\u{18d09}-\u{18d1e}\u{18d80}-\u{18df2}\u{1ccf0}-\u{1ccf9}\u{1e5d0}-\u{1e5ed}\u{1e5f0}-\u{1e5fa}\u{1e6c0}-\u{1e6de}\u{1e6e0}-\u{1e6e2}\u{1e6e4}-\u{1e6e5}\u{1e6e7}-\u{1e6ed}\u{1e6f0}-\u{1e6f4}\u{1e6fe}-\u{1e6ff}\u{2b73a}-\u{2b73f}\u{2cea2}-\u{2cead}\u{2ebf0}-\u{2ee5d}\u{323b0}-\u{33479}]/u;
  var LETTER = /\p{L}/u, DIGIT = /\p{Nd}/u, UPPER = /\p{Lu}/u, LOWER = /\p{Ll}/u;
  var IS_LETTER = 1, IS_DIGIT = 2, IS_UPPER = 4, IS_LOWER = 8;
  var classes = new Map(); // code point beyond ASCII: its class, as Go's unicode package says

  // The class of code point cp: IsLetter, IsDigit, IsUpper, IsLower of Go's
  // unicode package.
  function classOf(cp) {
    if (cp < 128) {
      if (cp >= 97 && cp <= 122) return IS_LETTER | IS_LOWER;
      if (cp >= 65 && cp <= 90) return IS_LETTER | IS_UPPER;
      return cp >= 48 && cp <= 57 ? IS_DIGIT : 0;
    }
    var c = classes.get(cp);
    if (c === undefined) {
      var s = String.fromCodePoint(cp);
      c = 0;
      if (!NEWER.test(s)) {
        if (LETTER.test(s)) c |= IS_LETTER;
        if (DIGIT.test(s)) c |= IS_DIGIT;
        if (UPPER.test(s)) c |= IS_UPPER;
        if (LOWER.test(s) || cp === 0x295) c |= IS_LOWER; // ʕ: lower case to Unicode 15, a plain letter since 16
      }
      if (classes.size < 1 << 14) classes.set(cp, c);
    }
    return c;
  }

  function isWordCp(cp) { return cp === 95 || (classOf(cp) & (IS_LETTER | IS_DIGIT)) !== 0; }

  // ch (one code point) lower-cased as Go's unicode.ToLower does: one code
  // point for one (İ is i, not i and a combining dot).
  function lowerChar(ch, cp) {
    if (cp < 128) return cp >= 65 && cp <= 90 ? String.fromCharCode(cp + 32) : ch;
    return cp === 0x130 ? "i" : ch.toLowerCase();
  }

  // The bytes of cp in UTF-8 (a lone surrogate as Go's U+FFFD).
  function utf8Len(cp) { return cp < 0x80 ? 1 : cp < 0x800 ? 2 : cp < 0x10000 ? 3 : 4; }

  var MAX_WORD_BYTES = 64;

  var STOP = new Set((
    "a an the this that these those there here " +
    "i me my mine we us our you your yours he him his she her it its they them their " +
    "am is are was were be been being do does did doing done have has had having " +
    "will would shall should can could may might must " +
    "what which who whom whose when where why how whether " +
    "and or but nor not no yes so than too very just also only " +
    "of in on at by for with from to into onto about over under between through during " +
    "as if then else any all some each every both either neither " +
    "up down out off again further once " +
    "get got gets getting make makes made want wants need needs use using " +
    "please thing things way ways something anything").split(" "));

  // s folded (terms.fold): without leading and trailing "_", lower-cased;
  // null for a word that carries no weight (one character, more than 64
  // bytes, a stop word unless it is a name: names).
  function fold(s, names) {
    var a = 0, b = s.length;
    while (a < b && s.charCodeAt(a) === 95) a++;
    while (b > a && s.charCodeAt(b - 1) === 95) b--;
    var bytes = 0, runes = 0, out = "";
    for (var ch of s.slice(a, b)) {
      var cp = ch.codePointAt(0);
      bytes += utf8Len(cp);
      runes++;
      out += lowerChar(ch, cp);
    }
    if (bytes > MAX_WORD_BYTES || runes < 2 || (!names && STOP.has(out))) return null;
    return out;
  }

  function byteLen(s) {
    var n = 0;
    for (var ch of s) n += utf8Len(ch.codePointAt(0));
    return n;
  }

  function ends(w, suffix) { return w.length >= suffix.length && w.slice(-suffix.length) === suffix; }

  // terms.stem: the commonest English endings off a plain word (lengths in
  // UTF-8 bytes, as Go counts them).
  function stem(w) {
    var n = byteLen(w);
    if (n < 4 || /[0-9]/.test(w)) return w;
    if (ends(w, "ies") && n > 4) return w.slice(0, -3) + "y";
    if (ends(w, "sses")) return w.slice(0, -2);
    if (ends(w, "ing") && n > 5) w = undouble(w.slice(0, -3));
    else if (ends(w, "ed") && n > 5 && !ends(w, "eed")) w = undouble(w.slice(0, -2));
    else if (ends(w, "ches") || ends(w, "shes") || ends(w, "xes")) return w.slice(0, -2);
    else if (ends(w, "s") && !ends(w, "ss") && !ends(w, "us") && !ends(w, "is")) w = w.slice(0, -1);
    if (byteLen(w) > 4 && w.slice(-1) === "e") w = w.slice(0, -1);
    if (ends(w, "ll") && measure(w) > 1) w = w.slice(0, -1);
    return w;
  }

  // terms.measure: Porter's m of an ASCII word (a vowel followed by a
  // consonant, y a vowel after a consonant); 0 for any other word.
  function measure(w) {
    var m = 0, vowel = false;
    for (var i = 0; i < w.length; i++) {
      var c = w.charAt(i);
      if (w.charCodeAt(i) >= 0x80) return 0;
      var v = "aeiou".indexOf(c) >= 0 || (c === "y" && i > 0 && !vowel);
      if (vowel && !v) m++;
      vowel = v;
    }
    return m;
  }

  // terms.undouble: a doubled final ASCII consonant off (stopp, stop); a
  // letter of several bytes is never cut.
  function undouble(w) {
    if (byteLen(w) < 3) return w;
    var chars = Array.from(w);
    var last = chars[chars.length - 1];
    if (last.codePointAt(0) >= 0x80) return w;
    return chars[chars.length - 2] === last && "aeiouls".indexOf(last) < 0 ? w.slice(0, -1) : w;
  }

  // terms.hasCaseChange: a lower-case letter followed by an upper-case one.
  function hasCaseChange(s) {
    var prev = 0;
    for (var ch of s) {
      var cp = ch.codePointAt(0);
      if ((classOf(cp) & IS_UPPER) && (classOf(prev) & IS_LOWER)) return true;
      prev = cp;
    }
    return false;
  }

  // terms.parts: f(from, to) with each part of identifier s, the runs of
  // letters and digits, cut again where a lower-case letter or a digit is
  // followed by an upper-case one.
  function parts(s, f) {
    var start = -1, prev = 0, i = 0;
    for (var ch of s) {
      var cp = ch.codePointAt(0), c = classOf(cp);
      if (!(c & (IS_LETTER | IS_DIGIT))) {
        if (start >= 0) f(start, i);
        start = -1;
      } else if (start < 0) {
        start = i;
      } else if ((c & IS_UPPER) && (classOf(prev) & (IS_LOWER | IS_DIGIT))) {
        f(start, i);
        start = i;
      }
      prev = cp;
      i += ch.length;
    }
    if (start >= 0) f(start, s.length);
  }

  // terms.Each: f({ text, folded, ident, part, at, end }) with each word of
  // text, an identifier before its parts; text is the word as the index has
  // it (a plain word or a part stemmed), folded before stemming, at and end
  // where it is in text.
  function eachWord(text, f) {
    var n = text.length;
    var code = -1; // where the code span the words are in ends, -1 outside one
    for (var i = 0; i < n;) {
      var cp = text.codePointAt(i), w = cp > 0xffff ? 2 : 1;
      if (cp === 96) { // a code span opens, or closes at its end
        var run = backticks(text, i);
        if (i === code) code = -1;
        else if (code < 0) code = codeSpanEnd(text, i + run, run);
        i += run;
        continue;
      }
      if (!isWordCp(cp)) { i += w; continue; }
      // The run of word characters and joiners, a joiner only between two
      // letters or digits.
      var start = i, end = i + w, joined = cp === 95;
      while (end < n) {
        var c = text.codePointAt(end), cw = c > 0xffff ? 2 : 1;
        if (isWordCp(c)) {
          joined = joined || c === 95;
          end += cw;
          continue;
        }
        if ((c === 46 || c === 45 || c === 58 || c === 47) && end + 1 < n) {
          var next = end + 1;
          if (c === 58 && text.charCodeAt(next) === 58 && next + 1 < n) next++; // std::vector
          var nc = text.codePointAt(next);
          if (isWordCp(nc) && nc !== 95) {
            joined = true;
            end = next;
            continue;
          }
        }
        break;
      }
      emit(text, start, end, joined, code >= 0, f);
      i = end;
    }
  }

  // terms.backticks: the length of the run of backticks at text[i].
  function backticks(text, i) {
    var n = 0;
    while (i + n < text.length && text.charCodeAt(i + n) === 96) n++;
    return n;
  }

  // terms.codeSpanEnd: where the code span whose text starts at from ends,
  // at the next run of exactly n backticks; -1 when there is none.
  function codeSpanEnd(text, from, n) {
    for (var i = from; i < text.length;) {
      var j = text.indexOf("`", i);
      if (j < 0) return -1;
      var run = backticks(text, j);
      if (run === n) return j;
      i = j + run;
    }
    return -1;
  }

  // terms.emit: a stop word in a code span, or an identifier's part, is a
  // name, and kept.
  function emit(text, start, end, joined, code, f) {
    var s = text.slice(start, end);
    if (!joined && !hasCaseChange(s)) {
      var w = fold(s, code);
      if (w !== null) f({ text: stem(w), folded: w, ident: false, part: false, at: start, end: end });
      return;
    }
    var id = fold(s, false);
    if (id !== null) f({ text: id, folded: id, ident: true, part: false, at: start, end: end });
    parts(s, function (a, b) {
      var p = fold(s.slice(a, b), id !== null || code);
      if (p !== null) f({ text: stem(p), folded: p, ident: false, part: id !== null, at: start + a, end: start + b });
    });
  }

  // terms.Prose: a line without the destinations of its links and images.
  function prose(line) {
    var i = line.indexOf("](");
    if (i < 0) return line;
    var out = "";
    while (i >= 0) {
      out += line.slice(0, i + 1);
      var rest = line.slice(i + 2);
      var end = rest.indexOf(")");
      if (end < 0) { line = rest; break; }
      line = rest.slice(end + 1);
      i = line.indexOf("](");
    }
    return out + line;
  }

  // --- Queries. ---

  // The weights of ranking.md: an identifier or a code in the query, one of its
  // parts, a longer word the last word begins while it is typed.
  var WEIGHT_IDENT = 2, WEIGHT_PART = 0.5, WEIGHT_PREFIX = 0.5;
  var MAX_TERMS = 64;

  // The words of a quoted phrase, or of a text it is looked for in: every
  // run of letters and digits, stop words and single letters too, folded
  // and stemmed.
  function phraseWords(text) {
    var out = [];
    var run = "";
    var flush = function () {
      if (run) out.push(stem(run));
      run = "";
    };
    for (var ch of text) {
      var cp = ch.codePointAt(0);
      if (classOf(cp) & (IS_LETTER | IS_DIGIT)) run += lowerChar(ch, cp);
      else flush();
    }
    flush();
    return out;
  }

  // A query as the server's rank.Parse cuts a question: its terms (each
  // word, identifier and part once, with its weight and the group, the word
  // of the query, it counts for) and groups; the words the last word may
  // begin while it is typed (prefix), and its quoted phrases. When the last
  // word, unfinished, is no word yet (one letter, a stop word: "h", "ho",
  // "how" on the way to "however"), it is looked for as a beginning only,
  // weighed but not counted among the words a page must hold.
  function parseQuery(text) {
    var q = { text: text, terms: [], groups: [], phrases: [] };
    text.replace(/"([^"]*)("|$)/g, function (_, p) {
      var ws = phraseWords(p);
      if (ws.length > 1) q.phrases.push(ws);
      return "";
    });
    var plain = text.replace(/"/g, " ");
    // The last word is unfinished unless a space or a quote follows it
    // (or only joiners: "player." on the way to "player.joined").
    var tail = /[\s"]$/.test(text) ? -1 : plain.replace(/[.\-:\/]+$/, "").length;
    var ident = null; // the last identifier's span
    eachWord(plain, function (w) {
      if (q.terms.length === MAX_TERMS) return;
      var t = { text: w.text, folded: w.folded, weight: 1, part: w.part, prefix: w.end === tail, group: 0 };
      if (t.part) {
        t.weight = WEIGHT_PART;
      } else {
        if (w.ident) ident = w;
        if (w.ident || isCode(w.text)) t.weight = WEIGHT_IDENT;
        q.groups.push(w.text);
      }
      t.group = q.groups.length - 1;
      addTerm(q, t);
    });
    // Words typed, none of which weighs ("how ", "the "): said, not searched.
    q.common = !q.terms.length && phraseWords(plain).length > 0;
    if (tail > 0 && !q.terms.some(function (t) { return t.prefix; })) {
      var from = tail;
      while (from > 0) {
        var c = plain.codePointAt(from - 1);
        if (c >= 0xdc00 && c <= 0xdfff && from > 1) c = plain.codePointAt(from - 2);
        if (!isWordCp(c)) break;
        from -= c > 0xffff ? 2 : 1;
      }
      var last = "";
      for (var ch of plain.slice(from, tail).replace(/^_+|_+$/g, "")) last += lowerChar(ch, ch.codePointAt(0));
      if (last && byteLen(last) <= MAX_WORD_BYTES && q.terms.length < MAX_TERMS) {
        addTerm(q, { text: last, folded: last, weight: 1, part: false, prefix: true, group: -1 });
      }
    }
    return q;
  }

  // rank.isCode: a plain word of letters and digits (C2065, LNK1104, x64),
  // an error code or a name, weighs as an identifier.
  function isCode(w) {
    var letter = false, digit = false;
    for (var ch of w) {
      var c = classOf(ch.codePointAt(0));
      if (c & IS_DIGIT) digit = true;
      else if (c & IS_LETTER) letter = true;
    }
    return letter && digit;
  }

  // addTerm adds t to q, or raises the weight of the same word met before.
  function addTerm(q, t) {
    for (var i = 0; i < q.terms.length; i++) {
      var o = q.terms[i];
      if (o.text === t.text) {
        o.weight = Math.max(o.weight, t.weight);
        o.prefix = o.prefix && t.prefix;
        return;
      }
    }
    q.terms.push(t);
  }

  // How much an index term m counts for query term t: 1 for the word
  // itself, WEIGHT_PREFIX for a longer word the unfinished last word
  // begins, 0 for any other.
  function matchOf(t, m) {
    if (m === t.text) return 1;
    return t.prefix && m.length > t.folded.length && m.lastIndexOf(t.folded, 0) === 0 ? WEIGHT_PREFIX : 0;
  }

  // Whether the terms held (held[i] for q.terms[i]) hold group g: its word,
  // or every one of its parts.
  function holdsGroup(q, held, g) {
    var parts = 0, partsHeld = 0;
    for (var i = 0; i < q.terms.length; i++) {
      var t = q.terms[i];
      if (t.group !== g) continue;
      if (!t.part) { if (held[i]) return true; } else { parts++; if (held[i]) partsHeld++; }
    }
    return parts > 0 && partsHeld === parts;
  }

  // A matcher for a query: whether a text holds all its words (every group
  // the index holds, see rank; and the phrases), any of them, and where
  // they are (for marking).
  function matcher(q) {
    function has(ws, phrase) {
      outer: for (var i = 0; i + phrase.length <= ws.length; i++) {
        for (var j = 0; j < phrase.length; j++) if (ws[i + j] !== phrase[j]) continue outer;
        return true;
      }
      return false;
    }
    function heldIn(text) {
      var held = new Array(q.terms.length).fill(false);
      eachWord(text, function (w) {
        for (var i = 0; i < q.terms.length; i++) if (!held[i] && matchOf(q.terms[i], w.text)) held[i] = true;
      });
      return held;
    }
    return {
      query: q,
      all: function (text) {
        if (!text) return false;
        var held = heldIn(text);
        var groups = q.live || q.groups.map(function (_, g) { return g; });
        if (!groups.length && !held.some(Boolean)) return false;
        if (!groups.every(function (g) { return holdsGroup(q, held, g); })) return false;
        if (!q.phrases.length) return true;
        var ws = phraseWords(text);
        return q.phrases.every(function (p) { return has(ws, p); });
      },
      any: function (text) {
        if (!text || q.phrases.length) return false;
        return heldIn(text).some(Boolean);
      },
      // The words of text that the query's terms match: an identifier
      // whole, else its parts.
      spans: function (text) {
        var out = [];
        var whole = null;
        eachWord(text || "", function (w) {
          if (w.part && whole && w.at >= whole.at && w.end <= whole.end) return;
          if (q.terms.some(function (t) { return matchOf(t, w.text) > 0; })) {
            out.push({ at: w.at, end: w.end });
            if (w.ident) whole = w;
          }
        });
        return out;
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

  // ATX headings outside code fences, as the Markdown renderer sees them
  // (and searchindex.go: "[^\n]" and "[\t\n\f\r ]" are Go's "." and "\s").
  var headingRe = /^ {0,3}(#{1,6})(?:[ \t]+([^\n]*?))?(?:[ \t]+#+)?[ \t]*$/;
  var fenceRe = /^ {0,3}(`{3,}|~{3,})/;
  var explicitIdRe = /[\t\n\f\r ]*\{#([^}\t\n\f\r ]+)\}[\t\n\f\r ]*$/;

  // The headings of lines ({ at, level, text }, the text as written) and
  // which lines are code (code fences hide their contents): a page's
  // sections, numbered as searchindex.go numbers them (section k is the text
  // under the k-th heading, section 0 the text above the first).
  function headingsOf(lines, code) {
    var found = [];
    var fence = null;
    lines.forEach(function (line, i) {
      var f = fenceRe.exec(line);
      if (code) code[i] = fence !== null || !!f;
      if (f) {
        if (!fence) fence = f[1].charAt(0);
        else if (f[1].charAt(0) === fence) fence = null;
      } else if (!fence) {
        var h = headingRe.exec(line);
        if (h) found.push({ at: i, level: h[1].length, text: (h[2] || "").replace(explicitIdRe, ""), raw: h[2] || "" });
      }
    });
    return found;
  }

  // Annotates every line of a page, once: the trail of headings above it
  // (with the anchor of each, from the site's ids in document order), whether
  // it is a heading, whether it is inside a code fence, and its section.
  function annotate(page) {
    if (page.annotated) return page.annotated;
    var lines = page.lines || [];
    var ids = page.headings || [];
    var code = [];
    var found = headingsOf(lines, code);
    // The site's ids line up with ours only when both saw the same headings.
    var useIds = found.length === ids.length;
    var trail = [];
    var trails = [];
    var heading = [];
    var sec = [];
    var next = 0;
    for (var i = 0; i < lines.length; i++) {
      if (next < found.length && found[next].at === i) {
        var h = found[next];
        var text = h.raw;
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
      sec.push(next);
    }
    page.annotated = { trails: trails, heading: heading, code: code, sec: sec, useIds: useIds };
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

  // The pieces the wiki command writes (searchindex.go), each named by its
  // content: each shard, page table and page fetched once, when a query
  // first needs it.
  function pieces(url, man) {
    var base = new URL(".", new URL(url, location.href)).href;
    var shards = {};
    var tables = {};
    var pages = new Map();
    // A piece gone missing: the wiki was rebuilt or edited a while after
    // the manifest was read. The next query reads the new manifest.
    function stale(err) {
      if (err.status === 404) { delete loading[url]; delete manifests[url]; }
    }
    function shard(i) {
      if (!shards[i]) {
        shards[i] = getJSON(base + "t/" + man.shardFiles[i] + ".json");
        shards[i].catch(function (err) { delete shards[i]; stale(err); });
      }
      return shards[i];
    }
    function table(k) { // the names of the pages' excerpts, pageTable IDs from k*pageTable
      if (!tables[k]) {
        tables[k] = getJSON(base + "n/" + man.pageTables[k] + ".json");
        tables[k].catch(function (err) { delete tables[k]; stale(err); });
      }
      return tables[k];
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
      sections: man.sections,
      // The postings of the index terms query term t matches (see
      // postings); none when stale() says the query was overtaken.
      lookup: function (t, stale) {
        var wanted = {};
        wanted[shardOf(t.text)] = true;
        if (t.prefix) {
          var from = shardOf(t.folded), to = from;
          while (to + 1 < man.shards.length && startsWith(man.shards[to + 1], t.folded)) to++;
          for (var i = from; i <= Math.min(to, from + MAX_PREFIX_SHARDS - 1); i++) wanted[i] = true;
        }
        return Promise.all(Object.keys(wanted).map(shard)).then(function (got) {
          var out = [];
          if (stale && stale()) return out;
          got.forEach(function (s) {
            for (var i = 0; i < s.terms.length; i++) {
              var f = matchOf(t, s.terms[i]);
              if (f) out.push({ factor: f, sections: s.sections[i], fields: s.fields[i] });
            }
          });
          return out;
        });
      },
      page: function (id) {
        var p = pages.get(id);
        if (!p) {
          p = table(Math.floor(id / man.pageTable)).then(function (names) {
            return getJSON(base + "p/" + names[id % man.pageTable] + ".json");
          });
          p.catch(function (err) { pages.delete(id); stale(err); });
          pages.set(id, p);
          if (pages.size > PAGE_CACHE) pages.delete(pages.keys().next().value);
        }
        return p;
      }
    };
  }

  // --- The index, made here from every page at once (a live preview), as
  // searchindex.go makes it. ---

  // A word's place in a section (searchindex.go): section<<8 | fields<<4 |
  // its count in the body as BM25 weighs it, in fifteenths.
  var PLACE_HEADING = 1, PLACE_TRAIL = 2, PLACE_HOOK = 4, PLACE_INTRO = 8, PLACE_COUNT = 15;
  var FIELD_TITLE = 1, FIELD_FILE_NAME = 2;
  var BM25_K1 = 1.2, BM25_B = 0.75;

  // The words of page p (searchindex.go's wordsOf): { sections: [{ words:
  // Map of term to { count, fields }, body, intro }], fields: Map of term
  // to fields }.
  function wordsOf(p) {
    var pw = { sections: [], fields: new Map() };
    var field = function (text, f) {
      eachWord(text || "", function (w) { pw.fields.set(w.text, (pw.fields.get(w.text) || 0) | f); });
    };
    field(p.title, FIELD_TITLE);
    var file = (p.path || "").replace(/^.*\//, ""), dot = file.lastIndexOf(".");
    field(dot >= 0 ? file.slice(0, dot) : file, FIELD_FILE_NAME);
    var cur = { words: new Map(), body: 0, intro: false };
    var note = function (text, fields) {
      eachWord(prose(text || ""), function (w) {
        var wp = cur.words.get(w.text);
        if (!wp) cur.words.set(w.text, wp = { count: 0, fields: 0 });
        wp.fields |= fields;
      });
    };
    var body = function (text) {
      eachWord(prose(text || ""), function (w) {
        var wp = cur.words.get(w.text);
        if (!wp) cur.words.set(w.text, wp = { count: 0, fields: 0 });
        wp.count++;
        cur.body++;
      });
    };
    var next = function () {
      pw.sections.push(cur);
      cur = { words: new Map(), body: 0, intro: false };
    };
    if (p.hooks && p.hooks.length) {
      p.hooks.forEach(function (h) {
        next();
        note(h.name, PLACE_HEADING | PLACE_HOOK);
        note(h.const, PLACE_HEADING | PLACE_HOOK);
        body(h.summary);
        body(h.description);
        (h.params || []).forEach(function (pa) { body(pa.name + " " + pa.type + " " + pa.description); });
      });
      next();
      return pw;
    }
    var lines = p.lines || [];
    var hs = headingsOf(lines);
    var trail = [];
    var h = 0;
    for (var i = 0; i < lines.length; i++) {
      if (h < hs.length && hs[h].at === i) {
        next();
        var hd = hs[h++];
        trail[hd.level] = hd.text;
        for (var lv = hd.level + 1; lv < 7; lv++) trail[lv] = "";
        if (hd.level === 1) cur.intro = h < hs.length;
        note(hd.text, hd.level === 1 ? 0 : PLACE_HEADING);
        for (lv = 2; lv < hd.level; lv++) note(trail[lv], PLACE_TRAIL);
        continue;
      }
      body(lines[i]);
    }
    next();
    pw.sections[0].intro = hs.length > 0;
    return pw;
  }

  // The place of a word counted count times in a section of body words,
  // avg the sections' average (searchindex.go's place).
  function placeOf(sec, fields, count, body, avg) {
    var q = 0;
    if (count > 0) {
      var tf = Math.min(count, 255) / (1 - BM25_B + BM25_B * Math.min(body, 65535) / avg);
      q = Math.min(Math.max(Math.round(tf / (BM25_K1 + tf) * PLACE_COUNT), 1), PLACE_COUNT);
    }
    return Math.min(sec, (1 << 24) - 1) * 256 + fields * 16 + q;
  }

  // The index of pages (search-pages.json's, in ID order), as the wiki
  // command writes it: { sections: the number holding a word, terms: Map of
  // term to { sections, fields } postings as a shard has them }.
  function indexOf(pages) {
    var all = pages.map(wordsOf);
    var count = 0, words = 0;
    all.forEach(function (pw) {
      pw.sections.forEach(function (s) { if (s.words.size) { count++; words += s.body; } });
    });
    var avg = Math.max(words / Math.max(count, 1), 1);
    var terms = new Map();
    var entry = function (t) {
      var e = terms.get(t);
      if (!e) terms.set(t, e = { sections: [], fields: [], last: 0, lastField: 0 });
      return e;
    };
    all.forEach(function (pw, id) {
      pw.fields.forEach(function (f, t) {
        var e = entry(t);
        e.fields.push((id - e.lastField) * 4 + f);
        e.lastField = id;
      });
      pw.sections.forEach(function (s, sec) {
        if (!s.words.size) return;
        s.words.forEach(function (wp, t) {
          var e = entry(t);
          e.sections.push(id - e.last, placeOf(sec, wp.fields | (s.intro ? PLACE_INTRO : 0), wp.count, s.body, avg));
          e.last = id;
        });
      });
    });
    terms.forEach(function (e) { delete e.last; delete e.lastField; });
    return { sections: count, terms: terms };
  }

  // The whole index in one file, as a live preview (wiki serve) has it:
  // the same index, made here.
  function whole(url) {
    return getJSON(url).then(function (data) {
      var pages = data.pages.sort(function (a, b) { return compareTerms(a.path, b.path); });
      var ix = indexOf(pages);
      return {
        count: pages.length,
        sections: ix.sections,
        lookup: function (t) {
          var out = [];
          ix.terms.forEach(function (e, term) {
            var f = matchOf(t, term);
            if (f) out.push({ factor: f, sections: e.sections, fields: e.fields });
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

  // --- Ranking: docs/server/ranking.md. ---

  // The weights of a word in each field of a section, against 1 for a full
  // count in its body: the server's (mcp-server/internal/rank).
  var WEIGHT_HEADING = 2, WEIGHT_TRAIL = 0.7, WEIGHT_TITLE = 1.5, WEIGHT_FILE_NAME = 0.7;
  var INTRO = 0.9; // an introduction's share of its score
  // A page's tier, before its score: a hook whose own name or constant
  // holds every word (the wiki's one rule beyond ranking.md: the server
  // does not rank the hook registry), then every other page.
  var TIER_HOOK = 0, TIER_PAGE = 1;
  var SECTION = 1 << 24; // a section's key: page * SECTION + section

  // The pages that hold any word of q, best first: [{ id, tier, score, all
  // (the page holds every word), section(k) (section k's score), order }].
  // None when stale() says a later query overtook q: the shards a word
  // needs are fetched once, and when they come every query waiting for them
  // would otherwise go through their postings (a one-letter prefix's are
  // most of three shards), one after another, before the last query typed.
  function candidates(src, q, stale) {
    if (!q.terms.length) return Promise.resolve([]);
    return Promise.all(q.terms.map(function (t) { return src.lookup(t, stale); })).then(function (found) {
      if (stale && stale()) return [];
      return rank(q, found, src.sections, src.count);
    });
  }

  // rank scores the sections holding q's terms (found[i]: the postings of
  // q.terms[i]) out of n sections (pages pages), as ranking.md says: for
  // each term its rarity (IDF), times its weight in the query, times its
  // place in the section (the body's count, saturated and normalised, plus
  // the weights of the section's heading, the headings above it, the page's
  // title and file name that hold it); the sum times the share of the query
  // the section holds (coverage), an introduction's times 0.9. A page
  // scores its best section's. It sets q.live, the groups that count (those
  // the index holds: a word nowhere is no page's fault).
  //
  // The terms a section holds are bits (two numbers: 64 terms at most), and
  // the sections' data flat arrays: on a 19,000-page wiki, "player" is in
  // 8,854 pages, and an array of flags for each section made a query spend
  // more time collecting garbage than ranking.
  function rank(q, found, n, pages) {
    var nt = q.terms.length;
    var idf = new Array(nt).fill(0);
    var slots = new Map(); // section key -> slot
    var sKey = [], sScore = [], sLo = [], sHi = [], sHookLo = [], sHookHi = [], sIntro = [];
    var metaScore = new Float64Array(pages), metaLo = new Int32Array(pages), metaHi = new Int32Array(pages);
    var best = new Map(), bestMeta = new Map();
    var dfs = found.map(function (lists) {
      var df = 0;
      lists.forEach(function (l) { df += l.sections.length / 2 + l.fields.length; });
      return df;
    });
    // rank.markAbsent: an identifier that no section holds as written, and
    // that has parts, counts by its parts, each as a plain word.
    var absent = q.groups.map(function () { return false; });
    q.terms.forEach(function (t, ti) {
      var next = q.terms[ti + 1];
      if (!t.part && t.group >= 0 && !dfs[ti] && next && next.part && next.group === t.group) absent[t.group] = true;
    });
    q.terms.forEach(function (t) { if (t.part && absent[t.group]) t.weight = 1; });
    found.forEach(function (lists, ti) {
      var df = dfs[ti];
      if (!df) return;
      df = Math.min(df, n); // a word in many titles: in every section (rank's rule)
      idf[ti] = Math.log(1 + (n - df + 0.5) / (df + 0.5));
      var w = q.terms[ti].weight * idf[ti];
      var lo = ti < 32 ? 1 << ti : 0, hi = ti < 32 ? 0 : 1 << (ti - 32);
      // Each section's place (fields * 1000 + tf), the best of the index
      // terms t matches (a prefix's).
      var add = function (key, place) {
        var s = slots.get(key);
        if (s === undefined) {
          slots.set(key, s = sKey.length);
          sKey.push(key); sScore.push(0); sLo.push(0); sHi.push(0); sHookLo.push(0); sHookHi.push(0); sIntro.push(0);
        }
        var fields = Math.floor(place / 1000);
        sScore[s] += w * (place - fields * 1000);
        sLo[s] |= lo; sHi[s] |= hi;
        if (fields & PLACE_HOOK) { sHookLo[s] |= lo; sHookHi[s] |= hi; }
        if (fields & PLACE_INTRO) sIntro[s] = 1;
      };
      best.clear();
      bestMeta.clear();
      lists.forEach(function (l) {
        var page = 0, k, v, o;
        for (k = 0; k < l.sections.length; k += 2) {
          page += l.sections[k];
          v = l.sections[k + 1];
          var fields = (v >> 4) & 15;
          var tf = l.factor * ((v & 15) / PLACE_COUNT + (fields & PLACE_HEADING ? WEIGHT_HEADING : 0) + (fields & PLACE_TRAIL ? WEIGHT_TRAIL : 0));
          var key = page * SECTION + Math.floor(v / 256);
          if (lists.length === 1) { add(key, fields * 1000 + tf); continue; }
          o = best.get(key);
          if (o === undefined) { best.set(key, fields * 1000 + tf); continue; }
          var of = Math.floor(o / 1000);
          best.set(key, (of | fields) * 1000 + Math.max(o - of * 1000, tf));
        }
        page = 0;
        for (k = 0; k < l.fields.length; k++) {
          page += Math.floor(l.fields[k] / 4);
          v = l.fields[k] & 3;
          var mtf = l.factor * ((v & FIELD_TITLE ? WEIGHT_TITLE : 0) + (v & FIELD_FILE_NAME ? WEIGHT_FILE_NAME : 0));
          o = bestMeta.get(page);
          if (o === undefined || mtf > o) bestMeta.set(page, mtf);
        }
      });
      best.forEach(function (place, key) { add(key, place); });
      bestMeta.forEach(function (tf, page) {
        metaScore[page] += w * tf;
        metaLo[page] |= lo; metaHi[page] |= hi;
      });
    });

    // Each group's weight in a section's coverage: its word's weighted
    // rarity (rank.groupWeights); the groups that weigh are those a page
    // must hold to hold every word.
    var weights = q.groups.map(function () { return 0; });
    q.terms.forEach(function (t, i) {
      if ((!t.part || absent[t.group]) && t.group >= 0) weights[t.group] = Math.max(weights[t.group], t.weight * idf[i]);
    });
    var total = weights.reduce(function (a, b) { return a + b; }, 0);
    q.live = [];
    weights.forEach(function (w, g) { if (w > 0) q.live.push(g); });
    var held = function (lo, hi, i) { return i < 32 ? (lo >>> i & 1) === 1 : (hi >>> (i - 32) & 1) === 1; };
    var known = new Map(); // coverage and "holds all", by the terms held: a query has few sets of them
    var judge = function (lo, hi) {
      var key = hi ? lo + "," + hi : lo;
      var j = known.get(key);
      if (j) return j;
      var has = q.terms.map(function (_, i) { return held(lo, hi, i); });
      // rank.coverage: a group counts whole when its word is held, half
      // for the share of its parts held when it is not (whole when the
      // word is nowhere, see absent).
      var cov = 0;
      weights.forEach(function (w, g) {
        if (!w) return;
        var credit = 0, parts = 0, partsHeld = 0;
        q.terms.forEach(function (t, i) {
          if (t.group !== g) return;
          if (!t.part) { if (has[i]) credit = 1; } else { parts++; if (has[i]) partsHeld++; }
        });
        if (!credit && parts) credit = (absent[g] ? 1 : 0.5) * partsHeld / parts;
        cov += w * credit;
      });
      var all = q.live.length ? q.live.every(function (g) { return holdsGroup(q, has, g); }) : has.some(Boolean);
      var hook = q.live.length ? all : has.every(Boolean);
      known.set(key, j = { cov: total > 0 ? cov / total : 1, all: all, hook: hook });
      return j;
    };

    // The pages: the best of their sections, and of the sections that hold
    // none of the words but in the page's title or file name.
    var score = new Float64Array(pages).fill(-Infinity), tier = new Uint8Array(pages).fill(TIER_PAGE);
    var heldLo = new Int32Array(pages), heldHi = new Int32Array(pages);
    var head = new Int32Array(pages).fill(-1), next = new Int32Array(sKey.length); // each page's slots
    for (var s = 0; s < sKey.length; s++) {
      var id = Math.floor(sKey[s] / SECTION);
      var lo = sLo[s] | metaLo[id], hi = sHi[s] | metaHi[id];
      var sc = (sScore[s] + metaScore[id]) * judge(lo, hi).cov * (sIntro[s] ? INTRO : 1);
      sScore[s] = sc;
      next[s] = head[id];
      head[id] = s;
      if (sc > score[id]) score[id] = sc;
      heldLo[id] |= lo; heldHi[id] |= hi;
      if ((sHookLo[s] || sHookHi[s]) && judge(sHookLo[s], sHookHi[s]).hook) tier[id] = TIER_HOOK;
    }
    var list = [];
    var sectionScore = function (sec) { // this page's section sec's score, or undefined
      for (var s = head[this.id]; s >= 0; s = next[s]) if (sKey[s] % SECTION === sec) return sScore[s];
      return undefined;
    };
    for (id = 0; id < pages; id++) {
      if (metaLo[id] || metaHi[id]) {
        score[id] = Math.max(score[id], metaScore[id] * judge(metaLo[id], metaHi[id]).cov);
        heldLo[id] |= metaLo[id]; heldHi[id] |= metaHi[id];
      }
      if (score[id] === -Infinity) continue;
      list.push({ id: id, tier: tier[id], score: score[id], all: judge(heldLo[id], heldHi[id]).all, section: sectionScore });
    }
    list.sort(function (a, b) { return a.tier - b.tier || b.score - a.score || a.id - b.id; });
    list.forEach(function (c, i) { c.order = i; });
    return list;
  }

  // The results of one page for matcher m, best first: a hook's own entry,
  // the title, then the headings and lines by their section's score (cand's,
  // from rank), a heading before its lines, the same section in document
  // order. They are the parts holding every word of the query, or where none
  // does (the words are in different lines), those holding any, or, when
  // none holds any (the page was found by its file name), its title. Items:
  // { rank, label, code (the label is code), text, codeLine (the text is a
  // line of code, shown as is), href }.
  function pageItems(page, m, cand) {
    var items = collect(page, m.all);
    if (!items.length) {
      items = collect(page, m.any);
      items.forEach(function (it) { it.rank = RANK.line; it.partial = true; });
    }
    if (!items.length && !m.query.phrases.length && cand) {
      items = [{ rank: RANK.title, order: 0, sec: -1, label: page.title, text: page.summary, href: page.url, partial: true }];
    }
    var score = function (sec) {
      var s = cand && cand.section(sec);
      return s === undefined ? -Infinity : s;
    };
    var kind = function (it) { return it.rank === RANK.hook ? 0 : it.rank === RANK.title ? 1 : 2; };
    items.sort(function (a, b) {
      return kind(a) - kind(b) || score(b.sec) - score(a.sec) || a.sec - b.sec || a.rank - b.rank || a.order - b.order;
    });
    return together(items);
  }

  // One result per heading: the lines that match under a heading (and the
  // heading itself) make one item, the first in the order given, whose
  // lines are the others' text in that order, so a heading matching on
  // five lines is listed once, with its five lines. A title and a hook's
  // entry stay their own.
  function together(items) {
    var out = [], at = new Map();
    items.forEach(function (it) {
      if (it.rank === RANK.title || it.rank === RANK.hook) { out.push(it); return; }
      var first = at.get(it.href);
      if (!first) { at.set(it.href, it); it.lines = []; out.push(it); return; }
      if (it.text) first.lines.push({ text: it.text, codeLine: it.codeLine });
    });
    return out;
  }

  function collect(page, has) {
    var items = [];
    var add = function (rank, order, sec, item) { item.rank = rank; item.order = order; item.sec = sec; items.push(item); };
    if (has(page.title)) add(RANK.title, 0, -1, { label: page.title, text: page.summary, href: page.url });
    (page.hooks || []).forEach(function (h, i) {
      var href = page.url + "#" + h.name;
      if (has(h.name) || has(h.const)) { add(RANK.hook, i, i + 1, { label: h.name, code: true, text: plain(h.summary), href: href }); return; }
      var fields = [h.summary, h.description].concat((h.params || []).map(function (p) {
        return p.name + " (" + p.type + "): " + p.description;
      }));
      for (var f = 0; f < fields.length; f++) {
        if (has(fields[f])) { add(RANK.line, i, i + 1, { label: h.name, code: true, text: plain(fields[f]), href: href }); return; }
      }
    });
    var a = page.lines ? annotate(page) : null;
    (page.headings || []).forEach(function (h, i) {
      if (h.level === 1 && h.title === page.title) return; // the title, again
      if (has(h.title)) add(RANK.heading, i, a && a.useIds ? i + 1 : -1, { label: h.title, text: "", href: page.url + "#" + h.id });
    });
    (page.lines || []).forEach(function (raw, i) {
      if (!has(raw)) return;
      if (a.heading[i]) return; // matched above, as a heading
      var trail = a.trails[i];
      var last = trail.length ? trail[trail.length - 1] : null;
      var where = trail.filter(function (t) { return !(t.level === 1 && t.text === page.title); });
      add(RANK.line, i, a.sec[i], {
        label: where.length ? where.map(function (t) { return t.text; }).join(" › ") : page.title,
        text: a.code[i] ? raw.trim() : plain(raw),
        codeLine: a.code[i],
        href: page.url + (last && last.id ? "#" + last.id : "")
      });
    });
    return items;
  }

  // Pages fetched together show in the order rank gave them.
  function byBest(a, b) {
    return a.order - b.order;
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
      var r = { m: m, total: list.length, groups: [], done: list.length === 0, exact: !q.phrases.length, common: q.common };
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
              var items = pageItems(page, m, c);
              got[i] = items.length ? { page: page, items: items, order: c.order, all: c.all } : null;
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
    (item.lines || []).forEach(function (l) { a.appendChild(marked(l.codeLine ? "hit-line hit-code" : "hit-line", l.text, m)); });
    return a;
  }

  // Renders results into box: each page a group headed by its title and
  // path, at most maxItems of its items. Returns the links in order.
  function renderGroups(box, groups, m, maxItems, option, first) {
    var links = [];
    groups.forEach(function (g, gi) {
      var group = el("div", "search-group");
      group.dataset.words = g.all ? "all" : "some"; // whether the page holds every word
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
      var all = el("a", "search-all", n ? "All results on the search page (" + pages(n, r.exact) + ")" : none(query, r.common));
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
      if (final) status.textContent = summary(n, r, query);
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

  function summary(n, r, query) {
    var s = pages(n, r.exact) + " with results.";
    return n === 0 ? none(query, r.common) + "." : s.charAt(0).toUpperCase() + s.slice(1);
  }

  // What a query that found nothing says: that it holds only words that
  // carry no weight, when it does ("how ", "the ").
  function none(query, common) {
    return common ? "Only common words in “" + query.trim() + "”: the search leaves them out" : "No matches for “" + query + "”";
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
            status.textContent = summary(n, r, query);
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

  // Under Node (the tests), the search without the page around it.
  if (typeof module === "object" && module.exports) {
    module.exports = { eachWord: eachWord, prose: prose, classOf: classOf, lowerChar: lowerChar, parseQuery: parseQuery, matcher: matcher, indexOf: indexOf, indexLoader: indexLoader, results: results };
    return;
  }
  setupHighlight();
  setupCombobox();
  setupSearchPage();
})();
