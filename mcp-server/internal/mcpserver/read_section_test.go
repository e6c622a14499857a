package mcpserver

import (
	"path/filepath"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/mark3labs/mcp-go/mcp"

	"github.com/docs-mcp/docs-mcp/mcp-server/internal/docs"
	"github.com/docs-mcp/docs-mcp/mcp-server/mcptest"
)

// TestReadSection reads one section by anchor, by heading text, a cut one
// continued with next_start_line, and an unknown one.
func TestReadSection(t *testing.T) {
	dir := copyTree(t, fixtureRoot)
	writeFile(t, dir, "docs/sections.md", strings.Join([]string{
		"# Sections", // 1
		"",
		"## HTTP", // 3
		"one",
		"### Deep", // 5
		"```",
		"## fenced, not a heading",
		"```",
		"## HTTP", // 9
		"two",
		"## Last", // 11
		"end",
	}, "\n")+"\n")
	c := newClient(t, dir)

	got, text := mcptest.CallOK[ReadDocOutput](t, c, "mod_read_doc", map[string]any{"path": "sections.md", "section": "http"})
	want := ReadDocOutput{
		Path: "sections.md", Title: "Sections", URI: "docs://sections.md#http",
		Section:    &SectionInfo{Heading: "HTTP", Anchor: "http", Level: 2, StartLine: 3, EndLine: 8},
		LineRange:  LineRange{Content: "## HTTP\none\n### Deep\n```\n## fenced, not a heading\n```", StartLine: 3, EndLine: 8, TotalLines: 12},
		Generation: 1,
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("section http (-want +got):\n%s", diff)
	}
	if !strings.HasSuffix(text, "[sections.md#http: lines 3-8 of 12]") {
		t.Errorf("text copy ends %q", text[max(0, len(text)-60):])
	}

	for name, line := range map[string]int{"http-1": 9, "#deep": 5, "Last": 11, "sections": 1} {
		got, _ := mcptest.CallOK[ReadDocOutput](t, c, "mod_read_doc", map[string]any{"path": "sections.md", "section": name})
		if got.Section == nil || got.StartLine != line {
			t.Errorf("section %q: got %+v, want it to start at line %d", name, got.Section, line)
		}
	}

	msg := mcptest.CallErr(t, c, "mod_read_doc", map[string]any{"path": "sections.md", "section": "fenced, not a heading"})
	for _, want := range []string{`no section "fenced, not a heading" in sections.md`, "#sections  # Sections  (line 1)", "#http-1  ## HTTP  (line 9)", "#deep  ### Deep  (line 5)"} {
		if !strings.Contains(msg, want) {
			t.Errorf("unknown section: error %q does not contain %q", msg, want)
		}
	}
	// The same sections as resources: docs://path#anchor, answered under
	// the anchor whatever name was given.
	for uri, want := range map[string]string{
		"docs://sections.md#http-1":  "## HTTP\ntwo\n",
		"docs://sections.md#Last":    "## Last\nend\n",
		"docs://sections.md#%23deep": "### Deep\n```\n## fenced, not a heading\n```\n",
	} {
		var rr mcp.ReadResourceRequest
		rr.Params.URI = uri
		res, err := c.ReadResource(t.Context(), rr)
		if err != nil {
			t.Errorf("read %s: %v", uri, err)
			continue
		}
		tc := res.Contents[0].(mcp.TextResourceContents)
		if tc.Text != want || !strings.HasPrefix(tc.URI, "docs://sections.md#") || strings.ContainsAny(tc.URI[19:], "%L") {
			t.Errorf("read %s: %q at %s, want %q", uri, tc.Text, tc.URI, want)
		}
	}
	var rr mcp.ReadResourceRequest
	rr.Params.URI = "docs://sections.md#nope"
	if _, err := c.ReadResource(t.Context(), rr); err == nil || !strings.Contains(err.Error(), "resource not found") || !strings.Contains(err.Error(), "#http-1  ## HTTP  (line 9)") {
		t.Errorf("read an unknown section: %v, want resource not found listing the headings", err)
	}

	msg = mcptest.CallErr(t, c, "mod_read_doc", map[string]any{"path": "sections.md", "section": "http", "start_line": 9})
	if !strings.Contains(msg, `start_line 9 is outside section "http" (lines 3-8)`) {
		t.Errorf("start_line outside the section: %q", msg)
	}
}

// TestReadSectionCap follows a section cut by the size cap to its end.
func TestReadSectionCap(t *testing.T) {
	dir := copyTree(t, fixtureRoot)
	var lines []string
	lines = append(lines, "# Long", "## Body")
	for i := range 300 {
		lines = append(lines, strings.Repeat("x", i%40)+" line")
	}
	lines = append(lines, "## After", "tail")
	writeFile(t, dir, "docs/long.md", strings.Join(lines, "\n")+"\n")
	c := newClient(t, dir, func(c *Config) { c.MaxResultBytes = 1024 })
	var got []string
	args := map[string]any{"path": "long.md", "section": "body"}
	for page := 0; ; page++ {
		out, _ := mcptest.CallOK[ReadDocOutput](t, c, "mod_read_doc", args)
		if len(out.Content) > 1024 {
			t.Fatalf("page %d is %d bytes, over the cap", page, len(out.Content))
		}
		got = append(got, out.Content)
		if !out.Truncated {
			if out.EndLine != 302 {
				t.Errorf("last page ends at line %d, want 302 (the line before ## After)", out.EndLine)
			}
			break
		}
		args["start_line"] = out.NextStartLine
	}
	if diff := cmp.Diff(strings.Join(lines[1:302], "\n"), strings.Join(got, "\n")); diff != "" {
		t.Errorf("pages put together (-want +got):\n%s", diff)
	}
}

// TestReadEverySection reads every section of every doc of this
// repository by its anchor and checks that exactly that section came back:
// it starts at its heading, and it ends where the next heading of the same
// or a higher level starts (or at the end of the doc). The anchors
// themselves are checked against the wiki's in tools/internal/wiki
// (TestAnchorsMatchTheWiki).
func TestReadEverySection(t *testing.T) {
	root := repoRoot(t)
	c := newClient(t, root, func(c *Config) { c.MaxResultBytes = 1 << 20 })
	snap, err := docs.Load(t.Context(), filepath.Join(root, "docs"), docs.LoadOptions{})
	if err != nil {
		t.Fatal(err)
	}
	n := 0
	for _, d := range snap.Docs() {
		text := d.Text()
		lines := docs.SplitLines(text)
		hs := docs.Headings(text)
		for i, anchor := range docs.Anchors(hs) {
			h := hs[i]
			out, _ := mcptest.CallOK[ReadDocOutput](t, c, "mod_read_doc", map[string]any{"path": d.Path, "section": anchor})
			wantEnd := len(lines)
			for _, next := range hs[i+1:] {
				if next.Level <= h.Level {
					wantEnd = next.Line - 1
					break
				}
			}
			if out.Section == nil || out.Section.Anchor != anchor || out.StartLine != h.Line || out.EndLine != wantEnd || out.Truncated {
				t.Errorf("%s#%s: got lines %d-%d (%+v), want %d-%d", d.Path, anchor, out.StartLine, out.EndLine, out.Section, h.Line, wantEnd)
				continue
			}
			if want := strings.Join(lines[h.Line-1:wantEnd], "\n"); out.Content != want {
				t.Errorf("%s#%s: content differs from lines %d-%d", d.Path, anchor, h.Line, wantEnd)
			}
			n++
		}
	}
	if n < 100 {
		t.Errorf("read %d sections; the repository's docs have hundreds", n)
	}
	t.Logf("%d sections of %d docs read", n, len(snap.Docs()))
}
