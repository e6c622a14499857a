package mcpserver

import (
	"cmp"
	"context"
	"fmt"
	"slices"
	"strings"

	"github.com/docs-mcp/docs-mcp/mcp-server/internal/docs"
	"github.com/mark3labs/mcp-go/server"
)

// ReadDocInput are the arguments of mod_read_doc.
type ReadDocInput struct {
	Path            string `json:"path" jsonschema:"Doc path relative to docs/, as listed by mod_list_doc_paths or returned by mod_search_docs, e.g. server/tools.md."`
	Section         string `json:"section,omitempty" jsonschema:"Read only this section: a heading's anchor as mod_search_docs and the wiki give it (e.g. mod_read_doc in server/tools.md), or the heading's text. The section runs from the heading to the next heading of the same or a higher level. A level-1 heading's section (a doc's title) is read as with list_subsections: its introduction and the list of its sections; leave section out to read the whole doc."`
	ListSubsections bool   `json:"list_subsections,omitempty" jsonschema:"Return only the section's own text, from its heading to its first subheading, and list its subsections (heading, anchor, lines, size) instead of including them. Without section: the text before the doc's first heading, and the list of all its sections. Default false, except for a level-1 heading's section."`
	StartLine       int    `json:"start_line,omitempty" jsonschema:"First line to return (1-based). Default 1, or the section's first line. With section: a line inside it, to continue a cut section (inside its own text when its subsections are listed)."`
	EndLine         int    `json:"end_line,omitempty" jsonschema:"Last line to return (1-based, inclusive). Default: the last line of the doc or of the section (of its own text when its subsections are listed)."`
	Version         string `json:"version,omitempty" jsonschema:"Read a release instead of the working tree: a tag as mod_list_versions lists it, or latest (the newest). Default: the working tree."`
}

func (in *ReadDocInput) versions() []string { return []string{in.Version} }

// ReadDocOutput is the result of mod_read_doc.
type ReadDocOutput struct {
	Path    string       `json:"path" jsonschema:"Doc path relative to docs/."`
	Title   string       `json:"title" jsonschema:"The doc's title."`
	URI     string       `json:"uri" jsonschema:"Resource URI of the doc (with #anchor when a section was read)."`
	Section *SectionInfo `json:"section,omitempty" jsonschema:"The section read, when section was given."`
	LineRange
	Subsections     []SectionInfo `json:"subsections,omitempty" jsonschema:"When the read lists the sections inside the one read instead of including them (list_subsections, or a level-1 heading's section): those sections in line order, each after the one that holds it; a long list leaves the deepest levels out first (see subsections_more). Read one by passing its anchor as section."`
	SubsectionsMore int           `json:"subsections_more,omitempty" jsonschema:"How many sections inside the one read subsections leaves out, when the list was too long."`
	Generation      uint64        `json:"generation" jsonschema:"Generation of the docs snapshot read; it grows each time the docs change on disk."`
	Provenance      *Provenance   `json:"provenance,omitempty" jsonschema:"What the doc was read from, when the data root is a git repository: the version and the last commit that changed the doc."`
}

// SectionInfo names a section of a doc, the lines it spans and its size.
type SectionInfo struct {
	Heading   string `json:"heading" jsonschema:"The heading's text, as written."`
	Anchor    string `json:"anchor" jsonschema:"The heading's anchor, as in the wiki's URL of the section."`
	Level     int    `json:"level" jsonschema:"Heading level, 1 to 6."`
	StartLine int    `json:"start_line" jsonschema:"The heading's line."`
	EndLine   int    `json:"end_line" jsonschema:"The section's last line."`
	Bytes     int    `json:"bytes" jsonschema:"Size of the whole section, its subsections included: the bytes of its lines joined with newlines, as content would hold them."`
}

func (s *Server) readDocTool() server.ServerTool {
	return newTool(s, "mod_read_doc", "Read a doc",
		"Read a doc from docs/ by its path: whole, one section (by heading anchor or text), or a range of lines. "+
			"A doc's title section (a level-1 heading's), or any section with list_subsections, gives its own text and the list of its subsections with their anchors and sizes, to read the one needed. "+
			"Long results are cut on a line boundary at the size cap; the result then says truncated and gives next_start_line.",
		s.readDoc)
}

func (s *Server) readDoc(ctx context.Context, in ReadDocInput) (ReadDocOutput, string, error) {
	snap, rel, err := s.docsOf(ctx, in.Version)
	if err != nil {
		return ReadDocOutput{}, "", err
	}
	d, err := snap.Doc(ctx, in.Path)
	if err != nil {
		return ReadDocOutput{}, "", fmt.Errorf("%w (list valid paths with mod_list_doc_paths)", err)
	}
	text := d.Text() // decoded once, for the lines and the title
	uri := docURI(d.Path)
	if rel != nil {
		uri = versionedDocURI(rel.Name, d.Path)
	}
	out := ReadDocOutput{Path: d.Path, Title: docs.Title(d.Path, text), URI: uri, Generation: snap.Generation(),
		Provenance: s.provenanceIn(rel, d)}
	start, end, name := in.StartLine, in.EndLine, docs.ShowPath(d.Path)
	var p part
	if in.Section != "" || in.ListSubsections {
		if p, err = partOf(ctx, d, text, in.Section, in.ListSubsections); err != nil {
			return ReadDocOutput{}, "", err
		}
		if start, end, err = p.within(start, end); err != nil {
			return ReadDocOutput{}, "", err
		}
	}
	if in.Section != "" {
		sec := p.sec
		out.Section = &SectionInfo{Heading: sec.Text, Anchor: sec.Anchor, Level: sec.Level, StartLine: sec.Line, EndLine: sec.EndLine,
			Bytes: spanBytes(text, [][2]int{{sec.Line, sec.EndLine}})[0]}
		out.URI += "#" + sec.Anchor
		name += "#" + sec.Anchor
	}
	// The list of subsections takes its room from the text's: its
	// entries a quarter of it at most (and a few lines more to say what
	// it left out and how to read on), the lines the rest.
	budget := s.textBudget()
	var list string
	if p.lists() {
		list = p.listing(&out, text, budget/4)
		budget -= len(list)
	}
	if p.lists() && p.ownEnd() < p.sec.Line && start == p.sec.Line { // the doc's first line is a heading: no text before it
		out.LineRange = LineRange{StartLine: start, EndLine: start - 1, TotalLines: docs.CountLines(text)}
	} else if out.LineRange, err = window(text, start, end, budget); err != nil {
		return ReadDocOutput{}, "", err
	}
	t := out.LineRange.text(name)
	if out.Provenance != nil {
		t += "\n[" + out.Provenance.text() + "]"
	}
	return out, t + list, nil
}

// section finds the section of d (whose text is given) that name names,
// or says which headings the doc has.
func section(ctx context.Context, d *docs.Doc, text, name string) (docs.Section, error) {
	outline, err := d.Outline(ctx, text)
	if err != nil {
		return docs.Section{}, err
	}
	return sectionIn(ctx, outline, d.Path, name)
}

// sectionIn is section in the outline of the doc at path.
func sectionIn(ctx context.Context, outline *docs.Outline, path, name string) (docs.Section, error) {
	sec, ok, err := outline.Find(ctx, name)
	switch {
	case err != nil:
		return docs.Section{}, err
	case ok:
		return sec, nil
	}
	path = docs.ShowPath(path)
	all := outline.Sections()
	if len(all) == 0 {
		return docs.Section{}, inputErrorf("no section %q in %s: it has no headings; read it without section", name, path)
	}
	var b strings.Builder
	fmt.Fprintf(&b, "no section %q in %s; give one of its headings' anchors (or the heading's text):", name, path)
	for i, sec := range all {
		if i == maxListedSections {
			fmt.Fprintf(&b, "\n… and %d more", len(all)-i)
			break
		}
		fmt.Fprintf(&b, "\n%s#%s  %s %s  (line %d)", strings.Repeat("  ", sec.Level-1), sec.Anchor, strings.Repeat("#", sec.Level), sec.Text, sec.Line)
	}
	return docs.Section{}, inputErrorf("%s", b.String())
}

// maxListedSections bounds the headings an unknown section's error lists.
const maxListedSections = 200

// withinSection is the line range to read of a section: all of it, or from
// start (a line inside it, to continue a cut section) to end (at most its
// last line).
func withinSection(sec docs.Section, start, end int) (int, int, error) {
	if start == 0 {
		start = sec.Line
	}
	if start < sec.Line || start > sec.EndLine {
		return 0, 0, inputErrorf("start_line %d is outside section %q (lines %d-%d)", start, sec.Anchor, sec.Line, sec.EndLine)
	}
	if end == 0 || end > sec.EndLine {
		end = sec.EndLine
	}
	return start, end, nil
}

// part is what a read with section or list_subsections covers: a section,
// or the whole doc when no section is named; and when the read lists the
// sections inside it instead of including them, those.
type part struct {
	sec   docs.Section   // the section; for the whole doc, lines 1 to the last, Level 0
	doc   bool           // no section named: sec is the whole doc
	title bool           // sec is the doc's title: its first heading, of level 1, running to the doc's end
	subs  []docs.Section // when listed: the sections inside sec, in line order
	depth []int          // per sub, how deep it lies in sec: 1 for a direct subsection
}

// partOf finds the part of d (whose text is given) that a read names: the
// section name (the whole doc when it is ""), with its subsections listed
// when list is set or the section's heading is of level 1.
func partOf(ctx context.Context, d *docs.Doc, text, name string, list bool) (part, error) {
	outline, err := d.Outline(ctx, text)
	if err != nil {
		return part{}, err
	}
	all := outline.Sections()
	p := part{sec: docs.Section{Heading: docs.Heading{Line: 1}, EndLine: docs.CountLines(text)}, doc: name == ""}
	first := 0 // the first section inside p.sec
	if !p.doc {
		if p.sec, err = sectionIn(ctx, outline, d.Path, name); err != nil {
			return part{}, err
		}
		i, _ := slices.BinarySearchFunc(all, p.sec.Line, func(s docs.Section, line int) int { return cmp.Compare(s.Line, line) })
		first = i + 1
		p.title = p.sec.Level == 1 && i == 0 && p.sec.EndLine == docs.CountLines(text)
		list = list || p.sec.Level == 1
	}
	if !list {
		return p, nil
	}
	n := first
	for n < len(all) && all[n].Line <= p.sec.EndLine {
		n++
	}
	p.subs = all[first:n]
	// A stack of the levels of the sections open above each one, as the
	// outline nests them: a heading closes those of its level or deeper.
	p.depth = make([]int, len(p.subs))
	var open []int
	for i, s := range p.subs {
		for len(open) > 0 && open[len(open)-1] >= s.Level {
			open = open[:len(open)-1]
		}
		open = append(open, s.Level)
		p.depth[i] = len(open)
	}
	return p, nil
}

// lists reports whether the read lists subsections: it was asked to (or
// the section is a level-1 heading's), and there are some.
func (p part) lists() bool { return len(p.subs) > 0 }

// ownEnd is the last line of the part's own text: the line before its
// first subsection when it lists them, else its last line. It is before
// the part's first line when the doc listed starts with a heading.
func (p part) ownEnd() int {
	if p.lists() {
		return p.subs[0].Line - 1
	}
	return p.sec.EndLine
}

// within is the line range to read of the part: the section (see
// withinSection) or the doc; when the part lists its subsections, only
// its own text, before the first of them.
func (p part) within(start, end int) (int, int, error) {
	if !p.doc {
		var err error
		if start, end, err = withinSection(p.sec, start, end); err != nil {
			return 0, 0, err
		}
	}
	if !p.lists() {
		return start, end, nil
	}
	own := p.ownEnd()
	switch {
	case start == 0:
		start = p.sec.Line
	case p.doc && start > p.sec.EndLine:
		return start, end, nil // past the doc's end, as window says
	}
	// Line 1 of a doc that starts with a heading reads nothing.
	if start > own && start > p.sec.Line {
		// The innermost listed section holding the line: the last one
		// that starts at or before it.
		i, _ := slices.BinarySearchFunc(p.subs, start+1, func(s docs.Section, line int) int { return cmp.Compare(s.Line, line) })
		in := p.subs[max(i-1, 0)]
		what := "the doc's text before its first heading"
		if !p.doc {
			what = fmt.Sprintf("section %q's own text", p.sec.Anchor)
		}
		lines := fmt.Sprintf("lines %d-%d", p.sec.Line, own)
		if own < p.sec.Line {
			lines = "none"
		}
		return 0, 0, inputErrorf("start_line %d is past %s (%s), which this read returns with its subsections listed, not included; the line is in section %q (lines %d-%d): read that section, or read the lines without section",
			start, what, lines, in.Anchor, in.Line, in.EndLine)
	}
	if end == 0 || end > own {
		end = own
	}
	return start, end, nil
}

// maxListed bounds the subsections a read lists.
const maxListed = 100

// listing lists the part's subsections in out (Subsections,
// SubsectionsMore) and returns the list as the text copy ends with it.
// The entries take at most room bytes of text, deeper levels left out
// first (see choose); the list then says what it left out and how to see it.
func (p part) listing(out *ReadDocOutput, text string, room int) string {
	shown, deeper := p.choose(room)
	spans := [][2]int{{1, docs.CountLines(text)}, {p.sec.Line, p.sec.EndLine}} // the doc, the part
	for _, i := range shown {
		spans = append(spans, [2]int{p.subs[i].Line, p.subs[i].EndLine})
	}
	size := spanBytes(text, spans)
	var b strings.Builder
	b.WriteString("\n\n## Sections (not included above)\n")
	out.Subsections = make([]SectionInfo, len(shown))
	for k, i := range shown {
		s := p.subs[i]
		out.Subsections[k] = SectionInfo{Heading: s.Text, Anchor: s.Anchor, Level: s.Level, StartLine: s.Line, EndLine: s.EndLine, Bytes: size[2+k]}
		fmt.Fprintf(&b, "%s- %s (#%s, %s)\n", strings.Repeat("  ", p.depth[i]-1), s.Text, s.Anchor, sizeText(size[2+k]))
	}
	out.SubsectionsMore = len(p.subs) - len(shown)
	switch {
	case out.SubsectionsMore == 0:
	case deeper:
		fmt.Fprintf(&b, "Not listed: %s deeper down; read one of those above with list_subsections to list the sections inside it.\n",
			plural(out.SubsectionsMore, "section", "sections"))
	default:
		// The direct subsections listed are the first ones; the next
		// starts where the last listed ends.
		from := p.subs[0].Line
		if len(shown) > 0 {
			from = p.subs[shown[len(shown)-1]].EndLine + 1
		}
		fmt.Fprintf(&b, "Not listed: %s, from line %d on; find one with mod_search_docs, or read lines from %d with start_line and no section.\n",
			plural(out.SubsectionsMore, "more section", "more sections"), from, from)
	}
	b.WriteString("Read one with mod_read_doc and its anchor as section; ")
	whole, doc := sizeText(size[1]), sizeText(size[0])
	switch {
	case p.doc:
		fmt.Fprintf(&b, "leave list_subsections out to read the whole doc (%s).", doc)
	case p.title:
		fmt.Fprintf(&b, "leave section out to read the whole doc (%s).", doc)
	case p.sec.Level == 1:
		fmt.Fprintf(&b, "read lines %d-%d without section for all of this one (%s), or leave section out for the whole doc (%s).", p.sec.Line, p.sec.EndLine, whole, doc)
	default:
		fmt.Fprintf(&b, "leave list_subsections out to read all of this one (%s).", whole)
	}
	return b.String()
}

// choose picks the subsections to list, at most maxListed taking at most
// room bytes of text: every level down to the deepest that fits whole
// (deeper reports that some deeper ones are left out), or when not even
// the direct subsections all fit, as many of them as do, in order.
func (p part) choose(room int) (shown []int, deeper bool) {
	cost := func(i int) int { // its line in the list, its size at its longest
		return 2*(p.depth[i]-1) + len(p.subs[i].Text) + len(p.subs[i].Anchor) + len("- (#, 999.9 KB)\n")
	}
	deepest := slices.Max(p.depth)
	fits := 0 // the deepest level listed whole
	for depth := 1; depth <= deepest; depth++ {
		n, bytes := 0, 0
		for i, d := range p.depth {
			if d <= depth {
				n, bytes = n+1, bytes+cost(i)
			}
		}
		if n > maxListed || bytes > room {
			break
		}
		fits = depth
	}
	bytes := 0
	for i, d := range p.depth {
		switch {
		case fits > 0 && d <= fits:
			shown = append(shown, i)
		case fits == 0 && d == 1:
			if len(shown) == maxListed || bytes+cost(i) > room {
				return shown, false
			}
			shown, bytes = append(shown, i), bytes+cost(i)
		}
	}
	return shown, fits > 0 && fits < deepest
}

// spanBytes returns the size of each span of lines of text (first and
// last line, 1-based, inclusive) as content holds it: the lines without
// their terminators, joined with newlines. It reads the text once.
func spanBytes(text string, spans [][2]int) []int {
	// off(l) is where line l starts in the joined lines, with the
	// newline that would follow the last line: each span's size is
	// off(last+1) - off(first) - 1.
	var points []int
	for _, s := range spans {
		points = append(points, s[0], s[1]+1)
	}
	slices.Sort(points)
	points = slices.Compact(points)
	off := make(map[int]int, len(points))
	line, at, rest := 1, 0, text
	for _, p := range points {
		for ; line < p && rest != ""; line++ {
			var l string
			l, rest = docs.CutLine(rest)
			at += len(l) + 1
		}
		off[p] = at
	}
	sizes := make([]int, len(spans))
	for i, s := range spans {
		sizes[i] = max(off[s[1]+1]-off[s[0]]-1, 0)
	}
	return sizes
}

// sizeText says a size in bytes for a reader: 812 B, 4.2 KB, 1.3 MB.
func sizeText(n int) string {
	switch {
	case n < 1000:
		return fmt.Sprintf("%d B", n)
	case n < 999_950:
		return fmt.Sprintf("%.1f KB", float64(n)/1000)
	}
	return fmt.Sprintf("%.1f MB", float64(n)/1_000_000)
}
