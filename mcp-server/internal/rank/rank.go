// Package rank answers a question with the sections of the docs most
// likely to answer it, best first: the ranked path beside the substring
// search (package search), which finds every line that contains a text,
// in path order.
//
// A section is a heading's own text, from the heading to the next heading
// of any level (the text above a doc's first heading is one too). Each is
// scored with BM25F (Robertson and Zaragoza's BM25 over weighted fields):
// a word counts in the section's body, its own heading, the headings above
// it, and the doc's title, front matter (description, keywords, tags) and
// file name, each field with its weight; a word's counts saturate, long
// bodies are normalised, and rare words weigh more than common ones. A
// section that holds all of a question's words beats one that holds some
// of them. docs/server/ranking.md says the rules in prose; the wiki's
// search follows the same ones.
//
// The corpus builds a snapshot's Index as it builds its search index (see
// Build), and a ranked question waits for it (Await): a request never
// builds, tokenises or scores anything but the question.
//
// Rules measured on every question set of the ranked measure
// (mcp-server/internal/mcpserver/ranked_answer_test.go) and left out,
// because a held-out set lost by them or no tuning set gained:
//
//   - Snowball (Porter2) stemming: it joins cancellation and cancel, but
//     also typed and type, container and contain; both tuning sets lost,
//     and the index took two to four times as long to build;
//   - the doc's score in its sections': the whole doc's coverage of the
//     question, a BM25 over the whole doc, a doc's sections among the best
//     adding to each other, or 30 to 100 sections scored again instead of
//     rerankDepth: the neighbouring page a question goes to holds as much
//     of it as the answering one;
//   - words near each other (pairs of the question's words within 1 to 16
//     words, in order or not, as a factor or added): the passage already
//     rewards them; held-out sets lost, or answers grew by 200 to 400
//     bytes;
//   - words added to the question, from the best sections (pseudo-relevance
//     feedback, RM3; five times a question's cost) or from WordNet (its
//     synonyms, similar, attribute and derived words): common senses add
//     noise, and it lacks the links the misses need (URL and endpoint);
//   - the labels of links to a section (anchor text) as a field of it: on
//     both trees a label repeats the heading or title it points to, and
//     adds no word of any question;
//   - before these: passages of four lines, a bonus for heading words, C++
//     as one word, the title's length, squared coverage, and front matter
//     weighed by its length.
//
// What is left is vocabulary. Of the 13 questions of cpp-docs.json whose
// first section is in another doc, the answering doc holds more of the
// question's words in 3; in 7 it holds as many or fewer, and in 3 too few
// to be among the 200 best.
package rank

import (
	"cmp"
	"encoding/binary"
	"fmt"
	"hash/maphash"
	"math"
	"path"
	"slices"
	"sort"
	"strings"
	"sync"

	"github.com/docs-mcp/docs-mcp/mcp-server/internal/docs"
	"github.com/docs-mcp/docs-mcp/mcp-server/terms"
)

// The weights of a word in each field of a section, against at most 1 for
// its body: the body's count saturates (BM25's k1) and is normalised by
// the body's length (b), and each other field that holds the word adds
// its weight, unsaturated, so that a word in a heading or a title counts
// more than any number of uses in the text. The weights were set on the
// questions of
// mcp-server/internal/mcpserver/testdata/answers/questions.json (the
// held-out questions beside them were not looked at until they were set).
const (
	weightHeading  = 2.0 // the section's own heading
	weightTrail    = 0.7 // a heading above it, below the doc's title
	weightTitle    = 1.5 // the doc's title
	weightMeta     = 0.7 // the doc's front matter: description, keywords, tags
	weightFileName = 0.7 // the doc's file name
	weightKeyword  = 1.5 // a whole item of the doc's keyword lists: the doc is the page for it

	// k1 is how fast a word's count saturates, b how much a long body is
	// normalised (BM25's usual values).
	k1 = 1.2
	b  = 0.75

	// weightIdent multiplies the weight of an identifier or code in the
	// question (player.joined, mod_read_doc, C2065): what it names is
	// what the asker wants; its parts count at weightPart each.
	weightIdent = 2.0
	weightPart  = 0.5
)

// ShardBytes is about how much text one shard of an index covers: an edit
// ranks again the shard of the doc it touched.
const ShardBytes = 8 << 20

// Index ranks the sections of one snapshot. It never changes; the index
// of a later snapshot shares the shards whose docs did not change.
type Index struct {
	snap   *docs.Snapshot
	seed   maphash.Seed
	shards []*shard
	offs   []int    // shard i holds snap.Docs()[offs[i]:...]
	bases  []uint32 // shard i's first section, over the whole index
	secs   int      // sections in all
	words  uint64   // body words in all
	// tf is a word's part in a section by the section's length class and
	// the posting's flags (tf[cls<<flagBits|flags], see fieldTF): the
	// body's count saturated and normalised, plus the headings' weights,
	// worked out once for the index rather than for each posting read.
	tf []float32
}

// shard holds the sections of a run of docs (in path order) and the
// postings of their words.
type shard struct {
	docs  []*docs.Doc
	first []uint32 // doc d's sections are first[d] to first[d+1]-1
	pre   []bool   // doc d's first section is its text above its first heading
	cls   []uint8  // per section, its body's length class (see lenClass)
	words uint64   // body words in all

	keys []uint64 // word hashes, sorted
	at   []uint32 // keys[i]'s postings are data[at[i]:at[i+1]]
	data []byte   // per word: see posting
}

// A word's postings: the number of sections that hold it, shifted left by
// 1 above a bit set when docs hold it too in their title, front matter or
// file name, and then the number of those docs and the length in bytes of
// the sections' postings; then each section as its number (from
// 1 + the previous one) shifted left by 2 above a code: 0 to 2 for a word
// used once to three times in the body and in no heading (most postings),
// 3 for a byte of flags after it; then each doc as its number (from 1 +
// the previous one) shifted left by flagBits above its flags. All numbers
// are uvarints: the posting of a word in one section in thirty is one
// byte.
const (
	inHeading = 1 << 0 // section flags: the word is in the section's heading
	inTrail   = 1 << 1 // in a heading above it (the title's excepted)
	tfShift   = 2      // the word's count in the body, saturated at maxTF, above the flags
	maxTF     = 15     // BM25's count saturates: the fifteenth use adds a fiftieth of the first
	flagBits  = 6      // a posting's flags: the count (4 bits) and two fields
	codeBits  = 2      // a section posting's code: its count, or flags to follow
	flagsNext = 3      // the code of a section posting whose flags follow it

	inTitle    = 1 << 0 // doc flags
	inMeta     = 1 << 1
	inFileName = 1 << 2
	inKeyword  = 1 << 3 // a whole item of a keyword list (f1_keywords: ["C2065"])
)

// Stats describes an index.
type Stats struct {
	Docs, Sections, Words int
	Bytes                 int // memory held, not counting the docs
	ReusedDocs            int
}

// Stats describes the index.
func (ix *Index) Stats() Stats {
	st := Stats{Docs: len(ix.snap.Docs()), Sections: ix.secs}
	for _, sh := range ix.shards {
		st.Words += len(sh.keys)
		st.Bytes += 8*len(sh.keys) + 4*len(sh.at) + len(sh.data) + 4*len(sh.first) + len(sh.pre) + len(sh.cls)
	}
	st.Bytes += 4 * len(ix.tf)
	return st
}

// New ranks the docs of snap, reusing the shards of prev (an index of an
// earlier snapshot, or nil) whose docs are all still there, unchanged.
func New(snap *docs.Snapshot, prev *Index) (*Index, error) {
	all := snap.Docs()
	if len(all) >= math.MaxUint32 {
		return nil, fmt.Errorf("rank docs: %d docs are more than an index can number", len(all))
	}
	ix := &Index{snap: snap}
	var old []*shard
	if prev != nil {
		ix.seed, old = prev.seed, prev.shards
	} else {
		ix.seed = maphash.MakeSeed()
	}
	runs := plan(all, old)
	ix.shards = make([]*shard, len(runs))
	var wg sync.WaitGroup
	var errs []error
	var mu sync.Mutex
	// One worker: the first build runs beside the search index's, which
	// takes the cores, and a later one beside requests.
	sem := make(chan struct{}, 1)
	for i, r := range runs {
		if r.reuse != nil {
			cp := *r.reuse
			cp.docs = r.docs // the new snapshot's docs, so the old snapshot can go
			ix.shards[i] = &cp
			continue
		}
		wg.Go(func() {
			sem <- struct{}{}
			defer func() { <-sem }()
			sh, err := newShard(ix.seed, r.docs)
			mu.Lock()
			defer mu.Unlock()
			if err != nil {
				errs = append(errs, err)
				return
			}
			ix.shards[i] = sh
		})
	}
	wg.Wait()
	if len(errs) > 0 {
		return nil, errs[0]
	}
	off := 0
	ix.offs, ix.bases = make([]int, len(runs)), make([]uint32, len(runs))
	for i, sh := range ix.shards {
		ix.offs[i], ix.bases[i] = off, uint32(ix.secs)
		off += len(sh.docs)
		ix.secs += len(sh.cls)
		ix.words += sh.words
	}
	ix.tf = tfTable(max(float64(ix.words)/float64(max(ix.secs, 1)), 1))
	return ix, nil
}

// classStep is the ratio of the lengths of two length classes past the
// first 64 (a class per length up to 63 words): a body's length is known
// to 2%, which moves its normalised count by less than 1%.
const classStep = 1.04

// lenClass is the length class of a body of n words: n up to 63, then one
// class per classStep.
func lenClass(n uint64) uint8 {
	if n < 64 {
		return uint8(n)
	}
	return uint8(min(64+math.Round(math.Log(float64(n)/64)/math.Log(classStep)), math.MaxUint8))
}

// classLen is the length a length class stands for.
func classLen(c uint8) float64 {
	if c < 64 {
		return float64(c)
	}
	return 64 * math.Pow(classStep, float64(c-64))
}

// tfTable works out a word's part in a section for each length class and
// posting flags, for bodies avg words long on average: its count in the
// body, saturated and normalised by the body's length (BM25), plus the
// weight of each heading field that holds it.
func tfTable(avg float64) []float32 {
	tab := make([]float32, (math.MaxUint8+1)<<flagBits)
	for c := range math.MaxUint8 + 1 {
		norm := 1 - b + b*classLen(uint8(c))/avg
		for f := range 1 << flagBits {
			var tf float64
			if n := float64(f >> tfShift); n > 0 {
				n /= norm
				tf = n / (k1 + n)
			}
			if f&inHeading != 0 {
				tf += weightHeading
			}
			if f&inTrail != 0 {
				tf += weightTrail
			}
			tab[c<<flagBits|f] = float32(tf)
		}
	}
	return tab
}

// run is a run of docs that becomes one shard: reuse when the previous
// index has it.
type run struct {
	docs  []*docs.Doc
	reuse *shard
}

// plan cuts all into runs: each of prev's shards keeps its path range
// (from its first path to the next shard's), reused when its docs are
// exactly the same; a new or changed range is cut again at about
// ShardBytes.
func plan(all []*docs.Doc, prev []*shard) []run {
	if len(prev) == 0 {
		return cut(all)
	}
	var out []run
	lo := 0
	for i, sh := range prev {
		hi := len(all)
		if i+1 < len(prev) {
			next := prev[i+1].docs[0].Path
			hi = lo + sort.Search(len(all)-lo, func(k int) bool { return all[lo+k].Path >= next })
		}
		switch r := all[lo:hi]; {
		case len(r) == 0:
		case slices.Equal(r, sh.docs):
			out = append(out, run{docs: r, reuse: sh})
		default:
			out = append(out, cut(r)...)
		}
		lo = hi
	}
	return out
}

// cut splits docs into runs of about ShardBytes of text.
func cut(all []*docs.Doc) []run {
	var out []run
	var acc int64
	lo := 0
	for i, d := range all {
		if acc += d.Size + 1; acc >= ShardBytes {
			out = append(out, run{docs: all[lo : i+1]})
			lo, acc = i+1, 0
		}
	}
	if lo < len(all) || len(out) == 0 {
		out = append(out, run{docs: all[lo:]})
	}
	return out
}

// posting is one (word, section) or (word, doc) pair while a shard is
// built.
type posting struct {
	key   uint64
	id    uint32 // section or doc, within the shard
	doc   bool   // id is a doc: the word is in its title, front matter or file name
	flags uint8
}

// builder collects one shard's postings.
type builder struct {
	seed    maphash.Seed
	sh      *shard
	posts   []posting
	tf      map[uint64]int // the current section's words: count in the body, -1 only in headings
	head    map[uint64]uint8
	meta    map[uint64]uint8
	buf     []byte
	scratch []byte
}

func newShard(seed maphash.Seed, run []*docs.Doc) (*shard, error) {
	bd := &builder{
		seed: seed,
		sh:   &shard{docs: run, first: make([]uint32, 0, len(run)+1), pre: make([]bool, len(run))},
		tf:   map[uint64]int{}, head: map[uint64]uint8{}, meta: map[uint64]uint8{},
	}
	var text []byte
	for i, d := range run {
		t, _ := d.TextIn(&text)
		bd.doc(i, d.Path, t)
	}
	bd.sh.first = append(bd.sh.first, uint32(len(bd.sh.cls)))
	if err := bd.encode(); err != nil {
		return nil, err
	}
	return bd.sh, nil
}

// doc adds the sections of doc i, at docPath, whose text is given.
func (bd *builder) doc(i int, docPath, text string) {
	sh := bd.sh
	sh.first = append(sh.first, uint32(len(sh.cls)))
	clear(bd.meta)
	addMeta := func(s string, flag uint8) {
		terms.Each(s, &bd.buf, func(w terms.Word) { bd.meta[keyOf(bd.seed, w.Text)] |= flag })
	}
	addMeta(docs.Title(docPath, text), inTitle)
	name := strings.TrimSuffix(path.Base(docPath), path.Ext(docPath))
	addMeta(name, inFileName)
	body := metaValues(text, func(key, v string) {
		addMeta(v, inMeta)
		if isKeywordKey(key) {
			keywordItems(v, func(item string) {
				if w, ok := oneWord(item, &bd.buf); ok {
					bd.meta[keyOf(bd.seed, w)] |= inKeyword
				}
			})
		}
	})
	for k, f := range bd.meta {
		bd.posts = append(bd.posts, posting{key: k, id: uint32(i), doc: true, flags: f})
	}

	hs := docs.Headings(text)
	// The headings above the current one, by level.
	var trail [7]string
	h := 0 // the next heading
	line := 0
	clear(bd.tf)
	clear(bd.head)
	var n uint64 // body words of the current section
	sec := -1    // the current section's heading, -1 above the first
	flush := func() {
		if sec < 0 && len(bd.tf) == 0 {
			return // nothing above the first heading
		}
		if sec < 0 {
			sh.pre[i] = true
		}
		id := uint32(len(sh.cls))
		sh.cls = append(sh.cls, lenClass(n))
		sh.words += n
		for k, c := range bd.tf {
			f := bd.head[k]
			if c > 0 {
				f |= uint8(min(c, maxTF)) << tfShift
			}
			bd.posts = append(bd.posts, posting{key: k, id: id, flags: f})
		}
		clear(bd.tf)
		clear(bd.head)
		n = 0
	}
	// A setext heading's Line is its text's; the underline after it
	// (=== or ---) holds no words.
	for l := range strings.Lines(text) {
		line++
		if line < body {
			continue
		}
		if h < len(hs) && hs[h].Line == line {
			flush()
			hd := hs[h]
			sec = h
			h++
			trail[hd.Level] = terms.Heading(hd.Text)
			for lv := hd.Level + 1; lv < len(trail); lv++ {
				trail[lv] = ""
			}
			// A level-1 heading is the doc's title, weighed as the title (a
			// field of every section of the doc): its words are marked as
			// held by its own section, for the question's coverage, with no
			// weight of their own; nor is it a heading above the others.
			flag := uint8(inHeading)
			if hd.Level == 1 {
				flag = 0
			}
			bd.heading(trail[hd.Level], flag)
			for lv := 2; lv < hd.Level; lv++ {
				bd.heading(trail[lv], inTrail)
			}
			continue
		}
		terms.Each(terms.Prose(l), &bd.buf, func(w terms.Word) {
			bd.tf[keyOf(bd.seed, w.Text)]++
			n++
		})
	}
	flush()
}

// oneWord returns the word that is the whole of s (a name, a code, an
// identifier), if s is one word.
func oneWord(s string, buf *[]byte) (string, bool) {
	var whole string
	n := 0
	terms.Each(s, buf, func(w terms.Word) {
		if !w.Part {
			whole = strings.Clone(w.Text)
			n++
		}
	})
	return whole, n == 1
}

// heading marks the words of a heading's text as held by the current
// section, in the field flag (0: held, in no field of weight).
func (bd *builder) heading(text string, flag uint8) {
	terms.Each(text, &bd.buf, func(w terms.Word) {
		k := keyOf(bd.seed, w.Text)
		bd.head[k] |= flag
		if _, ok := bd.tf[k]; !ok {
			bd.tf[k] = 0
		}
	})
}

// encode sorts the postings collected and lays them out.
func (bd *builder) encode() error {
	ps := bd.posts
	slices.SortFunc(ps, func(a, b posting) int {
		if c := cmp.Compare(a.key, b.key); c != 0 {
			return c
		}
		if a.doc != b.doc {
			if a.doc {
				return 1
			}
			return -1
		}
		return cmp.Compare(a.id, b.id)
	})
	sh := bd.sh
	var data []byte
	for i := 0; i < len(ps); {
		j := i
		for j < len(ps) && ps[j].key == ps[i].key {
			j++
		}
		k := i
		for k < j && !ps[k].doc {
			k++
		}
		sh.keys = append(sh.keys, ps[i].key)
		sh.at = append(sh.at, uint32(len(data)))
		// The counts first, and the sections' postings' length, so that
		// a word's rarity is read without its postings, and its docs'
		// postings without the sections'.
		secs := appendSections(bd.scratch[:0], ps[i:k])
		bd.scratch = secs
		if k == j { // no doc postings
			data = binary.AppendUvarint(data, uint64(k-i)<<1)
			data = append(data, secs...)
		} else {
			data = binary.AppendUvarint(data, uint64(k-i)<<1|1)
			data = binary.AppendUvarint(data, uint64(j-k))
			data = binary.AppendUvarint(data, uint64(len(secs)))
			data = append(data, secs...)
			data = appendPostings(data, ps[k:j])
		}
		if len(data) > math.MaxUint32 {
			return fmt.Errorf("rank docs: the postings of %d docs pass 4 GiB", len(sh.docs))
		}
		i = j
	}
	sh.at = append(sh.at, uint32(len(data)))
	sh.data = slices.Clip(data)
	sh.keys, sh.at = slices.Clip(sh.keys), slices.Clip(sh.at)
	bd.posts = nil
	return nil
}

// keyOf is a word's key in an index: its 64-bit hash (a collision between
// two words of one tree is about as likely as a cosmic ray's bit flip).
func keyOf(seed maphash.Seed, w string) uint64 { return maphash.String(seed, w) }

// appendSections appends the section postings ps (in order), each as its
// number from 1 + the previous one above its code (see flagsNext).
func appendSections(data []byte, ps []posting) []byte {
	last := uint32(0)
	for _, p := range ps {
		code := uint8(flagsNext)
		if n := p.flags >> tfShift; p.flags&(inHeading|inTrail) == 0 && n >= 1 && n <= flagsNext {
			code = n - 1
		}
		data = binary.AppendUvarint(data, uint64(p.id+1-last)<<codeBits|uint64(code))
		if code == flagsNext {
			data = append(data, p.flags)
		}
		last = p.id + 1
	}
	return data
}

// appendPostings appends the doc postings ps (in order), each as its
// number from 1 + the previous one above its flags.
func appendPostings(data []byte, ps []posting) []byte {
	last := uint32(0)
	for _, p := range ps {
		data = binary.AppendUvarint(data, uint64(p.id+1-last)<<flagBits|uint64(p.flags))
		last = p.id + 1
	}
	return data
}

// postings returns the postings of key in the shard, nil when it has none.
func (sh *shard) postings(key uint64) []byte {
	i, ok := slices.BinarySearch(sh.keys, key)
	if !ok {
		return nil
	}
	return sh.data[sh.at[i]:sh.at[i+1]]
}

// docOf returns the doc (within the shard) of section s.
func (sh *shard) docOf(s uint32) int {
	d, found := slices.BinarySearch(sh.first, s)
	if !found {
		return d - 1
	}
	// Docs without sections share their first with the next: the last
	// doc whose first is s.
	for d+1 < len(sh.first) && sh.first[d+1] == s {
		d++
	}
	return d
}
