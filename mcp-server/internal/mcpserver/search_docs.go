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

	"github.com/docs-mcp/docs-mcp/mcp-server/internal/docs"
	"github.com/docs-mcp/docs-mcp/mcp-server/internal/release"
	"github.com/docs-mcp/docs-mcp/mcp-server/internal/search"
)

const (
	defaultSearchLimit = 20
	maxSearchLimit     = 200
	maxQueryBytes      = 1024
	snippetContext     = 32 // bytes of line kept on each side of a match, at most

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

func (SearchDocsInput) defaults() map[string]any { return map[string]any{"limit": defaultSearchLimit} }

func (in *SearchDocsInput) versions() []string { return []string{in.Version} }

// SearchDocsOutput is the result of mod_search_docs. Its matching lines
// are grouped by doc and section, as ripgrep --heading groups them: a
// page's matches cluster in a few docs and sections, whose path, heading
// trail and anchor are said once, not on every line (a page of 50
// common-word matches is about a third smaller than as a flat list).
type SearchDocsOutput struct {
	Docs       []DocMatches `json:"docs" jsonschema:"Docs with matching lines, in path order; within a doc its sections in line order."`
	HasMore    bool         `json:"has_more" jsonschema:"True when the page is full and more matches remain, or when this query's candidate docs hold more text than one call reads (2 MiB) and the search stopped before the end of the docs; pass next_cursor to go on. The text's first sentence says which."`
	NextCursor string       `json:"next_cursor,omitempty" jsonschema:"Cursor for the next page, when has_more."`
	Hooks      []HookMatch  `json:"hooks,omitempty" jsonschema:"Hooks of the registry (of the version searched) whose name, summary or description contains the query, those matched by name first (first page only, at most 5)."`
	HooksMore  int          `json:"hooks_more,omitempty" jsonschema:"How many more hooks match than hooks lists (mod_hook_registry has them all)."`
	Generation uint64       `json:"generation" jsonschema:"Generation of the docs snapshot searched."`
	Version    string       `json:"version,omitempty" jsonschema:"What the docs were read from: working tree, or a release tag. Absent when the data root is not a git repository."`

	// Links are the docs of the page's matches, in order, as resource_link
	// items that follow the text (see linker): a client can offer them to
	// open or subscribe to, and one that ignores links loses nothing.
	Links []mcp.Content `json:"-"`
}

func (o SearchDocsOutput) links() []mcp.Content { return o.Links }

// count is the number of matching lines on the page.
func (o SearchDocsOutput) count() int {
	n := 0
	for _, d := range o.Docs {
		for _, s := range d.Sections {
			n += len(s.Lines)
		}
	}
	return n
}

// DocMatches are a doc's matching lines, by section, and where the doc
// was last changed when the data root is a git repository.
type DocMatches struct {
	Path        string           `json:"path" jsonschema:"Doc path relative to docs/, for mod_read_doc. Its resource URI is docs:// and the path (docs-version://VERSION/ and the path for a release), each segment percent-encoded where a URI needs it, as the resource_link after the text gives it."`
	Commit      string           `json:"commit,omitempty" jsonschema:"Short id of the last commit that changed the doc."`
	Date        string           `json:"date,omitempty" jsonschema:"That commit's date (RFC 3339)."`
	Uncommitted bool             `json:"uncommitted,omitempty" jsonschema:"True when the doc on disk differs from its last commit (or was never committed)."`
	Sections    []SectionMatches `json:"sections" jsonschema:"The doc's sections with matching lines, in line order; a section appears again when its lines are not consecutive matches."`
}

// SectionMatches are the matching lines of one section of a doc.
type SectionMatches struct {
	Heading string      `json:"heading,omitempty" jsonschema:"Trail of headings down to the section's, outermost first, joined with ' > '; absent above the first heading."`
	Anchor  string      `json:"anchor,omitempty" jsonschema:"The section's anchor: pass it to mod_read_doc as section to read just that section. Absent above the first heading."`
	URL     string      `json:"url,omitempty" jsonschema:"The section's page in the wiki, when this server knows where the wiki is served."`
	Lines   []LineMatch `json:"lines" jsonschema:"Matching lines, one per line, in line order."`
}

// LineMatch is one matching line.
type LineMatch struct {
	Line    int    `json:"line" jsonschema:"1-based line number."`
	Column  int    `json:"column" jsonschema:"1-based column of the match, in characters (Unicode code points)."`
	Snippet string `json:"snippet" jsonschema:"The line, trimmed around the match; an ellipsis marks a cut."`
}

// add puts a matching line on the page, in the group of the last doc's
// section.
func (o *SearchDocsOutput) add(heading, anchor, url string, m LineMatch) {
	d := &o.Docs[len(o.Docs)-1]
	if n := len(d.Sections); n == 0 || d.Sections[n-1].Anchor != anchor || d.Sections[n-1].Heading != heading {
		d.Sections = append(d.Sections, SectionMatches{Heading: heading, Anchor: anchor, URL: url})
	}
	sec := &d.Sections[len(d.Sections)-1]
	sec.Lines = append(sec.Lines, m)
}

// last is the page's last matching line and its doc.
func (o SearchDocsOutput) last() (docPath string, line int) {
	d := o.Docs[len(o.Docs)-1]
	ls := d.Sections[len(d.Sections)-1].Lines
	return d.Path, ls[len(ls)-1].Line
}

func (s *Server) searchDocsTool() server.ServerTool {
	t := newTool(s, "mod_search_docs", "Search the docs",
		"Find lines in the docs (docs/**/*.md) containing a substring. Case-insensitive by default, "+
			"results in path then line order (not ranked), each with its heading trail, its section's anchor and a snippet. "+
			"Read a hit's section with mod_read_doc (path and section: the anchor). Hooks of the registry whose name or text matches are listed too.",
		s.searchDocs)
	t.Handler = s.afterBuilt("mod_search_docs", "search index", search.Await, t.Handler)
	return t
}

// afterBuilt makes a call of tool wait for what it needs of the docs of
// the version it reads (what, awaited with await: the search index, the
// ranking; a release, loaded first) before it takes its turn in the work
// queue, so that the wait holds no turn that a read could use, for at most
// indexWait.
func (s *Server) afterBuilt(tool, what string, await func(context.Context, *docs.Snapshot) error, next server.ToolHandlerFunc) server.ToolHandlerFunc {
	return func(ctx context.Context, req mcp.CallToolRequest) (*mcp.CallToolResult, error) {
		snap := s.corpus.Snapshot() // there: tool calls wait for the docs (afterDocs)
		of := ""
		wait, cancel := context.WithTimeout(ctx, indexWait)
		defer cancel()
		if version, _ := req.GetArguments()["version"].(string); !isWorkingTree(version) && s.corpus.ServesReleases() {
			rel, err := s.awaitRelease(wait, version)
			if err != nil {
				if ctx.Err() != nil {
					return nil, ctx.Err()
				}
				return s.toolError(ctx, tool, err), nil
			}
			snap, of = rel.Docs, " of "+rel.Name
		}
		if err := await(wait, snap); err != nil {
			if ctx.Err() != nil {
				return nil, ctx.Err()
			}
			return mcp.NewToolResultError(fmt.Sprintf("%s: the %s of the %d docs%s is still being built after a wait of %s; try again in a moment",
				tool, what, len(snap.Docs()), of, indexWait)), nil
		}
		return next(ctx, req)
	}
}

func (s *Server) searchDocs(ctx context.Context, in SearchDocsInput) (SearchDocsOutput, string, error) {
	out := SearchDocsOutput{Docs: []DocMatches{}} // [] rather than null when nothing matches
	req, err := parseSearch(in)
	if err != nil {
		return out, "", err
	}
	snap, rel, err := s.searchedDocs(ctx, in.Version)
	if err != nil {
		return out, "", err
	}
	out.Generation = snap.Generation()
	page := s.newSearchPage(ctx, &out, rel, req.limit)
	// One call reads at most search.CallBytes of text: a query the index
	// cannot narrow down (every doc holds its three-letter pieces, no line
	// holds it) goes on from its cursor, a few milliseconds a call.
	read := search.Budget{Bytes: search.CallBytes}
	for m := range search.Find(ctx, snap, req.query, req.after, &read) {
		if !page.add(m) {
			break
		}
	}
	if err := ctx.Err(); err != nil {
		return out, "", err
	}
	if in.Cursor == "" {
		out.Hooks, out.HooksMore = s.matchHooks(ctx, in.Version, req.matchers)
	}
	stoppedAt := out.setCursor(req.fp, read)
	return out, out.text(in.Query, req.terms, stoppedAt), nil
}

// searchRequest is a call of mod_search_docs checked and made into a
// query of the index.
type searchRequest struct {
	query    search.Query
	terms    []string          // what a matching line holds, each (queryTerms)
	matchers []*search.Matcher // one per term, for the hooks
	limit    int               // most matches on the page
	fp       uint64            // the query's fingerprint, in its cursors
	after    search.Position   // where the cursor given leaves off
}

// parseSearch checks a call's arguments and makes its query: a user
// mistake is an input error that says what to do.
func parseSearch(in SearchDocsInput) (searchRequest, error) {
	var req searchRequest
	if err := checkText("query", in.Query, in.Query, "give the text to find"); err != nil {
		return req, err
	}
	if strings.ContainsAny(in.Query, "\r\n") {
		return req, inputErrorf("query contains a line break; matches are found within one line, so search for one line at a time")
	}
	limit, err := limitOf(in.Limit, defaultSearchLimit, maxSearchLimit)
	if err != nil {
		return req, err
	}
	prefix, err := docs.CleanPrefix(in.PathPrefix)
	if err != nil {
		return req, fmt.Errorf("path_prefix: %w", err)
	}
	terms, err := queryTerms(in.Query, in.Match)
	if err != nil {
		return req, err
	}
	req.limit, req.terms = limit, terms
	// Every term is on a matching line, so the index reads only the docs
	// that hold them all (the rarest narrows them, the others more); a
	// line is found by the longest term, then checked for the others.
	longest := slices.IndexFunc(terms, func(t string) bool {
		return !slices.ContainsFunc(terms, func(u string) bool { return len(u) > len(t) })
	})
	req.query = search.Query{Text: terms[longest], CaseSensitive: in.CaseSensitive, PathPrefix: prefix,
		Also: slices.Delete(slices.Clone(terms), longest, longest+1)}
	req.matchers = make([]*search.Matcher, len(terms))
	for i, t := range terms {
		req.matchers[i] = search.NewMatcher(t, in.CaseSensitive)
	}
	req.fp = searchFingerprint(in, req.query)
	if in.Cursor != "" {
		c, err := decodeCursor(in.Cursor, "search", req.fp)
		if err != nil {
			return req, err
		}
		req.after = search.Position{Path: c.Path, Line: c.Line}
	}
	return req, nil
}

// searchFingerprint is what a search's cursor is tied to: the query, its
// case, prefix and match mode, and the version searched.
func searchFingerprint(in SearchDocsInput, q search.Query) uint64 {
	parts := []string{in.Query, strconv.FormatBool(q.CaseSensitive), q.PathPrefix}
	if in.Match == matchAllTerms {
		parts = append(parts, matchAllTerms) // a substring cursor stays what it was
	}
	if in.Version != "" {
		parts = append(parts, "version:"+in.Version) // a cursor of one version is no cursor of another
	}
	return fingerprint(parts...)
}

// searchedDocs is the snapshot a search reads, the working tree's or a
// release's (rel), with its index built.
func (s *Server) searchedDocs(ctx context.Context, version string) (*docs.Snapshot, *release.Release, error) {
	snap, rel, err := s.docsOf(ctx, version)
	if err != nil || rel == nil {
		return snap, rel, err
	}
	// Waited for before the call's turn (afterBuilt), unless the tag
	// moved since: a release loaded again.
	wait, cancel := context.WithTimeout(ctx, indexWait)
	defer cancel()
	if err := search.Await(wait, snap); err != nil {
		return nil, nil, fmt.Errorf("%w: the search index of %s is still being built; try again in a moment", errUnavailable, rel.Name)
	}
	return snap, rel, nil
}

// searchPage puts a search's matches on its page, within the limit and
// the size cap, each doc with its resource link, provenance and wiki page.
type searchPage struct {
	out    *SearchDocsOutput
	rel    *release.Release            // the release searched, nil for the working tree
	prov   func(*docs.Doc) *Provenance // a doc's provenance; nil outside a repository
	limit  int
	n      int       // matches on the page
	budget int       // bytes of text left
	wiki   string    // the wiki's base URL, "" without a wiki
	linked *docs.Doc // the doc of the last link in out.Links
	paged  *docs.Doc // the doc of page
	page   string    // the wiki page of paged
}

func (s *Server) newSearchPage(ctx context.Context, out *SearchDocsOutput, rel *release.Release, limit int) *searchPage {
	p := &searchPage{out: out, rel: rel, limit: limit, budget: s.textBudget(), wiki: s.wikiURL(ctx)}
	out.Version, p.prov = s.provenanceOf(rel)
	return p
}

// provenanceOf is the version searched as a result names it (empty for
// the working tree outside a repository) and how to tell a doc's
// provenance in it (nil when there is none to tell).
func (s *Server) provenanceOf(rel *release.Release) (string, func(*docs.Doc) *Provenance) {
	if rel != nil {
		return rel.Name, func(d *docs.Doc) *Provenance { return s.releaseProvenance(rel, d) }
	}
	hist := s.history()
	if hist == nil {
		return "", nil
	}
	return WorkingTree, func(d *docs.Doc) *Provenance { return s.provenance(hist, d) }
}

// add puts m on the page; false when the page is full (has_more set).
func (p *searchPage) add(m search.Match) bool {
	if p.n == p.limit {
		p.out.HasMore = true
		return false
	}
	// The column is the first term's in the line; the snippet spans
	// every term.
	off, end := m.Offset, m.Offset+m.Length
	trail, anchor := m.Section()
	lm := LineMatch{
		Line:    m.Line,
		Column:  utf8.RuneCountInString(m.Text[:off]) + 1,
		Snippet: snippet(m.Text, off, end-off),
	}
	url := p.wikiURL(m.Doc, anchor)
	heading := strings.Join(trail, " > ")
	// The size cap cuts the page short (a bound on what the match
	// adds, its doc's and section's heads included); a page holds one
	// match at least.
	cost := len(m.Doc.Path) + len(heading) + len(anchor) + len(lm.Snippet) + len(url) + 64
	if p.budget -= cost; p.budget < 0 && p.n > 0 {
		p.out.HasMore = true
		return false
	}
	if m.Doc != p.linked {
		p.startDoc(m)
	}
	p.out.add(heading, anchor, url, lm)
	p.n++
	return true
}

// wikiURL is the wiki page of a section of d, "" without a wiki.
func (p *searchPage) wikiURL(d *docs.Doc, anchor string) string {
	if p.wiki == "" {
		return ""
	}
	if d != p.paged {
		p.paged, p.page = d, p.wiki+wikiPage(d.Path)
	}
	if anchor == "" {
		return p.page
	}
	return p.page + "#" + anchor
}

// startDoc begins the group of m's doc: its resource link and its
// provenance.
func (p *searchPage) startDoc(m search.Match) {
	p.linked = m.Doc
	uri := docURI(m.Doc.Path)
	if p.rel != nil {
		uri = versionedDocURI(p.rel.Name, m.Doc.Path)
	}
	link := mcp.NewResourceLink(uri, m.Doc.Path, "", "text/markdown")
	link.Title = m.Title()
	p.out.Links = append(p.out.Links, link)
	d := DocMatches{Path: m.Doc.Path}
	if p.prov != nil {
		if pv := p.prov(m.Doc); pv != nil {
			d.Commit, d.Date, d.Uncommitted = pv.Commit, pv.Date, pv.Uncommitted
			p.budget -= len(d.Commit) + len(d.Date) + 40
		}
	}
	p.out.Docs = append(p.out.Docs, d)
}

// setCursor sets has_more and next_cursor from where the page ended, or
// where the search stopped for its text budget (read): that doc's path is
// returned then, "" otherwise.
func (o *SearchDocsOutput) setCursor(fp uint64, read search.Budget) (stoppedAt string) {
	switch {
	case read.Stopped && !o.HasMore:
		o.HasMore, stoppedAt = true, read.Resume.Path
		o.NextCursor = cursor{Kind: "search", Query: fp, Path: read.Resume.Path, Line: read.Resume.Line}.encode()
	case o.HasMore:
		p, line := o.last()
		o.NextCursor = cursor{Kind: "search", Query: fp, Path: p, Line: line}.encode()
	}
	return stoppedAt
}

// checkText checks a text argument named arg: its value, not empty (as
// given in trimmed, which is empty when what to do, hint, applies), within
// maxQueryBytes, valid UTF-8.
func checkText(arg, value, trimmed, hint string) error {
	switch {
	case trimmed == "":
		return inputErrorf("%s is empty; %s", arg, hint)
	case len(value) > maxQueryBytes:
		return inputErrorf("%s is %d bytes long; the most is %d", arg, len(value), maxQueryBytes)
	case !utf8.ValidString(value):
		return inputErrorf("%s is not valid UTF-8", arg)
	}
	return nil
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

// indexAll finds every matcher's text in line: where the earliest match
// of them all starts, where the latest ends, and whether each was found.
func indexAll(line string, ms []*search.Matcher) (off, end int, ok bool) {
	off = -1
	for _, m := range ms {
		o, l := m.Index(line)
		if o < 0 {
			return -1, 0, false
		}
		if off < 0 || o < off {
			off = o
		}
		end = max(end, o+l)
	}
	return off, end, true
}

// text is the readable copy of the result. Its first sentence says how
// many matches the page holds and, when has_more is set, why: the page is
// full, or the search stopped before stoppedAt for its text budget.
func (o SearchDocsOutput) text(query string, terms []string, stoppedAt string) string {
	var b strings.Builder
	n := o.count()
	what := strconv.Quote(query)
	if len(terms) > 1 {
		what = "all of " + quoteAll(terms)
	}
	// A page with matches names a release below them; one without names
	// it here, or it would not be named at all.
	docsOf, in := "the docs", ""
	if n == 0 && o.Version != "" && o.Version != WorkingTree {
		docsOf, in = "the docs of "+from(o.Version), " in "+from(o.Version)
	}
	switch {
	case n == 0 && stoppedAt == "":
		fmt.Fprintf(&b, "No line in %s contains %s.", docsOf, what)
	case stoppedAt != "":
		fmt.Fprintf(&b, "%s for %s%s before %s, where the search stopped: the docs that may hold this query are more text than one call reads (%d MiB); call again with cursor=%q to search the rest.",
			plural(n, "match", "matches"), what, in, stoppedAt, search.CallBytes>>20, o.NextCursor)
	case o.HasMore:
		fmt.Fprintf(&b, "%s for %s; the page is full and more remain: call again with cursor=%q.", plural(n, "match", "matches"), what, o.NextCursor)
	default:
		fmt.Fprintf(&b, "%s for %s.", plural(n, "match", "matches"), what)
	}
	b.WriteByte('\n')
	if len(o.Hooks) > 0 {
		b.WriteByte('\n')
	}
	for _, h := range o.Hooks {
		fmt.Fprintf(&b, "hook %s (%s): %s\n", h.Name, h.Kind, h.Summary)
	}
	switch {
	case o.HooksMore > 0:
		fmt.Fprintf(&b, "[details: mod_get_hook; %s: mod_hook_registry has every hook]\n", plural(o.HooksMore, "more hook matches", "more hooks match"))
	case len(o.Hooks) > 0:
		b.WriteString("[details: mod_get_hook]\n")
	}
	if n == 0 {
		return strings.TrimSuffix(b.String(), "\n")
	}
	b.WriteByte('\n')
	// As the structured result groups them: a line naming the doc, then
	// for each section a line with its trail and anchor, then each match's
	// line number and snippet (the column is in the structured result: a
	// reader sees where the word is).
	var num []byte
	for _, d := range o.Docs {
		b.WriteString(docs.ShowPath(d.Path))
		switch {
		case d.Uncommitted:
			b.WriteString("  · not committed")
		case d.Commit != "":
			b.WriteString("  · ")
			b.WriteString(d.Commit)
			b.WriteByte(' ')
			b.WriteString(dateOf(d.Date))
		}
		b.WriteByte('\n')
		for _, sec := range d.Sections {
			if sec.Heading != "" {
				b.WriteString("  ")
				b.WriteString(sec.Heading)
				b.WriteString("  #")
				b.WriteString(sec.Anchor)
				b.WriteByte('\n')
			}
			for _, m := range sec.Lines {
				num = strconv.AppendInt(append(num[:0], ' ', ' '), int64(m.Line), 10)
				b.Write(num)
				b.WriteString(": ")
				b.WriteString(m.Snippet)
				b.WriteByte('\n')
			}
		}
	}
	if o.Version != "" {
		// The version once for the page; each doc's last commit and its
		// date follow its path.
		fmt.Fprintf(&b, "\n[From %s; after each path, the commit that last changed it.]\n", from(o.Version))
	}
	return strings.TrimSuffix(b.String(), "\n")
}

// snippet returns the line around a match, cut to about snippetContext
// bytes on each side at a space (at a rune boundary when a word is
// longer), with an ellipsis where it was cut.
func snippet(line string, off, n int) string {
	return snippetWithin(line, off, n, snippetContext)
}

// snippetWithin is snippet with context bytes on each side.
func snippetWithin(line string, off, n, context int) string {
	from := max(0, off-context)
	if from > 0 {
		if sp := strings.IndexByte(line[from:off], ' '); sp >= 0 {
			from += sp + 1
		}
	}
	for from > 0 && !utf8.RuneStart(line[from]) {
		from++
	}
	to := runeStart(line, off+n+context)
	if to < len(line) {
		if sp := strings.LastIndexByte(line[off+n:to], ' '); sp >= 0 {
			to = off + n + sp
		}
	}
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
