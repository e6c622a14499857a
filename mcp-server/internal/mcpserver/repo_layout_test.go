package mcpserver

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/docs-mcp/docs-mcp/mcp-server/mcptest"
)

// TestRepoLayoutIsTrue keeps the embedded overview honest: every path it
// names exists in the repository, and docs/server/tools.md shows it as it is.
func TestRepoLayoutIsTrue(t *testing.T) {
	root := filepath.Join("..", "..", "..")
	inBlock, module := false, ""
	for line := range strings.Lines(layout) {
		if strings.HasPrefix(line, "```") {
			inBlock = !inBlock
			continue
		}
		fields := strings.Fields(line)
		if !inBlock || len(fields) == 0 {
			continue
		}
		path := fields[0]
		if strings.HasPrefix(line, "  ") { // nested under the module above
			path = filepath.Join(module, path)
		} else {
			module = path
		}
		if _, err := os.Stat(filepath.Join(root, path)); err != nil {
			t.Errorf("layout names %s: %v", path, err)
		}
	}
	page, err := os.ReadFile(filepath.Join(root, "docs", "server", "tools.md"))
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(string(page), layout) {
		t.Error("docs/server/tools.md does not show the current layout.md under mod_repo_layout")
	}
}

func TestRepoLayout(t *testing.T) {
	c := newClient(t, fixtureRoot)
	out, text := mcptest.CallOK[RepoLayoutOutput](t, c, "mod_repo_layout", nil)
	for _, want := range []string{"go.work", "docs/", "framework/", "mod_hooks.json", "mcp-server/", "tools/", "CONTRIBUTING.md"} {
		if !strings.Contains(out.Layout, want) {
			t.Errorf("layout does not mention %s", want)
		}
	}
	if text != out.Layout {
		t.Error("text copy differs from the structured layout")
	}
	if len(out.Layout) > 4096 {
		t.Errorf("layout is %d bytes; it should stay short", len(out.Layout))
	}
}
