package rank

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"runtime"
	"sync"
	"testing"

	"github.com/docs-mcp/docs-mcp/mcp-server/internal/corpusgen"
	"github.com/docs-mcp/docs-mcp/mcp-server/internal/docs"
	"github.com/docs-mcp/docs-mcp/mcp-server/mcptest"
)

// The benchmarks rank corpora from corpusgen (seed 1): 40,000 small docs
// (about 1 KB each, 37 MB) and 9,746 large ones (about 4.5 KB each), the
// shapes docs/server/benchmarks.md measures the search on. A tree of your
// own: RANK_BENCH_DOCS=/path/to/docs.
//
//	go test -run '^$' -bench . -benchtime 2000x ./mcp-server/internal/rank

// benchQuestions are phrased as users phrase them, each with the words the
// generated docs are made of.
var benchQuestions = []string{
	"how does my mod react when a player joins?",
	"what does the player.joined hook carry",
	"session timeout configuration",
	"why is my handler never called",
	corpusgen.RareIdentifier,
}

var (
	benchOnce sync.Map // name -> func() (*Index, error)
	benchDir  string
)

func TestMain(m *testing.M) {
	code := m.Run()
	if benchDir != "" {
		os.RemoveAll(benchDir)
	}
	os.Exit(code)
}

func benchIndex(b *testing.B, name string, files int, shape corpusgen.Shape) *Index {
	b.Helper()
	f, _ := benchOnce.LoadOrStore(name, sync.OnceValues(func() (*Index, error) {
		dir := os.Getenv("RANK_BENCH_DOCS")
		if dir == "" {
			if benchDir == "" {
				d, err := os.MkdirTemp("", "rank-bench-")
				if err != nil {
					return nil, err
				}
				benchDir = d
			}
			dir = filepath.Join(benchDir, name)
			if _, err := corpusgen.Generate(context.Background(), dir, corpusgen.Options{Seed: 1, Files: files, Shape: shape}); err != nil {
				return nil, err
			}
		}
		snap, err := docs.Load(context.Background(), dir, docs.LoadOptions{})
		if err != nil {
			return nil, err
		}
		return New(snap, nil)
	}))
	ix, err := f.(func() (*Index, error))()
	if err != nil {
		b.Fatal(err)
	}
	return ix
}

var benchTrees = []struct {
	name  string
	files int
	shape corpusgen.Shape
}{
	{"small-40000", 40000, corpusgen.Small},
	{"large-9746", 9746, corpusgen.Large},
}

// BenchmarkTop is a ranked question answered from a built index, the
// sections' texts read for the best of them included, with the process's
// CPU a question (cpu-ns/op).
func BenchmarkTop(b *testing.B) {
	for _, tree := range benchTrees {
		ix := benchIndex(b, tree.name, tree.files, tree.shape)
		for i, q := range benchQuestions {
			b.Run(fmt.Sprintf("%s/q%d", tree.name, i), func(b *testing.B) {
				question := Parse(q)
				b.ReportAllocs()
				cpu := mcptest.CPUTime()
				for b.Loop() {
					if hits := ix.Top(question, "", 5); len(hits) == 0 && i < len(benchQuestions)-1 {
						b.Fatalf("%q: no section", q)
					}
				}
				// The process's CPU a question: on a machine shared with other
				// work, wall time measures the others too.
				b.ReportMetric(float64(mcptest.CPUTime()-cpu)/float64(b.N), "cpu-ns/op")
			})
		}
	}
}

// BenchmarkBuild ranks a whole tree from scratch, and reports the memory
// the index holds against the docs' text.
func BenchmarkBuild(b *testing.B) {
	for _, tree := range benchTrees {
		ix := benchIndex(b, tree.name, tree.files, tree.shape)
		b.Run(tree.name, func(b *testing.B) {
			var text int64
			for _, d := range ix.snap.Docs() {
				text += d.Size
			}
			var last *Index
			for b.Loop() {
				var err error
				if last, err = New(ix.snap, nil); err != nil {
					b.Fatal(err)
				}
			}
			st := last.Stats()
			b.ReportMetric(float64(st.Bytes)/float64(text), "index/text")
			b.ReportMetric(float64(st.Sections), "sections")
			runtime.KeepAlive(last)
		})
	}
}
