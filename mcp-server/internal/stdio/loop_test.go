package stdio

import (
	"bufio"
	"context"
	"fmt"
	"io"
	"log/slog"
	"path/filepath"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/mark3labs/mcp-go/mcp"
	"github.com/mark3labs/mcp-go/server"

	"github.com/docs-mcp/docs-mcp/mcp-server/internal/corpus"
	"github.com/docs-mcp/docs-mcp/mcp-server/internal/docs"
	"github.com/docs-mcp/docs-mcp/mcp-server/internal/mcpserver"
	"github.com/docs-mcp/docs-mcp/mcp-server/internal/protocol"
	"github.com/docs-mcp/docs-mcp/mcp-server/internal/transport"
	"github.com/docs-mcp/docs-mcp/mcp-server/mcptest"
)

// TestStdioCancelEndsTheHandler: notifications/cancelled goes on to mcp-go,
// which ends the context of the request it names, so that its handler
// stops; the request gets no answer (mcp-go's own stdio transport wrote
// the one its handler returned); the session goes on.
func TestStdioCancelEndsTheHandler(t *testing.T) {
	started, stopped := make(chan struct{}), make(chan struct{})
	l := startLoop(t, DefaultMaxLineBytes, func(ctx context.Context, _ mcp.CallToolRequest) (*mcp.CallToolResult, error) {
		close(started)
		<-ctx.Done()
		close(stopped)
		return mcp.NewToolResultText("answered after all"), nil
	})
	l.send(`{"jsonrpc":"2.0","id":"W","method":"tools/call","params":{"name":"wait","arguments":{}}}`)
	mcptest.Closed(t, started, "the tool call to start")
	l.send(`{"jsonrpc":"2.0","method":"notifications/cancelled","params":{"requestId":"W","reason":"test"}}`)
	mcptest.Closed(t, stopped, "the cancelled call's handler to stop")
	l.send(`{"jsonrpc":"2.0","id":"P","method":"ping"}`)
	if m := l.next(); string(m.ID) != `"P"` {
		t.Fatalf("after the cancel, an answer with id %s, want only the ping's \"P\"", m.ID)
	}
	for m := range l.end() {
		t.Errorf("an answer after end of input, id %s: the cancelled call must get none", m.ID)
	}
}

// TestStdioHandsOnItsParse: the message a handler runs for is the stdio
// line's one parse, found in the request's context as over HTTP, so that
// mcpserver's checks (the subscription check among them) do not parse the
// line again.
func TestStdioHandsOnItsParse(t *testing.T) {
	got := make(chan *protocol.Message, 1)
	l := startLoop(t, DefaultMaxLineBytes, func(ctx context.Context, _ mcp.CallToolRequest) (*mcp.CallToolResult, error) {
		got <- protocol.FromContext(ctx)
		return mcp.NewToolResultText("seen"), nil
	})
	l.send(`{"jsonrpc":"2.0","id":"W","method":"tools/call","params":{"name":"wait","arguments":{}}}`)
	if m := l.next(); string(m.ID) != `"W"` {
		t.Fatalf("an answer with id %s, want the call's \"W\"", m.ID)
	}
	m := <-got
	if m == nil || m.Method != "tools/call" || string(m.ID) != `"W"` {
		t.Errorf("the message in the handler's context: %+v, want the tools/call line's parse", m)
	}
	l.end()
}

// TestStdioHeldLinesBounded: the requests being answered hold at most four
// lines' worth of bytes (4 × --max-line-bytes); the next line waits, unread
// by mcp-go, until one is answered.
func TestStdioHeldLinesBounded(t *testing.T) {
	const maxLine = 4096
	var running atomic.Int32
	release := make(chan struct{})
	l := startLoop(t, maxLine, func(ctx context.Context, _ mcp.CallToolRequest) (*mcp.CallToolResult, error) {
		running.Add(1)
		select {
		case <-release:
		case <-ctx.Done():
		}
		return mcp.NewToolResultText("done"), nil
	})
	// Six calls of about 3,000 bytes each: five fit in 16,384 bytes.
	pad := strings.Repeat("x", 2900)
	for i := range 6 {
		l.send(fmt.Sprintf(`{"jsonrpc":"2.0","id":%d,"method":"tools/call","params":{"name":"wait","arguments":{"pad":%q}}}`, 10+i, pad))
	}
	mcptest.Eventually(t, "five calls running", func() bool { return running.Load() == 5 })
	time.Sleep(200 * time.Millisecond) // the sixth would have started by now
	if n := running.Load(); n != 5 {
		t.Fatalf("%d calls running, want 5 until one is answered: a sixth line would take the lines held past 4 × %d bytes", n, maxLine)
	}
	release <- struct{}{}
	mcptest.Eventually(t, "the sixth call running once one was answered", func() bool { return running.Load() == 6 })
	close(release)
	n := 0
	for range l.end() {
		n++
	}
	if n != 6 {
		t.Errorf("%d answers, want one for each of the 6 calls", n)
	}
}

// loop is an in-process stdio session (Serve, the real MCP server) with
// one more tool, "wait", whose handler the test gives.
type loop struct {
	t       *testing.T
	in      *io.PipeWriter
	answers chan protocol.Message // the answers written (not notifications)
	served  chan error
}

func startLoop(t *testing.T, maxLine int, wait server.ToolHandlerFunc) *loop {
	t.Helper()
	root := t.TempDir()
	content := stdioServer(stdioCorpus(t, root), root)
	content.MCP().AddTool(mcp.NewTool("wait"), wait)

	inR, inW := io.Pipe()
	outR, outW := io.Pipe()
	l := &loop{t: t, in: inW, answers: make(chan protocol.Message, 16), served: make(chan error, 1)}
	go func() {
		l.served <- Serve(context.Background(), partsOf(slog.New(slog.DiscardHandler), content), inR, outW, maxLine)
		outW.Close()
	}()
	go func() {
		defer close(l.answers)
		sc := bufio.NewScanner(outR)
		for sc.Scan() {
			if m, err := protocol.Parse(sc.Bytes()); err == nil && m.Method == "" {
				l.answers <- m
			}
		}
	}()
	t.Cleanup(func() { inW.Close() })
	l.send(initLine)
	if m := l.next(); string(m.ID) != "1" {
		t.Fatalf("first answer has id %s, want the initialize's 1", m.ID)
	}
	l.send(`{"jsonrpc":"2.0","method":"notifications/initialized"}`)
	return l
}

func (l *loop) send(line string) {
	l.t.Helper()
	if _, err := io.WriteString(l.in, line+"\n"); err != nil {
		l.t.Fatal(err)
	}
}

// next is the next answer, within 10 s.
func (l *loop) next() protocol.Message {
	l.t.Helper()
	select {
	case m := <-l.answers:
		return m
	case <-time.After(10 * time.Second):
		l.t.Fatal("no answer within 10 s")
	}
	return protocol.Message{}
}

// end closes the input, checks that the session ended without error, and
// returns the answers written after the ones read.
func (l *loop) end() <-chan protocol.Message {
	l.t.Helper()
	l.in.Close()
	if err := <-l.served; err != nil {
		l.t.Fatal(err)
	}
	return l.answers
}

// stdioCorpus writes a small repository under root (two docs, the
// registry, the guide) and opens a corpus of its docs, for the in-process
// stdio tests.
func stdioCorpus(tb testing.TB, root string) *corpus.Corpus {
	tb.Helper()
	mcptest.WriteTree(tb, root, map[string]string{
		"docs/index.md":            "# Home\n\nWelcome to the hooks docs.\n",
		"docs/guide/intro.md":      "# Intro\n\nRegister hooks early.\n",
		"framework/mod_hooks.json": `{"hooks": []}` + "\n",
		"CONTRIBUTING.md":          "# Contributing\n",
	})
	snap, err := docs.Load(context.Background(), filepath.Join(root, "docs"), docs.LoadOptions{Generation: 1})
	if err != nil {
		tb.Fatal(err)
	}
	served := corpus.New(corpus.DefaultConfig())
	served.Open(snap)
	return served
}

// stdioServer is the MCP server of the repository stdioCorpus wrote.
func stdioServer(served *corpus.Corpus, root string) *mcpserver.Server {
	opts := mcpserver.DefaultConfig()
	opts.Version, opts.DataRoot = "test", root
	opts.RegistryPath = filepath.Join(root, "framework", "mod_hooks.json")
	opts.ContributingPath = filepath.Join(root, "CONTRIBUTING.md")
	return mcpserver.New(opts, served)
}

// partsOf is what cli hands stdio of srv: its MCP server and refusals,
// and log.
func partsOf(log *slog.Logger, srv *mcpserver.Server) transport.Parts {
	return transport.Parts{MCP: srv.MCP(), Refusal: srv.Refusal, Logger: log}
}

// initLine is an initialize request on 2025-06-18.
const initLine = `{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-06-18","capabilities":{},"clientInfo":{"name":"raw","version":"1"}}}`
