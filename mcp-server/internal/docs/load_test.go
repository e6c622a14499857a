package docs

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// writeTree creates files (path -> content) under dir.
func writeTree(t *testing.T, dir string, files map[string]string) {
	t.Helper()
	for p, content := range files {
		full := filepath.Join(dir, filepath.FromSlash(p))
		if err := os.MkdirAll(filepath.Dir(full), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(full, []byte(content), 0o644); err != nil {
			t.Fatal(err)
		}
	}
}

func symlink(t *testing.T, target, link string) {
	t.Helper()
	if err := os.Symlink(target, link); err != nil {
		t.Fatal(err)
	}
}

func TestLoad(t *testing.T) {
	base := t.TempDir()
	docsDir := filepath.Join(base, "docs")
	writeTree(t, base, map[string]string{
		"docs/index.md":                  "# Home\n",
		"docs/guide/intro.md":            "# Intro\n",
		"docs/guide/UPPER.MD":            "# Upper\n",
		"docs/a-b.md":                    "# Dash\n",
		"docs/a/b.md":                    "# Slash\n",
		"docs/.hidden/page.md":           "# Hidden but real\n",
		"docs/.git/config.md":            "# git internals\n",
		"docs/node_modules/pkg/x.md":     "# dependency\n",
		"docs/notes.txt":                 "not markdown",
		"docs/big.md":                    strings.Repeat("x", 300) + "\n",
		"docs/latin1.md":                 "caf\xe9\n",
		"secret.md":                      "# Secret outside docs\n",
		"outside/leak.md":                "# Outside folder\n",
		"docs/sub/nested/deep/deeper.md": "# Deep\n",
	})
	symlink(t, "../secret.md", filepath.Join(docsDir, "escape-file.md"))
	symlink(t, "../outside", filepath.Join(docsDir, "escape-dir"))
	symlink(t, "guide/intro.md", filepath.Join(docsDir, "alias.md"))
	symlink(t, "guide", filepath.Join(docsDir, "guide-link")) // a folder link inside: not descended
	symlink(t, "loop.md", filepath.Join(docsDir, "loop.md"))

	snap, err := Load(context.Background(), docsDir, LoadOptions{MaxDocBytes: 200, Generation: 7})
	if err != nil {
		t.Fatal(err)
	}
	var paths []string
	for _, d := range snap.Docs() {
		paths = append(paths, d.Path)
	}
	want := []string{
		".hidden/page.md", "a-b.md", "a/b.md", "alias.md", "guide/UPPER.MD", "guide/intro.md",
		"index.md", "sub/nested/deep/deeper.md",
	}
	if diff := cmp.Diff(want, paths); diff != "" {
		t.Errorf("loaded paths (-want +got):\n%s", diff)
	}
	skipped := map[string]string{}
	for _, s := range snap.Skipped() {
		skipped[s.Path] = s.Reason
	}
	for _, p := range []string{"big.md", "latin1.md", "escape-file.md", "loop.md"} {
		if _, ok := skipped[p]; !ok {
			t.Errorf("%s was not reported as skipped; skipped: %v", p, skipped)
		}
	}
	if snap.Generation() != 7 {
		t.Errorf("generation = %d, want 7", snap.Generation())
	}
	if d, err := snap.Doc("alias.md"); err != nil || d.Title != "Intro" {
		t.Errorf(`Doc("alias.md") = %v, %v; want the linked intro page`, d, err)
	}
}

func TestSnapshotDoc(t *testing.T) {
	dir := t.TempDir()
	writeTree(t, dir, map[string]string{
		"server/tools.md":         "# Tools\n",
		"server/configuration.md": "# Configuration\n",
		"clients/vscode.md":       "# VS Code\n",
	})
	snap, err := Load(context.Background(), dir, LoadOptions{})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := snap.Doc("../etc/passwd"); !errors.Is(err, ErrInvalidPath) {
		t.Errorf("Doc(../etc/passwd) error = %v, want ErrInvalidPath", err)
	}
	_, err = snap.Doc("tools.md")
	var nf *NotFoundError
	if !errors.As(err, &nf) || !errors.Is(err, ErrNotFound) {
		t.Fatalf("Doc(tools.md) error = %v, want a NotFoundError", err)
	}
	if len(nf.Nearest) == 0 || nf.Nearest[0] != "server/tools.md" {
		t.Errorf("nearest = %v, want server/tools.md first", nf.Nearest)
	}
}

func TestLoadMissingDir(t *testing.T) {
	_, err := Load(context.Background(), filepath.Join(t.TempDir(), "nope"), LoadOptions{})
	if !errors.Is(err, os.ErrNotExist) {
		t.Errorf("Load(missing) error = %v, want os.ErrNotExist", err)
	}
}
