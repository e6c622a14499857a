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
			if got := parse(tt.path, int64(len(tt.text)), tt.text).Title(); got != tt.want {
				t.Errorf("title = %q, want %q", got, tt.want)
			}
		})
	}
}

func TestParseLinesAndHeadings(t *testing.T) {
	text := "---\ntitle: T\n---\n# One\r\ntext\n## Two\n~~~go\n## fenced\n~~~\nPara\n---\n### Three\n- item\n---\n"
	d := parse("x.md", int64(len(text)), text)
	wantLines := []string{"---", "title: T", "---", "# One", "text", "## Two", "~~~go", "## fenced", "~~~", "Para", "---", "### Three", "- item", "---"}
	var lines []string
	for n, line := range d.Lines() {
		if n != len(lines)+1 {
			t.Errorf("line %q numbered %d, want %d", line, n, len(lines)+1)
		}
		lines = append(lines, line)
	}
	if diff := cmp.Diff(wantLines, lines); diff != "" {
		t.Errorf("lines (-want +got):\n%s", diff)
	}
	wantHeadings := []Heading{
		{Line: 4, Level: 1, Text: "One"},
		{Line: 6, Level: 2, Text: "Two"},
		{Line: 10, Level: 2, Text: "Para"}, // setext
		{Line: 12, Level: 3, Text: "Three"},
	}
	if d.LineCount() != len(wantLines) {
		t.Errorf("LineCount = %d, want %d", d.LineCount(), len(wantLines))
	}
	if diff := cmp.Diff(wantHeadings, d.Headings()); diff != "" {
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
		if diff := cmp.Diff(want, Trail(d.Headings(), line)); diff != "" {
			t.Errorf("Trail(Headings(), %d) (-want +got):\n%s", line, diff)
		}
	}
}

// TestInlineCodeIsNoFence: a line that starts with backticks holding more
// backticks is inline code, not a fence (CommonMark: a backtick fence's
// info string has no backtick), so the headings after it count, as the
// wiki renders them. CONTRIBUTING.md writes such a line ("```` ```go
// fragment ```` instead"); its later sections were lost.
func TestInlineCodeIsNoFence(t *testing.T) {
	text := "# A\n\n1. Blocks fenced\n   ```` ```go fragment ```` are not compiled.\n\n## B\n\n```go\n## fenced\n```\n## C\n"
	var got []string
	for _, h := range Headings(text) {
		got = append(got, h.Text)
	}
	if diff := cmp.Diff([]string{"A", "B", "C"}, got); diff != "" {
		t.Errorf("headings (-want +got):\n%s", diff)
	}
}

func TestSplitLines(t *testing.T) {
	tests := []struct {
		text string
		want []string
	}{
		{"", nil},
		{"\n", []string{""}},
		{"a", []string{"a"}},
		{"a\n", []string{"a"}},
		{"a\n\n", []string{"a", ""}},
		{"a\r\nb\r\n", []string{"a", "b"}},
		{"a\rb\r", []string{"a\rb"}},
		{"a\n\r\n\rb", []string{"a", "", "\rb"}},
	}
	for _, tt := range tests {
		got := SplitLines(tt.text)
		if diff := cmp.Diff(tt.want, got); diff != "" {
			t.Errorf("SplitLines(%q) (-want +got):\n%s", tt.text, diff)
		}
		if n := CountLines(tt.text); n != len(tt.want) {
			t.Errorf("CountLines(%q) = %d, want %d", tt.text, n, len(tt.want))
		}
		d := &Doc{body: tt.text}
		var lines []string
		for _, l := range d.Lines() {
			lines = append(lines, l)
		}
		if diff := cmp.Diff(tt.want, lines); diff != "" {
			t.Errorf("Lines of %q (-want +got):\n%s", tt.text, diff)
		}
	}
}
