package corpus_test

import (
	"context"
	"path/filepath"
	"testing"
	"time"

	"github.com/docs-mcp/docs-mcp/mcp-server/gitdocs"
	"github.com/docs-mcp/docs-mcp/mcp-server/internal/corpus"
	"github.com/docs-mcp/docs-mcp/mcp-server/internal/docs"
	"github.com/docs-mcp/docs-mcp/mcp-server/mcptest"
)

// TestHistory: a corpus run on a repository holds each doc's last commit
// once the start-up is over, and walks again when HEAD moves, with or
// without a doc changed.
func TestHistory(t *testing.T) {
	r := mcptest.NewGitRepo(t)
	r.Write(map[string]string{"docs/a.md": "# A\n", "docs/b.md": "# B\n", "README.md": "# Readme\n"})
	first := r.Commit("first")
	repo, err := gitdocs.Open(r.Dir)
	if err != nil {
		t.Fatal(err)
	}
	defer repo.Close()
	cfg := corpus.DefaultConfig()
	cfg.DataRoot, cfg.DocsPath, cfg.Git = r.Dir, filepath.Join(r.Dir, "docs"), repo
	cfg.PollInterval = 20 * time.Millisecond
	c := corpus.New(cfg)
	ctx, cancel := context.WithCancel(t.Context())
	ran := make(chan error, 1)
	go func() { ran <- c.Run(ctx, func(docs.Change) {}) }()
	defer func() {
		cancel()
		<-ran
	}()
	mcptest.Closed(t, c.Settled(), "the start-up's end")
	last := func(p string) string {
		h := c.History()
		if h == nil {
			return ""
		}
		commit, _ := h.Last(p)
		return commit.ID
	}
	if got := last("docs/a.md"); got != first {
		t.Fatalf("docs/a.md's last commit once settled: %q, want %q", got, first)
	}

	r.Write(map[string]string{"docs/a.md": "# A\n\nEdited.\n"})
	second := r.Commit("second")
	mcptest.Eventually(t, "docs/a.md's new commit", func() bool { return last("docs/a.md") == second })
	if got := last("docs/b.md"); got != first {
		t.Errorf("docs/b.md, not changed: last commit %q, want %q", got, first)
	}
	r.Write(map[string]string{"README.md": "# Readme\n\nMore.\n"})
	third := r.Commit("third: no doc")
	mcptest.Eventually(t, "HEAD's move", func() bool { return c.History().Head == third })
	if got := last("docs/a.md"); got != second {
		t.Errorf("docs/a.md after a commit of no doc: %q, want %q", got, second)
	}
}
