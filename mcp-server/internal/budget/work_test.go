package budget

import (
	"context"
	"errors"
	"fmt"
	"sync"
	"testing"
	"time"
)

// TestQueueTakesTurns fills the queue with one client's backlog of 20
// requests, then adds one request from each of two other clients: each of
// those runs within the next few turns, not after the backlog. The order
// is read from the order in which the requests run, not from a clock.
func TestQueueTakesTurns(t *testing.T) {
	q := NewQueue(WorkLimits{Running: 1, PerClient: 1, MaxWait: time.Hour}, New())
	var (
		mu    sync.Mutex
		order []string
		wg    sync.WaitGroup
	)
	gate := make(chan struct{})
	started := make(chan struct{})
	// The first request holds the only slot until the others are queued.
	wg.Go(func() {
		q.Do(context.Background(), "greedy", func() {
			close(started)
			<-gate
		})
	})
	<-started
	run := func(c Client, name string) {
		wg.Go(func() {
			if err := q.Do(context.Background(), c, func() {
				mu.Lock()
				order = append(order, name)
				mu.Unlock()
			}); err != nil {
				t.Error(err)
			}
		})
	}
	queued := func(n int) {
		for {
			q.mu.Lock()
			got := 0
			for _, cl := range q.clients {
				got += len(cl.waiters)
			}
			q.mu.Unlock()
			if got == n {
				return
			}
			time.Sleep(time.Millisecond)
		}
	}
	for i := range 20 {
		run("greedy", fmt.Sprint("greedy-", i))
		queued(i + 1)
	}
	run("a", "a")
	queued(21)
	run("b", "b")
	queued(22)
	close(gate)
	wg.Wait()
	pos := map[string]int{}
	for i, name := range order {
		pos[name] = i
	}
	if len(order) != 22 {
		t.Fatalf("%d requests ran, want 22: %v", len(order), order)
	}
	// a and b, who have not run lately, come before greedy's backlog.
	if pos["a"] != 0 || pos["b"] != 1 {
		t.Errorf("order %v: a ran %dth and b %dth, want them first, before the busy client's backlog", order, pos["a"]+1, pos["b"]+1)
	}
}

func TestQueueLimits(t *testing.T) {
	budgets := New()
	q := NewQueue(WorkLimits{Running: 3, PerClient: 2, MaxWait: 50 * time.Millisecond}, budgets)
	hold := make(chan struct{})
	var wg sync.WaitGroup
	in := make(chan struct{}, 3)
	for _, c := range []Client{"x", "x", "y"} {
		wg.Go(func() { q.Do(context.Background(), c, func() { in <- struct{}{}; <-hold }) })
	}
	for range 3 {
		<-in
	}
	// x has its two; a third of x's waits past MaxWait and is refused.
	var busy *BusyError
	if err := q.Do(context.Background(), "x", func() { t.Error("x ran past its limit") }); !errors.As(err, &busy) {
		t.Errorf("x's third request: %v, want a BusyError", err)
	}
	// All three slots are taken: z waits, and gives up with its context.
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if err := q.Do(ctx, "z", func() { t.Error("z ran with every slot taken") }); !errors.Is(err, context.Canceled) {
		t.Errorf("z with a cancelled context: %v", err)
	}
	close(hold)
	wg.Wait()
	u := budgets.Report()[0]
	if u.Name != Work || u.Limit != 3 || *u.Used != 0 || u.Refused != 1 {
		t.Errorf("report %+v, want work: limit 3, none running, 1 refused", u)
	}
	for c, cl := range q.clients {
		if cl.running != 0 || len(cl.waiters) != 0 {
			t.Errorf("client %s: %d running, %d waiting after all ended", c, cl.running, len(cl.waiters))
		}
	}
	if len(q.turns) != 0 {
		t.Errorf("the queue keeps %d turns after all ended", len(q.turns))
	}
}
