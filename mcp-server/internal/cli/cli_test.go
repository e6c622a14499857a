package cli

import (
	"context"
	"os"
	"testing"

	"github.com/docs-mcp/docs-mcp/mcp-server/mcptest"
	"github.com/rogpeppe/go-internal/testscript"
)

// TestMain makes this test binary double as docs-mcp: testscript puts it on
// PATH under that name for scripts and for the stdio tests, which run it as
// a real subprocess. The servers the tests start keep no cache (the tests
// that are about the cache say where to keep it), so that a run leaves no
// file in the user's cache folder.
func TestMain(m *testing.M) {
	os.Setenv("DOCS_MCP_NO_CACHE", "true")
	testscript.Main(m, map[string]func(){
		"docs-mcp": func() {
			os.Exit(Main(context.Background(), "v0.0.0-test", os.Args, os.Stdin, os.Stdout, os.Stderr))
		},
	})
}

func TestScripts(t *testing.T) {
	mcptest.SkipUnderRace(t, "its subject is the command line: each script runs the binary for its flags, messages and exit codes; the server's concurrent paths run under the detector in the stdio and HTTP tests")
	testscript.Run(t, testscript.Params{
		Dir:                 "testdata/script",
		RequireExplicitExec: true,
	})
}

// TestReachable checks the address the start-up log gives clients: never
// an unspecified host such as [::] or 0.0.0.0, which no client can reach.
func TestReachable(t *testing.T) {
	for _, c := range []struct{ addr, public, want string }{
		{"127.0.0.1:3000", "", "http://127.0.0.1:3000"},
		{"0.0.0.0:3000", "", "http://127.0.0.1:3000"},
		{"[::]:3000", "", "http://127.0.0.1:3000"},
		{"[::1]:3000", "", "http://[::1]:3000"},
		{"[::]:3000", "http://127.0.0.1:3040", "http://127.0.0.1:3040"}, // the container, told its published port
	} {
		if got := reachable(c.addr, c.public); got != c.want {
			t.Errorf("reachable(%q, %q) = %q, want %q", c.addr, c.public, got, c.want)
		}
	}
}
