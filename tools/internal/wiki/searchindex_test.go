package wiki

import (
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path"
	"path/filepath"
	"slices"
	"strconv"
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
	if r.man.Version != searchIndexVersion || len(r.man.Shards) == 0 || r.man.Shards[0] != "" {
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
	b, err := r.get(path.Join(r.man.Base, "p", strconv.Itoa(id)+".json"))
	if err == nil {
		err = json.Unmarshal(b, &p)
	}
	return p, err
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

// lookup is search.js's: the pages holding the term (every term with it as
// prefix when prefix is set), page ID to the best rank, and the shards read.
func (r *indexReader) lookup(term string, prefix bool) (map[int]int, []int, error) {
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
	out := map[int]int{}
	var read []int
	for i := from; i <= to; i++ {
		b, err := r.get(path.Join(r.man.Base, "t", strconv.Itoa(i)+".json"))
		if err != nil {
			return nil, nil, err
		}
		read = append(read, i)
		var s searchShard
		if err := json.Unmarshal(b, &s); err != nil {
			return nil, nil, fmt.Errorf("shard %d: %w", i, err)
		}
		if !slices.IsSorted(s.Terms) || len(s.Terms) != len(s.Postings) {
			return nil, nil, fmt.Errorf("shard %d: terms out of order or without postings", i)
		}
		for ti, t := range s.Terms {
			if t != term && !(prefix && strings.HasPrefix(t, term)) {
				continue
			}
			id := 0
			for _, v := range s.Postings[ti] {
				id += int(v >> 2)
				if r, ok := out[id]; !ok || int(v&3) < r {
					out[id] = int(v & 3)
				}
			}
		}
	}
	return out, read, nil
}

// query is the pages holding every word of q (split and stemmed as the
// index is), each with its rank: the worst of its words' best.
func (r *indexReader) query(t *testing.T, q string) map[int]int {
	t.Helper()
	var out map[int]int
	for i, term := range searchTerms(q) {
		got, _, err := r.lookup(term, false)
		if err != nil {
			t.Fatal(err)
		}
		if i == 0 {
			out = got
			continue
		}
		for id, rank := range out {
			r, ok := got[id]
			if !ok {
				delete(out, id)
			} else if r > rank {
				out[id] = r
			}
		}
	}
	return out
}

func TestSearchTerms(t *testing.T) {
	for _, tc := range []struct {
		text string
		want []string
	}{
		{"Bearer tokens", []string{"bearer", "token"}},
		{"token bearer", []string{"token", "bearer"}},
		{"libraries, classes and bus stops", []string{"library", "classe", "and", "bus", "stop"}},
		{"mod_search_docs(player.joined)", []string{"mod", "search", "doc", "player", "joined"}},
		{"ΟΔΟΣ odos", []string{"οδοσ", "odo"}},            // the final sigma folded as JavaScript does not
		{"\u212Aelvin", []string{"kelvin"}},               // the Kelvin sign lower-cases to k
		{"日本語のdocs", []string{"日", "本", "語", "の", "doc"}}, // each ideograph and kana a term
		{"x" + strings.Repeat("y", maxTermRunes) + " ok", []string{"ok"}},
		{"", nil},
	} {
		if diff := cmp.Diff(tc.want, searchTerms(tc.text)); diff != "" {
			t.Errorf("searchTerms(%q) (-want +got):\n%s", tc.text, diff)
		}
	}
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
		map[string]any{"title": "Bearer tokens", "url": "/wiki/z/", "path": "docs/z.md", "lines": []string{"# Bearer tokens", "They expire."}, "headings": []map[string]any{{"id": "bearer-tokens", "level": 1, "title": "Bearer tokens"}}},
		map[string]any{"title": "Auth", "url": "/wiki/a/", "path": "docs/a.md", "lines": []string{"## The bearer token", "text"}, "headings": []map[string]any{{"id": "the-bearer-token", "level": 2, "title": "The bearer token"}}},
		map[string]any{"title": "Hooks", "url": "/wiki/hooks/", "path": "framework/mod_hooks.json", "hooks": []map[string]any{{"name": "token.issued", "const": "TokenIssued", "summary": "A bearer token was issued."}}},
		map[string]any{"title": "Other", "url": "/wiki/m/", "path": "docs/m.md", "lines": []string{"Nothing here."}},
	)
	mcptest.WriteFile(t, filepath.Join(site, searchPagesFile), string(in))
	if err := writeSearchIndex(site); err != nil {
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
	if diff := cmp.Diff([]string{"docs/a.md", "docs/m.md", "docs/z.md", "framework/mod_hooks.json"}, paths); diff != "" {
		t.Errorf("pages by ID (-want +got):\n%s", diff)
	}
	// Any order, any plural: each word's best rank, the page's the worst of them.
	want := map[int]int{0: rankHeading, 2: rankTitle, 3: rankLine}
	for _, q := range []string{"bearer token", "token bearer", "bearer tokens", "Tokens BEARER"} {
		if diff := cmp.Diff(want, r.query(t, q)); diff != "" {
			t.Errorf("%q (-want +got):\n%s", q, diff)
		}
	}
	if diff := cmp.Diff(map[int]int{3: rankHook}, r.query(t, "TokenIssued")); diff != "" {
		t.Errorf("a hook's constant (-want +got):\n%s", diff)
	}
	got, _, err := r.lookup("bea", true)
	if err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff(map[int]int{0: rankHeading, 2: rankTitle, 3: rankLine}, got); diff != "" {
		t.Errorf("prefix bea (-want +got):\n%s", diff)
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
	if err := writeSearchIndex(site); err != nil {
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
		got, read, err := r.lookup(w, false)
		if err != nil {
			t.Fatal(err)
		}
		if len(read) != 1 || len(got) == 0 {
			t.Errorf("%s: %d pages from %d shards, want some from one", w, len(got), len(read))
		}
	}
	if got := r.query(t, "word06001"); len(got) != 1 || got[150] != rankLine {
		t.Errorf("word06001: %v, want page 150 only", got)
	}
	// A prefix spanning shards reads each of them.
	got, read, err := r.lookup("word", true)
	if err != nil {
		t.Fatal(err)
	}
	if len(got) != 300 || len(read) < 3 {
		t.Errorf("prefix word: %d pages from %d shards, want 300 from several", len(got), len(read))
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
		if err := writeSearchIndex(site); err == nil || !strings.Contains(err.Error(), "search index") {
			t.Errorf("%s: err = %v, want a search index error", name, err)
		}
	}
	if err := writeSearchIndex(t.TempDir()); err == nil {
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

// TestSearchTermsMatchScript runs search.js's words and stem in Node on
// texts with the traps real docs hold, and checks they split and stem as
// searchTerms does: a query finds only terms the index spells the same way.
func TestSearchTermsMatchScript(t *testing.T) {
	node, err := exec.LookPath("node")
	if err != nil {
		missing(t, "no node on PATH")
	}
	texts := []string{
		"Bearer tokens", "libraries, classes and bus stops", "mod_search_docs(player.joined)",
		"ΟΔΟΣ ΚΑΙ odos", "\u212Aelvin ſtraße STRASSE", "日本語のdocs und Café CAFÉS", "naïve naı̈ve e\u0301s",
		"x" + strings.Repeat("y", maxTermRunes) + " ok", "İstanbul ǅemal", "v1.2.3-rc1 0x1F 42nd", "Σ σς ς", "",
		"emoji 🙂 tokens 𠀋𠀋 ids",
	}
	script := `const src = require("fs").readFileSync(process.argv[1], "utf8");
const from = src.indexOf("  var CJK"), to = src.indexOf("  // A query: its words");
eval(src.slice(from, to));
const texts = JSON.parse(require("fs").readFileSync(0, "utf8"));
process.stdout.write(JSON.stringify(texts.map(t => words(t).map(w => w.term))));`
	in, _ := json.Marshal(texts)
	cmd := exec.Command(node, "-e", script, filepath.Join("site", "assets", "js", "search.js"))
	cmd.Stdin = strings.NewReader(string(in))
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("node: %v", err)
	}
	var got [][]string
	if err := json.Unmarshal(out, &got); err != nil || len(got) != len(texts) {
		t.Fatalf("node printed %q (%v)", out, err)
	}
	for i, text := range texts {
		want := searchTerms(text)
		if want == nil {
			want = []string{}
		}
		if diff := cmp.Diff(want, got[i]); diff != "" {
			t.Errorf("%q: search.js splits it otherwise (-searchTerms +search.js):\n%s", text, diff)
		}
	}
}
