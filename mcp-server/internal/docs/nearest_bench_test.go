package docs

import (
	"context"
	"fmt"
	"testing"

	"github.com/docs-mcp/docs-mcp/mcp-server/internal/corpusgen"
	"github.com/docs-mcp/docs-mcp/mcp-server/mcptest"
)

// nearestSnapshot is a snapshot of the paths of the generated tree of
// 40,000 small docs (seed 1), without their text: all Nearest looks at.
func nearestSnapshot(b *testing.B) *Snapshot {
	b.Helper()
	all := make([]*Doc, 0, 40000)
	for i := range 40000 {
		p, _ := corpusgen.ShapedFile(corpusgen.Small, 1, i)
		all = append(all, &Doc{Path: p})
	}
	return newSnapshot(1, all, nil)
}

// BenchmarkNearest is the nearest-path suggestion of a missing doc on the
// paths of 40,000 small docs: a mistyped path, a path in the wrong folder,
// and one like no path at all.
func BenchmarkNearest(b *testing.B) {
	snap := nearestSnapshot(b)
	real := snap.Docs()[20000].Path
	for _, miss := range []struct{ name, path string }{
		{"typo", real[:len(real)-5] + "x.md"},
		{"wrong_folder", "nowhere/" + real[len(real)-12:]},
		{"unlike", fmt.Sprintf("%0200d.md", 7)},
	} {
		b.Run(miss.name, func(b *testing.B) {
			nearest(b, snap, miss.path) // builds what a snapshot keeps for the next miss
			cpu := mcptest.CPUTime()
			var got []string
			for b.Loop() {
				got = nearest(b, snap, miss.path)
			}
			b.ReportMetric(float64(mcptest.CPUTime()-cpu)/1e6/float64(b.N), "cpu-ms/op")
			if len(got) != 5 {
				b.Fatalf("nearest(%q) = %v, want 5 paths", miss.path, got)
			}
		})
	}
}

// BenchmarkPathIndex builds what Nearest keeps with a snapshot of the
// paths of 40,000 small docs, on its first miss.
func BenchmarkPathIndex(b *testing.B) {
	all := nearestSnapshot(b).Docs()
	var ix *pathIndex
	cpu := mcptest.CPUTime()
	for b.Loop() {
		ix = newPathIndex(all)
	}
	b.ReportMetric(float64(mcptest.CPUTime()-cpu)/1e6/float64(b.N), "cpu-ms/op")
	b.ReportMetric(float64(len(ix.data)+4*(len(ix.byName)+len(ix.starts)+len(ix.counts))), "bytes")
}

func nearest(b *testing.B, s *Snapshot, p string) []string {
	b.Helper()
	return s.Nearest(context.Background(), p, 5)
}
