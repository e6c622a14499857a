package mcpserver

import (
	"context"
	"encoding/json"
	"slices"
	"testing"
	"time"

	"github.com/docs-mcp/docs-mcp/mcp-server/internal/rank"
	"github.com/docs-mcp/docs-mcp/mcp-server/mcptest"
)

// BenchmarkAskDocs times a mod_ask_docs call on 40,000 generated small docs
// (about 37 MB), its ranking built, as the server answers it (the request
// in, the answer out as the bytes a transport sends), for questions as
// users phrase them. Each reports the p50 and p95 of its calls besides
// the mean, and the process's CPU a call:
//
//	go test -run '^$' -bench AskDocs -benchtime 300x ./mcp-server/internal/mcpserver
func BenchmarkAskDocs(b *testing.B) {
	srv := generatedServer(b, 40000)
	if _, err := rank.Await(context.Background(), srv.corpus.Snapshot()); err != nil {
		b.Fatal(err)
	}
	for _, tc := range []struct{ name, question string }{
		{"question", "how does my mod react when a player joins?"},
		{"identifier", "what does the player.joined hook carry"},
		{"words", "session timeout configuration"},
		{"rare", "ZephyrQuotaLedger"},
	} {
		b.Run(tc.name, func(b *testing.B) {
			msg, err := json.Marshal(map[string]any{"jsonrpc": "2.0", "id": 1, "method": "tools/call",
				"params": map[string]any{"name": "mod_ask_docs", "arguments": map[string]any{"question": tc.question}}})
			if err != nil {
				b.Fatal(err)
			}
			var times []time.Duration
			cpu := mcptest.CPUTime()
			for b.Loop() {
				begin := time.Now()
				raw, err := json.Marshal(srv.MCP().HandleMessage(context.Background(), msg))
				times = append(times, time.Since(begin))
				if err != nil {
					b.Fatal(err)
				}
				var res struct {
					Result struct {
						IsError           bool          `json:"isError"`
						StructuredContent AskDocsOutput `json:"structuredContent"`
					} `json:"result"`
				}
				if err := json.Unmarshal(raw, &res); err != nil || res.Result.IsError || len(res.Result.StructuredContent.Sections) == 0 {
					b.Fatalf("%q: %v %s", tc.question, err, raw)
				}
			}
			b.ReportMetric(float64(mcptest.CPUTime()-cpu)/float64(b.N), "cpu-ns/op")
			slices.Sort(times)
			b.ReportMetric(float64(times[len(times)/2].Nanoseconds()), "p50-ns")
			b.ReportMetric(float64(times[len(times)*95/100].Nanoseconds()), "p95-ns")
		})
	}
}
