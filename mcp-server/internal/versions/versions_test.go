package versions_test

import (
	"context"
	"errors"
	"testing"

	"github.com/docs-mcp/docs-mcp/mcp-server/gitdocs"
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
