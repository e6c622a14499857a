package search

import (
	"errors"
	"iter"
	"runtime"
	"slices"
	"sort"
	"strings"
	"time"
	"unsafe"

	"github.com/docs-mcp/docs-mcp/mcp-server/internal/docs"
)

// An index built over another (Stack, for the releases of a repository)
// is in layers rather than cut in path ranges: a release that changes 1%
// of the docs, spread over the tree, changes a doc in nearly every path
// range, so that re-indexing the ranges touched (Reindex) is re-indexing
// the tree, and every release holds an index of its own. Instead, each
// layer is a run of segments in path order whose ranges do not overlap,
// and layers do overlap: a stacked index takes over the previous index's
// segments as they are, marking the docs in them that are no longer in
// its snapshot (dead), and indexes only the docs that are new to it in a
// layer of its own on top. A search walks every layer's candidates in path
// order and merges them, so that results stay in path order and come from
// the whole index; since every doc of the snapshot is live in exactly one
// segment, no doc is read twice.
//
// A doc is live in a segment when it is the snapshot's doc at its path
// (the same *docs.Doc), whatever the older index said of it: package
// versions gives a release the doc of the working tree or of a newer
// release whose blob it has, so a release that has the working tree's
// text of a doc changed in a release between finds it live again in the
// working tree's segment. Stacked on the working tree, ten releases that
// each change 1% of the docs then cost the working tree's index and a
// layer of the docs that differ from it (9% of them), each indexed once by
// the newest release that has it; a release with the working tree's docs
// has its index as it is.
// Two bounds keep the layers few as releases pile up: a segment whose
// live docs are less than a quarter of its text is not taken over (its
// live docs are indexed again in the new layer: while the older release
// is served, that is memory held twice, so only a segment mostly dead,
// whose dead docs cost every search more than its live ones save a build,
// goes), and an index of maxLayers layers folds every layer but the bottom
// one into its new layer.

// part is a segment as one layered index uses it.
type part struct {
	seg  *segment
	dead []uint64 // bit d: seg.docs[d] is not in the index's snapshot; nil: none is dead
}

func (p part) isDead(d int) bool {
	return p.dead != nil && p.dead[d/64]&(1<<(d%64)) != 0
}

// layer is segments whose docs are in path order, from one to the next.
type layer []part

// maxLayers bounds the layers of an index: each costs a search the lookup
// of its posting lists and a head in the merge of candidates.
const maxLayers = 8

// Stack indexes snap over prev, the index of an older release or of the
// working tree (or nil): the segments of prev of which at least a quarter
// is still in snap (the same *docs.Doc, as a doc whose blob did not change
// is shared) are taken over as they are, and the docs no segment taken
// over holds are indexed in a layer of their own. Reindex is for the
// snapshots that follow one another in one tree, an edit at a time.
func Stack(snap *docs.Snapshot, prev *Index) (*Index, error) {
	return stack(snap, prev, SegmentBytes)
}

func stack(snap *docs.Snapshot, prev *Index, segBytes int64) (*Index, error) {
	if prev == nil {
		return build(snap, nil, segBytes)
	}
	begin := time.Now()
	all := snap.Docs()
	covered := make([]bool, len(all)) // the docs a part taken over holds
	var layers []layer
	below := prev.layered()
	for li, l := range below {
		fold := li > 0 && len(below) >= maxLayers
		var kept layer
		for _, p := range l {
			if fold {
				break
			}
			q, live, liveBytes := takeOver(p.seg, snap, covered)
			if live == 0 || 4*liveBytes < p.seg.corpus {
				continue // gone, or mostly gone: its live docs are indexed anew
			}
			i := 0
			for d, doc := range q.seg.docs {
				i = seek(all, i, doc.Path)
				if !q.isDead(d) {
					covered[i] = true
				}
			}
			kept = append(kept, q)
		}
		if len(kept) > 0 {
			layers = append(layers, kept)
		}
	}
	var fresh []*docs.Doc
	for i, d := range all {
		if !covered[i] {
			fresh = append(fresh, d)
		}
	}
	ix := &Index{snap: snap}
	for _, l := range layers {
		for _, p := range l {
			ix.stats.ReusedDocs += len(p.seg.docs) - p.deadCount()
		}
	}
	if len(fresh) > 0 {
		runs := cut(fresh, segBytes)
		top := make(layer, len(runs))
		errs := make([]error, len(runs))
		parallel(len(runs), runtime.GOMAXPROCS(0), func() func(int) {
			asBackground()
			var b builder
			return func(k int) { top[k].seg, errs[k] = b.build(runs[k].docs) }
		})
		if err := errors.Join(errs...); err != nil {
			return nil, err
		}
		layers = append(layers, top)
	}
	ix.layers = layers
	if flat, ok := tiles(layers, len(all)); ok {
		// A release whose docs are all in one layer, in order, none dead
		// (the newest, as committed in the working tree): its index is a
		// plain one, searched without a merge.
		ix.layers = nil
		off := 0
		for _, p := range flat {
			ix.segs, ix.offs, ix.lens = append(ix.segs, p.seg), append(ix.offs, off), append(ix.lens, len(p.seg.docs))
			off += len(p.seg.docs)
		}
	}
	for _, l := range layers {
		for _, p := range l {
			sg := p.seg
			ix.stats.CorpusBytes += sg.corpus
			ix.stats.Postings += sg.pairs
			ix.stats.DenseLists += sg.bitmaps
			ix.stats.Bytes += sg.bytes() + 8*len(p.dead)
			ix.stats.Segments++
		}
	}
	ix.stats.Docs = len(all)
	ix.stats.Layers = len(layers)
	ix.stats.BuildTime = time.Since(begin)
	return ix, nil
}

// tiles returns the one layer of layers when its parts hold n docs, none
// dead: since every doc of an index is live in exactly one part, they are
// then the snapshot's docs in order.
func tiles(layers []layer, n int) (layer, bool) {
	if len(layers) != 1 {
		return nil, false
	}
	held := 0
	for _, p := range layers[0] {
		if p.dead != nil {
			return nil, false
		}
		held += len(p.seg.docs)
	}
	return layers[0], held == n
}

// layered returns the index's layers: a flat index is one.
func (ix *Index) layered() []layer {
	if ix.layers != nil || len(ix.segs) == 0 {
		return ix.layers
	}
	l := make(layer, len(ix.segs))
	for i, sg := range ix.segs {
		l[i] = part{seg: sg}
	}
	return []layer{l}
}

// takeOver returns sg as an index of snap uses it: its docs dead that are
// not the doc snap has at their path, or that a part taken over before
// holds (covered, by index in snap). Liveness is the doc itself, not what
// the older index said: a release that goes back to an older release's
// text of a doc (the same *docs.Doc, shared by blob) finds it live again
// in the segment that holds it. It also returns how many docs, and how
// much text, are live.
func takeOver(sg *segment, snap *docs.Snapshot, covered []bool) (q part, live int, liveBytes int64) {
	q.seg = sg
	all := snap.Docs()
	i := 0
	for d, doc := range sg.docs {
		if i = seek(all, i, doc.Path); i < len(all) && all[i] == doc && !covered[i] {
			live++
			liveBytes += doc.Size
			continue
		}
		if q.dead == nil {
			q.dead = make([]uint64, (len(sg.docs)+63)/64)
		}
		q.dead[d/64] |= 1 << (d % 64)
	}
	return q, live, liveBytes
}

// seek is the index in all (a snapshot's docs, in path order) of the first
// doc whose path is not before p, as Snapshot.From finds it, for paths
// asked in path order: from is the answer for the path asked before. A
// segment's docs are mostly the snapshot's next ones: the next few docs are
// tried before the rest is searched.
func seek(all []*docs.Doc, from int, p string) int {
	for range 4 {
		if from >= len(all) || all[from].Path >= p {
			return from
		}
		from++
	}
	i, _ := slices.BinarySearchFunc(all[from:], p, func(d *docs.Doc, p string) int { return strings.Compare(d.Path, p) })
	return from + i
}

func (p part) deadCount() int {
	n := 0
	for d := range p.seg.docs {
		if p.isDead(d) {
			n++
		}
	}
	return n
}

// bytes is the memory the segment holds, not counting its docs.
func (sg *segment) bytes() int {
	return len(sg.data) + 4*len(sg.start) + int(unsafe.Sizeof(bucketWord{}))*len(sg.dir) + 4*len(sg.units)
}

// stackedMatches is matches for an index in layers: each layer yields its
// candidates in path order, and the search reads the first of the layers'
// next candidates each time.
func (ix *Index) stackedMatches(q Query, after Position, b *Budget, hashes []uint64, m lineMatcher) iter.Seq[Match] {
	return func(yield func(Match) bool) {
		from := max(after.Path, q.PathPrefix)
		var heads []*cursor
		for _, l := range ix.layers {
			c := &cursor{parts: l, from: from, prefix: q.PathPrefix, hashes: hashes}
			if c.start() {
				heads = append(heads, c)
			}
		}
		r := reader{budget: b}
		for len(heads) > 0 {
			k := 0
			for i, c := range heads[1:] {
				if c.doc.Path < heads[k].doc.Path {
					k = i + 1
				}
			}
			c := heads[k]
			doc, line := c.doc, 0
			if doc.Path == after.Path {
				line = after.Line
			}
			if !scanDoc(doc, line, m, &r, yield) {
				return
			}
			if !c.next() {
				heads = slices.Delete(heads, k, k+1)
			}
		}
	}
}

// cursor walks the candidates of one layer for a query, in path order:
// the live docs, in range, of the units that hold every gram.
type cursor struct {
	parts  layer
	from   string // the first path in range
	prefix string // every path in range has it
	hashes []uint64

	pi     int // the part walked
	cs     []postings
	u      int // the unit walked
	d, end int // the next doc of the part, and the end of the unit's docs in range
	dEnd   int // the end of the part's docs in range
	doc    *docs.Doc
}

// start finds the first candidate; false when there is none.
func (c *cursor) start() bool {
	c.pi = sort.Search(len(c.parts), func(i int) bool {
		docs := c.parts[i].seg.docs
		return docs[len(docs)-1].Path >= c.from
	})
	return c.enter()
}

// enter starts on part c.pi, or the first one after it with a candidate.
func (c *cursor) enter() bool {
	for ; c.pi < len(c.parts); c.pi++ {
		sg := c.parts[c.pi].seg
		d0 := sort.Search(len(sg.docs), func(i int) bool { return sg.docs[i].Path >= c.from })
		if d0 < len(sg.docs) && !strings.HasPrefix(sg.docs[d0].Path, c.prefix) {
			return false // sorted: no later doc of the layer has the prefix
		}
		c.dEnd = d0 + sort.Search(len(sg.docs)-d0, func(i int) bool { return !strings.HasPrefix(sg.docs[d0+i].Path, c.prefix) })
		if d0 == c.dEnd {
			continue
		}
		if c.cs = sg.lists(c.cs[:0], c.hashes); c.cs == nil {
			continue // a gram of the query is in no doc of the segment
		}
		c.u, c.d, c.end = sg.unitOf(d0), d0, d0
		if c.unit() {
			return true
		}
	}
	return false
}

// unit goes on from unit c.u to the next candidate of the part, false
// when the part has none left.
func (c *cursor) unit() bool {
	p := c.parts[c.pi]
	sg := p.seg
	for {
		for ; c.d < c.end; c.d++ {
			if !p.isDead(c.d) {
				c.doc = sg.docs[c.d]
				c.d++
				return true
			}
		}
		if c.u = intersect(c.cs, c.u); c.u >= sg.nunits() {
			return false
		}
		from, to := sg.unitDocs(c.u)
		if from >= c.dEnd {
			return false
		}
		c.d, c.end = max(from, c.d), min(to, c.dEnd)
		c.u++
	}
}

// next moves to the next candidate; false when there is none.
func (c *cursor) next() bool {
	if c.unit() {
		return true
	}
	c.pi++
	return c.enter()
}
