package docs

import (
	"context"
	"errors"
	"os"
	"path"
	"path/filepath"
	"strings"
	"testing"
	"unicode/utf8"
)

// FuzzCleanPath checks client path resolution on any input: CleanPath never
// panics, anything it accepts is a canonical local path (no way up or out,
// no NUL or backslash), cleaning is idempotent, and a snapshot looks a path
// up to a doc of that very path or refuses it with ErrInvalidPath or
// ErrNotFound. The tree has a secret beside docs/ and symlinks that point
// at it: nothing a client sends may reach it.
func FuzzCleanPath(f *testing.F) {
	for _, p := range []string{
		"guide/intro.md", "./guide//intro.md", "index.md", "..md", "a/..b/c.md", "c++.md", "%.md",
		"../secret.md", "guide/../../secret.md", "/etc/passwd", `..\secret.md`, "C:/x.md", "c:x.md",
		"guide/intro.md\x00.png", "escape.md", "escape-dir/secret.md", ".", "./", "", "guide/", "文档.md",
		"guide/./../index.md", "//server/share", "\u202e.md", "a/b/c/../../..",
		`"guide/intro.md"`, `"a\nb.md"`, `"\"q.md"`, `"../x\n"`, "a\nb.md",
	} {
		f.Add(p)
	}
	base := f.TempDir()
	docsDir := filepath.Join(base, "docs")
	for p, content := range map[string]string{
		"docs/index.md":       "# Home\n",
		"docs/guide/intro.md": "# Intro\n",
		"docs/..md":           "# Dots\n",
		"secret.md":           "# SECRET outside docs\n",
	} {
		full := filepath.Join(base, p)
		if err := os.MkdirAll(filepath.Dir(full), 0o755); err != nil {
			f.Fatal(err)
		}
		if err := os.WriteFile(full, []byte(content), 0o644); err != nil {
			f.Fatal(err)
		}
	}
	for target, link := range map[string]string{"../secret.md": "escape.md", "..": "escape-dir"} {
		if err := os.Symlink(target, filepath.Join(docsDir, link)); err != nil {
			f.Fatal(err)
		}
	}
	snap, err := Load(context.Background(), docsDir, LoadOptions{})
	if err != nil {
		f.Fatal(err)
	}
	for _, d := range snap.Docs() {
		if strings.Contains(d.Text(), "SECRET") {
			f.Fatalf("the loader read %s, which leads outside docs/", d.Path)
		}
	}

	f.Fuzz(func(t *testing.T, p string) {
		// As text, any path is one line of printable characters, read
		// back as itself.
		shown := ShowPath(p)
		if strings.ContainsFunc(shown, notPrintable) || !utf8.ValidString(shown) {
			t.Fatalf("ShowPath(%q) = %q holds a character that is not printable", p, shown)
		}
		if unshow(shown) != p {
			t.Fatalf("ShowPath(%q) = %s reads back as %q", p, shown, unshow(shown))
		}

		clean, err := CleanPath(p)
		if err != nil {
			if !errors.Is(err, ErrInvalidPath) {
				t.Fatalf("CleanPath(%q) error %v does not wrap ErrInvalidPath", p, err)
			}
		} else {
			switch {
			case !filepath.IsLocal(clean):
				t.Fatalf("CleanPath(%q) = %q, which is not local to the docs folder", p, clean)
			case clean != path.Clean(clean), strings.HasSuffix(clean, "/"):
				t.Fatalf("CleanPath(%q) = %q, not canonical", p, clean)
			case strings.ContainsAny(clean, "\x00\\"):
				t.Fatalf("CleanPath(%q) = %q keeps a NUL or backslash", p, clean)
			}
			if again, err := CleanPath(clean); err != nil || again != clean {
				t.Fatalf("CleanPath(CleanPath(%q)) = %q, %v; want %q", p, again, err, clean)
			}
		}

		d, derr := snap.Doc(context.Background(), p)
		switch {
		case derr == nil && err != nil:
			t.Fatalf("Doc(%q) found %s for a path CleanPath refuses", p, d.Path)
		case derr == nil && d.Path != clean:
			t.Fatalf("Doc(%q) = %s, want the doc at %q", p, d.Path, clean)
		case derr != nil && !errors.Is(derr, ErrInvalidPath) && !errors.Is(derr, ErrNotFound):
			t.Fatalf("Doc(%q) error %v is neither ErrInvalidPath nor ErrNotFound", p, derr)
		}

		prefix, err := CleanPrefix(p)
		if err != nil {
			return
		}
		if prefix != "" && !filepath.IsLocal(strings.TrimSuffix(prefix, "/")) {
			t.Fatalf("CleanPrefix(%q) = %q, which is not local", p, prefix)
		}
		if again, err := CleanPrefix(prefix); err != nil || again != prefix {
			t.Fatalf("CleanPrefix(CleanPrefix(%q)) = %q, %v; want %q", p, again, err, prefix)
		}
	})
}
