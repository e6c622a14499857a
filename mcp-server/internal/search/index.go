package search

import (
	"encoding/binary"
	"errors"
	"fmt"
	"iter"
	"math"
	"math/bits"
	"runtime"
	"slices"
	"sort"
	"strings"
	"sync"
	"sync/atomic"
	"time"
	"unicode/utf8"

	"github.com/docs-mcp/docs-mcp/mcp-server/internal/docs"
)

// Index answers Matches without reading every line: it keeps, for every
// n-gram of fold classes (see below), the docs that contain it, and verifies
// only the docs that contain all of a query's n-grams.
//
// The docs are cut into segments, runs of docs in path order of about
// SegmentBytes of text each, and every segment has posting lists of its
// own. An Index describes one snapshot and never changes; the index of a
// later snapshot (see Reindex) shares the segments whose docs did not
// change.
//
// The corpus builds an index before it serves the snapshot (see Build),
// and a search waits for it (see Find), so that no answer comes from part
// of the docs for want of an index.
type Index struct {
	snap *docs.Snapshot
	segs []*segment
	offs []int // segment i holds snap.Docs()[offs[i]:offs[i]+lens[i]]
	lens []int
	// An index built by Stack is in layers instead (see layers.go), and
	// segs, offs and lens are nil.
	layers []layer
	stats  IndexStats // set once every segment is built
}

// SegmentBytes is about how much text one segment of an index covers.
const SegmentBytes = 2 << 20

// UnitBytes is about how much text one posting of an index stands for:
// docs smaller than this are indexed in runs (units) of about this size,
// a larger doc is a unit of its own. A tree of thousands of 1 KB pages
// then costs about half the index it would with a posting per doc (pages
// of one tree share most of their grams), for the scan of a few more docs
// per candidate.
const UnitBytes = 4 << 10

// segment indexes a run of docs, numbered from 0 within the segment, in
// units: posting lists hold unit numbers.
type segment struct {
	docs  []*docs.Doc
	units []uint32     // unit u is docs[units[u]:units[u+1]]; nil: one doc a unit
	shift uint         // a gram's bucket is its hash >> shift
	dir   []bucketWord // buckets 64k to 64k+63 are described by dir[k]
	start []uint32     // the i-th list held is data[start[i]:start[i+1]]
	data  []byte

	corpus  int64 // bytes of text
	pairs   int   // (unit, bucket) pairs
	bitmaps int   // posting lists stored as bitmaps
}

// IndexStats describes an index.
type IndexStats struct {
	Docs        int
	CorpusBytes int64 // text indexed
	Segments    int
	Postings    int           // (doc, bucket) pairs
	Bytes       int           // memory held by the index, not counting the corpus
	BuildTime   time.Duration // wall time the build took
	DenseLists  int           // posting lists stored as bitmaps
	ReusedDocs  int           // docs in segments taken over from the previous index
	Layers      int           // layers of an index built by Stack; 0 for others
}

// Stats describes the index.
func (ix *Index) Stats() IndexStats { return ix.stats }

// Snapshot returns the snapshot the index describes.
func (ix *Index) Snapshot() *docs.Snapshot { return ix.snap }

// NewIndex indexes snap, using every core but one (see fill).
func NewIndex(snap *docs.Snapshot) (*Index, error) {
	return build(snap, nil, SegmentBytes)
}

// Reindex indexes snap, reusing the segments of prev (the index of an
// earlier snapshot, or nil) whose docs are all still in snap, unchanged
// (the same *docs.Doc, as docs.Update keeps them). Segments keep their
// path ranges from one index to the next, so an edit re-indexes only the
// segment that holds the edited doc.
func Reindex(snap *docs.Snapshot, prev *Index) (*Index, error) {
	return build(snap, prev, SegmentBytes)
}

// build indexes snap in segments of about segBytes, taking over the
// segments of prev whose docs did not change.
func build(snap *docs.Snapshot, prev *Index, segBytes int64) (*Index, error) {
	ix, todo, err := plannedIndex(snap, prev, segBytes)
	if err != nil {
		return nil, err
	}
	return ix, ix.fill(todo, prev != nil)
}

// segJob is a segment an index still has to build.
type segJob struct {
	i    int
	docs []*docs.Doc
}

// plannedIndex returns the index of snap with its segments planned, those
// taken over from prev in place, and the segments left to build.
func plannedIndex(snap *docs.Snapshot, prev *Index, segBytes int64) (*Index, []segJob, error) {
	all := snap.Docs()
	if len(all) >= math.MaxUint32 {
		return nil, nil, fmt.Errorf("index docs: %d docs are more than an index can number", len(all))
	}
	runs := plan(all, prev, segBytes)
	ix := &Index{snap: snap, segs: make([]*segment, len(runs)), offs: make([]int, len(runs)), lens: make([]int, len(runs))}
	var todo []segJob
	off := 0
	for i, r := range runs {
		ix.offs[i], ix.lens[i] = off, len(r.docs)
		off += len(r.docs)
		if r.reuse != nil {
			ix.segs[i] = r.reuse
			ix.stats.ReusedDocs += len(r.docs)
			continue
		}
		todo = append(todo, segJob{i, r.docs})
	}
	return ix, todo, nil
}

// fill builds the segments of todo, in path order, and then sets the
// stats. A first build (reused false) takes every core, since searches
// wait for it; a rebuild leaves one core to the searches answered from the
// snapshot served meanwhile.
func (ix *Index) fill(todo []segJob, reused bool) error {
	begin := time.Now()
	// Segments are independent: each worker builds whole segments with
	// scratch memory of its own, reused from one segment to the next, so
	// the memory a build needs beyond the index is a few segments' worth.
	// A rebuild leaves one core to the searches answered meanwhile from
	// the snapshot served: with a worker on every core, a search's
	// goroutines wait for a worker's time slice (10 ms) at each hand-over,
	// 34 to 45 ms a round trip (p50) on 2 cores; with one core left, they
	// are about as fast as without a build (docs/server/benchmarks.md has
	// the figures). The workers run at a lower priority too
	// (asBackground), so that a search also wins the core a worker holds
	// when the client, the runtime or another request takes the one left.
	workers := runtime.GOMAXPROCS(0)
	if reused {
		workers = max(workers-1, 1)
	}
	errs := make([]error, len(todo))
	parallel(len(todo), workers, func() func(int) {
		asBackground()
		var b builder
		return func(k int) {
			j := todo[k]
			var sg *segment
			if sg, errs[k] = b.build(j.docs); sg != nil {
				ix.segs[j.i] = sg
			}
		}
	})
	if err := errors.Join(errs...); err != nil {
		return err
	}
	ix.tally()
	ix.stats.BuildTime = time.Since(begin)
	return nil
}

// tally sets the stats of an index whose segments are all there.
func (ix *Index) tally() {
	for _, sg := range ix.segs {
		ix.stats.CorpusBytes += sg.corpus
		ix.stats.Postings += sg.pairs
		ix.stats.DenseLists += sg.bitmaps
		ix.stats.Bytes += sg.bytes()
	}
	ix.stats.Docs = len(ix.snap.Docs())
	ix.stats.Segments = len(ix.segs)
}

// run is a run of docs that becomes one segment: reuse when prev has it.
type run struct {
	docs  []*docs.Doc
	reuse *segment
}

// plan cuts all (in path order) into runs. Without prev, runs are cut at
// about segBytes of text. With prev, each of prev's segments keeps its
// path range (from its first path to the next segment's): a range whose
// docs are exactly the segment's is reused; another is indexed again, cut
// anew when it has grown past twice segBytes; an empty one goes.
func plan(all []*docs.Doc, prev *Index, segBytes int64) []run {
	if prev == nil || len(prev.segs) == 0 {
		return cut(all, segBytes)
	}
	var out []run
	lo := 0
	for i := range prev.segs {
		sg := prev.segs[i]
		hi := len(all)
		if i+1 < len(prev.segs) {
			next := prev.segs[i+1].docs[0].Path
			hi = lo + sort.Search(len(all)-lo, func(k int) bool { return all[lo+k].Path >= next })
		}
		switch r := all[lo:hi]; {
		case len(r) == 0:
		case slices.Equal(r, sg.docs):
			// A copy that refers to the new snapshot's docs, so that the
			// old snapshot (with docs since removed) can go.
			cp := *sg
			cp.docs = r
			out = append(out, run{docs: r, reuse: &cp})
		default:
			out = append(out, cut(r, segBytes)...)
		}
		lo = hi
	}
	return out
}

// cut splits docs into runs of about segBytes of text; only a run that
// would pass twice segBytes is split.
func cut(all []*docs.Doc, segBytes int64) []run {
	var total int64
	for _, d := range all {
		total += d.Size + 1
	}
	n := max(1, (total+segBytes/2)/segBytes)
	per := total/n + 1
	var (
		out []run
		lo  int
		acc int64
	)
	for i, d := range all {
		acc += d.Size + 1
		if acc >= per {
			out = append(out, run{docs: all[lo : i+1]})
			lo, acc = i+1, 0
		}
	}
	if lo < len(all) {
		out = append(out, run{docs: all[lo:]})
	}
	return out
}

// parallel calls f(0) to f(n-1) on up to workers goroutines; each
// goroutine gets its f from newF.
func parallel(n, workers int, newF func() func(int)) {
	var wg sync.WaitGroup
	var next atomic.Int64
	for range min(n, workers) {
		wg.Go(func() {
			f := newF()
			for {
				i := int(next.Add(1)) - 1
				if i >= n {
					return
				}
				f(i)
			}
		})
	}
	wg.Wait()
}

// bucketWord describes 64 buckets of a segment: which hold a posting list
// (most buckets hold none: there are many more buckets than grams), which
// of those lists are bitmaps, and how many lists the buckets before these
// hold. A segment keeps a start offset only for the lists it holds: on
// 40,000 small docs, one bucket in seven.
type bucketWord struct {
	used, dense uint64
	rank        uint32
}

// list returns bucket b's posting list, and whether it is a bitmap. The
// list is empty when no doc of the segment has a gram in b.
func (sg *segment) list(b uint32) (data []byte, dense bool) {
	w, bit := &sg.dir[b/64], uint64(1)<<(b%64)
	if w.used&bit == 0 {
		return nil, false
	}
	i := w.rank + uint32(bits.OnesCount64(w.used&(bit-1)))
	return sg.data[sg.start[i]:sg.start[i+1]], w.dense&bit != 0
}

// nunits is the number of units of the segment.
func (sg *segment) nunits() int {
	if sg.units == nil {
		return len(sg.docs)
	}
	return len(sg.units) - 1
}

// unitDocs returns the docs of unit u, as indexes into sg.docs.
func (sg *segment) unitDocs(u int) (from, to int) {
	if sg.units == nil {
		return u, u + 1
	}
	return int(sg.units[u]), int(sg.units[u+1])
}

// unitOf returns the unit that holds doc d.
func (sg *segment) unitOf(d int) int {
	if sg.units == nil {
		return d
	}
	u, found := slices.BinarySearch(sg.units, uint32(d))
	if !found {
		u--
	}
	return u
}

// unitsOf cuts run into units of about UnitBytes of text, or returns nil
// when every doc is a unit of its own.
func unitsOf(run []*docs.Doc) []uint32 {
	units := []uint32{0}
	var acc int64
	for i, d := range run {
		acc += d.Size + 1
		if acc >= UnitBytes {
			units = append(units, uint32(i+1))
			acc = 0
		}
	}
	if units[len(units)-1] != uint32(len(run)) {
		units = append(units, uint32(len(run)))
	}
	if len(units)-1 == len(run) {
		return nil
	}
	return units
}

// builder builds segments one after another, keeping its scratch memory.
type builder struct {
	grams []uint32 // the distinct buckets of each unit, unit after unit
	ends  []uint32 // ends[i]: the end in grams of unit i
	st    []state
	set   gramSet
	text  []byte // the text of the doc being read, decoded
}

// state is, for one bucket: its encoded size, then its write cursor; and
// 1 + the last doc added to it (0 for none). One array keeps both in a
// cache line.
type state struct{ size, last uint32 }

func (b *builder) build(run []*docs.Doc) (*segment, error) {
	sg := &segment{docs: run, units: unitsOf(run)}
	for _, d := range run {
		sg.corpus += d.Size
	}
	// About one bucket per 64 bytes of text: far more buckets than
	// distinct grams in real text, so few lists share a bucket.
	bucketBits := uint(min(max(bits.Len64(uint64(sg.corpus/64)), 10), 24))
	sg.shift = 64 - bucketBits
	nb := 1 << bucketBits

	b.collect(sg, sg.shift)
	sg.pairs = len(b.grams)

	// Each list's encoded size.
	if cap(b.st) < nb {
		b.st = make([]state, nb)
	}
	st := b.st[:nb]
	clear(st)
	b.each(func(doc, bk uint32) {
		s := &st[bk]
		if s.last == doc+1 {
			return // two grams of the doc share the bucket
		}
		s.size += uint32(uvarintLen(doc + 1 - s.last))
		s.last = doc + 1
	})

	// Lay the lists out: a list bigger than a bitmap of every doc becomes
	// one. That keeps the index small (a gram found in most docs costs
	// n/8 bytes) and makes intersecting common grams a word-wise test.
	bitmapBytes := (sg.nunits() + 63) / 64 * 8
	sg.dir = make([]bucketWord, (nb+63)/64)
	var lists int
	for bk := range nb {
		if st[bk].size > 0 {
			lists++
		}
	}
	sg.start = make([]uint32, 0, lists+1)
	var total uint64
	for bk := range nb {
		w, bit := &sg.dir[bk/64], uint64(1)<<(bk%64)
		if bk%64 == 0 {
			w.rank = uint32(len(sg.start))
		}
		size := uint64(st[bk].size)
		if size == 0 {
			continue
		}
		w.used |= bit
		if size > uint64(bitmapBytes) {
			w.dense |= bit
			sg.bitmaps++
			size = uint64(bitmapBytes)
		}
		sg.start = append(sg.start, uint32(total))
		st[bk].size = uint32(total) // the list's write cursor
		if total += size; total > math.MaxUint32 {
			return nil, fmt.Errorf("index docs: the posting lists of %d docs pass 4 GiB", len(run))
		}
	}
	sg.start = append(sg.start, uint32(total))
	sg.data = make([]byte, total)

	// Write the lists.
	for bk := range st {
		st[bk].last = 0
	}
	b.each(func(doc, bk uint32) {
		s := &st[bk]
		if s.last == doc+1 {
			return
		}
		if sg.dir[bk/64].dense&(1<<(bk%64)) != 0 {
			s.last = doc + 1
			sg.data[s.size+doc/8] |= 1 << (doc % 8)
			return
		}
		s.size += uint32(binary.PutUvarint(sg.data[s.size:], uint64(doc+1-s.last)))
		s.last = doc + 1
	})
	return sg, nil
}

// each calls f for every (doc, bucket) pair collected, in doc order.
func (b *builder) each(f func(doc, bk uint32)) {
	from := uint32(0)
	for i, end := range b.ends {
		for _, bk := range b.grams[from:end] {
			f(uint32(i), bk)
		}
		from = end
	}
}

// gramSet is a set of buckets, emptied for each doc: an open-addressing
// table sized to the doc, small enough to stay in cache (a table over all
// buckets would miss the cache on almost every gram). A slot holds a
// generation stamp next to the bucket, so emptying it is bumping the
// stamp, not clearing memory.
type gramSet struct {
	slots []uint64 // stamp<<32 | bucket
	use   []uint64 // slots[:size for this doc]
	old   []uint64 // scratch for grow
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
	s.old = append(s.old[:0], s.use...)
	old := s.old
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

// collect gathers the distinct buckets of each unit of sg.
func (b *builder) collect(sg *segment, shift uint) {
	run, size, n := sg.docs, sg.corpus, sg.nunits()
	// Markdown has about one distinct gram per doc for every two bytes of
	// text (0.44 on corpusgen's). Reserving that much, with room for
	// larger segments to come, spares the build the garbage of growing the
	// slice 1.25x at a time (four times its final size) in every worker.
	if want := int(size / 2); cap(b.grams) < want {
		b.grams = make([]uint32, 0, want+want/2)
	}
	if cap(b.ends) < n {
		b.ends = make([]uint32, 0, n+n/4)
	}
	b.grams, b.ends = b.grams[:0], b.ends[:0]
	var (
		set = &b.set
		// Most docs are mostly ASCII: their one- and two-rune grams are
		// deduplicated by bitmaps, cheaper than the set.
		uni [128 / 64]uint64
		bi  [128 * 128 / 64]uint64
	)
	for u := range n {
		from, to := sg.unitDocs(u)
		var unitSize int64
		for _, d := range run[from:to] {
			unitSize += d.Size
		}
		set.reset(int(unitSize))
		uni = [len(uni)]uint64{}
		clear(bi[:])
		grams := b.grams
		for _, d := range run[from:to] {
			var p1, p2 rune = -1, -1 // the classes of the two previous runes in the line
			b.text = d.AppendText(b.text[:0])
			text := b.text
			for i := 0; i < len(text); {
				c, size := rune(text[i]), 1
				if c < utf8.RuneSelf {
					if c == '\n' {
						// Grams stay within a line. (A "\r" before it is
						// indexed as a character: a gram more only adds
						// candidates.)
						p1, p2 = -1, -1
						i++
						continue
					}
					if 'a' <= c && c <= 'z' {
						c -= 'a' - 'A'
					}
				} else {
					c, size = utf8.DecodeRune(text[i:])
					c = foldClass(c)
				}
				i += size
				if c < 128 {
					if w, bit := c/64, uint64(1)<<(c%64); uni[w]&bit == 0 {
						uni[w] |= bit
						grams = append(grams, uint32(hash1(c)>>shift))
					}
				} else if bk := uint32(hash1(c) >> shift); set.add(bk) {
					grams = append(grams, bk)
				}
				if p1 >= 0 {
					if p1|c < 128 {
						if k := p1<<7 | c; bi[k/64]&(1<<(k%64)) == 0 {
							bi[k/64] |= 1 << (k % 64)
							grams = append(grams, uint32(hash2(p1, c)>>shift))
						}
					} else if bk := uint32(hash2(p1, c) >> shift); set.add(bk) {
						grams = append(grams, bk)
					}
					if p2 >= 0 {
						if bk := uint32(hash3(p2, p1, c) >> shift); set.add(bk) {
							grams = append(grams, bk)
						}
					}
				}
				p2, p1 = p1, c
			}
		}
		b.grams = grams
		b.ends = append(b.ends, uint32(len(grams)))
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
	return ix.matches(q, after, nil)
}

func (ix *Index) matches(q Query, after Position, b *Budget) iter.Seq[Match] {
	if q.Text == "" || !utf8.ValidString(q.Text) || slices.ContainsFunc(q.Also, func(a string) bool { return !utf8.ValidString(a) }) {
		// An empty query matches every line, and invalid UTF-8 can match
		// inside a rune: n-grams of runes cannot narrow either down.
		return matches(ix.snap, q, after, b)
	}
	// A matching line holds every text of the query, and so does its
	// doc: the candidates are the units in every posting list of every
	// text's grams, the shortest list driving (see lists), so that the
	// rarest term narrows them and each of the others narrows them more.
	hashes := queryHashes(q.Text)
	for _, a := range q.Also {
		hashes = append(hashes, queryHashes(a)...)
	}
	slices.Sort(hashes)
	hashes = slices.Compact(hashes)
	m := newLineMatcher(q)
	if ix.layers != nil {
		return ix.stackedMatches(q, after, b, hashes, m)
	}
	return func(yield func(Match) bool) {
		all := ix.snap.Docs()
		lo := ix.snap.From(max(after.Path, q.PathPrefix))
		hi := lo + sort.Search(len(all)-lo, func(i int) bool { return !strings.HasPrefix(all[lo+i].Path, q.PathPrefix) })
		first := sort.Search(len(ix.segs), func(i int) bool { return ix.offs[i]+ix.lens[i] > lo })
		cs := make([]postings, 0, len(hashes))
		r := reader{budget: b}
		for si := first; si < len(ix.segs) && ix.offs[si] < hi; si++ {
			sg, off := ix.segs[si], ix.offs[si]
			cs = sg.lists(cs[:0], hashes)
			if cs == nil {
				continue // a gram of the query is in no doc of the segment
			}
			d0 := max(lo-off, 0)
			for u := sg.unitOf(d0); ; u++ {
				u = intersect(cs, u)
				if u >= sg.nunits() {
					break
				}
				from, to := sg.unitDocs(u)
				if off+from >= hi {
					break
				}
				for d := max(from, d0); d < to && off+d < hi; d++ {
					doc, line := all[off+d], 0
					if doc.Path == after.Path {
						line = after.Line
					}
					if !scanDoc(doc, line, m, &r, yield) {
						return
					}
				}
			}
		}
	}
}

// queryHashes returns the hashes of the grams every matching line must
// hold: the class of a one-rune query, the pair of a two-rune query, else
// every triple.
func queryHashes(text string) []uint64 {
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
	slices.Sort(hs)
	return slices.Compact(hs)
}

// lists appends to cs the posting lists of the segment's buckets for
// hashes, the shortest sparse list first (it drives; bitmaps only answer
// "is d in?"). It returns nil when one of them is empty.
func (sg *segment) lists(cs []postings, hashes []uint64) []postings {
	for _, h := range hashes {
		b := uint32(h >> sg.shift)
		if slices.ContainsFunc(cs, func(p postings) bool { return p.bucket == b }) {
			continue
		}
		p := sg.postings(b)
		if p.empty() {
			return nil
		}
		cs = append(cs, p)
	}
	slices.SortFunc(cs, func(a, b postings) int {
		if a.dense != b.dense {
			if a.dense {
				return 1
			}
			return -1
		}
		return len(a.data) - len(b.data)
	})
	return cs
}

// postings reads one posting list in doc order.
type postings struct {
	bucket uint32
	dense  bool
	data   []byte // deltas as uvarints, or a bitmap of n bits
	n      int    // number of units
	pos    int
	cur    int // the current doc; -1 before the first
}

func (sg *segment) postings(b uint32) postings {
	data, dense := sg.list(b)
	return postings{bucket: b, dense: dense, data: data, n: sg.nunits(), cur: -1}
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
