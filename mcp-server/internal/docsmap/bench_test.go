package docsmap

import (
	"context"
	"testing"

	"github.com/docs-mcp/docs-mcp/mcp-server/internal/corpusgen"
	"github.com/docs-mcp/docs-mcp/mcp-server/internal/docs"
)

// BenchmarkMap makes the entries of 2,000 generated docs (what Derive
// does once for a server's first snapshot) and writes their map to the
// default budget (what a change that alters the map costs).
//
//	go test -run '^$' -bench Map -benchmem ./mcp-server/internal/docsmap
func BenchmarkMap(b *testing.B) {
	dir := b.TempDir()
	if _, err := corpusgen.Generate(context.Background(), dir, corpusgen.Options{Seed: 1, Files: 2000}); err != nil {
		b.Fatal(err)
	}
	snap, err := docs.Load(context.Background(), dir, docs.LoadOptions{Generation: 1})
	if err != nil {
		b.Fatal(err)
	}
	b.Run("entries", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			entries(nil, snap)
		}
	})
	es := entries(nil, snap)
	b.Run("render", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			Render(es, nil, DefaultBytes)
		}
	})
}
