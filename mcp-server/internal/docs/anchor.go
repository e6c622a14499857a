package docs

import (
	"cmp"
	"context"
	"html"
	"slices"
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
// (the first number that makes it unique), as Hugo numbers them: a
// heading "x-1" after two headings "x" (x, x-1) is "x-1-1", and a third
// "x" after "x", "x 1" is "x-2".
//
// Hugo tries the numbers from 1 for every repeat, which costs n²/2 map
// lookups for n identical headings (a doc of 100,000 "## Remarks" took
// minutes). Here each slug remembers the first number not yet tried for
// it: an anchor once taken stays taken, so the numbers below it would
// fail again, and skipping them gives Hugo's answer. Every failed try
// moves a slug's number past an anchor taken by some heading, and an
// anchor is "slug-n" for one slug and number only (the number has no
// '-'), so all the tries of a doc are fewer than twice its headings.
func Anchors(headings []Heading) []string {
	out := make([]string, len(headings))
	taken := make(map[string]bool, len(headings))
	next := map[string]int{} // per repeated slug, the first number not tried yet
	for i, h := range headings {
		a := Anchor(h.Text)
		if taken[a] {
			n := max(next[a], 1)
			for taken[a+"-"+strconv.Itoa(n)] {
				n++
			}
			next[a] = n + 1
			a += "-" + strconv.Itoa(n)
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

// Outline is what a doc's headings say about it: its title, its sections
// with their anchors, and which heading encloses which, read from its text
// in one pass, so that a line's trail and section are found in
// logarithmic time.
type Outline struct {
	Title    string // see Title
	sections []Section
	parent   []int32 // per section, the index of the enclosing one; -1 at the top
}

// ctxEvery is how many headings a loop over a doc's headings handles
// between two looks at its context: a doc may hold hundreds of thousands,
// and a client that leaves stops the work within about a millisecond.
const ctxEvery = 1024

// OutlineOf reads the title and the outline of the doc at docPath whose
// text is given. It stops with the context's error when ctx ends.
func OutlineOf(ctx context.Context, docPath, text string) (*Outline, error) {
	hs := Headings(text)
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	anchors := Anchors(hs)
	o := &Outline{Title: Title(docPath, text), sections: make([]Section, len(hs)), parent: make([]int32, len(hs))}
	total := CountLines(text)
	// A stack of the open sections, levels strictly growing: a heading
	// ends every open section of its level or deeper, and the one left
	// on top encloses it.
	var open [6]int32
	n := 0
	for i, h := range hs {
		if i%ctxEvery == 0 {
			if err := ctx.Err(); err != nil {
				return nil, err
			}
		}
		for n > 0 && o.sections[open[n-1]].Level >= h.Level {
			o.sections[open[n-1]].EndLine = h.Line - 1
			n--
		}
		o.parent[i] = -1
		if n > 0 {
			o.parent[i] = open[n-1]
		}
		o.sections[i] = Section{Heading: h, Anchor: anchors[i], EndLine: total}
		open[n] = int32(i)
		n++
	}
	return o, nil
}

// Sections returns the doc's sections, one per heading, in order. The
// slice must not be modified.
func (o *Outline) Sections() []Section { return o.sections }

// Section tells where a 1-based line is: the trail of headings above it,
// outermost first (see Trail), and the anchor of the section it is in,
// its innermost heading's; no trail and "" above the first heading.
func (o *Outline) Section(line int) (trail []string, anchor string) {
	// The last heading at or above the line.
	i, _ := slices.BinarySearchFunc(o.sections, line+1, func(s Section, line int) int { return cmp.Compare(s.Line, line) })
	i--
	if i < 0 {
		return []string{}, ""
	}
	depth := 0
	for j := int32(i); j >= 0; j = o.parent[j] {
		depth++
	}
	trail = make([]string, depth)
	for j := int32(i); j >= 0; j = o.parent[j] {
		depth--
		trail[depth] = o.sections[j].Text
	}
	return trail, o.sections[i].Anchor
}

// Find returns the section a client names: by its anchor (with or without
// a leading '#'), else by its heading's text (case folded), else by the
// anchor the name would have as a heading's text. The first match in the
// doc wins; a repeated heading is told apart by its anchor. It stops with
// the context's error when ctx ends.
func (o *Outline) Find(ctx context.Context, name string) (Section, bool, error) {
	name = strings.TrimSpace(name)
	anchor := strings.TrimPrefix(name, "#")
	slug := Anchor(name)
	for _, same := range []func(Section) bool{
		func(s Section) bool { return s.Anchor == anchor },
		func(s Section) bool { return strings.EqualFold(s.Text, name) },
		func(s Section) bool { return s.Anchor == slug },
	} {
		for i, s := range o.sections {
			if i%ctxEvery == 0 {
				if err := ctx.Err(); err != nil {
					return Section{}, false, err
				}
			}
			if same(s) {
				return s, true, nil
			}
		}
	}
	return Section{}, false, nil
}
