package wiki

import (
	"io/fs"
	"os"
	"os/exec"
	"path"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/docs-mcp/docs-mcp/mcp-server/wikipage"
)

// realTrees are the public repositories TestRealTrees builds, as folders
// of DOCS_MCP_REAL_TREES, with the release tags built beside each.
var realTrees = []struct {
	dir, versions string
}{
	{"cpp-docs", ""},         // MicrosoftDocs/cpp-docs: Learn reference docs, a redirect file
	{"urfave-cli", "v3.*:3"}, // urfave/cli: a Go library's MkDocs site with release tags
	{"mkdocs-material", ""},  // squidfunk/mkdocs-material: an MkDocs Material site
}

// TestRealTrees builds each real tree in error mode, as it is, from its own
// folder (not this checkout), and checks that every page its own site has
// is there: each doc's page, in the working tree and in every version
// built, and a page at each redirected doc's old address. It needs the
// trees (snapshots of public repositories, with their .git for the tags)
// in one folder:
//
//	DOCS_MCP_REAL_TREES=DIR go test -count=1 -timeout 30m -run TestRealTrees -v ./tools/internal/wiki
func TestRealTrees(t *testing.T) {
	dir := os.Getenv("DOCS_MCP_REAL_TREES")
	if dir == "" {
		t.Skip("DOCS_MCP_REAL_TREES is not set: the real trees are built by hand, with snapshots of cpp-docs, urfave/cli and mkdocs-material in one folder: " +
			"DOCS_MCP_REAL_TREES=DIR go test -count=1 -timeout 30m -run TestRealTrees -v ./tools/internal/wiki")
	}
	for _, rt := range realTrees {
		t.Run(rt.dir, func(t *testing.T) {
			root := filepath.Join(dir, rt.dir)
			if _, err := os.Stat(filepath.Join(root, "docs")); err != nil {
				t.Skipf("no %s/docs: %v", root, err)
			}
			opt := options(t, root)
			opt.Repo = "" // the site sources built into the command, as for any repository
			opt.Hugo = hugoBinary(t)
			if rt.versions != "" {
				vs, err := Releases(root, rt.versions)
				if err != nil {
					t.Fatal(err)
				}
				if len(vs) == 0 {
					t.Fatalf("no tag matches %s", rt.versions)
				}
				opt.Versions = vs
			}
			start := time.Now()
			out, res := build(t, opt) // error mode: a broken link fails it
			t.Logf("%s: %d HTML pages, %d files, %d versions, %d redirect pages, %d warnings (%d redirected links), %d broken in versions; %s, Hugo CPU %s, Hugo's peak %d MB",
				rt.dir, res.Pages, res.Files, res.Versions, res.Redirects, len(res.Inexact), countRedirected(res.Inexact), len(res.Broken),
				time.Since(start).Round(time.Second), res.Usage.CPU.Round(time.Second), res.Usage.PeakRSS>>20)

			tree, err := ScanTree(root)
			if err != nil {
				t.Fatal(err)
			}
			missing := 0
			has := func(site, doc, page string) {
				t.Helper()
				file := filepath.Join(out, filepath.FromSlash(site), filepath.FromSlash(pageURL(page)), "index.html")
				if _, err := os.Stat(file); err != nil {
					if missing++; missing <= 20 {
						t.Errorf("%s: no page at %s", doc, file)
					}
				}
			}
			for _, doc := range tree.Docs {
				has("", "docs/"+doc, wikipage.Of(doc))
			}
			for _, r := range tree.Redirects {
				has("", "redirected docs/"+r.From, wikipage.Of(r.From))
			}
			docs := len(tree.Docs)
			for _, v := range opt.Versions {
				vdocs := releaseDocs(t, v.FS)
				for _, doc := range vdocs {
					has(v.Name, v.Name+":docs/"+doc, wikipage.Of(doc))
				}
				docs += len(vdocs)
			}
			if docs == 0 {
				t.Errorf("%s: no docs found to check", rt.dir)
			}
			t.Logf("%s: %d docs (working tree and versions) and %d redirects checked, %d without a page", rt.dir, docs, len(tree.Redirects), missing)
		})
	}
}

func countRedirected(ps []Problem) int {
	n := 0
	for _, p := range ps {
		if p.Redirected {
			n++
		}
	}
	return n
}

// releaseDocs are the docs of a release's tree, as ScanTree finds them in
// a working tree: Markdown files under docs/, hidden ones aside, symbolic
// links among them (urfave/cli's docs/CODE_OF_CONDUCT.md ->
// ../CODE_OF_CONDUCT.md, a page of its site at every tag).
func releaseDocs(t *testing.T, fsys fs.FS) []string {
	t.Helper()
	var out []string
	err := fs.WalkDir(fsys, "docs", func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if strings.HasPrefix(d.Name(), ".") && p != "docs" {
			if d.IsDir() {
				return fs.SkipDir
			}
			return nil
		}
		if (d.Type().IsRegular() || d.Type()&fs.ModeSymlink != 0) && path.Ext(p) == ".md" {
			out = append(out, strings.TrimPrefix(p, "docs/"))
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	return out
}

// hugoBinary is a Hugo executable built from tools/hugo, so that each run
// does not go through the go command (about a second of CPU each).
func hugoBinary(t *testing.T) string {
	t.Helper()
	bin := filepath.Join(t.TempDir(), "hugo")
	cmd := exec.Command("go", "-C", filepath.Join(hugoOnce().repo, "tools", "hugo"), "build", "-o", bin, "github.com/gohugoio/hugo")
	cmd.Env = append(os.Environ(), "GOWORK=off", "CGO_ENABLED=0")
	if b, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("build Hugo: %v\n%s", err, b)
	}
	return bin
}
