package mcpserver

import (
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/mark3labs/mcp-go/client"

	"github.com/docs-mcp/docs-mcp/mcp-server/internal/corpusgen"
	"github.com/docs-mcp/docs-mcp/mcp-server/internal/docs"
	"github.com/docs-mcp/docs-mcp/mcp-server/internal/search"
	"github.com/docs-mcp/docs-mcp/mcp-server/mcptest"
)

// treeQueries are 20 searches of several words, in any order, that a
// reader of a C++ reference (MicrosoftDocs cpp-docs) would make.
var treeQueries = []string{
	"linker error unresolved",
	"thread local storage",
	"warning level pragma",
	"compiler option enable",
	"debug release build",
	"template class member",
	"function return value",
	"header file include",
	"exception handling try",
	"virtual function override",
	"string conversion unicode",
	"memory allocation heap",
	"project properties Visual Studio",
	"command line compiler",
	"static library link",
	"runtime library DLL",
	"precompiled header file",
	"calling convention stdcall",
	"copy constructor default",
	"error undeclared identifier",
}

// TestSearchDocsAllTermsTree walks the all_terms answers of treeQueries on
// the tree DOCS_MCP_SEARCH_TREE names (a data root: its docs/ folder is
// served), page after page with limit 200, as a client follows cursors. It
// logs, per query, the matches, whether the first page came back empty
// with has_more, the calls until the first match and until the answer was
// complete, and the matches on a first page with the default limit (20)
// when the read bound cut it short, and checks that the matches are the definition's (every line
// holding every term) and that no first page is empty while matches exist.
// Real trees are not in the repository, so without the variable the test
// is skipped:
//
//	DOCS_MCP_SEARCH_TREE=/path/to/cpp-docs go test -run AllTermsTree -v ./mcp-server/internal/mcpserver
func TestSearchDocsAllTermsTree(t *testing.T) {
	root := os.Getenv("DOCS_MCP_SEARCH_TREE")
	if root == "" {
		t.Skip("DOCS_MCP_SEARCH_TREE is not set: give a data root whose docs/ folder to search, e.g. a checkout of MicrosoftDocs/cpp-docs: " +
			"DOCS_MCP_SEARCH_TREE=/path/to/cpp-docs go test -run AllTermsTree -v ./mcp-server/internal/mcpserver")
	}
	if _, err := os.Stat(filepath.Join(root, "docs")); err != nil {
		t.Fatalf("DOCS_MCP_SEARCH_TREE: %v", err)
	}
	srv := newServer(t, root)
	c := connect(t, srv)
	snap := srv.corpus.Snapshot()

	var firstEmpty, withMatches, callsToFirst, calls, emptyPages, cut int
	var b strings.Builder
	fmt.Fprintf(&b, "%d docs, %d bytes of text\n", len(snap.Docs()), textBytes(snap))
	fmt.Fprintf(&b, "%-34s %8s %12s %14s %6s %12s %16s\n", "query", "matches", "first empty", "calls to first", "calls", "empty pages", "cut first page")
	var failed []string
	for _, q := range treeQueries {
		w := walkAllTerms(t, c, map[string]any{"query": q, "match": "all_terms", "limit": 200})
		want := allTermsLines(snap, strings.Fields(q), false)
		if diff := cmp.Diff(want, w.matches); diff != "" {
			t.Errorf("%q: matches differ from every line holding every term (-want +got):\n%s", q, diff)
		}
		if w.firstEmpty {
			firstEmpty++
		}
		if len(want) > 0 {
			withMatches++
			callsToFirst += w.toFirst
			if w.toFirst != 1 {
				failed = append(failed, q)
			}
		}
		calls += w.calls
		emptyPages += w.emptyPages
		// The first page a client gets by default, cut short by the read
		// bound.
		first, text := mcptest.CallOK[SearchDocsOutput](t, c, "mod_search_docs", map[string]any{"query": q, "match": "all_terms"})
		short := "-"
		if strings.Contains(text, "where the search stopped") && first.count() < defaultSearchLimit {
			cut++
			short = fmt.Sprint(first.count())
		}
		fmt.Fprintf(&b, "%-34s %8d %12v %14d %6d %12d %16s\n", q, len(w.matches), w.firstEmpty, w.toFirst, w.calls, w.emptyPages, short)
	}
	fmt.Fprintf(&b, "first page empty with has_more: %d of %d; calls to the first match: %d for %d queries with matches; calls to the complete answers (limit 200): %d, %d of them empty pages; first pages (limit 20) cut short by the read bound: %d",
		firstEmpty, len(treeQueries), callsToFirst, withMatches, calls, emptyPages, cut)
	t.Log(b.String())
	if len(failed) > 0 {
		t.Errorf("the first page of %d queries whose matches exist held none: %q", len(failed), failed)
	}
}

// allTermsWalk is what a client met following an all_terms search's
// cursors to its end.
type allTermsWalk struct {
	firstEmpty bool     // the first page held no match and had more
	toFirst    int      // calls until a page held a match; 0: none did
	calls      int      // calls until a page had no more
	emptyPages int      // pages that held no match and had more
	matches    []string // path:line, in the order the pages gave them
}

// walkAllTerms calls mod_search_docs with args, then again with each
// page's cursor until a page has no more.
func walkAllTerms(t testing.TB, c *client.Client, args map[string]any) allTermsWalk {
	t.Helper()
	var w allTermsWalk
	for {
		if w.calls > 10000 {
			t.Fatalf("%v: paging does not end", args)
		}
		out, _ := mcptest.CallOK[SearchDocsOutput](t, c, "mod_search_docs", args)
		w.calls++
		ms := matchesOf(out)
		if len(ms) > 0 && w.toFirst == 0 {
			w.toFirst = w.calls
		}
		if len(ms) == 0 && out.HasMore {
			w.emptyPages++
			w.firstEmpty = w.firstEmpty || w.calls == 1
		}
		for _, m := range ms {
			w.matches = append(w.matches, fmt.Sprintf("%s:%d", m.Path, m.Line))
		}
		if !out.HasMore {
			return w
		}
		args["cursor"] = out.NextCursor
	}
}

// allTermsLines is the definition of an all_terms search: every line, in
// path then line order, that holds every term (each matched as the tool
// matches a substring), as path:line.
func allTermsLines(snap *docs.Snapshot, terms []string, caseSensitive bool) []string {
	ms := make([]*search.Matcher, len(terms))
	for i, term := range terms {
		ms[i] = search.NewMatcher(term, caseSensitive)
	}
	var out []string
	for _, d := range snap.Docs() {
		for n, line := range d.Lines() {
			if slices.ContainsFunc(ms, func(m *search.Matcher) bool { off, _ := m.Index(line); return off < 0 }) {
				continue
			}
			out = append(out, fmt.Sprintf("%s:%d", d.Path, n))
		}
	}
	return out
}

func textBytes(snap *docs.Snapshot) int64 {
	var n int64
	for _, d := range snap.Docs() {
		n += d.Size
	}
	return n
}

// TestSearchDocsAllTermsRareTerm searches, on a generated tree of 6,000
// small docs (about 6 MB), for two words whose longer one is in most docs
// and whose shorter one in a handful: the docs that may hold both are few,
// and the first call answers with every match. (Narrowed by the longer
// word alone, the search read 2 MiB a call of docs that hold it, and the
// first pages came back empty, with a cursor.)
func TestSearchDocsAllTermsRareTerm(t *testing.T) {
	mcptest.SkipUnderRace(t, "one client measuring a first page on 6,000 generated docs")
	root := t.TempDir()
	if _, err := corpusgen.Generate(t.Context(), filepath.Join(root, "docs"), corpusgen.Options{Seed: 1, Files: 6000, Shape: corpusgen.Small}); err != nil {
		t.Fatal(err)
	}
	// Last in path order, after every generated doc.
	writeFile(t, root, "docs/zz/ledger.md", "# Ledger\n\nThe ledger API is deprecated since 2.0.\n\nDeprecated: the old ledger format.\n")
	srv := newServer(t, root)
	c := connect(t, srv)
	const query = "deprecated ledger"
	want := allTermsLines(srv.corpus.Snapshot(), strings.Fields(query), false)
	if n := len(docsHolding(srv.corpus.Snapshot(), "deprecated")); n < 2000 {
		t.Fatalf("%d docs hold the common word; the test needs most of the 6,000 to", n)
	}
	if len(want) != 2 {
		t.Fatalf("the tree has %d lines with both words, want the 2 planted: %v", len(want), want)
	}
	out, text := mcptest.CallOK[SearchDocsOutput](t, c, "mod_search_docs", map[string]any{"query": query, "match": "all_terms"})
	var got []string
	for _, m := range matchesOf(out) {
		got = append(got, fmt.Sprintf("%s:%d", m.Path, m.Line))
	}
	if diff := cmp.Diff(want, got); diff != "" || out.HasMore || out.NextCursor != "" {
		t.Errorf("first call: has_more %v, cursor %q, matches (-want +got):\n%s\ntext:\n%s", out.HasMore, out.NextCursor, diff, text)
	}
	if wantText := `2 matches for all of "deprecated", "ledger".`; !strings.HasPrefix(text, wantText+"\n") {
		t.Errorf("text begins %q, want %q", strings.SplitN(text, "\n", 2)[0], wantText)
	}
}

// TestSearchDocsAllTermsReadBudget checks a query whose terms every doc
// holds, never on one line: the index cannot narrow it down, so a call
// stops after search.CallBytes of text, says so and gives a cursor, and
// the pages walk every doc to the one line that holds both.
func TestSearchDocsAllTermsReadBudget(t *testing.T) {
	dir := copyTree(t, fixtureRoot)
	lines := strings.Repeat("the alpha line\nthe beta line\n", (1<<20)/30)
	for i := range 6 {
		writeFile(t, dir, fmt.Sprintf("docs/big/%02d.md", i), lines)
	}
	writeFile(t, dir, "docs/big/99.md", "# Last\n\nbeta and alpha at last\n")
	c := newClient(t, dir)
	args := map[string]any{"query": "alpha beta", "match": "all_terms"}
	w := walkAllTerms(t, c, args)
	if diff := cmp.Diff([]string{"big/99.md:3"}, w.matches); diff != "" {
		t.Errorf("matches (-want +got):\n%s", diff)
	}
	if w.calls < 3 || w.emptyPages != w.calls-1 {
		t.Errorf("%d calls, %d empty pages; 6 MiB of docs holding both terms should take several calls of 2 MiB", w.calls, w.emptyPages)
	}
	delete(args, "cursor")
	out, text := mcptest.CallOK[SearchDocsOutput](t, c, "mod_search_docs", args)
	if !out.HasMore || !strings.HasPrefix(text, `0 matches for all of "alpha", "beta" before big/`) ||
		!strings.Contains(text, "the docs that may hold this query are more text than one call reads (2 MiB); call again with cursor=") {
		t.Errorf("first page: has_more %v; the text does not say where and why the search stopped:\n%s", out.HasMore, text)
	}
}

// docsHolding lists the docs that hold text, case folded.
func docsHolding(snap *docs.Snapshot, text string) []string {
	m := search.NewMatcher(text, false)
	var out []string
	for _, d := range snap.Docs() {
		for _, line := range d.Lines() {
			if off, _ := m.Index(line); off >= 0 {
				out = append(out, d.Path)
				break
			}
		}
	}
	return out
}
