package mcpserver

import (
	"context"
	"fmt"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	"github.com/mark3labs/mcp-go/mcp"

	"github.com/docs-mcp/docs-mcp/mcp-server/internal/corpus"
	"github.com/docs-mcp/docs-mcp/mcp-server/internal/corpusgen"
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
	cfg, docsDir := withFixture(t, fixtureRoot)
	docs := corpus.New(corpus.DefaultConfig())
	c := connect(t, New(cfg, docs)) // initialize answers with no docs yet
	ctx := context.Background()
	if docs.Snapshot() != nil {
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
				if isDocURI(r.URI) {
					n++
				}
			}
		}
		listed <- n
	}()

	snap := loadDocs(t, docsDir)
	select {
	case a := <-early:
		t.Fatalf("a search answered before the docs were there: %+v", a)
	case n := <-listed:
		t.Fatalf("resources/list answered before the docs were there: %d docs", n)
	default:
	}
	docs.Open(snap) // the search above was waiting for this
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
	<-search.Build(snap, nil).Done()
	if ix, err := search.Build(snap, nil).Index(); ix == nil || err != nil {
		t.Fatalf("no index after the build: %v", err)
	}
	want, _ := mcptest.CallOK[SearchDocsOutput](t, c, "mod_search_docs", args)
	if len(matchesOf(want)) == 0 {
		t.Fatal("the query matches nothing in the fixture; the test checks nothing")
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("search sent while the docs loaded (-with index +early):\n%s", diff)
	}
}

// TestFirstSearchIsComplete starts a server as the CLI does, on a tree of
// 6 MB (three times what one search call reads), and searches at once for
// a word that is on one line of the last doc in path order: the first
// answer holds it, whole, in one call, though the index is being built
// when the search arrives. (Before the corpus owned its index, the first
// searches answered from the segments built so far and a scan of 2 MiB,
// and said the word was in no line before some path.)
func TestFirstSearchIsComplete(t *testing.T) {
	root := copyTree(t, fixtureRoot)
	docsDir := filepath.Join(root, "docs")
	if _, err := corpusgen.Generate(context.Background(), filepath.Join(docsDir, "gen"), corpusgen.Options{Seed: 9, Files: 2000}); err != nil {
		t.Fatal(err)
	}
	writeFile(t, root, "docs/zz/last.md", "# Last\n\nthe only Quuxplotter line\n")
	cfg, _ := withFixture(t, root)
	ccfg := corpus.DefaultConfig()
	ccfg.DataRoot, ccfg.DocsPath, ccfg.Watch = root, docsDir, watch.Off
	corp := corpus.New(ccfg)
	c := connect(t, New(cfg, corp))
	mcptest.Background(t, "corpus", func(ctx context.Context) error { return corp.Run(ctx, func(docs.Change) {}) })

	out, text := mcptest.CallOK[SearchDocsOutput](t, c, "mod_search_docs", map[string]any{"query": "quuxplotter", "limit": 20})
	if len(matchesOf(out)) != 1 || matchesOf(out)[0].Path != "zz/last.md" || out.HasMore {
		t.Fatalf("the first search's answer: %d matches, has_more %v:\n%s", len(matchesOf(out)), out.HasMore, text)
	}
	if !strings.HasPrefix(text, `1 match for "quuxplotter".`) {
		t.Errorf("the text does not start with the count:\n%s", text)
	}
}

// TestNoDocsAfterFailedLoad checks that a request waiting for the docs is
// answered with an error once the corpus stops without them (its load
// failed), rather than held until its own context ends: a server stopping
// after a failed load has no docs to wait for.
func TestNoDocsAfterFailedLoad(t *testing.T) {
	cfg, _ := withFixture(t, fixtureRoot)
	ccfg := corpus.DefaultConfig()
	ccfg.DocsPath, ccfg.Watch = filepath.Join(t.TempDir(), "gone"), watch.Off
	corp := corpus.New(ccfg)
	c := connect(t, New(cfg, corp))

	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	answered := make(chan error, 1)
	go func() {
		req := mcp.CallToolRequest{}
		req.Params.Name = "mod_search_docs"
		req.Params.Arguments = map[string]any{"query": "hook"}
		res, err := c.CallTool(ctx, req)
		if err == nil {
			err = fmt.Errorf("answered: %s", mcptest.Text(res))
		}
		answered <- err
	}()
	if err := corp.Run(ctx, func(docs.Change) {}); err == nil {
		t.Fatal("Run loaded a docs folder that does not exist")
	}
	err := <-answered
	if ctx.Err() != nil {
		t.Fatalf("the search waited until its context ended: %v", err)
	}
	if !strings.Contains(err.Error(), errNoDocs.Error()) {
		t.Errorf("the search's error: %v, want %q", err, errNoDocs)
	}
}
