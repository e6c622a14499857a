package cli

import (
	"bytes"
	"context"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestAgentsMap fails when the repository's AGENTS.md carries a map of the
// docs other than theirs (CI runs it with every go test), or one over 8 KiB
// or that does not name every doc: for a stale map, run
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
	// The map of this repository's docs stays within the default budget
	// and, unfolded, names every doc.
	b, err := os.ReadFile(filepath.Join(root, "AGENTS.md"))
	if err != nil {
		t.Fatal(err)
	}
	block := string(b)
	block = block[strings.Index(block, "# Map of the docs"):strings.LastIndex(block, "<!--")]
	if len(block) > 8<<10 {
		t.Errorf("the map of the docs is %d bytes, over the default 8 KiB", len(block))
	}
	err = filepath.WalkDir(filepath.Join(root, "docs"), func(p string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() || filepath.Ext(p) != ".md" {
			return err
		}
		rel, _ := filepath.Rel(filepath.Join(root, "docs"), p)
		if !strings.Contains(block, "\n- "+filepath.ToSlash(rel)+":") {
			t.Errorf("the map does not name docs/%s", filepath.ToSlash(rel))
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
}
