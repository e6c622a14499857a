package mcpserver

import (
	"context"
	"strings"
	"testing"
	"time"

	"github.com/mark3labs/mcp-go/mcp"

	"github.com/docs-mcp/docs-mcp/mcp-server/internal/budget"
	"github.com/docs-mcp/docs-mcp/mcp-server/internal/oauth"
)

// TestWorkQueueRefusal holds the only work slot for another client: a tool
// call waits its turn, and past --work-queue-timeout gets a JSON-RPC error
// naming the limits, counted as a refusal of the work budget.
func TestWorkQueueRefusal(t *testing.T) {
	srv := newServer(t, fixtureRoot, func(c *Config) { c.Work = budget.WorkLimits{Running: 1, PerClient: 1, MaxWait: 50 * time.Millisecond} })
	c := connect(t, srv)

	hold, held := make(chan struct{}), make(chan struct{})
	go srv.work.Do(context.Background(), "someone else", func() { close(held); <-hold })
	<-held
	req := mcp.CallToolRequest{}
	req.Params.Name = "mod_search_docs"
	req.Params.Arguments = map[string]any{"query": "hook"}
	_, err := c.CallTool(context.Background(), req)
	close(hold)
	if err == nil || !strings.Contains(err.Error(), "server busy") || !strings.Contains(err.Error(), "--max-concurrent-work") {
		t.Errorf("a call with every slot taken: %v, want a busy error naming --max-concurrent-work", err)
	}
	for _, u := range srv.Budgets().Report() {
		if u.Name == budget.Work && u.Refused != 1 {
			t.Errorf("work budget: %d refused, want 1", u.Refused)
		}
	}
	if _, err := c.CallTool(context.Background(), req); err != nil {
		t.Errorf("a call once the slot is free: %v", err)
	}
}

// TestClientOf checks whom a request's work is charged to: with OAuth the
// token's subject wins over the session and the address, so one user's
// sessions share one share of the queue.
func TestClientOf(t *testing.T) {
	ctx := context.Background()
	addr := budget.WithClientAddr(ctx, "192.0.2.1")
	for _, tc := range []struct {
		name string
		ctx  context.Context
		want budget.Client
	}{
		{"stdio", ctx, "local"},
		{"address", addr, "address 192.0.2.1"},
		{"subject", oauth.WithSubject(addr, "alice"), "subject alice"},
	} {
		if got := clientOf(tc.ctx); got != tc.want {
			t.Errorf("%s: clientOf = %q, want %q", tc.name, got, tc.want)
		}
	}
}
