package httpserver

import (
	"context"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/docs-mcp/docs-mcp/mcp-server/internal/budget"
)

// TestLargeBodyParsedInTurn: a body over parseInQueue is parsed in its
// client's turn of the work queue (issue 35), so that a flood of large
// bodies waits behind other clients' work: with the only slot held, a
// large ping waits and is refused busy (503) when no turn comes, while a
// small one is answered at once; with the slot free, the large one is
// answered too.
func TestLargeBodyParsedInTurn(t *testing.T) {
	queue := budget.NewQueue(budget.WorkLimits{Running: 1, PerClient: 1, MaxWait: 300 * time.Millisecond}, nil)
	f := newFixture(t, func(o *setup) { o.Work = queue })
	sid := f.initialize(t, nil)
	small := `{"jsonrpc":"2.0","id":7,"method":"ping"}`
	large := `{"jsonrpc":"2.0","id":7,"method":"ping","params":{"_meta":{"pad":"` + strings.Repeat("p", parseInQueue) + `"}}}`

	held, release := make(chan struct{}), make(chan struct{})
	go queue.Do(context.Background(), "another client", func() { close(held); <-release })
	<-held
	type answer struct {
		Status int
		Busy   bool
	}
	ask := func(body string) answer {
		res := do(t, f.rpc(t, sid, body))
		return answer{res.status, strings.Contains(string(res.body), "server busy")}
	}
	if got, want := ask(small), (answer{http.StatusOK, false}); got != want {
		t.Errorf("a small ping with the work slot held: %+v, want %+v", got, want)
	}
	if got, want := ask(large), (answer{http.StatusServiceUnavailable, true}); got != want {
		t.Errorf("a %d-byte ping with the work slot held: %+v, want %+v (parsed in its turn)", len(large), got, want)
	}
	close(release)
	if got, want := ask(large), (answer{http.StatusOK, false}); got != want {
		t.Errorf("a %d-byte ping with the slot free: %+v, want %+v", len(large), got, want)
	}
}
