package registry

import (
	"bytes"
	"errors"
	"os"
	"path/filepath"
	"slices"
	"testing"

	"github.com/docs-mcp/docs-mcp/framework"
)

// FuzzCheck loads any bytes as mod_hooks.json, as the MCP server does with
// whatever is on disk. Parse and Check never panic; a refusal is a
// *ParseError located inside the file, or problems that each have a message
// and a position inside the file, in order; no problems means a registry
// whose every hook can be looked up, named in Go and suggested against.
func FuzzCheck(f *testing.F) {
	f.Add(framework.RegistryJSON())
	fixtures, err := filepath.Glob("testdata/check/*.json")
	if err != nil {
		f.Fatal(err)
	}
	for _, file := range fixtures {
		data, err := os.ReadFile(file)
		if err != nil {
			f.Fatal(err)
		}
		f.Add(data)
	}
	for _, s := range []string{
		"", " ", "\xef\xbb\xbf{}", "{}", "[]", "null", `{"hooks": null}`, `{"hooks": [null]}`,
		`{"hooks": [{"name": "", "params": [{}]}]}`, `{"hooks": [{"name": "é.x"}]}`,
		`{"registry_version": 1}`, `{"a": 1, "a": 2}`, "{\"hooks\": [\n{\"name\": \"a.b\"},\n{\"name\": \"a.b\"}]}",
		`{"hooks": [{"name": "player.joined", "kind": "filter", "deprecated": {"since": "9.9.9"}}]}`,
		"{\"framework\": \"modkit\x00\"}", `{"hooks": [` + "\n",
	} {
		f.Add([]byte(s))
	}

	f.Fuzz(func(t *testing.T, data []byte) {
		lines := bytes.Count(data, []byte("\n")) + 1
		r, err := Parse(data)
		var pe *ParseError
		switch {
		case err == nil && r == nil:
			t.Fatal("Parse returned neither a registry nor an error")
		case err != nil && r != nil:
			t.Fatalf("Parse returned a registry and %v", err)
		case err != nil && !errors.As(err, &pe):
			t.Fatalf("Parse error %v is not a *ParseError", err)
		case pe != nil && (pe.Line < 1 || pe.Line > lines || pe.Col < 1 || pe.Msg == ""):
			t.Fatalf("ParseError %+v is not located in the %d-line input", pe, lines)
		}

		reg, problems := Check(data)
		if reg == nil && len(problems) == 0 {
			t.Fatal("Check returned no registry and no problems")
		}
		for _, p := range problems {
			if p.Message == "" || p.Line < 0 || p.Line > lines || p.Line > 0 && p.Col < 1 {
				t.Fatalf("problem %+v is not located in the %d-line input", p, lines)
			}
		}
		if !slices.IsSortedFunc(problems, func(a, b Problem) int {
			if a.Line != b.Line {
				return a.Line - b.Line
			}
			return a.Col - b.Col
		}) {
			t.Fatalf("problems out of order: %v", problems)
		}
		if reg == nil || len(problems) > 0 {
			return
		}
		if err != nil {
			t.Fatalf("Check found no problem in a file Parse refuses: %v", err)
		}
		for _, h := range reg.Hooks {
			got, ok := reg.Lookup(h.Name)
			if !ok || got.Name != h.Name {
				t.Fatalf("Lookup(%q) = %v, %v in a valid registry", h.Name, got, ok)
			}
			if h.GoName() == "" {
				t.Fatalf("hook %q has an empty Go name", h.Name)
			}
			reg.Suggest(h.Name+"x", 3)
		}
	})
}
