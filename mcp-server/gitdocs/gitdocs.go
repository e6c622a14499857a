// Package gitdocs reads the docs of a repository's release tags straight
// from its git objects, and tells what changed in the docs between two
// trees.
//
// It is public (like watch and mcptest) because two modules need it: the
// MCP server (mcp-server) serves every selected release beside the working
// tree, and the wiki build (the tools module) renders a site per release
// and a "What changed in vX" page; both must agree on which tags are
// selected, in which order, what a tag's tree holds and which sections
// changed, so the one implementation lives here.
//
// It is built on go-git, a pure-Go git library: no checkout is made and no
// git binary is run, so the distroless image needs neither. A tag's tree
// is an fs.FS read from the objects on demand; a file's fs.FileInfo.Sys()
// is its BlobID, which lets a reader share the text and index of a file
// unchanged between two tags.
package gitdocs

import (
	"cmp"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"time"

	"github.com/go-git/go-billy/v5"
	"github.com/go-git/go-billy/v5/osfs"
	"github.com/go-git/go-git/v5"
	"github.com/go-git/go-git/v5/plumbing"
	"github.com/go-git/go-git/v5/plumbing/cache"
	"github.com/go-git/go-git/v5/plumbing/object"
	"github.com/go-git/go-git/v5/storage/filesystem"
	"github.com/go-git/go-git/v5/storage/filesystem/dotgit"
	"golang.org/x/mod/semver"
)

// ErrNotRepository is returned by Open for a folder that is not the top of
// a git work tree (or a bare repository).
var ErrNotRepository = errors.New("not a git repository")

// Repo is an open git repository. Its methods are safe for concurrent use:
// go-git's object reads are not, so they take turns (one mutex), which
// costs little next to the parsing a reader does with what it read.
type Repo struct {
	root string
	dot  billy.Filesystem // the git folder, where the refs are read

	refsMu sync.Mutex
	loose  map[string]looseRef // the loose tags' files at the last listing, by path

	mu    sync.Mutex
	repo  *git.Repository
	cache cache.Object // go-git's cache of the objects read
	// peeled is the commit of each object the tags named at the last
	// ReadVersions, so that a reading that finds them as they were reads
	// no object (5,000 tags: 0.5 s a reading, every 2 s, to a few ms).
	peeled map[plumbing.Hash]peeled
}

// peeled is what a tag's object leads to: a commit and its date, or no
// commit.
type peeled struct {
	commit    plumbing.Hash
	date      time.Time
	notCommit bool
}

// Open opens the git repository whose work tree (or bare repository) is
// root. A linked work tree (git worktree add) works too. A root without a
// .git of its own is ErrNotRepository: parent folders are not searched, as
// the paths of a tag's tree are read relative to root.
func Open(root string) (*Repo, error) {
	objects := cache.NewObjectLRU(objectCacheBytes)
	r, err := open(root, objects)
	if err != nil {
		return nil, err
	}
	dot, err := dotGit(root)
	if err != nil {
		return nil, err
	}
	return &Repo{root: root, dot: dot, repo: r, cache: objects}, nil
}

// Close closes the pack files the repository keeps open.
func (r *Repo) Close() error {
	r.mu.Lock()
	defer r.mu.Unlock()
	return closeStorer(r.repo)
}

// Forget lets go what go-git holds of the objects read so far: the cache,
// the packs' indexes and their open files (at 40,000 docs, 9 MB). The
// next read opens them again (a pack index of 47,000 objects in about
// 10 ms). A walk of the history forgets when it is over; so do the
// releases' loads (versions).
func (r *Repo) Forget() {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.forget()
}

// forget is Forget with r.mu held.
func (r *Repo) forget() {
	r.cache.Clear()
	rr, err := open(r.root, r.cache)
	if err != nil {
		return // the repository as it was opened serves on
	}
	_ = closeStorer(r.repo)
	r.repo = rr
}

// closeStorer closes the files repo's storage keeps open.
func closeStorer(repo *git.Repository) error {
	if c, ok := repo.Storer.(io.Closer); ok {
		return c.Close()
	}
	return nil
}

func open(root string, objects cache.Object) (*git.Repository, error) {
	dot, err := dotGit(root)
	if err != nil {
		return nil, err
	}
	// The pack files stay open, a few at most: opened for every object
	// read, a pack's reader and its buffers were a tenth of what walking
	// the history allocated (29 of 280 MB at 40,000 docs).
	st := filesystem.NewStorageWithOptions(dot, objects, filesystem.Options{MaxOpenDescriptors: maxOpenPacks})
	r, err := git.Open(st, nil)
	if errors.Is(err, git.ErrRepositoryNotExists) {
		return nil, fmt.Errorf("open %s: %w", root, ErrNotRepository)
	}
	if err != nil {
		return nil, fmt.Errorf("open git repository %s: %w", root, err)
	}
	return r, nil
}

// objectCacheBytes bounds go-git's cache of decoded objects, 96 MiB by
// default: held for the life of the server, it would grow its resident
// memory by about as much once the history was walked on a large tree
// (measured: 51 MB to 97 MB at 40,000 docs), for reads that come once.
const objectCacheBytes = 4 * cache.MiByte

// maxOpenPacks is how many pack files a Repo keeps open (Close closes them).
const maxOpenPacks = 4

// dotGit is the git folder of the work tree root: root/.git, or the
// folder a .git file names (a linked work tree, whose objects and refs
// are in the common folder its commondir names), or root itself when it
// is a bare repository.
func dotGit(root string) (billy.Filesystem, error) {
	gitPath := filepath.Join(root, ".git")
	info, err := os.Stat(gitPath)
	switch {
	case errors.Is(err, fs.ErrNotExist):
		if _, err := os.Stat(filepath.Join(root, "HEAD")); err == nil {
			if _, err := os.Stat(filepath.Join(root, "objects")); err == nil {
				return osfs.New(root), nil // bare
			}
		}
		return nil, fmt.Errorf("open %s: %w", root, ErrNotRepository)
	case err != nil:
		return nil, fmt.Errorf("open git repository %s: %w", root, err)
	case info.IsDir():
		return osfs.New(gitPath), nil
	}
	b, err := os.ReadFile(gitPath)
	if err != nil {
		return nil, fmt.Errorf("open git repository %s: %w", root, err)
	}
	dir, ok := strings.CutPrefix(strings.TrimSpace(string(b)), "gitdir:")
	if !ok {
		return nil, fmt.Errorf("open %s: .git is a file without gitdir: %w", root, ErrNotRepository)
	}
	dir = strings.TrimSpace(dir)
	if !filepath.IsAbs(dir) {
		dir = filepath.Join(root, dir)
	}
	dot := osfs.New(dir)
	common, err := os.ReadFile(filepath.Join(dir, "commondir"))
	if err != nil {
		return dot, nil // a submodule's or a separate git folder
	}
	c := strings.TrimSpace(string(common))
	if !filepath.IsAbs(c) {
		c = filepath.Join(dir, c)
	}
	return dotgit.NewRepositoryFilesystem(dot, osfs.New(c)), nil
}

// Version is a release tag and the commit it names.
type Version struct {
	Name   string    // the tag's name, like "v1.2.0"
	Commit string    // the full hex id of the commit
	Date   time.Time // the commit's committer date
}

// Versions returns the tags the selector selects, newest first (see
// Selector for the order). Tags are read afresh on every call, so a tag
// made or deleted since the last call is seen. A tag that names neither a
// commit nor an annotated tag of a commit (a tag of a tree or a blob) is
// left out. A selected tag that cannot be read is an error (ReadVersions
// serves the others).
func (r *Repo) Versions(sel Selector) ([]Version, error) {
	vs, bad, err := r.ReadVersions(sel)
	if err == nil && len(bad) > 0 {
		err = fmt.Errorf("tag %s: %s", bad[0].Name, bad[0].Reason)
	}
	return vs, err
}

// ReadVersions is Versions, except that a selected tag that cannot be read
// (see BadTag) is left out and returned in bad, so that one bad tag does
// not hide the others; err is for the repository as a whole (its refs
// cannot be listed).
func (r *Repo) ReadVersions(sel Selector) (vs []Version, bad []BadTag, err error) {
	refs, bad, err := r.tagRefs(sel)
	if err != nil {
		return nil, nil, err
	}
	r.mu.Lock()
	defer r.mu.Unlock()
	reopened := false
	seen := make(map[plumbing.Hash]peeled, len(refs))
	for _, ref := range refs {
		if p, ok := r.peeled[ref.hash]; ok {
			seen[ref.hash] = p
			if !p.notCommit {
				vs = append(vs, Version{Name: ref.name, Commit: p.commit.String(), Date: p.date})
			}
			continue
		}
		c, err := r.commitOf(ref.hash)
		if errors.Is(err, plumbing.ErrObjectNotFound) && !reopened {
			// go-git lists a repository's packs once; a gc or a fetch
			// since may have moved objects into a pack it does not know.
			// Reopen (once) and try again.
			reopened = true
			if rr, oerr := open(r.root, r.cache); oerr == nil {
				_ = closeStorer(r.repo) // its packs' files, read no more
				r.repo = rr
				c, err = r.commitOf(ref.hash)
			}
		}
		switch {
		case errors.Is(err, errNotCommit):
			seen[ref.hash] = peeled{notCommit: true}
			continue
		case err != nil:
			bad = append(bad, BadTag{Name: ref.name, Reason: fmt.Sprintf("object %s: %v", ref.hash, err)})
			continue
		}
		seen[ref.hash] = peeled{commit: c.Hash, date: c.Committer.When}
		vs = append(vs, Version{Name: ref.name, Commit: c.Hash.String(), Date: c.Committer.When})
	}
	r.peeled = seen // the objects named now, no more
	slices.SortFunc(vs, newerFirst)
	if sel.Newest > 0 && len(vs) > sel.Newest {
		vs = vs[:sel.Newest]
	}
	return vs, bad, nil
}

var errNotCommit = errors.New("not a commit")

// commitOf peels an annotated tag (or a chain of them) to its commit.
func (r *Repo) commitOf(h plumbing.Hash) (*object.Commit, error) {
	for range 16 {
		o, err := r.repo.Storer.EncodedObject(plumbing.AnyObject, h)
		if err != nil {
			return nil, err
		}
		switch o.Type() {
		case plumbing.CommitObject:
			return object.DecodeCommit(r.repo.Storer, o)
		case plumbing.TagObject:
			t, err := object.DecodeTag(r.repo.Storer, o)
			if err != nil {
				return nil, err
			}
			h = t.Target
		default:
			return nil, errNotCommit
		}
	}
	return nil, errNotCommit
}

// newerFirst orders tags newest first: tags named by semantic versions
// (v1.2.0, v1.10.0-rc.1) by version precedence, highest first, before any
// other tags, which go by commit date, then by name. Precedence rather
// than date, because a fix release of an old line (v1.2.5 tagged after
// v2.0.0) is not the newest release.
func newerFirst(a, b Version) int {
	sa, sb := semver.IsValid(a.Name), semver.IsValid(b.Name)
	switch {
	case sa && sb:
		if c := semver.Compare(b.Name, a.Name); c != 0 {
			return c
		}
		return strings.Compare(a.Name, b.Name) // v1.0.0 and v1.0.0+meta
	case sa:
		return -1
	case sb:
		return 1
	}
	if c := b.Date.Compare(a.Date); c != 0 {
		return c
	}
	return cmp.Compare(b.Name, a.Name)
}

// FS returns the repository's tree at v's commit as a read-only file
// system, read from the objects as files are opened. Paths are relative to
// the repository's root ("docs/guide.md"). Every file's ModTime is the
// commit's date and its Sys() is its BlobID. Symlinks and submodules are
// listed (with fs.ModeSymlink, or as an irregular file) but cannot be
// opened: a link is not followed, so nothing outside the tree is read. A
// link's target can be read (fs.ReadLink), for a caller that follows links
// where it allows them.
func (r *Repo) FS(v Version) (fs.FS, error) {
	t, err := r.Tree(v)
	if err != nil {
		return nil, err
	}
	return t.FS(), nil
}

// Tree is a commit's root tree, read once (Repo.Tree): what a release
// keeps to open its files later without reading its commit again.
type Tree struct {
	repo *Repo
	root *object.Tree
	mod  time.Time
}

// Tree reads the root tree of v's commit.
func (r *Repo) Tree(v Version) (*Tree, error) {
	r.mu.Lock()
	defer r.mu.Unlock()
	c, err := r.repo.CommitObject(plumbing.NewHash(v.Commit))
	if err != nil {
		return nil, fmt.Errorf("version %s: commit %s: %w", v.Name, v.Commit, err)
	}
	t, err := c.Tree()
	if err != nil {
		return nil, fmt.Errorf("version %s: tree of %s: %w", v.Name, v.Commit, err)
	}
	return &Tree{repo: r, root: t, mod: c.Committer.When}, nil
}

// FS is the tree as Repo.FS gives it, anew for each caller: the folders
// it decodes are the caller's, and go with it.
func (t *Tree) FS() fs.FS { return &treeFS{repo: t.repo, root: t.root, mod: t.mod} }
