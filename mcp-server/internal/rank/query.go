package rank

import (
	"encoding/binary"
	"math"
	"slices"
	"strings"
	"sync"
	"unicode"

	"github.com/docs-mcp/docs-mcp/mcp-server/internal/docs"
	"github.com/docs-mcp/docs-mcp/mcp-server/terms"
)

// A word is common (see candidates) in more than one section in
// commonShare, and more than minCommon sections: a small tree scores
// every section that holds a word of the question.
const (
	commonShare = 10
	minCommon   = 4096
)

// maxTerms bounds the words of a question that are ranked: a question
// longer than that is ranked by its first maxTerms words.
const maxTerms = 64

// Question is a question cut into the words that carry weight (see words):
// its plain words and identifiers, each with its parts.
type Question struct {
	terms  []term
	groups []string // per group: the word as the question has it, folded
	// absent marks the groups of identifiers that no section holds as
	// written (set by the index that ranks the question): their parts
	// stand for them, each as a plain word.
	absent []bool
}

// term is one word of a question.
type term struct {
	text   string
	weight float64
	group  int  // the word of the question it comes from (an identifier and its parts share one)
	part   bool // a part of an identifier
}

// Parse cuts a question into its words.
func Parse(question string) Question {
	var q Question
	var buf []byte
	terms.Each(question, &buf, func(w terms.Word) {
		if len(q.terms) == maxTerms {
			return
		}
		t := term{text: strings.Clone(w.Text), weight: 1, part: w.Part}
		switch {
		case w.Part:
			t.weight = weightPart
		case w.Ident || isCode(w.Text):
			t.weight = weightIdent
			fallthrough
		default:
			q.groups = append(q.groups, t.text)
		}
		t.group = len(q.groups) - 1
		q.add(t)
	})
	return q
}

// isCode reports whether a plain word mixes letters and digits (C2065,
// LNK1104, x64): an error code or a name, which weighs as an identifier.
func isCode(w string) bool {
	letter, digit := false, false
	for _, r := range w {
		switch {
		case unicode.IsDigit(r):
			digit = true
		case unicode.IsLetter(r):
			letter = true
		}
	}
	return letter && digit
}

// add adds t, or raises the weight of the same word met before.
func (q *Question) add(t term) {
	for i := range q.terms {
		if q.terms[i].text == t.text {
			if t.weight > q.terms[i].weight {
				q.terms[i].weight = t.weight
			}
			return
		}
	}
	q.terms = append(q.terms, t)
}

// Words returns the question's words that carry weight, as the question
// has them (folded; plain words stemmed).
func (q Question) Words() []string { return q.groups }

// Empty reports whether no word of the question carries weight.
func (q Question) Empty() bool { return len(q.terms) == 0 }

// Hit is a section that answers a question.
type Hit struct {
	Doc *docs.Doc
	// Heading is the section's heading, an index into the doc's headings
	// (docs.Headings, and the sections of its outline); -1 for the text
	// above its first heading.
	Heading int
	Score   float64
	// Matched are the question's words (see Words) that the section, its
	// headings or its doc's title, front matter or file name hold.
	Matched []string
	// Lines are the section's lines, from its heading's (or the doc's
	// first after its front matter) to its last before the next heading.
	StartLine, EndLine int
	// Snippet is the line of the section that holds the most of the
	// question (its number, 0 when none does) and that line's text.
	SnippetLine int
	Snippet     string

	bits uint64 // the terms the section holds, by index in the question
}

// scratch is a question's accumulators, one per section of the index.
type scratch struct {
	acc     []acc
	touched []uint32
}

// acc is one section's accumulator: its score and which terms it holds,
// side by side, so that a posting reads and writes one cache line.
type acc struct {
	bits  uint64
	score float32
}

var scratches sync.Pool

func getScratch(n int) *scratch {
	s, _ := scratches.Get().(*scratch)
	if s == nil || len(s.acc) < n {
		return &scratch{acc: make([]acc, n)}
	}
	return s
}

func (s *scratch) release() {
	for _, id := range s.touched {
		s.acc[id] = acc{}
	}
	s.touched = s.touched[:0]
	scratches.Put(s)
}

// Top returns the k sections that best answer q among the docs whose path
// starts with prefix, best first; sections of equal score in path and
// line order. The sections are scored from the index (BM25F, by how much
// of the question each holds), and the best of them again from their text
// (see rerank): how much of the question one passage holds.
func (ix *Index) Top(q Question, prefix string, k int) []Hit {
	if k <= 0 {
		return nil
	}
	cands, idf := ix.candidates(&q, prefix, max(k, rerankDepth))
	return rerank(q, cands, idf, k)
}

// candidates returns the k sections that best answer q, as Top describes,
// scored from the index alone, each with its BM25F score (before the
// question's coverage is weighed in), and each term's rarity (its IDF).
// It marks the identifiers of q that no section holds (see absent).
func (ix *Index) candidates(q *Question, prefix string, k int) ([]Hit, []float64) {
	if q.Empty() || ix.secs == 0 {
		return nil, nil
	}
	all := ix.snap.Docs()
	lo := ix.snap.From(prefix)
	hi := lo + sortSearch(len(all)-lo, func(i int) bool { return !strings.HasPrefix(all[lo+i].Path, prefix) })
	if lo == hi {
		return nil, nil
	}
	s := getScratch(ix.secs)
	defer s.release()

	n := float64(ix.secs)
	// Each term's postings and rarity first, then the terms from the
	// rarest: a common word (in a tenth of the sections of a large tree) adds to
	// the sections a rarer one found, and finds no new ones, unless no
	// rarer word found any. Its postings are read all the same, but most
	// are passed over: on 40,000 small docs, a question with a word in most
	// sections scored them all.
	idf := make([]float64, len(q.terms))
	lists := make([][][]byte, len(q.terms))
	dfs := make([]int, len(q.terms))
	for ti, t := range q.terms {
		key := keyOf(ix.seed, t.text)
		lists[ti] = make([][]byte, len(ix.shards))
		for i, sh := range ix.shards {
			if lists[ti][i] = sh.postings(key); lists[ti][i] != nil {
				nsec, ndocs, _, _ := counts(lists[ti][i])
				dfs[ti] += int(nsec + ndocs)
			}
		}
		// A word in the titles of many docs can count more than there are
		// sections: then it is in all of them.
		dfs[ti] = min(dfs[ti], ix.secs)
		if dfs[ti] > 0 {
			idf[ti] = math.Log(1 + (n-float64(dfs[ti])+0.5)/(float64(dfs[ti])+0.5))
		}
	}
	ix.markAbsent(q, dfs)
	order := make([]int, len(q.terms))
	for i := range order {
		order[i] = i
	}
	slices.SortStableFunc(order, func(a, b int) int { return dfs[a] - dfs[b] })
	for _, ti := range order {
		if dfs[ti] == 0 {
			continue
		}
		grow := len(s.touched) == 0 || dfs[ti] <= max(ix.secs/commonShare, minCommon)
		w := q.terms[ti].weight * idf[ti]
		bit := uint64(1) << ti
		for i, sh := range ix.shards {
			if lists[ti][i] == nil {
				continue
			}
			dlo, dhi := max(lo-ix.offs[i], 0), min(hi-ix.offs[i], len(sh.docs))
			if dlo >= dhi {
				continue
			}
			ix.accumulate(s, sh, ix.bases[i], lists[ti][i], sh.first[dlo], sh.first[dhi], w, bit, grow)
		}
	}

	// Score each section by how much of the question it holds: a section
	// with all of its words beats one with some.
	type scored struct {
		id         uint32
		score, raw float64
	}
	best := make([]scored, 0, k+1)
	weights, total := q.groupWeights(idf)
	if total == 0 {
		return nil, nil
	}
	// The coverage of each set of terms held, worked out once: a question
	// has few sets of them (a slot each, by a hash of the set).
	var covBits [64]uint64
	var covs [64]float64
	for _, id := range s.touched {
		a := s.acc[id]
		bits := a.bits
		slot := bits * 0x9E3779B97F4A7C15 >> 58
		if covBits[slot] != bits {
			covBits[slot], covs[slot] = bits, q.coverage(bits, weights)/total
		}
		cov := covs[slot]
		sc := float64(a.score) * cov
		if len(best) == k && sc < best[k-1].score {
			continue
		}
		// best stays in order, best first, equal scores in section
		// order (path, then line order): k is small.
		i := 0
		for i < len(best) && (best[i].score > sc || best[i].score == sc && best[i].id < id) {
			i++
		}
		if i == k {
			continue
		}
		best = slices.Insert(best, i, scored{id, sc, float64(a.score)})
		if len(best) > k {
			best = best[:k]
		}
	}
	hits := make([]Hit, len(best))
	for i, e := range best {
		hits[i] = ix.hit(e.id, e.raw, s.acc[e.id].bits)
	}
	return hits, idf
}

// accumulate adds one term's part of the score of the sections from to
// to (within shard sh, whose first section is base) from its postings
// list: each section that holds the word in a field, and each section of
// a doc whose title, front matter or file name holds it. The two parts
// add up in either order, so each list is walked alone.
// When grow is false, only the sections found already are added to.
func (ix *Index) accumulate(s *scratch, sh *shard, base uint32, list []byte, from, to uint32, w float64, bit uint64, grow bool) {
	nsec, ndocs, secs, docList := counts(list)
	wf := float32(w)
	accs := s.acc[base:]

	// The sections' postings are most of a question's work.
	if grow {
		s.touched = growSections(accs, ix.tf, sh.cls, secs, nsec, from, to, wf, bit, base, s.touched)
	} else {
		addSections(accs, ix.tf, sh.cls, secs, nsec, from, to, wf, bit)
	}
	add := func(sec uint32, tf float32) {
		if sec-from >= to-from {
			return
		}
		a := &accs[sec]
		if a.bits == 0 {
			if !grow {
				return
			}
			s.touched = append(s.touched, base+sec)
		}
		a.bits |= bit
		a.score += wf * tf
	}
	var lastDoc uint32
	for range ndocs {
		var v uint64
		v, docList = uvarint(docList)
		flags := byte(v & (1<<flagBits - 1))
		lastDoc += uint32(v >> flagBits)
		doc := lastDoc - 1
		var meta float32
		if flags&inTitle != 0 {
			meta += weightTitle
		}
		if flags&inMeta != 0 {
			meta += weightMeta
		}
		if flags&inFileName != 0 {
			meta += weightFileName
		}
		if flags&inKeyword != 0 {
			meta += weightKeyword
		}
		for sec := sh.first[doc]; sec < sh.first[doc+1]; sec++ {
			add(sec, meta)
		}
	}
}

// growSections adds a word's part to the sections of its postings secs
// (n of them, see posting) from to to: its count in the body, saturated
// and normalised by the body's length (BM25), plus the weight of each
// heading field that holds it (tab, by the body's length class, cls, and
// the posting's flags; see tfTable), times wf. It appends the sections found for the
// first time to touched (as base + their number) and returns it.
func growSections(accs []acc, tab []float32, cls []uint8, secs []byte, n uint64, from, to uint32, wf float32, bit uint64, base uint32, touched []uint32) []uint32 {
	var last uint32
	for range n {
		var v uint64
		if secs[0] < 0x80 {
			v, secs = uint64(secs[0]), secs[1:]
		} else {
			v, secs = uvarint(secs)
		}
		last += uint32(v >> codeBits)
		sec := last - 1
		flags := byte(v&(1<<codeBits-1)+1) << tfShift
		if v&(1<<codeBits-1) == flagsNext {
			flags, secs = secs[0], secs[1:]
		}
		if sec-from >= to-from { // sec < from or sec >= to
			continue
		}
		a := &accs[sec]
		if a.bits == 0 {
			touched = append(touched, base+sec)
		}
		a.bits |= bit
		a.score += wf * tab[int(cls[sec])<<flagBits|int(flags)]
	}
	return touched
}

// addSections adds a word's part, as growSections does, to the sections of
// its postings that were found already, and only to those: without a
// branch, as whether one was found cannot be told in advance (a common
// word's postings, walked after a rarer word's).
func addSections(accs []acc, tab []float32, cls []uint8, secs []byte, n uint64, from, to uint32, wf float32, bit uint64) {
	var last uint32
	for range n {
		var v uint64
		if secs[0] < 0x80 {
			v, secs = uint64(secs[0]), secs[1:]
		} else {
			v, secs = uvarint(secs)
		}
		last += uint32(v >> codeBits)
		sec := last - 1
		flags := byte(v&(1<<codeBits-1)+1) << tfShift
		if v&(1<<codeBits-1) == flagsNext {
			flags, secs = secs[0], secs[1:]
		}
		if sec-from >= to-from {
			continue
		}
		a := &accs[sec]
		var on uint64
		if a.bits != 0 {
			on = 1
		}
		a.bits |= bit & -on
		a.score += float32(on) * wf * tab[int(cls[sec])<<flagBits|int(flags)]
	}
}

// markAbsent marks the identifiers of q that no section holds as written
// (dfs: each term's sections) and that have parts: their parts weigh as
// plain words (a question's std::vector::at, where the docs say vector
// and at apart), and q's terms become its own.
func (ix *Index) markAbsent(q *Question, dfs []int) {
	var absent []bool
	for ti, t := range q.terms {
		if t.part || dfs[ti] > 0 || ti+1 == len(q.terms) || !q.terms[ti+1].part || q.terms[ti+1].group != t.group {
			continue
		}
		if absent == nil {
			absent = make([]bool, len(q.groups))
		}
		absent[t.group] = true
	}
	if absent == nil {
		return
	}
	q.absent = absent
	q.terms = slices.Clone(q.terms)
	for i, t := range q.terms {
		if t.part && absent[t.group] {
			q.terms[i].weight = 1
		}
	}
}

// groupWeights returns each group's weight in a section's coverage (its
// best term's weighted rarity) and their sum.
func (q Question) groupWeights(idf []float64) ([]float64, float64) {
	ws := make([]float64, len(q.groups))
	for i, t := range q.terms {
		if !t.part || q.absent != nil && q.absent[t.group] {
			ws[t.group] = max(ws[t.group], t.weight*idf[i])
		}
	}
	var total float64
	for _, w := range ws {
		total += w
	}
	return ws, total
}

// coverage is how much of the question (by group weights) a section that
// holds the terms in bits answers: a group counts whole when its word is
// held, and an identifier's group in part for the share of its parts held.
func (q Question) coverage(bits uint64, weights []float64) float64 {
	var cov float64
	credit := make([]float64, len(q.groups))
	parts := make([]int, len(q.groups))
	held := make([]int, len(q.groups))
	for i, t := range q.terms {
		has := bits&(1<<i) != 0
		if !t.part {
			if has {
				credit[t.group] = 1
			}
			continue
		}
		parts[t.group]++
		if has {
			held[t.group]++
		}
	}
	for g, w := range weights {
		c := credit[g]
		if c == 0 && parts[g] > 0 {
			c = 0.5 * float64(held[g]) / float64(parts[g])
			if q.absent != nil && q.absent[g] {
				c *= 2
			}
		}
		cov += w * c
	}
	return cov
}

// hit describes section id (over the whole index).
func (ix *Index) hit(id uint32, score float64, bits uint64) Hit {
	i := sortSearch(len(ix.bases), func(i int) bool { return ix.bases[i] > id }) - 1
	sh := ix.shards[i]
	sec := id - ix.bases[i]
	d := sh.docOf(sec)
	heading := int(sec - sh.first[d])
	if sh.pre[d] {
		heading--
	}
	return Hit{Doc: sh.docs[d], Heading: heading, Score: score, bits: bits}
}

// counts reads the head of a word's postings (see posting): how many
// sections and docs hold it, and their postings.
func counts(list []byte) (nsec, ndocs uint64, secs, docList []byte) {
	h, rest := uvarint(list)
	nsec = h >> 1
	if h&1 == 0 {
		return nsec, 0, rest, nil
	}
	ndocs, rest = uvarint(rest)
	secBytes, rest := uvarint(rest)
	return nsec, ndocs, rest[:secBytes], rest[secBytes:]
}

func uvarint(b []byte) (uint64, []byte) {
	v, n := binary.Uvarint(b)
	return v, b[n:]
}

func sortSearch(n int, f func(int) bool) int {
	lo, hi := 0, n
	for lo < hi {
		m := int(uint(lo+hi) >> 1)
		if !f(m) {
			lo = m + 1
		} else {
			hi = m
		}
	}
	return lo
}

// Identifiers returns the question's identifiers and codes (player.joined,
// mod_read_doc, C2065), folded.
func (q Question) Identifiers() []string {
	var out []string
	for _, t := range q.terms {
		if !t.part && t.weight == weightIdent {
			out = append(out, t.text)
		}
	}
	return out
}
