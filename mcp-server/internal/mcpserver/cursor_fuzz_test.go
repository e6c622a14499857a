package mcpserver

import (
	"context"
	"errors"
	"strconv"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/mark3labs/mcp-go/client"
	"github.com/mark3labs/mcp-go/mcp"

	"github.com/docs-mcp/docs-mcp/mcp-server/internal/corpus"
	"github.com/docs-mcp/docs-mcp/mcp-server/internal/docs"
	"github.com/docs-mcp/docs-mcp/mcp-server/mcptest"
)

// FuzzCursor feeds any string to decodeCursor as a client's cursor. It must
// never panic; what it accepts is exactly what it was asked for (kind and
// query) with a line that is not negative, and survives a round trip. Then
// the same string, and a cursor forged with the right fingerprint around the
// fuzzed path and line (clients can do that: the fingerprint is no secret),
// go to mod_search_docs and mod_list_doc_paths through a real client: each
// answer is a result or a tool error, never a protocol error, and a page
// only holds items after the cursor's position.
func FuzzCursor(f *testing.F) {
	searchFP := fingerprint("hook", strconv.FormatBool(false), "")
	for _, s := range []string{
		"", "e30", "not base64!", "eyJrIjoic2VhcmNoIn0",
		cursor{Kind: "search", Query: searchFP, Path: "guide/hooks.md", Line: 3}.encode(),
		cursor{Kind: "list", Query: fingerprint(""), Path: "index.md"}.encode(),
		cursor{Kind: "search", Query: searchFP, Path: "\x00", Line: 1 << 40}.encode(),
	} {
		f.Add(s, "search", uint64(searchFP), "guide/hooks.md", 3)
	}
	f.Add(`{"k":"search","q":1,"p":"","l":-1}`, "search", uint64(1), "", -1)

	c, snap := fuzzClient(f)
	f.Fuzz(func(t *testing.T, s, kind string, query uint64, path string, line int) {
		got, err := decodeCursor(s, kind, query)
		if err != nil {
			if !errors.Is(err, errBadCursor) {
				t.Fatalf("decodeCursor(%q) error %v does not wrap errBadCursor", s, err)
			}
		} else {
			if got.Kind != kind || got.Query != query || got.Line < 0 {
				t.Fatalf("decodeCursor(%q, %q, %d) accepted %+v", s, kind, query, got)
			}
			again, err := decodeCursor(got.encode(), kind, query)
			if err != nil {
				t.Fatalf("decodeCursor(encode(%+v)): %v", got, err)
			}
			if diff := cmp.Diff(got, again, cmp.AllowUnexported(cursor{})); diff != "" {
				t.Fatalf("round trip (-decoded +again):\n%s", diff)
			}
		}

		forged := []string{s}
		if line >= 0 {
			forged = append(forged,
				cursor{Kind: "search", Query: searchFP, Path: path, Line: line}.encode(),
				cursor{Kind: "list", Query: fingerprint(""), Path: path}.encode())
		}
		for _, cur := range forged {
			res := mcptest.Call(t, c, "mod_search_docs", map[string]any{"query": "hook", "cursor": cur})
			if !res.IsError && cur != s {
				var out SearchDocsOutput
				mcptest.Decode(t, res, &out)
				for _, m := range matchesOf(out) {
					if m.Path < path || m.Path == path && m.Line <= line {
						t.Fatalf("search after %s:%d returned %s:%d", path, line, m.Path, m.Line)
					}
				}
			}
			res = mcptest.Call(t, c, "mod_list_doc_paths", map[string]any{"cursor": cur})
			if !res.IsError && cur != s {
				var out ListDocPathsOutput
				mcptest.Decode(t, res, &out)
				for _, e := range out.Paths {
					if e.Path <= path {
						t.Fatalf("list after %q returned %q", path, e.Path)
					}
					if _, err := snap.Doc(context.Background(), e.Path); err != nil {
						t.Fatalf("listed %q, which is not a doc: %v", e.Path, err)
					}
				}
			}
		}
	})
}

// fuzzClient serves the fixture through mcp-go's in-process client, once per
// fuzz target.
func fuzzClient(f *testing.F) (*client.Client, *docs.Snapshot) {
	cfg, docsDir := withFixture(f, fixtureRoot)
	cfg.MaxResultBytes = 2048 // small pages, so that cursors are made and followed
	snap := loadDocs(f, docsDir)
	srv := New(cfg, openCorpus(snap, corpus.DefaultConfig()))
	c, _ := mcptest.InProcess(f, srv.MCP(), mcp.LATEST_PROTOCOL_VERSION)
	return c, snap
}
