package main

import (
	"io/fs"
	"net/url"
	"os"
	"path"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"

	"github.com/docs-mcp/docs-mcp/mcp-server/internal/docs"
	"github.com/docs-mcp/docs-mcp/mcp-server/internal/skills"
)

// skillsDir is the folder of the skills, relative to the repository.
const skillsDir = skills.Dir + "/"

// TestSkills checks the repository's skills (skills/) as CI must:
// every skill's front matter is valid Agent Skills front matter, named as
// its folder (skills.Validate, as the server serves them); every file it
// links, every section it names (by link or docs:// URI) and every
// repository path it names in code exists; and every block of shell
// commands is a transcript fenced ```console run, which TestDocsExamples
// runs.
func TestSkills(t *testing.T) {
	root, err := filepath.Abs("..")
	if err != nil {
		t.Fatal(err)
	}
	dir := filepath.Join(root, skills.Dir)
	var src []skills.Source
	err = filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		rel, _ := filepath.Rel(dir, p)
		rel = filepath.ToSlash(rel)
		if !strings.HasSuffix(rel, ".md") {
			t.Errorf("%s%s: a skill's files are Markdown (.md), as docs are: docs-mcp would not serve it", skillsDir, rel)
			return nil
		}
		b, err := os.ReadFile(p)
		src = append(src, skills.Source{Path: rel, Text: string(b)})
		return err
	})
	if err != nil {
		t.Fatal(err)
	}
	c := skills.Build(src)
	for _, p := range c.Problems {
		t.Errorf("%s%v", skillsDir, p)
	}
	if len(c.Skills) < 4 {
		t.Errorf("%d skills in %s, want at least 4: write a mod, handle a hook, add a hook, edit the docs", len(c.Skills), skillsDir)
	}
	for _, s := range c.Skills {
		for _, f := range s.Files {
			checkSkillFile(t, root, skillsDir+f.Path, f.Text)
		}
	}
}

var (
	skillLink  = regexp.MustCompile(`\[([^\]]*)\]\(([^)\s]+)\)`)
	docsURI    = regexp.MustCompile("docs://[^\\s)\\]`'\"]+")
	codeSpan   = regexp.MustCompile("`([^`\\s]+)`")
	shellFence = []string{"sh", "bash", "shell", "zsh", "console"}
)

// checkSkillFile checks one file of a skill, file (relative to the
// repository).
func checkSkillFile(t *testing.T, root, file, text string) {
	t.Helper()
	where := file
	var prose []string // the lines outside fenced blocks
	fence := ""
	for i, line := range strings.Split(text, "\n") {
		trimmed := strings.TrimSpace(line)
		if fence != "" {
			if strings.HasPrefix(trimmed, fence) {
				fence = ""
			}
			continue
		}
		if strings.HasPrefix(trimmed, "```") {
			fence = "```"
			info := strings.Fields(strings.TrimPrefix(trimmed, "```"))
			if len(info) > 0 && slices.Contains(shellFence, info[0]) && (info[0] != "console" || !slices.Contains(info[1:], exampleMarker)) {
				t.Errorf("%s:%d: commands fenced ```%s are not run: fence them ```console %s, as a transcript (TestDocsExamples runs it)", where, i+1, strings.Join(info, " "), exampleMarker)
			}
			continue
		}
		prose = append(prose, line)
	}
	body := strings.Join(prose, "\n")
	for _, m := range skillLink.FindAllStringSubmatch(body, -1) {
		linkText, dest := m[1], m[2]
		if u, err := url.Parse(dest); err == nil && u.Scheme != "" {
			continue // the web: not checked here
		}
		to, frag, _ := strings.Cut(dest, "#")
		repoPath := file // a fragment alone is a section of this file
		if to != "" {
			repoPath = path.Join(path.Dir(file), to)
		}
		if err := checkSection(root, repoPath, frag); err != nil {
			t.Errorf("%s: link %s: %v", where, dest, err)
			continue
		}
		if uri, ok := strings.CutPrefix(strings.Trim(linkText, "`"), "docs://"); ok {
			if want, inDocs := strings.CutPrefix(repoPath, "docs/"); !inDocs || uri != want+fragPart(frag) {
				t.Errorf("%s: link [%s](%s): the text names docs://%s, the link leads to %s", where, linkText, dest, uri, repoPath+fragPart(frag))
			}
		}
	}
	for _, uri := range docsURI.FindAllString(body, -1) {
		p, frag, _ := strings.Cut(strings.TrimPrefix(uri, "docs://"), "#")
		if p == "map" {
			continue // the map of the docs, a resource of its own
		}
		if err := checkSection(root, path.Join("docs", p), frag); err != nil {
			t.Errorf("%s: %s: %v", where, uri, err)
		}
	}
	for _, m := range codeSpan.FindAllStringSubmatch(body, -1) {
		p := strings.TrimSuffix(strings.TrimPrefix(m[1], "./"), "/...")
		first, _, _ := strings.Cut(p, "/")
		if !strings.Contains(p, "/") || strings.ContainsAny(p, ":#") || strings.HasPrefix(p, ".") {
			continue
		}
		if fi, err := os.Stat(filepath.Join(root, first)); err != nil || !fi.IsDir() {
			continue // not a path in this repository, such as cmd/demo/main.go of a mod
		}
		if _, err := os.Stat(filepath.Join(root, filepath.FromSlash(p))); err != nil {
			t.Errorf("%s: `%s` names a path of this repository that does not exist", where, m[1])
		}
	}
}

func fragPart(frag string) string {
	if frag == "" {
		return ""
	}
	return "#" + frag
}

// checkSection reports whether the repository file at repoPath exists and,
// when anchor is not empty, has a heading with that anchor (as the server
// and the wiki make anchors).
func checkSection(root, repoPath, anchor string) error {
	b, err := os.ReadFile(filepath.Join(root, filepath.FromSlash(repoPath)))
	if err != nil {
		return err
	}
	if anchor == "" {
		return nil
	}
	if !strings.HasSuffix(repoPath, ".md") {
		return &sectionError{repoPath, anchor, nil}
	}
	anchors := docs.Anchors(docs.Headings(string(b)))
	if !slices.Contains(anchors, anchor) {
		return &sectionError{repoPath, anchor, anchors}
	}
	return nil
}

type sectionError struct {
	path, anchor string
	anchors      []string
}

func (e *sectionError) Error() string {
	return e.path + " has no section #" + e.anchor + "; its sections: #" + strings.Join(e.anchors, " #")
}
