package mcpserver

import (
	"encoding/json"
	"fmt"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/mark3labs/mcp-go/mcp"

	"github.com/docs-mcp/docs-mcp/mcp-server/internal/docs"
	"github.com/docs-mcp/docs-mcp/mcp-server/mcptest"
)

func TestSearchDocs(t *testing.T) {
	c := newClient(t, fixtureRoot)
	type hit struct {
		Path    string
		Line    int
		Column  int
		Heading string
	}
	tests := []struct {
		name string
		args map[string]any
		want []hit
	}{
		{"case-insensitive, path then line order", map[string]any{"query": "HOOKS"}, []hit{
			{"guide/intro.md", 3, 28, "Introduction"},
			{"server/tools.md", 5, 19, "Tools > mod_search_docs"},
		}},
		{"case-sensitive", map[string]any{"query": "Hooks", "case_sensitive": true}, []hit{
			{"server/tools.md", 5, 19, "Tools > mod_search_docs"},
		}},
		{"path prefix", map[string]any{"query": "hook", "path_prefix": "server/"}, []hit{
			{"server/tools.md", 5, 19, "Tools > mod_search_docs"},
		}},
		{"kelvin sign matches k, column in characters", map[string]any{"query": "KELVIN"}, []hit{
			{"guide/intro.md", 11, 39, "Introduction > Filters"},
			{"guide/unicode.md", 4, 18, "Unicode"},
		}},
		{"sharp s folds only to itself", map[string]any{"query": "STRAßE"}, []hit{
			{"guide/unicode.md", 3, 1, "Unicode"},
		}},
		{"cjk", map[string]any{"query": "搜索"}, []hit{
			{"guide/unicode.md", 5, 3, "Unicode"},
		}},
		{"one character, limit", map[string]any{"query": "a", "limit": 2}, []hit{
			{"guide/intro.md", 3, 16, "Introduction"},
			{"guide/intro.md", 5, 16, "Introduction > Registering a handler"},
		}},
		{"above the first heading, and on a heading line", map[string]any{"query": "title", "path_prefix": "index"}, []hit{
			{"index.md", 2, 1, ""},
		}},
		{"absent", map[string]any{"query": "no such text anywhere"}, []hit{}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			out, _ := mcptest.CallOK[SearchDocsOutput](t, c, "mod_search_docs", tt.args)
			got := []hit{}
			for _, m := range matchesOf(out) {
				got = append(got, hit{m.Path, m.Line, m.Column, m.Heading})
			}
			if diff := cmp.Diff(tt.want, got); diff != "" {
				t.Errorf("matches (-want +got):\n%s", diff)
			}
		})
	}
}

func TestSearchDocsResultFields(t *testing.T) {
	c := newClient(t, fixtureRoot)
	out, text := mcptest.CallOK[SearchDocsOutput](t, c, "mod_search_docs", map[string]any{"query": "transforms"})
	want := SearchDocsOutput{
		Docs: []DocMatches{{Path: "guide/intro.md", Sections: []SectionMatches{{
			Heading: "Introduction > Filters", Anchor: "filters",
			Lines: []LineMatch{{Line: 11, Column: 15, Snippet: `A filter hook transforms a value. The Kelvin sign…`}},
		}}}},
		Generation: 1,
	}
	if diff := cmp.Diff(want, out); diff != "" {
		t.Errorf("result (-want +got):\n%s", diff)
	}
	if !strings.Contains(text, "guide/intro.md\n  Introduction > Filters  #filters\n  11: A filter hook") || !strings.HasPrefix(text, "1 match for \"transforms\".\n") {
		t.Errorf("text copy lacks the location, the anchor or the count:\n%s", text)
	}
}

// TestSearchDocsText checks the text copy's grouping: a line naming the
// doc, a line naming each section (none above the first heading), then
// line number and snippet per match.
func TestSearchDocsText(t *testing.T) {
	var out SearchDocsOutput
	for _, m := range []match{
		{Path: "a.md", LineMatch: LineMatch{Line: 2, Column: 1, Snippet: "title: player"}},
		{Path: "a.md", Heading: "A > B", Anchor: "b", LineMatch: LineMatch{Line: 5, Column: 3, Snippet: "a player"}},
		{Path: "a.md", Heading: "A > B", Anchor: "b", LineMatch: LineMatch{Line: 6, Column: 1, Snippet: "player two"}},
		{Path: "a.md", Heading: "A > C", Anchor: "c", LineMatch: LineMatch{Line: 9, Column: 4, Snippet: "the player"}},
		{Path: "b.md", Heading: "A > C", Anchor: "c", LineMatch: LineMatch{Line: 3, Column: 4, Snippet: "one player…"}},
		{Path: "b.md", Heading: "A > C", Anchor: "c-1", LineMatch: LineMatch{Line: 7, Column: 4, Snippet: "…player"}},
	} {
		if len(out.Docs) == 0 || out.Docs[len(out.Docs)-1].Path != m.Path {
			out.Docs = append(out.Docs, DocMatches{Path: m.Path})
		}
		out.add(m.Heading, m.Anchor, m.URL, m.LineMatch)
	}
	out.HasMore, out.NextCursor = true, "CUR"
	want := `6 matches for "player"; the page is full and more remain: call again with cursor="CUR".

a.md
  2: title: player
  A > B  #b
  5: a player
  6: player two
  A > C  #c
  9: the player
b.md
  A > C  #c
  3: one player…
  A > C  #c-1
  7: …player`
	if got := out.text("player", []string{"player"}, ""); got != want {
		t.Errorf("text copy:\n%s\nwant:\n%s", got, want)
	}
}

// TestSearchDocsLinks checks that hits lead somewhere: each names its
// section's wiki URL when the server knows the wiki's address, and the
// result links each matched doc once, after the text.
func TestSearchDocsLinks(t *testing.T) {
	c := newClient(t, fixtureRoot, func(c *Config) { c.WikiURL = "https://docs.example/wiki/" })
	res := mcptest.Call(t, c, "mod_search_docs", map[string]any{"query": "hook"})
	var out SearchDocsOutput
	mcptest.Decode(t, res, &out)
	if len(matchesOf(out)) < 3 {
		t.Fatalf("want matches in several docs, got %+v", matchesOf(out))
	}
	var wantLinks []string
	for _, m := range matchesOf(out) {
		want := "https://docs.example/wiki/" + wikiPage(m.Path)
		if m.Anchor != "" {
			want += "#" + m.Anchor
		}
		if m.URL != want || (m.Anchor == "") != (m.Heading == "") {
			t.Errorf("%s:%d: url %q anchor %q (heading %q), want url %q", m.Path, m.Line, m.URL, m.Anchor, m.Heading, want)
		}
		// A hit's doc is the resource docs:// and its path (docs/server/tools.md).
		if uri := "docs://" + m.Path; !slices.Contains(wantLinks, uri) {
			wantLinks = append(wantLinks, uri)
		}
	}
	if _, ok := res.Content[0].(mcp.TextContent); !ok {
		t.Errorf("the first content item is %T, want the text", res.Content[0])
	}
	var links []string
	for _, item := range res.Content[1:] {
		l, ok := item.(mcp.ResourceLink)
		if !ok || l.MIMEType != "text/markdown" || l.Title == "" {
			t.Errorf("content after the text: %#v, want resource links with a title", item)
			continue
		}
		links = append(links, l.URI)
	}
	if diff := cmp.Diff(wantLinks, links); diff != "" {
		t.Errorf("resource links (-want +got):\n%s", diff)
	}
	for doc, page := range map[string]string{"index.md": "", "server/index.md": "server/", "guide/intro.md": "guide/intro/", "A b/Ü.md": "a-b/%C3%BC/", "notes/q&a.md": "notes/qa/", "odd/%.md": "odd/25/", "#f/index.md": "f/"} {
		if got := wikiPage(doc); got != page {
			t.Errorf("wikiPage(%q) = %q, want %q", doc, got, page)
		}
	}

	// Without a known wiki there are no URLs.
	c = newClient(t, fixtureRoot)
	plain, _ := mcptest.CallOK[SearchDocsOutput](t, c, "mod_search_docs", map[string]any{"query": "hook"})
	for _, m := range matchesOf(plain) {
		if m.URL != "" {
			t.Errorf("%s:%d has url %q with no wiki known", m.Path, m.Line, m.URL)
		}
	}
}

// TestSearchDocsPaging walks every page with limit 1 and a cursor and
// checks the pages add up to the one-call answer.
func TestSearchDocsPaging(t *testing.T) {
	c := newClient(t, fixtureRoot)
	all, _ := mcptest.CallOK[SearchDocsOutput](t, c, "mod_search_docs", map[string]any{"query": "e", "limit": 200})
	if all.HasMore || len(matchesOf(all)) < 5 {
		t.Fatalf("want a complete answer of several matches, got %d, has_more=%v", len(matchesOf(all)), all.HasMore)
	}
	var paged []match
	args := map[string]any{"query": "e", "limit": 1}
	for page := 0; ; page++ {
		if page > len(matchesOf(all)) {
			t.Fatal("paging does not end")
		}
		out, _ := mcptest.CallOK[SearchDocsOutput](t, c, "mod_search_docs", args)
		paged = append(paged, matchesOf(out)...)
		if !out.HasMore {
			if out.NextCursor != "" {
				t.Errorf("last page has a cursor %q", out.NextCursor)
			}
			break
		}
		args["cursor"] = out.NextCursor
	}
	if diff := cmp.Diff(matchesOf(all), paged); diff != "" {
		t.Errorf("paged matches differ from the single answer (-want +got):\n%s", diff)
	}
}

// TestSearchDocsSizeCap checks that the byte budget cuts a page short with a
// cursor rather than exceeding the cap, and that nothing is lost.
func TestSearchDocsSizeCap(t *testing.T) {
	dir := copyTree(t, fixtureRoot)
	line := strings.Repeat("needle and some text around it ", 10) + "\n"
	writeFile(t, dir, "docs/many.md", strings.Repeat(line, 100))
	c := newClient(t, dir, func(c *Config) { c.MaxResultBytes = 2048 })
	args := map[string]any{"query": "needle", "limit": 200}
	total := 0
	for page := 0; ; page++ {
		out, _ := mcptest.CallOK[SearchDocsOutput](t, c, "mod_search_docs", args)
		if len(matchesOf(out)) == 0 || len(matchesOf(out)) >= 100 && page == 0 {
			t.Fatalf("page %d has %d matches; the 2 KiB cap should cut pages short", page, len(matchesOf(out)))
		}
		total += len(matchesOf(out))
		if !out.HasMore {
			break
		}
		args["cursor"] = out.NextCursor
	}
	if total != 100 {
		t.Errorf("pages held %d matches in all, want 100", total)
	}
}

func TestSearchDocsErrors(t *testing.T) {
	c := newClient(t, fixtureRoot)
	other, _ := mcptest.CallOK[SearchDocsOutput](t, c, "mod_search_docs", map[string]any{"query": "e", "limit": 1})
	list, _ := mcptest.CallOK[ListDocPathsOutput](t, c, "mod_list_doc_paths", map[string]any{"limit": 1})
	tests := []struct {
		name string
		args any
		want string // a part of the error text
	}{
		{"no arguments", nil, "query is empty"},
		{"empty query", map[string]any{"query": ""}, "query is empty"},
		{"query too long", map[string]any{"query": strings.Repeat("x", 1025)}, "1025 bytes long"},
		{"line break", map[string]any{"query": "a\nb"}, "line break"},
		{"limit too large", map[string]any{"query": "x", "limit": 201}, "limit 201 is out of range; use 1 to 200"},
		{"negative limit", map[string]any{"query": "x", "limit": -1}, "out of range"},
		{"limit 0", map[string]any{"query": "x", "limit": 0}, "limit 0 is out of range; use 1 to 200"},
		{"wrong type", map[string]any{"query": 42}, "argument query must be a string, not number"},
		{"unknown argument", map[string]any{"query": "x", "regex": true}, `unknown argument "regex"; this tool takes: query, case_sensitive, path_prefix, match, limit, cursor`},
		{"escaping prefix", map[string]any{"query": "x", "path_prefix": "../"}, `path_prefix: invalid doc path "../"`},
		{"garbage cursor", map[string]any{"query": "x", "cursor": "%%%"}, "invalid cursor"},
		{"cursor of another query", map[string]any{"query": "x", "cursor": other.NextCursor}, "made for other arguments"},
		{"cursor of another tool", map[string]any{"query": "e", "cursor": list.NextCursor}, "belongs to another tool"},
		{"huge cursor", map[string]any{"query": "x", "cursor": strings.Repeat("A", 5000)}, "invalid cursor"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := mcptest.CallErr(t, c, "mod_search_docs", tt.args); !strings.Contains(got, tt.want) {
				t.Errorf("error %q does not say %q", got, tt.want)
			}
		})
	}
}

// TestSearchDocsAllTerms checks the all_terms mode against its definition
// (a line holds every term, in any order) on every line of the fixture,
// page by page, and that the default stays the exact substring.
func TestSearchDocsAllTerms(t *testing.T) {
	dir := copyTree(t, fixtureRoot)
	writeFile(t, dir, "docs/terms.md", "# Terms\n\nthe hook registry lists hooks\nregistry first, then the HOOK\nonly a hook here\nhook-registry joined\n")
	c := newClient(t, dir)

	var want []string
	snap, err := docs.Load(t.Context(), filepath.Join(dir, "docs"), docs.LoadOptions{})
	if err != nil {
		t.Fatal(err)
	}
	for _, d := range snap.Docs() {
		for n, line := range d.Lines() {
			l := strings.ToLower(line)
			if strings.Contains(l, "hook") && strings.Contains(l, "registry") {
				want = append(want, fmt.Sprintf("%s:%d", d.Path, n))
			}
		}
	}
	var got []string
	args := map[string]any{"query": " registry  hook registry", "match": "all_terms", "limit": 2}
	for page := 0; page < 50; page++ {
		out, _ := mcptest.CallOK[SearchDocsOutput](t, c, "mod_search_docs", args)
		for _, m := range matchesOf(out) {
			got = append(got, fmt.Sprintf("%s:%d", m.Path, m.Line))
		}
		if !out.HasMore {
			break
		}
		args["cursor"] = out.NextCursor
	}
	if len(want) < 4 {
		t.Fatalf("the fixture has %d lines with both terms; the test needs several", len(want))
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("all_terms matches (-want +got):\n%s", diff)
	}

	// The column and snippet point at the earliest term.
	out, _ := mcptest.CallOK[SearchDocsOutput](t, c, "mod_search_docs", map[string]any{"query": "HOOK first", "match": "all_terms", "case_sensitive": true})
	if len(matchesOf(out)) != 1 || matchesOf(out)[0].Column != 10 {
		t.Errorf("case-sensitive all_terms: %+v, want one match at column 10", matchesOf(out))
	}
	// The default is unchanged: the query as one substring.
	out, _ = mcptest.CallOK[SearchDocsOutput](t, c, "mod_search_docs", map[string]any{"query": "registry hook", "path_prefix": "terms.md"})
	if len(matchesOf(out)) != 0 {
		t.Errorf("substring mode matched %+v", matchesOf(out))
	}
	_, text := mcptest.CallOK[SearchDocsOutput](t, c, "mod_search_docs", map[string]any{"query": "zeppelin hook", "match": "all_terms"})
	if text != `No line in the docs contains all of "zeppelin", "hook".` {
		t.Errorf("no match: %q", text)
	}
	for args, want := range map[string]string{
		`{"query": "   ", "match": "all_terms"}`: "query has no terms",
		`{"query": "x", "match": "regex"}`:       `match "regex" is not a mode; use substring (the default) or all_terms`,
	} {
		var a map[string]any
		if err := json.Unmarshal([]byte(args), &a); err != nil {
			t.Fatal(err)
		}
		if got := mcptest.CallErr(t, c, "mod_search_docs", a); !strings.Contains(got, want) {
			t.Errorf("%s: error %q, want %q", args, got, want)
		}
	}
	// A cursor of one mode is refused in the other.
	page, _ := mcptest.CallOK[SearchDocsOutput](t, c, "mod_search_docs", map[string]any{"query": "hook", "match": "all_terms", "limit": 1})
	if got := mcptest.CallErr(t, c, "mod_search_docs", map[string]any{"query": "hook", "limit": 1, "cursor": page.NextCursor}); !strings.Contains(got, "made for other arguments") {
		t.Errorf("all_terms cursor in substring mode: %q", got)
	}
}

// TestSearchDocsReadBudget checks that a search the index cannot narrow
// down (every doc holds the query's three-letter pieces, almost no line
// holds the query) stops after search.CallBytes of text with a cursor, and
// that the pages walk every doc without losing a match.
func TestSearchDocsReadBudget(t *testing.T) {
	mcptest.SkipUnderRace(t, "one client walking the pages of a search in turn")
	const query = "the the the the"
	dir := copyTree(t, fixtureRoot)
	line := strings.Repeat("the the cat and the dog; ", 8) + "\n" // every trigram of the query, never the query
	for i := range 12 {
		writeFile(t, dir, fmt.Sprintf("docs/big/%02d.md", i), strings.Repeat(line, (1<<20)/len(line)))
	}
	writeFile(t, dir, "docs/big/99.md", "# Last\n\nsaid "+query+" at last\n")
	c := newClient(t, dir)
	args := map[string]any{"query": query}
	var found []match
	pages := 0
	for ; ; pages++ {
		if pages > 12 {
			t.Fatal("paging does not end")
		}
		out, text := mcptest.CallOK[SearchDocsOutput](t, c, "mod_search_docs", args)
		found = append(found, matchesOf(out)...)
		if !out.HasMore {
			break
		}
		if len(matchesOf(out)) == 0 && !strings.HasPrefix(text, `0 matches for "the the the the" before big/`) {
			t.Errorf("page %d: empty with more to come, but the text does not say where the search stopped:\n%s", pages, text)
		}
		args["cursor"] = out.NextCursor
	}
	if pages < 2 {
		t.Errorf("the search took %d pages; 12 MiB of text should take several", pages+1)
	}
	if len(found) != 1 || found[0].Path != "big/99.md" {
		t.Errorf("matches = %+v, want the one in big/99.md", found)
	}
}

// match is one matching line of a search page with its doc and section.
type match struct {
	Path, Heading, Anchor, URL string
	LineMatch
}

// matchesOf lists a page's matching lines in order.
func matchesOf(o SearchDocsOutput) []match {
	var out []match
	for _, d := range o.Docs {
		for _, s := range d.Sections {
			for _, l := range s.Lines {
				out = append(out, match{Path: d.Path, Heading: s.Heading, Anchor: s.Anchor, URL: s.URL, LineMatch: l})
			}
		}
	}
	return out
}

func TestSnippet(t *testing.T) {
	long := "one two three four five six seven eight nine ten eleven twelve thirteen fourteen fifteen sixteen"
	for _, tc := range []struct {
		name, line, match, want string
	}{
		{"short line whole", "a player joins", "player", "a player joins"},
		{"cut at spaces on both sides", long, "eight", "…two three four five six seven eight nine ten eleven twelve…"},
		{"match at the start", long, "one", "one two three four five six seven…"},
		{"a word that does not fit is left out", "x" + strings.Repeat("é", 40) + " hook", "hook", "…hook"},
		{"a word longer than the context is cut at a rune", "x" + strings.Repeat("é", 40) + "hook", "hook", "…" + strings.Repeat("é", 16) + "hook"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			off := strings.Index(tc.line, tc.match)
			if got := snippet(tc.line, off, len(tc.match)); got != tc.want {
				t.Errorf("snippet = %q, want %q", got, tc.want)
			}
		})
	}
}
