package mcpserver

import (
	"context"
	"errors"
	"fmt"
	"log/slog"

	"github.com/mark3labs/mcp-go/mcp"

	"github.com/docs-mcp/docs-mcp/mcp-server/internal/docs"
)

// errInput marks a mistake in a tool's arguments.
var errInput = errors.New("invalid argument")

// errUnavailable marks a file the operator has not provided.
var errUnavailable = errors.New("not available")

func inputErrorf(format string, args ...any) error {
	return fmt.Errorf("%w: %s", errInput, fmt.Sprintf(format, args...))
}

// toolError is the one place that turns errors into tool results. The
// mistakes a client can fix, and files missing on the server, are told as
// they are; anything else is logged in full and reported to the client as a
// server failure.
func (s *Server) toolError(ctx context.Context, tool string, err error) *mcp.CallToolResult {
	switch {
	case errors.Is(err, errInput),
		errors.Is(err, docs.ErrInvalidPath),
		errors.Is(err, docs.ErrNotFound),
		errors.Is(err, errBadCursor),
		errors.Is(err, errUnavailable):
		return mcp.NewToolResultError(err.Error())
	case errors.Is(err, context.Canceled), errors.Is(err, context.DeadlineExceeded):
		return mcp.NewToolResultError("the request was cancelled before it finished")
	}
	s.log.LogAttrs(ctx, slog.LevelError, "tool failed", slog.String("tool", tool), slog.Any("err", err))
	return mcp.NewToolResultError(tool + " failed on the server; the server log has the details")
}
