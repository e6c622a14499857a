package corpus

import (
	"context"
	"path/filepath"
	"testing"

	"github.com/docs-mcp/docs-mcp/mcp-server/internal/corpusgen"
	"github.com/docs-mcp/docs-mcp/mcp-server/watch"
)

// BenchmarkStart times a start-up until a search can be answered (the
// first snapshot loaded and its index built) on 40,000 generated small
// docs, without a cache (every doc read, the index built) and from a warm
// cache (one file read, every file's stamp checked, no doc read again, the
// index restored): the in-process share of what a client over stdio waits
// for at the start of each session. searchbench -spawns times the same
// from the spawn of a process.
//
//	go test -run '^$' -bench Start -benchtime 10x ./mcp-server/internal/corpus
func BenchmarkStart(b *testing.B) {
	root := b.TempDir()
	dir := filepath.Join(root, "docs")
	if _, err := corpusgen.Generate(context.Background(), dir, corpusgen.Options{Seed: 1, Files: 40000, Shape: corpusgen.Small}); err != nil {
		b.Fatal(err)
	}
	backdate(b, dir)
	cfg := DefaultConfig()
	cfg.DataRoot, cfg.DocsPath, cfg.Watch = root, dir, watch.Off
	ready := func(b *testing.B, cfg Config) *Corpus {
		c := New(cfg)
		_, built, err := c.load(context.Background())
		if err != nil {
			b.Fatal(err)
		}
		<-built.Done()
		return c
	}
	b.Run("no-cache", func(b *testing.B) {
		for b.Loop() {
			ready(b, cfg)
		}
	})
	cfg.CacheFile = CacheFile(filepath.Join(root, "cache"), dir)
	c := ready(b, cfg)
	c.save()
	b.Run("cache", func(b *testing.B) {
		for b.Loop() {
			ready(b, cfg)
		}
	})
}
