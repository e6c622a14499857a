package docs

import (
	"testing"

	"github.com/google/go-cmp/cmp"
)

func TestParseTitle(t *testing.T) {
	tests := []struct {
		name, path, text, want string
	}{
		{"yaml front matter", "a.md", "---\ntitle: \"From FM\"\n---\n# Heading\n", "From FM"},
		{"yaml single quotes", "a.md", "---\nlayout: x\ntitle: 'It''s here'\n---\n", "It's here"},
		{"toml front matter", "a.md", "+++\ntitle = \"Toml title\"\n+++\n# H\n", "Toml title"},
		{"nested title key ignored", "a.md", "---\nmeta:\n  title: nested\n---\n# Real\n", "Real"},
		{"first h1", "a.md", "intro\n## Not this\n# This one\n# Not the second\n", "This one"},
		{"setext h1", "a.md", "Setext Title\n============\n", "Setext Title"},
		{"h1 in code block ignored", "a.md", "```\n# not a heading\n```\n# Real\n", "Real"},
		{"closing hashes", "a.md", "# Title ##\n", "Title"},
		{"file name", "guide/getting-started.md", "no heading here\n", "getting-started"},
		{"bom and crlf", "a.md", "\ufeff# Windows\r\nbody\r\n", "Windows"},
		{"unclosed front matter is text", "a.md", "---\ntitle: x\n# Body\n", "Body"},
		{"hash without space is not a heading", "tag.md", "#hashtag\n", "tag"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := parse(tt.path, int64(len(tt.text)), tt.text).Title; got != tt.want {
				t.Errorf("title = %q, want %q", got, tt.want)
			}
		})
	}
}

func TestParseLinesAndHeadings(t *testing.T) {
	text := "---\ntitle: T\n---\n# One\r\ntext\n## Two\n~~~go\n## fenced\n~~~\nPara\n---\n### Three\n- item\n---\n"
	d := parse("x.md", int64(len(text)), text)
	wantLines := []string{"---", "title: T", "---", "# One", "text", "## Two", "~~~go", "## fenced", "~~~", "Para", "---", "### Three", "- item", "---"}
	if diff := cmp.Diff(wantLines, d.Lines); diff != "" {
		t.Errorf("lines (-want +got):\n%s", diff)
	}
	wantHeadings := []Heading{
		{Line: 4, Level: 1, Text: "One"},
		{Line: 6, Level: 2, Text: "Two"},
		{Line: 10, Level: 2, Text: "Para"}, // setext
		{Line: 12, Level: 3, Text: "Three"},
	}
	if diff := cmp.Diff(wantHeadings, d.Headings); diff != "" {
		t.Errorf("headings (-want +got):\n%s", diff)
	}
	trails := map[int][]string{
		3:  {},
		5:  {"One"},
		8:  {"One", "Two"},
		11: {"One", "Para"},
		13: {"One", "Para", "Three"},
	}
	for line, want := range trails {
		if diff := cmp.Diff(want, d.HeadingTrail(line)); diff != "" {
			t.Errorf("HeadingTrail(%d) (-want +got):\n%s", line, diff)
		}
	}
}
