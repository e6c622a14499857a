package wiki

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"maps"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync/atomic"
	"time"
)

// DefaultPoll is how often Watch looks at the tree when not told otherwise.
const DefaultPoll = 500 * time.Millisecond

// Watch builds the site into out as Build does, then keeps it up to date
// with the files it is made from (a doc or other file under docs/,
// CONTRIBUTING.md, framework/mod_hooks.json) until ctx ends. Broken links
// are listed and built anyway unless opt.BrokenLinks says error. It builds
// the working tree alone: opt.Versions are for Build.
//
// Hugo keeps running (a generation, see startGeneration), with its own
// watcher polling the tree every poll (DefaultPoll when zero), and renders
// again only what an edit touches: the page, the pages that list it, and
// the page's own entry (lists.go). Each file Hugo writes is moved into out
// in one step, the page first, then the search index's pieces that hold
// the page (searchIndex.update), then llms.txt and llms-full.txt. Watch
// follows the tree too, polling as the server's package watch does: each
// poll reads the size and modification time of every file,
// which sees every change on every file system, bind mounts from another
// machine's editor included, where file events may never come; a change
// is taken once a poll finds the tree as the previous one did. An edited
// file's raw copy (a page's Markdown twin, an image) is copied into out
// then. A doc or file added, moved or removed starts a new Hugo, whose
// whole build is swapped in as Build's is; so does a change made while a
// Hugo builds the whole tree, once that build is in.
//
// A build that fails, and a tree that cannot be read or built (docs/ moved
// away for a moment, two docs for one page), leave the last site in place
// and are reported on opt.Progress; Watch returns an error only when Hugo
// cannot run at all.
func Watch(ctx context.Context, opt Options, out string, poll time.Duration) error {
	return watch(ctx, opt, out, poll, false)
}

// watch is Watch; a plain site has no compressed copies of its files
// (builder.plain).
func watch(ctx context.Context, opt Options, out string, poll time.Duration, plain bool) error {
	if poll <= 0 {
		poll = DefaultPoll
	}
	if len(opt.Versions) > 0 {
		return errors.New("watch wiki: watch builds the working tree alone; versions are built by wiki build")
	}
	b, err := newBuilder(opt, out, BrokenLinksWarn)
	if err != nil {
		return fmt.Errorf("watch wiki: %w", err)
	}
	b.params.Preview = true
	b.plain = plain
	if _, err := b.hugoVersion(ctx); err != nil {
		return fmt.Errorf("watch wiki: %w", err)
	}
	root, err := filepath.Abs(opt.root())
	if err != nil {
		return fmt.Errorf("watch wiki: %w", err)
	}
	w := &watcher{b: b, root: root, poll: poll}
	defer w.stop()
	seen, err := stamps(root)
	if err != nil {
		w.report(err)
	}
	w.restart(ctx)
	fmt.Fprintf(b.opt.progress(), "wiki: watching %s for changes (every %s)\n", root, poll)

	// The tree is followed beside the loop (follow): its looks (on
	// cpp-docs an lstat of 13,422 files, 60 ms of CPU each) and the scan of
	// a changed tree (ScanTree, most of a second) held up the publishing
	// of a build Hugo had finished.
	changes := make(chan settled)
	fctx, stopFollowing := context.WithCancel(ctx)
	defer stopFollowing()
	w.rebase = make(chan snapshot, 1)
	go follow(fctx, root, poll, seen, &w.building, &w.newest, w.rebase, changes)
	for {
		w.building.Store(w.g != nil && !w.g.ready)
		var builds <-chan hugoBuild
		var exited <-chan error
		if w.g != nil {
			builds, exited = w.g.builds, w.g.exited
		}
		select {
		case <-ctx.Done():
			return nil
		case hb := <-builds:
			w.built(ctx, hb)
		case err := <-exited:
			w.report(fmt.Errorf("build wiki: %w", err))
			w.g.stop()
			w.g = nil // the next change starts another
		case c := <-changes:
			w.take(ctx, c)
		}
	}
}

// sources are the files outside docs/ that a build reads, by slash path
// from the repository root: the guide, the hook registry and the redirect
// files.
var sources = append([]string{"CONTRIBUTING.md", registryPath, opsRedirectFile}, mkdocsConfigs...)

// watcher is Watch's state between changes.
type watcher struct {
	b      *builder
	root   string
	poll   time.Duration
	g      *generation  // the running Hugo; nil when none runs
	again  bool         // the tree changed during g's first build
	failed string       // the last error, reported once
	newest atomic.Int64 // the latest modification time in the tree at the last look, in nanoseconds (follow)
	// building says a Hugo builds the whole tree: follow does not look
	// then (its looks were 12% of a core, which the build wanted). The
	// tree is looked at when the generation starts (started) and when its
	// build is done, and follow goes on from there (rebase).
	building atomic.Bool
	started  snapshot
	rebase   chan snapshot
}

// report says err once, until another error or a success.
func (w *watcher) report(err error) {
	if err.Error() != w.failed {
		fmt.Fprintf(w.b.opt.progress(), "wiki: error: %v (the last site stays served)\n", err)
		w.failed = err.Error()
	}
}

func (w *watcher) stop() {
	if w.g != nil {
		w.g.stop()
		w.g = nil
	}
}

// restart ends the running Hugo, if any, and starts one on the tree as it
// is now.
func (w *watcher) restart(ctx context.Context) {
	w.stop()
	w.again = false
	w.started, _ = stamps(w.root)
	g, err := w.b.startGeneration(ctx, w.poll)
	if err != nil {
		if ctx.Err() == nil {
			w.report(err)
		}
		return
	}
	w.g = g
}

// settled is a change of the tree that has settled: the files changed
// (slash paths from the root) and the tree scanned then, or what kept the
// tree from being read or scanned.
type settled struct {
	changed []string
	tree    *Tree
	err     error
}

// follow looks at the tree at root every poll, from seen on (or from what
// rebase says), but while building says a whole build is under way, and
// sends on out each change that has settled: one a poll finds the tree as
// the previous one did. It keeps in newest the latest modification time it
// saw. It ends with ctx.
func follow(ctx context.Context, root string, poll time.Duration, seen snapshot, building *atomic.Bool, newest *atomic.Int64, rebase <-chan snapshot, out chan<- settled) {
	tick := time.NewTicker(poll)
	defer tick.Stop()
	var pending snapshot // a changed tree waiting for a quiet poll; nil when none
	send := func(c settled) {
		select {
		case out <- c:
		case <-ctx.Done():
		}
	}
	for {
		select {
		case <-ctx.Done():
			return
		case s := <-rebase:
			seen, pending = s, nil
			continue
		case <-tick.C:
		}
		if building.Load() {
			continue
		}
		now, err := stamps(root)
		if err != nil {
			send(settled{err: err})
			continue
		}
		if t, ok := now.newest(slices.Collect(maps.Keys(now))); ok {
			newest.Store(t.UnixNano())
		}
		switch {
		case pending == nil && maps.Equal(now, seen):
			continue // nothing new
		case pending == nil || !maps.Equal(now, pending):
			pending = now // still changing: wait for a quiet poll
			continue
		}
		changed := seen.changes(now)
		seen, pending = now, nil
		if len(changed) == 0 {
			continue // a change undone before it settled
		}
		tree, err := ScanTree(root)
		send(settled{changed: changed, tree: tree, err: err})
	}
}

// take follows a change of the files changed (slash paths from the root).
// Hugo renders an edit by itself; take copies the raw files and rewrites
// what Hugo reads from the wiki command (data/wiki.json, the copies of the
// docs Hugo would misread). Anything more (structural, a new title:
// retitled) starts a new Hugo.
func (w *watcher) take(ctx context.Context, c settled) {
	if c.changed == nil && c.err != nil {
		w.report(c.err) // the tree could not be read
		return
	}
	changed, tree := c.changed, c.tree
	progress := w.b.opt.progress()
	more := ""
	if len(changed) > 1 {
		more = fmt.Sprintf(" and %d more", len(changed)-1)
	}
	if w.g != nil && !w.g.ready {
		w.again = true // the build under way may have read the file before
		fmt.Fprintf(progress, "wiki: %s%s changed: built next\n", changed[0], more)
		return
	}
	if c.err != nil {
		w.report(c.err)
		w.stop() // a Hugo running on such a tree would publish it
		return
	}
	if w.g == nil || structural(w.g.tree, tree) || w.g.retitled(changed) {
		fmt.Fprintf(progress, "wiki: %s%s changed: building the whole tree\n", changed[0], more)
		w.restart(ctx)
		return
	}
	if err := w.edit(ctx, tree, changed); err != nil {
		w.report(err)
		return
	}
	w.failed = ""
}

// edit takes an edit of files Hugo builds already: tree is the tree now,
// structurally the generation's.
func (w *watcher) edit(ctx context.Context, tree *Tree, changed []string) error {
	g := w.g
	// The dates stay the generation's: a doc changed since Hugo started
	// shows its file's day (params.wikiLiveSince, source.html), so that
	// an edit does not rewrite data/wiki.json, which every page reads.
	tree.Updated = g.tree.Updated
	for _, doc := range tree.Copied {
		if slices.Contains(changed, "docs/"+doc) {
			if err := tree.writeCopy(g.gen, doc); err != nil {
				return err
			}
		}
	}
	data, err := tree.data()
	if err != nil {
		return err
	}
	if b, err := json.MarshalIndent(data, "", "  "); err != nil {
		return err
	} else if !bytes.Equal(b, g.data) {
		// A new hook: every page reads data/wiki.json, and Hugo renders
		// them all again.
		file := filepath.Join(g.gen, "data", "wiki.json")
		if err := os.WriteFile(file+".new", b, 0o644); err != nil {
			return err
		}
		if err := os.Rename(file+".new", file); err != nil {
			return err
		}
		g.data = b
	}
	g.tree = tree
	return w.b.copyRaw(w.root, changed)
}

// built publishes a build Hugo finished and says what it did.
func (w *watcher) built(ctx context.Context, hb hugoBuild) {
	g, progress := w.g, w.b.opt.progress()
	for _, p := range problems(os.DirFS(w.root), hb.reports, g.tree) {
		fmt.Fprintln(progress, "wiki: "+p.String())
	}
	for _, l := range hb.errors {
		fmt.Fprintln(progress, "hugo: "+l)
	}
	if hasError(hb.errors) {
		// What Hugo wrote is left out; it renders those pages again
		// once their error is fixed.
		if batch, err := g.take(); err == nil {
			os.RemoveAll(batch)
		}
		w.report(errors.New("build wiki: Hugo failed"))
		if !g.ready {
			w.stop()
		}
		return
	}
	if !g.ready {
		// Hugo follows the tree from now on; what changed since the
		// generation started, it may not have read.
		if now, err := stamps(w.root); err == nil {
			if w.started != nil && !maps.Equal(now, w.started) {
				w.again = true
			}
			select {
			case <-w.rebase:
			default:
			}
			w.rebase <- now
		}
		res, err := w.b.publishAll(g)
		if err != nil {
			w.report(fmt.Errorf("build wiki: %w", err))
			w.stop()
			return
		}
		g.ready = true
		w.b.writeListsLater(g.ctx, g)
		w.failed = ""
		fmt.Fprintf(progress, "wiki: built %d pages (%d files) in %s → %s\n", res.Pages, res.Files, time.Since(g.start).Round(time.Millisecond), res.Out)
		if w.again {
			w.restart(ctx)
		}
		return
	}
	p, err := w.b.publish(g)
	if err != nil {
		w.report(fmt.Errorf("build wiki: %w", err))
		return
	}
	if p.files == 0 {
		return
	}
	w.failed = ""
	line := fmt.Sprintf("wiki: rebuilt %d files (Hugo %s; published: %s)", p.files, hb.took, p)
	if saved := w.newest.Load(); saved != 0 {
		line += fmt.Sprintf("; the last change seen was saved %s before", time.Since(time.Unix(0, saved)).Round(time.Millisecond))
	}
	fmt.Fprintln(progress, line)
}

// hasError reports whether Hugo's lines say a build failed (not only warned).
func hasError(lines []string) bool {
	return slices.ContainsFunc(lines, func(l string) bool { return !strings.HasPrefix(l, "WARN") })
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

// stamps reads the size, time and mode of every file under root/docs and
// root/skills (but hidden ones, which builds skip too), of CONTRIBUTING.md
// and of the hook registry. A tree without skills/ has none.
func stamps(root string) (snapshot, error) {
	s := snapshot{}
	if err := stampDir(s, root, "docs"); err != nil {
		return nil, err
	}
	if fi, err := os.Stat(filepath.Join(root, skillsFolder)); err == nil && fi.IsDir() {
		if err := stampDir(s, root, skillsFolder); err != nil {
			return nil, err
		}
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

// stampDir adds to s the stamp of every file under root/dir but hidden ones.
func stampDir(s snapshot, root, dir string) error {
	folder := filepath.Join(root, dir)
	err := filepath.WalkDir(folder, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			if p != folder && errors.Is(err, fs.ErrNotExist) {
				return nil // removed while walking: the next poll sees it gone
			}
			return err
		}
		if p != folder && strings.HasPrefix(d.Name(), ".") {
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
		return fmt.Errorf("read %s: %w", folder, err)
	}
	return nil
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
