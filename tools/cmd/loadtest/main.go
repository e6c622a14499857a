// Command loadtest drives a docs-mcp HTTP server with real MCP sessions
// (mcp-go's Streamable HTTP client) and reports throughput, latency
// percentiles, errors and the server's memory.
//
// Each of -sessions workers runs sessions one after another: initialize,
// then -calls rounds of mod_search_docs followed by mod_read_doc of the
// first hit (back to back, or -pause apart, as an assistant calls), then
// DELETE. A session the server no longer knows (HTTP 404:
// its replica died, or was replaced behind a load balancer) is started
// again, as the specification tells clients to, and the call retried once
// on the new session; the report counts these re-initialisations apart
// from errors, and a DELETE answered 404 (the session's server forgot it
// first) apart from the DELETEs answered. A call whose answer is cut off mid-way (its replica was
// killed while writing it: no proxy can send that one elsewhere), or whose
// kept-alive connection the proxy closed as it was sent, is made
// once more, which is safe since every docs-mcp tool is read-only; the
// report counts these as interrupted. Workers stop after -duration, or, with -total,
// once that many sessions have been run in all. The report gives requests/s
// and p50/p95/p99 for every operation, the number of errors, and, with
// -pid, the server's resident memory (VmRSS) before and after the run and
// its peak (VmHWM), read from /proc.
//
//	go run ./tools/cmd/loadtest -url http://127.0.0.1:3000/mcp -sessions 50 -duration 20s -pid $(pgrep -n docs-mcp)
//	go run ./tools/cmd/loadtest -sessions 50 -total 1000 -calls 1
//
// With -flood N, N more raw sessions send -flood-bytes bodies of
// -flood-methods again and again during the run (issue 35's hostile
// load), and the report adds the statuses they got:
//
//	go run ./tools/cmd/loadtest -sessions 1 -duration 30s -flood 64 -flood-bytes 3145728 -pid $(pgrep -n docs-mcp)
//
// With -churn N, N more loops open sessions as fast as they can and
// never end them (initialize, notifications/initialized, ping), and the
// report adds their initializes' statuses:
//
//	go run ./tools/cmd/loadtest -sessions 1 -total 1 -calls 30 -churn 8
//
// With -json the report is one JSON object (see summary) instead of text.
package main

import (
	"context"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"maps"
	"net/http"
	"os"
	"os/signal"
	"slices"
	"strings"
	"sync"
	"sync/atomic"
	"syscall"
	"time"

	"github.com/mark3labs/mcp-go/client"
	"github.com/mark3labs/mcp-go/client/transport"
	"github.com/mark3labs/mcp-go/mcp"

	"github.com/docs-mcp/docs-mcp/mcp-server/mcptest"
)

type config struct {
	url      string
	sessions int
	duration time.Duration
	total    int
	calls    int
	pause    time.Duration
	query    string
	protocol string
	token    string
	pid      int
	hold     time.Duration
	json     bool
	flood    floodConfig
	churn    int
}

func main() {
	var cfg config
	flag.StringVar(&cfg.url, "url", "http://127.0.0.1:3000/mcp", "the server's MCP endpoint")
	flag.IntVar(&cfg.sessions, "sessions", 16, "concurrent sessions: workers, each running one session at a time")
	flag.DurationVar(&cfg.duration, "duration", 10*time.Second, "how long the workers run (ignored with -total)")
	flag.IntVar(&cfg.total, "total", 0, "run this many sessions in all, then stop (0: run for -duration)")
	flag.IntVar(&cfg.calls, "calls", 10, "search+read rounds per session before its DELETE")
	flag.DurationVar(&cfg.pause, "pause", 0, "wait this long between a session's rounds, as an assistant waits between its calls (0: back to back)")
	flag.StringVar(&cfg.query, "query", "hook", "the query of mod_search_docs")
	flag.StringVar(&cfg.protocol, "protocol", mcp.ProtocolVersion20250618, "MCP protocol version (2026-07-28 has no sessions: no initialize or DELETE)")
	flag.StringVar(&cfg.token, "token", os.Getenv("DOCS_MCP_AUTH_TOKEN"), "bearer token, if the server needs one (default $DOCS_MCP_AUTH_TOKEN)")
	flag.IntVar(&cfg.pid, "pid", 0, "the server's process id, to report its memory from /proc (same machine only)")
	flag.DurationVar(&cfg.hold, "hold", 0, "after the run, keep -sessions sessions open this long, report the server's memory, then DELETE them")
	flag.BoolVar(&cfg.json, "json", false, "write the report as one JSON object")
	flag.IntVar(&cfg.flood.sessions, "flood", 0, "beside the measured sessions, this many raw sessions sending padded requests again and again (a hostile load)")
	flag.StringVar(&cfg.flood.methods, "flood-methods", "ping,completion/complete", "the flood's methods, comma-separated, taken in turn by session")
	flag.IntVar(&cfg.flood.bytes, "flood-bytes", 64<<10, "the size of each flood request's body")
	flag.IntVar(&cfg.churn, "churn", 0, "beside the measured sessions, this many loops opening sessions as fast as they can and never ending them (initialize, notifications/initialized, ping)")
	flag.Parse()

	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt)
	defer stop()
	if err := run(ctx, cfg, os.Stdout); err != nil {
		fmt.Fprintln(os.Stderr, "loadtest:", err)
		os.Exit(1)
	}
}

// Operations measured.
const (
	opInitialize = "initialize"
	opSearch     = "search"
	opRead       = "read"
	opDelete     = "delete"
)

var ops = []string{opInitialize, opSearch, opRead, opDelete}

// stats gathers latencies and errors from all workers.
type stats struct {
	mu        sync.Mutex
	latencies map[string][]time.Duration
	errors    map[string]int
	firstErr  error
	reinits   int         // sessions started again after a 404
	gone      int         // sessions whose DELETE was answered 404: ended already
	cutOffs   int         // calls made again after their answer was cut off
	statuses  map[int]int // HTTP responses by status
	flood     map[int]int // the -flood requests' statuses
	churn     map[int]int // the -churn initializes' statuses
}

func (s *stats) ok(op string, d time.Duration) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.latencies[op] = append(s.latencies[op], d)
}

// count adds one to a counter of s: &s.reinits, &s.gone or &s.cutOffs.
func (s *stats) count(n *int) {
	s.mu.Lock()
	defer s.mu.Unlock()
	*n++
}

func (s *stats) fail(op string, err error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.errors[op]++
	if s.firstErr == nil {
		s.firstErr = fmt.Errorf("%s: %w", op, err)
	}
}

func run(ctx context.Context, cfg config, out io.Writer) error {
	if cfg.sessions < 1 || cfg.calls < 0 || cfg.total < 0 || cfg.pause < 0 {
		return errors.New("-sessions must be at least 1, -calls, -total and -pause not negative")
	}
	st := &stats{latencies: map[string][]time.Duration{}, errors: map[string]int{}, statuses: map[int]int{}}
	httpClient := &http.Client{Transport: &recorder{st: st, next: &http.Transport{
		MaxIdleConns:        cfg.sessions * 2,
		MaxIdleConnsPerHost: cfg.sessions * 2,
	}}}
	opts := []transport.StreamableHTTPCOption{transport.WithHTTPBasicClient(httpClient)}
	if cfg.token != "" {
		opts = append(opts, transport.WithHTTPHeaders(map[string]string{"Authorization": "Bearer " + cfg.token}))
	}
	before, err := memory(cfg.pid)
	if err != nil {
		return err
	}

	runCtx := ctx
	if cfg.total == 0 {
		var cancel context.CancelFunc
		runCtx, cancel = context.WithTimeout(ctx, cfg.duration)
		defer cancel()
	}
	hostileCtx, endHostile := context.WithCancel(ctx)
	defer endHostile()
	flooded, churned := make(chan map[int]int, 1), make(chan map[int]int, 1)
	if cfg.flood.sessions > 0 {
		go func() { flooded <- flood(hostileCtx, cfg.url, cfg.flood) }()
	}
	if cfg.churn > 0 {
		go func() { churned <- churn(hostileCtx, cfg.url, cfg.churn) }()
	}
	var next atomic.Int64 // sessions started, for -total
	var wg sync.WaitGroup
	start := time.Now()
	for w := range cfg.sessions {
		wg.Go(func() {
			for runCtx.Err() == nil {
				n := int(next.Add(1))
				if cfg.total > 0 && n > cfg.total {
					return
				}
				session(runCtx, cfg, opts, st, fmt.Sprintf("loadtest-%d-%d", w, n))
			}
		})
	}
	wg.Wait()
	elapsed := time.Since(start)
	after, err := memory(cfg.pid)
	if err != nil {
		return err
	}
	endHostile()
	if cfg.flood.sessions > 0 {
		st.flood = <-flooded
	}
	if cfg.churn > 0 {
		st.churn = <-churned
	}
	report(out, cfg, st, elapsed, before, after)

	if cfg.hold > 0 {
		return hold(ctx, cfg, opts, out)
	}
	return nil
}

// session runs one session: initialize, the calls, DELETE.
func session(ctx context.Context, cfg config, opts []transport.StreamableHTTPCOption, st *stats, name string) {
	// A session begun before the end of the run is run to its DELETE, so
	// that every request sent is measured, and the server sees sessions
	// ended, not clients dropped; the end only stops further rounds.
	callCtx := context.WithoutCancel(ctx)
	c, err := startSession(callCtx, cfg, opts, st, name)
	if err != nil {
		return
	}

	defer func() { c.Close() }() // DELETE, measured by the recorder

	// do makes a call; one whose answer was cut off is made again, and
	// if the server no longer knows the session, a new one is started and
	// the call made there.
	do := func(op, tool string, args map[string]any) (string, error) {
		path, err := call(callCtx, c, st, op, tool, args)
		if cutOff(err) {
			st.count(&st.cutOffs)
			path, err = call(callCtx, c, st, op, tool, args)
		}
		if errors.Is(err, transport.ErrSessionTerminated) {
			c.Close() // no DELETE: the session is gone
			st.count(&st.reinits)
			if c, err = startSession(callCtx, cfg, opts, st, name); err != nil {
				return "", err // recorded by startSession
			}
			path, err = call(callCtx, c, st, op, tool, args)
		}
		if err != nil {
			st.fail(op, err)
		}
		return path, err
	}
	for i := 0; i < cfg.calls && (i == 0 || ctx.Err() == nil); i++ {
		if i > 0 && cfg.pause > 0 {
			select {
			case <-time.After(cfg.pause):
			case <-ctx.Done():
				return
			}
		}
		path, err := do(opSearch, "mod_search_docs", map[string]any{"query": cfg.query})
		if err != nil || path == "" {
			continue
		}
		do(opRead, "mod_read_doc", map[string]any{"path": path})
	}
}

// startSession starts a session and records its initialize. A session
// that the server forgets before it is fully set up (its initialize was
// answered, then the initialized notification got 404: the replica that
// answered has just died) is started again once, as a re-initialisation.
func startSession(ctx context.Context, cfg config, opts []transport.StreamableHTTPCOption, st *stats, name string) (*client.Client, error) {
	t := time.Now()
	c, err := connect(ctx, cfg, opts, name)
	if errors.Is(err, transport.ErrSessionTerminated) {
		st.ok(opInitialize, time.Since(t))
		st.count(&st.reinits)
		t = time.Now()
		c, err = connect(ctx, cfg, opts, name)
	}
	if err != nil {
		st.fail(opInitialize, err)
		return nil, err
	}
	st.ok(opInitialize, time.Since(t))
	return c, nil
}

// recorder is the HTTP transport of the clients: it counts responses by
// status, and measures DELETE, which mcp-go's client sends on Close
// without reporting its outcome. A DELETE answered 404 (the session was
// gone already) is not an error: the session is ended either way.
type recorder struct {
	st   *stats
	next http.RoundTripper
}

func (r *recorder) RoundTrip(req *http.Request) (*http.Response, error) {
	t := time.Now()
	res, err := r.next.RoundTrip(req)
	if err == nil {
		r.st.mu.Lock()
		r.st.statuses[res.StatusCode]++
		r.st.mu.Unlock()
	}
	if req.Method != http.MethodDelete {
		return res, err
	}
	switch {
	case err != nil:
		r.st.fail(opDelete, err)
	case res.StatusCode/100 == 2:
		r.st.ok(opDelete, time.Since(t))
	case res.StatusCode == http.StatusNotFound:
		r.st.ok(opDelete, time.Since(t))
		r.st.count(&r.st.gone)
	default:
		r.st.fail(opDelete, fmt.Errorf("DELETE: HTTP %d", res.StatusCode))
	}
	return res, err
}

// cutOff tells whether a call failed because the connection closed while
// its answer was on the way (the answer's replica died mid-way): a JSON
// answer cut short, a reset, or an event stream that ended before the
// answer, which mcp-go (v1.2.1 to v1.6.0) reports only by this text (a server answers a
// call with an event stream when it sends notifications meanwhile). Or
// the proxy closed the kept-alive connection just as the call was sent on
// it (net/http's "server closed idle connection", which Go's transport
// makes again by itself only for GET-like requests, never for an MCP
// POST): in the swarm test's kill step, HAProxy did so for one call in
// 4,915 (CI, 2026-12-07).
func cutOff(err error) bool {
	return errors.Is(err, io.ErrUnexpectedEOF) || errors.Is(err, syscall.ECONNRESET) ||
		err != nil && (strings.Contains(err.Error(), "unexpected nil response") ||
			strings.Contains(err.Error(), "http: server closed idle connection"))
}

// call calls a tool; for a search it returns the path of the first hit.
// It records a success; the caller decides what a failure is.
func call(ctx context.Context, c *client.Client, st *stats, op, tool string, args map[string]any) (string, error) {
	req := mcp.CallToolRequest{}
	req.Params.Name = tool
	req.Params.Arguments = args
	t := time.Now()
	res, err := c.CallTool(ctx, req)
	d := time.Since(t)
	switch {
	case err != nil:
	case res.IsError:
		err = fmt.Errorf("tool error: %v", res.Content)
	}
	if err != nil {
		return "", err
	}
	st.ok(op, d)
	var hits struct {
		Docs []struct {
			Path string `json:"path"`
		} `json:"docs"`
	}
	if b, err := json.Marshal(res.StructuredContent); err == nil && json.Unmarshal(b, &hits) == nil && len(hits.Docs) > 0 {
		return hits.Docs[0].Path, nil
	}
	return "", nil
}

func connect(ctx context.Context, cfg config, opts []transport.StreamableHTTPCOption, name string) (*client.Client, error) {
	tr, err := transport.NewStreamableHTTP(cfg.url, opts...)
	if err != nil {
		return nil, err
	}
	c := client.NewClient(tr, client.WithProtocolVersion(cfg.protocol))
	if err := c.Start(ctx); err != nil {
		return nil, fmt.Errorf("start: %w", err)
	}
	init := mcp.InitializeRequest{}
	init.Params.ProtocolVersion = cfg.protocol
	init.Params.ClientInfo = mcp.Implementation{Name: name, Version: "1"}
	if _, err := c.Initialize(ctx, init); err != nil {
		c.Close()
		return nil, fmt.Errorf("initialize: %w", err)
	}
	return c, nil
}

// hold opens -sessions sessions, keeps them open for -hold, reports the
// server's memory with them open, and ends them.
func hold(ctx context.Context, cfg config, opts []transport.StreamableHTTPCOption, out io.Writer) error {
	clients := make([]*client.Client, cfg.sessions)
	var wg sync.WaitGroup
	var failed atomic.Int64
	for i := range clients {
		wg.Go(func() {
			c, err := connect(ctx, cfg, opts, fmt.Sprintf("loadtest-hold-%d", i))
			if err != nil {
				failed.Add(1)
				return
			}
			clients[i] = c
		})
	}
	wg.Wait()
	fmt.Fprintf(out, "holding %d sessions open for %s (%d failed to open)\n", cfg.sessions-int(failed.Load()), cfg.hold, failed.Load())
	select {
	case <-time.After(cfg.hold):
	case <-ctx.Done():
	}
	held, err := memory(cfg.pid)
	if err != nil {
		return err
	}
	if held.known {
		fmt.Fprintf(out, "server memory with them open: rss=%s peak=%s\n", mib(held.rss), mib(held.hwm))
	}
	for _, c := range clients {
		if c != nil {
			wg.Go(func() { c.Close() })
		}
	}
	wg.Wait()
	return nil
}

// summary is the report as data; -json writes it as it is.
type summary struct {
	Sessions    int            `json:"sessions"` // concurrent
	SessionsRun int            `json:"sessions_run"`
	Reinits     int            `json:"reinitialized"` // sessions started again after a 404
	Gone        int            `json:"deleted_gone"`  // sessions whose DELETE was answered 404 (their server forgot them first)
	Interrupted int            `json:"interrupted"`   // calls made again after their answer was cut off
	Protocol    string         `json:"protocol"`
	Requests    int            `json:"requests"` // answered: initialize, tool calls and DELETE
	Errors      int            `json:"errors"`
	ElapsedSec  float64        `json:"elapsed_seconds"`
	Ops         map[string]op  `json:"ops"`
	Statuses    map[string]int `json:"http_statuses"`            // every HTTP response the clients got, by status
	Flood       map[int]int    `json:"flood_statuses,omitempty"` // -flood: its requests' statuses (-1: no answer)
	Churn       map[int]int    `json:"churn_statuses,omitempty"` // -churn: its initializes' statuses
	FirstError  string         `json:"first_error,omitempty"`
}

type op struct {
	N      int     `json:"n"`
	Errors int     `json:"errors"`
	P50ms  float64 `json:"p50_ms"`
	P99ms  float64 `json:"p99_ms"`
}

func summarize(cfg config, st *stats, elapsed time.Duration) summary {
	st.mu.Lock()
	defer st.mu.Unlock()
	s := summary{
		Sessions: cfg.sessions, Protocol: cfg.protocol, Reinits: st.reinits, Gone: st.gone, Interrupted: st.cutOffs,
		ElapsedSec: elapsed.Seconds(), Ops: map[string]op{}, Statuses: map[string]int{},
		SessionsRun: len(st.latencies[opInitialize]) - st.reinits,
		Flood:       st.flood, Churn: st.churn,
	}
	for _, name := range ops {
		l := st.latencies[name]
		slices.Sort(l)
		s.Requests += len(l)
		s.Errors += st.errors[name]
		o := op{N: len(l), Errors: st.errors[name]}
		if len(l) > 0 {
			o.P50ms = float64(pct(l, 50).Microseconds()) / 1000
			o.P99ms = float64(pct(l, 99).Microseconds()) / 1000
		}
		s.Ops[name] = o
	}
	for code, n := range st.statuses {
		s.Statuses[fmt.Sprint(code)] = n
	}
	if st.firstErr != nil {
		s.FirstError = st.firstErr.Error()
	}
	return s
}

func report(out io.Writer, cfg config, st *stats, elapsed time.Duration, before, after mem) {
	if cfg.json {
		_ = json.NewEncoder(out).Encode(summarize(cfg, st, elapsed))
		return
	}
	sum := summarize(cfg, st, elapsed)
	fmt.Fprintf(out, "sessions=%d concurrent, %d run (protocol %s, %d search+read rounds each)\n", cfg.sessions, sum.SessionsRun, cfg.protocol, cfg.calls)
	fmt.Fprintf(out, "requests=%d errors=%d elapsed=%s req/s=%.0f\n", sum.Requests, sum.Errors, elapsed.Round(time.Millisecond), float64(sum.Requests)/elapsed.Seconds())
	for _, op := range ops {
		l := st.latencies[op]
		if len(l) == 0 && st.errors[op] == 0 {
			continue
		}
		line := fmt.Sprintf("  %-10s n=%-7d errors=%d", op, len(l), st.errors[op])
		if len(l) > 0 {
			line += fmt.Sprintf(" p50=%s p95=%s p99=%s max=%s", pct(l, 50), pct(l, 95), pct(l, 99), l[len(l)-1].Round(time.Microsecond))
		}
		fmt.Fprintln(out, line)
	}
	if sum.Reinits > 0 {
		fmt.Fprintf(out, "sessions re-initialised after a 404: %d (each also counted under initialize)\n", sum.Reinits)
	}
	if sum.Gone > 0 {
		fmt.Fprintf(out, "sessions whose DELETE was answered 404 (gone already): %d\n", sum.Gone)
	}
	if sum.Interrupted > 0 {
		fmt.Fprintf(out, "calls made again after their answer was cut off: %d\n", sum.Interrupted)
	}
	codes := slices.Sorted(maps.Keys(sum.Statuses))
	var parts []string
	for _, c := range codes {
		parts = append(parts, fmt.Sprintf("%s=%d", c, sum.Statuses[c]))
	}
	fmt.Fprintf(out, "http statuses: %s\n", strings.Join(parts, " "))
	if cfg.flood.sessions > 0 {
		fmt.Fprintf(out, "flood: %d sessions of %d-byte %s, http statuses %v\n", cfg.flood.sessions, cfg.flood.bytes, cfg.flood.methods, sum.Flood)
	}
	if cfg.churn > 0 {
		fmt.Fprintf(out, "churn: %d loops, initialize statuses %v\n", cfg.churn, sum.Churn)
	}
	if sum.FirstError != "" {
		fmt.Fprintf(out, "first error: %s\n", sum.FirstError)
	}
	if after.known {
		fmt.Fprintf(out, "server memory: rss before=%s after=%s peak=%s\n", mib(before.rss), mib(after.rss), mib(after.hwm))
	}
}

// pct is the p-th percentile of sorted latencies (nearest rank).
func pct(sorted []time.Duration, p int) time.Duration {
	i := (len(sorted)*p + 99) / 100
	return sorted[max(0, i-1)].Round(time.Microsecond)
}

// mem is a process's memory from /proc/PID/status, in KiB.
type mem struct {
	known    bool
	rss, hwm int64
}

func memory(pid int) (mem, error) {
	if pid == 0 {
		return mem{}, nil
	}
	rss, err := mcptest.ProcMemory(pid, "VmRSS")
	if err != nil {
		return mem{}, fmt.Errorf("server memory (-pid %d): %w", pid, err)
	}
	hwm, err := mcptest.ProcMemory(pid, "VmHWM")
	if err != nil {
		return mem{}, fmt.Errorf("server memory (-pid %d): %w", pid, err)
	}
	return mem{known: true, rss: rss >> 10, hwm: hwm >> 10}, nil
}

func mib(kib int64) string { return fmt.Sprintf("%.1fMiB", float64(kib)/1024) }
