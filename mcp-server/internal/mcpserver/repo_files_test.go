package mcpserver

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/docs-mcp/docs-mcp/mcp-server/mcptest"
)

func TestMissingFilesAreToolErrors(t *testing.T) {
	dir := copyTree(t, fixtureRoot)
	for _, f := range []string{"framework/mod_hooks.json", "CONTRIBUTING.md"} {
		if err := os.Remove(filepath.Join(dir, f)); err != nil {
			t.Fatal(err)
		}
	}
	c := newClient(t, dir)
	if got := mcptest.CallErr(t, c, "mod_hook_registry", nil); !strings.Contains(got, "expected at framework/mod_hooks.json") {
		t.Errorf("registry error %q does not name the expected path", got)
	}
	if got := mcptest.CallErr(t, c, "mod_read_contributing", nil); !strings.Contains(got, "expected at CONTRIBUTING.md") {
		t.Errorf("contributing error %q does not name the expected path", got)
	}
	// The docs still work.
	mcptest.CallOK[SearchDocsOutput](t, c, "mod_search_docs", map[string]any{"query": "hook"})
}
