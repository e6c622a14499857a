// Package mcptest holds what the tests of the repository's Go modules
// share (mcp-server's and tools'): a real MCP client session opened and its
// tool calls and results; docs-mcp built from the checkout and served over
// HTTP as a process; files and trees written and read; a buffer that a
// running process may write to while the test reads it; a wait for a
// condition with one deadline; the Node packages a test's program needs;
// a tool's answer decoded as mcp-go's client decodes it; the CPU time and
// memory of another process, from /proc (for tests and the benchmark
// commands alike).
//
// One package for both modules, so that a helper has one meaning
// everywhere: Call returns a tool's result, tool error or not (only a
// protocol error fails the test); CallOK is the call that must succeed
// and CallErr the one that must answer a tool error. It lives outside
// internal/ because the tools module (end-to-end tests, the wiki's tests)
// imports it; the tools module requires mcp-server by a replace directive
// for it and for the watcher.
package mcptest

import (
	"bytes"
	"context"
	"encoding/json"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/mark3labs/mcp-go/client"
	"github.com/mark3labs/mcp-go/mcp"
	"github.com/mark3labs/mcp-go/server"
)

// Deadline is how long a test waits for something that should happen. It
// only decides when a test gives up: no test asserts how fast anything is
// (speed lives in benchmarks).
const Deadline = time.Minute

// Background runs run in its own goroutine until the test ends: then its
// context is cancelled, the test waits for it to return, and an error it
// returns fails the test, named by what.
func Background(t testing.TB, what string, run func(context.Context) error) {
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error, 1)
	go func() { done <- run(ctx) }()
	t.Cleanup(func() {
		cancel()
		if err := <-done; err != nil {
			t.Errorf("%s: %v", what, err)
		}
	})
}

// Eventually polls ok until it holds, and fails the test if it does not
// within Deadline.
func Eventually(t testing.TB, what string, ok func() bool) {
	t.Helper()
	for end := time.Now().Add(Deadline); !ok(); time.Sleep(10 * time.Millisecond) {
		if time.Now().After(end) {
			t.Fatalf("gave up waiting for %s after %s", what, Deadline)
		}
	}
}

// Closed waits for ch to be closed, and fails the test if it is not
// within Deadline.
func Closed(t testing.TB, ch <-chan struct{}, what string) {
	t.Helper()
	select {
	case <-ch:
	case <-time.After(Deadline):
		t.Fatalf("gave up waiting for %s after %s", what, Deadline)
	}
}

// InProcess connects mcp-go's in-process client to srv and opens its
// session on the protocol revision given (see Initialize); the client is
// closed when the test ends.
func InProcess(t testing.TB, srv *server.MCPServer, protocol string) (*client.Client, *mcp.InitializeResult) {
	t.Helper()
	c, err := client.NewInProcessClient(srv)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { c.Close() })
	if err := c.Start(context.Background()); err != nil {
		t.Fatal(err)
	}
	return c, Initialize(t, c, protocol, "test")
}

// Initialize opens c's session as the client name on the protocol
// revision given (empty: the client's choice), and returns the server's
// answer; a refusal, or another revision, fails the test.
func Initialize(t testing.TB, c *client.Client, protocol, name string) *mcp.InitializeResult {
	t.Helper()
	req := mcp.InitializeRequest{}
	req.Params.ProtocolVersion = protocol
	req.Params.ClientInfo = mcp.Implementation{Name: name, Version: "1"}
	res, err := c.Initialize(context.Background(), req)
	if err != nil {
		t.Fatalf("initialize (%s): %v", protocol, err)
	}
	if protocol != "" && res.ProtocolVersion != protocol {
		// mcp-go's client falls back to the handshake of 2025-11-25 when
		// its transport rules 2026-07-28 out (continuous listening).
		t.Fatalf("initialize asked for %s and opened %s", protocol, res.ProtocolVersion)
	}
	return res
}

// Call calls the tool name with args and returns its result, tool error or
// not; a protocol error fails the test.
func Call(t testing.TB, c *client.Client, name string, args any) *mcp.CallToolResult {
	t.Helper()
	req := mcp.CallToolRequest{}
	req.Params.Name = name
	req.Params.Arguments = args
	res, err := c.CallTool(context.Background(), req)
	if err != nil {
		t.Fatalf("%s(%v): protocol error: %v", name, args, err)
	}
	return res
}

// CallBuilt calls a tool as Call does, again while it answers that what
// it needs (the search index, the ranking) is still being built: each call
// waits 30 s for it, which a large tree on a loaded machine can outlast,
// and a test of the answer is not a test of that wait. It gives up after
// ten calls.
func CallBuilt(t testing.TB, c *client.Client, name string, args any) *mcp.CallToolResult {
	t.Helper()
	for range 9 {
		if res := Call(t, c, name, args); !res.IsError || !strings.Contains(Text(res), "is still being built") {
			return res
		}
	}
	return Call(t, c, name, args)
}

// CallOK calls a tool that must succeed, and returns its structured result
// decoded into Out and its text.
func CallOK[Out any](t testing.TB, c *client.Client, name string, args any) (Out, string) {
	t.Helper()
	res := Call(t, c, name, args)
	if res.IsError {
		t.Fatalf("%s(%v) is a tool error: %s", name, args, Text(res))
	}
	var out Out
	Decode(t, res, &out)
	return out, Text(res)
}

// CallErr calls a tool that must answer a tool error, and returns its text.
func CallErr(t testing.TB, c *client.Client, name string, args any) string {
	t.Helper()
	res := Call(t, c, name, args)
	if !res.IsError {
		t.Fatalf("%s(%v) succeeded, want a tool error; result: %s", name, args, Text(res))
	}
	return Text(res)
}

// Text is the text of a tool result.
func Text(res *mcp.CallToolResult) string {
	var b strings.Builder
	for _, c := range res.Content {
		if tc, ok := c.(mcp.TextContent); ok {
			b.WriteString(tc.Text)
		}
	}
	return b.String()
}

// Decode decodes a tool result's structured content into v.
func Decode(t testing.TB, res *mcp.CallToolResult, v any) {
	t.Helper()
	b, err := json.Marshal(res.StructuredContent)
	if err != nil {
		t.Fatal(err)
	}
	if err := json.Unmarshal(b, v); err != nil {
		t.Fatalf("structuredContent %s does not decode: %v", b, err)
	}
}

// Buffer is a bytes.Buffer that one goroutine (a process's stderr, a
// logger) may write while another reads it.
type Buffer struct {
	mu  sync.Mutex
	buf bytes.Buffer
}

func (b *Buffer) Write(p []byte) (int, error) {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.buf.Write(p)
}

// String returns what was written so far.
func (b *Buffer) String() string {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.buf.String()
}

// SkipUnderRace skips t under the race detector, saying why. It is for a
// test with nothing running concurrently that the race run (.ci/run's
// step after the tests) would add to: one client measuring what answers
// hold, or a subject that is not this process's code, where -race only
// makes it 5 to 20 times slower. The plain run before it runs the test;
// the concurrent paths it passes through run under the detector in the
// package's other tests.
func SkipUnderRace(t testing.TB, why string) {
	t.Helper()
	if Race {
		t.Skip("skipped under -race: " + why)
	}
}

// UnderRace is n, or light under the race detector, which makes code 5 to
// 20 times slower. It is for a test whose power is breadth, many inputs
// through the same code, run again under -race (.ci/run) for the
// goroutines that code starts: light inputs take every one of those paths,
// and the plain run keeps the breadth.
func UnderRace(n, light int) int {
	if Race {
		return light
	}
	return n
}
