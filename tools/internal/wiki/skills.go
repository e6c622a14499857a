package wiki

import (
	"fmt"
	"io/fs"
	"os"
	"path"
	"path/filepath"
	"slices"
	"sort"
	"strings"

	"github.com/docs-mcp/docs-mcp/mcp-server/wikipage"
)

// The repository's Agent Skills (skills/, which docs-mcp also serves over
// MCP) are a section of the wiki of their own, /skills/: each skill's
// SKILL.md is the page of its folder (/skills/add-a-hook/), the Markdown
// beside it pages under it, and the skills folder is published as it is
// (/skills/add-a-hook/SKILL.md), the raw twins, for people and agents
// that take skills as files. The section's page is docs/skills.md when
// there is one (a doc beside a folder named as it is, as MkDocs has it),
// else a generated page; either lists the skills with their descriptions.
// A skill's links to the docs (../../docs/x.md#anchor) become links to
// their pages, as a doc's do.

const (
	// skillsFolder is the repository's folder of skills (docs-mcp's
	// skills.Dir), and the wiki's section that shows them.
	skillsFolder = "skills"
	// skillFile makes a folder of skills/ a skill.
	skillFile = "SKILL.md"
)

// scanSkills fills t.Skills: every Markdown file of a skill, a folder of
// skills/ that holds a SKILL.md, in path order. Hidden files and folders
// are skipped, as for docs/. A repository without skills/ has none.
func (t *Tree) scanSkills() error {
	dir := filepath.Join(t.Root, skillsFolder)
	if fi, err := os.Stat(dir); err != nil || !fi.IsDir() {
		return nil
	}
	var md []string
	skill := map[string]bool{} // folders holding a SKILL.md
	err := filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if strings.HasPrefix(d.Name(), ".") && p != dir {
			if d.IsDir() {
				return filepath.SkipDir
			}
			return nil
		}
		if !d.Type().IsRegular() || path.Ext(d.Name()) != ".md" {
			return nil
		}
		rel, err := filepath.Rel(dir, p)
		if err != nil {
			return err
		}
		rel = filepath.ToSlash(rel)
		md = append(md, rel)
		if path.Base(rel) == skillFile && path.Dir(rel) != "." {
			skill[path.Dir(rel)] = true
		}
		return nil
	})
	if err != nil {
		return fmt.Errorf("scan %s: %w", dir, err)
	}
	for _, rel := range md {
		for d := path.Dir(rel); d != "."; d = path.Dir(d) {
			if skill[d] {
				t.Skills = append(t.Skills, rel)
				break
			}
		}
	}
	sort.Strings(t.Skills)
	if len(t.Skills) > 0 {
		if slices.Contains(t.Docs, skillsFolder+".md") {
			t.folderOf[skillsFolder+".md"] = skillsFolder // the section's page
		}
	}
	return nil
}

// checkSkills refuses a tree whose docs hold pages where the skills'
// section is: a folder docs/skills/ would be the same section.
func (t *Tree) checkSkills() error {
	if len(t.Skills) == 0 {
		return nil
	}
	for _, d := range t.Dirs {
		if wikipage.OfDir(d) == wikipage.OfDir(skillsFolder) {
			return fmt.Errorf("the folder docs/%s/ and the repository's %s/ would both be the wiki's section %s; rename the docs folder", d, skillsFolder, wikipage.OfDir(skillsFolder))
		}
	}
	return nil
}

// skillContentPath is where a file of a skill lands in Hugo's content,
// each a page under /skills/: a SKILL.md is its folder's page, a leaf
// (skills/NAME.md) when it is the skill's only file, else a branch bundle
// (skills/NAME/_index.md) whose pages are the files beside it; the others
// keep their paths under skills/.
func (t *Tree) skillContentPath(rel string) string {
	p := skillsFolder + "/" + rel
	if path.Base(rel) != skillFile {
		return wikipage.File(p)
	}
	dir := path.Dir(p)
	i := sort.SearchStrings(t.Skills, path.Dir(rel)+"/")
	for ; i < len(t.Skills) && strings.HasPrefix(t.Skills[i], path.Dir(rel)+"/"); i++ {
		if t.Skills[i] != rel {
			return path.Join(wikipage.Dir(dir), "_index.md")
		}
	}
	return wikipage.File(dir + ".md")
}

// skillsLanding reports whether the build must write the skills section's
// page: there are skills, and no docs/skills.md to be it.
func (t *Tree) skillsLanding() bool {
	if len(t.Skills) == 0 {
		return false
	}
	_, ok := t.folderOf[skillsFolder+".md"]
	return !ok
}

// skillsPageCount is the pages the skills add to the site.
func (t *Tree) skillsPageCount() int {
	n := len(t.Skills)
	if t.skillsLanding() {
		n++
	}
	return n
}

// skillsData adds the skills' pages to data/wiki.json: each page's source
// (its file under skills/, and its raw twin, the same path in the site),
// and each file's page, which links to it resolve to.
func (t *Tree) skillsData(d *siteData) {
	for _, rel := range t.Skills {
		repo := skillsFolder + "/" + rel
		cp := t.skillContentPath(rel)
		d.Sources[cp] = source{Repo: repo, Raw: urlPath(repo), Updated: t.Updated[repo]}
		d.Pages[repo] = pagePath(cp)
		d.URLs[pagePath(cp)] = pageHref(wikipage.Of(cp))
	}
}

// skillsPaths are the repository paths of the skills' files, whose
// last-updated days the pages show.
func (t *Tree) skillsPaths() []string {
	out := make([]string, 0, len(t.Skills))
	for _, rel := range t.Skills {
		out = append(out, skillsFolder+"/"+rel)
	}
	return out
}

// skillsLandingPage is the skills section's page when the docs have none.
const skillsLandingPage = `---
title: Skills
description: The repository's Agent Skills - step-by-step instructions an AI assistant follows for common jobs here, pointing at the docs.
---
`

// writeSkillsGenerated writes the skills section's page into dir's
// content when the docs have none.
func (t *Tree) writeSkillsGenerated(dir string) error {
	if !t.skillsLanding() {
		return nil
	}
	p := filepath.Join(dir, "content", filepath.FromSlash(wikipage.Dir(skillsFolder)), "_index.md")
	if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
		return fmt.Errorf("generate the skills page: %w", err)
	}
	if err := os.WriteFile(p, []byte(skillsLandingPage), 0o644); err != nil {
		return fmt.Errorf("generate the skills page: %w", err)
	}
	return nil
}

// skillsMounts mount each file of a skill as content, and, but in a
// preview (see config), each skill's folder as static files: the raw
// twins, and the files a skill has beside its Markdown.
func (t *Tree) skillsMounts(preview bool) []mount {
	if len(t.Skills) == 0 {
		return nil
	}
	var m []mount
	for _, rel := range t.Skills {
		m = append(m, mount{Source: filepath.Join(t.Root, skillsFolder, filepath.FromSlash(rel)), Target: path.Join("content", t.skillContentPath(rel))})
	}
	if !preview {
		for _, dir := range t.skillFolders() {
			m = append(m, mount{Source: filepath.Join(t.Root, skillsFolder, filepath.FromSlash(dir)), Target: path.Join("static", skillsFolder, dir)})
		}
	}
	return m
}

// skillFolders are the folders of the skills not nested in another, whose
// files are all the skill's: a folder of skills/ that is no skill is not
// published.
func (t *Tree) skillFolders() []string {
	var out []string
	for _, rel := range t.Skills {
		if path.Base(rel) != skillFile {
			continue
		}
		dir := path.Dir(rel)
		if len(out) == 0 || !strings.HasPrefix(dir, out[len(out)-1]+"/") {
			out = append(out, dir)
		}
	}
	return out
}

// skillsPages are the logical paths of the skills' pages (see pages).
func (t *Tree) skillsPages() []string {
	var out []string
	if t.skillsLanding() { // else docs/skills.md's page, among the docs'
		out = append(out, wikipage.OfDir(skillsFolder))
	}
	for _, rel := range t.Skills {
		if path.Base(rel) == skillFile {
			out = append(out, wikipage.OfDir(skillsFolder+"/"+path.Dir(rel)))
		} else {
			out = append(out, wikipage.Of(skillsFolder+"/"+rel))
		}
	}
	return out
}
