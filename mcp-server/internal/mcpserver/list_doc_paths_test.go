package mcpserver

import (
	"context"
	"fmt"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/docs-mcp/docs-mcp/mcp-server/internal/corpus"
	"github.com/docs-mcp/docs-mcp/mcp-server/internal/corpusgen"
	"github.com/docs-mcp/docs-mcp/mcp-server/internal/docs"
	"github.com/docs-mcp/docs-mcp/mcp-server/internal/search"
	"github.com/docs-mcp/docs-mcp/mcp-server/mcptest"
)

func TestListDocPaths(t *testing.T) {
	c := newClient(t, fixtureRoot)
	all, _ := mcptest.CallOK[ListDocPathsOutput](t, c, "mod_list_doc_paths", nil)
	want := []DocEntry{
		{Path: "guide/intro.md", Title: "Introduction", Bytes: 231, Lines: 11},
		{Path: "guide/unicode.md", Title: "Unicode", Bytes: 72, Lines: 5},
		{Path: "index.md", Title: "Fixture home", Bytes: 119, Lines: 6},
		{Path: "server/tools.md", Title: "Tools", Bytes: 86, Lines: 5},
	}
	if diff := cmp.Diff(want, all.Paths); diff != "" {
		t.Errorf("paths (-want +got):\n%s", diff)
	}
	if all.NextCursor != "" {
		t.Errorf("next_cursor = %q on the only page", all.NextCursor)
	}

	guide, _ := mcptest.CallOK[ListDocPathsOutput](t, c, "mod_list_doc_paths", map[string]any{"prefix": "guide/"})
	if diff := cmp.Diff(want[:2], guide.Paths); diff != "" {
		t.Errorf("prefix guide/ (-want +got):\n%s", diff)
	}
	for _, limit := range []int{5001, 0} {
		if got := mcptest.CallErr(t, c, "mod_list_doc_paths", map[string]any{"limit": limit}); !strings.Contains(got, "out of range") {
			t.Errorf("limit %d: error = %q", limit, got)
		}
	}
}

func TestListDocPathsPaging(t *testing.T) {
	dir := copyTree(t, fixtureRoot)
	for i := range 30 {
		writeFile(t, dir, fmt.Sprintf("docs/many/page-%02d.md", i), fmt.Sprintf("# Page %d\n", i))
	}
	c := newClient(t, dir)
	all, _ := mcptest.CallOK[ListDocPathsOutput](t, c, "mod_list_doc_paths", map[string]any{"prefix": "many/"})
	var paged []DocEntry
	args := map[string]any{"prefix": "many/", "limit": 7}
	for pages := 1; ; pages++ {
		out, _ := mcptest.CallOK[ListDocPathsOutput](t, c, "mod_list_doc_paths", args)
		paged = append(paged, out.Paths...)
		if out.NextCursor == "" {
			if pages != 5 {
				t.Errorf("30 docs in pages of 7 took %d pages, want 5", pages)
			}
			break
		}
		args["cursor"] = out.NextCursor
	}
	if len(all.Paths) != 30 {
		t.Fatalf("listed %d docs under many/, want 30", len(all.Paths))
	}
	if diff := cmp.Diff(all.Paths, paged); diff != "" {
		t.Errorf("pages differ from the single answer (-want +got):\n%s", diff)
	}
	if got := mcptest.CallErr(t, c, "mod_list_doc_paths", map[string]any{"prefix": "guide/", "cursor": args["cursor"]}); !strings.Contains(got, "other arguments") {
		t.Errorf("cursor with another prefix: %q", got)
	}
}

// TestListDocPathsFolders: a first page names the folders right below
// the prefix with their counts of docs, before its docs; later pages do
// not.
func TestListDocPathsFolders(t *testing.T) {
	dir := copyTree(t, fixtureRoot)
	writeFile(t, dir, "docs/guide/deep/er/x.md", "# X\n")
	writeFile(t, dir, "docs/guide/deep/y.md", "# Y\n")
	writeFile(t, dir, "docs/guide/other/z.md", "# Z\n")
	c := newClient(t, dir)
	for _, tc := range []struct {
		prefix string
		want   []FolderEntry
	}{
		{"", []FolderEntry{{"guide/", 5}, {"server/", 1}}},
		{"guide/", []FolderEntry{{"guide/deep/", 2}, {"guide/other/", 1}}},
		{"guide/d", []FolderEntry{{"guide/deep/", 2}}},
		{"guide/deep/er/", nil},
	} {
		out, text := mcptest.CallOK[ListDocPathsOutput](t, c, "mod_list_doc_paths", map[string]any{"prefix": tc.prefix})
		if diff := cmp.Diff(tc.want, out.Folders); diff != "" {
			t.Errorf("prefix %q: folders (-want +got):\n%s", tc.prefix, diff)
		}
		if len(tc.want) > 0 && !strings.HasPrefix(text, "Folders:\n"+tc.want[0].Path+"  (") {
			t.Errorf("prefix %q: the text does not start with the folders:\n%s", tc.prefix, text)
		}
	}
	next, _ := mcptest.CallOK[ListDocPathsOutput](t, c, "mod_list_doc_paths", map[string]any{"prefix": "guide/", "limit": 1})
	later, _ := mcptest.CallOK[ListDocPathsOutput](t, c, "mod_list_doc_paths", map[string]any{"prefix": "guide/", "limit": 1, "cursor": next.NextCursor})
	if len(later.Paths) != 1 || later.Folders != nil {
		t.Errorf("the second page: %+v; want one doc and no folders", later)
	}
}

// TestListDocPathsDidYouMean: a prefix that lists nothing says so and
// names the prefixes that list what it may mean: a folder deeper down, in
// another case, or without docs/ before it; a doc when no folder matches.
func TestListDocPathsDidYouMean(t *testing.T) {
	dir := copyTree(t, fixtureRoot)
	writeFile(t, dir, "docs/guide/deep/er/x.md", "# X\n")
	writeFile(t, dir, "docs/server/er/y.md", "# Y\n")
	c := newClient(t, dir)
	for _, tc := range []struct {
		prefix, text string
		want         []FolderEntry
	}{
		{"er/", "er/\"; these prefixes list docs:\nguide/deep/er/  (1 doc)\nserver/er/  (1 doc)\n",
			[]FolderEntry{{"guide/deep/er/", 1}, {"server/er/", 1}}},
		{"deep", "", []FolderEntry{{"guide/deep/", 1}}}, // not guide/deep/er/ too: it is in guide/deep/
		{"Guide/", "", []FolderEntry{{"guide/", 3}}},
		{"docs/server/", "\nserver/  (2 docs)\n", []FolderEntry{{"server/", 2}}},
		{"docs/", "\n(no prefix)  (6 docs)\n", []FolderEntry{{"", 6}}},
		{"unicode", "", []FolderEntry{{"guide/unicode.md", 1}}},
		{"nothing/", "No doc path starts with \"nothing/\", nor has it after a folder", nil},
	} {
		out, text := mcptest.CallOK[ListDocPathsOutput](t, c, "mod_list_doc_paths", map[string]any{"prefix": tc.prefix})
		if len(out.Paths) != 0 {
			t.Errorf("prefix %q listed %d docs", tc.prefix, len(out.Paths))
		}
		if diff := cmp.Diff(tc.want, out.DidYouMean); diff != "" {
			t.Errorf("prefix %q: did_you_mean (-want +got):\n%s", tc.prefix, diff)
		}
		if !strings.Contains(text, tc.text) || !strings.HasSuffix(text, "\n[0 docs]") {
			t.Errorf("prefix %q: the text lacks %q:\n%s", tc.prefix, tc.text, text)
		}
	}
	var names []string
	for i := range 12 {
		names = append(names, fmt.Sprintf("docs/a%02d/er/x.md", i))
		writeFile(t, dir, names[i], "# X\n")
	}
	c = newClient(t, dir)
	if out, _ := mcptest.CallOK[ListDocPathsOutput](t, c, "mod_list_doc_paths", map[string]any{"prefix": "er/"}); len(out.DidYouMean) != maxDidYouMean {
		t.Errorf("14 folders match: did_you_mean holds %d, want %d", len(out.DidYouMean), maxDidYouMean)
	}
}

// BenchmarkListMiss lists with prefixes that match no doc on 40,000
// generated docs in tens of thousands of folders, the server's share once
// the snapshot's folder tree is built: one that names a folder deeper
// down (the folders are scanned), and one that names nothing, without a
// trailing slash (the folders, then every doc path, are scanned).
//
//	go test -run '^$' -bench ListMiss -benchmem ./mcp-server/internal/mcpserver
func BenchmarkListMiss(b *testing.B) {
	dir := b.TempDir()
	if _, err := corpusgen.Generate(context.Background(), dir, corpusgen.Options{Seed: 1, Files: 40000}); err != nil {
		b.Fatal(err)
	}
	snap, err := docs.Load(context.Background(), dir, docs.LoadOptions{Generation: 1})
	if err != nil {
		b.Fatal(err)
	}
	srv := New(DefaultConfig(), openCorpus(snap, corpus.DefaultConfig()))
	<-search.Build(snap, nil).Done() // not sharing the CPU with the benchmark
	treeOf(snap)
	deep := snap.Docs()[len(snap.Docs())/2].Path
	deep = deep[:strings.LastIndexByte(deep, '/')+1]
	deep = deep[strings.IndexByte(deep, '/')+1:] // without its top folder
	for name, prefix := range map[string]string{"deeper": deep, "nothing": "no-such-name"} {
		b.Run(name, func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				out, _, err := srv.listDocPaths(context.Background(), ListDocPathsInput{Prefix: prefix})
				if err != nil || len(out.Paths) != 0 || (name == "deeper") != (len(out.DidYouMean) > 0) {
					b.Fatalf("%q: %+v %v", prefix, out, err)
				}
			}
		})
	}
}
