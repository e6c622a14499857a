package skills

import (
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// TestFrontmatter decodes front matter as YAML into JSON's types, every
// field as written, and refuses a SKILL.md without it.
func TestFrontmatter(t *testing.T) {
	for _, tt := range []struct {
		name, text string
		want       string // the front matter as JSON
		err        error
	}{
		{name: "plain", text: "---\nname: a\ndescription: Does a.\n---\n# A\n", want: `{"description":"Does a.","name":"a"}`},
		{name: "CRLF and BOM", text: "\ufeff---\r\nname: a\r\ndescription: Does a.\r\n---\r\n", want: `{"description":"Does a.","name":"a"}`},
		{name: "folded and nested", text: "---\nname: a\ndescription: >-\n  Does a,\n  then b.\nmetadata:\n  version: \"1.0\"\n  count: 3\n---\n",
			want: `{"description":"Does a, then b.","metadata":{"count":3,"version":"1.0"},"name":"a"}`},
		{name: "no front matter", text: "# A\n", err: ErrNoFrontmatter},
		{name: "not closed", text: "---\nname: a\n", err: ErrNoFrontmatter},
		{name: "not YAML", text: "---\nname: [a\n---\n", err: ErrFrontmatter},
		{name: "a list", text: "---\n- a\n---\n", err: ErrFrontmatter},
	} {
		t.Run(tt.name, func(t *testing.T) {
			fm, err := Frontmatter(tt.text)
			if !errors.Is(err, tt.err) || (err == nil) != (tt.err == nil) {
				t.Fatalf("Frontmatter: %v, want %v", err, tt.err)
			}
			if err != nil {
				return
			}
			got, _ := json.Marshal(fm)
			if string(got) != tt.want {
				t.Errorf("front matter %s, want %s", got, tt.want)
			}
		})
	}
}

// TestValidate holds a skill's front matter to the Agent Skills format,
// naming every problem at once.
func TestValidate(t *testing.T) {
	long := strings.Repeat("x", MaxDescriptionChars+1)
	for _, tt := range []struct {
		name, folder, front string
		want                []string // parts of the error, or none
	}{
		{name: "valid", folder: "add-a-hook", front: "name: add-a-hook\ndescription: Adds a hook.\nlicense: MIT\nmetadata:\n  v: \"1\""},
		{name: "not the folder's", folder: "add-hook", front: "name: add-a-hook\ndescription: d", want: []string{`name "add-a-hook" is not the folder's name "add-hook"`}},
		{name: "capitals", folder: "Add", front: "name: Add\ndescription: d", want: []string{"lower-case letters"}},
		{name: "double hyphen", folder: "a--b", front: "name: a--b\ndescription: d", want: []string{"single hyphens"}},
		{name: "long name", folder: strings.Repeat("a", 65), front: "name: " + strings.Repeat("a", 65) + "\ndescription: d", want: []string{"longer than 64"}},
		{name: "nothing", folder: "a", front: "license: MIT", want: []string{"no name", "no description"}},
		{name: "long description", folder: "a", front: "name: a\ndescription: " + long, want: []string{"more than 1024"}},
		{name: "unknown field", folder: "a", front: "name: a\ndescription: d\ntitle: A", want: []string{`field "title" is not one of`}},
		{name: "metadata not text", folder: "a", front: "name: a\ndescription: d\nmetadata:\n  n: 3", want: []string{`metadata "n" must be text`}},
	} {
		t.Run(tt.name, func(t *testing.T) {
			fm, err := Frontmatter("---\n" + tt.front + "\n---\n")
			if err != nil {
				t.Fatal(err)
			}
			err = Validate(tt.folder, fm)
			if len(tt.want) == 0 {
				if err != nil {
					t.Errorf("Validate: %v", err)
				}
				return
			}
			if err == nil {
				t.Fatalf("Validate: no error, want %q", tt.want)
			}
			for _, w := range tt.want {
				if !strings.Contains(err.Error(), w) {
					t.Errorf("Validate: %v; want it to say %q", err, w)
				}
			}
		})
	}
}

// TestBuild makes a catalogue as skills/list gives it: each folder with a
// valid SKILL.md is a skill whose files (a nested skill's included) carry
// the digest and size of their text; a folder whose SKILL.md is invalid is
// a problem, not a skill.
func TestBuild(t *testing.T) {
	skill := "---\nname: outer\ndescription: Outer.\n---\n# Outer\n"
	inner := "---\nname: inner\ndescription: Inner.\n---\n"
	c := Build([]Source{
		{Path: "bad/SKILL.md", Text: "# no front matter\n"},
		{Path: "index.md", Text: "# Skills\n"},
		{Path: "outer/SKILL.md", Text: skill},
		{Path: "outer/nested/inner/SKILL.md", Text: inner},
		{Path: "outer/references/a.md", Text: "A\n"},
		{Path: "outerx/notes.md", Text: "not the skill's\n"},
	})
	type entry struct {
		Path  string
		Files []string
	}
	var got []entry
	for _, s := range c.Skills {
		e := entry{Path: s.Path}
		for _, f := range s.Files {
			e.Files = append(e.Files, f.Rel)
		}
		got = append(got, e)
	}
	want := []entry{
		{Path: "outer", Files: []string{"SKILL.md", "nested/inner/SKILL.md", "references/a.md"}},
		{Path: "outer/nested/inner", Files: []string{"SKILL.md"}},
	}
	if d := cmp.Diff(want, got); d != "" {
		t.Errorf("skills (-want +got):\n%s", d)
	}
	if len(c.Problems) != 1 || c.Problems[0].Path != "bad/SKILL.md" || !errors.Is(c.Problems[0].Err, ErrNoFrontmatter) {
		t.Errorf("problems: %v, want skills/bad/SKILL.md without front matter", c.Problems)
	}
	f, ok := c.File("outer/SKILL.md")
	sum := sha256.Sum256([]byte(skill))
	if !ok || f.Digest != "sha256:"+hex.EncodeToString(sum[:]) || f.Size != len(skill) {
		t.Errorf("SKILL.md: %+v, want the digest and size of its text", f)
	}
	if _, ok := c.File("outerx/notes.md"); ok {
		t.Error("a file of a folder that is no skill is served")
	}
	for doc, want := range map[string][]Child{
		"outer": {{Name: "SKILL.md", Path: "outer/SKILL.md"}, {Name: "nested", Path: "outer/nested", Folder: true},
			{Name: "references", Path: "outer/references", Folder: true}},
		"outer/nested":       {{Name: "inner", Path: "outer/nested/inner", Folder: true}},
		"outer/nested/inner": {{Name: "SKILL.md", Path: "outer/nested/inner/SKILL.md"}},
		"outer/SKILL.md":     nil, // a file
		"outerx":             nil, // no skill
		"bad":                nil, // not served
		"":                   nil,
	} {
		got, ok := c.Dir(doc)
		if d := cmp.Diff(want, got); d != "" || ok != (want != nil) {
			t.Errorf("Dir(%s): %v (-want +got):\n%s", doc, ok, d)
		}
	}
}

// TestLimits: a skill past the extension's limits is not served.
func TestLimits(t *testing.T) {
	src := []Source{{Path: "big/SKILL.md", Text: "---\nname: big\ndescription: d\n---\n"}}
	for i := range MaxFiles {
		src = append(src, Source{Path: fmt.Sprintf("big/f%04d.md", i), Text: "x"})
	}
	c := Build(src)
	if len(c.Skills) != 0 || len(c.Problems) != 1 || !strings.Contains(c.Problems[0].Error(), "513 files") {
		t.Errorf("513 files: skills %d, problems %v", len(c.Skills), c.Problems)
	}
	c = Build([]Source{
		{Path: "big/SKILL.md", Text: "---\nname: big\ndescription: d\n---\n"},
		{Path: "big/huge.md", Text: strings.Repeat("x", MaxBytes)},
	})
	if len(c.Skills) != 0 || len(c.Problems) != 1 || !strings.Contains(c.Problems[0].Error(), "bytes of files") {
		t.Errorf("over 16 MiB: skills %d, problems %v", len(c.Skills), c.Problems)
	}
}
