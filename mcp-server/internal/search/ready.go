package search

import (
	"context"
	"iter"

	"github.com/docs-mcp/docs-mcp/mcp-server/internal/docs"
)

// Pending is a snapshot's index, built in the background by its owner (the
// corpus, through Build) and attached to the snapshot before the snapshot
// is served, so that a search finds it there and never starts a build.
type Pending struct {
	done chan struct{}
	ix   *Index
	err  error
}

// indexKey is the key of a snapshot's index.
var indexKey = docs.NewKey[*Pending]("search.index")

// Build attaches snap's index to snap, and starts building it in the
// background; when snap already has one, it returns that instead. When
// prev (which may be nil) has an index, built or being built, the build
// waits for it and reuses its segments whose docs did not change (see
// Reindex), so that an edit costs the indexing of the segments it touched
// rather than of the whole corpus.
func Build(snap, prev *docs.Snapshot) *Pending {
	return attach(snap, prev, Reindex)
}

// BuildStacked is Build for the snapshot of a release over that of an
// older one (prev, which may be nil): the index is stacked on prev's (see
// Stack), so that the docs the two share share their index too.
func BuildStacked(snap, prev *docs.Snapshot) *Pending {
	return attach(snap, prev, Stack)
}

// attach attaches snap's index, built by index over prev's, to snap.
func attach(snap, prev *docs.Snapshot, index func(*docs.Snapshot, *Index) (*Index, error)) *Pending {
	return docs.Attach(snap, indexKey, func() *Pending {
		var base *Pending
		if prev != nil {
			base, _ = docs.Attached(prev, indexKey)
		}
		p := &Pending{done: make(chan struct{})}
		go func() {
			defer close(p.done)
			var old *Index
			if base != nil {
				<-base.done
				old = base.ix // nil when that build failed: index from scratch
			}
			p.ix, p.err = index(snap, old)
		}()
		return p
	})
}

// Restore attaches ix, an index of snap built already (DecodeIndex), as
// snap's: a later Build on a snapshot that follows snap reuses it.
func Restore(snap *docs.Snapshot, ix *Index) *Pending {
	return docs.Attach(snap, indexKey, func() *Pending {
		p := &Pending{done: make(chan struct{}), ix: ix}
		close(p.done)
		return p
	})
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

// Await waits until snap's index is built, or ctx ends (its error is
// returned then). A snapshot without an index, or whose build failed, has
// nothing to wait for: Find scans it.
func Await(ctx context.Context, snap *docs.Snapshot) error {
	p, ok := docs.Attached(snap, indexKey)
	if !ok {
		return nil
	}
	select {
	case <-p.done:
		return nil
	default:
	}
	select {
	case <-p.done:
		return nil
	case <-ctx.Done():
		return ctx.Err()
	}
}

// Find yields the matches of q in snap after the position after, exactly
// as Matches does, within b (nil: no bound; b.Ctx defaults to ctx). It
// answers from snap's index once the index is built, waiting for it (see
// Await) under ctx: a search never answers from part of the docs for want
// of an index. When ctx ends first, it yields nothing and b records the
// context's error. A snapshot with no index (or whose build failed) is
// scanned, which gives the same results, only more slowly.
func Find(ctx context.Context, snap *docs.Snapshot, q Query, after Position, b *Budget) iter.Seq[Match] {
	if b != nil && b.Ctx == nil {
		b.Ctx = ctx
	}
	if err := Await(ctx, snap); err != nil {
		return func(func(Match) bool) {
			if b != nil {
				b.Stopped, b.Resume, b.Err = true, after, err
			}
		}
	}
	if p, ok := docs.Attached(snap, indexKey); ok && p.ix != nil {
		return p.ix.matches(q, after, b)
	}
	return matches(snap, q, after, b)
}

// Built returns snap's index when it is built, else nil.
func Built(snap *docs.Snapshot) *Index {
	if p, ok := docs.Attached(snap, indexKey); ok {
		ix, _ := p.Index()
		return ix
	}
	return nil
}
