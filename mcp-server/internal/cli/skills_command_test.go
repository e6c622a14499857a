package cli

import (
	"bytes"
	"io/fs"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/mark3labs/mcp-go/client"
	"github.com/mark3labs/mcp-go/mcp"

	"github.com/docs-mcp/docs-mcp/mcp-server/mcptest"
)

// TestSkillsWritten: `docs-mcp skills --write DIR` writes the repository's
// skills as the server serves them, byte for byte: a real client of the
// server on the repository (stdio, 2026-07-28) lists the skills and reads
// every file of each (mcptest.Skills), and each is DIR's, and DIR holds no
// other file; `skills --check DIR` then passes. CI runs it with every go
// test: a skill the command would write otherwise than served fails here.
func TestSkillsWritten(t *testing.T) {
	root, err := filepath.Abs("../../..")
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	for _, flag := range []string{"--write", "--check"} {
		var stdout, stderr bytes.Buffer
		if code := Main(t.Context(), "test", []string{"docs-mcp", "skills", flag, dir, "--data-root", root}, strings.NewReader(""), &stdout, &stderr); code != exitOK || stderr.Len() > 0 {
			t.Fatalf("skills %s: exit %d: %s%s", flag, code, stdout.String(), stderr.String())
		}
	}

	c, err := client.NewStdioMCPClient("docs-mcp", nil, "--stdio", "--data-root", root)
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	if err := c.Start(t.Context()); err != nil {
		t.Fatal(err)
	}
	rev := mcp.ProtocolVersion20260728
	mcptest.Initialize(t, c, rev, "stdio-test")
	entries := mcptest.Skills(t, c, rev, dir) // each file read is DIR's
	var served, written []string
	for _, e := range entries {
		for _, r := range e.Resources {
			served = append(served, strings.TrimPrefix(r.URI, "skill://"))
		}
	}
	err = filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		rel, _ := filepath.Rel(dir, p)
		written = append(written, filepath.ToSlash(rel))
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	slices.Sort(served)
	slices.Sort(written)
	if !slices.Equal(served, written) || len(entries) < 4 {
		t.Errorf("files written %q; the server serves %q (%d skills)", written, served, len(entries))
	}
}
