package registry

import (
	"bytes"
	"os"
	"path/filepath"
	"regexp"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// TestTypesDocumented keeps the type table of docs/framework/hook-registry.md
// equal to Types.
func TestTypesDocumented(t *testing.T) {
	doc, err := os.ReadFile(filepath.Join("..", "..", "docs", "framework", "hook-registry.md"))
	if err != nil {
		t.Fatal(err)
	}
	_, section, ok := bytes.Cut(doc, []byte("\n## Types\n"))
	if !ok {
		t.Fatal(`docs/framework/hook-registry.md has no "## Types" section`)
	}
	section, _, _ = bytes.Cut(section, []byte("\n## "))
	var documented []TypeInfo
	for _, m := range regexp.MustCompile("(?m)^\\| `([^`]+)` \\| (.+) \\|$").FindAllSubmatch(section, -1) {
		documented = append(documented, TypeInfo{Name: string(m[1]), Description: string(m[2])})
	}
	if diff := cmp.Diff(Types(), documented); diff != "" {
		t.Errorf("type table in docs/framework/hook-registry.md differs from Types() (-Go +docs):\n%s", diff)
	}
}
