package docs

import (
	"errors"
	"path/filepath"
	"testing"
)

func TestCleanPath(t *testing.T) {
	tests := []struct {
		in      string
		want    string
		refused bool
	}{
		{in: "guide/intro.md", want: "guide/intro.md"},
		{in: "./guide/intro.md", want: "guide/intro.md"},
		{in: "guide//intro.md", want: "guide/intro.md"},
		{in: "guide/./intro.md", want: "guide/intro.md"},
		{in: "c++.md", want: "c++.md"},
		{in: "%.md", want: "%.md"},
		{in: "with space/文档.md", want: "with space/文档.md"},
		{in: "..md", want: "..md"}, // a file name, not a parent segment
		{in: "", refused: true},
		{in: ".", refused: true},
		{in: "./", refused: true},
		{in: "/etc/passwd", refused: true},
		{in: "../secret.md", refused: true},
		{in: "guide/../../secret.md", refused: true},
		{in: "guide/..", refused: true},
		{in: `guide\intro.md`, refused: true},
		{in: `..\secret.md`, refused: true},
		{in: "guide/intro.md\x00.png", refused: true},
		{in: "C:/Windows/win.ini", refused: true},
		{in: "./C:/Windows/win.ini", refused: true},
		{in: "c:secret.md", refused: true},
	}
	for _, tt := range tests {
		got, err := CleanPath(tt.in)
		if tt.refused {
			if !errors.Is(err, ErrInvalidPath) {
				t.Errorf("CleanPath(%q) = %q, %v; want ErrInvalidPath", tt.in, got, err)
			}
			continue
		}
		if err != nil || got != tt.want {
			t.Errorf("CleanPath(%q) = %q, %v; want %q", tt.in, got, err, tt.want)
		}
	}
}

// TestShowPath: a path is written into text as it is, unless it holds a
// character that is not printable, is not UTF-8, or starts with a quote;
// then quoted and escaped, on one line. CleanPath and CleanPrefix take a
// path written either way.
func TestShowPath(t *testing.T) {
	for _, p := range []string{"guide/intro.md", "with space/文档.md", "c++.md", "%.md", "[[.md", `a"b.md`, "émoji 🎉.md", "", "guide/"} {
		if got := ShowPath(p); got != p {
			t.Errorf("ShowPath(%q) = %q, want it as it is", p, got)
		}
	}
	for p, want := range map[string]string{
		"a\nb.md":               `"a\nb.md"`,
		"x\n<!-- end -->\ny.md": `"x\n<!-- end -->\ny.md"`,
		"cr\r.md":               `"cr\r.md"`,
		"tab\t.md":              `"tab\t.md"`,
		"esc\x1b[31m.md":        `"esc\x1b[31m.md"`,
		"bidi\u202e.md":         `"bidi\u202e.md"`,
		"nel\u0085 ls\u2028.md": `"nel\u0085 ls\u2028.md"`,
		"bad\xff.md":            `"bad\xff.md"`,
		`"quoted".md`:           `"\"quoted\".md"`,
		"dir\nname/":            `"dir\nname/"`,
	} {
		got := ShowPath(p)
		if got != want {
			t.Errorf("ShowPath(%q) = %s, want %s", p, got, want)
		}
		if clean, err := CleanPrefix(got); err != nil || clean != p {
			t.Errorf("CleanPrefix(%s) = %q, %v; want %q", got, clean, err, p)
		}
	}
	if clean, err := CleanPath(`"a\nb.md"`); err != nil || clean != "a\nb.md" {
		t.Errorf(`CleanPath("a\nb.md" quoted) = %q, %v`, clean, err)
	}
	// A quoted path is read as what it says, then checked as any other.
	if _, err := CleanPath(`"../x\n.md"`); !errors.Is(err, ErrInvalidPath) {
		t.Errorf(`CleanPath of "../x\n.md" quoted: %v, want ErrInvalidPath`, err)
	}
}

func TestCleanPrefix(t *testing.T) {
	tests := []struct{ in, want string }{
		{"", ""}, {".", ""}, {"./", ""},
		{"guide", "guide"}, {"guide/", "guide/"}, {"./guide/", "guide/"},
	}
	for _, tt := range tests {
		if got, err := CleanPrefix(tt.in); err != nil || got != tt.want {
			t.Errorf("CleanPrefix(%q) = %q, %v; want %q", tt.in, got, err, tt.want)
		}
	}
	if _, err := CleanPrefix("../"); !errors.Is(err, ErrInvalidPath) {
		t.Errorf("CleanPrefix(\"../\") error = %v, want ErrInvalidPath", err)
	}
}

// TestFromOS turns paths spelled as Windows spells them ("\" between
// folders), and as Linux and macOS do, into doc paths, whatever system the
// test runs on. A path it accepts must pass CleanPath unchanged: Update
// drops the watcher's paths that CleanPath refuses, so an edit on Windows
// would go unseen.
func TestFromOS(t *testing.T) {
	tests := []struct {
		rel  string
		sep  byte
		want string // "" when no client could name it
	}{
		{`guide\intro.md`, '\\', "guide/intro.md"},
		{`guide\v2\intro.md`, '\\', "guide/v2/intro.md"},
		{`guide/intro.md`, '\\', "guide/intro.md"}, // Windows takes "/" too
		{`文档\a b.md`, '\\', "文档/a b.md"},
		{`intro.md`, '\\', "intro.md"},
		{`guide/intro.md`, '/', "guide/intro.md"},
		{`guide\intro.md`, '/', ""}, // a file named so on Linux or macOS
		{`a\b/intro.md`, '/', ""},   // a folder named so
	}
	for _, tt := range tests {
		got, ok := fromOS(tt.rel, tt.sep)
		if tt.want == "" {
			if ok {
				t.Errorf("fromOS(%q, %q) = %q, true; want no doc path", tt.rel, tt.sep, got)
			}
			continue
		}
		if !ok || got != tt.want {
			t.Errorf("fromOS(%q, %q) = %q, %v; want %q", tt.rel, tt.sep, got, ok, tt.want)
		}
		if clean, err := CleanPath(got); err != nil || clean != got {
			t.Errorf("CleanPath(%q) = %q, %v: a client could not name the doc", got, clean, err)
		}
	}
	if got, ok := FromOS(filepath.Join("guide", "intro.md")); !ok || got != "guide/intro.md" {
		t.Errorf("FromOS with this system's separator = %q, %v; want guide/intro.md", got, ok)
	}
}
