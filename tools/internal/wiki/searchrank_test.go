package wiki

import (
	"bytes"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"
	"unicode"

	"github.com/google/go-cmp/cmp"

	"github.com/docs-mcp/docs-mcp/framework/registry"
	"github.com/docs-mcp/docs-mcp/mcp-server/mcptest"
	"github.com/docs-mcp/docs-mcp/mcp-server/terms"
	"github.com/docs-mcp/docs-mcp/tools/internal/repo"
)

// These tests run search.js under Node, on indexes writeSearchIndex writes
// from pages made here (no Hugo, no browser): that its words are the
// server's (package terms), that it builds the index a live preview
// searches as the wiki command does, and that it ranks by the rules of
// docs/server/ranking.md.

// searchJS runs script (the body of an async function) under Node with
// search.js loaded as search, in as input, fetch reading the /wiki/ URLs
// from the folder site, and done(v) printing v, which is decoded into out.
func searchJS(t *testing.T, site, script string, in, out any) {
	t.Helper()
	node, err := exec.LookPath("node")
	if err != nil {
		missing(t, "no node on PATH (Debian: apt-get install nodejs)")
	}
	js, err := filepath.Abs(filepath.Join("site", "assets", "js", "search.js"))
	if err != nil {
		t.Fatal(err)
	}
	// Read here too, so that go test's cache knows the result depends on it.
	if _, err := os.ReadFile(js); err != nil {
		t.Fatal(err)
	}
	prelude := `const fs = require("fs"), path = require("path");
globalThis.location = { href: "http://wiki.test/wiki/" };
globalThis.fetch = async (url) => {
  const p = decodeURIComponent(new URL(url, location.href).pathname).replace(/^\/wiki\//, "");
  let b;
  try { b = fs.readFileSync(path.join(process.env.SEARCH_SITE, p), "utf8"); } catch (e) { return { ok: false, status: 404 }; }
  return { ok: true, status: 200, json: async () => JSON.parse(b) };
};
const search = require(process.env.SEARCH_JS);
const input = JSON.parse(fs.readFileSync(0, "utf8"));
const done = (v) => process.stdout.write(JSON.stringify(v));
// The results of query q: each page's path, tier and items.
const top = async (src, q, n) => {
  const r = await search.results(src, q);
  await r.more(n);
  return r.groups.map(g => ({ path: g.page.path, words: g.all ? "all" : "some",
    items: g.items.map(it => ({ rank: ["hook", "title", "heading", "line"][it.rank], label: it.label, href: it.href, lines: (it.lines || []).map(l => l.text) })) }));
};
(async () => {
` + script + `
})().catch(e => { console.error(e); process.exit(1); });`
	b, err := json.Marshal(in)
	if err != nil {
		t.Fatal(err)
	}
	cmd := exec.Command(node, "-e", prelude)
	cmd.Env = append(os.Environ(), "SEARCH_JS="+js, "SEARCH_SITE="+site)
	cmd.Stdin = bytes.NewReader(b)
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	if err := cmd.Run(); err != nil {
		t.Fatalf("node: %v\n%s", err, stderr.String())
	}
	if err := json.Unmarshal(stdout.Bytes(), out); err != nil {
		t.Fatalf("node printed %.200q: %v", stdout.String(), err)
	}
}

// word is a word as both sides print it: "=" before an identifier, "+"
// before a part.
func word(w terms.Word) string {
	switch {
	case w.Ident:
		return "=" + w.Text
	case w.Part:
		return "+" + w.Text
	}
	return strings.Clone(w.Text) // terms.Each's buffer until the callback returns
}

// wordTexts are texts with the traps real docs hold.
var wordTexts = []string{
	"How does my mod react when a player joins?", "the player.joined hook", "mod_read_doc returns",
	"CamelCase getElementById HTTPServer XMLHttpRequest iPhone ReadDoc2Go", "std::vector<int> std:: ::x a::b::c a:::b",
	"--data-root /srv/docs/ a/b -x -- 1.2.3 v1.2.3-rc1 1,000 3.14 0x1F 42nd", "Compiler Error C2065 LNK2019 C20650",
	"ÜBER Größe straße STRASSE", "\u212Aelvin \u212A", "İstanbul ǅemal Ǆ", "ΟΔΟΣ σς ς Σ", "ʕa aʕB ʕʕ",
	"🙂 tokens 𠀋𠀋 👍🏽 👩‍💻 ids", "日本語のdocs 한국어 문서", "_private __init__ a_ _a_ my_ _how_ __",
	strings.Repeat("x", 70) + " ab" + strings.Repeat("c", 63) + " " + strings.Repeat("é", 32) + " " + strings.Repeat("é", 33),
	"naïve naı̈ve e\u0301s", "પપપing પપપed stopped running cached policies classes matches fixes buses analysis sses ies",
	"the a I x 2 é", "see [the tools](server/tools.md#mod_read_doc) and [x](y)", "![logo](img/logo.png) then [broken](no end",
	"end. Next a. .b a..b a.-b a:/b a:: a_.b a._b", "foo\u200bbar foo\u00a0bar", "\U0001E5D0abc a\U0001E5D0b \u0295x",
	"", "ab", "AB", "Ab", "aB", "a1B", "1a", "A1", "ABc", "abC", "ab12CD", "x.y.z-w", "GET /health 503",
	"pulling pulled fussed fizzing hopped hoping sees agreed feed",
	"cancel cancels cancelled cancelling canceled install installed installing control controlled model modelling",
	"label labelled travel travelling fall falling call called spell spelling poll polled overall yell yelling ally allying",
	"ÜBERALL überall naïvell Stall STALLING",
	"## <a name=\"at\"></a> `at` at std::vector::at is_open `for` ``if `do` `` a ` at b ``at ``x` at ` ` `",
}

// TestSearchWordsMatchTerms runs search.js's port of terms.Each and
// terms.Prose over the hard cases and every line of this repository's
// docs, and checks each gives what terms gives: a query must be cut as the
// index was, or a word typed finds nothing.
func TestSearchWordsMatchTerms(t *testing.T) {
	root, err := repo.Root(".")
	if err != nil {
		t.Fatal(err)
	}
	// Each stop word alone, as a line: search.js must leave it out too.
	texts := append(append([]string(nil), wordTexts...), terms.StopWords()...)
	seen := map[string]bool{}
	tr, err := ScanTree(root)
	if err != nil {
		t.Fatal(err)
	}
	for _, doc := range tr.Docs {
		for l := range strings.Lines(mcptest.ReadFile(t, filepath.Join(root, "docs", filepath.FromSlash(doc)))) {
			if l = strings.TrimRight(l, "\r\n"); !seen[l] {
				seen[l] = true
				texts = append(texts, l)
			}
		}
	}
	if len(texts) < 1000 {
		t.Fatalf("%d texts: the docs are missing", len(texts))
	}
	var got []struct {
		Words []string `json:"words"`
		Prose string   `json:"prose"`
	}
	searchJS(t, "", `done(input.map(t => { const ws = []; search.eachWord(t, w => ws.push((w.ident ? "=" : w.part ? "+" : "") + w.text)); return { words: ws, prose: search.prose(t) }; }));`, texts, &got)
	if len(got) != len(texts) {
		t.Fatalf("node cut %d texts of %d", len(got), len(texts))
	}
	var buf []byte
	bad := 0
	for i, text := range texts {
		want := []string{}
		terms.Each(text, &buf, func(w terms.Word) { want = append(want, word(w)) })
		// As the index has them: through JSON, which makes a byte that is
		// no UTF-8 U+FFFD.
		b, _ := json.Marshal(want)
		_ = json.Unmarshal(b, &want)
		if diff := cmp.Diff(want, got[i].Words); diff != "" {
			if bad++; bad <= 20 {
				t.Errorf("%q: search.js cuts it otherwise (-terms.Each +search.js):\n%s", text, diff)
			}
		}
		if p := terms.Prose(text); p != got[i].Prose {
			t.Errorf("prose(%q) = %q, terms.Prose %q", text, got[i].Prose, p)
		}
	}
	if bad > 0 {
		t.Errorf("%d of %d texts cut otherwise", bad, len(texts))
	}
	t.Logf("%d texts cut alike", len(texts))
}

// TestSearchCharactersMatchGo checks search.js's view of every code point
// against Go's unicode package, which terms uses: letter, digit, upper and
// lower case, and its lower case. The browser's Unicode may be newer than
// Go's; search.js leaves out what Go does not know, so both still cut alike.
func TestSearchCharactersMatchGo(t *testing.T) {
	// Each code point that is a letter or digit or changes in lower case,
	// as "cp class lower" (class: 1 letter, 2 digit, 4 upper, 8 lower).
	var got []string
	searchJS(t, "", `const out = [];
for (let cp = 0; cp <= 0x10ffff; cp++) {
  if (cp >= 0xd800 && cp <= 0xdfff) continue;
  const ch = String.fromCodePoint(cp), c = search.classOf(cp), l = search.lowerChar(ch, cp);
  if (c || l !== ch) out.push(cp + " " + c + " " + ([...l].length === 1 ? l.codePointAt(0) : -1));
}
done(out);`, nil, &got)
	var want []string
	for r := rune(0); r <= unicode.MaxRune; r++ {
		if r >= 0xd800 && r <= 0xdfff {
			continue
		}
		c := 0
		if unicode.IsLetter(r) {
			c |= 1
		}
		if unicode.IsDigit(r) {
			c |= 2
		}
		if unicode.IsUpper(r) {
			c |= 4
		}
		if unicode.IsLower(r) {
			c |= 8
		}
		if c != 0 {
			want = append(want, fmt.Sprintf("%d %d %d", r, c, unicode.ToLower(r)))
		}
	}
	// A code point neither letter nor digit is in no word, whatever its
	// lower case: compare the others.
	var kept []string
	for _, g := range got {
		var cp, c, l int
		fmt.Sscanf(g, "%d %d %d", &cp, &c, &l)
		if c != 0 {
			kept = append(kept, g)
		}
	}
	if diff := cmp.Diff(want, kept); diff != "" {
		t.Errorf("code points search.js sees otherwise than Go (cp class lower; -Go +search.js):\n%.3000s", diff)
	}
	t.Logf("%d letters and digits alike", len(want))
}

// The entries of search-pages.json for a tree, made here without Hugo, as
// search-entry.html makes them: each doc's title (its first heading, else
// its file name), path, Markdown lines and headings, and the hook
// reference's hooks.
var (
	inlineMark = regexp.MustCompile("`+|\\*\\*|\\{#[^}]*\\}\\s*$")
	linkText   = regexp.MustCompile(`!?\[([^\]]*)\]\([^)]*\)`)
)

func treeSearchPages(t *testing.T, root string) []map[string]any {
	t.Helper()
	tr, err := ScanTree(root)
	if err != nil {
		t.Fatal(err)
	}
	var pages []map[string]any
	add := func(repoPath, url string) {
		text := strings.ReplaceAll(mcptest.ReadFile(t, filepath.Join(root, filepath.FromSlash(repoPath))), "\r\n", "\n")
		lines := strings.Split(text, "\n")
		var headings []map[string]any
		title := ""
		for _, h := range searchHeadings(lines) {
			ht := strings.TrimSpace(inlineMark.ReplaceAllString(linkText.ReplaceAllString(h.text, "$1"), ""))
			headings = append(headings, map[string]any{"id": "", "level": h.level, "title": ht})
			if title == "" {
				title = ht
			}
		}
		if title == "" {
			title = strings.TrimSuffix(path.Base(repoPath), ".md")
		}
		pages = append(pages, map[string]any{"title": title, "url": url, "path": repoPath, "lines": lines, "headings": headings})
	}
	for _, doc := range tr.Docs {
		add("docs/"+doc, "/wiki/"+strings.TrimSuffix(doc, ".md")+"/")
	}
	if tr.Contributing {
		add("CONTRIBUTING.md", "/wiki/contributing/")
	}
	var reg struct {
		Hooks []map[string]any `json:"hooks"`
	}
	if err := json.Unmarshal([]byte(mcptest.ReadFile(t, filepath.Join(root, filepath.FromSlash(registryPath)))), &reg); err != nil {
		t.Fatal(err)
	}
	for _, h := range reg.Hooks {
		name, _ := h["name"].(string)
		h["const"] = (&registry.Hook{Name: name}).GoName()
	}
	pages = append(pages, map[string]any{"title": "Hook reference", "url": "/wiki/hook-reference/", "path": registryPath, "hooks": reg.Hooks})
	return pages
}

// writePagesIndex writes the search index of pages into a new site folder
// and returns the folder.
func writePagesIndex(t *testing.T, pages []map[string]any) string {
	t.Helper()
	site := t.TempDir()
	mcptest.WriteFile(t, filepath.Join(site, searchPagesFile), string(pagesJSON(t, pages...)))
	if _, err := writeSearchIndex(site); err != nil {
		t.Fatal(err)
	}
	return site
}

// TestSearchIndexMatchScript checks that the index search.js makes from
// search-pages.json (a live preview's) is the one the wiki command writes,
// posting for posting, on this repository's docs.
func TestSearchIndexMatchScript(t *testing.T) {
	root, err := repo.Root(".")
	if err != nil {
		t.Fatal(err)
	}
	pages := treeSearchPages(t, root)
	r := dirIndex(t, writePagesIndex(t, pages))
	type postings struct {
		Sections []uint32 `json:"sections"`
		Fields   []uint32 `json:"fields"`
	}
	want := map[string]postings{}
	for i := range r.man.Shards {
		s, err := r.shard(i)
		if err != nil {
			t.Fatal(err)
		}
		for ti, term := range s.Terms {
			want[term] = postings{s.Sections[ti], s.Fields[ti]}
		}
	}
	var got struct {
		Sections int                 `json:"sections"`
		Terms    map[string]postings `json:"terms"`
	}
	searchJS(t, "", `const pages = input.sort((a, b) => a.path < b.path ? -1 : a.path > b.path ? 1 : 0);
const ix = search.indexOf(pages);
done({ sections: ix.sections, terms: Object.fromEntries(ix.terms) });`, pages, &got)
	if got.Sections != r.man.Sections {
		t.Errorf("search.js counts %d sections, the index %d", got.Sections, r.man.Sections)
	}
	if len(want) < 1000 {
		t.Fatalf("%d terms in the index: the docs are missing", len(want))
	}
	if diff := cmp.Diff(want, got.Terms); diff != "" {
		t.Errorf("the index search.js makes (-searchindex.go +search.js):\n%.4000s", diff)
	}
}

// rankedPage is one page of search.js's results.
type rankedPage struct {
	Path  string `json:"path"`
	Words string `json:"words"` // all or some
	Items []struct {
		Rank  string   `json:"rank"`
		Label string   `json:"label"`
		Href  string   `json:"href"`
		Lines []string `json:"lines"` // the other lines of its heading that match, shown with it
	} `json:"items"`
}

// searchSite runs queries in search.js over the index in site, and returns
// the first n pages of each.
func searchSite(t *testing.T, site string, n int, queries ...string) [][]rankedPage {
	t.Helper()
	var got [][]rankedPage
	searchJS(t, site, `const src = await search.indexLoader("/wiki/search-index/manifest.json")();
const out = [];
for (const q of input.queries) out.push(await top(src, q, input.n));
done(out);`, map[string]any{"queries": queries, "n": n}, &got)
	return got
}

func paths(ps []rankedPage) []string {
	var out []string
	for _, p := range ps {
		out = append(out, p.Path)
	}
	return out
}

// page is a doc's entry in search-pages.json, its title its first line's
// heading.
func page(p string, lines ...string) map[string]any {
	title := strings.TrimSuffix(path.Base(p), ".md")
	var headings []map[string]any
	for _, h := range searchHeadings(lines) {
		headings = append(headings, map[string]any{"id": strings.ToLower(strings.ReplaceAll(h.text, " ", "-")), "level": h.level, "title": h.text})
		if h.level == 1 && len(headings) == 1 {
			title = h.text
		}
	}
	return map[string]any{"title": title, "url": "/wiki/" + strings.TrimSuffix(p, ".md") + "/", "path": "docs/" + p, "lines": lines, "headings": headings}
}

// md is a doc's entry in search-pages.json from its Markdown.
func md(p, text string) map[string]any {
	return page(p, strings.Split(strings.TrimSuffix(text, "\n"), "\n")...)
}

// TestSearchRules holds each ranking rule of docs/server/ranking.md with
// pages where only that rule decides: the cases of the server's own test
// (mcp-server/internal/rank, TestRules), the same Markdown and questions,
// and the wiki's own rules (hooks first, the last word a prefix while it
// is typed, quoted phrases). Two of the server's cases are not here: the
// wiki's index has no front matter (Hugo's page data leaves it out) and no
// passages (the server scores its best sections again from their text).
func TestSearchRules(t *testing.T) {
	filler := strings.Repeat("Some words about other things entirely, to give each section a body.\n", 3)
	hooks := map[string]any{"title": "Hook reference", "url": "/wiki/hook-reference/", "path": registryPath, "hooks": []map[string]any{
		{"name": "player.joined", "const": "PlayerJoined", "summary": "A player joined the world."},
		{"name": "player.left", "const": "PlayerLeft", "summary": "A player left; the session ends."},
	}}
	for _, tt := range []struct {
		rule    string
		pages   []map[string]any
		query   string
		want    string // the first page's path
		wantNot string // a page that must not be found
	}{{
		rule: "an HTML anchor's attributes are no words of its heading",
		pages: []map[string]any{
			md("a.md", "# A\n\n## <a name=\"setup\"></a> Setup\n\nThe steps.\n"+filler),
			md("b.md", "# B\n\n## Name\n\nThe steps.\n"+filler),
		},
		query: "name", want: "docs/b.md",
	}, {
		rule: "a word in a heading beats the same word in a body",
		pages: []map[string]any{
			md("a.md", "# A\n\n## Setup\n\nThe sessions expire here.\n"+filler),
			md("b.md", "# B\n\n## Sessions\n\n"+filler),
		},
		query: "sessions", want: "docs/b.md",
	}, {
		rule: "all the words in one section beat some of them, however often",
		pages: []map[string]any{
			md("a.md", "# A\n\n## One\n\nThe cache cache cache cache is warm.\n"),
			md("b.md", "# B\n\n## Two\n\nThe cache lives in a folder of its own.\n"),
		},
		query: "where does the cache folder live", want: "docs/b.md",
	}, {
		rule: "an exact identifier beats a longer one that holds it",
		pages: []map[string]any{
			md("a.md", "# Errors\n\n## C20650\n\nThe error C20650 is another.\n"),
			md("b.md", "# Errors\n\n## C2065\n\nThe error C2065 is this one.\n"),
		},
		query: "what is C2065", want: "docs/b.md",
	}, {
		rule: "a code of the question (letters and digits) weighs as an identifier",
		pages: []map[string]any{
			md("a.md", "# A\n\n## Undeclared\n\nundeclared names here.\n"),
			md("b.md", "# B\n\n## C2065\n\nThe error C2065 here.\n"),
		},
		query: "undeclared C2065", want: "docs/b.md",
	}, {
		rule: "an identifier no section holds as written counts by its parts, as plain words",
		pages: []map[string]any{
			md("a.md", "# Invalidate\n\n## Invalidate\n\nWhat may invalidate a list, and when to invalidate.\n"),
			md("b.md", "# Containers\n\n## Erase\n\nThe std vector erase member can invalidate them.\n"),
			md("c.md", "# Other\n\n## Other\n\nNothing here at all.\n"),
			md("d.md", "# More\n\n## More\n\nNothing here either.\n"),
		},
		query: "std::vector::erase invalidate ", want: "docs/b.md",
	}, {
		rule: "an identifier of the question beats its parts apart",
		pages: []map[string]any{
			md("a.md", "# A\n\n## Players\n\nA player joined the game and the player left.\n"),
			md("b.md", "# B\n\n## Hooks\n\nThe hook player.joined fires.\n"),
		},
		query: "player.joined", want: "docs/b.md",
	}, {
		rule: "the file name counts for the doc's sections",
		pages: []map[string]any{
			md("a.md", "# A\n\nThe quota is checked.\n"),
			md("quota-limits.md", "# Limits\n\nWhat is checked, and when.\n\n## Details\n\nMore.\n"),
		},
		query: "quota limits", want: "docs/quota-limits.md",
	}, {
		rule: "link destinations are not words of the line",
		pages: []map[string]any{
			md("a.md", "# Map\n\n- [Start](getting-started/install-guide.md)\n- [More](other.md)\n"),
			md("b.md", "# Install\n\n## Guide\n\nHow to install: follow this guide.\n"),
		},
		query: "install guide", want: "docs/b.md",
	}, {
		rule: "question words and common words carry no weight",
		pages: []map[string]any{
			md("a.md", "# A\n\n## What\n\nWhat does how do when where which: all of these are here.\n"),
			md("b.md", "# B\n\n## Reload\n\nThe watcher reloads docs.\n"),
		},
		query: "what happens when how which reload", want: "docs/b.md",
	}, {
		rule: "sections of equal score come in path and line order",
		pages: []map[string]any{
			md("b.md", "# B\n\n## X\n\nalpha\n"),
			md("a.md", "# A\n\n## X\n\nalpha\n\n## Y\n\nalpha\n"),
		},
		query: "alpha", want: "docs/a.md",
	}, {
		rule: "a word in the title beats the same word in a body",
		pages: []map[string]any{
			md("a.md", "# Setup\n\nThe sessions expire here.\n"+filler),
			md("b.md", "# Sessions\n\nHow long they last.\n"+filler),
		},
		query: "sessions", want: "docs/b.md",
	}, {
		rule: "a question finds the page holding its words that weigh",
		pages: []map[string]any{
			md("a.md", "# How does it work\n\nWhen does my thing do what it does? How, and why, when there is a way.\n"),
			md("b.md", "# Events\n\nA mod reacts to a player joining through the hook.\n"),
		},
		query: "How does my mod react when a player joins?", want: "docs/b.md",
	}, {
		rule: "an identifier's parts find it",
		pages: []map[string]any{
			md("a.md", "# A\n\nHandle `player.joined` to greet.\n"),
			md("b.md", "# B\n\nNothing about it here.\n"),
		},
		query: "player joins", want: "docs/a.md", wantNot: "docs/b.md",
	}, {
		rule: "wiki: a hook's own entry comes first",
		pages: []map[string]any{
			md("a.md", "# player.joined\n\n## player.joined\n\nThe player.joined hook, player joined, in depth.\n"),
			hooks,
		},
		query: "player.joined", want: registryPath,
	}, {
		rule: "wiki: the last word, while it is typed, finds the longer words it begins",
		pages: []map[string]any{
			md("a.md", "# A\n\nSessions expire.\n"),
			md("b.md", "# B\n\nNothing here.\n"),
		},
		query: "sess", want: "docs/a.md", wantNot: "docs/b.md",
	}, {
		rule: "wiki: a finished word finds only itself",
		pages: []map[string]any{
			md("a.md", "# A\n\nSessions expire.\n"),
			md("b.md", "# Errors\n\n## C20650\n\nThe error C20650 is another.\n"),
		},
		query: "sess C2065 ", want: "", wantNot: "docs/a.md",
	}, {
		rule: "wiki: the exact word before the longer ones the last word begins",
		pages: []map[string]any{
			md("a.md", "# A\n\nThe player_data table.\n"),
			md("b.md", "# B\n\nThe player_dat table.\n"),
		},
		query: "player_dat", want: "docs/b.md",
	}, {
		rule: "wiki: a quoted phrase must appear as written",
		pages: []map[string]any{
			md("a.md", "# A\n\nA token for the bearer.\n"),
			md("b.md", "# B\n\nSend the bearer token.\n"),
		},
		query: `"bearer token"`, want: "docs/b.md", wantNot: "docs/a.md",
	}} {
		t.Run(tt.rule, func(t *testing.T) {
			// Other pages, on other things: a word's rarity is taken over
			// many sections, as in real docs.
			pages := append([]map[string]any(nil), tt.pages...)
			for i := range 6 {
				pages = append(pages, md(fmt.Sprintf("other/%d.md", i), "# Other "+strconv.Itoa(i)+"\n\n## Weather\n\nRain and sun.\n\n## Cooking\n\nBread and soup.\n"))
			}
			got := searchSite(t, writePagesIndex(t, pages), 10, tt.query)[0]
			first := ""
			if len(got) > 0 {
				first = got[0].Path
			}
			if first != tt.want {
				t.Errorf("%q: first %q, want %q (all: %q)", tt.query, first, tt.want, paths(got))
			}
			for _, p := range got {
				if p.Path == tt.wantNot {
					t.Errorf("%q found %s", tt.query, p.Path)
				}
			}
		})
	}
}

// TestSearchItems checks a page's results: the title first, then the
// sections by score (not in document order), one item a section: its
// heading (or its first line) with the other lines that match under it.
func TestSearchItems(t *testing.T) {
	site := writePagesIndex(t, []map[string]any{
		page("a.md", "# Sessions", "", "Intro.", "", "## Setup", "", "A word on sessions, once, among many other words of a long paragraph about setting things up.", "", "Sessions again.", "", "## Expiry", "", "## Sessions expire", "", "Sessions expire after an hour; expired sessions are gone.", "", "Sessions end.", "", "Sessions restart."),
		page("b.md", "# Other", "", "Rain and sun."),
		page("c.md", "# More", "", "Bread and soup."),
	})
	got := searchSite(t, site, 1, "sessions ")[0]
	if len(got) != 1 {
		t.Fatalf("%d pages, want 1", len(got))
	}
	var items []string
	for _, it := range got[0].Items {
		items = append(items, it.Rank+" "+it.Label+" "+it.Href+" "+strings.Join(it.Lines, " | "))
	}
	want := []string{
		"title Sessions /wiki/a/ ",
		"heading Sessions expire /wiki/a/#sessions-expire Sessions expire after an hour; expired sessions are gone. | Sessions end. | Sessions restart.",
		"line Setup /wiki/a/#setup Sessions again.",
	}
	if diff := cmp.Diff(want, items); diff != "" {
		t.Errorf("items (-want +got):\n%s", diff)
	}
}

// answerQuestions are the questions of the server's ranked search in file
// (questions.json, heldout.json), each with the doc that answers it.
func answerQuestions(t *testing.T, root, file string) []struct{ Question, Path string } {
	t.Helper()
	var qs []struct{ Question, Path string }
	b := mcptest.ReadFile(t, filepath.Join(root, "mcp-server", "internal", "mcpserver", "testdata", "answers", file))
	if err := json.Unmarshal([]byte(b), &qs); err != nil {
		t.Fatal(err)
	}
	return qs
}

// TestSearchAnswers asks the wiki's search the questions the server's
// ranked search is measured on (their "question" and "path" only), over
// this repository's docs, and counts those whose first page is the doc
// that answers it: a person on the wiki and an assistant over MCP should
// find the same best page. questions.json are those the server's weights
// were set on, heldout.json others, looked at by neither ranking's
// choices. When this was written the wiki got 54 of 66 and 40 of 59 (the
// server's ranking 55 and 41, the same first page as the wiki's for 64
// and 52); before the wiki followed ranking.md, 7 of 66 and 7 of 59 (34
// and 45 found nothing: every word, "how" too, had to be on the page).
func TestSearchAnswers(t *testing.T) {
	root, err := repo.Root(".")
	if err != nil {
		t.Fatal(err)
	}
	site := writePagesIndex(t, treeSearchPages(t, root))
	for _, tt := range []struct {
		file string
		min  int // a change of the ranking or of the docs that loses several says so here
	}{{"questions.json", 50}, {"heldout.json", 36}} {
		qs := answerQuestions(t, root, tt.file)
		var queries []string
		for _, q := range qs {
			queries = append(queries, q.Question)
		}
		got := searchSite(t, site, 1, queries...)
		right := 0
		for i, q := range qs {
			first := "nothing"
			if len(got[i]) > 0 {
				first = got[i][0].Path
			}
			if first == "docs/"+q.Path {
				right++
			} else {
				t.Logf("%s: %q: %s first, want docs/%s", tt.file, q.Question, first, q.Path)
			}
		}
		t.Logf("%s: the wiki's first page answers %d of %d questions", tt.file, right, len(qs))
		if right < tt.min {
			t.Errorf("%s: the wiki's first page answers %d of %d questions, want at least %d", tt.file, right, len(qs), tt.min)
		}
	}
}
