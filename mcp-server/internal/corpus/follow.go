package corpus

import (
	"context"
	"time"

	"github.com/docs-mcp/docs-mcp/mcp-server/internal/docs"
	"github.com/docs-mcp/docs-mcp/mcp-server/watch"
)

// follow keeps the corpus in step with the files on disk until ctx ends:
// each batch from w is applied to the docs snapshot (only the files it
// names are read again), its search index is built (reusing the segments
// of the docs that did not change), the new snapshot replaces the old one,
// and publish is told. Batches come one
// at a time, so snapshots follow each other in generation order.
//
// follow may start before the docs are loaded, and should (Run does): start
// it, wait for w.Ready, then load and Open. A batch that comes before Open
// waits for it (the watcher coalesces what arrives meanwhile), and is then
// applied to the loaded snapshot, so an edit made while the docs loaded
// is never lost: at worst a file read by the load is read again.
func (c *Corpus) follow(ctx context.Context, w *watch.Watcher, publish func(docs.Change)) error {
	return w.Run(ctx, func(ctx context.Context, b watch.Batch) { c.update(ctx, b, true, publish) })
}

// update brings one batch of changes in, and reports it to the Observer
// as a reload when observe is set and the batch made a new snapshot (Run's
// rescan at start-up is not one, nor is a poll that found no change: with
// --watch poll one comes every interval, and a reload histogram counting
// them would say the docs change every two seconds).
// Batches come from the watcher one at a time, and Run's rescan may come
// beside them: applyMu keeps each update based on the snapshot the last
// one made, and publish is told of each change in turn.
//
// publish hears of every new snapshot, and of every batch that names one
// of Config.Files; a batch that changed nothing (a poll that found no
// change) is not told.
func (c *Corpus) update(ctx context.Context, b watch.Batch, observe bool, publish func(docs.Change)) {
	if c.await(ctx) != nil {
		return
	}
	c.applyMu.Lock()
	defer c.applyMu.Unlock()
	prev := c.store.Snapshot()
	begin := time.Now()
	next, diff, err := docs.Update(ctx, prev, c.cfg.DocsPath, docs.Changes{Paths: b.Paths, All: b.All}, c.loadOptions(prev.Generation()+1))
	if err != nil {
		if ctx.Err() == nil {
			c.log.Warn("cannot read the docs folder; serving the last docs read until it is back",
				"generation", prev.Generation(), "err", err)
		}
		next, diff = prev, docs.Diff{}
	}
	if next != prev {
		if observe && c.cfg.Observer != nil {
			c.cfg.Observer.ObserveReload(time.Since(begin))
		}
		// The index first: a search never finds a snapshot without one.
		// prev is served meanwhile.
		select {
		case <-c.index(prev, next).Done():
		case <-ctx.Done():
			return
		}
		c.derive(prev, next)
		c.store.Replace(next)
		c.servedSince.Store(time.Now().UnixNano())
	} else if len(b.Files) == 0 {
		return
	}
	publish(docs.Change{Prev: prev, Next: next, Diff: diff, Files: b.Files})
	if !diff.Empty() || len(b.Files) > 0 {
		c.log.Info("docs updated", "generation", next.Generation(),
			"added", len(diff.Added), "removed", len(diff.Removed), "changed", len(diff.Changed),
			"files", len(b.Files), "docs", len(next.Docs()))
	}
}
