// Package corpus keeps the docs served in step with the disk: it loads the
// first snapshot (from its cache when it has one, see cache.go), follows
// the docs folder and the repository files beside it (package watch),
// applies each batch of changes (docs.Update), builds each snapshot's
// search index (package search), sets the process's memory policy once
// the start-up is over, and tells its caller what changed (docs.Change).
// The MCP server (package mcpserver) reads its snapshots and turns its
// changes into notifications; it knows nothing of the disk.
//
// Run owns the life of the snapshots: it starts following the files on
// disk (Config.Watch) and, at the same time, loads the first snapshot and
// opens it (Open), then settles the memory once its index is built; every
// later snapshot comes from a batch of changes (update, in follow.go).
//
// The corpus owns the data derived from a snapshot: it attaches the
// snapshot's index (search.Build) before it serves the snapshot, and a
// search only waits for it (search.Find), never starts a build. The first
// snapshot is served while its index is built, so that reads need not
// wait for it; every later one only once its index is built, the one
// before it served meanwhile.
//
// In a repository (Config.Git), it also keeps the last commit of each doc
// at HEAD (History, history.go), walked beside the load and again when
// HEAD moves, so that no request walks the history.
//
// A server can answer before the docs are there: until Open, Snapshot is
// nil and Opened is not closed, and a request that needs the docs waits
// for Opened, for as long as its context allows.
package corpus

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"log/slog"
	"os"
	"runtime"
	"runtime/debug"
	"runtime/metrics"
	"slices"
	"sync"
	"sync/atomic"
	"time"

	"github.com/docs-mcp/docs-mcp/mcp-server/gitdocs"
	"github.com/docs-mcp/docs-mcp/mcp-server/internal/docs"
	"github.com/docs-mcp/docs-mcp/mcp-server/internal/rank"
	"github.com/docs-mcp/docs-mcp/mcp-server/internal/search"
	"github.com/docs-mcp/docs-mcp/mcp-server/internal/versions"
	"github.com/docs-mcp/docs-mcp/mcp-server/watch"
)

// Config says what the corpus reads and how it follows it. Start from
// DefaultConfig and set the paths; New uses it as given.
type Config struct {
	DataRoot    string   // the repository the docs are of, named in the logs
	DocsPath    string   // absolute path of the docs folder
	Files       []string // absolute paths of other files followed beside it (the registry, CONTRIBUTING.md): their changes are told, not read
	MaxDocBytes int64    // docs larger than this are skipped

	// How Run follows the docs folder and Files.
	Watch        watch.Mode
	PollInterval time.Duration // when polling, how often every file's size and time are checked

	// Derive makes what a server keeps per snapshot besides the search
	// index (the MCP server's folder tree for completions): each is called
	// with every snapshot before it is served, and the one served before
	// it (nil for the first), so that no request has to build it.
	Derive []func(prev, next *docs.Snapshot)

	// StartupWork is more work of the start-up than the load and the
	// index, each closed when done (the releases' first load, which
	// shares the docs loaded): the memory settles once it is done too, so
	// that its scratch goes back to the system with theirs.
	StartupWork []<-chan struct{}

	// Git, when set, is the repository the docs are of (its work tree
	// DataRoot): the corpus then keeps the last commit of each doc at
	// HEAD (History), walked again when HEAD moves, read every
	// PollInterval.
	Git *gitdocs.Repo
	// Versions, when set, are the release tags served beside the working
	// tree (--versions): the corpus makes their set (Releases), stacked on
	// its own docs (unless its WorkingTree is set), and loads and follows
	// them in its run. Its Repo is Git.
	Versions *versions.Config

	// CacheFile is where the docs and their index are kept between runs
	// (see CacheFile and cache.go); "" keeps no cache.
	CacheFile string
	// CacheReadOnly reads the cache file but never writes it: an image
	// ships the cache of its docs (see WriteCache) on a file system that
	// cannot be written. The start uses it as any cache, checked against
	// the disk; docs that differ from it are read again at every start.
	CacheReadOnly bool

	Logger   *slog.Logger
	Observer Observer // measures reloads and index builds; nil: nothing is measured
}

// DefaultConfig is the configuration with every default: docs up to
// docs.DefaultMaxDocBytes, followed with file events where they work,
// polling every watch.DefaultPollInterval elsewhere, and no logs.
func DefaultConfig() Config {
	return Config{
		MaxDocBytes:  docs.DefaultMaxDocBytes,
		Watch:        watch.Auto,
		PollInterval: watch.DefaultPollInterval,
		Logger:       slog.New(slog.DiscardHandler),
	}
}

// Observer measures the corpus (metrics.Metrics is one): how long reloads
// and search-index builds take.
type Observer interface {
	ObserveReload(time.Duration)
	ObserveIndexBuild(time.Duration)
}

// Corpus is the docs served: the snapshot in use, and what keeps it in
// step with the disk.
type Corpus struct {
	cfg     Config
	log     *slog.Logger
	store   *docs.Store
	watcher *watch.Watcher // follows the files on disk while Run runs
	applyMu sync.Mutex     // held while a batch of changes is applied

	servedSince atomic.Int64 // when the snapshot served was put in the store, Unix nanoseconds

	// hist is the docs' last commits at HEAD (FollowHistory), nil until
	// walked; walked is closed once the first walk is over.
	hist       atomic.Pointer[gitdocs.History]
	docsDir    string // the docs folder relative to the repository's root
	walked     chan struct{}
	walkedOnce sync.Once

	releases *versions.Set // nil without Config.Versions
	changes  changesCache  // the last comparisons of two releases (Changes)

	opened   chan struct{} // closed once the corpus has its docs (Open)
	openOnce sync.Once
	settled  chan struct{}  // closed once Run's start-up is over (Settled)
	saved    *docs.Snapshot // the snapshot the cache file holds, as far as Run knows
	// cacheWarned: a warning said already that the cache cannot be used
	// (its folder cannot be read or written); a later failure to write it
	// is logged at debug level, so that one cause makes one warning.
	cacheWarned bool

	// reports are the goroutines that report the index builds (index);
	// Run waits for them, so that nothing logs after it returned. stopped,
	// closed as Run returns, tells one whose build is not over to report
	// nothing.
	reports sync.WaitGroup
	stopped chan struct{}

	// beforeLoad, when set, runs just before Run loads the docs (tests
	// hold the load back with it to see what happens meanwhile).
	beforeLoad func(context.Context)
	// startupHeld, when set, keeps the start-up from ending until it is
	// closed (tests of a client that leaves before it ends).
	startupHeld chan struct{}
}

// New returns a corpus that has no docs yet: call Run to load them and
// follow them on disk, or (in tests) Open with docs loaded already.
func New(cfg Config) *Corpus {
	c := &Corpus{
		cfg:     cfg,
		log:     cfg.Logger,
		store:   docs.NewStore(nil),
		opened:  make(chan struct{}),
		settled: make(chan struct{}),
		stopped: make(chan struct{}),
		walked:  make(chan struct{}),
		docsDir: docsDirOf(cfg),
		watcher: watch.New(watchConfig(cfg)),
	}
	if cfg.Git == nil || c.docsDir == "" {
		close(c.walked) // no history to walk
		c.walkedOnce.Do(func() {})
	} else {
		// Each doc's blob id, for provenance: made once per snapshot,
		// before it is served, so that no request hashes a doc.
		c.cfg.Derive = append(slices.Clip(cfg.Derive), DeriveBlobIDs)
	}
	if cfg.Versions != nil {
		vc := *cfg.Versions
		vc.Repo = cfg.Git
		if vc.WorkingTree == nil {
			vc.WorkingTree = c.workingTree
		}
		if vc.Head == nil {
			vc.Head = c.headHistory
		}
		c.releases = versions.New(vc)
	}
	return c
}

// Releases are the release tags served beside the working tree, loaded
// and followed by Run: nil without Config.Versions.
func (c *Corpus) Releases() *versions.Set { return c.releases }

// headHistory is HEAD's history once its first walk is over (nil when
// there is none, or ctx ended first), for the releases' histories to be
// told as their difference from it (versions.Config.Head).
func (c *Corpus) headHistory(ctx context.Context) *gitdocs.History {
	select {
	case <-c.walked:
		return c.History()
	case <-ctx.Done():
		return nil
	}
}

// workingTree is the snapshot served, once there is one, for the releases
// to share its docs and index (versions.Config.WorkingTree).
func (c *Corpus) workingTree(ctx context.Context) *docs.Snapshot {
	if c.await(ctx) != nil {
		return nil
	}
	return c.Snapshot()
}

// watchConfig is the watcher's part of cfg.
func watchConfig(cfg Config) watch.Config {
	w := watch.DefaultConfig()
	w.Mode, w.Dir, w.Files, w.PollInterval, w.Logger = cfg.Watch, cfg.DocsPath, cfg.Files, cfg.PollInterval, cfg.Logger
	return w
}

// Snapshot returns the docs served now: nil until Opened is closed.
func (c *Corpus) Snapshot() *docs.Snapshot { return c.store.Snapshot() }

// Opened is closed once the corpus has its docs (see Open).
func (c *Corpus) Opened() <-chan struct{} { return c.opened }

// Stopped is closed once Run has returned: a corpus that was not opened
// by then never will be (its load failed, or Run was stopped first).
func (c *Corpus) Stopped() <-chan struct{} { return c.stopped }

// ServedSince returns when the snapshot served was put in place: the zero
// time until Opened is closed.
func (c *Corpus) ServedSince() time.Time {
	if ns := c.servedSince.Load(); ns != 0 {
		return time.Unix(0, ns)
	}
	return time.Time{}
}

// Follows reports whether changes on disk are followed (Config.Watch is
// not off): while it is false, the snapshot served never changes.
func (c *Corpus) Follows() bool { return c.cfg.Watch != watch.Off }

// Settled is closed once Run's start-up is over: the first snapshot is
// loaded and indexed, the rescan that follows is done, and the memory has
// settled. Until then an edit may be told twice, by the watcher and then
// by the rescan, which may also find a file half written and tell the
// edit that completes it after.
func (c *Corpus) Settled() <-chan struct{} { return c.settled }

// Watching says how changes on disk are followed now: fsnotify, poll, or
// off (with Config.Watch off, and before or after Run).
func (c *Corpus) Watching() string { return string(c.watcher.Method()) }

// Run loads the docs and keeps them in step with the disk until ctx ends,
// calling publish with each change once the snapshot it makes is served
// (one change at a time, in generation order). It returns nil when ctx
// ends, or an error when the first load fails (the docs folder vanished
// after the configuration was checked): there are then no docs to serve,
// and its caller should stop.
//
// Following and the load start together: on a tree of thousands of
// folders, putting a watch on each takes longer than reading the files,
// and the load need not wait for it. An edit made while the docs load is
// still seen: once the first index is built and the watcher is ready, one
// rescan (docs.Changes.All, a stat of every file, only changed files read)
// picks up what changed before the watch on its folder was in place; edits
// after that come as batches from the watcher, applied once the docs are
// open. The rescan waits for the index because the build leaves one core
// to the searches answered meanwhile, and a rescan beside it would take
// that core: on 40,000 files, searches in the build's second had a p95 of
// 14 to 27 ms with the two side by side, 6 to 7 ms with the rescan after.
// Not being able to follow at all is logged, and the corpus goes on
// serving what it loaded.
func (c *Corpus) Run(ctx context.Context, publish func(docs.Change)) error {
	ctx, stop := context.WithCancel(ctx)
	followed, histFollowed := make(chan struct{}), make(chan struct{})
	go func() {
		defer close(followed)
		if err := c.follow(ctx, c.watcher, publish); err != nil {
			c.log.Error("not following changes to the docs; restart to see edits", "err", err)
		}
	}()
	releasesRun := make(chan struct{})
	go func() {
		// The releases load beside the working tree, stacked on its docs
		// once it has them, and are followed as tags come and go.
		defer close(releasesRun)
		if c.releases != nil {
			c.releases.Run(ctx)
		}
	}()
	go func() {
		// The history is walked beside the load (on 40,000 docs and ten
		// commits, about 1.5 s of CPU), its scratch returned with the
		// start-up's, and again when HEAD moves.
		defer close(histFollowed)
		c.FollowHistory(ctx)
	}()
	defer func() {
		stop()
		<-followed
		<-histFollowed
		<-releasesRun
		close(c.stopped)
		c.reports.Wait()
	}()

	watching := false // the watcher was ready before the load began
	select {
	case <-c.watcher.Ready():
		watching = true
	default:
	}
	snap, built, err := c.load(ctx)
	if err != nil || snap == nil {
		return err
	}
	indexed := built.Done()
	var ranked <-chan struct{} // the ranking, built after the index: its scratch goes back with the start-up's
	if p, ok := rank.Attached(snap); ok {
		ranked = p.Done()
	}
	rescanned := make(chan struct{})
	if watching {
		close(rescanned)
	} else {
		go func() {
			defer close(rescanned)
			for _, ready := range []<-chan struct{}{indexed, c.watcher.Ready()} {
				select {
				case <-ready:
				case <-ctx.Done():
					return
				}
			}
			c.update(ctx, watch.Batch{All: true}, false, publish)
		}()
	}
	// The start-up is over once the first index and ranking are built and
	// the rescan is done: then the cache is saved, if it does not hold these docs,
	// and the memory settles, to what it will stay near. A client that
	// leaves before then (a short stdio session) still leaves the cache
	// of what was loaded, once its index is built: each doc in it is
	// checked against the disk at the next start anyway.
	startup := []<-chan struct{}{indexed, ranked, rescanned, c.walked, c.startupHeld}
	if c.releases != nil {
		startup = append(startup, c.releases.Loaded())
	}
	for _, done := range append(startup, c.cfg.StartupWork...) {
		if done == nil {
			continue
		}
		select {
		case <-done:
		case <-ctx.Done():
			c.save()
			return nil
		}
	}
	c.save()
	settleMemory()
	var ms runtime.MemStats
	runtime.ReadMemStats(&ms)
	c.log.Info("memory settled", "heap_bytes", ms.HeapAlloc)
	close(c.settled)
	<-ctx.Done()
	c.save() // what changed since, for the next start
	return nil
}

// load reads the first snapshot and opens it, its index attached: from the
// cache when it has one, brought up to date with the disk, else from the
// docs folder. It returns the snapshot and its index's build, or nils
// when ctx ends first.
func (c *Corpus) load(ctx context.Context) (*docs.Snapshot, *search.Pending, error) {
	if c.beforeLoad != nil {
		c.beforeLoad(ctx)
	}
	begin := time.Now()
	cached, listing := c.cached(ctx)
	var (
		snap *docs.Snapshot
		diff docs.Diff
		err  error
	)
	if cached != nil {
		snap, diff, err = docs.UpdateListed(ctx, cached, c.cfg.DocsPath, listing, c.loadOptions(1))
	} else {
		snap, err = docs.Load(ctx, c.cfg.DocsPath, c.loadOptions(1))
	}
	if err != nil {
		if ctx.Err() != nil {
			return nil, nil, nil
		}
		c.log.Error("cannot load the docs; stopping", "err", err)
		return nil, nil, fmt.Errorf("load docs: %w", err)
	}
	if snap == cached {
		c.saved = snap // nothing to save at the end of the start-up
	}
	built := c.open(cached, snap)
	text, held := snap.TextBytes()
	attrs := []any{"docs", len(snap.Docs()), "skipped", len(snap.Skipped()),
		"duration", time.Since(begin).Round(time.Millisecond), "data_root", c.cfg.DataRoot,
		"text_bytes", text, "held_bytes", held}
	if cached != nil {
		attrs = append(attrs, "cache", "used", "read_again", len(diff.Added)+len(diff.Changed), "removed", len(diff.Removed))
	}
	c.log.Info("docs loaded", attrs...)
	switch {
	case len(snap.Docs()) > 0:
	case len(snap.Skipped()) > 0:
		c.log.Warn("no docs: every .md file of the docs folder was skipped (the warnings above say why); searches find nothing until one can be read",
			"dir", c.cfg.DocsPath, "skipped", len(snap.Skipped()))
	default:
		c.log.Warn("no docs: the docs folder holds no .md file; searches find nothing until one is added (check --data-root and --docs-dir)",
			"dir", c.cfg.DocsPath, "skipped", 0)
	}
	return snap, built, nil
}

// cached returns the snapshot the cache file holds, its index attached,
// and the listing of the docs folder it is to be brought up to date with;
// or nils when there is no cache file or it cannot be used (which is
// logged). The folder is listed before the file is read, so that the
// read is bounded by the docs' size (see cacheBound); a first start,
// without a cache file, lists nothing.
func (c *Corpus) cached(ctx context.Context) (*docs.Snapshot, *docs.Listing) {
	if c.cfg.CacheFile == "" {
		return nil, nil
	}
	if _, err := os.Lstat(c.cfg.CacheFile); errors.Is(err, fs.ErrNotExist) {
		return nil, nil
	}
	listing, err := docs.List(ctx, c.cfg.DocsPath)
	if err != nil {
		return nil, nil // the load says why
	}
	snap, err := c.readCache(cacheBound(listing))
	switch {
	case err == nil:
		return snap, listing
	case errors.Is(err, fs.ErrPermission):
		c.log.Warn("cannot read the docs cache, so every start reads every doc: "+cacheFix, "path", c.cfg.CacheFile, "err", err)
		c.cacheWarned = true
	case !errors.Is(err, errNoCache):
		c.log.Warn("ignoring the docs cache; this start reads every doc", "path", c.cfg.CacheFile, "err", err)
	}
	return nil, nil
}

// cacheFix says what to do about a cache folder that cannot be used.
const cacheFix = "let the user docs-mcp runs as read and write its folder, or set another (--cache-dir) or none (--no-cache)"

// save writes the snapshot served, with its index, to the cache file,
// unless the file holds it already, the index is not built, or there is
// no cache or it is read-only. Run calls it at the end of the start-up and at its end.
func (c *Corpus) save() {
	snap := c.store.Snapshot()
	if c.cfg.CacheFile == "" || c.cfg.CacheReadOnly || snap == nil || snap == c.saved {
		return
	}
	ix := search.Built(snap)
	if ix == nil {
		return
	}
	begin := time.Now()
	n, err := c.writeCache(snap, ix, 0o600)
	if err != nil {
		if c.cacheWarned {
			c.log.Debug("cannot write the docs cache", "path", c.cfg.CacheFile, "err", err)
			return
		}
		c.log.Warn("cannot write the docs cache, so the next start reads the docs instead of this cache: "+cacheFix, "path", c.cfg.CacheFile, "err", err)
		c.cacheWarned = true
		return
	}
	c.saved = snap
	c.log.Info("docs cache written", "path", c.cfg.CacheFile, "bytes", n, "duration", time.Since(begin).Round(time.Millisecond))
}

// loadOptions are the options of every read of the docs folder, the first
// load and each update: only the generation differs.
func (c *Corpus) loadOptions(generation uint64) docs.LoadOptions {
	return docs.LoadOptions{MaxDocBytes: c.cfg.MaxDocBytes, Generation: generation, Logger: c.log}
}

// settleMemory is the process's memory policy once the first snapshot is
// loaded and indexed (and, when the watcher was not ready before the load,
// the rescan that follows is done): the scratch memory of the load, the
// build and the rescan goes back to the system, and from now on the docs
// and their index are most of the heap, so the garbage collector's target
// drops (see tuneCollector). It and tuneCollector are the only settings of
// the process's garbage collector.
func settleMemory() {
	debug.FreeOSMemory()
	tuneCollector(0)
}

// tuneCollector sets the garbage collector's target (GOGC) for the heap
// the process now holds, unless GOGC is set: at least known bytes (the docs
// and the index of the snapshot served), and at least what the last
// collection found live. The target is steadyGCPercent of that, but never
// less than minGarbageBytes: Run calls it at the end of the start-up and
// after each later snapshot's index is built, so that the target follows a
// tree that grows or shrinks.
func tuneCollector(known uint64) {
	if os.Getenv("GOGC") != "" {
		return
	}
	live := []metrics.Sample{{Name: "/gc/heap/live:bytes"}}
	metrics.Read(live)
	debug.SetGCPercent(gcPercent(max(known, live[0].Value.Uint64())))
}

// gcPercent is the collector's target for a live heap of live bytes: the
// garbage let grow between two collections is steadyGCPercent of it, and
// at least minGarbageBytes.
func gcPercent(live uint64) int {
	return max(steadyGCPercent, int(minGarbageBytes*100/max(live, 1)))
}

// steadyGCPercent is the garbage collector's target (GOGC) on a large tree
// once the start-up is over, unless GOGC is set. The docs and their
// index are then most of the heap, and they live as long as the process:
// with Go's default of 100, the garbage of searches could grow to their
// size again before a collection, doubling the resident memory (4.4x the
// corpus after 6,000 searches on 40,000 files). At 10 it stays under a
// tenth of them: on 9,746 files (44 MB) 89 MB resident after 1,000
// searches where 20 gave 95 MB. A collection then comes every ten or so
// 50-match searches on 40,000 small docs; it marks only the docs' and the
// index's headers (their text and posting lists hold no pointers), 4 to 7
// ms of CPU, mostly on the other core. The load and the first build keep
// the default: at 25 from the start, loading 40,000 files took 2 to 3 s
// longer. See docs/server/architecture.md.
const steadyGCPercent = 10

// minGarbageBytes is the least garbage the collector lets grow between two
// collections after the start-up. A tenth of a small tree's heap is a page
// or two of search results: on this repository's docs (2 to 3 MB live)
// 2,000 searches for mod_search_docs ran 1,124 to 1,197 collections, which
// took a third of the 2.5 to 2.7 ms of CPU a search cost; with 3 MiB, 292
// collections and 1.6 to 1.8 ms. 4 MiB gave 117 to 145 and 1.6 ms, but on 40,000
// small docs (26 MB live, where it sets the target to 16) it held 1.42 to
// 1.45 times the text after the searches rather than 1.39 to 1.42; 3 MiB
// (a target of 12 there) held 1.40 to 1.41.
const minGarbageBytes = 3 << 20

// Open makes snap the docs served, once: it attaches snap's search index
// and starts building it, puts snap in the store, and closes Opened. It
// tells no one: Run calls it with the first snapshot it loads, which
// nobody has seen a list without (requests wait for Opened); later
// snapshots come from changes on disk, which Run's publish is told of.
func (c *Corpus) Open(snap *docs.Snapshot) { c.open(nil, snap) }

// open is Open for a snapshot that follows prev (the cache's), whose index
// it reuses. It returns the index's build.
func (c *Corpus) open(prev, snap *docs.Snapshot) *search.Pending {
	var built *search.Pending
	c.openOnce.Do(func() {
		built = c.index(prev, snap)
		c.derive(nil, snap)
		c.store.Replace(snap)
		c.servedSince.Store(time.Now().UnixNano())
		close(c.opened)
	})
	return built
}

// await waits until the corpus has its docs, or ctx ends.
func (c *Corpus) await(ctx context.Context) error {
	select {
	case <-c.opened:
		return nil
	default:
	}
	select {
	case <-c.opened:
		return nil
	case <-ctx.Done():
		return ctx.Err()
	}
}

// derive makes the data of cfg.Derive for next, which follows prev.
func (c *Corpus) derive(prev, next *docs.Snapshot) {
	for _, f := range c.cfg.Derive {
		f(prev, next)
	}
}

// index attaches snap's search index and starts building it, reusing what
// it can of prev's (prev may be nil), and logs when it is built. It
// returns the build.
func (c *Corpus) index(prev, snap *docs.Snapshot) *search.Pending {
	first := c.Snapshot() == nil
	p := search.Build(snap, prev)
	// The ranking of the docs (package rank) is built once the index is
	// (built beside it, on 40,000 small docs, the first search came after
	// 9.1 s rather than 0.9 s); a ranked question waits for it, as a
	// search waits for the index.
	rank.Build(snap, prev, p.Done())
	c.reports.Go(func() {
		select {
		case <-p.Done():
		case <-c.stopped:
			return
		}
		ix, err := p.Index()
		if err != nil {
			c.log.Warn("no search index; searches scan every line", "generation", snap.Generation(), "err", err)
			return
		}
		st := ix.Stats()
		select {
		case <-c.settled: // else the start-up is not over, and the collector keeps Go's default
			_, held := snap.TextBytes()
			tuneCollector(uint64(held) + uint64(st.Bytes))
		default:
		}
		if c.cfg.Observer != nil {
			c.cfg.Observer.ObserveIndexBuild(st.BuildTime)
		}
		level := slog.LevelDebug
		if first {
			level = slog.LevelInfo
		}
		c.log.Log(context.Background(), level, "search index built", "generation", snap.Generation(),
			"docs", st.Docs, "duration", st.BuildTime, "reused_docs", st.ReusedDocs,
			"index_bytes", st.Bytes, "corpus_bytes", st.CorpusBytes)
	})
	return p
}
