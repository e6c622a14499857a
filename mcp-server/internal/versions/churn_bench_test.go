package versions_test

import (
	"context"
	"flag"
	"fmt"
	"io"
	"math/rand/v2"
	"net/http"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/mark3labs/mcp-go/client"
	"github.com/mark3labs/mcp-go/mcp"

	"github.com/docs-mcp/docs-mcp/mcp-server/internal/corpusgen"
	"github.com/docs-mcp/docs-mcp/mcp-server/mcptest"
)

var (
	churnOps   = flag.Int("releases.ops", 100, "tag operations of BenchmarkTagChurn (docs/server/benchmarks.md runs it at 1000)")
	churnEvery = flag.Duration("releases.every", 200*time.Millisecond, "time between two tag operations of BenchmarkTagChurn")
)

// BenchmarkTagChurn serves a repository of 60 release tags over 500
// generated docs and this repository's hook registry with the docs-mcp binary (--versions 'v*', over HTTP),
// then adds, moves and deletes tags (-releases.ops of them, one every
// -releases.every; at most 10 of the tags added live at once), a client
// searching each of those added that is served after each, as a client
// following the releases would; it reports the server's resident
// memory once it serves the final tags, beside that of a server started
// afresh on them. Both are read a few polls of the tags after the last
// change, when the memory has settled.
func BenchmarkTagChurn(b *testing.B) {
	root, err := filepath.Abs("../../..")
	if err != nil {
		b.Fatal(err)
	}
	bin, err := mcptest.BuildDocsMCP(root, b.TempDir())
	if err != nil {
		b.Fatal(err)
	}
	r := mcptest.NewGitRepo(b)
	if _, err := corpusgen.Generate(context.Background(), filepath.Join(r.Dir, "docs"), corpusgen.Options{Seed: 2, Files: 500, Shape: corpusgen.Small}); err != nil {
		b.Fatal(err)
	}
	reg, err := os.ReadFile(filepath.Join(root, "framework", "mod_hooks.json"))
	if err != nil {
		b.Fatal(err)
	}
	r.Write(map[string]string{"framework/mod_hooks.json": string(reg)}) // a search of a release matches its hooks too
	r.Commit("docs")
	r.ReleaseTags(60, 20, func(i int) string { return fmt.Sprintf("v1.0.%d", i) })
	commits := make([]string, 60)
	for i := range commits {
		commits[i] = r.Git("rev-parse", fmt.Sprintf("v1.0.%d", i))
	}
	tags := func() []string {
		names := strings.Fields(r.Git("tag", "--list", "v*"))
		slices.Sort(names)
		return names
	}
	serve := func() (pid int, addr string, served func() []string, search func()) {
		cmd, addr := mcptest.ServeHTTP(b, bin, "--data-root", r.Dir, "--versions", "v*", "--no-cache")
		c, err := client.NewStreamableHttpClient("http://" + addr + "/mcp")
		if err != nil {
			b.Fatal(err)
		}
		mcptest.Initialize(b, c, mcp.ProtocolVersion20250618, "churn")
		list := func() (names []string, loading bool) {
			var out struct {
				Versions []struct{ Name string }
				Loading  *struct{}
			}
			mcptest.Decode(b, mcptest.Call(b, c, "mod_list_versions", struct{}{}), &out)
			for _, v := range out.Versions[1:] {
				names = append(names, v.Name)
			}
			return names, out.Loading != nil
		}
		served = func() []string {
			names, loading := list()
			if loading {
				return nil
			}
			slices.Sort(names)
			return names
		}
		search = func() {
			names, _ := list()
			for _, n := range names {
				if strings.HasPrefix(n, "v2.") {
					mcptest.Call(b, c, "mod_search_docs", map[string]any{"query": "player", "version": n})
				}
			}
		}
		return cmd.Process.Pid, addr, served, search
	}
	settled := func(pid int, addr string, served func() []string) float64 {
		want := tags()
		mcptest.Eventually(b, "the final tags served", func() bool { return slices.Equal(served(), want) })
		time.Sleep(10 * time.Second) // five polls of the tags, and the collector's rounds
		rss, err := mcptest.ProcMemory(pid, "VmRSS")
		if err != nil {
			b.Fatal(err)
		}
		b.Logf("VmRSS %.1f MiB; the runtime's memory: %s", float64(rss)/(1<<20), goMemory(b, addr))
		return float64(rss) / (1 << 20)
	}
	for b.Loop() {
		pid, addr, served, search := serve()
		mcptest.Eventually(b, "the 60 tags served", func() bool { return len(served()) == 60 })
		start, err := mcptest.ProcMemory(pid, "VmRSS")
		if err != nil {
			b.Fatal(err)
		}
		rng := rand.New(rand.NewPCG(1, 2))
		var live []string // the tags added, oldest first
		for i := range *churnOps {
			switch {
			case i%3 == 1 && len(live) > 0: // move one
				r.Git("tag", "-f", live[rng.IntN(len(live))], commits[rng.IntN(len(commits))])
			case i%3 == 2 && len(live) >= 10: // delete the oldest
				r.Git("tag", "-d", live[0])
				live = live[1:]
			default: // add one
				name := fmt.Sprintf("v2.0.%d", i)
				r.Git("tag", name, commits[rng.IntN(len(commits))])
				live = append(live, name)
			}
			search()
			time.Sleep(*churnEvery)
			if (i+1)%200 == 0 {
				rss, err := mcptest.ProcMemory(pid, "VmRSS")
				if err != nil {
					b.Fatal(err)
				}
				b.Logf("after %d operations: VmRSS %.1f MiB", i+1, float64(rss)/(1<<20))
			}
		}
		churned := settled(pid, addr, served)
		freshPid, freshAddr, freshServed, _ := serve()
		fresh := settled(freshPid, freshAddr, freshServed)
		b.ReportMetric(float64(start)/(1<<20), "start-MiB")
		b.ReportMetric(churned, "churned-MiB")
		b.ReportMetric(fresh, "fresh-MiB")
		b.ReportMetric(churned/fresh, "churned/fresh")
		b.Logf("%d tag operations, %d tags at the end: %.1f MiB after them (%.1f MiB at start), %.1f MiB served afresh",
			*churnOps, len(tags()), churned, float64(start)/(1<<20), fresh)
	}
}

// goMemory is where the Go runtime of the server at addr says its memory
// is, from its /metrics (go_memstats_*, in MiB): the heap in use, the
// heap's pages free but not returned to the system (idle less released),
// the goroutines' stacks, and what the runtime holds from the system.
func goMemory(b *testing.B, addr string) string {
	b.Helper()
	resp, err := http.Get("http://" + addr + "/metrics")
	if err != nil {
		b.Fatal(err)
	}
	defer resp.Body.Close()
	body, err := io.ReadAll(resp.Body)
	if err != nil {
		b.Fatal(err)
	}
	v := map[string]float64{}
	for line := range strings.Lines(string(body)) {
		name, value, ok := strings.Cut(strings.TrimSpace(line), " ")
		if ok && strings.HasPrefix(name, "go_memstats_") {
			v[strings.TrimPrefix(name, "go_memstats_")], _ = strconv.ParseFloat(value, 64)
		}
	}
	const mib = 1 << 20
	return fmt.Sprintf("heap alloc %.1f, in use %.1f, free unreturned %.1f, stacks %.1f, other %.1f, sys %.1f MiB",
		v["heap_alloc_bytes"]/mib, v["heap_inuse_bytes"]/mib, (v["heap_idle_bytes"]-v["heap_released_bytes"])/mib,
		v["stack_inuse_bytes"]/mib, (v["mspan_inuse_bytes"]+v["mcache_inuse_bytes"]+v["buck_hash_sys_bytes"]+v["gc_sys_bytes"]+v["other_sys_bytes"])/mib,
		v["sys_bytes"]/mib)
}
