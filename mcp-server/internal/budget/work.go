package budget

import (
	"context"
	"fmt"
	"math"
	"runtime"
	"sync"
	"time"
)

// Client names a client for the per-client limits: today its session id,
// else its address (see WithClientAddr); the key a request is charged to
// is chosen in one place (mcpserver's clientOf).
type Client string

type clientAddrKey struct{}

// WithClientAddr records the address a request came from (the transport
// knows it; the handlers that charge the work do not).
func WithClientAddr(ctx context.Context, addr string) context.Context {
	return context.WithValue(ctx, clientAddrKey{}, addr)
}

// ClientAddr is the address WithClientAddr recorded, or "".
func ClientAddr(ctx context.Context) string {
	addr, _ := ctx.Value(clientAddrKey{}).(string)
	return addr
}

// ClientFor names the client a request is charged to, in one place for
// every caller: with OAuth the token's subject (all of one user's sessions
// share one share), else its session, else its address, else the one
// local client of stdio.
func ClientFor(subject, session, addr string) Client {
	switch {
	case subject != "":
		return Client("subject " + subject)
	case session != "":
		return Client("session " + session)
	case addr != "":
		return Client("address " + addr)
	}
	return "local"
}

// WorkLimits configures a Queue.
type WorkLimits struct {
	Running   int           // requests doing work at once, in all
	PerClient int           // requests of one client doing work at once
	MaxWait   time.Duration // longest wait for a turn before the refusal
}

// DefaultWorkLimits are the work queue's defaults (the command line's):
// as many requests at work as the process has cores but one (at least
// one), two per client, a wait of 10 s at most. The core left over serves
// what runs outside the queue: reading requests and writing answers, and a
// waiting goroutine's wake-up, which with a request at work on every core
// waits for Go's preemption or its network poll, 10 ms each
// (search.BenchmarkHandOver).
func DefaultWorkLimits() WorkLimits {
	return WorkLimits{Running: max(runtime.GOMAXPROCS(0)-1, 1), PerClient: 2, MaxWait: 10 * time.Second}
}

// BusyError is the refusal of a request that waited its longest for a turn.
type BusyError struct{ Limits WorkLimits }

func (e *BusyError) Error() string {
	return fmt.Sprintf("server busy: the request waited %s for a turn to run (at most %d requests run at once, %d per client: --max-concurrent-work, --max-client-work); try again shortly",
		e.Limits.MaxWait, e.Limits.Running, e.Limits.PerClient)
}

// Queue is a fair queue for requests that do work (tool calls, reads): at
// most Running of them run at once, at most PerClient of one client, and
// the waiting clients take turns, one request each: the client whose
// requests ran least lately first (their run time, halved every second),
// else in the order they began to wait. So one client's backlog delays
// another's single request by at most a turn of each client waiting, never
// by the whole backlog, and a client that asks little is served before
// those that keep the server busy. A request that waits
// longer than MaxWait is refused with a *BusyError and counted as a
// refusal of the Work budget.
type Queue struct {
	limits  WorkLimits
	budgets *Budgets

	mu      sync.Mutex
	running int
	clients map[Client]*client // clients running or waiting
	turns   []Client           // clients with waiters, in their turn order
}

type client struct {
	running int
	waiters []*waiter
	spent   time.Duration // time its requests ran, halved every spentHalfLife
	at      time.Time     // when spent was last brought up to date
}

// spentHalfLife is how fast a client's past work is forgotten: a client
// whose requests ran a second ago weighs half as much as one running now.
const spentHalfLife = time.Second

// forgetAfter is how long a client with nothing running or waiting is
// remembered: by then its past work weighs nothing.
const forgetAfter = 10 * spentHalfLife

// spentAt is c's past work as it weighs at now.
func (c *client) spentAt(now time.Time) time.Duration {
	return time.Duration(float64(c.spent) * math.Exp2(-float64(now.Sub(c.at))/float64(spentHalfLife)))
}

type waiter struct {
	ready   chan struct{} // closed when the turn is given
	granted bool
}

// NewQueue returns a queue with these limits (each at least 1), defining
// the Work budget in budgets (which may be nil).
func NewQueue(limits WorkLimits, budgets *Budgets) *Queue {
	limits.Running, limits.PerClient = max(limits.Running, 1), max(limits.PerClient, 1)
	w := &Queue{limits: limits, budgets: budgets, clients: map[Client]*client{}}
	budgets.Define(Work, int64(limits.Running), func() int64 {
		w.mu.Lock()
		defer w.mu.Unlock()
		return int64(w.running)
	})
	return w
}

// Do runs f in c's turn: at once when a slot is free and c has no request
// waiting, else once the queue gives c its turn. It returns a *BusyError
// when the turn did not come within MaxWait, or the context's error when
// ctx ended first; f then does not run. A nil *Queue runs f at once.
func (w *Queue) Do(ctx context.Context, c Client, f func()) error {
	if w == nil {
		f()
		return nil
	}
	if err := w.acquire(ctx, c); err != nil {
		return err
	}
	start := time.Now()
	defer func() { w.release(c, time.Since(start)) }()
	f()
	return nil
}

func (w *Queue) acquire(ctx context.Context, c Client) error {
	w.mu.Lock()
	cl := w.clients[c]
	if cl == nil {
		cl = &client{}
		w.clients[c] = cl
	}
	if w.running < w.limits.Running && cl.running < w.limits.PerClient && len(cl.waiters) == 0 {
		w.running++
		cl.running++
		w.mu.Unlock()
		return nil
	}
	wt := &waiter{ready: make(chan struct{})}
	if len(cl.waiters) == 0 {
		w.turns = append(w.turns, c)
	}
	cl.waiters = append(cl.waiters, wt)
	w.mu.Unlock()

	timer := time.NewTimer(w.limits.MaxWait)
	defer timer.Stop()
	var err error
	select {
	case <-wt.ready:
		return nil
	case <-ctx.Done():
		err = ctx.Err()
	case <-timer.C:
		err = &BusyError{Limits: w.limits}
	}
	w.mu.Lock()
	defer w.mu.Unlock()
	if wt.granted { // the turn came as the wait ended: give it back
		w.running--
		cl.running--
		w.dispatch()
		w.forget(c, cl)
	} else {
		w.leave(c, cl, wt)
	}
	if _, busy := err.(*BusyError); busy {
		w.budgets.Refuse(Work)
	}
	return err
}

func (w *Queue) release(c Client, ran time.Duration) {
	w.mu.Lock()
	defer w.mu.Unlock()
	now := time.Now()
	cl := w.clients[c]
	cl.spent, cl.at = cl.spentAt(now)+ran, now
	w.running--
	cl.running--
	w.dispatch()
	w.forget(c, cl)
}

// dispatch gives free slots to waiting clients, one request at a time:
// of those below their own limit, the one whose requests ran least lately,
// else the one waiting longest. Called with w.mu held.
func (w *Queue) dispatch() {
	now := time.Now()
	for w.running < w.limits.Running {
		i, least := -1, time.Duration(math.MaxInt64)
		for j, c := range w.turns {
			cl := w.clients[c]
			if spent := cl.spentAt(now); cl.running < w.limits.PerClient && spent < least {
				i, least = j, spent
			}
		}
		if i < 0 {
			return
		}
		c := w.turns[i]
		cl := w.clients[c]
		wt := cl.waiters[0]
		cl.waiters = cl.waiters[1:]
		wt.granted = true
		close(wt.ready)
		w.running++
		cl.running++
		// c's turn is over: to the back of the line, or out of it.
		w.turns = append(w.turns[:i], w.turns[i+1:]...)
		if len(cl.waiters) > 0 {
			w.turns = append(w.turns, c)
		}
	}
}

// leave takes a waiter that gave up out of c's line. Called with w.mu held.
func (w *Queue) leave(c Client, cl *client, wt *waiter) {
	for i, x := range cl.waiters {
		if x == wt {
			cl.waiters = append(cl.waiters[:i], cl.waiters[i+1:]...)
			break
		}
	}
	if len(cl.waiters) == 0 {
		for i, x := range w.turns {
			if x == c {
				w.turns = append(w.turns[:i], w.turns[i+1:]...)
				break
			}
		}
	}
	w.forget(c, cl)
}

// forget drops the clients with nothing running or waiting whose past
// work no longer weighs (c's at once when it has none). Called with w.mu
// held.
func (w *Queue) forget(c Client, cl *client) {
	if cl.running == 0 && len(cl.waiters) == 0 && cl.spent == 0 {
		delete(w.clients, c)
	}
	if len(w.clients) < 2*max(w.limits.Running, 64) {
		return
	}
	now := time.Now()
	for k, x := range w.clients {
		if x.running == 0 && len(x.waiters) == 0 && now.Sub(x.at) > forgetAfter {
			delete(w.clients, k)
		}
	}
}
