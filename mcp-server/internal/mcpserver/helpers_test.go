package mcpserver

import (
	"context"
	"encoding/json"
	"flag"
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/mark3labs/mcp-go/client"
	"github.com/mark3labs/mcp-go/mcp"

	"github.com/docs-mcp/docs-mcp/mcp-server/gitdocs"
	"github.com/docs-mcp/docs-mcp/mcp-server/internal/corpus"
	"github.com/docs-mcp/docs-mcp/mcp-server/internal/docs"
	"github.com/docs-mcp/docs-mcp/mcp-server/internal/versions"
	"github.com/docs-mcp/docs-mcp/mcp-server/mcptest"
)

var update = flag.Bool("update", false, "rewrite golden files")

// fixtureRoot is a small repository: docs, a registry and a guide.
const fixtureRoot = "testdata/repo"

// newClient serves dataRoot through mcp-go's in-process client,
// initialised with a protocol version that has sessions; edits change the
// server's DefaultConfig.
func newClient(t *testing.T, dataRoot string, edits ...func(*Config)) *client.Client {
	t.Helper()
	return connect(t, newServer(t, dataRoot, edits...))
}

// repoRoot is this repository's root, its docs in place, or skips the test
// where they are not (a copy of the package alone).
func repoRoot(t *testing.T) string {
	t.Helper()
	root, err := filepath.Abs("../../..")
	if err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(filepath.Join(root, "docs", "index.md")); err != nil {
		t.Skipf("no repository docs here: %v", err)
	}
	return root
}

// meta0728 is the _meta of a 2026-07-28 request, which carries the
// revision and the client in every request.
const meta0728 = `"_meta":{"io.modelcontextprotocol/protocolVersion":"2026-07-28","io.modelcontextprotocol/clientInfo":{"name":"t","version":"1"},"io.modelcontextprotocol/clientCapabilities":{}}`

// rawAnswer returns a function giving srv's answer to one JSON-RPC
// request as the bytes a transport sends.
func rawAnswer(t *testing.T, srv *Server) func(req string) string {
	return func(req string) string {
		t.Helper()
		b, err := json.Marshal(srv.MCP().HandleMessage(t.Context(), []byte(req)))
		if err != nil {
			t.Fatal(err)
		}
		return string(b)
	}
}

// newServer serves dataRoot, its docs loaded; edits change the server's
// DefaultConfig.
func newServer(t *testing.T, dataRoot string, edits ...func(*Config)) *Server {
	t.Helper()
	cfg, docsDir := withFixture(t, dataRoot)
	for _, edit := range edits {
		edit(&cfg)
	}
	return New(cfg, openCorpus(loadDocs(t, docsDir), corpus.DefaultConfig()))
}

// newGitServer is newServer of the git repository repo at dataRoot (nil:
// not a repository), as cli wires one: its corpus follows the history at
// HEAD (read every 10 ms here), walked once before the server is returned.
func newGitServer(t *testing.T, dataRoot string, repo *gitdocs.Repo, edits ...func(*Config)) *Server {
	t.Helper()
	srv, _ := gitServer(t, dataRoot, repo, nil, edits...)
	return srv
}

// newReleasesServer is newGitServer with the releases of vc, which its
// corpus makes (its Repo is repo's) and the test runs, as the corpus's
// Run would.
func newReleasesServer(t testing.TB, dataRoot string, repo *gitdocs.Repo, vc versions.Config, edits ...func(*Config)) (*Server, *versions.Set) {
	t.Helper()
	return gitServer(t, dataRoot, repo, &vc, edits...)
}

// gitServer is newGitServer, with releases when vc is not nil.
func gitServer(t testing.TB, dataRoot string, repo *gitdocs.Repo, vc *versions.Config, edits ...func(*Config)) (*Server, *versions.Set) {
	t.Helper()
	cfg, docsDir := withFixture(t, dataRoot)
	for _, edit := range edits {
		edit(&cfg)
	}
	cc := corpus.DefaultConfig()
	cc.DataRoot, cc.DocsPath, cc.Git, cc.PollInterval, cc.Versions = cfg.DataRoot, docsDir, repo, 10*time.Millisecond, vc
	c := openCorpus(loadDocs(t, docsDir), cc)
	mcptest.Background(t, "following the history", func(ctx context.Context) error {
		c.FollowHistory(ctx)
		return nil
	})
	if set := c.Releases(); set != nil {
		mcptest.Background(t, "following the release tags", func(ctx context.Context) error {
			set.Run(ctx)
			return nil
		})
	}
	<-c.HistoryWalked()
	return New(cfg, c), c.Releases()
}

// withFixture is DefaultConfig pointed at the repository dataRoot, as the
// CLI does, and the repository's docs folder.
func withFixture(t testing.TB, dataRoot string) (Config, string) {
	t.Helper()
	abs, err := filepath.Abs(dataRoot)
	if err != nil {
		t.Fatal(err)
	}
	cfg := DefaultConfig()
	cfg.DataRoot = abs
	cfg.RegistryPath = filepath.Join(abs, "framework", "mod_hooks.json")
	cfg.ContributingPath = filepath.Join(abs, "CONTRIBUTING.md")
	cfg.DocsPath = filepath.Join(abs, "docs")
	return cfg, filepath.Join(abs, "docs")
}

// loadDocs loads the docs folder dir, as the corpus does first.
func loadDocs(t testing.TB, dir string) *docs.Snapshot {
	t.Helper()
	snap, err := docs.Load(context.Background(), dir, docs.LoadOptions{Generation: 1})
	if err != nil {
		t.Fatal(err)
	}
	return snap
}

// openCorpus is a corpus configured by cfg that serves snap, opened as
// its Run opens the docs it loads (but not following the disk).
func openCorpus(snap *docs.Snapshot, cfg corpus.Config) *corpus.Corpus {
	c := corpus.New(cfg)
	c.Open(snap)
	return c
}

// connect opens an in-process client session on srv and initialises it.
func connect(t *testing.T, srv *Server) *client.Client {
	t.Helper()
	c, _ := initialize(t, srv)
	return c
}

// initialize opens an in-process client session on srv, initialises it and
// returns the server's answer.
func initialize(t *testing.T, srv *Server) (*client.Client, *mcp.InitializeResult) {
	t.Helper()
	return mcptest.InProcess(t, srv.MCP(), mcp.LATEST_PROTOCOL_VERSION)
}

// golden compares got with testdata/name, or rewrites it with -update.
func golden(t *testing.T, name string, got []byte) {
	t.Helper()
	path := filepath.Join("testdata", name)
	if *update {
		if err := os.WriteFile(path, got, 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	want, err := os.ReadFile(path)
	if err != nil {
		t.Fatalf("%v (run go test -update to create it)", err)
	}
	if string(want) != string(got) {
		t.Errorf("%s differs from the golden file; if the change is meant, run go test ./mcp-server/internal/mcpserver -update and review the diff.\n--- want\n%s\n--- got\n%s", path, want, got)
	}
}

// copyTree copies the fixture to a temp dir, for tests that change it.
func copyTree(t *testing.T, from string) string {
	t.Helper()
	to := t.TempDir()
	if err := os.CopyFS(to, os.DirFS(from)); err != nil {
		t.Fatal(err)
	}
	return to
}

func writeFile(t *testing.T, dir, rel, content string) {
	t.Helper()
	mcptest.WriteFile(t, filepath.Join(dir, filepath.FromSlash(rel)), content)
}
