package cli

import (
	"bytes"
	"context"
	"path/filepath"
	"strings"
	"testing"
)

// TestAgentsMap fails when the repository's AGENTS.md carries a map of the
// docs other than theirs (CI runs it with every go test): run
// `go run ./mcp-server index --write AGENTS.md` from the repository root.
func TestAgentsMap(t *testing.T) {
	root, err := filepath.Abs("../../..")
	if err != nil {
		t.Fatal(err)
	}
	var stdout, stderr bytes.Buffer
	code := Main(context.Background(), "test", []string{"docs-mcp", "index", "--check", filepath.Join(root, "AGENTS.md"), "--data-root", root},
		strings.NewReader(""), &stdout, &stderr)
	if code != exitOK {
		t.Errorf("AGENTS.md is stale (exit %d): %s\nrun from the repository root: go run ./mcp-server index --write AGENTS.md", code, stderr.String())
	}
}
