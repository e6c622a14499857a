package search

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"

	"github.com/docs-mcp/docs-mcp/mcp-server/internal/corpusgen"
	"github.com/docs-mcp/docs-mcp/mcp-server/internal/docs"
	"github.com/docs-mcp/docs-mcp/mcp-server/mcptest"
)

// Benchmarks run on corpora from corpusgen (seed 1) of these sizes:
//
//	go test -run '^$' -bench . -benchtime 20x ./mcp-server/internal/search
//
// Each corpus is generated on disk once per run of the test binary.
var benchSizes = []int{1000, 20000, 50000}

var (
	benchMu      sync.Mutex
	benchCorpora = map[int]*docs.Snapshot{}
	benchIndexes = map[*docs.Snapshot]*Index{}
	benchDir     string
)

func TestMain(m *testing.M) {
	code := m.Run()
	if benchDir != "" {
		os.RemoveAll(benchDir)
	}
	os.Exit(code)
}

// benchTempDir is the folder of the benchmarks' corpora, removed by
// TestMain.
var benchTempDir = sync.OnceValue(func() string {
	dir, err := os.MkdirTemp("", "search-bench-")
	if err != nil {
		panic(err)
	}
	benchDir = dir
	return dir
})

func benchCorpus(b *testing.B, files int) *docs.Snapshot {
	b.Helper()
	benchMu.Lock()
	defer benchMu.Unlock()
	if s, ok := benchCorpora[files]; ok {
		return s
	}
	dir := filepath.Join(benchTempDir(), fmt.Sprint(files))
	if _, err := corpusgen.Generate(context.Background(), dir, corpusgen.Options{Seed: 1, Files: files}); err != nil {
		b.Fatal(err)
	}
	snap := load(b, dir)
	benchCorpora[files] = snap
	return snap
}

// benchIndex builds snap's index once per run of the test binary.
func benchIndex(b *testing.B, snap *docs.Snapshot) *Index {
	b.Helper()
	benchMu.Lock()
	defer benchMu.Unlock()
	if ix, ok := benchIndexes[snap]; ok {
		return ix
	}
	ix, err := NewIndex(snap)
	if err != nil {
		b.Fatal(err)
	}
	benchIndexes[snap] = ix
	return ix
}

func corpusBytes(snap *docs.Snapshot) int64 {
	var n int64
	for _, d := range snap.Docs() {
		n += d.Size
	}
	return n
}

func BenchmarkIndexBuild(b *testing.B) {
	for _, files := range benchSizes {
		b.Run(fmt.Sprintf("files=%d", files), func(b *testing.B) {
			snap := benchCorpus(b, files)
			b.SetBytes(corpusBytes(snap))
			var ix *Index
			cpu := mcptest.CPUTime()
			for b.Loop() {
				var err error
				if ix, err = NewIndex(snap); err != nil {
					b.Fatal(err)
				}
			}
			b.ReportMetric(float64(mcptest.CPUTime()-cpu)/1e6/float64(b.N), "cpu-ms/op")
			b.ReportMetric(float64(ix.Stats().Bytes)/float64(corpusBytes(snap)), "index-bytes/corpus-byte")
		})
	}
}

// BenchmarkQuery times a search with limit 20, the tool's default, through
// the index and through the scan it replaces.
func BenchmarkQuery(b *testing.B) {
	for _, files := range benchSizes {
		for _, q := range corpusgen.Queries {
			for _, how := range []string{"index", "scan"} {
				name := fmt.Sprintf("files=%d/%s/%s", files, strings.ReplaceAll(q.Kind, " ", "_"), how)
				b.Run(name, func(b *testing.B) {
					snap := benchCorpus(b, files)
					seq := Matches(snap, Query{Text: q.Text}, Position{})
					if how == "index" {
						seq = benchIndex(b, snap).Matches(Query{Text: q.Text}, Position{})
					}
					n := 0
					for b.Loop() {
						n = len(collect(seq, 20))
					}
					b.ReportMetric(float64(n), "matches")
				})
			}
		}
	}
}

// BenchmarkEditToIndexed times what one edited doc costs between the
// watcher's batch and a built index for the new snapshot: re-reading the
// file (docs.Update) and Reindex, which re-indexes only the segment that
// holds it. The full build is BenchmarkIndexBuild.
func BenchmarkEditToIndexed(b *testing.B) {
	for _, files := range benchSizes[:2] {
		b.Run(fmt.Sprintf("files=%d", files), func(b *testing.B) {
			snap := benchCorpus(b, files)
			ix := benchIndex(b, snap)
			dir := filepath.Join(benchDir, fmt.Sprint(files))
			victim := snap.Docs()[len(snap.Docs())/2]
			full := filepath.Join(dir, filepath.FromSlash(victim.Path))
			orig, err := os.ReadFile(full)
			if err != nil {
				b.Fatal(err)
			}
			b.Cleanup(func() { os.WriteFile(full, orig, 0o644) })
			reused, total := 0, 0
			cpu := mcptest.CPUTime()
			i := 0
			for b.Loop() {
				i++
				b.StopTimer()
				edit := append(append([]byte{}, orig...), fmt.Sprintf("\nEdit %d.\n", i)...)
				if err := os.WriteFile(full, edit, 0o644); err != nil {
					b.Fatal(err)
				}
				b.StartTimer()
				next, _, err := docs.Update(context.Background(), snap, dir, docs.Changes{Paths: []string{victim.Path}}, docs.LoadOptions{Generation: snap.Generation() + 1})
				if err != nil {
					b.Fatal(err)
				}
				nix, err := Reindex(next, ix)
				if err != nil {
					b.Fatal(err)
				}
				snap, ix = next, nix
				reused, total = nix.Stats().ReusedDocs, nix.Stats().Docs
			}
			b.ReportMetric(float64(mcptest.CPUTime()-cpu)/1e6/float64(b.N), "cpu-ms/op")
			b.ReportMetric(float64(total-reused), "docs-reindexed")
		})
	}
}
