package versions_test

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"github.com/docs-mcp/docs-mcp/mcp-server/gitdocs"
	"github.com/docs-mcp/docs-mcp/mcp-server/internal/corpusgen"
	"github.com/docs-mcp/docs-mcp/mcp-server/internal/docs"
	"github.com/docs-mcp/docs-mcp/mcp-server/internal/search"
	"github.com/docs-mcp/docs-mcp/mcp-server/internal/versions"
	"github.com/docs-mcp/docs-mcp/mcp-server/mcptest"
)

// TestReleasesShare: a doc unchanged from one release to the next is one
// *docs.Doc in both, and the newer release's index takes over the
// segments of the older one that hold only such docs.
func TestReleasesShare(t *testing.T) {
	r := mcptest.NewGitRepo(t)
	r.Write(map[string]string{"docs/a.md": "# A\n", "docs/b.md": "# B\n", "docs/sub/c.md": "# C\n"})
	r.Commit("one")
	r.Git("tag", "v1")
	r.Write(map[string]string{"docs/b.md": "# B, edited\n"})
	r.Commit("two")
	r.Git("tag", "v2")
	repo, err := gitdocs.Open(r.Dir)
	if err != nil {
		t.Fatal(err)
	}
	sel, _ := gitdocs.ParseSelector("v*")
	set := versions.New(versions.Config{Repo: repo, Selector: sel, DocsDir: "docs"})
	if err := set.Refresh(context.Background()); err != nil {
		t.Fatal(err)
	}
	rs := set.List()
	if len(rs) != 2 || rs[0].Name != "v2" || rs[1].Name != "v1" {
		t.Fatalf("releases: %v", rs)
	}
	for _, p := range []string{"a.md", "sub/c.md", "b.md"} {
		d2, ok2 := rs[0].Docs.Lookup(p)
		d1, ok1 := rs[1].Docs.Lookup(p)
		if !ok1 || !ok2 {
			t.Fatalf("%s missing: v1 %v, v2 %v", p, ok1, ok2)
		}
		if shared, want := d1 == d2, p != "b.md"; shared != want {
			t.Errorf("%s shared between v1 and v2: %v, want %v", p, shared, want)
		}
	}
	for _, rel := range rs {
		if err := search.Await(context.Background(), rel.Docs); err != nil {
			t.Fatal(err)
		}
	}
	if st := search.Built(rs[0].Docs).Stats(); st.Docs != 3 {
		t.Errorf("v2's index: %+v", st)
	}

}

func TestUnknownVersion(t *testing.T) {
	r := mcptest.NewGitRepo(t)
	r.Write(map[string]string{"docs/a.md": "# A\n"})
	r.Commit("one")
	r.Git("tag", "v1")
	repo, err := gitdocs.Open(r.Dir)
	if err != nil {
		t.Fatal(err)
	}
	sel, _ := gitdocs.ParseSelector("v*")
	set := versions.New(versions.Config{Repo: repo, Selector: sel, DocsDir: "docs"})
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan struct{})
	go func() { defer close(done); set.Run(ctx) }()
	defer func() { cancel(); <-done }()
	latest, err := set.Wait(ctx, versions.Latest)
	if err != nil || latest.Name != "v1" {
		t.Fatalf("latest: %v, %v", latest, err)
	}
	_, err = set.Wait(ctx, "v9")
	var unknown *versions.UnknownError
	if !errors.As(err, &unknown) || unknown.Error() != `no version "v9"; the versions served are: v1 (or latest, the newest, or omit version for the working tree)` {
		t.Errorf("Get(v9): %v", err)
	}
}

// TestReleasesShareTheWorkingTree: releases stacked on the working tree
// hold, of their own, only the docs whose text the working tree does not
// have: a release as committed in the working tree is its docs and its
// index, and an older one indexes only the docs changed since. Every
// release's search still finds what a scan of its docs finds.
func TestReleasesShareTheWorkingTree(t *testing.T) {
	r := mcptest.NewGitRepo(t)
	if _, err := corpusgen.Generate(context.Background(), filepath.Join(r.Dir, "docs"), corpusgen.Options{Seed: 4, Files: 300, Shape: corpusgen.Small}); err != nil {
		t.Fatal(err)
	}
	r.Commit("v1.0.0")
	r.Git("tag", "v1.0.0")
	var paths []string
	err := filepath.WalkDir(filepath.Join(r.Dir, "docs"), func(p string, d os.DirEntry, err error) error {
		if err == nil && !d.IsDir() {
			rel, _ := filepath.Rel(filepath.Join(r.Dir, "docs"), p)
			paths = append(paths, filepath.ToSlash(rel))
		}
		return err
	})
	if err != nil {
		t.Fatal(err)
	}
	slices.Sort(paths)
	appendTo := func(p, line string) {
		f, err := os.OpenFile(filepath.Join(r.Dir, "docs", filepath.FromSlash(p)), os.O_APPEND|os.O_WRONLY, 0)
		if err != nil {
			t.Fatal(err)
		}
		defer f.Close()
		if _, err := fmt.Fprintln(f, line); err != nil {
			t.Fatal(err)
		}
	}
	changed := map[int]int{} // docs changed by each tag but the first, by its minor version
	for tag := 1; tag <= 2; tag++ {
		for i := tag; i < len(paths); i += 30 {
			appendTo(paths[i], fmt.Sprintf("Changed in release %d.", tag))
			changed[tag]++
		}
		r.Commit(fmt.Sprintf("v1.%d.0", tag))
		r.Git("tag", fmt.Sprintf("v1.%d.0", tag))
	}
	uncommitted := paths[5]
	appendTo(uncommitted, "An edit not committed.")

	wt, err := docs.Load(context.Background(), filepath.Join(r.Dir, "docs"), docs.LoadOptions{Generation: 1})
	if err != nil {
		t.Fatal(err)
	}
	search.Build(wt, nil)
	repo, err := gitdocs.Open(r.Dir)
	if err != nil {
		t.Fatal(err)
	}
	sel, _ := gitdocs.ParseSelector("v*")
	set := versions.New(versions.Config{Repo: repo, Selector: sel, DocsDir: "docs",
		WorkingTree: func(context.Context) *docs.Snapshot { return wt }})
	if err := set.Refresh(context.Background()); err != nil {
		t.Fatal(err)
	}
	rs := set.List()
	if len(rs) != 3 {
		t.Fatalf("releases: %v", rs)
	}
	newest := rs[0]
	for _, d := range newest.Docs.Docs() {
		w, _ := wt.Lookup(d.Path)
		if shared, want := w == d, d.Path != uncommitted; shared != want {
			t.Errorf("%s of %s is the working tree's: %v, want %v", d.Path, newest.Name, shared, want)
		}
	}
	for i, rel := range rs {
		if err := search.Await(context.Background(), rel.Docs); err != nil {
			t.Fatal(err)
		}
		st := search.Built(rel.Docs).Stats()
		// The newest release indexes the one doc edited in the working
		// tree, and finds the others in the working tree's segments; each
		// older one the docs its successor changed (or the working tree's
		// edit), finding the others in its successor's index.
		fresh := st.Docs - st.ReusedDocs
		want := 1
		if i > 0 {
			want = changed[3-i] // v1.1.0 (i 1): what v1.2.0 changed; v1.0.0 (i 2): what v1.1.0 did
		}
		if st.Docs != len(paths) || fresh != want {
			t.Errorf("%s: %d docs indexed, %d anew; want %d, %d anew", rel.Name, st.Docs, fresh, len(paths), want)
		}
		for _, text := range []string{"Changed in release", "release 2.", "not committed", "player", "the"} {
			q := search.Query{Text: text}
			var want, got []string
			for m := range search.Matches(rel.Docs, q, search.Position{}) {
				want = append(want, fmt.Sprintf("%s:%d", m.Doc.Path, m.Line))
			}
			for m := range search.Find(context.Background(), rel.Docs, q, search.Position{}, nil) {
				got = append(got, fmt.Sprintf("%s:%d", m.Doc.Path, m.Line))
			}
			if !slices.Equal(got, want) {
				t.Errorf("%s: %q: the index found %d lines, the scan %d", rel.Name, text, len(got), len(want))
			}
		}
	}
}

// TestHalfHourZoneLoadsOnce: a release whose commit was made in a time
// zone of a half-hour offset (+05:30) is loaded once, and served as the
// same release on every later reading of the tags, not dropped and loaded
// again on each.
func TestHalfHourZoneLoadsOnce(t *testing.T) {
	r := mcptest.NewGitRepo(t)
	r.In(time.FixedZone("IST", 5*3600+1800))
	r.Write(map[string]string{"docs/a.md": "# A\n"})
	r.Commit("one")
	r.Git("tag", "v1.0.0")
	if got := r.Git("log", "-1", "--format=%ci", "v1.0.0"); !strings.HasSuffix(got, "+0530") {
		t.Fatalf("commit date %q, want +0530", got)
	}
	repo, err := gitdocs.Open(r.Dir)
	if err != nil {
		t.Fatal(err)
	}
	sel, _ := gitdocs.ParseSelector("v*")
	set := versions.New(versions.Config{Repo: repo, Selector: sel, DocsDir: "docs"})
	if err := set.Refresh(context.Background()); err != nil {
		t.Fatal(err)
	}
	first := set.List()
	for range 3 {
		if err := set.Refresh(context.Background()); err != nil {
			t.Fatal(err)
		}
		if now := set.List(); len(now) != 1 || len(first) != 1 || now[0] != first[0] {
			t.Fatalf("after another reading of the tags, releases %v; want %v, the same release", now, first)
		}
	}
}

// logged is a logger writing text lines to a buffer the test reads.
func logged() (*slog.Logger, *mcptest.Buffer) {
	var buf mcptest.Buffer
	return slog.New(slog.NewTextHandler(&buf, &slog.HandlerOptions{Level: slog.LevelInfo})), &buf
}

// TestBadTagSkippedAlone: a tag that cannot be read (a malformed line of
// packed-refs), a tag whose release cannot be loaded (its objects in a
// truncated pack), and a tag whose CONTRIBUTING.md is a symlink and
// registry is past the cap leave the others served; each is told once,
// with why, however often the tags are read.
func TestBadTagSkippedAlone(t *testing.T) {
	r := mcptest.NewGitRepo(t)
	r.Write(map[string]string{"docs/a.md": "# A\n", "CONTRIBUTING.md": "# Contributing\n", "framework/mod_hooks.json": `{"hooks":[]}`})
	r.Commit("one")
	r.Git("tag", "v1.0.0")
	r.Git("tag", "v1.1.0")
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
	r.Write(map[string]string{"docs/b.md": "# B\n"})
	r.Commit("two")
	r.Git("tag", "v2.0.0")
	r.Git("repack", "-d", "-q") // v2.0.0's objects alone in a pack
	// Nothing of that pack is used after it.
	r.Write(map[string]string{"CONTRIBUTING.md": "", "docs/b.md": ""})
	r.Git("add", "-A")
	r.Git("commit", "-q", "-m", "three")
	if err := os.Symlink("docs/a.md", filepath.Join(r.Dir, "CONTRIBUTING.md")); err != nil {
		t.Fatal(err)
	}
	r.Write(map[string]string{"framework/mod_hooks.json": `{"hooks":[]}` + strings.Repeat(" ", 2000)})
	r.Commit("four")
	r.Git("tag", "v3.0.0")
	r.Write(map[string]string{"docs/c.md": "# C\n"})
	r.Commit("five")
	r.Git("tag", "v4.0.0")

	// v2.0.0's pack, but for the commit, cut short: the tag is read, its
	// tree is not.
	fresh := slices.DeleteFunc(packs(), func(p string) bool { return slices.Contains(before, p) })
	if len(fresh) != 1 {
		t.Fatalf("packs %v, then %v", before, packs())
	}
	commit := r.Git("rev-parse", "v2.0.0")
	r.Git("cat-file", "commit", commit) // readable before the cut
	refsPath := filepath.Join(r.Dir, ".git", "packed-refs")
	b, err := os.ReadFile(refsPath)
	if err != nil {
		t.Fatal(err)
	}
	mcptest.WriteFile(t, refsPath, strings.Replace(string(b), " refs/tags/v1.1.0", " refs/tags/v1.1.0 junk", 1))
	cutAfterCommit(t, fresh[0], commit)

	log, buf := logged()
	repo, err := gitdocs.Open(r.Dir)
	if err != nil {
		t.Fatal(err)
	}
	sel, _ := gitdocs.ParseSelector("v*")
	set := versions.New(versions.Config{Repo: repo, Selector: sel, DocsDir: "docs", RegistryPath: "framework/mod_hooks.json",
		ContributingPath: "CONTRIBUTING.md", MaxDocBytes: 1000, Logger: log})
	for range 3 {
		if err := set.Refresh(context.Background()); err != nil {
			t.Fatal(err)
		}
	}
	var names []string
	for _, rel := range set.List() {
		names = append(names, rel.Name)
	}
	if diff := cmp.Diff([]string{"v4.0.0", "v3.0.0", "v1.0.0"}, names); diff != "" {
		t.Errorf("releases served (-want +got):\n%s", diff)
	}
	v3, err := set.Lookup("v3.0.0")
	if err != nil {
		t.Fatal(err)
	}
	if v3.Contributing != nil || v3.ContributingProblem != "a symlink, not followed in a release" ||
		v3.Registry != nil || !strings.Contains(v3.RegistryProblem, "larger than the 1000-byte cap (2012 bytes") {
		t.Errorf("v3.0.0's guide %q (%s), registry %d bytes (%s)", v3.Contributing, v3.ContributingProblem, len(v3.Registry), v3.RegistryProblem)
	}
	for _, tc := range []struct{ tag, reason string }{
		{"v1.1.0", "of packed-refs is not a ref"},
		{"v2.0.0", "cannot be loaded"},
	} {
		_, err := set.Lookup(tc.tag)
		if _, ok := errors.AsType[*versions.SkippedError](err); !ok {
			t.Errorf("Lookup(%s): %v, want it skipped", tc.tag, err)
		}
		lines := strings.Count(buf.String(), "tag="+tc.tag) + strings.Count(buf.String(), "version="+tc.tag)
		if lines != 1 || !strings.Contains(buf.String(), tc.reason) {
			t.Errorf("%s told %d times, want once, with %q; log:\n%s", tc.tag, lines, tc.reason, buf)
		}
	}
	if n := strings.Count(buf.String(), "files of releases not served"); n != 1 || !strings.Contains(buf.String(), "CONTRIBUTING.md in 2 releases (v4.0.0, v3.0.0): a symlink, not followed in a release") {
		t.Errorf("v3.0.0's files told %d times; log:\n%s", n, buf)
	}
}

// cutAfterCommit truncates pack after the object commit, so that it is
// read and the objects after it (its tree, its blobs) are not.
func cutAfterCommit(t *testing.T, pack, commit string) {
	t.Helper()
	cmd := exec.Command("git", "verify-pack", "-v", strings.TrimSuffix(pack, ".pack")+".idx")
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("git verify-pack: %v", err)
	}
	for _, line := range strings.Split(string(out), "\n") {
		f := strings.Fields(line)
		if len(f) >= 5 && f[0] == commit {
			size, _ := strconv.Atoi(f[3])
			off, _ := strconv.Atoi(f[4])
			if err := os.Truncate(pack, int64(off+size)); err != nil {
				t.Fatal(err)
			}
			return
		}
	}
	t.Fatalf("commit %s not in %s:\n%s", commit, pack, out)
}

// TestSkippedDocsToldOnce: a doc skipped in every release (a symlink,
// not followed in a release) is told in one line for all of them, with
// how many and a few of their names, not in a line a release.
func TestSkippedDocsToldOnce(t *testing.T) {
	r := mcptest.NewGitRepo(t)
	r.Write(map[string]string{"docs/a.md": "# A\n"})
	if err := os.Symlink("a.md", filepath.Join(r.Dir, "docs", "link.md")); err != nil {
		t.Fatal(err)
	}
	r.Commit("base")
	r.ReleaseTags(6, 2, func(i int) string { return fmt.Sprintf("v1.%d.0", i) })
	log, buf := logged()
	repo, err := gitdocs.Open(r.Dir)
	if err != nil {
		t.Fatal(err)
	}
	sel, _ := gitdocs.ParseSelector("v*")
	set := versions.New(versions.Config{Repo: repo, Selector: sel, DocsDir: "docs", Logger: log})
	if err := set.Refresh(context.Background()); err != nil {
		t.Fatal(err)
	}
	if len(set.List()) != 6 {
		t.Fatalf("releases: %v", set.List())
	}
	want := `level=WARN msg="files of releases not served" files=6 releases=6 examples="docs/link.md in 6 releases (v1.5.0, v1.4.0, v1.3.0 and 3 more): not a regular file (a symlink is not followed in a release)"`
	if got := strings.Count(buf.String(), "level=WARN"); got != 1 || !strings.Contains(buf.String(), want) {
		t.Errorf("%d warnings, want 1: %s; log:\n%s", got, want, buf)
	}
}

// TestNoTagSelected: a selector that matches no tag says so when the
// releases are first loaded, with the tags there are.
func TestNoTagSelected(t *testing.T) {
	r := mcptest.NewGitRepo(t)
	r.Write(map[string]string{"docs/a.md": "# A\n"})
	r.Commit("one")
	r.Git("tag", "1.0")
	r.Git("tag", "release-2")
	log, buf := logged()
	repo, err := gitdocs.Open(r.Dir)
	if err != nil {
		t.Fatal(err)
	}
	sel, _ := gitdocs.ParseSelector("v*")
	set := versions.New(versions.Config{Repo: repo, Selector: sel, DocsDir: "docs", Logger: log})
	mcptest.Background(t, "following the tags", func(ctx context.Context) error {
		set.Run(ctx)
		return nil
	})
	<-set.Loaded()
	want := `level=WARN msg="--versions matches no tag: only the working tree is served" versions=v* tags=2 examples="1.0, release-2"`
	if !strings.Contains(buf.String(), want) {
		t.Errorf("log:\n%s\nwant the line %s", buf, want)
	}
}

// TestNoTagServed: when every selected tag is skipped, a version is an
// error that says the tags cannot be served, not that none matches.
func TestNoTagServed(t *testing.T) {
	r := mcptest.NewGitRepo(t)
	r.Write(map[string]string{"docs/a.md": "# A\n"})
	r.Commit("one")
	mcptest.WriteFile(t, filepath.Join(r.Dir, ".git", "refs", "tags", "v1.0.0"), "not an id\n")
	repo, err := gitdocs.Open(r.Dir)
	if err != nil {
		t.Fatal(err)
	}
	sel, _ := gitdocs.ParseSelector("v*")
	set := versions.New(versions.Config{Repo: repo, Selector: sel, DocsDir: "docs"})
	if err := set.Refresh(context.Background()); err != nil {
		t.Fatal(err)
	}
	_, err = set.Lookup("v2")
	if want := `no version "v2": no release is served (the one tag matching --versions cannot be; mod_list_versions says why)`; err == nil || err.Error() != want {
		t.Errorf("Lookup(v2): %v, want %s", err, want)
	}
}

// TestSameCommitShared: a tag that names the commit of a release served
// already (two tags on one commit, or a tag moved there) is that release's
// tree: its docs, and their index, are shared, not loaded again.
func TestSameCommitShared(t *testing.T) {
	r := mcptest.NewGitRepo(t)
	r.Write(map[string]string{"docs/a.md": "# A\n"})
	r.Commit("one")
	r.Git("tag", "v1.0.0")
	r.Write(map[string]string{"docs/a.md": "# A, edited\n"})
	r.Commit("two")
	r.Git("tag", "v2.0.0")
	repo, err := gitdocs.Open(r.Dir)
	if err != nil {
		t.Fatal(err)
	}
	sel, _ := gitdocs.ParseSelector("v*")
	set := versions.New(versions.Config{Repo: repo, Selector: sel, DocsDir: "docs"})
	if err := set.Refresh(context.Background()); err != nil {
		t.Fatal(err)
	}
	r.Git("tag", "v1.0.1", "v1.0.0")
	if err := set.Refresh(context.Background()); err != nil {
		t.Fatal(err)
	}
	v100, err100 := set.Lookup("v1.0.0")
	v101, err101 := set.Lookup("v1.0.1")
	if err100 != nil || err101 != nil {
		t.Fatalf("Lookup: %v, %v", err100, err101)
	}
	if v101.Docs != v100.Docs || v101.Commit != v100.Commit || v101.Name != "v1.0.1" {
		t.Errorf("v1.0.1 (%s, docs %p) and v1.0.0 (%s, docs %p): want one tree, shared", v101.Commit, v101.Docs, v100.Commit, v100.Docs)
	}
}

// TestSameRegistryChecked once: releases of different commits whose
// registry is the same file hold one check of it (a release searched
// checks its registry, about 1.5 MB for this repository's); a release
// whose registry differs has its own.
func TestSameRegistryCheckedOnce(t *testing.T) {
	r := mcptest.NewGitRepo(t)
	const reg = `{"hooks":[{"name":"on_start","file":"a.go","line":1}]}`
	r.Write(map[string]string{"docs/a.md": "# A\n", "framework/mod_hooks.json": reg})
	r.Commit("one")
	r.Git("tag", "v1.0.0")
	r.Write(map[string]string{"docs/a.md": "# A, edited\n"})
	r.Commit("two: the same registry")
	r.Git("tag", "v1.1.0")
	r.Write(map[string]string{"framework/mod_hooks.json": `{"hooks":[]}`})
	r.Commit("three: another registry")
	r.Git("tag", "v2.0.0")
	repo, err := gitdocs.Open(r.Dir)
	if err != nil {
		t.Fatal(err)
	}
	sel, _ := gitdocs.ParseSelector("v*")
	set := versions.New(versions.Config{Repo: repo, Selector: sel, DocsDir: "docs", RegistryPath: "framework/mod_hooks.json"})
	if err := set.Refresh(context.Background()); err != nil {
		t.Fatal(err)
	}
	checked := map[string]any{}
	for _, name := range []string{"v1.0.0", "v1.1.0", "v2.0.0"} {
		rel, err := set.Lookup(name)
		if err != nil {
			t.Fatal(err)
		}
		c, _ := rel.CheckedRegistry() // its problems (no framework, no version) do not matter here
		if c == nil {
			t.Fatalf("%s has no registry", name)
		}
		checked[name] = c
	}
	if checked["v1.0.0"] != checked["v1.1.0"] {
		t.Error("v1.0.0 and v1.1.0, whose registry is the same file, each checked it")
	}
	if checked["v2.0.0"] == checked["v1.0.0"] {
		t.Error("v2.0.0, whose registry differs, has v1.0.0's")
	}
}

// TestHistoryAtLoad: a release has the last commit of each of its docs as
// soon as it is served (walked as it loaded, not when a request asks), up
// to its tag, told over HEAD's history; a release tagged at HEAD has
// HEAD's, not a second walk of the same commits.
func TestHistoryAtLoad(t *testing.T) {
	r := mcptest.NewGitRepo(t)
	r.Write(map[string]string{"docs/a.md": "# A\n", "docs/b.md": "# B\n"})
	first := r.Commit("one")
	r.Git("tag", "v1.0.0")
	r.Write(map[string]string{"docs/a.md": "# A, edited\n"})
	second := r.Commit("two")
	r.Git("tag", "v2.0.0")
	repo, err := gitdocs.Open(r.Dir)
	if err != nil {
		t.Fatal(err)
	}
	head, err := repo.LastCommits("docs")
	if err != nil {
		t.Fatal(err)
	}
	sel, _ := gitdocs.ParseSelector("v*")
	set := versions.New(versions.Config{Repo: repo, Selector: sel, DocsDir: "docs",
		Head: func(context.Context) *gitdocs.History { return head }})
	if err := set.Refresh(context.Background()); err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct{ version, doc, want string }{
		{"v1.0.0", "docs/a.md", first},
		{"v1.0.0", "docs/b.md", first},
		{"v2.0.0", "docs/a.md", second},
		{"v2.0.0", "docs/b.md", first},
	} {
		rel, err := set.Lookup(tc.version)
		if err != nil {
			t.Fatal(err)
		}
		h := rel.History()
		if h == nil {
			t.Fatalf("%s is served without its history", tc.version)
		}
		if c, ok := h.Last(tc.doc); !ok || c.ID != tc.want {
			t.Errorf("%s: %s last changed in %q (found %v), want %s", tc.version, tc.doc, c.ID, ok, tc.want)
		}
	}
	if v2, _ := set.Lookup("v2.0.0"); v2.History() != head {
		t.Error("v2.0.0, tagged at HEAD, walked its own history rather than HEAD's")
	}
}
