package wiki

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/docs-mcp/docs-mcp/mcp-server/mcptest"
)

func TestParseReport(t *testing.T) {
	for _, c := range []struct {
		line string
		want report
		ok   bool
	}{
		{`ERROR wiki: broken link "a b.md#x" in "docs/c.md": docs/a b.md does not exist`,
			report{kind: "broken link", dest: "a b.md#x", file: "docs/c.md", detail: "docs/a b.md does not exist"}, true},
		{`ERROR wiki: broken image "x\"y.png" in "docs/c d.md": docs/x"y.png is not a file under docs/`,
			report{kind: "broken image", dest: `x"y.png`, file: "docs/c d.md", detail: `docs/x"y.png is not a file under docs/`}, true},
		{`WARN  wiki: repo link "../README.md" in "docs/index.md": README.md`,
			report{kind: "repo link", dest: "../README.md", file: "docs/index.md", detail: "README.md"}, true},
		{`WARN  deprecated: something`, report{}, false},
	} {
		got, ok := parseReport(c.line)
		if ok != c.ok || got != c.want {
			t.Errorf("parseReport(%q) = %+v, %v; want %+v, %v", c.line, got, ok, c.want, c.ok)
		}
	}
}

func TestProblemsLocateLines(t *testing.T) {
	dir := t.TempDir()
	mcptest.WriteFile(t, filepath.Join(dir, "docs", "a.md"), "---\ntitle: A\n---\n\nSee [x](gone.md) and\n[ref]: gone.md\n<a href=\"gone.md\">raw</a>\n")
	mcptest.WriteFile(t, filepath.Join(dir, "README.md"), "# R\n")
	root, err := os.OpenRoot(dir)
	if err != nil {
		t.Fatal(err)
	}
	defer root.Close()
	got := problems(root.FS(), []report{
		{kind: "broken link", dest: "gone.md", file: "docs/a.md", detail: "docs/gone.md does not exist"},
		{kind: "broken link", dest: "gone.md", file: "docs/a.md", detail: "docs/gone.md does not exist"}, // reported twice
		{kind: "repo link", dest: "../README.md", file: "docs/a.md", detail: "README.md"},                // exists
		{kind: "repo link", dest: "../NOPE.md", file: "docs/a.md", detail: "NOPE.md"},                    // does not
		{kind: "broken link", dest: "elsewhere.md", file: "docs/a.md", detail: "docs/elsewhere.md does not exist"},
	}, nil)
	want := []Problem{
		{File: "docs/a.md", Line: 0, Msg: `broken link "../NOPE.md": NOPE.md does not exist`},
		{File: "docs/a.md", Line: 0, Msg: `broken link "elsewhere.md": docs/elsewhere.md does not exist`},
		{File: "docs/a.md", Line: 5, Msg: `broken link "gone.md": docs/gone.md does not exist`},
		{File: "docs/a.md", Line: 6, Msg: `broken link "gone.md": docs/gone.md does not exist`},
		{File: "docs/a.md", Line: 7, Msg: `broken link "gone.md": docs/gone.md does not exist`},
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("problems (-want +got):\n%s", diff)
	}
	if s := want[2].String(); s != `docs/a.md:5: broken link "gone.md": docs/gone.md does not exist` {
		t.Errorf("String() = %q", s)
	}
}
