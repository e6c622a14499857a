package wiki

import (
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/docs-mcp/docs-mcp/mcp-server/mcptest"
)

// The fixture's skills (TestBuildSkills).
var fixtureSkills = map[string]string{
	"skills/greet/SKILL.md": `---
name: greet
description: Greet players when they join. Use when a mod should welcome players.
---

# Greet players

1. Read [docs://getting-started.md#your-first-mod](../../docs/getting-started.md#your-first-mod).
2. Check [the hooks](references/hooks.md).
`,
	"skills/greet/references/hooks.md": "# Hooks the greeting uses\n\nSee [the home page](../../../docs/index.md).\n",
	"skills/wave/SKILL.md":             "---\nname: wave\ndescription: Wave at players who leave.\n---\n\n# Wave\n\nWave.\n",
	"skills/notes/README.md":           "# Not a skill\n\nNo SKILL.md here.\n",
	"skills/.draft/SKILL.md":           "---\nname: draft\ndescription: Hidden.\n---\n# Draft\n",
}

// TestBuildSkills: the repository's skills (skills/) are a section of the
// wiki, /skills/, that lists them with their descriptions (a page of its
// own when the docs have no docs/skills.md); a skill's SKILL.md is the page
// /skills/NAME/ (its supporting Markdown pages under it), its links to the
// docs and to its own files become page links, a doc's link to a skill
// becomes the skill's page, the raw files are served as they are, the
// sidebar and the search index have them. A folder without SKILL.md and a
// hidden one are no skills.
func TestBuildSkills(t *testing.T) {
	root := fixture(t)
	for p, text := range fixtureSkills {
		mcptest.WriteFile(t, filepath.Join(root, filepath.FromSlash(p)), text)
	}
	index := filepath.Join(root, "docs", "index.md")
	mcptest.WriteFile(t, index, mcptest.ReadFile(t, index)+"\nAn assistant can [greet players](../skills/greet/SKILL.md).\n")
	tree, err := ScanTree(root)
	if err != nil {
		t.Fatal(err)
	}
	if d := cmp.Diff([]string{"greet/SKILL.md", "greet/references/hooks.md", "wave/SKILL.md"}, tree.Skills); d != "" {
		t.Errorf("the skills' files (-want +got):\n%s", d)
	}
	out, _ := build(t, options(t, root))
	server := serveSite(t, out, root)
	crawled := checkSite(t, server, tree) // every link and asset resolves

	titles := map[string]string{}
	for _, url := range []string{"/wiki/skills/", "/wiki/skills/greet/", "/wiki/skills/greet/references/hooks/", "/wiki/skills/wave/"} {
		titles[url] = pageTitle(t, crawled, url)
	}
	if d := cmp.Diff(map[string]string{
		"/wiki/skills/":                        "Skills",
		"/wiki/skills/greet/":                  "Greet players",
		"/wiki/skills/greet/references/hooks/": "Hooks the greeting uses",
		"/wiki/skills/wave/":                   "Wave",
	}, titles); d != "" {
		t.Errorf("the skills' pages, reached from the home page (-want +got):\n%s", d)
	}
	page := func(url string) string { return string(crawled.Pages[url].Body) }
	for _, c := range []struct{ url, want, why string }{
		{"/wiki/skills/", `<a href="/wiki/skills/greet/">`, "the section lists each skill"},
		{"/wiki/skills/", "Greet players when they join. Use when a mod should welcome players.", "with its description"},
		{"/wiki/skills/", `<a href="/wiki/skills/wave/">`, "a skill of one file too"},
		{"/wiki/skills/greet/", `<a href="/wiki/getting-started/#your-first-mod">`, "a skill's link to a doc's section is the section's page"},
		{"/wiki/skills/greet/", `<a href="/wiki/skills/greet/references/hooks/">`, "a skill's link to its own file is that file's page"},
		{"/wiki/skills/greet/references/hooks/", `<a href="/wiki/">`, "a supporting file's links resolve from its own folder"},
		{"/wiki/", `<a href="/wiki/skills/greet/">`, "a doc's link to a SKILL.md is the skill's page"},
		{"/wiki/skills/greet/", `<link rel="alternate" type="text/markdown" href="/wiki/skills/greet/SKILL.md"`, "the raw SKILL.md is announced"},
	} {
		if !strings.Contains(page(c.url), c.want) {
			t.Errorf("%s: %s: no %q", c.url, c.why, c.want)
		}
	}
	for _, p := range []string{"skills/greet/SKILL.md", "skills/greet/references/hooks.md", "skills/wave/SKILL.md"} {
		if got := fetch(t, server+"/wiki/"+p); got != fixtureSkills[p] {
			t.Errorf("/wiki/%s is not the file, byte for byte: %q", p, got)
		}
	}
	// llms.txt lists every skill page, the skill of several files (a
	// folder's own page, below the top folder) too, as it lists the docs;
	// llms-full.txt holds each.
	llms, full := fetch(t, server+"/wiki/llms.txt"), fetch(t, server+"/wiki/llms-full.txt")
	for _, rel := range tree.Skills {
		if twin := "/wiki/skills/" + rel; !strings.Contains(llms, "("+twin+")") {
			t.Errorf("llms.txt does not list skills/%s (%s):\n%s", rel, twin, llms)
		} else if !strings.Contains(full, "Source: "+twin+"\n") {
			t.Errorf("llms-full.txt does not hold skills/%s", rel)
		}
	}
	for _, url := range []string{"/wiki/skills/notes/", "/wiki/skills/.draft/", "/wiki/skills/draft/"} {
		if p := crawled.Pages[url]; p != nil && p.Status == 200 {
			t.Errorf("%s was built: no skill", url)
		}
	}
	nav := sidebar(t, crawled.Pages["/wiki/skills/wave/"].Body)
	i := slices.Index(nav, "0 Skills")
	if i < 0 || len(nav) < i+4 {
		t.Fatalf("no Skills folder in the sidebar: %q", nav)
	}
	// Its pages, then its folders, as the docs' are.
	if d := cmp.Diff([]string{"0 Skills", "1 Wave", "1 Greet players", "2 Hooks the greeting uses"}, nav[i:i+4]); d != "" {
		t.Errorf("the sidebar's Skills folder (-want +got):\n%s", d)
	}
	idx, err := openIndex(func(rel string) ([]byte, error) { return []byte(fetch(t, server+"/wiki/search-index/"+rel)), nil })
	if err != nil {
		t.Fatal(err)
	}
	searchable := map[string]string{}
	for _, p := range idx.pages(t) {
		searchable[p.Path] = p.URL
	}
	if got := searchable["skills/greet/SKILL.md"]; got != "/wiki/skills/greet/" {
		t.Errorf("the search index has the skill greet at %q, want /wiki/skills/greet/", got)
	}
	if _, err := os.Stat(filepath.Join(out, "skills", "notes")); err == nil {
		t.Error("skills/notes/, no skill, was published")
	}
}
