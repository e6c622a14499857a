package wiki

import "testing"

// TestBareOpening: the openings Hugo takes for front matter that they are
// not, and real front matter, which is left to Hugo.
func TestBareOpening(t *testing.T) {
	for text, want := range map[string]bool{
		"- a list item first\n":                       true,
		"--8<-- \"README.md\"\n":                      true,
		"{% include \"x.md\" %}\n\n# Title\n":         true,
		"+ a plus list\n":                             true,
		"---\n\nA thematic break, no front matter.\n": true,
		"\ufeff\n  - after a byte order mark\n":       true,
		"---\ntitle: T\n---\n- a list\n":              false,
		"---\r\ntitle: T\r\n---\r\n":                  false,
		"+++\ntitle = 'T'\n+++\n":                     false,
		"{\"title\": \"T\"}\n\ntext\n":                false,
		"---\ntitle: [not: closed\n---\n":             false, // front matter, wrong: Hugo says so
		"# Title\n\n- a list\n":                       false,
		"text\n---\n":                                 false,
		"":                                            false,
		"\n\n":                                        false,
	} {
		if got := bareOpening([]byte(text)); got != want {
			t.Errorf("bareOpening(%q) = %v, want %v", text, got, want)
		}
	}
}

// TestHugoSafe: the copy the build makes of a doc Hugo would misread, for
// each way Hugo misreads one, and docs it reads as they are (that the
// pages show the copies as written is TestBuildMessyLinks's).
func TestHugoSafe(t *testing.T) {
	for _, c := range []struct{ doc, copy string }{
		{"- a list first\n", "---\n---\n- a list first\n"},
		{"# T\n\n{{< note >}}careful{{< /note >}}\n", "# T\n\n{{</* note */>}}careful{{</* /note */>}}\n"},
		{"{{% tip %}}**bold**{{% /tip %}}\n", "---\n---\n{{%/* tip */%}}**bold**{{%/* /tip */%}}\n"},
		{"```\n{{< code lang=\"go\" >}}\n```\n", "```\n{{</* code lang=\"go\" */>}}\n```\n"},
		{"escaped already: {{</* x */>}}\n", "escaped already: {{</*/* x */*/>}}\n"},
		{"never closed: {{< open\n", "never closed: {{\u200b< open\n"},
		{"{{{< x >}}}\n", "---\n---\n{{{</* x */>}}}\n"},
		// Front matter is Hugo's to read, shortcodes and all.
		{"---\ntitle: \"{{< x >}}\"\n---\n{{< y >}}\n", "---\ntitle: \"{{< x >}}\"\n---\n{{</* y */>}}\n"},
		// MkDocs Material's blog: a date that is a map, which Hugo cannot read.
		{"---\ndate:\n  created: 2026-02-18\nauthors: [a]\n---\n# Post\n", "---\nwiki-date:\n  created: 2026-02-18\nauthors: [a]\n---\n# Post\n"},
		{"---\nLastMod: {updated: 2026-01-01}\n---\n# Post\n", "---\nwiki-LastMod: {updated: 2026-01-01}\n---\n# Post\n"},
	} {
		if !misread([]byte(c.doc)) {
			t.Errorf("misread(%q) = false, want true", c.doc)
		}
		if got := string(hugoSafe([]byte(c.doc))); got != c.copy {
			t.Errorf("hugoSafe(%q) = %q, want %q", c.doc, got, c.copy)
		}
	}
	for _, doc := range []string{"# Title\n\nText with {{ braces }} and { curly }.\n", "---\ntitle: T\n---\n- a list\n", "---\ndate: 2026-02-18\n---\n# Dated\n", "---\ndate:    # a comment\n  2026-02-18\n---\n# Dated\n"} {
		if misread([]byte(doc)) {
			t.Errorf("misread(%q) = true, want false", doc)
		}
	}
}
