package cli

import (
	"context"
	"os"
	"testing"

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
	testscript.Run(t, testscript.Params{
		Dir:                 "testdata/script",
		RequireExplicitExec: true,
	})
}
