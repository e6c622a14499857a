// Package metrics measures docs-mcp for Prometheus: MCP requests by method,
// tool and outcome with their latency, refusals by budget, sessions and
// streams, the docs and hooks served, the snapshot generation, and how long
// reloads and search-index builds take. Handler serves them in the
// Prometheus text format (GET /metrics).
//
// Requests are measured through mcp-go's tracing hooks (Tracer): mcp-go
// opens a span around every JSON-RPC request it dispatches, names the tool
// of a tools/call on it and marks failures, so every request is counted
// once, over any transport, with no second parse of the message. The state
// gauges are read at scrape time from a status.Status function, the same
// report /health gives.
//
// Each Metrics has its own registry: no global state, and two servers in
// one process (tests) do not share counters.
package metrics

import (
	"context"
	"net/http"
	"sync"
	"sync/atomic"
	"time"

	"github.com/mark3labs/mcp-go/tracing"
	"github.com/prometheus/client_golang/prometheus"
	"github.com/prometheus/client_golang/prometheus/collectors"
	"github.com/prometheus/client_golang/prometheus/promhttp"

	"github.com/docs-mcp/docs-mcp/mcp-server/internal/budget"
	"github.com/docs-mcp/docs-mcp/mcp-server/internal/protocol"
	"github.com/docs-mcp/docs-mcp/mcp-server/internal/status"
)

const namespace = "docs_mcp"

// Outcomes of a request, the outcome label of docs_mcp_requests_total.
const (
	OutcomeOK        = "ok"         // a result
	OutcomeToolError = "tool_error" // a tool result with isError: a user mistake the tool explained
	OutcomeError     = "error"      // a JSON-RPC error
)

// Metrics holds docs-mcp's collectors and the registry they live in.
type Metrics struct {
	reg      *prometheus.Registry
	requests *prometheus.CounterVec
	latency  *prometheus.HistogramVec
	refusals *refusals
	reloads  prometheus.Histogram
	indexes  prometheus.Histogram
}

// New returns the metrics of a server whose version is version.
func New(version string) *Metrics {
	m := &Metrics{
		reg: prometheus.NewRegistry(),
		requests: prometheus.NewCounterVec(prometheus.CounterOpts{
			Namespace: namespace,
			Name:      "requests_total",
			Help:      "MCP requests answered, by JSON-RPC method, tool (tools/call only) and outcome (ok, tool_error, error).",
		}, []string{"method", "tool", "outcome"}),
		latency: prometheus.NewHistogramVec(prometheus.HistogramOpts{
			Namespace: namespace,
			Name:      "request_duration_seconds",
			Help:      "Time to answer an MCP request, by JSON-RPC method and tool (tools/call only).",
			Buckets:   []float64{.0005, .001, .0025, .005, .01, .025, .05, .1, .25, .5, 1, 2.5, 5, 10},
		}, []string{"method", "tool"}),
		refusals: &refusals{rules: map[string]*atomic.Int64{}},
		reloads: prometheus.NewHistogram(prometheus.HistogramOpts{
			Namespace: namespace,
			Name:      "reload_duration_seconds",
			Help:      "Time to read a change of the docs folder into a new snapshot.",
			Buckets:   prometheus.ExponentialBuckets(.001, 4, 8), // 1ms to 16s
		}),
		indexes: prometheus.NewHistogram(prometheus.HistogramOpts{
			Namespace: namespace,
			Name:      "index_build_duration_seconds",
			Help:      "Time to build the search index of a snapshot.",
			Buckets:   prometheus.ExponentialBuckets(.001, 4, 8),
		}),
	}
	info := prometheus.NewGauge(prometheus.GaugeOpts{
		Namespace:   namespace,
		Name:        "build_info",
		Help:        "Always 1; the version label is the server's version.",
		ConstLabels: prometheus.Labels{"version": version},
	})
	info.Set(1)
	m.reg.MustRegister(m.requests, m.latency, m.refusals, m.reloads, m.indexes, info,
		collectors.NewGoCollector(),
		collectors.NewProcessCollector(collectors.ProcessCollectorOpts{}))
	return m
}

// ReportStatus has status called at each scrape for the state gauges
// (docs_mcp_serving, _docs, _hooks, _snapshot_generation, _sessions,
// _streams). Call it once.
func (m *Metrics) ReportStatus(status func() status.Status) {
	m.reg.MustRegister(statusCollector(status))
}

// Handler serves the metrics in the Prometheus exposition format.
func (m *Metrics) Handler() http.Handler {
	return promhttp.HandlerFor(m.reg, promhttp.HandlerOpts{Registry: m.reg})
}

// Refused counts a request refused by a rule that is no budget: a missing
// token, a foreign origin, an unknown session. Refusals by budget are read
// from the budgets themselves (ReportBudgets).
func (m *Metrics) Refused(rule string) { m.refusals.add(rule) }

// ReportBudgets has report called at each scrape for the budgets: their
// limits, what is in use, and the requests each refused (in
// docs_mcp_refusals_total, beside the rules' refusals). Call it once.
func (m *Metrics) ReportBudgets(report func() []budget.Usage) {
	m.refusals.mu.Lock()
	defer m.refusals.mu.Unlock()
	m.refusals.budgets = report
}

// ObserveReload records how long reading a docs change took.
func (m *Metrics) ObserveReload(d time.Duration) { m.reloads.Observe(d.Seconds()) }

// ObserveIndexBuild records how long building a search index took.
func (m *Metrics) ObserveIndexBuild(d time.Duration) { m.indexes.Observe(d.Seconds()) }

// Tracer returns the mcp-go tracer that measures requests; install it with
// server.WithTracer.
func (m *Metrics) Tracer() tracing.Tracer { return tracer{m} }

// methodLabel is the method label of a request: its method if the server
// answers it, "other" for anything else. The method of a request is the
// client's to choose, and every distinct label value is a new series.
func methodLabel(method string) string {
	if protocol.Known(method) {
		return method
	}
	return "other"
}

const (
	attrMethod = "mcp.method"
	attrTool   = "mcp.tool.name"
	// toolSpanPrefix names mcp-go's span around a tool handler.
	toolSpanPrefix = "tool."
)

// tracer turns mcp-go's spans into measurements. mcp-go starts a server
// span "mcp.<method>" around each request it dispatches and, for a tool,
// an internal span "tool.<name>" inside it; only the spans are looked at,
// nothing is exported.
type tracer struct{ m *Metrics }

func (t tracer) Start(ctx context.Context, name string, kind tracing.SpanKind, attrs ...tracing.Attribute) (context.Context, tracing.Span) {
	var sp tracing.Span
	switch kind {
	case tracing.SpanKindServer:
		r := &request{m: t.m, start: time.Now(), outcome: OutcomeOK}
		r.SetAttributes(attrs...)
		sp = r
	case tracing.SpanKindInternal:
		// A tool handler's span: it tells its request whether the tool
		// answered with an error result (RecordError is only called for a
		// Go error, which becomes a JSON-RPC error on the request anyway).
		parent, _ := tracing.SpanFromContext(ctx).(*request)
		sp = &toolSpan{parent: parent}
	default:
		return ctx, noSpan{}
	}
	return tracing.ContextWithSpan(ctx, sp), sp
}

// request is the span of one MCP request. mcp-go uses a span from one
// goroutine, the request's.
type request struct {
	m       *Metrics
	start   time.Time
	method  string
	tool    string
	outcome string
}

func (r *request) SetAttributes(attrs ...tracing.Attribute) {
	for _, a := range attrs {
		switch a.Key {
		case attrMethod:
			r.method = methodLabel(a.Value)
		case attrTool:
			r.tool = a.Value // only set for a registered tool: mcp-go refuses others before its middleware
		}
	}
}

func (r *request) RecordError(error) {}

func (r *request) SetStatus(code tracing.StatusCode, _ string) {
	if code == tracing.StatusError && r.outcome == OutcomeOK {
		r.outcome = OutcomeError
	}
}

func (r *request) End() {
	d := time.Since(r.start).Seconds()
	r.m.requests.WithLabelValues(r.method, r.tool, r.outcome).Inc()
	r.m.latency.WithLabelValues(r.method, r.tool).Observe(d)
}

// toolSpan is the span around a tool handler. mcp-go marks it failed
// (SetStatus) both for an error result and for a Go error, which it also
// records (RecordError, after SetStatus); only at End is it known which.
type toolSpan struct {
	parent  *request
	failed  bool // SetStatus(StatusError)
	errored bool // RecordError: a Go error, which the request reports as a JSON-RPC error
}

func (s *toolSpan) SetAttributes(...tracing.Attribute) {}
func (s *toolSpan) RecordError(error)                  { s.errored = true }
func (s *toolSpan) SetStatus(code tracing.StatusCode, _ string) {
	s.failed = s.failed || code == tracing.StatusError
}
func (s *toolSpan) End() {
	if s.failed && !s.errored && s.parent != nil {
		s.parent.outcome = OutcomeToolError
	}
}

type noSpan struct{}

func (noSpan) SetAttributes(...tracing.Attribute)   {}
func (noSpan) RecordError(error)                    {}
func (noSpan) SetStatus(tracing.StatusCode, string) {}
func (noSpan) End()                                 {}

// statusCollector reports Status as gauges at each scrape.
type statusCollector func() status.Status

var (
	descServing    = prometheus.NewDesc(namespace+"_serving", "1 while /health says ok; 0 while loading the docs or stopping.", nil, nil)
	descDocs       = prometheus.NewDesc(namespace+"_docs", "Docs in the snapshot served.", nil, nil)
	descHooks      = prometheus.NewDesc(namespace+"_hooks", "Hooks in the registry served; -1 when it cannot be read.", nil, nil)
	descGeneration = prometheus.NewDesc(namespace+"_snapshot_generation", "Generation of the docs snapshot served; grows with each change on disk.", nil, nil)
	descSessions   = prometheus.NewDesc(namespace+"_sessions", "Live MCP sessions (protocol versions before 2026-07-28).", nil, nil)
	descStreams    = prometheus.NewDesc(namespace+"_streams", "Open GET (SSE) streams.", nil, nil)
)

func (c statusCollector) Describe(ch chan<- *prometheus.Desc) {
	for _, d := range []*prometheus.Desc{descServing, descDocs, descHooks, descGeneration, descSessions, descStreams} {
		ch <- d
	}
}

func (c statusCollector) Collect(ch chan<- prometheus.Metric) {
	st := c()
	serving := 0.0
	if st.Serving() {
		serving = 1
	}
	gauge := func(d *prometheus.Desc, v float64) {
		ch <- prometheus.MustNewConstMetric(d, prometheus.GaugeValue, v)
	}
	gauge(descServing, serving)
	gauge(descDocs, float64(st.Docs))
	gauge(descHooks, float64(st.Hooks))
	gauge(descGeneration, float64(st.Generation))
	gauge(descSessions, float64(st.Sessions))
	gauge(descStreams, float64(st.Streams))
}

// refusals is docs_mcp_refusals_total and the budgets' gauges: the rules'
// refusals counted here, the budgets' read from their report at each
// scrape (one family, so one collector).
type refusals struct {
	mu      sync.Mutex
	rules   map[string]*atomic.Int64
	budgets func() []budget.Usage
}

var (
	descRefusals = prometheus.NewDesc(namespace+"_refusals_total", "Requests refused, by the budget (sessions, streams, body, connections, subscriptions, notifications) or the rule (token, origin, session: an unknown session id) that refused them.", []string{"budget"}, nil)
	descLimit    = prometheus.NewDesc(namespace+"_budget_limit", "The limit of each budget (a count, or bytes for body).", []string{"budget"}, nil)
	descUsed     = prometheus.NewDesc(namespace+"_budget_used", "How much of each budget is in use now (budgets that apply per request or per session have none).", []string{"budget"}, nil)
)

func (r *refusals) add(rule string) {
	r.mu.Lock()
	n := r.rules[rule]
	if n == nil {
		n = new(atomic.Int64)
		r.rules[rule] = n
	}
	r.mu.Unlock()
	n.Add(1)
}

func (r *refusals) Describe(ch chan<- *prometheus.Desc) {
	ch <- descRefusals
	ch <- descLimit
	ch <- descUsed
}

func (r *refusals) Collect(ch chan<- prometheus.Metric) {
	r.mu.Lock()
	counts := make(map[string]float64, len(r.rules))
	for rule, n := range r.rules {
		counts[rule] = float64(n.Load())
	}
	report := r.budgets
	r.mu.Unlock()
	if report != nil {
		for _, u := range report() {
			name := string(u.Name)
			counts[name] += float64(u.Refused)
			ch <- prometheus.MustNewConstMetric(descLimit, prometheus.GaugeValue, float64(u.Limit), name)
			if u.Used != nil {
				ch <- prometheus.MustNewConstMetric(descUsed, prometheus.GaugeValue, float64(*u.Used), name)
			}
		}
	}
	for name := range counts {
		ch <- prometheus.MustNewConstMetric(descRefusals, prometheus.CounterValue, counts[name], name)
	}
}
