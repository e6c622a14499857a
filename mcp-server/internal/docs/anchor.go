package docs

import (
	"strconv"
	"strings"
	"unicode"
)

// The anchors of a doc's headings are made as the wiki makes them, so that a
// heading named by the server is found in the wiki at the same #fragment:
// Hugo's "github" heading ids (markup.goldmark.parser.autoHeadingIDType in
// tools/internal/wiki/site/hugo.toml), computed by goldmark from the
// heading's source text as written, inline Markdown included. One rule
// (Anchor) and one numbering of repeats (Anchors); TestAnchorsMatchTheWiki in
// tools/internal/wiki checks both against the ids Hugo writes for every
// heading of every doc in the repository.

// Anchor is the slug of a heading's text: the text trimmed, letters and
// digits lower-cased, '_' kept, each space and '-' a '-', everything else
// (punctuation, backticks, the brackets of a link) dropped. An empty slug
// is "heading". Repeats within a doc are numbered by Anchors.
func Anchor(text string) string {
	var b strings.Builder
	for _, r := range strings.TrimSpace(text) {
		switch {
		case r == '-' || r == ' ':
			b.WriteByte('-')
		case r == '_' || unicode.IsLetter(r) || unicode.IsDigit(r):
			b.WriteRune(unicode.ToLower(r))
		}
	}
	if b.Len() == 0 {
		return "heading"
	}
	return b.String()
}

// Anchors returns the anchor of each heading, in order: Anchor of its
// text, and for a slug already taken in the doc, "-1", "-2", … appended
// (the first number that makes it unique).
func Anchors(headings []Heading) []string {
	out := make([]string, len(headings))
	taken := make(map[string]bool, len(headings))
	for i, h := range headings {
		a := Anchor(h.Text)
		if taken[a] {
			for n := 1; ; n++ {
				if c := a + "-" + strconv.Itoa(n); !taken[c] {
					a = c
					break
				}
			}
		}
		taken[a] = true
		out[i] = a
	}
	return out
}

// Section is a heading with its anchor and the lines it spans: from the
// heading down to the line before the next heading of the same or a
// higher level (a smaller or equal Level), or the end of the doc.
type Section struct {
	Heading
	Anchor  string
	EndLine int // last line of the section, inclusive
}

// Sections returns the sections of a doc's text, one per heading, in order.
func Sections(text string) []Section {
	hs := Headings(text)
	anchors := Anchors(hs)
	total := CountLines(text)
	out := make([]Section, len(hs))
	for i, h := range hs {
		end := total
		for _, next := range hs[i+1:] {
			if next.Level <= h.Level {
				end = next.Line - 1
				break
			}
		}
		out[i] = Section{Heading: h, Anchor: anchors[i], EndLine: end}
	}
	return out
}

// FindSection returns the section a client names: by its anchor (with or
// without a leading '#'), else by its heading's text (case folded), else
// by the anchor the name would have as a heading's text. The first match
// in the doc wins; a repeated heading is told apart by its anchor.
func FindSection(sections []Section, name string) (Section, bool) {
	name = strings.TrimSpace(name)
	anchor := strings.TrimPrefix(name, "#")
	for _, s := range sections {
		if s.Anchor == anchor {
			return s, true
		}
	}
	for _, s := range sections {
		if strings.EqualFold(s.Text, name) {
			return s, true
		}
	}
	slug := Anchor(name)
	for _, s := range sections {
		if s.Anchor == slug {
			return s, true
		}
	}
	return Section{}, false
}

// Innermost returns the index of the heading a 1-based line falls under:
// the last heading at or above it, or -1 above the first heading.
func Innermost(headings []Heading, line int) int {
	i := -1
	for j, h := range headings {
		if h.Line > line {
			break
		}
		i = j
	}
	return i
}
