package wiki

import (
	"bytes"
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// release is one tag of the repository versionedRepo makes, and what it
// changed.
type release struct {
	tag    string
	date   time.Time
	change func(t *testing.T, root string)
}

// releases are the tags of the test repository, oldest first: a doc added
// (legacy.md, with the fixture), a doc removed and another added, a doc
// edited (one section changed, one added) with a hook changed. After them
// the working tree edits one more section.
var releases = []release{
	{"v1.0.0", time.Date(2026, 3, 2, 10, 0, 0, 0, time.UTC), func(t *testing.T, root string) {
		writeFile(t, root, "docs/legacy.md", "# Legacy API\n\nThe old way.\n\n## Old hooks\n\nUse `OnOld`.\n")
	}},
	{"v1.1.0", time.Date(2026, 6, 15, 10, 0, 0, 0, time.UTC), func(t *testing.T, root string) {
		if err := os.Remove(filepath.Join(root, "docs", "legacy.md")); err != nil {
			t.Fatal(err)
		}
		writeFile(t, root, "docs/clients/cursor.md", "# Cursor\n\nAdd the server in Cursor's settings.\n\n## Configure\n\nOpen the MCP settings.\n")
	}},
	{"v1.2.0", time.Date(2026, 9, 1, 10, 0, 0, 0, time.UTC), func(t *testing.T, root string) {
		replaceIn(t, root, "docs/server/configuration.md", "The body limit is **1 MiB**", "The body limit is **4 MiB**")
		appendTo(t, root, "docs/server/configuration.md", "\n## Timeouts\n\nRequests time out after 30 seconds.\n")
		replaceIn(t, root, registryPath, "The game server finished loading all mods and accepts connections.", "The game server loaded every mod and accepts connections.")
	}},
}

// versionedRepo makes a git repository of the fixture with the tags of
// releases, then edits a section in the working tree (committed). It
// returns the repository's root and the versions, newest first.
func versionedRepo(t *testing.T) (string, []Version) {
	t.Helper()
	if _, err := exec.LookPath("git"); err != nil {
		missing(t, "no git on PATH")
	}
	root := fixture(t)
	snapshots := t.TempDir()
	git(t, root, time.Time{}, "init", "-q", "-b", "main")
	var versions []Version
	for i, r := range releases {
		r.change(t, root)
		git(t, root, r.date, "add", "-A")
		git(t, root, r.date, "commit", "-q", "-m", "release "+r.tag)
		git(t, root, r.date, "tag", r.tag)
		snap := filepath.Join(snapshots, r.tag)
		entries, err := os.ReadDir(root)
		if err != nil {
			t.Fatal(err)
		}
		for _, e := range entries {
			if e.Name() != ".git" {
				copyPath(t, filepath.Join(root, e.Name()), filepath.Join(snap, e.Name()))
			}
		}
		versions = append(versions, Version{Name: r.tag, Date: r.date, FS: os.DirFS(snap)})
		_ = i
	}
	replaceIn(t, root, "docs/getting-started.md", "Run this:", "Run this, with Go 1.26 or newer:")
	after := releases[len(releases)-1].date.Add(24 * time.Hour)
	git(t, root, after, "commit", "-q", "-am", "getting started: the Go version")
	for i, j := 0, len(versions)-1; i < j; i, j = i+1, j-1 {
		versions[i], versions[j] = versions[j], versions[i]
	}
	return root, versions
}

// git runs git in dir with date as the author's and committer's.
func git(t *testing.T, dir string, date time.Time, args ...string) {
	t.Helper()
	cmd := exec.Command("git", append([]string{"-C", dir, "-c", "user.name=Test", "-c", "user.email=test@example.org", "-c", "commit.gpgsign=false", "-c", "tag.gpgsign=false"}, args...)...)
	cmd.Env = append(os.Environ(), "GIT_CONFIG_GLOBAL=/dev/null", "GIT_CONFIG_SYSTEM=/dev/null")
	if !date.IsZero() {
		d := date.Format(time.RFC3339)
		cmd.Env = append(cmd.Env, "GIT_AUTHOR_DATE="+d, "GIT_COMMITTER_DATE="+d)
	}
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("git %s: %v\n%s", strings.Join(args, " "), err, out)
	}
}

func writeFile(t *testing.T, root, name, text string) {
	t.Helper()
	p := filepath.Join(root, filepath.FromSlash(name))
	if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(p, []byte(text), 0o644); err != nil {
		t.Fatal(err)
	}
}

func replaceIn(t *testing.T, root, name, old, new string) {
	t.Helper()
	p := filepath.Join(root, filepath.FromSlash(name))
	b, err := os.ReadFile(p)
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Contains(b, []byte(old)) {
		t.Fatalf("%s does not hold %q", name, old)
	}
	writeFile(t, root, name, strings.Replace(string(b), old, new, 1))
}

func appendTo(t *testing.T, root, name, text string) {
	t.Helper()
	b, err := os.ReadFile(filepath.Join(root, filepath.FromSlash(name)))
	if err != nil {
		t.Fatal(err)
	}
	writeFile(t, root, name, string(b)+text)
}

func TestVersionsBuild(t *testing.T) {
	root, versions := versionedRepo(t)
	opt := options(t, root)
	opt.Versions = versions
	opt.BaseURL = "https://docs.example.org/modkit/"
	out, res := build(t, opt)
	t.Logf("%d pages, %d versions, Hugo ran %s", res.Pages, res.Versions, res.Duration)
	for _, p := range []string{"v1.0.0/legacy/index.html", "v1.1.0/server/configuration/index.html", "server/configuration/index.html"} {
		b, _ := os.ReadFile(filepath.Join(out, p))
		t.Logf("%s:\n%s", p, b)
	}
	b, _ := os.ReadFile(filepath.Join(out, "sitemap.xml"))
	t.Logf("%s", b)
	_ = context.Background
}
