package mcpserver

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"log/slog"
	"maps"
	"slices"
	"strings"
	"sync"

	"github.com/mark3labs/mcp-go/mcp"
	"github.com/mark3labs/mcp-go/server"

	"github.com/docs-mcp/docs-mcp/mcp-server/internal/budget"
	"github.com/docs-mcp/docs-mcp/mcp-server/internal/protocol"
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

// subscriber is one subscription, whichever revision made it: a session's
// resources/subscribe calls (2024-11-05 to 2025-11-25), or one
// subscriptions/listen request (2026-07-28). Both are kept, counted
// against --max-subscriptions and sent their notifications the same way
// (see deliver); they differ only in what ends them (resources/unsubscribe
// and the session's end; the end of the listen request: cancelled, its
// stream closed, or its session ended) and in the id a listen's
// notifications carry.
type subscriber struct {
	session string               // the session's id; "" for a 2026-07-28 request over HTTP, which has none
	client  server.ClientSession // where a listen's notifications go
	listen  any                  // the subscriptions/listen request's id; nil for resources/subscribe
	// listChanged: the subscriber gets notifications/resources/list_changed.
	// A session on an older revision gets it unasked; a listen, when it
	// asked for resourcesListChanged.
	listChanged bool
	uris        map[string]bool
	// ended is closed when a listen's request ends (nil for
	// resources/subscribe). A cancellation ends it in mcp-go's read loop,
	// before the next message is read; the listen leaves the list in a
	// goroutine of its own a moment later (context.AfterFunc), and is sent
	// nothing meanwhile (deliveries, deliver).
	ended <-chan struct{}
}

// over reports whether the subscriber's listen has ended.
func (sub *subscriber) over() bool {
	select {
	case <-sub.ended:
		return true
	default: // also for nil: resources/subscribe, which ends otherwise
		return false
	}
}

// owner is what the subscription budget is counted by: the session, or
// for a session without an id, the listen itself.
func (sub *subscriber) owner() any {
	if sub.session != "" {
		return sub.session
	}
	return sub
}

// subscriptions records who is subscribed to what, and which sessions
// are to hear that the resource list changed.
//
// mcp-go (v1.2.1 to v1.6.0) answers resources/subscribe and keeps nothing (none of its
// session types implements SessionWithResourceSubscriptions), and for
// subscriptions/listen it only records the notification types asked for.
// Its hooks are the supported way in: OnRequestInitialization runs before
// a request is handled and may refuse it (past the per-session cap);
// AfterSubscribe and AfterUnsubscribe run with the request's session in
// the context; BeforeSubscriptionsListen may narrow the request and runs
// with the listen's context, which ends with the listen; BeforeAny and
// AfterInitialize tell
// sessions on 2026-07-28 (which get nothing unasked) from older ones; and
// OnUnregisterSession runs when a session ends (stdio closing, HTTP DELETE,
// idle expiry, a session ended to make room), so subscriptions die with
// their session.
type subscriptions struct {
	max     int
	serves  func(ctx context.Context, uri string) bool // whether the server lists uri
	budgets *budget.Budgets
	log     *slog.Logger

	mu       sync.Mutex
	legacy   map[string]*subscriber          // session id -> its resources/subscribe subscriptions
	listens  map[*subscriber]bool            // open subscriptions/listen requests
	sessions map[string]server.ClientSession // registered sessions
	// modern tells a registered session's revision once it is known:
	// true when it made a 2026-07-28 request before any initialize,
	// false when it made the initialize handshake. The handshake wins: a
	// client that initialized on an older revision keeps getting what
	// that revision sends unasked, whatever _meta a later request carries.
	modern map[string]bool
}

func newSubscriptions(max int, serves func(context.Context, string) bool, budgets *budget.Budgets, log *slog.Logger) *subscriptions {
	budgets.Define(budget.Subscriptions, int64(max), nil)
	return &subscriptions{max: max, serves: serves, budgets: budgets, log: log,
		legacy: map[string]*subscriber{}, listens: map[*subscriber]bool{},
		sessions: map[string]server.ClientSession{}, modern: map[string]bool{}}
}

// hook registers the subscription hooks.
func (s *subscriptions) hook(h *server.Hooks) {
	h.AddOnRequestInitialization(s.check)
	h.AddBeforeAny(func(ctx context.Context, _ any, _ mcp.MCPMethod, _ any) {
		if info := server.RequestProtocolInfoFromContext(ctx); info != nil && info.Modern {
			if id := sessionID(ctx); id != "" {
				s.mu.Lock()
				if _, known := s.modern[id]; !known && s.sessions[id] != nil {
					s.modern[id] = true
				}
				s.mu.Unlock()
			}
		}
	})
	h.AddAfterInitialize(func(ctx context.Context, _ any, _ *mcp.InitializeRequest, _ *mcp.InitializeResult) {
		if id := sessionID(ctx); id != "" {
			s.mu.Lock()
			if s.sessions[id] != nil {
				s.modern[id] = false
			}
			s.mu.Unlock()
		}
	})
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
	h.AddBeforeSubscriptionsListen(s.listen)
	h.AddOnRegisterSession(func(_ context.Context, session server.ClientSession) {
		s.mu.Lock()
		defer s.mu.Unlock()
		s.sessions[session.SessionID()] = session
	})
	h.AddOnUnregisterSession(func(_ context.Context, session server.ClientSession) {
		s.drop(session.SessionID())
	})
}

// check refuses a subscription the server will not keep: one past the
// session's cap (subscribing again to a URI already subscribed to is
// fine), or a resources/subscribe to a URI it does not list. It covers
// resources/subscribe and the resource subscriptions of a 2026-07-28
// subscriptions/listen (whose unknown URIs listen drops). mcp-go answers a
// refusal here with -32600; the transports answer an unknown URI with
// -32602 before it gets here (see Refusal).
func (s *subscriptions) check(ctx context.Context, _ any, message any) error {
	m := protocol.FromContext(ctx) // the transport's parse (stdio and HTTP hand it on)
	if m == nil {
		// A transport that hands on no parse (mcp-go's in-process client,
		// in tests) gives the bytes: only a subscribe or a listen is
		// parsed whole, not every tool call.
		raw, ok := message.(json.RawMessage)
		if !ok {
			return nil
		}
		switch mcp.MCPMethod(protocol.Method(raw)) {
		case mcp.MethodResourcesSubscribe, mcp.MethodSubscriptionsListen:
		default:
			return nil
		}
		parsed, err := protocol.Parse(raw)
		if err != nil {
			return nil // mcp-go answers what it cannot parse
		}
		m = &parsed
	}
	if m.ParamsErr != nil {
		return nil
	}
	var uris []string
	switch mcp.MCPMethod(m.Method) {
	case mcp.MethodResourcesSubscribe:
		if mcp.IsModernProtocol(m.ProtocolVersion()) {
			return nil // removed on 2026-07-28: mcp-go says method not found
		}
		uris = []string{m.Params.URI}
	case mcp.MethodSubscriptionsListen:
		uris = m.Params.Notifications.ResourceSubscriptions
	default:
		return nil
	}
	if len(uris) > s.max {
		s.budgets.Refuse(budget.Subscriptions)
		return fmt.Errorf("%w: %d resources in one request, the limit is %d (--max-subscriptions)", errTooManySubscribed, len(uris), s.max)
	}
	known, unknown := s.known(ctx, uris)
	if m.Method == string(mcp.MethodResourcesSubscribe) && len(unknown) > 0 {
		if len(uris[0]) > maxURIBytes {
			s.budgets.Refuse(budget.Subscriptions)
		}
		return unknown[0]
	}
	if s.full(ctx, known) {
		s.budgets.Refuse(budget.Subscriptions)
		return fmt.Errorf("%w: the limit is %d (--max-subscriptions); unsubscribe from some first", errTooManySubscribed, s.max)
	}
	return nil
}

// known splits uris into those the server lists (spelt as it lists them,
// without repeats) and an error for each of the others.
func (s *subscriptions) known(ctx context.Context, uris []string) (known []string, unknown []error) {
	for _, uri := range uris {
		switch {
		case len(uri) > maxURIBytes:
			unknown = append(unknown, fmt.Errorf("%w: a URI of %d bytes (the limit is %d); subscribe to a URI from resources/list", errNoSuchResource, len(uri), maxURIBytes))
		case !s.serves(ctx, uri):
			unknown = append(unknown, fmt.Errorf("%w: %q; subscribe to a URI from resources/list", errNoSuchResource, uri))
		case !slices.Contains(known, normalURI(uri)):
			known = append(known, normalURI(uri))
		}
	}
	return known, unknown
}

// listen records a subscriptions/listen request for as long as it runs
// (its context ends with it). URIs the server does not list are dropped
// from the request, so that mcp-go's acknowledgement names only those
// established: the client sees which of its URIs were refused.
func (s *subscriptions) listen(ctx context.Context, id any, req *mcp.SubscriptionsListenRequest) {
	n := &req.Params.Notifications
	known, unknown := s.known(ctx, n.ResourceSubscriptions)
	if len(unknown) > 0 {
		s.log.Info("subscriptions/listen: URIs not served, not subscribed", "refused", len(unknown), "first", unknown[0])
	}
	n.ResourceSubscriptions = known
	client := server.ClientSessionFromContext(ctx)
	if client == nil || id == nil || (len(known) == 0 && !n.ResourcesListChanged) {
		return // mcp-go refuses it, or answers at once: nothing to deliver
	}
	sub := &subscriber{session: client.SessionID(), client: client, listen: id,
		listChanged: n.ResourcesListChanged, uris: map[string]bool{}, ended: ctx.Done()}
	for _, uri := range known {
		sub.uris[uri] = true
	}
	s.mu.Lock()
	s.listens[sub] = true
	s.mu.Unlock()
	context.AfterFunc(ctx, func() {
		s.mu.Lock()
		defer s.mu.Unlock()
		delete(s.listens, sub)
	})
}

func sessionID(ctx context.Context) string {
	if session := server.ClientSessionFromContext(ctx); session != nil {
		return session.SessionID()
	}
	return ""
}

// full reports whether the session of ctx may not subscribe to uris on
// top of what it holds.
func (s *subscriptions) full(ctx context.Context, uris []string) bool {
	id := sessionID(ctx)
	if id == "" {
		return len(uris) > s.max // a listen of its own: counted alone
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	held := s.heldLocked(id)
	for _, uri := range uris {
		held[uri] = true
	}
	return len(held) > s.max
}

// heldLocked returns the URIs a session is subscribed to, in all its
// subscriptions.
func (s *subscriptions) heldLocked(session string) map[string]bool {
	held := map[string]bool{}
	for _, sub := range s.subscribersLocked() {
		if sub.owner() == session {
			for uri := range sub.uris {
				held[uri] = true
			}
		}
	}
	return held
}

func (s *subscriptions) add(session, uri string) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if held := s.heldLocked(session); len(held) >= s.max && !held[uri] {
		// Only concurrent subscribes of one session get here past check.
		s.budgets.Refuse(budget.Subscriptions)
		s.log.Warn("too many subscriptions: not recorded", "session", session, "uri", uri, "max", s.max)
		return
	}
	sub := s.legacy[session]
	if sub == nil {
		sub = &subscriber{session: session, uris: map[string]bool{}}
		s.legacy[session] = sub
	}
	sub.uris[uri] = true
}

func (s *subscriptions) remove(session, uri string) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if sub := s.legacy[session]; sub != nil {
		delete(sub.uris, uri)
		if len(sub.uris) == 0 {
			delete(s.legacy, session)
		}
	}
}

// drop forgets a session that ended, with its subscriptions. (Its listens
// end with their requests, which the session's end cancels.)
func (s *subscriptions) drop(session string) {
	s.mu.Lock()
	defer s.mu.Unlock()
	delete(s.legacy, session)
	delete(s.sessions, session)
	delete(s.modern, session)
}

// subscribersLocked returns every subscriber with URIs or a listen.
func (s *subscriptions) subscribersLocked() []*subscriber {
	out := make([]*subscriber, 0, len(s.legacy)+len(s.listens))
	for _, sub := range s.legacy {
		out = append(out, sub)
	}
	for sub := range s.listens {
		out = append(out, sub)
	}
	return out
}

// delivery is one notification to send: notifications/resources/updated
// for uri, or notifications/resources/list_changed when uri is "".
type delivery struct {
	to  *subscriber
	uri string
}

// deliveries returns the notifications a change means: list_changed (when
// listed) for every session on an older revision and every listen that
// asked for it, and resources/updated for each subscription to a URI in
// touched. A session on 2026-07-28 gets only what a listen asked for.
func (s *subscriptions) deliveries(listed bool, touched []string) []delivery {
	s.mu.Lock()
	defer s.mu.Unlock()
	var out []delivery
	if listed {
		for id, cs := range s.sessions {
			if !s.modern[id] && cs.Initialized() {
				to := s.legacy[id]
				if to == nil {
					to = &subscriber{session: id}
				}
				out = append(out, delivery{to: to})
			}
		}
		for sub := range s.listens {
			if sub.listChanged && !sub.over() {
				out = append(out, delivery{to: sub})
			}
		}
	}
	for _, sub := range s.subscribersLocked() {
		if sub.over() {
			continue
		}
		for _, uri := range touched {
			if sub.uris[uri] {
				out = append(out, delivery{to: sub, uri: uri})
			}
		}
	}
	return out
}

// subscribed reports whether any subscription holds uri.
func (s *subscriptions) subscribed(uri string) bool {
	s.mu.Lock()
	defer s.mu.Unlock()
	for _, sub := range s.subscribersLocked() {
		if sub.uris[uri] {
			return true
		}
	}
	return false
}

// subscribedUnder lists the URIs starting with prefix that someone is
// subscribed to, each once.
func (s *subscriptions) subscribedUnder(prefix string) []string {
	s.mu.Lock()
	defer s.mu.Unlock()
	seen := map[string]bool{}
	for _, sub := range s.subscribersLocked() {
		for uri := range sub.uris {
			if strings.HasPrefix(uri, prefix) {
				seen[uri] = true
			}
		}
	}
	return slices.Sorted(maps.Keys(seen))
}

// queue returns the queue of notifications waiting for sub's session, or
// nil when it is not known.
func (s *subscriptions) queue(sub *subscriber) chan<- mcp.JSONRPCNotification {
	if sub.client != nil {
		return sub.client.NotificationChannel()
	}
	s.mu.Lock()
	cs := s.sessions[sub.session]
	s.mu.Unlock()
	if cs == nil {
		return nil
	}
	return cs.NotificationChannel()
}

// count returns the number of subscriptions: sessions subscribed with
// resources/subscribe, and open listens.
func (s *subscriptions) count() int {
	s.mu.Lock()
	defer s.mu.Unlock()
	return len(s.legacy) + len(s.listens)
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
