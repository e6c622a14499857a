package mcpserver

import (
	"context"
	"encoding/json"
	"path/filepath"
	"strings"
	"testing"

	"github.com/docs-mcp/docs-mcp/mcp-server/gitdocs"
	"github.com/docs-mcp/docs-mcp/mcp-server/internal/corpus"
	"github.com/docs-mcp/docs-mcp/mcp-server/internal/corpusgen"
	"github.com/docs-mcp/docs-mcp/mcp-server/internal/docs"
	"github.com/docs-mcp/docs-mcp/mcp-server/internal/search"
	"github.com/docs-mcp/docs-mcp/mcp-server/mcptest"
)

// BenchmarkSearchProvenance measures BenchmarkSearchPage's server share
// (a page of 50 matches of a common word, on 2,000 generated small docs,
// committed) without provenance (off: the data root is not read as a
// repository), with it as served (on: each doc's blob id attached to the
// snapshot by the corpus, its last commit walked by the corpus for HEAD,
// which it reads every 2 s beside the calls). No call hashes a doc: a doc
// whose id is not attached yet is answered without provenance. on should
// cost what off does, plus the commits' text; each reports cpu-ns/op and
// the answer's bytes.
//
//	go test -run '^$' -bench SearchProvenance -benchmem ./mcp-server/internal/mcpserver
func BenchmarkSearchProvenance(b *testing.B) {
	ctx := context.Background()
	r := mcptest.NewGitRepo(b)
	if _, err := corpusgen.Generate(ctx, filepath.Join(r.Dir, "docs"), corpusgen.Options{Seed: 1, Files: 2000, Shape: corpusgen.Small}); err != nil {
		b.Fatal(err)
	}
	r.Commit("docs")
	repo, err := gitdocs.Open(r.Dir)
	if err != nil {
		b.Fatal(err)
	}
	defer repo.Close()
	serve := func(git *gitdocs.Repo) *Server {
		snap, err := docs.Load(ctx, filepath.Join(r.Dir, "docs"), docs.LoadOptions{Generation: 1})
		if err != nil {
			b.Fatal(err)
		}
		cc := corpus.DefaultConfig() // with Git, the corpus attaches the blob ids itself
		cfg := DefaultConfig()
		cfg.DataRoot, cfg.DocsPath = r.Dir, filepath.Join(r.Dir, "docs")
		cc.DataRoot, cc.DocsPath, cc.Git = cfg.DataRoot, cfg.DocsPath, git
		c := openCorpus(snap, cc)
		mcptest.Background(b, "following the history", func(ctx context.Context) error {
			c.FollowHistory(ctx)
			return nil
		})
		srv := New(cfg, c)
		<-search.Build(snap, nil).Done()
		if err := corpus.AwaitBlobIDs(ctx, snap); err != nil {
			b.Fatal(err)
		}
		<-c.HistoryWalked()
		return srv
	}
	msg := json.RawMessage(`{"jsonrpc":"2.0","id":7,"method":"tools/call","params":{"name":"mod_search_docs","arguments":{"query":"player","limit":50}}}`)
	for _, tc := range []struct {
		name string
		git  *gitdocs.Repo
	}{{"off", nil}, {"on", repo}} {
		srv := serve(tc.git)
		b.Run(tc.name, func(b *testing.B) {
			var out []byte
			b.ReportAllocs()
			cpu := mcptest.CPUTime()
			for b.Loop() {
				out, err = json.Marshal(srv.MCP().HandleMessage(ctx, msg))
				if err != nil {
					b.Fatal(err)
				}
			}
			b.ReportMetric(float64(mcptest.CPUTime()-cpu)/float64(b.N), "cpu-ns/op")
			b.ReportMetric(float64(len(out)), "bytes/answer")
			if committed := strings.Contains(string(out), `"commit":"`); committed != (tc.git != nil) {
				b.Fatalf("provenance in the answer: %v, want %v: %.300s", committed, tc.git != nil, out)
			}
		})
	}
}
