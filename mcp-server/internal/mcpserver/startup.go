package mcpserver

import (
	"context"
	"errors"
	"time"

	"github.com/mark3labs/mcp-go/mcp"
	"github.com/mark3labs/mcp-go/server"
)

// A server can answer before its docs are there: New gives a server that
// answers initialize, tools/list, prompts/list and the like at once, while
// the corpus loads the docs in the background (corpus.Corpus.Run). Until
// then, every request that needs the docs (a tool call, a prompt, a
// resource read, resources/list) waits for them (awaitDocs), for as long
// as its context allows, and then answers from them: nothing fails for
// being early. Only a corpus that stops without its docs (their load
// failed) fails the requests waiting, at once (errNoDocs).

// errNoDocs answers a request that waited for docs the corpus stopped
// without (their load failed, and the server is stopping).
var errNoDocs = errors.New("no docs: the server stopped before they were loaded")

// awaitDocs waits until the server has its docs and, in a repository,
// what their provenance needs (their history walked once, their blob ids
// attached), or ctx ends, or the corpus stops without them (errNoDocs).
// It waits outside the work queue.
func (s *Server) awaitDocs(ctx context.Context) error {
	if err := s.awaitOpened(ctx); err != nil {
		return err
	}
	// The first walk of the history and the first snapshot's blob ids
	// too, made beside the load, so that the first answers tell their
	// docs' commits as later ones do, for firstWalkWait at most: a long
	// history (cpp-docs' 22,920 commits) answers without provenance
	// rather than hold the call. Once they are made no request waits: when
	// HEAD moves, answers tell the commits walked before until the corpus
	// has walked again.
	walked := s.corpus.HistoryWalked()
	snap := s.corpus.Snapshot()
	select {
	case <-walked:
		if _, ok := s.corpus.BlobIDsMade(snap); ok {
			return nil
		}
	default:
	}
	wait, cancel := context.WithTimeout(ctx, firstWalkWait)
	defer cancel()
	select {
	case <-walked:
	case <-wait.Done():
	case <-s.corpus.Stopped():
	}
	if made, ok := s.corpus.BlobIDsMade(snap); !ok {
		select {
		case <-made:
		case <-wait.Done():
		case <-s.corpus.Stopped():
		}
	}
	return ctx.Err()
}

// firstWalkWait is how long a request waits for the first walk of the
// history once the docs are there (see awaitDocs).
const firstWalkWait = 5 * time.Second

// awaitOpened waits until the corpus has its docs.
func (s *Server) awaitOpened(ctx context.Context) error {
	opened := s.corpus.Opened()
	select {
	case <-opened:
		return nil
	default:
	}
	select {
	case <-opened:
		return nil
	case <-s.corpus.Stopped():
		select {
		case <-opened: // opened, then stopped: the docs are there
			return nil
		default:
			return errNoDocs
		}
	case <-ctx.Done():
		return ctx.Err()
	}
}

// waitForDocs holds every request that reads the docs until they are
// there: tool calls, prompts and resource reads through middleware,
// resources/list through a hook (mcp-go has no middleware for lists).
func (s *Server) waitForDocs(hooks *server.Hooks) []server.ServerOption {
	hooks.AddBeforeListResources(func(ctx context.Context, _ any, _ *mcp.ListResourcesRequest) {
		_ = s.awaitDocs(ctx) // on a cancelled request the answer goes nowhere
	})
	return []server.ServerOption{
		server.WithToolHandlerMiddleware(func(next server.ToolHandlerFunc) server.ToolHandlerFunc { return afterDocs(s, next) }),
		server.WithPromptHandlerMiddleware(func(next server.PromptHandlerFunc) server.PromptHandlerFunc { return afterDocs(s, next) }),
		server.WithResourceHandlerMiddleware(func(next server.ResourceHandlerFunc) server.ResourceHandlerFunc { return afterDocs(s, next) }),
	}
}

// afterDocs wraps a request handler so that it runs once the docs are there.
func afterDocs[Req, Res any](s *Server, next func(context.Context, Req) (Res, error)) func(context.Context, Req) (Res, error) {
	return func(ctx context.Context, req Req) (Res, error) {
		if err := s.awaitDocs(ctx); err != nil {
			var none Res
			return none, err
		}
		return next(ctx, req)
	}
}
