package mcpserver

import (
	"path/filepath"
	"testing"

	"github.com/docs-mcp/docs-mcp/mcp-server/mcptest"
)

func TestReadContributing(t *testing.T) {
	c := newClient(t, fixtureRoot)
	want := mcptest.ReadFile(t, filepath.Join(fixtureRoot, "CONTRIBUTING.md"))
	out, _ := mcptest.CallOK[ReadContributingOutput](t, c, "mod_read_contributing", nil)
	if out.Path != "CONTRIBUTING.md" || out.Content+"\n" != want || out.Truncated {
		t.Errorf("got path %q, truncated %v, content %q; want the whole guide", out.Path, out.Truncated, out.Content)
	}
	part, _ := mcptest.CallOK[ReadContributingOutput](t, c, "mod_read_contributing", map[string]any{"start_line": 7, "end_line": 7})
	if part.Content != "## Conventions" {
		t.Errorf("line 7 = %q, want the Conventions heading", part.Content)
	}
}
