package mcpserver

import (
	"context"
	"log/slog"

	"github.com/mark3labs/mcp-go/mcp"
	"github.com/mark3labs/mcp-go/server"

	"github.com/docs-mcp/docs-mcp/mcp-server/internal/docs"
	"github.com/docs-mcp/docs-mcp/mcp-server/internal/search"
)

// A server can answer before its docs are there: New on a store that holds
// no snapshot yet (docs.NewStore(nil)) gives a server that answers
// initialize, tools/list, prompts/list and the like at once, while the
// caller loads the docs in the background and hands them over with Open.
// Until then, every request that needs the docs (a tool call, a prompt, a
// resource read, resources/list) waits for them, for as long as its
// context allows, and then answers from them: nothing fails for being
// early.

// Open makes snap the docs the server serves, once: it lists them as
// resources, puts snap in the store, starts building its search index, and
// releases the requests waiting for docs. Later snapshots come through
// Follow (or Publish). New opens the store's snapshot itself when it has one.
func (s *Server) Open(snap *docs.Snapshot) {
	s.openOnce.Do(func() {
		s.mcp.AddResources(s.docResources(snap)...)
		s.store.Replace(snap)
		s.indexInBackground(nil, snap)
		close(s.opened)
	})
}

// Opened is closed once the server has its docs (see Open).
func (s *Server) Opened() <-chan struct{} { return s.opened }

// awaitDocs waits until the server has its docs, or ctx ends.
func (s *Server) awaitDocs(ctx context.Context) error {
	select {
	case <-s.opened:
		return nil
	default:
	}
	select {
	case <-s.opened:
		return nil
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

// indexInBackground starts building snap's search index at once, so that
// the first search on a new snapshot finds it built (or nearly), reusing
// what it can of prev's (nil for the first snapshot), and logs when it is
// done.
func (s *Server) indexInBackground(prev, snap *docs.Snapshot) {
	first := prev == nil
	p := search.ReindexOf(snap, prev)
	go func() {
		<-p.Done()
		ix, err := p.Index()
		if err != nil {
			s.log.Warn("no search index; searches scan every line", "generation", snap.Generation(), "err", err)
			return
		}
		st := ix.Stats()
		level := slog.LevelDebug
		if first {
			level = slog.LevelInfo
		}
		s.log.Log(context.Background(), level, "search index built", "generation", snap.Generation(),
			"docs", st.Docs, "duration", st.BuildTime, "reused_docs", st.ReusedDocs,
			"index_bytes", st.Bytes, "corpus_bytes", st.CorpusBytes)
	}()
}
