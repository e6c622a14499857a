// Package budget keeps the limits on what clients can make the server
// hold (connections, request bodies, sessions, streams, subscriptions,
// queued notifications, requests at work), how much of each is in use, and how many requests
// each has refused. It is the one place refusals are counted: /health
// reports it, and metrics can read the same Report.
package budget

import (
	"cmp"
	"slices"
	"sync"
	"sync/atomic"
)

// Name names a budget.
type Name string

// The budgets of docs-mcp. Each is set by one flag (see the configuration
// docs); a budget that a mode does not use is not defined, and so not
// reported.
const (
	Connections   Name = "connections"   // open HTTP connections (--max-connections)
	Body          Name = "body"          // one request body: size and time (--max-body-bytes, --body-timeout)
	Sessions      Name = "sessions"      // live MCP sessions (--max-sessions)
	Streams       Name = "streams"       // open event streams: GET /mcp and subscriptions/listen (--max-streams)
	Subscriptions Name = "subscriptions" // resource subscriptions of one session (--max-subscriptions)
	Notifications Name = "notifications" // notifications queued for one session (--max-queued-notifications)
	Work          Name = "work"          // requests doing work at once (--max-concurrent-work, --max-client-work, --work-queue-timeout)
)

// Budgets is a set of budgets. The zero value is not usable; call New. A
// nil *Budgets accepts every call and counts nothing, so that parts built
// without one (tests, stdio) need no checks.
type Budgets struct {
	mu      sync.Mutex
	entries map[Name]*entry
}

type entry struct {
	limit   int64
	used    func() int64 // nil when the budget is per request or per session
	refused atomic.Int64
}

// New returns an empty set.
func New() *Budgets { return &Budgets{entries: map[Name]*entry{}} }

// Define adds a budget: its limit, and how to count what is in use now
// (nil when the limit applies to each request or session on its own, like
// the body size or the subscriptions of one session). Defining a name
// again replaces its limit and gauge and keeps its refusals.
func (b *Budgets) Define(name Name, limit int64, used func() int64) {
	if b == nil {
		return
	}
	b.mu.Lock()
	defer b.mu.Unlock()
	e := b.entries[name]
	if e == nil {
		e = &entry{}
		b.entries[name] = e
	}
	e.limit, e.used = limit, used
}

// Refuse counts one request refused for going past the budget.
func (b *Budgets) Refuse(name Name) {
	if b == nil {
		return
	}
	b.mu.Lock()
	e := b.entries[name]
	if e == nil {
		e = &entry{}
		b.entries[name] = e
	}
	b.mu.Unlock()
	e.refused.Add(1)
}

// Usage is one budget as reported.
type Usage struct {
	Name    Name   `json:"name"`
	Limit   int64  `json:"limit"`
	Used    *int64 `json:"used,omitempty"` // in use now; absent for per-request and per-session budgets
	Refused int64  `json:"refused"`        // requests refused since start
}

// Report returns every budget, by name.
func (b *Budgets) Report() []Usage {
	if b == nil {
		return nil
	}
	b.mu.Lock()
	type item struct {
		name Name
		e    *entry
		used func() int64
	}
	items := make([]item, 0, len(b.entries))
	for name, e := range b.entries {
		items = append(items, item{name, e, e.used})
	}
	b.mu.Unlock()
	slices.SortFunc(items, func(x, y item) int { return cmp.Compare(x.name, y.name) })
	out := make([]Usage, 0, len(items))
	for _, it := range items {
		u := Usage{Name: it.name, Limit: it.e.limit, Refused: it.e.refused.Load()}
		if it.used != nil { // called without the lock: gauges take their own
			n := it.used()
			u.Used = &n
		}
		out = append(out, u)
	}
	return out
}
