package mcpserver

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"log/slog"
	"sync"

	"github.com/mark3labs/mcp-go/mcp"
	"github.com/mark3labs/mcp-go/server"

	"github.com/docs-mcp/docs-mcp/mcp-server/internal/budget"
)

const (
	// DefaultMaxSubscriptions bounds the resources one session may
	// subscribe to.
	DefaultMaxSubscriptions = 1000
	// DefaultMaxQueuedNotifications bounds the notifications waiting for
	// one session. It is also the most there can be: mcp-go gives each
	// session a queue of 100 and drops what does not fit.
	DefaultMaxQueuedNotifications = 100
	// maxURIBytes bounds a URI a client may subscribe to: longer than any
	// the server lists, and refused before it is looked up.
	maxURIBytes = 4096
)

var (
	errNoSuchResource    = errors.New("no such resource")
	errTooManySubscribed = errors.New("too many subscriptions for this session")
)

// subscriptions records which session is subscribed to which resource URI.
//
// mcp-go v1.2.1 answers resources/subscribe and resources/unsubscribe but
// records nothing unless the session type implements
// SessionWithResourceSubscriptions, which none of its own session types
// (stdio, Streamable HTTP, in-process) does. Its hooks are the supported
// way in: OnRequestInitialization runs before a request is handled and may
// refuse it (a URI the server does not serve, past the per-session cap);
// AfterSubscribe and AfterUnsubscribe run with the request's session in the
// context; and OnUnregisterSession runs when a session ends (stdio closing,
// HTTP DELETE, idle expiry, a session ended to make room), so
// subscriptions die with their session.
type subscriptions struct {
	max     int
	serves  func(ctx context.Context, uri string) bool // whether the server lists uri
	budgets *budget.Budgets
	log     *slog.Logger

	mu        sync.Mutex
	bySession map[string]map[string]bool // session id -> URIs
	sessions  map[string]server.ClientSession
}

func newSubscriptions(max int, serves func(context.Context, string) bool, budgets *budget.Budgets, log *slog.Logger) *subscriptions {
	budgets.Define(budget.Subscriptions, int64(max), nil)
	return &subscriptions{max: max, serves: serves, budgets: budgets, log: log,
		bySession: map[string]map[string]bool{}, sessions: map[string]server.ClientSession{}}
}

// hook registers the subscription hooks.
func (s *subscriptions) hook(h *server.Hooks) {
	h.AddOnRequestInitialization(s.check)
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
	h.AddOnRegisterSession(func(_ context.Context, session server.ClientSession) {
		s.mu.Lock()
		defer s.mu.Unlock()
		s.sessions[session.SessionID()] = session
	})
	h.AddOnUnregisterSession(func(_ context.Context, session server.ClientSession) {
		s.drop(session.SessionID())
	})
}

// check refuses a subscription the server will not keep: to a URI it does
// not list, or past the session's cap (subscribing again to a URI already
// subscribed to is fine). It covers resources/subscribe and the resource
// subscriptions of a 2026-07-28 subscriptions/listen. mcp-go answers the
// refusal with -32600 and its text.
func (s *subscriptions) check(ctx context.Context, _ any, message any) error {
	raw, ok := message.(json.RawMessage)
	if !ok {
		return nil
	}
	var m struct {
		Method string `json:"method"`
		Params struct {
			URI           string `json:"uri"`
			Notifications struct {
				ResourceSubscriptions []string `json:"resourceSubscriptions"`
			} `json:"notifications"`
		} `json:"params"`
	}
	if json.Unmarshal(raw, &m) != nil {
		return nil // mcp-go answers what it cannot parse
	}
	var (
		uris    []string
		session string
	)
	switch mcp.MCPMethod(m.Method) {
	case mcp.MethodResourcesSubscribe:
		uris, session = []string{m.Params.URI}, sessionID(ctx)
	case mcp.MethodSubscriptionsListen:
		uris = m.Params.Notifications.ResourceSubscriptions
	default:
		return nil
	}
	if len(uris) > s.max {
		s.budgets.Refuse(budget.Subscriptions)
		return fmt.Errorf("%w: %d resources in one request, the limit is %d (--max-subscriptions)", errTooManySubscribed, len(uris), s.max)
	}
	for _, uri := range uris {
		if len(uri) > maxURIBytes {
			s.budgets.Refuse(budget.Subscriptions)
			return fmt.Errorf("%w: a URI of %d bytes (the limit is %d); subscribe to a URI from resources/list", errNoSuchResource, len(uri), maxURIBytes)
		}
		if !s.serves(ctx, uri) {
			return fmt.Errorf("%w: %q; subscribe to a URI from resources/list", errNoSuchResource, uri)
		}
	}
	if session != "" && s.full(session, normalURI(uris[0])) {
		s.budgets.Refuse(budget.Subscriptions)
		return fmt.Errorf("%w: the limit is %d (--max-subscriptions); unsubscribe from some first", errTooManySubscribed, s.max)
	}
	return nil
}

func sessionID(ctx context.Context) string {
	if session := server.ClientSessionFromContext(ctx); session != nil {
		return session.SessionID()
	}
	return ""
}

// full reports whether session may not subscribe to one more URI.
func (s *subscriptions) full(session, uri string) bool {
	s.mu.Lock()
	defer s.mu.Unlock()
	uris := s.bySession[session]
	return len(uris) >= s.max && !uris[uri]
}

func (s *subscriptions) add(session, uri string) {
	s.mu.Lock()
	defer s.mu.Unlock()
	uris := s.bySession[session]
	if uris == nil {
		uris = map[string]bool{}
		s.bySession[session] = uris
	}
	if len(uris) >= s.max && !uris[uri] {
		// Only concurrent subscribes of one session get here past check.
		s.budgets.Refuse(budget.Subscriptions)
		s.log.Warn("too many subscriptions: not recorded", "session", session, "uri", uri, "max", s.max)
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
	delete(s.sessions, session)
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

// queued returns the number of notifications waiting for a session, or 0
// when it is not known.
func (s *subscriptions) queued(session string) int {
	s.mu.Lock()
	cs := s.sessions[session]
	s.mu.Unlock()
	if cs == nil {
		return 0
	}
	return len(cs.NotificationChannel())
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
