package rank

import (
	"context"

	"github.com/docs-mcp/docs-mcp/mcp-server/internal/docs"
)

// Pending is a snapshot's index, built in the background by its owner (the
// corpus, through Build) and attached to the snapshot before the snapshot
// is served, so that a question finds it there and never starts a build.
type Pending struct {
	done chan struct{}
	ix   *Index
	err  error
}

var indexKey = docs.NewKey[*Pending]("rank.index")

// Build attaches snap's index to snap and starts building it in the
// background; when snap has one already, it returns that. When prev (which
// may be nil) has an index, built or being built, the build waits for it
// and reuses its shards whose docs did not change, so that an edit costs
// the ranking of one shard rather than of every doc.
//
// The build starts once after is closed (nil: at once): the corpus starts
// it once the snapshot's search index is built, so that the first search,
// which every client makes, has the cores to itself.
func Build(snap, prev *docs.Snapshot, after <-chan struct{}) *Pending {
	// prev's index is looked up before snap's lock is taken: prev may be
	// snap itself (a start from the cache that found nothing changed).
	var base *Pending
	if prev != nil && prev != snap {
		base, _ = docs.Attached(prev, indexKey)
	}
	return docs.Attach(snap, indexKey, func() *Pending {
		p := &Pending{done: make(chan struct{})}
		go func() {
			defer close(p.done)
			if after != nil {
				<-after
			}
			var old *Index
			if base != nil {
				<-base.done
				old = base.ix // nil when that build failed: rank from scratch
			}
			p.ix, p.err = New(snap, old)
		}()
		return p
	})
}

// Attached returns snap's index as its owner attached it, if it did.
func Attached(snap *docs.Snapshot) (*Pending, bool) { return docs.Attached(snap, indexKey) }

// Done is closed when the build has ended.
func (p *Pending) Done() <-chan struct{} { return p.done }

// Index returns the index once Done is closed, or the reason there is none.
func (p *Pending) Index() (*Index, error) {
	select {
	case <-p.done:
		return p.ix, p.err
	default:
		return nil, nil
	}
}

// Await returns snap's index, waiting for its build until ctx ends. A
// snapshot whose owner attached none has its index built now: the
// snapshots of tests and tools that serve no corpus.
func Await(ctx context.Context, snap *docs.Snapshot) (*Index, error) {
	p := Build(snap, nil, nil)
	select {
	case <-p.done:
		return p.ix, p.err
	case <-ctx.Done():
		return nil, ctx.Err()
	}
}
