package mcpserver

import (
	"context"
	"path/filepath"
	"testing"

	"github.com/mark3labs/mcp-go/client"
	"github.com/mark3labs/mcp-go/mcp"

	"github.com/docs-mcp/docs-mcp/mcp-server/internal/corpusgen"
	"github.com/docs-mcp/docs-mcp/mcp-server/internal/docs"
	"github.com/docs-mcp/docs-mcp/mcp-server/internal/search"
)

// BenchmarkSearchPage measures a mod_search_docs call for a page of 50
// matches of a common word, through mcp-go's in-process client, on 2,000
// generated small files: what one answer costs the server (the handler,
// the result's structured content and its text copy, their encoding) with
// its allocations. The round trip over stdio, with the pipes, is
// searchbench's.
//
//	go test -run '^$' -bench SearchPage -benchmem ./mcp-server/internal/mcpserver
func BenchmarkSearchPage(b *testing.B) {
	root := b.TempDir()
	dir := filepath.Join(root, "docs")
	ctx := context.Background()
	if _, err := corpusgen.Generate(ctx, dir, corpusgen.Options{Seed: 1, Files: 2000, Shape: corpusgen.Small}); err != nil {
		b.Fatal(err)
	}
	snap, err := docs.Load(ctx, dir, docs.LoadOptions{Generation: 1})
	if err != nil {
		b.Fatal(err)
	}
	srv := New(Options{DataRoot: root, DocsPath: dir})
	srv.Open(snap)
	<-search.IndexOf(snap).Done()
	c, err := client.NewInProcessClient(srv.MCP())
	if err != nil {
		b.Fatal(err)
	}
	defer c.Close()
	if err := c.Start(ctx); err != nil {
		b.Fatal(err)
	}
	if _, err := c.Initialize(ctx, mcp.InitializeRequest{}); err != nil {
		b.Fatal(err)
	}
	req := mcp.CallToolRequest{}
	req.Params.Name = "mod_search_docs"
	req.Params.Arguments = map[string]any{"query": "player", "limit": 50}
	b.ReportAllocs()
	for b.Loop() {
		res, err := c.CallTool(ctx, req)
		if err != nil || res.IsError {
			b.Fatalf("search: %v %v", err, res)
		}
		if n := len(res.StructuredContent.(map[string]any)["matches"].([]any)); n != 50 {
			b.Fatalf("%d matches, want 50", n)
		}
	}
}
