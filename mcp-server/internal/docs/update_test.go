package docs

import (
	"context"
	"os"
	"path/filepath"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/docs-mcp/docs-mcp/mcp-server/mcptest"
)

// paths lists a snapshot's doc paths.
func paths(s *Snapshot) []string {
	var out []string
	for _, d := range s.Docs() {
		out = append(out, d.Path)
	}
	return out
}

func TestUpdate(t *testing.T) {
	initial := map[string]string{
		"index.md":         "# Home\n",
		"guide/intro.md":   "# Intro\nfirst version\n",
		"guide/setup.md":   "# Setup\n",
		"ref/api.md":       "# API\n",
		"ref/deep/more.md": "# More\n",
	}
	tests := []struct {
		name  string
		edit  func(t *testing.T, dir string)
		ch    Changes
		want  Diff
		paths []string // after the update; nil means unchanged
	}{
		{
			name: "edit in place",
			edit: func(t *testing.T, dir string) {
				mcptest.WriteTree(t, dir, map[string]string{"guide/intro.md": "# Intro\nsecond version\n"})
			},
			ch:   Changes{Paths: []string{"guide/intro.md"}},
			want: Diff{Changed: []string{"guide/intro.md"}},
		},
		{
			name: "atomic rename save",
			edit: func(t *testing.T, dir string) {
				mcptest.WriteTree(t, dir, map[string]string{"guide/.intro.md.swp": "# Intro\nsaved\n"})
				rename(t, filepath.Join(dir, "guide/.intro.md.swp"), filepath.Join(dir, "guide/intro.md"))
			},
			ch:   Changes{Paths: []string{"guide/.intro.md.swp", "guide/intro.md"}},
			want: Diff{Changed: []string{"guide/intro.md"}},
		},
		{
			name: "title changed",
			edit: func(t *testing.T, dir string) {
				mcptest.WriteTree(t, dir, map[string]string{
					"guide/intro.md": "---\ntitle: Getting going\n---\n# Intro\nfirst version\n",
					"guide/setup.md": "# Set up\n",
					"ref/api.md":     "# API\nnow with a body\n",
				})
			},
			ch:   Changes{Paths: []string{"guide", "ref/api.md"}},
			want: Diff{Changed: []string{"guide/intro.md", "guide/setup.md", "ref/api.md"}, Retitled: []string{"guide/intro.md", "guide/setup.md"}},
		},
		{
			name: "new nested folder",
			edit: func(t *testing.T, dir string) {
				mcptest.WriteTree(t, dir, map[string]string{"new/a/b/c.md": "# C\n", "new/a/d.md": "# D\n", "new/a/notes.txt": "x"})
			},
			ch:    Changes{Paths: []string{"new"}},
			want:  Diff{Added: []string{"new/a/b/c.md", "new/a/d.md"}},
			paths: []string{"guide/intro.md", "guide/setup.md", "index.md", "new/a/b/c.md", "new/a/d.md", "ref/api.md", "ref/deep/more.md"},
		},
		{
			name:  "delete",
			edit:  func(t *testing.T, dir string) { remove(t, filepath.Join(dir, "guide/setup.md")) },
			ch:    Changes{Paths: []string{"guide/setup.md"}},
			want:  Diff{Removed: []string{"guide/setup.md"}},
			paths: []string{"guide/intro.md", "index.md", "ref/api.md", "ref/deep/more.md"},
		},
		{
			name: "rename",
			edit: func(t *testing.T, dir string) {
				rename(t, filepath.Join(dir, "guide/setup.md"), filepath.Join(dir, "guide/install.md"))
			},
			ch:    Changes{Paths: []string{"guide/setup.md", "guide/install.md"}},
			want:  Diff{Added: []string{"guide/install.md"}, Removed: []string{"guide/setup.md"}},
			paths: []string{"guide/install.md", "guide/intro.md", "index.md", "ref/api.md", "ref/deep/more.md"},
		},
		{
			name:  "folder removed",
			edit:  func(t *testing.T, dir string) { removeAll(t, filepath.Join(dir, "ref")) },
			ch:    Changes{Paths: []string{"ref"}},
			want:  Diff{Removed: []string{"ref/api.md", "ref/deep/more.md"}},
			paths: []string{"guide/intro.md", "guide/setup.md", "index.md"},
		},
		{
			name: "folder renamed",
			edit: func(t *testing.T, dir string) {
				rename(t, filepath.Join(dir, "ref"), filepath.Join(dir, "reference"))
			},
			ch:    Changes{Paths: []string{"ref", "reference"}},
			want:  Diff{Added: []string{"reference/api.md", "reference/deep/more.md"}, Removed: []string{"ref/api.md", "ref/deep/more.md"}},
			paths: []string{"guide/intro.md", "guide/setup.md", "index.md", "reference/api.md", "reference/deep/more.md"},
		},
		{
			name: "rescan finds what events missed",
			edit: func(t *testing.T, dir string) {
				mcptest.WriteTree(t, dir, map[string]string{"index.md": "# Home, longer now\n", "extra.md": "# Extra\n"})
				remove(t, filepath.Join(dir, "ref/api.md"))
			},
			ch:    Changes{All: true},
			want:  Diff{Added: []string{"extra.md"}, Removed: []string{"ref/api.md"}, Changed: []string{"index.md"}, Retitled: []string{"index.md"}},
			paths: []string{"extra.md", "guide/intro.md", "guide/setup.md", "index.md", "ref/deep/more.md"},
		},
		{
			name: "same bytes written again",
			edit: func(t *testing.T, dir string) {
				mcptest.WriteTree(t, dir, map[string]string{"index.md": "# Home\n"})
			},
			ch: Changes{Paths: []string{"index.md"}},
		},
		{
			name: "symlink out of the docs folder",
			edit: func(t *testing.T, dir string) {
				mcptest.WriteTree(t, filepath.Dir(dir), map[string]string{"secret.md": "# Secret\n"})
				symlink(t, "../secret.md", filepath.Join(dir, "leak.md"))
				symlink(t, "..", filepath.Join(dir, "up"))
			},
			ch: Changes{Paths: []string{"leak.md", "up"}},
		},
		{
			name: "half-written file",
			edit: func(t *testing.T, dir string) {
				mcptest.WriteTree(t, dir, map[string]string{"guide/intro.md": "# Intro\ncaf\xc3"}) // cut inside é
			},
			ch:    Changes{Paths: []string{"guide/intro.md"}},
			want:  Diff{Removed: []string{"guide/intro.md"}},
			paths: []string{"guide/setup.md", "index.md", "ref/api.md", "ref/deep/more.md"},
		},
		{
			name: "events inside .git and for odd paths",
			edit: func(t *testing.T, dir string) {
				mcptest.WriteTree(t, dir, map[string]string{".git/x.md": "# git\n"})
			},
			ch: Changes{Paths: []string{".git/x.md", "../escape.md", "/abs.md", "a\x00b.md"}},
		},
		{
			name: "docs folder replaced",
			edit: func(t *testing.T, dir string) {
				next := dir + ".new"
				mcptest.WriteTree(t, next, map[string]string{"index.md": "# Home\n", "fresh.md": "# Fresh\n"})
				removeAll(t, dir)
				rename(t, next, dir)
			},
			ch:    Changes{All: true},
			want:  Diff{Added: []string{"fresh.md"}, Removed: []string{"guide/intro.md", "guide/setup.md", "ref/api.md", "ref/deep/more.md"}},
			paths: []string{"fresh.md", "index.md"},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			dir := filepath.Join(t.TempDir(), "docs")
			mcptest.WriteTree(t, dir, initial)
			ctx := context.Background()
			prev, err := Load(ctx, dir, LoadOptions{Generation: 1})
			if err != nil {
				t.Fatal(err)
			}
			tt.edit(t, dir)
			next, diff, err := Update(ctx, prev, dir, tt.ch, LoadOptions{Generation: 2})
			if err != nil {
				t.Fatal(err)
			}
			if d := cmp.Diff(tt.want, diff); d != "" {
				t.Errorf("diff (-want +got):\n%s", d)
			}
			want := tt.paths
			if want == nil {
				want = paths(prev)
			}
			if d := cmp.Diff(want, paths(next)); d != "" {
				t.Errorf("paths after the update (-want +got):\n%s", d)
			}
			switch {
			case diff.Empty() && next.Generation() != 1:
				t.Errorf("generation = %d after no change, want 1 (unchanged)", next.Generation())
			case !diff.Empty() && next.Generation() != 2:
				t.Errorf("generation = %d, want 2", next.Generation())
			}
			// The update must agree with a full load of the same folder.
			full, err := Load(ctx, dir, LoadOptions{})
			if err != nil {
				t.Fatal(err)
			}
			if d := cmp.Diff(paths(full), paths(next)); d != "" {
				t.Errorf("update and full load disagree (-load +update):\n%s", d)
			}
			for _, d := range full.Docs() {
				got, err := next.Doc(context.Background(), d.Path)
				if err != nil {
					t.Fatal(err)
				}
				if diff := cmp.Diff(d.Text(), got.Text()); diff != "" {
					t.Errorf("%s: text differs from a full load (-load +update):\n%s", d.Path, diff)
				}
			}
		})
	}
}

// An update reads only what changed and shares every other doc.
func TestUpdateSharesUnchangedDocs(t *testing.T) {
	dir := t.TempDir()
	mcptest.WriteTree(t, dir, map[string]string{"a.md": "# A\n", "b.md": "# B\n", "c/d.md": "# D\n"})
	ctx := context.Background()
	prev, err := Load(ctx, dir, LoadOptions{Generation: 1})
	if err != nil {
		t.Fatal(err)
	}
	mcptest.WriteTree(t, dir, map[string]string{"b.md": "# B, edited\n"})
	for _, ch := range []Changes{{Paths: []string{"b.md"}}, {All: true}} {
		next, _, err := Update(ctx, prev, dir, ch, LoadOptions{Generation: 2})
		if err != nil {
			t.Fatal(err)
		}
		for _, p := range []string{"a.md", "c/d.md"} {
			old, _ := prev.Doc(context.Background(), p)
			now, _ := next.Doc(context.Background(), p)
			if old != now {
				t.Errorf("%+v: %s was read again though it did not change", ch, p)
			}
		}
		if d, _ := next.Doc(context.Background(), "b.md"); d.Title() != "B, edited" {
			t.Errorf("%+v: b.md title = %q, want the edited one", ch, d.Title())
		}
		if old, _ := prev.Doc(context.Background(), "b.md"); old.Title() != "B" {
			t.Errorf("the old snapshot changed under its readers: b.md title = %q", old.Title())
		}
	}
}

// A file that stays too large is not read again by every rescan, and is
// read again once it changes.
func TestUpdateSkippedFiles(t *testing.T) {
	dir := t.TempDir()
	mcptest.WriteTree(t, dir, map[string]string{"big.md": "# Big\n" + string(make([]byte, 100)), "a.md": "# A\n"})
	ctx := context.Background()
	opts := LoadOptions{MaxDocBytes: 50, Generation: 1}
	prev, err := Load(ctx, dir, opts)
	if err != nil {
		t.Fatal(err)
	}
	next, diff, err := Update(ctx, prev, dir, Changes{All: true}, LoadOptions{MaxDocBytes: 50, Generation: 2})
	if err != nil || !diff.Empty() || next != prev {
		t.Fatalf("rescan of an unchanged folder = %v, %v, same snapshot %v; want no change", diff, err, next == prev)
	}
	mcptest.WriteTree(t, dir, map[string]string{"big.md": "# Big, trimmed\n"})
	next, diff, err = Update(ctx, prev, dir, Changes{All: true}, LoadOptions{MaxDocBytes: 50, Generation: 2})
	if err != nil {
		t.Fatal(err)
	}
	if d := cmp.Diff(Diff{Added: []string{"big.md"}}, diff); d != "" {
		t.Errorf("diff (-want +got):\n%s", d)
	}
	if len(next.Skipped()) != 0 {
		t.Errorf("skipped = %v, want none", next.Skipped())
	}
}

func TestUpdateUnreadable(t *testing.T) {
	if os.Geteuid() == 0 {
		t.Skip("running as root, whom file permissions do not stop from reading: run it as another user (go test -run TestUpdateUnreadable ./mcp-server/internal/docs)")
	}
	dir := t.TempDir()
	mcptest.WriteTree(t, dir, map[string]string{"a.md": "# A\n", "b.md": "# B\n"})
	ctx := context.Background()
	prev, err := Load(ctx, dir, LoadOptions{Generation: 1})
	if err != nil {
		t.Fatal(err)
	}
	if err := os.Chmod(filepath.Join(dir, "b.md"), 0); err != nil {
		t.Fatal(err)
	}
	next, diff, err := Update(ctx, prev, dir, Changes{Paths: []string{"b.md"}}, LoadOptions{Generation: 2})
	if err != nil {
		t.Fatal(err)
	}
	if d := cmp.Diff(Diff{Removed: []string{"b.md"}}, diff); d != "" {
		t.Errorf("diff (-want +got):\n%s", d)
	}
	if len(next.Skipped()) != 1 || next.Skipped()[0].Path != "b.md" {
		t.Errorf("skipped = %v, want b.md", next.Skipped())
	}
}

func TestUpdateMissingDir(t *testing.T) {
	dir := t.TempDir()
	mcptest.WriteTree(t, dir, map[string]string{"a.md": "# A\n"})
	prev, err := Load(context.Background(), dir, LoadOptions{Generation: 1})
	if err != nil {
		t.Fatal(err)
	}
	removeAll(t, dir)
	next, _, err := Update(context.Background(), prev, dir, Changes{All: true}, LoadOptions{Generation: 2})
	if err == nil {
		t.Fatal("Update of a removed docs folder gave no error")
	}
	if next != prev {
		t.Error("Update of a removed docs folder did not keep the previous snapshot")
	}
}

func rename(t *testing.T, from, to string) {
	t.Helper()
	if err := os.Rename(from, to); err != nil {
		t.Fatal(err)
	}
}

func remove(t *testing.T, p string) {
	t.Helper()
	if err := os.Remove(p); err != nil {
		t.Fatal(err)
	}
}

func removeAll(t *testing.T, p string) {
	t.Helper()
	if err := os.RemoveAll(p); err != nil {
		t.Fatal(err)
	}
}
