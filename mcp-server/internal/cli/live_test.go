package cli

import (
	"bytes"
	"context"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"testing"

	"github.com/mark3labs/mcp-go/client"
	"github.com/mark3labs/mcp-go/mcp"

	"github.com/docs-mcp/docs-mcp/mcp-server/mcptest"
)

// TestStdioLive runs docs-mcp as a subprocess over stdio and edits its docs
// while it runs: the subscribed client hears of the edit, of a new doc in a
// new folder, and the next search finds both.
func TestStdioLive(t *testing.T) {
	root := repo(t)
	c, err := client.NewStdioMCPClient("docs-mcp", nil, "--stdio", "--data-root", root, "--log-level", "warn")
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	if r, ok := client.GetStderr(c); ok {
		// The server's log, shown when the test fails (a t.Logf from this
		// goroutine could come after the test has ended).
		var (
			logMu  sync.Mutex
			logBuf bytes.Buffer
		)
		go func() {
			b := make([]byte, 4096)
			for {
				n, err := r.Read(b)
				logMu.Lock()
				logBuf.Write(b[:n])
				logMu.Unlock()
				if err != nil {
					return
				}
			}
		}()
		t.Cleanup(func() {
			if t.Failed() {
				logMu.Lock()
				defer logMu.Unlock()
				t.Logf("docs-mcp stderr:\n%s", logBuf.String())
			}
		})
	}
	var (
		mu  sync.Mutex
		got []string
	)
	c.OnNotification(func(n mcp.JSONRPCNotification) {
		mu.Lock()
		defer mu.Unlock()
		name := n.Method
		if uri, ok := n.Params.AdditionalFields["uri"]; ok {
			name += " " + uri.(string)
		}
		got = append(got, name)
	})
	ctx, cancel := context.WithTimeout(context.Background(), 2*mcptest.Deadline)
	defer cancel()
	if err := c.Start(ctx); err != nil { // routes notifications to OnNotification
		t.Fatal(err)
	}
	res := mcptest.Initialize(t, c, "2025-06-18", "stdio-live-test")
	if r := res.Capabilities.Resources; r == nil || !r.Subscribe || !r.ListChanged {
		t.Fatalf("resources capability = %+v, want subscribe and listChanged", r)
	}
	sub := mcp.SubscribeRequest{}
	sub.Params.URI = "docs://guide/intro.md"
	if err := c.Subscribe(ctx, sub); err != nil {
		t.Fatal(err)
	}
	// await waits for a notification want that came after mark (a count
	// of notifications): an earlier one must not stand in for the one an
	// edit causes.
	seen := func() int {
		mu.Lock()
		defer mu.Unlock()
		return len(got)
	}
	await := func(mark int, want string) {
		t.Helper()
		mcptest.Eventually(t, want, func() bool {
			mu.Lock()
			defer mu.Unlock()
			return slices.Contains(got[mark:], want)
		})
	}
	search := func(query string) string {
		t.Helper()
		call := mcp.CallToolRequest{}
		call.Params.Name = "mod_search_docs"
		call.Params.Arguments = map[string]any{"query": query}
		out, err := c.CallTool(ctx, call)
		if err != nil {
			t.Fatal(err)
		}
		return out.Content[0].(mcp.TextContent).Text
	}

	write := func(rel, content string) {
		t.Helper()
		p := filepath.Join(root, "docs", filepath.FromSlash(rel))
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(content), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	mark := seen()
	write("guide/intro.md", "# Intro\n\nRegister hooks early; the wombat says so.\n")
	await(mark, "notifications/resources/updated docs://guide/intro.md")
	if text := search("wombat"); !strings.Contains(text, "guide/intro.md\n  Intro  #intro\n  3: ") {
		t.Errorf("search after the edit:\n%s", text)
	}
	mark = seen()
	write("new/folder/page.md", "# Page\n\nA gecko.\n")
	await(mark, "notifications/resources/list_changed")
	mcptest.Eventually(t, "a search to find the new doc", func() bool {
		return strings.Contains(search("gecko"), "new/folder/page.md\n  Page  #page\n  3: ")
	})
}
