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

	"github.com/docs-mcp/docs-mcp/mcp-server/terms"
	"math"
	"path"
	"regexp"
)

// The search index is written in pieces, the way Pagefind does it, so that
// a search fetches a few kilobytes however large the wiki: search.js reads
// the small manifest first, then only the shards of the term dictionary its
// words fall in, then the excerpt data of the pages it shows.
//
//	search-index/manifest.json        {"version", "base", "pages", "sections", "shards": [first term of each shard]}
//	search-index/HASH/t/N.json  shard N: {"terms": [sorted], "sections": [[page delta, place, ...], ...], "fields": [[page delta<<2|fields, ...], ...]}
//	search-index/HASH/p/ID.json  page ID's excerpt data: the object Hugo wrote for it, as is
//
// HASH is a digest of the whole index: a page's file and a shard change
// name whenever anything in the index changes, so a cached piece is never
// paired with another build's manifest. Page IDs number the pages in path
// order, so ID order is the tie-break of the ranking, as it is the
// server's (docs/server/ranking.md).
//
// The terms are the words of package mcp-server/terms, the server's: a
// question and the docs are cut the same way on both sides, and search.js
// carries an exact port of terms.Each (the tests hold it to it). A term's
// postings say, for each section of a page that holds it (section 0 the
// text above the page's first heading, section k the text under its k-th
// heading, as search.js numbers them; on the hook reference, section k is
// the k-th hook), its place there: the section's number, the fields that
// hold it and its count in the body, already saturated and normalised by
// the section's length (BM25), so that search.js scores a section as the
// server's ranking does (BM25F) without the sections' lengths; and, apart,
// the pages whose title or file name hold it.
const (
	searchDir          = "search-index"
	searchManifest     = "manifest.json"
	searchIndexVersion = 2
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
)

// A word's place in a section, a posting's second number: the section's
// number, the fields of the section that hold the word (placeHeading,
// ...) and its count in the body as a share of what a count can weigh
// (BM25's saturation, tf/(k1+tf) with tf normalised by the section's
// length against the average), in sixteenths: section<<8 | fields<<4 |
// count.
const (
	placeHeading = 1 << iota // the section's own heading (a level-1 heading is the page's title)
	placeTrail               // a heading above it, below the title
	placeHook                // a hook's own name or Go constant: the section is the hook's entry
	placeIntro               // the section is its page's introduction: above its first heading, or under its title, with more sections after it

	placeFieldShift = 4
	placeSecShift   = 8
	placeCount      = 15 // the count's largest value: a count of q weighs q/15
)

// A page's fields that hold a word, the low bits of a field posting.
const (
	fieldTitle    = 1 << iota // the page's title
	fieldFileName             // its file name, without the extension
)

// BM25's constants, as the server's (mcp-server/internal/rank): how fast a
// word's count saturates, and how much a long body is normalised.
const (
	bm25K1 = 1.2
	bm25B  = 0.75
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
	Version  int      `json:"version"`
	Base     string   `json:"base"`     // the folder of this index's shards and pages, relative to the manifest
	Pages    int      `json:"pages"`    // how many pages there are: IDs 0 to Pages-1
	Sections int      `json:"sections"` // how many sections hold a word: what a term's rarity is taken over
	Shards   []string `json:"shards"`   // the first term of each shard, in order: shard N holds terms from Shards[N] up to Shards[N+1]
}

// searchShard is one shard file: terms in order, each with its postings,
// pages by ID ascending, each page as its ID's difference from the
// previous posting's: Sections holds pairs (page, place), a page's
// sections in order, Fields one number per page, page<<2 | fields.
type searchShard struct {
	Terms    []string   `json:"terms"`
	Sections [][]uint32 `json:"sections"`
	Fields   [][]uint32 `json:"fields"`
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
	man := searchManifestData{Version: searchIndexVersion, Base: hash + "/", Pages: len(order), Sections: ix.count, Shards: []string{}}
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
// parses each page, cuts it into words (pageWords) and writes it to
// stage/N.json, and it calls add with each page's number, path and words,
// one call at a time, in no particular order.
func readPages(r io.Reader, digest io.Writer, stage string, add func(n int, path string, words pageWords)) error {
	type page struct {
		n     int
		path  string
		words pageWords
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
				pages <- page{j.n, p.Path, wordsOf(p)}
				return nil
			}
		})
	}()
	for p := range pages {
		add(p.n, p.path, p.words)
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

// pageWords is what a page adds to the index: the words of each of its
// sections, and those of its own fields (title, file name).
type pageWords struct {
	sections []sectionWords
	fields   map[string]*uint8 // fieldTitle, fieldFileName
}

// sectionWords are the words of one section: each word's count in the body
// and the fields that hold it (placeHeading, placeTrail, placeHook; a word
// of a heading holds the section whatever its count), the words in its
// body, and whether it is its page's introduction.
type sectionWords struct {
	words map[string]*wordPlace
	body  int
	intro bool
}

type wordPlace struct {
	count  int
	fields uint8
}

// searchHeading is a heading of a page's Markdown as search.js finds it
// (annotate): an ATX heading outside code fences, its line (from 0), level
// and text without an explicit {#id}.
type searchHeading struct {
	line, level int
	text        string
}

var (
	atxHeadingRe = regexp.MustCompile(`^ {0,3}(#{1,6})(?:[ \t]+(.*?))?(?:[ \t]+#+)?[ \t]*$`)
	codeFenceRe  = regexp.MustCompile("^ {0,3}(`{3,}|~{3,})")
	explicitIDRe = regexp.MustCompile(`\s*\{#([^}\s]+)\}\s*$`)
)

// searchHeadings returns the headings of lines, as search.js's annotate
// finds them, so that both number a page's sections alike.
func searchHeadings(lines []string) []searchHeading {
	var out []searchHeading
	fence := byte(0)
	for i, l := range lines {
		if f := codeFenceRe.FindStringSubmatch(l); f != nil {
			switch {
			case fence == 0:
				fence = f[1][0]
			case f[1][0] == fence:
				fence = 0
			}
			continue
		}
		if fence != 0 {
			continue
		}
		if h := atxHeadingRe.FindStringSubmatch(l); h != nil {
			out = append(out, searchHeading{line: i, level: len(h[1]), text: explicitIDRe.ReplaceAllString(h[2], "")})
		}
	}
	return out
}

// wordsOf cuts page p into its sections' words, as ranking.md says: a
// section is a heading's own text, up to the next heading of any level (and
// the text above the first heading); its words are those of its body
// (without link destinations), of its own heading, and of the headings
// above it below the page's title. A level-1 heading is the page's title,
// weighed as the title, not as a heading. On the hook reference, each hook
// is a section: its name and Go constant its heading, its summary,
// description and parameters its body.
func wordsOf(p searchPage) pageWords {
	// A word's text is terms.Each's buffer until its callback returns: a
	// new key is a copy, and a key met before is never assigned again (that
	// would store the buffer as the key).
	var buf []byte
	pw := pageWords{fields: map[string]*uint8{}}
	field := func(text string, f uint8) {
		terms.Each(text, &buf, func(w terms.Word) {
			fs, ok := pw.fields[w.Text]
			if !ok {
				fs = new(uint8)
				pw.fields[strings.Clone(w.Text)] = fs
			}
			*fs |= f
		})
	}
	field(p.Title, fieldTitle)
	field(strings.TrimSuffix(path.Base(p.Path), path.Ext(p.Path)), fieldFileName)

	cur := sectionWords{words: map[string]*wordPlace{}}
	place := func(w string) *wordPlace {
		wp, ok := cur.words[w]
		if !ok {
			wp = &wordPlace{}
			cur.words[strings.Clone(w)] = wp
		}
		return wp
	}
	note := func(text string, fields uint8) {
		terms.Each(terms.Prose(text), &buf, func(w terms.Word) { place(w.Text).fields |= fields })
	}
	body := func(text string) {
		terms.Each(terms.Prose(text), &buf, func(w terms.Word) {
			place(w.Text).count++
			cur.body++
		})
	}
	next := func() {
		pw.sections = append(pw.sections, cur)
		cur = sectionWords{words: map[string]*wordPlace{}}
	}

	if len(p.Hooks) > 0 {
		for _, h := range p.Hooks {
			next()
			note(h.Name, placeHeading|placeHook)
			note(h.Const, placeHeading|placeHook)
			body(h.Summary)
			body(h.Description)
			for _, pa := range h.Params {
				body(pa.Name + " " + pa.Type + " " + pa.Description)
			}
		}
		next()
		return pw
	}
	hs := searchHeadings(p.Lines)
	var trail [7]string // the headings above, by level
	h := 0
	for i, l := range p.Lines {
		if h < len(hs) && hs[h].line == i {
			next()
			hd := hs[h]
			h++
			trail[hd.level] = hd.text
			for lv := hd.level + 1; lv < len(trail); lv++ {
				trail[lv] = ""
			}
			fields := uint8(placeHeading)
			if hd.level == 1 {
				fields = 0
				cur.intro = h < len(hs)
			}
			note(hd.text, fields)
			for lv := 2; lv < hd.level; lv++ {
				note(trail[lv], placeTrail)
			}
			continue
		}
		body(l)
	}
	next()
	pw.sections[0].intro = len(hs) > 0
	return pw
}

// An indexer collects the postings of pages as they are added.
type indexer struct {
	paths    []string // by order of adding
	sections map[string][]sectionPosting
	fields   map[string][]uint32 // n<<2 | fields, n the order of adding
	// The sections that hold a word, and their body words: a term's
	// rarity is taken over the former, a body's length is weighed against
	// their average.
	count int
	words int
}

// sectionPosting is a word in a section while the index is built: page
// (by order of adding), section, count in the body (saturated at 255),
// fields, and the section's body words (saturated).
type sectionPosting struct {
	n, sec uint32
	body   uint16
	count  uint8
	fields uint8
}

func newIndexer() *indexer {
	return &indexer{sections: map[string][]sectionPosting{}, fields: map[string][]uint32{}}
}

// add indexes page n, whose path is path and words pw (wordsOf). Pages may
// come in any order.
func (ix *indexer) add(n int, path string, pw pageWords) {
	if n >= len(ix.paths) {
		ix.paths = append(ix.paths, make([]string, n+1-len(ix.paths))...)
	}
	ix.paths[n] = path
	for t, f := range pw.fields {
		ix.fields[t] = append(ix.fields[t], uint32(n)<<2|uint32(*f))
	}
	for sec, s := range pw.sections {
		if len(s.words) == 0 {
			continue
		}
		ix.count++
		ix.words += s.body
		fields := uint8(0)
		if s.intro {
			fields = placeIntro
		}
		for t, wp := range s.words {
			ix.sections[t] = append(ix.sections[t], sectionPosting{
				n: uint32(n), sec: uint32(sec), body: uint16(min(s.body, math.MaxUint16)),
				count: uint8(min(wp.count, math.MaxUint8)), fields: wp.fields | fields,
			})
		}
	}
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

// place is a section posting's place (see placeHeading): the section, the
// fields and the count in the body as BM25 weighs it, avg being the
// sections' average body.
func place(p sectionPosting, avg float64) uint32 {
	q := 0
	if p.count > 0 {
		tf := float64(p.count) / (1 - bm25B + bm25B*float64(p.body)/avg)
		q = min(max(int(math.Round(tf/(bm25K1+tf)*placeCount)), 1), placeCount)
	}
	return min(p.sec, 1<<24-1)<<placeSecShift | uint32(p.fields)<<placeFieldShift | uint32(q)
}

// shards cuts the dictionary, in term order, into shards of about
// shardBytes, the postings renumbered by ID and delta-encoded.
func (ix *indexer) shards(order []int) []searchShard {
	id := make([]uint32, len(order))
	for i, n := range order {
		id[n] = uint32(i)
	}
	avg := max(float64(ix.words)/float64(max(ix.count, 1)), 1)
	terms := make([]string, 0, len(ix.sections)+len(ix.fields))
	for t := range ix.sections {
		terms = append(terms, t)
	}
	for t := range ix.fields {
		if _, ok := ix.sections[t]; !ok {
			terms = append(terms, t)
		}
	}
	slices.Sort(terms)
	var out []searchShard
	var cur searchShard
	size := 0
	for _, t := range terms {
		ps := ix.sections[t]
		for i := range ps {
			ps[i].n = id[ps[i].n]
		}
		slices.SortFunc(ps, func(a, b sectionPosting) int {
			return cmp.Or(cmp.Compare(a.n, b.n), cmp.Compare(a.sec, b.sec))
		})
		secs := make([]uint32, 0, 2*len(ps))
		prev := uint32(0)
		for _, p := range ps {
			secs = append(secs, p.n-prev, place(p, avg))
			prev = p.n
		}
		fs := ix.fields[t]
		for i, f := range fs {
			fs[i] = id[f>>2]<<2 | f&3
		}
		slices.Sort(fs)
		prev = 0
		for i, f := range fs {
			fs[i] = (f>>2-prev)<<2 | f&3
			prev = f >> 2
		}
		if fs == nil {
			fs = []uint32{}
		}
		cur.Terms = append(cur.Terms, t)
		cur.Sections = append(cur.Sections, secs)
		cur.Fields = append(cur.Fields, fs)
		delete(ix.sections, t)
		delete(ix.fields, t)
		size += len(t) + 8 + 7*len(ps) + 3*len(fs)
		if size >= shardBytes {
			out = append(out, cur)
			cur, size = searchShard{}, 0
		}
	}
	if len(cur.Terms) > 0 || len(out) == 0 {
		if cur.Terms == nil {
			cur = searchShard{Terms: []string{""}, Sections: [][]uint32{{}}, Fields: [][]uint32{{}}}
		}
		out = append(out, cur)
	}
	return out
}
