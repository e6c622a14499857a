package search

import (
	"context"
	"errors"
	"fmt"
	"iter"
	"math/rand/v2"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"unicode"

	"github.com/google/go-cmp/cmp"

	"github.com/docs-mcp/docs-mcp/mcp-server/internal/corpusgen"
	"github.com/docs-mcp/docs-mcp/mcp-server/internal/docs"
	"github.com/docs-mcp/docs-mcp/mcp-server/mcptest"
)

// hit is a Match as a comparable value.
type hit struct {
	Path           string
	Line           int
	Offset, Length int
}

// collect takes up to limit matches (all when limit <= 0), stopping the
// iteration early the way a tool call with a limit does.
func collect(seq func(func(Match) bool), limit int) []hit {
	var out []hit
	for m := range seq {
		out = append(out, hit{m.Doc.Path, m.Line, m.Offset, m.Length})
		if len(out) == limit {
			break
		}
	}
	return out
}

// trickyAlphabet is rich in folding traps: the Kelvin sign folds with k,
// long s with s, final sigma with sigma, ß only with ẞ (not with ss); é is
// also written as e plus a combining accent; CJK has no case.
var trickyAlphabet = []rune("aAkKsSeEzZ \u212A\u017FßẞσςΣéÉ\u0301文档한-_.\tİı")

func randText(rng *rand.Rand, n int) string {
	var b strings.Builder
	for range n {
		b.WriteRune(trickyAlphabet[rng.IntN(len(trickyAlphabet))])
	}
	return b.String()
}

// writeTrickyCorpus writes files made of lines from trickyAlphabet, plus
// the awkward shapes: empty files, CRLF, a BOM, a 54 KB single line, and
// odd names.
func writeTrickyCorpus(t testing.TB, dir string, rng *rand.Rand, files int) {
	t.Helper()
	names := []string{"%.md", "[[.md", "c++.md", "a b.md", "文档.md", "k/Kelvin.md", "s/ſ.md", "deep/a/b/c/d/e/f.md"}
	for i := range files {
		name := fmt.Sprintf("d%d/f%03d.md", i%7, i)
		if i < len(names) {
			name = names[i]
		}
		var b strings.Builder
		nl := "\n"
		switch i % 11 {
		case 3:
			nl = "\r\n"
		case 5:
			b.WriteString("\ufeff")
		}
		lines := rng.IntN(30)
		if i%13 == 4 {
			lines = 0 // an empty file
		}
		for range lines {
			b.WriteString(randText(rng, rng.IntN(40)))
			b.WriteString(nl)
		}
		if i%17 == 9 {
			// One 54 KB line.
			for b.Len() < 54<<10 {
				b.WriteString(randText(rng, 64))
			}
			b.WriteString(nl)
		}
		p := filepath.Join(dir, filepath.FromSlash(name))
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(b.String()), 0o644); err != nil {
			t.Fatal(err)
		}
	}
}

func load(t testing.TB, dir string) *docs.Snapshot {
	t.Helper()
	snap, err := docs.Load(context.Background(), dir, docs.LoadOptions{Generation: 1})
	if err != nil {
		t.Fatal(err)
	}
	return snap
}

// queriesFrom draws queries of every length from the corpus itself (so
// that most of them match), re-cased with fold-equivalent runes, plus
// random ones that mostly do not match.
func queriesFrom(rng *rand.Rand, snap *docs.Snapshot, n int) []string {
	all := snap.Docs()
	var out []string
	for len(out) < n {
		d := all[rng.IntN(len(all))]
		lines := docs.SplitLines(d.Text())
		if len(lines) == 0 || rng.IntN(4) == 0 {
			out = append(out, randText(rng, 1+rng.IntN(6)))
			continue
		}
		line := []rune(lines[rng.IntN(len(lines))])
		if len(line) == 0 {
			continue
		}
		from := rng.IntN(len(line))
		to := min(len(line), from+1+rng.IntN(8))
		q := line[from:to]
		for i, r := range q {
			if rng.IntN(3) == 0 {
				q[i] = unicode.SimpleFold(r)
			}
		}
		out = append(out, string(q))
	}
	return out
}

// termsFrom draws n queries of two to four texts of one to four runes:
// mostly pieces of one line of the corpus (so that many match), one rune
// re-cased now and then, in any order; else pieces of two lines (which
// seldom meet on one line).
func termsFrom(rng *rand.Rand, snap *docs.Snapshot, n int) [][]string {
	all := snap.Docs()
	var out [][]string
	for len(out) < n {
		var lines [][]rune
		for range 1 + rng.IntN(4)/3 {
			ls := docs.SplitLines(all[rng.IntN(len(all))].Text())
			if len(ls) == 0 {
				break
			}
			lines = append(lines, []rune(ls[rng.IntN(len(ls))]))
		}
		if len(lines) == 0 || slices.ContainsFunc(lines, func(l []rune) bool { return len(l) == 0 }) {
			continue
		}
		terms := make([]string, 2+rng.IntN(3))
		for i := range terms {
			line := lines[i%len(lines)]
			from := rng.IntN(len(line))
			piece := slices.Clone(line[from:min(len(line), from+1+rng.IntN(4))])
			if j := rng.IntN(len(piece)); rng.IntN(3) == 0 {
				piece[j] = unicode.SimpleFold(piece[j])
			}
			terms[i] = string(piece)
		}
		rng.Shuffle(len(terms), func(i, j int) { terms[i], terms[j] = terms[j], terms[i] })
		out = append(out, terms)
	}
	return out
}

// allTextsLines is the definition of a query with Also: the lines after
// the position after, in the docs under the prefix, that hold each of its
// texts, each found by its own Matcher; a match spans from the first text
// found in the line to the end of the last.
func allTextsLines(snap *docs.Snapshot, q Query, after Position) []hit {
	ms := []*Matcher{NewMatcher(q.Text, q.CaseSensitive)}
	for _, a := range q.Also {
		ms = append(ms, NewMatcher(a, q.CaseSensitive))
	}
	var out []hit
	for _, d := range snap.Docs() {
		if !strings.HasPrefix(d.Path, q.PathPrefix) || d.Path < after.Path {
			continue
		}
	lines:
		for n, line := range d.Lines() {
			if d.Path == after.Path && n <= after.Line {
				continue
			}
			from, to := len(line), 0
			for _, m := range ms {
				off, length := m.Index(line)
				if off < 0 {
					continue lines
				}
				from, to = min(from, off), max(to, off+length)
			}
			out = append(out, hit{d.Path, n, from, to - from})
		}
	}
	return out
}

// TestScanAlso checks the scan, the definition the index is tested
// against, on queries of several texts: it yields every line that holds
// each text, as each one's Matcher finds it, spanning them all.
func TestScanAlso(t *testing.T) {
	dir := t.TempDir()
	writeTrickyCorpus(t, dir, rand.New(rand.NewPCG(7, 8)), 60)
	snap := load(t, dir)
	rng := rand.New(rand.NewPCG(15, 16))
	all := snap.Docs()
	matched := 0
	for i, terms := range termsFrom(rng, snap, 60) {
		var after Position
		if i%3 == 1 {
			d := all[rng.IntN(len(all))]
			after = Position{Path: d.Path, Line: rng.IntN(d.LineCount() + 2)}
		}
		q := Query{Text: terms[0], Also: terms[1:], CaseSensitive: i%4 == 3, PathPrefix: []string{"", "d1/", "d"}[i%3]}
		want := allTextsLines(snap, q, after)
		if diff := cmp.Diff(want, collect(Matches(snap, q, after), 0)); diff != "" {
			t.Fatalf("query %+q case_sensitive=%v prefix=%q after=%+v (-want +got):\n%s", terms, q.CaseSensitive, q.PathPrefix, after, diff)
		}
		if len(want) > 0 {
			matched++
		}
	}
	if matched < 20 {
		t.Fatalf("%d of 60 queries matched; the test checks little", matched)
	}
	// Where Text is not the first text found in the line, the match
	// spans from the first to the end of the last.
	q := Query{Text: "ſs", Also: []string{"k"}}
	want := allTextsLines(snap, q, Position{})
	if !slices.ContainsFunc(want, func(h hit) bool { return h.Length > 2 }) {
		t.Fatalf("no match of %+v spans both texts: %v", q, want)
	}
	if diff := cmp.Diff(want, collect(Matches(snap, q, Position{}), 0)); diff != "" {
		t.Errorf("query %+v (-want +got):\n%s", q, diff)
	}
}

// TestIndexMatchesScan is the differential test: on generated corpora, for
// queries of every length, both cases, path prefixes, resume positions and
// early exits, the index yields exactly what the scan yields: built in one
// segment, in many small ones, and rebuilt from an older index after
// files were edited, added and removed (reusing the untouched segments).
func TestIndexMatchesScan(t *testing.T) {
	tricky := t.TempDir()
	writeTrickyCorpus(t, tricky, rand.New(rand.NewPCG(7, 8)), 160)
	realistic := t.TempDir()
	if _, err := corpusgen.Generate(context.Background(), realistic, corpusgen.Options{Seed: 3, Files: 400}); err != nil {
		t.Fatal(err)
	}
	const small = 8 << 10 // bytes of text per segment: many segments
	for _, tc := range []struct {
		name    string
		dir     string
		queries int
	}{
		{"tricky", tricky, queriesToDiff},
		{"realistic", realistic, queriesToDiff},
	} {
		// The subtests are apart (each loads its own snapshot): they run
		// side by side, which halves the package's time under -race, where
		// it was the longest of CI's race run.
		t.Run(tc.name+"/one-segment", func(t *testing.T) {
			t.Parallel()
			snap := load(t, tc.dir)
			ix, err := build(snap, nil, 1<<40)
			if err != nil {
				t.Fatal(err)
			}
			if ix.Stats().Segments != 1 {
				t.Fatalf("%d segments, want 1", ix.Stats().Segments)
			}
			diffAgainstScan(t, snap, ix, tc.queries, tc.name == "realistic")
		})
		t.Run(tc.name+"/segments", func(t *testing.T) {
			t.Parallel()
			snap := load(t, tc.dir)
			ix, err := build(snap, nil, small)
			if err != nil {
				t.Fatal(err)
			}
			if ix.Stats().Segments < 10 {
				t.Fatalf("%d segments, want many", ix.Stats().Segments)
			}
			diffAgainstScan(t, snap, ix, tc.queries, tc.name == "realistic")
		})
		t.Run(tc.name+"/saved", func(t *testing.T) {
			t.Parallel()
			// An index saved and decoded again answers as the one saved.
			snap := load(t, tc.dir)
			ix, err := build(snap, nil, small)
			if err != nil {
				t.Fatal(err)
			}
			back, err := DecodeIndex(ix.AppendBinary(nil), snap)
			if err != nil {
				t.Fatal(err)
			}
			if back.Stats().Postings != ix.Stats().Postings || back.Stats().Bytes != ix.Stats().Bytes || back.Stats().DenseLists != ix.Stats().DenseLists {
				t.Errorf("decoded stats %+v, saved %+v", back.Stats(), ix.Stats())
			}
			diffAgainstScan(t, snap, back, tc.queries, tc.name == "realistic")
		})
	}
	t.Run("reindexed", func(t *testing.T) {
		t.Parallel()
		dir := t.TempDir()
		if _, err := corpusgen.Generate(context.Background(), dir, corpusgen.Options{Seed: 5, Files: 400}); err != nil {
			t.Fatal(err)
		}
		prev := load(t, dir)
		old, err := build(prev, nil, small)
		if err != nil {
			t.Fatal(err)
		}
		// Edit, remove and add files; one folder's worth goes.
		all := prev.Docs()
		for i, d := range all {
			full := filepath.Join(dir, filepath.FromSlash(d.Path))
			var err error
			switch {
			case i%50 == 7:
				err = os.WriteFile(full, []byte("# Edited\n\nNow with kelvinword and ẞtraße.\n"), 0o644)
			case i%60 == 11:
				err = os.Remove(full)
			case i%70 == 13:
				err = os.WriteFile(full+".new.md", []byte("# Added\n\nkelvinword here too.\n"), 0o644)
			}
			if err != nil {
				t.Fatal(err)
			}
		}
		if err := os.RemoveAll(filepath.Join(dir, filepath.Dir(filepath.FromSlash(all[len(all)/2].Path)))); err != nil {
			t.Fatal(err)
		}
		snap, diff, err := docs.Update(context.Background(), prev, dir, docs.Changes{All: true}, docs.LoadOptions{Generation: 2})
		if err != nil {
			t.Fatal(err)
		}
		if len(diff.Added) == 0 || len(diff.Removed) == 0 || len(diff.Changed) == 0 {
			t.Fatalf("the edits made no diff: %+v", diff)
		}
		ix, err := build(snap, old, small)
		if err != nil {
			t.Fatal(err)
		}
		st := ix.Stats()
		if st.ReusedDocs == 0 || st.ReusedDocs >= st.Docs {
			t.Fatalf("reused %d of %d docs: want some but not all", st.ReusedDocs, st.Docs)
		}
		diffAgainstScan(t, snap, ix, queriesToDiff, true)
		if got := collect(ix.Matches(Query{Text: "KELVINWORD"}, Position{}), 0); len(got) < len(diff.Added)+len(diff.Changed)-1 {
			t.Errorf("%d matches for a word of the edited and added docs, want at least %d", len(got), len(diff.Added)+len(diff.Changed)-1)
		}
	})
}

// diffAgainstScan compares ix with the scan on queries drawn from snap.
// queriesToDiff is how many queries diffAgainstScan draws for a tree: 300,
// or 25 under the race detector (.ci/run's race step, where this package's
// differential tests took 20 minutes at a high load, and with 75 still
// 104 s of its longest package): the race run is for the goroutines a
// search and a build start, which every query takes, and the 30 queries of
// several texts diffAgainstScan adds to them.
var queriesToDiff = mcptest.UnderRace(300, 25)

func diffAgainstScan(t *testing.T, snap *docs.Snapshot, ix *Index, n int, stock bool) {
	t.Helper()
	rng := rand.New(rand.NewPCG(11, 12))
	var queries [][]string
	for _, text := range queriesFrom(rng, snap, n) {
		queries = append(queries, []string{text})
	}
	if stock {
		for _, q := range corpusgen.Queries {
			queries = append(queries, []string{q.Text})
		}
	}
	// Queries of several texts (Also), most of them drawn from one line.
	queries = append(queries, termsFrom(rand.New(rand.NewPCG(13, 14)), snap, max(n/4, 30))...)
	all := snap.Docs()
	prefixes := []string{""}
	for range 5 {
		p := all[rng.IntN(len(all))].Path
		prefixes = append(prefixes, p[:rng.IntN(len(p)+1)])
	}
	prefixes = append(prefixes, "no-such-folder/")
	checked, nonEmpty, checkedAlso, nonEmptyAlso := 0, 0, 0, 0
	for _, terms := range queries {
		text := terms[0]
		for _, cs := range []bool{false, true} {
			prefix := prefixes[rng.IntN(len(prefixes))]
			var after Position
			switch rng.IntN(4) {
			case 1: // resume inside a doc
				d := all[rng.IntN(len(all))]
				after = Position{Path: d.Path, Line: rng.IntN(d.LineCount() + 2)}
			case 2: // resume after a path that is not in the snapshot
				after = Position{Path: all[rng.IntN(len(all))].Path + "x", Line: 3}
			}
			q := Query{Text: text, CaseSensitive: cs, PathPrefix: prefix, Also: terms[1:]}
			for _, limit := range []int{0, 1, 20} {
				want := collect(Matches(snap, q, after), limit)
				got := collect(ix.Matches(q, after), limit)
				if diff := cmp.Diff(want, got); diff != "" {
					t.Fatalf("query %+q case_sensitive=%v prefix=%q after=%+v limit=%d: index differs from scan (-want +got):\n%s",
						terms, cs, prefix, after, limit, diff)
				}
				checked++
				if len(want) > 0 {
					nonEmpty++
				}
				if len(q.Also) > 0 {
					checkedAlso++
					if len(want) > 0 {
						nonEmptyAlso++
					}
				}
			}
		}
	}
	// The test means something only if many queries matched.
	if nonEmpty-nonEmptyAlso < (checked-checkedAlso)/4 || nonEmptyAlso < checkedAlso/8 {
		t.Fatalf("only %d of %d comparisons had matches, %d of the %d of several texts; the query generator is broken", nonEmpty, checked, nonEmptyAlso, checkedAlso)
	}
	t.Logf("%d comparisons, %d with matches (of several texts: %d, %d); index %+v", checked, nonEmpty, checkedAlso, nonEmptyAlso, ix.Stats())
}

// TestIndexEdgeQueries covers queries the generator may miss.
func TestIndexEdgeQueries(t *testing.T) {
	dir := t.TempDir()
	files := map[string]string{
		"a.md":        "Kelvin: 300 \u212A\nclaſs\nΟΔΟΣ οδος\nstraße STRASSE\nCafe\u0301 café\n",
		"b/crlf.md":   "line one\r\nKELVIN k\r\n\r\nlast",
		"b/empty.md":  "",
		"c/long.md":   strings.Repeat("abc ", 54<<8) + "needle\n",
		"c/文档.md":     "这是文档。\n文\n",
		"d/single.md": "x",
	}
	mcptest.WriteTree(t, dir, files)
	snap := load(t, dir)
	ix, err := NewIndex(snap)
	if err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		query string
		cs    bool
		want  []hit
	}{
		{"k", false, []hit{{"a.md", 1, 0, 1}, {"b/crlf.md", 2, 0, 1}}}, // one match per line: the first
		{"\u212A", false, []hit{{"a.md", 1, 0, 1}, {"b/crlf.md", 2, 0, 1}}},
		{"\u212A", true, []hit{{"a.md", 1, 12, 3}}},
		{"ss", false, []hit{{"a.md", 2, 3, 3}, {"a.md", 4, 12, 2}}}, // ſs folds to ss; ß does not
		{"S", false, []hit{{"a.md", 2, 3, 2}, {"a.md", 4, 0, 1}, {"b/crlf.md", 4, 2, 1}}},
		{"σ", false, []hit{{"a.md", 3, 6, 2}}},
		{"ς", false, []hit{{"a.md", 3, 6, 2}}},
		{"é", false, []hit{{"a.md", 5, 10, 2}}},
		{"e\u0301", false, []hit{{"a.md", 5, 3, 3}}},
		{"needle", false, []hit{{"c/long.md", 1, 4 * 54 << 8, 6}}},
		{"文", false, []hit{{"c/文档.md", 1, 6, 3}, {"c/文档.md", 2, 0, 3}}},
		{"x", true, []hit{{"d/single.md", 1, 0, 1}}},
		{"last", false, []hit{{"b/crlf.md", 4, 0, 4}}},
		{"\r", false, nil},
		{"\xe6\x96", true, []hit{{"c/文档.md", 1, 6, 2}, {"c/文档.md", 2, 0, 2}}}, // invalid UTF-8 matches inside a rune
	}
	for _, tt := range tests {
		t.Run(fmt.Sprintf("%+q/%v", tt.query, tt.cs), func(t *testing.T) {
			q := Query{Text: tt.query, CaseSensitive: tt.cs}
			if diff := cmp.Diff(tt.want, collect(Matches(snap, q, Position{}), 0)); diff != "" {
				t.Errorf("scan (-want +got):\n%s", diff)
			}
			if diff := cmp.Diff(tt.want, collect(ix.Matches(q, Position{}), 0)); diff != "" {
				t.Errorf("index (-want +got):\n%s", diff)
			}
		})
	}
	// The empty query matches every line, as the scan defines it.
	empty := Query{}
	if diff := cmp.Diff(collect(Matches(snap, empty, Position{}), 0), collect(ix.Matches(empty, Position{}), 0)); diff != "" {
		t.Errorf("empty query (-scan +index):\n%s", diff)
	}
}

// kaCorpus loads n tricky files and returns them with the query "ka" and
// the scan's answer to it, which is not empty.
func kaCorpus(t *testing.T, n int) (*docs.Snapshot, Query, []hit) {
	t.Helper()
	dir := t.TempDir()
	writeTrickyCorpus(t, dir, rand.New(rand.NewPCG(1, 1)), n)
	snap := load(t, dir)
	q := Query{Text: "ka"}
	want := collect(Matches(snap, q, Position{}), 0)
	if len(want) == 0 {
		t.Fatal("the query matched nothing; the test checks nothing")
	}
	return snap, q, want
}

func TestFindWaitsForTheIndex(t *testing.T) {
	snap, q, want := kaCorpus(t, 40)
	// Without an index attached, Find scans: the same answer.
	if diff := cmp.Diff(want, collect(Find(context.Background(), snap, q, Position{}, nil), 0)); diff != "" {
		t.Errorf("Find without an index (-want +got):\n%s", diff)
	}
	if _, ok := docs.Attached(snap, indexKey); ok {
		t.Fatal("Find attached an index: a search must never start a build")
	}
	p := Build(snap, nil)
	// Find waits for the build and answers from the index.
	if diff := cmp.Diff(want, collect(Find(context.Background(), snap, q, Position{}, nil), 0)); diff != "" {
		t.Errorf("Find with the index (-want +got):\n%s", diff)
	}
	if ix, err := p.Index(); ix == nil || err != nil {
		t.Fatalf("Index() = %v, %v after Find", ix, err)
	}
	if Build(snap, nil) != p {
		t.Error("Build built a second index for the same snapshot")
	}
}

// TestMatchesKeepTheirText checks that a match's line, title and section
// stay as the doc reads after the search has decoded other docs into its scratch
// (see scanDoc): every match of a common word is kept, then checked.
func TestMatchesKeepTheirText(t *testing.T) {
	dir := t.TempDir()
	if _, err := corpusgen.Generate(context.Background(), dir, corpusgen.Options{Seed: 4, Files: 300}); err != nil {
		t.Fatal(err)
	}
	snap := load(t, dir)
	ix, err := NewIndex(snap)
	if err != nil {
		t.Fatal(err)
	}
	for name, seq := range map[string]iter.Seq[Match]{
		"index": ix.Matches(Query{Text: "the"}, Position{}),
		"scan":  Matches(snap, Query{Text: "the"}, Position{}),
		"fold":  ix.Matches(Query{Text: "Schlüssel"}, Position{}), // line by line (not wholeText)
	} {
		kept := slices.Collect(seq)
		seen := map[*docs.Doc]bool{}
		for _, m := range kept {
			seen[m.Doc] = true
			text := m.Doc.Text()
			outline, err := docs.OutlineOf(t.Context(), m.Doc.Path, text)
			if err != nil {
				t.Fatal(err)
			}
			trail, anchor := m.Section()
			wantTrail, wantAnchor := outline.Section(m.Line)
			if m.Title() != outline.Title || anchor != wantAnchor || !slices.Equal(trail, wantTrail) {
				t.Fatalf("%s: %s:%d: the match is in %q %v #%s, the doc says %q %v #%s", name, m.Doc.Path, m.Line,
					m.Title(), trail, anchor, outline.Title, wantTrail, wantAnchor)
			}
			if lines := strings.Split(text, "\n"); strings.TrimSuffix(lines[m.Line-1], "\r") != m.Text {
				t.Fatalf("%s: %s:%d: the match's line reads %q, the doc's %q", name, m.Doc.Path, m.Line, m.Text, lines[m.Line-1])
			}
		}
		if len(seen) < 20 {
			t.Fatalf("%s: %d matches in %d docs: too few to tell", name, len(kept), len(seen))
		}
	}
}

// TestFindBudget walks a query page by page with a small text budget, from
// the index and from the scan, and checks that the pages add up to the
// unbounded answer; and that a cancelled search reads nothing.
func TestFindBudget(t *testing.T) {
	snap, q, want := kaCorpus(t, 60)
	for _, indexed := range []bool{false, true} {
		if indexed {
			Build(snap, nil)
		}
		var got []hit
		after, pages := Position{}, 0
		for ; ; pages++ {
			b := Budget{Bytes: 300}
			got = append(got, collect(Find(context.Background(), snap, q, after, &b), 0)...)
			if !b.Stopped {
				break
			}
			if !errors.Is(b.Err, ErrBudgetSpent) {
				t.Fatalf("stopped for %v, want ErrBudgetSpent", b.Err)
			}
			after = b.Resume
		}
		if diff := cmp.Diff(want, got); diff != "" {
			t.Errorf("indexed %v: pages of 300 bytes (-want +got):\n%s", indexed, diff)
		}
		if pages < 3 {
			t.Errorf("indexed %v: %d pages; 300 bytes a page should take more", indexed, pages)
		}
	}

	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	b := Budget{}
	if got := collect(Find(ctx, snap, q, Position{}, &b), 0); len(got) != 0 || !b.Stopped || !errors.Is(b.Err, context.Canceled) || b.read != 0 {
		t.Errorf("cancelled search: %d matches, stopped %v (%v), %d bytes read; want none, stopped for the context, nothing read", len(got), b.Stopped, b.Err, b.read)
	}
}

// TestStackedMatchesScan stacks the indexes of a dozen snapshots that each
// edit, remove and add a few docs spread over the tree (as releases do),
// and compares each with the scan: results in path order, from every
// layer, none from a doc since changed or removed.
func TestStackedMatchesScan(t *testing.T) {
	dir := t.TempDir()
	if _, err := corpusgen.Generate(context.Background(), dir, corpusgen.Options{Seed: 9, Files: 300}); err != nil {
		t.Fatal(err)
	}
	const segBytes = 64 << 10 // about 25 docs a segment: a few dozen segments
	snap := load(t, dir)
	ix, err := stack(snap, nil, segBytes)
	if err != nil {
		t.Fatal(err)
	}
	maxSeen := 0
	for gen := 1; gen <= 2*maxLayers; gen++ {
		for i, d := range snap.Docs() {
			full := filepath.Join(dir, filepath.FromSlash(d.Path))
			var err error
			switch {
			case i%40 == gen:
				err = os.WriteFile(full, fmt.Appendf(nil, "# Edited in %d\n\nNow with kelvinword %d.\n", gen, gen), 0o644)
			case i%97 == gen:
				err = os.Remove(full)
			case i%89 == gen:
				err = os.WriteFile(full+fmt.Sprintf(".new%d.md", gen), []byte("# Added\n\nkelvinword here too.\n"), 0o644)
			}
			if err != nil {
				t.Fatal(err)
			}
		}
		next, diff, err := docs.Update(context.Background(), snap, dir, docs.Changes{All: true}, docs.LoadOptions{Generation: uint64(gen + 1)})
		if err != nil {
			t.Fatal(err)
		}
		if len(diff.Added) == 0 || len(diff.Removed) == 0 || len(diff.Changed) == 0 {
			t.Fatalf("generation %d: the edits made no diff: %+v", gen, diff)
		}
		folds := ix.Stats().Layers == maxLayers
		if ix, err = stack(next, ix, segBytes); err != nil {
			t.Fatal(err)
		}
		snap = next
		st := ix.Stats()
		// The docs added and changed are indexed again, and few others (the
		// live docs of a segment mostly dead); when the layers above the
		// bottom one are folded, theirs too.
		changed, fresh := len(diff.Added)+len(diff.Changed), st.Docs-st.ReusedDocs
		if fresh < changed || !folds && fresh > st.Docs/8 || folds && (fresh == changed || st.ReusedDocs == 0) {
			t.Fatalf("generation %d: %d of %d docs indexed again (fold: %v), %d added or changed", gen, fresh, st.Docs, folds, changed)
		}
		if st.Layers < 2 || st.Layers > maxLayers {
			t.Fatalf("generation %d: %d layers, want 2 to %d", gen, st.Layers, maxLayers)
		}
		maxSeen = max(maxSeen, st.Layers)
		// Under the race detector (10 times slower, where this test took
		// most of the race step), the answers are compared at the first
		// stack, at the folds and at the last: the shapes that differ.
		if !mcptest.Race || gen == 1 || folds || gen == 2*maxLayers {
			diffAgainstScan(t, snap, ix, 60, true)
		}
	}
	if maxSeen != maxLayers {
		t.Errorf("at most %d layers over %d generations, want the fold at %d exercised", maxSeen, 2*maxLayers, maxLayers)
	}

	// A snapshot stacked on its own plain index (a release as committed in
	// the working tree) takes it over whole, and is searched as a plain one.
	flat, err := build(snap, nil, segBytes)
	if err != nil {
		t.Fatal(err)
	}
	same, err := stack(snap, flat, segBytes)
	if err != nil {
		t.Fatal(err)
	}
	if st := same.Stats(); same.layers != nil || len(same.segs) != len(flat.segs) || st.ReusedDocs != st.Docs {
		t.Fatalf("stacked on its own index: %d layers, %d of %d segments, stats %+v; want it plain, every doc reused", len(same.layers), len(same.segs), len(flat.segs), st)
	}
	diffAgainstScan(t, snap, same, 60, true)
}
