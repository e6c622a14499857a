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
	"path"
	"runtime"
	"runtime/debug"
	"slices"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"time"
	"weak"

	"github.com/docs-mcp/docs-mcp/framework/registry"
	"github.com/docs-mcp/docs-mcp/mcp-server/gitdocs"
	"github.com/docs-mcp/docs-mcp/mcp-server/internal/docs"
	"github.com/docs-mcp/docs-mcp/mcp-server/internal/rank"
	"github.com/docs-mcp/docs-mcp/mcp-server/internal/release"
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
	// Head, when not nil, returns the last commits of the docs at HEAD
	// (the corpus's History), waiting for its first walk (nil when there
	// is none). A release's history is then kept as its difference from
	// HEAD's, and a release tagged at HEAD has HEAD's.
	Head func(ctx context.Context) *gitdocs.History
}

// Release is one release served: its tag, its docs and the two files,
// and what is derived from them, all made in the set's run: as the
// release loads, before it is served, its index, its registry checked and
// its root tree; once the releases of a Refresh are served, the last
// commit of each doc. A request only reads them.
type Release struct {
	gitdocs.Version
	Docs         *docs.Snapshot
	Registry     []byte // nil when the release has no registry, or one not served (RegistryProblem)
	Contributing []byte // nil when the release has no CONTRIBUTING.md, or one not served (ContributingProblem)
	// Why the release's registry or guide, which it has, is not served: a
	// symlink (not followed in a release), not a regular file, or larger
	// than MaxDocBytes. Empty when it is served or the release has none.
	RegistryProblem, ContributingProblem string
	Skills                               *docs.Snapshot // the skills folder's files; nil when the release has none

	tree *gitdocs.Tree
	hist *attachedHistory // shared by the releases of one commit
	reg  *sharedRegistry  // holds what Registry and its check share with the releases of the same registry
}

// attachedHistory is a release's history once walked (Refresh, after the
// loads): nil until then, or when it could not be read.
type attachedHistory struct {
	p atomic.Pointer[gitdocs.History]
}

// shareRegistry makes r's registry reg's: its bytes, and its check.
func (r *Release) shareRegistry(reg *sharedRegistry) {
	r.reg, r.Registry = reg, reg.data
}

// sharedRegistry is a registry file's bytes and its check (registry.Check),
// made once, as the first release of that file loads, and shared by every
// release whose registry is that file.
type sharedRegistry struct {
	data    []byte
	checked checkedRegistry
}

// registries are the registries of the releases loaded, by blob id, so that
// releases whose registry is the same file hold and check it once: checked,
// this repository's registry is about 1.5 MB, and after 1,000 tag
// operations with a search of each release added, the ten releases searched
// each held a check of the same file (15 MB, where a server started on the
// final tags held none). The pointers are weak: a registry goes once no
// release holds it.
type registries struct {
	mu sync.Mutex
	by map[gitdocs.BlobID]weak.Pointer[sharedRegistry]
}

// of is the registry holding data, shared with the releases loaded that
// hold the same bytes; nil data (no registry, or one not served) is not
// shared, its check costs nothing.
func (rs *registries) of(data []byte) *sharedRegistry {
	newReg := func() *sharedRegistry {
		c, problems := registry.Check(data)
		return &sharedRegistry{data: data, checked: checkedRegistry{c, problems}}
	}
	if data == nil {
		return newReg()
	}
	id := gitdocs.BlobIDOf(data)
	rs.mu.Lock()
	defer rs.mu.Unlock()
	if reg := rs.by[id].Value(); reg != nil {
		return reg
	}
	for k, w := range rs.by {
		if w.Value() == nil {
			delete(rs.by, k) // no release holds it any more
		}
	}
	reg := newReg()
	if rs.by == nil {
		rs.by = map[gitdocs.BlobID]weak.Pointer[sharedRegistry]{}
	}
	rs.by[id] = weak.Make(reg)
	return reg
}

// as is the release of another tag that names the same commit: the same
// tree, so the same docs, files and index.
func (r *Release) as(v gitdocs.Version) *Release {
	return &Release{Version: v, Docs: r.Docs, Registry: r.Registry, Contributing: r.Contributing,
		RegistryProblem: r.RegistryProblem, ContributingProblem: r.ContributingProblem,
		tree: r.tree, hist: r.hist, reg: r.reg}
}

// checkedRegistry is a registry as registry.Check leaves it.
type checkedRegistry struct {
	reg      *registry.Registry
	problems []registry.Problem
}

// CheckedRegistry is the release's registry parsed and checked
// (registry.Check), made as the release loaded: a check is a JSON Schema
// validation, about 20 ms, which a versioned search would otherwise pay on
// every call. It goes with the release when its tag does.
func (r *Release) CheckedRegistry() (*registry.Registry, []registry.Problem) {
	return r.reg.checked.reg, r.reg.checked.problems
}

// Tree is the whole tree at the tag, for gitdocs.ChangesWithin: its root
// was read as the release loaded, and the file system is anew for each
// caller rather than kept: a tree read whole keeps every subtree it
// decoded, on 4,000 docs about 130 KB a release, for as long as the
// release is served.
func (r *Release) Tree() fs.FS { return r.tree.FS() }

// History is the last commit of each doc of the release, up to its tag
// (gitdocs.LastCommitsAt), walked in the set's run once the releases
// loaded with it are served: nil until then, or when it could not be read
// (an answer then tells no commit; no request walks it). Beside a HEAD's
// history (Config.Head) it is kept as its difference from it
// (History.Over), the docs changed between the two rather than every doc;
// a release tagged at HEAD has HEAD's.
func (r *Release) History() *gitdocs.History { return r.hist.p.Load() }

// Set is the releases served, newest first.
type Set struct {
	cfg        Config
	registries registries    // the releases' registries, shared by content
	loaded     chan struct{} // closed once the first Refresh's releases are loaded and indexed
	once       sync.Once

	mu sync.Mutex
	// releases are those served, newest first. A slice once published is
	// never written within its length again (a release loaded after is
	// appended past it, or the slice is copied), so that readers hold it
	// without a copy.
	releases []*Release
	listed   bool              // the tags were read once
	found    []gitdocs.Version // the selected tags readable at the last reading, newest first
	skips    map[string]skip   // selected tags not served, by name, and why
	changed  chan struct{}     // closed when any of the above changes
	changes  uint64            // how many times releases was replaced
}

// skip is why a selected tag is not served: it cannot be read (commit ""),
// or the release at commit could not be loaded, and is not tried again
// until the tag moves.
type skip struct {
	commit, reason string
}

// New returns a set with no releases yet: Run loads them.
func New(cfg Config) *Set {
	if cfg.PollInterval <= 0 {
		cfg.PollInterval = DefaultPollInterval
	}
	if cfg.Logger == nil {
		cfg.Logger = slog.New(slog.DiscardHandler)
	}
	if cfg.MaxDocBytes <= 0 {
		cfg.MaxDocBytes = docs.DefaultMaxDocBytes
	}
	return &Set{cfg: cfg, loaded: make(chan struct{}), changed: make(chan struct{}), skips: map[string]skip{}}
}

// Run loads the selected releases, then reads the tags every poll interval
// and loads a release tagged since, or drops one whose tag is gone (or
// moved), until ctx ends. A failure to read the tags is logged (once, until
// it changes), and the releases loaded are served meanwhile.
func (s *Set) Run(ctx context.Context) {
	t := time.NewTicker(s.cfg.PollInterval)
	defer t.Stop()
	var failing string // the error last logged
	var settled uint64 // s.changes when the memory last settled
	for {
		err := s.Refresh(ctx)
		switch {
		case err != nil && ctx.Err() == nil && err.Error() != failing:
			failing = err.Error()
			s.cfg.Logger.Warn("versions: cannot read the release tags", "err", err)
		case err == nil:
			failing = ""
		}
		s.once.Do(func() {
			// The first load is over once the releases' indexes are built
			// too: the memory settles after it (corpus.Config.StartupWork).
			for _, r := range s.List() {
				_ = search.Await(ctx, r.Docs)
			}
			if err == nil {
				s.warnNoneSelected()
			}
			close(s.loaded)
			settled = s.changeCount()
		})
		if n := s.changeCount(); n != settled {
			settled = n
			s.settleMemory(ctx)
		}
		select {
		case <-ctx.Done():
			return
		case <-t.C:
		}
	}
}

// settleMemory returns to the system, once the indexes of the releases
// served are built, what a change of them left: the loads' scratch and the
// releases dropped, as the start-up's memory settles once the first
// releases are loaded (corpus.Config.StartupWork): after 1,000 tag
// operations (BenchmarkTagChurn) the heap's free pages not returned to the
// system went from 3.3 MiB to none. A collection and a return of the
// pages, at each change of the tags, which is rare.
func (s *Set) settleMemory(ctx context.Context) {
	for _, r := range s.List() {
		if search.Await(ctx, r.Docs) != nil {
			return
		}
	}
	debug.FreeOSMemory()
}

// changeCount is how many times the releases served have changed.
func (s *Set) changeCount() uint64 {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.changes
}

// warnNoneSelected says when the selector picks no tag: the server then
// serves the working tree alone, which an operator who asked for releases
// would not guess.
func (s *Set) warnNoneSelected() {
	st := s.Status()
	if st.Selected > 0 || len(st.Skipped) > 0 {
		return
	}
	names, err := s.cfg.Repo.TagNames()
	if err != nil {
		return
	}
	s.cfg.Logger.Warn("--versions matches no tag: only the working tree is served",
		"versions", s.Selector(), "tags", len(names), "examples", examples(names, maxNearest))
}

// Refresh brings the releases in step with the tags once. Releases are
// loaded newest first, so that the newest, which a client asks for most
// (latest), is served first: it shares with the working tree, each older
// one with the one after it. Each is served as soon as it is loaded. A tag
// that cannot be read, or whose release cannot be loaded, is left out
// and logged once with the reason; the others are served.
func (s *Set) Refresh(ctx context.Context) error {
	vs, bad, err := s.cfg.Repo.ReadVersions(s.cfg.Selector)
	if err != nil {
		return err
	}
	have, next, load := s.list(vs, bad)
	if load == nil {
		return nil
	}
	began := time.Now()
	known := byKey{}
	var prev *docs.Snapshot
	if s.cfg.WorkingTree != nil {
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
	// A tag that names the commit of a release loaded already (another
	// tag's, or one moved there) is that release's tree: its docs, files
	// and index are shared whole, not loaded again.
	byCommit := make(map[string]*Release, len(have))
	for _, r := range have {
		byCommit[r.Commit] = r
	}
	var skipped []skippedFile
	var walk []*Release // the releases loaded, whose histories are walked once all are served
	loaded, pos := 0, 0 // pos: where in next the release of vs[i] goes
	for i, v := range vs {
		if r := have[keyOf(v)]; r != nil {
			pos++
			if i+1 < len(vs) && load[i+1] {
				s.index(r, known) // the next release is stacked on this one, and may share its docs
			}
			prev = r.Docs
			continue
		}
		if !load[i] {
			continue
		}
		if same := byCommit[v.Commit]; same != nil {
			r := same.as(v)
			if i+1 < len(vs) && load[i+1] {
				s.index(r, known)
			}
			skipped = append(skipped, s.skippedFiles(r)...)
			next = insert(next, pos, r)
			pos++
			loaded++
			s.publish(next)
			prev = r.Docs
			continue
		}
		t := time.Now()
		r, err := s.load(ctx, v, known, prev)
		if err != nil && ctx.Err() == nil {
			// go-git lists the packs once: a gc or a fetch since may have
			// moved the objects into one it does not know. Reopened, once.
			s.cfg.Repo.Forget()
			r, err = s.load(ctx, v, known, prev)
		}
		if err != nil {
			if ctx.Err() != nil {
				return ctx.Err()
			}
			s.fail(v, err)
			continue
		}
		s.cfg.Logger.Debug("release loaded", "version", r.Name, "docs", len(r.Docs.Docs()), "took", time.Since(t))
		byCommit[v.Commit] = r
		walk = append(walk, r)
		skipped = append(skipped, s.skippedFiles(r)...)
		next = insert(next, pos, r)
		pos++
		loaded++
		s.publish(next)
		prev = r.Docs
	}
	s.cfg.Logger.Info("releases loaded", "loaded", loaded, "served", len(next), "took", time.Since(began))
	s.warnSkippedFiles(skipped)
	return s.walkHistories(ctx, walk)
}

// walkHistories walks the history of each release of rs, newest first,
// once they are all served, and attaches it: until then a release's
// answers tell no commit. Walked with each load, urfave/cli's 203 tags
// were all served 3.3 s after the start rather than 0.2 to 0.9 s; walked
// after, they are served in 0.5 s and their histories 3.4 to 5.5 s later.
func (s *Set) walkHistories(ctx context.Context, rs []*Release) error {
	if len(rs) == 0 {
		return nil
	}
	began := time.Now()
	var head *gitdocs.History
	if s.cfg.Head != nil {
		head = s.cfg.Head(ctx)
	}
	for _, r := range rs {
		if ctx.Err() != nil {
			return ctx.Err()
		}
		r.hist.p.Store(s.history(r.Version, head))
	}
	s.cfg.Logger.Debug("release histories walked", "releases", len(rs), "took", time.Since(began))
	return nil
}

// keyOf names a release by its tag and commit: a tag moved to another
// commit is another release. (Not by Version, whose date's time zone is a
// pointer that a half-hour offset does not share from one reading of the
// tags to the next.)
func keyOf(v gitdocs.Version) tagKey { return tagKey{v.Name, v.Commit} }

type tagKey struct{ name, commit string }

// list records the tags read (vs, and bad, those that cannot be read) and
// serves, of the releases loaded, those whose tag is still there. It
// returns them by key, in vs's order (next), and which of vs are to be
// loaded (nil when none is).
func (s *Set) list(vs []gitdocs.Version, bad []gitdocs.BadTag) (have map[tagKey]*Release, next []*Release, load []bool) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.listed, s.found = true, vs
	commits := make(map[string]string, len(vs))
	for _, v := range vs {
		commits[v.Name] = v.Commit
	}
	unreadable := make(map[string]string, len(bad))
	for _, b := range bad {
		unreadable[b.Name] = b.Reason
	}
	for name, sk := range s.skips {
		if sk.commit == "" && unreadable[name] != sk.reason || sk.commit != "" && commits[name] != sk.commit {
			delete(s.skips, name) // readable again, gone, or moved: tried again, and told again if still bad
		}
	}
	for _, b := range bad {
		if _, told := s.skips[b.Name]; !told {
			s.cfg.Logger.Warn("release tag skipped: it cannot be read", "tag", b.Name, "reason", b.Reason)
			s.skips[b.Name] = skip{reason: b.Reason}
		}
	}
	have = make(map[tagKey]*Release, len(s.releases))
	for _, r := range s.releases {
		have[keyOf(r.Version)] = r
	}
	next = make([]*Release, 0, len(vs))
	for i, v := range vs {
		if r := have[keyOf(v)]; r != nil {
			next = append(next, r)
			continue
		}
		if _, skipped := s.skips[v.Name]; !skipped {
			if load == nil {
				load = make([]bool, len(vs))
			}
			load[i] = true
		}
	}
	if load != nil || len(next) != len(s.releases) {
		s.releases = next
		s.changes++
	}
	s.signal()
	return have, next, load
}

// signal wakes those waiting for a release (s.mu held).
func (s *Set) signal() {
	close(s.changed)
	s.changed = make(chan struct{})
}

// publish serves rs, newest first, and wakes those waiting for a release.
func (s *Set) publish(rs []*Release) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.releases = rs
	s.changes++
	s.signal()
}

// insert puts r at i in rs, served already: appended past its end, or in
// a copy, so that what was served is never written.
func insert(rs []*Release, i int, r *Release) []*Release {
	if i == len(rs) {
		return append(rs, r)
	}
	out := make([]*Release, 0, max(cap(rs), len(rs)+1))
	out = append(out, rs[:i]...)
	out = append(out, r)
	return append(out, rs[i:]...)
}

// fail records a release that could not be loaded, not to be tried again
// while its tag names the same commit, and says so once.
func (s *Set) fail(v gitdocs.Version, err error) {
	s.cfg.Logger.Warn("release skipped: it cannot be loaded", "version", v.Name, "commit", v.Commit, "reason", err)
	s.mu.Lock()
	defer s.mu.Unlock()
	s.skips[v.Name] = skip{commit: v.Commit, reason: err.Error()}
	s.signal()
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
	fsys, err := fs.Sub(r.Tree(), s.cfg.DocsDir)
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

// load loads the release of v: its files, its docs (sharing those of known,
// stacked on prev) and their index; its history is walked after
// (walkHistories).
func (s *Set) load(ctx context.Context, v gitdocs.Version, known byKey, prev *docs.Snapshot) (*Release, error) {
	root, err := s.cfg.Repo.Tree(v)
	if err != nil {
		return nil, err
	}
	tree := root.FS()
	r := &Release{Version: v, tree: root, hist: &attachedHistory{}}
	if r.Registry, r.RegistryProblem, err = s.readFile(tree, s.cfg.RegistryPath); err != nil {
		return nil, err
	}
	if r.Contributing, r.ContributingProblem, err = s.readFile(tree, s.cfg.ContributingPath); err != nil {
		return nil, err
	}
	r.shareRegistry(s.registries.of(r.Registry))
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
	// The docs skipped are told once for all the releases of a Refresh
	// (warnSkippedFiles), not once a release: a symlink kept from one
	// release to the next would be told for each.
	opts := docs.LoadOptions{MaxDocBytes: s.cfg.MaxDocBytes, Generation: 1, Logger: slog.New(slog.DiscardHandler)}
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

// history is the last commit of each doc of v, up to its tag, kept as its
// difference from head's when head is not nil; head itself when v is
// HEAD's commit (the working tree just released: no second walk of the
// same commits). nil, logged, when it cannot be read: the release's
// answers then go without commits.
func (s *Set) history(v gitdocs.Version, head *gitdocs.History) *gitdocs.History {
	if head != nil && head.Head == v.Commit {
		return head
	}
	h, err := s.cfg.Repo.LastCommitsAt(v.Commit, s.cfg.DocsDir)
	if err != nil {
		s.cfg.Logger.Warn("provenance: cannot read the release's history; its answers tell no commit", "version", v.Name, "err", err)
		return nil
	}
	if head != nil {
		h = h.Over(head)
	}
	return h
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

// readFile reads a file of a release (the registry, the guide) within the
// cap of a doc, as the docs are read: nil when it has none (or when the
// file is not in the repository: name ""), and nil and why when it has
// one that is not served: a symlink (not followed, as in the docs), not a
// regular file, or larger than MaxDocBytes (its size is read from the
// object's header, the blob is not). err is a read that failed: the
// release's objects are damaged.
func (s *Set) readFile(tree fs.FS, name string) (data []byte, problem string, err error) {
	if name == "" {
		return nil, "", nil
	}
	info, err := fs.Stat(tree, name)
	switch {
	case errors.Is(err, fs.ErrNotExist):
		return nil, "", nil
	case err != nil:
		return nil, "", err
	case info.Mode()&fs.ModeSymlink != 0:
		return nil, "a symlink, not followed in a release", nil
	case !info.Mode().IsRegular():
		return nil, "not a regular file (a submodule?)", nil
	case info.Size() > s.cfg.MaxDocBytes:
		return nil, fmt.Sprintf("larger than the %d-byte cap (%d bytes; --max-doc-bytes)", s.cfg.MaxDocBytes, info.Size()), nil
	}
	data, err = fs.ReadFile(tree, name)
	return data, "", err
}

// skippedFile is a file of a release not served, and why.
type skippedFile struct {
	version, path, reason string
}

// skippedFiles are the files of r not served: its docs skipped, and its
// registry or guide when it has one that is not served.
func (s *Set) skippedFiles(r *Release) []skippedFile {
	var out []skippedFile
	for _, sk := range r.Docs.Skipped() {
		out = append(out, skippedFile{r.Name, path.Join(s.cfg.DocsDir, sk.Path), sk.Reason})
	}
	if r.RegistryProblem != "" {
		out = append(out, skippedFile{r.Name, s.cfg.RegistryPath, r.RegistryProblem})
	}
	if r.ContributingProblem != "" {
		out = append(out, skippedFile{r.Name, s.cfg.ContributingPath, r.ContributingProblem})
	}
	return out
}

// warnSkippedFiles tells in one line the files of the releases just
// loaded that are not served: how many, in how many releases, and the
// first few of them by path and reason, each with the releases it is
// skipped in (a symlink kept from release to release is one example, not
// a line a release).
func (s *Set) warnSkippedFiles(files []skippedFile) {
	if len(files) == 0 {
		return
	}
	type group struct {
		path, reason string
		versions     []string
	}
	var groups []*group
	byFile := map[[2]string]*group{}
	releases := map[string]bool{}
	for _, f := range files {
		releases[f.version] = true
		g := byFile[[2]string{f.path, f.reason}]
		if g == nil {
			g = &group{path: f.path, reason: f.reason}
			byFile[[2]string{f.path, f.reason}] = g
			groups = append(groups, g)
		}
		g.versions = append(g.versions, f.version)
	}
	var ex []string
	for _, g := range groups[:min(len(groups), maxExamples)] {
		in := g.versions[0]
		if n := len(g.versions); n > 1 {
			in = fmt.Sprintf("%d releases (%s)", n, examples(g.versions, maxExamples))
		}
		ex = append(ex, fmt.Sprintf("%s in %s: %s", g.path, in, g.reason))
	}
	if len(groups) > maxExamples {
		ex = append(ex, fmt.Sprintf("and %d more", len(groups)-maxExamples))
	}
	s.cfg.Logger.Warn("files of releases not served", "files", len(files), "releases", len(releases), "examples", strings.Join(ex, "; "))
}

// maxExamples is how many examples a log line names.
const maxExamples = 3

// examples names the first n of names, and how many more there are.
func examples(names []string, n int) string {
	if len(names) <= n {
		return strings.Join(names, ", ")
	}
	return fmt.Sprintf("%s and %d more", strings.Join(names[:n], ", "), len(names)-n)
}

// Loaded is closed once the releases were first loaded and indexed (or
// failed to load).
func (s *Set) Loaded() <-chan struct{} { return s.loaded }

// MaxDocBytes is the cap of a file read from a release (Config's).
func (s *Set) MaxDocBytes() int64 { return s.cfg.MaxDocBytes }

// Selector is the text of the selector of the tags served.
func (s *Set) Selector() string { return s.cfg.Selector.String() }

// List returns the releases served, newest first. The slice is the
// caller's.
func (s *Set) List() []*Release {
	s.mu.Lock()
	defer s.mu.Unlock()
	return slices.Clone(s.releases)
}

// Status says what is loaded and what is not, as a request reads it: a
// skipped tag cannot be read, or its release cannot be loaded.
func (s *Set) Status() release.Status {
	s.mu.Lock()
	defer s.mu.Unlock()
	st := release.Status{Listed: s.listed, Selected: len(s.selected()), Loaded: len(s.releases)}
	served := make(map[string]bool, len(s.releases))
	for _, r := range s.releases {
		served[r.Name] = true
	}
	for _, v := range s.found {
		if _, skipped := s.skips[v.Name]; !skipped && !served[v.Name] {
			st.Pending = append(st.Pending, v.Name)
		}
	}
	for name, sk := range s.skips {
		st.Skipped = append(st.Skipped, release.Skip{Name: name, Reason: sk.reason})
	}
	slices.SortFunc(st.Skipped, func(a, b release.Skip) int { return strings.Compare(a.Name, b.Name) })
	return st
}

// Lookup returns the release name names (a tag, or Latest) if it is
// served, at once: a *LoadingError when it is selected but not loaded yet
// (or the tags are not read yet), a *SkippedError when it cannot be
// served, an *UnknownError when no selected tag has that name.
func (s *Set) Lookup(name string) (*Release, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.lookup(name)
}

// Wait is Lookup, waiting while the release is loading, until ctx ends:
// then the *LoadingError says what is loaded. Wait holds nothing while it
// waits: call it before taking a turn of work.
func (s *Set) Wait(ctx context.Context, name string) (*Release, error) {
	for {
		s.mu.Lock()
		r, err := s.lookup(name)
		changed := s.changed
		s.mu.Unlock()
		if _, loading := errors.AsType[*LoadingError](err); !loading {
			return r, err
		}
		select {
		case <-changed:
		case <-ctx.Done():
			return nil, err
		}
	}
}

// lookup is Lookup with s.mu held.
func (s *Set) lookup(name string) (*Release, error) {
	if !s.listed {
		return nil, &LoadingError{Name: name}
	}
	tag := name
	if name == Latest {
		i := slices.IndexFunc(s.found, func(v gitdocs.Version) bool { _, skipped := s.skips[v.Name]; return !skipped })
		if i < 0 {
			return nil, s.unknown(name)
		}
		tag = s.found[i].Name
	}
	if i := slices.IndexFunc(s.releases, func(r *Release) bool { return r.Name == tag }); i >= 0 {
		return s.releases[i], nil
	}
	if sk, ok := s.skips[tag]; ok {
		return nil, &SkippedError{Name: tag, Reason: sk.reason}
	}
	if slices.ContainsFunc(s.found, func(v gitdocs.Version) bool { return v.Name == tag }) {
		return nil, &LoadingError{Name: name, Tag: tag, Listed: true, Selected: len(s.selected()), Loaded: len(s.releases)}
	}
	return nil, s.unknown(name)
}

// selected names the tags selected that are served or loading, newest
// first (s.mu held).
func (s *Set) selected() []string {
	var names []string
	for _, v := range s.found {
		if _, skipped := s.skips[v.Name]; !skipped {
			names = append(names, v.Name)
		}
	}
	return names
}

// unknown is the error of a name no selected tag has (s.mu held).
func (s *Set) unknown(name string) *UnknownError {
	names := s.selected()
	return &UnknownError{Name: name, Nearest: nearest(name, names, maxNearest), Served: len(names), Skipped: len(s.skips)}
}

// maxNearest is how many versions an error names.
const maxNearest = 5

// nearest returns the n of names nearest to name: by the fewest edits
// from one to the other (Levenshtein), then in names' order (newest
// first). "v2.3" finds v2.3.0 and v2.3.1 before v2.4.0.
func nearest(name string, names []string, n int) []string {
	type cand struct {
		name string
		dist int
	}
	cs := make([]cand, len(names))
	for i, v := range names {
		cs[i] = cand{v, editDistance(name, v)}
	}
	slices.SortStableFunc(cs, func(a, b cand) int { return a.dist - b.dist })
	out := make([]string, 0, min(n, len(cs)))
	for _, c := range cs[:min(n, len(cs))] {
		out = append(out, c.name)
	}
	return out
}

// editDistance is the Levenshtein distance between a and b, in bytes.
func editDistance(a, b string) int {
	row := make([]int, len(b)+1)
	for j := range row {
		row[j] = j
	}
	for i := 1; i <= len(a); i++ {
		diag := row[0]
		row[0] = i
		for j := 1; j <= len(b); j++ {
			cost := 1
			if a[i-1] == b[j-1] {
				cost = 0
			}
			diag, row[j] = row[j], min(row[j]+1, row[j-1]+1, diag+cost)
		}
	}
	return row[len(b)]
}

// UnknownError is a version argument that names no release served.
type UnknownError struct {
	Name    string
	Nearest []string // the versions served nearest to Name, nearest first, at most a few
	Served  int      // how many versions are served (or loading)
	Skipped int      // how many tags selected are not served
}

func (e *UnknownError) Error() string {
	switch {
	case e.Served == 0 && e.Skipped == 1:
		return fmt.Sprintf("no version %q: no release is served (the one tag matching --versions cannot be; mod_list_versions says why)", e.Name)
	case e.Served == 0 && e.Skipped > 1:
		return fmt.Sprintf("no version %q: no release is served (none of the %d tags matching --versions can be; mod_list_versions says why)", e.Name, e.Skipped)
	case e.Served == 0:
		return fmt.Sprintf("no version %q: no release is served (none of the tags matches --versions)", e.Name)
	}
	if len(e.Nearest) == e.Served {
		return fmt.Sprintf("no version %q; the versions served are: %s (or %s, the newest, or omit version for the working tree)",
			e.Name, strings.Join(e.Nearest, ", "), Latest)
	}
	return fmt.Sprintf("no version %q; the nearest of the %d versions served: %s (mod_list_versions lists them all; or %s, the newest, or omit version for the working tree)",
		e.Name, e.Served, strings.Join(e.Nearest, ", "), Latest)
}

// LoadingError is a version selected whose release is not loaded yet.
type LoadingError struct {
	Name     string // as asked for: a tag, or Latest
	Tag      string // the tag it names
	Listed   bool   // false: the tags are not read yet, and the rest is unknown
	Selected int    // tags selected that are served or loading
	Loaded   int    // releases loaded so far
}

func (e *LoadingError) Error() string {
	if !e.Listed {
		return fmt.Sprintf("version %q is not loaded yet: the release tags are still being read; try again in a moment", e.Name)
	}
	what := strconv.Quote(e.Name)
	if e.Tag != e.Name {
		what = fmt.Sprintf("%s (%s)", what, e.Tag)
	}
	return fmt.Sprintf("version %s is still loading: %d of the %d release tags selected are loaded, newest first; try again in a moment (mod_list_versions lists those loaded)",
		what, e.Loaded, e.Selected)
}

// SkippedError is a version selected that is not served: its tag cannot
// be read, or its release cannot be loaded.
type SkippedError struct {
	Name, Reason string
}

func (e *SkippedError) Error() string {
	return fmt.Sprintf("version %q is not served: %s", e.Name, e.Reason)
}
