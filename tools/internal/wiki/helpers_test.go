package wiki

import (
	"context"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/docs-mcp/docs-mcp/mcp-server/mcptest"
	"github.com/docs-mcp/docs-mcp/tools/internal/repo"
)

// inCI is true on the CI machine, where a missing prerequisite is a failure.
func inCI() bool { return os.Getenv("CI") == "true" }

// missing skips the test, or fails it in CI.
func missing(t *testing.T, format string, args ...any) {
	t.Helper()
	if inCI() {
		t.Fatalf("CI=true and a prerequisite is missing: "+format, args...)
	}
	t.Skipf("skipping: "+format+" (set CI=true to make this a failure)", args...)
}

type hugoCheck struct {
	repo    string
	version string
	err     error
}

var hugoOnce = sync.OnceValue(func() hugoCheck {
	root, err := repo.Root(".")
	if err != nil {
		return hugoCheck{err: err}
	}
	ctx, cancel := context.WithTimeout(context.Background(), 15*time.Minute)
	defer cancel()
	h := &Hugo{ModDir: filepath.Join(root, "tools", "hugo"), Progress: os.Stderr}
	v, err := h.Version(ctx)
	return hugoCheck{repo: root, version: v, err: err}
})

// options returns build options for root (the repository when empty), or
// skips the test when Hugo cannot be compiled here.
func options(t *testing.T, root string) Options {
	t.Helper()
	c := hugoOnce()
	if c.err != nil {
		missing(t, "Hugo cannot be built or run (%v); pre-build it with: GOWORK=off CGO_ENABLED=0 go -C tools/hugo tool hugo version", c.err)
	}
	return Options{Repo: c.repo, Root: root, Progress: testWriter{t}}
}

// testWriter sends progress lines to the test log.
type testWriter struct{ t *testing.T }

func (w testWriter) Write(p []byte) (int, error) {
	w.t.Helper()
	w.t.Log(strings.TrimRight(string(p), "\n"))
	return len(p), nil
}

// fixture copies testdata/fixture into a temporary folder the test may change.
func fixture(t *testing.T) string {
	t.Helper()
	dst := t.TempDir()
	if err := os.CopyFS(dst, os.DirFS(filepath.Join("testdata", "fixture"))); err != nil {
		t.Fatal(err)
	}
	return dst
}

// build builds root (fixture or repository) into a temporary folder.
func build(t *testing.T, opt Options) (string, *Result) {
	t.Helper()
	out := filepath.Join(t.TempDir(), "wiki")
	res, err := Build(context.Background(), opt, out)
	if err != nil {
		t.Fatalf("Build: %v", err)
	}
	return out, res
}

// siteFor is build for a test that only reads the site: the repository's
// own docs with no other option set are built once (repoSite) for all of
// them, any other tree or option for the test.
func siteFor(t *testing.T, opt Options) (string, *Result) {
	t.Helper()
	plain := Options{Repo: opt.Repo, Root: opt.Repo, Progress: opt.Progress}
	if opt.Root != opt.Repo || !reflect.DeepEqual(opt, plain) {
		return build(t, opt)
	}
	s := repoSite()
	if s.err != nil {
		t.Fatalf("Build of the repository's docs: %v\n%s", s.err, s.log)
	}
	return s.out, s.res
}

// repoSite is the repository's docs built once, in the shared folder, for
// the ten tests that read them as the wiki (browsers, audits, crawls):
// each built its own, and ten builds were the largest part of the
// package's time. None of them writes to the site.
var repoSite = sync.OnceValue(func() (s struct {
	out string
	res *Result
	log string
	err error
}) {
	c := hugoOnce()
	if s.err = c.err; s.err != nil {
		return s
	}
	var log mcptest.Buffer
	s.out = filepath.Join(shared, "repo-site")
	s.res, s.err = Build(context.Background(), Options{Repo: c.repo, Root: c.repo, Progress: &log}, s.out)
	s.log = log.String()
	return s
})
