package mcpserver

import (
	"fmt"
	"maps"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/mark3labs/mcp-go/mcp"

	"github.com/docs-mcp/docs-mcp/mcp-server/internal/corpus"
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
		Section:    &SectionInfo{Heading: "HTTP", Anchor: "http", Level: 2, StartLine: 3, EndLine: 8, Bytes: 53},
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
// or a higher level starts (or at the end of the doc); a level-1 heading's
// section with headings inside it gives its text down to the first of
// them, and lists them. The anchors themselves are checked against the
// wiki's in tools/internal/wiki (TestAnchorsMatchTheWiki).
func TestReadEverySection(t *testing.T) {
	mcptest.SkipUnderRace(t, "one client reading every section of the docs in turn")
	root := repoRoot(t)
	c := newClient(t, root, func(c *Config) { c.MaxResultBytes = 1 << 20 })
	snap, err := docs.Load(t.Context(), filepath.Join(root, "docs"), docs.LoadOptions{})
	if err != nil {
		t.Fatal(err)
	}
	n, titles := 0, 0
	for _, d := range snap.Docs() {
		text := d.Text()
		lines := docs.SplitLines(text)
		hs := docs.Headings(text)
		anchors := docs.Anchors(hs)
		for i, anchor := range anchors {
			h := hs[i]
			out, _ := mcptest.CallOK[ReadDocOutput](t, c, "mod_read_doc", map[string]any{"path": d.Path, "section": anchor})
			wantEnd := len(lines)
			var inside []string // the anchors of the headings inside it
			for j, next := range hs[i+1:] {
				if next.Level <= h.Level {
					wantEnd = next.Line - 1
					break
				}
				inside = append(inside, anchors[i+1+j])
			}
			whole := strings.Join(lines[h.Line-1:wantEnd], "\n")
			if out.Section == nil || out.Section.Anchor != anchor || out.Section.StartLine != h.Line || out.Section.EndLine != wantEnd || out.Section.Bytes != len(whole) || out.Truncated {
				t.Errorf("%s#%s: got %+v, want lines %d-%d, %d bytes", d.Path, anchor, out.Section, h.Line, wantEnd, len(whole))
				continue
			}
			read, listed := wantEnd, []string(nil)
			if h.Level == 1 && len(inside) > 0 {
				read, listed = hs[i+1].Line-1, inside
				titles++
			}
			var got []string
			for _, s := range out.Subsections {
				got = append(got, s.Anchor)
			}
			if out.StartLine != h.Line || out.EndLine != read || out.Content != strings.Join(lines[h.Line-1:read], "\n") || !slices.Equal(got, listed) {
				t.Errorf("%s#%s: got lines %d-%d listing %q, want lines %d-%d listing %q", d.Path, anchor, out.StartLine, out.EndLine, got, h.Line, read, listed)
			}
			n++
		}
	}
	if n < 100 || titles < 10 {
		t.Errorf("read %d sections, %d of them titles listing their sections; the repository's docs have hundreds, and dozens", n, titles)
	}
	t.Logf("%d sections of %d docs read, %d of them titles", n, len(snap.Docs()), titles)
}

// titleDoc has a title from its front matter and another in a setext
// level-1 heading, a fenced line that is not a heading, and a setext
// subsection holding two more.
var titleDoc = strings.Join([]string{
	"---", // 1
	"title: Front matter title",
	"---",
	"",
	"The Guide", // 5
	"=========",
	"",
	"An introduction.",
	"",
	"```sh", // 10
	"# not a heading",
	"```",
	"",
	"Setup", // 14
	"-----",
	"setup text",
	"### Linux", // 17
	"linux text",
	"### Windows", // 19
	"windows text",
	"## Use", // 21
	"use text",
}, "\n") + "\n"

// TestReadTitleSection reads a doc's title section: its introduction,
// and its sections listed with anchors and sizes, each size what reading
// that section costs; other sections read with list_subsections; and the
// reads that stay as they were (the whole doc, a section without
// subsections, the section as a resource).
func TestReadTitleSection(t *testing.T) {
	dir := copyTree(t, fixtureRoot)
	writeFile(t, dir, "docs/title.md", titleDoc)
	c := newClient(t, dir)

	got, text := mcptest.CallOK[ReadDocOutput](t, c, "mod_read_doc", map[string]any{"path": "title.md", "section": "the-guide"})
	lines := docs.SplitLines(titleDoc)
	want := ReadDocOutput{
		Path: "title.md", Title: "Front matter title", URI: "docs://title.md#the-guide",
		Section:   &SectionInfo{Heading: "The Guide", Anchor: "the-guide", Level: 1, StartLine: 5, EndLine: 22, Bytes: 150},
		LineRange: LineRange{Content: strings.Join(lines[4:13], "\n"), StartLine: 5, EndLine: 13, TotalLines: 22},
		Subsections: []SectionInfo{
			{Heading: "Setup", Anchor: "setup", Level: 2, StartLine: 14, EndLine: 20, Bytes: 68},
			{Heading: "Linux", Anchor: "linux", Level: 3, StartLine: 17, EndLine: 18, Bytes: 20},
			{Heading: "Windows", Anchor: "windows", Level: 3, StartLine: 19, EndLine: 20, Bytes: 24},
			{Heading: "Use", Anchor: "use", Level: 2, StartLine: 21, EndLine: 22, Bytes: 15},
		},
		Generation: 1,
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("title section (-want +got):\n%s", diff)
	}
	wantText := "The Guide\n=========\n\nAn introduction.\n\n```sh\n# not a heading\n```\n" +
		"\n[title.md#the-guide: lines 5-13 of 22]\n\n" +
		"## Sections (not included above)\n" +
		"- Setup (#setup, 68 B)\n" +
		"  - Linux (#linux, 20 B)\n" +
		"  - Windows (#windows, 24 B)\n" +
		"- Use (#use, 15 B)\n" +
		"Read one with mod_read_doc and its anchor as section; leave section out to read the whole doc (185 B)."
	if diff := cmp.Diff(wantText, text); diff != "" {
		t.Errorf("title section's text (-want +got):\n%s", diff)
	}
	// Each size is what the lines cost, read by number.
	for _, s := range append(got.Subsections, *got.Section) {
		r, _ := mcptest.CallOK[ReadDocOutput](t, c, "mod_read_doc", map[string]any{"path": "title.md", "start_line": s.StartLine, "end_line": s.EndLine})
		if len(r.Content) != s.Bytes {
			t.Errorf("#%s: %d bytes listed, lines %d-%d hold %d", s.Anchor, s.Bytes, s.StartLine, s.EndLine, len(r.Content))
		}
	}
	if whole, _ := mcptest.CallOK[ReadDocOutput](t, c, "mod_read_doc", map[string]any{"path": "title.md"}); len(whole.Content) != 185 || whole.Subsections != nil || whole.EndLine != 22 {
		t.Errorf("the whole doc: %d bytes, lines %d-%d, subsections %v; want all 185 bytes as before", len(whole.Content), whole.StartLine, whole.EndLine, whole.Subsections)
	}
	// By the heading's text, the same.
	if byText, _ := mcptest.CallOK[ReadDocOutput](t, c, "mod_read_doc", map[string]any{"path": "title.md", "section": "The Guide"}); byText.EndLine != 13 || len(byText.Subsections) != 4 {
		t.Errorf("title by its text: lines %d-%d, %d subsections", byText.StartLine, byText.EndLine, len(byText.Subsections))
	}

	for _, tc := range []struct {
		name      string
		args      map[string]any
		lines     [2]int
		listed    []string
		more, end string // in the text: what is not listed, and how to read all
	}{
		{"a section with list_subsections", map[string]any{"section": "setup", "list_subsections": true}, [2]int{14, 16}, []string{"linux", "windows"},
			"", "leave list_subsections out to read all of this one (68 B)."},
		{"a section without", map[string]any{"section": "setup"}, [2]int{14, 20}, nil, "", "[title.md#setup: lines 14-20 of 22]"},
		{"list_subsections with nothing to list", map[string]any{"section": "use", "list_subsections": true}, [2]int{21, 22}, nil, "", "[title.md#use: lines 21-22 of 22]"},
		{"list_subsections without section", map[string]any{"list_subsections": true}, [2]int{1, 4}, []string{"the-guide", "setup", "linux", "windows", "use"},
			"", "leave list_subsections out to read the whole doc (185 B)."},
		{"a continued title", map[string]any{"section": "the-guide", "start_line": 8}, [2]int{8, 13}, []string{"setup", "linux", "windows", "use"}, "", "whole doc (185 B)."},
		{"an end_line past the introduction", map[string]any{"section": "the-guide", "end_line": 20}, [2]int{5, 13}, []string{"setup", "linux", "windows", "use"}, "", "whole doc (185 B)."},
	} {
		t.Run(tc.name, func(t *testing.T) {
			args := map[string]any{"path": "title.md"}
			maps.Copy(args, tc.args)
			got, text := mcptest.CallOK[ReadDocOutput](t, c, "mod_read_doc", args)
			var listed []string
			for _, s := range got.Subsections {
				listed = append(listed, s.Anchor)
			}
			if got.StartLine != tc.lines[0] || got.EndLine != tc.lines[1] || got.Content != strings.Join(lines[tc.lines[0]-1:tc.lines[1]], "\n") || !slices.Equal(listed, tc.listed) || got.Truncated {
				t.Errorf("got lines %d-%d listing %q; want lines %d-%d listing %q", got.StartLine, got.EndLine, listed, tc.lines[0], tc.lines[1], tc.listed)
			}
			if !strings.HasSuffix(text, tc.end) || strings.Contains(text, "## Sections (not included above)") != (tc.listed != nil) {
				t.Errorf("text %q; want it to end %q, with a list of sections only when there is one", text, tc.end)
			}
		})
	}

	// A line past the introduction is in a listed subsection: the error
	// names it.
	msg := mcptest.CallErr(t, c, "mod_read_doc", map[string]any{"path": "title.md", "section": "the-guide", "start_line": 18})
	for _, want := range []string{`start_line 18 is past section "the-guide"'s own text (lines 5-13)`, `the line is in section "linux" (lines 17-18)`} {
		if !strings.Contains(msg, want) {
			t.Errorf("start_line in a listed subsection: %q does not say %q", msg, want)
		}
	}
	// The title as a resource is the whole section, as before.
	var rr mcp.ReadResourceRequest
	rr.Params.URI = "docs://title.md#the-guide"
	res, err := c.ReadResource(t.Context(), rr)
	if err != nil {
		t.Fatal(err)
	}
	if got, want := res.Contents[0].(mcp.TextResourceContents).Text, strings.Join(lines[4:], "\n")+"\n"; got != want {
		t.Errorf("resource %s = %q, want lines 5-22", rr.Params.URI, got)
	}
}

// TestReadTitleSectionShapes reads the title sections of docs shaped as
// real ones are: several level-1 headings, a title only in the front
// matter, no headings at all, a title with nothing under it, CRLF line
// ends.
func TestReadTitleSectionShapes(t *testing.T) {
	dir := copyTree(t, fixtureRoot)
	writeFile(t, dir, "docs/parts.md", "# Part one\none\n## A\na\n# Part two\ntwo\n## B\nb\n")
	writeFile(t, dir, "docs/fm.md", "---\ntitle: Only here\n---\nIntro.\n## A\n### A1\ntext\n## B\n")
	writeFile(t, dir, "docs/plain.md", "No heading.\nAt all.\n")
	writeFile(t, dir, "docs/short.md", "# Short\n\nAll of it.\n")
	writeFile(t, dir, "docs/crlf.md", "# T\r\nintro\r\n## A\r\na\r\n")
	c := newClient(t, dir)

	for _, tc := range []struct {
		name   string
		args   map[string]any
		lines  [2]int
		listed []string
		end    string
	}{
		{"the first of several level-1 headings", map[string]any{"path": "parts.md", "section": "part-one"}, [2]int{1, 2}, []string{"a"},
			"read lines 1-4 without section for all of this one (21 B), or leave section out for the whole doc (43 B)."},
		{"the second", map[string]any{"path": "parts.md", "section": "part-two"}, [2]int{5, 6}, []string{"b"},
			"read lines 5-8 without section for all of this one (21 B), or leave section out for the whole doc (43 B)."},
		{"several level-1 headings, the doc listed", map[string]any{"path": "parts.md", "list_subsections": true}, [2]int{1, 0}, []string{"part-one", "a", "part-two", "b"},
			"leave list_subsections out to read the whole doc (43 B)."},
		{"a section under a title in the front matter", map[string]any{"path": "fm.md", "section": "a"}, [2]int{5, 7}, nil, "[fm.md#a: lines 5-7 of 8]"},
		{"a doc titled in the front matter, listed", map[string]any{"path": "fm.md", "list_subsections": true}, [2]int{1, 4}, []string{"a", "a1", "b"},
			"leave list_subsections out to read the whole doc (53 B)."},
		{"no headings, listed", map[string]any{"path": "plain.md", "list_subsections": true}, [2]int{1, 2}, nil, "[plain.md: lines 1-2 of 2]"},
		{"a title with nothing under it", map[string]any{"path": "short.md", "section": "short"}, [2]int{1, 3}, nil, "[short.md#short: lines 1-3 of 3]"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got, text := mcptest.CallOK[ReadDocOutput](t, c, "mod_read_doc", tc.args)
			var listed []string
			for _, s := range got.Subsections {
				listed = append(listed, s.Anchor)
			}
			if got.StartLine != tc.lines[0] || got.EndLine != tc.lines[1] || !slices.Equal(listed, tc.listed) {
				t.Errorf("got lines %d-%d listing %q; want lines %d-%d listing %q", got.StartLine, got.EndLine, listed, tc.lines[0], tc.lines[1], tc.listed)
			}
			if !strings.HasSuffix(text, tc.end) {
				t.Errorf("text %q; want it to end %q", text, tc.end)
			}
		})
	}
	// A doc with CRLF line ends: sizes count the lines as content gives them.
	if got, text := mcptest.CallOK[ReadDocOutput](t, c, "mod_read_doc", map[string]any{"path": "crlf.md", "section": "t"}); got.Content != "# T\nintro" || got.Section.Bytes != 16 || !strings.Contains(text, "- A (#a, 6 B)\n") {
		t.Errorf("CRLF doc: content %q, section %+v, text %q; want sizes without the CRs", got.Content, got.Section, text)
	}
	// The doc's lines 1-4 hold all of part one, as the list says.
	if r, _ := mcptest.CallOK[ReadDocOutput](t, c, "mod_read_doc", map[string]any{"path": "parts.md", "start_line": 1, "end_line": 4}); r.Content != "# Part one\none\n## A\na" {
		t.Errorf("lines 1-4 of parts.md: %q", r.Content)
	}
	// A title only in the front matter is no heading: no section has it.
	if msg := mcptest.CallErr(t, c, "mod_read_doc", map[string]any{"path": "fm.md", "section": "Only here"}); !strings.Contains(msg, `no section "Only here" in fm.md`) || !strings.Contains(msg, "#a1  ### A1  (line 6)") {
		t.Errorf("the front matter's title as a section: %q", msg)
	}
	if msg := mcptest.CallErr(t, c, "mod_read_doc", map[string]any{"path": "plain.md", "section": "x", "list_subsections": true}); !strings.Contains(msg, "it has no headings") {
		t.Errorf("a section of a doc without headings: %q", msg)
	}
	// The doc listed from its first line on has no text of its own: a
	// start_line past it is in a listed section.
	if msg := mcptest.CallErr(t, c, "mod_read_doc", map[string]any{"path": "parts.md", "list_subsections": true, "start_line": 3}); !strings.Contains(msg, `start_line 3 is past the doc's text before its first heading (none)`) || !strings.Contains(msg, `the line is in section "a" (lines 3-4)`) {
		t.Errorf("start_line in a listed section of the doc: %q", msg)
	}
	// Bad ranges are told as in any read.
	for _, tc := range []struct {
		args map[string]any
		want string
	}{
		{map[string]any{"path": "parts.md", "list_subsections": true, "start_line": 99}, "start_line 99 is past the end: the file has 8 lines"},
		{map[string]any{"path": "fm.md", "list_subsections": true, "start_line": 3, "end_line": 2}, "end_line 2 is before start_line 3"},
		{map[string]any{"path": "parts.md", "section": "part-two", "start_line": 2}, `start_line 2 is outside section "part-two" (lines 5-8)`},
	} {
		if msg := mcptest.CallErr(t, c, "mod_read_doc", tc.args); !strings.Contains(msg, tc.want) {
			t.Errorf("%v: %q, want it to say %q", tc.args, msg, tc.want)
		}
	}
}

// TestReadTitleSectionCap follows a title's introduction cut by the size
// cap to its end: every page within the cap, listing the sections, the
// pages together the introduction.
func TestReadTitleSectionCap(t *testing.T) {
	dir := copyTree(t, fixtureRoot)
	lines := []string{"# Long"}
	for i := range 200 {
		lines = append(lines, strings.Repeat("y", i%50)+" intro")
	}
	for i := range 20 {
		lines = append(lines, fmt.Sprintf("## Part %d", i), "text")
	}
	writeFile(t, dir, "docs/long.md", strings.Join(lines, "\n")+"\n")
	const limit = 1024
	c := newClient(t, dir, func(c *Config) { c.MaxResultBytes = limit })
	var got []string
	args := map[string]any{"path": "long.md", "section": "long"}
	for page := 0; ; page++ {
		res := mcptest.Call(t, c, "mod_read_doc", args)
		var out ReadDocOutput
		mcptest.Decode(t, res, &out)
		if text := mcptest.Text(res); len(text) > limit {
			t.Fatalf("page %d: %d bytes of text, over the %d-byte cap", page, len(text), limit)
		}
		if len(out.Subsections) == 0 || out.Subsections[0].Anchor != "part-0" || out.SubsectionsMore != 20-len(out.Subsections) {
			t.Fatalf("page %d lists %d sections (%d more), want the first of 20", page, len(out.Subsections), out.SubsectionsMore)
		}
		got = append(got, out.Content)
		if !out.Truncated {
			if out.EndLine != 201 {
				t.Errorf("last page ends at line %d, want 201 (the line before ## Part 0)", out.EndLine)
			}
			break
		}
		args["start_line"] = out.NextStartLine
	}
	if len(got) < 2 {
		t.Errorf("%d pages; the introduction is several times the cap", len(got))
	}
	if diff := cmp.Diff(strings.Join(lines[:201], "\n"), strings.Join(got, "\n")); diff != "" {
		t.Errorf("pages put together (-want +got):\n%s", diff)
	}
}

// TestReadTitleSectionManyHeadings reads titles over thousands of headings:
// the list is bounded, deeper levels left out first, and says how many it
// leaves out and how to see them.
func TestReadTitleSectionManyHeadings(t *testing.T) {
	dir := copyTree(t, fixtureRoot)
	var many, wide strings.Builder
	many.WriteString("# Many\nintro\n")
	for i := range 3000 {
		fmt.Fprintf(&many, "## Item %d\ntext\n### Detail\nmore\n", i)
	}
	wide.WriteString("# Wide\nintro\n")
	for i := range 30 {
		fmt.Fprintf(&wide, "## Item %d\n", i)
		for j := range 5 {
			fmt.Fprintf(&wide, "### Detail %d.%d\n", i, j)
		}
	}
	writeFile(t, dir, "docs/many.md", many.String())
	writeFile(t, dir, "docs/wide.md", wide.String())

	for _, limit := range []int{1 << 10, DefaultMaxResultBytes} {
		c := newClient(t, dir, func(c *Config) { c.MaxResultBytes = limit })
		// The 30 direct sections of wide.md fit at the default cap, not
		// at 1 KiB, where the list is cut among them.
		deeper := "sections deeper down; read one of those above with list_subsections"
		if limit < DefaultMaxResultBytes {
			deeper = "more sections, from line"
		}
		for _, tc := range []struct {
			path, more string
			items      int // sections under the title
		}{
			{"many.md", "more sections, from line", 6000},
			{"wide.md", deeper, 180},
		} {
			res := mcptest.Call(t, c, "mod_read_doc", map[string]any{"path": tc.path, "section": strings.TrimSuffix(tc.path, ".md")})
			var out ReadDocOutput
			mcptest.Decode(t, res, &out)
			text := mcptest.Text(res)
			if len(text) > limit {
				t.Errorf("%s at cap %d: %d bytes of text", tc.path, limit, len(text))
			}
			if out.Content != "# "+strings.ToUpper(tc.path[:1])+tc.path[1:4]+"\nintro" {
				t.Errorf("%s at cap %d: content %q, want the introduction", tc.path, limit, out.Content)
			}
			if n := len(out.Subsections); n == 0 || n > maxListed || n+out.SubsectionsMore != tc.items {
				t.Errorf("%s at cap %d: %d listed and %d more, want at most %d of %d", tc.path, limit, n, out.SubsectionsMore, maxListed, tc.items)
			}
			for i, s := range out.Subsections {
				if s.Level != 2 || s.Heading != fmt.Sprintf("Item %d", i) {
					t.Errorf("%s at cap %d: listed %d is %s %q, want ## Item %d (the direct ones first, in order)", tc.path, limit, i, strings.Repeat("#", s.Level), s.Heading, i)
					break
				}
			}
			if !strings.Contains(text, fmt.Sprintf("Not listed: %d %s", out.SubsectionsMore, tc.more)) {
				t.Errorf("%s at cap %d: the text does not say what is not listed: %q", tc.path, limit, text[max(0, len(text)-400):])
			}
		}
	}
}

// TestReadTitleSectionOfRelease reads a title section in a release and in
// the working tree: the release's own list, provenance and URI, and in the
// working tree, where the title has nothing under it, the whole doc.
func TestReadTitleSectionOfRelease(t *testing.T) {
	r := threeReleases(t)
	c := versionedClient(t, r, "v*")
	mcptest.Eventually(t, "the releases served", func() bool {
		return !mcptest.Call(t, c, "mod_read_doc", ReadDocInput{Path: "guide.md", Version: "v1.1.0"}).IsError
	})
	got, text := mcptest.CallOK[ReadDocOutput](t, c, "mod_read_doc", ReadDocInput{Path: "guide.md", Section: "guide", Version: "v1.1.0"})
	var listed []string
	for _, s := range got.Subsections {
		listed = append(listed, s.Anchor)
	}
	commit := r.Git("rev-parse", "--short=7", "v1.1.0^{commit}")
	if got.Content != "# Guide\n\nInstall with go get.\n" || !slices.Equal(listed, []string{"install", "upgrade"}) ||
		got.URI != "docs-version://v1.1.0/guide.md#guide" || got.Provenance == nil || got.Provenance.Commit != commit {
		t.Errorf("guide.md#guide at v1.1.0: %q listing %q, uri %s, provenance %+v", got.Content, listed, got.URI, got.Provenance)
	}
	if !strings.Contains(text, "last changed in commit "+commit) || !strings.HasSuffix(text, "leave section out to read the whole doc (86 B).") {
		t.Errorf("text at v1.1.0:\n%s", text)
	}
	got, _ = mcptest.CallOK[ReadDocOutput](t, c, "mod_read_doc", ReadDocInput{Path: "guide.md", Section: "guide"})
	if got.Content != "# Guide\n\nEdited in the working tree, go." || got.Subsections != nil {
		t.Errorf("guide.md#guide in the working tree: %q listing %v, want the whole doc", got.Content, got.Subsections)
	}
}

// BenchmarkReadTitleSection reads the title section of a doc of 50,000
// sections (5 MB), through the client: the introduction and a list of
// 100, against the whole doc's first page at the same cap.
//
//	go test -run '^$' -bench ReadTitleSection -benchmem ./mcp-server/internal/mcpserver
func BenchmarkReadTitleSection(b *testing.B) {
	dir := b.TempDir()
	if err := os.CopyFS(dir, os.DirFS(fixtureRoot)); err != nil {
		b.Fatal(err)
	}
	var doc strings.Builder
	doc.WriteString("# Reference\n\nAll the functions.\n")
	for i := range 50000 {
		fmt.Fprintf(&doc, "## Function %d\n\n%s\n\n### Remarks\n\nNone.\n", i, strings.Repeat("text ", 16))
	}
	if err := os.WriteFile(filepath.Join(dir, "docs", "ref.md"), []byte(doc.String()), 0o644); err != nil {
		b.Fatal(err)
	}
	cfg, docsDir := withFixture(b, dir)
	c, _ := mcptest.InProcess(b, New(cfg, openCorpus(loadDocs(b, docsDir), corpus.DefaultConfig())).MCP(), mcp.LATEST_PROTOCOL_VERSION)
	for name, args := range map[string]map[string]any{
		"title":     {"path": "ref.md", "section": "reference"},
		"whole doc": {"path": "ref.md"},
	} {
		b.Run(name, func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				if res := mcptest.Call(b, c, "mod_read_doc", args); res.IsError {
					b.Fatal(mcptest.Text(res))
				}
			}
		})
	}
}
