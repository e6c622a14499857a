package cli

import (
	"path/filepath"
	"testing"

	"github.com/mark3labs/mcp-go/client"
	"github.com/mark3labs/mcp-go/mcp"

	"github.com/docs-mcp/docs-mcp/mcp-server/mcptest"
)

// TestStdioDocsFolders: over stdio, on each revision mcp-go speaks, a real
// client browses the docs folder by folder with resources/directory/read
// (mcptest.DocsFolders), the working tree's from docs:// and, with
// --versions, the release v1's from docs-version://v1: every folder and
// doc on disk is listed once in its folder, a folder of 601 entries in two
// pages. Before 2026-07-28 the method is not offered.
func TestStdioDocsFolders(t *testing.T) {
	r := mcptest.ReleasedFolders(t, filepath.Join("..", "mcpserver", "testdata", "repo"), filepath.Join("..", "mcpserver", "testdata", "skills"))
	docsDir := filepath.Join(r.Dir, "docs")
	for _, rev := range mcp.ValidProtocolVersions {
		t.Run(rev, func(t *testing.T) {
			c, err := client.NewStdioMCPClient("docs-mcp", nil, "--stdio", "--data-root", r.Dir, "--versions", "v*")
			if err != nil {
				t.Fatal(err)
			}
			defer c.Close()
			if err := c.Start(t.Context()); err != nil {
				t.Fatal(err)
			}
			mcptest.Initialize(t, c, rev, "stdio-test")
			pages := mcptest.DocsFolders(t, c, rev, "docs://", docsDir)
			if rev < mcp.ProtocolVersion20260728 {
				return
			}
			// docs/, guide/, server/, many/ (two pages), many/deep/.
			if pages != 6 {
				t.Errorf("%d pages read, want 6: one a folder, two for many/", pages)
			}
			mcptest.AwaitRelease(t, c, rev, "docs-version://v1")
			mcptest.DocsFolders(t, c, rev, "docs-version://v1", docsDir)
		})
	}
}
