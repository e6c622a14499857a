package docsmap

import (
	"context"
	"errors"
	"os"
	"regexp"
	"slices"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/google/go-cmp/cmp/cmpopts"

	"github.com/docs-mcp/docs-mcp/framework/registry"
	"github.com/docs-mcp/docs-mcp/mcp-server/internal/corpusgen"
	"github.com/docs-mcp/docs-mcp/mcp-server/internal/docs"
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

// TestLargeTree: on 40,000 generated docs the map keeps to its budget,
// names every top folder and, with room, their subfolders, and says how to
// list them. The docs' entries are made from the generator's text in
// memory: what Render gets, without writing and loading 40,000 files.
func TestLargeTree(t *testing.T) {
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
	for _, budget := range []int{2 << 10, DefaultBytes, 32 << 10} {
		text := Render(es, []HookGroup{{Name: "g", Hooks: []string{"g.a", "g.b"}}}, budget)
		if len(text) > budget {
			t.Errorf("budget %d: the map is %d bytes", budget, len(text))
		}
		if budget == DefaultBytes && len(text) < budget/2 {
			t.Errorf("budget %d: the map is %d bytes, not half its budget: it folds more than it must", budget, len(text))
		}
		if !strings.Contains(text, "mod_list_doc_paths with the folder as prefix") {
			t.Errorf("budget %d: the map does not say how to list a folded folder:\n%s", budget, text)
		}
		for _, f := range top {
			if budget >= DefaultBytes && !strings.Contains(text, "- "+f+" (") {
				t.Errorf("budget %d: the map does not name the folder %s", budget, f)
			}
		}
		if budget == DefaultBytes {
			if !strings.Contains(text, "- api/ (") || !regexp.MustCompile(`- api/ \(\d+ docs in \d+ folders\): \S+/ \d+, `).MatchString(text) {
				t.Errorf("budget %d: the folded api/ does not name its subfolders with counts:\n%s", budget, text)
			}
			t.Logf("%d bytes:\n%s", len(text), text[:min(len(text), 1500)])
		}
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
