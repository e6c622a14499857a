package httpserver

import (
	"errors"
	"fmt"
	"math"
	"net/netip"
	"sync"
	"time"

	"golang.org/x/time/rate"
)

// errSessionRate: a client opens sessions faster than --session-rate.
var errSessionRate = errors.New("too many new sessions from this client: reuse a session, or try again after Retry-After")

// rateError is errSessionRate with the wait before the next session is
// allowed (the Retry-After of the 429).
type rateError struct {
	by   string // "address" or "subject"
	wait time.Duration
}

func (e *rateError) Error() string {
	return fmt.Sprintf("%v (this %s may open %s)", errSessionRate, e.by, "at most --session-rate sessions a second")
}

func (e *rateError) Unwrap() error { return errSessionRate }

// retryAfter is the wait in whole seconds, at least 1.
func (e *rateError) retryAfter() int { return max(1, int(math.Ceil(e.wait.Seconds()))) }

// sessionRates limits the rate at which one client opens sessions: a
// token bucket per address (an IPv6 address by its /64, which one host
// usually holds whole) and, with OAuth, per subject. A session is the
// unit of what a client holds; a client opening them in a loop would
// otherwise make every other session of its address, or of the server,
// give way (see sessions.makeRoomLocked).
//
// Memory is bounded: a bucket that is full again is the same as none, so
// past maxBuckets the full ones are forgotten.
type sessionRates struct {
	limit rate.Limit
	burst int

	mu      sync.Mutex
	buckets map[string]*rate.Limiter
}

// maxBuckets is how many buckets are kept before full ones are forgotten.
const maxBuckets = 4096

// newSessionRates allows perSecond new sessions a second per client once
// it has opened burst at once (at least 1): a test suite, a team's agents
// starting together, or the clients of a replica that failed open dozens
// in a moment, then none. perSecond <= 0 allows any rate (nil).
func newSessionRates(perSecond float64, burst int) *sessionRates {
	if perSecond <= 0 {
		return nil
	}
	return &sessionRates{limit: rate.Limit(perSecond), burst: max(1, burst), buckets: map[string]*rate.Limiter{}}
}

// allow takes a token for a new session of the client at addr (and of
// subject, when not ""), or returns a *rateError saying how long to wait.
// A refusal takes nothing from either bucket.
func (r *sessionRates) allow(addr, subject string, now time.Time) error {
	if r == nil {
		return nil
	}
	type key struct{ by, name string }
	keys := []key{{"address", addrKey(addr)}}
	if subject != "" {
		keys = append(keys, key{"subject", subject})
	}
	r.mu.Lock()
	defer r.mu.Unlock()
	if len(r.buckets) >= maxBuckets {
		for k, b := range r.buckets {
			if b.TokensAt(now) >= float64(r.burst) {
				delete(r.buckets, k)
			}
		}
	}
	var taken []*rate.Reservation
	for _, k := range keys {
		b := r.buckets[k.by+" "+k.name]
		if b == nil {
			b = rate.NewLimiter(r.limit, r.burst)
			r.buckets[k.by+" "+k.name] = b
		}
		res := b.ReserveN(now, 1)
		if wait := res.DelayFrom(now); wait > 0 {
			res.CancelAt(now)
			for _, t := range taken {
				t.CancelAt(now)
			}
			return &rateError{by: k.by, wait: wait}
		}
		taken = append(taken, res)
	}
	return nil
}

// addrKey is the bucket of an address: an IPv6 address by its /64.
func addrKey(addr string) string {
	a, err := netip.ParseAddr(addr)
	if err != nil || !a.Unmap().Is6() {
		return addr
	}
	p, _ := a.Prefix(64)
	return p.String()
}
