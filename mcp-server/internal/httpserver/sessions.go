package httpserver

import (
	"context"
	"crypto/rand"
	"errors"
	"net/http"
	"slices"
	"sync"
	"time"

	"github.com/mark3labs/mcp-go/server"

	"github.com/docs-mcp/docs-mcp/mcp-server/internal/oauth"
)

// Session errors, mapped to HTTP statuses by writeError.
var (
	errNoSession      = errors.New("this request needs the Mcp-Session-Id header from the initialize response")
	errUnknownSession = errors.New("unknown, expired or ended session: start a new one with initialize")
	errSessionsFull   = errors.New("too many sessions in use: try again later, or end unused sessions with DELETE")
	errStreamOpen     = errors.New("this session already has an open GET stream")
	// errSubjectFull: one subject holds its share of sessions, all busy.
	errSubjectFull = errors.New("too many sessions in use by this subject: end unused sessions with DELETE, or try again later")
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
//
// Nobody is locked out: a session that has done nothing since initialize
// expires after initIdle, and at the cap admit makes room by ending a
// session of the client (address) that holds the most sessions, among
// those with no open stream and no request in flight: a probationary one
// (never used, or not used lately) before a protected one (see
// makeRoomLocked). So a script that opens sessions in a loop ends its own
// sessions, not another client's, and behind one address not the ones in
// use. Only when every session is busy is a new one refused.
//
// With OAuth, each session belongs to the subject whose token opened it:
// only that subject's requests reach it (anyone else gets 404, as for an
// unknown id), and one subject holds at most perSubject sessions, making
// room among its own when it has that many.
type sessions struct {
	max      int
	streams  int           // most sessions holding a GET stream (below max, so that the others can make room)
	idle     time.Duration // a session unused this long expires
	initIdle time.Duration // ... or this long, when it has done nothing since initialize
	now      func() time.Time

	mu        sync.Mutex
	live      map[string]*session
	admitting int  // initialize requests admitted and not yet finished
	streaming int  // open GET streams
	stopping  bool // endStreams was called: no new streams

	// ended holds the ids forgotten since the last call of the cleanup
	// goroutine, which tells mcp-go to free its state for them (see
	// startCleanup).
	ended []string
	wake  chan struct{}

	// With OAuth: the most live sessions one subject may hold (0: no such
	// cap), and the initialize requests admitted by subject (guarded by mu).
	perSubject  int
	admittingBy map[string]int
}

type session struct {
	subject  string // whose token opened it; "" without OAuth
	client   string // the address it was opened from
	lastSeen time.Time
	used     bool               // a request other than initialize and notifications/initialized was made
	inFlight int                // requests being answered
	stream   context.CancelFunc // ends the open GET stream; nil when there is none
}

func newSessions(max, streams int, idle, initIdle time.Duration) *sessions {
	return &sessions{max: max, streams: streams, idle: idle, initIdle: min(initIdle, idle), now: time.Now,
		live: make(map[string]*session), admittingBy: make(map[string]int), wake: make(chan struct{}, 1)}
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
	ss := &session{lastSeen: s.now()}
	if r != nil {
		r.settle()
		ss.subject, ss.client = r.subject, r.client
	}
	s.live[id] = ss
	return id
}

// Validate reports whether id names a live session. An unknown, forged,
// ended or expired id is an error (mcp-go answers 404); ended sessions are
// not remembered, so isTerminated is always false.
func (s *sessions) Validate(id string) (isTerminated bool, err error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	_, err = s.liveLocked(id)
	return false, err
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
	ss, ok := s.live[id]
	if !ok {
		return
	}
	if ss.stream != nil {
		ss.stream()
	}
	delete(s.live, id)
	s.ended = append(s.ended, id)
	select {
	case s.wake <- struct{}{}:
	default:
	}
}

// startCleanup runs cleanup for every session forgotten here (expired,
// made room for, deleted, shut down), until ctx ends. mcp-go keeps state
// for a session (its notification queue, log level, and our subscription
// hooks through it) until it hears of the end; sessions that expire or
// are made room for here would otherwise keep theirs until mcp-go's own
// sweeper runs, without bound in the meantime.
func (s *sessions) startCleanup(ctx context.Context, cleanup func(id string)) {
	go func() {
		for {
			select {
			case <-ctx.Done():
				return
			case <-s.wake:
			}
			s.mu.Lock()
			ids := s.ended
			s.ended = nil
			s.mu.Unlock()
			for _, id := range ids {
				cleanup(id)
			}
		}
	}()
}

// expired reports whether a session has been idle too long. A session with
// an open GET stream or a request in flight is in use, however quiet. The
// caller holds mu.
func (s *sessions) expired(ss *session, now time.Time) bool {
	if ss.stream != nil || ss.inFlight > 0 {
		return false
	}
	idle := s.idle
	if !ss.used {
		idle = s.initIdle
	}
	return now.Sub(ss.lastSeen) > idle
}

// liveLocked returns the live session id names. The caller holds mu.
func (s *sessions) liveLocked(id string) (*session, error) {
	if id == "" {
		return nil, errNoSession
	}
	ss, ok := s.live[id]
	if ok && s.expired(ss, s.now()) {
		s.end(id)
		ok = false
	}
	if !ok {
		return nil, errUnknownSession
	}
	return ss, nil
}

// begin checks that id is live and records a request on it; done must be
// called when the request is answered. used says whether the request
// counts as using the session (anything but initialize's follow-up
// notification).
func (s *sessions) begin(id string, used bool) (done func(), err error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	ss, err := s.liveLocked(id)
	if err != nil {
		return nil, err
	}
	ss.lastSeen = s.now()
	ss.used = ss.used || used
	ss.inFlight++
	return sync.OnceFunc(func() {
		s.mu.Lock()
		defer s.mu.Unlock()
		ss.inFlight--
		ss.lastSeen = s.now()
	}), nil
}

// checkOwner refuses a request of subject for a live session another
// subject opened, as if the id were unknown: a session id alone does not
// let one user act as another. Ids are never reused, so a session that
// ends after this check cannot become someone else's.
func (s *sessions) checkOwner(id, subject string) error {
	s.mu.Lock()
	defer s.mu.Unlock()
	if ss, ok := s.live[id]; ok && ss.subject != subject {
		return errUnknownSession
	}
	return nil
}

// touch checks that id is live and records activity on it.
func (s *sessions) touch(id string) error {
	done, err := s.begin(id, true)
	if err == nil {
		done()
	}
	return err
}

// reservation is a slot held for one initialize request. It is the
// session id manager mcp-go uses for that request, so the id it mints fills
// exactly the slot reserved for it.
type reservation struct {
	s       *sessions
	subject string
	client  string // the address of the initialize request
	done    bool   // the slot was filled or released; guarded by s.mu
}

// settle gives the slot up once, filled or released. The caller holds r.s.mu.
func (r *reservation) settle() {
	if !r.done {
		r.done = true
		r.s.admitting--
		if r.s.admittingBy[r.subject]--; r.s.admittingBy[r.subject] <= 0 {
			delete(r.s.admittingBy, r.subject)
		}
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

// admit reserves a slot for a new session of the request's subject (see
// oauth.Subject) and returns a context carrying it; release must be called once the initialize request is done.
// At the cap it first forgets expired sessions, then ends the idle session
// unused longest (see makeRoomLocked), and fails with errSessionsFull only
// when every session is busy. A subject at perSubject makes room among its
// own sessions the same way, else gets errSubjectFull. evicted names the
// cap at which each session it ended made room: bySubject or byTotal.
func (s *sessions) admit(ctx context.Context, client string) (_ context.Context, release func(), evicted []evictedBy, err error) {
	subject, _ := oauth.Subject(ctx)
	s.mu.Lock()
	defer s.mu.Unlock()
	if len(s.live)+s.admitting >= s.max {
		s.pruneLocked()
	}
	if s.perSubject > 0 && s.heldLocked(subject) >= s.perSubject {
		s.pruneLocked()
		if s.heldLocked(subject) >= s.perSubject {
			if !s.makeRoomLocked(subject) {
				return nil, nil, nil, errSubjectFull
			}
			evicted = append(evicted, bySubject)
		}
	}
	if len(s.live)+s.admitting >= s.max {
		if !s.makeRoomLocked("") {
			return nil, nil, evicted, errSessionsFull
		}
		evicted = append(evicted, byTotal)
	}
	s.admitting++
	s.admittingBy[subject]++
	r := &reservation{s: s, subject: subject, client: client}
	return context.WithValue(ctx, reservationKey{}, r), func() {
		s.mu.Lock()
		defer s.mu.Unlock()
		r.settle()
	}, evicted, nil
}

// evictedBy names the cap at which admit ended a session to make room.
type evictedBy int

const (
	bySubject evictedBy = iota // the subject's, perSubject
	byTotal                    // the server's, max
)

// heldLocked is the number of sessions subject holds or is being admitted
// to. The caller holds mu.
func (s *sessions) heldLocked(subject string) int {
	n := s.admittingBy[subject]
	for _, ss := range s.live {
		if ss.subject == subject {
			n++
		}
	}
	return n
}

// makeRoomLocked ends one idle session to make room for a new one: of the
// sessions with no open stream and no request in flight (of subject, when
// one is given), one of the client (address) holding the most sessions,
// and of those the one the segments below give up first. It reports false
// when every such session is busy. The caller holds mu.
//
// The sessions form a segmented LRU, as SLRU and 2Q caches do: a session
// enters the probationary segment at initialize and is promoted to the
// protected one by its first call; the protected segment holds the
// protectedShare of max most recently used sessions, and one that falls
// out of it is probationary again. Room is made in probation first, its
// session unused longest first, then among the protected ones. So a
// client that opens sessions it does not use ends its own, never one in
// use; and sessions used once and left idle do not hold their slots
// forever against new clients of their address: once newer sessions are
// used, they fall back into probation and make room before new ones.
func (s *sessions) makeRoomLocked(subject string) bool {
	held := map[string]int{}
	var seen []time.Time // of the sessions used since initialize
	for _, ss := range s.live {
		held[ss.client]++
		if ss.used {
			seen = append(seen, ss.lastSeen)
		}
	}
	// A used session seen at or after protectedSince is protected.
	var protectedSince time.Time
	if protect := max(1, s.max*protectedShare/100); len(seen) > protect {
		slices.SortFunc(seen, func(a, b time.Time) int { return b.Compare(a) })
		protectedSince = seen[protect-1]
	}
	probation := func(ss *session) bool { return !ss.used || ss.lastSeen.Before(protectedSince) }
	var (
		victim string
		best   *session
	)
	for id, ss := range s.live {
		if ss.stream != nil || ss.inFlight > 0 || (subject != "" && ss.subject != subject) {
			continue
		}
		if best == nil || held[ss.client] > held[best.client] ||
			held[ss.client] == held[best.client] && ((probation(ss) && !probation(best)) ||
				(probation(ss) == probation(best) && ss.lastSeen.Before(best.lastSeen))) {
			victim, best = id, ss
		}
	}
	if best == nil {
		return false
	}
	s.end(victim)
	return true
}

// protectedShare is the percentage of --max-sessions the protected
// segment holds (see makeRoomLocked): the share of SLRU caches.
const protectedShare = 80

// openStream registers the GET stream of a live session. The returned
// context ends when the session ends (DELETE, expiry, shutdown); done must
// be called when the stream closes.
func (s *sessions) openStream(ctx context.Context, id string) (_ context.Context, done func(), err error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	ss, err := s.liveLocked(id)
	switch {
	case s.stopping:
		return nil, nil, errStopping
	case err != nil:
		return nil, nil, err
	case ss.stream != nil:
		return nil, nil, errStreamOpen
	case s.streaming >= s.streams:
		// Sessions with a stream cannot make room for new ones.
		return nil, nil, errStreamsFull
	}
	s.streaming++
	ss.lastSeen, ss.used = s.now(), true
	ctx, cancel := context.WithCancel(ctx)
	ss.stream = cancel
	return ctx, sync.OnceFunc(func() {
		cancel()
		s.mu.Lock()
		defer s.mu.Unlock()
		s.streaming--
		if cur, ok := s.live[id]; ok && cur == ss {
			ss.stream = nil
			ss.lastSeen = s.now()
		}
	}), nil
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
