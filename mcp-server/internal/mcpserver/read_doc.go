package mcpserver

import (
	"context"
	"fmt"
	"strings"

	"github.com/docs-mcp/docs-mcp/mcp-server/internal/docs"
	"github.com/mark3labs/mcp-go/server"
)

// ReadDocInput are the arguments of mod_read_doc.
type ReadDocInput struct {
	Path      string `json:"path" jsonschema:"Doc path relative to docs/, as listed by mod_list_doc_paths or returned by mod_search_docs, e.g. server/tools.md."`
	Section   string `json:"section,omitempty" jsonschema:"Read only this section: a heading's anchor as mod_search_docs and the wiki give it (e.g. mod_read_doc in server/tools.md), or the heading's text. The section runs from the heading to the next heading of the same or a higher level."`
	StartLine int    `json:"start_line,omitempty" jsonschema:"First line to return (1-based). Default 1, or the section's first line. With section: a line inside it, to continue a cut section."`
	EndLine   int    `json:"end_line,omitempty" jsonschema:"Last line to return (1-based, inclusive). Default: the last line of the doc or of the section."`
	Version   string `json:"version,omitempty" jsonschema:"Read a release instead of the working tree: a tag as mod_list_versions lists it, or latest (the newest). Default: the working tree."`
}

// ReadDocOutput is the result of mod_read_doc.
type ReadDocOutput struct {
	Path    string       `json:"path" jsonschema:"Doc path relative to docs/."`
	Title   string       `json:"title" jsonschema:"The doc's title."`
	URI     string       `json:"uri" jsonschema:"Resource URI of the doc (with #anchor when a section was read)."`
	Section *SectionInfo `json:"section,omitempty" jsonschema:"The section read, when section was given."`
	LineRange
	Generation uint64      `json:"generation" jsonschema:"Generation of the docs snapshot read; it grows each time the docs change on disk."`
	Provenance *Provenance `json:"provenance,omitempty" jsonschema:"What the doc was read from, when the data root is a git repository: the version and the last commit that changed the doc."`
}

// SectionInfo names a section of a doc and the lines it spans.
type SectionInfo struct {
	Heading   string `json:"heading" jsonschema:"The heading's text, as written."`
	Anchor    string `json:"anchor" jsonschema:"The heading's anchor, as in the wiki's URL of the section."`
	Level     int    `json:"level" jsonschema:"Heading level, 1 to 6."`
	StartLine int    `json:"start_line" jsonschema:"The heading's line."`
	EndLine   int    `json:"end_line" jsonschema:"The section's last line."`
}

func (s *Server) readDocTool() server.ServerTool {
	return newTool(s, "mod_read_doc", "Read a doc",
		"Read a doc from docs/ by its path: whole, one section (by heading anchor or text), or a range of lines. "+
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
		Provenance: s.provenanceIn(rel, d, text)}
	start, end, name := in.StartLine, in.EndLine, d.Path
	if in.Section != "" {
		sec, err := section(ctx, d, text, in.Section)
		if err != nil {
			return ReadDocOutput{}, "", err
		}
		if start, end, err = withinSection(sec, start, end); err != nil {
			return ReadDocOutput{}, "", err
		}
		out.Section = &SectionInfo{Heading: sec.Text, Anchor: sec.Anchor, Level: sec.Level, StartLine: sec.Line, EndLine: sec.EndLine}
		out.URI += "#" + sec.Anchor
		name += "#" + sec.Anchor
	}
	if out.LineRange, err = window(text, start, end, s.textBudget()); err != nil {
		return ReadDocOutput{}, "", err
	}
	t := out.LineRange.text(name)
	if out.Provenance != nil {
		t += "\n[" + out.Provenance.text() + "]"
	}
	return out, t, nil
}

// section finds the section of d (whose text is given) that name names,
// or says which headings the doc has.
func section(ctx context.Context, d *docs.Doc, text, name string) (docs.Section, error) {
	outline, err := d.Outline(ctx, text)
	if err != nil {
		return docs.Section{}, err
	}
	sec, ok, err := outline.Find(ctx, name)
	switch {
	case err != nil:
		return docs.Section{}, err
	case ok:
		return sec, nil
	}
	path, all := d.Path, outline.Sections()
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
