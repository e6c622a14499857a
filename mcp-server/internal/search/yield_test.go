package search

import (
	"context"
	"runtime"
	"runtime/debug"
	"sync/atomic"
	"testing"

	"github.com/docs-mcp/docs-mcp/mcp-server/internal/corpusgen"
)

// TestFindYields checks that a search within a Budget lets other goroutines
// run while it reads: on one core (GOMAXPROCS 1), with the collector off,
// a goroutine started before a search of a few hundred KB runs before the
// search ends only if the search gives up its core (the runtime preempts a
// running goroutine only after 10 ms, far longer than this search).
func TestFindYields(t *testing.T) {
	dir := t.TempDir()
	if _, err := corpusgen.Generate(t.Context(), dir, corpusgen.Options{Seed: 1, Files: 300, Shape: corpusgen.Small}); err != nil {
		t.Fatal(err)
	}
	snap := load(t, dir)
	<-Build(snap, nil).Done()
	defer runtime.GOMAXPROCS(runtime.GOMAXPROCS(1))
	defer debug.SetGCPercent(debug.SetGCPercent(-1))

	var ran atomic.Bool
	go ran.Store(true)
	b := Budget{}
	for range Find(context.Background(), snap, Query{Text: costliestQuery}, Position{}, &b) {
	}
	if b.read < 4*yieldBytes {
		t.Fatalf("the search read %d bytes; the test needs several times %d", b.read, yieldBytes)
	}
	if !ran.Load() {
		t.Errorf("a goroutine waiting for the one core did not run while the search read %d bytes", b.read)
	}
}
