package httpserver_test

import (
	"context"
	"encoding/json"
	"strings"
	"testing"
	"time"

	"github.com/mark3labs/mcp-go/client"
	"github.com/mark3labs/mcp-go/client/transport"
	"github.com/mark3labs/mcp-go/mcp"

	"github.com/docs-mcp/docs-mcp/mcp-server/mcptest"
)

// TestVersionedResourcesOverHTTP: with --versions, the docs-version:// link
// of a versioned answer is read, a section of it too, and subscribed to,
// through the HTTP transport's own checks, and mod_read_doc's
// list_subsections and mod_list_doc_paths' folders and did_you_mean
// answer, on a revision with sessions and on the session-less one (which subscribes with subscriptions/listen,
// not tested here, and has no resources/subscribe).
func TestVersionedResourcesOverHTTP(t *testing.T) {
	r := mcptest.NewGitRepo(t)
	r.Write(map[string]string{
		"go.work":             "go 1.26.0\n",
		"docs/guide/later.md": "# Later\n\nHooks of release one.\n",
	})
	r.Commit("v1")
	r.Git("tag", "v1")
	r.Write(map[string]string{"docs/guide/later.md": "# Later\n\nHooks of release two.\n"})
	p := startAt(t, r.Dir, nil, "--versions", "v*")
	for _, rev := range []string{"2025-06-18", "2026-07-28"} {
		t.Run(rev, func(t *testing.T) {
			tr, err := transport.NewStreamableHTTP("http://" + p.addr + "/mcp")
			if err != nil {
				t.Fatal(err)
			}
			c := client.NewClient(tr, client.WithProtocolVersion(rev))
			if err := c.Start(context.Background()); err != nil {
				t.Fatal(err)
			}
			defer c.Close()
			mcptest.Initialize(t, c, rev, "httpserver-test")
			ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
			defer cancel()
			ask := mcp.CallToolRequest{}
			ask.Params.Name = "mod_ask_docs"
			ask.Params.Arguments = map[string]any{"question": "hooks of release one", "version": "v1"}
			out, err := c.CallTool(ctx, ask)
			if err != nil || out.IsError {
				t.Fatalf("mod_ask_docs v1: %v %v", err, out)
			}
			const uri = "docs-version://v1/guide/later.md"
			if !strings.Contains(mcptest.Text(out), "guide/later.md") {
				t.Fatalf("mod_ask_docs v1: %s", mcptest.Text(out))
			}
			for _, u := range []string{uri, uri + "#later"} {
				read := mcp.ReadResourceRequest{}
				read.Params.URI = u
				res, err := c.ReadResource(ctx, read)
				if err != nil {
					t.Fatalf("read %s: %v", u, err)
				}
				if text := res.Contents[0].(mcp.TextResourceContents).Text; !strings.Contains(text, "release one") {
					t.Errorf("read %s: %q", u, text)
				}
			}
			read := mcp.ReadResourceRequest{}
			read.Params.URI = "docs-version://v9/guide/later.md"
			if _, err := c.ReadResource(ctx, read); err == nil || !strings.Contains(err.Error(), `no version "v9"`) {
				t.Errorf("read %s: %v, want no version", read.Params.URI, err)
			}
			// mod_read_doc's list_subsections and mod_list_doc_paths'
			// folders and did_you_mean, through this transport too.
			for _, tc := range []struct {
				name string
				args map[string]any
				want string
			}{
				{"mod_read_doc", map[string]any{"path": "guide/later.md", "section": "later", "list_subsections": true, "version": "v1"}, "release one"},
				{"mod_list_doc_paths", map[string]any{}, `"folders":[{"docs":1,"path":"guide/"}]`},
				{"mod_list_doc_paths", map[string]any{"prefix": "Guide/"}, `"did_you_mean":[{"docs":1,"path":"guide/"}]`},
			} {
				call := mcp.CallToolRequest{}
				call.Params.Name, call.Params.Arguments = tc.name, tc.args
				out, err := c.CallTool(ctx, call)
				if err != nil || out.IsError {
					t.Fatalf("%s %v: %v %v", tc.name, tc.args, err, out)
				}
				b, _ := json.Marshal(out.StructuredContent)
				if !strings.Contains(mcptest.Text(out)+string(b), tc.want) {
					t.Errorf("%s %v: no %s in %s", tc.name, tc.args, tc.want, b)
				}
			}
			if rev == "2026-07-28" {
				return
			}
			sub := mcp.SubscribeRequest{}
			sub.Params.URI = uri
			if err := c.Subscribe(ctx, sub); err != nil {
				t.Errorf("subscribe %s: %v", uri, err)
			}
		})
	}
}
