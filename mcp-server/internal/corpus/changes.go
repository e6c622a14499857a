package corpus

import (
	"fmt"
	"io/fs"
	"os"
	"slices"
	"sync"

	"github.com/docs-mcp/docs-mcp/mcp-server/gitdocs"
	"github.com/docs-mcp/docs-mcp/mcp-server/internal/docs"
	"github.com/docs-mcp/docs-mcp/mcp-server/internal/release"
)

// Changes compares two versions' docs, hook registry and guide
// (gitdocs.ChangesWithin): from and to are releases served, or nil for
// the working tree. Two releases are compared once, then answered from
// what was kept (changesCache), as both are what their tags name; with the
// working tree it is compared afresh each time, as its files on disk may
// have changed.
func (c *Corpus) Changes(from, to *release.Release) (*gitdocs.Diff, error) {
	compare := func() (*gitdocs.Diff, error) {
		a, closeA, err := c.tree(from)
		if err != nil {
			return nil, err
		}
		defer closeA()
		b, closeB, err := c.tree(to)
		if err != nil {
			return nil, err
		}
		defer closeB()
		return gitdocs.ChangesWithin(a, b, c.maxDocBytes())
	}
	if from == nil || to == nil {
		return compare()
	}
	return c.changes.get(changesKey{from.Name, from.Commit, to.Name, to.Commit}, compare)
}

// tree is the whole tree of a release, or of the working tree (rel nil),
// for gitdocs.ChangesWithin: the tag's objects, or the data root on disk
// (through an os.Root, so that no link leads out of it). Call done when
// finished with it.
func (c *Corpus) tree(rel *release.Release) (fsys fs.FS, done func(), err error) {
	if rel != nil {
		v, err := c.loaded(rel)
		if err != nil {
			return nil, nil, err
		}
		return v.Tree(), func() {}, nil
	}
	root, err := os.OpenRoot(c.cfg.DataRoot)
	if err != nil {
		return nil, nil, fmt.Errorf("open the data root: %w", err)
	}
	return root.FS(), func() { root.Close() }, nil
}

// maxDocBytes is the cap of a file compared: the releases', which have it
// from the command line as the working tree has.
func (c *Corpus) maxDocBytes() int64 {
	if c.releases == nil {
		return docs.DefaultMaxDocBytes
	}
	return c.releases.MaxDocBytes()
}

// changesKey names a comparison of two releases by their tags and commits.
type changesKey struct{ fromName, fromCommit, toName, toCommit string }

// The bounds of changesCache: the comparisons kept, and their size in all
// (about: the bytes of their paths and anchors).
const (
	maxCachedChanges      = 8
	maxCachedChangesBytes = 16 << 20
)

// changesCache keeps the last comparisons of two releases, the most
// recently asked last, within maxCachedChanges and maxCachedChangesBytes:
// comparing two trees of 200,000 docs costs about a second of a core,
// which a client asking again (paging through versions, or several
// clients asking the same) would pay each time. A comparison asked for
// while it is computed waits for it rather than computing it again.
type changesCache struct {
	mu      sync.Mutex
	entries []*changesEntry
}

type changesEntry struct {
	key   changesKey
	once  sync.Once
	diff  *gitdocs.Diff
	err   error
	bytes int
}

// get returns the comparison of key, computed by compute once.
func (c *changesCache) get(key changesKey, compute func() (*gitdocs.Diff, error)) (*gitdocs.Diff, error) {
	c.mu.Lock()
	i := slices.IndexFunc(c.entries, func(e *changesEntry) bool { return e.key == key })
	var e *changesEntry
	if i >= 0 {
		e = c.entries[i]
		c.entries = append(slices.Delete(c.entries, i, i+1), e)
	} else {
		e = &changesEntry{key: key}
		c.entries = append(c.entries, e)
	}
	c.mu.Unlock()
	e.once.Do(func() {
		e.diff, e.err = compute()
		if e.err == nil {
			e.bytes = diffBytes(e.diff)
		}
		c.mu.Lock()
		defer c.mu.Unlock()
		if e.err != nil {
			c.entries = slices.DeleteFunc(c.entries, func(x *changesEntry) bool { return x == e }) // tried again next time
		}
		c.trim()
	})
	return e.diff, e.err
}

// trim drops the least recently asked comparisons past the bounds (c.mu
// held). One being computed counts as empty until it is done.
func (c *changesCache) trim() {
	total := 0
	for _, e := range c.entries {
		total += e.bytes
	}
	for len(c.entries) > maxCachedChanges || total > maxCachedChangesBytes && len(c.entries) > 0 {
		total -= c.entries[0].bytes
		c.entries = c.entries[1:]
	}
}

// size is how many comparisons are kept.
func (c *changesCache) size() int {
	c.mu.Lock()
	defer c.mu.Unlock()
	return len(c.entries)
}

// diffBytes is about what a Diff holds: its paths, anchors and headings.
func diffBytes(d *gitdocs.Diff) int {
	n := 0
	for _, ps := range [][]string{d.Added, d.Removed, d.Hooks.Added, d.Hooks.Removed, d.Hooks.Edited} {
		for _, p := range ps {
			n += len(p) + 16
		}
	}
	for _, c := range d.Changed {
		n += len(c.Path) + 16
		for _, sec := range c.Sections {
			n += len(sec.Anchor) + len(sec.Heading) + len(sec.Change) + 48
		}
	}
	return n
}
