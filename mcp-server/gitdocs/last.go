package gitdocs

import (
	"errors"
	"fmt"
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
type History struct {
	Head  string            // the commit walked from (HEAD's); "" in a repository with no commit yet
	Date  time.Time         // that commit's committer date
	Last  map[string]Commit // by path relative to the repository's root
	Blobs map[string]BlobID // each file's blob at HEAD, to tell a file edited since
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
	h := &History{Last: map[string]Commit{}, Blobs: map[string]BlobID{}}
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
	return r.lastCommits(&History{Last: map[string]Commit{}, Blobs: map[string]BlobID{}}, plumbing.NewHash(commit), dir)
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
	err = tree.Files().ForEach(func(f *object.File) error {
		h.Blobs[path.Join(dir, f.Name)] = BlobID(f.Hash.String())
		return nil
	})
	if err != nil {
		return nil, fmt.Errorf("list %s at HEAD: %w", dir, err)
	}
	for len(h.Last) < len(h.Blobs) {
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
		at := Commit{ID: c.Hash.String(), Date: c.Committer.When}
		err = changedFiles(pt, ct, dir, func(p string) {
			if _, ok := h.Blobs[p]; ok {
				if _, done := h.Last[p]; !done {
					h.Last[p] = at
				}
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
