// Package search finds substring matches in a docs snapshot.
//
// A query matches a line when the line contains the query text, either
// exactly (case-sensitive) or under Unicode simple case folding, the
// relation strings.EqualFold uses: "straße" matches "STRAßE", and the
// Kelvin sign K matches "k". Folding is done rune by rune on the original
// text, so a match's offsets always point into the line as written, never
// into a lower-cased copy whose byte lengths may differ.
//
// Results come in path order, then line order, one per matching line (the
// first occurrence in it). Nothing is ranked.
//
// # Scan and index
//
// Matches is the definition: it reads every line in range. Index answers
// the same question from an n-gram index, and Find answers from the index
// the corpus attached to a snapshot (waiting for its build), or scans a
// snapshot that has none. The index is tested against the scan, query by
// query, on generated corpora.
//
// The index maps every gram of one, two and three consecutive fold classes
// (see foldClass) found in a line to the docs holding it. A query of one
// rune looks up its class, two runes their pair, longer queries all their
// triples; only the docs in every list are scanned, in path order, so the
// first limit matches end the work. Why this design rather than another:
//
//   - Folding is per rune, so grams of fold classes make case-insensitive
//     search exact for every Unicode orbit (K, k and the Kelvin sign share a
//     class) and serve case-sensitive search as a superset that the scan of
//     the candidate docs narrows down. One index serves both modes.
//   - Grams of one and two runes make one- and two-character queries exact
//     candidates too, instead of a scan of everything.
//   - Posting lists are per doc, not per line: a line-level index would be
//     larger, and one doc is quick to verify. Docs smaller than UnitBytes
//     (4 KiB) are indexed in runs of about that size (units), a posting
//     per run: on 40,000 pages of about 1 KB, whose grams are mostly
//     shared, that more than halved the index (0.39 to 0.17 bytes per
//     corpus byte) for the scan of about four docs per candidate. Lists are
//     delta-encoded uvarints, or a bitmap over all units when that is
//     smaller, so a gram found in most docs costs docs/8 bytes and testing
//     it is a word lookup. Grams are hashed into a fixed table of buckets
//     (collisions only add candidates, never lose one), which keeps the
//     index a few flat arrays with no per-gram allocation.
//   - A suffix array would answer any substring without verification but
//     needs 4 to 8 bytes per corpus byte (beyond the 3× memory budget that
//     includes the corpus itself), is slow to build, and does not fold case
//     without a folded copy of the corpus whose offsets differ from the
//     text as written.
//
// The index is cut into segments, runs of about 2 MiB of docs in path
// order, each with its own bucket table and posting lists, rather than
// one table over the whole corpus:
//
//   - A live reload changes a few docs. A new snapshot's index (Reindex)
//     takes over every segment whose docs are unchanged and re-indexes only
//     the others, so an edit costs a segment's build (tens of
//     milliseconds), not the corpus's (about a second at 40k files).
//     Segments keep their path ranges from one index to the next, so the
//     docs around an edit fall in the same segment again.
//   - Each worker builds whole segments with scratch memory sized to one
//     segment and reused for the next, instead of gathering every
//     (doc, gram) pair of the corpus before writing the lists, which held
//     about twice the corpus size in scratch memory at the peak.
//   - A query pays a few bucket lookups per segment: for an absent word,
//     about 60 segments at 117 MB, microseconds in all; for a common one,
//     the first segments already give limit matches.
//
// The releases of a repository (package versions) are indexed otherwise,
// in layers (Stack; layers.go says why): a release that changes 1% of the
// docs spread over the tree changes a doc in nearly every segment's path
// range, so the path ranges that serve an edit of the working tree would
// index every release whole. A stacked index takes over the older
// release's segments as they are, with the docs changed since marked dead,
// and indexes only the docs new to it, in a layer of its own; a search
// merges the layers' candidates in path order. The alternatives weighed:
// an index per doc (a posting per doc and gram in a table per doc costs
// far more than a segment's shared lists, and a search would look up every
// doc's table), and segments cut by blob ids rather than paths (a segment
// of docs that did not change across releases is the same, but a search
// would still merge them all to keep path order, the layered one merges a
// few layers). The working tree keeps the path ranges: its index is one
// layer, searched without a merge, and an edit re-indexes its segment.
//
// Queries that cannot be narrowed (the empty query, invalid UTF-8, which
// may match inside a rune) go to the scan.
//
// A query of several texts (Query.Also: mod_search_docs' all_terms) looks
// up the grams of every text at once: a line that matches holds them all,
// so its doc does too, and the candidates are the units in every one of
// their lists. The shortest list drives, whatever text it is of, so the
// rarest text narrows the docs read and each other one narrows them more.
// Narrowed by one text (the longest) and checked for the others line by
// line, a query whose longest word is common and another rare read 2 MiB a
// call of docs holding the common word, and on cpp-docs with 23 MB of
// generated pages (68 MB) 3 of 20 such searches answered an empty first
// page, one of them 11 calls before its first match; narrowed by all, none.
//
// The corpus builds a snapshot's index before it serves the snapshot, and
// a search waits for it (see Find): an answer from part of the index and a
// scan of the rest, within a call's budget, would stop before a rare word's
// doc and tell the client it is absent.
//
// # Saved indexes
//
// An index can be saved with its snapshot and read back (see persist.go;
// package corpus keeps both in a cache file between runs). A client over
// stdio starts a server per session, and on 40,000 files of about 1 KB
// (37 MB) reading the files is half a second and the build about a second
// more. The saved snapshot is not trusted as it is: the corpus checks every
// file against it (size, time, inode) and reads again those that moved,
// and the build that follows reuses the saved segments whose docs were not
// read again, so the cache can make a start fast, never an answer wrong.
// layout() keys a saved index to the way this build lays indexes out.
package search

import (
	"context"
	"errors"
	"iter"
	"runtime"
	"strings"
	"sync"

	"github.com/docs-mcp/docs-mcp/mcp-server/internal/docs"
)

// Query says what to look for.
type Query struct {
	Text          string
	CaseSensitive bool
	PathPrefix    string // only docs whose path starts with this
	// Also are more texts a matching line must hold besides Text, each
	// anywhere in it, in any order (mod_search_docs' all_terms). Since a
	// line that matches holds every one, so does its doc: the index reads
	// only the docs that hold the grams of them all.
	Also []string
}

// Position is a place in the corpus: a doc path and a 1-based line. The zero
// Position is before the first line of the first doc.
type Position struct {
	Path string
	Line int
}

// Match is one matching line.
type Match struct {
	Doc  *docs.Doc
	Line int    // 1-based
	Text string // the line, without its terminator
	// Offset and Length are the bytes of the line the match spans: where
	// Text is found, or for a query with Also, from the first of its texts
	// found in the line to the end of the last.
	Offset int
	Length int

	text     string    // Doc's text as this search decoded it: Text is a line of it
	outlines *outlines // the search's, shared by its matches
}

// Section tells where the match's line is in its doc: the trail of
// headings above it, outermost first, and the anchor of the section it is
// in (see docs.Outline.Section). Once the search's context has ended, it
// is empty.
func (m Match) Section() (trail []string, anchor string) {
	if o := m.outlines.of(m); o != nil {
		return o.Section(m.Line)
	}
	return []string{}, ""
}

// Title is the title of the match's doc (see docs.Title); "" once the
// search's context has ended.
func (m Match) Title() string {
	if o := m.outlines.of(m); o != nil {
		return o.Title
	}
	return ""
}

// outlines keeps the outline of the last doc of a search that was asked
// for: a doc's outline is read from its text once for all its matches,
// which a search yields one after the other, and only when asked for (a
// caller that drops a doc's matches never asks). A doc with many headings
// keeps its outline itself (see docs.Doc.Outline).
type outlines struct {
	ctx context.Context // the search's
	mu  sync.Mutex
	doc *docs.Doc
	out *docs.Outline
}

func (o *outlines) of(m Match) *docs.Outline {
	o.mu.Lock()
	defer o.mu.Unlock()
	if o.doc != m.Doc {
		out, err := m.Doc.Outline(o.ctx, m.text)
		if err != nil {
			return nil
		}
		o.doc, o.out = m.Doc, out
	}
	return o.out
}

// Matches yields the matches of q in snap that come after the position
// after, in path then line order, by reading every line in range. It is
// the definition the Index is tested against; Find uses the index.
func Matches(snap *docs.Snapshot, q Query, after Position) iter.Seq[Match] {
	return matches(snap, q, after, nil)
}

func matches(snap *docs.Snapshot, q Query, after Position, b *Budget) iter.Seq[Match] {
	m := newLineMatcher(q)
	return func(yield func(Match) bool) {
		all := snap.Docs()
		start := snap.From(max(after.Path, q.PathPrefix))
		r := reader{budget: b}
		for _, d := range all[start:] {
			if !strings.HasPrefix(d.Path, q.PathPrefix) {
				return // sorted: no later path has the prefix either
			}
			first := 0
			if d.Path == after.Path {
				first = after.Line // lines are 1-based: index after.Line is the next line
			}
			if !scanDoc(d, first, m, &r, yield) {
				return
			}
		}
	}
}

// Budget bounds what one search (Find) reads, so that no query costs much:
// the search stops before a doc once Bytes of text have been read, or once
// its context ends, and says where to go on from. A doc is read whole, so
// a search reads at most Bytes plus one doc. A search within a Budget
// also gives its core to other goroutines every yieldBytes of text.
type Budget struct {
	Ctx   context.Context // nil: no deadline
	Bytes int64           // text the search may read; 0: no bound

	read    int64
	yielded int64    // read when the search last gave up its core
	Stopped bool     // the search stopped before the end
	Resume  Position // when Stopped: search after it to go on
	Err     error    // when Stopped: ErrBudgetSpent or the context's error
}

// CallBytes is the text one search call of the tools reads at most: 2 MiB,
// about 4 ms of CPU on this machine's cores when every doc read is
// decoded and matched in vain (BenchmarkCostliestQuery).
const CallBytes = 2 << 20

// yieldBytes is how much text a search within a Budget reads before it
// gives its core to the goroutines waiting in the run queues
// (runtime.Gosched): about 0.1 ms of work. Without it a goroutine made
// ready meanwhile (a normal client's call handed its turn by the work
// queue, a timer) waits for Go's preemption of the search, up to 10 ms.
// A goroutine woken by the network is noticed only by an idle core or the
// runtime's 10 ms poll, which a yield does not hasten: that is why the
// work queue leaves a core free by default (BenchmarkHandOver).
const yieldBytes = 64 << 10

// ErrBudgetSpent says that a search read the text its Budget allowed.
var ErrBudgetSpent = errors.New("search read the most text one call may read")

// context is the search's context: the budget's, else none.
func (b *Budget) context() context.Context {
	if b == nil || b.Ctx == nil {
		return context.Background()
	}
	return b.Ctx
}

// admit tells whether d may be read, and records why not when it may not.
func (b *Budget) admit(d *docs.Doc) bool {
	if b == nil {
		return true
	}
	err := error(nil)
	if b.Ctx != nil {
		err = b.Ctx.Err()
	}
	if err == nil && b.Bytes > 0 && b.read >= b.Bytes {
		err = ErrBudgetSpent
	}
	if err != nil {
		b.Stopped, b.Resume, b.Err = true, Position{Path: d.Path}, err
		return false
	}
	if b.read-b.yielded >= yieldBytes {
		b.yielded = b.read
		runtime.Gosched()
	}
	b.read += d.Size
	return true
}

// reader decodes the docs a search reads into one scratch buffer, within
// a budget.
type reader struct {
	buf      []byte
	budget   *Budget
	outlines *outlines // made with the search's first match
}

// lineMatcher finds a query in a line: its Text, and every one of its
// Also.
type lineMatcher struct {
	text *Matcher
	also []*Matcher
}

func newLineMatcher(q Query) lineMatcher {
	lm := lineMatcher{text: NewMatcher(q.Text, q.CaseSensitive)}
	for _, a := range q.Also {
		lm.also = append(lm.also, NewMatcher(a, q.CaseSensitive))
	}
	return lm
}

// span checks that line, in which Text was found at off (length bytes),
// holds every one of Also too, and returns the bytes the match spans.
func (lm lineMatcher) span(line string, off, length int) (int, int, bool) {
	end := off + length
	for _, m := range lm.also {
		o, l := m.Index(line)
		if o < 0 {
			return 0, 0, false
		}
		off, end = min(off, o), max(end, o+l)
	}
	return off, end - off, true
}

// mayHold reports whether text, a doc's, may hold a line that matches: it
// does not when it lacks one of Also. The index reads the docs whose unit
// holds the grams of every text, and a doc may still lack one (its grams
// are in other words, or in the other docs of its unit): such a doc is
// ruled out at once, rather than line by line.
func (lm lineMatcher) mayHold(text string) bool {
	for _, m := range lm.also {
		if m.wholeText(text) && m.indexText(text) < 0 {
			return false
		}
	}
	return true
}

// scanDoc yields the matches in d's lines from index first on. It reports
// whether to go on: false also when r's budget does not admit d. r's
// buffer is scratch to decode the doc into (see docs.Doc.TextIn): a doc
// with no match costs no allocation, and the text of one with a match is
// copied once, for the matches to keep.
func scanDoc(d *docs.Doc, first int, lm lineMatcher, r *reader, yield func(Match) bool) bool {
	if !r.budget.admit(d) {
		return false
	}
	text, shared := d.TextIn(&r.buf)
	m := lm.text
	// A doc that lacks one of Also holds no match: that is checked once,
	// at the first line that holds Text, so that a doc without Text costs
	// what it costs a query of Text alone.
	checked, lacks := lm.also == nil, false
	emit := func(start, end, n, off, length int) bool {
		if !checked {
			checked = true
			if !lm.mayHold(text) {
				lacks = true
				return false // this doc's scan ends; the search goes on
			}
		}
		if lm.also != nil {
			var ok bool
			if off, length, ok = lm.span(text[start:end], off, length); !ok {
				return true // not every term is on the line: go on
			}
		}
		if shared {
			text, shared = strings.Clone(text), false
		}
		if r.outlines == nil {
			r.outlines = &outlines{ctx: r.budget.context()}
		}
		return yield(Match{Doc: d, Line: n, Text: text[start:end], Offset: off, Length: length, text: text, outlines: r.outlines})
	}
	rest, n := text, 0
	for ; n < first && rest != ""; n++ {
		_, rest = docs.CutLine(rest)
	}
	if m.wholeText(text) {
		return scanText(text, rest, n, m, emit) || lacks
	}
	for rest != "" {
		start := len(text) - len(rest)
		var line string
		line, rest = docs.CutLine(rest)
		n++
		off, length := m.Index(line)
		if off < 0 {
			continue
		}
		if !emit(start, start+len(line), n, off, length) {
			return lacks
		}
	}
	return true
}

// scanText is scanDoc for a matcher that can search the text as a whole
// (see Matcher.wholeText): it looks for the next match in the rest of the
// text at once rather than line by line, and numbers the line it falls in.
// rest is the end of text that follows line n (0 for the first line);
// emit is given the line's bounds in text.
func scanText(text, rest string, n int, m *Matcher, emit func(start, end, n, off, length int) bool) bool {
	for rest != "" {
		i := m.indexText(rest)
		if i < 0 {
			return true
		}
		from := strings.LastIndexByte(rest[:i], '\n') + 1
		n += strings.Count(rest[:from], "\n") + 1
		start := len(text) - len(rest) + from
		var line string
		line, rest = docs.CutLine(rest[from:])
		if !emit(start, start+len(line), n, i-from, len(m.query)) {
			return false
		}
	}
	return true
}
