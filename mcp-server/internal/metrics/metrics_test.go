package metrics

import (
	"context"
	"errors"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	"github.com/mark3labs/mcp-go/client"
	"github.com/mark3labs/mcp-go/mcp"
	"github.com/mark3labs/mcp-go/server"
	"github.com/prometheus/common/expfmt"
	"github.com/prometheus/common/model"

	"github.com/docs-mcp/docs-mcp/mcp-server/internal/budget"
	"github.com/docs-mcp/docs-mcp/mcp-server/internal/status"
)

// TestTracerOutcomes serves three tools through mcp-go with the tracer
// installed and calls them with mcp-go's in-process client: a result, an
// error result (a tool error) and a Go error (a JSON-RPC error) are told
// apart, each counted once with its latency; an unknown tool is a
// JSON-RPC error without a tool label.
func TestTracerOutcomes(t *testing.T) {
	m := New("test")
	s := server.NewMCPServer("metrics-test", "1", server.WithToolCapabilities(false), server.WithTracer(m.Tracer()))
	s.AddTool(mcp.NewTool("fine"), func(context.Context, mcp.CallToolRequest) (*mcp.CallToolResult, error) {
		return mcp.NewToolResultText("ok"), nil
	})
	s.AddTool(mcp.NewTool("mistaken"), func(context.Context, mcp.CallToolRequest) (*mcp.CallToolResult, error) {
		return mcp.NewToolResultError("no such page"), nil
	})
	s.AddTool(mcp.NewTool("broken"), func(context.Context, mcp.CallToolRequest) (*mcp.CallToolResult, error) {
		return nil, errors.New("disk on fire")
	})
	c, err := client.NewInProcessClient(s)
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	ctx := context.Background()
	if err := c.Start(ctx); err != nil {
		t.Fatal(err)
	}
	if _, err := c.Initialize(ctx, mcp.InitializeRequest{}); err != nil {
		t.Fatal(err)
	}
	call := func(name string) {
		req := mcp.CallToolRequest{}
		req.Params.Name = name
		_, _ = c.CallTool(ctx, req) // outcomes are read from /metrics
	}
	call("fine")
	call("fine")
	call("mistaken")
	call("broken")
	call("missing")

	got := scrape(t, m)
	want := map[string]float64{
		`docs_mcp_requests_total{method="tools/call",outcome="ok",tool="fine"}`:             2,
		`docs_mcp_requests_total{method="tools/call",outcome="tool_error",tool="mistaken"}`: 1,
		`docs_mcp_requests_total{method="tools/call",outcome="error",tool="broken"}`:        1,
		`docs_mcp_requests_total{method="tools/call",outcome="error",tool=""}`:              1,
		`docs_mcp_request_duration_seconds_count{method="tools/call",tool="fine"}`:          2,
		`docs_mcp_request_duration_seconds_count{method="tools/call",tool=""}`:              1,
	}
	for key := range want {
		if _, ok := got[key]; !ok {
			got[key] = -1
		}
	}
	for key := range got {
		if _, ok := want[key]; !ok {
			delete(got, key)
		}
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("/metrics (-want +got):\n%s", diff)
	}
}

// TestStatus reports the status function's figures at each scrape.
func TestStatus(t *testing.T) {
	m := New("v1.2.3")
	n := 0
	m.ReportStatus(func() status.Status {
		n++
		return status.Status{Loaded: true, Docs: 20 + n, Hooks: -1, Generation: 7, Sessions: 3, Streams: 1}
	})
	m.Refused("token")
	used := int64(4)
	m.ReportBudgets(func() []budget.Usage {
		return []budget.Usage{
			{Name: budget.Sessions, Limit: 1000, Used: &used, Refused: 2},
			{Name: budget.Body, Limit: 4 << 20, Refused: 1},
		}
	})
	m.ObserveReload(20 * time.Millisecond)
	m.ObserveIndexBuild(time.Second)
	scrape(t, m)
	got := scrape(t, m)
	want := map[string]float64{
		`docs_mcp_serving`:                          1,
		`docs_mcp_docs`:                             22, // the second scrape's
		`docs_mcp_hooks`:                            -1,
		`docs_mcp_snapshot_generation`:              7,
		`docs_mcp_sessions`:                         3,
		`docs_mcp_streams`:                          1,
		`docs_mcp_refusals_total{budget="body"}`:    1,
		`docs_mcp_reload_duration_seconds_count`:    1,
		`docs_mcp_reload_duration_seconds_sum`:      0.02,
		`docs_mcp_index_build_duration_seconds_sum`: 1,
		`docs_mcp_build_info{version="v1.2.3"}`:     1,
	}
	if _, ok := got[`docs_mcp_budget_used{budget="body"}`]; ok {
		t.Error("a per-request budget (body) reported as in use")
	}
	for key, w := range want {
		if got[key] != w {
			t.Errorf("%s = %v, want %v", key, got[key], w)
		}
	}
}

// scrape reads the metrics as Prometheus would, into series → value.
func scrape(t *testing.T, m *Metrics) map[string]float64 {
	t.Helper()
	rec := httptest.NewRecorder()
	m.Handler().ServeHTTP(rec, httptest.NewRequest(http.MethodGet, "/metrics", nil))
	if rec.Code != http.StatusOK {
		t.Fatalf("GET /metrics: %d", rec.Code)
	}
	p := expfmt.NewTextParser(model.LegacyValidation)
	fams, err := p.TextToMetricFamilies(strings.NewReader(rec.Body.String()))
	if err != nil {
		t.Fatalf("parse: %v", err)
	}
	out := map[string]float64{}
	for name, fam := range fams {
		for _, s := range fam.GetMetric() {
			var labels []string
			for _, l := range s.GetLabel() {
				labels = append(labels, l.GetName()+`="`+l.GetValue()+`"`)
			}
			key := func(suffix string) string {
				if len(labels) == 0 {
					return name + suffix
				}
				return name + suffix + "{" + strings.Join(labels, ",") + "}"
			}
			switch {
			case s.Counter != nil:
				out[key("")] = s.Counter.GetValue()
			case s.Gauge != nil:
				out[key("")] = s.Gauge.GetValue()
			case s.Histogram != nil:
				out[key("_count")] = float64(s.Histogram.GetSampleCount())
				out[key("_sum")] = s.Histogram.GetSampleSum()
			}
		}
	}
	return out
}
