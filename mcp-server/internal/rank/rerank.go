package rank

import (
	"cmp"
	"path"
	"slices"
	"strings"
	"unicode/utf8"
	"unsafe"

	"github.com/docs-mcp/docs-mcp/mcp-server/internal/docs"
	"github.com/docs-mcp/docs-mcp/mcp-server/terms"
)

// rerankDepth is how many of the sections scored from the index are
// scored again from their text.
const rerankDepth = 12

// passageLines bounds a passage: a paragraph (lines between blank lines),
// or a list item or table row run, cut every passageLines lines.
const passageLines = 6

// introWeight is a doc's introduction's share of its score (the text
// above its first heading or under its title, when it has more sections):
// an introduction names what the whole doc is about, where a question
// asks for one thing in it.
const introWeight = 0.9

// frontShare is how much a word of the question that only a doc's front
// matter holds counts in a section's coverage (see rerank), against a
// word of the section's passage or headings, or of the doc's title or
// file name. Set on cpp-docs.json: 0.5 answered 23 first, 0.25 and 0.75
// 22, 0 21, and 1 (the front matter as a field like the others) 20.
const frontShare = 0.5

// rerank scores the candidates again by the passage of each that holds
// the most of the question: a section whose one paragraph (with its
// headings, its doc's title and file name, and at frontShare its front
// matter) holds every word
// beats a long one whose words are scattered over pages of text. It
// returns the k best, with their lines, snippets and the words they hold.
func rerank(q Question, cands []Hit, idf []float64, k int) []Hit {
	if len(cands) == 0 {
		return nil
	}
	weights, total := q.groupWeights(idf)
	if total == 0 {
		return cands[:min(k, len(cands))]
	}
	index := map[string]int{}
	var lf lineFilter
	for i, t := range q.terms {
		index[t.text] = i
		lf.add(t.text)
	}
	var buf []byte
	bitsOf := func(s string) uint64 {
		var bits uint64
		terms.Each(s, &buf, func(w terms.Word) {
			if i, ok := index[w.Text]; ok {
				bits |= 1 << i
			}
		})
		return bits
	}

	type docText struct {
		text  string
		hs    []docs.Heading
		body  int
		lines []string
		named uint64 // terms in the title and file name
		front uint64 // terms in the front matter
	}
	texts := map[*docs.Doc]*docText{}
	for i := range cands {
		h := &cands[i]
		dt := texts[h.Doc]
		if dt == nil {
			text := h.Doc.Text()
			dt = &docText{text: text, hs: docs.Headings(text), lines: docs.SplitLines(text)}
			dt.named = bitsOf(docs.Title(h.Doc.Path, text)) | bitsOf(strings.TrimSuffix(path.Base(h.Doc.Path), path.Ext(h.Doc.Path)))
			dt.body = metaValues(text, func(_, v string) { dt.front |= bitsOf(v) })
			texts[h.Doc] = dt
		}
		// The section's lines and the headings above it.
		fields := dt.named
		h.StartLine, h.EndLine = dt.body, len(dt.lines)
		if h.Heading >= 0 {
			hd := dt.hs[h.Heading]
			h.StartLine = hd.Line
			fields |= bitsOf(terms.Heading(hd.Text))
			level := hd.Level
			for j := h.Heading - 1; j >= 0 && level > 1; j-- {
				if dt.hs[j].Level < level {
					level = dt.hs[j].Level
					fields |= bitsOf(terms.Heading(dt.hs[j].Text))
				}
			}
		}
		if next := h.Heading + 1; next < len(dt.hs) {
			h.EndLine = dt.hs[next].Line - 1
		}
		// The best passage: the most of the question with the fields, and
		// the front matter at frontShare: it is about the whole doc (a
		// class's reference page lists every member in it), a passage
		// about its section.
		held := func(bits uint64) float64 {
			c := q.coverage(fields|bits, weights)
			if dt.front&^(fields|bits) == 0 { // the front matter adds no word
				return c
			}
			return (1-frontShare)*c + frontShare*q.coverage(fields|dt.front|bits, weights)
		}
		best, bestLine, bestLineCov := held(0), 0, 0.0
		var passage uint64
		n := 0
		end := func() {
			if c := held(passage); c > best {
				best = c
			}
			passage, n = 0, 0
		}
		from := h.StartLine
		if h.Heading >= 0 {
			from++ // the heading is a field
		}
		for l := from; l <= h.EndLine && l <= len(dt.lines); l++ {
			line := dt.lines[l-1]
			if strings.TrimSpace(line) == "" {
				end()
				continue
			}
			var lb uint64
			if lf.may(line) {
				lb = bitsOf(terms.Prose(line))
			}
			if c := q.coverage(lb, weights); c > bestLineCov {
				bestLine, bestLineCov = l, c
			}
			passage |= lb
			if n++; n == passageLines {
				end()
			}
		}
		end()
		cov := best / total
		h.Score *= cov
		if (h.Heading < 0 || dt.hs[h.Heading].Level == 1) && h.Heading+1 < len(dt.hs) {
			h.Score *= introWeight
		}
		if bestLine > 0 {
			h.SnippetLine, h.Snippet = bestLine, dt.lines[bestLine-1]
		}
		for ti, t := range q.terms {
			if h.bits&(1<<ti) != 0 && !slices.Contains(h.Matched, q.groups[t.group]) {
				h.Matched = append(h.Matched, q.groups[t.group])
			}
		}
	}
	sortHits(cands)
	return cands[:min(k, len(cands))]
}

// sortHits orders hits best first, equal scores in path and line order.
func sortHits(hits []Hit) {
	slices.SortStableFunc(hits, func(a, b Hit) int {
		if c := cmp.Compare(b.Score, a.Score); c != 0 {
			return c
		}
		if c := strings.Compare(a.Doc.Path, b.Doc.Path); c != 0 {
			return c
		}
		return cmp.Compare(a.StartLine, b.StartLine)
	})
}

// lineFilter tells the lines that may hold a word of a question from
// those that cannot, without cutting them into words. A word of an ASCII
// line is a run of its bytes, lower-cased (see terms.Each), and stemmed
// when it is a plain word or a part; a stem is a prefix of the word it
// came from (an ending goes, a doubled consonant or a final e or l goes),
// but for -ies, which becomes -y: less that y, it is one. A line that
// holds, lower-cased, none of the question's words (those ending in y less
// the y) holds none of them. A line with other bytes may fold into
// anything (the Kelvin sign is k): it may hold any word.
type lineFilter struct {
	probes []string
	lower  []byte
}

func (lf *lineFilter) add(word string) {
	if len(word) >= 3 && word[len(word)-1] == 'y' {
		word = word[:len(word)-1]
	}
	lf.probes = append(lf.probes, word)
}

func (lf *lineFilter) may(line string) bool {
	b := lf.lower[:0]
	for i := 0; i < len(line); i++ {
		c := line[i]
		if c >= utf8.RuneSelf {
			return true
		}
		b = append(b, lowerASCII(c))
	}
	lf.lower = b
	lower := unsafe.String(unsafe.SliceData(b), len(b))
	for _, p := range lf.probes {
		if strings.Contains(lower, p) {
			return true
		}
	}
	return false
}

func lowerASCII(c byte) byte {
	if 'A' <= c && c <= 'Z' {
		return c + 'a' - 'A'
	}
	return c
}
