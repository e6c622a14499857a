package mcpserver

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/docs-mcp/docs-mcp/mcp-server/mcptest"
)

func TestReadDoc(t *testing.T) {
	c := newClient(t, fixtureRoot)
	tests := []struct {
		name string
		args map[string]any
		want ReadDocOutput
	}{
		{"whole doc", map[string]any{"path": "server/tools.md"}, ReadDocOutput{
			Path: "server/tools.md", Title: "Tools", URI: "docs://server/tools.md",
			LineRange: LineRange{Content: "# Tools\n\n## mod_search_docs\n\nFinds substrings. Hooks are listed by mod_hook_registry.", StartLine: 1, EndLine: 5, TotalLines: 5}, Generation: 1,
		}},
		{"a range", map[string]any{"path": "server/tools.md", "start_line": 3, "end_line": 3}, ReadDocOutput{
			Path: "server/tools.md", Title: "Tools", URI: "docs://server/tools.md",
			LineRange: LineRange{Content: "## mod_search_docs", StartLine: 3, EndLine: 3, TotalLines: 5}, Generation: 1,
		}},
		{"end past the last line is the last line", map[string]any{"path": "./server//tools.md", "start_line": 5, "end_line": 99}, ReadDocOutput{
			Path: "server/tools.md", Title: "Tools", URI: "docs://server/tools.md",
			LineRange: LineRange{Content: "Finds substrings. Hooks are listed by mod_hook_registry.", StartLine: 5, EndLine: 5, TotalLines: 5}, Generation: 1,
		}},
		{"front matter title", map[string]any{"path": "index.md", "end_line": 1}, ReadDocOutput{
			Path: "index.md", Title: "Fixture home", URI: "docs://index.md",
			LineRange: LineRange{Content: "---", StartLine: 1, EndLine: 1, TotalLines: 6}, Generation: 1,
		}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, _ := mcptest.CallOK[ReadDocOutput](t, c, "mod_read_doc", tt.args)
			if diff := cmp.Diff(tt.want, got); diff != "" {
				t.Errorf("result (-want +got):\n%s", diff)
			}
		})
	}
}

// TestReadDocCap reads a long doc under a small cap: every page is cut on a
// line boundary within the cap, and following next_start_line rebuilds the
// doc exactly.
func TestReadDocCap(t *testing.T) {
	dir := copyTree(t, fixtureRoot)
	var lines []string
	for i := range 400 {
		lines = append(lines, strings.Repeat("é", i%50)+" line")
	}
	writeFile(t, dir, "docs/long.md", strings.Join(lines, "\n")+"\n")
	c := newClient(t, dir, func(c *Config) { c.MaxResultBytes = 1024 })

	var got []string
	start := 1
	for page := 0; ; page++ {
		if page > 400 {
			t.Fatal("paging does not end")
		}
		out, text := mcptest.CallOK[ReadDocOutput](t, c, "mod_read_doc", map[string]any{"path": "long.md", "start_line": start})
		if len(out.Content) > 1024 {
			t.Fatalf("page %d holds %d bytes, over the 1024-byte cap", page, len(out.Content))
		}
		got = append(got, strings.Split(out.Content, "\n")...)
		if !out.Truncated {
			break
		}
		if out.NextStartLine != out.EndLine+1 || !strings.Contains(text, "continue with start_line=") {
			t.Fatalf("page %d: next_start_line %d after end_line %d; text: %q", page, out.NextStartLine, out.EndLine, text[len(text)-120:])
		}
		start = out.NextStartLine
	}
	if diff := cmp.Diff(lines, got); diff != "" {
		t.Errorf("pages do not rebuild the doc (-want +got):\n%s", diff)
	}
}

func TestReadDocLongLine(t *testing.T) {
	dir := copyTree(t, fixtureRoot)
	writeFile(t, dir, "docs/one-line.md", strings.Repeat("日本", 1000)+"\nshort\n")
	c := newClient(t, dir, func(c *Config) { c.MaxResultBytes = 1024 })
	out, _ := mcptest.CallOK[ReadDocOutput](t, c, "mod_read_doc", map[string]any{"path": "one-line.md"})
	// The cap less the room kept for the closing lines (a quarter of it
	// at this small cap), so that the whole text stays within the cap.
	if len(out.Content) > 768 || len(out.Content) < 760 || !strings.HasPrefix(strings.Repeat("日本", 1000), out.Content) {
		t.Errorf("cut line = %d bytes, want the first ≤768 bytes on a rune boundary", len(out.Content))
	}
	if !out.Truncated || out.NextStartLine != 2 || !strings.Contains(out.Note, "line 1 is 6000 bytes long") {
		t.Errorf("truncated=%v next=%d note=%q; want a note on line 1 and next_start_line 2", out.Truncated, out.NextStartLine, out.Note)
	}
}

func TestReadDocErrors(t *testing.T) {
	dir := copyTree(t, fixtureRoot)
	writeFile(t, dir, "secret.md", "# outside docs\n")
	writeFile(t, dir, "outside/inner.md", "# outside docs\n")
	for link, target := range map[string]string{
		"docs/escape.md":  "../secret.md",
		"docs/escapedir":  "../outside",
		"docs/abs.md":     filepath.Join(dir, "secret.md"),
		"docs/inside.md":  "guide/intro.md",
		"docs/guide-link": "guide",
	} {
		if err := os.Symlink(target, filepath.Join(dir, link)); err != nil {
			t.Fatal(err)
		}
	}
	c := newClient(t, dir)

	// A symlink that stays inside docs/ is a doc like any other.
	if out, _ := mcptest.CallOK[ReadDocOutput](t, c, "mod_read_doc", map[string]any{"path": "inside.md"}); out.Title != "Introduction" {
		t.Errorf("inside.md title = %q, want the linked page's", out.Title)
	}

	tests := []struct {
		name, path string
		extra      map[string]any
		want       string
	}{
		{"unknown path lists the nearest", "tools.md", nil, `no doc at "tools.md"; nearest valid paths: server/tools.md`},
		{"empty", "", nil, "it is empty"},
		{"absolute", "/etc/passwd", nil, "it is absolute"},
		{"dot dot", "../secret.md", nil, `".." segment`},
		{"dot dot inside", "guide/../../secret.md", nil, `".." segment`},
		{"backslash", `guide\intro.md`, nil, "backslash"},
		{"NUL", "guide/intro.md\x00", nil, "NUL"},
		{"drive letter", "C:/docs/index.md", nil, "drive letter"},
		{"symlink to a file outside", "escape.md", nil, `no doc at "escape.md"`},
		{"absolute symlink outside", "abs.md", nil, `no doc at "abs.md"`},
		{"symlink to a folder outside", "escapedir/inner.md", nil, `no doc at "escapedir/inner.md"`},
		{"folder symlink inside is not followed", "guide-link/intro.md", nil, "nearest valid paths: guide/intro.md"},
		{"the folder itself", ".", nil, "names the docs folder itself"},
		{"start past the end", "server/tools.md", map[string]any{"start_line": 6}, "start_line 6 is past the end: the file has 5 lines"},
		{"end before start", "server/tools.md", map[string]any{"start_line": 3, "end_line": 2}, "end_line 2 is before start_line 3"},
		{"negative start", "server/tools.md", map[string]any{"start_line": -1}, "not a line number"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			args := map[string]any{"path": tt.path}
			for k, v := range tt.extra {
				args[k] = v
			}
			if got := mcptest.CallErr(t, c, "mod_read_doc", args); !strings.Contains(got, tt.want) {
				t.Errorf("error %q does not say %q", got, tt.want)
			}
		})
	}
}
