package wiki

import (
	"bufio"
	"cmp"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"runtime"
	"slices"
	"strconv"
	"strings"
	"unicode"
	"unicode/utf8"
)

// The search index is written in pieces, the way Pagefind does it, so that
// a search fetches a few kilobytes however large the wiki: search.js reads
// the small manifest first, then only the shards of the term dictionary its
// words fall in, then the excerpt data of the pages it shows.
//
//	search-index/manifest.json        {"version", "base", "pages", "shards": [first term of each shard]}
//	search-index/HASH/t/N.json  shard N: {"terms": [sorted], "postings": [[delta<<2|rank, ...], ...]}
//	search-index/HASH/p/ID.json  page ID's excerpt data: the object Hugo wrote for it, as is
//
// HASH is a digest of the whole index: a page's file and a shard change
// name whenever anything in the index changes, so a cached piece is never
// paired with another build's manifest. Page IDs number the pages in path
// order, so ID order is the tie-break of the ranking, as it was when the
// script sorted one index file by path.
const (
	searchDir          = "search-index"
	searchManifest     = "manifest.json"
	searchIndexVersion = 1
	// searchPagesFile is what Hugo writes (home.searchindex.json): every
	// page's data in one file, the input of the index and, in a live
	// preview (which this package does not post-process), what search.js
	// falls back to.
	searchPagesFile = "search-pages.json"
	// searchStage begins the name of the folder the pages' excerpts are
	// written to (beside searchPagesFile) until the index is complete.
	searchStage = ".search-"
	// shardBytes bounds a shard's JSON: about 10 KB compressed, so a word
	// costs one small fetch and a prefix a few.
	shardBytes = 24 << 10
	// maxTermRunes leaves out longer "words" (hashes, base64, minified
	// code): nobody types them, and they would fill the dictionary.
	maxTermRunes = 40
)

// The ranks of a word in a page, best first, as search.js ranks results: a
// hook's own name, the title, a heading, any other line.
const (
	rankHook = iota
	rankTitle
	rankHeading
	rankLine
)

// searchPage is the part of Hugo's entry for a page that is indexed.
type searchPage struct {
	Title    string `json:"title"`
	Path     string `json:"path"`
	Headings []struct {
		Title string `json:"title"`
	} `json:"headings"`
	Lines []string `json:"lines"`
	Hooks []struct {
		Name        string `json:"name"`
		Const       string `json:"const"`
		Summary     string `json:"summary"`
		Description string `json:"description"`
		Params      []struct {
			Name        string `json:"name"`
			Type        string `json:"type"`
			Description string `json:"description"`
		} `json:"params"`
	} `json:"hooks"`
}

// searchManifestData is search-index/manifest.json.
type searchManifestData struct {
	Version int      `json:"version"`
	Base    string   `json:"base"`   // the folder of this index's shards and pages, relative to the manifest
	Pages   int      `json:"pages"`  // how many pages there are: IDs 0 to Pages-1
	Shards  []string `json:"shards"` // the first term of each shard, in order: shard N holds terms from Shards[N] up to Shards[N+1]
}

// searchShard is one shard file: terms in order, each with its postings,
// page IDs ascending, each posting delta<<2 | rank.
type searchShard struct {
	Terms    []string   `json:"terms"`
	Postings [][]uint32 `json:"postings"`
}

// searchIndexFile says whether name, right under a site's folder, is what
// writeSearchIndex reads, stages or writes there.
func searchIndexFile(name string) bool {
	return name == searchDir || name == searchPagesFile || strings.HasPrefix(name, searchStage)
}

// searchExcerpts is the folder of a search index (search-index/HASH/) that
// holds the pages' excerpts, a file a page (ID.json).
const searchExcerpts = "p"

// searchExcerpt reports whether p is the path of a page's excerpt in a
// search index (…/search-index/HASH/p/ID.json).
func searchExcerpt(p string) bool {
	dir := filepath.Dir(p)
	return filepath.Base(dir) == searchExcerpts && filepath.Base(filepath.Dir(filepath.Dir(dir))) == searchDir
}

// writeSearchIndex reads the Hugo output site/search-pages.json one page at
// a time (it can be tens of megabytes), writes the index under
// site/search-index/ and removes search-pages.json. Memory holds the postings
// (a few bytes per distinct word of each page) and the few pages being
// indexed, never the whole file. The pages are read in order, one at a
// time, and parsed, split into terms and staged on every core (readPages).
func writeSearchIndex(site string) error {
	src := filepath.Join(site, searchPagesFile)
	f, err := os.Open(src)
	if err != nil {
		return fmt.Errorf("search index: %w", err)
	}
	defer f.Close()
	stage, err := os.MkdirTemp(site, searchStage+"*")
	if err != nil {
		return fmt.Errorf("search index: %w", err)
	}
	defer os.RemoveAll(stage)

	ix := newIndexer()
	digest := sha256.New()
	if err := readPages(f, digest, stage, ix.add); err != nil {
		return fmt.Errorf("search index: %s: %w", searchPagesFile, err)
	}
	f.Close()

	order := ix.pathOrder()
	shards := ix.shards(order)
	for _, s := range shards {
		b, _ := json.Marshal(s) // strings and numbers only
		digest.Write(b)
	}
	hash := hex.EncodeToString(digest.Sum(nil))[:16]
	dir := filepath.Join(site, searchDir)
	if err := os.MkdirAll(filepath.Join(dir, hash, "t"), 0o755); err != nil {
		return fmt.Errorf("search index: %w", err)
	}
	pages := filepath.Join(dir, hash, searchExcerpts)
	if err := os.Rename(stage, pages); err != nil {
		return fmt.Errorf("search index: %w", err)
	}
	// The staged files are named by Hugo's order; give each its ID.
	// Renaming through a second name avoids overwriting a page not yet moved.
	for id, n := range order {
		if err := os.Rename(filepath.Join(pages, strconv.Itoa(n)+".json"), filepath.Join(pages, "id"+strconv.Itoa(id))); err != nil {
			return fmt.Errorf("search index: %w", err)
		}
	}
	for id := range order {
		if err := os.Rename(filepath.Join(pages, "id"+strconv.Itoa(id)), filepath.Join(pages, strconv.Itoa(id)+".json")); err != nil {
			return fmt.Errorf("search index: %w", err)
		}
	}
	man := searchManifestData{Version: searchIndexVersion, Base: hash + "/", Pages: len(order), Shards: []string{}}
	for i, s := range shards {
		b, _ := json.Marshal(s)
		if err := os.WriteFile(filepath.Join(dir, hash, "t", strconv.Itoa(i)+".json"), b, 0o644); err != nil {
			return fmt.Errorf("search index: %w", err)
		}
		first := s.Terms[0]
		if i == 0 {
			first = ""
		}
		man.Shards = append(man.Shards, first)
	}
	b, _ := json.Marshal(man)
	if err := os.WriteFile(filepath.Join(dir, searchManifest), b, 0o644); err != nil {
		return fmt.Errorf("search index: %w", err)
	}
	if err := os.Remove(src); err != nil {
		return fmt.Errorf("search index: %w", err)
	}
	return nil
}

// readPages reads the pages of r (search-pages.json) in order, writing each
// page's bytes to digest and numbering them from 0; on every core, it
// parses each page, splits it into terms (pageTerms) and writes it to
// stage/N.json, and it calls add with each page's number, path and terms,
// one call at a time, in no particular order.
func readPages(r io.Reader, digest io.Writer, stage string, add func(n int, path string, terms map[string]int)) error {
	type page struct {
		n     int
		path  string
		terms map[string]int
	}
	type job struct {
		n   int
		raw json.RawMessage
	}
	jobs, pages := make(chan job, runtime.GOMAXPROCS(0)), make(chan page, runtime.GOMAXPROCS(0))
	read, staged := make(chan error, 1), make(chan error, 1)
	go func() {
		defer close(jobs)
		n := 0
		read <- eachSearchPage(r, func(raw json.RawMessage) error {
			digest.Write(raw)
			jobs <- job{n, raw}
			n++
			return nil
		})
	}()
	go func() {
		defer close(pages)
		staged <- onCores(jobs, func() func(job) error {
			return func(j job) error {
				var p searchPage
				if err := json.Unmarshal(j.raw, &p); err != nil {
					return err
				}
				if err := os.WriteFile(filepath.Join(stage, strconv.Itoa(j.n)+".json"), j.raw, 0o644); err != nil {
					return err
				}
				pages <- page{j.n, p.Path, pageTerms(p)}
				return nil
			}
		})
	}()
	for p := range pages {
		add(p.n, p.path, p.terms)
	}
	return errors.Join(<-read, <-staged)
}

// eachSearchPage calls fn with each page object of {"pages":[...]} as it is
// read.
func eachSearchPage(r io.Reader, fn func(json.RawMessage) error) error {
	dec := json.NewDecoder(bufio.NewReaderSize(r, 1<<16))
	want := func(what string, ok func(json.Token) bool) error {
		t, err := dec.Token()
		if err != nil {
			return err
		}
		if !ok(t) {
			return fmt.Errorf("want %s, found %v", what, t)
		}
		return nil
	}
	if err := want("{", func(t json.Token) bool { return t == json.Delim('{') }); err != nil {
		return err
	}
	if err := want(`"pages"`, func(t json.Token) bool { return t == "pages" }); err != nil {
		return err
	}
	if err := want("[", func(t json.Token) bool { return t == json.Delim('[') }); err != nil {
		return err
	}
	for dec.More() {
		var raw json.RawMessage
		if err := dec.Decode(&raw); err != nil {
			return err
		}
		if err := fn(raw); err != nil {
			return err
		}
	}
	return want("]", func(t json.Token) bool { return t == json.Delim(']') })
}

// An indexer collects the postings of pages as they are added.
type indexer struct {
	paths    []string            // by order of adding
	postings map[string][]uint32 // term -> n<<2 | rank, n the order of adding
}

func newIndexer() *indexer { return &indexer{postings: map[string][]uint32{}} }

// add indexes page n, whose path is path and terms terms (pageTerms). Pages
// may come in any order.
func (ix *indexer) add(n int, path string, terms map[string]int) {
	if n >= len(ix.paths) {
		ix.paths = append(ix.paths, make([]string, n+1-len(ix.paths))...)
	}
	ix.paths[n] = path
	for t, r := range terms {
		ix.postings[t] = append(ix.postings[t], uint32(n)<<2|uint32(r))
	}
}

// pageTerms returns the terms of p, each with the best rank it has there.
func pageTerms(p searchPage) map[string]int {
	best := map[string]int{}
	note := func(text string, rank int) {
		for _, t := range searchTerms(text) {
			if r, ok := best[t]; !ok || rank < r {
				best[t] = rank
			}
		}
	}
	note(p.Title, rankTitle)
	for _, h := range p.Headings {
		note(h.Title, rankHeading)
	}
	for _, l := range p.Lines {
		note(l, rankLine)
	}
	for _, h := range p.Hooks {
		note(h.Name, rankHook)
		note(h.Const, rankHook)
		note(h.Summary, rankLine)
		note(h.Description, rankLine)
		for _, pa := range h.Params {
			note(pa.Name+" "+pa.Type+" "+pa.Description, rankLine)
		}
	}
	return best
}

// pathOrder returns the pages' numbers in path order: order[ID] is the
// number of the page given that ID.
func (ix *indexer) pathOrder() []int {
	order := make([]int, len(ix.paths))
	for i := range order {
		order[i] = i
	}
	slices.SortStableFunc(order, func(a, b int) int { return cmp.Compare(ix.paths[a], ix.paths[b]) })
	return order
}

// shards cuts the dictionary, in term order, into shards of about
// shardBytes, the postings renumbered by ID and delta-encoded.
func (ix *indexer) shards(order []int) []searchShard {
	id := make([]uint32, len(order))
	for i, n := range order {
		id[n] = uint32(i)
	}
	terms := make([]string, 0, len(ix.postings))
	for t := range ix.postings {
		terms = append(terms, t)
	}
	slices.Sort(terms)
	var out []searchShard
	var cur searchShard
	size := 0
	for _, t := range terms {
		ps := ix.postings[t]
		for i, p := range ps {
			ps[i] = id[p>>2]<<2 | p&3
		}
		slices.Sort(ps)
		prev := uint32(0)
		for i, p := range ps {
			ps[i] = (p>>2-prev)<<2 | p&3
			prev = p >> 2
		}
		cur.Terms = append(cur.Terms, t)
		cur.Postings = append(cur.Postings, ps)
		size += len(t) + 4 + 3*len(ps)
		if size >= shardBytes {
			out = append(out, cur)
			cur, size = searchShard{}, 0
		}
	}
	if len(cur.Terms) > 0 || len(out) == 0 {
		if cur.Terms == nil {
			cur = searchShard{Terms: []string{""}, Postings: [][]uint32{{}}}
		}
		out = append(out, cur)
	}
	return out
}

// searchTerms splits text into the terms search.js looks up: runs of
// letters and digits, lower-cased (with the final sigma folded, which
// JavaScript lower-cases by context), each ideograph or kana its own term
// (those scripts do not put spaces between words), stemmed by stem.
// search.js must split and stem a query exactly so; the browser tests
// check that it finds what the index holds.
func searchTerms(text string) []string {
	var terms []string
	var word []rune
	flush := func() {
		if len(word) > 0 && len(word) <= maxTermRunes {
			terms = append(terms, stem(string(word)))
		}
		word = word[:0]
	}
	for _, r := range text {
		switch {
		case unicode.In(r, unicode.Han, unicode.Hiragana, unicode.Katakana, unicode.Hangul):
			flush()
			terms = append(terms, string(r))
		case unicode.IsLetter(r) || unicode.IsDigit(r) || unicode.Is(unicode.Mn, r):
			r = unicode.ToLower(r)
			if r == 'ς' {
				r = 'σ'
			}
			word = append(word, r)
		default:
			flush()
		}
	}
	flush()
	return terms
}

// stem removes English plural endings, the "S-stemmer" (Harman, 1991):
// "tokens" and "token", "libraries" and "library", "matches" and "matche"
// meet. Light on purpose: it never merges words that mean different things
// the way a full Porter stemmer can, and it is a few lines in search.js too.
func stem(w string) string {
	if utf8.RuneCountInString(w) < 4 || !strings.HasSuffix(w, "s") {
		return w
	}
	switch {
	case strings.HasSuffix(w, "ies") && !strings.HasSuffix(w, "eies") && !strings.HasSuffix(w, "aies"):
		return w[:len(w)-3] + "y"
	case strings.HasSuffix(w, "es") && !strings.HasSuffix(w, "aes") && !strings.HasSuffix(w, "ees") && !strings.HasSuffix(w, "oes"):
		return w[:len(w)-1]
	case strings.HasSuffix(w, "us") || strings.HasSuffix(w, "ss"):
		return w
	}
	return w[:len(w)-1]
}
