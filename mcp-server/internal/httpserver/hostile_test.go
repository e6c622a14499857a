package httpserver_test

// The hostile-client suite: each test attacks the real docs-mcp binary
// over loopback with raw connections, checks that the budget it aims at
// holds (the refusal a client sees and the counts /health reports), and
// that a well-behaved client (mcp-go's) is served while the attack is on.
// Memory (the process's resident set) and time are logged, never asserted:
// they depend on the machine; the counts do not.

import (
	"bufio"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	"github.com/mark3labs/mcp-go/client"
	"github.com/mark3labs/mcp-go/client/transport"
	"github.com/mark3labs/mcp-go/mcp"

	"github.com/docs-mcp/docs-mcp/mcp-server/internal/budget"
	"github.com/docs-mcp/docs-mcp/mcp-server/internal/httpserver"
	"github.com/docs-mcp/docs-mcp/mcp-server/mcptest"
)

// anyRate lets one address open sessions at any rate (--session-rate 0),
// for the tests that open many at once and are not about that rate. An
// environment variable, not a flag, so that the tests also run against
// servers from before the flag (to show that they fail there).
var anyRate = []string{"DOCS_MCP_SESSION_RATE=0"}

// liveness bounds every wait of this suite: a server that never answers
// fails the test instead of hanging it. It is not a measure of speed.
const liveness = 2 * time.Minute

// wellBehaved is a normal client: mcp-go's, on protocol 2025-06-18 (with a
// session), doing what a client does: initialize, list the tools, call
// one. It returns what went wrong, if anything.
func wellBehaved(url string) error {
	ctx, cancel := context.WithTimeout(context.Background(), liveness)
	defer cancel()
	tr, err := transport.NewStreamableHTTP(url)
	if err != nil {
		return err
	}
	c := client.NewClient(tr, client.WithProtocolVersion(mcp.ProtocolVersion20250618))
	defer c.Close()
	if err := c.Start(ctx); err != nil {
		return fmt.Errorf("start: %w", err)
	}
	init := mcp.InitializeRequest{}
	init.Params.ProtocolVersion = mcp.ProtocolVersion20250618
	init.Params.ClientInfo = mcp.Implementation{Name: "well-behaved", Version: "1"}
	if _, err := c.Initialize(ctx, init); err != nil {
		return fmt.Errorf("initialize: %w", err)
	}
	if _, err := c.ListTools(ctx, mcp.ListToolsRequest{}); err != nil {
		return fmt.Errorf("tools/list: %w", err)
	}
	req := mcp.CallToolRequest{}
	req.Params.Name = "mod_search_docs"
	req.Params.Arguments = map[string]any{"query": "hook"}
	res, err := c.CallTool(ctx, req)
	if err != nil {
		return fmt.Errorf("tools/call: %w", err)
	}
	if res.IsError {
		return fmt.Errorf("tools/call: tool error %v", res.Content)
	}
	return nil
}

// mustBeServed fails the test unless a well-behaved client is served now.
func mustBeServed(t *testing.T, p *proc, during string) {
	t.Helper()
	if err := wellBehaved("http://" + p.addr + "/mcp"); err != nil {
		t.Fatalf("a well-behaved client was not served during %s: %v", during, err)
	}
	t.Logf("a well-behaved client (mcp-go) was served during %s", during)
}

// rssMiB is the resident memory of a process, from /proc.
func rssMiB(t *testing.T, p *proc) int64 {
	rss, err := mcptest.ProcMemory(p.cmd.Process.Pid, "VmRSS")
	if err != nil {
		t.Logf("no /proc: %v", err)
		return -1
	}
	return rss >> 20
}

func health(t *testing.T, p *proc) httpserver.Health {
	t.Helper()
	res, err := http.Get("http://" + p.addr + "/health")
	if err != nil {
		t.Fatal(err)
	}
	defer res.Body.Close()
	var h httpserver.Health
	if err := json.NewDecoder(res.Body).Decode(&h); err != nil {
		t.Fatal(err)
	}
	return h
}

func usage(h httpserver.Health, name budget.Name) budget.Usage {
	for _, u := range h.Budgets {
		if u.Name == name {
			return u
		}
	}
	return budget.Usage{Name: name, Limit: -1}
}

func used(u budget.Usage) int64 {
	if u.Used == nil {
		return -1
	}
	return *u.Used
}

// dial opens a raw connection, closed when the test ends.
func dial(t *testing.T, p *proc) net.Conn {
	t.Helper()
	c, err := net.Dial("tcp", p.addr)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { c.Close() })
	return c
}

// statusLine reads the status line of the answer on c ("" if the
// connection closed without one).
func statusLine(c net.Conn, r *bufio.Reader) string {
	c.SetReadDeadline(time.Now().Add(liveness))
	line, _ := r.ReadString('\n')
	return strings.TrimSpace(line)
}

// closedByServer reads c until the server closes it (EOF or reset).
func closedByServer(c net.Conn, r io.Reader) bool {
	c.SetReadDeadline(time.Now().Add(liveness))
	_, err := io.Copy(io.Discard, r)
	var ne net.Error
	return !(errors.As(err, &ne) && ne.Timeout())
}

// stop sends SIGTERM and returns the exit code, and how long it took.
func stop(t *testing.T, p *proc) (int, time.Duration) {
	t.Helper()
	start := time.Now()
	p.cmd.Process.Signal(syscall.SIGTERM)
	select {
	case <-p.exited:
	case <-time.After(liveness):
		t.Fatalf("no exit %s after SIGTERM", liveness)
	}
	return p.cmd.ProcessState.ExitCode(), time.Since(start)
}

func post(url, session, body string, header ...string) (int, []byte, http.Header, error) {
	req, _ := http.NewRequest(http.MethodPost, url, strings.NewReader(body))
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("Accept", "application/json, text/event-stream")
	if session != "" {
		req.Header.Set("Mcp-Session-Id", session)
		req.Header.Set("Mcp-Protocol-Version", "2025-06-18")
	}
	for i := 0; i+1 < len(header); i += 2 {
		req.Header.Set(header[i], header[i+1])
	}
	res, err := http.DefaultClient.Do(req)
	if err != nil {
		return 0, nil, nil, err
	}
	defer res.Body.Close()
	b, err := io.ReadAll(res.Body)
	return res.StatusCode, b, res.Header, err
}

// rawSession initializes a session with a raw POST.
func rawSession(t *testing.T, p *proc) string {
	t.Helper()
	status, body, h, err := post("http://"+p.addr+"/mcp", "", initialize)
	if err != nil || status != http.StatusOK || h.Get("Mcp-Session-Id") == "" {
		t.Fatalf("initialize: %d %v %s", status, err, body)
	}
	return h.Get("Mcp-Session-Id")
}

// rpcError is the JSON-RPC error of an answer: plain JSON, or the event
// of an SSE answer that carries the response (notifications may come
// first).
func rpcError(body []byte) (code int, message string) {
	for line := range strings.SplitSeq(string(body), "\n") {
		line = strings.TrimSpace(strings.TrimPrefix(line, "data: "))
		var m struct {
			ID    json.RawMessage
			Error *struct {
				Code    int
				Message string
			}
		}
		if json.Unmarshal([]byte(line), &m) != nil || len(m.ID) == 0 {
			continue
		}
		if m.Error == nil {
			return 0, ""
		}
		return m.Error.Code, m.Error.Message
	}
	return -1, "no response in " + string(body)
}

// Issue 14, scenario 1: a body announced by Content-Length that stalls, or
// trickles in a byte at a time, gets 408 once --body-timeout passes, and
// its connection is closed; a well-behaved client is served meanwhile.
func TestHostileStalledBody(t *testing.T) {
	const conns = 30
	p := start(t, nil, "--body-timeout", "2s")
	before := rssMiB(t, p)
	type attack struct {
		c net.Conn
		r *bufio.Reader
	}
	var attacks []attack
	for i := range conns {
		c := dial(t, p)
		fmt.Fprintf(c, "POST /mcp HTTP/1.1\r\nHost: %s\r\nContent-Type: application/json\r\nContent-Length: 1000\r\n\r\n{\"jsonrpc\"", p.addr)
		if i%2 == 1 { // every other one trickles a byte at a time
			go func() {
				for range 1000 {
					if _, err := c.Write([]byte(" ")); err != nil {
						return
					}
					time.Sleep(200 * time.Millisecond)
				}
			}()
		}
		attacks = append(attacks, attack{c, bufio.NewReader(c)})
	}
	mustBeServed(t, p, fmt.Sprintf("%d stalled and trickling bodies", conns))
	began := time.Now()
	got := map[string]int{}
	for _, a := range attacks {
		line := statusLine(a.c, a.r)
		if closedByServer(a.c, a.r) {
			line += ", then closed"
		}
		got[line]++
	}
	t.Logf("all %d answered and closed %s after the well-behaved client; rss %d -> %d MiB", conns, time.Since(began).Round(time.Millisecond), before, rssMiB(t, p))
	if diff := cmp.Diff(map[string]int{"HTTP/1.1 408 Request Timeout, then closed": conns}, got); diff != "" {
		t.Errorf("answers to stalled bodies (-want +got):\n%s", diff)
	}
	if u := usage(health(t, p), budget.Body); u.Refused != conns {
		t.Errorf("body budget refused %d, want %d", u.Refused, conns)
	}
}

// Item 6: a body over --max-body-bytes reaches a client that is still
// sending it as a 413, never as a connection reset.
func TestHostileOversizedBody(t *testing.T) {
	p := start(t, nil)
	big := strings.Repeat(" ", 20<<20)
	for i := range 5 {
		status, _, _, err := post("http://"+p.addr+"/mcp", "", `{"jsonrpc":"2.0","id":1,"method":"ping"}`+big)
		if err != nil || status != http.StatusRequestEntityTooLarge {
			t.Errorf("try %d: a 20 MiB body: %d %v, want 413", i, status, err)
		}
	}
}

const listenBody = `{"jsonrpc":"2.0","id":1,"method":"subscriptions/listen","params":{"_meta":{"io.modelcontextprotocol/protocolVersion":"2026-07-28","io.modelcontextprotocol/clientCapabilities":{},"io.modelcontextprotocol/clientInfo":{"name":"raw","version":"1"}},"notifications":{"resourcesListChanged":true}}}`

// openListen opens a 2026-07-28 subscriptions/listen stream on a raw
// connection and returns its status line.
func openListen(t *testing.T, p *proc) (net.Conn, string) {
	c := dial(t, p)
	fmt.Fprintf(c, "POST /mcp HTTP/1.1\r\nHost: %s\r\nContent-Type: application/json\r\nAccept: application/json, text/event-stream\r\nMCP-Protocol-Version: 2026-07-28\r\nMcp-Method: subscriptions/listen\r\nContent-Length: %d\r\n\r\n%s", p.addr, len(listenBody), listenBody)
	return c, statusLine(c, bufio.NewReader(c))
}

// Issue 14, scenario 3: 2026-07-28 subscriptions/listen streams count
// against --max-streams like GET streams, show in /health, and SIGTERM
// ends them: exit 0.
func TestHostileListenStreams(t *testing.T) {
	const max, tries = 20, 60
	p := start(t, nil, "--max-sessions", "10", "--max-streams", strconv.Itoa(max), "--shutdown-timeout", "30s")
	before := rssMiB(t, p)
	got := map[string]int{}
	for range tries {
		_, line := openListen(t, p)
		got[line]++
	}
	t.Logf("%d listen streams tried: %v; rss %d -> %d MiB", tries, got, before, rssMiB(t, p))
	want := map[string]int{"HTTP/1.1 200 OK": max, "HTTP/1.1 503 Service Unavailable": tries - max}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("listen streams (-want +got):\n%s", diff)
	}
	mustBeServed(t, p, fmt.Sprintf("%d open listen streams", max))
	u := usage(health(t, p), budget.Streams)
	if used(u) != max || u.Refused != tries-max {
		t.Errorf("/health streams: used %d refused %d, want %d and %d", used(u), u.Refused, max, tries-max)
	}
	code, took := stop(t, p)
	t.Logf("SIGTERM with %d streams open: exit %d after %s", max, code, took.Round(time.Millisecond))
	if code != 0 {
		t.Errorf("exit %d, want 0\n%s", code, p.stderr)
	}
}

// Issue 14, scenario 4: initialize without ever using the session, many
// more times than --max-sessions. Every initialize is admitted (an unused
// session makes room), the table stays at the cap, and a well-behaved
// client is served at once.
func TestHostileAbandonedSessions(t *testing.T) {
	const max, tries = 50, 400
	p := start(t, anyRate, "--max-sessions", strconv.Itoa(max))
	before := rssMiB(t, p)
	got := map[int]int{}
	for range tries {
		status, _, _, err := post("http://"+p.addr+"/mcp", "", initialize)
		if err != nil {
			t.Fatal(err)
		}
		got[status]++
	}
	t.Logf("%d initializes never followed up: %v; rss %d -> %d MiB", tries, got, before, rssMiB(t, p))
	if diff := cmp.Diff(map[int]int{200: tries}, got); diff != "" {
		t.Errorf("statuses (-want +got):\n%s", diff)
	}
	mustBeServed(t, p, fmt.Sprintf("%d abandoned sessions", tries))
	if n := health(t, p).Sessions; n > max {
		t.Errorf("%d live sessions, more than the cap %d", n, max)
	}
	// Sessions that are used, at the cap: the one unused longest makes room.
	var ids []string
	for range max {
		ids = append(ids, rawSession(t, p))
	}
	for _, id := range ids {
		if status, body, _, _ := post("http://"+p.addr+"/mcp", id, `{"jsonrpc":"2.0","id":2,"method":"tools/list"}`); status != http.StatusOK {
			t.Fatalf("tools/list: %d %s", status, body)
		}
	}
	mustBeServed(t, p, fmt.Sprintf("%d sessions in use", max))
	status, _, _, _ := post("http://"+p.addr+"/mcp", ids[0], `{"jsonrpc":"2.0","id":3,"method":"tools/list"}`)
	if status != http.StatusNotFound {
		t.Errorf("the session unused longest: %d, want 404 (it made room)", status)
	}
}

// Issue 14, scenario 2, and subscribe/unsubscribe churn: a session can
// subscribe only to resources the server lists (not to docs://../go.work,
// unknown docs, or URIs as long as the body limit allows), at most --max-subscriptions of them;
// unsubscribing frees the slot. A well-behaved client is served meanwhile.
func TestHostileSubscriptions(t *testing.T) {
	const max = 2
	p := start(t, nil, "--max-subscriptions", strconv.Itoa(max))
	url := "http://" + p.addr + "/mcp"
	sid := rawSession(t, p)
	subscribe := func(method, uri string) (int, string) {
		body, _ := json.Marshal(map[string]any{"jsonrpc": "2.0", "id": 9, "method": method, "params": map[string]any{"uri": uri}})
		status, b, _, err := post(url, sid, string(body))
		if err != nil || status != http.StatusOK {
			t.Fatalf("%s: %d %v", method, status, err)
		}
		return rpcError(b)
	}

	before := rssMiB(t, p)
	huge := "docs://" + strings.Repeat("a", 60_000) // near the body limit
	for i := range 20 {
		if code, msg := subscribe("resources/subscribe", huge+strconv.Itoa(i)); code != mcp.INVALID_PARAMS || !strings.Contains(msg, "no such resource") {
			t.Fatalf("a 60 KB URI: %d %q, want -32602 no such resource", code, msg)
		}
	}
	t.Logf("20 subscribes of 60 KB URIs refused; rss %d -> %d MiB", before, rssMiB(t, p))
	mustBeServed(t, p, "subscribes of 60 KB URIs")

	type answer struct {
		Code    int
		Refused bool
	}
	var got []answer
	for _, uri := range []string{"docs://../go.work", "docs://no/such.md", "file:///etc/passwd",
		"docs://index.md", "docs://index.md", "repo://CONTRIBUTING.md", "repo://layout"} {
		code, msg := subscribe("resources/subscribe", uri)
		got = append(got, answer{code, msg != ""})
	}
	// Churn: unsubscribe and subscribe again, many times; the count stays.
	for range 500 {
		subscribe("resources/unsubscribe", "repo://CONTRIBUTING.md")
		subscribe("resources/subscribe", "repo://CONTRIBUTING.md")
	}
	code, _ := subscribe("resources/subscribe", "repo://layout")
	got = append(got, answer{code, code != 0})
	subscribe("resources/unsubscribe", "docs://index.md")
	code, _ = subscribe("resources/subscribe", "repo://layout")
	got = append(got, answer{code, code != 0})
	unknown, full := answer{mcp.INVALID_PARAMS, true}, answer{mcp.INVALID_REQUEST, true}
	want := []answer{unknown, unknown, unknown, {}, {}, {}, full, full, {}}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("../go.work, unknown doc, file:, a doc, again, the guide, past the cap, after 500 unsubscribe/subscribe, after unsubscribing one (-want +got):\n%s", diff)
	}
	t.Logf("after 1000 subscribe/unsubscribe requests: rss %d MiB", rssMiB(t, p))
	mustBeServed(t, p, "subscribe/unsubscribe churn")
	if u := usage(health(t, p), budget.Subscriptions); u.Refused != 20+2 {
		t.Errorf("subscriptions refused %d, want 22 (the long URIs, and past the cap twice)", u.Refused)
	}
	if m := metric(t, p, `docs_mcp_refusals_total{budget="subscriptions"}`); m != "22" {
		t.Errorf("/metrics counts %q subscription refusals, want 22", m)
	}
}

// Issue 14, scenario 5: with CONTRIBUTING.md and the registry unreadable,
// no answer (resource, tool, prompt, /health) names a server path or
// carries a file system error chain.
func TestHostileErrorText(t *testing.T) {
	root := t.TempDir()
	src, _ := filepath.Abs("testdata/root")
	if err := os.CopyFS(root, os.DirFS(src)); err != nil {
		t.Fatal(err)
	}
	for _, f := range []string{"CONTRIBUTING.md", "framework/mod_hooks.json"} {
		os.Remove(filepath.Join(root, f))
		if err := os.Mkdir(filepath.Join(root, f), 0o755); err != nil { // reading it fails: is a directory
			t.Fatal(err)
		}
	}
	p := start(t, nil, "--data-root", root)
	url := "http://" + p.addr + "/mcp"
	sid := rawSession(t, p)
	var answers []string
	for _, body := range []string{
		`{"jsonrpc":"2.0","id":1,"method":"resources/read","params":{"uri":"repo://CONTRIBUTING.md"}}`,
		`{"jsonrpc":"2.0","id":2,"method":"resources/read","params":{"uri":"repo://framework/mod_hooks.json"}}`,
		`{"jsonrpc":"2.0","id":3,"method":"tools/call","params":{"name":"mod_read_contributing","arguments":{}}}`,
		`{"jsonrpc":"2.0","id":4,"method":"tools/call","params":{"name":"mod_hook_registry","arguments":{}}}`,
		`{"jsonrpc":"2.0","id":5,"method":"tools/call","params":{"name":"mod_get_hook","arguments":{"name":"x"}}}`,
		`{"jsonrpc":"2.0","id":6,"method":"prompts/get","params":{"name":"mod_modding_context","arguments":{}}}`,
	} {
		_, b, _, err := post(url, sid, body)
		if err != nil {
			t.Fatal(err)
		}
		answers = append(answers, string(b))
	}
	res, err := http.Get("http://" + p.addr + "/health")
	if err != nil {
		t.Fatal(err)
	}
	b, _ := io.ReadAll(res.Body)
	res.Body.Close()
	answers = append(answers, string(b))
	for i, a := range answers {
		// /health, for operators, says why the registry cannot be read
		// (the system's words, no path); MCP answers do not.
		if strings.Contains(a, root) || (i < len(answers)-1 && strings.Contains(a, "is a directory")) {
			t.Errorf("answer %d names a server path or a file system error: %s", i, a)
		}
	}
	if !strings.Contains(p.stderr.String(), "is a directory") {
		t.Errorf("the log does not keep the detail:\n%s", p.stderr)
	}
}

// Header floods: headers over 64 KiB get 431; connections that send
// headers a line at a time are closed when the 10 s header time is up.
func TestHostileHeaders(t *testing.T) {
	p := start(t, nil)
	c := dial(t, p)
	fmt.Fprintf(c, "GET /health HTTP/1.1\r\nHost: %s\r\nX-Flood: %s\r\n\r\n", p.addr, strings.Repeat("a", 1<<20))
	if line := statusLine(c, bufio.NewReader(c)); line != "HTTP/1.1 431 Request Header Fields Too Large" {
		t.Errorf("1 MiB of headers: %q, want 431", line)
	}
	const slow = 50
	before := rssMiB(t, p)
	var conns []net.Conn
	for range slow {
		c := dial(t, p)
		fmt.Fprintf(c, "GET /health HTTP/1.1\r\nHost: %s\r\n", p.addr)
		conns = append(conns, c)
	}
	var wg sync.WaitGroup
	for i, c := range conns {
		wg.Go(func() { // a header line every 500 ms, until the server closes
			for j := 0; ; j++ {
				if _, err := fmt.Fprintf(c, "X-%d-%d: b\r\n", i, j); err != nil {
					return
				}
				time.Sleep(500 * time.Millisecond)
			}
		})
	}
	mustBeServed(t, p, fmt.Sprintf("%d slow-header connections", slow))
	began := time.Now()
	closed := 0
	for _, c := range conns {
		if closedByServer(c, c) {
			closed++
		}
	}
	wg.Wait()
	t.Logf("%d slow-header connections closed by the server within %s after the well-behaved client; rss %d -> %d MiB", closed, time.Since(began).Round(time.Millisecond), before, rssMiB(t, p))
	if closed != slow {
		t.Errorf("%d of %d slow-header connections closed by the server", closed, slow)
	}
}

// Many half-open connections (connected, sending nothing): past
// --max-connections the ones waiting longest are closed to make room, so
// the open count stays at the cap and a well-behaved client still gets in.
func TestHostileHalfOpen(t *testing.T) {
	const max, flood = 64, 400
	p := start(t, nil, "--max-connections", strconv.Itoa(max))
	before := rssMiB(t, p)
	var conns []net.Conn
	for range flood {
		conns = append(conns, dial(t, p))
	}
	mustBeServed(t, p, fmt.Sprintf("%d half-open connections", flood))
	h := health(t, p)
	u := usage(h, budget.Connections)
	t.Logf("%d half-open connections: %d open, %d closed to make room; rss %d -> %d MiB", flood, used(u), u.Refused, before, rssMiB(t, p))
	if used(u) > max || u.Refused < flood-max {
		t.Errorf("connections: %d open (cap %d), %d closed to make room (want at least %d)", used(u), max, u.Refused, flood-max)
	}
	// Every flood connection is eventually closed by the server: made room
	// for, or past the header time.
	closed := 0
	for _, c := range conns {
		if closedByServer(c, c) {
			closed++
		}
	}
	if closed != flood {
		t.Errorf("%d of %d half-open connections closed by the server", closed, flood)
	}
}

// metric is the value of one series in /metrics, "" when it is absent.
func metric(t *testing.T, p *proc, series string) string {
	t.Helper()
	res, err := http.Get("http://" + p.addr + "/metrics")
	if err != nil {
		t.Fatal(err)
	}
	defer res.Body.Close()
	b, _ := io.ReadAll(res.Body)
	for line := range strings.SplitSeq(string(b), "\n") {
		if v, ok := strings.CutPrefix(line, series+" "); ok {
			return v
		}
	}
	return ""
}

// waitUntil polls cond until it holds, failing the test after liveness.
func waitUntil(t *testing.T, what string, cond func() bool) {
	t.Helper()
	deadline := time.Now().Add(liveness)
	for !cond() {
		if time.Now().After(deadline) {
			t.Fatalf("not %s after %s", what, liveness)
		}
		time.Sleep(50 * time.Millisecond)
	}
}

// A notification storm to a reader that never reads: a session subscribed
// to many docs opens its GET stream and never reads it, while the docs
// keep changing. Its queue stops at --max-queued-notifications (the rest
// are dropped and counted), the stream is ended once a write has waited
// --stream-write-timeout, and a well-behaved client is served throughout.
func TestHostileNotificationStorm(t *testing.T) {
	const docsN, maxQueued = 200, 100
	root := t.TempDir()
	src, _ := filepath.Abs("testdata/root")
	if err := os.CopyFS(root, os.DirFS(src)); err != nil {
		t.Fatal(err)
	}
	// Long names make long notifications, so that the buffers fill sooner.
	name := func(i int) string {
		return fmt.Sprintf("storm/%s/%03d-%s.md", strings.Repeat("d", 200), i, strings.Repeat("n", 200))
	}
	write := func(round int) {
		for i := range docsN {
			path := filepath.Join(root, "docs", name(i))
			if err := os.WriteFile(path, fmt.Appendf(nil, "# Storm %d\n\nround %d\n", i, round), 0o644); err != nil {
				t.Fatal(err)
			}
		}
	}
	os.MkdirAll(filepath.Dir(filepath.Join(root, "docs", name(0))), 0o755)
	write(0)
	p := start(t, nil, "--data-root", root, "--max-queued-notifications", strconv.Itoa(maxQueued), "--stream-write-timeout", "2s")
	url := "http://" + p.addr + "/mcp"
	sid := rawSession(t, p)
	for i := range docsN {
		status, b, _, err := post(url, sid, fmt.Sprintf(`{"jsonrpc":"2.0","id":%d,"method":"resources/subscribe","params":{"uri":"docs://%s"}}`, i+10, name(i)))
		if code, _ := rpcError(b); err != nil || status != http.StatusOK || code != 0 {
			t.Fatalf("subscribe: %d %v %s", status, err, b)
		}
	}
	// The stream, on a connection with a tiny receive buffer, never read.
	d := net.Dialer{Control: smallReceiveBuffer}
	c, err := d.Dial("tcp", p.addr)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { c.Close() })
	fmt.Fprintf(c, "GET /mcp HTTP/1.1\r\nHost: %s\r\nAccept: text/event-stream\r\nMcp-Session-Id: %s\r\nMcp-Protocol-Version: 2025-06-18\r\n\r\n", p.addr, sid)
	waitUntil(t, "the stream open", func() bool { return used(usage(health(t, p), budget.Streams)) == 1 })

	before := rssMiB(t, p)
	began := time.Now()
	gen := health(t, p).Generation
	rounds := 0
	// Change every doc, round after round, until the server has ended the
	// unread stream: its socket buffers fill, a write waits
	// --stream-write-timeout, and the stream is cut.
	for used(usage(health(t, p), budget.Streams)) != 0 {
		rounds++
		if rounds > 200 {
			t.Fatalf("after %d rounds of %d changed docs, the unread stream is still open", rounds-1, docsN)
		}
		write(rounds)
		waitUntil(t, "the change applied", func() bool { return health(t, p).Generation > gen })
		gen = health(t, p).Generation
		if rounds == 1 {
			mustBeServed(t, p, "a notification storm to a stream never read")
		}
	}
	mustBeServed(t, p, "a notification storm, once the unread stream was ended")
	h := health(t, p)
	dropped := usage(h, budget.Notifications).Refused
	t.Logf("%d rounds of %d changed docs (%d notifications offered) in %s: %d dropped for the unread session; its stream ended; rss %d -> %d MiB",
		rounds, docsN, rounds*docsN, time.Since(began).Round(time.Millisecond), dropped, before, rssMiB(t, p))
	if dropped == 0 {
		t.Errorf("no notification was dropped for a session with %d waiting (the cap is %d)", docsN, maxQueued)
	}
	if !closedByServer(c, c) {
		t.Error("the unread stream's connection was not closed by the server")
	}
	if code, _ := stop(t, p); code != 0 {
		t.Errorf("exit %d after SIGTERM, want 0", code)
	}
}

// Log amplification: a request whose method name is 60,000 bytes (near
// the body limit), and one whose Mcp-Session-Id is 60 KB, each add a few
// hundred bytes a value to the log, marked as cut, not their input (the
// method was logged twice; it is now refused before mcp-go logs it).
func TestHostileLogAmplification(t *testing.T) {
	p := start(t, nil)
	url := "http://" + p.addr + "/mcp"
	sid := rawSession(t, p)
	before := len(p.stderr.String())
	method := strings.Repeat("m", 60_000)
	if _, _, _, err := post(url, sid, `{"jsonrpc":"2.0","id":9,"method":"`+method+`"}`); err != nil {
		t.Fatal(err)
	}
	if _, _, _, err := post(url, strings.Repeat("S", 60_000), `{"jsonrpc":"2.0","id":10,"method":"ping"}`); err != nil {
		t.Fatal(err)
	}
	mustBeServed(t, p, "the oversized fields")
	grown := len(p.stderr.String()) - before
	t.Logf("the log grew by %d bytes", grown)
	if grown > 32<<10 {
		t.Errorf("the log grew by %d bytes for a 60 KB method and a 60 KB session id, want a few KB", grown)
	}
	if !strings.Contains(p.stderr.String(), "S…[cut: 60000 bytes]") {
		t.Error("the session id is not marked as cut in the log")
	}
}

// maximalBody is a request of method whose padding brings it to size
// bytes: ping pads its _meta, completion/complete its argument's value.
func maximalBody(method string, id, size int) string {
	var head, tail string
	switch method {
	case "completion/complete":
		head = fmt.Sprintf(`{"jsonrpc":"2.0","id":%d,"method":"completion/complete","params":{"ref":{"type":"ref/prompt","name":"mod_modding_context"},"argument":{"name":"task","value":"`, id)
		tail = `"}}}`
	default:
		head = fmt.Sprintf(`{"jsonrpc":"2.0","id":%d,"method":%q,"params":{"_meta":{"pad":"`, id, method)
		tail = `"}}}`
	}
	return head + strings.Repeat("p", max(0, size-len(head)-len(tail))) + tail
}

// Issue 35, part 3: 64 sessions send ping and completion/complete with
// bodies of the largest size accepted, and with 3 MiB bodies. Every body
// within --max-body-bytes (64 KiB by default) is answered, every 3 MiB one
// gets 413 before it is parsed, and a normal client's tool calls are
// served meanwhile (their latencies and the server's memory are logged).
// An unknown method of 60,000 bytes is answered -32601 naming at most 64
// bytes of it.
func TestHostileMaximalBodies(t *testing.T) {
	const sessions, rounds = 64, 6
	p := start(t, anyRate)
	url := "http://" + p.addr + "/mcp"
	limit := usage(health(t, p), budget.Body).Limit
	if limit > 256<<10 {
		t.Errorf("the default body limit is %d bytes, want tens of KiB", limit)
	}
	before := rssMiB(t, p)
	normal := make(chan []time.Duration, 1)
	stop := make(chan struct{})
	go func() { normal <- normalClient(t, url, stop) }()
	type answer struct {
		Method string
		Size   string
		Status int
	}
	var (
		mu  sync.Mutex
		got = map[answer]int{}
		wg  sync.WaitGroup
	)
	type request struct{ method, size, body string }
	var requests []request
	for _, method := range []string{"ping", "completion/complete"} {
		requests = append(requests, request{method, "maximal", maximalBody(method, 5, int(limit))}, request{method, "3 MiB", maximalBody(method, 5, 3<<20)})
	}
	for range sessions {
		sid := rawSession(t, p)
		wg.Go(func() {
			for range rounds {
				for _, r := range requests {
					{
						status, _, _, err := post(url, sid, r.body)
						if err != nil {
							status = -1
						}
						mu.Lock()
						got[answer{r.method, r.size, status}]++
						mu.Unlock()
					}
				}
			}
		})
	}
	wg.Wait()
	close(stop)
	lat := <-normal
	t.Logf("%d sessions x %d rounds of maximal (%d B) and 3 MiB ping and completion/complete: the normal client's %d searches p50 %s, p95 %s, max %s; rss %d -> %d MiB",
		sessions, rounds, limit, len(lat), pct(lat, 50), pct(lat, 95), pct(lat, 100), before, rssMiB(t, p))
	n := sessions * rounds
	want := map[answer]int{
		{"ping", "maximal", 200}: n, {"completion/complete", "maximal", 200}: n,
		{"ping", "3 MiB", 413}: n, {"completion/complete", "3 MiB", 413}: n,
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("answers (-want +got):\n%s", diff)
	}
	if u := usage(health(t, p), budget.Body); u.Refused != int64(2*n) {
		t.Errorf("the body budget refused %d, want %d", u.Refused, 2*n)
	}

	sid := rawSession(t, p)
	status, body, _, err := post(url, sid, `{"jsonrpc":"2.0","id":9,"method":"`+strings.Repeat("m", 60_000)+`"}`)
	if code, msg := rpcError(body); err != nil || status != 200 || code != mcp.METHOD_NOT_FOUND || len(body) > 1<<10 {
		t.Errorf("a 60,000-byte method: %d %v, %d bytes, error %d %.200q; want 200, -32601 in under 1 KiB", status, err, len(body), code, msg)
	}
}
