package mcpserver

import (
	"context"
	"fmt"

	"github.com/docs-mcp/docs-mcp/mcp-server/internal/docs"
	"github.com/mark3labs/mcp-go/server"
)

// ReadDocInput are the arguments of mod_read_doc.
type ReadDocInput struct {
	Path      string `json:"path" jsonschema:"Doc path relative to docs/, as listed by mod_list_doc_paths or returned by mod_search_docs, e.g. server/tools.md."`
	StartLine int    `json:"start_line,omitempty" jsonschema:"First line to return (1-based). Default 1."`
	EndLine   int    `json:"end_line,omitempty" jsonschema:"Last line to return (1-based, inclusive). Default: the last line."`
}

// ReadDocOutput is the result of mod_read_doc.
type ReadDocOutput struct {
	Path  string `json:"path" jsonschema:"Doc path relative to docs/."`
	Title string `json:"title" jsonschema:"The doc's title."`
	URI   string `json:"uri" jsonschema:"Resource URI of the doc."`
	LineRange
	Generation uint64 `json:"generation" jsonschema:"Generation of the docs snapshot read; it grows each time the docs change on disk."`
}

func (s *Server) readDocTool() server.ServerTool {
	return newTool(s, "mod_read_doc", "Read a doc",
		"Read a doc from docs/ by its path, whole or a range of lines. Long docs are cut on a line "+
			"boundary at the size cap; the result then says truncated and gives next_start_line.",
		s.readDoc)
}

func (s *Server) readDoc(ctx context.Context, in ReadDocInput) (ReadDocOutput, string, error) {
	snap := s.store.Snapshot()
	d, err := snap.Doc(ctx, in.Path)
	if err != nil {
		return ReadDocOutput{}, "", fmt.Errorf("%w (list valid paths with mod_list_doc_paths)", err)
	}
	text := d.Text() // decoded once, for the lines and the title
	r, err := window(text, in.StartLine, in.EndLine, s.textBudget())
	if err != nil {
		return ReadDocOutput{}, "", err
	}
	out := ReadDocOutput{Path: d.Path, Title: docs.Title(d.Path, text), URI: docURI(d.Path), LineRange: r, Generation: snap.Generation()}
	return out, r.text(d.Path), nil
}
