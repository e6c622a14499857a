package corpus

import (
	"context"
	"os"
	"path/filepath"
	"slices"
	"sync"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"github.com/docs-mcp/docs-mcp/mcp-server/internal/docs"
	"github.com/docs-mcp/docs-mcp/mcp-server/mcptest"
	"github.com/docs-mcp/docs-mcp/mcp-server/watch"
)

// repo writes a small repository to a temp folder, a docs folder and a
// guide beside it, and returns a configuration that follows it by polling
// every 20 ms (or in mode, when given).
func repo(t *testing.T, mode ...watch.Mode) Config {
	t.Helper()
	root := t.TempDir()
	mcptest.WriteTree(t, root, map[string]string{
		"docs/index.md":       "# Home\n\nWelcome.\n",
		"docs/guide/intro.md": "# Introduction\n\nFirst steps.\n",
		"CONTRIBUTING.md":     "# Contributing\n",
	})
	cfg := DefaultConfig()
	cfg.DataRoot, cfg.DocsPath = root, filepath.Join(root, "docs")
	cfg.Files = []string{filepath.Join(root, "CONTRIBUTING.md")}
	cfg.Watch, cfg.PollInterval = watch.Poll, 20*time.Millisecond
	if len(mode) > 0 {
		cfg.Watch = mode[0]
	}
	return cfg
}

// published records the changes a running corpus tells, and whether the
// corpus served each change's Next snapshot when it told it.
type published struct {
	c *Corpus

	mu      sync.Mutex
	changes []docs.Change
	stale   int // changes told before their snapshot was served
}

func (p *published) publish(ch docs.Change) {
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.c.Snapshot() != ch.Next {
		p.stale++
	}
	p.changes = append(p.changes, ch)
}

// take returns the changes told since the last take.
func (p *published) take() []docs.Change {
	p.mu.Lock()
	defer p.mu.Unlock()
	out := p.changes
	p.changes = nil
	return out
}

// run runs c until the test ends and returns what it tells.
func run(t *testing.T, c *Corpus) *published {
	t.Helper()
	p := &published{c: c}
	t.Cleanup(func() { // after Run has returned (cleanups run last first)
		if p.stale > 0 {
			t.Errorf("%d changes were told before the corpus served their snapshot", p.stale)
		}
	})
	mcptest.Background(t, "Run", func(ctx context.Context) error { return c.Run(ctx, p.publish) })
	return p
}

// TestChanges follows a repository on disk through real file operations:
// each one is told as the typed change it is (a doc added, changed,
// retitled, removed; a repository file changed), with the snapshot that
// has it already served.
func TestChanges(t *testing.T) {
	cfg := repo(t)
	c := New(cfg)
	p := run(t, c)
	mcptest.Eventually(t, "the docs and the watcher", func() bool { return c.Snapshot() != nil && c.Watching() == "poll" })
	mcptest.Closed(t, c.Settled(), "the end of the start-up")
	if got := len(c.Snapshot().Docs()); got != 2 {
		t.Fatalf("%d docs loaded, want 2", got)
	}

	type told struct {
		Diff  docs.Diff
		Files []string
	}
	for _, step := range []struct {
		name string
		do   func()
		want told
	}{
		{"a doc added", func() { saveAs(t, cfg.DocsPath, "guide/setup.md", "# Setup\n") },
			told{Diff: docs.Diff{Added: []string{"guide/setup.md"}}}},
		{"a doc's body changed", func() { saveAs(t, cfg.DocsPath, "index.md", "# Home\n\nWelcome back.\n") },
			told{Diff: docs.Diff{Changed: []string{"index.md"}}}},
		{"a doc's title changed", func() {
			saveAs(t, cfg.DocsPath, "guide/intro.md", "# Getting started\n\nFirst steps.\n")
		},
			told{Diff: docs.Diff{Changed: []string{"guide/intro.md"}, Retitled: []string{"guide/intro.md"}}}},
		{"a doc removed", func() {
			if err := os.Remove(filepath.Join(cfg.DocsPath, "guide", "setup.md")); err != nil {
				t.Fatal(err)
			}
		}, told{Diff: docs.Diff{Removed: []string{"guide/setup.md"}}}},
		{"a repository file changed", func() {
			saveAs(t, cfg.DataRoot, "CONTRIBUTING.md", "# Contributing\n\nMore rules.\n")
		},
			told{Files: cfg.Files}},
	} {
		before := c.Snapshot()
		step.do()
		var got []docs.Change
		mcptest.Eventually(t, step.name+" told", func() bool {
			got = append(got, p.take()...)
			return len(got) > 0
		})
		if len(got) != 1 {
			t.Fatalf("%s: told %d changes, want 1: %+v", step.name, len(got), got)
		}
		ch := got[0]
		if diff := cmp.Diff(step.want, told{ch.Diff, ch.Files}); diff != "" {
			t.Errorf("%s: told (-want +got):\n%s", step.name, diff)
		}
		if ch.Prev != before {
			t.Errorf("%s: the change's Prev is not the snapshot served before it", step.name)
		}
		if docsChanged := !ch.Diff.Empty(); docsChanged != (ch.Next != ch.Prev) || docsChanged != (ch.Next.Generation() > before.Generation()) {
			t.Errorf("%s: generation %d to %d, a new snapshot: %v; want one exactly when docs changed (%v)",
				step.name, before.Generation(), ch.Next.Generation(), ch.Next != ch.Prev, docsChanged)
		}
	}
}

// saveAs writes a file the way editors save one, whole under a temporary
// name and renamed into place: a poll between os.WriteFile's create and
// its write would see an empty file, and tell a second change once the
// text is there (seen under load: the doc added, then changed and
// retitled), where each step expects one.
func saveAs(t *testing.T, dir, rel, text string) {
	t.Helper()
	p := filepath.Join(dir, filepath.FromSlash(rel))
	mcptest.WriteFile(t, p+".saving", text)
	if err := os.Rename(p+".saving", p); err != nil {
		t.Fatal(err)
	}
}

// TestRunFailsWithoutDocs: a docs folder that is gone when Run loads is
// an error, and nothing is served.
func TestRunFailsWithoutDocs(t *testing.T) {
	cfg := repo(t)
	if err := os.RemoveAll(cfg.DocsPath); err != nil {
		t.Fatal(err)
	}
	c := New(cfg)
	if err := c.Run(context.Background(), func(docs.Change) { t.Error("a change was told") }); err == nil {
		t.Fatal("Run without a docs folder returned nil, want an error")
	}
	select {
	case <-c.Opened():
		t.Error("Opened is closed, with no docs")
	default:
	}
}

// TestRunSeesEditsMadeWhileLoading holds Run's load back and checks that
// an edit made while the docs load (while the watcher sets up, or after)
// is seen once they are.
func TestRunSeesEditsMadeWhileLoading(t *testing.T) {
	cfg := repo(t, watch.Auto)
	c := New(cfg)
	gate, loading := make(chan struct{}), make(chan struct{})
	c.beforeLoad = func(ctx context.Context) {
		close(loading)
		select {
		case <-gate:
		case <-ctx.Done():
		}
	}
	run(t, c)

	<-loading // the load is held at the gate; the watcher sets up meanwhile
	mcptest.WriteTree(t, cfg.DocsPath, map[string]string{"late.md": "# Late\n\nWritten while gated.\n"})
	select {
	case <-c.Opened():
		t.Fatal("the docs opened while the load was held")
	default:
	}
	close(gate)

	// The file may or may not have been read by the load; either way it
	// is there once the watcher's batch (or Run's rescan) is applied.
	mcptest.Eventually(t, "the edit made during the load", func() bool {
		snap := c.Snapshot()
		if snap == nil {
			return false
		}
		_, ok := snap.Lookup("late.md")
		return ok
	})
	if paths := docPaths(c.Snapshot()); !slices.Equal(paths, []string{"guide/intro.md", "index.md", "late.md"}) {
		t.Errorf("docs served: %v", paths)
	}
}

func docPaths(s *docs.Snapshot) []string {
	var out []string
	for _, d := range s.Docs() {
		out = append(out, d.Path)
	}
	return out
}
