package httpserver_test

import (
	"path/filepath"
	"testing"

	"github.com/mark3labs/mcp-go/client"
	"github.com/mark3labs/mcp-go/client/transport"
	"github.com/mark3labs/mcp-go/mcp"

	"github.com/docs-mcp/docs-mcp/mcp-server/mcptest"
)

// TestSkillsOverHTTP: over Streamable HTTP, a real client uses the Skills
// extension on each revision mcp-go speaks (mcptest.Skills), through the
// endpoint's own checks: on 2026-07-28 it lists, gets, verifies and reads
// the data root's skills and reads a skill's folder; on the earlier
// revisions, sessions and all, it is told the methods are not offered
// there.
func TestSkillsOverHTTP(t *testing.T) {
	r := mcptest.Released(t, filepath.Join("..", "mcpserver", "testdata", "repo"), filepath.Join("..", "mcpserver", "testdata", "skills"))
	p := startAt(t, r.Dir, nil)
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
			entries := mcptest.Skills(t, c, rev, filepath.Join(r.Dir, "skills"))
			if rev >= mcp.ProtocolVersion20260728 && len(entries) != 1 {
				t.Errorf("%d skills listed, want the fixture's one", len(entries))
			}
		})
	}
}
