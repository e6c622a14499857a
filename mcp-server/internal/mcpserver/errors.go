package mcpserver

import (
	"context"
	"errors"
	"fmt"
	"log/slog"

	"github.com/mark3labs/mcp-go/mcp"
	"github.com/mark3labs/mcp-go/server"

	"github.com/docs-mcp/docs-mcp/mcp-server/internal/docs"
)

// errInput marks a mistake in a tool's arguments.
var errInput = errors.New("invalid argument")

// errUnavailable marks a file the operator has not provided.
var errUnavailable = errors.New("not available")

func inputErrorf(format string, args ...any) error {
	return fmt.Errorf("%w: %s", errInput, fmt.Sprintf(format, args...))
}

// publicError is the one rule for what a client is told of an error, on
// every surface (tools, resources, prompts). The mistakes a client can fix,
// and files missing on the server, are told as they are; anything else (a
// file system error, which names the server's paths) is logged in full,
// and the client is told only that what failed failed on the server.
func (s *Server) publicError(ctx context.Context, what string, err error) error {
	switch {
	case errors.Is(err, errInput),
		errors.Is(err, docs.ErrInvalidPath),
		errors.Is(err, docs.ErrNotFound),
		errors.Is(err, errBadCursor),
		errors.Is(err, errUnavailable):
		return err
	case errors.Is(err, context.Canceled), errors.Is(err, context.DeadlineExceeded):
		return errors.New("the request was cancelled before it finished")
	}
	s.log.LogAttrs(ctx, slog.LevelError, "request failed", slog.String("what", what), slog.Any("err", err))
	return errors.New(what + " failed on the server; the server log has the details")
}

// toolError turns an error into a tool result, by publicError's rule.
func (s *Server) toolError(ctx context.Context, tool string, err error) *mcp.CallToolResult {
	return mcp.NewToolResultError(s.publicError(ctx, tool, err).Error())
}

// publicResourceErrors applies publicError to every resource read.
func (s *Server) publicResourceErrors(next server.ResourceHandlerFunc) server.ResourceHandlerFunc {
	return func(ctx context.Context, req mcp.ReadResourceRequest) ([]mcp.ResourceContents, error) {
		contents, err := next(ctx, req)
		if err != nil {
			return nil, s.publicError(ctx, "reading "+req.Params.URI, err)
		}
		return contents, nil
	}
}
