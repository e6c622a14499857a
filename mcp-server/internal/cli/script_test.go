package cli

import (
	"context"
	"os"
	"testing"

	"github.com/rogpeppe/go-internal/testscript"
)

func TestMain(m *testing.M) {
	testscript.Main(m, map[string]func(){
		"docs-mcp": func() {
			os.Exit(Main(context.Background(), "v0.0.0-test", os.Args, os.Stdin, os.Stdout, os.Stderr))
		},
	})
}

// TestScripts runs the command line scripts in testdata/script.
func TestScripts(t *testing.T) {
	testscript.Run(t, testscript.Params{Dir: "testdata/script"})
}
