package docs

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// corpusFiles is the size of the generated corpus of the update benchmarks.
const corpusFiles = 20000

// writeCorpus writes n generated docs, a few KiB each, in 100 folders of
// 10 subfolders. The text is deterministic.
func writeCorpus(b *testing.B, dir string, n int) {
	b.Helper()
	for i := range n {
		p := filepath.Join(dir, fmt.Sprintf("area-%02d", i%100), fmt.Sprintf("topic-%d", i%10), fmt.Sprintf("page-%05d.md", i))
		if i < 1000 {
			if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
				b.Fatal(err)
			}
		}
		var sb strings.Builder
		fmt.Fprintf(&sb, "# Page %d\n\n", i)
		for s := range 8 {
			fmt.Fprintf(&sb, "## Section %d\n\nHook player.joined fires when a player joins world %d; page %d section %d explains filters and events.\n\n", s, i%37, i, s)
		}
		if err := os.WriteFile(p, []byte(sb.String()), 0o644); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkFullLoad reads the whole 20k-file corpus: what a reload without
// incremental updates would cost on every change.
func BenchmarkFullLoad(b *testing.B) {
	dir := b.TempDir()
	writeCorpus(b, dir, corpusFiles)
	ctx := context.Background()
	for b.Loop() {
		if _, err := Load(ctx, dir, LoadOptions{}); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkIncrementalUpdate applies one edited file, as named by a file
// event, to a snapshot of the 20k-file corpus.
func BenchmarkIncrementalUpdate(b *testing.B) {
	benchmarkUpdate(b, func(p string) Changes { return Changes{Paths: []string{p}} })
}

// BenchmarkRescanUpdate applies one edited file found by checking every
// file's size and time: the cost of each poll with --watch poll.
func BenchmarkRescanUpdate(b *testing.B) {
	benchmarkUpdate(b, func(string) Changes { return Changes{All: true} })
}

func benchmarkUpdate(b *testing.B, changes func(path string) Changes) {
	dir := b.TempDir()
	writeCorpus(b, dir, corpusFiles)
	ctx := context.Background()
	snap, err := Load(ctx, dir, LoadOptions{Generation: 1})
	if err != nil {
		b.Fatal(err)
	}
	const rel = "area-42/topic-2/page-00042.md"
	i := 0
	for b.Loop() {
		i++
		if err := os.WriteFile(filepath.Join(dir, rel), fmt.Appendf(nil, "# Page 42\n\nedit %d\n", i), 0o644); err != nil {
			b.Fatal(err)
		}
		next, diff, err := Update(ctx, snap, dir, changes(rel), LoadOptions{Generation: snap.Generation() + 1})
		if err != nil {
			b.Fatal(err)
		}
		if len(diff.Changed) != 1 || len(next.Docs()) != corpusFiles {
			b.Fatalf("update %d: diff %+v, %d docs", i, diff, len(next.Docs()))
		}
		snap = next
	}
}
