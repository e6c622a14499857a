package mcpserver

import (
	"fmt"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/docs-mcp/docs-mcp/mcp-server/internal/mcptest"
)

func TestSearchDocs(t *testing.T) {
	c := newClient(t, fixtureRoot, Options{})
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
			for _, m := range out.Matches {
				got = append(got, hit{m.Path, m.Line, m.Column, m.Heading})
			}
			if diff := cmp.Diff(tt.want, got); diff != "" {
				t.Errorf("matches (-want +got):\n%s", diff)
			}
		})
	}
}

func TestSearchDocsResultFields(t *testing.T) {
	c := newClient(t, fixtureRoot, Options{})
	out, text := mcptest.CallOK[SearchDocsOutput](t, c, "mod_search_docs", map[string]any{"query": "transforms"})
	want := SearchDocsOutput{
		Matches: []SearchMatch{{
			Path: "guide/intro.md", Line: 11, Column: 15, Heading: "Introduction > Filters",
			Snippet: `A filter hook transforms a value. The Kelvin sign \u212A is not the letter K.`,
			URI:     "docs://guide/intro.md",
		}},
		Generation: 1,
	}
	if diff := cmp.Diff(want, out); diff != "" {
		t.Errorf("result (-want +got):\n%s", diff)
	}
	if !strings.Contains(text, "guide/intro.md:11:15") || !strings.Contains(text, "[1 match]") {
		t.Errorf("text copy lacks the location or the count:\n%s", text)
	}
}

// TestSearchDocsPaging walks every page with limit 1 and a cursor and
// checks the pages add up to the one-call answer.
func TestSearchDocsPaging(t *testing.T) {
	c := newClient(t, fixtureRoot, Options{})
	all, _ := mcptest.CallOK[SearchDocsOutput](t, c, "mod_search_docs", map[string]any{"query": "e", "limit": 200})
	if all.HasMore || len(all.Matches) < 5 {
		t.Fatalf("want a complete answer of several matches, got %d, has_more=%v", len(all.Matches), all.HasMore)
	}
	var paged []SearchMatch
	args := map[string]any{"query": "e", "limit": 1}
	for page := 0; ; page++ {
		if page > len(all.Matches) {
			t.Fatal("paging does not end")
		}
		out, _ := mcptest.CallOK[SearchDocsOutput](t, c, "mod_search_docs", args)
		paged = append(paged, out.Matches...)
		if !out.HasMore {
			if out.NextCursor != "" {
				t.Errorf("last page has a cursor %q", out.NextCursor)
			}
			break
		}
		args["cursor"] = out.NextCursor
	}
	if diff := cmp.Diff(all.Matches, paged); diff != "" {
		t.Errorf("paged matches differ from the single answer (-want +got):\n%s", diff)
	}
}

// TestSearchDocsSizeCap checks that the byte budget cuts a page short with a
// cursor rather than exceeding the cap, and that nothing is lost.
func TestSearchDocsSizeCap(t *testing.T) {
	dir := copyTree(t, fixtureRoot)
	line := strings.Repeat("needle and some text around it ", 10) + "\n"
	writeFile(t, dir, "docs/many.md", strings.Repeat(line, 100))
	c := newClient(t, dir, Options{MaxResultBytes: 2048})
	args := map[string]any{"query": "needle", "limit": 200}
	total := 0
	for page := 0; ; page++ {
		out, _ := mcptest.CallOK[SearchDocsOutput](t, c, "mod_search_docs", args)
		if len(out.Matches) == 0 || len(out.Matches) >= 100 && page == 0 {
			t.Fatalf("page %d has %d matches; the 2 KiB cap should cut pages short", page, len(out.Matches))
		}
		total += len(out.Matches)
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
	c := newClient(t, fixtureRoot, Options{})
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
		{"wrong type", map[string]any{"query": 42}, "argument query must be a string, not number"},
		{"unknown argument", map[string]any{"query": "x", "regex": true}, `unknown argument "regex"; this tool takes: query, case_sensitive, path_prefix, limit, cursor`},
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

// TestSearchDocsReadBudget checks that a search the index cannot narrow
// down (every doc holds the query's three-letter pieces, almost no line
// holds the query) stops after search.CallBytes of text with a cursor, and
// that the pages walk every doc without losing a match.
func TestSearchDocsReadBudget(t *testing.T) {
	const query = "the the the the"
	dir := copyTree(t, fixtureRoot)
	line := strings.Repeat("the cat and the dog the end; ", 8) + "\n"
	for i := range 12 {
		writeFile(t, dir, fmt.Sprintf("docs/big/%02d.md", i), strings.Repeat(line, (1<<20)/len(line)))
	}
	writeFile(t, dir, "docs/big/99.md", "# Last\n\nsaid "+query+" at last\n")
	c := newClient(t, dir, Options{})
	args := map[string]any{"query": query}
	var found []SearchMatch
	pages := 0
	for ; ; pages++ {
		if pages > 12 {
			t.Fatal("paging does not end")
		}
		out, text := mcptest.CallOK[SearchDocsOutput](t, c, "mod_search_docs", args)
		found = append(found, out.Matches...)
		if !out.HasMore {
			break
		}
		if len(out.Matches) == 0 && !strings.Contains(text, "the search stopped before big/") {
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
