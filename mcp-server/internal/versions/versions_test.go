package versions_test

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"testing"

	"github.com/docs-mcp/docs-mcp/mcp-server/gitdocs"
	"github.com/docs-mcp/docs-mcp/mcp-server/internal/corpusgen"
	"github.com/docs-mcp/docs-mcp/mcp-server/internal/docs"
	"github.com/docs-mcp/docs-mcp/mcp-server/internal/search"
	"github.com/docs-mcp/docs-mcp/mcp-server/internal/versions"
	"github.com/docs-mcp/docs-mcp/mcp-server/mcptest"
)

// TestReleasesShare: a doc unchanged from one release to the next is one
// *docs.Doc in both, and the newer release's index takes over the
// segments of the older one that hold only such docs.
func TestReleasesShare(t *testing.T) {
	r := mcptest.NewGitRepo(t)
	r.Write(map[string]string{"docs/a.md": "# A\n", "docs/b.md": "# B\n", "docs/sub/c.md": "# C\n"})
	r.Commit("one")
	r.Git("tag", "v1")
	r.Write(map[string]string{"docs/b.md": "# B, edited\n"})
	r.Commit("two")
	r.Git("tag", "v2")
	repo, err := gitdocs.Open(r.Dir)
	if err != nil {
		t.Fatal(err)
	}
	sel, _ := gitdocs.ParseSelector("v*")
	set := versions.New(versions.Config{Repo: repo, Selector: sel, DocsDir: "docs"})
	if err := set.Refresh(context.Background()); err != nil {
		t.Fatal(err)
	}
	rs := set.List()
	if len(rs) != 2 || rs[0].Name != "v2" || rs[1].Name != "v1" {
		t.Fatalf("releases: %v", rs)
	}
	for _, p := range []string{"a.md", "sub/c.md", "b.md"} {
		d2, ok2 := rs[0].Docs.Lookup(p)
		d1, ok1 := rs[1].Docs.Lookup(p)
		if !ok1 || !ok2 {
			t.Fatalf("%s missing: v1 %v, v2 %v", p, ok1, ok2)
		}
		if shared, want := d1 == d2, p != "b.md"; shared != want {
			t.Errorf("%s shared between v1 and v2: %v, want %v", p, shared, want)
		}
	}
	for _, rel := range rs {
		if err := search.Await(context.Background(), rel.Docs); err != nil {
			t.Fatal(err)
		}
	}
	if st := search.Built(rs[0].Docs).Stats(); st.Docs != 3 {
		t.Errorf("v2's index: %+v", st)
	}

}

func TestUnknownVersion(t *testing.T) {
	r := mcptest.NewGitRepo(t)
	r.Write(map[string]string{"docs/a.md": "# A\n"})
	r.Commit("one")
	r.Git("tag", "v1")
	repo, err := gitdocs.Open(r.Dir)
	if err != nil {
		t.Fatal(err)
	}
	sel, _ := gitdocs.ParseSelector("v*")
	set := versions.New(versions.Config{Repo: repo, Selector: sel, DocsDir: "docs"})
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan struct{})
	go func() { defer close(done); set.Run(ctx) }()
	defer func() { cancel(); <-done }()
	latest, err := set.Get(ctx, versions.Latest)
	if err != nil || latest.Name != "v1" {
		t.Fatalf("latest: %v, %v", latest, err)
	}
	_, err = set.Get(ctx, "v9")
	var unknown *versions.UnknownError
	if !errors.As(err, &unknown) || unknown.Error() != `no version "v9"; the versions served are: v1 (or latest, the newest, or omit version for the working tree)` {
		t.Errorf("Get(v9): %v", err)
	}
}

// TestReleasesShareTheWorkingTree: releases stacked on the working tree
// hold, of their own, only the docs whose text the working tree does not
// have: a release as committed in the working tree is its docs and its
// index, and an older one indexes only the docs changed since. Every
// release's search still finds what a scan of its docs finds.
func TestReleasesShareTheWorkingTree(t *testing.T) {
	r := mcptest.NewGitRepo(t)
	if _, err := corpusgen.Generate(context.Background(), filepath.Join(r.Dir, "docs"), corpusgen.Options{Seed: 4, Files: 300, Shape: corpusgen.Small}); err != nil {
		t.Fatal(err)
	}
	r.Commit("v1.0.0")
	r.Git("tag", "v1.0.0")
	var paths []string
	err := filepath.WalkDir(filepath.Join(r.Dir, "docs"), func(p string, d os.DirEntry, err error) error {
		if err == nil && !d.IsDir() {
			rel, _ := filepath.Rel(filepath.Join(r.Dir, "docs"), p)
			paths = append(paths, filepath.ToSlash(rel))
		}
		return err
	})
	if err != nil {
		t.Fatal(err)
	}
	slices.Sort(paths)
	appendTo := func(p, line string) {
		f, err := os.OpenFile(filepath.Join(r.Dir, "docs", filepath.FromSlash(p)), os.O_APPEND|os.O_WRONLY, 0)
		if err != nil {
			t.Fatal(err)
		}
		defer f.Close()
		if _, err := fmt.Fprintln(f, line); err != nil {
			t.Fatal(err)
		}
	}
	changed := map[int]int{} // docs changed by each tag but the first, by its minor version
	for tag := 1; tag <= 2; tag++ {
		for i := tag; i < len(paths); i += 30 {
			appendTo(paths[i], fmt.Sprintf("Changed in release %d.", tag))
			changed[tag]++
		}
		r.Commit(fmt.Sprintf("v1.%d.0", tag))
		r.Git("tag", fmt.Sprintf("v1.%d.0", tag))
	}
	uncommitted := paths[5]
	appendTo(uncommitted, "An edit not committed.")

	wt, err := docs.Load(context.Background(), filepath.Join(r.Dir, "docs"), docs.LoadOptions{Generation: 1})
	if err != nil {
		t.Fatal(err)
	}
	search.Build(wt, nil)
	repo, err := gitdocs.Open(r.Dir)
	if err != nil {
		t.Fatal(err)
	}
	sel, _ := gitdocs.ParseSelector("v*")
	set := versions.New(versions.Config{Repo: repo, Selector: sel, DocsDir: "docs",
		WorkingTree: func(context.Context) *docs.Snapshot { return wt }})
	if err := set.Refresh(context.Background()); err != nil {
		t.Fatal(err)
	}
	rs := set.List()
	if len(rs) != 3 {
		t.Fatalf("releases: %v", rs)
	}
	newest := rs[0]
	for _, d := range newest.Docs.Docs() {
		w, _ := wt.Lookup(d.Path)
		if shared, want := w == d, d.Path != uncommitted; shared != want {
			t.Errorf("%s of %s is the working tree's: %v, want %v", d.Path, newest.Name, shared, want)
		}
	}
	for i, rel := range rs {
		if err := search.Await(context.Background(), rel.Docs); err != nil {
			t.Fatal(err)
		}
		st := search.Built(rel.Docs).Stats()
		// The newest release indexes the one doc edited in the working
		// tree, and finds the others in the working tree's segments; each
		// older one the docs its successor changed (or the working tree's
		// edit), finding the others in its successor's index.
		fresh := st.Docs - st.ReusedDocs
		want := 1
		if i > 0 {
			want = changed[3-i] // v1.1.0 (i 1): what v1.2.0 changed; v1.0.0 (i 2): what v1.1.0 did
		}
		if st.Docs != len(paths) || fresh != want {
			t.Errorf("%s: %d docs indexed, %d anew; want %d, %d anew", rel.Name, st.Docs, fresh, len(paths), want)
		}
		for _, text := range []string{"Changed in release", "release 2.", "not committed", "player", "the"} {
			q := search.Query{Text: text}
			var want, got []string
			for m := range search.Matches(rel.Docs, q, search.Position{}) {
				want = append(want, fmt.Sprintf("%s:%d", m.Doc.Path, m.Line))
			}
			for m := range search.Find(context.Background(), rel.Docs, q, search.Position{}, nil) {
				got = append(got, fmt.Sprintf("%s:%d", m.Doc.Path, m.Line))
			}
			if !slices.Equal(got, want) {
				t.Errorf("%s: %q: the index found %d lines, the scan %d", rel.Name, text, len(got), len(want))
			}
		}
	}
}
