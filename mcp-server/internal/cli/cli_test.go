package cli

import (
	"context"
	"os"
	"testing"

	"github.com/rogpeppe/go-internal/testscript"
)

// TestMain makes this test binary double as docs-mcp: testscript puts it on
// PATH under that name for scripts and for the stdio tests, which run it as
// a real subprocess.
func TestMain(m *testing.M) {
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
