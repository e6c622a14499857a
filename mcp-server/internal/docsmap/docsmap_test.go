package docsmap

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/google/go-cmp/cmp/cmpopts"

	"github.com/docs-mcp/docs-mcp/framework/registry"
	"github.com/docs-mcp/docs-mcp/mcp-server/internal/corpusgen"
	"github.com/docs-mcp/docs-mcp/mcp-server/internal/docs"
	"github.com/docs-mcp/docs-mcp/mcp-server/mcptest"
)

// repoMap renders the map of this repository's docs and hooks.
func repoMap(t *testing.T, budget int) (string, *docs.Snapshot) {
	t.Helper()
	snap, err := docs.Load(context.Background(), "../../../docs", docs.LoadOptions{Generation: 1})
	if err != nil {
		t.Fatal(err)
	}
	raw, err := os.ReadFile("../../../framework/mod_hooks.json")
	if err != nil {
		t.Fatal(err)
	}
	reg, problems := registry.Check(raw)
	if len(problems) > 0 {
		t.Fatalf("registry: %v", problems)
	}
	return Render(Of(snap), HooksOf(reg), budget), snap
}

// TestRepoMap: the map of this repository fits the default budget and
// names every doc with its sections and every hook.
func TestRepoMap(t *testing.T) {
	text, snap := repoMap(t, DefaultBytes)
	if len(text) > DefaultBytes {
		t.Errorf("the map is %d bytes, over its budget of %d", len(text), DefaultBytes)
	}
	for _, d := range snap.Docs() {
		if !strings.Contains(text, "- "+d.Path+":") {
			t.Errorf("the map does not name %s with its summary", d.Path)
		}
		o, err := docs.OutlineOf(t.Context(), d.Path, d.Text())
		if err != nil {
			t.Fatal(err)
		}
		for _, s := range o.Sections() {
			if s.Level == 2 && !strings.Contains(text, "#"+s.Anchor) {
				t.Errorf("the map lacks %s#%s", d.Path, s.Anchor)
			}
		}
	}
	if !strings.Contains(text, "- lifecycle: mod_loading mod_loaded") {
		t.Errorf("the map lacks the lifecycle hooks:\n%s", text)
	}
	t.Logf("%d bytes", len(text))
}

func TestSummary(t *testing.T) {
	for _, tc := range []struct{ name, text, want string }{
		{"description", "---\ntitle: T\ndescription: \"Said here.\"\n---\n# T\n\nFirst. Second.\n", "Said here."},
		{"first sentence", "# T\n\nThe [first](x.md) one. Second.\n", "The first one."},
		{"skips code and tables", "# T\n\n```\ncode. x\n```\n\n| a | b |\n\nText here\nwraps on. More.\n", "Text here wraps on."},
		{"setext", "Title\n=====\n\nBody.\n", "Body."},
		{"long", "# T\n\n" + strings.Repeat("word ", 40) + "\n", strings.TrimSpace(strings.Repeat("word ", 20)) + "…"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if diff := cmp.Diff(tc.want, entryOf(&docs.Doc{Path: "a.md"}, tc.text).Summary); diff != "" {
				t.Errorf("(-want +got)\n%s", diff)
			}
		})
	}
}

// TestLargeTree: on 40,000 generated docs (no links, no index pages) the
// map keeps to its budget and fills it; each folder line names a folder
// by its full path with the count of the docs under it (what
// mod_list_doc_paths lists with it as prefix), and each doc line a doc
// with its title. The docs' entries are made from the generator's text in
// memory: what Render gets, without writing and loading 40,000 files.
func TestLargeTree(t *testing.T) {
	mcptest.SkipUnderRace(t, "renders in one goroutine")
	es := make([]Entry, 40000)
	for i := range es {
		p, text := corpusgen.ShapedFile(corpusgen.Pages, 1, i)
		es[i] = entryOf(&docs.Doc{Path: p}, text)
	}
	slices.SortFunc(es, func(a, b Entry) int { return strings.Compare(a.Path, b.Path) })
	var top []string
	for _, e := range es {
		if f, _, ok := strings.Cut(e.Path, "/"); ok && !slices.Contains(top, f+"/") {
			top = append(top, f+"/")
		}
	}
	for _, budget := range []int{1 << 10, 2 << 10, DefaultBytes, 32 << 10} {
		text := Render(es, []HookGroup{{Name: "g", Hooks: []string{"g.a", "g.b"}}}, budget)
		if len(text) > budget {
			t.Errorf("budget %d: the map is %d bytes", budget, len(text))
		}
		if budget >= DefaultBytes && len(text) < budget*9/10 {
			t.Errorf("budget %d: the map is %d bytes, under 90%% of its budget", budget, len(text))
		}
		if !strings.Contains(text, "mod_list_doc_paths with a folder as prefix") {
			t.Errorf("budget %d: the map does not say how to list a folder:\n%s", budget, text)
		}
		folders, named := checkDigest(t, es, text)
		for _, f := range top {
			if budget >= DefaultBytes && !slices.Contains(folders, f) {
				t.Errorf("budget %d: the map does not name the folder %s", budget, f)
			}
		}
		if budget >= DefaultBytes && len(named) < len(folders) {
			t.Errorf("budget %d: %d docs named for %d folders: not one a folder", budget, len(named), len(folders))
		}
		t.Logf("budget %d: %d bytes, %d folders, %d docs named", budget, len(text), len(folders), len(named))
		if t.Failed() {
			t.Logf("the map at budget %d:\n%s", budget, text)
		}
	}
}

var (
	folderLine = regexp.MustCompile(`^## (.+/) \((\d+) docs?(?:, (\d+) more folders?)?\)$`)
	docLineRE  = regexp.MustCompile(`^- (.+?\.(?:md|MD))(?:: (.*))?$`)
)

// checkDigest checks a digest's lines against the entries it was made
// from: each folder line's count is the number of docs under it, each doc
// named is under the folder line above it, with its title. It returns the
// folders and the docs named.
func checkDigest(t *testing.T, es []Entry, text string) (folders, named []string) {
	t.Helper()
	byPath := map[string]Entry{}
	for _, e := range es {
		byPath[e.Path] = e
	}
	folder := ""
	for line := range strings.Lines(text) {
		line = strings.TrimSuffix(line, "\n")
		if m := folderLine.FindStringSubmatch(line); m != nil {
			folder = m[1]
			folders = append(folders, folder)
			n := 0
			for _, e := range es {
				if strings.HasPrefix(e.Path, folder) {
					n++
				}
			}
			if m[2] != strconv.Itoa(n) {
				t.Errorf("%q: %d docs are under %s", line, n, folder)
			}
			continue
		}
		if m := docLineRE.FindStringSubmatch(line); m != nil {
			e, ok := byPath[m[1]]
			switch {
			case !ok:
				t.Errorf("%q names no doc", line)
			case !strings.HasPrefix(e.Path, folder):
				t.Errorf("%q is not under the folder line above it, %s", line, folder)
			case m[2] != clip(e.Title, maxSummaryBytes):
				t.Errorf("%q: the title is %q", line, e.Title)
			}
			named = append(named, m[1])
		}
	}
	return folders, named
}

// TestDigest: on a tree too large to name every doc, a folder's first doc
// is its index page, then come the docs most linked to, shared among the
// folders by their size; folders too small for a line of their own are
// folded into their parent, whose line says so; the anchors of the docs
// named fill what room the docs leave.
func TestDigest(t *testing.T) {
	var es []Entry
	add := func(p, title string, linked int, sections ...string) {
		es = append(es, Entry{Path: p, Title: title, LinkedFrom: linked, Sections: sections})
	}
	for i := range 300 {
		add(fmt.Sprintf("big/page-%03d.md", i), fmt.Sprintf("Big page %d", i), i%7, "usage")
	}
	add("big/README.md", "About big", 0, "start")
	add("big/index.md", "Big", 0, "start") // index.md comes before README.md
	for i := range 100 {
		add(fmt.Sprintf("small/deep/note-%02d.md", i), fmt.Sprintf("Note %d", i), 0)
	}
	add("small/deep/hub.md", "Hub", 50, "a", "b")
	for i := range 30 {
		add(fmt.Sprintf("small/tiny-%02d/only.md", i), "Only", 1)
	}
	slices.SortFunc(es, func(a, b Entry) int { return strings.Compare(a.Path, b.Path) })

	text := Render(es, nil, 2<<10)
	defer func() {
		if t.Failed() {
			t.Logf("the map, %d bytes:\n%s", len(text), text)
		}
	}()
	if len(text) > 2<<10 || len(text) < 2<<10*9/10 {
		t.Errorf("the map is %d bytes, not within 90%% to 100%% of its budget", len(text))
	}
	folders, named := checkDigest(t, es, text)
	if !slices.Contains(folders, "small/") || slices.Contains(folders, "small/tiny-00/") {
		t.Errorf("the tiny folders are not folded into small/: %v", folders)
	}
	if m := regexp.MustCompile(`\n## small/ \(131 docs, (\d+) more folders\)\n- small/tiny-\d\d/only.md: Only\n`).FindStringSubmatch(text); m == nil {
		t.Errorf("small/'s line does not say how many folders are folded into it, nor name one of their docs")
	}
	for _, want := range []string{"big/index.md", "big/page-006.md", "small/deep/hub.md"} {
		if !slices.Contains(named, want) {
			t.Errorf("the map does not name %s: %v", want, named)
		}
	}
	if i, j := slices.Index(named, "big/index.md"), slices.Index(named, "big/page-006.md"); i < 0 || j != i+1 {
		t.Errorf("big/'s index page is not its first doc, followed by the one most linked to: %v", named)
	}
	if slices.Contains(named, "big/README.md") || slices.Contains(named, "big/page-000.md") {
		t.Errorf("a doc of big/ linked from none is named: %v", named)
	}
	big := 0
	for _, p := range named {
		if strings.HasPrefix(p, "big/") {
			big++
		}
	}
	if big*2 < len(named) {
		t.Errorf("big/ holds most of the docs and has %d of the %d named", big, len(named))
	}
}

// TestDigestAnchors: the anchors of the docs named fill the room that
// the docs leave, the first docs named first.
func TestDigestAnchors(t *testing.T) {
	var es []Entry
	for i := range 200 {
		long := strings.Repeat("long title ", 8)
		es = append(es, Entry{Path: fmt.Sprintf("guide/page-%03d.md", i), Title: long + strconv.Itoa(i), LinkedFrom: 200 - i, Sections: []string{"a", "b"}})
	}
	text := Render(es, nil, 2<<10)
	defer func() {
		if t.Failed() {
			t.Logf("the map, %d bytes:\n%s", len(text), text)
		}
	}()
	if len(text) > 2<<10 {
		t.Errorf("the map is %d bytes, over its budget", len(text))
	}
	if !strings.Contains(text, "- guide/page-000.md: "+es[0].Title+"\n  #a #b\n") {
		t.Errorf("the first doc named has no anchors, though the docs left room for them")
	}
}

func TestSplice(t *testing.T) {
	block := BeginMarker + "\n\nMAP\n\n" + EndMarker + "\n"
	for _, tc := range []struct {
		name, file, want string
		err              bool
	}{
		{name: "empty file", file: "", want: block},
		{name: "appended", file: "# Agents\n\nBe kind.", want: "# Agents\n\nBe kind.\n\n" + block},
		{name: "replaced, the rest kept", file: "top\r\n" + BeginMarker + "\nold\nold\n  " + EndMarker + "  \nbottom\n",
			want: "top\r\n" + block + "bottom\n"},
		{name: "no end", file: BeginMarker + "\nold\n", err: true},
		{name: "no begin", file: "old\n" + EndMarker + "\n", err: true},
		{name: "reversed", file: EndMarker + "\n" + BeginMarker + "\n", err: true},
		{name: "twice", file: block + block, err: true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got, err := Splice([]byte(tc.file), "MAP\n")
			if tc.err {
				if !errors.Is(err, ErrMarkers) {
					t.Errorf("err = %v, want ErrMarkers", err)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if diff := cmp.Diff(tc.want, string(got)); diff != "" {
				t.Errorf("(-want +got)\n%s", diff)
			}
			again, err := Splice(got, "MAP\n")
			if err != nil || string(again) != string(got) {
				t.Errorf("splicing the same map again changed the file: %q, %v", again, err)
			}
		})
	}
}

// TestEntries: the entries made on every core are those made one by one,
// and a snapshot that changed one doc reuses the others' entries.
func TestEntries(t *testing.T) {
	dir := t.TempDir()
	if _, err := corpusgen.Generate(t.Context(), dir, corpusgen.Options{Seed: 2, Files: 600, Shape: corpusgen.Small}); err != nil {
		t.Fatal(err)
	}
	snap, err := docs.Load(t.Context(), dir, docs.LoadOptions{Generation: 1})
	if err != nil {
		t.Fatal(err)
	}
	got := entries(nil, snap)
	for i, d := range snap.Docs() {
		want := entryOf(d, d.Text())
		if diff := cmp.Diff(want, got[i], cmpopts.IgnoreUnexported(Entry{})); diff != "" || got[i].doc != d {
			t.Fatalf("entry %d (-one by one +on every core):\n%s", i, diff)
		}
	}
	again := entries(got, snap)
	for i := range again {
		if len(got[i].Sections) > 0 && &again[i].Sections[0] != &got[i].Sections[0] {
			t.Fatalf("entry %d was made again, not reused", i)
		}
	}
}

func TestLinks(t *testing.T) {
	for _, tc := range []struct {
		name, from, text string
		want             []string
	}{
		{"relative, each once", "guide/a.md", "[b](b.md) and [b again](b.md#x) [c](../c.md?q=1) [self](a.md)", []string{"c.md", "guide/b.md"}},
		{"folders", "a/b/c.md", "[x](./d/e.md) [y](../../f.md) [z](<g h.md> \"title\") [w](g%20h.md)", []string{"a/b/d/e.md", "a/b/g h.md", "f.md"}},
		{"reference definition", "a.md", "[x][1]\n\n[1]: guide/b.md \"B\"\n", []string{"guide/b.md"}},
		{"not links to docs", "guide/a.md",
			"![pic](pic.md) [web](https://x.org/b.md) [mail](mailto:b.md) [rooted](/guide/b.md) [out](../../b.md) [png](b.png) [!INCLUDE[n](includes/n.md)]",
			nil},
		{"not in code", "a.md", "```\n[b](b.md)\n```\n~~~md\n[c](c.md)\n~~~\n[d](d.md)\n", []string{"d.md"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if diff := cmp.Diff(tc.want, linksOf(tc.from, tc.text), cmpopts.EquateEmpty()); diff != "" {
				t.Errorf("(-want +got)\n%s", diff)
			}
		})
	}
}

// TestLinkedFrom: a snapshot's entries count the docs that link to each,
// and the next snapshot's count again, though they reuse the entries of
// the docs unchanged.
func TestLinkedFrom(t *testing.T) {
	dir := t.TempDir()
	write := func(p, text string) {
		if err := os.MkdirAll(filepath.Dir(filepath.Join(dir, p)), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(dir, p), []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	write("index.md", "# Home\n\n[Intro](guide/intro.md), [again](guide/intro.md#start), [tools](server/tools.md).\n")
	write("guide/intro.md", "# Intro\n\n[Home](../index.md), [tools](../server/tools.md), [gone](gone.md).\n")
	write("server/tools.md", "# Tools\n\n[Home](../index.md)\n")
	linked := func(es []Entry) map[string]int {
		m := map[string]int{}
		for _, e := range es {
			m[e.Path] = e.LinkedFrom
		}
		return m
	}
	snap, err := docs.Load(t.Context(), dir, docs.LoadOptions{Generation: 1})
	if err != nil {
		t.Fatal(err)
	}
	first := Of(snap)
	if diff := cmp.Diff(map[string]int{"index.md": 2, "guide/intro.md": 1, "server/tools.md": 2}, linked(first)); diff != "" {
		t.Errorf("linked from (-want +got):\n%s", diff)
	}
	write("server/tools.md", "# Tools\n\nNo links.\n")
	next, _, err := docs.Update(t.Context(), snap, dir, docs.Changes{Paths: []string{"server/tools.md"}}, docs.LoadOptions{Generation: 2})
	if err != nil {
		t.Fatal(err)
	}
	Derive(snap, next)
	again, ok := docs.Attached(next, entriesKey)
	if !ok {
		t.Fatal("Derive attached no entries to the next snapshot")
	}
	if diff := cmp.Diff(map[string]int{"index.md": 1, "guide/intro.md": 1, "server/tools.md": 2}, linked(again)); diff != "" {
		t.Errorf("linked from, after server/tools.md lost its link (-want +got):\n%s", diff)
	}
	if got := linked(first)["index.md"]; got != 2 {
		t.Errorf("the first snapshot's entries changed: index.md linked from %d", got)
	}
}
