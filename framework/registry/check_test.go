package registry

import (
	"flag"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/docs-mcp/docs-mcp/framework"
)

var update = flag.Bool("update", false, "rewrite the golden files in testdata")

// TestCheckGolden runs Check on every fixture in testdata/check and compares
// the problems, one per line as `hooks check` prints them, with the fixture's
// .golden file. Refresh with `go test ./registry -run TestCheckGolden -update`.
func TestCheckGolden(t *testing.T) {
	files, err := filepath.Glob("testdata/check/*.json")
	if err != nil {
		t.Fatal(err)
	}
	if len(files) == 0 {
		t.Fatal("no fixtures in testdata/check")
	}
	for _, file := range files {
		name := strings.TrimSuffix(filepath.Base(file), ".json")
		t.Run(name, func(t *testing.T) {
			data, err := os.ReadFile(file)
			if err != nil {
				t.Fatal(err)
			}
			_, problems := Check(data)
			var b strings.Builder
			for _, p := range problems {
				b.WriteString(p.String() + "\n")
			}
			got := b.String()
			golden := strings.TrimSuffix(file, ".json") + ".golden"
			if *update {
				if err := os.WriteFile(golden, []byte(got), 0o644); err != nil {
					t.Fatal(err)
				}
				return
			}
			want, err := os.ReadFile(golden)
			if err != nil {
				t.Fatalf("%v (run with -update to create it)", err)
			}
			if diff := cmp.Diff(string(want), got); diff != "" {
				t.Errorf("Check(%s) problems mismatch (-want +got):\n%s", file, diff)
			}
			if name == "valid" && len(problems) != 0 {
				t.Errorf("valid fixture has problems: %v", problems)
			}
			if name != "valid" && len(problems) == 0 {
				t.Errorf("broken fixture %s passes Check", file)
			}
		})
	}
}

// TestCheckRealRegistry is the registry the server serves and the mods use.
func TestCheckRealRegistry(t *testing.T) {
	r, problems := Check(framework.RegistryJSON())
	for _, p := range problems {
		t.Errorf("mod_hooks.json:%s", p)
	}
	if r == nil {
		t.Fatal("Check returned no registry")
	}
	if n := len(r.Hooks); n < 30 {
		t.Errorf("registry has %d hooks, want at least 30", n)
	}
	wantCats := []string{"lifecycle", "world", "entity", "player", "chat", "ui", "net", "storage"}
	if diff := cmp.Diff(wantCats, r.Categories()); diff != "" {
		t.Errorf("categories mismatch (-want +got):\n%s", diff)
	}
	var deprecated, filters, cancellable int
	for _, h := range r.Hooks {
		if h.Deprecated != nil {
			deprecated++
		}
		if h.Kind == Filter {
			filters++
		}
		if h.Cancellable {
			cancellable++
		}
	}
	if deprecated < 2 || filters < 5 || cancellable < 5 {
		t.Errorf("registry has %d deprecated, %d filters, %d cancellable hooks; want at least 2, 5, 5",
			deprecated, filters, cancellable)
	}
}

// TestSchemaCompiles guards the embedded schema itself.
func TestSchemaCompiles(t *testing.T) {
	if _, err := compileSchema(); err != nil {
		t.Fatal(err)
	}
}

func BenchmarkCheck(b *testing.B) {
	data := framework.RegistryJSON()
	b.SetBytes(int64(len(data)))
	for b.Loop() {
		if _, problems := Check(data); len(problems) > 0 {
			b.Fatal(problems)
		}
	}
}

func BenchmarkParseValidate(b *testing.B) {
	data := framework.RegistryJSON()
	b.SetBytes(int64(len(data)))
	for b.Loop() {
		r, err := Parse(data)
		if err != nil {
			b.Fatal(err)
		}
		if problems := r.Validate(); len(problems) > 0 {
			b.Fatal(problems)
		}
	}
}
