package mcpserver

import (
	"encoding/json"
	"fmt"
	"maps"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/mark3labs/mcp-go/client"
	"github.com/mark3labs/mcp-go/mcp"

	"github.com/docs-mcp/docs-mcp/mcp-server/internal/docs"
	"github.com/docs-mcp/docs-mcp/mcp-server/mcptest"
)

// The bytes-to-answer measure: for 66 questions about this repository, each
// with the section of its docs that answers it (testdata/answers), the bytes
// of tool results an assistant takes in before it has read that section,
// the way assistants work: search, then open the hits in the order the
// search gives them until the answer is in what it read.
//
//   - whole docs: each hit's doc read whole (following next_start_line when
//     cut), one doc after another;
//   - guessed ranges: a window of lines around each hit (10 before, 50
//     after), and in the answering section more windows until it is all read;
//   - sections: each hit's section read by its anchor (mod_read_doc section);
//     when that read lists its subsections instead of including them (a
//     doc's title section: its introduction and the list) and the hit's
//     line is in one of them, that subsection is read next;
//   - map + section: no search; with the map of the docs (docs://map) in
//     context, the second-level section it lists that holds the answer is
//     read by its anchor. The choice of that section is the test's (it
//     knows the answer): this is what the map makes possible, checked by
//     requiring the map to name the doc and the anchor; the map's own bytes
//     are paid once per conversation, not per question, and reported apart.
//
// Bytes are those of the results' text (what most clients show the model);
// the whole results, JSON with structuredContent, are counted too.
//
//	go test -run TestBytesToAnswer -v ./mcp-server/internal/mcpserver

type question struct {
	Question, Query, Path, Section string
	// By says who wrote it: "before the map" (the first 20), "by the
	// map's author", or "held out": written from the docs alone by someone
	// who saw neither the map nor its code nor the other questions.
	By string
}

// reading is one way of reading the hits, and what it cost.
type reading struct {
	name       string
	text, json int // bytes
	calls      int
}

func (r *reading) call(t *testing.T, c *client.Client, name string, args map[string]any) *mcp.CallToolResult {
	t.Helper()
	req := mcp.CallToolRequest{}
	req.Params.Name, req.Params.Arguments = name, args
	res, err := c.CallTool(t.Context(), req)
	if err != nil || res.IsError {
		t.Fatalf("%s %v: %v %v", name, args, err, res)
	}
	for _, item := range res.Content {
		if tc, ok := item.(mcp.TextContent); ok {
			r.text += len(tc.Text)
		}
	}
	b, _ := json.Marshal(res)
	r.json += len(b)
	r.calls++
	return res
}

func TestBytesToAnswer(t *testing.T) {
	mcptest.SkipUnderRace(t, "one client measuring what the answers to 66 questions hold")
	root := repoRoot(t)
	questions, snap := answerSet(t, root, filepath.Join("testdata", "answers", "questions.json"))
	c := newClient(t, root)

	var mapText string
	{
		req := mcp.ReadResourceRequest{}
		req.Params.URI = mapURI
		res, err := c.ReadResource(t.Context(), req)
		if err != nil {
			t.Fatal(err)
		}
		mapText = res.Contents[0].(mcp.TextResourceContents).Text
	}
	named := map[string][2]int{} // per author: questions whose doc and section the map names, and all
	totals := map[string]*reading{}
	var order []string
	var report strings.Builder
	fmt.Fprintf(&report, "%-56s %-62s %12s %12s %12s %12s\n", "question", "answering section", "whole docs", "ranges", "sections", "map+section")
	for _, q := range questions {
		d, answer := answering(t, snap, q)
		var row []string
		mapRead := func(t *testing.T, c *client.Client, q question, answer docs.Section) *reading {
			r, ok := mapSection(t, c, mapText, d, q, answer)
			k := named[q.By]
			if ok {
				k[0]++
			}
			k[1]++
			named[q.By] = k
			return r
		}
		for _, way := range []func(*testing.T, *client.Client, question, docs.Section) *reading{wholeDocs, guessedRanges, sectionReads, mapRead} {
			r := way(t, c, q, answer)
			if totals[r.name] == nil {
				totals[r.name] = &reading{name: r.name}
				order = append(order, r.name)
			}
			tot := totals[r.name]
			tot.text, tot.json, tot.calls = tot.text+r.text, tot.json+r.json, tot.calls+r.calls
			row = append(row, fmt.Sprintf("%7d (%d)", r.text, r.calls))
		}
		fmt.Fprintf(&report, "%-56s %-62s %12s %12s %12s %12s\n", clip(q.Question, 56), q.Path+"#"+q.Section, row[0], row[1], row[2], row[3])
	}
	n := len(questions)
	fmt.Fprintf(&report, "\n%-14s %14s %14s %8s %16s %16s\n", "reading", "text bytes", "result bytes", "calls", "text/question", "calls/question")
	for _, name := range order {
		r := totals[name]
		fmt.Fprintf(&report, "%-14s %14d %14d %8d %16d %16.1f\n", name, r.text, r.json, r.calls, r.text/n, float64(r.calls)/float64(n))
	}
	fmt.Fprintf(&report, "\nthe map (docs://map): %d bytes, once per conversation; it names the answering doc and section of:\n", len(mapText))
	for _, by := range slices.Sorted(maps.Keys(named)) {
		fmt.Fprintf(&report, "  %d of %d questions (%s)\n", named[by][0], named[by][1], by)
	}
	t.Logf("bytes to reach the answering section of %d questions (text bytes (calls)):\n%s", n, report.String())
	if n < 40 {
		t.Errorf("%d questions; the measure wants at least 40", n)
	}
	if k := named["held out"]; k[1] == 0 || k[0]*10 < k[1]*9 {
		t.Errorf("the map names the answering section of %d of %d held-out questions, under 90%%", k[0], k[1])
	}
	if whole, sections := totals["whole docs"].text, totals["sections"].text; sections >= whole {
		t.Errorf("section reads took %d bytes, whole docs %d: no saving", sections, whole)
	}
	// The bound the map is for: with it in context (its bytes paid once),
	// at most 3,000 bytes and 2 calls a question on average. A doc whose
	// second-level sections grow long breaks it: split them.
	if m := totals["map+section"]; (m.text+len(mapText))/n > 3000 || m.calls > 2*n {
		t.Errorf("with the map in context, %d bytes and %.1f calls a question (map included once): over 3,000 bytes or 2 calls; the longest reads are in the table above", (m.text+len(mapText))/n, float64(m.calls)/float64(n))
	}
}

// answerSet reads a set of questions (a JSON file) and loads the docs of
// root that answer them.
func answerSet(t *testing.T, root, set string) ([]question, *docs.Snapshot) {
	t.Helper()
	b, err := os.ReadFile(set)
	if err != nil {
		t.Fatal(err)
	}
	var questions []question
	if err := json.Unmarshal(b, &questions); err != nil {
		t.Fatal(err)
	}
	snap, err := docs.Load(t.Context(), filepath.Join(root, "docs"), docs.LoadOptions{})
	if err != nil {
		t.Fatal(err)
	}
	return questions, snap
}

// answering returns the doc and the section that answer q.
func answering(t *testing.T, snap *docs.Snapshot, q question) (*docs.Doc, docs.Section) {
	t.Helper()
	d, ok := snap.Lookup(q.Path)
	if !ok {
		t.Fatalf("%q: no doc %s", q.Question, q.Path)
	}
	outline, err := d.Outline(t.Context(), d.Text())
	if err != nil {
		t.Fatal(err)
	}
	answer, ok, err := outline.Find(t.Context(), q.Section)
	if err != nil || !ok || answer.Anchor != q.Section {
		t.Fatalf("%q: %s has no section #%s", q.Question, q.Path, q.Section)
	}
	return d, answer
}

// hits pages through the search's matches, counting every page, until
// stop says it has what it needs (or the matches end).
func hits(t *testing.T, c *client.Client, r *reading, q question, each func(match) bool) {
	t.Helper()
	args := map[string]any{"query": q.Query}
	for {
		var out SearchDocsOutput
		mcptest.Decode(t, r.call(t, c, "mod_search_docs", args), &out)
		for _, m := range matchesOf(out) {
			if each(m) {
				return
			}
		}
		if !out.HasMore {
			t.Fatalf("%s: %q: the search for %q never reached %s#%s", r.name, q.Question, q.Query, q.Path, q.Section)
		}
		args["cursor"] = out.NextCursor
	}
}

// readAll reads a range of a doc (0, 0: all of it) with mod_read_doc,
// following next_start_line, and returns the last line read.
func readAll(t *testing.T, c *client.Client, r *reading, args map[string]any) int {
	t.Helper()
	for {
		var out ReadDocOutput
		mcptest.Decode(t, r.call(t, c, "mod_read_doc", args), &out)
		if !out.Truncated {
			return out.EndLine
		}
		args["start_line"] = out.NextStartLine
	}
}

func wholeDocs(t *testing.T, c *client.Client, q question, _ docs.Section) *reading {
	r := &reading{name: "whole docs"}
	var read []string
	hits(t, c, r, q, func(m match) bool {
		if slices.Contains(read, m.Path) {
			return false
		}
		read = append(read, m.Path)
		readAll(t, c, r, map[string]any{"path": m.Path})
		return m.Path == q.Path
	})
	return r
}

func guessedRanges(t *testing.T, c *client.Client, q question, answer docs.Section) *reading {
	r := &reading{name: "ranges"}
	covered := map[string][][2]int{} // path -> windows read
	in := func(path string, line int) bool {
		return slices.ContainsFunc(covered[path], func(w [2]int) bool { return w[0] <= line && line <= w[1] })
	}
	all := func() bool { // the answering section is all read
		for l := answer.Line; l <= answer.EndLine; l++ {
			if !in(q.Path, l) {
				return false
			}
		}
		return true
	}
	hits(t, c, r, q, func(m match) bool {
		if !in(m.Path, m.Line) {
			start := max(1, m.Line-10)
			end := readAll(t, c, r, map[string]any{"path": m.Path, "start_line": start, "end_line": m.Line + 50})
			covered[m.Path] = append(covered[m.Path], [2]int{start, end})
		}
		if m.Path != q.Path || m.Line < answer.Line || m.Line > answer.EndLine {
			return all()
		}
		// In the answering section: read on, and back, until all of it is.
		for l := answer.Line; l <= answer.EndLine; l++ {
			if !in(m.Path, l) {
				end := readAll(t, c, r, map[string]any{"path": m.Path, "start_line": l, "end_line": l + 59})
				covered[m.Path] = append(covered[m.Path], [2]int{l, end})
				l = end
			}
		}
		return true
	})
	return r
}

func sectionReads(t *testing.T, c *client.Client, q question, answer docs.Section) *reading {
	r := &reading{name: "sections"}
	var read []string
	// section reads a section by its anchor, all of what the read gives
	// (following next_start_line), and tells whether that holds the
	// answering section: its lines, or it is the answering section (a
	// title's, whose read is its introduction and the list of the rest).
	section := func(path, anchor string) (ReadDocOutput, bool) {
		read = append(read, path+"#"+anchor)
		var out ReadDocOutput
		mcptest.Decode(t, r.call(t, c, "mod_read_doc", map[string]any{"path": path, "section": anchor}), &out)
		end := out.EndLine
		if out.Truncated {
			end = readAll(t, c, r, map[string]any{"path": path, "section": anchor, "start_line": out.NextStartLine})
		}
		return out, path == q.Path && (anchor == answer.Anchor || out.Section.StartLine <= answer.Line && answer.EndLine <= end)
	}
	hits(t, c, r, q, func(m match) bool {
		if m.Anchor == "" || slices.Contains(read, m.Path+"#"+m.Anchor) {
			return false
		}
		out, ok := section(m.Path, m.Anchor)
		if ok {
			return true
		}
		// An introduction with its subsections listed: when the hit's
		// line is in one of them, that one next (the innermost listed).
		var in *SectionInfo
		for i, s := range out.Subsections {
			if s.StartLine <= m.Line && m.Line <= s.EndLine {
				in = &out.Subsections[i]
			}
		}
		if in == nil || slices.Contains(read, m.Path+"#"+in.Anchor) {
			return false
		}
		_, ok = section(m.Path, in.Anchor)
		return ok
	})
	return r
}

// mapSection reads, by its anchor, the second-level section that the map
// lists and that holds the answering section (the whole doc when no
// second-level section does), and reports whether the map names both the
// doc and that anchor.
func mapSection(t *testing.T, c *client.Client, mapText string, d *docs.Doc, q question, answer docs.Section) (*reading, bool) {
	r := &reading{name: "map+section"}
	var anchor string
	o, err := docs.OutlineOf(t.Context(), d.Path, d.Text())
	if err != nil {
		t.Fatal(err)
	}
	for _, s := range o.Sections() {
		if s.Level == 2 && s.Line <= answer.Line && answer.EndLine <= s.EndLine {
			anchor = s.Anchor
		}
	}
	named := strings.Contains(mapText, "- "+q.Path+":")
	args := map[string]any{"path": q.Path}
	if anchor != "" {
		args["section"] = anchor
		named = named && strings.Contains(mapText, "#"+anchor)
	}
	var out ReadDocOutput
	mcptest.Decode(t, r.call(t, c, "mod_read_doc", args), &out)
	if out.Truncated {
		args["start_line"] = out.NextStartLine
		readAll(t, c, r, args)
	}
	return r, named
}
