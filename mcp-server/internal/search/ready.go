package search

import (
	"context"
	"iter"
	"sync/atomic"
	"time"

	"github.com/docs-mcp/docs-mcp/mcp-server/internal/docs"
)

// Pending is a snapshot's index, built in the background. It answers
// searches from the moment its segments are planned (see Index): the
// segments already built through their posting lists, the others by a
// scan.
type Pending struct {
	planned chan struct{} // closed once partial is set, or the build failed
	partial atomic.Pointer[Index]
	done    chan struct{}
	ix      *Index
	err     error
}

type indexKey struct{}

// IndexOf returns the index of snap, starting to build it in the background
// on the first call for that snapshot; later calls return the same Pending.
// The index is attached to the snapshot (docs.Snapshot.Attach), so a new
// snapshot gets its own index and an old one's goes with it.
func IndexOf(snap *docs.Snapshot) *Pending {
	return ReindexOf(snap, nil)
}

// ReindexOf is IndexOf for a snapshot that follows prev: when prev has an
// index, built or being built, the build waits for it and reuses its
// segments whose docs did not change (see Reindex), so an edit costs the
// indexing of the segments it touched rather than of the whole corpus.
// prev may be nil.
func ReindexOf(snap, prev *docs.Snapshot) *Pending {
	return snap.Attach(indexKey{}, func() any {
		var base *Pending
		if prev != nil {
			if v, ok := prev.Attached(indexKey{}); ok {
				base = v.(*Pending)
			}
		}
		p := &Pending{planned: make(chan struct{}), done: make(chan struct{})}
		go func() {
			defer close(p.done)
			var old *Index
			if base != nil {
				<-base.done
				old = base.ix // nil when that build failed: index from scratch
			}
			ix, todo, err := plannedIndex(snap, old, SegmentBytes)
			if err != nil {
				p.err = err
				close(p.planned)
				return
			}
			p.partial.Store(ix)
			close(p.planned)
			if p.err = ix.fill(todo); p.err == nil {
				p.ix = ix
			}
		}()
		return p
	}).(*Pending)
}

// Done is closed when the build has ended.
func (p *Pending) Done() <-chan struct{} { return p.done }

// Index returns the index once Done is closed, or the reason there is none.
// Before that it returns nil, nil.
func (p *Pending) Index() (*Index, error) {
	select {
	case <-p.done:
		return p.ix, p.err
	default:
		return nil, nil
	}
}

// Find yields the matches of q in snap after the position after, exactly
// as Matches does, within b (nil: no bound; b.Ctx defaults to ctx). It
// answers from snap's index, built or being built (the segments not built
// yet are scanned). The build plans its segments at once for a first
// snapshot; for a later one, it first waits for the previous snapshot's
// index, whose segments it takes over, and Find waits up to wait for that.
// When there is no index by then (or it cannot be built, or ctx ends
// first) Find scans, which gives the same results, only more slowly.
func Find(ctx context.Context, snap *docs.Snapshot, q Query, after Position, wait time.Duration, b *Budget) iter.Seq[Match] {
	if b != nil && b.Ctx == nil {
		b.Ctx = ctx
	}
	p := IndexOf(snap)
	if ix := p.partial.Load(); ix != nil {
		return ix.matches(q, after, b)
	}
	timer := time.NewTimer(wait)
	defer timer.Stop()
	select {
	case <-p.planned:
		if ix := p.partial.Load(); ix != nil {
			return ix.matches(q, after, b)
		}
	case <-timer.C:
	case <-ctx.Done():
	}
	return matches(snap, q, after, b)
}
