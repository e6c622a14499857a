package mcpserver

import (
	"os/exec"
	"slices"
	"strings"
	"testing"
)

// TestAdapterKnowsNoDisk: the server serves what its Corpus gives it and
// tells what the corpus tells; neither the corpus runtime nor the watcher
// is in its build (tests aside), so the protocol and the files on disk
// change apart.
func TestAdapterKnowsNoDisk(t *testing.T) {
	out, err := exec.Command("go", "list", "-deps", ".").Output()
	if err != nil {
		t.Fatalf("go list -deps: %v", err)
	}
	deps := strings.Fields(string(out))
	if !slices.Contains(deps, "github.com/docs-mcp/docs-mcp/mcp-server/internal/docs") {
		t.Fatalf("go list -deps gave %d packages, not docs among them: the test checks nothing", len(deps))
	}
	for _, pkg := range []string{"internal/corpus", "watch"} {
		if slices.Contains(deps, "github.com/docs-mcp/docs-mcp/mcp-server/"+pkg) {
			t.Errorf("mcpserver's build holds %s", pkg)
		}
	}
}
