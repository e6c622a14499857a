package search

import (
	"context"
	"iter"
	"time"

	"github.com/docs-mcp/docs-mcp/mcp-server/internal/docs"
)

// Pending is a snapshot's index, built in the background.
type Pending struct {
	done chan struct{}
	ix   *Index
	err  error
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
		p := &Pending{done: make(chan struct{})}
		go func() {
			defer close(p.done)
			var old *Index
			if base != nil {
				<-base.done
				old = base.ix // nil when that build failed: index from scratch
			}
			p.ix, p.err = Reindex(snap, old)
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
// as Matches does. It answers from snap's index, waiting up to wait for the
// index to be built; when the index is not ready by then (or cannot be
// built, or ctx ends first) it scans, which gives the same results, only
// more slowly.
func Find(ctx context.Context, snap *docs.Snapshot, q Query, after Position, wait time.Duration) iter.Seq[Match] {
	p := IndexOf(snap)
	if ix, _ := p.Index(); ix != nil {
		return ix.Matches(q, after)
	}
	timer := time.NewTimer(wait)
	defer timer.Stop()
	select {
	case <-p.done:
		if p.ix != nil {
			return p.ix.Matches(q, after)
		}
	case <-timer.C:
	case <-ctx.Done():
	}
	return Matches(snap, q, after)
}
