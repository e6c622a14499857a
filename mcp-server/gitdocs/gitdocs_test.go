package gitdocs_test

import (
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"
	"testing/fstest"
	"time"

	"github.com/docs-mcp/docs-mcp/mcp-server/gitdocs"
	"github.com/docs-mcp/docs-mcp/mcp-server/mcptest"
	"github.com/google/go-cmp/cmp"
)

func TestOpenNotRepository(t *testing.T) {
	_, err := gitdocs.Open(t.TempDir())
	if !errors.Is(err, gitdocs.ErrNotRepository) {
		t.Fatalf("Open of a plain folder: got %v, want ErrNotRepository", err)
	}
}

func TestParseSelector(t *testing.T) {
	for _, tc := range []struct {
		text string
		want gitdocs.Selector
	}{
		{"v*", gitdocs.Selector{Patterns: []string{"v*"}}},
		{"v*:5", gitdocs.Selector{Patterns: []string{"v*"}, Newest: 5}},
		{"v1.*, v2.*:2", gitdocs.Selector{Patterns: []string{"v1.*", "v2.*"}, Newest: 2}},
	} {
		got, err := gitdocs.ParseSelector(tc.text)
		if err != nil {
			t.Fatalf("ParseSelector(%q): %v", tc.text, err)
		}
		if diff := cmp.Diff(tc.want, got); diff != "" {
			t.Errorf("ParseSelector(%q) (-want +got):\n%s", tc.text, diff)
		}
		if again, err := gitdocs.ParseSelector(got.String()); err != nil || !cmp.Equal(again, got) {
			t.Errorf("ParseSelector(%q.String() = %q) = %v, %v", tc.text, got.String(), again, err)
		}
	}
	for _, bad := range []string{"", "v*:", "v*:0", "v*:-1", "v*:x", "v*,", "[", ",v*"} {
		if _, err := gitdocs.ParseSelector(bad); err == nil {
			t.Errorf("ParseSelector(%q): no error", bad)
		}
	}
}

// releases makes a repository with three release tags and a working tree
// edited since the last, and returns it with the commits of the tags.
func releases(t *testing.T) (*mcptest.GitRepo, map[string]string) {
	r := mcptest.NewGitRepo(t)
	commits := map[string]string{}
	r.Write(map[string]string{
		"docs/guide.md":             "# Guide\n\nIntro.\n\n## Install\n\nRun it.\n\n## Use\n\nUse it.\n",
		"docs/old.md":               "# Old\n\nGoing away.\n",
		"docs/ref/hooks.md":         "# Hooks\n\n## Events\n\nSome.\n",
		"docs/node_modules/skip.md": "# not a doc\n",
		"README.md":                 "# Repo\n",
		gitdocs.HooksPath:           `{"hooks":[{"name":"a.one","summary":"One."},{"name":"b.two","summary":"Two."}]}`,
	})
	commits["v1.0.0"] = r.Commit("first release")
	r.Git("tag", "v1.0.0")
	r.Write(map[string]string{
		"docs/guide.md":   "# Guide\n\nIntro.\n\n## Install\n\nRun it twice.\n\n## Use\n\nUse it.\n\n## Upgrade\n\nNew.\n",
		"docs/old.md":     "",
		"docs/new.md":     "# New\n\nFresh.\n",
		gitdocs.HooksPath: `{"hooks":[{"name":"a.one","summary":"One, changed."},{"name":"c.three","summary":"Three."}]}`,
	})
	commits["v1.1.0"] = r.Commit("second release")
	r.Git("tag", "-a", "-m", "release 1.1.0", "v1.1.0") // annotated
	r.Write(map[string]string{"docs/ref/hooks.md": "# Hooks\n\n## Events\n\nMany.\n"})
	commits["v1.10.0"] = r.Commit("third release")
	r.Git("tag", "v1.10.0")
	r.Git("tag", "nightly")
	r.Git("tag", "vtree", "HEAD^{tree}") // names a tree, not a commit
	return r, commits
}

func TestVersions(t *testing.T) {
	r, commits := releases(t)
	repo, err := gitdocs.Open(r.Dir)
	if err != nil {
		t.Fatal(err)
	}
	day := func(n int) time.Time { return time.Date(2026, 1, 1+n, 12, 0, 0, 0, time.UTC) }
	all := []gitdocs.Version{
		{Name: "v1.10.0", Commit: commits["v1.10.0"], Date: day(2)},
		{Name: "v1.1.0", Commit: commits["v1.1.0"], Date: day(1)},
		{Name: "v1.0.0", Commit: commits["v1.0.0"], Date: day(0)},
	}
	for _, tc := range []struct {
		sel  string
		want []gitdocs.Version
	}{
		{"v*", all},
		{"v*:2", all[:2]},
		{"v1.1*", all[:2]},
		{"v1.0.0,v1.10.0", []gitdocs.Version{all[0], all[2]}},
		{"x*", nil},
	} {
		sel, err := gitdocs.ParseSelector(tc.sel)
		if err != nil {
			t.Fatal(err)
		}
		got, err := repo.Versions(sel)
		if err != nil {
			t.Fatalf("Versions(%s): %v", tc.sel, err)
		}
		if diff := cmp.Diff(tc.want, got, cmp.Comparer(time.Time.Equal)); diff != "" {
			t.Errorf("Versions(%s) (-want +got):\n%s", tc.sel, diff)
		}
	}

	// A tag made and one deleted after Open are seen.
	r.Git("tag", "v2.0.0")
	r.Git("tag", "-d", "v1.0.0")
	sel, _ := gitdocs.ParseSelector("v*")
	got, err := repo.Versions(sel)
	if err != nil {
		t.Fatal(err)
	}
	var names []string
	for _, v := range got {
		names = append(names, v.Name)
	}
	if diff := cmp.Diff([]string{"v2.0.0", "v1.10.0", "v1.1.0"}, names); diff != "" {
		t.Errorf("after tagging v2.0.0 and deleting v1.0.0 (-want +got):\n%s", diff)
	}
}

func TestFS(t *testing.T) {
	r, _ := releases(t)
	r.Write(map[string]string{"docs/guide.md": "# Guide\n\nEdited in the work tree.\n"})
	if err := os.Symlink("/etc/passwd", filepath.Join(r.Dir, "docs", "link.md")); err != nil {
		t.Fatal(err)
	}
	r.Commit("a link") // untagged
	repo, err := gitdocs.Open(r.Dir)
	if err != nil {
		t.Fatal(err)
	}
	sel, _ := gitdocs.ParseSelector("v1.0.0")
	vs, err := repo.Versions(sel)
	if err != nil || len(vs) != 1 {
		t.Fatalf("Versions: %v, %v", vs, err)
	}
	fsys, err := repo.FS(vs[0])
	if err != nil {
		t.Fatal(err)
	}
	if err := fstest.TestFS(fsys, "docs/guide.md", "docs/old.md", "docs/ref/hooks.md", "README.md", gitdocs.HooksPath); err != nil {
		t.Fatal(err)
	}
	var files []string
	err = fs.WalkDir(fsys, ".", func(p string, d fs.DirEntry, err error) error {
		if err == nil && !d.IsDir() {
			files = append(files, p)
		}
		return err
	})
	if err != nil {
		t.Fatal(err)
	}
	want := []string{"README.md", "docs/guide.md", "docs/node_modules/skip.md", "docs/old.md", "docs/ref/hooks.md", gitdocs.HooksPath}
	if diff := cmp.Diff(want, files); diff != "" {
		t.Errorf("files of v1.0.0 (-want +got):\n%s", diff)
	}
	text, err := fs.ReadFile(fsys, "docs/guide.md")
	if err != nil {
		t.Fatal(err)
	}
	if want := "# Guide\n\nIntro.\n\n## Install\n\nRun it.\n\n## Use\n\nUse it.\n"; string(text) != want {
		t.Errorf("docs/guide.md at v1.0.0 = %q, want %q", text, want)
	}
	info, err := fs.Stat(fsys, "docs/guide.md")
	if err != nil {
		t.Fatal(err)
	}
	if id, _ := info.Sys().(gitdocs.BlobID); id != gitdocs.BlobIDOf(text) || id.String() != r.Git("rev-parse", "v1.0.0:docs/guide.md") {
		t.Errorf("Sys() = %v, want the blob id %s", info.Sys(), r.Git("rev-parse", "v1.0.0:docs/guide.md"))
	}
	if !info.ModTime().Equal(vs[0].Date) {
		t.Errorf("ModTime = %v, want the commit date %v", info.ModTime(), vs[0].Date)
	}

	// The symlink committed later is listed but never followed.
	head, err := repo.FS(gitdocs.Version{Name: "HEAD", Commit: r.Git("rev-parse", "HEAD")})
	if err != nil {
		t.Fatal(err)
	}
	info, err = fs.Stat(head, "docs/link.md")
	if err != nil || info.Mode().Type() != fs.ModeSymlink {
		t.Errorf("Stat(docs/link.md) = %v, %v; want a symlink", info, err)
	}
	if data, err := fs.ReadFile(head, "docs/link.md"); err == nil {
		t.Errorf("ReadFile of a symlink read %q", data)
	}
	// Its target is read as git stores it, for a caller that follows links.
	if target, err := fs.ReadLink(head, "docs/link.md"); err != nil || target != "/etc/passwd" {
		t.Errorf("ReadLink(docs/link.md) = %q, %v; want /etc/passwd", target, err)
	}
	if target, err := fs.ReadLink(head, "docs/guide.md"); err == nil {
		t.Errorf("ReadLink of a regular file = %q, want an error", target)
	}
	for _, bad := range []string{"../x", "/etc/passwd", "docs/../docs/guide.md", "docs/none.md"} {
		if _, err := fs.ReadFile(head, bad); err == nil {
			t.Errorf("ReadFile(%q): no error", bad)
		}
	}
}

// TestOpenLinkedWorkTree opens a work tree made by git worktree add (a .git
// file naming a folder whose commondir holds the objects and refs), and a
// bare repository.
func TestOpenLinkedWorkTree(t *testing.T) {
	r, commits := releases(t)
	linked := filepath.Join(t.TempDir(), "linked")
	r.Git("worktree", "add", "-q", "-b", "other", linked, "v1.0.0")
	bare := filepath.Join(t.TempDir(), "bare.git")
	r.Git("clone", "-q", "--bare", r.Dir, bare)
	for _, root := range []string{linked, bare} {
		repo, err := gitdocs.Open(root)
		if err != nil {
			t.Fatalf("Open(%s): %v", root, err)
		}
		sel, _ := gitdocs.ParseSelector("v1.1*")
		vs, err := repo.Versions(sel)
		if err != nil || len(vs) != 2 || vs[1].Commit != commits["v1.1.0"] {
			t.Errorf("Versions in %s: %v, %v", root, vs, err)
		}
		if head, err := repo.Head(); err != nil || head == "" {
			t.Errorf("Head of %s: %q, %v", root, head, err)
		}
	}
}

// TestBadTags: a selected tag that cannot be read (a malformed line of
// packed-refs, a ref file holding no id, its commit in a truncated pack)
// is left out with its reason; the other tags are read.
func TestBadTags(t *testing.T) {
	r := mcptest.NewGitRepo(t)
	r.Write(map[string]string{"docs/a.md": "# A\n"})
	r.Commit("one")
	r.Git("tag", "v1.0.0")
	r.Git("tag", "v1.1.0")
	r.Git("tag", "other")
	r.Git("repack", "-a", "-d", "-q")
	r.Git("pack-refs", "--all")
	packs := func() []string {
		ps, err := filepath.Glob(filepath.Join(r.Dir, ".git", "objects", "pack", "*.pack"))
		if err != nil {
			t.Fatal(err)
		}
		return ps
	}
	before := packs()
	r.Write(map[string]string{"docs/a.md": "# A, edited\n"})
	r.Commit("two")
	r.Git("tag", "v2.0.0")
	r.Git("repack", "-d", "-q") // v2.0.0's commit, tree and blob alone in a pack of their own
	r.Write(map[string]string{"docs/a.md": "# A, again\n"})
	r.Commit("three")
	r.Git("tag", "v3.0.0")

	// The pack holding v2.0.0's objects cut short.
	id, v1 := r.Git("rev-parse", "v2.0.0"), r.Git("rev-parse", "v1.0.0")
	fresh := slices.DeleteFunc(packs(), func(p string) bool { return slices.Contains(before, p) })
	if len(fresh) != 1 {
		t.Fatalf("packs %v, then %v", before, packs())
	}
	if err := os.Truncate(fresh[0], 40); err != nil {
		t.Fatal(err)
	}
	// A malformed line in packed-refs, for v1.1.0, and a loose ref of
	// v4.0.0 that holds no id.
	refsPath := filepath.Join(r.Dir, ".git", "packed-refs")
	b, err := os.ReadFile(refsPath)
	if err != nil {
		t.Fatal(err)
	}
	text := strings.Replace(string(b), " refs/tags/v1.1.0", "  refs/tags/v1.1.0 junk", 1)
	if text == string(b) {
		t.Fatalf("no v1.1.0 in packed-refs:\n%s", b)
	}
	mcptest.WriteFile(t, refsPath, text+"not a ref at all\n")
	mcptest.WriteFile(t, filepath.Join(r.Dir, ".git", "refs", "tags", "v4.0.0"), "garbage\n")

	repo, err := gitdocs.Open(r.Dir)
	if err != nil {
		t.Fatal(err)
	}
	defer repo.Close()
	sel, _ := gitdocs.ParseSelector("v*")
	vs, bad, err := repo.ReadVersions(sel)
	if err != nil {
		t.Fatal(err)
	}
	var names []string
	for _, v := range vs {
		names = append(names, v.Name)
	}
	if diff := cmp.Diff([]string{"v3.0.0", "v1.0.0"}, names); diff != "" {
		t.Errorf("versions read (-want +got):\n%s", diff)
	}
	reasons := map[string]string{}
	for _, b := range bad {
		reasons[b.Name] = b.Reason
	}
	for name, want := range map[string]string{
		"v1.1.0": "of packed-refs is not a ref: \"" + v1 + "  refs/tags/v1.1.0 junk\"",
		"v2.0.0": "object " + id,
		"v4.0.0": "refs/tags/v4.0.0 holds no object id",
		"packed-refs line " + strconv.Itoa(strings.Count(text, "\n")+1): `not a ref: "not a ref at all"`,
	} {
		if !strings.Contains(reasons[name], want) {
			t.Errorf("bad tag %s: %q, want it to contain %q", name, reasons[name], want)
		}
	}
	if len(bad) != 4 {
		t.Errorf("bad tags: %+v", bad)
	}
	if _, err := repo.Versions(sel); err == nil {
		t.Error("Versions with bad tags: no error")
	}
}

// TestTagMoved: a loose tag moved to another commit is read again, though
// its file keeps its size (the listing keeps a ref file's read while its
// size and time are unchanged).
func TestTagMoved(t *testing.T) {
	r, commits := releases(t)
	repo, err := gitdocs.Open(r.Dir)
	if err != nil {
		t.Fatal(err)
	}
	defer repo.Close()
	sel, _ := gitdocs.ParseSelector("v1.10.0")
	old := time.Now().Add(-time.Hour) // past the window in which a ref file is read every time
	ref := filepath.Join(r.Dir, ".git", "refs", "tags", "v1.10.0")
	if err := os.Chtimes(ref, old, old); err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{commits["v1.10.0"], commits["v1.0.0"]} {
		vs, err := repo.Versions(sel)
		if err != nil || len(vs) != 1 || vs[0].Commit != want {
			t.Fatalf("Versions: %v, %v; want v1.10.0 at %s", vs, err, want)
		}
		r.Git("tag", "-f", "v1.10.0", commits["v1.0.0"])
	}
}
