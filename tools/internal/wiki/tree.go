package wiki

import (
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"maps"
	"net/url"
	"os"
	"path"
	"path/filepath"
	"regexp"
	"slices"
	"sort"
	"strings"
	"time"

	"sigs.k8s.io/yaml"

	"github.com/docs-mcp/docs-mcp/framework/registry"
	"github.com/docs-mcp/docs-mcp/mcp-server/wikipage"
	"github.com/docs-mcp/docs-mcp/mcp-server/wikistyle"
)

// Tree is what one build mounts from a repository: the docs, the contribution
// guide and the hook registry, and how their files map to pages.
type Tree struct {
	Root         string   // absolute repository (or fixture) root
	Docs         []string // Markdown files under docs/, slash paths relative to docs/
	Files        []string // other files under docs/ (images, attachments), relative to docs/
	Dirs         []string // folders under docs/ holding Markdown, "" for docs/ itself
	Contributing bool     // CONTRIBUTING.md exists at the root: the site has a Contributing page
	Registry     bool     // framework/mod_hooks.json exists: the site has a hook reference
	// Skills are the Markdown files of the repository's skills (skills.go),
	// slash paths relative to skills/.
	Skills []string
	// Copied are the docs Hugo would misread (misread): built as they
	// are, any one of them would fail the whole build. Each is built from
	// a copy made safe (hugoSafe) instead (writeGenerated), and so is each
	// doc whose name starts with "#", a file Hugo skips.
	Copied []string
	// folderOf maps each doc that is a folder's page to that folder: its
	// index.md (or _index.md), else a doc beside it named as it is
	// ("guide.md" beside "guide/"), as MkDocs makes it.
	folderOf map[string]string
	// ownURL are the docs whose front matter may place their page
	// elsewhere than their path (a slug or url key, setsOwnURL): links to
	// them are resolved by Hugo, the others from data/wiki.json's urls.
	ownURL map[string]bool
	// Linked are the docs and files under docs/ that are symbolic links to
	// a file inside the tree (docs/CODE_OF_CONDUCT.md -> ../CODE_OF_CONDUCT.md,
	// as MkDocs sites do), each with the file it leads to: Hugo does not
	// follow them, so each is mounted from its target.
	Linked map[string]string
	// Updated is the day each doc, CONTRIBUTING.md and the hook registry
	// last changed, by repository path ("docs/x.md"), once readDates has run.
	Updated map[string]string
	// Redirects are the docs the tree's site redirects (redirects.go), by
	// path; RedirectNotes say what of its redirect files was refused.
	Redirects     []Redirect
	RedirectNotes []string
	redirectIndex map[string]int // lower-case repository path of a source -> its index in Redirects
}

// registryPath is the hook registry, relative to the tree's root.
const registryPath = "framework/mod_hooks.json"

// reserved are the paths a doc may not use because the site's own pages
// live there: the search page always, the Contributing page and the hook
// reference when the tree has what they are made from. Without them, a
// docs/CONTRIBUTING.md is an ordinary page.
func (t *Tree) reserved() map[string]string {
	r := map[string]string{"search.md": "the search page"}
	if t.Contributing {
		r["contributing.md"] = "the Contributing page (CONTRIBUTING.md)"
	}
	if t.Registry {
		r["hook-reference.md"] = "the hook reference page (" + registryPath + ")"
	}
	return r
}

// ScanTree reads the layout of root's docs/ folder. Hidden files and folders
// (a leading dot) are skipped, as Hugo skips them.
func ScanTree(root string) (*Tree, error) {
	abs, err := filepath.Abs(root)
	if err != nil {
		return nil, fmt.Errorf("scan %s: %w", root, err)
	}
	t := &Tree{Root: abs}
	docs := filepath.Join(abs, "docs")
	if fi, err := os.Stat(docs); err != nil || !fi.IsDir() {
		return nil, fmt.Errorf("scan %s: no docs/ folder (is this the repository root?)", abs)
	}
	if fi, err := os.Stat(filepath.Join(abs, filepath.FromSlash(registryPath))); err == nil && fi.Mode().IsRegular() {
		t.Registry = true
	}
	if fi, err := os.Stat(filepath.Join(abs, "CONTRIBUTING.md")); err == nil && fi.Mode().IsRegular() {
		t.Contributing = true
	}

	dirs := map[string]bool{}
	err = filepath.WalkDir(docs, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		rel, err := filepath.Rel(docs, p)
		if err != nil {
			return err
		}
		rel = filepath.ToSlash(rel)
		if rel == "." {
			return nil
		}
		if strings.HasPrefix(d.Name(), ".") {
			if d.IsDir() {
				return filepath.SkipDir
			}
			return nil
		}
		if d.Type()&fs.ModeSymlink != 0 {
			target, ok := t.linkTarget(p)
			if !ok {
				return nil
			}
			if t.Linked == nil {
				t.Linked = map[string]string{}
			}
			t.Linked[rel] = target
		} else if !d.Type().IsRegular() {
			return nil // folders are visited; devices are not content
		}
		if path.Ext(rel) == ".md" {
			t.Docs = append(t.Docs, rel)
			for dir := docDir(rel); ; dir = docDir(dir) {
				dirs[dir] = true
				if dir == "" {
					break
				}
			}
		} else {
			t.Files = append(t.Files, rel)
		}
		return nil
	})
	if err != nil {
		return nil, fmt.Errorf("scan %s: %w", docs, err)
	}
	if len(t.Docs) == 0 {
		return nil, fmt.Errorf("scan %s: no Markdown files in docs/", abs)
	}
	for d := range dirs {
		t.Dirs = append(t.Dirs, d)
	}
	sort.Strings(t.Docs)
	sort.Strings(t.Files)
	sort.Strings(t.Dirs)
	t.folderOf = map[string]string{}
	indexed := map[string]bool{}
	for _, doc := range t.Docs {
		if wikipage.IsIndex(doc) {
			t.folderOf[doc] = docDir(doc)
			indexed[docDir(doc)] = true
		}
	}
	for _, doc := range t.Docs {
		if dir := strings.TrimSuffix(doc, ".md"); dirs[dir] && !indexed[dir] {
			t.folderOf[doc] = dir
		}
	}
	for _, doc := range t.Docs {
		text, err := os.ReadFile(filepath.Join(docs, filepath.FromSlash(doc)))
		if err != nil {
			return nil, fmt.Errorf("scan %s: %w", abs, err)
		}
		// Hugo skips a file whose name starts with "#" (an editor's), the
		// name of its own mount too.
		if misread(text) || strings.HasPrefix(path.Base(doc), "#") {
			t.Copied = append(t.Copied, doc)
		}
		if setsOwnURL(text) {
			if t.ownURL == nil {
				t.ownURL = map[string]bool{}
			}
			t.ownURL[doc] = true
		}
	}
	if err := t.scanSkills(); err != nil {
		return nil, err
	}
	t.scanRedirects()
	return t, t.check()
}

// linkTarget is the file the symbolic link at p leads to, when that is a
// regular file inside the tree: a link out of it, to a folder or to nothing
// is left out, as ScanTree leaves out what is not content.
func (t *Tree) linkTarget(p string) (string, bool) {
	target, err := filepath.EvalSymlinks(p)
	if err != nil {
		return "", false
	}
	root, err := filepath.EvalSymlinks(t.Root)
	if err != nil {
		return "", false
	}
	rel, err := filepath.Rel(root, target)
	if err != nil || rel == ".." || strings.HasPrefix(rel, ".."+string(filepath.Separator)) {
		return "", false
	}
	fi, err := os.Stat(target)
	if err != nil || !fi.Mode().IsRegular() {
		return "", false
	}
	return target, true
}

// check refuses trees whose pages would collide in the site: two docs, or
// a doc and a folder, whose pages Hugo makes one (wikipage.Of), one of
// which it would drop without a word.
func (t *Tree) check() error {
	var errs []error
	seen := map[string]string{} // logical path -> what has it
	reserved := t.reserved()
	for _, doc := range t.Docs {
		if what, ok := reserved[strings.ToLower(doc)]; ok {
			errs = append(errs, fmt.Errorf("docs/%s: this path is taken by %s; rename the file", doc, what))
		}
		key := wikipage.Of(doc)
		if other, ok := seen[key]; ok {
			errs = append(errs, fmt.Errorf("%s and docs/%s would both become the page %s; keep one", other, doc, key))
			continue
		}
		seen[key] = "docs/" + doc
	}
	for _, dir := range t.generatedSections() {
		key := wikipage.OfDir(dir)
		if other, ok := seen[key]; ok {
			errs = append(errs, fmt.Errorf("%s and the folder docs/%s/ would both become the page %s; rename one", other, dir, key))
			continue
		}
		seen[key] = "the folder docs/" + dir + "/"
	}
	return errors.Join(append(errs, t.checkSkills())...)
}

// contentPath is where a doc lands in Hugo's content tree: a folder's page
// (folderOf) becomes the folder's _index.md (a branch bundle), so the folder
// stays a section whose other files remain pages; the others keep their
// paths, but for the names Hugo would lose a page by (wikipage.File).
func (t *Tree) contentPath(doc string) string {
	if dir, ok := t.folderOf[doc]; ok {
		return path.Join(wikipage.Dir(dir), "_index.md")
	}
	return wikipage.File(doc)
}

// docDir is the folder holding doc, "" for docs/ itself (as in Tree.Dirs).
func docDir(doc string) string {
	if d := path.Dir(doc); d != "." {
		return d
	}
	return ""
}

// pagePath is the logical path Hugo's GetPage finds a content file by.
func pagePath(contentPath string) string {
	p := strings.TrimSuffix(contentPath, path.Ext(contentPath))
	p = strings.TrimSuffix(p, "_index")
	return "/" + strings.TrimSuffix(p, "/")
}

// generatedSections are the folders with no landing page of their own: the
// build gives each an empty _index.md so it becomes a section with a listing.
// pageCount is the number of pages made from the tree: its docs and the
// folders without a landing doc.
func (t *Tree) pageCount() int {
	return len(t.Docs) + len(t.generatedSections()) + t.skillsPageCount()
}

func (t *Tree) generatedSections() []string {
	has := map[string]bool{}
	for _, dir := range t.folderOf {
		has[dir] = true
	}
	var out []string
	for _, d := range t.Dirs {
		if !has[d] {
			out = append(out, d)
		}
	}
	return out
}

// folderTitle is the title of folder dir's landing page when it has one
// the wiki does not build as a page: the top-level "title" of its index.yml
// (or index.yaml), as Microsoft Learn trees such as cpp-docs give each
// folder; "" when there is none, and the folder is named by its name.
func (t *Tree) folderTitle(dir string) string {
	if dir == "" {
		return ""
	}
	for _, name := range []string{"index.yml", "index.yaml"} {
		b, err := os.ReadFile(filepath.Join(t.Root, "docs", filepath.FromSlash(dir), name))
		if err != nil {
			continue
		}
		var landing struct {
			Title any `json:"title"`
		}
		if yaml.Unmarshal(b, &landing) != nil {
			continue
		}
		if title, ok := landing.Title.(string); ok && strings.TrimSpace(title) != "" && !strings.ContainsAny(title, "\r\n") {
			return strings.TrimSpace(title)
		}
	}
	return ""
}

// urlPath is a site path as a URL's path, escaped: Hugo's relURL and
// absURL leave a path they cannot parse ("100%.png") as it is, relative, and
// a "#" in one ("#notes/pic.png") would start the fragment.
func urlPath(p string) string {
	return (&url.URL{Path: p}).EscapedPath()
}

// source is one page's origin, as the layouts read it from data/wiki.json.
type source struct {
	Repo string `json:"repo"` // repository path of the Markdown, e.g. docs/server/index.md
	Raw  string `json:"raw"`  // site path of its raw twin, escaped as a URL path: server/index.md, %23faq.md
	// Updated is the day the file last changed (2006-01-02), see lastUpdated.
	Updated string `json:"updated,omitempty"`
}

// siteData is data/wiki.json: how repository paths map to pages and files.
type siteData struct {
	Sources map[string]source `json:"sources"` // by Hugo content path
	Pages   map[string]string `json:"pages"`   // repository path -> GetPage path
	Files   map[string]string `json:"files"`   // repository path -> site path, escaped as a URL path
	// Constants are the Go names of the hooks in package modkit, by hook
	// name ("player.joined" -> PlayerJoined): the hook reference shows them
	// and the search finds a hook by either name.
	Constants map[string]string `json:"constants"`
	// Folded maps each repository path of Pages and Files, in lower case,
	// to the path itself, where no other has the same: a link that names
	// a file but for case or slash direction resolves to it (resolve.html).
	// It also maps each redirected doc's path to where it leads
	// (redirectData).
	Folded map[string]string `json:"folded"`
	// URLs are the pages' URL paths under the site's base, escaped
	// ("server/limits/", "" for the home), by GetPage path (the values
	// of Pages): a link resolves to its page from here (resolve.html),
	// without asking Hugo for the page. A page that asks Hugo for
	// another depends on it, and on what that page's own links ask for
	// in turn: a live Hugo (wiki watch) then renders again, on an edit
	// of one doc, every page that reaches it through links, most of a
	// large tree. A page whose doc may set its own URL (ownURL) is not
	// here: its links ask Hugo.
	URLs map[string]string `json:"urls"`
}

func (t *Tree) data() (siteData, error) {
	d := siteData{Sources: map[string]source{}, Pages: map[string]string{}, Files: map[string]string{}, Constants: map[string]string{}, URLs: map[string]string{}}
	if t.Registry {
		b, err := os.ReadFile(filepath.Join(t.Root, filepath.FromSlash(registryPath)))
		if err != nil {
			return d, fmt.Errorf("read the hook registry: %w", err)
		}
		// Only the names: the registry's own checks are the framework's
		// business, and the wiki shows a registry that fails them all the same.
		var reg struct {
			Hooks []struct {
				Name string `json:"name"`
			} `json:"hooks"`
		}
		if err := json.Unmarshal(b, &reg); err != nil {
			return d, fmt.Errorf("read the hook registry %s: %w", registryPath, err)
		}
		for _, h := range reg.Hooks {
			if h.Name != "" {
				d.Constants[h.Name] = (&registry.Hook{Name: h.Name}).GoName()
			}
		}
	}
	for _, doc := range t.Docs {
		cp := t.contentPath(doc)
		d.Sources[cp] = source{Repo: "docs/" + doc, Raw: urlPath(doc), Updated: t.Updated["docs/"+doc]}
		d.Pages["docs/"+doc] = pagePath(cp)
		if !t.ownURL[doc] {
			d.URLs[pagePath(cp)] = pageHref(wikipage.Of(doc))
		}
	}
	for _, f := range t.Files {
		d.Files["docs/"+f] = urlPath(f)
	}
	d.Folded = folded(d.Pages, d.Files)
	t.redirectData(&d)
	// The hook reference (the site's content/hook-reference.md) is made from the registry.
	if t.Registry {
		d.Sources["hook-reference.md"] = source{Repo: registryPath, Updated: t.Updated[registryPath]}
		d.URLs["/hook-reference"] = pageHref("/hook-reference")
	}
	if t.Contributing {
		d.Sources["contributing.md"] = source{Repo: "CONTRIBUTING.md", Raw: "contributing.md", Updated: t.Updated["CONTRIBUTING.md"]}
		d.Pages["CONTRIBUTING.md"] = "/contributing"
		d.URLs["/contributing"] = pageHref("/contributing")
	}
	t.skillsData(&d)
	return d, nil
}

// pageHref is the URL path under the site's base, escaped, of the page
// with logical path logical (wikipage.Of): "server/limits/", "" for the
// home, as Hugo makes a page's URL by default.
func pageHref(logical string) string {
	return urlPath(pageURL(logical))
}

// ownURLKey is a front matter key with which a page sets its own URL in
// Hugo: slug or url, in YAML, TOML or JSON, at any depth (a nested one
// only costs a link resolved by Hugo).
var ownURLKey = regexp.MustCompile(`(?mi)^\s*"?(slug|url)"?\s*[:=]`)

// setsOwnURL reports whether a doc's front matter may set its page's URL.
func setsOwnURL(text []byte) bool {
	n, ok := frontMatterLen(text)
	return ok && ownURLKey.Match(text[:n])
}

// folded maps the keys of maps in lower case to themselves, leaving out a
// lower-case name two of them share (Setup.md beside setup.md): such a
// link names neither.
func folded(maps ...map[string]string) map[string]string {
	out := map[string]string{}
	shared := map[string]bool{}
	for _, m := range maps {
		for k := range m {
			l := strings.ToLower(k)
			if _, ok := out[l]; ok {
				shared[l] = true
			}
			out[l] = k
		}
	}
	for l := range shared {
		delete(out, l)
	}
	return out
}

// readDates fills t.Updated (see lastUpdated) from commits, the dates of
// t.Root's commits (commitDates).
func (t *Tree) readDates(commits map[string]string) error {
	paths := make([]string, 0, len(t.Docs)+2)
	if t.Registry {
		paths = append(paths, registryPath)
	}
	for _, doc := range t.Docs {
		paths = append(paths, "docs/"+doc)
	}
	if t.Contributing {
		paths = append(paths, "CONTRIBUTING.md")
	}
	paths = append(paths, t.skillsPaths()...)
	updated, err := lastUpdated(t.Root, paths, commits)
	if err != nil {
		return err
	}
	t.Updated = updated
	return nil
}

// siteParams is what a build tells the layouts beyond the tree.
type siteParams struct {
	Preview     bool   // wiki watch and serve: Hugo keeps running (see config)
	BrokenLinks string // BrokenLinksError or BrokenLinksWarn
	Version     string // the docs-mcp version shown in the footer
	EditURL     string // prefix of a repository path for "Edit this page"; empty: no link
	Icon        string // the docs-mcp icon, published as favicon.svg; empty: none
	Title       string // the site's name; empty: hugo.toml's
	Logo        *logo  // shown before the title; nil: none
	// LiveSince is when wiki watch's Hugo was started: a doc changed
	// since shows its file's day as its last update (source.html), so
	// that an edit does not rewrite data/wiki.json, which every page
	// reads. Zero for a build.
	LiveSince time.Time
}

// writeGenerated writes the generated part of the site into dir: the folder
// pages, data/wiki.json and the config holding the mounts. It returns the
// config file's path.
func (t *Tree) writeGenerated(dir, siteDir string, p siteParams) (string, error) {
	for _, s := range t.generatedSections() {
		front := "---\nwikiGenerated: true\n"
		if s == "" {
			front += "wikiListing: true\n"
		}
		if title := t.folderTitle(s); title != "" {
			q, err := json.Marshal(title) // a JSON string is a YAML one
			if err != nil {
				return "", fmt.Errorf("generate folder page: %w", err)
			}
			front += "title: " + string(q) + "\n"
		}
		front += "---\n"
		p := filepath.Join(dir, "content", filepath.FromSlash(wikipage.Dir(s)), "_index.md")
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			return "", fmt.Errorf("generate folder page: %w", err)
		}
		if err := os.WriteFile(p, []byte(front), 0o644); err != nil {
			return "", fmt.Errorf("generate folder page: %w", err)
		}
	}
	if err := os.MkdirAll(filepath.Join(dir, "content"), 0o755); err != nil {
		return "", fmt.Errorf("generate content: %w", err)
	}
	if err := t.writeSkillsGenerated(dir); err != nil {
		return "", err
	}
	for _, doc := range t.Copied {
		if err := t.writeCopy(dir, doc); err != nil {
			return "", err
		}
	}
	if err := os.MkdirAll(filepath.Join(dir, "data"), 0o755); err != nil {
		return "", fmt.Errorf("generate data: %w", err)
	}
	data, err := t.data()
	if err != nil {
		return "", fmt.Errorf("generate data: %w", err)
	}
	b, err := json.MarshalIndent(data, "", "  ")
	if err != nil {
		return "", fmt.Errorf("generate data: %w", err)
	}
	if err := os.WriteFile(filepath.Join(dir, "data", "wiki.json"), b, 0o644); err != nil {
		return "", fmt.Errorf("generate data: %w", err)
	}
	cfg := filepath.Join(dir, "mounts.json")
	b, err = json.MarshalIndent(t.config(dir, siteDir, p), "", "  ")
	if err != nil {
		return "", fmt.Errorf("generate config: %w", err)
	}
	if err := os.WriteFile(cfg, b, 0o644); err != nil {
		return "", fmt.Errorf("generate config: %w", err)
	}
	return cfg, nil
}

// writeCopy writes a doc Hugo would misread into dir's content, made safe
// (hugoSafe), where the config mounts it from instead of docs/. A broken
// link in it is still reported on the line of the doc itself (problems
// reads the doc), and its raw twin is the doc as it is.
func (t *Tree) writeCopy(dir, doc string) error {
	text, err := os.ReadFile(filepath.Join(t.Root, "docs", filepath.FromSlash(doc)))
	if err != nil {
		return fmt.Errorf("generate docs/%s: %w", doc, err)
	}
	p := filepath.Join(dir, "content", filepath.FromSlash(t.contentPath(doc)))
	if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
		return fmt.Errorf("generate docs/%s: %w", doc, err)
	}
	if err := os.WriteFile(p, hugoSafe(text), 0o644); err != nil {
		return fmt.Errorf("generate docs/%s: %w", doc, err)
	}
	return nil
}

// navFullPages is the most pages (docs and folders) a site may have for its
// sidebar to show every folder on every page; a larger site's sidebar shows
// the folders on the way to the page (layouts/_partials/sidebar.html). Past
// a few hundred entries a full tree is more to scroll than to read, and it
// is copied into every page: at 10,000 docs it would make the site gigabytes.
const navFullPages = 500

type mount struct {
	Source string   `json:"source"`
	Target string   `json:"target"`
	Files  []string `json:"files,omitempty"` // globs; "! " excludes
}

type hugoConfig struct {
	Title       string         `json:"title,omitempty"`
	ResourceDir string         `json:"resourceDir"`
	CacheDir    string         `json:"cacheDir"`
	Params      map[string]any `json:"params,omitempty"`
	Cascade     []hugoCascade  `json:"cascade"`
	Module      struct {
		Mounts []mount `json:"mounts"`
	} `json:"module"`
}

// hugoCascade sets Params (and Build options) on the pages whose logical
// path matches Target's; every page without a Target.
type hugoCascade struct {
	Params map[string]any    `json:"params,omitempty"`
	Build  map[string]any    `json:"build,omitempty"`
	Target map[string]string `json:"target,omitempty"`
}

// extras are the logical paths of the site's own pages that are not docs:
// the sidebar lists them apart (the wikiExtra parameter). The hook
// reference and the Contributing page are only there when the tree has what
// they are made from; a doc at docs/CONTRIBUTING.md is then an ordinary page.
func (t *Tree) extras() []string {
	out := []string{"/search"}
	if t.Registry {
		out = append(out, "/hook-reference")
	}
	if t.Contributing {
		out = append(out, "/contributing")
	}
	return out
}

// docsMounts are the mounts of docs/ as content. Hugo takes the whole
// folder, but for the docs whose content path is not their own (contentPath:
// the folders' pages, the names Hugo would lose a page by) or that are built
// from a copy (writeCopy): each is left out by the mount's filters (the
// index.md and _index.md files by name, the others each by its path with the
// glob's special characters escaped) and mounted on its own, unless copied.
func (t *Tree) docsMounts(docs string) []mount {
	escape := strings.NewReplacer(`\`, `\\`, `*`, `\*`, `?`, `\?`, `[`, `\[`, `]`, `\]`, `{`, `\{`, `}`, `\}`)
	all := mount{Source: docs, Target: "content", Files: []string{"! index.md", "! **/index.md", "! _index.md", "! **/_index.md"}}
	copied := map[string]bool{}
	for _, doc := range t.Copied {
		copied[doc] = true
	}
	var one []mount
	for _, doc := range t.Docs {
		byName := wikipage.IsIndex(doc)
		cp := t.contentPath(doc)
		target, linked := t.Linked[doc]
		if !byName && (cp != doc || copied[doc] || linked) {
			all.Files = append(all.Files, "! "+escape.Replace(doc))
		}
		if (byName || cp != doc || linked) && !copied[doc] {
			if !linked {
				target = filepath.Join(docs, filepath.FromSlash(doc))
			}
			one = append(one, mount{Source: target, Target: path.Join("content", cp)})
		}
	}
	return append([]mount{all}, one...)
}

// config is the Hugo config that mounts this tree. Mounts replace Hugo's
// defaults, so the site's own folders are mounted too.
//
// A broken link fails the render (errorf) unless p.BrokenLinks is
// BrokenLinksWarn, when it is only reported (warnf): the wiki command lists
// either kind as file:line.
//
// A preview (the Hugo that wiki watch and serve keep running, see Watch)
// mounts no file of docs/ as static: Hugo's watcher treats a changed file
// under a folder mounted as static as a static file only (a "! **.md"
// filter on the mount does not change that), and would stop re-rendering
// the page; and thousands of mounts, one a file, made Hugo's start take
// minutes. The wiki command copies those files into the site itself
// (copyRawFiles while Hugo builds, copyRaw for an edit).
func (t *Tree) config(genDir, siteDir string, p siteParams) hugoConfig {
	preview := p.Preview
	docs := filepath.Join(t.Root, "docs")
	var c hugoConfig
	c.Title = p.Title
	c.ResourceDir = filepath.Join(genDir, "resources")
	c.CacheDir = filepath.Join(genDir, "cache")
	c.Params = map[string]any{
		"wikiBrokenLinks": p.BrokenLinks,                 // layouts/_partials/broken.html
		"wikiNavFull":     t.pageCount() <= navFullPages, // layouts/_partials/sidebar.html
		"wikiVersion":     p.Version,                     // layouts/baseof.html
		"wikiEditURL":     p.EditURL,                     // layouts/_partials/doc-footer.html
		"wikiIcon":        p.Icon != "",                  // layouts/baseof.html
	}
	if !p.LiveSince.IsZero() {
		c.Params["wikiLiveSince"] = p.LiveSince.Unix() // layouts/_partials/source.html
	}
	if l := p.Logo; l != nil {
		c.Params["wikiLogo"] = map[string]any{"src": l.Name, "width": l.Width, "height": l.Height} // layouts/baseof.html
	}
	c.Cascade = []hugoCascade{
		{Params: map[string]any{"wikiExtra": true}, Target: map[string]string{"path": "{" + strings.Join(t.extras(), ",") + "}"}},
		// The files beside the docs (images, attachments) are published
		// as they are by the wiki (the static mount, or copyRaw in a
		// preview), not by Hugo as the resources of the pages in their
		// folders: Hugo copied all of them again on every edit a live Hugo
		// rendered (3,680 files of cpp-docs for one line of one doc), and
		// each twice in a build.
		{Build: map[string]any{"publishResources": false}},
	}
	siteContent := mount{Source: filepath.Join(siteDir, "content"), Target: "content"}
	if !t.Registry {
		siteContent.Files = []string{"! hook-reference.md"}
	}
	m := []mount{
		{Source: filepath.Join(siteDir, "layouts"), Target: "layouts"},
		{Source: filepath.Join(siteDir, "assets"), Target: "assets"},
		siteContent,
		{Source: filepath.Join(genDir, "content"), Target: "content"},
	}
	// The stylesheet is the server's too (its docs reader, an MCP App): one
	// file in the mcp-server module, which embeds it. In a checkout
	// (siteDir is tools/internal/wiki/site) it is mounted from there, so an
	// edit shows in wiki watch; the site sources built into the command
	// carry a copy of it in assets/css (extractSite).
	if css := filepath.Join(siteDir, "..", "..", "..", "..", filepath.FromSlash(wikistyle.Path)); fileExists(css) {
		m = append(m, mount{Source: css, Target: "assets/css/wiki.css"})
	}
	m = append(m, t.docsMounts(docs)...)
	m = append(m, t.skillsMounts(preview)...)
	// Every file under docs/ is also published as is: the .md files are the
	// raw twins of the pages, the rest are the images and attachments they use.
	if !preview {
		m = append(m, mount{Source: docs, Target: "static"})
		for _, f := range slices.Sorted(maps.Keys(t.Linked)) { // Hugo does not follow them
			m = append(m, mount{Source: t.Linked[f], Target: path.Join("static", f)})
		}
	}
	if t.Contributing && !preview {
		m = append(m, mount{Source: filepath.Join(t.Root, "CONTRIBUTING.md"), Target: "static/contributing.md"})
	}
	if t.Contributing {
		m = append(m, mount{Source: filepath.Join(t.Root, "CONTRIBUTING.md"), Target: "content/contributing.md"})
	}
	// The site's own static files (favicon.ico), and the icon docs-mcp also
	// names in its initialize result: one file, mounted, not copied.
	m = append(m, mount{Source: filepath.Join(siteDir, "static"), Target: "static"})
	if p.Icon != "" {
		m = append(m, mount{Source: p.Icon, Target: "static/favicon.svg"})
	}
	if p.Logo != nil {
		m = append(m, mount{Source: p.Logo.File, Target: "static/" + p.Logo.Name})
	}
	if t.Registry {
		m = append(m, mount{Source: filepath.Join(t.Root, filepath.FromSlash(registryPath)), Target: "data/mod_hooks.json"})
	}
	m = append(m, mount{Source: filepath.Join(genDir, "data"), Target: "data"})
	c.Module.Mounts = m
	return c
}
