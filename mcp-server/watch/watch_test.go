package watch

import (
	"context"
	"fmt"
	"log/slog"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/fsnotify/fsnotify"
	"github.com/google/go-cmp/cmp"

	"github.com/docs-mcp/docs-mcp/mcp-server/mcptest"
)

// run starts a watcher and returns the channel its batches arrive on.
func run(t *testing.T, opts Config) (*Watcher, <-chan Batch) {
	t.Helper()
	w := New(opts)
	batches := make(chan Batch, 1000)
	mcptest.Background(t, "Run", func(ctx context.Context) error {
		return w.Run(ctx, func(_ context.Context, b Batch) { batches <- b })
	})
	if opts.Mode != Off {
		mcptest.Eventually(t, "the watcher to start", func() bool { return w.Method() != MethodNone })
	}
	return w, batches
}

// expect waits for a batch that satisfies ok, skipping others.
func expect(t *testing.T, batches <-chan Batch, what string, ok func(Batch) bool) Batch {
	t.Helper()
	timeout := time.After(mcptest.Deadline)
	for {
		select {
		case b := <-batches:
			if ok(b) {
				return b
			}
		case <-timeout:
			t.Fatalf("no batch with %s", what)
		}
	}
}

func hasPath(p string) func(Batch) bool {
	return func(b Batch) bool { return b.All || slices.Contains(b.Paths, p) }
}

// The notify mode follows real file operations: edits, saves by rename,
// new nested folders, the single files, and the docs folder replaced.
func TestNotify(t *testing.T) {
	base := t.TempDir()
	dir := filepath.Join(base, "docs")
	registry := filepath.Join(base, "framework", "mod_hooks.json")
	mcptest.WriteFile(t, filepath.Join(dir, "index.md"), "# Home\n")
	mcptest.WriteFile(t, filepath.Join(dir, "guide", "intro.md"), "# Intro\n")
	mcptest.WriteFile(t, registry, "{}")
	w, batches := run(t, config(func(c *Config) { c.Mode = Auto; c.Dir = dir; c.Files = []string{registry} }))
	if w.Method() != MethodNotify {
		t.Fatalf("method = %s, want fsnotify", w.Method())
	}

	mcptest.WriteFile(t, filepath.Join(dir, "index.md"), "# Home, edited\n")
	expect(t, batches, "index.md after an edit", hasPath("index.md"))

	// An editor's save: write a temporary file, rename it over the doc.
	mcptest.WriteFile(t, filepath.Join(dir, "guide", ".intro.md.tmp"), "# Intro, saved\n")
	if err := os.Rename(filepath.Join(dir, "guide", ".intro.md.tmp"), filepath.Join(dir, "guide", "intro.md")); err != nil {
		t.Fatal(err)
	}
	expect(t, batches, "guide/intro.md after a rename save", hasPath("guide/intro.md"))

	// A new nested folder is watched as soon as it is seen: a file created
	// in it later is reported on its own.
	mcptest.WriteFile(t, filepath.Join(dir, "new", "a", "b", "first.md"), "# First\n")
	expect(t, batches, "the new folder", func(b Batch) bool {
		return b.All || slices.ContainsFunc(b.Paths, func(p string) bool { return p == "new" || strings.HasPrefix(p, "new/") })
	})
	mcptest.Eventually(t, "a watch on new/a/b", func() bool { return slices.Contains(w.watchList(), filepath.Join(dir, "new", "a", "b")) })
	mcptest.WriteFile(t, filepath.Join(dir, "new", "a", "b", "second.md"), "# Second\n")
	expect(t, batches, "new/a/b/second.md", hasPath("new/a/b/second.md"))

	// The registry replaced by a rename, as editors and git do.
	mcptest.WriteFile(t, registry+".tmp", `{"hooks": []}`)
	if err := os.Rename(registry+".tmp", registry); err != nil {
		t.Fatal(err)
	}
	expect(t, batches, "the registry", func(b Batch) bool { return slices.Contains(b.Files, registry) })

	// The docs folder replaced as a whole.
	next := filepath.Join(base, "docs.next")
	mcptest.WriteFile(t, filepath.Join(next, "fresh.md"), "# Fresh\n")
	if err := os.RemoveAll(dir); err != nil {
		t.Fatal(err)
	}
	if err := os.Rename(next, dir); err != nil {
		t.Fatal(err)
	}
	expect(t, batches, "a look at everything after the folder was replaced", func(b Batch) bool { return b.All })
	// ...and the new folder is watched.
	mcptest.Eventually(t, "a watch on the new docs folder", func() bool { return slices.Contains(w.watchList(), dir) })
	mcptest.WriteFile(t, filepath.Join(dir, "later.md"), "# Later\n")
	expect(t, batches, "later.md in the new folder", hasPath("later.md"))
}

// Symlinked folders are not watched (nor read), and .git is left alone.
func TestNotifySkips(t *testing.T) {
	base := t.TempDir()
	dir := filepath.Join(base, "docs")
	mcptest.WriteFile(t, filepath.Join(dir, "index.md"), "# Home\n")
	mcptest.WriteFile(t, filepath.Join(dir, ".git", "HEAD"), "ref\n")
	mcptest.WriteFile(t, filepath.Join(base, "outside", "x.md"), "# Outside\n")
	if err := os.Symlink(filepath.Join(base, "outside"), filepath.Join(dir, "link")); err != nil {
		t.Fatal(err)
	}
	w, _ := run(t, config(func(c *Config) { c.Mode = Auto; c.Dir = dir }))
	got := w.watchList()
	for _, p := range []string{filepath.Join(dir, ".git"), filepath.Join(dir, "link"), filepath.Join(base, "outside")} {
		if slices.Contains(got, p) {
			t.Errorf("%s is watched; watches: %v", p, got)
		}
	}
}

// A docs folder that is itself a link to a folder (a data root whose
// docs live elsewhere) is followed, as the corpus follows it: its folders
// are watched, and edits and new folders under it are reported by their
// paths under the link.
func TestNotifyLinkedRoot(t *testing.T) {
	base := t.TempDir()
	real := filepath.Join(base, "elsewhere")
	mcptest.WriteFile(t, filepath.Join(real, "guide", "intro.md"), "# Intro\n")
	dir := filepath.Join(base, "root", "docs")
	if err := os.MkdirAll(filepath.Dir(dir), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink(real, dir); err != nil {
		t.Fatal(err)
	}
	w, batches := run(t, config(func(c *Config) { c.Mode = Auto; c.Dir = dir }))
	if w.Method() != MethodNotify {
		t.Fatalf("method = %s, want fsnotify", w.Method())
	}
	mcptest.WriteFile(t, filepath.Join(real, "guide", "intro.md"), "# Intro, edited\n")
	expect(t, batches, "guide/intro.md after an edit through the link's target", hasPath("guide/intro.md"))
	mcptest.WriteFile(t, filepath.Join(dir, "new", "first.md"), "# First\n")
	expect(t, batches, "the new folder", func(b Batch) bool {
		return b.All || slices.ContainsFunc(b.Paths, func(p string) bool { return p == "new" || strings.HasPrefix(p, "new/") })
	})
	mcptest.WriteFile(t, filepath.Join(dir, "new", "second.md"), "# Second\n")
	expect(t, batches, "new/second.md", hasPath("new/second.md"))
}

// Events that arrive while a batch is being applied make one batch, however
// many there are: a git checkout of a thousand files is one update.
func TestCoalesce(t *testing.T) {
	dir := t.TempDir()
	w := New(config(func(c *Config) { c.Mode = Auto; c.Dir = dir; c.Quiet = time.Millisecond }))
	tr := &tree{w: w, files: map[string]bool{}}
	events := make(chan fsnotify.Event) // unbuffered: a send returns once the loop has it
	errs := make(chan error)
	batches := make(chan Batch, 10)
	release := make(chan struct{})
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	done := make(chan error, 1)
	go func() {
		done <- tr.coalesce(ctx, events, errs, func(_ context.Context, b Batch) {
			batches <- b
			<-release
		})
	}()

	events <- fsnotify.Event{Name: filepath.Join(dir, "first.md"), Op: fsnotify.Write}
	first := <-batches // applying, and held there
	var want []string
	for i := range 1000 {
		p := fmt.Sprintf("burst/%03d.md", i)
		want = append(want, p)
		events <- fsnotify.Event{Name: filepath.Join(dir, filepath.FromSlash(p)), Op: fsnotify.Write}
	}
	errs <- fmt.Errorf("a passing error")
	close(release)
	second := <-batches
	if diff := cmp.Diff(Batch{Paths: []string{"first.md"}}, first); diff != "" {
		t.Errorf("first batch (-want +got):\n%s", diff)
	}
	if diff := cmp.Diff(Batch{All: true}, Batch{All: second.All, Files: second.Files}); diff != "" {
		t.Errorf("an error on the events channel must make the next batch look at everything (-want +got):\n%s", diff)
	}
	select {
	case b := <-batches:
		t.Errorf("a third batch arrived: %+v", b)
	default:
	}
	cancel()
	if err := <-done; err != nil {
		t.Fatal(err)
	}

	// Without the error, the batch lists the paths themselves.
	p := newPending()
	for _, rel := range want {
		if err := tr.event(fsnotify.Event{Name: filepath.Join(dir, filepath.FromSlash(rel)), Op: fsnotify.Create}, p); err != nil {
			t.Fatal(err)
		}
	}
	if diff := cmp.Diff(Batch{Paths: want}, p.batch()); diff != "" {
		t.Errorf("batch of 1000 events (-want +got):\n%s", diff)
	}
}

func TestEventPaths(t *testing.T) {
	base := t.TempDir()
	dir := filepath.Join(base, "docs")
	registry := filepath.Join(base, "framework", "mod_hooks.json")
	w := New(config(func(c *Config) { c.Dir = dir; c.Files = []string{registry} }))
	tr := &tree{w: w, files: map[string]bool{registry: true}}
	// On Linux and macOS a "\" is part of a name, which no doc path holds;
	// on Windows it separates folders.
	backslash := Batch{}
	if filepath.Separator == '\\' {
		backslash = Batch{Paths: []string{"a/b.md"}}
	}
	tests := []struct {
		name string
		ev   fsnotify.Event
		want Batch
	}{
		{"a doc", fsnotify.Event{Name: filepath.Join(dir, "a", "b.md"), Op: fsnotify.Write}, Batch{Paths: []string{"a/b.md"}}},
		{"the registry", fsnotify.Event{Name: registry, Op: fsnotify.Create}, Batch{Files: []string{registry}}},
		{"the docs folder removed", fsnotify.Event{Name: dir, Op: fsnotify.Remove}, Batch{All: true}},
		{"the docs folder renamed", fsnotify.Event{Name: dir, Op: fsnotify.Rename}, Batch{All: true}},
		{"the docs folder's mode", fsnotify.Event{Name: dir, Op: fsnotify.Chmod}, Batch{}},
		{"a sibling of the docs folder", fsnotify.Event{Name: filepath.Join(base, "go.work"), Op: fsnotify.Write}, Batch{}},
		{"a sibling with a longer name", fsnotify.Event{Name: dir + "2", Op: fsnotify.Create}, Batch{}},
		{"a backslash", fsnotify.Event{Name: filepath.Join(dir, `a\b.md`), Op: fsnotify.Write}, backslash},
		{"inside .git", fsnotify.Event{Name: filepath.Join(dir, ".git", "index"), Op: fsnotify.Write}, Batch{}},
		{"inside node_modules", fsnotify.Event{Name: filepath.Join(dir, "x", "node_modules", "p.md"), Op: fsnotify.Write}, Batch{}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			p := newPending()
			if err := tr.event(tt.ev, p); err != nil {
				t.Fatal(err)
			}
			if diff := cmp.Diff(tt.want, p.batch()); diff != "" {
				t.Errorf("batch (-want +got):\n%s", diff)
			}
		})
	}
}

// Poll mode looks at everything each interval and reports a single file
// whose size or time changed.
func TestPoll(t *testing.T) {
	base := t.TempDir()
	dir := filepath.Join(base, "docs")
	guide := filepath.Join(base, "CONTRIBUTING.md")
	mcptest.WriteFile(t, filepath.Join(dir, "index.md"), "# Home\n")
	mcptest.WriteFile(t, guide, "# Contributing\n")
	w, batches := run(t, config(func(c *Config) {
		c.Mode = Poll
		c.Dir = dir
		c.Files = []string{guide}
		c.PollInterval = 10 * time.Millisecond
	}))
	if w.Method() != MethodPolling {
		t.Fatalf("method = %s, want poll", w.Method())
	}
	expect(t, batches, "a look at everything", func(b Batch) bool { return b.All && len(b.Files) == 0 })
	mcptest.WriteFile(t, guide, "# Contributing, edited\n")
	expect(t, batches, "the edited guide", func(b Batch) bool { return slices.Contains(b.Files, guide) })
}

func TestOff(t *testing.T) {
	w := New(config(func(c *Config) { c.Mode = Off; c.Dir = t.TempDir() }))
	if err := w.Run(context.Background(), func(context.Context, Batch) { t.Error("a batch with --watch off") }); err != nil {
		t.Fatal(err)
	}
	if w.Method() != MethodNone {
		t.Errorf("method = %s, want off", w.Method())
	}
}

func TestParseMode(t *testing.T) {
	for _, s := range []string{"auto", "poll", "off"} {
		if m, err := ParseMode(s); err != nil || string(m) != s {
			t.Errorf("ParseMode(%q) = %q, %v", s, m, err)
		}
	}
	if _, err := ParseMode("inotify"); err == nil || !strings.Contains(err.Error(), "auto, poll or off") {
		t.Errorf("ParseMode(inotify) error = %v, want one listing the modes", err)
	}
}

// Past the watch limit, auto mode polls, and says so.
func TestFallback(t *testing.T) {
	dir := t.TempDir()
	for i := range 5 {
		mcptest.WriteFile(t, filepath.Join(dir, fmt.Sprintf("d%d", i), "x.md"), "# X\n")
	}
	var logs mcptest.Buffer
	w := New(config(func(c *Config) {
		c.Mode = Auto
		c.Dir = dir
		c.PollInterval = 10 * time.Millisecond
		c.Logger = slog.New(slog.NewTextHandler(&logs, nil))
	}))
	w.maxFolders = 3
	ctx, cancel := context.WithCancel(context.Background())
	batches := make(chan Batch, 100)
	done := make(chan error, 1)
	go func() { done <- w.Run(ctx, func(_ context.Context, b Batch) { batches <- b }) }()
	expect(t, batches, "a poll", func(b Batch) bool { return b.All })
	if w.Method() != MethodPolling {
		t.Errorf("method = %s, want poll", w.Method())
	}
	cancel()
	if err := <-done; err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(logs.String(), "polling instead") || !strings.Contains(logs.String(), "no space left on device") {
		t.Errorf("log does not say why it polls:\n%s", logs.String())
	}
}

// config is DefaultConfig changed by edit.
func config(edit func(*Config)) Config {
	c := DefaultConfig()
	edit(&c)
	return c
}
