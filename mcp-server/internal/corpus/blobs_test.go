package corpus_test

import (
	"context"
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/docs-mcp/docs-mcp/mcp-server/gitdocs"
	"github.com/docs-mcp/docs-mcp/mcp-server/internal/corpus"
	"github.com/docs-mcp/docs-mcp/mcp-server/internal/docs"
	"github.com/docs-mcp/docs-mcp/mcp-server/mcptest"
)

// TestBlobIDs: each doc's attached blob id is git's for its file (a file
// with a byte order mark and CRLF lines included), for the first snapshot
// and for the one after an edit, where the edited doc has its new id and
// the others keep theirs. The corpus, given the repository, derives them
// itself; naming DeriveBlobIDs in Derive as well makes them once.
func TestBlobIDs(t *testing.T) {
	r := mcptest.NewGitRepo(t)
	r.Write(map[string]string{
		"docs/a.md":     "# A\n\nAlpha.\n",
		"docs/bom.md":   "\ufeff# BOM\r\n\r\nWindows text.\r\n",
		"docs/sub/c.md": "# C\n",
	})
	r.Commit("docs")
	var err error
	cfg := corpus.DefaultConfig()
	cfg.DataRoot, cfg.DocsPath = r.Dir, filepath.Join(r.Dir, "docs")
	cfg.PollInterval = 20 * time.Millisecond
	cfg.Derive = []func(prev, next *docs.Snapshot){corpus.DeriveBlobIDs}
	if cfg.Git, err = gitdocs.Open(r.Dir); err != nil {
		t.Fatal(err)
	}
	c := corpus.New(cfg)
	ctx, cancel := context.WithCancel(t.Context())
	changes := make(chan docs.Change, 8)
	ran := make(chan error, 1)
	go func() { ran <- c.Run(ctx, func(ch docs.Change) { changes <- ch }) }()
	defer func() {
		cancel()
		<-ran
	}()
	<-c.Opened()

	check := func(snap *docs.Snapshot) {
		t.Helper()
		if err := corpus.AwaitBlobIDs(t.Context(), snap); err != nil {
			t.Fatal(err)
		}
		for _, d := range snap.Docs() {
			id, ok := corpus.BlobID(snap, d)
			want := r.Git("hash-object", filepath.Join("docs", filepath.FromSlash(d.Path)))
			if !ok || id.String() != want {
				t.Errorf("generation %d, %s: blob id %s (attached: %v), git says %s", snap.Generation(), d.Path, id, ok, want)
			}
		}
	}
	check(c.Snapshot())

	// As an editor saves: the whole file, then renamed over the old one.
	tmp := filepath.Join(r.Dir, "docs", ".a.md.tmp")
	if err := os.WriteFile(tmp, []byte("# A\n\nAlpha, edited.\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.Rename(tmp, filepath.Join(r.Dir, "docs", "a.md")); err != nil {
		t.Fatal(err)
	}
	select {
	case ch := <-changes:
		check(ch.Next)
	case <-time.After(time.Minute):
		t.Fatal("no change seen a minute after a doc was edited")
	}
}
