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
package search

import (
	"iter"
	"strings"

	"github.com/docs-mcp/docs-mcp/mcp-server/internal/docs"
)

// Query says what to look for.
type Query struct {
	Text          string
	CaseSensitive bool
	PathPrefix    string // only docs whose path starts with this
}

// Position is a place in the corpus: a doc path and a 1-based line. The zero
// Position is before the first line of the first doc.
type Position struct {
	Path string
	Line int
}

// Match is one matching line.
type Match struct {
	Doc    *docs.Doc
	Line   int // 1-based
	Offset int // byte offset of the match in the line
	Length int // byte length of the matched text in the line
}

// Matches yields the matches of q in snap that come after the position
// after, in path then line order, by reading every line in range. It is
// the definition the Index is tested against; Find uses the index.
func Matches(snap *docs.Snapshot, q Query, after Position) iter.Seq[Match] {
	m := NewMatcher(q.Text, q.CaseSensitive)
	return func(yield func(Match) bool) {
		all := snap.Docs()
		start := snap.From(max(after.Path, q.PathPrefix))
		for _, d := range all[start:] {
			if !strings.HasPrefix(d.Path, q.PathPrefix) {
				return // sorted: no later path has the prefix either
			}
			first := 0
			if d.Path == after.Path {
				first = after.Line // lines are 1-based: index after.Line is the next line
			}
			if !scanDoc(d, first, m, yield) {
				return
			}
		}
	}
}

// scanDoc yields the matches in d's lines from index first on. It reports
// whether to go on.
func scanDoc(d *docs.Doc, first int, m *Matcher, yield func(Match) bool) bool {
	for i := first; i < len(d.Lines); i++ {
		off, n := m.Index(d.Lines[i])
		if off < 0 {
			continue
		}
		if !yield(Match{Doc: d, Line: i + 1, Offset: off, Length: n}) {
			return false
		}
	}
	return true
}
