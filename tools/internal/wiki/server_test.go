package wiki

import (
	"flag"
	"fmt"
	"os"
	"runtime"
	"strconv"
	"sync"
	"testing"

	"github.com/docs-mcp/docs-mcp/mcp-server/mcptest"
	"github.com/docs-mcp/docs-mcp/tools/internal/repo"
)

// The wiki is tested as it is served: by the docs-mcp server in HTTP mode,
// run as a process. Its handler lives in mcp-server/internal, which the tools
// module cannot import, and a process is the real thing anyway.

var (
	// shared is where TestMain lets the tests keep what they share: the
	// server binary, and the repository's site (repoSite).
	shared string

	docsMCPOnce = sync.OnceValues(func() (string, error) {
		root, err := repo.Root(".")
		if err != nil {
			return "", err
		}
		return mcptest.BuildDocsMCP(root, shared)
	})
)

func TestMain(m *testing.M) {
	// The parallel tests (the browser's, the watch's) wait on Chromium,
	// Hugo and the servers they drive, processes of their own, more than
	// they compute: four run at a time unless -parallel says otherwise,
	// not GOMAXPROCS's two on a 2-core machine, where two at a time left a
	// core idle much of CI's longest package.
	flag.Parse()
	parallel := false
	flag.Visit(func(f *flag.Flag) { parallel = parallel || f.Name == "test.parallel" })
	if !parallel {
		if err := flag.Set("test.parallel", strconv.Itoa(max(4, runtime.GOMAXPROCS(0)))); err != nil {
			fmt.Fprintln(os.Stderr, err)
			os.Exit(1)
		}
	}
	dir, err := os.MkdirTemp("", "wiki-test-*")
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
	shared = dir
	code := m.Run()
	os.RemoveAll(dir)
	os.Exit(code)
}

// serveSite runs docs-mcp on a free loopback port with site as its wiki and
// root as its data root, and returns its base URL (http://127.0.0.1:PORT).
// The server is stopped with SIGTERM when the test ends and must exit 0.
func serveSite(t *testing.T, site, root string) string {
	t.Helper()
	exe, err := docsMCPOnce()
	if err != nil {
		t.Fatalf("build the docs-mcp server: %v", err)
	}
	_, addr := mcptest.ServeHTTP(t, exe, "--site-dir", site, "--data-root", root)
	t.Logf("docs-mcp serves %s at http://%s/wiki/", site, addr)
	return "http://" + addr
}
