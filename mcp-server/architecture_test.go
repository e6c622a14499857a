package main

import (
	"encoding/json"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// repoPrefix is the import path of the repository root.
const repoPrefix = "github.com/docs-mcp/docs-mcp/"

// TestArchitectureIsTrue keeps docs/server/architecture.md honest: its
// package lists of mcp-server and tools name every package of those
// modules and no other, and its import edges are the imports between the
// repository's packages (tests aside) as go list reports them.
func TestArchitectureIsTrue(t *testing.T) {
	root := filepath.Join("..")
	page, err := os.ReadFile(filepath.Join(root, "docs", "server", "architecture.md"))
	if err != nil {
		t.Fatal(err)
	}
	wantPkgs, wantEdges := documented(t, string(page))
	gotPkgs, gotEdges := listed(t, root)
	if diff := cmp.Diff(wantPkgs, gotPkgs); diff != "" {
		t.Errorf("packages: architecture.md (-) and go list (+) differ; update the lists under \"## Packages\":\n%s", diff)
	}
	if diff := cmp.Diff(wantEdges, gotEdges); diff != "" {
		t.Errorf("imports: architecture.md (-) and go list (+) differ; update the block under \"## Imports\":\n%s", diff)
	}
}

// documented reads the page's package lists (a text block per module under
// "## Packages", mcp-server's first) and import edges (the text block under
// "## Imports"), as paths from the repository root.
func documented(t *testing.T, page string) (pkgs []string, edges map[string][]string) {
	t.Helper()
	blocks := textBlocks(section(page, "## Packages"))
	if len(blocks) != 2 {
		t.Fatalf("\"## Packages\" has %d text blocks; want two, mcp-server's then tools'", len(blocks))
	}
	for i, module := range []string{"mcp-server", "tools"} {
		for _, line := range blocks[i] {
			name := strings.Fields(line)[0]
			if name == "." {
				pkgs = append(pkgs, module)
			} else {
				pkgs = append(pkgs, module+"/"+name)
			}
		}
	}
	slices.Sort(pkgs)
	imports := textBlocks(section(page, "## Imports"))
	if len(imports) != 1 {
		t.Fatalf("\"## Imports\" has %d text blocks; want one", len(imports))
	}
	edges = map[string][]string{}
	for _, line := range imports[0] {
		from, to, ok := strings.Cut(line, "→")
		if !ok {
			t.Fatalf("import line %q has no →", line)
		}
		deps := strings.Fields(to)
		slices.Sort(deps)
		edges[strings.TrimSpace(from)] = deps
	}
	return pkgs, edges
}

// section returns the text of the page from heading to the next heading
// of the same level.
func section(page, heading string) string {
	_, rest, ok := strings.Cut(page, "\n"+heading+"\n")
	if !ok {
		return ""
	}
	if end := strings.Index(rest, "\n## "); end >= 0 {
		rest = rest[:end]
	}
	return rest
}

var fence = regexp.MustCompile("(?s)```text\n(.*?)```")

// textBlocks returns the non-empty lines of each ```text block in s.
func textBlocks(s string) [][]string {
	var blocks [][]string
	for _, m := range fence.FindAllStringSubmatch(s, -1) {
		var lines []string
		for line := range strings.Lines(m[1]) {
			if strings.TrimSpace(line) != "" {
				lines = append(lines, strings.TrimRight(line, "\n"))
			}
		}
		blocks = append(blocks, lines)
	}
	return blocks
}

// listed asks go list for the packages of mcp-server and tools and their
// imports of the repository's packages.
func listed(t *testing.T, root string) (pkgs []string, edges map[string][]string) {
	t.Helper()
	cmd := exec.Command("go", "list", "-json=ImportPath,Imports", "./mcp-server/...", "./tools/...")
	cmd.Dir = root
	cmd.Stderr = os.Stderr
	out, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	edges = map[string][]string{}
	dec := json.NewDecoder(out)
	for {
		var p struct {
			ImportPath string
			Imports    []string
		}
		if err := dec.Decode(&p); err == io.EOF {
			break
		} else if err != nil {
			t.Fatal(err)
		}
		name := strings.TrimPrefix(p.ImportPath, repoPrefix)
		pkgs = append(pkgs, name)
		var deps []string
		for _, imp := range p.Imports {
			if dep, ok := strings.CutPrefix(imp, repoPrefix); ok {
				deps = append(deps, dep)
			}
		}
		if len(deps) > 0 {
			slices.Sort(deps)
			edges[name] = deps
		}
	}
	if err := cmd.Wait(); err != nil {
		t.Fatalf("go list: %v", err)
	}
	slices.Sort(pkgs)
	return pkgs, edges
}
