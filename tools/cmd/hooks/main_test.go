package main

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/rogpeppe/go-internal/testscript"
)

func TestMain(m *testing.M) {
	testscript.Main(m, map[string]func(){
		"hooks": func() { os.Exit(run(os.Args[1:], os.Stdout, os.Stderr)) },
	})
}

// TestScripts runs the scripts in testdata/script; $REGISTRY is the real
// framework/mod_hooks.json.
func TestScripts(t *testing.T) {
	registry, err := filepath.Abs(filepath.Join("..", "..", "..", "framework", "mod_hooks.json"))
	if err != nil {
		t.Fatal(err)
	}
	testscript.Run(t, testscript.Params{
		Dir: filepath.Join("testdata", "script"),
		Setup: func(env *testscript.Env) error {
			env.Setenv("REGISTRY", registry)
			return nil
		},
	})
}
