package mcpserver

import (
	"context"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/mark3labs/mcp-go/mcp"

	"github.com/docs-mcp/docs-mcp/mcp-server/internal/docs"
	"github.com/docs-mcp/docs-mcp/mcp-server/internal/search"
	"github.com/docs-mcp/docs-mcp/mcp-server/mcptest"
	"github.com/docs-mcp/docs-mcp/mcp-server/watch"
)

// TestAnswersWhileDocsLoad follows a server whose corpus is still loading,
// as the CLI starts one: initialize answers with no docs yet, a search sent
// before the docs are there waits for them instead of failing (and so does
// a resources/list, which then lists every doc), and a search
// on a snapshot whose index is not built yet answers like one with the
// index.
func TestAnswersWhileDocsLoad(t *testing.T) {
	opts, docsDir := withFixture(t, fixtureRoot, Options{})
	srv := New(opts)
	c := connect(t, srv) // initialize answers with no docs yet
	ctx := context.Background()
	if srv.store.Snapshot() != nil {
		t.Fatal("the store has a snapshot before any was loaded")
	}

	args := map[string]any{"query": "hook"}
	type answer struct {
		res *mcp.CallToolResult
		err error
	}
	early := make(chan answer)
	go func() {
		req := mcp.CallToolRequest{}
		req.Params.Name = "mod_search_docs"
		req.Params.Arguments = args
		res, err := c.CallTool(ctx, req)
		early <- answer{res, err}
	}()

	listed := make(chan int)
	go func() {
		res, err := c.ListResources(ctx, mcp.ListResourcesRequest{})
		n := -1
		if err == nil {
			n = 0
			for _, r := range res.Resources {
				if strings.HasPrefix(r.URI, docScheme) {
					n++
				}
			}
		}
		listed <- n
	}()

	snap, err := docs.Load(ctx, docsDir, docs.LoadOptions{Generation: 1})
	if err != nil {
		t.Fatal(err)
	}
	select {
	case a := <-early:
		t.Fatalf("a search answered before the docs were there: %+v", a)
	case n := <-listed:
		t.Fatalf("resources/list answered before the docs were there: %d docs", n)
	default:
	}
	srv.Open(snap) // the search above was waiting for this
	a := <-early
	if a.err != nil {
		t.Fatalf("search sent while the docs loaded: protocol error: %v", a.err)
	}
	if a.res.IsError {
		t.Fatalf("search sent while the docs loaded: tool error: %s", mcptest.Text(a.res))
	}
	var got SearchDocsOutput
	mcptest.Decode(t, a.res, &got)

	if n := <-listed; n != len(snap.Docs()) {
		t.Errorf("resources/list sent while the docs loaded listed %d docs, want all %d", n, len(snap.Docs()))
	}

	// The same search once the snapshot's index is built.
	<-search.IndexOf(snap).Done()
	if ix, err := search.IndexOf(snap).Index(); ix == nil || err != nil {
		t.Fatalf("no index after the build: %v", err)
	}
	want, _ := mcptest.CallOK[SearchDocsOutput](t, c, "mod_search_docs", args)
	if len(want.Matches) == 0 {
		t.Fatal("the query matches nothing in the fixture; the test checks nothing")
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("search sent while the docs loaded (-with index +early):\n%s", diff)
	}
}

// TestRunSeesEditsMadeWhileLoading holds Run's load back and checks that
// the server answers initialize meanwhile, that a search sent before the
// docs are there waits for them and then answers from them, and that an
// edit made while the docs load (while the watcher sets up, or after) is
// seen once they are.
func TestRunSeesEditsMadeWhileLoading(t *testing.T) {
	opts, docsDir := withFixture(t, copyTree(t, fixtureRoot), Options{Watch: watch.Auto})
	opts.DocsPath = docsDir
	srv := New(opts)
	gate, loading := make(chan struct{}), make(chan struct{})
	srv.beforeLoad = func(ctx context.Context) {
		close(loading)
		select {
		case <-gate:
		case <-ctx.Done():
		}
	}
	ctx, cancel := context.WithCancel(context.Background())
	ran := make(chan error, 1)
	go func() { ran <- srv.Run(ctx) }()
	t.Cleanup(func() {
		cancel()
		if err := <-ran; err != nil {
			t.Errorf("Run: %v", err)
		}
	})

	<-loading // the load is held at the gate; the watcher sets up meanwhile
	c := connect(t, srv)
	args := map[string]any{"query": "gated"}
	early := make(chan *mcp.CallToolResult, 1)
	go func() {
		req := mcp.CallToolRequest{}
		req.Params.Name, req.Params.Arguments = "mod_search_docs", args
		res, err := c.CallTool(ctx, req)
		if err != nil {
			t.Errorf("search sent while the docs loaded: protocol error: %v", err)
		}
		early <- res
	}()
	writeFile(t, docsDir, "late.md", "# Late\n\nWritten while gated.\n")
	close(gate)

	// The file may or may not have been read by the load; either way it
	// is there once the watcher's batch (or Run's rescan) is applied.
	res := <-early
	if res == nil || res.IsError {
		t.Fatalf("search sent while the docs loaded: %+v", res)
	}
	var first SearchDocsOutput
	if mcptest.Decode(t, res, &first); len(first.Matches) > 1 {
		t.Fatalf("search sent while the docs loaded: %+v", first.Matches)
	}
	want := []string{"late.md"}
	var got []string
	mcptest.Eventually(t, "the edit made during the load", func() bool {
		got, _ = find(t, c, "gated")
		return cmp.Equal(want, got)
	})
}
