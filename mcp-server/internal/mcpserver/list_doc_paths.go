package mcpserver

import (
	"context"
	"fmt"
	"strings"

	"github.com/mark3labs/mcp-go/server"

	"github.com/docs-mcp/docs-mcp/mcp-server/internal/docs"
)

const (
	defaultListLimit = 500
	maxListLimit     = 5000
)

// ListDocPathsInput are the arguments of mod_list_doc_paths.
type ListDocPathsInput struct {
	Prefix  string `json:"prefix,omitempty" jsonschema:"Only paths starting with this, e.g. clients/. Default: all."`
	Limit   *int   `json:"limit,omitempty" jsonschema:"Most paths to return, 1 to 5000. Default 500."`
	Cursor  string `json:"cursor,omitempty" jsonschema:"next_cursor from a previous call with the same prefix."`
	Version string `json:"version,omitempty" jsonschema:"Read a release instead of the working tree: a tag as mod_list_versions lists it, or latest (the newest). Default: the working tree."`
}

// ListDocPathsOutput is the result of mod_list_doc_paths.
type ListDocPathsOutput struct {
	Paths      []DocEntry `json:"paths" jsonschema:"Docs in path order."`
	NextCursor string     `json:"next_cursor,omitempty" jsonschema:"Cursor for the next page; absent on the last page."`
	Generation uint64     `json:"generation" jsonschema:"Generation of the docs snapshot listed."`
	Version    string     `json:"version,omitempty" jsonschema:"The release listed; absent for the working tree."`
}

// DocEntry describes one doc.
type DocEntry struct {
	Path  string `json:"path" jsonschema:"Path relative to docs/, valid for mod_read_doc."`
	Title string `json:"title" jsonschema:"Front matter title, else the first level-1 heading, else the file name."`
	Bytes int64  `json:"bytes" jsonschema:"Size of the file in bytes."`
	Lines int    `json:"lines" jsonschema:"Number of lines."`
}

func (s *Server) listDocPathsTool() server.ServerTool {
	return newTool(s, "mod_list_doc_paths", "List doc paths",
		"List the docs under docs/ (the valid paths for mod_read_doc) with each doc's title, size and line count, in path order.",
		s.listDocPaths)
}

func (s *Server) listDocPaths(ctx context.Context, in ListDocPathsInput) (ListDocPathsOutput, string, error) {
	var out ListDocPathsOutput
	limit, err := limitOf(in.Limit, defaultListLimit, maxListLimit)
	if err != nil {
		return out, "", err
	}
	prefix, err := docs.CleanPrefix(in.Prefix)
	if err != nil {
		return out, "", fmt.Errorf("prefix: %w", err)
	}
	fp := fingerprint(prefix)
	if in.Version != "" {
		fp = fingerprint(prefix, in.Version) // a cursor of one version is no cursor of another
	}
	from := prefix
	if in.Cursor != "" {
		c, err := decodeCursor(in.Cursor, "list", fp)
		if err != nil {
			return out, "", err
		}
		from = max(prefix, c.Path+"\x00") // the smallest path after c.Path
	}

	snap, rel, err := s.docsOf(ctx, in.Version)
	if err != nil {
		return out, "", err
	}
	if rel != nil {
		out.Version = rel.Name
	}
	out.Generation = snap.Generation()
	out.Paths = []DocEntry{}
	all := snap.Docs()
	budget := s.textBudget()
	more := false
	var buf []byte // each doc's text, decoded for its title
	for _, d := range all[snap.From(from):] {
		if !strings.HasPrefix(d.Path, prefix) {
			break
		}
		if len(out.Paths) == limit {
			more = true
			break
		}
		title := d.TitleIn(&buf)
		if budget -= len(d.Path) + len(title) + 48; budget < 0 && len(out.Paths) > 0 {
			more = true
			break
		}
		out.Paths = append(out.Paths, DocEntry{Path: d.Path, Title: title, Bytes: d.Size, Lines: d.LineCount()})
	}
	if more {
		out.NextCursor = cursor{Kind: "list", Query: fp, Path: out.Paths[len(out.Paths)-1].Path}.encode()
	}
	return out, out.text(), nil
}

func (o ListDocPathsOutput) text() string {
	var b strings.Builder
	for _, e := range o.Paths {
		fmt.Fprintf(&b, "%s  %q  (%d lines, %d bytes)\n", e.Path, e.Title, e.Lines, e.Bytes)
	}
	fmt.Fprintf(&b, "\n[%s", plural(len(o.Paths), "doc", "docs"))
	if o.Version != "" {
		fmt.Fprintf(&b, " in %s", o.Version)
	}
	if o.NextCursor != "" {
		fmt.Fprintf(&b, "; more remain: call again with cursor=%q", o.NextCursor)
	}
	b.WriteString("]")
	return b.String()
}
