// Package watch follows a folder tree and a few single files on disk and
// reports what may have changed, in coalesced batches.
//
// It watches with fsnotify (inotify on Linux), adding a watch to every
// folder of the tree, including folders created later. When watches cannot
// be added (the inotify limits are reached, or the tree lies on a network
// file system whose changes the kernel does not see), it falls back to
// polling and says so in one log line. Events are coalesced: a batch is
// handed over once the tree has been quiet for a moment, so an editor's
// write-to-temp-and-rename save, or a git checkout of a thousand files,
// makes one batch.
//
// A batch only says where to look. The receiver re-examines those paths on
// disk, so a lost or out-of-date event costs a little work, never a wrong
// answer; when events may have been lost, the batch says to look at
// everything.
package watch

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"log/slog"
	"maps"
	"os"
	"path/filepath"
	"slices"
	"sync"
	"sync/atomic"
	"syscall"
	"time"

	"github.com/docs-mcp/docs-mcp/mcp-server/internal/docs"
	"github.com/fsnotify/fsnotify"
)

// Mode says how to watch.
type Mode string

// The modes of --watch.
const (
	Auto Mode = "auto" // fsnotify, falling back to polling when it cannot watch
	Poll Mode = "poll" // look at every file's size and time every PollInterval
	Off  Mode = "off"  // do not follow changes
)

// ParseMode reads a mode name.
func ParseMode(s string) (Mode, error) {
	switch m := Mode(s); m {
	case Auto, Poll, Off:
		return m, nil
	}
	return "", fmt.Errorf("unknown watch mode %q: use auto, poll or off", s)
}

// Defaults of the configuration (DefaultConfig).
const (
	DefaultQuiet        = 50 * time.Millisecond
	DefaultMaxDelay     = time.Second
	DefaultPollInterval = 2 * time.Second
)

// Config configures a Watcher. Start from DefaultConfig: New uses it as
// given.
type Config struct {
	Mode  Mode
	Dir   string   // the folder followed recursively
	Files []string // single files followed too (through their folders, so a rename over them is seen)

	// Quiet is how long the tree must be still before a batch is handed
	// over; MaxDelay bounds the wait while events keep coming.
	Quiet, MaxDelay time.Duration
	PollInterval    time.Duration
	Logger          *slog.Logger
}

// Batch says where things may have changed.
type Batch struct {
	Paths []string // slash paths relative to Dir (files or folders), sorted
	All   bool     // anything under Dir may have changed: look at all of it
	Files []string // the Config.Files that may have changed
}

// Empty reports whether the batch names nothing.
func (b Batch) Empty() bool { return len(b.Paths) == 0 && !b.All && len(b.Files) == 0 }

// Method names how a Watcher is following changes.
type Method string

// Methods a Watcher reports.
const (
	MethodNone    Method = "off"
	MethodNotify  Method = "fsnotify"
	MethodPolling Method = "poll"
)

// Watcher follows Config.Dir and Config.Files.
type Watcher struct {
	opts   Config
	log    *slog.Logger
	method atomic.Value // Method

	fsw atomic.Pointer[fsnotify.Watcher] // while notifying

	// maxFolders, when set, acts as the kernel's watch limit (tests).
	maxFolders int

	ready     chan struct{} // closed once changes are followed, or Run returned
	readyOnce sync.Once
}

// Ready is closed once the watcher follows changes (every edit after it is
// seen), or when Run has returned without following any.
func (w *Watcher) Ready() <-chan struct{} { return w.ready }

// watching records the method in use and announces readiness.
func (w *Watcher) watching(m Method) {
	w.method.Store(m)
	w.readyOnce.Do(func() { close(w.ready) })
}

// watchList returns the folders watched with file events.
func (w *Watcher) watchList() []string {
	if fsw := w.fsw.Load(); fsw != nil {
		return fsw.WatchList()
	}
	return nil
}

// DefaultConfig is a watcher's configuration with every default: file
// events where they can be used (Auto), batches after 50 ms of quiet and
// within a second, a poll every 2 s, no log. Dir and Files are the
// caller's.
func DefaultConfig() Config {
	return Config{Mode: Auto, Quiet: DefaultQuiet, MaxDelay: DefaultMaxDelay, PollInterval: DefaultPollInterval,
		Logger: slog.New(slog.DiscardHandler)}
}

// New returns a watcher; Run starts it.
func New(opts Config) *Watcher {
	opts.Dir = filepath.Clean(opts.Dir)
	w := &Watcher{opts: opts, log: opts.Logger, ready: make(chan struct{})}
	w.method.Store(MethodNone)
	return w
}

// Method says how the watcher follows changes right now: "fsnotify",
// "poll", or "off" (before Run, after it returns, or with Mode Off).
func (w *Watcher) Method() Method { return w.method.Load().(Method) }

// Run follows changes until ctx ends, calling apply with each batch. Calls
// to apply never overlap; events that arrive during one are coalesced into
// the next batch. Run returns nil when ctx ends, at once with Mode Off, and
// an error only when it cannot watch at all.
func (w *Watcher) Run(ctx context.Context, apply func(context.Context, Batch)) error {
	defer func() {
		w.method.Store(MethodNone)
		w.readyOnce.Do(func() { close(w.ready) })
	}()
	switch w.opts.Mode {
	case Off:
		return nil
	case Poll:
		return w.poll(ctx, apply)
	}
	if fs, ok := remoteFS(w.opts.Dir); ok {
		w.log.Warn("docs are on a network file system, whose changes file events may miss: polling instead",
			"dir", w.opts.Dir, "fs", fs, "interval", w.opts.PollInterval)
		return w.poll(ctx, apply)
	}
	err := w.notify(ctx, apply)
	var fb fallbackError
	if errors.As(err, &fb) {
		w.log.Warn("cannot watch the docs with file events: polling instead (raise fs.inotify.max_user_watches, or set --watch poll to silence this)",
			"reason", fb.err, "interval", w.opts.PollInterval)
		return w.poll(ctx, apply)
	}
	return err
}

// fallbackError says that file events cannot be used and polling should
// take over.
type fallbackError struct{ err error }

func (e fallbackError) Error() string { return e.err.Error() }

// isLimit reports whether an error says a watch limit was reached.
func isLimit(err error) bool {
	return errors.Is(err, syscall.ENOSPC) || errors.Is(err, syscall.EMFILE) || errors.Is(err, syscall.ENFILE)
}

// notify follows changes with fsnotify.
func (w *Watcher) notify(ctx context.Context, apply func(context.Context, Batch)) error {
	fsw, err := fsnotify.NewWatcher()
	if err != nil {
		return fallbackError{fmt.Errorf("start file events: %w", err)}
	}
	defer fsw.Close()
	w.fsw.Store(fsw)
	defer w.fsw.Store(nil)
	t := &tree{w: w, fsw: fsw, files: map[string]bool{}}
	for _, f := range w.opts.Files {
		t.files[filepath.Clean(f)] = true
	}
	if err := t.watchParents(); err != nil {
		return err
	}
	if err := t.addTree(w.opts.Dir); err != nil {
		return err
	}
	w.watching(MethodNotify)
	w.log.Info("watching docs for changes", "method", MethodNotify, "dir", w.opts.Dir, "folders", t.folders)
	return t.coalesce(ctx, fsw.Events, fsw.Errors, apply)
}

// poll looks at everything every PollInterval.
func (w *Watcher) poll(ctx context.Context, apply func(context.Context, Batch)) error {
	w.watching(MethodPolling)
	w.log.Info("watching docs for changes", "method", MethodPolling, "dir", w.opts.Dir, "interval", w.opts.PollInterval)
	stamps := make(map[string]fileStamp, len(w.opts.Files))
	for _, f := range w.opts.Files {
		stamps[f] = stampFile(f)
	}
	tick := time.NewTicker(w.opts.PollInterval)
	defer tick.Stop()
	for {
		select {
		case <-ctx.Done():
			return nil
		case <-tick.C:
		}
		b := Batch{All: true}
		for _, f := range w.opts.Files {
			if st := stampFile(f); st != stamps[f] {
				stamps[f] = st
				b.Files = append(b.Files, f)
			}
		}
		apply(ctx, b)
	}
}

// fileStamp tells versions of a single file apart.
type fileStamp struct {
	exists bool
	size   int64
	mod    time.Time
}

func stampFile(path string) fileStamp {
	info, err := os.Stat(path)
	if err != nil {
		return fileStamp{}
	}
	return fileStamp{exists: true, size: info.Size(), mod: info.ModTime()}
}

// tree keeps fsnotify watches on every folder of the docs tree and turns
// events into the paths of a batch.
type tree struct {
	w       *Watcher
	fsw     *fsnotify.Watcher
	files   map[string]bool // Config.Files, cleaned
	folders int             // watches added, for the log
}

// watchParents watches the folders holding Dir and the single files, so
// that the docs folder being replaced, and a file renamed over one of
// them, are seen.
func (t *tree) watchParents() error {
	parents := []string{filepath.Dir(t.w.opts.Dir)}
	for f := range t.files {
		parents = append(parents, filepath.Dir(f))
	}
	slices.Sort(parents)
	for _, p := range slices.Compact(parents) {
		if err := t.fsw.Add(p); err != nil {
			if isLimit(err) {
				return fallbackError{fmt.Errorf("watch %s: %w", p, err)}
			}
			t.w.log.Warn("cannot watch a folder; changes in it will not be seen", "dir", p, "err", err)
		}
	}
	return nil
}

// addTree watches dir and every folder below it, skipping .git,
// node_modules and symlinked folders (never followed, as in the corpus).
// dir itself may be a link to a folder, which the corpus follows too (its
// os.Root does): a trailing separator makes WalkDir follow it, and the
// paths stay under dir. Folders that vanish or are closed to us are
// skipped; reaching a watch limit is a fallbackError.
func (t *tree) addTree(dir string) error {
	if info, err := os.Lstat(dir); err == nil && info.Mode()&fs.ModeSymlink != 0 {
		dir += string(filepath.Separator)
	}
	return filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			if p != dir {
				t.w.log.Debug("cannot look into a folder", "dir", p, "err", err)
			}
			return nil
		}
		if !d.IsDir() {
			return nil
		}
		if p != dir && docs.IgnoredName(d.Name()) {
			return filepath.SkipDir
		}
		err = t.fsw.Add(p)
		if t.w.maxFolders > 0 && t.folders >= t.w.maxFolders {
			err = syscall.ENOSPC
		}
		if err != nil {
			if isLimit(err) {
				return fallbackError{fmt.Errorf("watch %s: %w", p, err)}
			}
			t.w.log.Debug("cannot watch a folder", "dir", p, "err", err)
			return filepath.SkipDir
		}
		t.folders++
		return nil
	})
}

// event adds what an event means to a pending batch.
func (t *tree) event(ev fsnotify.Event, b *pending) error {
	name := filepath.Clean(ev.Name)
	dir := t.w.opts.Dir
	if t.files[name] {
		b.files[name] = true
	}
	if name == dir {
		// The docs folder itself was created, removed or renamed: look at
		// everything, and watch the new folder if there is one.
		if ev.Has(fsnotify.Create) {
			if err := t.addTree(dir); err != nil {
				return err
			}
		}
		if !ev.Has(fsnotify.Chmod) || ev.Has(fsnotify.Create) {
			b.all = true
		}
		return nil
	}
	rel, err := filepath.Rel(dir, name)
	if err != nil || !filepath.IsLocal(rel) {
		return nil // a sibling of the docs folder in a watched parent
	}
	rel, ok := docs.FromOS(rel)
	if !ok || docs.IgnoredPath(rel) {
		return nil // a name no doc can have, or a folder left out
	}
	if ev.Has(fsnotify.Create) {
		if info, err := os.Lstat(name); err == nil && info.IsDir() {
			if err := t.addTree(name); err != nil {
				return err
			}
		}
	}
	b.paths[rel] = true
	return nil
}

// pending is a batch being gathered.
type pending struct {
	paths map[string]bool
	files map[string]bool
	all   bool
	since time.Time // the first event
}

func newPending() *pending { return &pending{paths: map[string]bool{}, files: map[string]bool{}} }

func (p *pending) empty() bool { return len(p.paths) == 0 && len(p.files) == 0 && !p.all }

// maxPaths bounds a batch: past it, looking at everything is cheaper than
// looking path by path.
const maxPaths = 10000

func (p *pending) batch() Batch {
	b := Batch{All: p.all || len(p.paths) > maxPaths}
	if !b.All {
		b.Paths = slices.Sorted(maps.Keys(p.paths))
	}
	b.Files = slices.Sorted(maps.Keys(p.files))
	return b
}

// coalesce reads events and hands over a batch once the tree is quiet for
// opts.Quiet, or opts.MaxDelay after the batch's first event. apply runs in
// its own goroutine so that events keep being read (and the kernel queue
// drained) while a batch is applied.
func (t *tree) coalesce(ctx context.Context, events <-chan fsnotify.Event, errs <-chan error, apply func(context.Context, Batch)) error {
	opts := t.w.opts
	p := newPending()
	quiet := time.NewTimer(time.Hour)
	quiet.Stop()
	var (
		busy bool          // apply is running
		done chan struct{} // closed when it returns
		due  bool          // the quiet period passed while apply was busy
	)
	start := func() {
		b := p.batch()
		p = newPending()
		busy, due, done = true, false, make(chan struct{})
		go func(done chan struct{}) {
			defer close(done)
			apply(ctx, b)
		}(done)
	}
	for {
		select {
		case <-ctx.Done():
			if busy {
				<-done
			}
			return nil
		case ev, ok := <-events:
			if !ok {
				return nil
			}
			if err := t.event(ev, p); err != nil {
				if busy {
					<-done
				}
				return err
			}
		case err, ok := <-errs:
			if !ok {
				return nil
			}
			if errors.Is(err, fsnotify.ErrEventOverflow) {
				t.w.log.Warn("too many file events at once; looking at every doc", "err", err)
			} else {
				t.w.log.Warn("file events", "err", err)
			}
			p.all = true // events may have been lost
		case <-quiet.C:
			if busy {
				due = true
				continue
			}
			if !p.empty() {
				start()
			}
			continue
		case <-done:
			busy, done = false, nil
			if due && !p.empty() {
				start()
			}
			continue
		}
		// An event arrived: wait for quiet, but not past MaxDelay.
		if p.empty() {
			continue
		}
		if p.since.IsZero() {
			p.since = time.Now()
		}
		wait := min(opts.Quiet, opts.MaxDelay-time.Since(p.since))
		quiet.Reset(max(wait, 0))
	}
}
