// Package versions serves the docs of release tags beside the working
// tree: the tags a selector picks (--versions), each one's docs, hook
// registry and contribution guide read from git's objects (gitdocs), kept
// in step with the tags as they are made and deleted.
//
// Releases share what did not change: a doc whose blob is the same at the
// same path as in the working tree or a newer release loaded already is
// that doc (*docs.Doc), so its text is held once, and a release's index is
// stacked on the one loaded before it (search.BuildStacked): the segments
// of the docs shared are that one's, and only the docs new to the release
// are indexed. Releases are loaded newest first, the newest stacked on the
// working tree (when the server gives it, Config.WorkingTree), each older
// one on the one after it: the newest, which clients ask for most
// (latest), is served first, and the releases cost, beside the working
// tree, about the docs whose text differs from it.
package versions

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"log/slog"
	"runtime"
	"runtime/debug"
	"slices"
	"strings"
	"sync"
	"time"

	"github.com/docs-mcp/docs-mcp/mcp-server/gitdocs"
	"github.com/docs-mcp/docs-mcp/mcp-server/internal/docs"
	"github.com/docs-mcp/docs-mcp/mcp-server/internal/rank"
	"github.com/docs-mcp/docs-mcp/mcp-server/internal/search"
)

// Latest names the newest selected release in a tool's version argument.
const Latest = "latest"

// DefaultPollInterval is how often the tags are read to see one made or
// deleted: reading them is listing .git/refs/tags and packed-refs.
const DefaultPollInterval = 2 * time.Second

// Config says which releases are served and where their files are.
type Config struct {
	Repo     *gitdocs.Repo
	Selector gitdocs.Selector
	// Paths relative to the repository's root, slash-separated.
	DocsDir, RegistryPath, ContributingPath string
	// SkillsDir is the skills folder ("" for none), loaded as the docs
	// are but for the index: the release's skills.
	SkillsDir    string
	MaxDocBytes  int64
	PollInterval time.Duration // 0: DefaultPollInterval
	Logger       *slog.Logger
	// WorkingTree, when not nil, returns the working tree's docs as served,
	// with their index, waiting for them (nil when there are none, as when
	// ctx ends first). Releases are then stacked on the working tree: a
	// doc of a release whose blob is the working tree's file at the same
	// path is the working tree's doc, and indexed there, so that the
	// releases cost, beside the working tree, about the docs that differ
	// from it. Without it, the newest release is loaded and indexed whole.
	WorkingTree func(ctx context.Context) *docs.Snapshot
}

// Release is one release served: its tag, its docs and the two files.
type Release struct {
	gitdocs.Version
	Docs         *docs.Snapshot
	Registry     []byte         // nil when the release has no registry
	Contributing []byte         // nil when the release has no CONTRIBUTING.md
	Skills       *docs.Snapshot // the skills folder's files; nil when the release has none

	repo     *gitdocs.Repo
	docsDir  string
	histOnce sync.Once
	hist     *gitdocs.History
	histErr  error
}

// Tree is the whole tree at the tag, for gitdocs.Changes. It is opened
// anew for each caller rather than kept: a tree read whole keeps every
// subtree it decoded (go-git caches them in the tree), on 4,000 docs about
// 130 KB a release, for as long as the release is served.
func (r *Release) Tree() (fs.FS, error) { return r.repo.FS(r.Version) }

// History is the last commit of each doc of the release, up to its tag
// (gitdocs.LastCommitsAt), walked once, when first asked for. base, when
// not nil, is a history of the same docs at another commit (HEAD's): the
// release's is kept as its difference from it (History.Over), the docs
// changed between the two rather than every doc.
func (r *Release) History(base *gitdocs.History) (*gitdocs.History, error) {
	r.histOnce.Do(func() {
		r.hist, r.histErr = r.repo.LastCommitsAt(r.Commit, r.docsDir)
		if r.histErr == nil && base != nil {
			r.hist = r.hist.Over(base)
		}
		// The walk's scratch (110 MB allocated at 40,000 docs) goes back
		// to the system at once: it comes once a release, after the
		// start-up's memory has settled, and would stay resident.
		debug.FreeOSMemory()
	})
	return r.hist, r.histErr
}

// Set is the releases served, newest first.
type Set struct {
	cfg    Config
	loaded chan struct{} // closed once the first Refresh's releases are loaded and indexed

	mu       sync.Mutex
	releases []*Release
	changed  chan struct{} // closed when releases change
	once     sync.Once
}

// New returns a set with no releases yet: Run loads them.
func New(cfg Config) *Set {
	if cfg.PollInterval <= 0 {
		cfg.PollInterval = DefaultPollInterval
	}
	if cfg.Logger == nil {
		cfg.Logger = slog.New(slog.DiscardHandler)
	}
	return &Set{cfg: cfg, loaded: make(chan struct{}), changed: make(chan struct{})}
}

// Run loads the selected releases, then reads the tags every poll interval
// and loads a release tagged since, or drops one whose tag is gone (or
// moved), until ctx ends. A failure to read the tags is logged, and the
// releases loaded are served meanwhile.
func (s *Set) Run(ctx context.Context) {
	t := time.NewTicker(s.cfg.PollInterval)
	defer t.Stop()
	for {
		if err := s.Refresh(ctx); err != nil && ctx.Err() == nil {
			s.cfg.Logger.Warn("versions: cannot read the release tags", "err", err)
		}
		s.once.Do(func() {
			// The first load is over once the releases' indexes are built
			// too: the memory settles after it (corpus.Config.StartupWork).
			for _, r := range s.List() {
				_ = search.Await(ctx, r.Docs)
			}
			close(s.loaded)
		})
		select {
		case <-ctx.Done():
			return
		case <-t.C:
		}
	}
}

// Refresh brings the releases in step with the tags once. Releases are
// loaded newest first, so that the newest, which a client asks for most
// (latest), is served first: it shares with the working tree, each older
// one with the one after it. Each is served as soon as it is loaded.
func (s *Set) Refresh(ctx context.Context) error {
	vs, err := s.cfg.Repo.Versions(s.cfg.Selector)
	if err != nil {
		return err
	}
	s.mu.Lock()
	have := map[gitdocs.Version]*Release{}
	for _, r := range s.releases {
		have[r.Version] = r
	}
	s.mu.Unlock()
	missing := 0
	for _, v := range vs {
		if have[v] == nil {
			missing++
		}
	}
	if len(have) == len(vs) && missing == 0 {
		return nil
	}
	// Newest first; the releases still served stay, those whose tag is
	// gone go.
	var next []*Release
	for _, v := range vs {
		if r := have[v]; r != nil {
			next = append(next, r)
		}
	}
	s.publish(next)
	known := byKey{}
	var prev *docs.Snapshot
	if s.cfg.WorkingTree != nil && missing > 0 { // a tag deleted loads nothing
		if wt := s.cfg.WorkingTree(ctx); wt != nil {
			// The working tree's index first, on every core: its first
			// answers wait for it, and the releases are stacked on it.
			if err := search.Await(ctx, wt); err != nil {
				return err
			}
			byBlob(wt, known)
			prev = wt
		}
	}
	// What go-git read of the trees and blobs is not read again.
	defer s.cfg.Repo.Forget()
	for _, v := range vs {
		r := have[v]
		if r == nil {
			began := time.Now()
			if r, err = s.load(ctx, v, known, prev); err != nil {
				return fmt.Errorf("release %s: %w", v.Name, err)
			}
			s.cfg.Logger.Info("release loaded", "version", r.Name, "docs", len(r.Docs.Docs()), "took", time.Since(began))
			missing--
			next = append(next, r)
			slices.SortFunc(next, func(a, b *Release) int {
				return slices.Index(vs, a.Version) - slices.Index(vs, b.Version)
			})
			s.publish(next)
		} else if missing > 0 {
			s.index(r, known) // an older release is still to load: it may share with this one
		}
		prev = r.Docs
	}
	return nil
}

// publish serves rs, newest first, and wakes those waiting for a release.
func (s *Set) publish(rs []*Release) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.releases = slices.Clone(rs)
	close(s.changed)
	s.changed = make(chan struct{})
}

// key names a doc by path and blob, to share it between releases.
type key struct {
	path string
	id   gitdocs.BlobID
}

// byKey are the docs loaded so far, by key.
type byKey map[key]*docs.Doc

// byBlob records the docs of the working tree by key, their blob ids
// those git gives their files (gitdocs.FileBlobID). Decompressing and
// hashing 37 MB of text is about 0.25 s of a core, spread over every core:
// the newest release waits for it.
func byBlob(wt *docs.Snapshot, known byKey) {
	all := wt.Docs()
	ids := make([]gitdocs.BlobID, len(all))
	ok := make([]bool, len(all))
	workers := runtime.GOMAXPROCS(0)
	var wg sync.WaitGroup
	for w := range workers {
		wg.Go(func() {
			var buf []byte
			for i := w; i < len(all); i += workers {
				buf = all[i].AppendText(buf[:0])
				ids[i], ok[i] = gitdocs.FileBlobID(buf, all[i].Size)
			}
		})
	}
	wg.Wait()
	for i, d := range all {
		if ok[i] {
			known[key{d.Path, ids[i]}] = d
		}
	}
}

// index records the docs of r, loaded by an earlier Refresh, by key, for
// the releases loaded after it.
func (s *Set) index(r *Release, known byKey) {
	tree, err := r.Tree()
	if err != nil {
		return
	}
	fsys, err := fs.Sub(tree, s.cfg.DocsDir)
	if err != nil {
		return
	}
	_ = fs.WalkDir(fsys, ".", func(p string, e fs.DirEntry, err error) error {
		if err != nil {
			return nil
		}
		if id, ok := gitdocs.BlobOf(e); ok {
			if d, ok := r.Docs.Lookup(p); ok {
				known[key{p, id}] = d
			}
		}
		return nil
	})
}

func (s *Set) load(ctx context.Context, v gitdocs.Version, known byKey, prev *docs.Snapshot) (*Release, error) {
	tree, err := s.cfg.Repo.FS(v)
	if err != nil {
		return nil, err
	}
	r := &Release{Version: v, repo: s.cfg.Repo, docsDir: s.cfg.DocsDir}
	if r.Registry, err = readOptional(tree, s.cfg.RegistryPath); err != nil {
		return nil, err
	}
	if r.Contributing, err = readOptional(tree, s.cfg.ContributingPath); err != nil {
		return nil, err
	}
	if r.Skills, err = s.loadSkills(ctx, tree, v); err != nil {
		return nil, err
	}
	sub, err := fs.Sub(tree, s.cfg.DocsDir)
	if err != nil {
		return nil, err
	}
	var blobs []key // about as many as the release loaded before it has docs
	if prev != nil {
		blobs = make([]key, 0, len(prev.Docs()))
	}
	shared := func(p string, e fs.DirEntry) *docs.Doc {
		id, ok := gitdocs.BlobOf(e)
		if !ok {
			return nil
		}
		blobs = append(blobs, key{p, id})
		return known[key{p, id}]
	}
	opts := docs.LoadOptions{MaxDocBytes: s.cfg.MaxDocBytes, Generation: 1, Logger: s.cfg.Logger.With("version", v.Name)}
	if r.Docs, err = docs.LoadFS(ctx, sub, opts, prev, shared); err != nil {
		return nil, err
	}
	// The release's docs by key, for the releases loaded after it, from
	// the walk of the load rather than one more (see index): listing a
	// tree from git is most of what a release that shares most of its
	// docs costs to load. Both in path order, side by side.
	slices.SortFunc(blobs, func(a, b key) int { return strings.Compare(a.path, b.path) })
	ds := r.Docs.Docs()
	for _, b := range blobs {
		for len(ds) > 0 && ds[0].Path < b.path {
			ds = ds[1:]
		}
		if len(ds) > 0 && ds[0].Path == b.path {
			known[b] = ds[0]
		}
	}
	indexed := search.BuildStacked(r.Docs, prev)
	rank.Build(r.Docs, prev, indexed.Done()) // after the index; shares the shards whose docs are the release before's
	return r, nil
}

// loadSkills loads a release's skills folder as the docs are (a few small
// files: shared with no other release, and not indexed); nil when it has
// none.
func (s *Set) loadSkills(ctx context.Context, tree fs.FS, v gitdocs.Version) (*docs.Snapshot, error) {
	if s.cfg.SkillsDir == "" {
		return nil, nil
	}
	if fi, err := fs.Stat(tree, s.cfg.SkillsDir); err != nil || !fi.IsDir() {
		return nil, nil
	}
	sub, err := fs.Sub(tree, s.cfg.SkillsDir)
	if err != nil {
		return nil, err
	}
	opts := docs.LoadOptions{MaxDocBytes: s.cfg.MaxDocBytes, Generation: 1, Logger: s.cfg.Logger.With("version", v.Name, "folder", s.cfg.SkillsDir)}
	return docs.LoadFS(ctx, sub, opts, nil, nil)
}

// readOptional reads a file of a release: nil when it has none, or when
// the file is not in the repository (name "").
func readOptional(fsys fs.FS, name string) ([]byte, error) {
	if name == "" {
		return nil, nil
	}
	b, err := fs.ReadFile(fsys, name)
	if errors.Is(err, fs.ErrNotExist) {
		return nil, nil
	}
	return b, err
}

// Loaded is closed once the releases were first loaded and indexed (or
// failed to load).
func (s *Set) Loaded() <-chan struct{} { return s.loaded }

// Selector is the text of the selector of the tags served.
func (s *Set) Selector() string { return s.cfg.Selector.String() }

// List returns the releases served, newest first.
func (s *Set) List() []*Release {
	s.mu.Lock()
	defer s.mu.Unlock()
	return slices.Clone(s.releases)
}

// UnknownError is a version argument that names no release served.
type UnknownError struct {
	Name  string
	Known []string
}

func (e *UnknownError) Error() string {
	if len(e.Known) == 0 {
		return fmt.Sprintf("no version %q: no release is served (none of the tags matches --versions)", e.Name)
	}
	return fmt.Sprintf("no version %q; the versions served are: %s (or %s, the newest, or omit version for the working tree)",
		e.Name, strings.Join(e.Known, ", "), Latest)
}

// Get returns the release name names (a tag, or Latest), waiting while
// the first load has not loaded it yet.
func (s *Set) Get(ctx context.Context, name string) (*Release, error) {
	for {
		// Whether the first load is over, then what it served: every
		// release it loaded is served by the time it is over.
		var over bool
		select {
		case <-s.loaded:
			over = true
		default:
		}
		s.mu.Lock()
		rs, changed := s.releases, s.changed
		s.mu.Unlock()
		if name == Latest && len(rs) > 0 {
			return rs[0], nil // loaded first
		}
		if i := slices.IndexFunc(rs, func(r *Release) bool { return r.Name == name }); i >= 0 {
			return rs[i], nil
		}
		if over {
			known := make([]string, len(rs))
			for i, r := range rs {
				known[i] = r.Name
			}
			return nil, &UnknownError{Name: name, Known: known}
		}
		select {
		case <-changed:
		case <-s.loaded:
		case <-ctx.Done():
			return nil, ctx.Err()
		}
	}
}
