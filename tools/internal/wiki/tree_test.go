package wiki

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/docs-mcp/docs-mcp/mcp-server/mcptest"
)

func TestScanTreeFixture(t *testing.T) {
	tree, err := ScanTree(filepath.Join("testdata", "fixture"))
	if err != nil {
		t.Fatal(err)
	}
	got := map[string]any{
		"docs":         tree.Docs,
		"files":        tree.Files,
		"dirs":         tree.Dirs,
		"contributing": tree.Contributing,
		"generated":    tree.generatedSections(),
		"folder pages": tree.folderOf,
	}
	want := map[string]any{
		"docs": []string{
			"clients/claude-desktop.md", "clients/vscode.md", "framework/advanced/priorities.md",
			"framework/overview.md", "getting-started.md", "index.md", "server/configuration.md", "server/index.md",
		},
		"files":        []string{"server/diagram.svg", "server/img/flags.svg"},
		"dirs":         []string{"", "clients", "framework", "framework/advanced", "server"},
		"contributing": true,
		"generated":    []string{"clients", "framework", "framework/advanced"},
		"folder pages": map[string]string{"index.md": "", "server/index.md": "server"},
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("ScanTree (-want +got):\n%s", diff)
	}

	d, err := tree.data()
	if err != nil {
		t.Fatal(err)
	}
	for repo, page := range map[string]string{
		"docs/index.md":                         "/",
		"docs/server/index.md":                  "/server",
		"docs/server/configuration.md":          "/server/configuration",
		"docs/framework/advanced/priorities.md": "/framework/advanced/priorities",
		"CONTRIBUTING.md":                       "/contributing",
	} {
		if got := d.Pages[repo]; got != page {
			t.Errorf("page of %s = %q, want %q", repo, got, page)
		}
	}
	if got, want := d.Sources["server/_index.md"], (source{Repo: "docs/server/index.md", Raw: "server/index.md"}); got != want {
		t.Errorf("source of server/_index.md = %+v, want %+v", got, want)
	}
	if got := d.Constants["player.joined"]; got != "PlayerJoined" {
		t.Errorf("the Go name of player.joined = %q, want PlayerJoined", got)
	}
}

func TestScanTreeRefuses(t *testing.T) {
	for _, c := range []struct {
		name  string
		files map[string]string
		want  string
	}{
		{"no docs folder", map[string]string{"framework/mod_hooks.json": "{}"}, "no docs/ folder"},
		{"guide and doc", map[string]string{"docs/CONTRIBUTING.md": "# C", "CONTRIBUTING.md": "# C"}, "docs/CONTRIBUTING.md: this path is taken by the Contributing page"},
		{"registry and doc", map[string]string{"docs/hook-reference.md": "# H", "framework/mod_hooks.json": "{}"}, "docs/hook-reference.md: this path is taken by the hook reference page"},
		{"no Markdown", map[string]string{"docs/a.png": "", "framework/mod_hooks.json": "{}"}, "no Markdown files"},
		{"reserved name", map[string]string{"docs/search.md": "# S", "framework/mod_hooks.json": "{}"}, "docs/search.md: this path is taken by the search page"},
		{"index and _index", map[string]string{"docs/a/index.md": "", "docs/a/_index.md": "", "framework/mod_hooks.json": "{}"}, "docs/a/_index.md and docs/a/index.md would both become the page /a"},
		{"case", map[string]string{"docs/Setup.md": "", "docs/setup.md": "", "framework/mod_hooks.json": "{}"}, "docs/Setup.md and docs/setup.md would both become the page /setup"},
		{"space and hyphen", map[string]string{"docs/x y.md": "", "docs/x-y.md": "", "framework/mod_hooks.json": "{}"}, "docs/x y.md and docs/x-y.md would both become the page /x-y"},
		{"dropped character", map[string]string{"docs/q&a.md": "", "docs/qa.md": "", "framework/mod_hooks.json": "{}"}, "docs/q&a.md and docs/qa.md would both become the page /qa"},
		{"doc beside its folder and index", map[string]string{"docs/guide.md": "", "docs/guide/index.md": "", "framework/mod_hooks.json": "{}"}, "docs/guide.md and docs/guide/index.md would both become the page /guide"},
		{"doc and folder", map[string]string{"docs/notes.md": "", "docs/#notes/n.md": "", "framework/mod_hooks.json": "{}"}, "docs/notes.md and the folder docs/#notes/ would both become the page /notes"},
	} {
		t.Run(c.name, func(t *testing.T) {
			root := t.TempDir()
			mcptest.WriteTree(t, root, c.files)
			_, err := ScanTree(root)
			if err == nil || !strings.Contains(err.Error(), c.want) {
				t.Errorf("ScanTree = %v, want an error containing %q", err, c.want)
			}
		})
	}
}

// TestScanTreeForeign: a repository with nothing but docs/ (no guide at the
// root, no hook registry), as most are: docs/CONTRIBUTING.md and
// docs/hook-reference.md are ordinary docs, and a doc that is a symbolic
// link to a file of the repository (docs/CODE_OF_CONDUCT.md ->
// ../CODE_OF_CONDUCT.md, as urfave/cli has) is a doc; a link out of the
// repository is not.
func TestScanTreeForeign(t *testing.T) {
	root := t.TempDir()
	mcptest.WriteTree(t, root, map[string]string{
		"docs/index.md":          "# Home",
		"docs/CONTRIBUTING.md":   "# Contributing",
		"docs/hook-reference.md": "# Hooks",
		"CODE_OF_CONDUCT.md":     "# Be kind",
	})
	outside := filepath.Join(t.TempDir(), "secret.md")
	mcptest.WriteFile(t, outside, "# Secret")
	for link, target := range map[string]string{"CODE_OF_CONDUCT.md": "../CODE_OF_CONDUCT.md", "secret.md": outside, "gone.md": "../gone.md"} {
		if err := os.Symlink(target, filepath.Join(root, "docs", link)); err != nil {
			t.Fatal(err)
		}
	}
	tree, err := ScanTree(root)
	if err != nil {
		t.Fatal(err)
	}
	got := map[string]any{"docs": tree.Docs, "contributing": tree.Contributing, "registry": tree.Registry, "extras": tree.extras(), "linked": tree.Linked}
	want := map[string]any{
		"docs":         []string{"CODE_OF_CONDUCT.md", "CONTRIBUTING.md", "hook-reference.md", "index.md"},
		"contributing": false,
		"registry":     false,
		"extras":       []string{"/search"},
		"linked":       map[string]string{"CODE_OF_CONDUCT.md": filepath.Join(evalSymlinks(t, root), "CODE_OF_CONDUCT.md")},
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("ScanTree (-want +got):\n%s", diff)
	}
	d, err := tree.data()
	if err != nil {
		t.Fatal(err)
	}
	if _, ok := d.Sources["hook-reference.md"]; !ok || d.Sources["hook-reference.md"].Repo != "docs/hook-reference.md" {
		t.Errorf("the source of hook-reference.md is %+v, want the doc docs/hook-reference.md", d.Sources["hook-reference.md"])
	}
}

func evalSymlinks(t *testing.T, p string) string {
	t.Helper()
	r, err := filepath.EvalSymlinks(p)
	if err != nil {
		t.Fatal(err)
	}
	return r
}

func TestScanTreeSkipsHidden(t *testing.T) {
	root := t.TempDir()
	mcptest.WriteTree(t, root, map[string]string{
		"docs/index.md":            "# Home",
		"docs/.drafts/wip.md":      "# WIP",
		"docs/.notes.md":           "# Notes",
		"framework/mod_hooks.json": "{}",
	})
	if err := os.Symlink(filepath.Join(root, "docs"), filepath.Join(root, "docs", "loop")); err != nil {
		t.Fatal(err)
	}
	tree, err := ScanTree(root)
	if err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff([]string{"index.md"}, tree.Docs); diff != "" {
		t.Errorf("docs (-want +got):\n%s", diff)
	}
}

// TestGeneratedSectionsDottedFolder: a folder whose name ends in a dot has
// its own landing page, so the build must not generate another for it.
func TestGeneratedSectionsDottedFolder(t *testing.T) {
	root := t.TempDir()
	mcptest.WriteTree(t, root, map[string]string{
		"docs/index.md":            "# Home",
		"docs/v1./index.md":        "# Version 1.",
		"docs/v1./notes.md":        "# Notes",
		"docs/v2/notes.md":         "# Notes",
		"framework/mod_hooks.json": "{}",
	})
	tree, err := ScanTree(root)
	if err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff([]string{"v2"}, tree.generatedSections()); diff != "" {
		t.Errorf("generated sections (-want +got):\n%s", diff)
	}
}
