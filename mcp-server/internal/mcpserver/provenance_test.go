package mcpserver

import (
	"errors"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/mark3labs/mcp-go/client"
	"github.com/mark3labs/mcp-go/mcp"

	"github.com/docs-mcp/docs-mcp/mcp-server/gitdocs"
	"github.com/docs-mcp/docs-mcp/mcp-server/mcptest"
)

// gitClient serves the git repository r with its history.
func gitClient(t *testing.T, r *mcptest.GitRepo) *client.Client {
	t.Helper()
	repo, err := gitdocs.Open(r.Dir)
	if err != nil {
		t.Fatal(err)
	}
	return newClient(t, r.Dir, func(c *Config) { c.Git = repo })
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
	want := &SearchProvenance{Version: WorkingTree, Docs: []DocProvenance{
		{Path: "a.md", Uncommitted: true},
		{Path: "b.md", Commit: second[:7], Date: "2026-01-02T12:00:00Z"},
	}}
	if diff := cmp.Diff(want, got.Provenance); diff != "" {
		t.Errorf("mod_search_docs provenance (-want +got):\n%s", diff)
	}
	if line := "[From the working tree; last changed: a.md (not committed), b.md " + second[:7] + " 2026-01-02]"; !strings.HasSuffix(text, line) {
		t.Errorf("mod_search_docs text does not end with %q:\n%s", line, text)
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

	// A commit made while the server runs is told at once.
	third := r.Commit("third")
	got2, _ := mcptest.CallOK[ReadDocOutput](t, c, "mod_read_doc", ReadDocInput{Path: "a.md"})
	if diff := cmp.Diff(&Provenance{Version: WorkingTree, Commit: third[:7], Date: "2026-01-03T12:00:00Z"}, got2.Provenance); diff != "" {
		t.Errorf("a.md after committing it (-want +got):\n%s", diff)
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
