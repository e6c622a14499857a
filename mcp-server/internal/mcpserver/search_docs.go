package mcpserver

import (
	"context"
	"fmt"
	"slices"
	"strconv"
	"strings"
	"time"
	"unicode/utf8"

	"github.com/mark3labs/mcp-go/mcp"
	"github.com/mark3labs/mcp-go/server"

	"github.com/docs-mcp/docs-mcp/mcp-server/gitdocs"
	"github.com/docs-mcp/docs-mcp/mcp-server/internal/docs"
	"github.com/docs-mcp/docs-mcp/mcp-server/internal/search"
)

const (
	defaultSearchLimit = 20
	maxSearchLimit     = 200
	maxQueryBytes      = 1024
	snippetContext     = 80 // bytes of line kept on each side of a match

	// indexWait bounds how long a search waits for the index of the docs
	// served: the first snapshot's is built while the server starts (about
	// a second at 40,000 docs with no cache; none with one), and a search
	// answers from all of it or not at all. Past the wait the search is a
	// tool error that says so.
	indexWait = 30 * time.Second
)

// SearchDocsInput are the arguments of mod_search_docs.
type SearchDocsInput struct {
	Query         string `json:"query" jsonschema:"Text to find, matched as a plain substring of a line (not a regular expression, not ranked). At most 1024 bytes."`
	CaseSensitive bool   `json:"case_sensitive,omitempty" jsonschema:"Match case exactly. Default false: Unicode case-insensitive."`
	PathPrefix    string `json:"path_prefix,omitempty" jsonschema:"Only search docs whose path (relative to docs/) starts with this, e.g. server/ or clients/."`
	Match         string `json:"match,omitempty" jsonschema:"substring (the default): a line matches when it contains the query as written. all_terms: the query is split at spaces into terms, and a line matches when it contains every term, in any order (each still a plain substring)."`
	Limit         *int   `json:"limit,omitempty" jsonschema:"Most matches to return, 1 to 200. Default 20."`
	Cursor        string `json:"cursor,omitempty" jsonschema:"next_cursor from a previous call with the same query, to get the next page."`
	Version       string `json:"version,omitempty" jsonschema:"Read a release instead of the working tree: a tag as mod_list_versions lists it, or latest (the newest). Default: the working tree."`
}

// SearchDocsOutput is the result of mod_search_docs.
type SearchDocsOutput struct {
	Matches    []SearchMatch     `json:"matches" jsonschema:"Matching lines in path order, then line order; one per line."`
	HasMore    bool              `json:"has_more" jsonschema:"True when the page is full and more matches remain, or when this query's candidate docs hold more text than one call reads (2 MiB) and the search stopped before the end of the docs; pass next_cursor to go on. The text's first sentence says which."`
	NextCursor string            `json:"next_cursor,omitempty" jsonschema:"Cursor for the next page, when has_more."`
	Hooks      []HookMatch       `json:"hooks,omitempty" jsonschema:"Hooks of the registry whose name, summary or description contains the query (first page only, at most 10)."`
	Generation uint64            `json:"generation" jsonschema:"Generation of the docs snapshot searched."`
	Provenance *SearchProvenance `json:"provenance,omitempty" jsonschema:"What the matches were read from, when the data root is a git repository: the version once, and each doc's last commit once."`

	// Docs are the docs of the page's matches, in order, as resource_link
	// items that follow the text (see linker): a client can offer them to
	// open or subscribe to, and one that ignores links loses nothing.
	Docs []mcp.ResourceLink `json:"-"`
}

func (o SearchDocsOutput) links() []mcp.Content {
	out := make([]mcp.Content, 0, len(o.Docs))
	for _, l := range o.Docs {
		if slices.ContainsFunc(o.Matches, func(m SearchMatch) bool { return m.URI == l.URI }) {
			out = append(out, l) // else its match did not fit the page
		}
	}
	return out
}

// SearchProvenance is the provenance of a page of matches: the version
// once, and each doc of the page once, not per match.
type SearchProvenance struct {
	Version string          `json:"version" jsonschema:"What the docs were read from: working tree, or a release tag."`
	Docs    []DocProvenance `json:"docs" jsonschema:"The last commit of each doc of the page, in page order."`
}

// SearchMatch is one matching line.
type SearchMatch struct {
	Path    string `json:"path" jsonschema:"Doc path relative to docs/, for mod_read_doc."`
	Line    int    `json:"line" jsonschema:"1-based line number."`
	Column  int    `json:"column" jsonschema:"1-based column of the match, in characters (Unicode code points)."`
	Heading string `json:"heading" jsonschema:"Trail of headings above the line, outermost first, joined with ' > '; empty above the first heading."`
	Anchor  string `json:"anchor,omitempty" jsonschema:"Anchor of the section the line is in (the innermost heading above it): pass it to mod_read_doc as section to read just that section. Absent above the first heading."`
	Snippet string `json:"snippet" jsonschema:"The line, trimmed around the match; an ellipsis marks a cut."`
	URI     string `json:"uri" jsonschema:"Resource URI of the doc."`
	URL     string `json:"url,omitempty" jsonschema:"The section's page in the wiki, when this server knows where the wiki is served."`
}

func (s *Server) searchDocsTool() server.ServerTool {
	t := newTool(s, "mod_search_docs", "Search the docs",
		"Find lines in the docs (docs/**/*.md) containing a substring. Case-insensitive by default, "+
			"results in path then line order (not ranked), each with its heading trail, its section's anchor and a snippet. "+
			"Read a hit's section with mod_read_doc (path and section: the anchor). Hooks of the registry whose name or text matches are listed too.",
		s.searchDocs)
	t.Handler = s.afterIndex(t.Handler)
	return t
}

// afterIndex makes a search wait for the index of the docs served before
// it takes its turn in the work queue, so that the wait holds no turn that
// a read could use, for at most indexWait.
func (s *Server) afterIndex(next server.ToolHandlerFunc) server.ToolHandlerFunc {
	return func(ctx context.Context, req mcp.CallToolRequest) (*mcp.CallToolResult, error) {
		snap := s.corpus.Snapshot() // there: tool calls wait for the docs (afterDocs)
		wait, cancel := context.WithTimeout(ctx, indexWait)
		defer cancel()
		if err := search.Await(wait, snap); err != nil {
			if ctx.Err() != nil {
				return nil, ctx.Err()
			}
			return mcp.NewToolResultError(fmt.Sprintf("mod_search_docs: the search index of the %d docs is still being built after a wait of %s; try again in a moment",
				len(snap.Docs()), indexWait)), nil
		}
		return next(ctx, req)
	}
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
	}
	limit, err := limitOf(in.Limit, defaultSearchLimit, maxSearchLimit)
	if err != nil {
		return out, "", err
	}
	prefix, err := docs.CleanPrefix(in.PathPrefix)
	if err != nil {
		return out, "", fmt.Errorf("path_prefix: %w", err)
	}
	terms, err := queryTerms(in.Query, in.Match)
	if err != nil {
		return out, "", err
	}
	// The index narrows the search by the longest term (the rarest, as a
	// rule); the others are checked on each line it yields.
	longest := slices.IndexFunc(terms, func(t string) bool {
		return !slices.ContainsFunc(terms, func(u string) bool { return len(u) > len(t) })
	})
	q := search.Query{Text: terms[longest], CaseSensitive: in.CaseSensitive, PathPrefix: prefix}
	matchers := make([]*search.Matcher, len(terms))
	for i, t := range terms {
		matchers[i] = search.NewMatcher(t, in.CaseSensitive)
	}
	others := slices.Delete(slices.Clone(matchers), longest, longest+1)
	parts := []string{in.Query, strconv.FormatBool(q.CaseSensitive), q.PathPrefix}
	if in.Match == matchAllTerms {
		parts = append(parts, matchAllTerms) // a substring cursor stays what it was
	}
	if in.Version != "" {
		parts = append(parts, "version:"+in.Version) // a cursor of one version is no cursor of another
	}
	fp := fingerprint(parts...)
	var after search.Position
	if in.Cursor != "" {
		c, err := decodeCursor(in.Cursor, "search", fp)
		if err != nil {
			return out, "", err
		}
		after = search.Position{Path: c.Path, Line: c.Line}
	}

	snap, rel, err := s.docsOf(ctx, in.Version)
	if err != nil {
		return out, "", err
	}
	if rel != nil {
		// A release's index was started as it loaded; the working tree's
		// was waited for before the call's turn (afterIndex).
		wait, cancel := context.WithTimeout(ctx, indexWait)
		err := search.Await(wait, snap)
		cancel()
		if err != nil {
			return out, "", fmt.Errorf("%w: the search index of %s is still being built; try again in a moment", errUnavailable, rel.Name)
		}
	}
	out.Generation = snap.Generation()
	// A page holds at most limit matches: room for them from the start
	// spares the garbage of growing the slice, most of a page's.
	out.Matches = make([]SearchMatch, 0, limit)
	budget := s.textBudget()
	var (
		linked *docs.Doc // the doc of the last link in out.Docs
		uri    string    // its URI
		wiki   = s.wikiURL(ctx)
		hist   *gitdocs.History
	)
	switch {
	case rel != nil:
		out.Provenance = &SearchProvenance{Version: rel.Name}
	default:
		if hist = s.history(); hist != nil {
			out.Provenance = &SearchProvenance{Version: WorkingTree}
		}
	}
	// One call reads at most search.CallBytes of text: a query the index
	// cannot narrow down (every doc holds its three-letter pieces, no line
	// holds it) goes on from its cursor, a few milliseconds a call.
	read := search.Budget{Bytes: search.CallBytes}
	for m := range search.Find(ctx, snap, q, after, &read) {
		off, length := m.Offset, m.Length
		if len(others) > 0 {
			o, l, ok := indexAll(m.Text, others)
			if !ok {
				continue
			}
			if o < off {
				off, length = o, l
			}
		}
		if len(out.Matches) == limit {
			out.HasMore = true
			break
		}
		if m.Doc != linked {
			linked, uri = m.Doc, docURI(m.Doc.Path)
			if rel != nil {
				uri = versionedDocURI(rel.Name, m.Doc.Path)
			}
			link := mcp.NewResourceLink(uri, m.Doc.Path, "", "text/markdown")
			link.Title = m.Title()
			out.Docs = append(out.Docs, link)
			if out.Provenance != nil {
				var p *Provenance
				if rel != nil {
					p = s.releaseProvenance(rel, m.Doc)
				} else {
					p = s.provenance(hist, m.Doc, m.Doc.Text())
				}
				out.Provenance.Docs = append(out.Provenance.Docs, DocProvenance{Path: m.Doc.Path, Commit: p.Commit, Date: p.Date, Uncommitted: p.Uncommitted})
				budget -= len(m.Doc.Path) + len(p.Commit) + len(p.Date) + 40
			}
		}
		trail, anchor := m.Section()
		sm := SearchMatch{
			Path:    m.Doc.Path,
			Line:    m.Line,
			Column:  utf8.RuneCountInString(m.Text[:off]) + 1,
			Heading: strings.Join(trail, " > "),
			Anchor:  anchor,
			Snippet: snippet(m.Text, off, length),
			URI:     uri,
		}
		if wiki != "" {
			sm.URL = wiki + wikiPage(m.Doc.Path)
			if sm.Anchor != "" {
				sm.URL += "#" + sm.Anchor
			}
		}
		cost := len(sm.Path) + len(sm.Heading) + len(sm.Anchor) + len(sm.Snippet) + len(sm.URI) + len(sm.URL) + 64
		if budget -= cost; budget < 0 && len(out.Matches) > 0 {
			out.HasMore = true // the size cap cuts the page short
			break
		}
		out.Matches = append(out.Matches, sm)
	}
	if err := ctx.Err(); err != nil {
		return out, "", err
	}
	if in.Cursor == "" && rel == nil {
		out.Hooks = s.matchHooks(matchers)
	}
	if out.Provenance != nil {
		// A doc whose only match did not fit the page is not told either.
		out.Provenance.Docs = slices.DeleteFunc(out.Provenance.Docs, func(p DocProvenance) bool {
			return !slices.ContainsFunc(out.Matches, func(m SearchMatch) bool { return m.Path == p.Path })
		})
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
	return out, out.text(in.Query, terms, stoppedAt), nil
}

// The values of mod_search_docs' match argument.
const (
	matchSubstring = "substring"
	matchAllTerms  = "all_terms"
)

// queryTerms is what a line must contain for a query in a match mode: the
// query itself, or with all_terms each of its space-separated terms (once).
func queryTerms(query, match string) ([]string, error) {
	switch match {
	case "", matchSubstring:
		return []string{query}, nil
	case matchAllTerms:
		var terms []string
		for _, t := range strings.Fields(query) {
			if !slices.Contains(terms, t) {
				terms = append(terms, t)
			}
		}
		if len(terms) == 0 {
			return nil, inputErrorf("query has no terms: with match all_terms, give words separated by spaces")
		}
		return terms, nil
	}
	return nil, inputErrorf("match %q is not a mode; use %s (the default) or %s", match, matchSubstring, matchAllTerms)
}

// indexAll finds every matcher's text in line: the earliest match of them
// all, and whether each was found.
func indexAll(line string, ms []*search.Matcher) (off, length int, ok bool) {
	off = -1
	for _, m := range ms {
		o, l := m.Index(line)
		if o < 0 {
			return -1, 0, false
		}
		if off < 0 || o < off {
			off, length = o, l
		}
	}
	return off, length, true
}

// text is the readable copy of the result. Its first sentence says how
// many matches the page holds and, when has_more is set, why: the page is
// full, or the search stopped before stoppedAt for its text budget.
func (o SearchDocsOutput) text(query string, terms []string, stoppedAt string) string {
	var b strings.Builder
	what := strconv.Quote(query)
	if len(terms) > 1 {
		what = "all of " + quoteAll(terms)
	}
	switch {
	case len(o.Matches) == 0 && stoppedAt == "":
		fmt.Fprintf(&b, "No line in the docs contains %s.", what)
	case stoppedAt != "":
		fmt.Fprintf(&b, "%s for %s before %s, where the search stopped: the docs that may hold this query are more text than one call reads (%d MiB); call again with cursor=%q to search the rest.",
			plural(len(o.Matches), "match", "matches"), what, stoppedAt, search.CallBytes>>20, o.NextCursor)
	case o.HasMore:
		fmt.Fprintf(&b, "%s for %s; the page is full and more remain: call again with cursor=%q.", plural(len(o.Matches), "match", "matches"), what, o.NextCursor)
	default:
		fmt.Fprintf(&b, "%s for %s.", plural(len(o.Matches), "match", "matches"), what)
	}
	b.WriteByte('\n')
	if len(o.Hooks) > 0 {
		b.WriteByte('\n')
	}
	for _, h := range o.Hooks {
		fmt.Fprintf(&b, "hook %s (%s): %s\n", h.Name, h.Kind, h.Summary)
	}
	if len(o.Hooks) > 0 {
		b.WriteString("[details: mod_get_hook]\n")
	}
	if len(o.Matches) == 0 {
		return strings.TrimSuffix(b.String(), "\n")
	}
	b.WriteByte('\n')
	size := 64
	for _, m := range o.Matches {
		size += len(m.Path) + len(m.Heading) + len(m.Anchor) + len(m.Snippet) + 24 // at most, with a doc line per match
	}
	b.Grow(size)
	// The matches grouped as ripgrep --heading does: a line naming the doc
	// and the section (its trail and anchor) each time either changes, then
	// each match's line:column and snippet. A page's matches cluster in a
	// few docs and sections, so the path and trail are not repeated per
	// match: the text of a page of 50 common-word matches is about 30%
	// smaller.
	var num []byte
	for i, m := range o.Matches {
		if i == 0 || m.Path != o.Matches[i-1].Path || m.Anchor != o.Matches[i-1].Anchor || m.Heading != o.Matches[i-1].Heading {
			b.WriteString(m.Path)
			if m.Heading != "" {
				b.WriteString("  (")
				b.WriteString(m.Heading)
				b.WriteString(")  #")
				b.WriteString(m.Anchor)
			}
			b.WriteByte('\n')
		}
		num = strconv.AppendInt(append(num[:0], ' ', ' '), int64(m.Line), 10)
		num = strconv.AppendInt(append(num, ':'), int64(m.Column), 10)
		b.Write(num)
		b.WriteString("  ")
		b.WriteString(m.Snippet)
		b.WriteByte('\n')
	}
	if p := o.Provenance; p != nil && len(p.Docs) > 0 {
		// One line for the page: the version once, each doc's commit once.
		fmt.Fprintf(&b, "\n[From the %s; last changed:", p.Version)
		for i, d := range p.Docs {
			if i > 0 {
				b.WriteByte(',')
			}
			if d.Uncommitted {
				fmt.Fprintf(&b, " %s (not committed)", d.Path)
			} else {
				fmt.Fprintf(&b, " %s %s %s", d.Path, d.Commit, dateOf(d.Date))
			}
		}
		b.WriteString("]\n")
	}
	return strings.TrimSuffix(b.String(), "\n")
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

// quoteAll quotes each term, joined with commas: "a", "b".
func quoteAll(terms []string) string {
	q := make([]string, len(terms))
	for i, t := range terms {
		q[i] = strconv.Quote(t)
	}
	return strings.Join(q, ", ")
}
