package gitdocs_test

import (
	"io/fs"
	"os"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/docs-mcp/docs-mcp/mcp-server/gitdocs"
	"github.com/docs-mcp/docs-mcp/mcp-server/internal/docs"
	"github.com/docs-mcp/docs-mcp/mcp-server/mcptest"
	"github.com/google/go-cmp/cmp"
)

// treesOf opens the repository and returns each named tag's tree.
func treesOf(t *testing.T, r *mcptest.GitRepo, names ...string) map[string]fs.FS {
	t.Helper()
	repo, err := gitdocs.Open(r.Dir)
	if err != nil {
		t.Fatal(err)
	}
	sel, _ := gitdocs.ParseSelector("*")
	vs, err := repo.Versions(sel)
	if err != nil {
		t.Fatal(err)
	}
	out := map[string]fs.FS{}
	for _, v := range vs {
		if slices.Contains(names, v.Name) {
			if out[v.Name], err = repo.FS(v); err != nil {
				t.Fatal(err)
			}
		}
	}
	return out
}

func TestChanges(t *testing.T) {
	r, _ := releases(t)
	// The working tree: an edit not committed, and a new doc not added.
	r.Write(map[string]string{
		"docs/new.md":   "# New\n\nFresh.\n\n## Later\n\nAdded in the work tree.\n",
		"docs/draft.md": "# Draft\n",
	})
	trees := treesOf(t, r, "v1.0.0", "v1.1.0", "v1.10.0")
	trees["working tree"] = os.DirFS(r.Dir)
	for _, tc := range []struct {
		from, to string
		want     *gitdocs.Diff
	}{
		{"v1.0.0", "v1.1.0", &gitdocs.Diff{
			Added:   []string{"new.md"},
			Removed: []string{"old.md"},
			Changed: []gitdocs.DocChange{{Path: "guide.md", Sections: []gitdocs.SectionChange{
				{Anchor: "install", Heading: "Install", Change: gitdocs.Edited},
				{Anchor: "upgrade", Heading: "Upgrade", Change: gitdocs.Added},
			}}},
			Hooks: gitdocs.HookChanges{Changed: true, Added: []string{"c.three"}, Removed: []string{"b.two"}, Edited: []string{"a.one"}},
		}},
		{"v1.1.0", "v1.0.0", &gitdocs.Diff{
			Added:   []string{"old.md"},
			Removed: []string{"new.md"},
			Changed: []gitdocs.DocChange{{Path: "guide.md", Sections: []gitdocs.SectionChange{
				{Anchor: "install", Heading: "Install", Change: gitdocs.Edited},
				{Anchor: "upgrade", Heading: "Upgrade", Change: gitdocs.Removed},
			}}},
			Hooks: gitdocs.HookChanges{Changed: true, Added: []string{"b.two"}, Removed: []string{"c.three"}, Edited: []string{"a.one"}},
		}},
		{"v1.1.0", "v1.10.0", &gitdocs.Diff{
			Changed: []gitdocs.DocChange{{Path: "ref/hooks.md", Sections: []gitdocs.SectionChange{
				{Anchor: "events", Heading: "Events", Change: gitdocs.Edited},
			}}},
		}},
		{"v1.10.0", "working tree", &gitdocs.Diff{
			Added: []string{"draft.md"},
			Changed: []gitdocs.DocChange{{Path: "new.md", Sections: []gitdocs.SectionChange{
				{Anchor: "later", Heading: "Later", Change: gitdocs.Added},
			}}},
		}},
		{"v1.10.0", "v1.10.0", &gitdocs.Diff{}},
	} {
		got, err := gitdocs.Changes(trees[tc.from], trees[tc.to])
		if err != nil {
			t.Fatalf("Changes(%s, %s): %v", tc.from, tc.to, err)
		}
		if diff := cmp.Diff(tc.want, got); diff != "" {
			t.Errorf("Changes(%s, %s) (-want +got):\n%s", tc.from, tc.to, diff)
		}
	}
}

// TestChangesMatchGitDiff checks the changed sections against git's own
// diff of the two tags: every hunk of `git diff` (blank-line changes
// aside) falls in a section Changes names, and every section it names
// holds a hunk. The docs are edited in many ways at once.
func TestChangesMatchGitDiff(t *testing.T) {
	r := mcptest.NewGitRepo(t)
	before := "---\ntitle: Big\n---\nLead text.\n\n# Big\n\nIntro.\n\n## A\n\nA text.\n\n### A.1\n\nDeep.\n\n## B\n\nB text.\n\n" +
		"```\n# not a heading\n```\n\n## A\n\nSecond A.\n\nSetext\n------\n\nUnder setext.\n\n## Gone\n\nBye.\n"
	after := "---\ntitle: Big\n---\nLead text, edited.\n\n# Big\n\nIntro.\n\n## A\n\nA text.\n\n### A.1\n\nDeeper.\n\n## B\n\nB text.\n\n" +
		"```\n# still not a heading, but edited\n```\n\n## A\n\nSecond A, edited.\n\nSetext\n------\n\nUnder setext.\n\n## Fresh\n\nHi.\n"
	r.Write(map[string]string{"docs/big.md": before, "docs/same.md": "# Same\n", "docs/gone.md": "# Gone\n"})
	r.Commit("before")
	r.Git("tag", "before")
	r.Write(map[string]string{"docs/big.md": after, "docs/gone.md": "", "docs/sub/fresh.md": "# Fresh\n"})
	r.Commit("after")
	r.Git("tag", "after")
	trees := treesOf(t, r, "before", "after")
	got, err := gitdocs.Changes(trees["before"], trees["after"])
	if err != nil {
		t.Fatal(err)
	}

	// Added and removed docs, from git's name-status.
	var added, removed []string
	for line := range strings.Lines(r.Git("diff", "--name-status", "before", "after", "--", "docs")) {
		status, p, _ := strings.Cut(strings.TrimSpace(line), "\t")
		p = strings.TrimPrefix(p, "docs/")
		switch status {
		case "A":
			added = append(added, p)
		case "D":
			removed = append(removed, p)
		}
	}
	if diff := cmp.Diff(added, got.Added); diff != "" {
		t.Errorf("added docs, git diff vs Changes (-git +Changes):\n%s", diff)
	}
	if diff := cmp.Diff(removed, got.Removed); diff != "" {
		t.Errorf("removed docs, git diff vs Changes (-git +Changes):\n%s", diff)
	}

	// The sections git's hunks fall in.
	hunk := regexp.MustCompile(`(?m)^@@ -(\d+)(?:,(\d+))? \+(\d+)(?:,(\d+))? @@`)
	anchorAt := func(text string) func(line int) string {
		hs := docs.Headings(text)
		anchors := docs.Anchors(hs)
		return func(line int) string {
			a := ""
			for i, h := range hs {
				if h.Line <= line {
					a = anchors[i]
				}
			}
			return a
		}
	}
	oldAt, newAt := anchorAt(before), anchorAt(after)
	num := func(s string, def int) int {
		if s == "" {
			return def
		}
		n, _ := strconv.Atoi(s)
		return n
	}
	fromGit := map[string]bool{}
	for _, m := range hunk.FindAllStringSubmatch(r.Git("diff", "-U0", "--ignore-blank-lines", "before", "after", "--", "docs/big.md"), -1) {
		oldStart, oldN, newStart, newN := num(m[1], 0), num(m[2], 1), num(m[3], 0), num(m[4], 1)
		for l := oldStart; l < oldStart+oldN; l++ {
			fromGit[oldAt(l)] = true
		}
		for l := newStart; l < newStart+newN; l++ {
			fromGit[newAt(l)] = true
		}
	}
	if len(got.Changed) != 1 || got.Changed[0].Path != "big.md" {
		t.Fatalf("changed docs: %+v, want big.md alone", got.Changed)
	}
	fromChanges := map[string]bool{}
	for _, s := range got.Changed[0].Sections {
		fromChanges[s.Anchor] = true
	}
	if diff := cmp.Diff(fromGit, fromChanges); diff != "" {
		t.Errorf("changed sections of big.md, git diff vs Changes (-git +Changes):\n%s", diff)
	}
	// The repeated "A" is told apart as the wiki does: a-1.
	want := map[string]bool{"": true, "a1": true, "b": true, "a-1": true, "gone": true, "fresh": true}
	if diff := cmp.Diff(want, fromChanges); diff != "" {
		t.Errorf("changed sections of big.md (-want +got):\n%s", diff)
	}
}

// TestChangesDocWithoutHeadings: a doc without headings is all text above
// its first heading, the section with the empty anchor: an edit of it is
// that section changed.
func TestChangesDocWithoutHeadings(t *testing.T) {
	r := mcptest.NewGitRepo(t)
	r.Write(map[string]string{"docs/plain.md": "Some text.\n", "docs/late.md": "Intro.\n"})
	r.Commit("one")
	r.Git("tag", "v1")
	r.Write(map[string]string{"docs/plain.md": "Some other text.\n", "docs/late.md": "Intro.\n\n# First heading\n\nBelow it.\n"})
	r.Commit("two")
	r.Git("tag", "v2")
	trees := treesOf(t, r, "v1", "v2")
	got, err := gitdocs.Changes(trees["v1"], trees["v2"])
	if err != nil {
		t.Fatal(err)
	}
	want := &gitdocs.Diff{Changed: []gitdocs.DocChange{
		{Path: "late.md", Sections: []gitdocs.SectionChange{{Anchor: "first-heading", Heading: "First heading", Change: gitdocs.Added}}},
		{Path: "plain.md", Sections: []gitdocs.SectionChange{{Change: gitdocs.Edited}}},
	}}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("Changes (-want +got):\n%s", diff)
	}
}

// TestChangesWithin: with a size cap, a doc past it is not served, so it
// counts as absent (a doc grown past the cap is removed, one shrunk back
// under it added), and a registry past it is compared by blob, not read.
func TestChangesWithin(t *testing.T) {
	const max = 100
	big := strings.Repeat("A line of text, long enough.\n", 10) // 290 bytes
	hooks := `{"hooks":[{"name":"a.one","summary":"` + strings.Repeat("x", max) + `"}]}`
	r := mcptest.NewGitRepo(t)
	r.Write(map[string]string{"docs/grows.md": "# Grows\n", "docs/shrinks.md": big, "docs/huge.md": big, "docs/small.md": "# Small\n",
		gitdocs.HooksPath: hooks})
	r.Commit("one")
	r.Git("tag", "v1")
	r.Write(map[string]string{"docs/grows.md": big, "docs/shrinks.md": "# Shrinks\n", "docs/huge.md": big + "More.\n", "docs/small.md": "# Small\n\nEdited.\n",
		"docs/new-huge.md": big})
	r.Commit("two")
	r.Git("tag", "v2")
	r.Write(map[string]string{gitdocs.HooksPath: hooks + "\n"})
	r.Commit("three")
	r.Git("tag", "v3")
	trees := treesOf(t, r, "v1", "v2", "v3")
	trees["working tree"] = os.DirFS(r.Dir)
	for _, tc := range []struct {
		from, to string
		want     *gitdocs.Diff
	}{
		{"v1", "v2", &gitdocs.Diff{
			Added:   []string{"shrinks.md"},
			Removed: []string{"grows.md"},
			Changed: []gitdocs.DocChange{{Path: "small.md", Sections: []gitdocs.SectionChange{{Anchor: "small", Heading: "Small", Change: gitdocs.Edited}}}},
		}},
		{"v2", "v3", &gitdocs.Diff{Hooks: gitdocs.HookChanges{Changed: true}}},
		{"v3", "working tree", &gitdocs.Diff{}},
		{"v2", "working tree", &gitdocs.Diff{Hooks: gitdocs.HookChanges{Changed: true}}},
	} {
		got, err := gitdocs.ChangesWithin(trees[tc.from], trees[tc.to], max)
		if err != nil {
			t.Fatalf("ChangesWithin(%s, %s): %v", tc.from, tc.to, err)
		}
		if diff := cmp.Diff(tc.want, got); diff != "" {
			t.Errorf("ChangesWithin(%s, %s) (-want +got):\n%s", tc.from, tc.to, diff)
		}
	}
}
