package mcpserver

import (
	"context"
	"fmt"
	"log/slog"
	"os"
	"runtime"
	"runtime/debug"
	"time"

	"github.com/mark3labs/mcp-go/mcp"
	"github.com/mark3labs/mcp-go/server"

	"github.com/docs-mcp/docs-mcp/mcp-server/internal/docs"
	"github.com/docs-mcp/docs-mcp/mcp-server/internal/search"
	"github.com/docs-mcp/docs-mcp/mcp-server/watch"
)

// The snapshot lifecycle, all in this package. Run owns it: start
// following the files on disk (Options.Watch) and, at the same time, load
// the first snapshot and Open it, then set the process's memory policy
// once its index is built; every later snapshot comes from a batch of
// changes (apply, in live.go). A search never waits for the index: it
// answers from the segments built so far and scans the rest (see
// search.Find).
//
// A server can answer before its docs are there: New gives a server that
// answers initialize, tools/list, prompts/list and the like at once, while Run
// loads the docs in the background and hands them over with Open. Until
// then, every request that needs the docs (a tool call, a prompt, a
// resource read, resources/list) waits for them (awaitDocs), for as long
// as its context allows, and then answers from them: nothing fails for
// being early.

// Run loads the docs and keeps them in step with the disk until ctx ends.
// It returns nil when ctx ends, or an error when the first load fails (the
// docs folder vanished after the configuration was checked): the server
// then has no docs to serve, and its caller should stop.
//
// Following and the load start together: on a tree of thousands of
// folders, putting a watch on each takes longer than reading the files,
// and the load need not wait for it. An edit made while the docs load is
// still seen: once the docs are open and the watcher is ready, one rescan
// (docs.Changes.All, a stat of every file, only changed files read) picks
// up what changed before the watch on its folder was in place; edits after
// that come as batches from the watcher, applied once the docs are open.
// Not being able to follow at all is logged, and the server goes on
// serving what it loaded.
func (s *Server) Run(ctx context.Context) error {
	ctx, stop := context.WithCancel(ctx)
	followed := make(chan struct{})
	go func() {
		defer close(followed)
		if err := s.follow(ctx, s.watcher); err != nil {
			s.log.Error("not following changes to the docs; restart to see edits", "err", err)
		}
	}()
	defer func() {
		stop()
		<-followed
	}()

	watching := false // the watcher was ready before the load began
	select {
	case <-s.watcher.Ready():
		watching = true
	default:
	}
	snap, err := s.load(ctx)
	if err != nil || snap == nil {
		return err
	}
	rescanned := make(chan struct{})
	if watching {
		close(rescanned)
	} else {
		go func() {
			defer close(rescanned)
			select {
			case <-s.watcher.Ready():
				s.update(ctx, watch.Batch{All: true}, false)
			case <-ctx.Done():
			}
		}()
	}
	// The start-up is over once the first index is built and the rescan
	// is done: then the memory settles, to what it will stay near.
	for _, done := range []<-chan struct{}{search.IndexOf(snap).Done(), rescanned} {
		select {
		case <-done:
		case <-ctx.Done():
			return nil
		}
	}
	settleMemory()
	var ms runtime.MemStats
	runtime.ReadMemStats(&ms)
	s.log.Info("memory settled", "heap_bytes", ms.HeapAlloc)
	<-ctx.Done()
	return nil
}

// load reads the first snapshot and opens it. It returns nil, nil when ctx
// ends first.
func (s *Server) load(ctx context.Context) (*docs.Snapshot, error) {
	if s.beforeLoad != nil {
		s.beforeLoad(ctx)
	}
	begin := time.Now()
	snap, err := docs.Load(ctx, s.opts.DocsPath, s.loadOptions(1))
	if err != nil {
		if ctx.Err() != nil {
			return nil, nil
		}
		s.log.Error("cannot load the docs; stopping", "err", err)
		return nil, fmt.Errorf("load docs: %w", err)
	}
	s.Open(snap)
	text, held := snap.TextBytes()
	s.log.Info("docs loaded", "docs", len(snap.Docs()), "skipped", len(snap.Skipped()),
		"duration", time.Since(begin).Round(time.Millisecond), "data_root", s.opts.DataRoot,
		"text_bytes", text, "held_bytes", held)
	return snap, nil
}

// loadOptions are the options of every read of the docs folder, the first
// load and each update: only the generation differs.
func (s *Server) loadOptions(generation uint64) docs.LoadOptions {
	return docs.LoadOptions{MaxDocBytes: s.opts.MaxDocBytes, Generation: generation, Logger: s.log}
}

// settleMemory is the process's memory policy once the first snapshot is
// loaded and indexed (and, when the watcher was not ready before the load,
// the rescan that follows is done): the scratch memory of the load, the
// build and the rescan goes back to the system,
// and from now on the docs and their index are most of the heap, so the
// garbage collector's target drops to steadyGCPercent unless GOGC is set.
func settleMemory() {
	debug.FreeOSMemory()
	if os.Getenv("GOGC") == "" {
		debug.SetGCPercent(steadyGCPercent)
	}
}

// steadyGCPercent is the garbage collector's target (GOGC) once the first
// snapshot is loaded and indexed, unless GOGC is set. The docs and their
// index are then most of the heap, and they live as long as the process:
// with Go's default of 100, the garbage of searches could grow to their
// size again before a collection, doubling the resident memory (4.4x the
// corpus after 6,000 searches on 40,000 files). At 10 it stays under a
// tenth of them: on 9,746 files (44 MB) 89 MB resident after 1,000
// searches where 20 gave 95 MB. A collection then comes every few dozen
// searches; it marks only the docs' and the index's headers (their text
// and posting lists hold no pointers), a few milliseconds of CPU on the
// other core. The load and the first build keep the default: at 25 from
// the start, loading 40,000 files took 2 to 3 s longer. See
// docs/server/architecture.md.
const steadyGCPercent = 10

// Open makes snap the docs the server serves, once: it puts snap in the
// store, starts building its search index, and releases the requests
// waiting for docs. It tells clients nothing: no one has seen a list
// without the docs (resources/list waits for them), and on 2026-07-28 a
// notification nobody asked for must not be sent. Run calls it with the first
// snapshot it loads; later snapshots come through follow (or Publish).
func (s *Server) Open(snap *docs.Snapshot) {
	s.openOnce.Do(func() {
		s.store.Replace(snap)
		s.servedSince.Store(time.Now().UnixNano())
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
		if s.opts.Observer != nil {
			s.opts.Observer.ObserveIndexBuild(st.BuildTime)
		}
		level := slog.LevelDebug
		if first {
			level = slog.LevelInfo
		}
		s.log.Log(context.Background(), level, "search index built", "generation", snap.Generation(),
			"docs", st.Docs, "duration", st.BuildTime, "reused_docs", st.ReusedDocs,
			"index_bytes", st.Bytes, "corpus_bytes", st.CorpusBytes)
	}()
}
