package mcptest

import (
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// GitRepo is a real git repository in a temporary folder, driven by the
// git binary as a user would (gitdocs and the server's provenance and
// versions are tested on it). Commits are dated a day apart from
// 2026-01-01 12:00 UTC, so that dates are known to the test.
type GitRepo struct {
	Dir  string
	t    testing.TB
	when time.Time // the date of the next commit
}

// NewGitRepo makes an empty repository on branch main; without a git
// binary the test is skipped.
func NewGitRepo(t testing.TB) *GitRepo {
	t.Helper()
	if _, err := exec.LookPath("git"); err != nil {
		t.Skip("no git on PATH to make the test repository with: install git (Debian: apt-get install git)")
	}
	r := &GitRepo{t: t, Dir: t.TempDir(), when: time.Date(2026, 1, 1, 12, 0, 0, 0, time.UTC)}
	r.Git("init", "-q", "-b", "main")
	return r
}

// Git runs git in the repository, with no user or system configuration,
// and returns its output trimmed; a failure fails the test.
func (r *GitRepo) Git(args ...string) string {
	r.t.Helper()
	cmd := exec.Command("git", append([]string{"-c", "user.name=Test", "-c", "user.email=test@example.com", "-c", "tag.gpgSign=false", "-c", "commit.gpgSign=false"}, args...)...)
	cmd.Dir = r.Dir
	date := r.when.Format(time.RFC3339)
	cmd.Env = append(os.Environ(), "GIT_CONFIG_GLOBAL="+os.DevNull, "GIT_CONFIG_NOSYSTEM=1",
		"GIT_AUTHOR_DATE="+date, "GIT_COMMITTER_DATE="+date)
	out, err := cmd.CombinedOutput()
	if err != nil {
		r.t.Fatalf("git %s: %v\n%s", strings.Join(args, " "), err, out)
	}
	return strings.TrimSpace(string(out))
}

// Write writes files (slash paths relative to the repository) into the
// work tree; an empty text removes the file.
func (r *GitRepo) Write(files map[string]string) {
	r.t.Helper()
	for name, text := range files {
		p := filepath.Join(r.Dir, filepath.FromSlash(name))
		if text == "" {
			if err := os.Remove(p); err != nil {
				r.t.Fatal(err)
			}
			continue
		}
		WriteFile(r.t, p, text)
	}
}

// Commit commits everything in the work tree and returns the commit's id;
// the next commit is dated a day later.
func (r *GitRepo) Commit(msg string) string {
	r.t.Helper()
	r.Git("add", "-A")
	r.Git("commit", "-q", "-m", msg)
	r.when = r.when.Add(24 * time.Hour)
	return r.Git("rev-parse", "HEAD")
}

// Released copies the tree at from (a repository's files: docs/, the hook
// registry, CONTRIBUTING.md), and the trees at more over it, into a new
// repository, commits it and tags the commit v1: a data root with a
// release, for --versions.
func Released(t testing.TB, from string, more ...string) *GitRepo {
	t.Helper()
	r := NewGitRepo(t)
	for _, dir := range append([]string{from}, more...) {
		if err := os.CopyFS(r.Dir, os.DirFS(dir)); err != nil {
			t.Fatal(err)
		}
	}
	r.Commit("v1")
	r.Git("tag", "v1")
	return r
}

// In makes the next commits' dates (and those after) in the time zone
// loc, the same instants: a zone like +05:30 is written into the commit
// as git writes it.
func (r *GitRepo) In(loc *time.Location) { r.when = r.when.In(loc) }

// ReleaseTags adds n commits on main, each tagged (a lightweight tag named
// by name(i), i from 0), in one run of git fast-import: thousands of tags
// in seconds, where a git command a tag takes minutes. The first commit
// writes docs/doc0.md to docs/doc{docs-1}.md; commit i edits doc i%docs.
// Commits are a minute apart from the next commit's date, which then moves
// past them.
func (r *GitRepo) ReleaseTags(n, docs int, name func(i int) string) {
	r.t.Helper()
	var b strings.Builder
	when := r.when
	var parent string // none in a repository without commits
	if out, err := exec.Command("git", "-C", r.Dir, "rev-parse", "--verify", "-q", "HEAD^{commit}").Output(); err == nil {
		parent = strings.TrimSpace(string(out))
	}
	for i := range n {
		fmt.Fprintf(&b, "commit refs/heads/main\nmark :%d\ncommitter Test <test@example.com> %d %s\n", i+1, when.Unix(), when.Format("-0700"))
		msg := name(i)
		fmt.Fprintf(&b, "data %d\n%s\n", len(msg), msg)
		if i == 0 && parent != "" {
			fmt.Fprintf(&b, "from %s\n", parent)
		}
		edit := func(d int) {
			text := fmt.Sprintf("# Doc %d\n\nWritten for %s.\n", d, msg)
			fmt.Fprintf(&b, "M 100644 inline docs/doc%d.md\ndata %d\n%s\n", d, len(text), text)
		}
		if i == 0 {
			for d := range docs {
				edit(d)
			}
		} else {
			edit(i % docs)
		}
		fmt.Fprintf(&b, "\nreset refs/tags/%s\nfrom :%d\n\n", msg, i+1)
		when = when.Add(time.Minute)
	}
	cmd := exec.Command("git", "fast-import", "--quiet")
	cmd.Dir, cmd.Stdin = r.Dir, strings.NewReader(b.String())
	cmd.Env = append(os.Environ(), "GIT_CONFIG_GLOBAL="+os.DevNull, "GIT_CONFIG_NOSYSTEM=1")
	if out, err := cmd.CombinedOutput(); err != nil {
		r.t.Fatalf("git fast-import: %v\n%s", err, out)
	}
	r.when = when.Add(24 * time.Hour)
	r.Git("reset", "-q", "--hard", "main")
}
