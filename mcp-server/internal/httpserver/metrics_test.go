package httpserver

import (
	"context"
	"fmt"
	"net"
	"net/http"
	"net/http/httptest"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	"github.com/mark3labs/mcp-go/mcp"
	dto "github.com/prometheus/client_model/go"
	"github.com/prometheus/common/expfmt"
	"github.com/prometheus/common/model"

	"github.com/docs-mcp/docs-mcp/mcp-server/internal/corpus"
	"github.com/docs-mcp/docs-mcp/mcp-server/internal/mcpserver"
	"github.com/docs-mcp/docs-mcp/mcp-server/internal/metrics"
	"github.com/docs-mcp/docs-mcp/mcp-server/mcptest"
)

// newMetricsFixture is newFixture with metrics: the MCP server measured
// through the metrics' tracer, /metrics served.
func newMetricsFixture(t *testing.T) *fixture {
	t.Helper()
	root, err := filepath.Abs(testRoot)
	if err != nil {
		t.Fatal(err)
	}
	snap, _, o := parts(t, root, 0)
	m := metrics.New("test")
	cfg, measured := contentConfig(root), corpus.DefaultConfig()
	cfg.Tracer, measured.Observer = m.Tracer(), m
	content := mcpserver.New(cfg, opened(snap, measured))
	o.MCP, o.Status, o.Metrics = content.MCP(), content.Status, m
	o.MaxBodyBytes = 64 << 10
	return serve(t, New(o.Config, o.Parts), content.MCP())
}

// scrape fetches /metrics and parses it as Prometheus's text format.
func (f *fixture) scrape(t *testing.T) map[string]*dto.MetricFamily {
	t.Helper()
	res, err := http.Get(f.http.URL + "/metrics")
	if err != nil {
		t.Fatal(err)
	}
	defer res.Body.Close()
	if res.StatusCode != http.StatusOK || !strings.HasPrefix(res.Header.Get("Content-Type"), "text/plain") {
		t.Fatalf("GET /metrics: %d %s", res.StatusCode, res.Header.Get("Content-Type"))
	}
	p := expfmt.NewTextParser(model.LegacyValidation)
	fams, err := p.TextToMetricFamilies(res.Body)
	if err != nil {
		t.Fatalf("parse /metrics: %v", err)
	}
	return fams
}

// value is the value of the series of family name whose labels are
// labels ("k=v,k=v"); a counter's count or a histogram's sample count.
// A missing series is -1.
func value(fams map[string]*dto.MetricFamily, name, labels string) float64 {
	fam, ok := fams[name]
	if !ok {
		return -1
	}
	for _, m := range fam.GetMetric() {
		var got []string
		for _, l := range m.GetLabel() {
			got = append(got, l.GetName()+"="+l.GetValue())
		}
		if strings.Join(got, ",") != labels {
			continue
		}
		switch {
		case m.Counter != nil:
			return m.Counter.GetValue()
		case m.Gauge != nil:
			return m.Gauge.GetValue()
		case m.Histogram != nil:
			return float64(m.Histogram.GetSampleCount())
		}
	}
	return -1
}

// TestMetrics drives the server with a real client and raw requests and
// reads /metrics: every request counted once by method, tool and outcome,
// with its latency; refusals by budget; the state /health reports.
func TestMetrics(t *testing.T) {
	f := newMetricsFixture(t)

	legacy := f.connect(t, mcp.ProtocolVersion20250618)
	mcptest.CallOK[map[string]any](t, legacy, "mod_search_docs", map[string]any{"query": "hook"})
	mcptest.CallOK[map[string]any](t, legacy, "mod_search_docs", map[string]any{"query": "player"})
	if res := mcptest.Call(t, legacy, "mod_read_doc", map[string]any{"path": "no/such/doc.md"}); !res.IsError {
		t.Fatal("mod_read_doc of a missing doc: want a tool error")
	}
	if _, err := legacy.ListTools(context.Background(), mcp.ListToolsRequest{}); err != nil {
		t.Fatal(err)
	}
	modern := f.connect(t, "") // 2026-07-28: no session
	mcptest.CallOK[map[string]any](t, modern, "mod_repo_layout", nil)

	session := f.initialize(t, nil)
	if res := do(t, f.rpc(t, session, `{"jsonrpc":"2.0","id":7,"method":"no/such/method"}`)); errorCode(res.body) == 0 {
		t.Fatalf("unknown method: want a JSON-RPC error, got %d %s", res.status, res.body)
	}
	if res := do(t, f.rpc(t, "forged-session-id", toolsListBody)); res.status != http.StatusNotFound {
		t.Fatalf("forged session: %d, want 404", res.status)
	}
	big := `{"jsonrpc":"2.0","id":3,"method":"ping","params":{"pad":"` + strings.Repeat("x", 70<<10) + `"}}`
	if res := do(t, f.rpc(t, session, big)); res.status != http.StatusRequestEntityTooLarge {
		t.Fatalf("large body: %d, want 413", res.status)
	}

	// The first snapshot's search index is built in the background.
	var fams map[string]*dto.MetricFamily
	mcptest.Eventually(t, "an index build measured", func() bool {
		fams = f.scrape(t)
		return value(fams, "docs_mcp_index_build_duration_seconds", "") >= 1
	})
	served := f.srv.parts.Status()
	got := map[string]float64{}
	want := map[string]float64{
		`requests method=initialize,outcome=ok,tool=`:                     2, // the client's and the raw one
		`requests method=server/discover,outcome=ok,tool=`:                1, // the modern client's start
		`requests method=tools/call,outcome=ok,tool=mod_search_docs`:      2,
		`requests method=tools/call,outcome=tool_error,tool=mod_read_doc`: 1,
		`requests method=tools/call,outcome=ok,tool=mod_repo_layout`:      1,
		`requests method=tools/list,outcome=ok,tool=`:                     1,
		`requests method=other,outcome=error,tool=`:                       1,
		`latency method=tools/call,tool=mod_search_docs`:                  2,
		`latency method=tools/call,tool=mod_read_doc`:                     1,
		`refusals budget=session`:                                         1,
		`refusals budget=body`:                                            1,
		`budget_limit budget=body`:                                        64 << 10,
		`docs`:                                                            float64(served.Docs),
		`hooks`:                                                           2,
		`generation`:                                                      float64(served.Generation),
		`sessions`:                                                        2,
		`serving`:                                                         1,
		`build_info version=test`:                                         1,
		`index_builds`:                                                    1,
	}
	names := map[string]string{
		"requests": "docs_mcp_requests_total", "latency": "docs_mcp_request_duration_seconds",
		"refusals": "docs_mcp_refusals_total", "budget_limit": "docs_mcp_budget_limit", "docs": "docs_mcp_docs", "hooks": "docs_mcp_hooks",
		"generation": "docs_mcp_snapshot_generation", "sessions": "docs_mcp_sessions",
		"serving": "docs_mcp_serving", "build_info": "docs_mcp_build_info",
		"index_builds": "docs_mcp_index_build_duration_seconds",
	}
	for key := range want {
		short, labels, _ := strings.Cut(key, " ")
		got[key] = value(fams, names[short], labels)
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("/metrics (-want +got):\n%s", diff)
	}
	// Every request series the server reported, to see a surprise whole.
	var series []string
	for _, m := range fams["docs_mcp_requests_total"].GetMetric() {
		var l []string
		for _, p := range m.GetLabel() {
			l = append(l, p.GetName()+"="+p.GetValue())
		}
		series = append(series, fmt.Sprintf("%s %g", strings.Join(l, ","), m.Counter.GetValue()))
	}
	if len(series) != 7 {
		t.Errorf("docs_mcp_requests_total has %d series, want the 7 above:\n%s", len(series), strings.Join(series, "\n"))
	}
	for _, name := range []string{"go_goroutines", "process_resident_memory_bytes", "docs_mcp_streams"} {
		if _, ok := fams[name]; !ok {
			t.Errorf("/metrics lacks %s", name)
		}
	}
}

// TestDrainDelay: after the signal, the server goes on serving for the
// drain delay with /health saying "stopping", so a load balancer takes it
// out before its listener closes; a session's requests are still answered.
func TestDrainDelay(t *testing.T) {
	root, err := filepath.Abs(testRoot)
	if err != nil {
		t.Fatal(err)
	}
	_, mcpSrv, o := parts(t, root, 0)
	o.DrainDelay = 5 * time.Second
	srv := New(o.Config, o.Parts)
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	ctx, stop := context.WithCancel(context.Background())
	served := make(chan error, 1)
	go func() { served <- srv.Serve(ctx, ln) }()
	f := &fixture{srv: srv, mcp: mcpSrv, http: &httptest.Server{URL: "http://" + ln.Addr().String()}, url: "http://" + ln.Addr().String() + "/mcp"}

	session := f.initialize(t, nil)
	if h := f.health(t); h.Status != "ok" {
		t.Fatalf("before the signal: health %q", h.Status)
	}
	stop()
	for f.health(t).Status != "stopping" {
		select {
		case err := <-served:
			t.Fatalf("Serve returned before draining: %v", err)
		default:
		}
	}
	// Draining: still answering the session, refusing new ones.
	if res := do(t, f.rpc(t, session, toolsListBody)); res.status != http.StatusOK {
		t.Errorf("a session's request while draining: %d %s", res.status, res.body)
	}
	if res := do(t, f.rpc(t, "", initializeBody)); res.status != http.StatusServiceUnavailable {
		t.Errorf("initialize while draining: %d, want 503", res.status)
	}
	if err := <-served; err != nil {
		t.Fatalf("Serve: %v", err)
	}
	if _, err := http.Get(f.http.URL + "/health"); err == nil {
		t.Error("the listener still answers after Serve returned")
	}
}
