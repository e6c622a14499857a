package mcpserver

import (
	"context"
	"log/slog"
	"sync"

	"github.com/mark3labs/mcp-go/mcp"
	"github.com/mark3labs/mcp-go/server"
)

// maxSubscriptionsPerSession bounds the memory one session can hold with
// resources/subscribe. Past it, further subscriptions are refused in the
// log (mcp-go answers resources/subscribe before its hooks run, so the
// client still sees success).
const maxSubscriptionsPerSession = 10000

// subscriptions records which session is subscribed to which resource URI.
//
// mcp-go v1.2.1 answers resources/subscribe and resources/unsubscribe but
// records nothing unless the session type implements
// SessionWithResourceSubscriptions, which none of its own session types
// (stdio, Streamable HTTP, in-process) does. Its hooks are the supported
// way in: AfterSubscribe and AfterUnsubscribe run with the request's
// session in the context, and OnUnregisterSession runs when a session ends
// (stdio closing, HTTP DELETE, idle expiry), so subscriptions die with
// their session.
type subscriptions struct {
	mu        sync.Mutex
	bySession map[string]map[string]bool // session id -> URIs
	log       *slog.Logger
}

func newSubscriptions(log *slog.Logger) *subscriptions {
	return &subscriptions{bySession: map[string]map[string]bool{}, log: log}
}

// hook registers the subscription hooks.
func (s *subscriptions) hook(h *server.Hooks) {
	h.AddAfterSubscribe(func(ctx context.Context, _ any, req *mcp.SubscribeRequest, _ *mcp.EmptyResult) {
		if id := sessionID(ctx); id != "" {
			s.add(id, normalURI(req.Params.URI))
		}
	})
	h.AddAfterUnsubscribe(func(ctx context.Context, _ any, req *mcp.UnsubscribeRequest, _ *mcp.EmptyResult) {
		if id := sessionID(ctx); id != "" {
			s.remove(id, normalURI(req.Params.URI))
		}
	})
	h.AddOnUnregisterSession(func(_ context.Context, session server.ClientSession) {
		s.drop(session.SessionID())
	})
}

func sessionID(ctx context.Context) string {
	if session := server.ClientSessionFromContext(ctx); session != nil {
		return session.SessionID()
	}
	return ""
}

func (s *subscriptions) add(session, uri string) {
	s.mu.Lock()
	defer s.mu.Unlock()
	uris := s.bySession[session]
	if uris == nil {
		uris = map[string]bool{}
		s.bySession[session] = uris
	}
	if len(uris) >= maxSubscriptionsPerSession && !uris[uri] {
		s.log.Warn("too many subscriptions: not recorded", "session", session, "uri", uri, "max", maxSubscriptionsPerSession)
		return
	}
	uris[uri] = true
}

func (s *subscriptions) remove(session, uri string) {
	s.mu.Lock()
	defer s.mu.Unlock()
	delete(s.bySession[session], uri)
	if len(s.bySession[session]) == 0 {
		delete(s.bySession, session)
	}
}

func (s *subscriptions) drop(session string) {
	s.mu.Lock()
	defer s.mu.Unlock()
	delete(s.bySession, session)
}

// subscribers returns, for each session subscribed to any of uris, the
// URIs it is subscribed to among them.
func (s *subscriptions) subscribers(uris []string) map[string][]string {
	s.mu.Lock()
	defer s.mu.Unlock()
	out := map[string][]string{}
	for session, subs := range s.bySession {
		for _, u := range uris {
			if subs[u] {
				out[session] = append(out[session], u)
			}
		}
	}
	return out
}

// count returns the number of sessions with subscriptions.
func (s *subscriptions) count() int {
	s.mu.Lock()
	defer s.mu.Unlock()
	return len(s.bySession)
}

// normalURI spells a docs:// URI the way the server lists it, so that
// docs://a%20b.md and docs://a b.md are one subscription. Other URIs are
// kept as they are.
func normalURI(uri string) string {
	if p, err := docPathOf(uri); err == nil {
		return docURI(p)
	}
	return uri
}
