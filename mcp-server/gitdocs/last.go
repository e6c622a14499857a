package gitdocs

import (
	"errors"
	"fmt"
	"io"
	"iter"
	"path"
	"time"

	"github.com/go-git/go-git/v5/plumbing"
	"github.com/go-git/go-git/v5/plumbing/filemode"
	"github.com/go-git/go-git/v5/plumbing/object"
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
type History struct {
	Head     string    // the commit walked from (HEAD's); "" in a repository with no commit yet
	Date     time.Time // that commit's committer date
	files    map[string]fileAt
	commits  []Commit
	assigned int
}

// fileAt is a file at the head: its blob, and its last commit (an index
// into commits; -1 until the walk finds it).
type fileAt struct {
	blob   plumbing.Hash
	commit int32
}

func newHistory() *History { return &History{files: map[string]fileAt{}} }

// Files is how many files the head has under the folder walked.
func (h *History) Files() int { return len(h.files) }

// Last returns the last commit that changed the file at p (relative to
// the repository's root); ok is false for a file not at the head.
func (h *History) Last(p string) (c Commit, ok bool) {
	f, ok := h.files[p]
	if !ok || f.commit < 0 {
		return Commit{}, false
	}
	return h.commits[f.commit], true
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
	}
}

// Blob returns the blob of the file at p at the head.
func (h *History) Blob(p string) (BlobID, bool) {
	f, ok := h.files[p]
	if !ok {
		return "", false
	}
	return BlobID(f.blob.String()), true
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
	return r.lastCommits(h, ref.Hash(), dir)
}

// LastCommitsAt is LastCommits from the commit named by its hex id (a
// release's) rather than HEAD.
func (r *Repo) LastCommitsAt(commit, dir string) (*History, error) {
	r.mu.Lock()
	defer r.mu.Unlock()
	return r.lastCommits(newHistory(), plumbing.NewHash(commit), dir)
}

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
		ct, err := subtree(c, dir)
		if err != nil {
			return nil, err
		}
		at := int32(len(h.commits))
		h.commits = append(h.commits, Commit{ID: c.Hash.String(), Date: c.Committer.When})
		err = changedFiles(pt, ct, dir, func(p string) {
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
		c = parent
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

// changedFiles calls changed with every file of b (under prefix) whose
// blob differs from a's or that a lacks; a nil tree is empty. Folders with
// the same id on both sides are not opened.
func changedFiles(a, b *object.Tree, prefix string, changed func(string)) error {
	if b == nil {
		return nil
	}
	old := map[string]object.TreeEntry{}
	if a != nil {
		for _, e := range a.Entries {
			old[e.Name] = e
		}
	}
	for _, e := range b.Entries {
		o, ok := old[e.Name]
		if ok && o.Hash == e.Hash && o.Mode == e.Mode {
			continue
		}
		p := path.Join(prefix, e.Name)
		if e.Mode != filemode.Dir {
			changed(p)
			continue
		}
		bt, err := b.Tree(e.Name)
		if err != nil {
			return fmt.Errorf("%s: %w", p, err)
		}
		var at *object.Tree
		if ok && o.Mode == filemode.Dir {
			if at, err = a.Tree(e.Name); err != nil {
				return fmt.Errorf("%s: %w", p, err)
			}
		}
		if err := changedFiles(at, bt, p, changed); err != nil {
			return err
		}
	}
	return nil
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
