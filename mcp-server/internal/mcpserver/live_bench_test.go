package mcpserver

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"testing"
	"time"

	"github.com/mark3labs/mcp-go/mcp"

	"github.com/docs-mcp/docs-mcp/mcp-server/mcptest"
	"github.com/docs-mcp/docs-mcp/mcp-server/watch"
)

// BenchmarkEditToSearchable measures, per edit, the time from writing a doc
// on disk to the first mod_search_docs call (through a real client) that
// finds the new text, on a 2000-doc corpus followed with file events. It
// reports the median and 95th percentile as p50-ms and p95-ms. Run it with
// -benchtime 100x for 100 edits.
func BenchmarkEditToSearchable(b *testing.B) {
	root := b.TempDir()
	docsDir := filepath.Join(root, "docs")
	for i := range 2000 {
		p := filepath.Join(docsDir, fmt.Sprintf("area-%02d", i%20), fmt.Sprintf("page-%04d.md", i))
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			b.Fatal(err)
		}
		if err := os.WriteFile(p, fmt.Appendf(nil, "# Page %d\n\nHooks and events, page %d.\n", i, i), 0o644); err != nil {
			b.Fatal(err)
		}
	}
	ctx := context.Background()
	cfg := DefaultConfig()
	cfg.DataRoot = root
	srv, _ := runCorpus(b, cfg, docsDir, watch.Auto)

	c, _ := mcptest.InProcess(b, srv.MCP(), "2025-06-18") // a revision with sessions: edits are followed per session
	found := func(token string) bool {
		req := mcp.CallToolRequest{}
		req.Params.Name = "mod_search_docs"
		req.Params.Arguments = map[string]any{"query": token, "path_prefix": "area-07/"}
		res, err := c.CallTool(ctx, req)
		if err != nil || res.IsError {
			b.Fatalf("search: %v %v", err, res)
		}
		return len(mcptest.SearchHits(b, res)) > 0
	}

	var latencies []time.Duration
	i := 0
	for b.Loop() {
		i++
		token := fmt.Sprintf("token%06dx", i)
		p := filepath.Join(docsDir, "area-07", "page-0007.md")
		start := time.Now()
		if err := os.WriteFile(p, fmt.Appendf(nil, "# Page 7\n\nEdited: %s.\n", token), 0o644); err != nil {
			b.Fatal(err)
		}
		for !found(token) {
			if time.Since(start) > time.Minute {
				b.Fatalf("edit %d never became searchable", i)
			}
			time.Sleep(200 * time.Microsecond)
		}
		latencies = append(latencies, time.Since(start))
	}
	slices.Sort(latencies)
	pct := func(q float64) float64 {
		return float64(latencies[int(q*float64(len(latencies)-1))].Microseconds()) / 1000
	}
	b.ReportMetric(pct(0.50), "p50-ms")
	b.ReportMetric(pct(0.95), "p95-ms")
}
