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
