package wiki

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/docs-mcp/docs-mcp/mcp-server/mcptest"
	"github.com/docs-mcp/docs-mcp/mcp-server/terms"
	"github.com/docs-mcp/docs-mcp/mcp-server/wikipage"
)

// BenchmarkWatchEdit measures what an author waits for with wiki watch: from
// the write of one line to a doc until the built page on disk holds it
// (ns/op), and until the search index does (index-ms). Each op appends a
// new line; the search index is read as search.js reads it. The tree is WIKI_WATCH_ROOT, which the benchmark edits (give it
// a scratch copy), else a copy of the test fixture; the doc is
// WIKI_WATCH_DOC (a path under docs/), else the tree's first doc that is not
// a folder's page. Hugo's first build is not counted. With WIKI_WATCH_LIST set,
// it logs the files each edit had written into the site.
//
//	WIKI_WATCH_ROOT=/tmp/cpp WIKI_WATCH_DOC=build/reference/eh-exception-handling-model.md \
//	  go test -run '^$' -bench WatchEdit -benchtime 10x -timeout 30m ./tools/internal/wiki/
func BenchmarkWatchEdit(b *testing.B) {
	c := hugoOnce()
	if c.err != nil {
		b.Skipf("Hugo cannot be built or run: %v", c.err)
	}
	root := os.Getenv("WIKI_WATCH_ROOT")
	if root == "" {
		root = b.TempDir()
		if err := os.CopyFS(root, os.DirFS(filepath.Join("testdata", "fixture"))); err != nil {
			b.Fatal(err)
		}
	}
	tree, err := ScanTree(root)
	if err != nil {
		b.Fatal(err)
	}
	doc := os.Getenv("WIKI_WATCH_DOC")
	for _, d := range tree.Docs {
		if doc == "" && !wikipage.IsIndex(d) && tree.folderOf[d] == "" {
			doc = d
		}
	}
	file := filepath.Join(root, "docs", filepath.FromSlash(doc))
	original, err := os.ReadFile(file)
	if err != nil {
		b.Fatal(err)
	}
	b.Cleanup(func() { os.WriteFile(file, original, 0o644) })

	var log mcptest.Buffer
	out := filepath.Join(b.TempDir(), "wiki")
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error, 1)
	go func() { done <- Watch(ctx, Options{Repo: c.repo, Root: root, Progress: &log}, out, 0) }()
	defer func() {
		cancel()
		if err := <-done; err != nil {
			b.Error(err)
		}
	}()
	page := filepath.Join(out, filepath.FromSlash(strings.TrimPrefix(wikipage.Of(doc), "/")), "index.html")
	wait := func(what string, ok func() bool) {
		for deadline := time.Now().Add(30 * time.Minute); !ok(); time.Sleep(5 * time.Millisecond) {
			if time.Now().After(deadline) {
				b.Fatalf("waited 30 minutes for %s; log:\n%s", what, log.String())
			}
		}
	}
	wait("the first build", func() bool { return exists(filepath.Join(out, searchDir, searchManifest)) && exists(page) })

	text := string(original)
	var index time.Duration
	written, rendered := 0, 0
	b.ResetTimer()
	for i := 0; b.Loop(); i++ {
		mark := fmt.Sprintf("Watchmark%dx%d", time.Now().UnixNano(), i)
		text += "\n" + mark + " was written while the wiki is watched.\n"
		start := time.Now()
		if err := os.WriteFile(file, []byte(text), 0o644); err != nil {
			b.Fatal(err)
		}
		wait("the edit in "+page, func() bool { return contains(page, mark) })
		pageAt := time.Since(start)
		b.StopTimer()
		// As search.js finds it: the mark's word through the manifest and
		// its shard, then the excerpt of the page that holds it.
		wait("the edit in the search index", func() bool { return indexFinds(out, mark) })
		index += time.Since(start)
		b.Logf("edit %d: in the page %s after the save, in the search index %s after", i, pageAt.Round(time.Millisecond), time.Since(start).Round(time.Millisecond))
		// What the edit had written into the site: Hugo's outputs (HTML
		// pages), and every file (the search index's pieces too).
		var names []string
		pages := 0
		filepath.WalkDir(out, func(p string, d os.DirEntry, err error) error {
			if err == nil && !d.IsDir() && !strings.HasSuffix(p, ".gz") && !strings.HasSuffix(p, ".br") {
				if fi, err := d.Info(); err == nil && fi.ModTime().After(start) {
					rel, _ := filepath.Rel(out, p)
					names = append(names, rel)
					if strings.HasSuffix(p, ".html") {
						pages++
					}
				}
			}
			return nil
		})
		written += len(names)
		rendered += pages
		if os.Getenv("WIKI_WATCH_LIST") != "" {
			b.Logf("written after edit %d: %d %v", i, len(names), names)
		}
		b.StartTimer()
	}
	// The first build's time and what each edit rebuilt, without the
	// tree's own warnings and broken links (cpp-docs has thousands).
	var lines []string
	for l := range strings.Lines(log.String()) {
		if strings.Contains(l, "built ") || strings.Contains(l, " changed: ") {
			lines = append(lines, strings.TrimRight(l, "\n"))
		}
	}
	b.Log(strings.Join(lines, "\n"))
	b.ReportMetric(float64(rendered)/float64(b.N), "pages/op")
	b.ReportMetric(float64(written)/float64(b.N), "files/op")
	b.ReportMetric(float64(index.Milliseconds())/float64(b.N), "index-ms")
	b.ReportMetric(float64(len(tree.Docs)), "docs")
}

// indexFinds reports whether the search index of the site at out finds
// word (one word, as terms cuts it) in a page whose excerpt holds it, as
// search.js would: the manifest, the word's shard, the page's table and
// excerpt.
func indexFinds(out, word string) bool {
	r, err := openIndex(func(rel string) ([]byte, error) {
		return os.ReadFile(filepath.Join(out, searchDir, filepath.FromSlash(rel)))
	})
	if err != nil {
		return false
	}
	var term string
	var buf []byte
	terms.Each(word, &buf, func(w terms.Word) {
		if term == "" {
			term = strings.Clone(w.Text)
		}
	})
	secs, _, _, err := r.lookup(term, false)
	if err != nil || len(secs) == 0 {
		return false
	}
	p, err := r.page(secs[0].Page)
	return err == nil && slices.ContainsFunc(p.Lines, func(l string) bool { return strings.Contains(l, word) })
}
