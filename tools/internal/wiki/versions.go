package wiki

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"net/url"
	"os"
	"path"
	"path/filepath"
	"regexp"
	"strings"
	"time"

	"github.com/docs-mcp/docs-mcp/mcp-server/gitdocs"
	"github.com/docs-mcp/docs-mcp/mcp-server/wikipage"
)

// Version is a release of the docs that a build shows beside the working
// tree: its pages go to <base><Name>/, e.g. /wiki/v1.2.0/.
//
// The working tree, at the base itself, is the newest version: canonical
// links and the sitemap point there, and every page of a release says it
// is older and links to the same page there. The working tree is what the
// deployment serves, and its URLs stay put from one release to the next
// (pointing canonical links at the newest tag instead would move them on
// every release); a deployment that wants a release at /wiki/ builds from
// that release's checkout, as the container image does.
type Version struct {
	Name string    // the release tag; also its folder under the site
	Date time.Time // when it was made: the last-updated day of files FS gives no time for
	// FS is the tree at the tag, as in the repository: docs/,
	// CONTRIBUTING.md and framework/mod_hooks.json are read from it.
	FS fs.FS
	// Updated is when each file last changed up to the tag, by repository
	// path ("docs/x.md"): its pages' last-updated day. A file not in it
	// gets the time FS gives it, else Date.
	Updated map[string]time.Time
}

// Releases reads the release tags that selector picks (gitdocs'
// selector: globs separated by commas, and :N to keep the newest N) from
// the git repository whose work tree is root, newest first, each with its
// tree read from the repository's objects: no checkout, no git binary.
// None matching is no error.
func Releases(root, selector string) ([]Version, error) {
	sel, err := gitdocs.ParseSelector(selector)
	if err != nil {
		return nil, err
	}
	repo, err := gitdocs.Open(root)
	if errors.Is(err, gitdocs.ErrNotRepository) {
		return nil, fmt.Errorf("%s is not the top of a git repository, where release tags are read: %w", root, err)
	}
	if err != nil {
		return nil, err
	}
	tags, err := repo.Versions(sel)
	if err != nil {
		return nil, err
	}
	out := make([]Version, len(tags))
	for i, t := range tags {
		fsys, err := repo.FS(t)
		if err != nil {
			return nil, fmt.Errorf("tag %s: %w", t.Name, err)
		}
		v := Version{Name: t.Name, Date: t.Date, FS: fsys, Updated: map[string]time.Time{}}
		// The docs and the registry, not the whole tree (for
		// CONTRIBUTING.md): a walk of the root's history would compare
		// every file of the repository.
		for _, dir := range []string{"docs", path.Dir(registryPath)} {
			h, err := repo.LastCommitsAt(t.Commit, dir)
			if err != nil {
				return nil, fmt.Errorf("tag %s: %w", t.Name, err)
			}
			for name, c := range h.All() {
				v.Updated[name] = c.Date
			}
		}
		out[i] = v
	}
	return out, nil
}

// NewestLabel is how the switcher and the banner name the working tree, the
// newest version: as docs-mcp's tools name the version they read by default.
const NewestLabel = "working tree"

// changesPage is the logical path of the "What changed" page each version
// with an older one gets (content/what-changed.md in the generated part).
const changesPage = "/what-changed"

// versionsPage is the logical path of the page each version gets that
// lists every version (content/all-versions.md in the generated part):
// where the switcher leads without JavaScript.
const versionsPage = "/all-versions"

// versionsFile is the list of versions at the top of every version's site,
// the same bytes in each (so stored once, see linkIdentical): the page
// script fills the switcher and the banner from it (assets/js/wiki.js), so
// that a page's HTML does not name the version it is in, and a page whose
// doc and navigation did not change is the same file in every version.
const versionsFile = "versions.json"

// versionRef is one version in versionsFile.
type versionRef struct {
	Path  string `json:"path"`  // its folder under the site's base, with a slash; "" for the working tree
	Label string `json:"label"` // what the switcher shows
	Date  string `json:"date,omitempty"`
	// Changes is the title of its "What changed" page, "" when it has none
	// (the oldest version).
	Changes string `json:"changes,omitempty"`
}

// versionName is what a version's name may be: it becomes a folder of the
// site and part of every URL in it. Release tags fit (v1.2.0, 2026.11,
// release/v3); a tag needing escapes in a URL does not.
var versionName = regexp.MustCompile(`^[A-Za-z0-9][A-Za-z0-9._+-]*(/[A-Za-z0-9][A-Za-z0-9._+-]*)*$`)

// versionTree is a release's tree copied out of its fs.FS into a folder
// Hugo can mount.
type versionTree struct {
	name string
	date time.Time
	fsys fs.FS
	dir  string // the copy, removed after the build
	tree *Tree
}

type versionTrees []*versionTree

func (vs versionTrees) remove() {
	for _, v := range vs {
		os.RemoveAll(v.dir)
	}
}

// scanVersions copies each of opt.Versions out and scans it. The trees
// returned are removed by their remove method, on error too.
func (b *builder) scanVersions(ctx context.Context) (versionTrees, error) {
	var out versionTrees
	seen := map[string]bool{}
	for _, v := range b.opt.Versions {
		if !versionName.MatchString(v.Name) || strings.Contains(v.Name, "..") {
			return out, fmt.Errorf("version %q: a version's name becomes a folder of the site and part of its URLs: use letters, digits, '.', '_', '+', '-' and '/' between them", v.Name)
		}
		key := strings.ToLower(v.Name)
		if seen[key] {
			return out, fmt.Errorf("version %q is given twice", v.Name)
		}
		seen[key] = true
		dir, err := os.MkdirTemp("", "wiki-version-*")
		if err != nil {
			return out, err
		}
		vt := &versionTree{name: v.Name, date: v.Date, fsys: v.FS, dir: dir}
		out = append(out, vt)
		if err := copyTree(v, dir); err != nil {
			return out, fmt.Errorf("version %s: %w", v.Name, err)
		}
		if vt.tree, err = b.scan(ctx, dir, v.Name); err != nil {
			return out, fmt.Errorf("version %s: %w", v.Name, err)
		}
	}
	return out, nil
}

// copyTree copies what a build reads (docs/, CONTRIBUTING.md, the hook
// registry, the redirect files) from v.FS into dir. Regular files are
// copied, and a symbolic link as the file it leads to when that is a
// regular file of the repository (tagLinkTarget), as ScanTree builds a
// link of the working tree: other links are left out. A file's time is when
// it last changed (v.Updated), else the one v.FS gives, else v.Date: its
// page's last-updated day.
func copyTree(v Version, dir string) error {
	fsys := v.FS
	// copyFile copies src to name in dir; info is src's.
	copyFile := func(name, src string, info fs.FileInfo) error {
		in, err := fsys.Open(src)
		if err != nil {
			return err
		}
		defer in.Close()
		dst := filepath.Join(dir, filepath.FromSlash(name))
		if err := os.MkdirAll(filepath.Dir(dst), 0o755); err != nil {
			return err
		}
		f, err := os.Create(dst)
		if err != nil {
			return err
		}
		if _, err := io.Copy(f, in); err != nil {
			f.Close()
			return err
		}
		if err := f.Close(); err != nil {
			return err
		}
		mod, ok := v.Updated[name]
		if !ok {
			mod = info.ModTime()
		}
		if mod.IsZero() || mod.Unix() <= 0 {
			mod = v.Date
		}
		if mod.IsZero() {
			return nil
		}
		return os.Chtimes(dst, mod, mod)
	}
	// copyAny copies name, or what it leads to when it is a link.
	copyAny := func(name string, info fs.FileInfo) error {
		src := name
		if info.Mode()&fs.ModeSymlink != 0 {
			var ok bool
			if src, info, ok = tagLinkTarget(fsys, name); !ok {
				return nil
			}
		}
		if !info.Mode().IsRegular() {
			return nil
		}
		return copyFile(name, src, info)
	}
	err := fs.WalkDir(fsys, "docs", func(name string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if !d.Type().IsRegular() && d.Type()&fs.ModeSymlink == 0 {
			return nil
		}
		info, err := d.Info()
		if err != nil {
			return err
		}
		return copyAny(name, info)
	})
	if err != nil {
		return fmt.Errorf("copy docs/: %w", err)
	}
	// The site's redirect map too (scanRedirects): a release's links to
	// docs it had moved resolve as its site resolved them then, and its
	// redirected docs' old addresses have their pages.
	for _, name := range append([]string{"CONTRIBUTING.md", registryPath, opsRedirectFile}, mkdocsConfigs...) {
		info, err := fs.Stat(fsys, name)
		if errors.Is(err, fs.ErrNotExist) {
			continue // ScanTree says what a missing registry means
		}
		if err != nil {
			return err
		}
		if err := copyAny(name, info); err != nil {
			return fmt.Errorf("copy %s: %w", name, err)
		}
	}
	return nil
}

// maxLinkHops is the most symbolic links one path is followed through in
// a tag's tree: Linux's limit.
const maxLinkHops = 40

// tagLinkTarget is the file the symbolic link name of a tag's tree (fsys)
// leads to, followed through further links, with its info, when that is a
// regular file of the repository: the link's target is read from the
// tag's objects (fs.ReadLink) and taken relative to the link's folder. A
// link that leads out of the repository (an absolute target, or one above
// its root), to a folder or to nothing gives false, and is left out, as
// ScanTree leaves out such links of the working tree; so does a tree whose
// file system cannot read links.
func tagLinkTarget(fsys fs.FS, name string) (string, fs.FileInfo, bool) {
	for range maxLinkHops {
		target, err := fs.ReadLink(fsys, name)
		if err != nil || target == "" || path.IsAbs(target) {
			return "", nil, false
		}
		next := path.Join(path.Dir(name), target)
		if !fs.ValidPath(next) || next == "." { // above the root, or the root itself
			return "", nil, false
		}
		info, err := fs.Lstat(fsys, next)
		switch {
		case err != nil:
			return "", nil, false
		case info.Mode().IsRegular():
			return next, info, true
		case info.Mode()&fs.ModeSymlink == 0:
			return "", nil, false // a folder, a submodule
		}
		name = next
	}
	return "", nil, false
}

// versionPlan is where each version of a build goes and which pages each
// has: what every version's switcher, banner and canonical links are made
// from. Entry 0 is the working tree.
type versionPlan struct {
	root    string // the site's base URL, ending in /
	entries []versionEntry
	trees   []*versionTree // entries[1:]
	newest  *Tree
	taken   map[string]string // the working tree's site's top-level names, by lower case (see claim)
}

// versionEntry is one version as the layouts read it from
// data/versions.json (layouts/_partials/versions.html).
type versionEntry struct {
	Name  string `json:"name"`  // "" for the working tree
	Label string `json:"label"` // what the switcher shows
	URL   string `json:"url"`   // the path of its home, e.g. /wiki/v1.2.0/
	// Abs is the absolute URL of its home when the base URL is absolute
	// (canonical links), else "".
	Abs  string `json:"abs"`
	Date string `json:"date,omitempty"` // the day the release was made
	// Pages are the logical paths of its pages, as Hugo's .Path gives
	// them: the switcher links to the same page in this version when it
	// is here, else to this version's home.
	Pages map[string]bool `json:"pages"`
}

// newVersionPlan plans a build of newest and versions (newest first) under
// base. Without versions the site has no switcher, as before.
func newVersionPlan(base string, newest *Tree, versions versionTrees) (*versionPlan, error) {
	p := &versionPlan{root: base, trees: versions, newest: newest}
	if len(versions) == 0 {
		return p, nil
	}
	trees := append([]*Tree{newest}, make([]*Tree, len(versions))...)
	for i, v := range versions {
		trees[i+1] = v.tree
	}
	for i, t := range trees {
		name, label, date := "", NewestLabel, ""
		if i > 0 {
			name, label = versions[i-1].name, versions[i-1].name
			if !versions[i-1].date.IsZero() {
				date = versions[i-1].date.UTC().Format(dateFormat)
			}
		}
		for _, page := range []struct{ path, title string }{{changesPage, "What changed"}, {versionsPage, "All versions"}} {
			taken := strings.TrimPrefix(page.path, "/")
			for _, doc := range t.Docs {
				if d := strings.ToLower(doc); d == taken+".md" || strings.HasPrefix(d, taken+"/") {
					return nil, fmt.Errorf("docs/%s: with versions, this path is taken by the \"%s\" page; rename the file", doc, page.title)
				}
			}
		}
		e := versionEntry{Name: name, Label: label, URL: p.pathOf(name), Date: date, Pages: map[string]bool{}}
		if absoluteBase(base) {
			e.Abs = p.root + escapeName(name)
		}
		for _, pg := range t.pages() {
			e.Pages[pg] = true
		}
		if i < len(trees)-1 {
			e.Pages[changesPage] = true
		}
		e.Pages[versionsPage] = true
		p.entries = append(p.entries, e)
	}
	return p, nil
}

// base is the base URL of version name's pages ("" for the working tree).
func (p *versionPlan) base(name string) string { return p.root + escapeName(name) }

// pathOf is the path of version name's home, for links between versions.
func (p *versionPlan) pathOf(name string) string {
	u, err := url.Parse(p.root)
	if err != nil {
		return p.root + escapeName(name) // checkBaseURL has refused such a base
	}
	return u.Path + escapeName(name)
}

// escapeName is a version's part of its URLs: the name and a slash ("" for
// the working tree). versionName admits no character that needs escaping.
func escapeName(name string) string {
	if name == "" {
		return ""
	}
	return name + "/"
}

// claim notes what the working tree's site, just written to dir, holds at
// its top, so that folder can keep the versions out of its way.
func (p *versionPlan) claim(dir string) error {
	entries, err := os.ReadDir(dir)
	if err != nil {
		return err
	}
	p.taken = map[string]string{}
	for _, e := range entries {
		p.taken[strings.ToLower(e.Name())] = e.Name()
	}
	return nil
}

// folder is where version name's site goes in the site at dir. It refuses
// a version whose folder would take the place of a page or file of the
// working tree's site (a tag named like a folder of docs/), as claim found
// them. Tags may share a first segment (release/v1, release/v2).
func (p *versionPlan) folder(dir, name string) (string, error) {
	first, _, _ := strings.Cut(name, "/")
	if have, ok := p.taken[strings.ToLower(first)]; ok {
		return "", fmt.Errorf("version %s: its pages would go to %s%s/, which the working tree's site has already (%s): leave the tag out of the selection", name, p.pathOf(""), first, have)
	}
	return filepath.Join(dir, filepath.FromSlash(name)), nil
}

// folders are the versions' folders under the site (slash paths).
func (p *versionPlan) folders() []string {
	var out []string
	for _, v := range p.trees {
		out = append(out, v.name)
	}
	return out
}

// pages are the logical paths of the site's pages made from t, as Hugo's
// .Path gives them (lower case, spaces as hyphens): the home, each folder,
// each doc and the pages the site adds.
func (t *Tree) pages() []string {
	out := append([]string{"/"}, t.extras()...)
	for _, d := range t.Dirs {
		if d != "" {
			out = append(out, wikipage.OfDir(d))
		}
	}
	for _, doc := range t.Docs {
		out = append(out, wikipage.Of(doc))
	}
	return append(out, t.skillsPages()...)
}

// site is what the build of entry i (0: the working tree) is told about the
// versions; nil without versions.
func (p *versionPlan) site(i int) (*versionSite, error) {
	if len(p.entries) == 0 {
		return nil, nil
	}
	data, err := json.Marshal(struct {
		Current string         `json:"current"`
		List    []versionEntry `json:"list"`
	}{p.entries[i].Name, p.entries})
	if err != nil {
		return nil, err
	}
	site := &versionSite{current: p.entries[i].Name, data: data, list: p.listPage(i)}
	if i+1 < len(p.entries) {
		newer, older := sideOf(p.entries[i], p.tree(i)), sideOf(p.entries[i+1], p.tree(i+1))
		site.changes, err = changesFor(older, newer, p.fsys(i+1), p.fsys(i))
		if err != nil {
			return nil, fmt.Errorf("what changed from %s to %s: %w", older.label, newer.label, err)
		}
	}
	return site, nil
}

// refs is versionsFile's content: every version, newest first.
func (p *versionPlan) refs() ([]byte, error) {
	refs := make([]versionRef, len(p.entries))
	for i, e := range p.entries {
		refs[i] = versionRef{Path: escapeName(e.Name), Label: e.Label, Date: e.Date}
		if i+1 < len(p.entries) {
			refs[i].Changes = changesTitle(e.Label, i == 0, p.entries[i+1].Label)
		}
	}
	return json.Marshal(struct {
		List []versionRef `json:"list"`
	}{refs})
}

// listPage is entry i's "All versions" page: every version's home, with
// its day and its "What changed" page.
func (p *versionPlan) listPage(i int) []byte {
	var b strings.Builder
	fmt.Fprintf(&b, "---\ntitle: %q\nwikiExtra: true\n---\n\n", "All versions")
	fmt.Fprintf(&b, "These docs are kept in %d versions, newest first; this page is in **%s**.\n\n", len(p.entries), p.entries[i].Label)
	for j, e := range p.entries {
		fmt.Fprintf(&b, "- [%s](<%s>)", e.Label, e.URL)
		if e.Date != "" {
			fmt.Fprintf(&b, " (%s)", e.Date)
		}
		if j+1 < len(p.entries) {
			fmt.Fprintf(&b, ": [%s](<%s%s>)", changesTitle(e.Label, j == 0, p.entries[j+1].Label), e.URL, pageURL(changesPage))
		}
		b.WriteString("\n")
	}
	return []byte(b.String())
}

// share readies the site of version name (the working tree: "") that
// Hugo wrote to dir for sharing its pages with the other versions: it adds
// versionsFile and makes the pages' links relative (relativeLinks). Nothing
// without versions.
func (p *versionPlan) share(dir, name string) error {
	if len(p.entries) == 0 {
		return nil
	}
	refs, err := p.refs()
	if err != nil {
		return err
	}
	if err := os.WriteFile(filepath.Join(dir, versionsFile), refs, 0o644); err != nil {
		return fmt.Errorf("write the versions list: %w", err)
	}
	return relativeLinks(dir, p.pathOf(name))
}

// tree is entry i's tree.
func (p *versionPlan) tree(i int) *Tree {
	if i == 0 {
		return p.newest
	}
	return p.trees[i-1].tree
}

// fsys is entry i's repository tree: the working tree's folder, or the
// release's tree at its tag.
func (p *versionPlan) fsys(i int) fs.FS {
	if i == 0 {
		return os.DirFS(p.newest.Root)
	}
	return p.trees[i-1].fsys
}

// versionSite is what one version's build adds to the generated part of
// its site: data/versions.json and, when there is an older version, the
// "What changed" page.
type versionSite struct {
	current string // the version built; "" for the working tree
	data    []byte // data/versions.json
	changes []byte // content/what-changed.md; nil for the oldest version
	list    []byte // content/all-versions.md
}

// write adds s to the generated folder gen; a nil s writes nothing.
func (s *versionSite) write(gen string) error {
	if s == nil {
		return nil
	}
	if err := os.WriteFile(filepath.Join(gen, "data", "versions.json"), s.data, 0o644); err != nil {
		return fmt.Errorf("generate versions: %w", err)
	}
	if s.changes != nil {
		name := filepath.Join(gen, "content", filepath.FromSlash(strings.TrimPrefix(changesPage, "/"))+".md")
		if err := os.WriteFile(name, s.changes, 0o644); err != nil {
			return fmt.Errorf("generate the What changed page: %w", err)
		}
	}
	name := filepath.Join(gen, "content", filepath.FromSlash(strings.TrimPrefix(versionsPage, "/"))+".md")
	if err := os.WriteFile(name, s.list, 0o644); err != nil {
		return fmt.Errorf("generate the All versions page: %w", err)
	}
	return nil
}

// pageURL is the path under a site's base of the page with logical path
// logical: how Hugo makes a page's URL from it by default.
func pageURL(logical string) string {
	if logical == "/" {
		return ""
	}
	return strings.TrimPrefix(logical, "/") + "/"
}
