package mcpserver

import (
	"context"
	"encoding/json"
	"path/filepath"
	"testing"

	"github.com/mark3labs/mcp-go/mcp"

	"github.com/docs-mcp/docs-mcp/mcp-server/internal/corpus"
	"github.com/docs-mcp/docs-mcp/mcp-server/internal/corpusgen"
	"github.com/docs-mcp/docs-mcp/mcp-server/internal/docs"
	"github.com/docs-mcp/docs-mcp/mcp-server/internal/search"
	"github.com/docs-mcp/docs-mcp/mcp-server/mcptest"
)

// BenchmarkSearchPage measures a mod_search_docs call for a page of 50
// matches of a common word on 2,000 generated small files, with its
// allocations: through mcp-go's in-process client (client), and the
// server's share alone (server: the handler, the result's structured
// content and its text copy, their encoding). Besides wall time each
// reports the process's CPU time per call (cpu-ns/op, all goroutines, the
// collector's included), which says more on a shared machine. The round
// trip over stdio, with the pipes, is searchbench's.
//
//	go test -run '^$' -bench SearchPage -benchmem ./mcp-server/internal/mcpserver
func BenchmarkSearchPage(b *testing.B) {
	ctx := context.Background()
	srv := benchServer(b)
	c, _ := mcptest.InProcess(b, srv.MCP(), "") // the revision mcp-go picks when none is asked for, as the figures in benchmarks.md were measured
	req := mcp.CallToolRequest{}
	req.Params.Name = "mod_search_docs"
	req.Params.Arguments = map[string]any{"query": "player", "limit": 50}
	// client: the whole call through mcp-go's client, which decodes the
	// answer (a scan of every byte per json.Unmarshal, of which a call
	// makes several).
	b.Run("client", func(b *testing.B) {
		b.ReportAllocs()
		cpu := mcptest.CPUTime()
		for b.Loop() {
			res, err := c.CallTool(ctx, req)
			if err != nil || res.IsError {
				b.Fatalf("search: %v %v", err, res)
			}
			if n := len(mcptest.SearchHits(b, res)); n != 50 {
				b.Fatalf("%d matches, want 50", n)
			}
		}
		b.ReportMetric(float64(mcptest.CPUTime()-cpu)/float64(b.N), "cpu-ns/op")
	})
	// server: the server's share alone, as a transport runs it: the
	// request in, the answer out as the bytes it sends.
	b.Run("server", func(b *testing.B) {
		msg := json.RawMessage(`{"jsonrpc":"2.0","id":7,"method":"tools/call","params":{"name":"mod_search_docs","arguments":{"query":"player","limit":50}}}`)
		var size int
		b.ReportAllocs()
		cpu := mcptest.CPUTime()
		for b.Loop() {
			out, err := json.Marshal(srv.MCP().HandleMessage(ctx, msg))
			if err != nil {
				b.Fatal(err)
			}
			size = len(out)
		}
		b.ReportMetric(float64(mcptest.CPUTime()-cpu)/float64(b.N), "cpu-ns/op")
		if size < 10_000 {
			b.Fatalf("an answer of %d bytes: not a page of 50 matches", size)
		}
		b.ReportMetric(float64(size), "bytes/answer")
	})
}

// BenchmarkClientDecode: the page of BenchmarkSearchPage decoded as
// mcp-go's stdio client decodes an answer line (mcptest.DecodeAsMCPGo):
// the client's share of a call, which a server shortens only by sending
// fewer bytes.
func BenchmarkClientDecode(b *testing.B) {
	srv := benchServer(b)
	msg := json.RawMessage(`{"jsonrpc":"2.0","id":7,"method":"tools/call","params":{"name":"mod_search_docs","arguments":{"query":"player","limit":50}}}`)
	line, err := json.Marshal(srv.MCP().HandleMessage(context.Background(), msg))
	if err != nil {
		b.Fatal(err)
	}
	b.SetBytes(int64(len(line)))
	b.ReportAllocs()
	for b.Loop() {
		res, err := mcptest.DecodeAsMCPGo(line)
		if err != nil {
			b.Fatalf("decode: %v", err)
		}
		if n := len(mcptest.SearchHits(b, res)); n != 50 {
			b.Fatalf("decoded %d matches, want 50", n)
		}
	}
}

// benchServer serves 2,000 generated small files, indexed.
func benchServer(b *testing.B) *Server { return generatedServer(b, 2000) }

// generatedServer serves files generated small files (corpusgen, seed 1),
// indexed.
func generatedServer(b *testing.B, files int) *Server {
	root := b.TempDir()
	dir := filepath.Join(root, "docs")
	ctx := context.Background()
	if _, err := corpusgen.Generate(ctx, dir, corpusgen.Options{Seed: 1, Files: files, Shape: corpusgen.Small}); err != nil {
		b.Fatal(err)
	}
	snap, err := docs.Load(ctx, dir, docs.LoadOptions{Generation: 1})
	if err != nil {
		b.Fatal(err)
	}
	cfg := DefaultConfig()
	cfg.DataRoot = root
	srv := New(cfg, openCorpus(snap, corpus.DefaultConfig()))
	<-search.Build(snap, nil).Done()
	return srv
}

// BenchmarkListPage measures the server's share of a page of doc listings
// on 2,000 generated small files: resources/list (500 docs, each with its
// title) and mod_list_doc_paths (its default limit), the request in and the
// answer out as the bytes a transport sends.
//
//	go test -run '^$' -bench ListPage -benchmem ./mcp-server/internal/mcpserver
func BenchmarkListPage(b *testing.B) {
	ctx := context.Background()
	srv := benchServer(b)
	for _, tc := range []struct{ name, msg string }{
		{"resources", `{"jsonrpc":"2.0","id":7,"method":"resources/list"}`},
		{"tool", `{"jsonrpc":"2.0","id":7,"method":"tools/call","params":{"name":"mod_list_doc_paths","arguments":{}}}`},
	} {
		b.Run(tc.name, func(b *testing.B) {
			var size int
			b.ReportAllocs()
			for b.Loop() {
				out, err := json.Marshal(srv.MCP().HandleMessage(ctx, json.RawMessage(tc.msg)))
				if err != nil {
					b.Fatal(err)
				}
				size = len(out)
			}
			if size < 10_000 {
				b.Fatalf("an answer of %d bytes: not a page of docs", size)
			}
			b.ReportMetric(float64(size), "bytes/answer")
		})
	}
}
