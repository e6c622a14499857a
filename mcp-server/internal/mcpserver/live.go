package mcpserver

import (
	"context"
	"errors"
	"time"

	"github.com/mark3labs/mcp-go/mcp"
	"github.com/mark3labs/mcp-go/server"

	"github.com/docs-mcp/docs-mcp/mcp-server/internal/budget"
	"github.com/docs-mcp/docs-mcp/mcp-server/internal/docs"
	"github.com/docs-mcp/docs-mcp/mcp-server/watch"
)

// follow keeps the server in step with the files on disk until ctx ends:
// each batch from w is applied to the docs snapshot (only the files it
// names are read again), the new snapshot replaces the old one at once,
// its search index starts building, and Publish tells clients. Batches
// come one at a time, so snapshots follow each other in generation order.
//
// follow may start before the docs are loaded, and should (Run does): start
// it, wait for w.Ready, then load and Open. A batch that comes before Open waits
// for it (the watcher coalesces what arrives meanwhile), and is then
// applied to the loaded snapshot, so an edit made while the docs loaded
// is never lost: at worst a file read by the load is read again.
func (s *Server) follow(ctx context.Context, w *watch.Watcher) error {
	return w.Run(ctx, s.apply)
}

// apply brings one batch of changes from the watcher in.
func (s *Server) apply(ctx context.Context, b watch.Batch) { s.update(ctx, b, true) }

// update brings one batch of changes in, and reports it to the Observer
// as a reload when observe is set (Run's rescan at start-up is not one).
// Batches come from the watcher one at a time, and Run's rescan may come
// beside them: applyMu keeps each update based on the snapshot the last
// one made.
func (s *Server) update(ctx context.Context, b watch.Batch, observe bool) {
	if s.awaitDocs(ctx) != nil {
		return
	}
	s.applyMu.Lock()
	defer s.applyMu.Unlock()
	prev := s.store.Snapshot()
	begin := time.Now()
	next, diff, err := docs.Update(ctx, prev, s.opts.DocsPath, docs.Changes{Paths: b.Paths, All: b.All}, s.loadOptions(prev.Generation()+1))
	if err != nil {
		if ctx.Err() == nil {
			s.log.Warn("cannot read the docs folder; serving the last docs read until it is back",
				"generation", prev.Generation(), "err", err)
		}
		next, diff = prev, docs.Diff{}
	} else if observe && s.opts.Observer != nil {
		s.opts.Observer.ObserveReload(time.Since(begin))
	}
	if next != prev {
		s.store.Replace(next)
		s.servedSince.Store(time.Now().UnixNano())
		s.indexInBackground(prev, next)
		prebuildTree(prev, next)
	}
	s.Publish(Change{Prev: prev, Next: next, Diff: diff, Files: b.Files})
}

// Change is one update of what the server serves: the docs snapshot before
// and after (the store already holds Next), what differs between them, and
// the repository files that may have changed.
type Change struct {
	Prev, Next *docs.Snapshot
	Diff       docs.Diff
	Files      []string // RegistryPath or ContributingPath, as configured
}

// Publish tells clients what a change means for them:
//
//   - when docs were added or removed (a rename is both), or a doc's
//     title changed, notifications/resources/list_changed goes to every
//     session on a revision before 2026-07-28 and to every
//     subscriptions/listen that asked for it (resources/list lists the
//     snapshot served: see listDocs);
//   - every subscription to the URI of a doc added, removed or changed,
//     or of a changed repository file, gets
//     notifications/resources/updated for it, whether resources/subscribe
//     or subscriptions/listen made it; others get nothing.
//
// The store must already serve c.Next, so that a client reacting to a
// notification reads the new state.
func (s *Server) Publish(c Change) {
	if c.Diff.Empty() && len(c.Files) == 0 {
		return // nothing to list or tell: a poll that found no change, or rewrites with the same text
	}
	// The list changed when docs came or went, or a doc's title changed.
	listed := len(c.Diff.Added) > 0 || len(c.Diff.Removed) > 0
	var touched []string // URIs for notifications/resources/updated
	for _, p := range c.Diff.Added {
		touched = append(touched, docURI(p))
	}
	for _, p := range c.Diff.Changed {
		old, _ := c.Prev.Lookup(p)
		d, ok := c.Next.Lookup(p)
		listed = listed || ok && (old == nil || old.Title() != d.Title())
		touched = append(touched, docURI(p))
	}
	for _, p := range c.Diff.Removed {
		touched = append(touched, docURI(p))
	}
	for _, f := range c.Files {
		switch f {
		case s.opts.RegistryPath:
			touched = append(touched, registryURI)
		case s.opts.ContributingPath:
			touched = append(touched, contributingURI)
		}
	}
	deliveries := s.subs.deliveries(listed, touched)
	s.log.Debug("publish", "touched", len(touched), "listed", listed, "notifications", len(deliveries))
	for _, d := range deliveries {
		s.deliver(d)
	}
	s.log.Info("docs updated", "generation", c.Next.Generation(),
		"added", len(c.Diff.Added), "removed", len(c.Diff.Removed), "changed", len(c.Diff.Changed),
		"files", len(c.Files), "docs", len(c.Next.Docs()))
}

// deliver sends one notification to its subscriber: the one way every
// notification leaves, on every revision and transport. A listen's
// notifications carry its id in _meta (io.modelcontextprotocol/subscriptionId),
// as 2026-07-28 requires on stdio as on HTTP.
func (s *Server) deliver(d delivery) {
	n := mcp.JSONRPCNotification{JSONRPC: mcp.JSONRPC_VERSION}
	n.Method = string(mcp.MethodNotificationResourcesListChanged)
	if d.uri != "" {
		n.Method = string(mcp.MethodNotificationResourceUpdated)
		n.Params.AdditionalFields = map[string]any{"uri": d.uri}
	}
	if d.to.listen != nil {
		n.Params.Meta = map[string]any{mcp.MetaKeySubscriptionID: d.to.listen}
	}
	queue := s.subs.queue(d.to)
	if queue == nil {
		return // the session ended meanwhile
	}
	if len(queue) >= s.opts.MaxQueued {
		// A client that does not take its notifications loses the
		// newest; the next read of the resource has them all.
		s.opts.Budgets.Refuse(budget.Notifications)
		return
	}
	if d.to.client == nil {
		// A session on an older revision: through mcp-go, which finds the
		// session's stream (over HTTP, the GET stream or the next POST's).
		err := s.mcp.SendNotificationToSpecificClient(d.to.session, n.Method, n.Params.AdditionalFields)
		switch {
		case errors.Is(err, server.ErrNotificationChannelBlocked):
			s.opts.Budgets.Refuse(budget.Notifications)
		case err != nil && !errors.Is(err, server.ErrSessionNotFound):
			s.log.Warn("notification not delivered", "session", d.to.session, "method", n.Method, "err", err)
		}
		return
	}
	select {
	case queue <- n:
	default:
		s.opts.Budgets.Refuse(budget.Notifications)
	}
}
