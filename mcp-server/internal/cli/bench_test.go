package cli

import (
	"context"
	"os/exec"
	"testing"

	"github.com/docs-mcp/docs-mcp/mcp-server/mcptest"
	"github.com/mark3labs/mcp-go/client"
	"github.com/mark3labs/mcp-go/mcp"
)

// BenchmarkStdioFirstResponse measures what a user waits for when their
// client starts the server: process start to the answer to initialize, and
// then to the answer of a first search, on this repository's docs.
//
//	go test -run '^$' -bench StdioFirstResponse ./mcp-server/internal/cli
func BenchmarkStdioFirstResponse(b *testing.B) {
	bin, err := exec.LookPath("docs-mcp")
	if err != nil {
		b.Fatal(err)
	}
	root := mcptest.RepoDir(b)
	ctx := context.Background()
	for b.Loop() {
		c, err := client.NewStdioMCPClient(bin, nil, "--stdio", "--data-root", root, "--log-level", "error")
		if err != nil {
			b.Fatal(err)
		}
		init := mcp.InitializeRequest{}
		init.Params.ProtocolVersion = "2025-06-18"
		init.Params.ClientInfo = mcp.Implementation{Name: "bench", Version: "1"}
		if _, err := c.Initialize(ctx, init); err != nil {
			b.Fatal(err)
		}
		req := mcp.CallToolRequest{}
		req.Params.Name = "mod_search_docs"
		req.Params.Arguments = map[string]any{"query": "hook"}
		if res, err := c.CallTool(ctx, req); err != nil || res.IsError {
			b.Fatalf("search: %v %v", err, res)
		}
		c.Close()
	}
}

// BenchmarkStdioSearch measures a search round trip through a real stdio
// client on this repository's docs, the server already running.
func BenchmarkStdioSearch(b *testing.B) {
	bin, err := exec.LookPath("docs-mcp")
	if err != nil {
		b.Fatal(err)
	}
	c, err := client.NewStdioMCPClient(bin, nil, "--stdio", "--data-root", mcptest.RepoDir(b), "--log-level", "error")
	if err != nil {
		b.Fatal(err)
	}
	defer c.Close()
	ctx := context.Background()
	init := mcp.InitializeRequest{}
	init.Params.ProtocolVersion = "2025-06-18"
	init.Params.ClientInfo = mcp.Implementation{Name: "bench", Version: "1"}
	if _, err := c.Initialize(ctx, init); err != nil {
		b.Fatal(err)
	}
	for _, query := range []string{"hook", "mod_search_docs", "no such phrase anywhere"} {
		b.Run(query, func(b *testing.B) {
			req := mcp.CallToolRequest{}
			req.Params.Name = "mod_search_docs"
			req.Params.Arguments = map[string]any{"query": query}
			for b.Loop() {
				if res, err := c.CallTool(ctx, req); err != nil || res.IsError {
					b.Fatalf("search: %v %v", err, res)
				}
			}
		})
	}
}
