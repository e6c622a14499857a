package docs

import (
	"cmp"
	"container/heap"
	"context"
	"encoding/binary"
	"hash/fnv"
	"iter"
	"path"
	"slices"
	"strings"
	"sync"
)

// Nearest returns up to n doc paths that look most like p: the same file
// name in another folder first, then the smallest edit distance.
//
// It does not compare p with every path: a path index, built on the
// snapshot's first miss and kept with it (see pathIndex), gives the docs
// named like p and the nearestCandidates paths that share the most
// three-byte pieces with it, and only those are ranked. The work is bounded
// by a few passes over the docs' numbers whatever p is (about 1 ms on
// 40,000 paths, BenchmarkNearest). It returns nil once ctx is done.
func (s *Snapshot) Nearest(ctx context.Context, p string, n int) []string {
	if len(s.docs) == 0 || n <= 0 || ctx.Err() != nil {
		return nil
	}
	ix := Attach(s, pathIndexKey, func() *lazyPathIndex { return new(lazyPathIndex) })
	ix.once.Do(func() { ix.pathIndex = newPathIndex(s.docs) })

	want := strings.ToLower(p)
	if len(want) > maxNearestQuery {
		want = want[:maxNearestQuery]
	}
	wantBase := path.Base(want)
	cands := ix.candidates(ctx, s.docs, want)
	if cands == nil {
		return nil
	}
	type scored struct {
		path  string
		score int
	}
	scores := make([]scored, 0, len(cands))
	for _, i := range cands {
		scores = append(scores, scored{s.docs[i].Path, nearness(want, wantBase, s.docs[i].Path)})
	}
	slices.SortFunc(scores, func(a, b scored) int {
		return cmp.Or(cmp.Compare(a.score, b.score), strings.Compare(a.path, b.path))
	})
	out := make([]string, 0, n)
	for _, sc := range scores[:min(n, len(scores))] {
		out = append(out, sc.path)
	}
	return out
}

// nearness scores a doc's path against a missing one (lower-cased, with
// its file name): 0 for the same file name, else an edit distance, plus 1
// when the missing name (without .md) is in the path and 2 when not.
func nearness(want, wantBase, docPath string) int {
	got := strings.ToLower(docPath)
	switch {
	case path.Base(got) == wantBase:
		return 0
	case strings.Contains(got, strings.TrimSuffix(wantBase, ".md")):
		return 1 + levenshtein(want, got, 64)
	default:
		return 2 + levenshtein(want, got, 64)
	}
}

const (
	// nearestCandidates is how many paths sharing pieces with a missing
	// one are ranked by edit distance.
	nearestCandidates = 64
	// maxNearestQuery bounds the part of a missing path that is compared:
	// levenshtein gives up at 64 edits anyway.
	maxNearestQuery = 256
	// sameNameCandidates bounds the docs of the same file name ranked.
	sameNameCandidates = 16
)

// pathIndexKey is the key of a snapshot's index of paths by their parts.
var pathIndexKey = NewKey[*lazyPathIndex]("docs.paths")

type lazyPathIndex struct {
	once sync.Once
	*pathIndex
}

// pathIndexBuckets is the number of lists of a pathIndex: trigrams are
// hashed into them, and two trigrams that share a list only make a few
// more paths candidates.
const pathIndexBuckets = 1 << 16

// pathIndex lists, for every three-byte piece (trigram) of the docs' paths,
// folded to ASCII lower case, the docs whose path holds it, and the docs
// in the order of their file names' hashes. On the 40,000 paths of the
// small generated tree it holds about 1.9 MB and takes about 20 ms of CPU
// to build (BenchmarkPathIndex).
type pathIndex struct {
	byName []int32  // doc numbers, sorted by nameHash of their path
	starts []uint32 // bucket b's list is data[starts[b]:starts[b+1]]
	counts []uint32 // how many docs bucket b's list holds
	data   []byte   // each list: doc numbers, ascending, as uvarint deltas
}

func newPathIndex(all []*Doc) *pathIndex {
	ix := &pathIndex{
		byName: make([]int32, len(all)),
		starts: make([]uint32, pathIndexBuckets+1),
		counts: make([]uint32, pathIndexBuckets),
	}
	names := make([]uint64, len(all))
	for i, d := range all {
		ix.byName[i] = int32(i)
		names[i] = nameHash(d.Path)
	}
	slices.SortFunc(ix.byName, func(a, b int32) int { return cmp.Compare(names[a], names[b]) })

	// Count each bucket's docs, then fill the lists in doc order: last
	// keeps a path's repeated trigrams from listing it twice.
	last := make([]int32, pathIndexBuckets)
	for b := range last {
		last[b] = -1
	}
	for d, doc := range all {
		for b := range buckets(doc.Path) {
			if last[b] != int32(d) {
				last[b] = int32(d)
				ix.counts[b]++
			}
		}
	}
	next := make([]uint32, pathIndexBuckets)
	total := uint32(0)
	for b, n := range ix.counts {
		next[b], total = total, total+n
		last[b] = -1
	}
	flat := make([]int32, total)
	for d, doc := range all {
		for b := range buckets(doc.Path) {
			if last[b] != int32(d) {
				last[b] = int32(d)
				flat[next[b]] = int32(d)
				next[b]++
			}
		}
	}
	ix.data = make([]byte, 0, total+total/2)
	from := uint32(0)
	for b, n := range ix.counts {
		prev := int32(-1)
		for _, d := range flat[from : from+n] {
			ix.data = binary.AppendUvarint(ix.data, uint64(d-prev))
			prev = d
		}
		from += n
		ix.starts[b+1] = uint32(len(ix.data))
	}
	ix.data = slices.Clip(ix.data)
	return ix
}

// buckets yields the bucket of each trigram of p, folded to ASCII lower
// case, in order (a repeated trigram repeats its bucket).
func buckets(p string) iter.Seq[uint32] {
	return func(yield func(uint32) bool) {
		for i := 2; i < len(p); i++ {
			g := uint64(lowerASCII(p[i-2]))<<16 | uint64(lowerASCII(p[i-1]))<<8 | uint64(lowerASCII(p[i]))
			if !yield(uint32((g * 0x9E3779B97F4A7C15) >> (64 - 16))) {
				return
			}
		}
	}
}

func lowerASCII(c byte) byte {
	if 'A' <= c && c <= 'Z' {
		return c + 'a' - 'A'
	}
	return c
}

// nameHash is a hash of a path's file name, lower-cased.
func nameHash(p string) uint64 {
	h := fnv.New64a()
	h.Write([]byte(strings.ToLower(path.Base(p))))
	return h.Sum64()
}

// candidates returns the numbers of the docs to rank for a missing path
// (lower-cased): up to sameNameCandidates docs of the same file name, and
// the nearestCandidates docs sharing the most trigrams with it. It reads
// the lists of the query's trigrams rarest first and stops once it has
// read four lists' worth of every doc, so that no query costs more than a
// few passes over the docs' numbers. It returns nil once ctx is done.
func (ix *pathIndex) candidates(ctx context.Context, all []*Doc, want string) []int32 {
	var out []int32
	name := nameHash(want)
	i, _ := slices.BinarySearchFunc(ix.byName, name, func(d int32, h uint64) int { return cmp.Compare(nameHash(all[d].Path), h) })
	for ; i < len(ix.byName) && len(out) < sameNameCandidates && nameHash(all[ix.byName[i]].Path) == name; i++ {
		out = append(out, ix.byName[i])
	}

	var lists []uint32
	for b := range buckets(want) {
		if ix.counts[b] > 0 && !slices.Contains(lists, b) {
			lists = append(lists, b)
		}
	}
	slices.SortFunc(lists, func(a, b uint32) int { return cmp.Compare(ix.counts[a], ix.counts[b]) })
	shared := make([]uint16, len(all))
	work := 0
	for _, b := range lists {
		if ctx.Err() != nil {
			return nil
		}
		if work += int(ix.counts[b]); work > 4*len(all) {
			break
		}
		data, d := ix.data[ix.starts[b]:ix.starts[b+1]], -1
		for len(data) > 0 {
			delta, w := binary.Uvarint(data)
			data = data[w:]
			d += int(delta)
			shared[d]++
		}
	}
	best := &topDocs{shared: shared}
	for d, c := range shared {
		switch {
		case c == 0:
		case len(best.docs) < nearestCandidates:
			heap.Push(best, int32(d))
		case c > shared[best.docs[0]]:
			best.docs[0] = int32(d)
			heap.Fix(best, 0)
		}
	}
	for _, d := range best.docs {
		if !slices.Contains(out, d) {
			out = append(out, d)
		}
	}
	if out == nil {
		out = []int32{} // nothing alike: an answer all the same
	}
	return out
}

// topDocs is a min-heap of doc numbers by their count of shared trigrams:
// its first doc is the one to drop for a better one.
type topDocs struct {
	docs   []int32
	shared []uint16
}

func (h *topDocs) Len() int           { return len(h.docs) }
func (h *topDocs) Less(i, j int) bool { return h.shared[h.docs[i]] < h.shared[h.docs[j]] }
func (h *topDocs) Swap(i, j int)      { h.docs[i], h.docs[j] = h.docs[j], h.docs[i] }
func (h *topDocs) Push(x any)         { h.docs = append(h.docs, x.(int32)) }
func (h *topDocs) Pop() any {
	x := h.docs[len(h.docs)-1]
	h.docs = h.docs[:len(h.docs)-1]
	return x
}

// levenshtein returns the edit distance between a and b in bytes, or limit
// when it is at least limit.
func levenshtein(a, b string, limit int) int {
	if d := len(a) - len(b); d >= limit || -d >= limit {
		return limit
	}
	prev := make([]int, len(b)+1)
	cur := make([]int, len(b)+1)
	for j := range prev {
		prev[j] = j
	}
	for i := 1; i <= len(a); i++ {
		cur[0] = i
		best := cur[0]
		for j := 1; j <= len(b); j++ {
			cost := 1
			if a[i-1] == b[j-1] {
				cost = 0
			}
			cur[j] = min(prev[j]+1, cur[j-1]+1, prev[j-1]+cost)
			best = min(best, cur[j])
		}
		if best >= limit {
			return limit
		}
		prev, cur = cur, prev
	}
	return min(prev[len(b)], limit)
}
