package docs

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"maps"
	"os"
	"slices"
	"strings"
	"time"
)

// Changes says where the docs folder may have changed since a snapshot was
// taken.
type Changes struct {
	// Paths are slash paths relative to the docs folder, of files or
	// folders that may have been created, written, removed or renamed. A
	// folder stands for everything under it.
	Paths []string
	// All means anything may have changed (events were lost, the folder was
	// replaced, or a poll is due): every file is checked by its size and
	// modification time, and only those that differ are read.
	All bool
}

// Diff lists the docs an update added, removed and changed, each in path
// order. A rename is a removal and an addition.
type Diff struct {
	Added, Removed, Changed []string
	Retitled                []string // of Changed, the docs whose title changed
}

// Empty reports whether the update changed nothing.
func (d Diff) Empty() bool { return len(d.Added)+len(d.Removed)+len(d.Changed) == 0 }

// Change is one update of the docs served, as package corpus tells it to
// the MCP server (the type is here, below both, so that the server need
// not import what follows the disk): the snapshot before and after, Next
// served already; what differs between their docs; and which of the other
// files followed beside the docs folder may have changed.
type Change struct {
	Prev, Next *Snapshot
	Diff       Diff
	Files      []string // as the corpus was configured to follow them
}

// Update returns a snapshot of dir that follows prev after the given
// changes, and what differs. Only the files named by the changes (or, for
// Changes.All, the files whose size or modification time moved) are read;
// every other doc is shared with prev. The new snapshot has
// opts.Generation. When no doc's text differs, the Diff is empty and the
// generation stays prev's: Update returns prev itself, or, when files were
// rewritten with the same text, a copy that records their new times.
//
// Update reads like Load: through an os.Root on dir, never following a
// symlink out of it. A file that vanishes while it is read is a removal; one
// that cannot be read is skipped with a warning. Only a dir that cannot be
// opened is an error, and then prev stays current.
func Update(ctx context.Context, prev *Snapshot, dir string, ch Changes, opts LoadOptions) (*Snapshot, Diff, error) {
	opts = opts.withDefaults()
	root, err := os.OpenRoot(dir)
	if err != nil {
		return prev, Diff{}, fmt.Errorf("open docs folder: %w", err)
	}
	defer root.Close()

	u := &updater{prev: prev, root: root, began: time.Now(), found: map[string]stamp{}, forced: map[string]bool{}}
	if ch.All {
		if err := u.scanAll(ctx); err != nil {
			return prev, Diff{}, fmt.Errorf("walk docs folder %s: %w", dir, err)
		}
	} else {
		for _, p := range ch.Paths {
			if err := u.visit(ctx, p); err != nil {
				return prev, Diff{}, err
			}
		}
	}
	return u.apply(ctx, opts)
}

// updater gathers what an update must look at.
type updater struct {
	prev  *Snapshot
	root  *os.Root
	began time.Time // when the update began: the reads' racy limit (see markRacy)

	scopes  []string         // folders and files re-examined: "." for all, else slash paths
	found   map[string]stamp // Markdown files now on disk within the scopes
	forced  map[string]bool  // files named by an event: read even if their stamp looks unchanged
	skipped []Skipped        // symlinks refused during the walks
}

// visit looks at one changed path.
func (u *updater) visit(ctx context.Context, raw string) error {
	p, err := CleanPath(strings.TrimSuffix(raw, "/"))
	switch {
	case raw == "" || raw == ".":
		return u.scanAll(ctx)
	case err != nil || IgnoredPath(p):
		return nil // not a path a doc can have
	}
	u.scopes = append(u.scopes, p)
	info, err := u.root.Lstat(p)
	switch {
	case err != nil:
		return nil // gone, or unreachable: whatever was there is removed
	case info.IsDir():
		return u.scan(ctx, p, false)
	case isMarkdown(p):
		u.found[p] = stamp{}
		u.forced[p] = true
	}
	return nil
}

// scanAll stamps every Markdown file of the tree, as the load walks it (on
// every core, one stat a file: on 40,000 files a quarter of the time a
// walk of fs.WalkDir took through the os.Root, which resolves every path
// from the root).
func (u *updater) scanAll(ctx context.Context) error {
	u.scopes = append(u.scopes, ".")
	_, files, skipped, err := walkTree(ctx, u.root, 0, true)
	if err != nil {
		return err
	}
	for _, f := range files {
		u.found[f.path] = f.stamp
	}
	u.skipped = append(u.skipped, skipped...)
	return nil
}

// scan walks a folder (or the whole root, "."), recording its Markdown files.
func (u *updater) scan(ctx context.Context, dir string, stamps bool) error {
	u.scopes = append(u.scopes, dir)
	files, skipped, err := listMarkdown(ctx, u.root, dir, stamps)
	if err != nil {
		if dir != "." && (errors.Is(err, fs.ErrNotExist) || errors.Is(err, fs.ErrPermission)) {
			return nil // removed while we looked, or closed to us: its docs go
		}
		return err
	}
	for _, f := range files {
		u.found[f.path] = f.stamp
		if !stamps {
			u.forced[f.path] = true // a new or moved folder: read all it holds
		}
	}
	u.skipped = append(u.skipped, skipped...)
	return nil
}

// inScope reports whether a path lies within the folders and files examined.
func (u *updater) inScope(p string) bool {
	for _, s := range u.scopes {
		if s == "." || p == s || strings.HasPrefix(p, s+"/") {
			return true
		}
	}
	return false
}

// apply reads what must be read and builds the next snapshot.
func (u *updater) apply(ctx context.Context, opts LoadOptions) (*Snapshot, Diff, error) {
	prev := u.prev
	prevSkipped := make(map[string]Skipped, len(prev.skipped))
	for _, s := range prev.skipped {
		prevSkipped[s.Path] = s
	}

	// Read the files that are new, forced, or whose stamp moved.
	var toRead []string
	for p, st := range u.found {
		old, ok := prev.Lookup(p)
		switch {
		case u.forced[p], !ok && !stampMatches(prevSkipped[p], st):
			toRead = append(toRead, p)
		case ok && old.stamp != st:
			toRead = append(toRead, p)
		}
	}
	slices.Sort(toRead)
	results, err := readAll(ctx, u.root, toRead, opts.MaxDocBytes)
	if err != nil {
		return prev, Diff{}, err
	}

	read := make(map[string]readResult, len(toRead))
	for i, p := range toRead {
		read[p] = results[i]
	}
	var diff Diff
	replaced := map[string]*Doc{}
	var skipped []Skipped
	for _, p := range toRead {
		r := read[p]
		old, had := prev.Lookup(p)
		switch {
		case r.doc != nil && had && sameDoc(old, r.doc):
			if old.stamp != r.doc.stamp {
				replaced[p] = r.doc // same text, newer stamp: no news for clients
			}
		case r.doc != nil && had:
			replaced[p] = r.doc
			diff.Changed = append(diff.Changed, p)
			if old.Title() != r.doc.Title() { // the new text is still plain: only the old one is decoded
				diff.Retitled = append(diff.Retitled, p)
			}
		case r.doc != nil:
			replaced[p] = r.doc
			diff.Added = append(diff.Added, p)
		case !r.gone:
			skipped = append(skipped, r.skip)
		}
	}
	fresh := slices.Collect(maps.Values(replaced))
	markRacy(fresh, u.began)
	prev.codec.pack(fresh)

	// A doc in scope stays when it was read again, or found with the stamp
	// it had; otherwise (gone, or now unreadable) it is removed.
	for _, d := range u.inScopeDocs() {
		r, wasRead := read[d.Path]
		_, onDisk := u.found[d.Path]
		if wasRead && r.doc != nil || onDisk && !wasRead {
			continue
		}
		diff.Removed = append(diff.Removed, d.Path)
	}

	// Skipped files: keep those out of scope, and those in scope that were
	// not re-read (an unchanged too-large file keeps its reason).
	var keptSkipped []Skipped
	for _, s := range prev.skipped {
		if !u.inScope(s.Path) {
			keptSkipped = append(keptSkipped, s)
			continue
		}
		if st, ok := u.found[s.Path]; ok && !isRead(read, s.Path) && stampMatches(s, st) {
			keptSkipped = append(keptSkipped, s)
		}
	}
	for _, s := range append(u.skipped, skipped...) {
		opts.Logger.Warn("skipped doc", "path", s.Path, "reason", s.Reason)
	}
	keptSkipped = append(keptSkipped, u.skipped...)
	keptSkipped = append(keptSkipped, skipped...)
	slices.SortFunc(keptSkipped, func(a, b Skipped) int { return strings.Compare(a.Path, b.Path) })
	keptSkipped = slices.CompactFunc(keptSkipped, func(a, b Skipped) bool { return a.Path == b.Path })

	if len(replaced) == 0 && len(diff.Removed) == 0 {
		if !slices.EqualFunc(keptSkipped, prev.skipped, func(a, b Skipped) bool { return a == b }) {
			return prev.with(prev.generation, prev.docs, keptSkipped), Diff{}, nil
		}
		return prev, Diff{}, nil
	}
	gen := opts.Generation
	if diff.Empty() {
		gen = prev.generation // files rewritten with the same text: same corpus
	}
	return prev.next(gen, replaced, diff.Removed, keptSkipped), diff, nil
}

func isRead(read map[string]readResult, p string) bool {
	_, ok := read[p]
	return ok
}

// stampMatches reports whether a skipped file is still the version that was
// skipped: a file skipped for its content keeps its reason until it changes.
func stampMatches(s Skipped, st stamp) bool {
	return s.Path != "" && s.stamp != (stamp{}) && s.stamp == st
}

// inScopeDocs returns the docs of prev inside the update's scopes.
func (u *updater) inScopeDocs() []*Doc {
	var out []*Doc
	for _, s := range u.scopes {
		if s == "." {
			return u.prev.docs
		}
		if d, ok := u.prev.Lookup(s); ok {
			out = append(out, d)
		}
		for _, d := range u.prev.docs[u.prev.From(s+"/"):] {
			if !strings.HasPrefix(d.Path, s+"/") {
				break
			}
			out = append(out, d)
		}
	}
	slices.SortFunc(out, func(a, b *Doc) int { return strings.Compare(a.Path, b.Path) })
	return slices.CompactFunc(out, func(a, b *Doc) bool { return a.Path == b.Path })
}

// sameDoc reports whether two reads of a file gave the same text.
func sameDoc(a, b *Doc) bool {
	return a.Size == b.Size && a.Text() == b.Text()
}

// next builds the snapshot that follows s: docs in replaced are added or
// take the place of the doc at their path, docs at removed paths go, and
// every other doc is shared.
func (s *Snapshot) next(generation uint64, replaced map[string]*Doc, removed []string, skipped []Skipped) *Snapshot {
	gone := make(map[string]bool, len(removed))
	for _, p := range removed {
		gone[p] = true
	}
	docs := make([]*Doc, 0, len(s.docs)+len(replaced)-len(removed))
	for _, d := range s.docs {
		switch nd, ok := replaced[d.Path]; {
		case gone[d.Path]:
		case ok:
			docs = append(docs, nd)
		default:
			docs = append(docs, d)
		}
	}
	var added []*Doc
	for p, d := range replaced {
		if _, ok := s.Lookup(p); !ok {
			added = append(added, d)
		}
	}
	if len(added) > 0 {
		docs = append(docs, added...)
		slices.SortFunc(docs, func(a, b *Doc) int { return strings.Compare(a.Path, b.Path) })
	}
	return s.with(generation, docs, skipped)
}

// with returns a snapshot made of the given parts.
func (s *Snapshot) with(generation uint64, docs []*Doc, skipped []Skipped) *Snapshot {
	return &Snapshot{generation: generation, docs: docs, skipped: skipped, codec: s.codec}
}
