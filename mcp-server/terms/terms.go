// Package terms cuts text into the words a ranked search weighs, the same
// way for the docs and for a question, and for the server (package
// internal/rank) and the wiki's search (tools/internal/wiki), so that a
// person and an assistant find the same best page. docs/server/ranking.md
// has the rules in prose.
package terms

import (
	"maps"
	"slices"
	"strings"
	"unicode"
	"unicode/utf8"
	"unsafe"
)

// Words are cut from text the same way for the docs and for a question:
//
//   - a word is a run of letters and digits; '_' and, between two letters
//     or digits, '.', '-', ':' and '/' join words into one identifier
//     (player.joined, mod_read_doc, data-root, std::vector, server/tools.md);
//   - a word is folded to lower case; words of one character, of more than
//     maxWordBytes and stop words (the, how, does, my, ...) are left out:
//     they carry no weight; but a stop word in a code span or that is an
//     identifier's part is a name (`at`, std::vector::at) and is kept;
//   - an identifier is kept whole, and its parts (split at joiners and at
//     lower-to-upper case changes: ReadDoc is read and doc) are words too,
//     so that "player joins" finds player.joined, and player.joined finds
//     itself first;
//   - a plain word is reduced to a stem (joined, joins and joining are
//     join; hooks is hook), an identifier never is: an exact identifier or
//     code (C2065, mod_read_doc) matches only itself, never a longer one
//     that contains it.

// maxWordBytes leaves out longer "words" (hashes, base64, minified code):
// nobody asks for them.
const maxWordBytes = 64

// Word is one word of a text: its folded form, and whether it is a whole
// identifier (kept as written) or one of the parts of the identifier just
// before it (stemmed, as plain words are). An identifier too long to be a
// word gives its parts as plain words.
type Word struct {
	Text        string
	Ident, Part bool
}

// Each calls f with each word of text, an identifier before its parts.
// buf is scratch memory the caller keeps from one call to the next (nil
// is fine). A word's text is valid only until f returns (it may be buf's
// memory): a caller that keeps it keeps a copy (strings.Clone).
func Each(text string, buf *[]byte, f func(Word)) {
	var part []byte // the parts' buffer: the identifier's is in use
	code := -1      // where the code span the words are in ends, -1 outside one
	for i := 0; i < len(text); {
		r, n := decode(text, i)
		if r == '`' {
			// A code span opens, or closes at its end.
			run := backticks(text, i)
			switch {
			case i == code:
				code = -1
			case code < 0:
				code = codeSpanEnd(text, i+run, run)
			}
			i += run
			continue
		}
		if !isWordRune(r) {
			i += n
			continue
		}
		// The run of word runes and joiners, a joiner only between two
		// letters or digits.
		start, end := i, i+n
		joined := r == '_'
		for end < len(text) {
			r, n := decode(text, end)
			if isWordRune(r) {
				joined = joined || r == '_'
				end += n
				continue
			}
			if isJoiner(r) && end+n < len(text) {
				// ':' joins as "::" too (std::vector).
				next := end + n
				if r == ':' && text[next] == ':' && next+1 < len(text) {
					next++
				}
				if nr, _ := utf8.DecodeRuneInString(text[next:]); isWordRune(nr) && nr != '_' {
					joined = true
					end = next
					continue
				}
			}
			break
		}
		emit(text[start:end], joined, code >= 0, buf, &part, f)
		i = end
	}
}

// backticks returns the length of the run of backticks at text[i].
func backticks(text string, i int) int {
	n := 0
	for i+n < len(text) && text[i+n] == '`' {
		n++
	}
	return n
}

// codeSpanEnd returns where the code span whose text starts at from ends:
// at the next run of exactly n backticks (CommonMark), -1 when there is
// none (the backticks are text).
func codeSpanEnd(text string, from, n int) int {
	for i := from; i < len(text); {
		j := strings.IndexByte(text[i:], '`')
		if j < 0 {
			return -1
		}
		i += j
		run := backticks(text, i)
		if run == n {
			return i
		}
		i += run
	}
	return -1
}

// emit passes on the run s (joined: it holds joiners; code: it is in a
// code span) as words. A stop word in a code span is a name (vector's
// `at`), as is an identifier's part (std::vector::at, is_open): they are
// kept.
func emit(s string, joined, code bool, buf, part *[]byte, f func(Word)) {
	if !joined && !hasCaseChange(s) {
		if w, ok := fold(s, buf, code); ok {
			f(Word{Text: stem(w)})
		}
		return
	}
	w, whole := fold(s, buf, false)
	if whole {
		f(Word{Text: w, Ident: true})
	}
	// The parts, folded into a buffer of their own: an identifier's parts,
	// or plain words when the identifier is not a word (over maxWordBytes).
	for p := range parts(s) {
		if w, ok := fold(p, part, whole || code); ok {
			f(Word{Text: stem(w), Part: whole})
		}
	}
}

// parts yields the parts of an identifier: the runs of letters and digits
// between joiners, each cut again where a lower-case letter or a digit is
// followed by an upper-case one.
func parts(s string) func(func(string) bool) {
	return func(yield func(string) bool) {
		start := -1
		var prev rune
		for i, r := range s {
			switch {
			case !unicode.IsLetter(r) && !unicode.IsDigit(r):
				if start >= 0 && !yield(s[start:i]) {
					return
				}
				start = -1
			case start < 0:
				start = i
			case unicode.IsUpper(r) && (unicode.IsLower(prev) || unicode.IsDigit(prev)):
				if !yield(s[start:i]) {
					return
				}
				start = i
			}
			prev = r
		}
		if start >= 0 {
			yield(s[start:])
		}
	}
}

// hasCaseChange reports whether a run of letters and digits changes from
// lower to upper case inside (ReadDoc, getElementById): a camel-case
// identifier.
func hasCaseChange(s string) bool {
	for i := 1; i < len(s); i++ {
		if s[i] >= utf8.RuneSelf || s[i-1] >= utf8.RuneSelf {
			return hasCaseChangeRunes(s)
		}
		if 'A' <= s[i] && s[i] <= 'Z' && 'a' <= s[i-1] && s[i-1] <= 'z' {
			return true
		}
	}
	return false
}

func hasCaseChangeRunes(s string) bool {
	var prev rune
	for _, r := range s {
		if unicode.IsUpper(r) && unicode.IsLower(prev) {
			return true
		}
		prev = r
	}
	return false
}

// decode returns the rune at text[i] and its length: an ASCII byte
// without a call.
func decode(text string, i int) (rune, int) {
	if c := text[i]; c < utf8.RuneSelf {
		return rune(c), 1
	}
	return utf8.DecodeRuneInString(text[i:])
}

func isWordRune(r rune) bool {
	if r < utf8.RuneSelf {
		return r == '_' || 'a' <= r && r <= 'z' || 'A' <= r && r <= 'Z' || '0' <= r && r <= '9'
	}
	return unicode.IsLetter(r) || unicode.IsDigit(r)
}

func isJoiner(r rune) bool { return r == '.' || r == '-' || r == ':' || r == '/' }

// fold lower-cases s into *buf and reports whether it is a word worth
// keeping (see Each): a stop word is not, unless it is a name (names). The
// result shares *buf's memory when s has upper case letters or
// leading/trailing underscores, else s's.
func fold(s string, buf *[]byte, names bool) (string, bool) {
	s = strings.Trim(s, "_")
	if len(s) > maxWordBytes || utf8.RuneCountInString(s) < 2 {
		return "", false
	}
	lower := true
	for i := 0; i < len(s) && lower; i++ {
		if c := s[i]; c >= utf8.RuneSelf {
			for _, r := range s[i:] {
				if unicode.ToLower(r) != r {
					lower = false
					break
				}
			}
			break
		} else if 'A' <= c && c <= 'Z' {
			lower = false
		}
	}
	w := s
	if !lower {
		b := (*buf)[:0]
		for _, r := range s {
			b = utf8.AppendRune(b, unicode.ToLower(r))
		}
		*buf = b
		w = unsafe.String(unsafe.SliceData(b), len(b)) // valid until *buf is written again: see Each
	}
	if _, stop := stopWords[w]; stop && !names {
		return "", false
	}
	return w, true
}

// stem strips the commonest English endings from a plain word, so that a
// question's "joins" meets the docs' "joined" and "hooks" meets "hook".
// It is deliberately light (no dictionary): both sides are stemmed alike,
// so a stem need not be a word, only the same for a word's forms (cache,
// cached and caching are all "cach"). Words with digits are left alone.
func stem(w string) string {
	if len(w) < 4 || hasDigit(w) {
		return w
	}
	switch {
	case strings.HasSuffix(w, "ies") && len(w) > 4:
		return w[:len(w)-3] + "y"
	case strings.HasSuffix(w, "sses"):
		return w[:len(w)-2]
	case strings.HasSuffix(w, "ing") && len(w) > 5:
		w = undouble(w[:len(w)-3])
	case strings.HasSuffix(w, "ed") && len(w) > 5 && !strings.HasSuffix(w, "eed"):
		w = undouble(w[:len(w)-2])
	case strings.HasSuffix(w, "es") && (strings.HasSuffix(w, "ches") || strings.HasSuffix(w, "shes") || strings.HasSuffix(w, "xes")):
		return w[:len(w)-2]
	case strings.HasSuffix(w, "s") && !strings.HasSuffix(w, "ss") && !strings.HasSuffix(w, "us") && !strings.HasSuffix(w, "is"):
		w = w[:len(w)-1]
	}
	if len(w) > 4 && w[len(w)-1] == 'e' {
		w = w[:len(w)-1]
	}
	// A final -ll of a word of more than one syllable loses an l, as in
	// Porter's step 5b (cancelled, cancelling and cancel are all cancel;
	// install is instal), every form alike; fall and call keep theirs.
	if strings.HasSuffix(w, "ll") && measure(w) > 1 {
		w = w[:len(w)-1]
	}
	return w
}

// measure is Porter's m of an ASCII word: how many times a vowel is
// followed by a consonant (y is a vowel after a consonant). A word with
// other letters measures 0: it is never cut.
func measure(w string) int {
	m := 0
	vowel := false // the letter before is a vowel
	for i := 0; i < len(w); i++ {
		c := w[i]
		if c >= utf8.RuneSelf {
			return 0
		}
		v := strings.IndexByte("aeiou", c) >= 0 || c == 'y' && i > 0 && !vowel
		if vowel && !v {
			m++
		}
		vowel = v
	}
	return m
}

func hasDigit(w string) bool {
	for i := 0; i < len(w); i++ {
		if '0' <= w[i] && w[i] <= '9' {
			return true
		}
	}
	return false
}

// undouble drops a doubled final ASCII consonant that an ending left
// (stopped, stopp, stop); a letter of several bytes is never cut.
func undouble(w string) string {
	if n := len(w); n >= 3 && w[n-1] == w[n-2] && w[n-1] < utf8.RuneSelf && !strings.ContainsRune("aeiouls", rune(w[n-1])) {
		return w[:n-1]
	}
	return w
}

// stopWords carry no weight: articles, pronouns, auxiliaries, question
// words and the commonest prepositions and conjunctions. A question is
// mostly made of them ("how do I ...", "what does my ... when ...").
var stopWords = func() map[string]struct{} {
	m := map[string]struct{}{}
	for _, w := range strings.Fields(`
		a an the this that these those there here
		i me my mine we us our you your yours he him his she her it its they them their
		am is are was were be been being do does did doing done have has had having
		will would shall should can could may might must
		what which who whom whose when where why how whether
		and or but nor not no yes so than too very just also only
		of in on at by for with from to into onto about over under between through during
		as if then else any all some each every both either neither
		up down out off again further once
		get got gets getting make makes made want wants need needs use using
		please thing things way ways something anything
	`) {
		m[w] = struct{}{}
	}
	return m
}()

// Prose returns a line without the destinations of its Markdown links and
// images ("[label](dest)"): a path or URL is not what the line says, and a
// list of links to other docs would otherwise hold their words.
func Prose(line string) string {
	i := strings.Index(line, "](")
	if i < 0 {
		return line
	}
	var b strings.Builder
	for i >= 0 {
		b.WriteString(line[:i+1])
		rest := line[i+2:]
		end := strings.IndexByte(rest, ')')
		if end < 0 {
			line = rest
			break
		}
		line = rest[end+1:]
		i = strings.Index(line, "](")
	}
	b.WriteString(line)
	return b.String()
}

// Heading returns a heading's text as the doc displays it: without the
// HTML anchors some trees put in headings (## <a name="at"></a> `at`),
// whose attributes are not words of the heading. The server's ranking and
// the wiki's search index read headings through it.
func Heading(s string) string {
	if !strings.Contains(s, "<") {
		return s
	}
	var b strings.Builder
	for {
		i := strings.Index(s, "<")
		if i < 0 {
			break
		}
		rest := s[i+1:]
		rest = strings.TrimPrefix(rest, "/")
		end := strings.IndexByte(rest, '>')
		if end < 0 || !(strings.HasPrefix(rest, "a ") || strings.HasPrefix(rest, "a>")) {
			b.WriteString(s[:i+1])
			s = s[i+1:]
			continue
		}
		b.WriteString(s[:i])
		s = rest[end+1:]
	}
	b.WriteString(s)
	return b.String()
}

// StopWords returns the stop words (see Each), sorted.
func StopWords() []string {
	return slices.Sorted(maps.Keys(stopWords))
}
