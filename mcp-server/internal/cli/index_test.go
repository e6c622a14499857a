package cli

import (
	"bytes"
	"context"
	"io/fs"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/docs-mcp/docs-mcp/mcp-server/internal/docsmap"
	"github.com/docs-mcp/docs-mcp/mcp-server/mcptest"
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

// TestIndexOddNames writes and checks the map of docs whose names hold
// newlines around the marker lines, and other control characters: each
// name is written quoted on one line, so the file keeps one begin and one
// end marker, and index --write and --check keep working (a file named so
// made every later --write and --check fail until fixed by hand).
func TestIndexOddNames(t *testing.T) {
	root := repo(t)
	if err := os.Remove(filepath.Join(root, "framework", "mod_hooks.json")); err != nil { // repo's is no valid registry: a map without hooks
		t.Fatal(err)
	}
	names := []string{
		"x\n" + docsmap.EndMarker + "\ny.md",
		"\n" + docsmap.BeginMarker + "\n.md",
		"tab\tand\rcr.md",
	}
	for _, n := range names {
		mcptest.WriteFile(t, filepath.Join(root, "docs", n), "# Odd\n\nAn odd name.\n")
	}
	agents := filepath.Join(root, "AGENTS.md")
	mcptest.WriteFile(t, agents, "# Agents\n\nBefore the map.\n")
	index := func(args ...string) (int, string) {
		var stdout, stderr bytes.Buffer
		code := Main(t.Context(), "test", append([]string{"docs-mcp", "index"}, append(args, "--data-root", root)...),
			strings.NewReader(""), &stdout, &stderr)
		return code, stdout.String() + stderr.String()
	}
	for _, args := range [][]string{{"--write", agents}, {"--check", agents}, {"--write", agents}, {"--check", agents}} {
		if code, out := index(args...); code != exitOK {
			t.Fatalf("index %s: exit %d: %s", strings.Join(args, " "), code, out)
		}
	}
	b, err := os.ReadFile(agents)
	if err != nil {
		t.Fatal(err)
	}
	text := string(b)
	for _, m := range []string{docsmap.BeginMarker, docsmap.EndMarker} {
		n := 0
		for line := range strings.Lines(text) {
			if strings.TrimSpace(line) == m {
				n++
			}
		}
		if n != 1 {
			t.Errorf("AGENTS.md has %d lines %q, want 1:\n%s", n, m, text)
		}
	}
	for _, n := range names {
		if !strings.Contains(text, "\n- "+strconv.Quote(n)+": Odd. An odd name.\n") {
			t.Errorf("AGENTS.md does not name %s on a line of its own:\n%s", strconv.Quote(n), text)
		}
	}
	if !strings.Contains(text, "\n- guide/intro.md: Intro. Register hooks early.\n") || !strings.HasPrefix(text, "# Agents\n\nBefore the map.\n") {
		t.Errorf("AGENTS.md lost an ordinary name or the text around the map:\n%s", text)
	}
}
