package httpserver_test

import (
	"path/filepath"
	"testing"

	"github.com/mark3labs/mcp-go/client"
	"github.com/mark3labs/mcp-go/client/transport"
	"github.com/mark3labs/mcp-go/mcp"

	"github.com/docs-mcp/docs-mcp/mcp-server/mcptest"
)

// TestDocsFoldersOverHTTP: over Streamable HTTP, through the endpoint's
// own checks, a real client browses the docs folder by folder on each
// revision mcp-go speaks (mcptest.DocsFolders): the working tree's from
// docs:// and the release v1's from docs-version://v1 on 2026-07-28, a
// folder of 601 entries in two pages; method not found before.
func TestDocsFoldersOverHTTP(t *testing.T) {
	mcptest.SkipUnderRace(t, "tests the docs-mcp binary, which is not built with -race") // before the repository is made for it
	r := mcptest.ReleasedFolders(t, filepath.Join("..", "mcpserver", "testdata", "repo"))
	p := startAt(t, r.Dir, nil, "--versions", "v*")
	docsDir := filepath.Join(r.Dir, "docs")
	for _, rev := range mcp.ValidProtocolVersions {
		t.Run(rev, func(t *testing.T) {
			tr, err := transport.NewStreamableHTTP("http://" + p.addr + "/mcp")
			if err != nil {
				t.Fatal(err)
			}
			c := client.NewClient(tr, client.WithProtocolVersion(rev))
			if err := c.Start(t.Context()); err != nil {
				t.Fatal(err)
			}
			defer c.Close()
			mcptest.Initialize(t, c, rev, "httpserver-test")
			if pages := mcptest.DocsFolders(t, c, rev, "docs://", docsDir); rev >= mcp.ProtocolVersion20260728 && pages != 6 {
				t.Errorf("%d pages read, want 6: one a folder, two for many/", pages)
			}
			if rev >= mcp.ProtocolVersion20260728 {
				mcptest.AwaitRelease(t, c, rev, "docs-version://v1")
				mcptest.DocsFolders(t, c, rev, "docs-version://v1", docsDir)
			}
		})
	}
}
