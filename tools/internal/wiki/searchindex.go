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
//	search-index/manifest.json  {"version", "pages", "sections", "avg", "shards": [first term of each shard],
//	                             "shardFiles": [NAME of each shard], "pageTable": 256, "pageTables": [NAME of each table]}
//	search-index/t/NAME.json    a shard: {"terms": [sorted], "sections": [[page delta, place, ...], ...], "fields": [[page delta<<2|fields, ...], ...]}
//	search-index/n/NAME.json    a page table: the NAME of the excerpt of pages ID k*pageTable to (k+1)*pageTable-1, k its place in pageTables
//	search-index/p/NAME.json    a page's excerpt data: the object Hugo wrote for it, as is
//
// Each piece is named by a digest of its own bytes (NAME), and the manifest
// names the shards and the page tables, which name the pages: a cached
// piece is never paired with another build's manifest, and an edit of a doc
// writes its excerpt, its page table, the shards that hold its words (its
// words before the edit and after) and the manifest, nothing else
// (updateSearchIndex). Page IDs number the pages in path order, so ID
// order is the tie-break of the ranking, as it is the server's
// (docs/server/ranking.md).
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
	searchIndexVersion = 3
	// searchPagesFile is every page's search entry in one file, which the
	// wiki command assembles from the pages' entries (lists.go): the input
	// of the index, and what search.js falls back to where there is no
	// manifest.
	searchPagesFile = "search-pages.json"
	// shardBytes bounds a shard's JSON: about 10 KB compressed, so a word
	// costs one small fetch and a prefix a few.
	shardBytes = 24 << 10
	// pageTable is how many pages' excerpt names a page table holds: 256
	// names of 16 hex digits, about 3 KB compressed.
	pageTable = 256
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
	Version  int `json:"version"`
	Pages    int `json:"pages"`    // how many pages there are: IDs 0 to Pages-1
	Sections int `json:"sections"` // how many sections hold a word: what a term's rarity is taken over
	// Avg is the sections' average body, in words, when the index was
	// written whole: an edit's counts are weighed against it (place), so
	// that an edit changes no other page's postings.
	Avg        float64  `json:"avg"`
	Shards     []string `json:"shards"`     // the first term of each shard, in order: shard N holds terms from Shards[N] up to Shards[N+1]
	ShardFiles []string `json:"shardFiles"` // shard N's file: t/NAME.json
	PageTable  int      `json:"pageTable"`  // the pages a page table names
	PageTables []string `json:"pageTables"` // page table K's file: n/NAME.json
}

// The folders of a search index's pieces (see above).
const (
	searchShards   = "t"
	searchTables   = "n"
	searchExcerpts = "p"
)

// pieceName is the name of a piece whose bytes are b: a digest of them.
func pieceName(b []byte) string {
	d := sha256.Sum256(b)
	return hex.EncodeToString(d[:8])
}

// piecePath is the path of a piece of folder dir (searchShards, ...) named
// name, from the index's folder.
func piecePath(dir, name string) string { return filepath.Join(dir, name+".json") }

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
// writeSearchIndex reads or writes there.
func searchIndexFile(name string) bool {
	return name == searchDir || name == searchPagesFile
}

// searchExcerpt reports whether p is the path of a page's excerpt in a
// search index (…/search-index/p/NAME.json).
func searchExcerpt(p string) bool {
	dir := filepath.Dir(p)
	return filepath.Base(dir) == searchExcerpts && filepath.Base(filepath.Dir(dir)) == searchDir
}

// writeSearchIndex reads the Hugo output site/search-pages.json one page at
// a time (it can be tens of megabytes), writes the index under
// site/search-index/ and removes search-pages.json; it returns the index,
// for edits to update. Memory holds the postings (a few bytes per distinct
// word of each page) and the few pages being indexed, never the whole
// file. The pages are read in order, one at a time, and parsed, split into
// terms and staged on every core (readPages).
func writeSearchIndex(site string) (*searchIndex, error) {
	src := filepath.Join(site, searchPagesFile)
	f, err := os.Open(src)
	if err != nil {
		return nil, fmt.Errorf("search index: %w", err)
	}
	defer f.Close()
	dir := filepath.Join(site, searchDir)
	for _, d := range []string{searchShards, searchTables, searchExcerpts} {
		if err := os.MkdirAll(filepath.Join(dir, d), 0o755); err != nil {
			return nil, fmt.Errorf("search index: %w", err)
		}
	}
	ix := newIndexer()
	var names []string // each page's excerpt, by the order of reading
	err = readPages(f, filepath.Join(dir, searchExcerpts), func(n int, path, name string, words pageWords) {
		if n >= len(names) {
			names = append(names, make([]string, n+1-len(names))...)
		}
		names[n] = name
		ix.add(n, path, words)
	})
	if err != nil {
		return nil, fmt.Errorf("search index: %s: %w", searchPagesFile, err)
	}
	f.Close()

	order := ix.pathOrder()
	idx := &searchIndex{
		man: searchManifestData{
			Version: searchIndexVersion, Pages: len(order), Sections: ix.count, Avg: ix.avg(),
			Shards: []string{}, ShardFiles: []string{}, PageTable: pageTable, PageTables: []string{},
		},
		ids:   make(map[string]int, len(order)),
		pages: make([]string, len(order)),
	}
	for id, n := range order {
		idx.ids[ix.paths[n]] = id
		idx.pages[id] = names[n]
	}
	for i, s := range ix.shards(order) {
		name, err := writePiece(dir, searchShards, s)
		if err != nil {
			return nil, fmt.Errorf("search index: %w", err)
		}
		first := s.Terms[0]
		if i == 0 {
			first = ""
		}
		idx.man.Shards = append(idx.man.Shards, first)
		idx.man.ShardFiles = append(idx.man.ShardFiles, name)
	}
	for k := 0; k*pageTable < len(idx.pages); k++ {
		name, err := writePiece(dir, searchTables, idx.pages[k*pageTable:min((k+1)*pageTable, len(idx.pages))])
		if err != nil {
			return nil, fmt.Errorf("search index: %w", err)
		}
		idx.man.PageTables = append(idx.man.PageTables, name)
	}
	b, _ := json.Marshal(idx.man)
	if err := os.WriteFile(filepath.Join(dir, searchManifest), b, 0o644); err != nil {
		return nil, fmt.Errorf("search index: %w", err)
	}
	if err := os.Remove(src); err != nil {
		return nil, fmt.Errorf("search index: %w", err)
	}
	return idx, nil
}

// writePiece writes v as JSON into the folder sub of the index dir, named
// by its bytes, and returns the name. A piece of that name is there
// already with the same bytes: it is left as it is (a reader may be
// reading it).
func writePiece(dir, sub string, v any) (string, error) {
	b, err := json.Marshal(v)
	if err != nil {
		return "", err
	}
	name := pieceName(b)
	file := filepath.Join(dir, piecePath(sub, name))
	if pathExists(file) {
		return name, nil
	}
	return name, os.WriteFile(file, b, 0o644)
}

// readPages reads the pages of r (search-pages.json) in order, numbering
// them from 0; on every core, it parses each page, cuts it into words
// (pageWords) and writes it to excerpts/NAME.json, NAME a digest of its
// bytes, and it calls add with each page's number, path, NAME and words,
// one call at a time, in no particular order.
func readPages(r io.Reader, excerpts string, add func(n int, path, name string, words pageWords)) error {
	type page struct {
		n     int
		path  string
		name  string
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
				name := pieceName(j.raw)
				if err := os.WriteFile(filepath.Join(excerpts, name+".json"), j.raw, 0o644); err != nil {
					return err
				}
				pages <- page{j.n, p.Path, name, wordsOf(p)}
				return nil
			}
		})
	}()
	for p := range pages {
		add(p.n, p.path, p.name, p.words)
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
			out = append(out, searchHeading{line: i, level: len(h[1]), text: terms.Heading(explicitIDRe.ReplaceAllString(h[2], ""))})
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
	pw.postings(uint32(n), func(body int) {
		ix.count++
		ix.words += body
	}, func(t string, p sectionPosting) {
		ix.sections[t] = append(ix.sections[t], p)
	})
}

// postings calls section with the body's length of each section of pw
// that holds a word, then posting with each of its words' postings, as
// page n's: the index's part of the page, a whole build's and an edit's
// (pagePostings) alike.
func (pw pageWords) postings(n uint32, section func(body int), posting func(t string, p sectionPosting)) {
	for sec, s := range pw.sections {
		if len(s.words) == 0 {
			continue
		}
		section(s.body)
		fields := uint8(0)
		if s.intro {
			fields = placeIntro
		}
		for t, wp := range s.words {
			posting(t, sectionPosting{
				n: n, sec: uint32(sec), body: uint16(min(s.body, math.MaxUint16)),
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

// avg is the sections' average body, in words (at least 1).
func (ix *indexer) avg() float64 {
	return max(float64(ix.words)/float64(max(ix.count, 1)), 1)
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
	avg := ix.avg()
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
