package gitdocs_test

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// gitRepo is a real git repository in a temporary folder, driven by the
// git binary as a user would.
type gitRepo struct {
	t    *testing.T
	dir  string
	when time.Time // the date of the next commit; each commit adds a day
}

func newGitRepo(t *testing.T) *gitRepo {
	t.Helper()
	if _, err := exec.LookPath("git"); err != nil {
		t.Skip("no git binary to make the test repository with")
	}
	r := &gitRepo{t: t, dir: t.TempDir(), when: time.Date(2026, 1, 1, 12, 0, 0, 0, time.UTC)}
	r.git("init", "-q", "-b", "main")
	return r
}

func (r *gitRepo) git(args ...string) string {
	r.t.Helper()
	cmd := exec.Command("git", append([]string{"-c", "user.name=Test", "-c", "user.email=test@example.com", "-c", "tag.gpgSign=false", "-c", "commit.gpgSign=false"}, args...)...)
	cmd.Dir = r.dir
	date := r.when.Format(time.RFC3339)
	cmd.Env = append(os.Environ(), "GIT_CONFIG_GLOBAL=/dev/null", "GIT_CONFIG_NOSYSTEM=1",
		"GIT_AUTHOR_DATE="+date, "GIT_COMMITTER_DATE="+date)
	out, err := cmd.CombinedOutput()
	if err != nil {
		r.t.Fatalf("git %s: %v\n%s", strings.Join(args, " "), err, out)
	}
	return strings.TrimSpace(string(out))
}

// write writes files (relative slash paths) into the work tree; an empty
// text removes the file.
func (r *gitRepo) write(files map[string]string) {
	r.t.Helper()
	for name, text := range files {
		p := filepath.Join(r.dir, filepath.FromSlash(name))
		if text == "" {
			if err := os.Remove(p); err != nil {
				r.t.Fatal(err)
			}
			continue
		}
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			r.t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(text), 0o644); err != nil {
			r.t.Fatal(err)
		}
	}
}

// commit commits everything in the work tree and returns the commit's id.
func (r *gitRepo) commit(msg string) string {
	r.t.Helper()
	r.git("add", "-A")
	r.git("commit", "-q", "-m", msg)
	r.when = r.when.Add(24 * time.Hour)
	return r.git("rev-parse", "HEAD")
}
