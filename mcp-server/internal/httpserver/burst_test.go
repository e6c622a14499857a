package httpserver_test

import (
	"net"
	"net/http"
	"testing"
)

// TestSessionBurst: --session-burst sets how many sessions one address
// opens at once, whatever --session-rate (here 0.1 a second, whose own
// five seconds' worth would be 1): the clients of a replica that failed
// start again together (scaling.md says how to size it).
func TestSessionBurst(t *testing.T) {
	const burst, tries = 30, 40
	p := start(t, []string{"DOCS_MCP_SESSION_RATE=0.1", "DOCS_MCP_SESSION_BURST=30"})
	got := map[int]int{}
	for range tries {
		status, _ := initializeFrom(t, p, net.IPv4(127, 0, 0, 1))
		got[status]++
	}
	t.Logf("%d initializes from one address at once: %v", tries, got)
	// The loop takes well under 10 s: at 0.1 a second, one more at most.
	if n := got[http.StatusOK]; n < burst || n > burst+1 || got[http.StatusTooManyRequests] != tries-n {
		t.Errorf("%v: want the burst of %d admitted and the rest 429", got, burst)
	}
}
