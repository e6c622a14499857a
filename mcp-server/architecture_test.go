package main

import (
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"maps"
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

// maxPageLines is the longest architecture.md may grow: it is a map of
// the server, and measurements go to benchmarks.md.
const maxPageLines = 220

// TestArchitectureIsTrue keeps docs/server/architecture.md honest: it stays
// a map of at most maxPageLines lines; its package lists of mcp-server and
// tools name every package of those modules and no other; its import edges
// are the imports between the repository's packages (tests aside) as go
// list reports them; mcpserver does not depend on the watcher; and the
// files, pages and tests it and benchmarks.md name exist.
func TestArchitectureIsTrue(t *testing.T) {
	root := filepath.Join("..")
	page, err := os.ReadFile(filepath.Join(root, "docs", "server", "architecture.md"))
	if err != nil {
		t.Fatal(err)
	}
	if n := strings.Count(string(page), "\n"); n > maxPageLines {
		t.Errorf("architecture.md has %d lines; keep it a map of at most %d (measurements belong in benchmarks.md)", n, maxPageLines)
	}
	wantPkgs, wantEdges := documented(t, string(page))
	gotPkgs, gotEdges := listed(t, root)
	if diff := cmp.Diff(wantPkgs, gotPkgs); diff != "" {
		t.Errorf("packages: architecture.md (-) and go list (+) differ; update the lists under \"## Packages\":\n%s", diff)
	}
	if diff := cmp.Diff(wantEdges, gotEdges); diff != "" {
		t.Errorf("imports: architecture.md (-) and go list (+) differ; update the block under \"## Imports\":\n%s\ngo list gives this block:\n%s", diff, importBlock(gotEdges))
	}
	t.Run("mcpserver imports no watcher", func(t *testing.T) {
		// The page says so of the design where the corpus runtime
		// (internal/corpus) owns the watcher; before it exists, mcpserver
		// still runs the watcher itself.
		if _, err := os.Stat(filepath.Join("internal", "corpus")); errors.Is(err, fs.ErrNotExist) {
			t.Skip("internal/corpus does not exist yet: mcpserver owns the watcher until the corpus runtime takes it over")
		}
		if via := importersOf(t, "./internal/mcpserver", repoPrefix+"mcp-server/watch"); len(via) > 0 {
			t.Errorf("mcpserver depends on watch, imported by %v; the corpus runtime owns the watcher", via)
		}
	})
	for _, name := range []string{"architecture.md", "benchmarks.md"} {
		t.Run(name, func(t *testing.T) { namesExist(t, root, filepath.Join("docs", "server", name)) })
	}
}

// importBlock formats edges as the page's "## Imports" block.
func importBlock(edges map[string][]string) string {
	var b strings.Builder
	for _, from := range slices.Sorted(maps.Keys(edges)) {
		fmt.Fprintf(&b, "%-32s → %s\n", from, strings.Join(edges[from], " "))
	}
	return b.String()
}

// importersOf returns the packages among pkg and its dependencies that
// import dep.
func importersOf(t *testing.T, pkg, dep string) []string {
	t.Helper()
	out, err := exec.Command("go", "list", "-deps", "-f", `{{.ImportPath}}{{range .Imports}} {{.}}{{end}}`, pkg).Output()
	if err != nil {
		t.Fatalf("go list -deps %s: %v", pkg, err)
	}
	var via []string
	for line := range strings.Lines(string(out)) {
		fields := strings.Fields(line)
		if len(fields) > 1 && slices.Contains(fields[1:], dep) {
			via = append(via, fields[0])
		}
	}
	return via
}

var (
	// mdLink is a Markdown link to a page of the repository.
	mdLink = regexp.MustCompile(`\]\(([^)#\s:]+\.md)(?:#[^)]*)?\)`)
	// repoPath is a path from the repository root, in text or a command.
	repoPath = regexp.MustCompile("(?m)(?:^|[\\s(`])(?:\\./)?((?:mcp-server|tools|framework|examples|deploy|docs)/[A-Za-z0-9_./-]*)")
	// goFile is a Go file named without its folder.
	goFile = regexp.MustCompile("`([a-z0-9_]+\\.go)`")
	// testName is a test, benchmark or fuzz target, with or without its
	// package (cli.TestStdioHygiene) and subtest.
	testName = regexp.MustCompile("`(?:([a-z]+)\\.)?((?:Test|Benchmark|Fuzz)[A-Z][A-Za-z0-9_]*)(?:/[^`]*)?`")
	// testFunc is the definition of one.
	testFunc = regexp.MustCompile(`(?m)^func ((?:Test|Benchmark|Fuzz)[A-Z][A-Za-z0-9_]*)\(`)
)

// namesExist checks that what the page at path names is there: the pages
// it links to, the repository paths it gives, the Go files it names and
// the tests and benchmarks it cites (in the package it says, if it says
// one).
func namesExist(t *testing.T, root, path string) {
	page, err := os.ReadFile(filepath.Join(root, path))
	if err != nil {
		t.Fatal(err)
	}
	text := string(page)
	for _, m := range mdLink.FindAllStringSubmatch(text, -1) {
		if _, err := os.Stat(filepath.Join(root, filepath.Dir(path), filepath.FromSlash(m[1]))); err != nil {
			t.Errorf("links to %s: %v", m[1], err)
		}
	}
	seen := map[string]bool{}
	for _, m := range repoPath.FindAllStringSubmatch(text, -1) {
		p := strings.TrimRight(m[1], "./")
		if p == "tools/call" || p == "tools/list" || seen[p] {
			continue // MCP methods, not the tools module; or checked already
		}
		seen[p] = true
		if _, err := os.Stat(filepath.Join(root, filepath.FromSlash(p))); err != nil {
			t.Errorf("names %s: %v", m[1], err)
		}
	}
	goFiles, tests := map[string]bool{}, map[string][]string{} // test -> the folders defining it
	err = filepath.WalkDir(root, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() && (d.Name() == "node_modules" || d.Name() == "testdata" || strings.HasPrefix(d.Name(), ".") && p != root) {
			return filepath.SkipDir
		}
		if d.IsDir() || !strings.HasSuffix(p, ".go") {
			return nil
		}
		goFiles[d.Name()] = true
		if strings.HasSuffix(p, "_test.go") {
			src, err := os.ReadFile(p)
			if err != nil {
				return err
			}
			for _, m := range testFunc.FindAllStringSubmatch(string(src), -1) {
				tests[m[1]] = append(tests[m[1]], filepath.Base(filepath.Dir(p)))
			}
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	for _, m := range goFile.FindAllStringSubmatch(text, -1) {
		if !goFiles[m[1]] {
			t.Errorf("names %s, and the repository has no Go file of that name", m[1])
		}
	}
	for _, m := range testName.FindAllStringSubmatch(text, -1) {
		pkg, name := m[1], m[2]
		switch dirs := tests[name]; {
		case len(dirs) == 0:
			t.Errorf("cites %s, which no test file defines", m[0])
		case pkg != "" && !slices.Contains(dirs, pkg):
			t.Errorf("cites %s, which is defined in %v", m[0], dirs)
		}
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
