package linkreport

import (
	"fmt"
	"slices"
	"strings"
	"testing"
)

// FuzzReport checks the path of a link destination from a doc to the
// checker's report: whatever a doc's link holds and whatever its file is
// called, the line the layouts print (render-link.html: destination and
// file quoted with %q, as Hugo's printf does) parses back to the same
// destination and file, and the destination is found on the line that
// holds the link. The seeds are link shapes found in real doc trees.
func FuzzReport(f *testing.F) {
	for _, seed := range []struct{ dest, file string }{
		{"#op_%=", "docs/ops.md"},
		{"100%.md", "docs/a b.md"},
		{"a file.md", "docs/x.md"},
		{"foo(bar).md", "docs/x.md"},
		{"<a.md>", "docs/x.md"},
		{`a\)b.md`, "docs/x.md"}, // the renderer keeps the backslash
		{`x"y.png`, `docs/q"uote.md`},
		{"../nope/x.md#setup", "docs/日本語.md"},
		{"?a=%zz", "docs/%.md"},
		{"https://example.org/a b", "docs/[[.md"},
		{"", "docs/c++.md"},
	} {
		f.Add(seed.dest, seed.file)
	}
	f.Fuzz(func(t *testing.T, dest, file string) {
		for _, kind := range []string{"broken link", "broken image", "repo link"} {
			for _, level := range []string{"ERROR ", "WARN  "} {
				line := fmt.Sprintf("%swiki: %s %q in %q: not a valid URL (x); left as written", level, kind, dest, file)
				r, ok := Parse(line)
				if !ok {
					t.Fatalf("Parse(%q) found no report", line)
				}
				want := Report{Kind: kind, Dest: dest, File: file, Detail: "not a valid URL (x); left as written"}
				if r != want {
					t.Fatalf("Parse(%q) = %+v, want %+v", line, r, want)
				}
			}
		}
		if dest == "" || strings.ContainsAny(dest, "\r\n") {
			return
		}
		doc := "# Title\n\nSome text.\nSee [it](" + dest + ") here.\nMore text.\n"
		if got := Lines([]byte(doc), dest); !slices.Contains(got, 4) {
			t.Fatalf("Lines(%q) = %v, want a list holding line 4", dest, got)
		}
	})
}
