package httpserver

import (
	"context"
	"errors"
	"net/http"
	"sync"
	"time"
)

var errStreamsFull = errors.New("too many open event streams: try again later; requests work without one")

// streams counts the open event streams of both protocol generations (the
// GET stream of a session, and 2026-07-28's subscriptions/listen, which
// has no session) against one cap, and ends them all on shutdown.
type streams struct {
	max int

	mu       sync.Mutex
	open     map[*context.CancelFunc]struct{}
	stopping bool
}

func newStreams(max int) *streams {
	return &streams{max: max, open: map[*context.CancelFunc]struct{}{}}
}

// add registers a stream. Its context ends on shutdown; done must be
// called when the stream closes.
func (s *streams) add(ctx context.Context) (_ context.Context, done func(), err error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	switch {
	case s.stopping:
		return nil, nil, errStopping
	case len(s.open) >= s.max:
		return nil, nil, errStreamsFull
	}
	ctx, cancel := context.WithCancel(ctx)
	key := &cancel
	s.open[key] = struct{}{}
	return ctx, func() {
		cancel()
		s.mu.Lock()
		defer s.mu.Unlock()
		delete(s.open, key)
	}, nil
}

func (s *streams) count() int {
	s.mu.Lock()
	defer s.mu.Unlock()
	return len(s.open)
}

// endAll ends every stream and refuses new ones.
func (s *streams) endAll() {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.stopping = true
	for cancel := range s.open {
		(*cancel)()
	}
}

// serveStream runs next, an event stream ending with ctx, and keeps a
// client that does not read from holding it. mcp-go's handler sees the end
// of ctx only between writes: a write blocked on a client that stopped
// reading would hold the stream, and shutdown, until the shutdown timeout.
// So each write must finish within writeTimeout (else the stream is cut),
// and once ctx ends, the last write gets streamEndGrace.
func serveStream(ctx context.Context, w http.ResponseWriter, r *http.Request, next http.Handler, writeTimeout time.Duration) {
	rc := http.NewResponseController(w)
	stop := make(chan struct{})
	var unblocked sync.WaitGroup
	unblocked.Go(func() {
		select {
		case <-ctx.Done():
		case <-stop:
			return
		}
		grace := time.NewTimer(streamEndGrace)
		defer grace.Stop()
		select {
		case <-grace.C:
			_ = rc.SetWriteDeadline(time.Now())
		case <-stop:
		}
	})
	defer unblocked.Wait() // the controller must not be used once this handler returns
	defer close(stop)
	next.ServeHTTP(&deadlineWriter{ResponseWriter: w, ctx: ctx, rc: rc, timeout: writeTimeout}, r.WithContext(ctx))
}

// deadlineWriter gives each write and flush of a stream writeTimeout to
// finish, until the stream's context ends (then serveStream's grace
// applies).
type deadlineWriter struct {
	http.ResponseWriter
	ctx     context.Context
	rc      *http.ResponseController
	timeout time.Duration
}

func (d *deadlineWriter) extend() {
	if d.ctx.Err() == nil {
		_ = d.rc.SetWriteDeadline(time.Now().Add(d.timeout))
	}
}

func (d *deadlineWriter) Write(p []byte) (int, error) {
	d.extend()
	return d.ResponseWriter.Write(p)
}

func (d *deadlineWriter) Flush() {
	d.extend()
	_ = d.rc.Flush()
}

func (d *deadlineWriter) Unwrap() http.ResponseWriter { return d.ResponseWriter }
