package wiki

import (
	"encoding/json"
	"fmt"
	"os"
	"path"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/docs-mcp/docs-mcp/mcp-server/mcptest"
	"github.com/google/go-cmp/cmp"
)

// indexedPage is a page's excerpt data in the search index.
type indexedPage struct {
	Title    string   `json:"title"`
	URL      string   `json:"url"`
	Path     string   `json:"path"`
	Lines    []string `json:"lines"`
	Headings []struct {
		ID    string `json:"id"`
		Title string `json:"title"`
	} `json:"headings"`
}

// indexReader reads a search index the way search.js does: get fetches a
// file by its path under search-index/.
type indexReader struct {
	get func(rel string) ([]byte, error)
	man searchManifestData
}

func openIndex(get func(rel string) ([]byte, error)) (*indexReader, error) {
	b, err := get(searchManifest)
	if err != nil {
		return nil, err
	}
	r := &indexReader{get: get}
	if err := json.Unmarshal(b, &r.man); err != nil {
		return nil, fmt.Errorf("manifest: %w", err)
	}
	if r.man.Version != searchIndexVersion || len(r.man.Shards) == 0 || r.man.Shards[0] != "" || len(r.man.ShardFiles) != len(r.man.Shards) {
		return nil, fmt.Errorf("manifest: %s", b)
	}
	return r, nil
}

// dirIndex reads the index of a site written to dir.
func dirIndex(t *testing.T, dir string) *indexReader {
	t.Helper()
	r, err := openIndex(func(rel string) ([]byte, error) {
		return os.ReadFile(filepath.Join(dir, searchDir, filepath.FromSlash(rel)))
	})
	if err != nil {
		t.Fatalf("search index: %v", err)
	}
	return r
}

func (r *indexReader) page(id int) (indexedPage, error) {
	var p indexedPage
	rel, err := r.pageFile(id)
	if err != nil {
		return p, err
	}
	b, err := r.get(rel)
	if err == nil {
		err = json.Unmarshal(b, &p)
	}
	return p, err
}

// pageFile is the path of page id's excerpt from the index's folder, as its
// page table names it.
func (r *indexReader) pageFile(id int) (string, error) {
	if id < 0 || id >= r.man.Pages || r.man.PageTable <= 0 || id/r.man.PageTable >= len(r.man.PageTables) {
		return "", fmt.Errorf("page %d: not in the manifest's page tables", id)
	}
	b, err := r.get(path.Join(searchTables, r.man.PageTables[id/r.man.PageTable]+".json"))
	if err != nil {
		return "", err
	}
	var names []string
	if err := json.Unmarshal(b, &names); err != nil {
		return "", fmt.Errorf("page table %d: %w", id/r.man.PageTable, err)
	}
	if id%r.man.PageTable >= len(names) {
		return "", fmt.Errorf("page %d: not in its page table", id)
	}
	return path.Join(searchExcerpts, names[id%r.man.PageTable]+".json"), nil
}

// pages reads every page, in ID order.
func (r *indexReader) pages(t *testing.T) []indexedPage {
	t.Helper()
	var out []indexedPage
	for id := range r.man.Pages {
		p, err := r.page(id)
		if err != nil {
			t.Fatalf("search index: page %d: %v", id, err)
		}
		out = append(out, p)
	}
	return out
}

// sectionHit is a term's place in a section, decoded: the page (ID) and
// section, the fields holding the term (placeHeading, ...) and its count
// in the body as BM25 weighs it (0 to placeCount).
type sectionHit struct {
	Page, Sec int
	Fields    uint8
	Count     int
}

// lookup is search.js's: the sections and the pages' fields holding the
// term (every term with it as prefix when prefix is set), and the shards
// read.
func (r *indexReader) lookup(term string, prefix bool) ([]sectionHit, map[int]uint8, []int, error) {
	from := 0
	for i, first := range r.man.Shards {
		if first <= term {
			from = i
		}
	}
	to := from
	if prefix {
		for to+1 < len(r.man.Shards) && strings.HasPrefix(r.man.Shards[to+1], term) {
			to++
		}
	}
	var secs []sectionHit
	fields := map[int]uint8{}
	var read []int
	for i := from; i <= to; i++ {
		s, err := r.shard(i)
		if err != nil {
			return nil, nil, nil, err
		}
		read = append(read, i)
		for ti, t := range s.Terms {
			if t != term && !(prefix && strings.HasPrefix(t, term)) {
				continue
			}
			ps := s.Sections[ti]
			page := 0
			for k := 0; k+1 < len(ps); k += 2 {
				page += int(ps[k])
				v := ps[k+1]
				secs = append(secs, sectionHit{Page: page, Sec: int(v >> placeSecShift), Fields: uint8(v>>placeFieldShift) & 15, Count: int(v & 15)})
			}
			page = 0
			for _, f := range s.Fields[ti] {
				page += int(f >> 2)
				fields[page] |= uint8(f & 3)
			}
		}
	}
	return secs, fields, read, nil
}

// shard reads shard i.
func (r *indexReader) shard(i int) (searchShard, error) {
	var s searchShard
	if i < 0 || i >= len(r.man.ShardFiles) {
		return s, fmt.Errorf("shard %d: not in the manifest", i)
	}
	b, err := r.get(path.Join(searchShards, r.man.ShardFiles[i]+".json"))
	if err != nil {
		return s, err
	}
	if err := json.Unmarshal(b, &s); err != nil {
		return s, fmt.Errorf("shard %d: %w", i, err)
	}
	if !slices.IsSorted(s.Terms) || len(s.Terms) != len(s.Sections) || len(s.Terms) != len(s.Fields) {
		return s, fmt.Errorf("shard %d: terms out of order or without postings", i)
	}
	for ti, ps := range s.Sections {
		if len(ps)%2 != 0 {
			return s, fmt.Errorf("shard %d: %s: an odd number of section postings", i, s.Terms[ti])
		}
	}
	return s, nil
}

// pagesHolding is the pages (IDs) a term is in, in a section or a field.
func (r *indexReader) pagesHolding(t *testing.T, term string) []int {
	t.Helper()
	secs, fields, _, err := r.lookup(term, false)
	if err != nil {
		t.Fatal(err)
	}
	var out []int
	for _, s := range secs {
		out = append(out, s.Page)
	}
	for p := range fields {
		out = append(out, p)
	}
	slices.Sort(out)
	return slices.Compact(out)
}

// pagesJSON is search-pages.json as Hugo writes it.
func pagesJSON(t *testing.T, pages ...map[string]any) []byte {
	t.Helper()
	b, err := json.Marshal(map[string]any{"pages": pages})
	if err != nil {
		t.Fatal(err)
	}
	return b
}

func TestWriteSearchIndex(t *testing.T) {
	site := t.TempDir()
	// Out of path order, as Hugo lists them; the hook reference lists hooks.
	in := pagesJSON(t,
		map[string]any{"title": "Bearer tokens", "url": "/wiki/z/", "path": "docs/zebra.md", "lines": []string{"# Bearer tokens", "They expire after an hour of use, and a new one is issued to the client then.", "## Renewing", "A token is renewed [here](renew/bearer.md).", "```", "## not a heading", "```"}, "headings": []map[string]any{{"id": "bearer-tokens", "level": 1, "title": "Bearer tokens"}, {"id": "renewing", "level": 2, "title": "Renewing"}}},
		map[string]any{"title": "Auth", "url": "/wiki/auth/", "path": "docs/auth.md", "lines": []string{"Above the headings.", "## The bearer token", "text", "### Expiry {#expiry}", "Tokens expire; tokens expire."}, "headings": []map[string]any{{"id": "the-bearer-token", "level": 2, "title": "The bearer token"}, {"id": "expiry", "level": 3, "title": "Expiry"}}},
		map[string]any{"title": "Hooks", "url": "/wiki/hooks/", "path": "framework/mod_hooks.json", "hooks": []map[string]any{{"name": "chat.message", "const": "ChatMessage", "summary": "A message was sent."}, {"name": "token.issued", "const": "TokenIssued", "summary": "A bearer token was issued."}}},
		map[string]any{"title": "Other", "url": "/wiki/m/", "path": "docs/middle.md", "lines": []string{"Nothing here."}},
	)
	mcptest.WriteFile(t, filepath.Join(site, searchPagesFile), string(in))
	if _, err := writeSearchIndex(site); err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(filepath.Join(site, searchPagesFile)); !os.IsNotExist(err) {
		t.Errorf("%s left in the site: %v", searchPagesFile, err)
	}
	r := dirIndex(t, site)
	var paths []string
	for _, p := range r.pages(t) {
		paths = append(paths, p.Path)
	}
	// IDs number the pages in path order.
	if diff := cmp.Diff([]string{"docs/auth.md", "docs/middle.md", "docs/zebra.md", "framework/mod_hooks.json"}, paths); diff != "" {
		t.Errorf("pages by ID (-want +got):\n%s", diff)
	}
	// Sections: auth.md's text above its first heading (0, an
	// introduction), "The bearer token" (1), "Expiry" (2, under 1);
	// zebra.md's title (1, an introduction: a section follows) and
	// "Renewing" (2); the hook reference's hooks (1, 2).
	for _, tt := range []struct {
		term   string
		secs   []sectionHit // counts left out
		fields map[int]uint8
	}{
		{"bearer", []sectionHit{
			{Page: 0, Sec: 1, Fields: placeHeading}, {Page: 0, Sec: 2, Fields: placeTrail},
			{Page: 2, Sec: 1, Fields: placeIntro}, // the title's heading holds it, weighed as the title
			{Page: 3, Sec: 2},
		}, map[int]uint8{2: fieldTitle}},
		// tokens and token are one word; "token.issued" is one too, and its parts.
		{"token", []sectionHit{
			{Page: 0, Sec: 1, Fields: placeHeading}, {Page: 0, Sec: 2, Fields: placeTrail},
			{Page: 2, Sec: 1, Fields: placeIntro}, {Page: 2, Sec: 2},
			{Page: 3, Sec: 2, Fields: placeHeading | placeHook},
		}, map[int]uint8{2: fieldTitle}},
		{"token.issued", []sectionHit{{Page: 3, Sec: 2, Fields: placeHeading | placeHook}}, map[int]uint8{}},
		{"tokenissued", []sectionHit{{Page: 3, Sec: 2, Fields: placeHeading | placeHook}}, map[int]uint8{}},
		{"abov", []sectionHit{{Page: 0, Sec: 0, Fields: placeIntro}}, map[int]uint8{}},
		// A file name; a word in code is a word of the body, a link's destination is none.
		{"zebra", nil, map[int]uint8{2: fieldFileName}},
		{"heading", []sectionHit{{Page: 0, Sec: 0, Fields: placeIntro}}, map[int]uint8{}},
		{"head", []sectionHit{{Page: 2, Sec: 2}}, map[int]uint8{}}, // "## not a heading", in code
		{"renew", []sectionHit{{Page: 2, Sec: 2, Fields: placeHeading}}, map[int]uint8{}},
		{"renew/bearer.md", nil, map[int]uint8{}},
		// Stop words and an explicit id are no words.
		{"the", nil, map[int]uint8{}},
		{"are", nil, map[int]uint8{}},
		{"#expiry", nil, map[int]uint8{}},
	} {
		secs, fields, _, err := r.lookup(tt.term, false)
		if err != nil {
			t.Fatal(err)
		}
		for i := range secs {
			secs[i].Count = 0
		}
		if diff := cmp.Diff(tt.secs, secs); diff != "" {
			t.Errorf("%s: sections (-want +got):\n%s", tt.term, diff)
		}
		if diff := cmp.Diff(tt.fields, fields); diff != "" {
			t.Errorf("%s: fields (-want +got):\n%s", tt.term, diff)
		}
	}
	// A word said twice in a short section counts for more than once in a
	// longer one (BM25): "expire" in auth.md's Expiry and zebra.md's title
	// section; a word only in a heading counts nothing in the body.
	secs, _, _, err := r.lookup("expir", false)
	if err != nil {
		t.Fatal(err)
	}
	if len(secs) != 2 || secs[0].Page != 0 || secs[1].Page != 2 || secs[0].Count <= secs[1].Count || secs[1].Count == 0 {
		t.Errorf("expir: %+v, want auth.md's Expiry counting for more than zebra.md's title section, both something", secs)
	}
	if secs, _, _, _ := r.lookup("renew", false); len(secs) != 1 || secs[0].Count == 0 {
		t.Errorf("renew: %+v, want a count in the body of Renewing", secs)
	}
	if secs, _, _, _ := r.lookup("token.issued", false); len(secs) != 1 || secs[0].Count != 0 {
		t.Errorf("token.issued: %+v, want a hook's name, no count in its body", secs)
	}
	// Sections holding a word: 3 in auth.md, 2 in zebra.md, 2 hooks, 1 in middle.md.
	if r.man.Sections != 8 {
		t.Errorf("manifest: %d sections, want 8", r.man.Sections)
	}
	got, _, _, err := r.lookup("bea", true)
	if err != nil {
		t.Fatal(err)
	}
	if len(got) != 4 {
		t.Errorf("prefix bea: %+v, want bearer's 4 sections", got)
	}
}

// TestSearchIndexShards checks the dictionary is cut into shards a word
// finds through the manifest, and a prefix through the shards after it.
func TestSearchIndexShards(t *testing.T) {
	site := t.TempDir()
	var pages []map[string]any
	for i := range 300 {
		var lines []string
		for j := range 40 {
			lines = append(lines, fmt.Sprintf("word%05d common", i*40+j))
		}
		pages = append(pages, map[string]any{"title": fmt.Sprintf("Page %d", i), "url": fmt.Sprintf("/wiki/p%d/", i), "path": fmt.Sprintf("docs/p%03d.md", i), "lines": lines})
	}
	mcptest.WriteFile(t, filepath.Join(site, searchPagesFile), string(pagesJSON(t, pages...)))
	if _, err := writeSearchIndex(site); err != nil {
		t.Fatal(err)
	}
	r := dirIndex(t, site)
	if len(r.man.Shards) < 4 {
		t.Fatalf("%d shards for 12,000 words, want several", len(r.man.Shards))
	}
	if !slices.IsSorted(r.man.Shards) {
		t.Errorf("shards out of order: %q", r.man.Shards)
	}
	for _, w := range []string{"word00000", "word06001", "word11999", "common", "page"} {
		secs, fields, read, err := r.lookup(w, false)
		if err != nil {
			t.Fatal(err)
		}
		if len(read) != 1 || len(secs)+len(fields) == 0 {
			t.Errorf("%s: %d sections and %d pages from %d shards, want some from one", w, len(secs), len(fields), len(read))
		}
	}
	if got := r.pagesHolding(t, "word06001"); !slices.Equal(got, []int{150}) {
		t.Errorf("word06001: %v, want page 150 only", got)
	}
	// A prefix spanning shards reads each of them.
	secs, _, read, err := r.lookup("word", true)
	if err != nil {
		t.Fatal(err)
	}
	if len(secs) != 12000 || len(read) < 3 {
		t.Errorf("prefix word: %d sections from %d shards, want 12,000 from several", len(secs), len(read))
	}
}

// TestSearchIndexBadInput: what Hugo wrote is read, never trusted.
func TestSearchIndexBadInput(t *testing.T) {
	for name, in := range map[string]string{
		"not JSON":    "{",
		"no pages":    `{"other":[]}`,
		"cut":         `{"pages":[{"title":"a","path":"docs/a.md"}`,
		"wrong types": `{"pages":[{"title":1}]}`,
	} {
		site := t.TempDir()
		mcptest.WriteFile(t, filepath.Join(site, searchPagesFile), in)
		if _, err := writeSearchIndex(site); err == nil || !strings.Contains(err.Error(), "search index") {
			t.Errorf("%s: err = %v, want a search index error", name, err)
		}
	}
	if _, err := writeSearchIndex(t.TempDir()); err == nil {
		t.Error("no search-pages.json: no error")
	}
}

// indexHolds reports whether a page in the search index of the site in dir
// has a line holding text; false while the site is being replaced.
func indexHolds(dir, text string) bool {
	r, err := openIndex(func(rel string) ([]byte, error) {
		return os.ReadFile(filepath.Join(dir, searchDir, filepath.FromSlash(rel)))
	})
	if err != nil {
		return false
	}
	for id := range r.man.Pages {
		p, err := r.page(id)
		if err != nil {
			return false
		}
		if slices.ContainsFunc(p.Lines, func(l string) bool { return strings.Contains(l, text) }) {
			return true
		}
	}
	return false
}
