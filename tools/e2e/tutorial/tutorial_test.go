package tutorial

import (
	"bufio"
	"errors"
	"fmt"
	"io/fs"
	"maps"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/docs-mcp/docs-mcp/tools/internal/repo"
	"github.com/docs-mcp/docs-mcp/tools/internal/testenv"
)

const (
	pagesDir = "docs/modding"     // the tutorial, from the repository root
	example  = "examples/welcome" // the module it builds, from the repository root
	modDir   = "welcome"          // the folder the tutorial creates for it
	clone    = "docs-mcp"         // the folder name it assumes for the reader's clone
)

// A step is one thing the reader does: run a ```sh block, or create a file
// by copying a quoted block.
type step struct {
	at       string // page:line of the block, for messages
	commands string // a sh block
	want     string // what the commands print, from the ```text block after them
	file     string // a quoted file: its path in the mod's folder
	content  string
}

func TestTutorial(t *testing.T) {
	root := repoRoot(t)
	bash := testenv.LookPath(t, "bash", "the tutorial's commands run in it")
	steps := readTutorial(t, root)

	dir := t.TempDir()
	if err := os.Symlink(root, filepath.Join(dir, clone)); err != nil {
		t.Fatal(err)
	}
	cmd := exec.CommandContext(t.Context(), bash, "-c", script(steps))
	cmd.Dir = dir
	// As in a fresh terminal: no workspace, no flags from the test run
	// (CI sets GOFLAGS=-count=1).
	cmd.Env = append(os.Environ(), "GOWORK=off", "GOFLAGS=")
	out, err := cmd.CombinedOutput()
	got := splitOutput(string(out))
	for i, s := range steps {
		output, ran := got[i]
		if !ran {
			t.Fatalf("%s: the tutorial stopped before this block (bash: %v)", s.at, err)
		}
		if s.file != "" {
			if msg := lines(output); msg != nil {
				t.Errorf("%s: creating %s as the page says failed:\n%s", s.at, s.file, strings.Join(msg, "\n"))
			}
			continue
		}
		if diff := cmp.Diff(lines(s.want), lines(output)); diff != "" {
			t.Errorf("%s: what the commands print differs from the page (-page +real):\n%s", s.at, diff)
		}
	}
	if err != nil {
		t.Fatalf("the tutorial's commands failed: %v\n%s", err, out)
	}
	checkSameModule(t, filepath.Join(root, filepath.FromSlash(example)), filepath.Join(dir, modDir))
}

// readTutorial returns the steps of the tutorial's pages in reading order.
func readTutorial(t *testing.T, root string) []step {
	t.Helper()
	paths, err := filepath.Glob(filepath.Join(root, filepath.FromSlash(pagesDir), "*.md"))
	if err != nil {
		t.Fatal(err)
	}
	type page struct {
		name   string
		weight int
		text   string
	}
	var pages []page
	for _, p := range paths {
		data, err := os.ReadFile(p)
		if err != nil {
			t.Fatal(err)
		}
		name := pagesDir + "/" + filepath.Base(p)
		w, err := weight(string(data))
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		if filepath.Base(p) == "index.md" {
			w = -1 // the folder's landing page comes first
		}
		pages = append(pages, page{name, w, string(data)})
	}
	slices.SortFunc(pages, func(a, b page) int { return a.weight - b.weight })
	for i := 1; i < len(pages); i++ {
		if pages[i].weight == pages[i-1].weight {
			t.Fatalf("%s and %s both have weight %d: the reading order is ambiguous", pages[i-1].name, pages[i].name, pages[i].weight)
		}
	}

	var steps []step
	for _, p := range pages {
		blocks := fenced(p.text)
		for i, b := range blocks {
			at := fmt.Sprintf("%s:%d", p.name, b.line)
			switch fields := strings.Fields(b.info); {
			case len(fields) == 1 && fields[0] == "sh":
				s := step{at: at, commands: b.body}
				if i+1 < len(blocks) && blocks[i+1].info == "text" {
					s.want = blocks[i+1].body
				}
				steps = append(steps, s)
			case len(fields) == 2 && strings.HasPrefix(fields[1], "file="):
				path := strings.TrimPrefix(fields[1], "file=")
				rel, ok := strings.CutPrefix(path, example+"/")
				if !ok {
					t.Fatalf("%s: quotes %s, which is not a file of %s", at, path, example)
				}
				steps = append(steps, step{at: at, file: rel, content: b.body})
			}
		}
	}
	if !slices.ContainsFunc(steps, func(s step) bool { return s.file != "" }) || !slices.ContainsFunc(steps, func(s step) bool { return s.commands != "" }) {
		t.Fatalf("%s has no commands or no quoted files: the test checks nothing", pagesDir)
	}
	return steps
}

// weight reads a page's front matter weight, which orders the pages.
func weight(text string) (int, error) {
	front, ok := strings.CutPrefix(text, "---\n")
	if !ok {
		return 0, errors.New("no front matter")
	}
	front, _, ok = strings.Cut(front, "\n---\n")
	if !ok {
		return 0, errors.New("the front matter is not closed")
	}
	for line := range strings.Lines(front) {
		if v, ok := strings.CutPrefix(line, "weight:"); ok {
			return strconv.Atoi(strings.TrimSpace(v))
		}
	}
	return 0, errors.New("no weight in the front matter")
}

type block struct {
	line int // of the opening fence
	info string
	body string
}

// fenced returns a page's fenced code blocks (``` at the start of a line).
func fenced(text string) []block {
	var blocks []block
	var open *block
	sc := bufio.NewScanner(strings.NewReader(text))
	for n := 1; sc.Scan(); n++ {
		line := sc.Text()
		switch {
		case open == nil && strings.HasPrefix(line, "```"):
			open = &block{line: n, info: strings.TrimSpace(strings.TrimPrefix(line, "```"))}
		case open != nil && line == "```":
			blocks = append(blocks, *open)
			open = nil
		case open != nil:
			open.body += line + "\n"
		}
	}
	return blocks
}

// marker starts the output of step i in the script's output.
const marker = "@@ tutorial step "

// script is the tutorial as one bash session: each sh block's commands
// after a marker line, each file written where the reader is at that point.
// It stops at the first command that fails.
func script(steps []step) string {
	var b strings.Builder
	b.WriteString("set -e\nexec 2>&1\n")
	for i, s := range steps {
		fmt.Fprintf(&b, "printf '\\n%s%d\\n'\n", marker, i)
		if s.file != "" {
			fmt.Fprintf(&b, "cat > %s <<'TUTORIAL_EOF'\n%sTUTORIAL_EOF\n", strconv.Quote(s.file), s.content)
		} else {
			b.WriteString(s.commands)
		}
	}
	return b.String()
}

// splitOutput returns each step's output by step index.
func splitOutput(out string) map[int]string {
	got := map[int]string{}
	cur := -1
	for line := range strings.Lines(out) {
		if n, ok := strings.CutPrefix(strings.TrimSuffix(line, "\n"), marker); ok {
			if i, err := strconv.Atoi(n); err == nil {
				cur = i
				got[cur] = ""
				continue
			}
		}
		if cur >= 0 {
			got[cur] += line
		}
	}
	return got
}

var (
	// go test's times: "ok  \tpkg\t0.005s", "--- PASS: TestX (0.00s)".
	pkgTime  = regexp.MustCompile(`(?m)\t(\d+\.\d+s|\(cached\))$`)
	testTime = regexp.MustCompile(`(?m) \(\d+\.\d+s\)$`)
)

// lines splits output into lines, without what differs between machines and
// runs: module downloads (they depend on the reader's module cache), times,
// and the blank line before each marker.
func lines(out string) []string {
	var kept []string
	for line := range strings.Lines(out) {
		if !strings.HasPrefix(line, "go: downloading ") {
			kept = append(kept, line)
		}
	}
	out = pkgTime.ReplaceAllString(strings.Join(kept, ""), "\t(time)")
	out = testTime.ReplaceAllString(out, " (time)")
	if out = strings.Trim(out, "\n"); out == "" {
		return nil
	}
	return strings.Split(out, "\n")
}

// checkSameModule compares the module the tutorial built with the example:
// the same files with the same contents, but for the replace directive,
// which points at the reader's clone.
func checkSameModule(t *testing.T, want, got string) {
	t.Helper()
	wantFiles, gotFiles := files(t, want), files(t, got)
	if diff := cmp.Diff(slices.Sorted(maps.Keys(wantFiles)), slices.Sorted(maps.Keys(gotFiles))); diff != "" {
		t.Errorf("the tutorial's folder and %s hold different files (-example +tutorial):\n%s", example, diff)
	}
	gotFiles["go.mod"] = strings.Replace(gotFiles["go.mod"], "=> ../"+clone+"/framework", "=> ../../framework", 1)
	for name, w := range wantFiles {
		if g, ok := gotFiles[name]; ok && g != w {
			t.Errorf("%s differs between %s and the tutorial's folder (-example +tutorial):\n%s", name, example, cmp.Diff(w, g))
		}
	}
}

// files returns the contents of a module's sources (its Go files, go.mod
// and go.sum) under dir, by slash path.
func files(t *testing.T, dir string) map[string]string {
	t.Helper()
	out := map[string]string{}
	err := filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		if name := d.Name(); filepath.Ext(name) != ".go" && name != "go.mod" && name != "go.sum" {
			return nil // a binary built by hand, an editor's file
		}
		data, err := os.ReadFile(p)
		if err != nil {
			return err
		}
		rel, err := filepath.Rel(dir, p)
		out[filepath.ToSlash(rel)] = string(data)
		return err
	})
	if err != nil {
		t.Fatal(err)
	}
	return out
}

func repoRoot(t *testing.T) string {
	t.Helper()
	root, err := repo.Root(".")
	if err != nil {
		t.Fatal(err)
	}
	return root
}
