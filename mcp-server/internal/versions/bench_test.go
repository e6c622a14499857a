package versions_test

import (
	"context"
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"runtime"
	"slices"
	"testing"
	"time"

	"github.com/docs-mcp/docs-mcp/mcp-server/gitdocs"
	"github.com/docs-mcp/docs-mcp/mcp-server/internal/corpusgen"
	"github.com/docs-mcp/docs-mcp/mcp-server/internal/docs"
	"github.com/docs-mcp/docs-mcp/mcp-server/internal/search"
	"github.com/docs-mcp/docs-mcp/mcp-server/internal/versions"
	"github.com/docs-mcp/docs-mcp/mcp-server/mcptest"
)

var benchFiles = flag.Int("releases.files", 2000, "docs in the tree of BenchmarkReleases (docs/server/benchmarks.md runs it at 40000)")

// releaseRepo is a git repository of ten release tags over a generated
// tree of n docs (corpusgen, shape small): v1.0.0, then nine tags that
// each append a line to 1% of the docs.
func releaseRepo(b *testing.B, n int) string {
	b.Helper()
	r := mcptest.NewGitRepo(b)
	if _, err := corpusgen.Generate(context.Background(), filepath.Join(r.Dir, "docs"), corpusgen.Options{Seed: 1, Files: n, Shape: corpusgen.Small}); err != nil {
		b.Fatal(err)
	}
	r.Commit("v1.0.0")
	r.Git("tag", "v1.0.0")
	var paths []string
	err := filepath.WalkDir(filepath.Join(r.Dir, "docs"), func(p string, d os.DirEntry, err error) error {
		if err == nil && !d.IsDir() {
			paths = append(paths, p)
		}
		return err
	})
	if err != nil {
		b.Fatal(err)
	}
	slices.Sort(paths)
	for tag := 1; tag <= 9; tag++ {
		for i := tag; i < len(paths); i += 100 {
			f, err := os.OpenFile(paths[i], os.O_APPEND|os.O_WRONLY, 0)
			if err != nil {
				b.Fatal(err)
			}
			fmt.Fprintf(f, "Changed in release %d.\n", tag)
			f.Close()
		}
		r.Commit(fmt.Sprintf("v1.%d.0", tag))
		r.Git("tag", fmt.Sprintf("v1.%d.0", tag))
	}
	return r.Dir
}

// BenchmarkReleases loads the working tree of a generated tree, indexed,
// alone, then with its ten releases stacked on it, as --versions 'v*'
// does at start; it reports the heap each holds (after a collection) and
// the search time in the newest release and in the working tree.
func BenchmarkReleases(b *testing.B) {
	dir := releaseRepo(b, *benchFiles)
	repo, err := gitdocs.Open(dir)
	if err != nil {
		b.Fatal(err)
	}
	sel, _ := gitdocs.ParseSelector("v*")
	heap := func() float64 {
		runtime.GC()
		var m runtime.MemStats
		runtime.ReadMemStats(&m)
		return float64(m.HeapAlloc) / 1e6
	}
	query := search.Query{Text: "player"}
	find := func(b *testing.B, snap *docs.Snapshot) {
		for range b.N {
			n := 0
			for range search.Find(context.Background(), snap, query, search.Position{}, &search.Budget{Bytes: search.CallBytes}) {
				if n++; n == 50 {
					break
				}
			}
		}
	}
	workingTree := func(b *testing.B) *docs.Snapshot {
		snap, err := docs.Load(context.Background(), filepath.Join(dir, "docs"), docs.LoadOptions{Generation: 1})
		if err != nil {
			b.Fatal(err)
		}
		search.Build(snap, nil)
		if err := search.Await(context.Background(), snap); err != nil {
			b.Fatal(err)
		}
		return snap
	}
	releases := func(b *testing.B, wt *docs.Snapshot) *versions.Set {
		set := versions.New(versions.Config{Repo: repo, Selector: sel, DocsDir: "docs",
			WorkingTree: func(context.Context) *docs.Snapshot { return wt }})
		if err := set.Refresh(context.Background()); err != nil {
			b.Fatal(err)
		}
		for _, r := range set.List() {
			if err := search.Await(context.Background(), r.Docs); err != nil {
				b.Fatal(err)
			}
		}
		return set
	}
	b.Run("working-tree", func(b *testing.B) {
		base := heap()
		var snap *docs.Snapshot
		for range b.N {
			snap = workingTree(b)
		}
		b.ReportMetric(heap()-base, "heap-MB")
		runtime.KeepAlive(snap)
	})
	b.Run("working-tree-and-ten-releases", func(b *testing.B) {
		base := heap()
		var (
			snap *docs.Snapshot
			set  *versions.Set
		)
		for range b.N {
			snap = workingTree(b)
			set = releases(b, snap)
		}
		b.ReportMetric(heap()-base, "heap-MB")
		runtime.KeepAlive(snap)
		runtime.KeepAlive(set)
	})
	snap := workingTree(b)
	b.Run("search-working-tree", func(b *testing.B) { find(b, snap) })
	latest := releases(b, snap).List()[0]
	b.Run("search-latest-release", func(b *testing.B) { find(b, latest.Docs) })
}

var benchTags = flag.Int("releases.tags", 1000, "release tags of BenchmarkManyTags (docs/server/benchmarks.md runs it at 5000)")

// BenchmarkManyTags loads a repository of many release tags (-releases.tags,
// each on a commit of its own that edits one of 20 docs) from nothing to
// every release loaded and indexed, and their histories walked, as
// --versions 'v*' does at start without a working tree; served-s is the
// time a client waits for the oldest to be served (the histories are
// walked after).
func BenchmarkManyTags(b *testing.B) {
	r := mcptest.NewGitRepo(b)
	name := func(i int) string { return fmt.Sprintf("v1.%d.%d", i/100, i%100) }
	r.ReleaseTags(*benchTags, 20, name)
	repo, err := gitdocs.Open(r.Dir)
	if err != nil {
		b.Fatal(err)
	}
	defer repo.Close()
	sel, _ := gitdocs.ParseSelector("v*")
	var served time.Duration
	for b.Loop() {
		set := versions.New(versions.Config{Repo: repo, Selector: sel, DocsDir: "docs"})
		began := time.Now()
		refreshed := make(chan error, 1)
		go func() { refreshed <- set.Refresh(context.Background()) }()
		if _, err := set.Wait(context.Background(), name(0)); err != nil {
			b.Fatal(err)
		}
		served += time.Since(began)
		if err := <-refreshed; err != nil {
			b.Fatal(err)
		}
		rs := set.List()
		if len(rs) != *benchTags {
			b.Fatalf("%d releases loaded, want %d", len(rs), *benchTags)
		}
		for _, r := range rs {
			if err := search.Await(context.Background(), r.Docs); err != nil {
				b.Fatal(err)
			}
		}
	}
	b.ReportMetric(float64(b.Elapsed().Milliseconds())/float64(b.N)/float64(*benchTags), "ms/tag")
	b.ReportMetric(served.Seconds()/float64(b.N), "served-s")
}

// BenchmarkManyTagsPoll is a reading of the tags that finds them as they
// were (every 2 s while the server runs): what an idle server pays.
func BenchmarkManyTagsPoll(b *testing.B) {
	r := mcptest.NewGitRepo(b)
	r.ReleaseTags(*benchTags, 20, func(i int) string { return fmt.Sprintf("v1.%d.%d", i/100, i%100) })
	repo, err := gitdocs.Open(r.Dir)
	if err != nil {
		b.Fatal(err)
	}
	defer repo.Close()
	sel, _ := gitdocs.ParseSelector("v*")
	set := versions.New(versions.Config{Repo: repo, Selector: sel, DocsDir: "docs"})
	if err := set.Refresh(context.Background()); err != nil {
		b.Fatal(err)
	}
	for b.Loop() {
		if err := set.Refresh(context.Background()); err != nil {
			b.Fatal(err)
		}
	}
}
