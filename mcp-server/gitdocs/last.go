package gitdocs

import (
	"cmp"
	"errors"
	"fmt"
	"io"
	"iter"
	"path"
	"strings"
	"time"

	"github.com/go-git/go-git/v5/plumbing"
	"github.com/go-git/go-git/v5/plumbing/filemode"
	"github.com/go-git/go-git/v5/plumbing/object"
	"github.com/go-git/go-git/v5/plumbing/storer"
)

// Commit names a commit.
type Commit struct {
	ID   string    // full hex id
	Date time.Time // committer date
}

// Short is the commit's id shortened to seven hex digits, as git log
// --oneline shows it in a small repository.
func (c Commit) Short() string { return c.ID[:min(7, len(c.ID))] }

// History says, for every file under one folder at HEAD (or another
// commit, LastCommitsAt), the last commit that changed it.
//
// It is held for as long as the head it was walked from: one map entry per
// file, a blob id in 20 bytes and the number of a commit, rather than two
// maps of hex strings (which held 40,000 docs in about 3 times the room).
// A history made by Over holds only where it differs from another.
type History struct {
	Head     string    // the commit walked from (HEAD's); "" in a repository with no commit yet
	Date     time.Time // that commit's committer date
	files    map[string]fileAt
	commits  []Commit
	assigned int

	// base, when set, is the history this one is told as a difference
	// from (Over): files holds the files whose last commit differs from
	// base's or that base lacks, gone those base has and this one lacks.
	base *History
	gone map[string]struct{}
}

// fileAt is a file at the head: its blob, and its last commit (an index
// into commits; -1 until the walk finds it).
type fileAt struct {
	blob   plumbing.Hash
	commit int32
}

func newHistory() *History { return &History{files: map[string]fileAt{}} }

// Files is how many files the head has under the folder walked.
func (h *History) Files() int {
	if h.base == nil {
		return len(h.files)
	}
	n := 0
	for range h.All() {
		n++
	}
	return n
}

// Last returns the last commit that changed the file at p (relative to
// the repository's root); ok is false for a file not at the head.
func (h *History) Last(p string) (c Commit, ok bool) {
	f, ok := h.at(p)
	if !ok || f.commit < 0 {
		return Commit{}, false
	}
	return f.history.commits[f.commit], true
}

// held is a file's entry and the history that holds it.
type held struct {
	fileAt
	history *History
}

// at finds p's entry, in h or in its base.
func (h *History) at(p string) (held, bool) {
	if f, ok := h.files[p]; ok {
		return held{f, h}, true
	}
	if _, gone := h.gone[p]; gone || h.base == nil {
		return held{}, false
	}
	return h.base.at(p)
}

// All yields every file at the head (its path relative to the
// repository's root) with the last commit that changed it.
func (h *History) All() iter.Seq2[string, Commit] {
	return func(yield func(string, Commit) bool) {
		for p, f := range h.files {
			if f.commit >= 0 && !yield(p, h.commits[f.commit]) {
				return
			}
		}
		if h.base == nil {
			return
		}
		for p, c := range h.base.All() {
			if _, own := h.files[p]; own {
				continue
			}
			if _, gone := h.gone[p]; !gone && !yield(p, c) {
				return
			}
		}
	}
}

// Over returns h told as its difference from base (a history of the same
// folder at a commit near h's, HEAD's for a release): what h says alike
// of a file is base's. Both stay as they are. A release's history so
// costs the docs changed between the two, not one entry per doc (at
// 40,000 docs, 4.5 MB a release).
func (h *History) Over(base *History) *History {
	out := &History{Head: h.Head, Date: h.Date, files: map[string]fileAt{}, base: base, gone: map[string]struct{}{}}
	index := map[string]int32{} // out.commits by ID
	for p, f := range h.files {
		if b, ok := base.at(p); ok && b.blob == f.blob && (f.commit < 0) == (b.commit < 0) &&
			(f.commit < 0 || h.commits[f.commit].ID == b.history.commits[b.commit].ID) {
			continue // alike
		}
		if f.commit >= 0 {
			c := h.commits[f.commit]
			i, ok := index[c.ID]
			if !ok {
				i = int32(len(out.commits))
				index[c.ID] = i
				out.commits = append(out.commits, c)
			}
			f.commit = i
		}
		// A copy of the path: h's are cut from the walk's memory, which
		// would stay for the few kept.
		out.files[strings.Clone(p)] = f
	}
	for p := range base.All() {
		if _, ok := h.files[p]; !ok {
			out.gone[p] = struct{}{} // base's string
		}
	}
	return out
}

// Blob returns the blob of the file at p at the head.
func (h *History) Blob(p string) (BlobID, bool) {
	f, ok := h.at(p)
	if !ok {
		return BlobID{}, false
	}
	return BlobID(f.blob), true
}

// LastCommits walks the history once, from HEAD along first parents,
// comparing each commit's tree under dir with its parent's (descending
// only into the folders whose ids differ), and gives each file at HEAD
// the newest commit where it differs: the commit that last changed it. It
// stops as soon as every file has its commit. First parents only, so that
// a change made on a branch is the merge that brought it in, as the
// history of the main line tells it. A file that the walk never sees
// change (history cut by a shallow clone) gets the oldest commit walked.
func (r *Repo) LastCommits(dir string) (*History, error) {
	r.mu.Lock()
	defer r.mu.Unlock()
	h := newHistory()
	ref, err := r.repo.Head()
	if errors.Is(err, plumbing.ErrReferenceNotFound) {
		return h, nil // no commit yet
	}
	if err != nil {
		return nil, fmt.Errorf("resolve HEAD: %w", err)
	}
	// What the walk read is not read again until HEAD moves: it does not
	// stay for the life of the server.
	defer r.forget()
	return r.lastCommits(h, ref.Hash(), dir)
}

// LastCommitsAt is LastCommits from the commit named by its hex id (a
// release's) rather than HEAD. Unlike LastCommits, it keeps what it read
// of the objects: the releases' loads walk one history a release, and
// Forget once they are all loaded.
func (r *Repo) LastCommitsAt(commit, dir string) (*History, error) {
	r.mu.Lock()
	defer r.mu.Unlock()
	return r.lastCommits(newHistory(), plumbing.NewHash(commit), dir)
}

// lastCommits walks from at; see LastCommits.
func (r *Repo) lastCommits(h *History, at plumbing.Hash, dir string) (*History, error) {
	h.Head = at.String()
	c, err := r.repo.CommitObject(at)
	if err != nil {
		return nil, fmt.Errorf("commit %s: %w", h.Head, err)
	}
	h.Date = c.Committer.When
	tree, err := subtree(c, dir)
	if err != nil || tree == nil {
		return h, err
	}
	// The tree's entries only: Tree.Files would read every blob too.
	w := object.NewTreeWalker(tree, true, nil)
	defer w.Close()
	for {
		name, e, err := w.Next()
		if errors.Is(err, io.EOF) {
			break
		}
		if err != nil {
			return nil, fmt.Errorf("list %s at %s: %w", dir, h.Head, err)
		}
		if e.Mode.IsFile() {
			h.files[path.Join(dir, name)] = fileAt{blob: e.Hash, commit: -1}
		}
	}
	ct := tree
	trees := &treeReader{s: r.repo.Storer}
	for h.assigned < len(h.files) {
		var parent *object.Commit
		if c.NumParents() > 0 {
			if parent, err = c.Parent(0); err != nil && !errors.Is(err, plumbing.ErrObjectNotFound) {
				return nil, fmt.Errorf("parent of %s: %w", c.Hash, err)
			}
		}
		var pt *object.Tree
		if parent != nil {
			if pt, err = subtree(parent, dir); err != nil {
				return nil, err
			}
		}
		at := int32(len(h.commits))
		h.commits = append(h.commits, Commit{ID: c.Hash.String(), Date: c.Committer.When})
		err = trees.changedFiles(pt, ct, dir, func(p string) {
			if f, ok := h.files[p]; ok && f.commit < 0 {
				f.commit = at
				h.files[p] = f
				h.assigned++
			}
		})
		if err != nil {
			return nil, err
		}
		if parent == nil {
			break
		}
		trees.step()
		c, ct = parent, pt
	}
	return h, nil
}

// subtree is the tree of c under dir, nil when c has no dir.
func subtree(c *object.Commit, dir string) (*object.Tree, error) {
	t, err := c.Tree()
	if err != nil {
		return nil, fmt.Errorf("tree of %s: %w", c.Hash, err)
	}
	if dir == "" || dir == "." {
		return t, nil
	}
	sub, err := t.Tree(dir)
	if errors.Is(err, object.ErrDirectoryNotFound) {
		return nil, nil
	}
	if err != nil {
		return nil, fmt.Errorf("%s of %s: %w", dir, c.Hash, err)
	}
	return sub, nil
}

// treeReader reads the folders of the two sides of one commit's change
// after another, walking back: the parent's folders read at one step are
// the child's at the next, and are kept for it rather than decoded again.
type treeReader struct {
	s          storer.EncodedObjectStorer
	kept, read map[plumbing.Hash]*object.Tree // the step before's parent side; this step's
}

// tree decodes the folder h, of the parent's side or of the child's.
func (t *treeReader) tree(h plumbing.Hash, parent bool) (*object.Tree, error) {
	if tr := t.kept[h]; !parent && tr != nil {
		return tr, nil
	}
	tr, err := object.GetTree(t.s, h)
	if err == nil && parent {
		if t.read == nil {
			t.read = map[plumbing.Hash]*object.Tree{}
		}
		t.read[h] = tr
	}
	return tr, err
}

// step moves to the next commit back.
func (t *treeReader) step() { t.kept, t.read = t.read, nil }

// changedFiles calls changed with every file of b (under prefix) whose
// blob differs from a's or that a lacks; a nil tree is empty. Folders with
// the same id on both sides are not opened. Both folders' entries are in
// git's order, so they are walked side by side.
func (t *treeReader) changedFiles(a, b *object.Tree, prefix string, changed func(string)) error {
	if b == nil {
		return nil
	}
	var old []object.TreeEntry
	if a != nil {
		old = a.Entries
	}
	for _, e := range b.Entries {
		for len(old) > 0 && gitOrder(old[0], e) < 0 {
			old = old[1:]
		}
		var o *object.TreeEntry
		if len(old) > 0 && old[0].Name == e.Name {
			o = &old[0]
		}
		if o != nil && o.Hash == e.Hash && o.Mode == e.Mode {
			continue
		}
		p := path.Join(prefix, e.Name)
		if e.Mode != filemode.Dir {
			changed(p)
			continue
		}
		bt, err := t.tree(e.Hash, false)
		if err != nil {
			return fmt.Errorf("%s: %w", p, err)
		}
		var at *object.Tree
		if o != nil && o.Mode == filemode.Dir {
			if at, err = t.tree(o.Hash, true); err != nil {
				return fmt.Errorf("%s: %w", p, err)
			}
		}
		if err := t.changedFiles(at, bt, p, changed); err != nil {
			return err
		}
	}
	return nil
}

// gitOrder compares two entries of a folder as git sorts them: by name,
// a folder's name as if it ended in a slash.
func gitOrder(x, y object.TreeEntry) int {
	xn, yn := x.Name, y.Name
	n := min(len(xn), len(yn))
	if c := strings.Compare(xn[:n], yn[:n]); c != 0 {
		return c
	}
	return cmp.Compare(nameEnd(x, n), nameEnd(y, n))
}

// nameEnd is the byte of e's name at i, as git compares it: past the end,
// a slash for a folder and nothing (0) for a file.
func nameEnd(e object.TreeEntry, i int) int {
	switch {
	case i < len(e.Name):
		return int(e.Name[i])
	case e.Mode == filemode.Dir:
		return '/'
	}
	return 0
}

// Head returns the id of the commit HEAD names, "" before the first
// commit. It reads two small files, so a caller can ask on every answer
// whether LastCommits' result still holds.
func (r *Repo) Head() (string, error) {
	r.mu.Lock()
	defer r.mu.Unlock()
	ref, err := r.repo.Head()
	if errors.Is(err, plumbing.ErrReferenceNotFound) {
		return "", nil
	}
	if err != nil {
		return "", fmt.Errorf("resolve HEAD: %w", err)
	}
	return ref.Hash().String(), nil
}
