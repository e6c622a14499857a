package httpserver

import (
	"net"
	"net/http"
	"sync"
	"time"
)

// conns counts the open HTTP connections against a cap, through the
// server's ConnState hook. Past the cap, a new connection makes room by
// closing the connection that has waited longest without a request in
// progress (one that sent nothing yet, or sits idle between requests);
// only when every connection is in a request is the new one closed
// instead. So a flood of connections that send nothing cannot lock others
// out, and the server never runs out of file descriptors for its own files.
type conns struct {
	max int
	now func() time.Time

	mu       sync.Mutex
	open     map[net.Conn]connState
	onRefuse func()
}

type connState struct {
	waiting bool      // new or idle: no request in progress
	since   time.Time // when it started waiting
}

func newConns(max int, onRefuse func()) *conns {
	return &conns{max: max, now: time.Now, open: map[net.Conn]connState{}, onRefuse: onRefuse}
}

// track is the http.Server's ConnState hook.
func (c *conns) track(conn net.Conn, state http.ConnState) {
	c.mu.Lock()
	var victim net.Conn
	switch state {
	case http.StateNew:
		if len(c.open) >= c.max {
			victim = c.oldestWaitingLocked()
			if victim == nil {
				victim = conn
			}
		}
		if victim != conn {
			c.open[conn] = connState{waiting: true, since: c.now()}
		}
		// Forgotten now, so that it is neither counted nor chosen again
		// while its close is on the way.
		delete(c.open, victim)
	case http.StateIdle:
		if _, ok := c.open[conn]; ok {
			c.open[conn] = connState{waiting: true, since: c.now()}
		}
	case http.StateActive:
		if _, ok := c.open[conn]; ok { // not one closed to make room
			c.open[conn] = connState{}
		}
	case http.StateHijacked, http.StateClosed:
		delete(c.open, conn)
	}
	c.mu.Unlock()
	if victim != nil {
		c.onRefuse()
		victim.Close()
	}
}

// oldestWaitingLocked returns the connection waiting longest for a
// request, or nil. The caller holds mu.
func (c *conns) oldestWaitingLocked() net.Conn {
	var (
		oldest net.Conn
		since  time.Time
	)
	for conn, st := range c.open {
		if st.waiting && (oldest == nil || st.since.Before(since)) {
			oldest, since = conn, st.since
		}
	}
	return oldest
}

func (c *conns) count() int64 {
	c.mu.Lock()
	defer c.mu.Unlock()
	return int64(len(c.open))
}
