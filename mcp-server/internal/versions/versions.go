// Package versions serves the docs of release tags beside the working
// tree: the tags a selector picks (--versions), each one's docs, hook
// registry and contribution guide read from git's objects (gitdocs), kept
// in step with the tags as they are made and deleted.
//
// Releases share what did not change: a doc whose blob is the same at the
// same path as in an older release loaded already is that release's
// *docs.Doc, so its text is held once and search.Build reuses the index
// segments that hold only such docs (releases are loaded oldest first,
// each indexed after the one before it).
package versions

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"log/slog"
	"slices"
	"strings"
	"sync"
	"time"

	"github.com/docs-mcp/docs-mcp/mcp-server/gitdocs"
	"github.com/docs-mcp/docs-mcp/mcp-server/internal/docs"
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
	MaxDocBytes                             int64
	PollInterval                            time.Duration // 0: DefaultPollInterval
	Logger                                  *slog.Logger
}

// Release is one release served: its tag, its docs and the two files.
type Release struct {
	gitdocs.Version
	Docs         *docs.Snapshot
	Registry     []byte // nil when the release has no registry
	Contributing []byte // nil when the release has no CONTRIBUTING.md
	Tree         fs.FS  // the whole tree at the tag, for gitdocs.Changes

	repo     *gitdocs.Repo
	docsDir  string
	histOnce sync.Once
	hist     *gitdocs.History
	histErr  error
}

// History is the last commit of each doc of the release, up to its tag
// (gitdocs.LastCommitsAt), walked once, when first asked for.
func (r *Release) History() (*gitdocs.History, error) {
	r.histOnce.Do(func() { r.hist, r.histErr = r.repo.LastCommitsAt(r.Commit, r.docsDir) })
	return r.hist, r.histErr
}

// Set is the releases served, newest first.
type Set struct {
	cfg    Config
	loaded chan struct{} // closed after the first Refresh

	mu       sync.Mutex
	releases []*Release
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
	return &Set{cfg: cfg, loaded: make(chan struct{})}
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
		s.once.Do(func() { close(s.loaded) })
		select {
		case <-ctx.Done():
			return
		case <-t.C:
		}
	}
}

// Refresh brings the releases in step with the tags once.
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
	if len(have) == len(vs) && !slices.ContainsFunc(vs, func(v gitdocs.Version) bool { return have[v] == nil }) {
		return nil
	}
	next := make([]*Release, len(vs))
	// Oldest first, so that each release shares with the ones before it.
	byKey := map[string]*docs.Doc{}
	var prev *docs.Snapshot
	for i := len(vs) - 1; i >= 0; i-- {
		r := have[vs[i]]
		if r == nil {
			began := time.Now()
			if r, err = s.load(ctx, vs[i], byKey, prev); err != nil {
				return fmt.Errorf("release %s: %w", vs[i].Name, err)
			}
			s.cfg.Logger.Info("release loaded", "version", r.Name, "docs", len(r.Docs.Docs()), "took", time.Since(began))
		}
		s.index(r, byKey)
		next[i], prev = r, r.Docs
	}
	s.mu.Lock()
	s.releases = next
	s.mu.Unlock()
	return nil
}

// key names a doc by path and blob, to share it between releases.
func key(p string, id gitdocs.BlobID) string { return string(id) + "\x00" + p }

// index records r's docs by key, for the releases loaded after it.
func (s *Set) index(r *Release, byKey map[string]*docs.Doc) {
	fsys, err := fs.Sub(r.Tree, s.cfg.DocsDir)
	if err != nil {
		return
	}
	_ = fs.WalkDir(fsys, ".", func(p string, e fs.DirEntry, err error) error {
		if err != nil {
			return nil
		}
		if id, ok := gitdocs.BlobOf(e); ok {
			if d, ok := r.Docs.Lookup(p); ok {
				byKey[key(p, id)] = d
			}
		}
		return nil
	})
}

func (s *Set) load(ctx context.Context, v gitdocs.Version, byKey map[string]*docs.Doc, prev *docs.Snapshot) (*Release, error) {
	tree, err := s.cfg.Repo.FS(v)
	if err != nil {
		return nil, err
	}
	r := &Release{Version: v, Tree: tree, repo: s.cfg.Repo, docsDir: s.cfg.DocsDir}
	if r.Registry, err = readOptional(tree, s.cfg.RegistryPath); err != nil {
		return nil, err
	}
	if r.Contributing, err = readOptional(tree, s.cfg.ContributingPath); err != nil {
		return nil, err
	}
	sub, err := fs.Sub(tree, s.cfg.DocsDir)
	if err != nil {
		return nil, err
	}
	shared := func(p string, e fs.DirEntry) *docs.Doc {
		id, ok := gitdocs.BlobOf(e)
		if !ok {
			return nil
		}
		return byKey[key(p, id)]
	}
	opts := docs.LoadOptions{MaxDocBytes: s.cfg.MaxDocBytes, Generation: 1, Logger: s.cfg.Logger.With("version", v.Name)}
	if r.Docs, err = docs.LoadFS(ctx, sub, opts, shared); err != nil {
		return nil, err
	}
	search.Build(r.Docs, prev)
	return r, nil
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

// Loaded is closed once the releases were first loaded (or failed to).
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

// Get returns the release name names (a tag, or Latest), waiting for the
// first load if it is not over.
func (s *Set) Get(ctx context.Context, name string) (*Release, error) {
	select {
	case <-s.loaded:
	case <-ctx.Done():
		return nil, ctx.Err()
	}
	rs := s.List()
	if name == Latest && len(rs) > 0 {
		return rs[0], nil
	}
	for _, r := range rs {
		if r.Name == name {
			return r, nil
		}
	}
	known := make([]string, len(rs))
	for i, r := range rs {
		known[i] = r.Name
	}
	return nil, &UnknownError{Name: name, Known: known}
}
