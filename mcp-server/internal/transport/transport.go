// Package transport holds what a transport of docs-mcp serves: the same
// parts for stdio (package stdio) and HTTP (package httpserver), which
// carry the one MCP server and cannot tell each other apart.
package transport

import (
	"context"
	"log/slog"

	"github.com/mark3labs/mcp-go/server"

	"github.com/docs-mcp/docs-mcp/mcp-server/internal/budget"
	"github.com/docs-mcp/docs-mcp/mcp-server/internal/metrics"
	"github.com/docs-mcp/docs-mcp/mcp-server/internal/oauth"
	"github.com/docs-mcp/docs-mcp/mcp-server/internal/protocol"
	"github.com/docs-mcp/docs-mcp/mcp-server/internal/status"
)

// Parts are what a transport works with: the MCP server it carries, and
// the collaborators it shares with the rest of the process. A nil field
// but MCP is none: Budgets a set of its own, Status a server that serves
// nothing yet, Logger a discarding one. Metrics and OAuth are HTTP's: over
// stdio the client is the process that started the server.
type Parts struct {
	MCP     *server.MCPServer    // the protocol, served at /mcp or over stdin and stdout
	Budgets *budget.Budgets      // where the HTTP budgets are defined and refusals counted
	Status  func() status.Status // what is served (mcpserver.Server.Status), for /health and /metrics
	Logger  *slog.Logger
	// Metrics, when set, is served at GET /metrics (open like /health)
	// and counts refusals.
	Metrics *metrics.Metrics
	// OAuth, when set, makes /mcp an OAuth resource server: it needs an
	// access token the verifier accepts, and Protected Resource Metadata
	// is served. Not together with AuthToken.
	OAuth *oauth.Verifier
	// Refusal, when set, answers a request before mcp-go sees it: it
	// returns a JSON-RPC error response, or nil to let mcp-go answer (see
	// mcpserver.Server.Refusal).
	Refusal func(ctx context.Context, message *protocol.Message) []byte
	// Work, when set, is the fair queue of tool calls (mcpserver's): over
	// HTTP a request body over parseInQueue bytes is parsed in its
	// client's turn there, so that the parse counts in that client's share
	// and a flood of large bodies waits behind other clients' work, not
	// before it.
	Work *budget.Queue
	// WithWikiURL, when set, is given each MCP request's context and the
	// wiki's URL as the client reached it (http://HOST/wiki/), while the
	// wiki is built, for links into it (mcpserver.WithWikiURL).
	WithWikiURL func(ctx context.Context, base string) context.Context
}
