package search

import (
	"encoding/binary"
	"fmt"
	"iter"
	"math"
	"math/bits"
	"runtime"
	"slices"
	"sort"
	"strings"
	"sync"
	"time"
	"unicode/utf8"

	"github.com/docs-mcp/docs-mcp/mcp-server/internal/docs"
)

// Index answers Matches without reading every line: it keeps, for every
// n-gram of fold classes (see below), the docs that contain it, and verifies
// only the docs that contain all of a query's n-grams.
//
// An Index describes one snapshot and never changes; a new snapshot gets a
// new index (see IndexOf).
type Index struct {
	snap  *docs.Snapshot
	shift uint     // a gram's bucket is its hash >> shift
	start []uint32 // bucket b's posting list is data[start[b]:start[b+1]]
	dense []uint64 // bit b set: bucket b's posting list is a bitmap, else deltas
	data  []byte
	stats IndexStats
}

// IndexStats describes an index.
type IndexStats struct {
	Docs       int
	Buckets    int
	Postings   int           // (doc, bucket) pairs
	Bytes      int           // memory held by the index, not counting the corpus
	BuildTime  time.Duration // wall time NewIndex took
	DenseLists int           // posting lists stored as bitmaps
}

// Stats describes the index.
func (ix *Index) Stats() IndexStats { return ix.stats }

// Snapshot returns the snapshot the index describes.
func (ix *Index) Snapshot() *docs.Snapshot { return ix.snap }

// NewIndex indexes snap, using every core.
func NewIndex(snap *docs.Snapshot) (*Index, error) {
	begin := time.Now()
	all := snap.Docs()
	var corpus int64
	for _, d := range all {
		corpus += d.Size
	}
	if len(all) >= math.MaxUint32 {
		return nil, fmt.Errorf("index docs: %d docs are more than an index can number", len(all))
	}
	// About one bucket per 64 corpus bytes: far more buckets than distinct
	// grams in real text, so few lists share a bucket.
	bucketBits := uint(min(max(bits.Len64(uint64(corpus/64)), 10), 24))
	ix := &Index{snap: snap, shift: 64 - bucketBits}
	nb := 1 << bucketBits

	// Phase 1, in parallel over runs of docs: the distinct buckets of each doc.
	workers := runtime.GOMAXPROCS(0)
	chunks := split(all, workers)
	var wg sync.WaitGroup
	for _, c := range chunks {
		wg.Go(func() { c.collect(all, ix.shift, nb) })
	}
	wg.Wait()

	// Phase 2, in parallel over ranges of buckets: each list's encoded size.
	size := make([]uint32, nb+1)
	last := make([]uint32, nb) // 1 + the last doc added to a bucket; 0 for none
	for _, r := range bucketRanges(nb, workers) {
		wg.Go(func() {
			walk(chunks, r, func(doc uint32, b uint32) {
				size[b] += uint32(uvarintLen(doc + 1 - last[b]))
				last[b] = doc + 1
			})
		})
	}
	wg.Wait()

	// Lay the lists out: a list bigger than a bitmap of every doc becomes
	// one. That keeps the index small (a gram found in most docs costs
	// n/8 bytes) and makes intersecting common grams a word-wise test.
	bitmapBytes := (len(all) + 63) / 64 * 8
	ix.start = make([]uint32, nb+1)
	ix.dense = make([]uint64, (nb+63)/64)
	var total uint64
	for b := range nb {
		ix.start[b] = uint32(total)
		if int(size[b]) > bitmapBytes {
			ix.dense[b/64] |= 1 << (b % 64)
			ix.stats.DenseLists++
			total += uint64(bitmapBytes)
		} else {
			total += uint64(size[b])
		}
		if total > math.MaxUint32 {
			return nil, fmt.Errorf("index docs: the posting lists pass 4 GiB; the corpus (%d bytes) is too large to index", corpus)
		}
	}
	ix.start[nb] = uint32(total)
	ix.data = make([]byte, total)

	// Phase 3, in parallel over ranges of buckets: write the lists.
	cursor := size[:nb]
	copy(cursor, ix.start[:nb])
	clear(last)
	for _, r := range bucketRanges(nb, workers) {
		wg.Go(func() {
			walk(chunks, r, func(doc uint32, b uint32) {
				if ix.isDense(b) {
					ix.data[ix.start[b]+doc/8] |= 1 << (doc % 8)
					return
				}
				cursor[b] += uint32(binary.PutUvarint(ix.data[cursor[b]:], uint64(doc+1-last[b])))
				last[b] = doc + 1
			})
		})
	}
	wg.Wait()

	for _, c := range chunks {
		ix.stats.Postings += len(c.grams)
	}
	ix.stats.Docs = len(all)
	ix.stats.Buckets = nb
	ix.stats.Bytes = len(ix.data) + 4*len(ix.start) + 8*len(ix.dense)
	ix.stats.BuildTime = time.Since(begin)
	return ix, nil
}

func (ix *Index) isDense(b uint32) bool { return ix.dense[b/64]&(1<<(b%64)) != 0 }

// chunk is a run of docs indexed by one worker.
type chunk struct {
	lo, hi int      // docs[lo:hi]
	grams  []uint32 // the distinct buckets of each doc, doc after doc
	ends   []uint32 // ends[i]: the end in grams of doc lo+i
}

// split cuts docs into about 4 runs per worker of about equal size.
func split(all []*docs.Doc, workers int) []*chunk {
	var total int64
	for _, d := range all {
		total += d.Size + 1
	}
	per := total/int64(4*workers) + 1
	var (
		out []*chunk
		lo  int
		acc int64
	)
	for i, d := range all {
		acc += d.Size + 1
		if acc >= per {
			out = append(out, &chunk{lo: lo, hi: i + 1})
			lo, acc = i+1, 0
		}
	}
	if lo < len(all) || len(out) == 0 {
		out = append(out, &chunk{lo: lo, hi: len(all)})
	}
	return out
}

func (c *chunk) collect(all []*docs.Doc, shift uint, nb int) {
	var bytes int64
	for _, d := range all[c.lo:c.hi] {
		bytes += d.Size
	}
	// Markdown averages about one distinct gram per 2.5 bytes of text;
	// guess a little high to avoid regrowing.
	c.grams = make([]uint32, 0, bytes/2)
	c.ends = make([]uint32, 0, c.hi-c.lo)
	seen := make([]uint32, nb) // seen[b] == doc+1: b is already in doc's set
	for doc := c.lo; doc < c.hi; doc++ {
		stamp := uint32(doc + 1)
		add := func(h uint64) {
			b := uint32(h >> shift)
			if seen[b] != stamp {
				seen[b] = stamp
				c.grams = append(c.grams, b)
			}
		}
		for _, line := range all[doc].Lines {
			var p1, p2 rune = -1, -1 // the classes of the two previous runes
			for i := 0; i < len(line); {
				c, size := rune(line[i]), 1
				if c < utf8.RuneSelf {
					if 'a' <= c && c <= 'z' {
						c -= 'a' - 'A'
					}
				} else {
					c, size = utf8.DecodeRuneInString(line[i:])
					c = foldClass(c)
				}
				i += size
				add(hash1(c))
				if p1 >= 0 {
					add(hash2(p1, c))
					if p2 >= 0 {
						add(hash3(p2, p1, c))
					}
				}
				p2, p1 = p1, c
			}
		}
		c.ends = append(c.ends, uint32(len(c.grams)))
	}
	c.grams = slices.Clip(c.grams)
}

// bucketRange is a half-open range of buckets.
type bucketRange struct{ lo, hi uint32 }

func bucketRanges(nb, workers int) []bucketRange {
	out := make([]bucketRange, workers)
	for w := range workers {
		out[w] = bucketRange{uint32(nb * w / workers), uint32(nb * (w + 1) / workers)}
	}
	return out
}

// walk calls f for every (doc, bucket) pair with the bucket in r, in doc
// order.
func walk(chunks []*chunk, r bucketRange, f func(doc, b uint32)) {
	for _, c := range chunks {
		from := uint32(0)
		for i, end := range c.ends {
			doc := uint32(c.lo + i)
			for _, b := range c.grams[from:end] {
				if r.lo <= b && b < r.hi {
					f(doc, b)
				}
			}
			from = end
		}
	}
}

// A gram is one, two or three consecutive fold classes within a line. The
// three sizes hash apart (the top bits tag the size; classes fit in 21
// bits).
func hash1(c rune) uint64       { return mix(uint64(c) | 1<<63) }
func hash2(b, c rune) uint64    { return mix(uint64(b)<<21 | uint64(c) | 1<<62) }
func hash3(a, b, c rune) uint64 { return mix(uint64(a)<<42 | uint64(b)<<21 | uint64(c)) }

func mix(x uint64) uint64 {
	x *= 0x9E3779B97F4A7C15
	x ^= x >> 32
	x *= 0xD6E8FEB86659FD93
	return x
}

// Matches yields the same matches as the package-level Matches on the
// index's snapshot, in the same order.
func (ix *Index) Matches(q Query, after Position) iter.Seq[Match] {
	if q.Text == "" || !utf8.ValidString(q.Text) {
		// An empty query matches every line, and invalid UTF-8 can match
		// inside a rune: n-grams of runes cannot narrow either down.
		return Matches(ix.snap, q, after)
	}
	buckets := ix.queryBuckets(q.Text)
	m := NewMatcher(q.Text, q.CaseSensitive)
	return func(yield func(Match) bool) {
		cs := make([]postings, len(buckets))
		for i, b := range buckets {
			cs[i] = ix.postings(b)
			if cs[i].empty() {
				return
			}
		}
		// The shortest sparse list drives; bitmaps only answer "is d in?".
		slices.SortFunc(cs, func(a, b postings) int {
			if a.dense != b.dense {
				if a.dense {
					return 1
				}
				return -1
			}
			return len(a.data) - len(b.data)
		})
		all := ix.snap.Docs()
		lo := ix.snap.From(max(after.Path, q.PathPrefix))
		hi := lo + sort.Search(len(all)-lo, func(i int) bool { return !strings.HasPrefix(all[lo+i].Path, q.PathPrefix) })
		for d := lo; ; d++ {
			d = intersect(cs, d)
			if d >= hi {
				return
			}
			first := 0
			if all[d].Path == after.Path {
				first = after.Line
			}
			if !scanDoc(all[d], first, m, yield) {
				return
			}
		}
	}
}

// queryBuckets returns the distinct buckets of the grams every matching
// line must hold: the class of a one-rune query, the pair of a two-rune
// query, else every triple.
func (ix *Index) queryBuckets(text string) []uint32 {
	var cls []rune
	for _, r := range text {
		cls = append(cls, foldClass(r))
	}
	var hs []uint64
	switch len(cls) {
	case 1:
		hs = append(hs, hash1(cls[0]))
	case 2:
		hs = append(hs, hash2(cls[0], cls[1]))
	default:
		for i := 2; i < len(cls); i++ {
			hs = append(hs, hash3(cls[i-2], cls[i-1], cls[i]))
		}
	}
	out := make([]uint32, 0, len(hs))
	for _, h := range hs {
		b := uint32(h >> ix.shift)
		if !slices.Contains(out, b) {
			out = append(out, b)
		}
	}
	return out
}

// postings reads one posting list in doc order.
type postings struct {
	dense bool
	data  []byte // deltas as uvarints, or a bitmap of n bits
	n     int    // number of docs
	pos   int
	cur   int // the current doc; -1 before the first
}

func (ix *Index) postings(b uint32) postings {
	return postings{
		dense: ix.isDense(b),
		data:  ix.data[ix.start[b]:ix.start[b+1]],
		n:     ix.stats.Docs,
		cur:   -1,
	}
}

func (p *postings) empty() bool { return len(p.data) == 0 }

// seek returns the first doc >= d in the list, or n when there is none. d
// must not decrease from one call to the next.
func (p *postings) seek(d int) int {
	if p.dense {
		if d >= p.n {
			return p.n
		}
		w := d / 64
		word := binary.LittleEndian.Uint64(p.data[w*8:]) >> (d % 64) << (d % 64)
		for word == 0 {
			w++
			if w*8 >= len(p.data) {
				return p.n
			}
			word = binary.LittleEndian.Uint64(p.data[w*8:])
		}
		return w*64 + bits.TrailingZeros64(word)
	}
	for p.cur < d {
		if p.pos >= len(p.data) {
			p.cur = p.n
			break
		}
		if c := p.data[p.pos]; c < 0x80 {
			p.cur += int(c)
			p.pos++
			continue
		}
		v, k := binary.Uvarint(p.data[p.pos:])
		p.cur += int(v)
		p.pos += k
	}
	return p.cur
}

// intersect returns the first doc >= d in every list, or n.
func intersect(cs []postings, d int) int {
	for i := 0; i < len(cs); {
		x := cs[i].seek(d)
		if x == d {
			i++
			continue
		}
		d = x
		if x >= cs[i].n {
			return x
		}
		if i > 0 {
			i = 0
		} else {
			i = 1
		}
	}
	return d
}

// uvarintLen is the length of v as a uvarint.
func uvarintLen(v uint32) int {
	return (bits.Len32(v|1) + 6) / 7
}
