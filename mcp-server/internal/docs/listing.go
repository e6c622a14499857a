package docs

import (
	"context"
	"fmt"
	"os"
	"time"
)

// Listing is every Markdown file of a docs folder with its stamp, as the
// rescan of Update with Changes.All finds them, taken before that update
// is applied: a caller that must know the size of the docs before it
// reads a saved snapshot (the corpus bounds its cache file by it) lists
// the folder once, and UpdateListed applies the update from that listing
// without walking the folder again.
type Listing struct {
	began   time.Time // when the walk began: the racy limit of the reads that follow (see markRacy)
	files   []file
	skipped []Skipped // symlinks refused during the walk
}

// List stamps every Markdown file under dir, as Update's rescan of every
// file does (one stat a file, on every core).
func List(ctx context.Context, dir string) (*Listing, error) {
	root, err := os.OpenRoot(dir)
	if err != nil {
		return nil, fmt.Errorf("open docs folder: %w", err)
	}
	defer root.Close()
	l := &Listing{began: time.Now()}
	if _, l.files, l.skipped, err = walkTree(ctx, root, 0, true); err != nil {
		return nil, fmt.Errorf("walk docs folder %s: %w", dir, err)
	}
	return l, nil
}

// Size is the number of files listed, the sum of their sizes on disk and
// the sum of their paths' lengths.
func (l *Listing) Size() (files int, bytes, pathBytes int64) {
	for _, f := range l.files {
		bytes += f.stamp.size
		pathBytes += int64(len(f.path))
	}
	return len(l.files), bytes, pathBytes
}

// UpdateListed is Update of prev with Changes.All, from the listing l of
// dir instead of a walk of its own: l must have been made after prev.
func UpdateListed(ctx context.Context, prev *Snapshot, dir string, l *Listing, opts LoadOptions) (*Snapshot, Diff, error) {
	opts = opts.withDefaults()
	root, err := os.OpenRoot(dir)
	if err != nil {
		return prev, Diff{}, fmt.Errorf("open docs folder: %w", err)
	}
	defer root.Close()
	u := &updater{prev: prev, root: root, began: l.began, scopes: []string{"."}, found: make(map[string]stamp, len(l.files)), forced: map[string]bool{}}
	for _, f := range l.files {
		u.found[f.path] = f.stamp
	}
	u.skipped = append(u.skipped, l.skipped...)
	return u.apply(ctx, opts)
}
