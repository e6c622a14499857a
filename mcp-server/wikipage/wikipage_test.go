package wikipage

import "testing"

func TestOf(t *testing.T) {
	for doc, want := range map[string]string{
		"index.md":              "/",
		"_index.md":             "/",
		"guide/intro.md":        "/guide/intro",
		"guide/index.md":        "/guide",
		"Guide/_index.md":       "/guide",
		"A b/Ü.md":              "/a-b/ü",
		"x  y.md":               "/x--y",
		"q&a (draft).md":        "/qa-draft",
		"c++/a_b~c@d.md":        "/c++/a_b~c@d",
		"odd/%.md":              "/odd/25",
		"odd/[[.md":             "/odd/5b5b",
		"odd/a%41.md":           "/odd/a41",
		"odd/100%.md":           "/odd/100",
		"#hash.md":              "/hash",
		"#drafts/n.md":          "/drafts/n",
		"#drafts/index.md":      "/drafts",
		"notes.en.md":           "/notes-en",
		"old~/tip.md":           "/old/tip",
		`back\slash.md`:         "/backslash",
		"v1.2/notes.md":         "/v1.2/notes",
		"日本語/ページ.md":            "/日本語/ページ",
		"odd/#.md":              "/odd/23",
		"odd/%/index.md":        "/odd/25",
		"reference/Big Page.md": "/reference/big-page",
	} {
		if got := Of(doc); got != want {
			t.Errorf("Of(%q) = %q, want %q", doc, got, want)
		}
	}
}

// TestNameKeeps: a name Hugo keeps as it is is not renamed.
func TestNameKeeps(t *testing.T) {
	for _, name := range []string{"intro", "Big Page", "q&a", "c++", "a~b", "v1.2", "ü", "index", "x.de"} {
		if got := Name(name); got != name {
			t.Errorf("Name(%q) = %q, want it kept", name, got)
		}
	}
}
