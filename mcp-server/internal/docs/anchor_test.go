package docs

import (
	"testing"

	"github.com/google/go-cmp/cmp"
)

func TestAnchor(t *testing.T) {
	tests := []struct{ text, want string }{
		{"Getting started", "getting-started"},
		{"The prompt `mod_modding_context`", "the-prompt-mod_modding_context"},
		{"`internal/docs`: snapshot and store", "internaldocs-snapshot-and-store"},
		{"Docker Swarm: `deploy/swarm/`", "docker-swarm-deployswarm"},
		{"What's new?  (2026)", "whats-new--2026"},
		{"A [link](https://x.dev/a_b) here", "a-link-here"},
		{"-- dashes --", "-dashes-"},
		{"a --- b", "a--b"},
		{"_emphasis_ and snake_case **bold**", "emphasis-and-snake_case-bold"},
		{"<kbd>Ctrl</kbd> &amp; &eacute;t&eacute;", "ctrl--été"},
		{"![logo](x.png) `a -- b` \\_x\\_", "logo-a----b-_x_"},
		{"Straße Ärger", "straße-ärger"},
		{"`--watch`", "--watch"},
		{"  --watch  ", "watch"},
		{"!!!", "heading"},
	}
	for _, tt := range tests {
		if got := Anchor(tt.text); got != tt.want {
			t.Errorf("Anchor(%q) = %q, want %q", tt.text, got, tt.want)
		}
	}
}

func TestSections(t *testing.T) {
	text := "---\ntitle: T\n---\n# Top\nintro\n## HTTP\none\n### Deep\ntwo\n```\n## not a heading\n```\n## HTTP\nthree\nSetext\n------\nfour\n## HTTP 1\n## http\n"
	type sec struct {
		Line, Level, End int
		Text, Anchor     string
	}
	o, err := OutlineOf(t.Context(), "guide/page.md", text)
	if err != nil {
		t.Fatal(err)
	}
	var got []sec
	for _, s := range o.Sections() {
		got = append(got, sec{s.Line, s.Level, s.EndLine, s.Text, s.Anchor})
	}
	want := []sec{
		{4, 1, 19, "Top", "top"},
		{6, 2, 12, "HTTP", "http"},
		{8, 3, 12, "Deep", "deep"},
		{13, 2, 14, "HTTP", "http-1"},
		{15, 2, 17, "Setext", "setext"},
		{18, 2, 18, "HTTP 1", "http-1-1"},
		{19, 2, 19, "http", "http-2"},
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("sections (-want +got):\n%s", diff)
	}

	for _, tt := range []struct {
		name string
		line int
	}{
		{"http-1", 13}, {"#deep", 8}, {"HTTP", 6}, {"  setext ", 15}, {"Http 1", 18}, {"http-2", 19},
	} {
		s, ok, err := o.Find(t.Context(), tt.name)
		if err != nil || !ok || s.Line != tt.line {
			t.Errorf("FindSection(%q) = line %d, %v; want line %d", tt.name, s.Line, ok, tt.line)
		}
	}
	if s, ok, _ := o.Find(t.Context(), "not a heading"); ok {
		t.Errorf("FindSection found a heading inside fenced code: %+v", s)
	}
}

// TestOutline: a line's trail and anchor are those of the headings above
// it, repeats numbered as the wiki numbers them; the title is the front
// matter's, else the first level-1 heading, else the file name.
func TestOutline(t *testing.T) {
	text := "intro\n# Top\n## HTTP\none\n### Deep\ntwo\n```\n## not a heading\n```\n## HTTP\nthree\n"
	o, err := OutlineOf(t.Context(), "guide/page.md", text)
	if err != nil {
		t.Fatal(err)
	}
	type place struct {
		Trail  []string
		Anchor string
	}
	for line, want := range map[int]place{
		1:  {[]string{}, ""},
		2:  {[]string{"Top"}, "top"},
		4:  {[]string{"Top", "HTTP"}, "http"},
		6:  {[]string{"Top", "HTTP", "Deep"}, "deep"},
		8:  {[]string{"Top", "HTTP", "Deep"}, "deep"}, // in fenced code
		11: {[]string{"Top", "HTTP"}, "http-1"},
	} {
		var got place
		got.Trail, got.Anchor = o.Section(line)
		if diff := cmp.Diff(want, got); diff != "" {
			t.Errorf("Section(%d) (-want +got):\n%s", line, diff)
		}
	}
	for _, tt := range []struct{ path, text, want string }{
		{"guide/page.md", text, "Top"},
		{"guide/page.md", "---\ntitle: From front matter\n---\n# Top\n", "From front matter"},
		{"guide/page.md", "## Only a second level\n", "page"},
	} {
		if o, _ := OutlineOf(t.Context(), tt.path, tt.text); o.Title != tt.want {
			t.Errorf("OutlineOf(%q).Title = %q, want %q", tt.text, o.Title, tt.want)
		}
	}
}
