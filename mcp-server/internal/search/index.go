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
	ranges := bucketRanges(nb, workers)
	var wg sync.WaitGroup
	next := make(chan *chunk)
	for range workers {
		wg.Go(func() {
			for c := range next {
				c.collect(all, ix.shift, ranges)
			}
		})
	}
	for _, c := range chunks {
		next <- c
	}
	close(next)
	wg.Wait()

	// Phase 2, in parallel over ranges of buckets: each list's encoded size.
	// For each bucket: its size, then its write cursor; and 1 + the last
	// doc added to it (0 for none). One array keeps both in a cache line.
	type state struct{ size, last uint32 }
	st := make([]state, nb)
	parallel(len(ranges), workers, func(p int) {
		walk(chunks, p, func(doc uint32, b uint32) {
			s := &st[b]
			if s.last == doc+1 {
				return // two grams of the doc share the bucket
			}
			s.size += uint32(uvarintLen(doc + 1 - s.last))
			s.last = doc + 1
		})
	})

	// Lay the lists out: a list bigger than a bitmap of every doc becomes
	// one. That keeps the index small (a gram found in most docs costs
	// n/8 bytes) and makes intersecting common grams a word-wise test.
	bitmapBytes := (len(all) + 63) / 64 * 8
	ix.start = make([]uint32, nb+1)
	ix.dense = make([]uint64, (nb+63)/64)
	var total uint64
	for b := range nb {
		ix.start[b] = uint32(total)
		if int(st[b].size) > bitmapBytes {
			ix.dense[b/64] |= 1 << (b % 64)
			ix.stats.DenseLists++
			total += uint64(bitmapBytes)
		} else {
			total += uint64(st[b].size)
		}
		if total > math.MaxUint32 {
			return nil, fmt.Errorf("index docs: the posting lists pass 4 GiB; the corpus (%d bytes) is too large to index", corpus)
		}
	}
	ix.start[nb] = uint32(total)
	ix.data = make([]byte, total)

	// Phase 3, in parallel over ranges of buckets: write the lists.
	for b := range st {
		st[b] = state{size: ix.start[b]}
	}
	parallel(len(ranges), workers, func(p int) {
		walk(chunks, p, func(doc uint32, b uint32) {
			s := &st[b]
			if s.last == doc+1 {
				return
			}
			if ix.isDense(b) {
				s.last = doc + 1
				ix.data[s.size+doc/8] |= 1 << (doc % 8)
				return
			}
			s.size += uint32(binary.PutUvarint(ix.data[s.size:], uint64(doc+1-s.last)))
			s.last = doc + 1
		})
	})

	for _, c := range chunks {
		for _, p := range c.parts {
			ix.stats.Postings += len(p.grams)
		}
	}
	ix.stats.Docs = len(all)
	ix.stats.Buckets = nb
	ix.stats.Bytes = len(ix.data) + 4*len(ix.start) + 8*len(ix.dense)
	ix.stats.BuildTime = time.Since(begin)
	return ix, nil
}

// parallel calls f(0) to f(n-1) on up to workers goroutines.
func parallel(n, workers int, f func(int)) {
	var wg sync.WaitGroup
	next := make(chan int)
	for range min(n, workers) {
		wg.Go(func() {
			for i := range next {
				f(i)
			}
		})
	}
	for i := range n {
		next <- i
	}
	close(next)
	wg.Wait()
}

func (ix *Index) isDense(b uint32) bool { return ix.dense[b/64]&(1<<(b%64)) != 0 }

// chunk is a run of docs indexed by one worker.
type chunk struct {
	lo, hi int // docs[lo:hi]
	// parts[p] holds the distinct buckets in range p of each doc, doc
	// after doc, so that the worker for range p reads only its own.
	parts []part
}

type part struct {
	grams []uint32
	ends  []uint32 // ends[i]: the end in grams of doc lo+i
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

// gramSet is a set of buckets, emptied for each doc: an open-addressing
// table sized to the doc, small enough to stay in cache (a table over all
// buckets would miss the cache on almost every gram). A slot holds a
// generation stamp next to the bucket, so emptying it is bumping the
// stamp, not clearing memory.
type gramSet struct {
	slots []uint64 // stamp<<32 | bucket
	use   []uint64 // slots[:size for this doc]
	stamp uint64
	n     int
}

func (s *gramSet) reset(size int) {
	want := 1024
	for want < size {
		want *= 2
	}
	if len(s.slots) < want {
		s.slots = make([]uint64, want)
	}
	s.use = s.slots[:want]
	s.stamp++
	s.n = 0
}

// add reports whether b was not yet in the set.
func (s *gramSet) add(b uint32) bool {
	mask := uint32(len(s.use) - 1)
	key := s.stamp<<32 | uint64(b)
	for i := b & mask; ; i = (i + 1) & mask { // b's low bits are hash bits
		switch v := s.use[i]; {
		case v == key:
			return false
		case v>>32 != s.stamp:
			s.use[i] = key
			s.n++
			if s.n*2 > len(s.use) {
				s.grow()
			}
			return true
		}
	}
}

// grow doubles the table, keeping the current doc's buckets.
func (s *gramSet) grow() {
	old := slices.Clone(s.use)
	if 2*len(s.use) > len(s.slots) {
		s.slots = make([]uint64, 2*len(s.use))
	}
	s.use = s.slots[:2*len(s.use)]
	s.stamp++
	s.n = 0
	for _, v := range old {
		if v>>32 == s.stamp-1 {
			s.add(uint32(v))
		}
	}
}

func (c *chunk) collect(all []*docs.Doc, shift uint, ranges []bucketRange) {
	var bytes int64
	for _, d := range all[c.lo:c.hi] {
		bytes += d.Size
	}
	c.parts = make([]part, len(ranges))
	for p := range c.parts {
		// Markdown averages about one distinct gram per 2.5 bytes of
		// text; guess a little high to avoid regrowing.
		c.parts[p].grams = make([]uint32, 0, bytes/2/int64(len(ranges))+16)
		c.parts[p].ends = make([]uint32, 0, c.hi-c.lo)
	}
	partShift := bits.Len32(ranges[0].hi - 1) // buckets >> partShift is the range, when ranges are powers of two
	var (
		set gramSet
		// Most docs are mostly ASCII: their one- and two-rune grams are
		// deduplicated by bitmaps, cheaper than the set.
		uni [128 / 64]uint64
		bi  [128 * 128 / 64]uint64
	)
	for doc := c.lo; doc < c.hi; doc++ {
		set.reset(int(all[doc].Size))
		uni = [len(uni)]uint64{}
		clear(bi[:])
		add := func(h uint64) {
			b := uint32(h >> shift)
			if set.add(b) {
				p := &c.parts[b>>partShift]
				p.grams = append(p.grams, b)
			}
		}
		addBucket := func(b uint32) {
			p := &c.parts[b>>partShift]
			p.grams = append(p.grams, b)
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
				if c < 128 {
					if w, bit := c/64, uint64(1)<<(c%64); uni[w]&bit == 0 {
						uni[w] |= bit
						addBucket(uint32(hash1(c) >> shift))
					}
				} else {
					add(hash1(c))
				}
				if p1 >= 0 {
					if p1|c < 128 {
						if k := p1<<7 | c; bi[k/64]&(1<<(k%64)) == 0 {
							bi[k/64] |= 1 << (k % 64)
							addBucket(uint32(hash2(p1, c) >> shift))
						}
					} else {
						add(hash2(p1, c))
					}
					if p2 >= 0 {
						add(hash3(p2, p1, c))
					}
				}
				p2, p1 = p1, c
			}
		}
		for p := range c.parts {
			c.parts[p].ends = append(c.parts[p].ends, uint32(len(c.parts[p].grams)))
		}
	}
	for p := range c.parts {
		c.parts[p].grams = slices.Clip(c.parts[p].grams)
	}
}

// bucketRange is a half-open range of buckets.
type bucketRange struct{ lo, hi uint32 }

// bucketRanges cuts the buckets into a power-of-two number of equal ranges,
// at least one per worker.
func bucketRanges(nb, workers int) []bucketRange {
	n := 1
	for n < workers {
		n *= 2
	}
	out := make([]bucketRange, n)
	for w := range n {
		out[w] = bucketRange{uint32(nb / n * w), uint32(nb / n * (w + 1))}
	}
	return out
}

// walk calls f for every (doc, bucket) pair of range p, in doc order.
func walk(chunks []*chunk, p int, f func(doc, b uint32)) {
	for _, c := range chunks {
		from := uint32(0)
		pt := &c.parts[p]
		for i, end := range pt.ends {
			doc := uint32(c.lo + i)
			for _, b := range pt.grams[from:end] {
				f(doc, b)
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
