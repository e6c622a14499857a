package wiki

import (
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"github.com/docs-mcp/docs-mcp/mcp-server/gitdocs"
	"github.com/docs-mcp/docs-mcp/mcp-server/mcptest"
)

func TestLastUpdated(t *testing.T) {
	if _, err := exec.LookPath("git"); err != nil {
		missing(t, "no git on PATH (Debian: apt-get install git)")
	}
	root := t.TempDir()
	for _, f := range []string{"docs/a.md", "docs/sub/b.md", "docs/edited.md", "CONTRIBUTING.md"} {
		mcptest.WriteFile(t, filepath.Join(root, filepath.FromSlash(f)), "# "+f+"\n")
	}
	mtime := time.Date(2031, 5, 6, 23, 30, 0, 0, time.UTC)
	touch := func(f string) {
		if err := os.Chtimes(filepath.Join(root, filepath.FromSlash(f)), mtime, mtime); err != nil {
			t.Fatal(err)
		}
	}
	paths := []string{"docs/a.md", "docs/sub/b.md", "docs/edited.md", "docs/new.md", "CONTRIBUTING.md"}

	// Not a checkout: every file's modification time.
	mcptest.WriteFile(t, filepath.Join(root, "docs", "new.md"), "# new\n")
	for _, f := range paths {
		touch(f)
	}
	got, err := lastUpdated(root, paths, commitDates(context.Background(), root))
	if err != nil {
		t.Fatal(err)
	}
	want := map[string]string{"docs/a.md": "2031-05-06", "docs/sub/b.md": "2031-05-06", "docs/edited.md": "2031-05-06", "docs/new.md": "2031-05-06", "CONTRIBUTING.md": "2031-05-06"}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("without git (-want +got):\n%s", diff)
	}

	// A checkout: the day of each file's last commit (in UTC), unless it
	// changed since or was never committed.
	git := func(date string, args ...string) {
		cmd := exec.Command("git", append([]string{"-C", root, "-c", "user.name=t", "-c", "user.email=t@example.org"}, args...)...)
		cmd.Env = append(os.Environ(), "GIT_COMMITTER_DATE="+date, "GIT_AUTHOR_DATE="+date)
		if out, err := cmd.CombinedOutput(); err != nil {
			t.Fatalf("git %v: %v\n%s", args, err, out)
		}
	}
	git("", "init", "-q")
	git("2030-01-02T10:00:00+00:00", "add", "docs/a.md", "docs/sub/b.md", "docs/edited.md", "CONTRIBUTING.md")
	git("2030-01-02T10:00:00+00:00", "commit", "-q", "-m", "first")
	mcptest.WriteFile(t, filepath.Join(root, "docs", "sub", "b.md"), "# b, again\n")
	git("2030-03-04T23:30:00-05:00", "commit", "-q", "-am", "second") // 5 March in UTC
	mcptest.WriteFile(t, filepath.Join(root, "docs", "edited.md"), "# edited, not committed\n")
	touch("docs/edited.md")
	got, err = lastUpdated(root, paths, commitDates(context.Background(), root))
	if err != nil {
		t.Fatal(err)
	}
	want = map[string]string{"docs/a.md": "2030-01-02", "docs/sub/b.md": "2030-03-05", "docs/edited.md": "2031-05-06", "docs/new.md": "2031-05-06", "CONTRIBUTING.md": "2030-01-02"}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("in a checkout (-want +got):\n%s", diff)
	}

	// A change made on a branch late on 5 May (UTC) and merged on 6 May
	// is dated by the merge, as a release's pages are (gitdocs walks the
	// first parents): the same change, the same day in every version.
	git("", "checkout", "-q", "-b", "side")
	mcptest.WriteFile(t, filepath.Join(root, "docs", "a.md"), "# a, on a branch\n")
	git("2030-05-05T23:00:00+00:00", "commit", "-q", "-am", "on the branch")
	git("", "checkout", "-q", "-")
	mcptest.WriteFile(t, filepath.Join(root, "CONTRIBUTING.md"), "# guide, on the main line\n")
	git("2030-05-06T08:00:00+00:00", "commit", "-q", "-am", "main moves on")
	git("2030-05-06T09:00:00+00:00", "merge", "-q", "--no-ff", "-m", "merge", "side")
	got, err = lastUpdated(root, paths, commitDates(context.Background(), root))
	if err != nil {
		t.Fatal(err)
	}
	if got["docs/a.md"] != "2030-05-06" {
		t.Errorf("docs/a.md, changed on a branch on 2030-05-05 and merged on 2030-05-06: last updated %s, want the merge's day", got["docs/a.md"])
	}
	repo, err := gitdocs.Open(root)
	if err != nil {
		t.Fatal(err)
	}
	head, err := exec.Command("git", "-C", root, "rev-parse", "HEAD").Output()
	if err != nil {
		t.Fatal(err)
	}
	h, err := repo.LastCommitsAt(strings.TrimSpace(string(head)), "docs")
	if err != nil {
		t.Fatal(err)
	}
	for name, c := range h.All() {
		if day := c.Date.UTC().Format(dateFormat); got[name] != day && name != "docs/edited.md" {
			t.Errorf("%s: last updated %s in the working tree, %s as a release at HEAD would say", name, got[name], day)
		}
	}
}
