package cli

import (
	"path/filepath"
	"testing"

	"github.com/mark3labs/mcp-go/client"
	"github.com/mark3labs/mcp-go/mcp"

	"github.com/docs-mcp/docs-mcp/mcp-server/mcptest"
)

// TestStdioSkills: over stdio, a real client uses the Skills extension on
// each revision mcp-go speaks (mcptest.Skills): on 2026-07-28 it lists,
// gets, verifies and reads the data root's skills and reads a skill's
// folder; on the earlier revisions it is told the methods are not offered
// there.
func TestStdioSkills(t *testing.T) {
	r := mcptest.Released(t, filepath.Join("..", "mcpserver", "testdata", "repo"), filepath.Join("..", "mcpserver", "testdata", "skills"))
	for _, rev := range mcp.ValidProtocolVersions {
		t.Run(rev, func(t *testing.T) {
			c, err := client.NewStdioMCPClient("docs-mcp", nil, "--stdio", "--data-root", r.Dir)
			if err != nil {
				t.Fatal(err)
			}
			defer c.Close()
			if err := c.Start(t.Context()); err != nil {
				t.Fatal(err)
			}
			mcptest.Initialize(t, c, rev, "stdio-test")
			entries := mcptest.Skills(t, c, rev, filepath.Join(r.Dir, "skills"))
			if rev >= mcp.ProtocolVersion20260728 && len(entries) != 1 {
				t.Errorf("%d skills listed, want the fixture's one", len(entries))
			}
		})
	}
}
