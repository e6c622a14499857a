package mcpserver

import (
	"context"
	"fmt"
	"math"
	"strconv"
	"strings"

	"github.com/mark3labs/mcp-go/mcp"
	"github.com/mark3labs/mcp-go/server"

	"github.com/docs-mcp/docs-mcp/mcp-server/gitdocs"
	"github.com/docs-mcp/docs-mcp/mcp-server/internal/docs"
	"github.com/docs-mcp/docs-mcp/mcp-server/internal/rank"
)

// mod_ask_docs is the ranked path beside mod_search_docs: a question in a
// user's words in, the few sections most likely to answer it out, best
// first. It is a tool of its own, not a mode of the search, because the
// two make different promises that a client's model reads from the tool
// list: the search finds every line that contains a text, in path order,
// and its pages and cursors go on until the last match; a ranked answer
// is a short list, ordered by a score, with no "every". One result shape
// for each keeps each schema true to what it returns.
const (
	defaultAskLimit = 3
	maxAskLimit     = 20
	// rankedSnippetContext is the bytes of a ranked section's best line
	// kept on each side of its first matching word: enough of the line to
	// judge the section by (a search's snippet shows where a text is, a
	// ranked one what the section says).
	rankedSnippetContext = 80
)

// AskDocsInput is the input of mod_ask_docs.
type AskDocsInput struct {
	Question   string `json:"question" jsonschema:"The question in your own words (how does my mod react when a player joins?), or the words, identifiers and codes to look for. Question words and common words carry no weight; identifiers (player.joined, mod_read_doc, C2065) carry the most. At most 1024 bytes."`
	PathPrefix string `json:"path_prefix,omitempty" jsonschema:"Only rank docs whose path (relative to docs/) starts with this, e.g. server/."`
	Limit      int    `json:"limit,omitempty" jsonschema:"How many sections to return, 1 to 20. Default 3."`
	Version    string `json:"version,omitempty" jsonschema:"Ask a release instead of the working tree: a tag as mod_list_versions lists it, or latest (the newest). Default: the working tree."`
}

func (in *AskDocsInput) versions() []string { return []string{in.Version} }

// AskDocsOutput is the result of mod_ask_docs.
type AskDocsOutput struct {
	Words      []string        `json:"words" jsonschema:"The question's words that were ranked, folded to lower case and plain words reduced to their stem (joins: join); the rest carried no weight."`
	Sections   []RankedSection `json:"sections" jsonschema:"The sections most likely to answer the question, best first."`
	Hooks      []HookMatch     `json:"hooks,omitempty" jsonschema:"Hooks of the registry (of the version asked) named by an identifier of the question, at most 5."`
	Generation uint64          `json:"generation" jsonschema:"Generation of the docs snapshot ranked."`
	Version    string          `json:"version,omitempty" jsonschema:"What the docs were read from: working tree, or a release tag. Absent when the data root is not a git repository."`

	Links []mcp.Content `json:"-"` // each section's doc, as resource_link items after the text
}

func (o AskDocsOutput) links() []mcp.Content { return o.Links }

// RankedSection is one section of a ranked answer.
type RankedSection struct {
	Path        string   `json:"path" jsonschema:"Doc path relative to docs/, for mod_read_doc."`
	Title       string   `json:"title" jsonschema:"The doc's title."`
	Heading     string   `json:"heading,omitempty" jsonschema:"Trail of headings down to the section's, outermost first, joined with ' > '; absent for the text above the doc's first heading."`
	Anchor      string   `json:"anchor,omitempty" jsonschema:"The section's anchor: pass it to mod_read_doc as section (with list_subsections true to read this section's own text, as sized in bytes). Absent for the text above the doc's first heading (read it with start_line and end_line)."`
	StartLine   int      `json:"start_line" jsonschema:"The section's first line (its heading's)."`
	EndLine     int      `json:"end_line" jsonschema:"The section's last line before the next heading of any level."`
	Bytes       int      `json:"bytes" jsonschema:"Size of the section's own text (start_line to end_line), what reading it with list_subsections costs."`
	Score       float64  `json:"score" jsonschema:"The section's score (BM25F, see docs/server/ranking.md): only its order among the sections of one answer means anything."`
	Matched     []string `json:"matched" jsonschema:"The question's words (as in words) that the section, its headings or its doc's title, front matter or file name hold."`
	SnippetLine int      `json:"snippet_line,omitempty" jsonschema:"The line of the section that holds the most of the question."`
	Snippet     string   `json:"snippet,omitempty" jsonschema:"That line, trimmed to about 160 characters around its first matching word."`
	URL         string   `json:"url,omitempty" jsonschema:"The section's page in the wiki, when this server knows where the wiki is served."`
	Commit      string   `json:"commit,omitempty" jsonschema:"Short id of the last commit that changed the doc."`
	Date        string   `json:"date,omitempty" jsonschema:"That commit's date (RFC 3339)."`
	Uncommitted bool     `json:"uncommitted,omitempty" jsonschema:"True when the doc on disk differs from its last commit (or was never committed)."`
}

func (s *Server) askDocsTool() server.ServerTool {
	t := newTool(s, "mod_ask_docs", "Ask the docs",
		"Ask a question in your own words and get the few sections of the docs most likely to answer it, best first (ranked: "+
			"words in headings, titles and front matter weigh more than body text, a section with all of the question's words beats one with some, "+
			"exact identifiers and codes weigh most). Each comes with its path, heading trail, anchor, size and a snippet; "+
			"read the first with mod_read_doc (path, section: the anchor). To find every line that contains a text, use mod_search_docs.",
		s.askDocs)
	t.Handler = s.afterBuilt("mod_ask_docs", "ranking", func(ctx context.Context, snap *docs.Snapshot) error {
		_, err := rank.Await(ctx, snap)
		return err
	}, t.Handler)
	return t
}

func (s *Server) askDocs(ctx context.Context, in AskDocsInput) (AskDocsOutput, string, error) {
	var out AskDocsOutput
	if err := checkText("question", in.Question, strings.TrimSpace(in.Question), "ask in your own words, or give the words to look for"); err != nil {
		return out, "", err
	}
	if in.Limit < 0 || in.Limit > maxAskLimit {
		return out, "", inputErrorf("limit %d is out of range; give 1 to %d (default %d)", in.Limit, maxAskLimit, defaultAskLimit)
	}
	limit := in.Limit
	if limit == 0 {
		limit = defaultAskLimit
	}
	prefix, err := docs.CleanPrefix(in.PathPrefix)
	if err != nil {
		return out, "", fmt.Errorf("path_prefix: %w", err)
	}
	q := rank.Parse(in.Question)
	out.Words, out.Sections = append([]string{}, q.Words()...), []RankedSection{}
	if q.Empty() {
		return out, "", inputErrorf("no word of %q carries weight (question words and common words such as how, what, does, the are left out); give the words the answer would hold", in.Question)
	}

	snap, rel, err := s.docsOf(ctx, in.Version)
	if err != nil {
		return out, "", err
	}
	wait, cancel := context.WithTimeout(ctx, indexWait)
	ix, err := rank.Await(wait, snap) // waited for before the call's turn (afterBuilt), unless the tag moved since
	cancel()
	if err != nil {
		if ctx.Err() != nil {
			return out, "", ctx.Err()
		}
		what := "the docs"
		if rel != nil {
			what = rel.Name
		}
		return out, "", fmt.Errorf("%w: the ranking of %s is still being built; try again in a moment", errUnavailable, what)
	}
	out.Generation = snap.Generation()
	var hist *gitdocs.History
	switch {
	case rel != nil:
		out.Version, hist = rel.Name, rel.History()
	default:
		if hist = s.history(); hist != nil {
			out.Version = WorkingTree
		}
	}
	wiki := s.wikiURL(ctx)
	budget := s.textBudget()
	linked := map[*docs.Doc]bool{}
	for _, h := range ix.Top(q, prefix, limit) {
		sec, err := s.rankedSection(ctx, h, wiki)
		if err != nil {
			return out, "", err
		}
		var p *Provenance
		switch {
		case rel != nil:
			p = s.releaseProvenance(rel, h.Doc)
		case hist != nil:
			p = s.provenance(hist, h.Doc)
		}
		if p != nil {
			sec.Commit, sec.Date, sec.Uncommitted = p.Commit, p.Date, p.Uncommitted
		}
		// The size cap bounds the answer; it holds one section at least.
		cost := len(sec.Path) + len(sec.Title) + len(sec.Heading) + len(sec.Anchor) + len(sec.Snippet) + len(sec.URL) + 120
		if budget -= cost; budget < 0 && len(out.Sections) > 0 {
			break
		}
		out.Sections = append(out.Sections, sec)
		if !linked[h.Doc] {
			linked[h.Doc] = true
			uri := docURI(h.Doc.Path)
			if rel != nil {
				uri = versionedDocURI(rel.Name, h.Doc.Path)
			}
			link := mcp.NewResourceLink(uri, h.Doc.Path, "", "text/markdown")
			link.Title = sec.Title
			out.Links = append(out.Links, link)
		}
	}
	out.Hooks = s.hooksNamed(ctx, in.Version, q)
	return out, out.text(in.Question), nil
}

// rankedSection describes a ranked hit: its heading trail and anchor from
// the doc's outline, its own text's size and its snippet.
func (s *Server) rankedSection(ctx context.Context, h rank.Hit, wiki string) (RankedSection, error) {
	text := h.Doc.Text()
	o, err := h.Doc.Outline(ctx, text)
	if err != nil {
		return RankedSection{}, err
	}
	sec := RankedSection{
		Path: h.Doc.Path, Title: o.Title,
		StartLine: h.StartLine, EndLine: h.EndLine,
		Score:   math.Round(h.Score*1000) / 1000,
		Matched: h.Matched,
	}
	if h.Heading >= 0 {
		trail, anchor := o.Section(o.Sections()[h.Heading].Line)
		sec.Heading, sec.Anchor = strings.Join(trail, " > "), anchor
	}
	sec.Bytes = len(linesOf(text, h.StartLine, h.EndLine))
	if h.SnippetLine > 0 {
		sec.SnippetLine = h.SnippetLine
		off := firstWord(h.Snippet, h.Matched)
		sec.Snippet = snippetWithin(h.Snippet, off, 0, rankedSnippetContext)
	}
	if wiki != "" {
		sec.URL = wiki + wikiPage(h.Doc.Path)
		if sec.Anchor != "" {
			sec.URL += "#" + sec.Anchor
		}
	}
	return sec, nil
}

// linesOf returns lines from to to (1-based, inclusive) of text, with
// their line breaks.
func linesOf(text string, from, to int) string {
	start, line := 0, 1
	for line < from && start < len(text) {
		i := strings.IndexByte(text[start:], '\n')
		if i < 0 {
			return ""
		}
		start += i + 1
		line++
	}
	end := start
	for line <= to && end < len(text) {
		i := strings.IndexByte(text[end:], '\n')
		if i < 0 {
			end = len(text)
			break
		}
		end += i + 1
		line++
	}
	return text[start:end]
}

// firstWord returns the offset in line of the first of words (folded,
// stemmed: a prefix of the line's word) it holds, 0 when none does or when
// folding changed the line's length (offsets would not map back).
func firstWord(line string, words []string) int {
	lower := strings.ToLower(line)
	if len(lower) != len(line) {
		return 0
	}
	best := len(line)
	for _, w := range words {
		if i := strings.Index(lower, w); i >= 0 && i < best {
			best = i
		}
	}
	if best == len(line) {
		return 0
	}
	return best
}

// hooksNamed lists the hooks whose name is one of the question's
// identifiers, or holds it.
func (s *Server) hooksNamed(ctx context.Context, version string, q rank.Question) []HookMatch {
	idents := q.Identifiers()
	if len(idents) == 0 {
		return nil
	}
	reg, err := s.hooksIn(ctx, version)
	if reg == nil || err != nil {
		return nil
	}
	var out []HookMatch
	for _, h := range reg.Hooks {
		name := strings.ToLower(h.Name)
		for _, id := range idents {
			if strings.Contains(name, id) {
				out = append(out, HookMatch{Name: h.Name, Kind: string(h.Kind), Summary: h.Summary, Field: "name"})
				break
			}
		}
		if len(out) == maxHookMatches {
			break
		}
	}
	return out
}

// text is the readable copy of the answer.
func (o AskDocsOutput) text(question string) string {
	var b strings.Builder
	switch n := len(o.Sections); n {
	case 0:
		fmt.Fprintf(&b, "No section holds any of the words of %s (%s).", strconv.Quote(question), strings.Join(o.Words, ", "))
	default:
		fmt.Fprintf(&b, "The %s that best answer %s, best first (ranked by %s):\n", plural(n, "section", "sections"), strconv.Quote(question), strings.Join(o.Words, ", "))
	}
	for _, h := range o.Hooks {
		fmt.Fprintf(&b, "\nhook %s (%s): %s", h.Name, h.Kind, h.Summary)
	}
	if len(o.Hooks) > 0 {
		b.WriteString("\n[details: mod_get_hook]")
	}
	for i, sec := range o.Sections {
		fmt.Fprintf(&b, "\n%d. %s", i+1, docs.ShowPath(sec.Path))
		if sec.Anchor != "" {
			b.WriteString("#" + sec.Anchor)
		}
		b.WriteString(" — ")
		if sec.Heading != "" {
			b.WriteString(sec.Heading)
		} else {
			b.WriteString(sec.Title)
		}
		fmt.Fprintf(&b, " (%s, lines %d–%d", sizeText(sec.Bytes), sec.StartLine, sec.EndLine)
		switch {
		case sec.Uncommitted:
			b.WriteString(", not committed")
		case sec.Commit != "":
			fmt.Fprintf(&b, ", %s %s", sec.Commit, dateOf(sec.Date))
		}
		b.WriteString(")\n")
		if sec.Snippet != "" {
			fmt.Fprintf(&b, "   %d: %s\n", sec.SnippetLine, sec.Snippet)
		}
	}
	if len(o.Sections) > 0 {
		b.WriteString("\nRead one: mod_read_doc with its path and section (the anchor); list_subsections: true reads its own text only, as sized.")
	}
	if o.Version != "" {
		fmt.Fprintf(&b, "\n[From %s.]", from(o.Version))
	}
	return strings.TrimSpace(b.String())
}
