package main

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"maps"
	"net/http"
	"net/http/httptest"
	"net/url"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"sync/atomic"
	"syscall"
	"testing"
	"time"

	"github.com/docs-mcp/docs-mcp/mcp-server/mcptest"
)

// TestRun drives the real docs-mcp binary, serving this repository, with
// 20 sessions of initialize, search, read and DELETE, and checks the report:
// every session run, no errors, every operation measured, the server's
// memory read from /proc.
func TestRun(t *testing.T) {
	bin := build(t)
	cmd, url := start(t, bin)

	var out bytes.Buffer
	cfg := config{url: url, sessions: 4, total: 20, calls: 2, query: "hook", protocol: "2025-06-18", pid: cmd.Process.Pid}
	if err := run(context.Background(), cfg, &out); err != nil {
		t.Fatal(err)
	}
	report := out.String()
	t.Log("\n" + report)
	for _, want := range []string{
		`sessions=4 concurrent, 20 run`,
		`requests=120 errors=0 `,
		`(?m)^  initialize +n=20 +errors=0 p50=`,
		`(?m)^  search +n=40 +errors=0 p50=`,
		`(?m)^  read +n=40 +errors=0 p50=`,
		`(?m)^  delete +n=20 +errors=0 p50=`,
		`server memory: rss before=[0-9.]+MiB after=[0-9.]+MiB peak=[0-9.]+MiB`,
	} {
		if !regexp.MustCompile(want).MatchString(report) {
			t.Errorf("report lacks %q", want)
		}
	}

	// -pause waits between a session's rounds and still runs each one; a
	// negative pause is refused.
	out.Reset()
	paced := config{url: url, sessions: 1, total: 1, calls: 3, pause: 10 * time.Millisecond, query: "hook", protocol: "2025-06-18"}
	if err := run(context.Background(), paced, &out); err != nil {
		t.Fatal(err)
	}
	if want := `(?m)^  read +n=3 +errors=0 p50=`; !regexp.MustCompile(want).MatchString(out.String()) {
		t.Errorf("paced report lacks %q:\n%s", want, out.String())
	}
	paced.pause = -time.Second
	if err := run(context.Background(), paced, io.Discard); err == nil {
		t.Error("a negative -pause was accepted")
	}
}

// build compiles the docs-mcp server of this repository.
func build(t *testing.T) string {
	t.Helper()
	root, err := filepath.Abs("../../..")
	if err != nil {
		t.Fatal(err)
	}
	bin, err := mcptest.BuildDocsMCP(root, t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	return bin
}

// start runs the server on a loopback port, serving this repository, and
// returns it and the URL of its /mcp.
func start(t *testing.T, bin string) (*exec.Cmd, string) {
	t.Helper()
	root, err := filepath.Abs("../../..")
	if err != nil {
		t.Fatal(err)
	}
	cmd, addr := mcptest.ServeHTTP(t, bin, "--data-root", root, "--log-level", "info")
	return cmd, "http://" + addr + "/mcp"
}

// TestReinitialize puts a proxy in front of two servers and, mid-run,
// sends everything to the second, which knows none of the first's
// sessions (as when a replica behind a load balancer is replaced): every
// session answered 404 starts again and its call is retried, so nothing
// fails, and the report counts the re-initialisations.
func TestReinitialize(t *testing.T) {
	bin := build(t)
	_, first := start(t, bin)
	_, second := start(t, bin)
	var target atomic.Pointer[url.URL]
	u, _ := url.Parse(first)
	target.Store(u)
	proxy := newProxy(t, target.Load, func(w http.ResponseWriter, _, answer []byte, status int) {
		w.WriteHeader(status)
		w.Write(answer)
	})

	var out bytes.Buffer
	cfg := config{url: proxy.URL + "/mcp", sessions: 4, total: 12, calls: 100, query: "hook", protocol: "2025-06-18", json: true}
	done := make(chan error, 1)
	go func() { done <- run(context.Background(), cfg, &out) }()
	// Switch once the first server has answered a good share of calls.
	for {
		if n := requestsServed(t, first); n >= 200 {
			break
		}
		select {
		case err := <-done:
			t.Fatalf("the run ended before the switch: %v", err)
		case <-time.After(10 * time.Millisecond):
		}
	}
	u2, _ := url.Parse(second)
	target.Store(u2)
	if err := <-done; err != nil {
		t.Fatal(err)
	}
	var sum summary
	if err := json.Unmarshal(out.Bytes(), &sum); err != nil {
		t.Fatalf("report: %v\n%s", err, out.String())
	}
	t.Logf("%+v", sum)
	if sum.Errors != 0 || sum.FirstError != "" {
		t.Errorf("errors=%d (%s), want none", sum.Errors, sum.FirstError)
	}
	if sum.Reinits < 1 || sum.Reinits > cfg.sessions {
		t.Errorf("reinitialized=%d, want 1 to %d (the sessions open at the switch)", sum.Reinits, cfg.sessions)
	}
	if sum.Statuses["404"] != sum.Reinits+sum.Gone {
		t.Errorf("HTTP 404s=%d, want one per re-initialisation (%d) and per DELETE of a session gone already (%d)", sum.Statuses["404"], sum.Reinits, sum.Gone)
	}
	if sum.SessionsRun != cfg.total {
		t.Errorf("sessions_run=%d, want %d", sum.SessionsRun, cfg.total)
	}
}

// requestsServed reads docs_mcp_requests_total of tools/call from the
// server's /metrics.
func requestsServed(t *testing.T, mcpURL string) int {
	t.Helper()
	res, err := http.Get(strings.TrimSuffix(mcpURL, "/mcp") + "/metrics")
	if err != nil {
		t.Fatal(err)
	}
	defer res.Body.Close()
	b, _ := io.ReadAll(res.Body)
	n := 0
	for line := range strings.Lines(string(b)) {
		if strings.HasPrefix(line, `docs_mcp_requests_total{method="tools/call"`) {
			var v float64
			fmt.Sscan(line[strings.LastIndexByte(line, ' ')+1:], &v)
			n += int(v)
		}
	}
	return n
}

// TestCutOff puts a proxy in front of the server that cuts off the answer
// to every tenth tool call halfway through its body, as a replica killed
// while writing would: each such call is made once more, nothing fails,
// and the report counts them.
func TestCutOff(t *testing.T) {
	bin := build(t)
	_, target := start(t, bin)
	u, _ := url.Parse(target)
	var calls, cut atomic.Int64
	proxy := newProxy(t, func() *url.URL { return u }, func(w http.ResponseWriter, body, answer []byte, status int) {
		if !bytes.Contains(body, []byte(`"tools/call"`)) || calls.Add(1)%10 != 0 {
			w.WriteHeader(status)
			w.Write(answer)
			return
		}
		// Half the answer, then the connection goes: the length promised
		// is never reached.
		cut.Add(1)
		w.Header().Set("Content-Length", fmt.Sprint(len(answer)))
		w.WriteHeader(status)
		w.Write(answer[:len(answer)/2])
		conn, _, err := http.NewResponseController(w).Hijack()
		if err != nil {
			t.Errorf("proxy: hijack: %v", err)
			return
		}
		conn.Close()
	})

	var out bytes.Buffer
	cfg := config{url: proxy.URL + "/mcp", sessions: 2, total: 4, calls: 10, query: "hook", protocol: "2025-06-18", json: true}
	if err := run(context.Background(), cfg, &out); err != nil {
		t.Fatal(err)
	}
	var sum summary
	if err := json.Unmarshal(out.Bytes(), &sum); err != nil {
		t.Fatalf("report: %v\n%s", err, out.String())
	}
	t.Logf("%+v; the proxy cut %d answers", sum, cut.Load())
	if sum.Errors != 0 || sum.FirstError != "" {
		t.Errorf("errors=%d (%s), want none", sum.Errors, sum.FirstError)
	}
	if cut.Load() == 0 || int64(sum.Interrupted) != cut.Load() {
		t.Errorf("interrupted=%d, want one per answer cut off (%d)", sum.Interrupted, cut.Load())
	}
	if n := sum.Ops["search"].N + sum.Ops["read"].N; n != cfg.total*cfg.calls*2 {
		t.Errorf("%d calls answered, want every one of %d", n, cfg.total*cfg.calls*2)
	}
}

// newProxy serves a proxy to target's server that hands each answer,
// whole, to respond, with the request's body; the answer's headers are
// set on w already. Bodies are read whole before they are sent on:
// streamed from the incoming request, Go's transport now and then closed
// the connection to the server under the response (a truncated body).
func newProxy(t *testing.T, target func() *url.URL, respond func(w http.ResponseWriter, body, answer []byte, status int)) *httptest.Server {
	proxy := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		body, err := io.ReadAll(r.Body)
		if err != nil {
			t.Errorf("proxy: read request: %v", err)
			return
		}
		out := r.Clone(r.Context())
		out.URL, out.Host, out.RequestURI = target(), "", ""
		out.Body = io.NopCloser(bytes.NewReader(body))
		res, err := http.DefaultTransport.RoundTrip(out)
		if err != nil {
			t.Errorf("proxy: %v", err)
			w.WriteHeader(http.StatusBadGateway)
			return
		}
		defer res.Body.Close()
		answer, err := io.ReadAll(res.Body)
		if err != nil {
			t.Errorf("proxy: read %s response: %v", r.Method, err)
			return
		}
		maps.Copy(w.Header(), res.Header)
		respond(w, body, answer, res.StatusCode)
	}))
	t.Cleanup(proxy.Close)
	return proxy
}

// TestCutOffErrors: the failures that mean the connection closed before
// the answer (the call is made again) and those that do not, including
// the proxy's close of a kept-alive connection, which TestCutOff's proxy
// cannot time. The texts are as mcp-go's transport wraps net/http's errors.
func TestCutOffErrors(t *testing.T) {
	for _, c := range []struct {
		err  error
		want bool
	}{
		{fmt.Errorf("transport error: failed to read response: %w", io.ErrUnexpectedEOF), true},
		{fmt.Errorf("transport error: %w", syscall.ECONNRESET), true},
		{errors.New("transport error: unexpected nil response"), true},
		{errors.New(`transport error: failed to send request: failed to send request: Post "http://127.0.0.1:43821/mcp": http: server closed idle connection`), true},
		{fmt.Errorf("transport error: %w", context.DeadlineExceeded), false},
		{errors.New("request failed with status 500: busy"), false},
		{nil, false},
	} {
		if got := cutOff(c.err); got != c.want {
			t.Errorf("cutOff(%v) = %v, want %v", c.err, got, c.want)
		}
	}
}
