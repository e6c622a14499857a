package gitdocs_test

import (
	"strings"
	"testing"

	"github.com/docs-mcp/docs-mcp/mcp-server/gitdocs"
	"github.com/docs-mcp/docs-mcp/mcp-server/mcptest"
	"github.com/google/go-cmp/cmp"
)

// TestLastCommits checks each doc's last commit against git log's, on a
// history with a merge.
func TestLastCommits(t *testing.T) {
	r, _ := releases(t)
	r.Git("checkout", "-q", "-b", "topic")
	r.Write(map[string]string{"docs/topic.md": "# Topic\n", "docs/guide.md": "# Guide\n\nRewritten on a branch.\n"})
	r.Commit("on a branch")
	r.Git("checkout", "-q", "main")
	r.Write(map[string]string{"README.md": "# Repo, edited\n"}) // outside docs/
	r.Commit("readme")
	r.Git("merge", "-q", "--no-ff", "-m", "merge topic", "topic")

	repo, err := gitdocs.Open(r.Dir)
	if err != nil {
		t.Fatal(err)
	}
	h, err := repo.LastCommits("docs")
	if err != nil {
		t.Fatal(err)
	}
	if want := r.Git("rev-parse", "HEAD"); h.Head != want {
		t.Errorf("Head = %s, want %s", h.Head, want)
	}
	want := map[string]string{}
	for _, p := range strings.Fields(r.Git("ls-files", "docs")) {
		want[p] = r.Git("log", "-1", "--first-parent", "--format=%H", "--", p)
	}
	got := map[string]string{}
	for p := range want {
		if c, ok := h.Last(p); ok {
			got[p] = c.ID
		}
	}
	if h.Files() != len(want) {
		t.Errorf("Files() = %d, want %d", h.Files(), len(want))
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("last commits, git log (-) vs LastCommits (+):\n%s", diff)
	}
	for p := range want {
		if id, _ := h.Blob(p); id.String() != r.Git("rev-parse", "HEAD:"+p) {
			t.Errorf("blob of %s = %s, want HEAD's", p, id)
		}
	}
	if c, _ := h.Last("docs/guide.md"); c.Short() != c.ID[:7] || c.Date.IsZero() {
		t.Errorf("docs/guide.md: %+v", c)
	}
}

func TestLastCommitsNoCommit(t *testing.T) {
	r := mcptest.NewGitRepo(t)
	repo, err := gitdocs.Open(r.Dir)
	if err != nil {
		t.Fatal(err)
	}
	h, err := repo.LastCommits("docs")
	if err != nil || h.Head != "" || h.Files() != 0 {
		t.Errorf("LastCommits of an empty repository = %+v, %v", h, err)
	}
}

// TestOver checks a history told as its difference from another against
// the history itself, file by file, both ways: a newer release over an
// older one and an older over a newer, with docs added, removed and
// edited between them.
func TestOver(t *testing.T) {
	r, _ := releases(t)
	repo, err := gitdocs.Open(r.Dir)
	if err != nil {
		t.Fatal(err)
	}
	tags := []string{"v1.0.0", "v1.1.0", "v1.10.0"}
	histories := map[string]*gitdocs.History{}
	for _, tag := range tags {
		if histories[tag], err = repo.LastCommitsAt(r.Git("rev-parse", tag+"^{commit}"), "docs"); err != nil {
			t.Fatal(err)
		}
	}
	all := map[string]bool{}
	for _, h := range histories {
		for p := range h.All() {
			all[p] = true
		}
	}
	for _, a := range tags {
		for _, b := range tags {
			h, over := histories[a], histories[a].Over(histories[b])
			if over.Head != h.Head || over.Files() != h.Files() {
				t.Errorf("%s over %s: head %s, %d files; want %s, %d", a, b, over.Head, over.Files(), h.Head, h.Files())
			}
			for p := range all {
				c, ok := h.Last(p)
				oc, ook := over.Last(p)
				id, _ := h.Blob(p)
				oid, _ := over.Blob(p)
				if c != oc || ok != ook || id != oid {
					t.Errorf("%s over %s: %s: %v %v %s, want %v %v %s", a, b, p, oc, ook, oid, c, ok, id)
				}
			}
			n := 0
			for p, c := range over.All() {
				if want, _ := h.Last(p); c != want {
					t.Errorf("%s over %s: All gives %s at %v, want %v", a, b, p, c, want)
				}
				n++
			}
			if n != h.Files() {
				t.Errorf("%s over %s: All gives %d files, want %d", a, b, n, h.Files())
			}
		}
	}
}

// TestFileBlobID: a doc's text matches its file's blob, with the byte
// order mark the loader dropped put back when the file is longer by it.
func TestFileBlobID(t *testing.T) {
	text := []byte("# A\n\nText.\n")
	withMark := append([]byte("\ufeff"), text...)
	for _, tc := range []struct {
		size   int64
		want   gitdocs.BlobID
		wantOK bool
	}{
		{int64(len(text)), gitdocs.BlobIDOf(text), true},
		{int64(len(withMark)), gitdocs.BlobIDOf(withMark), true},
		{int64(len(text)) + 1, gitdocs.BlobID{}, false},
	} {
		if id, ok := gitdocs.FileBlobID(text, tc.size); id != tc.want || ok != tc.wantOK {
			t.Errorf("FileBlobID(text, %d) = %s, %v; want %s, %v", tc.size, id, ok, tc.want, tc.wantOK)
		}
	}
}
