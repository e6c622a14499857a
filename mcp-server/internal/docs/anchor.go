package docs

import (
	"html"
	"strconv"
	"strings"
	"unicode"
)

// The anchors of a doc's headings are made as the wiki makes them, so that a
// heading named by the server is found in the wiki at the same #fragment:
// Hugo's "github" heading ids (markup.goldmark.parser.autoHeadingIDType in
// tools/internal/wiki/site/hugo.toml), made from the heading's plain text as
// Hugo renders it (links by their text, code spans by their content,
// typographer dashes). One rule (Anchor) and one numbering of repeats
// (Anchors); TestAnchorsMatchTheWiki in tools/internal/wiki checks both
// against the ids Hugo writes for every heading of every doc in the
// repository and a doc of tricky headings.

// Anchor is the anchor of a heading whose text, as written, is given:
// its plain text (see plainText) trimmed, letters and digits lower-cased,
// '_' kept, each space and '-' a '-', everything else dropped. An empty
// result is "heading". Repeats within a doc are numbered by Anchors.
func Anchor(text string) string {
	var b strings.Builder
	for _, r := range strings.TrimSpace(plainText(text)) {
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

// plainText is a heading's inline Markdown as Hugo's plain text has it,
// as far as an anchor can tell: a code span is its content, a link or
// image its text, an HTML tag or autolink nothing, an entity its
// character, "--" and "---" typographic dashes (not '-'), and emphasis
// marks ('*', and '_' beside a word's edge) nothing. (Hugo keeps only the
// first piece of a link or emphasis that holds further markup, a quirk
// not copied here.)
func plainText(s string) string {
	var b strings.Builder
	for i := 0; i < len(s); {
		c := s[i]
		switch {
		case c == '\\' && i+1 < len(s) && strings.IndexByte("!\"#$%&'()*+,-./:;<=>?@[\\]^_`{|}~", s[i+1]) >= 0:
			b.WriteByte(s[i+1])
			i += 2
		case c == '`':
			n := len(s[i:]) - len(strings.TrimLeft(s[i:], "`"))
			fence := s[i : i+n]
			end := strings.Index(s[i+n:], fence)
			for end >= 0 && i+n+end+n < len(s) && s[i+n+end+n] == '`' { // a longer run does not close it
				next := strings.Index(s[i+n+end+n:], fence)
				if next < 0 {
					end = -1
					break
				}
				end += n + next
			}
			if end < 0 {
				b.WriteString(fence)
				i += n
				continue
			}
			code := s[i+n : i+n+end]
			if len(code) > 2 && code[0] == ' ' && code[len(code)-1] == ' ' && strings.Trim(code, " ") != "" {
				code = code[1 : len(code)-1]
			}
			b.WriteString(code)
			i += n + end + n
		case c == '[' || (c == '!' && strings.HasPrefix(s[i+1:], "[")):
			open := i + strings.IndexByte(s[i:], '[')
			label, dest, ok := linkAt(s[open:])
			if !ok {
				b.WriteByte(c)
				i++
				continue
			}
			b.WriteString(plainText(label))
			i = open + dest
		case c == '<':
			if j := strings.IndexByte(s[i:], '>'); j > 1 && (isASCIILetter(s[i+1]) || s[i+1] == '/' || s[i+1] == '!') {
				i += j + 1
				continue
			}
			b.WriteByte(c)
			i++
		case c == '&':
			if j := strings.IndexByte(s[i:], ';'); j > 1 && j < 32 {
				if u := html.UnescapeString(s[i : i+j+1]); u != s[i:i+j+1] {
					b.WriteString(u)
					i += j + 1
					continue
				}
			}
			b.WriteByte(c)
			i++
		case c == '-' && strings.HasPrefix(s[i:], "---"):
			b.WriteString("\u2014")
			i += 3
		case c == '-' && strings.HasPrefix(s[i:], "--"):
			b.WriteString("\u2013")
			i += 2
		case c == '*':
			i++
		case c == '_' && (i == 0 || i == len(s)-1 || !isWordByte(s[i-1]) || !isWordByte(s[i+1])):
			i++
		default:
			b.WriteByte(c)
			i++
		}
	}
	return b.String()
}

// linkAt reads a link at the start of s, "[label](destination)": its
// label and the length of the whole link.
func linkAt(s string) (label string, n int, ok bool) {
	depth := 0
	for i := 0; i < len(s); i++ {
		switch s[i] {
		case '\\':
			i++
		case '[':
			depth++
		case ']':
			if depth--; depth == 0 {
				if !strings.HasPrefix(s[i+1:], "(") {
					return "", 0, false
				}
				end := strings.IndexByte(s[i+1:], ')')
				if end < 0 {
					return "", 0, false
				}
				return s[1:i], i + 1 + end + 1, true
			}
		}
	}
	return "", 0, false
}

// isWordByte: a letter, digit or any byte of a non-ASCII character.
func isWordByte(c byte) bool {
	return isASCIILetter(c) || '0' <= c && c <= '9' || c >= 0x80
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

// innermost returns the index of the heading a 1-based line falls under:
// the last heading at or above it, or -1 above the first heading.
func innermost(headings []Heading, line int) int {
	i := -1
	for j, h := range headings {
		if h.Line > line {
			break
		}
		i = j
	}
	return i
}

// Outline is a doc's title and where its lines fall among its headings,
// found in its text once for the many lines that ask (a search's hits in
// one doc).
type Outline struct {
	Title    string // see Title
	headings []Heading
	anchors  []string
}

// OutlineOf reads the title and the headings of the doc at docPath whose
// text is given, and the headings' anchors.
func OutlineOf(docPath, text string) Outline {
	hs := Headings(text)
	return Outline{Title: Title(docPath, text), headings: hs, anchors: Anchors(hs)}
}

// Section tells where a 1-based line is: the trail of headings above it,
// outermost first (see Trail), and the anchor of the section it is in,
// its innermost heading's; no trail and "" above the first heading.
func (o *Outline) Section(line int) (trail []string, anchor string) {
	if i := innermost(o.headings, line); i >= 0 {
		anchor = o.anchors[i]
	}
	return Trail(o.headings, line), anchor
}
