package mcpserver

import (
	"context"
	"encoding/base64"
	"encoding/json"
	"strings"
	"testing"

	"github.com/mark3labs/mcp-go/mcp"

	"github.com/docs-mcp/docs-mcp/mcp-server/internal/corpus"
	"github.com/docs-mcp/docs-mcp/mcp-server/mcptest"
	"github.com/docs-mcp/docs-mcp/mcp-server/watch"
)

// TestIdentity: initialize gives the wiki as websiteUrl and the icon as
// the wiki's favicon.svg when the wiki's URL is known, else as a data:
// URI of icon.svg, and every tool a title.
func TestIdentity(t *testing.T) {
	c, init := initialize(t, newServer(t, fixtureRoot, func(c *Config) { c.WikiURL = "https://docs.example/wiki/" }))
	if got := init.ServerInfo.WebsiteURL; got != "https://docs.example/wiki/" {
		t.Errorf("websiteUrl %q", got)
	}
	if len(init.ServerInfo.Icons) != 1 || init.ServerInfo.Icons[0].MIMEType != "image/svg+xml" || init.ServerInfo.Icons[0].Src != "https://docs.example/wiki/favicon.svg" {
		t.Fatalf("icons %+v, want the wiki's favicon.svg", init.ServerInfo.Icons)
	}
	_, init = initialize(t, newServer(t, fixtureRoot))
	if len(init.ServerInfo.Icons) != 1 {
		t.Fatalf("icons %+v", init.ServerInfo.Icons)
	}
	svg, err := base64.StdEncoding.DecodeString(strings.TrimPrefix(init.ServerInfo.Icons[0].Src, "data:image/svg+xml;base64,"))
	if err != nil || string(svg) != string(icon) || !strings.Contains(string(svg), "<svg") {
		t.Errorf("the icon is not icon.svg: %v", err)
	}
	tools, err := c.ListTools(t.Context(), mcp.ListToolsRequest{})
	if err != nil {
		t.Fatal(err)
	}
	for _, tool := range tools.Tools {
		if tool.Title == "" || tool.Title != tool.Annotations.Title {
			t.Errorf("%s: title %q, annotation title %q", tool.Name, tool.Title, tool.Annotations.Title)
		}
	}

	// A request with the wiki's address in its context (HTTP mode without
	// --public-url) gets it as websiteUrl.
	msg := newServer(t, fixtureRoot).MCP().HandleMessage(WithWikiURL(context.Background(), "http://127.0.0.1:3040/wiki/"),
		[]byte(`{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-11-25","capabilities":{},"clientInfo":{"name":"t","version":"1"}}}`))
	b, err := json.Marshal(msg)
	if err != nil || !strings.Contains(string(b), `"websiteUrl":"http://127.0.0.1:3040/wiki/"`) {
		t.Errorf("initialize with the wiki in the context: %s (%v)", b, err)
	}
}

// TestShortServerInfo: a 2026-07-28 result names the server in _meta by
// name and version only; server/discover gives the whole identity with
// the icon; an older revision's result has no _meta.
func TestShortServerInfo(t *testing.T) {
	srv := newServer(t, fixtureRoot, func(c *Config) { c.Version = "1.2.3" })
	answer := rawAnswer(t, srv)
	short := `"_meta":{"io.modelcontextprotocol/serverInfo":{"name":"docs-mcp","version":"1.2.3"}}`
	for _, req := range []string{
		`{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"mod_search_docs","arguments":{"query":"zzqqxx"},` + meta0728 + `}}`,
		`{"jsonrpc":"2.0","id":2,"method":"resources/read","params":{"uri":"docs://guide/intro.md",` + meta0728 + `}}`,
		`{"jsonrpc":"2.0","id":3,"method":"tools/list","params":{` + meta0728 + `}}`,
	} {
		if got := answer(req); !strings.Contains(got, short) || strings.Contains(got, "data:image") {
			t.Errorf("%s\nanswered %.400s\nwant %s and no icon", req, got, short)
		}
	}
	if got := answer(`{"jsonrpc":"2.0","id":4,"method":"server/discover","params":{` + meta0728 + `}}`); !strings.Contains(got, `"icons":[{"src":"data:image/svg+xml;base64,`) {
		t.Errorf("server/discover lacks the icon: %.400s", got)
	}
	answer(`{"jsonrpc":"2.0","id":5,"method":"initialize","params":{"protocolVersion":"2025-11-25","capabilities":{},"clientInfo":{"name":"t","version":"1"}}}`)
	if got := answer(`{"jsonrpc":"2.0","id":6,"method":"tools/call","params":{"name":"mod_search_docs","arguments":{"query":"zzqqxx"}}}`); strings.Contains(got, "serverInfo") {
		t.Errorf("a 2025-11-25 result carries serverInfo: %s", got)
	}
}

// TestCacheHints: a 2026-07-28 client gets an hour on the fixed lists, and
// on the docs a tenth of the snapshot's age (none just after it was
// served), or maxDocsTTL with --watch off; no hints for an older client.
func TestCacheHints(t *testing.T) {
	serve := func(mode watch.Mode) *Server {
		cfg, docsDir := withFixture(t, fixtureRoot)
		cc := corpus.DefaultConfig()
		cc.Watch = mode
		return New(cfg, openCorpus(loadDocs(t, docsDir), cc))
	}
	for _, tt := range []struct {
		mode    watch.Mode
		wantTTL int64
	}{{watch.Auto, 0}, {watch.Off, maxDocsTTL.Milliseconds()}} {
		c, _ := mcptest.InProcess(t, serve(tt.mode).MCP(), mcp.LATEST_PROTOCOL_VERSION)
		tools, err := c.ListTools(t.Context(), mcp.ListToolsRequest{})
		if err != nil {
			t.Fatal(err)
		}
		if ttl, ok := tools.TTL(); !ok || ttl != fixedTTL.Milliseconds() {
			t.Errorf("%s: tools/list ttl %d (%v), want %d", tt.mode, ttl, ok, fixedTTL.Milliseconds())
		}
		list, err := c.ListResources(t.Context(), mcp.ListResourcesRequest{})
		if err != nil {
			t.Fatal(err)
		}
		if ttl, ok := list.TTL(); !ok || ttl > tt.wantTTL || (tt.mode == watch.Off && ttl != tt.wantTTL) {
			t.Errorf("%s: resources/list ttl %d (%v), want %d", tt.mode, ttl, ok, tt.wantTTL)
		}
		var rr mcp.ReadResourceRequest
		rr.Params.URI = "docs://index.md"
		read, err := c.ReadResource(t.Context(), rr)
		if err != nil {
			t.Fatal(err)
		}
		if ttl, ok := read.TTL(); !ok || ttl > tt.wantTTL || (tt.mode == watch.Off && ttl != tt.wantTTL) {
			t.Errorf("%s: resources/read ttl %d (%v), want %d", tt.mode, ttl, ok, tt.wantTTL)
		}
	}
	// A request of an older version carries no hints.
	srv := serve(watch.Off)
	for _, req := range []string{
		`{"jsonrpc":"2.0","id":1,"method":"resources/list"}`,
		`{"jsonrpc":"2.0","id":2,"method":"resources/read","params":{"uri":"docs://index.md"}}`,
	} {
		b, err := json.Marshal(srv.MCP().HandleMessage(t.Context(), []byte(req)))
		if err != nil || strings.Contains(string(b), "ttlMs") || !strings.Contains(string(b), "docs://index.md") {
			t.Errorf("%s → %.300s (%v), want no ttlMs", req, b, err)
		}
	}
}
