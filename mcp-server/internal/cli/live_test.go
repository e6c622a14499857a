package cli

import (
	"context"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/mark3labs/mcp-go/client"
	"github.com/mark3labs/mcp-go/mcp"
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
		go func() {
			b := make([]byte, 4096)
			for {
				n, err := r.Read(b)
				if n > 0 {
					t.Logf("stderr: %s", b[:n])
				}
				if err != nil {
					return
				}
			}
		}()
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
	ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
	defer cancel()
	if err := c.Start(ctx); err != nil { // routes notifications to OnNotification
		t.Fatal(err)
	}
	init := mcp.InitializeRequest{}
	init.Params.ProtocolVersion = "2025-06-18"
	init.Params.ClientInfo = mcp.Implementation{Name: "stdio-live-test", Version: "1"}
	res, err := c.Initialize(ctx, init)
	if err != nil {
		t.Fatal(err)
	}
	if r := res.Capabilities.Resources; r == nil || !r.Subscribe || !r.ListChanged {
		t.Fatalf("resources capability = %+v, want subscribe and listChanged", r)
	}
	sub := mcp.SubscribeRequest{}
	sub.Params.URI = "docs://guide/intro.md"
	if err := c.Subscribe(ctx, sub); err != nil {
		t.Fatal(err)
	}
	await := func(want string) {
		t.Helper()
		for {
			mu.Lock()
			ok := slices.Contains(got, want)
			names := slices.Clone(got)
			mu.Unlock()
			if ok {
				return
			}
			select {
			case <-ctx.Done():
				t.Fatalf("no %s; got %v", want, names)
			case <-time.After(10 * time.Millisecond):
			}
		}
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
	write("guide/intro.md", "# Intro\n\nRegister hooks early; the wombat says so.\n")
	await("notifications/resources/updated docs://guide/intro.md")
	if text := search("wombat"); !strings.Contains(text, "guide/intro.md:3") {
		t.Errorf("search after the edit:\n%s", text)
	}
	write("new/folder/page.md", "# Page\n\nA gecko.\n")
	await("notifications/resources/list_changed")
	for !strings.Contains(search("gecko"), "new/folder/page.md:3") {
		select {
		case <-ctx.Done():
			t.Fatal("the new doc was never found")
		case <-time.After(10 * time.Millisecond):
		}
	}
}
