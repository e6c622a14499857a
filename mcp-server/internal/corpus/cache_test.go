package corpus

import (
	"context"
	"fmt"
	"io/fs"
	"log/slog"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"github.com/docs-mcp/docs-mcp/mcp-server/internal/corpusgen"
	"github.com/docs-mcp/docs-mcp/mcp-server/internal/docs"
	"github.com/docs-mcp/docs-mcp/mcp-server/internal/search"
	"github.com/docs-mcp/docs-mcp/mcp-server/mcptest"
	"github.com/docs-mcp/docs-mcp/mcp-server/watch"
)

// lightTree is the size of the tree of the cache tests that need no more
// than a few hundred docs (one index segment): all of them but
// TestCacheRestart, whose point is segments reused.
const lightTree = 300

// cachedTree generates a tree of files docs (2,000 make 3 index segments)
// whose times lie an hour back (so that no doc is racy, see docs.markRacy), and a configuration
// that keeps its cache in a folder of the test's and does not follow the
// disk (each start sees the tree as the test left it).
func cachedTree(t *testing.T, files int) Config {
	t.Helper()
	root := t.TempDir()
	dir := filepath.Join(root, "docs")
	if _, err := corpusgen.Generate(context.Background(), dir, corpusgen.Options{Seed: 3, Files: files}); err != nil {
		t.Fatal(err)
	}
	backdate(t, dir)
	cfg := DefaultConfig()
	cfg.DataRoot, cfg.DocsPath, cfg.Watch = root, dir, watch.Off
	cfg.CacheFile = CacheFile(filepath.Join(root, "cache"), dir)
	return cfg
}

// backdate sets the times of every file under dir an hour back.
func backdate(t testing.TB, dir string) {
	t.Helper()
	old := time.Now().Add(-time.Hour)
	err := filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		return os.Chtimes(p, old, old)
	})
	if err != nil {
		t.Fatal(err)
	}
}

// start runs a corpus of cfg until its start-up is over, then stops it
// (which saves the cache), and returns the snapshot it served and its log.
func start(t *testing.T, cfg Config) (*docs.Snapshot, string) {
	t.Helper()
	snap, log, err := startErr(cfg)
	if err != nil {
		t.Fatal(err)
	}
	return snap, log
}

// startErr is start for any goroutine.
func startErr(cfg Config) (*docs.Snapshot, string, error) {
	logs := &mcptest.Buffer{}
	cfg.Logger = slog.New(slog.NewTextHandler(logs, nil))
	c := New(cfg)
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	done := make(chan error, 1)
	go func() { done <- c.Run(ctx, func(docs.Change) {}) }()
	select {
	case <-c.Settled():
	case err := <-done:
		return nil, logs.String(), fmt.Errorf("Run ended before its start-up was over: %v", err)
	}
	snap := c.Snapshot()
	cancel()
	if err := <-done; err != nil {
		return nil, logs.String(), err
	}
	return snap, logs.String(), nil
}

// answers is every match of a few queries in snap, as search.Find gives
// them: a cache must never change one.
func answers(t *testing.T, snap *docs.Snapshot) []string {
	t.Helper()
	var out []string
	for _, q := range []string{"the", "player", "hook", "zz", "fresh words"} {
		for m := range search.Find(context.Background(), snap, search.Query{Text: q}, search.Position{}, nil) {
			out = append(out, q+" "+m.Doc.Path+":"+m.Text)
		}
	}
	if len(out) < 100 {
		t.Fatalf("%d matches: too few to tell", len(out))
	}
	return out
}

// TestCacheRestart starts a server on a tree, edits, adds and removes docs
// while it is down, and starts it again: the second start reads its cache,
// reads again only what changed, reuses the index segments of the rest, and
// answers as a start without a cache does.
func TestCacheRestart(t *testing.T) {
	mcptest.SkipUnderRace(t, "its subject is which index segments a restart reuses, on 2,000 docs; the other cache tests load and save the cache under the detector")
	cfg := cachedTree(t, 2000) // several index segments
	first, log := start(t, cfg)
	if strings.Contains(log, "cache=used") {
		t.Fatal("the first start used a cache it cannot have had")
	}
	if _, err := os.Stat(cfg.CacheFile); err != nil {
		t.Fatalf("no cache after the first start: %v", err)
	}

	// While the server is down.
	all := first.Docs()
	edited, removed := all[10].Path, all[20].Path
	mcptest.WriteFile(t, filepath.Join(cfg.DocsPath, edited), "# Edited\n\nfresh words while it was down\n")
	if err := os.Remove(filepath.Join(cfg.DocsPath, removed)); err != nil {
		t.Fatal(err)
	}
	mcptest.WriteFile(t, filepath.Join(cfg.DocsPath, "added/new.md"), "# Added\n\nmore fresh words\n")

	second, log := start(t, cfg)
	for _, want := range []string{"cache=used", "read_again=2", "removed=1"} {
		if !strings.Contains(log, want) {
			t.Errorf("the second start's log lacks %s:\n%s", want, log)
		}
	}
	if _, ok := second.Lookup(removed); ok {
		t.Errorf("%s was removed while the server was down, and is still served", removed)
	}
	if d, ok := second.Lookup(edited); !ok || !strings.Contains(d.Text(), "fresh words") {
		t.Errorf("%s was edited while the server was down; served: %v", edited, ok)
	}
	ix := search.Built(second)
	if ix == nil {
		t.Fatal("no index after the start-up")
	}
	if st := ix.Stats(); st.ReusedDocs == 0 || st.ReusedDocs >= st.Docs {
		t.Errorf("the index reused %d of %d docs: want the segments of the unchanged docs, not all", st.ReusedDocs, st.Docs)
	}

	// The same answers as a start without a cache.
	cold := cfg
	cold.CacheFile = ""
	coldSnap, _ := start(t, cold)
	if diff := cmp.Diff(answers(t, coldSnap), answers(t, second)); diff != "" {
		t.Errorf("answers from the cache differ from a cold start's (-cold +cached):\n%s", diff)
	}

	// Once the edits are old enough to be trusted by their stamps (the
	// second start saved them as racy: they were minutes old), a start
	// on the unchanged tree reads nothing again and writes nothing.
	backdate(t, cfg.DocsPath)
	start(t, cfg) // reads the backdated files again, to save their new times
	if _, log := start(t, cfg); !strings.Contains(log, "read_again=0") || strings.Contains(log, "docs cache written") {
		t.Errorf("a start on an unchanged tree should read nothing again and write nothing:\n%s", log)
	}
}

// TestCacheRacy writes a doc twice within one modification time, with the
// same size, and the first version is what a start read and saved: the
// next start must read it again (git's "racily clean" entry), not trust
// the stamp it saved.
func TestCacheRacy(t *testing.T) {
	cfg := cachedTree(t, lightTree)
	p := filepath.Join(cfg.DocsPath, "racy.md")
	mcptest.WriteFile(t, p, "# Racy\n\nversion A\n")
	info, err := os.Stat(p)
	if err != nil {
		t.Fatal(err)
	}
	start(t, cfg)
	mcptest.WriteFile(t, p, "# Racy\n\nversion B\n") // same size, same inode
	if err := os.Chtimes(p, info.ModTime(), info.ModTime()); err != nil {
		t.Fatal(err)
	}
	snap, _ := start(t, cfg)
	d, ok := snap.Lookup("racy.md")
	if !ok || !strings.Contains(d.Text(), "version B") {
		t.Fatalf("the start after a racy write serves %q, want version B", d.Text())
	}
}

// TestCacheDamaged damages the cache file in the ways a disk, a crash or
// another build can, and checks that each is ignored with one warning,
// the docs served are the tree's, and the cache is written again.
func TestCacheDamaged(t *testing.T) {
	mcptest.SkipUnderRace(t, "its subject is a damaged cache file, refused in one goroutine; the cache's load and save run under the detector in TestCacheRacy and TestCacheShared")
	cfg := cachedTree(t, lightTree)
	start(t, cfg)
	good, err := os.ReadFile(cfg.CacheFile)
	if err != nil {
		t.Fatal(err)
	}
	snap, _ := start(t, cfg)
	want := answers(t, snap)
	for _, c := range []struct {
		name   string
		damage func([]byte) []byte
		cfg    func(*Config)
		says   string
	}{
		{"truncated", func(b []byte) []byte { return b[:len(b)/2] }, nil, "checksum does not match"},
		{"one bit flipped", func(b []byte) []byte { b[len(b)/3] ^= 4; return b }, nil, "checksum does not match"},
		{"another format", func(b []byte) []byte { b[len(cacheMagic)]++; return b }, nil, "written in format 2"},
		{"not a cache", func([]byte) []byte { return []byte("{}\n") }, nil, "not a cache file"},
		{"another configuration", nil, func(c *Config) { c.MaxDocBytes++ }, "written by another build or for another docs folder"},
	} {
		t.Run(c.name, func(t *testing.T) {
			cfg := cfg
			if c.cfg != nil {
				c.cfg(&cfg)
			}
			data := slices.Clone(good)
			if c.damage != nil {
				data = c.damage(data)
			}
			if err := os.WriteFile(cfg.CacheFile, data, 0o600); err != nil {
				t.Fatal(err)
			}
			snap, log := start(t, cfg)
			if n := strings.Count(log, "ignoring the docs cache"); n != 1 || !strings.Contains(log, c.says) {
				t.Errorf("%d warnings, want one saying %q:\n%s", n, c.says, log)
			}
			if diff := cmp.Diff(want, answers(t, snap)); diff != "" {
				t.Errorf("answers after a damaged cache (-want +got):\n%s", diff)
			}
			again, err := os.ReadFile(cfg.CacheFile)
			if err != nil || !strings.Contains(log, "docs cache written") {
				t.Fatalf("the cache was not written again: %v\n%s", err, log)
			}
			if _, log := start(t, cfg); !strings.Contains(log, "cache=used") {
				t.Errorf("the cache written again (%d bytes) was not used:\n%s", len(again), log)
			}
		})
	}
}

// TestCachePrune checks that writing a cache removes the caches of docs
// folders that are gone, and keeps the others.
func TestCachePrune(t *testing.T) {
	cfg := cachedTree(t, lightTree)
	start(t, cfg)
	dir := filepath.Dir(cfg.CacheFile)

	gone := cfg
	gone.DocsPath = filepath.Join(t.TempDir(), "docs")
	mcptest.WriteFile(t, filepath.Join(gone.DocsPath, "a.md"), "# A\n")
	gone.CacheFile = CacheFile(dir, gone.DocsPath)
	start(t, gone)
	if err := os.RemoveAll(gone.DocsPath); err != nil {
		t.Fatal(err)
	}

	mcptest.WriteFile(t, filepath.Join(cfg.DocsPath, "b.md"), "# B\n") // so that the next start writes
	start(t, cfg)
	if _, err := os.Stat(gone.CacheFile); !os.IsNotExist(err) {
		t.Errorf("the cache of a docs folder that is gone is still there: %v", err)
	}
	if _, err := os.Stat(cfg.CacheFile); err != nil {
		t.Errorf("the cache in use is gone: %v", err)
	}
}

// TestCacheShared runs servers two at a time on one docs folder and one
// cache file, with an edit before each round so that both write it: each
// reads a whole file or none, and the file left is whole and used.
func TestCacheShared(t *testing.T) {
	cfg := cachedTree(t, lightTree)
	for round := range 3 {
		mcptest.WriteFile(t, filepath.Join(cfg.DocsPath, "round.md"), fmt.Sprintf("# Round\n\nround %d\n", round))
		errs := make(chan error, 2)
		for range 2 {
			go func() {
				_, log, err := startErr(cfg)
				if err == nil && strings.Contains(log, "ignoring the docs cache") {
					err = fmt.Errorf("a server found the shared cache damaged:\n%s", log)
				}
				errs <- err
			}()
		}
		for range 2 {
			if err := <-errs; err != nil {
				t.Fatalf("round %d: %v", round, err)
			}
		}
	}
	snap, log := start(t, cfg)
	if !strings.Contains(log, "cache=used") || strings.Contains(log, "ignoring the docs cache") {
		t.Errorf("the cache left by servers side by side was not used:\n%s", log)
	}
	if d, ok := snap.Lookup("round.md"); !ok || !strings.Contains(d.Text(), "round 2") {
		t.Errorf("round.md is not the last round's")
	}
}

// TestCacheClientLeftEarly stops Run once the first index is built but
// before the start-up is over (a stdio client that searched once and
// closed its session): the cache is written all the same, and the next
// start uses it.
func TestCacheClientLeftEarly(t *testing.T) {
	cfg := cachedTree(t, lightTree)
	c := New(cfg)
	c.startupHeld = make(chan struct{}) // never closed: the start-up does not end
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error, 1)
	go func() { done <- c.Run(ctx, func(docs.Change) {}) }()
	mcptest.Eventually(t, "the first index is built", func() bool {
		snap := c.Snapshot()
		return snap != nil && search.Built(snap) != nil
	})
	cancel()
	if err := <-done; err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(cfg.CacheFile); err != nil {
		t.Fatalf("no cache after a run stopped once its index was built: %v", err)
	}
	if _, log := start(t, cfg); !strings.Contains(log, "cache=used") {
		t.Errorf("the next start did not use the cache:\n%s", log)
	}
}
