package search

import (
	"strings"
	"unicode"
	"unicode/utf8"
)

// Matcher finds a query in lines of text.
type Matcher struct {
	query         string
	caseSensitive bool
	ascii         bool     // the query is ASCII and contains no k or s (see below)
	asciiQuery    bool     // the query is ASCII
	upper         string   // ASCII upper-case query, for the ASCII fast path
	folded        []rune   // the query's runes, each reduced to its fold class
	anchor        []string // when set, a matching line holds one of these
}

// NewMatcher prepares a query. An empty query matches at offset 0.
func NewMatcher(query string, caseSensitive bool) *Matcher {
	m := &Matcher{query: query, caseSensitive: caseSensitive}
	if caseSensitive {
		return m
	}
	m.ascii = true
	for i := 0; i < len(query); i++ {
		c := query[i]
		// k and s fold with the non-ASCII Kelvin sign and long s, so a
		// query holding them must use the rune path on non-ASCII lines.
		if c >= utf8.RuneSelf || c|0x20 == 'k' || c|0x20 == 's' {
			m.ascii = false
		}
	}
	m.asciiQuery = isASCII(query)
	m.upper = strings.ToUpper(query)
	for _, r := range query {
		m.folded = append(m.folded, foldClass(r))
		// The first non-ASCII rune anchors the query: a line holding no
		// rune that folds to it cannot match, and strings.Contains rules
		// most lines out far faster than folding them rune by rune.
		if m.anchor == nil && r >= utf8.RuneSelf {
			m.anchor = orbit(r)
		}
	}
	return m
}

// orbit returns every rune that folds to r (r included), as strings.
func orbit(r rune) []string {
	out := []string{string(r)}
	for f := unicode.SimpleFold(r); f != r; f = unicode.SimpleFold(f) {
		out = append(out, string(f))
	}
	return out
}

// Index returns the byte offset and byte length of the first match in line,
// or -1, 0.
func (m *Matcher) Index(line string) (offset, length int) {
	if m.caseSensitive {
		i := strings.Index(line, m.query)
		if i < 0 {
			return -1, 0
		}
		return i, len(m.query)
	}
	// ASCII bytes never occur inside a multi-byte rune, so the byte-wise
	// path is exact when only ASCII can match.
	if m.ascii || m.asciiQuery && isASCII(line) {
		i := indexASCIIFold(line, m.upper)
		if i < 0 {
			return -1, 0
		}
		return i, len(m.query)
	}
	return m.indexFold(line)
}

// wholeText reports whether the matcher can look for its query in text, a
// doc of many lines, at once, giving the same first match per line as Index
// line by line: a non-empty query without line breaks, matched byte-wise.
// That is exact when case matters, for an ASCII query without k or s, and
// for any ASCII query in a text without the Kelvin sign and the long s, the
// only non-ASCII runes that fold to ASCII letters. Two searches of text for
// those, which are fast, spare a query such as "hooks" the line by line
// path on the docs that, as most do, hold neither.
func (m *Matcher) wholeText(text string) bool {
	switch {
	case m.query == "" || strings.ContainsAny(m.query, "\r\n"):
		return false
	case m.caseSensitive || m.ascii:
		return true
	}
	return m.asciiQuery && !strings.Contains(text, "\u212A") && !strings.Contains(text, "\u017F")
}

// indexText is Index on a text of many lines, for a matcher whose
// wholeText holds: the byte offset of the first match, or -1.
func (m *Matcher) indexText(text string) int {
	if m.caseSensitive {
		return strings.Index(text, m.query)
	}
	return indexASCIIFold(text, m.upper)
}

// indexFold is the general path: compare fold classes rune by rune at every
// rune boundary of line.
func (m *Matcher) indexFold(line string) (int, int) {
	if len(m.folded) == 0 {
		return 0, 0
	}
	if m.anchor != nil && !containsAny(line, m.anchor) {
		return -1, 0
	}
	for start := 0; start < len(line); {
		end, ok := start, true
		for _, want := range m.folded {
			if end >= len(line) {
				return -1, 0 // not enough text left for the query
			}
			r, size := utf8.DecodeRuneInString(line[end:])
			if foldClass(r) != want {
				ok = false
				break
			}
			end += size
		}
		if ok {
			return start, end - start
		}
		_, size := utf8.DecodeRuneInString(line[start:])
		start += size
	}
	return -1, 0
}

// foldClass maps a rune to one representative of its simple case folding
// orbit (the smallest rune in it), so two runes are equal under folding
// exactly when their classes are equal.
func foldClass(r rune) rune {
	if r < utf8.RuneSelf {
		if 'a' <= r && r <= 'z' {
			return r - 'a' + 'A'
		}
		return r
	}
	smallest := r
	for f := unicode.SimpleFold(r); f != r; f = unicode.SimpleFold(f) {
		smallest = min(smallest, f)
	}
	return smallest
}

func containsAny(s string, subs []string) bool {
	for _, sub := range subs {
		if strings.Contains(s, sub) {
			return true
		}
	}
	return false
}

func isASCII(s string) bool {
	for i := 0; i < len(s); i++ {
		if s[i] >= utf8.RuneSelf {
			return false
		}
	}
	return true
}

// indexASCIIFold finds upper (an ASCII, upper-cased query) in the ASCII or
// mixed line s, comparing ASCII letters without case. It returns a byte
// offset or -1.
func indexASCIIFold(s, upper string) int {
	n := len(upper)
	if n == 0 {
		return 0
	}
	first := upper[0]
	firstLower := first
	if 'A' <= first && first <= 'Z' {
		firstLower = first + 'a' - 'A'
	}
	for i := 0; i+n <= len(s); i++ {
		if c := s[i]; c != first && c != firstLower {
			continue
		}
		j := 1
		for ; j < n; j++ {
			c := s[i+j]
			if 'a' <= c && c <= 'z' {
				c -= 'a' - 'A'
			}
			if c != upper[j] {
				break
			}
		}
		if j == n {
			return i
		}
	}
	return -1
}
