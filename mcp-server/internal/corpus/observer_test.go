package corpus

import (
	"sync"
	"testing"
	"time"

	"github.com/docs-mcp/docs-mcp/mcp-server/mcptest"
)

// recorder is an Observer that keeps what it is told.
type recorder struct {
	mu              sync.Mutex
	reloads, builds []time.Duration
}

func (r *recorder) ObserveReload(d time.Duration) {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.reloads = append(r.reloads, d)
}
func (r *recorder) ObserveIndexBuild(d time.Duration) {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.builds = append(r.builds, d)
}

func (r *recorder) counts() (reloads, builds int) {
	r.mu.Lock()
	defer r.mu.Unlock()
	return len(r.reloads), len(r.builds)
}

// TestObserver: Run's first load and its index build, then a change on
// disk's reload and index build, are reported to the Observer (for
// /metrics); a poll that finds no change is not.
func TestObserver(t *testing.T) {
	cfg := repo(t)
	rec := &recorder{}
	cfg.Observer = rec
	c := New(cfg)
	run(t, c)
	mcptest.Eventually(t, "the first index build", func() bool { _, b := rec.counts(); return b == 1 })
	mcptest.Closed(t, c.Settled(), "the end of the start-up")
	// Polls that find no change are not reloads: let ten of them go by.
	time.Sleep(10 * cfg.PollInterval)
	if r, _ := rec.counts(); r != 0 {
		t.Errorf("%d reloads before any change", r)
	}
	mcptest.WriteTree(t, cfg.DocsPath, map[string]string{"observed.md": "# Observed\n"})
	mcptest.Eventually(t, "a reload and a second index build", func() bool { r, b := rec.counts(); return r >= 1 && b == 2 })
}
