package wiki

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"maps"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"time"

	"github.com/docs-mcp/docs-mcp/mcp-server/watch"
)

// DefaultPoll is how often Watch looks at the tree when not told otherwise.
const DefaultPoll = 500 * time.Millisecond

// Watch builds the site into out as Build does, then rebuilds it each time
// a file it is made from changes (a doc or other file under docs/,
// CONTRIBUTING.md, framework/mod_hooks.json), until ctx ends. Broken links
// are listed and built anyway unless opt.BrokenLinks says error.
//
// The tree is followed by the server's watcher (package watch) in its
// polling mode, every poll (DefaultPoll when zero): each poll reads the
// size and modification time of every file, which costs little next to a
// build and sees every change on every file system, bind mounts from
// another machine's editor included, where file events may never come. A
// change is built once a poll finds the tree as the previous one did, so
// an editor's save or a checkout of many files becomes one build. A change
// made during a build is built next.
//
// Each build is swapped in whole (see Build), so a server reading out never
// serves a half-written site. A build that fails, and a tree that cannot
// be read (docs/ moved away for a moment), leave the last site in place and
// are reported on opt.Progress; Watch returns an error only when Hugo cannot
// run at all.
func Watch(ctx context.Context, opt Options, out string, poll time.Duration) error {
	if poll <= 0 {
		poll = DefaultPoll
	}
	b, err := newBuilder(opt, out, BrokenLinksWarn)
	if err != nil {
		return fmt.Errorf("watch wiki: %w", err)
	}
	if _, err := b.hugoVersion(ctx); err != nil {
		return fmt.Errorf("watch wiki: %w", err)
	}
	progress := opt.progress()
	root, err := filepath.Abs(opt.root())
	if err != nil {
		return fmt.Errorf("watch wiki: %w", err)
	}

	w := &watcher{b: b, root: root}
	w.seen, err = stamps(root)
	if err != nil {
		fmt.Fprintf(progress, "wiki: error: %v\n", err)
		w.failed = err.Error()
	}
	w.rebuild(ctx, nil)
	fmt.Fprintf(progress, "wiki: watching %s for changes (every %s)\n", root, poll)

	files := make([]string, len(sources))
	for i, rel := range sources {
		files[i] = filepath.Join(root, filepath.FromSlash(rel))
	}
	cfg := watch.DefaultConfig()
	cfg.Mode, cfg.Dir, cfg.Files, cfg.PollInterval = watch.Poll, filepath.Join(root, "docs"), files, poll
	follow := watch.New(cfg)
	if err := follow.Run(ctx, func(ctx context.Context, _ watch.Batch) { w.poll(ctx) }); err != nil {
		return fmt.Errorf("watch wiki: %w", err)
	}
	return nil
}

// sources are the files outside docs/ that a build reads, by slash path
// from the repository root.
var sources = []string{"CONTRIBUTING.md", "framework/mod_hooks.json"}

// watcher is Watch's state between polls.
type watcher struct {
	b       *builder
	root    string
	seen    snapshot // the tree as last built
	pending snapshot // a changed tree waiting for a quiet poll; nil when none
	failed  string   // the last error reading the tree, reported once
}

// poll looks at the tree once and builds a change that has settled. The
// watcher's batch only says when to look: poll compares the whole tree
// with the last one itself.
func (w *watcher) poll(ctx context.Context) {
	now, err := stamps(w.root)
	if err != nil {
		if err.Error() != w.failed {
			fmt.Fprintf(w.b.opt.progress(), "wiki: error: %v (the last site stays served)\n", err)
			w.failed = err.Error()
		}
		return
	}
	w.failed = ""
	switch {
	case w.pending == nil && maps.Equal(now, w.seen):
		return // nothing new
	case w.pending == nil || !maps.Equal(now, w.pending):
		w.pending = now // still changing: wait for a quiet poll
		return
	}
	changed := w.seen.changes(now)
	w.seen, w.pending = now, nil
	if len(changed) > 0 { // not a change undone before it settled
		w.rebuild(ctx, changed)
	}
}

// rebuild builds the site and says what it did; changed are the paths that
// made it (nil for the first build).
func (w *watcher) rebuild(ctx context.Context, changed []string) {
	progress := w.b.opt.progress()
	if len(changed) > 0 {
		more := ""
		if len(changed) > 1 {
			more = fmt.Sprintf(" and %d more", len(changed)-1)
		}
		fmt.Fprintf(progress, "wiki: %s%s changed: rebuilding\n", changed[0], more)
	}
	start := time.Now()
	res, err := w.b.build(ctx)
	if ctx.Err() != nil {
		return
	}
	if err != nil {
		fmt.Fprintf(progress, "wiki: error: build wiki: %v (the last site stays served)\n", err)
		return
	}
	line := fmt.Sprintf("wiki: built %d pages (%d files) in %s → %s", res.Pages, res.Files, time.Since(start).Round(time.Millisecond), res.Out)
	if saved, ok := w.seen.newest(changed); ok {
		if d := time.Since(saved); d >= 0 {
			line += fmt.Sprintf(" (%s after the change was saved)", d.Round(time.Millisecond))
		}
	}
	fmt.Fprintln(progress, line)
}

// snapshot is what the files a build reads looked like at one poll, by
// slash path relative to the tree's root.
type snapshot map[string]stamp

type stamp struct {
	size int64
	mod  int64 // nanoseconds since 1970
	mode fs.FileMode
}

func stampOf(info fs.FileInfo) stamp {
	return stamp{size: info.Size(), mod: info.ModTime().UnixNano(), mode: info.Mode()}
}

// stamps reads the size, time and mode of every file under root/docs (but
// hidden ones, which builds skip too), of CONTRIBUTING.md and of the hook
// registry.
func stamps(root string) (snapshot, error) {
	s := snapshot{}
	docs := filepath.Join(root, "docs")
	err := filepath.WalkDir(docs, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			if p != docs && errors.Is(err, fs.ErrNotExist) {
				return nil // removed while walking: the next poll sees it gone
			}
			return err
		}
		if p != docs && strings.HasPrefix(d.Name(), ".") {
			if d.IsDir() {
				return filepath.SkipDir
			}
			return nil
		}
		if d.IsDir() {
			return nil
		}
		info, err := d.Info()
		if errors.Is(err, fs.ErrNotExist) {
			return nil
		}
		if err != nil {
			return err
		}
		rel, err := filepath.Rel(root, p)
		if err != nil {
			return err
		}
		s[filepath.ToSlash(rel)] = stampOf(info)
		return nil
	})
	if err != nil {
		return nil, fmt.Errorf("read %s: %w", docs, err)
	}
	for _, rel := range sources {
		info, err := os.Stat(filepath.Join(root, filepath.FromSlash(rel)))
		if errors.Is(err, fs.ErrNotExist) {
			continue
		}
		if err != nil {
			return nil, fmt.Errorf("read %s: %w", rel, err)
		}
		s[rel] = stampOf(info)
	}
	return s, nil
}

// changes lists, sorted, the paths added, removed or changed from s to now.
func (s snapshot) changes(now snapshot) []string {
	var paths []string
	for p, st := range now {
		if old, ok := s[p]; !ok || old != st {
			paths = append(paths, p)
		}
	}
	for p := range s {
		if _, ok := now[p]; !ok {
			paths = append(paths, p)
		}
	}
	slices.Sort(paths)
	return paths
}

// newest is the latest modification time among paths that s holds.
func (s snapshot) newest(paths []string) (time.Time, bool) {
	var t int64
	for _, p := range paths {
		if st, ok := s[p]; ok && st.mod > t {
			t = st.mod
		}
	}
	return time.Unix(0, t), t != 0
}
