// Command loadtest drives a docs-mcp HTTP server with real MCP sessions
// (mcp-go's Streamable HTTP client) and reports throughput and latency of
// one tool call.
//
// Each of -sessions workers initializes its own session, calls the tool in
// a loop for -duration, then ends the session with DELETE. Latencies of the
// calls (not of initialize) are pooled; the report gives requests/s, p50,
// p90, p99 and the number of errors. With -hold, the sessions stay open that
// long after the run (to measure the server's memory), then end.
//
//	go run ./tools/cmd/loadtest -url http://127.0.0.1:3000/mcp -sessions 16 -duration 10s
package main

import (
	"cmp"
	"context"
	"errors"
	"flag"
	"fmt"
	"net/http"
	"os"
	"os/signal"
	"slices"
	"sync"
	"time"

	"github.com/mark3labs/mcp-go/client"
	"github.com/mark3labs/mcp-go/client/transport"
	"github.com/mark3labs/mcp-go/mcp"
)

type config struct {
	url      string
	sessions int
	duration time.Duration
	hold     time.Duration
	tool     string
	query    string
	protocol string
	token    string
}

func main() {
	var cfg config
	flag.StringVar(&cfg.url, "url", "http://127.0.0.1:3000/mcp", "the server's MCP endpoint")
	flag.IntVar(&cfg.sessions, "sessions", 16, "concurrent sessions, one worker each")
	flag.DurationVar(&cfg.duration, "duration", 10*time.Second, "how long each worker calls the tool")
	flag.DurationVar(&cfg.hold, "hold", 0, "keep the sessions open this long after the run")
	flag.StringVar(&cfg.tool, "tool", "mod_search_docs", "the tool to call")
	flag.StringVar(&cfg.query, "query", "hook", "the query argument of mod_search_docs")
	flag.StringVar(&cfg.protocol, "protocol", mcp.ProtocolVersion20250618, "MCP protocol version (2026-07-28 has no sessions)")
	flag.StringVar(&cfg.token, "token", os.Getenv("DOCS_MCP_AUTH_TOKEN"), "bearer token, if the server needs one (default $DOCS_MCP_AUTH_TOKEN)")
	flag.Parse()

	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt)
	defer stop()
	if err := run(ctx, cfg); err != nil {
		fmt.Fprintln(os.Stderr, "loadtest:", err)
		os.Exit(1)
	}
}

// worker is one session's outcome.
type worker struct {
	latencies []time.Duration
	errors    int
	firstErr  error
	client    *client.Client
}

func run(ctx context.Context, cfg config) error {
	if cfg.sessions < 1 {
		return errors.New("-sessions must be at least 1")
	}
	httpClient := &http.Client{Transport: &http.Transport{
		MaxIdleConns:        cfg.sessions * 2,
		MaxIdleConnsPerHost: cfg.sessions * 2,
	}}
	opts := []transport.StreamableHTTPCOption{transport.WithHTTPBasicClient(httpClient)}
	if cfg.token != "" {
		opts = append(opts, transport.WithHTTPHeaders(map[string]string{"Authorization": "Bearer " + cfg.token}))
	}

	// Open every session first, so that the calls run at full concurrency.
	workers := make([]*worker, cfg.sessions)
	var wg sync.WaitGroup
	start := time.Now()
	for i := range workers {
		w := &worker{}
		workers[i] = w
		wg.Go(func() {
			c, err := connect(ctx, cfg, opts, i)
			if err != nil {
				w.fail(fmt.Errorf("session %d: %w", i, err))
				return
			}
			w.client = c
		})
	}
	wg.Wait()
	opened := time.Since(start)
	defer func() {
		for _, w := range workers {
			if w.client != nil {
				wg.Go(func() { w.client.Close() }) // DELETE
			}
		}
		wg.Wait()
	}()
	failed := 0
	var firstErr error
	for _, w := range workers {
		if w.firstErr != nil {
			failed++
			firstErr = cmp.Or(firstErr, w.firstErr)
		}
	}
	if failed > 0 {
		return fmt.Errorf("%d of %d sessions failed to open; first: %w", failed, cfg.sessions, firstErr)
	}

	req := mcp.CallToolRequest{}
	req.Params.Name = cfg.tool
	if cfg.tool == "mod_search_docs" {
		req.Params.Arguments = map[string]any{"query": cfg.query}
	}
	runCtx, cancel := context.WithTimeout(ctx, cfg.duration)
	defer cancel()
	start = time.Now()
	for _, w := range workers {
		wg.Go(func() { w.call(runCtx, req) })
	}
	wg.Wait()
	elapsed := time.Since(start)

	report(cfg, workers, opened, elapsed)

	if cfg.hold > 0 {
		fmt.Printf("holding %d sessions for %s (pid of this tool %d)\n", cfg.sessions, cfg.hold, os.Getpid())
		select {
		case <-time.After(cfg.hold):
		case <-ctx.Done():
		}
	}
	return nil
}

func connect(ctx context.Context, cfg config, opts []transport.StreamableHTTPCOption, i int) (*client.Client, error) {
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
	init.Params.ClientInfo = mcp.Implementation{Name: fmt.Sprintf("loadtest-%d", i), Version: "1"}
	if _, err := c.Initialize(ctx, init); err != nil {
		c.Close()
		return nil, fmt.Errorf("initialize: %w", err)
	}
	return c, nil
}

// call calls the tool until ctx ends, recording each call's latency.
func (w *worker) call(ctx context.Context, req mcp.CallToolRequest) {
	for ctx.Err() == nil {
		t := time.Now()
		res, err := w.client.CallTool(context.WithoutCancel(ctx), req)
		d := time.Since(t)
		switch {
		case err != nil:
			w.fail(err)
		case res.IsError:
			w.fail(fmt.Errorf("tool error: %v", res.Content))
		default:
			w.latencies = append(w.latencies, d)
		}
	}
}

func (w *worker) fail(err error) {
	w.errors++
	if w.firstErr == nil {
		w.firstErr = err
	}
}

func report(cfg config, workers []*worker, opened, elapsed time.Duration) {
	var all []time.Duration
	errs := 0
	var firstErr error
	for _, w := range workers {
		all = append(all, w.latencies...)
		errs += w.errors
		if firstErr == nil {
			firstErr = w.firstErr
		}
	}
	slices.Sort(all)
	fmt.Printf("sessions=%d protocol=%s tool=%s opened_in=%s\n", cfg.sessions, cfg.protocol, cfg.tool, opened.Round(time.Millisecond))
	fmt.Printf("requests=%d errors=%d elapsed=%s req/s=%.0f\n", len(all), errs, elapsed.Round(time.Millisecond), float64(len(all))/elapsed.Seconds())
	if len(all) > 0 {
		fmt.Printf("latency p50=%s p90=%s p99=%s max=%s\n",
			pct(all, 50), pct(all, 90), pct(all, 99), all[len(all)-1].Round(time.Microsecond))
	}
	if firstErr != nil {
		fmt.Printf("first error: %v\n", firstErr)
	}
}

// pct is the p-th percentile of sorted latencies (nearest rank).
func pct(sorted []time.Duration, p int) time.Duration {
	i := (len(sorted)*p + 99) / 100
	return sorted[max(0, i-1)].Round(time.Microsecond)
}
