package framework_test

import (
	"bufio"
	"fmt"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/docs-mcp/docs-mcp/framework"
	"github.com/docs-mcp/docs-mcp/framework/registry"
)

// docsDir is the repository's docs folder, as seen from this package.
const docsDir = "../docs"

// block is a fenced code block of a doc.
type block struct {
	file string // relative to the repository root
	line int    // of the opening fence
	info string // the fence's info string: "go", "go fragment", ...
	code string
}

// markdown is one doc: its fenced blocks, and its prose (every line outside
// fences) cut into paragraphs with the line each starts on.
type markdown struct {
	file       string // relative to the repository root
	blocks     []block
	paragraphs []paragraph
}

type paragraph struct {
	line int
	text string
}

// readDocs parses every .md file under docs/.
func readDocs(t *testing.T) map[string]markdown {
	t.Helper()
	out := map[string]markdown{}
	err := filepath.WalkDir(docsDir, func(path string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() || !strings.HasSuffix(path, ".md") {
			return err
		}
		f, err := os.Open(path)
		if err != nil {
			return err
		}
		defer f.Close()
		rel := filepath.ToSlash(filepath.Join("docs", strings.TrimPrefix(path, docsDir+string(filepath.Separator))))
		md := markdown{file: rel}
		var open *block
		var para *paragraph
		sc := bufio.NewScanner(f)
		sc.Buffer(nil, 1<<20)
		for n := 1; sc.Scan(); n++ {
			line := sc.Text()
			fence := strings.HasPrefix(strings.TrimSpace(line), "```")
			switch {
			case open != nil && fence:
				md.blocks = append(md.blocks, *open)
				open = nil
			case open != nil:
				open.code += line + "\n"
			case fence:
				open = &block{file: rel, line: n, info: strings.TrimSpace(strings.TrimPrefix(strings.TrimSpace(line), "```"))}
				fallthrough
			case strings.TrimSpace(line) == "":
				if para != nil {
					md.paragraphs = append(md.paragraphs, *para)
					para = nil
				}
			default:
				if para == nil {
					para = &paragraph{line: n}
				}
				para.text += line + "\n"
			}
		}
		if para != nil {
			md.paragraphs = append(md.paragraphs, *para)
		}
		out[rel] = md
		return sc.Err()
	})
	if err != nil {
		t.Fatalf("read docs: %v", err)
	}
	if len(out) == 0 {
		t.Fatal("no docs found: the test checks nothing")
	}
	return out
}

// TestGoSnippetsCompile builds every Go code block in docs/ that is not
// marked as a fragment (```go fragment), each as a package of its own in a
// module that uses this framework through a workspace. A snippet that
// stops compiling is a snippet that misleads its readers.
//
// A block that quotes a file of an example module (```go file=examples/...)
// is not built alone: it is one file of a package, TestDocsQuoteExamples
// keeps it identical to that file, and CI builds and tests the example.
func TestGoSnippetsCompile(t *testing.T) {
	goBin, err := exec.LookPath("go")
	if err != nil {
		t.Skip("no go command on PATH")
	}
	framework, err := filepath.Abs(".")
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	mustWrite(t, filepath.Join(dir, "go.mod"), "module example.com/snippets\n\ngo 1.26.0\n")
	mustWrite(t, filepath.Join(dir, "go.work"), fmt.Sprintf("go 1.26.0\n\nuse (\n\t.\n\t%q\n)\n", framework))

	var compiled []block
	for _, md := range readDocs(t) {
		for _, b := range md.blocks {
			fields := strings.Fields(b.info)
			if len(fields) == 0 || fields[0] != "go" || (len(fields) > 1 && fields[1] == "fragment") {
				continue
			}
			if _, quotes := b.quotedFile(); quotes {
				continue
			}
			if !strings.HasPrefix(strings.TrimSpace(b.code), "package ") {
				t.Errorf("%s:%d: a Go block must be a whole file (package ...) or be marked ```go fragment", b.file, b.line)
				continue
			}
			pkg := filepath.Join(dir, fmt.Sprintf("s%d", len(compiled)))
			mustWrite(t, filepath.Join(pkg, "snippet.go"), b.code)
			compiled = append(compiled, b)
		}
	}
	if len(compiled) == 0 {
		t.Fatal("no Go snippet to compile: the test checks nothing")
	}
	for i, b := range compiled {
		cmd := exec.Command(goBin, "vet", "./"+fmt.Sprintf("s%d", i))
		cmd.Dir = dir
		cmd.Env = append(os.Environ(), "GOWORK="+filepath.Join(dir, "go.work"), "GOFLAGS=")
		if out, err := cmd.CombinedOutput(); err != nil {
			t.Errorf("%s:%d: the Go snippet does not build (go vet: %v):\n%s", b.file, b.line, err, out)
		}
	}
	t.Logf("compiled %d Go snippets", len(compiled))
}

// quotedFile returns the repository path a block quotes, named in its info
// string as file=PATH (```go file=examples/welcome/greet.go), if any.
func (b block) quotedFile() (path string, ok bool) {
	for _, f := range strings.Fields(b.info) {
		if p, ok := strings.CutPrefix(f, "file="); ok {
			return p, true
		}
	}
	return "", false
}

// TestDocsQuoteExamples keeps the code that tutorials quote from the example
// modules identical to it: a block fenced with file=PATH must be the whole
// file at PATH, a file under examples/. The tutorial then shows exactly the
// code that CI builds and tests.
func TestDocsQuoteExamples(t *testing.T) {
	quoted := 0
	for _, md := range readDocs(t) {
		for _, b := range md.blocks {
			path, ok := b.quotedFile()
			if !ok {
				continue
			}
			quoted++
			if !strings.HasPrefix(path, "examples/") || !filepath.IsLocal(path) {
				t.Errorf("%s:%d: file=%s: a quoted file must be under examples/", b.file, b.line, path)
				continue
			}
			want, err := os.ReadFile(filepath.Join("..", filepath.FromSlash(path)))
			if err != nil {
				t.Errorf("%s:%d: the block quotes %s: %v", b.file, b.line, path, err)
				continue
			}
			if b.code != string(want) {
				t.Errorf("%s:%d: the block differs from %s; copy the file into the block again:\n%s",
					b.file, b.line, path, lineDiff(string(want), b.code))
			}
		}
	}
	if quoted == 0 {
		t.Fatal("no block quotes an example file: the test checks nothing")
	}
	t.Logf("%d quoted example files checked", quoted)
}

// lineDiff describes the first line where got differs from want.
func lineDiff(want, got string) string {
	w, g := strings.Split(want, "\n"), strings.Split(got, "\n")
	for i := range max(len(w), len(g)) {
		var wl, gl string
		if i < len(w) {
			wl = w[i]
		}
		if i < len(g) {
			gl = g[i]
		}
		if wl != gl || i >= len(w) || i >= len(g) {
			return fmt.Sprintf("line %d of the file: %q\nline %d of the block: %q", i+1, wl, i+1, gl)
		}
	}
	return "(no difference)"
}

// hookSpan finds inline code that names a hook: `category.snake_case`.
var hookSpan = regexp.MustCompile("`([a-z]+\\.[a-z0-9_]+)`")

// cancelClaim is prose that says a hook can be cancelled, or refuses
// something by being cancelled.
var cancelClaim = regexp.MustCompile(`(?i)\bcan (be )?cancel|\bcancell?ing it\b|\bis cancellable\b`)

// cancelDenial is prose that says a hook cannot be cancelled: such a
// paragraph is left to the reader.
var cancelDenial = regexp.MustCompile(`(?i)\bcannot be cancel|\bnot cancellable\b`)

// TestDocsHookFacts keeps what the docs say of hooks true to the registry:
// every hook named in inline code exists (code blocks, and prose about
// mistyped names, may show mistakes on purpose), and a paragraph that claims hooks
// can be cancelled names only cancellable ones (a paragraph that says a
// hook cannot be cancelled is not checked).
func TestDocsHookFacts(t *testing.T) {
	reg, err := registry.Parse(framework.RegistryJSON())
	if err != nil {
		t.Fatalf("load the registry: %v", err)
	}
	categories := map[string]bool{}
	for _, c := range reg.Categories() {
		categories[c] = true
	}
	named, claims := 0, 0
	for _, md := range readDocs(t) {
		for _, p := range md.paragraphs {
			if strings.Contains(p.text, "mistyped") {
				continue // shows misspelt names on purpose (Suggest)
			}
			var inPara []string
			for _, m := range hookSpan.FindAllStringSubmatch(p.text, -1) {
				name := m[1]
				category, _, _ := strings.Cut(name, ".")
				if !categories[category] {
					continue // a file name (`mod_hooks.json`) or a Go selector (`mod.On`)
				}
				named++
				if _, ok := reg.Lookup(name); !ok {
					t.Errorf("%s (paragraph at line %d) names hook %s, which is not in the registry%s",
						md.file, p.line, name, suggest(reg, name))
					continue
				}
				inPara = append(inPara, name)
			}
			claim := cancelClaim.FindString(p.text)
			if claim == "" || len(inPara) == 0 {
				continue
			}
			claims++
			if cancelDenial.MatchString(p.text) {
				continue
			}
			for _, name := range inPara {
				if h, _ := reg.Lookup(name); !h.Cancellable {
					t.Errorf("%s (paragraph at line %d) speaks of cancelling (%q) and names %s, which the registry says is not cancellable",
						md.file, p.line, claim, name)
				}
			}
		}
	}
	if named == 0 {
		t.Fatal("no hook named in the docs: the test checks nothing")
	}
	t.Logf("%d hook names and %d paragraphs about cancelling checked", named, claims)
}

func suggest(reg *registry.Registry, name string) string {
	if s := reg.Suggest(name, 1); len(s) > 0 {
		return "; did you mean " + s[0] + "?"
	}
	return ""
}

func mustWrite(t *testing.T, path, content string) {
	t.Helper()
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(path, []byte(content), 0o644); err != nil {
		t.Fatal(err)
	}
}
