package docs

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/docs-mcp/docs-mcp/mcp-server/internal/corpusgen"
	"github.com/docs-mcp/docs-mcp/mcp-server/mcptest"
)

func symlink(t *testing.T, target, link string) {
	t.Helper()
	if err := os.Symlink(target, link); err != nil {
		t.Fatal(err)
	}
}

func TestLoad(t *testing.T) {
	base := t.TempDir()
	docsDir := filepath.Join(base, "docs")
	mcptest.WriteTree(t, base, map[string]string{
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
		"docs/folder.md/inside.md":       "# A folder named like a doc is a folder\n",
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
		".hidden/page.md", "a-b.md", "a/b.md", "alias.md", "folder.md/inside.md", "guide/UPPER.MD",
		"guide/intro.md", "index.md", "sub/nested/deep/deeper.md",
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
	if d, err := snap.Doc(context.Background(), "alias.md"); err != nil || d.Title() != "Intro" {
		t.Errorf(`Doc("alias.md") = %v, %v; want the linked intro page`, d, err)
	}
}

// TestBackslashNames checks that Load and Update leave out, with the
// reason, a Markdown file or a folder whose name holds a backslash (Linux
// and macOS allow one): CleanPath refuses every path with a "\", so no
// client could read it, and Update would never see it change.
func TestBackslashNames(t *testing.T) {
	if filepath.Separator == '\\' {
		t.Skip(`on Windows "\" separates folders: no name holds one`)
	}
	dir := t.TempDir()
	mcptest.WriteTree(t, dir, map[string]string{"ok.md": "# Ok\n"})
	ctx := context.Background()
	prev, err := Load(ctx, dir, LoadOptions{Generation: 1})
	if err != nil {
		t.Fatal(err)
	}
	mcptest.WriteTree(t, dir, map[string]string{
		`a\b.md`:        "# Odd file\n",
		`x\y/in.md`:     "# In an odd folder\n",
		`x\y/notes.txt`: "",
		`pic\1.png`:     "", // not Markdown: not a skipped doc either
	})
	loaded, err := Load(ctx, dir, LoadOptions{Generation: 2})
	if err != nil {
		t.Fatal(err)
	}
	updated, _, err := Update(ctx, prev, dir, Changes{All: true}, LoadOptions{Generation: 2})
	if err != nil {
		t.Fatal(err)
	}
	want := map[string]string{`a\b.md`: backslashReason, `x\y`: backslashReason}
	for name, snap := range map[string]*Snapshot{"Load": loaded, "Update": updated} {
		var paths []string
		for _, d := range snap.Docs() {
			paths = append(paths, d.Path)
		}
		if diff := cmp.Diff([]string{"ok.md"}, paths); diff != "" {
			t.Errorf("%s: docs (-want +got):\n%s", name, diff)
		}
		skipped := map[string]string{}
		for _, s := range snap.Skipped() {
			skipped[s.Path] = s.Reason
		}
		if diff := cmp.Diff(want, skipped); diff != "" {
			t.Errorf("%s: skipped (-want +got):\n%s", name, diff)
		}
	}
}

func TestSnapshotDoc(t *testing.T) {
	dir := t.TempDir()
	mcptest.WriteTree(t, dir, map[string]string{
		"server/tools.md":         "# Tools\n",
		"server/configuration.md": "# Configuration\n",
		"clients/vscode.md":       "# VS Code\n",
	})
	snap, err := Load(context.Background(), dir, LoadOptions{})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := snap.Doc(context.Background(), "../etc/passwd"); !errors.Is(err, ErrInvalidPath) {
		t.Errorf("Doc(../etc/passwd) error = %v, want ErrInvalidPath", err)
	}
	_, err = snap.Doc(context.Background(), "tools.md")
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

// TestLoadAgreesWithAPlainWalk compares Load (folders listed and files
// read on many workers, a folder's files shared out in jobs) with a plain
// walk and read of the same tree: the same docs, the same text.
func TestLoadAgreesWithAPlainWalk(t *testing.T) {
	dir := t.TempDir()
	if _, err := corpusgen.Generate(context.Background(), dir, corpusgen.Options{Seed: 9, Files: 600, Shape: corpusgen.Small}); err != nil {
		t.Fatal(err)
	}
	many := map[string]string{}
	for i := range 3*filesPerJob + 5 { // one folder of several jobs
		many[fmt.Sprintf("many/page-%03d.md", i)] = fmt.Sprintf("# Page %d\n\ntext %d\n", i, i)
	}
	mcptest.WriteTree(t, dir, many)

	want := map[string]string{}
	err := filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
		if err != nil || !d.Type().IsRegular() || !isMarkdown(p) {
			return err
		}
		raw, err := os.ReadFile(p)
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(dir, p)
		want[filepath.ToSlash(rel)] = strings.TrimPrefix(string(raw), "\ufeff")
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	snap, err := Load(context.Background(), dir, LoadOptions{})
	if err != nil {
		t.Fatal(err)
	}
	got := map[string]string{}
	for _, d := range snap.Docs() {
		got[d.Path] = d.Text()
	}
	if len(want) < 600+3*filesPerJob {
		t.Fatalf("the plain walk found %d docs; the tree is not what the test means", len(want))
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("Load and a plain walk disagree (-walk +load):\n%s", diff)
	}
	if len(snap.Skipped()) != 0 {
		t.Errorf("skipped: %v", snap.Skipped())
	}
}
