package docs

import (
	"errors"
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
