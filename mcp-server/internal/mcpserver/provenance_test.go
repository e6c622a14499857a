package mcpserver

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	"github.com/mark3labs/mcp-go/client"
	"github.com/mark3labs/mcp-go/mcp"

	"github.com/docs-mcp/docs-mcp/mcp-server/gitdocs"
	"github.com/docs-mcp/docs-mcp/mcp-server/internal/corpus"
	"github.com/docs-mcp/docs-mcp/mcp-server/mcptest"
)

// gitClient serves the git repository r with its history.
func gitClient(t *testing.T, r *mcptest.GitRepo) *client.Client {
	t.Helper()
	repo, err := gitdocs.Open(r.Dir)
	if err != nil {
		t.Fatal(err)
	}
	return connect(t, newGitServer(t, r.Dir, repo))
}

func TestProvenance(t *testing.T) {
	r := mcptest.NewGitRepo(t)
	r.Write(map[string]string{
		"docs/a.md":       "# A\n\nAlpha text.\n",
		"docs/b.md":       "# B\n\nBeta text.\n\n## More\n\nMore text.\n",
		"CONTRIBUTING.md": "# Contributing\n",
	})
	r.Commit("first")
	r.Write(map[string]string{"docs/b.md": "# B\n\nBeta text, edited.\n\n## More\n\nMore text.\n"})
	second := r.Commit("second")
	r.Write(map[string]string{"docs/a.md": "# A\n\nAlpha text, not committed.\n"})
	c := gitClient(t, r)

	committed := &Provenance{Version: WorkingTree, Commit: second[:7], Date: "2026-01-02T12:00:00Z"}
	edited := &Provenance{Version: WorkingTree, Uncommitted: true}
	for _, tc := range []struct {
		args     ReadDocInput
		want     *Provenance
		wantText string
	}{
		{ReadDocInput{Path: "b.md"}, committed, "[From the working tree, last changed in commit " + second[:7] + " (2026-01-02).]"},
		{ReadDocInput{Path: "b.md", Section: "more"}, committed, "last changed in commit " + second[:7]},
		{ReadDocInput{Path: "a.md"}, edited, "[From the working tree, with changes not committed yet.]"},
	} {
		got, text := mcptest.CallOK[ReadDocOutput](t, c, "mod_read_doc", tc.args)
		if diff := cmp.Diff(tc.want, got.Provenance); diff != "" {
			t.Errorf("mod_read_doc %+v provenance (-want +got):\n%s", tc.args, diff)
		}
		if !strings.Contains(text, tc.wantText) {
			t.Errorf("mod_read_doc %+v text lacks %q:\n%s", tc.args, tc.wantText, text)
		}
	}

	got, text := mcptest.CallOK[SearchDocsOutput](t, c, "mod_search_docs", SearchDocsInput{Query: "text"})
	type docAt struct {
		Path, Commit, Date string
		Uncommitted        bool
	}
	var docsAt []docAt
	for _, d := range got.Docs {
		docsAt = append(docsAt, docAt{d.Path, d.Commit, d.Date, d.Uncommitted})
	}
	want := []docAt{{Path: "a.md", Uncommitted: true}, {"b.md", second[:7], "2026-01-02T12:00:00Z", false}}
	if diff := cmp.Diff(want, docsAt); diff != "" || got.Version != WorkingTree {
		t.Errorf("mod_search_docs provenance: version %q, docs (-want +got):\n%s", got.Version, diff)
	}
	for _, line := range []string{"a.md  · not committed\n", "b.md  · " + second[:7] + " 2026-01-02\n", "[From the working tree; after each path, the commit that last changed it.]"} {
		if !strings.Contains(text, line) {
			t.Errorf("mod_search_docs text lacks %q:\n%s", line, text)
		}
	}

	// Resources: lastModified in the listing, the provenance in _meta.
	list, err := c.ListResources(t.Context(), mcp.ListResourcesRequest{})
	if err != nil {
		t.Fatal(err)
	}
	modified := map[string]string{}
	for _, res := range list.Resources {
		if res.Annotations != nil {
			modified[res.URI] = res.Annotations.LastModified
		}
	}
	if diff := cmp.Diff(map[string]string{"docs://b.md": "2026-01-02T12:00:00Z"}, modified); diff != "" {
		t.Errorf("lastModified of the listed resources (-want +got):\n%s", diff)
	}
	var rr mcp.ReadResourceRequest
	rr.Params.URI = "docs://b.md"
	read, err := c.ReadResource(t.Context(), rr)
	if err != nil {
		t.Fatal(err)
	}
	meta := read.Contents[0].(mcp.TextResourceContents).Meta
	if diff := cmp.Diff(map[string]any{"version": WorkingTree, "commit": second[:7], "date": "2026-01-02T12:00:00Z"}, meta["provenance"]); diff != "" {
		t.Errorf("_meta.provenance of docs://b.md (-want +got):\n%s", diff)
	}

}

// TestProvenanceFollowsHead: the corpus walks the history again when HEAD
// moves, beside the requests, and answers tell the new commits once it
// has: a commit of a doc edited on disk (the docs served unchanged), then
// a commit that changes no doc, which moves the working tree's commit in
// mod_list_versions. No request walks the history: with .git/HEAD broken,
// where a walk fails, answers still tell the commits walked before.
func TestProvenanceFollowsHead(t *testing.T) {
	r := mcptest.NewGitRepo(t)
	r.Write(map[string]string{"docs/a.md": "# A\n\nAlpha text.\n", "CONTRIBUTING.md": "# Contributing\n"})
	first := r.Commit("first")
	r.Write(map[string]string{"docs/a.md": "# A\n\nAlpha text, edited.\n"})
	repo, err := gitdocs.Open(r.Dir)
	if err != nil {
		t.Fatal(err)
	}
	c := connect(t, newGitServer(t, r.Dir, repo))
	searched := func() SearchDocsOutput {
		got, _ := mcptest.CallOK[SearchDocsOutput](t, c, "mod_search_docs", SearchDocsInput{Query: "alpha"})
		if len(got.Docs) != 1 {
			t.Fatalf("mod_search_docs alpha: %+v, want a.md", got.Docs)
		}
		return got
	}
	if d := searched().Docs[0]; !d.Uncommitted || d.Commit != "" {
		t.Fatalf("a.md edited on disk: commit %q uncommitted %v, want uncommitted", d.Commit, d.Uncommitted)
	}
	workingCommit := func() string {
		lv, _ := mcptest.CallOK[ListVersionsOutput](t, c, "mod_list_versions", struct{}{})
		return lv.Versions[0].Commit
	}
	if got := workingCommit(); got != first[:7] {
		t.Fatalf("mod_list_versions' working tree at %q, want %q", got, first[:7])
	}

	second := r.Commit("second")
	mcptest.Eventually(t, "a.md's new commit in a search", func() bool {
		d := searched().Docs[0]
		return d.Commit == second[:7] && !d.Uncommitted
	})
	r.Write(map[string]string{"CONTRIBUTING.md": "# Contributing\n\nMore.\n"})
	third := r.Commit("third: no doc changed")
	mcptest.Eventually(t, "the working tree's commit in mod_list_versions", func() bool { return workingCommit() == third[:7] })

	if err := os.WriteFile(filepath.Join(r.Dir, ".git", "HEAD"), []byte("not a ref\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	if _, err := repo.LastCommits("docs"); err == nil {
		t.Fatal("the history is still walked with .git/HEAD broken: the test proves nothing")
	}
	if d := searched().Docs[0]; d.Commit != second[:7] {
		t.Errorf("a search with HEAD broken: a.md at commit %q, want %q as walked: the request read git", d.Commit, second[:7])
	}
	if got := workingCommit(); got != third[:7] {
		t.Errorf("mod_list_versions with HEAD broken: working tree at %q, want %q as walked: the request read git", got, third[:7])
	}
}

// TestNoProvenanceOutsideGit: a data root that is not a repository gets
// answers with no provenance, and no error.
func TestNoProvenanceOutsideGit(t *testing.T) {
	dir := t.TempDir()
	mcptest.WriteTree(t, dir, map[string]string{"docs/a.md": "# A\n\nAlpha text.\n"})
	repo, err := gitdocs.Open(dir)
	if !errors.Is(err, gitdocs.ErrNotRepository) {
		t.Fatalf("gitdocs.Open(a plain folder) = %v, %v; want ErrNotRepository", repo, err)
	}
	c := newClient(t, dir) // as cli wires it: no repository, no Git
	got, text := mcptest.CallOK[ReadDocOutput](t, c, "mod_read_doc", ReadDocInput{Path: "a.md"})
	if got.Provenance != nil || strings.Contains(text, "[From the") {
		t.Errorf("provenance outside a repository: %+v\n%s", got.Provenance, text)
	}
}

// TestFirstAnswerWaitsForHistory: a call sent before the corpus has
// walked the history the first time waits for it, as for the docs, and
// tells its doc's commit: a lone call at start (docs/server/tools.md's
// example over stdio) gets provenance.
func TestFirstAnswerWaitsForHistory(t *testing.T) {
	r := mcptest.NewGitRepo(t)
	r.Write(map[string]string{"docs/a.md": "# A\n\nAlpha text.\n"})
	first := r.Commit("first")
	repo, err := gitdocs.Open(r.Dir)
	if err != nil {
		t.Fatal(err)
	}
	cfg, docsDir := withFixture(t, r.Dir)
	cc := corpus.DefaultConfig()
	cc.DataRoot, cc.DocsPath, cc.Git = cfg.DataRoot, docsDir, repo
	corp := openCorpus(loadDocs(t, docsDir), cc)
	c := connect(t, New(cfg, corp))
	answered := make(chan *Provenance, 1)
	go func() {
		got, _ := mcptest.CallOK[ReadDocOutput](t, c, "mod_read_doc", ReadDocInput{Path: "a.md"})
		answered <- got.Provenance
	}()
	select {
	case p := <-answered:
		t.Fatalf("answered before the history was walked, with provenance %+v", p)
	case <-time.After(100 * time.Millisecond): // the call is waiting, or not sent yet: either way it must tell the commit
	}
	mcptest.Background(t, "following the history", func(ctx context.Context) error {
		corp.FollowHistory(ctx)
		return nil
	})
	if p := <-answered; p == nil || p.Commit != first[:7] {
		t.Errorf("the first answer's provenance: %+v, want commit %s", p, first[:7])
	}
}
