package mcpserver

import (
	"cmp"
	"context"
	"fmt"
	"strconv"
	"strings"
	"time"
	"unicode/utf8"

	"github.com/mark3labs/mcp-go/server"

	"github.com/docs-mcp/docs-mcp/mcp-server/internal/docs"
	"github.com/docs-mcp/docs-mcp/mcp-server/internal/search"
)

const (
	defaultSearchLimit = 20
	maxSearchLimit     = 200
	maxQueryBytes      = 1024
	snippetContext     = 80 // bytes of line kept on each side of a match

	// indexWait bounds how long a search that arrives while the snapshot's
	// index is still being built waits for it before scanning instead (the
	// results are the same; the scan is only slower).
	indexWait = 2 * time.Second
)

// SearchDocsInput are the arguments of mod_search_docs.
type SearchDocsInput struct {
	Query         string `json:"query" jsonschema:"Text to find, matched as a plain substring of a line (not a regular expression, not ranked). At most 1024 bytes."`
	CaseSensitive bool   `json:"case_sensitive,omitempty" jsonschema:"Match case exactly. Default false: Unicode case-insensitive."`
	PathPrefix    string `json:"path_prefix,omitempty" jsonschema:"Only search docs whose path (relative to docs/) starts with this, e.g. server/ or clients/."`
	Limit         int    `json:"limit,omitempty" jsonschema:"Most matches to return, 1 to 200. Default 20."`
	Cursor        string `json:"cursor,omitempty" jsonschema:"next_cursor from a previous call with the same query, to get the next page."`
}

// SearchDocsOutput is the result of mod_search_docs.
type SearchDocsOutput struct {
	Matches    []SearchMatch `json:"matches" jsonschema:"Matching lines in path order, then line order; one per line."`
	HasMore    bool          `json:"has_more" jsonschema:"True when more matches remain, or when the search stopped before the end of the docs (one call reads at most 2 MiB of text); pass next_cursor to go on."`
	NextCursor string        `json:"next_cursor,omitempty" jsonschema:"Cursor for the next page, when has_more."`
	Hooks      []HookMatch   `json:"hooks,omitempty" jsonschema:"Hooks of the registry whose name, summary or description contains the query (first page only, at most 10)."`
	Generation uint64        `json:"generation" jsonschema:"Generation of the docs snapshot searched."`
}

// SearchMatch is one matching line.
type SearchMatch struct {
	Path    string `json:"path" jsonschema:"Doc path relative to docs/, for mod_read_doc."`
	Line    int    `json:"line" jsonschema:"1-based line number."`
	Column  int    `json:"column" jsonschema:"1-based column of the match, in characters (Unicode code points)."`
	Heading string `json:"heading" jsonschema:"Trail of headings above the line, outermost first, joined with ' > '; empty above the first heading."`
	Snippet string `json:"snippet" jsonschema:"The line, trimmed around the match; an ellipsis marks a cut."`
	URI     string `json:"uri" jsonschema:"Resource URI of the doc."`
}

func (s *Server) searchDocsTool() server.ServerTool {
	return newTool(s, "mod_search_docs", "Search the docs",
		"Find lines in the docs (docs/**/*.md) containing a substring. Case-insensitive by default, "+
			"results in path then line order (not ranked), each with its heading trail and a snippet. "+
			"Open a hit with mod_read_doc using its path and line. Hooks of the registry whose name or text matches are listed too.",
		s.searchDocs)
}

func (s *Server) searchDocs(ctx context.Context, in SearchDocsInput) (SearchDocsOutput, string, error) {
	var out SearchDocsOutput
	switch {
	case in.Query == "":
		return out, "", inputErrorf("query is empty; give the text to find")
	case len(in.Query) > maxQueryBytes:
		return out, "", inputErrorf("query is %d bytes long; the most is %d", len(in.Query), maxQueryBytes)
	case !utf8.ValidString(in.Query):
		return out, "", inputErrorf("query is not valid UTF-8")
	case strings.ContainsAny(in.Query, "\r\n"):
		return out, "", inputErrorf("query contains a line break; matches are found within one line, so search for one line at a time")
	case in.Limit < 0 || in.Limit > maxSearchLimit:
		return out, "", inputErrorf("limit %d is out of range; use 1 to %d (default %d)", in.Limit, maxSearchLimit, defaultSearchLimit)
	}
	limit := cmp.Or(in.Limit, defaultSearchLimit)
	prefix, err := docs.CleanPrefix(in.PathPrefix)
	if err != nil {
		return out, "", fmt.Errorf("path_prefix: %w", err)
	}
	q := search.Query{Text: in.Query, CaseSensitive: in.CaseSensitive, PathPrefix: prefix}
	fp := fingerprint(q.Text, strconv.FormatBool(q.CaseSensitive), q.PathPrefix)
	var after search.Position
	if in.Cursor != "" {
		c, err := decodeCursor(in.Cursor, "search", fp)
		if err != nil {
			return out, "", err
		}
		after = search.Position{Path: c.Path, Line: c.Line}
	}

	snap := s.store.Snapshot()
	out.Generation = snap.Generation()
	out.Matches = []SearchMatch{}
	budget := s.textBudget()
	var (
		headingsOf *docs.Doc // the doc whose headings are in headings
		headings   []docs.Heading
	)
	// One call reads at most search.CallBytes of text: a query the index
	// cannot narrow down (every doc holds its three-letter pieces, no line
	// holds it) goes on from its cursor, a few milliseconds a call.
	read := search.Budget{Bytes: search.CallBytes}
	for m := range search.Find(ctx, snap, q, after, indexWait, &read) {
		if len(out.Matches) == limit {
			out.HasMore = true
			break
		}
		if m.Doc != headingsOf {
			// Headings are found in the text when asked for: once per doc
			// of the page, however many of its lines match.
			headingsOf, headings = m.Doc, docs.Headings(m.Source)
		}
		sm := SearchMatch{
			Path:    m.Doc.Path,
			Line:    m.Line,
			Column:  utf8.RuneCountInString(m.Text[:m.Offset]) + 1,
			Heading: strings.Join(docs.Trail(headings, m.Line), " > "),
			Snippet: snippet(m.Text, m.Offset, m.Length),
			URI:     docURI(m.Doc.Path),
		}
		cost := len(sm.Path) + len(sm.Heading) + len(sm.Snippet) + len(sm.URI) + 64
		if budget -= cost; budget < 0 && len(out.Matches) > 0 {
			out.HasMore = true // the size cap cuts the page short
			break
		}
		out.Matches = append(out.Matches, sm)
	}
	if err := ctx.Err(); err != nil {
		return out, "", err
	}
	if in.Cursor == "" {
		out.Hooks = s.matchHooks(q)
	}
	stoppedAt := ""
	switch {
	case read.Stopped && !out.HasMore:
		out.HasMore, stoppedAt = true, read.Resume.Path
		out.NextCursor = cursor{Kind: "search", Query: fp, Path: read.Resume.Path, Line: read.Resume.Line}.encode()
	case out.HasMore:
		last := out.Matches[len(out.Matches)-1]
		out.NextCursor = cursor{Kind: "search", Query: fp, Path: last.Path, Line: last.Line}.encode()
	}
	return out, out.text(in.Query, stoppedAt), nil
}

// text is the readable copy of the result. stoppedAt is the doc before
// which the search stopped for its text budget, if it did.
func (o SearchDocsOutput) text(query, stoppedAt string) string {
	var b strings.Builder
	for _, h := range o.Hooks {
		fmt.Fprintf(&b, "hook %s (%s): %s\n", h.Name, h.Kind, h.Summary)
	}
	if len(o.Hooks) > 0 {
		b.WriteString("[details: mod_get_hook]\n\n")
	}
	if len(o.Matches) == 0 && stoppedAt == "" {
		fmt.Fprintf(&b, "No line in the docs contains %q.", query)
		return b.String()
	}
	if len(o.Matches) == 0 {
		fmt.Fprintf(&b, "No line in the docs before %s contains %q.\n", stoppedAt, query)
	}
	size := 64
	for _, m := range o.Matches {
		size += len(m.Path) + len(m.Heading) + len(m.Snippet) + 32
	}
	b.Grow(size)
	var num []byte
	for _, m := range o.Matches {
		// path:line:column  (heading), then the snippet indented: written
		// piece by piece, this is most of a page's text.
		b.WriteString(m.Path)
		num = strconv.AppendInt(append(num[:0], ':'), int64(m.Line), 10)
		num = strconv.AppendInt(append(num, ':'), int64(m.Column), 10)
		b.Write(num)
		if m.Heading != "" {
			b.WriteString("  (")
			b.WriteString(m.Heading)
			b.WriteString(")")
		}
		b.WriteString("\n    ")
		b.WriteString(m.Snippet)
		b.WriteString("\n")
	}
	fmt.Fprintf(&b, "\n[%s", plural(len(o.Matches), "match", "matches"))
	switch {
	case stoppedAt != "":
		fmt.Fprintf(&b, "; the search stopped before %s, having read the most text one call reads (%d MiB): call again with cursor=%q to search the rest",
			stoppedAt, search.CallBytes>>20, o.NextCursor)
	case o.HasMore:
		fmt.Fprintf(&b, "; more remain: call again with cursor=%q", o.NextCursor)
	}
	b.WriteString("]")
	return b.String()
}

// snippet returns the line around a match, cut at rune boundaries to about
// snippetContext bytes on each side, with an ellipsis where it was cut.
func snippet(line string, off, n int) string {
	from := max(0, off-snippetContext)
	for from > 0 && !utf8.RuneStart(line[from]) {
		from++
	}
	to := runeStart(line, off+n+snippetContext)
	s := strings.TrimSpace(line[from:to])
	if from > 0 {
		s = "…" + s
	}
	if to < len(line) {
		s += "…"
	}
	return s
}
