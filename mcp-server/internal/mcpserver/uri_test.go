package mcpserver

import (
	"net/url"
	"strings"
	"testing"
)

// TestDocURI: the shortcut for paths that need no escaping gives what
// escaping each segment gives, and docPathOf reads every URI back.
func TestDocURI(t *testing.T) {
	for _, p := range []string{
		"index.md", "guide/intro.md", "a-b_c.d~e/F9.md", "my docs/a b.md", "100%.md", "#hash.md",
		"odd-5/[[.md", "c#/x&y.md", "日本語/文档.md", "über.md", "'quote'.md", "](link.md", "a+b;c,d=e@f:g$h.md",
	} {
		segs := strings.Split(p, "/")
		for i, s := range segs {
			segs[i] = url.PathEscape(s)
		}
		want := docScheme + strings.Join(segs, "/")
		got := docURI(p)
		if got != want {
			t.Errorf("docURI(%q) = %q, want %q", p, got, want)
		}
		if back, err := docPathOf(got); err != nil || back != p {
			t.Errorf("docPathOf(%q) = %q, %v; want %q", got, back, err, p)
		}
	}
}
