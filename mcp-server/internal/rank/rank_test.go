package rank

import (
	"fmt"
	"io/fs"
	"maps"
	"os"
	"slices"
	"strings"
	"testing"
	"testing/fstest"
	"time"

	"github.com/google/go-cmp/cmp"

	"github.com/docs-mcp/docs-mcp/mcp-server/internal/docs"
	"github.com/docs-mcp/docs-mcp/mcp-server/terms"
)

func TestMetaValues(t *testing.T) {
	text := "---\ntitle: Compiler Error C2065\ndescription: \"An undeclared identifier\"\nms.date: 11/04/2016\nf1_keywords: [\"C2065\"]\nhelpviewer_keywords:\n  - \"C2065\"\n  - undeclared\nauthor: someone\n---\n# Body\n"
	var got []string
	body := metaValues(text, func(_, v string) { got = append(got, strings.TrimSpace(v)) })
	want := []string{"Compiler Error C2065", `"An undeclared identifier"`, `["C2065"]`, "", `"C2065"`, "undeclared"}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("front matter values (-want +got):\n%s", diff)
	}
	if body != 11 {
		t.Errorf("body starts on line %d, want 11", body)
	}
}

// tree loads a snapshot of files (path -> text).
func tree(t testing.TB, files map[string]string) *docs.Snapshot {
	t.Helper()
	fsys := fstest.MapFS{}
	for p, text := range files {
		fsys[p] = &fstest.MapFile{Data: []byte(text)}
	}
	snap, err := docs.LoadFS(t.Context(), fsys, docs.LoadOptions{}, nil, nil)
	if err != nil {
		t.Fatal(err)
	}
	return snap
}

// top ranks question over snap and returns each hit as path#heading.
func top(t *testing.T, snap *docs.Snapshot, question, prefix string, k int) []string {
	t.Helper()
	ix, err := New(snap, nil)
	if err != nil {
		t.Fatal(err)
	}
	var out []string
	for _, h := range ix.Top(Parse(question), prefix, k) {
		name := h.Doc.Path + "#"
		if h.Heading >= 0 {
			name += h.Doc.Headings()[h.Heading].Text
		}
		out = append(out, name)
	}
	return out
}

// TestRules holds each ranking rule of docs/server/ranking.md with a tree
// where only that rule decides.
func TestRules(t *testing.T) {
	filler := strings.Repeat("Some words about other things entirely, to give each section a body.\n", 3)
	for _, tt := range []struct {
		rule     string
		files    map[string]string
		question string
		want     string
	}{{
		rule: "a word in a heading beats the same word in a body",
		files: map[string]string{
			"a.md": "# A\n\n## Setup\n\nThe sessions expire here.\n" + filler,
			"b.md": "# B\n\n## Sessions\n\n" + filler,
		},
		question: "sessions", want: "b.md#Sessions",
	}, {
		rule: "all the words in one section beat some of them, however often",
		files: map[string]string{
			"a.md": "# A\n\n## One\n\nThe cache cache cache cache is warm.\n",
			"b.md": "# B\n\n## Two\n\nThe cache lives in a folder of its own.\n",
		},
		question: "where does the cache folder live", want: "b.md#Two",
	}, {
		rule: "the words of one passage beat the same words scattered over a long section",
		files: map[string]string{
			"a.md": "# A\n\n## Long\n\nThe token is read here.\n\n" + strings.Repeat(filler+"\n", 8) + "A file lies there.\n",
			"b.md": "# B\n\n## Short\n\nThe token file is read at start.\n\n" + filler,
		},
		question: "token file", want: "b.md#Short",
	}, {
		rule: "an exact identifier beats a longer one that holds it",
		files: map[string]string{
			"a.md": "# Errors\n\n## C20650\n\nThe error C20650 is another.\n",
			"b.md": "# Errors\n\n## C2065\n\nThe error C2065 is this one.\n",
		},
		question: "what is C2065", want: "b.md#C2065",
	}, {
		rule: "a code of the question (letters and digits) weighs as an identifier",
		files: map[string]string{
			"a.md": "# A\n\n## Undeclared\n\nundeclared names here.\n",
			"b.md": "# B\n\n## C2065\n\nThe error C2065 here.\n",
		},
		question: "undeclared C2065", want: "b.md#C2065",
	}, {
		rule: "a doc whose keyword list holds a word whole is the page for it",
		files: map[string]string{
			"c2001.md":       "---\ntitle: Compiler error C2001\nf1_keywords: [\"C2001\"]\n---\n# Compiler error C2001\n\n> newline in string literal\n",
			"c2001-c2099.md": "---\ntitle: Compiler errors C2001 through C2099\nf1_keywords: [\"C2029\"]\n---\n# Compiler errors C2001 through C2099\n\n| [Compiler error C2001](c2001.md) | newline in string literal |\n",
		},
		question: "what is C2001", want: "c2001.md",
	}, {
		rule: "an identifier of the question beats its parts apart",
		files: map[string]string{
			"a.md": "# A\n\n## Players\n\nA player joined the game and the player left.\n",
			"b.md": "# B\n\n## Hooks\n\nThe hook player.joined fires.\n",
		},
		question: "player.joined", want: "b.md#Hooks",
	}, {
		rule: "front matter keywords count for the doc's sections",
		files: map[string]string{
			"a.md": "---\ntitle: Linker errors\nhelpviewer_keywords:\n  - LNK2019\n---\n# Linker errors\n\nAn unresolved symbol.\n",
			"b.md": "# Other\n\nNothing about it.\n\nunresolved symbol\n",
		},
		question: "LNK2019 unresolved symbol", want: "a.md#Linker errors",
	}, {
		rule: "a word only the doc's front matter holds counts half in a section's passage",
		files: map[string]string{
			"a.md": "---\ntitle: Tools\ndescription: About the cache.\n---\n# Tools\n\n## Clear\n\nClear removes the entries.\n",
			"b.md": "# Store\n\n## Clear\n\nClear empties the cache.\n",
		},
		question: "clear the cache", want: "b.md#Clear",
	}, {
		rule: "the file name counts for the doc's sections",
		files: map[string]string{
			"a.md":            "# A\n\nThe quota is checked.\n",
			"quota-limits.md": "# Limits\n\nWhat is checked, and when.\n\n## Details\n\nMore.\n",
		},
		question: "quota limits", want: "quota-limits.md",
	}, {
		rule: "link destinations are not words of the line",
		files: map[string]string{
			"a.md": "# Map\n\n- [Start](getting-started/install-guide.md)\n- [More](other.md)\n",
			"b.md": "# Install\n\n## Guide\n\nHow to install: follow this guide.\n",
		},
		question: "install guide", want: "b.md#Guide",
	}, {
		rule: "question words and common words carry no weight",
		files: map[string]string{
			"a.md": "# A\n\n## What\n\nWhat does how do when where which: all of these are here.\n",
			"b.md": "# B\n\n## Reload\n\nThe watcher reloads docs.\n",
		},
		question: "what happens when how which reload", want: "b.md#Reload",
	}, {
		rule: "an identifier no section holds as written counts by its parts, as plain words",
		files: map[string]string{
			"a.md": "# Invalidate\n\n## Invalidate\n\nWhat may invalidate a list, and when to invalidate.\n",
			"b.md": "# Containers\n\n## Erase\n\nThe std vector erase member can invalidate them.\n",
			"c.md": "# Other\n\n## Other\n\nNothing here at all.\n",
			"d.md": "# More\n\n## More\n\nNothing here either.\n",
		},
		question: "std::vector::erase invalidate", want: "b.md#Erase",
	}, {
		rule: "a stop word that is a name (in a code span, an identifier's part) is a word",
		files: map[string]string{
			"other.md":  "# Other\n\n## Vector sizes\n\nThe vector grows at need.\n",
			"vector.md": "# Containers\n\n## `at`\n\nReturns the element at a position.\n\n## `back`\n\nReturns the last element.\n",
		},
		question: "std::vector::at", want: "vector.md#`at`",
	}, {
		rule: "an HTML anchor's attributes are no words of its heading",
		files: map[string]string{
			"a.md": "# A\n\n## <a name=\"setup\"></a> Setup\n\nThe steps.\n",
			"b.md": "# B\n\n## Name\n\nThe steps.\n",
		},
		question: "name", want: "b.md#Name",
	}, {
		rule: "sections of equal score come in path and line order",
		files: map[string]string{
			"b.md": "# B\n\n## X\n\nalpha\n",
			"a.md": "# A\n\n## X\n\nalpha\n\n## Y\n\nalpha\n",
		},
		question: "alpha", want: "a.md#X",
	}} {
		t.Run(tt.rule, func(t *testing.T) {
			got := top(t, tree(t, tt.files), tt.question, "", 3)
			if len(got) == 0 || got[0] != tt.want && !strings.HasPrefix(got[0], tt.want+"#") {
				t.Errorf("%q: got %v, want %s first", tt.question, got, tt.want)
			}
		})
	}
}

func TestTopPrefixAndLimit(t *testing.T) {
	snap := tree(t, map[string]string{
		"a/one.md":    "# One\n\nalpha beta\n",
		"a/two.md":    "# Two\n\nalpha\n",
		"ab/three.md": "# Three\n\nalpha beta gamma\n",
		"b/four.md":   "# Four\n\nalpha beta\n",
	})
	if got, want := top(t, snap, "alpha beta", "a/", 5), []string{"a/one.md#One", "a/two.md#Two"}; !slices.Equal(got, want) {
		t.Errorf("prefix a/: %v, want %v", got, want)
	}
	if got := top(t, snap, "alpha", "", 2); len(got) != 2 {
		t.Errorf("limit 2: %v", got)
	}
	if got := top(t, snap, "alpha", "c/", 5); len(got) != 0 {
		t.Errorf("prefix c/: %v, want none", got)
	}
	if got := top(t, snap, "the of and", "", 5); len(got) != 0 {
		t.Errorf("stop words only: %v, want none", got)
	}
}

// TestHitLines checks what a hit says of its section: the lines it spans,
// the text above the first heading, and its snippet line.
func TestHitLines(t *testing.T) {
	snap := tree(t, map[string]string{
		"a.md": "---\ntitle: T\n---\nIntro about gravel.\n\n# Title\n\nText.\n\nSetext\n------\n\nThe gravel road.\n\n```\n# not a heading, gravel\n```\n",
	})
	ix, err := New(snap, nil)
	if err != nil {
		t.Fatal(err)
	}
	hits := ix.Top(Parse("gravel"), "", 5)
	type got struct {
		Heading, Start, End, Snippet int
	}
	var gots []got
	for _, h := range hits {
		gots = append(gots, got{h.Heading, h.StartLine, h.EndLine, h.SnippetLine})
	}
	slices.SortFunc(gots, func(a, b got) int { return a.Start - b.Start })
	want := []got{{-1, 4, 5, 4}, {1, 10, 17, 13}}
	if diff := cmp.Diff(want, gots); diff != "" {
		t.Errorf("hits for gravel (-want +got):\n%s", diff)
	}
}

// TestReuse checks that an index built over a previous one shares the
// shards whose docs did not change, and answers exactly as one built from
// scratch.
func TestReuse(t *testing.T) {
	files := map[string]string{}
	for i := range 60 {
		files[fmt.Sprintf("d%02d.md", i)] = fmt.Sprintf("# Doc %d\n\n## Part\n\nword%d shared text %s\n", i, i, strings.Repeat("x", 200_000))
	}
	first := tree(t, files)
	ix1, err := New(first, nil)
	if err != nil {
		t.Fatal(err)
	}
	if len(ix1.shards) < 2 {
		t.Fatalf("%d shards; the test wants several", len(ix1.shards))
	}
	files["d59.md"] = "# Doc 59\n\n## Part\n\nword59 changed text\n"
	// The docs that did not change are the same *docs.Doc, as docs.Update
	// and the releases' loader keep them.
	same := func(p string, _ fs.DirEntry) *docs.Doc {
		if d, ok := first.Lookup(p); ok && p != "d59.md" {
			return d
		}
		return nil
	}
	second, err := docs.LoadFS(t.Context(), mapFS(files), docs.LoadOptions{}, first, same)
	if err != nil {
		t.Fatal(err)
	}
	ix2, err := New(second, ix1)
	if err != nil {
		t.Fatal(err)
	}
	reused := 0
	for i, sh := range ix2.shards {
		if i < len(ix1.shards) && &sh.data[0] == &ix1.shards[i].data[0] {
			reused++
		}
	}
	if reused != len(ix1.shards)-1 {
		t.Errorf("%d of %d shards reused after one doc changed, want all but one", reused, len(ix1.shards))
	}
	fresh, err := New(second, nil)
	if err != nil {
		t.Fatal(err)
	}
	for _, q := range []string{"word3 shared", "changed text", "word59"} {
		a, b := ix2.Top(Parse(q), "", 5), fresh.Top(Parse(q), "", 5)
		if diff := cmp.Diff(names(b), names(a)); diff != "" {
			t.Errorf("%q: the reused index answers otherwise than a fresh one (-fresh +reused):\n%s", q, diff)
		}
	}
}

func names(hits []Hit) []string {
	var out []string
	for _, h := range hits {
		out = append(out, fmt.Sprintf("%s %d %.4f", h.Doc.Path, h.Heading, h.Score))
	}
	return out
}

func mapFS(files map[string]string) fstest.MapFS {
	fsys := fstest.MapFS{}
	for _, p := range slices.Sorted(maps.Keys(files)) {
		fsys[p] = &fstest.MapFile{Data: []byte(files[p])}
	}
	return fsys
}

// TestBuildOverItself is the start from a cache that found nothing
// changed: the snapshot served follows itself.
func TestBuildOverItself(t *testing.T) {
	snap := tree(t, map[string]string{"a.md": "# A\n\nalpha\n"})
	done := make(chan *Pending)
	go func() { done <- Build(snap, snap, nil) }()
	select {
	case p := <-done:
		<-p.Done()
		if ix, err := p.Index(); err != nil || len(ix.Top(Parse("alpha"), "", 1)) != 1 {
			t.Fatalf("index %v, %v", ix, err)
		}
	case <-time.After(10 * time.Second):
		t.Fatal("Build(snap, snap) did not return in 10 s: it deadlocks")
	}
}

// TestParseLongIdentifier: an identifier too long to be a word, first in
// a question, once made its parts belong to no word of the question.
func TestParseLongIdentifier(t *testing.T) {
	snap := tree(t, map[string]string{"a.md": "# A\n\nbbb and cc\n"})
	q := Parse(strings.Repeat("a", 70) + ".bbb cc")
	if got, want := q.Words(), []string{"bbb", "cc"}; !slices.Equal(got, want) {
		t.Errorf("words %v, want %v", got, want)
	}
	ix, err := New(snap, nil)
	if err != nil {
		t.Fatal(err)
	}
	if hits := ix.Top(q, "", 3); len(hits) != 1 {
		t.Errorf("%d hits, want 1", len(hits))
	}
}

// TestLineFilter checks that the filter rerank passes lines through never
// drops a line that holds a word: for each line of this repository's docs
// and some hard ones, and each word cut from the line, a filter of that
// word alone lets the line through.
func TestLineFilter(t *testing.T) {
	lines := []string{
		"Cancelled, CANCELLING and cancels", "getElementById ReadDoc2Go", "__init__ _private_", "std::vector<int>::at",
		"policies ties Ties", "\u212Aelvin", "İstanbul", "ÜBER straße", "[link](a/b.md) the label", "C2065 LNK1104",
		"Uses classes, stopped INSTALLED boxes", "fall call calls wishes", "flies Ties replies", "making shaped",
	}
	docsDir := "../../../docs"
	err := fs.WalkDir(os.DirFS(docsDir), ".", func(p string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() || !strings.HasSuffix(p, ".md") {
			return err
		}
		b, err := fs.ReadFile(os.DirFS(docsDir), p)
		lines = append(lines, strings.Split(string(b), "\n")...)
		return err
	})
	if err != nil || len(lines) < 1000 {
		t.Fatalf("%d lines: %v", len(lines), err)
	}
	var buf []byte
	for _, line := range lines {
		terms.Each(terms.Prose(line), &buf, func(w terms.Word) {
			var lf lineFilter
			lf.add(w.Text)
			if !lf.may(line) {
				t.Errorf("%q holds %q, and the filter drops it", line, w.Text)
			}
		})
	}
	var lf lineFilter
	lf.add("cancel")
	for _, line := range []string{"nothing of it here", "you can cell it", "the cancer"} {
		if lf.may(line) {
			t.Errorf("%q holds no word that stems to cancel, and passes the filter", line)
		}
	}
}
