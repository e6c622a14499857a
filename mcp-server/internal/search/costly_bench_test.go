package search

import (
	"context"
	"path/filepath"
	"sync"
	"testing"

	"github.com/docs-mcp/docs-mcp/mcp-server/internal/corpusgen"
	"github.com/docs-mcp/docs-mcp/mcp-server/internal/docs"
)

// costliestQuery matches no line, but each of its three-letter pieces is
// in almost every doc: the index cannot narrow it down, so every doc is
// read.
const costliestQuery = "the the the the the the the the"

var smallCorpus = sync.OnceValues(func() (*docs.Snapshot, error) {
	dir := filepath.Join(benchTempDir(), "small40k")
	if _, err := corpusgen.Generate(context.Background(), dir, corpusgen.Options{Seed: 1, Files: 40000, Shape: corpusgen.Small}); err != nil {
		return nil, err
	}
	return docs.Load(context.Background(), dir, docs.LoadOptions{})
})

// BenchmarkCostliestQuery is the costliest search of the generated tree of
// 40,000 small docs: whole, the walk through every candidate doc; call,
// what one call of the tool reads (CallBytes), and how many calls it takes
// to walk them all.
func BenchmarkCostliestQuery(b *testing.B) {
	snap, err := smallCorpus()
	if err != nil {
		b.Fatal(err)
	}
	p := IndexOf(snap) // what Find answers from
	<-p.Done()
	ix, err := p.Index()
	if err != nil {
		b.Fatal(err)
	}
	b.Run("whole", func(b *testing.B) {
		cpu := cpuTime()
		n := 0
		for b.Loop() {
			n = len(collect(ix.Matches(Query{Text: costliestQuery}, Position{}), 0))
		}
		b.ReportMetric(float64(cpuTime()-cpu)/1e6/float64(b.N), "cpu-ms/op")
		b.ReportMetric(float64(n), "matches")
	})
	b.Run("call", func(b *testing.B) {
		cpu := cpuTime()
		calls := 0
		for b.Loop() {
			after := Position{}
			for calls = 1; ; calls++ {
				budget := Budget{Bytes: CallBytes}
				if n := len(collect(Find(context.Background(), snap, Query{Text: costliestQuery}, after, 0, &budget), 0)); n != 0 {
					b.Fatalf("%d matches, want none", n)
				}
				if !budget.Stopped {
					break
				}
				after = budget.Resume
			}
		}
		b.ReportMetric(float64(cpuTime()-cpu)/1e6/float64(b.N*calls), "cpu-ms/op")
		b.ReportMetric(float64(calls), "calls")
	})
}
