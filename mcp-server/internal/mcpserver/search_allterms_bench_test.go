package mcpserver

import (
	"context"
	"encoding/json"
	"testing"

	"github.com/docs-mcp/docs-mcp/mcp-server/mcptest"
)

// BenchmarkSearchAllTerms times all_terms searches on 40,000 generated
// small docs (about 40 MB) until their answer is complete, cursors
// followed with limit 200, as the server answers each call (the request
// in, the answer out as the bytes a transport sends). Each reports the
// calls it took, the pages among them that came back empty with a cursor,
// and the process's CPU per complete answer (cpu-ns/op):
//
//	go test -run '^$' -bench SearchAllTerms -benchtime 10x ./mcp-server/internal/mcpserver
//
// The queries: rare, "page" (in most docs) and "kept" (in twenty, on
// ZephyrQuotaLedger's line); absent, "deprecated" (in most docs) and
// "quota" (in those twenty), which no line holds together; common, three
// common words that a few hundred lines hold together.
func BenchmarkSearchAllTerms(b *testing.B) {
	srv := generatedServer(b, 40000)
	for _, tc := range []struct{ name, query string }{
		{"rare", "page kept"},
		{"absent", "deprecated quota"},
		{"common", "timeout retry socket"},
	} {
		b.Run(tc.name, func(b *testing.B) {
			var calls, empty, matches int
			cpu := mcptest.CPUTime()
			for b.Loop() {
				calls, empty, matches = 0, 0, 0
				args := map[string]any{"query": tc.query, "match": "all_terms", "limit": 200}
				for {
					out := callSearch(b, srv, args)
					calls++
					n := out.count()
					matches += n
					if n == 0 && out.HasMore {
						empty++
					}
					if !out.HasMore {
						break
					}
					args["cursor"] = out.NextCursor
				}
			}
			b.ReportMetric(float64(mcptest.CPUTime()-cpu)/float64(b.N), "cpu-ns/op")
			b.ReportMetric(float64(calls), "calls")
			b.ReportMetric(float64(empty), "empty-pages")
			b.ReportMetric(float64(matches), "matches")
		})
	}
}

// callSearch is one mod_search_docs call with args, answered by srv as a
// transport has it answered, and its structured result.
func callSearch(b *testing.B, srv *Server, args map[string]any) SearchDocsOutput {
	b.Helper()
	msg, err := json.Marshal(map[string]any{"jsonrpc": "2.0", "id": 1, "method": "tools/call",
		"params": map[string]any{"name": "mod_search_docs", "arguments": args}})
	if err != nil {
		b.Fatal(err)
	}
	raw, err := json.Marshal(srv.MCP().HandleMessage(context.Background(), msg))
	if err != nil {
		b.Fatal(err)
	}
	var res struct {
		Result struct {
			IsError           bool             `json:"isError"`
			StructuredContent SearchDocsOutput `json:"structuredContent"`
		} `json:"result"`
	}
	if err := json.Unmarshal(raw, &res); err != nil || res.Result.IsError {
		b.Fatalf("search %v: %v %s", args, err, raw)
	}
	return res.Result.StructuredContent
}
