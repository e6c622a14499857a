package corpus

import (
	"context"
	"fmt"
	"path/filepath"
	"testing"

	"github.com/docs-mcp/docs-mcp/mcp-server/gitdocs"
	"github.com/docs-mcp/docs-mcp/mcp-server/internal/docs"
	"github.com/docs-mcp/docs-mcp/mcp-server/internal/release"
	"github.com/docs-mcp/docs-mcp/mcp-server/internal/versions"
	"github.com/docs-mcp/docs-mcp/mcp-server/mcptest"
)

// TestChangesKept: a comparison of two releases is computed once, then
// answered from what the corpus kept; with the working tree it is
// computed each time, and not kept.
func TestChangesKept(t *testing.T) {
	r := mcptest.NewGitRepo(t)
	r.Write(map[string]string{"docs/a.md": "# A\n\nFirst.\n"})
	r.Commit("one")
	r.Git("tag", "v1.0.0")
	r.Write(map[string]string{"docs/a.md": "# A\n\nSecond.\n", "docs/b.md": "# B\n"})
	r.Commit("two")
	r.Git("tag", "v2.0.0")
	repo, err := gitdocs.Open(r.Dir)
	if err != nil {
		t.Fatal(err)
	}
	sel, _ := gitdocs.ParseSelector("v*")
	cfg := DefaultConfig()
	cfg.DataRoot, cfg.DocsPath, cfg.Git = r.Dir, filepath.Join(r.Dir, "docs"), repo
	cfg.Versions = &versions.Config{Selector: sel, DocsDir: "docs",
		WorkingTree: func(context.Context) *docs.Snapshot { return nil },
		Head:        func(context.Context) *gitdocs.History { return nil }}
	c := New(cfg)
	if err := c.releases.Refresh(t.Context()); err != nil {
		t.Fatal(err)
	}
	v1, err1 := c.Release("v1.0.0")
	v2, err2 := c.Release(release.Latest)
	if err1 != nil || err2 != nil {
		t.Fatalf("Release: %v, %v", err1, err2)
	}
	d, err := c.Changes(v1, v2)
	if err != nil {
		t.Fatal(err)
	}
	if len(d.Added) != 1 || d.Added[0] != "b.md" || len(d.Changed) != 1 {
		t.Errorf("v1.0.0 to v2.0.0: added %v, changed %+v; want b.md added, a.md changed", d.Added, d.Changed)
	}
	if _, err := c.changes.get(changesKey{v1.Name, v1.Commit, v2.Name, v2.Commit}, func() (*gitdocs.Diff, error) {
		t.Error("the comparison of v1.0.0 and v2.0.0 was not kept")
		return &gitdocs.Diff{}, nil
	}); err != nil {
		t.Fatal(err)
	}
	if _, err := c.Changes(v2, nil); err != nil {
		t.Fatal(err)
	}
	if n := c.changes.size(); n != 1 {
		t.Errorf("%d comparisons kept, want 1 (not those with the working tree)", n)
	}
}

// TestChangesCacheBound: the cache keeps the most recently asked
// comparisons, at most maxCachedChanges.
func TestChangesCacheBound(t *testing.T) {
	var c changesCache
	computed := map[changesKey]int{}
	get := func(i int) {
		k := changesKey{fromName: fmt.Sprint("v", i)}
		if _, err := c.get(k, func() (*gitdocs.Diff, error) { computed[k]++; return &gitdocs.Diff{Added: []string{"a.md"}}, nil }); err != nil {
			t.Fatal(err)
		}
	}
	for i := range maxCachedChanges + 3 {
		get(i)
		get(0) // asked again and again: kept
	}
	if n := c.size(); n != maxCachedChanges {
		t.Errorf("%d kept, want %d", n, maxCachedChanges)
	}
	get(1) // among the least recently asked: dropped, computed again
	if computed[changesKey{fromName: "v0"}] != 1 || computed[changesKey{fromName: "v1"}] != 2 {
		t.Errorf("computed: %v", computed)
	}
}
