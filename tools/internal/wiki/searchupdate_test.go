package wiki

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"github.com/docs-mcp/docs-mcp/mcp-server/mcptest"
)

// TestSearchIndexUpdate: an edit of a page written into the index in place
// (searchIndex.update) gives the index a whole build of the edited pages
// gives, piece for piece, when the edit keeps every section's length (the
// one thing an edit weighs against the whole build's figure, Avg), and
// writes only the page's excerpt, its page table, the shards of its words
// before and after, and the manifest. The pieces the manifest stops naming
// stay a while, for a reader who read it before.
func TestSearchIndexUpdate(t *testing.T) {
	t.Parallel() // waits on Hugo and polls: see TestMain
	var pages []map[string]any
	more := func(i int) string { // words of the page alone, for a dictionary of several shards
		var w []string
		for j := range 8 {
			w = append(w, fmt.Sprintf("k%dx%05d", j, i))
		}
		return strings.Join(w, " ")
	}
	for i := range 600 {
		pages = append(pages, map[string]any{
			"title": fmt.Sprintf("Page %d", i), "url": fmt.Sprintf("/wiki/p%d/", i), "path": fmt.Sprintf("docs/p%03d.md", i),
			"lines": []string{fmt.Sprintf("# Page %d", i), fmt.Sprintf("word%05d common text", i), "## Usage", fmt.Sprintf("usage%05d of it", i), more(i)},
		})
	}
	site := t.TempDir()
	mcptest.WriteFile(t, filepath.Join(site, searchPagesFile), string(pagesJSON(t, pages...)))
	idx, err := writeSearchIndex(site)
	if err != nil {
		t.Fatal(err)
	}
	if len(idx.man.Shards) < 4 || len(idx.man.PageTables) != 3 {
		t.Fatalf("%d shards and %d page tables, want several of each", len(idx.man.Shards), len(idx.man.PageTables))
	}
	before := idx.live()
	entry := func(p map[string]any) []byte {
		b, err := json.Marshal(map[string]any{"llms": nil, "search": p})
		if err != nil {
			t.Fatal(err)
		}
		return b
	}

	// Page 300: a word replaced by a new one, a heading renamed; the same lengths.
	old := entry(pages[300])
	pages[300]["lines"] = []string{"# Page 300", "zebra00300 common text", "## Setup", "usage00300 of it", more(300)}
	start := time.Now()
	if _, err := idx.update(site, []entryChange{{rel: "p300/" + entryFile, old: old, now: entry(pages[300])}}, compressSite); err != nil {
		t.Fatal(err)
	}

	whole := t.TempDir()
	mcptest.WriteFile(t, filepath.Join(whole, searchPagesFile), string(pagesJSON(t, pages...)))
	want, err := writeSearchIndex(whole)
	if err != nil {
		t.Fatal(err)
	}
	// The shards are cut where the build cut them; the rest is the same.
	got := dirIndex(t, site)
	if diff := cmp.Diff(dirIndex(t, whole).postings(t), got.postings(t)); diff != "" {
		t.Errorf("postings after the edit, against a whole build's (-want +got):\n%s", diff)
	}
	w := want.man
	w.Shards, w.ShardFiles = got.man.Shards, got.man.ShardFiles
	if diff := cmp.Diff(w, got.man); diff != "" {
		t.Errorf("manifest after the edit, against a whole build's (-want +got):\n%s", diff)
	}
	for p := range want.live() {
		if strings.HasPrefix(p, searchShards+"/") {
			continue
		}
		if got, want := readOr(filepath.Join(site, searchDir, p)), mcptest.ReadFile(t, filepath.Join(whole, searchDir, p)); got != want {
			t.Errorf("%s after the edit differs from a whole build's", p)
		}
	}
	r := dirIndex(t, site)
	if got := r.pagesHolding(t, "zebra00300"); !slices.Equal(got, []int{300}) {
		t.Errorf("zebra00300 (new): pages %v, want 300", got)
	}
	if got := r.pagesHolding(t, "word00300"); len(got) != 0 {
		t.Errorf("word00300 (gone): pages %v, want none", got)
	}

	// Written: the excerpt, its table, the shards of word, zebra, usage and
	// setup (common, text, of, it and page are in the shards of those or
	// others; each shard holds a word the page had or has), the manifest.
	var written []string
	filepath.WalkDir(filepath.Join(site, searchDir), func(p string, d os.DirEntry, err error) error {
		if err == nil && !d.IsDir() && filepath.Ext(p) == ".json" {
			if fi, err := d.Info(); err == nil && !fi.ModTime().Before(start) {
				rel, _ := filepath.Rel(filepath.Join(site, searchDir), p)
				written = append(written, filepath.ToSlash(rel))
			}
		}
		return nil
	})
	shards := map[int]bool{}
	for _, w := range []string{"word00300", "zebra00300", "usag", "setup", "common", "text", "of", "it", "page", "300", "k0x00300", "k1x00300", "k2x00300", "k3x00300", "k4x00300", "k5x00300", "k6x00300", "k7x00300"} {
		shards[shardOf(idx.man.Shards, w)] = true
	}
	kinds := map[string]int{}
	for _, p := range written {
		kinds[strings.SplitN(p, "/", 2)[0]]++
	}
	if kinds["p"] != 1 || kinds["n"] != 1 || kinds["manifest.json"] != 1 || kinds["t"] == 0 || kinds["t"] > len(shards) {
		t.Errorf("the edit wrote %d files %q, want the excerpt, its table, the manifest and at most %d shards", len(written), written, len(shards))
	}

	// The pieces retired stay until retireAfter has passed, then go.
	for p := range before {
		if !idx.live()[p] && !exists(filepath.Join(site, searchDir, p)) {
			t.Errorf("%s, which the manifest before named, removed at once", p)
		}
	}
	for p := range idx.retired {
		idx.retired[p] = time.Now().Add(-retireAfter)
	}
	idx.retire(filepath.Join(site, searchDir), nil)
	for p := range before {
		if !idx.live()[p] && exists(filepath.Join(site, searchDir, p)) {
			t.Errorf("%s, retired %s ago, still there", p, retireAfter)
		}
	}
	if r := dirIndex(t, site); len(r.pagesHolding(t, "common")) != 600 {
		t.Error("after the retired pieces went, a page is missing")
	}

	// A page that is searched now and was not cannot be written in place.
	if _, err := idx.update(site, []entryChange{{rel: "new/" + entryFile, old: []byte(`{"llms":null,"search":null}`), now: entry(pages[1])}}, compressSite); err != errWholeIndex {
		t.Errorf("a newly searched page: err = %v, want errWholeIndex", err)
	}
}

// postings are the postings of every term of the index, by term: each
// shard's, decoded.
func (r *indexReader) postings(t *testing.T) map[string][2][]uint32 {
	t.Helper()
	out := map[string][2][]uint32{}
	for i := range r.man.Shards {
		s, err := r.shard(i)
		if err != nil {
			t.Fatal(err)
		}
		for j, term := range s.Terms {
			if i > 0 && term < r.man.Shards[i] || i+1 < len(r.man.Shards) && term >= r.man.Shards[i+1] {
				t.Errorf("shard %d holds %q, outside its terms", i, term)
			}
			out[term] = [2][]uint32{s.Sections[j], s.Fields[j]}
		}
	}
	return out
}

// readOr is the file's text, "" when it cannot be read.
func readOr(file string) string {
	b, _ := os.ReadFile(file)
	return string(b)
}
