package main

import (
	"flag"
	"os"
	"path/filepath"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/docs-mcp/docs-mcp/framework"
)

var update = flag.Bool("update", false, "rewrite modkit/hooks_gen.go")

// TestGeneratedFileUpToDate fails when mod_hooks.json changed and
// modkit/hooks_gen.go was not regenerated. Fix it with
// `go generate ./modkit` or `go test ./internal/hookgen -update`.
func TestGeneratedFileUpToDate(t *testing.T) {
	path := filepath.Join("..", "..", "modkit", "hooks_gen.go")
	want, err := generate(framework.RegistryJSON())
	if err != nil {
		t.Fatal(err)
	}
	if *update {
		if err := os.WriteFile(path, want, 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	got, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff(string(want), string(got)); diff != "" {
		t.Errorf("modkit/hooks_gen.go is stale; run go generate ./modkit (-want +got):\n%s", diff)
	}
}

func TestGenerateRejectsInvalidRegistry(t *testing.T) {
	_, err := generate([]byte(`{"registry_version": "1.0.0", "framework": "modkit", "hooks": []}`))
	if err == nil {
		t.Fatal("generate accepted a registry without hooks")
	}
}
