package httpserver

import (
	"context"
	"crypto/rand"
	"errors"
	"net/http"
	"sync"
	"time"

	"github.com/mark3labs/mcp-go/server"
)

// Session errors, mapped to HTTP statuses by writeError.
var (
	errNoSession      = errors.New("this request needs the Mcp-Session-Id header from the initialize response")
	errUnknownSession = errors.New("unknown, expired or ended session: start a new one with initialize")
	errSessionsFull   = errors.New("too many live sessions: try again later, or end unused sessions with DELETE")
	errStreamOpen     = errors.New("this session already has an open GET stream")
)

// sessions tracks the live sessions of the Streamable HTTP endpoint. It is
// the SessionIdManager handed to mcp-go, so mcp-go's own checks (on POST) and
// its idle sweeper go through it too.
//
// Memory is bounded: an ended or expired session is forgotten at once (a
// later request with its id gets 404 just like a forged id), live sessions
// are capped by max, and admit reserves a slot before an initialize request
// mints an id, so concurrent initializes cannot overshoot the cap. It is
// also mcp-go's SessionIdManagerResolver, to hand each initialize request
// its reservation.
type sessions struct {
	max  int
	idle time.Duration
	now  func() time.Time

	mu        sync.Mutex
	live      map[string]*session
	admitting int  // initialize requests admitted and not yet finished
	stopping  bool // endStreams was called: no new streams
}

type session struct {
	lastSeen time.Time
	stream   context.CancelFunc // ends the open GET stream; nil when there is none
}

func newSessions(max int, idle time.Duration) *sessions {
	return &sessions{max: max, idle: idle, now: time.Now, live: make(map[string]*session)}
}

// Generate mints the id of a new session. mcp-go calls it for an
// initialize request, through the request's reservation (see
// ResolveSessionIdManager); this method serves callers without one.
func (s *sessions) Generate() string { return s.generate(nil) }

// generate mints an id, turning the request's reservation, if any, into
// the live session it was held for.
func (s *sessions) generate(r *reservation) string {
	id := rand.Text()
	s.mu.Lock()
	defer s.mu.Unlock()
	if r != nil {
		r.settle()
	}
	s.live[id] = &session{lastSeen: s.now()}
	return id
}

// Validate reports whether id names a live session. An unknown, forged,
// ended or expired id is an error (mcp-go answers 404); ended sessions are
// not remembered, so isTerminated is always false.
func (s *sessions) Validate(id string) (isTerminated bool, err error) {
	return false, s.touch(id)
}

// Terminate ends a session and its GET stream, if any. mcp-go calls it for
// DELETE, for sessions its idle sweeper finds, and on shutdown.
func (s *sessions) Terminate(id string) (isNotAllowed bool, err error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.end(id)
	return false, nil
}

// end forgets a session and ends its stream. The caller holds mu.
func (s *sessions) end(id string) {
	if ss, ok := s.live[id]; ok {
		if ss.stream != nil {
			ss.stream()
		}
		delete(s.live, id)
	}
}

// expired reports whether a session has been idle too long. A session with
// an open GET stream is in use, however quiet the stream. The caller holds mu.
func (s *sessions) expired(ss *session, now time.Time) bool {
	return ss.stream == nil && now.Sub(ss.lastSeen) > s.idle
}

// touch checks that id is live and records activity on it.
func (s *sessions) touch(id string) error {
	if id == "" {
		return errNoSession
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	ss, ok := s.live[id]
	now := s.now()
	if ok && s.expired(ss, now) {
		s.end(id)
		ok = false
	}
	if !ok {
		return errUnknownSession
	}
	ss.lastSeen = now
	return nil
}

// reservation is a slot held for one initialize request. It is the
// session id manager mcp-go uses for that request, so the id it mints fills
// exactly the slot reserved for it.
type reservation struct {
	s    *sessions
	done bool // the slot was filled or released; guarded by s.mu
}

// settle gives the slot up once, filled or released. The caller holds r.s.mu.
func (r *reservation) settle() {
	if !r.done {
		r.done = true
		r.s.admitting--
	}
}

func (r *reservation) Generate() string                  { return r.s.generate(r) }
func (r *reservation) Validate(id string) (bool, error)  { return r.s.Validate(id) }
func (r *reservation) Terminate(id string) (bool, error) { return r.s.Terminate(id) }

type reservationKey struct{}

// ResolveSessionIdManager gives mcp-go the manager for a request: the
// request's reservation when admit made one, else the sessions themselves
// (r is nil for mcp-go's idle sweeper).
func (s *sessions) ResolveSessionIdManager(r *http.Request) server.SessionIdManager {
	if r != nil {
		if res, ok := r.Context().Value(reservationKey{}).(*reservation); ok {
			return res
		}
	}
	return s
}

// admit reserves a slot for a new session and returns a context carrying
// it; release must be called once the initialize request is done. At the
// cap it first forgets expired sessions, and fails with errSessionsFull
// when none were.
func (s *sessions) admit(ctx context.Context) (_ context.Context, release func(), err error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if len(s.live)+s.admitting >= s.max {
		s.pruneLocked()
	}
	if len(s.live)+s.admitting >= s.max {
		return nil, nil, errSessionsFull
	}
	s.admitting++
	r := &reservation{s: s}
	return context.WithValue(ctx, reservationKey{}, r), func() {
		s.mu.Lock()
		defer s.mu.Unlock()
		r.settle()
	}, nil
}

// openStream registers the GET stream of a live session. The returned
// context ends when the session ends (DELETE, expiry, shutdown); done must
// be called when the stream closes.
func (s *sessions) openStream(ctx context.Context, id string) (_ context.Context, done func(), err error) {
	if err := s.touch(id); err != nil {
		return nil, nil, err
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	ss, ok := s.live[id]
	switch {
	case s.stopping:
		return nil, nil, errStopping
	case !ok:
		return nil, nil, errUnknownSession
	case ss.stream != nil:
		return nil, nil, errStreamOpen
	}
	ctx, cancel := context.WithCancel(ctx)
	ss.stream = cancel
	return ctx, func() {
		cancel()
		s.mu.Lock()
		defer s.mu.Unlock()
		if cur, ok := s.live[id]; ok && cur == ss {
			ss.stream = nil
			ss.lastSeen = s.now()
		}
	}, nil
}

// count returns the number of live sessions, forgetting expired ones.
func (s *sessions) count() int {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.pruneLocked()
	return len(s.live)
}

func (s *sessions) pruneLocked() {
	now := s.now()
	for id, ss := range s.live {
		if s.expired(ss, now) {
			s.end(id)
		}
	}
}

// endStreams ends every open GET stream and refuses new ones; the
// sessions stay, for the requests in flight.
func (s *sessions) endStreams() {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.stopping = true
	for _, ss := range s.live {
		if ss.stream != nil {
			ss.stream()
		}
	}
}

// streams returns the number of open GET streams.
func (s *sessions) streams() int {
	s.mu.Lock()
	defer s.mu.Unlock()
	n := 0
	for _, ss := range s.live {
		if ss.stream != nil {
			n++
		}
	}
	return n
}
