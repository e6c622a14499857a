package main

import (
	"bytes"
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/docs-mcp/docs-mcp/mcp-server/mcptest"
	"github.com/docs-mcp/docs-mcp/tools/internal/testenv"
)

// fixture copies the wiki's test tree into a folder the test may change.
func fixture(t *testing.T) string {
	t.Helper()
	dst := t.TempDir()
	if err := os.CopyFS(dst, os.DirFS(filepath.Join("..", "..", "internal", "wiki", "testdata", "fixture"))); err != nil {
		t.Fatal(err)
	}
	return dst
}

// needGo skips (or fails in CI) when the go command, which runs Hugo, is missing.
func needGo(t *testing.T) {
	t.Helper()
	testenv.LookPath(t, "go", "it runs Hugo")
}

func TestUsage(t *testing.T) {
	for _, c := range []struct {
		args    []string
		wantErr string
		wantOut string
	}{
		{nil, "flag: help requested", "usage:"},
		{[]string{"publish"}, `unknown command "publish"`, "usage:"},
		{[]string{"build", "-x"}, "flag provided but not defined: -x", "-base-url"},
		{[]string{"watch", "-poll", "often"}, `invalid value "often" for flag -poll`, "-hugo"},
	} {
		var stderr bytes.Buffer
		err := run(context.Background(), c.args, &stderr)
		if err == nil || !strings.Contains(err.Error(), c.wantErr) {
			t.Errorf("run(%q) = %v, want an error containing %q", c.args, err, c.wantErr)
		}
		if !strings.Contains(stderr.String(), c.wantOut) {
			t.Errorf("run(%q) printed %q, want %q in it", c.args, stderr.String(), c.wantOut)
		}
	}
}

func TestBuildCommand(t *testing.T) {
	needGo(t)
	root := fixture(t)
	out := filepath.Join(t.TempDir(), "site")

	var stderr bytes.Buffer
	if err := run(context.Background(), []string{"build", "-root", root, "-o", out}, &stderr); err != nil {
		t.Fatalf("build: %v\n%s", err, stderr.String())
	}
	if !strings.Contains(stderr.String(), "wiki: built 15 pages") {
		t.Errorf("build did not report its pages:\n%s", stderr.String())
	}

	// A broken link fails the build with file and line, and keeps the last good site.
	mcptest.WriteFile(t, filepath.Join(root, "docs", "clients", "broken.md"), "# Broken\n\nA [dead link](../gone.md).\n")
	stderr.Reset()
	err := run(context.Background(), []string{"build", "-root", root, "-o", out}, &stderr)
	if err == nil || !strings.Contains(err.Error(), `docs/clients/broken.md:3: broken link "../gone.md": docs/gone.md does not exist`) {
		t.Errorf("build with a broken link = %v, want docs/clients/broken.md:3", err)
	}
	if _, err := os.Stat(filepath.Join(out, "llms.txt")); err != nil {
		t.Errorf("the failed build removed the previous site: %v", err)
	}

	// With -broken-links=warn the same tree is built, and the broken link
	// is listed with its file and line.
	stderr.Reset()
	if err := run(context.Background(), []string{"build", "-root", root, "-o", out, "-broken-links", "warn"}, &stderr); err != nil {
		t.Fatalf("build -broken-links=warn: %v\n%s", err, stderr.String())
	}
	for _, want := range []string{
		`docs/clients/broken.md:3: broken link "../gone.md": docs/gone.md does not exist`,
		"wiki: 1 broken reference(s) listed above; the site is built anyway",
		"wiki: built 16 pages",
	} {
		if !strings.Contains(stderr.String(), want) {
			t.Errorf("build -broken-links=warn printed no %q:\n%s", want, stderr.String())
		}
	}
	if _, err := os.Stat(filepath.Join(out, "clients", "broken", "index.html")); err != nil {
		t.Errorf("build -broken-links=warn did not build the page with the broken link: %v", err)
	}
	if err := run(context.Background(), []string{"build", "-root", root, "-o", out, "-broken-links", "ignore"}, &stderr); err == nil || !strings.Contains(err.Error(), `"ignore" is neither`) {
		t.Errorf("build -broken-links=ignore = %v, want a refusal", err)
	}

	// -o never replaces a folder that is not a wiki build.
	other := t.TempDir()
	mcptest.WriteFile(t, filepath.Join(other, "keep.txt"), "mine")
	err = run(context.Background(), []string{"build", "-root", fixture(t), "-o", other}, &stderr)
	if err == nil || !strings.Contains(err.Error(), "refusing to replace") {
		t.Errorf("build into a foreign folder = %v, want a refusal", err)
	}
	if _, err := os.Stat(filepath.Join(other, "keep.txt")); err != nil {
		t.Errorf("the foreign folder was touched: %v", err)
	}
}

// TestBuildVersions builds a repository with a release tag: the tag's
// pages go to its folder, and what cannot be built is refused with a
// reason (not a repository, a bad selector, a tag named like a folder of
// the docs).
func TestBuildVersions(t *testing.T) {
	needGo(t)
	repo := mcptest.NewGitRepo(t)
	root := repo.Dir
	if err := os.CopyFS(root, os.DirFS(fixture(t))); err != nil {
		t.Fatal(err)
	}
	repo.Commit("first release")
	repo.Git("tag", "v1.0.0")
	mcptest.WriteFile(t, filepath.Join(root, "docs", "new.md"), "# New\n\nAfter the release.\n")
	out := filepath.Join(t.TempDir(), "site")

	var stderr bytes.Buffer
	if err := run(context.Background(), []string{"build", "-root", root, "-o", out, "-versions", "v*"}, &stderr); err != nil {
		t.Fatalf("build -versions: %v\n%s", err, stderr.String())
	}
	if !strings.Contains(stderr.String(), "(the working tree and 1 release versions)") {
		t.Errorf("build -versions did not say what it built:\n%s", stderr.String())
	}
	for _, p := range []string{"new/index.html", "v1.0.0/index.html", "what-changed/index.html"} {
		if _, err := os.Stat(filepath.Join(out, filepath.FromSlash(p))); err != nil {
			t.Errorf("build -versions: %v", err)
		}
	}
	if _, err := os.Stat(filepath.Join(out, "v1.0.0", "new", "index.html")); err == nil {
		t.Error("v1.0.0 has a page for docs/new.md, made after it")
	}
	if _, err := os.Stat(filepath.Join(out, "v1.0.0", "what-changed", "index.html")); err == nil {
		t.Error("v1.0.0, the oldest version, has a What changed page")
	}

	stderr.Reset()
	if err := run(context.Background(), []string{"build", "-root", root, "-o", out, "-versions", "release-*"}, &stderr); err != nil {
		t.Fatalf("build -versions release-*: %v", err)
	}
	if !strings.Contains(stderr.String(), "no tag matches -versions release-*") {
		t.Errorf("a selector matching nothing was not reported:\n%s", stderr.String())
	}

	repo.Git("tag", "clients")
	for _, c := range []struct {
		root, selector, want string
	}{
		{fixture(t), "v*", "is not the top of a git repository"},
		{root, "v*:0", "how many of the newest tags to keep"},
		{root, "clients", "its pages would go to /wiki/clients/, which the working tree's site has already"},
	} {
		err := run(context.Background(), []string{"build", "-root", c.root, "-o", out, "-versions", c.selector}, &stderr)
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("build -versions %s = %v, want an error saying %q", c.selector, err, c.want)
		}
	}
}

// TestWhere: inside a docs-mcp checkout the command builds the checkout;
// elsewhere (an installed binary in another repository) it builds the
// nearest folder up holding docs/, with no checkout (the site's sources
// built in), and a go.work of another project is no checkout.
func TestWhere(t *testing.T) {
	checkout, root, err := where(".")
	if err != nil || checkout == "" || root != checkout {
		t.Errorf("where(.) in the checkout = %q, %q, %v; want the checkout twice", checkout, root, err)
	}
	other := t.TempDir()
	mcptest.WriteTree(t, other, map[string]string{"go.work": "go 1.26\n", "docs/index.md": "# Hi", "docs/guide/a.md": "# A"})
	checkout, root, err = where(filepath.Join(other, "docs", "guide"))
	if err != nil || checkout != "" || root != other {
		t.Errorf("where(docs/guide) in another repository = %q, %q, %v; want no checkout and %q", checkout, root, err, other)
	}
}
