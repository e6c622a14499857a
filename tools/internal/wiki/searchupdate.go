package wiki

import (
	"bytes"
	"cmp"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"time"
)

// searchIndex is a search index written whole (writeSearchIndex), as edits
// update it (update) in a site.
type searchIndex struct {
	man   searchManifestData
	ids   map[string]int // each page's ID, by its search entry's path
	pages []string       // each page's excerpt name, by ID
	// retired are the pieces (paths from the index's folder) that the
	// manifest no longer names, by when it stopped: removed a while
	// after (retireAfter).
	retired map[string]time.Time
}

// retireAfter is how long a piece stays after the manifest stops naming
// it: a reader who read the manifest before finds the pieces it names for
// that long. After it, a piece missing makes search.js read the new
// manifest for the next query.
const retireAfter = time.Minute

// errWholeIndex says an edit cannot be made to the index in place: a page
// is searched now that was not, or no longer is.
var errWholeIndex = errors.New("the search index is to be written whole")

// update writes into the index in site's search-index/ the pages whose
// entries changed (gather): each one's excerpt, its page table, the
// shards that hold its words before and after, and then the manifest,
// each piece with its compressed copies (compress, the builder's). It
// removes the pieces retired retireAfter ago that no manifest since names.
// A change the index cannot take in place is errWholeIndex.
func (ix *searchIndex) update(site string, changed []entryChange, compress func(dir string, leave func(string) bool) error) (int, error) {
	type edit struct {
		id       int
		old, now searchPage
		raw      []byte
	}
	var edits []edit
	for _, c := range changed {
		if c.rel == listsFile {
			continue
		}
		var old, now pageEntry
		if c.old == nil {
			return 0, errWholeIndex
		}
		if err := errors.Join(json.Unmarshal(c.old, &old), json.Unmarshal(c.now, &now)); err != nil {
			return 0, fmt.Errorf("search index: %s: %w", c.rel, err)
		}
		if bytes.Equal(old.Search, now.Search) {
			continue
		}
		if !old.searched() || !now.searched() {
			return 0, errWholeIndex
		}
		e := edit{raw: now.Search}
		if err := errors.Join(json.Unmarshal(old.Search, &e.old), json.Unmarshal(now.Search, &e.now)); err != nil {
			return 0, fmt.Errorf("search index: %s: %w", c.rel, err)
		}
		id, ok := ix.ids[e.now.Path]
		if !ok || e.old.Path != e.now.Path {
			return 0, errWholeIndex
		}
		e.id = id
		edits = append(edits, e)
	}
	if len(edits) == 0 {
		return 0, nil
	}
	stage, err := os.MkdirTemp(filepath.Dir(site), "."+filepath.Base(site)+"-search-*")
	if err != nil {
		return 0, fmt.Errorf("search index: %w", err)
	}
	defer os.RemoveAll(stage)
	for _, d := range []string{searchShards, searchTables, searchExcerpts} {
		if err := os.MkdirAll(filepath.Join(stage, d), 0o755); err != nil {
			return 0, fmt.Errorf("search index: %w", err)
		}
	}
	dir := filepath.Join(site, searchDir)
	man := ix.man
	man.ShardFiles = slices.Clone(ix.man.ShardFiles)
	man.PageTables = slices.Clone(ix.man.PageTables)
	pages := slices.Clone(ix.pages)

	// The postings of each edited page that differ before and after, by
	// term: the words added or removed, and those whose place changed
	// (a count weighed anew for the section's length, a new heading).
	post := termEdits{}
	for _, e := range edits {
		old, now := pagePostings(e.old, man.Avg), pagePostings(e.now, man.Avg)
		man.Sections += now.sections - old.sections
		for t, p := range now.terms {
			if q, ok := old.terms[t]; !ok || !slices.Equal(p.sections, q.sections) || p.fields != q.fields {
				te := post.of(t)
				te.pages[e.id] = true
				for _, pl := range p.sections {
					te.sections = append(te.sections, [2]uint32{uint32(e.id), pl})
				}
				if p.fields != 0 {
					te.fields = append(te.fields, uint32(e.id)<<2|uint32(p.fields))
				}
			}
		}
		for t := range old.terms {
			if _, ok := now.terms[t]; !ok {
				post.of(t).pages[e.id] = true
			}
		}
		name := pieceName(e.raw)
		if err := os.WriteFile(filepath.Join(stage, piecePath(searchExcerpts, name)), e.raw, 0o644); err != nil {
			return 0, fmt.Errorf("search index: %w", err)
		}
		pages[e.id] = name
	}

	// The shards that hold those terms, rewritten.
	byShard := map[int][]string{}
	for t := range post {
		k := shardOf(man.Shards, t)
		byShard[k] = append(byShard[k], t)
	}
	for k, terms := range byShard {
		var s searchShard
		b, err := os.ReadFile(filepath.Join(dir, piecePath(searchShards, man.ShardFiles[k])))
		if err == nil {
			err = json.Unmarshal(b, &s)
		}
		if err != nil {
			return 0, fmt.Errorf("search index: shard %d: %w", k, err)
		}
		for _, t := range terms {
			s.edit(t, post[t])
		}
		if man.ShardFiles[k], err = writePiece(stage, searchShards, s); err != nil {
			return 0, fmt.Errorf("search index: %w", err)
		}
	}
	tables := map[int]bool{}
	for _, e := range edits {
		tables[e.id/man.PageTable] = true
	}
	for k := range tables {
		if man.PageTables[k], err = writePiece(stage, searchTables, pages[k*man.PageTable:min((k+1)*man.PageTable, len(pages))]); err != nil {
			return 0, fmt.Errorf("search index: %w", err)
		}
	}

	// The pieces, then the manifest that names them.
	if err := compress(stage, nil); err != nil {
		return 0, err
	}
	n, err := moveInto(stage, dir, nil)
	if err != nil {
		return n, err
	}
	b, _ := json.Marshal(man)
	if err := os.WriteFile(filepath.Join(stage, searchManifest), b, 0o644); err != nil {
		return n, fmt.Errorf("search index: %w", err)
	}
	if err := compress(stage, nil); err != nil {
		return n, err
	}
	m, err := moveInto(stage, dir, nil)
	if n += m; err != nil {
		return n, err
	}
	before := ix.live()
	ix.man, ix.pages = man, pages
	ix.retire(dir, before)
	return n, nil
}

// pagePosting is a page's postings of one term: the places of the
// sections holding it, in order, and the page's fields holding it.
type pagePosting struct {
	sections []uint32
	fields   uint8
}

// pageTerms is a page's postings, by term, and its sections that hold a
// word.
type pageTerms struct {
	terms    map[string]*pagePosting
	sections int
}

// pagePostings are p's postings as the index holds them, counts weighed
// against avg.
func pagePostings(p searchPage, avg float64) pageTerms {
	pw := wordsOf(p)
	out := pageTerms{terms: map[string]*pagePosting{}}
	of := func(t string) *pagePosting {
		pp, ok := out.terms[t]
		if !ok {
			pp = &pagePosting{}
			out.terms[t] = pp
		}
		return pp
	}
	pw.postings(0, func(int) { out.sections++ }, func(t string, p sectionPosting) {
		pp := of(t)
		pp.sections = append(pp.sections, place(p, avg))
	})
	for t, f := range pw.fields {
		of(t).fields = *f
	}
	return out
}

// live is the set of pieces the manifest names, by path from the index's
// folder.
func (ix *searchIndex) live() map[string]bool {
	l := make(map[string]bool, len(ix.pages)+len(ix.man.ShardFiles)+len(ix.man.PageTables))
	for _, n := range ix.man.ShardFiles {
		l[piecePath(searchShards, n)] = true
	}
	for _, n := range ix.man.PageTables {
		l[piecePath(searchTables, n)] = true
	}
	for _, n := range ix.pages {
		l[piecePath(searchExcerpts, n)] = true
	}
	return l
}

// retire notes the pieces of before that the manifest no longer names, and
// removes from dir, with their compressed copies, those noted retireAfter
// ago that it does not name again.
func (ix *searchIndex) retire(dir string, before map[string]bool) {
	now, live := time.Now(), ix.live()
	if ix.retired == nil {
		ix.retired = map[string]time.Time{}
	}
	for p := range before {
		if !live[p] {
			if _, ok := ix.retired[p]; !ok {
				ix.retired[p] = now
			}
		}
	}
	for p, since := range ix.retired {
		switch {
		case live[p]:
			delete(ix.retired, p)
		case now.Sub(since) >= retireAfter:
			for _, z := range []string{"", ".gz", ".br"} {
				os.Remove(filepath.Join(dir, p+z))
			}
			delete(ix.retired, p)
		}
	}
}

// replace puts the index written whole in from (a site folder's
// search-index/) into site's: the pieces, then the manifest. The pieces
// the manifest before named and this one does not are retired, as an
// edit's are; so are those of an index before that no manifest names.
func (ix *searchIndex) replace(site, from string, before *searchIndex) error {
	dir := filepath.Join(site, searchDir)
	if _, err := moveInto(from, dir, func(name string) bool {
		return name == searchManifest || name == searchManifest+".gz" || name == searchManifest+".br"
	}); err != nil {
		return err
	}
	if _, err := moveInto(from, dir, nil); err != nil {
		return err
	}
	old := map[string]bool{}
	if before != nil {
		old = before.live()
		ix.retired = before.retired
	}
	// Pieces on disk that neither index names (an earlier generation's).
	for _, sub := range []string{searchShards, searchTables, searchExcerpts} {
		entries, err := os.ReadDir(filepath.Join(dir, sub))
		if err != nil && !errors.Is(err, fs.ErrNotExist) {
			return err
		}
		for _, e := range entries {
			if p := filepath.Join(sub, e.Name()); filepath.Ext(p) == ".json" {
				old[p] = true
			}
		}
	}
	ix.retire(dir, old)
	return nil
}

// termEdit is what the edited pages have of a term: the pages (IDs) that
// held or hold it, and their postings now.
type termEdit struct {
	pages    map[int]bool
	sections [][2]uint32 // (page, place)
	fields   []uint32    // page<<2 | fields
}

type termEdits map[string]*termEdit

func (m termEdits) of(t string) *termEdit {
	te, ok := m[t]
	if !ok {
		te = &termEdit{pages: map[int]bool{}}
		m[t] = te
	}
	return te
}

// shardOf is the shard term t falls in: the last whose first term is not
// after it.
func shardOf(firsts []string, t string) int {
	k, found := slices.BinarySearch(firsts, t)
	if found {
		return k
	}
	return max(k-1, 0)
}

// edit replaces in s the postings of te's pages for term t with te's,
// adding the term or removing it.
func (s *searchShard) edit(t string, te *termEdit) {
	i, found := slices.BinarySearch(s.Terms, t)
	var secs [][2]uint32
	var fields []uint32
	if found {
		prev := uint32(0)
		for j := 0; j+1 < len(s.Sections[i]); j += 2 {
			prev += s.Sections[i][j]
			if !te.pages[int(prev)] {
				secs = append(secs, [2]uint32{prev, s.Sections[i][j+1]})
			}
		}
		prev = 0
		for _, f := range s.Fields[i] {
			prev += f >> 2
			if !te.pages[int(prev)] {
				fields = append(fields, prev<<2|f&3)
			}
		}
	}
	secs = append(secs, te.sections...)
	fields = append(fields, te.fields...)
	if len(secs) == 0 && len(fields) == 0 {
		if found {
			s.Terms = slices.Delete(s.Terms, i, i+1)
			s.Sections = slices.Delete(s.Sections, i, i+1)
			s.Fields = slices.Delete(s.Fields, i, i+1)
		}
		return
	}
	slices.SortFunc(secs, func(a, b [2]uint32) int {
		return cmp.Or(cmp.Compare(a[0], b[0]), cmp.Compare(a[1]>>placeSecShift, b[1]>>placeSecShift))
	})
	slices.Sort(fields)
	encS := make([]uint32, 0, 2*len(secs))
	prev := uint32(0)
	for _, p := range secs {
		encS = append(encS, p[0]-prev, p[1])
		prev = p[0]
	}
	encF := make([]uint32, 0, len(fields))
	prev = 0
	for _, f := range fields {
		encF = append(encF, (f>>2-prev)<<2|f&3)
		prev = f >> 2
	}
	if found {
		s.Sections[i], s.Fields[i] = encS, encF
		return
	}
	s.Terms = slices.Insert(s.Terms, i, t)
	s.Sections = slices.Insert(s.Sections, i, encS)
	s.Fields = slices.Insert(s.Fields, i, encF)
}
