package mcpserver

import (
	"errors"

	"github.com/mark3labs/mcp-go/mcp"
	"github.com/mark3labs/mcp-go/server"

	"github.com/docs-mcp/docs-mcp/mcp-server/internal/budget"
	"github.com/docs-mcp/docs-mcp/mcp-server/internal/docs"
)

// Publish tells clients what a change of the corpus means for them (the
// corpus runs with it: corpus.Corpus.Run):
//
//   - when docs were added or removed (a rename is both), or a doc's
//     title changed, notifications/resources/list_changed goes to every
//     session on a revision before 2026-07-28 and to every
//     subscriptions/listen that asked for it (resources/list lists the
//     snapshot served: see listDocs);
//   - every subscription to the URI of a doc added, removed or changed,
//     of a changed repository file (and of each hook when the registry
//     changed), or of the map of the docs when it
//     changed (docs://map: see docsMap), gets
//     notifications/resources/updated for it, whether resources/subscribe
//     or subscriptions/listen made it; others get nothing.
//
// The corpus must already serve c.Next, so that a client reacting to a
// notification reads the new state.
func (s *Server) Publish(c docs.Change) {
	if c.Diff.Empty() && len(c.Files) == 0 {
		return // nothing to list or tell: rewrites with the same text
	}
	listed := len(c.Diff.Added) > 0 || len(c.Diff.Removed) > 0 || len(c.Diff.Retitled) > 0
	var touched []string // URIs for notifications/resources/updated
	for _, paths := range [][]string{c.Diff.Added, c.Diff.Changed, c.Diff.Removed} {
		for _, p := range paths {
			touched = append(touched, docURI(p))
		}
	}
	for _, f := range c.Files {
		switch f {
		case s.opts.RegistryPath:
			// Every hook:// subscribed to: the registry is read whole,
			// so an entry's change is not told from another's.
			touched = append(touched, registryURI)
			touched = append(touched, s.subs.subscribedUnder(hookScheme)...)
		case s.opts.ContributingPath:
			touched = append(touched, contributingURI)
		}
	}
	// The map is written again only when a client reads it or may hear of
	// it: its entries cost seconds of CPU on 40,000 docs the first time.
	if s.mapCache.written() || s.subs.subscribed(mapURI) {
		if _, changed := s.docsMap(); changed {
			touched = append(touched, mapURI)
		}
	}
	deliveries := s.subs.deliveries(listed, touched)
	s.log.Debug("publish", "touched", len(touched), "listed", listed, "notifications", len(deliveries))
	for _, d := range deliveries {
		s.deliver(d)
	}
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
	if queue == nil || d.to.over() {
		return // the session or the listen ended meanwhile
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
