package mcpserver

import (
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/docs-mcp/docs-mcp/mcp-server/internal/search"
	"github.com/docs-mcp/docs-mcp/mcp-server/mcptest"
)

// TestSearchBeforeAndAfterTheIndex sends searches as soon as the server
// answers, while the snapshot's index may still be building (a search then
// waits for it, bounded, or scans), and again once it is built: the answers
// are the same, and none is an error.
func TestSearchBeforeAndAfterTheIndex(t *testing.T) {
	srv := newServer(t, fixtureRoot)
	c := connect(t, srv)

	queries := []map[string]any{
		{"query": "hook"},
		{"query": "K"}, // one character
		{"query": "KELVIN", "limit": 1},
		{"query": "Hooks", "case_sensitive": true},
		{"query": "no such text anywhere"},
	}
	var early []SearchDocsOutput
	for _, args := range queries {
		out, _ := mcptest.CallOK[SearchDocsOutput](t, c, "mod_search_docs", args)
		early = append(early, out)
	}
	if len(matchesOf(early[0])) == 0 {
		t.Fatal("the first query matches nothing in the fixture; the test checks nothing")
	}

	p := search.Build(srv.corpus.Snapshot(), nil)
	<-p.Done()
	if ix, err := p.Index(); ix == nil || err != nil {
		t.Fatalf("no index after the build: %v", err)
	}
	for i, args := range queries {
		late, _ := mcptest.CallOK[SearchDocsOutput](t, c, "mod_search_docs", args)
		if diff := cmp.Diff(late, early[i]); diff != "" {
			t.Errorf("%v: early answer differs (-late +early):\n%s", args, diff)
		}
	}
}
