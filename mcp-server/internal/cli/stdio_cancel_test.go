package cli

import (
	"bufio"
	"context"
	"io"
	"log/slog"
	"path/filepath"
	"testing"
	"time"

	"github.com/mark3labs/mcp-go/mcp"

	"github.com/docs-mcp/docs-mcp/mcp-server/internal/corpus"
	"github.com/docs-mcp/docs-mcp/mcp-server/internal/docs"
	"github.com/docs-mcp/docs-mcp/mcp-server/internal/mcpserver"
	"github.com/docs-mcp/docs-mcp/mcp-server/internal/protocol"
	"github.com/docs-mcp/docs-mcp/mcp-server/mcptest"
)

// TestStdioCancelEndsTheHandler: notifications/cancelled goes on to mcp-go,
// which ends the context of the request it names, so that its handler
// stops; the request gets no answer (mcp-go's own stdio transport wrote
// the one its handler returned); the session goes on.
func TestStdioCancelEndsTheHandler(t *testing.T) {
	root := t.TempDir()
	mcptest.WriteTree(t, root, map[string]string{"docs/index.md": "# Home\n"})
	snap, err := docs.Load(t.Context(), filepath.Join(root, "docs"), docs.LoadOptions{Generation: 1})
	if err != nil {
		t.Fatal(err)
	}
	served := corpus.New(corpus.DefaultConfig())
	served.Open(snap)
	opts := mcpserver.DefaultConfig()
	opts.Version, opts.DataRoot = "test", root
	content := mcpserver.New(opts, served)
	started, stopped := make(chan struct{}), make(chan struct{})
	content.MCP().AddTool(mcp.NewTool("wait"), func(ctx context.Context, _ mcp.CallToolRequest) (*mcp.CallToolResult, error) {
		close(started)
		<-ctx.Done()
		close(stopped)
		return mcp.NewToolResultText("answered after all"), nil
	})

	inR, inW := io.Pipe()
	outR, outW := io.Pipe()
	result := make(chan error, 1)
	go func() {
		result <- serveStdio(t.Context(), slog.New(slog.DiscardHandler), content, inR, outW, DefaultMaxLineBytes)
		outW.Close()
	}()
	answers := make(chan protocol.Message, 16)
	go func() {
		defer close(answers)
		sc := bufio.NewScanner(outR)
		for sc.Scan() {
			if m, err := protocol.Parse(sc.Bytes()); err == nil && m.Method == "" {
				answers <- m
			}
		}
	}()
	send := func(line string) {
		t.Helper()
		if _, err := io.WriteString(inW, line+"\n"); err != nil {
			t.Fatal(err)
		}
	}
	next := func() protocol.Message {
		t.Helper()
		select {
		case m := <-answers:
			return m
		case <-time.After(10 * time.Second):
			t.Fatal("no answer within 10 s")
		}
		return protocol.Message{}
	}
	wait := func(ch <-chan struct{}, what string) {
		t.Helper()
		select {
		case <-ch:
		case <-time.After(10 * time.Second):
			t.Fatal(what)
		}
	}

	send(initLine)
	if m := next(); string(m.ID) != "1" {
		t.Fatalf("first answer has id %s, want the initialize's 1", m.ID)
	}
	send(`{"jsonrpc":"2.0","method":"notifications/initialized"}`)
	send(`{"jsonrpc":"2.0","id":"W","method":"tools/call","params":{"name":"wait","arguments":{}}}`)
	wait(started, "the tool call never started")
	send(`{"jsonrpc":"2.0","method":"notifications/cancelled","params":{"requestId":"W","reason":"test"}}`)
	wait(stopped, "the cancelled call's handler is still running 10 s after notifications/cancelled")
	send(`{"jsonrpc":"2.0","id":"P","method":"ping"}`)
	if m := next(); string(m.ID) != `"P"` {
		t.Fatalf("after the cancel, an answer with id %s, want only the ping's \"P\"", m.ID)
	}
	inW.Close()
	if err := <-result; err != nil {
		t.Fatal(err)
	}
	for m := range answers {
		t.Errorf("an answer after end of input, id %s: the cancelled call must get none", m.ID)
	}
}
