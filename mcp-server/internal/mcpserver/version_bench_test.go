package mcpserver

import (
	"context"
	"encoding/json"
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/mark3labs/mcp-go/mcp"

	"github.com/docs-mcp/docs-mcp/mcp-server/gitdocs"
	"github.com/docs-mcp/docs-mcp/mcp-server/internal/corpusgen"
	"github.com/docs-mcp/docs-mcp/mcp-server/internal/versions"
	"github.com/docs-mcp/docs-mcp/mcp-server/mcptest"
)

// BenchmarkFirstVersionedCall measures a versioned search (a page of 50
// matches of a common word in the older of two releases of 2,000
// generated small docs, committed with the fixture's registry; HEAD one
// commit past the newer tag) as the first call about the release once
// its set is loaded (first: a new server for each call), and as any call
// after (next). What a release derives (its history, its registry
// checked, its tree) is made as it loads, so first costs what next
// does; each reports cpu-ns/op (the process's, all goroutines).
//
//	go test -run '^$' -bench FirstVersionedCall -benchtime 10x ./mcp-server/internal/mcpserver
func BenchmarkFirstVersionedCall(b *testing.B) {
	ctx := context.Background()
	r := mcptest.NewGitRepo(b)
	if _, err := corpusgen.Generate(ctx, filepath.Join(r.Dir, "docs"), corpusgen.Options{Seed: 1, Files: 2000, Shape: corpusgen.Small}); err != nil {
		b.Fatal(err)
	}
	reg, err := os.ReadFile(filepath.Join(fixtureRoot, "framework", "mod_hooks.json"))
	if err != nil {
		b.Fatal(err)
	}
	r.Write(map[string]string{"framework/mod_hooks.json": string(reg)})
	r.Commit("v1.0.0")
	r.Git("tag", "v1.0.0")
	for i, tag := range []string{"v1.1.0", ""} {
		r.Write(map[string]string{fmt.Sprintf("docs/edited%d.md", i): "# Edited\n\nA player page.\n"})
		r.Commit("edit " + tag)
		if tag != "" {
			r.Git("tag", tag)
		}
	}
	repo, err := gitdocs.Open(r.Dir)
	if err != nil {
		b.Fatal(err)
	}
	defer repo.Close()
	sel, _ := gitdocs.ParseSelector("v*")
	serve := func() *Server {
		vc := versions.Config{Repo: repo, Selector: sel, DocsDir: "docs", RegistryPath: "framework/mod_hooks.json", PollInterval: time.Hour}
		srv, set := newReleasesServer(b, r.Dir, repo, vc)
		<-set.Loaded()
		return srv
	}
	msg := json.RawMessage(`{"jsonrpc":"2.0","id":7,"method":"tools/call","params":{"name":"mod_search_docs","arguments":{"query":"player","limit":50,"version":"v1.0.0"}}}`)
	call := func(b *testing.B, srv *Server) {
		out, err := json.Marshal(srv.MCP().HandleMessage(ctx, msg))
		if err != nil {
			b.Fatal(err)
		}
		if !strings.Contains(string(out), `"commit":"`) || strings.Contains(string(out), `"isError":true`) {
			b.Fatalf("no answer with provenance: %.300s", out)
		}
	}
	b.Run("first", func(b *testing.B) {
		var cpu time.Duration
		for range b.N {
			b.StopTimer()
			srv := serve()
			b.StartTimer()
			began := mcptest.CPUTime()
			call(b, srv)
			cpu += mcptest.CPUTime() - began
		}
		b.ReportMetric(float64(cpu)/float64(b.N), "cpu-ns/op")
	})
	b.Run("next", func(b *testing.B) {
		srv := serve()
		call(b, srv)
		cpu := mcptest.CPUTime()
		for b.Loop() {
			call(b, srv)
		}
		b.ReportMetric(float64(mcptest.CPUTime()-cpu)/float64(b.N), "cpu-ns/op")
	})
}

var loadingTags = flag.Int("loading.tags", 5000, "release tags of BenchmarkCheapCallsWhileTagsLoad")

// BenchmarkCheapCallsWhileTagsLoad serves a repository of many release tags
// (-loading.tags, each on a commit of its own that edits one of 20 docs)
// with the default work limits, while one client asks for the oldest
// release (which waits for it, outside the work queue) and another makes
// cheap calls (mod_list_doc_paths, mod_list_versions) one after the other
// until every release is loaded and indexed and their histories walked.
// It reports served-s (from the server's start until the oldest release
// answers; 0 when the call waited its longest, 30 s, and was told the
// release is still loading: oldest-late is then 1), load-s (until the
// loading is over), and the other client's calls: answered, and refused
// as busy (it fails on one refused).
//
//	go test -run '^$' -bench CheapCallsWhileTagsLoad -benchtime 1x -timeout 30m ./mcp-server/internal/mcpserver
func BenchmarkCheapCallsWhileTagsLoad(b *testing.B) {
	r := mcptest.NewGitRepo(b)
	name := func(i int) string { return fmt.Sprintf("v1.%d.%d", i/100, i%100) }
	r.ReleaseTags(*loadingTags, 20, name)
	repo, err := gitdocs.Open(r.Dir)
	if err != nil {
		b.Fatal(err)
	}
	defer repo.Close()
	sel, _ := gitdocs.ParseSelector("v*")
	for b.Loop() {
		began := time.Now()
		vc := versions.Config{Repo: repo, Selector: sel, DocsDir: "docs", PollInterval: time.Hour}
		srv, set := newReleasesServer(b, r.Dir, repo, vc)
		waiting, _ := mcptest.InProcess(b, srv.MCP(), mcp.LATEST_PROTOCOL_VERSION)
		other, _ := mcptest.InProcess(b, srv.MCP(), mcp.LATEST_PROTOCOL_VERSION)
		oldest := make(chan error, 1)
		var served time.Duration
		var late atomic.Bool
		go func() {
			req := mcp.CallToolRequest{}
			req.Params.Name = "mod_search_docs"
			req.Params.Arguments = map[string]any{"query": "Written", "version": name(0), "limit": 5}
			res, err := waiting.CallTool(context.Background(), req)
			if err == nil && res.IsError { // it waited its longest (releaseWait) and was told the release is loading
				late.Store(true)
			} else {
				served = time.Since(began)
			}
			oldest <- err
		}()
		answered, busy := 0, 0
		for i := 0; ; i++ {
			select {
			case <-set.Loaded():
			default:
				req := mcp.CallToolRequest{}
				req.Params.Name = "mod_list_doc_paths"
				req.Params.Arguments = map[string]any{"limit": 5}
				if i%2 == 1 {
					req.Params.Name, req.Params.Arguments = "mod_list_versions", map[string]any{}
				}
				res, err := other.CallTool(context.Background(), req)
				switch {
				case err != nil && strings.Contains(err.Error(), "server busy"):
					busy++
				case err != nil || res.IsError:
					b.Fatalf("%s: %v %v", req.Params.Name, err, res)
				default:
					answered++
				}
				continue
			}
			break
		}
		b.ReportMetric(time.Since(began).Seconds(), "load-s")
		b.ReportMetric(float64(answered), "answered")
		b.ReportMetric(float64(busy), "busy")
		if err := <-oldest; err != nil {
			b.Errorf("the call about the oldest release: %v", err)
		}
		b.ReportMetric(served.Seconds(), "served-s")
		if late.Load() {
			b.ReportMetric(1, "oldest-late")
		}
		if busy > 0 {
			b.Errorf("%d of the other client's %d calls refused as busy", busy, busy+answered)
		}
	}
}
