package wiki

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/docs-mcp/docs-mcp/mcp-server/mcptest"
	"github.com/docs-mcp/docs-mcp/tools/internal/wiki/linkreport"
)

func TestProblemsLocateLines(t *testing.T) {
	dir := t.TempDir()
	mcptest.WriteFile(t, filepath.Join(dir, "docs", "a.md"), "---\ntitle: A\n---\n\nSee [x](gone.md) and\n[ref]: gone.md\n<a href=\"gone.md\">raw</a>\n")
	mcptest.WriteFile(t, filepath.Join(dir, "README.md"), "# R\n")
	root, err := os.OpenRoot(dir)
	if err != nil {
		t.Fatal(err)
	}
	defer root.Close()
	got := problems(root.FS(), []linkreport.Report{
		{Kind: "broken link", Dest: "gone.md", File: "docs/a.md", Detail: "docs/gone.md does not exist"},
		{Kind: "broken link", Dest: "gone.md", File: "docs/a.md", Detail: "docs/gone.md does not exist"}, // reported twice
		{Kind: "repo link", Dest: "../README.md", File: "docs/a.md", Detail: "README.md"},                // exists
		{Kind: "repo link", Dest: "../NOPE.md", File: "docs/a.md", Detail: "NOPE.md"},                    // does not
		{Kind: "broken link", Dest: "elsewhere.md", File: "docs/a.md", Detail: "docs/elsewhere.md does not exist"},
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
