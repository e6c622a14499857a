package wiki

import (
	"bytes"
	"context"
	"encoding/json"
	"encoding/xml"
	"io"
	"net/http"
	"net/url"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	"golang.org/x/net/html"

	"github.com/docs-mcp/docs-mcp/mcp-server/mcptest"
	"github.com/docs-mcp/docs-mcp/tools/internal/crawl"
)

// release is one tag of the repository versionedRepo makes, and what it
// changed.
type release struct {
	tag    string
	change func(t *testing.T, root string)
}

// releases are the tags of the test repository, oldest first: a doc added
// (legacy.md, with the fixture), a doc removed and another added, a doc
// edited (one section changed, one added) with a hook changed. After them
// the working tree edits one more section.
var releases = []release{
	{"v1.0.0", func(t *testing.T, root string) {
		writeFile(t, root, "docs/legacy.md", "# Legacy API\n\nThe old way.\n\n## Old hooks\n\nUse `OnOld`.\n")
		// A name Hugo changes for the URL: the switcher must find it all the same.
		writeFile(t, root, "docs/clients/Zed Editor.md", "# Zed\n\nZed speaks MCP too.\n")
	}},
	{"v1.1.0", func(t *testing.T, root string) {
		if err := os.Remove(filepath.Join(root, "docs", "legacy.md")); err != nil {
			t.Fatal(err)
		}
		writeFile(t, root, "docs/clients/cursor.md", "# Cursor\n\nAdd the server in Cursor's settings.\n\n## Configure\n\nOpen the MCP settings.\n")
	}},
	{"v1.2.0", func(t *testing.T, root string) {
		replaceIn(t, root, "docs/server/configuration.md", "The body limit is **1 MiB**", "The body limit is **4 MiB**")
		appendTo(t, root, "docs/server/configuration.md", "\n## Timeouts\n\nRequests time out after 30 seconds.\n")
		replaceIn(t, root, registryPath, "The game server finished loading all mods and accepts connections.", "The game server loaded every mod and accepts connections.")
	}},
}

// versionedRepo makes a git repository of the fixture with the tags of
// releases, then commits an edit of a section after the last one. It
// returns the repository and each tag's day, as the switcher shows it.
func versionedRepo(t *testing.T) (*mcptest.GitRepo, map[string]string) {
	t.Helper()
	r := mcptest.NewGitRepo(t)
	if err := os.CopyFS(r.Dir, os.DirFS(filepath.Join("testdata", "fixture"))); err != nil {
		t.Fatal(err)
	}
	days := map[string]string{}
	for _, rel := range releases {
		rel.change(t, r.Dir)
		r.Commit("release " + rel.tag)
		r.Git("tag", rel.tag)
		days[rel.tag] = r.Git("log", "-1", "--format=%cs", rel.tag)
	}
	replaceIn(t, r.Dir, "docs/getting-started.md", "Run this:", "Run this, with Go 1.26 or newer:")
	r.Commit("getting started: the Go version")
	return r, days
}

// writeFile writes name (a slash path) under root.
func writeFile(t *testing.T, root, name, text string) {
	t.Helper()
	mcptest.WriteFile(t, filepath.Join(root, filepath.FromSlash(name)), text)
}

func replaceIn(t *testing.T, root, name, old, new string) {
	t.Helper()
	p := filepath.Join(root, filepath.FromSlash(name))
	b, err := os.ReadFile(p)
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Contains(b, []byte(old)) {
		t.Fatalf("%s does not hold %q", name, old)
	}
	writeFile(t, root, name, strings.Replace(string(b), old, new, 1))
}

func appendTo(t *testing.T, root, name, text string) {
	t.Helper()
	b, err := os.ReadFile(filepath.Join(root, filepath.FromSlash(name)))
	if err != nil {
		t.Fatal(err)
	}
	writeFile(t, root, name, string(b)+text)
}

// buildVersions builds the repository versionedRepo makes with its three
// tags, served by docs-mcp under an absolute base URL (canonical links and
// a sitemap), and returns the server's URL and the repository.
func buildVersions(t *testing.T) (server, out string, repo *mcptest.GitRepo, days map[string]string) {
	t.Helper()
	repo, days = versionedRepo(t)
	root := repo.Dir
	opt := options(t, root)
	var err error
	if opt.Versions, err = Releases(root, "v*"); err != nil {
		t.Fatal(err)
	}
	var names []string
	for _, v := range opt.Versions {
		names = append(names, v.Name)
	}
	if diff := cmp.Diff([]string{"v1.2.0", "v1.1.0", "v1.0.0"}, names); diff != "" {
		t.Fatalf("Releases (-want +got):\n%s", diff)
	}
	// The server opens its site folder on every request: it can start
	// before the build, which needs its address for the base URL.
	out = filepath.Join(t.TempDir(), "wiki")
	server = serveSite(t, out, root)
	opt.BaseURL = server + "/wiki/"
	res, err := Build(context.Background(), opt, out)
	if err != nil {
		t.Fatalf("Build: %v", err)
	}
	t.Logf("%d HTML pages in %d versions and the working tree; Hugo ran %s", res.Pages, res.Versions, res.Duration.Round(time.Millisecond))
	return server, out, repo, days
}

// versionHomes are the versions' homes in the order the switcher lists
// them: the working tree (the newest), then the tags newest first.
var versionHomes = []struct{ label, home string }{
	{NewestLabel, "/wiki/"},
	{"v1.2.0", "/wiki/v1.2.0/"},
	{"v1.1.0", "/wiki/v1.1.0/"},
	{"v1.0.0", "/wiki/v1.0.0/"},
}

// versionOf is the index in versionHomes of the version a page is in.
func versionOf(urlPath string) int {
	for i := len(versionHomes) - 1; i > 0; i-- {
		if strings.HasPrefix(urlPath, versionHomes[i].home) {
			return i
		}
	}
	return 0
}

// TestVersions builds the working tree and three release tags of a real
// repository and checks every page of every version as served: the
// switcher leads to the same page in each version when that version has
// it, else to its home; older versions' pages carry the banner and a
// canonical link to the newest page; the sitemap lists the newest pages
// only; a missing page under a version gets that version's 404 page; and
// each "What changed" page lists what git's diff says changed.
func TestVersions(t *testing.T) {
	server, out, repo, days := buildVersions(t)
	c := crawl.Crawler{Base: server + "/wiki/"}
	res, err := c.Crawl(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	for _, b := range res.Broken {
		t.Errorf("broken: %s", b) // a switcher, banner or What changed link (anchors included)
	}

	// The pages of each version, by their path under the version's home.
	pages := make([]map[string]bool, len(versionHomes))
	for i := range pages {
		pages[i] = map[string]bool{}
	}
	for u, p := range res.Pages {
		if p.Status == 200 && strings.HasSuffix(u, "/") && strings.HasPrefix(p.ContentType, "text/html") {
			v := versionOf(u)
			pages[v][strings.TrimPrefix(u, versionHomes[v].home)] = true
		}
	}
	for i, v := range versionHomes {
		if !pages[i][""] {
			t.Fatalf("%s: its home %s was not reached from /wiki/", v.label, v.home)
		}
	}
	for _, want := range []struct {
		version int
		page    string
		present bool
	}{
		{3, "legacy/", true}, {2, "legacy/", false}, {0, "legacy/", false}, // removed in v1.1.0
		{3, "clients/cursor/", false}, {2, "clients/cursor/", true}, {0, "clients/cursor/", true}, // added in v1.1.0
		{0, "clients/zed-editor/", true}, {3, "clients/zed-editor/", true},
		{0, "what-changed/", true}, {1, "what-changed/", true}, {3, "what-changed/", false}, // the oldest has no older one
	} {
		if pages[want.version][want.page] != want.present {
			t.Errorf("%s%s: present %v, want %v", versionHomes[want.version].home, want.page, !want.present, want.present)
		}
	}

	// Every page's HTML names no version: its switcher links to its own
	// version's "All versions" page (filled by the page's script from
	// versions.json, TestBrowserVersions), and its canonical link goes to
	// the newest page when there is one.
	checked := 0
	for u, p := range res.Pages {
		v := versionOf(u)
		rel := strings.TrimPrefix(u, versionHomes[v].home)
		if !pages[v][rel] {
			continue
		}
		doc, err := html.Parse(bytes.NewReader(p.Body))
		if err != nil {
			t.Fatal(err)
		}
		var switcher []string
		canonical := ""
		for n := range descendants(doc) {
			if n.Type == html.ElementNode && n.Data == "a" && hasAncestorClass(n, "versions") {
				switcher = append(switcher, text(n)+" → "+resolve(t, server+u, attr(n, "href")))
			}
			if n.Type == html.ElementNode && n.Data == "div" && attr(n, "class") == "version-banner" {
				t.Errorf("%s: a banner in the HTML; the page's script adds it", u)
			}
			if n.Type == html.ElementNode && n.Data == "link" && attr(n, "rel") == "canonical" {
				canonical = attr(n, "href")
			}
		}
		if diff := cmp.Diff([]string{"All versions → " + server + versionHomes[v].home + "all-versions/"}, switcher); diff != "" {
			t.Errorf("%s: switcher (-want +got):\n%s", u, diff)
		}
		wantCanonical := server + u
		if v > 0 && pages[0][rel] {
			wantCanonical = server + "/wiki/" + rel
		}
		if canonical != wantCanonical {
			t.Errorf("%s: canonical %q, want %q", u, canonical, wantCanonical)
		}
		checked++
	}
	if checked == 0 {
		t.Fatal("no page's switcher and canonical link checked")
	}
	t.Logf("switcher and canonical link checked on %d pages", checked)

	// versions.json, the same at every version's top, lists them all.
	var wantList []string
	for i, o := range versionHomes {
		line := o.label + " at " + strings.TrimPrefix(o.home, "/wiki/")
		if i > 0 {
			line += " " + days[o.label]
		}
		if i+1 < len(versionHomes) {
			line += ": " + changesTitle(o.label, i == 0, versionHomes[i+1].label)
		}
		wantList = append(wantList, line)
	}
	first := ""
	for _, o := range versionHomes {
		body := fetch(t, server+o.home+versionsFile)
		if first == "" {
			first = body
		} else if body != first {
			t.Errorf("%s%s differs from the working tree's:\n%s\n%s", o.home, versionsFile, body, first)
		}
		var list struct{ List []versionRef }
		if err := json.Unmarshal([]byte(body), &list); err != nil {
			t.Fatalf("%s%s: %v", o.home, versionsFile, err)
		}
		var got []string
		for _, r := range list.List {
			line := r.Label + " at " + r.Path
			if r.Date != "" {
				line += " " + r.Date
			}
			if r.Changes != "" {
				line += ": " + r.Changes
			}
			got = append(got, line)
		}
		if diff := cmp.Diff(wantList, got); diff != "" {
			t.Errorf("%s%s (-want +got):\n%s", o.home, versionsFile, diff)
		}
		// The "All versions" page: each version's home, its day, its What changed page.
		page, err := html.Parse(strings.NewReader(fetch(t, server+o.home+"all-versions/")))
		if err != nil {
			t.Fatal(err)
		}
		var homes []string
		for n := range descendants(page) {
			if n.Type == html.ElementNode && n.Data == "li" && hasAncestorClass(n, "doc") {
				homes = append(homes, resolve(t, server+o.home+"all-versions/", firstHref(n)))
			}
		}
		var wantHomes []string
		for _, h := range versionHomes {
			wantHomes = append(wantHomes, server+h.home)
		}
		if diff := cmp.Diff(wantHomes, homes); diff != "" {
			t.Errorf("%sall-versions/: homes (-want +got):\n%s", o.home, diff)
		}
	}

	// A page whose doc and navigation did not change between two versions is
	// one file: v1.2.0 changed one doc and the hook registry, not the
	// navigation, so every other doc's page of v1.1.0 is v1.2.0's.
	changed := map[string]bool{}
	for line := range strings.Lines(repo.Git("diff", "--name-only", "v1.1.0", "v1.2.0", "--", "docs")) {
		changed[strings.TrimSpace(line)] = true
	}
	if len(changed) != 1 {
		t.Fatalf("v1.1.0..v1.2.0 changed %v, want one doc", changed)
	}
	shared := 0
	for rel := range pages[2] {
		doc := "docs/" + strings.TrimSuffix(rel, "/") + ".md"
		if !fileExists(filepath.Join(repo.Dir, filepath.FromSlash(doc))) || changed[doc] {
			continue // a folder's page, or the doc that changed
		}
		var infos []os.FileInfo
		for _, v := range []string{"v1.1.0", "v1.2.0"} {
			fi, err := os.Stat(filepath.Join(out, v, filepath.FromSlash(rel), "index.html"))
			if err != nil {
				t.Fatal(err)
			}
			infos = append(infos, fi)
		}
		if !os.SameFile(infos[0], infos[1]) {
			t.Errorf("%s: v1.1.0's and v1.2.0's pages are two files: their HTML differs", doc)
		}
		shared++
	}
	if shared < 5 {
		t.Errorf("%d pages of unchanged docs compared, want the fixture's", shared)
	}

	// A release's page was last updated when its doc last changed up to
	// the tag, not on the tag's day.
	for _, c := range []struct{ page, day string }{
		{"/wiki/v1.2.0/server/configuration/", days["v1.2.0"]},
		{"/wiki/v1.2.0/clients/cursor/", days["v1.1.0"]},
		{"/wiki/v1.2.0/getting-started/", days["v1.0.0"]},
	} {
		got := ""
		if p := res.Pages[c.page]; p != nil {
			if m := regexp.MustCompile(`<time datetime="([^"]+)"`).FindSubmatch(p.Body); m != nil {
				got = string(m[1])
			}
		}
		if got != c.day {
			t.Errorf("%s: last updated %q, want %q", c.page, got, c.day)
		}
	}

	// The sitemap: the working tree's pages, none of an older version.
	var sitemap struct {
		URLs []struct {
			Loc string `xml:"loc"`
		} `xml:"url"`
	}
	if err := xml.Unmarshal([]byte(fetch(t, server+"/wiki/sitemap.xml")), &sitemap); err != nil {
		t.Fatal(err)
	}
	var locs, newest []string
	for _, u := range sitemap.URLs {
		locs = append(locs, strings.TrimPrefix(u.Loc, server+"/wiki/"))
	}
	for rel := range pages[0] {
		if rel != "search/" {
			newest = append(newest, rel)
		}
	}
	slices.Sort(locs)
	slices.Sort(newest)
	if diff := cmp.Diff(newest, locs); diff != "" {
		t.Errorf("sitemap (-want +got):\n%s", diff)
	}

	// A missing page under a version: that version's 404 page.
	resp, err := http.Get(server + "/wiki/v1.1.0/no-such-page/")
	if err != nil {
		t.Fatal(err)
	}
	body, _ := io.ReadAll(resp.Body)
	resp.Body.Close()
	if resp.StatusCode != 404 || !strings.Contains(string(body), `class="brand" href="/wiki/v1.1.0/"`) {
		t.Errorf("GET /wiki/v1.1.0/no-such-page/: %d, want 404 with v1.1.0's own page; got:\n%.400s", resp.StatusCode, body)
	}

	// What changed: the docs git's diff names, and the sections edited.
	for _, c := range []struct {
		from, to, page string
		sections       []string
	}{
		{"v1.0.0", "v1.1.0", "/wiki/v1.1.0/what-changed/", nil},
		{"v1.1.0", "v1.2.0", "/wiki/v1.2.0/what-changed/", []string{
			"docs/server/configuration.md: changed: Limits → /wiki/v1.2.0/server/configuration/#limits",
			"docs/server/configuration.md: added: Timeouts → /wiki/v1.2.0/server/configuration/#timeouts",
			"hooks: changed: lifecycle.server_started → /wiki/v1.2.0/hook-reference/#lifecycle.server_started",
		}},
		{"v1.2.0", "HEAD", "/wiki/what-changed/", []string{
			"docs/getting-started.md: changed: Install → /wiki/getting-started/#install",
		}},
	} {
		want := gitDocChanges(t, repo, c.from, c.to)
		want = append(want, c.sections...)
		got := changesListed(t, server+c.page, []byte(fetch(t, server+c.page)))
		if diff := cmp.Diff(want, got); diff != "" {
			t.Errorf("%s (%s..%s) (-want +got):\n%s", c.page, c.from, c.to, diff)
		}
	}
}

// hasAncestorClass reports whether an element above n has class class.
func hasAncestorClass(n *html.Node, class string) bool {
	for p := n.Parent; p != nil; p = p.Parent {
		if p.Type == html.ElementNode && slices.Contains(strings.Fields(attr(p, "class")), class) {
			return true
		}
	}
	return false
}

// gitDocChanges is what git's own diff says of docs/ between two commits:
// "added: docs/x.md → URL" lines, in the page's order (added, removed,
// changed), each with the URL of the doc in the version that has it.
func gitDocChanges(t *testing.T, repo *mcptest.GitRepo, from, to string) []string {
	t.Helper()
	out := repo.Git("-c", "core.quotePath=false", "diff", "--no-renames", "--name-status", from, to, "--", "docs")
	home := func(rev string) string {
		if rev == "HEAD" {
			return "/wiki/"
		}
		return "/wiki/" + rev + "/"
	}
	url := func(rev, doc string) string {
		p := strings.TrimSuffix(strings.TrimPrefix(doc, "docs/"), ".md")
		return home(rev) + strings.ReplaceAll(strings.ToLower(p), " ", "-") + "/"
	}
	var added, removed, changed []string
	for line := range strings.Lines(out) {
		status, doc, _ := strings.Cut(strings.TrimSpace(line), "\t")
		switch status {
		case "A":
			added = append(added, "added: "+doc+" → "+url(to, doc))
		case "D":
			removed = append(removed, "removed: "+doc+" → "+url(from, doc))
		case "M":
			changed = append(changed, "changed: "+doc+" → "+url(to, doc))
		default:
			t.Fatalf("git diff: unexpected line %q", line)
		}
	}
	return slices.Concat(added, removed, changed)
}

// changesListed reads a "What changed" page back into the lines
// gitDocChanges makes, followed by the changed sections ("docs/x.md:
// changed: Heading → URL") and hooks ("hooks: changed: name → URL").
func changesListed(t *testing.T, pageURL string, page []byte) []string {
	t.Helper()
	doc, err := html.Parse(bytes.NewReader(page))
	if err != nil {
		t.Fatal(err)
	}
	var article *html.Node
	for n := range descendants(doc) {
		if n.Type == html.ElementNode && n.Data == "article" {
			article = n
			break
		}
	}
	if article == nil {
		t.Fatal("no article")
	}
	var docs, sections []string
	h2, h3 := "", ""
	// A heading's text, without the permalink (#) the layouts add.
	heading := func(n *html.Node) string { return strings.TrimSpace(strings.TrimSuffix(text(n), "#")) }
	for n := range descendants(article) {
		if n.Type != html.ElementNode {
			continue
		}
		switch n.Data {
		case "h2":
			h2, h3 = strings.ToLower(heading(n)), ""
		case "h3":
			h3 = heading(n)
			if h2 == "changed" {
				docs = append(docs, "changed: "+h3+" → "+pathOf(t, pageURL, firstHref(n)))
			}
		case "li":
			item, link := text(n), pathOf(t, pageURL, firstHref(n))
			switch h2 {
			case "added", "removed":
				docs = append(docs, h2+": "+item+" → "+link)
			case "changed":
				sections = append(sections, h3+": "+item+" → "+link)
			case "hooks":
				sections = append(sections, "hooks: "+item+" → "+link)
			}
		}
	}
	return append(docs, sections...)
}

// resolve is href as a browser on page follows it.
func resolve(t *testing.T, page, href string) string {
	t.Helper()
	base, err := url.Parse(page)
	if err != nil {
		t.Fatal(err)
	}
	u, err := base.Parse(href)
	if err != nil {
		t.Fatalf("%s: link %q: %v", page, href, err)
	}
	return u.String()
}

// pathOf is href's path and fragment as a browser on page follows it.
func pathOf(t *testing.T, page, href string) string {
	t.Helper()
	if href == "" {
		return ""
	}
	u, err := url.Parse(resolve(t, page, href))
	if err != nil {
		t.Fatal(err)
	}
	u.Scheme, u.Host = "", ""
	return u.String()
}

func firstHref(n *html.Node) string {
	for a := range descendants(n) {
		if a.Type == html.ElementNode && a.Data == "a" {
			return attr(a, "href")
		}
	}
	return ""
}

// TestVersionFolders: a tag goes to its own folder unless the working
// tree's site has that name at its top; tags may share a first segment.
func TestVersionFolders(t *testing.T) {
	site := t.TempDir()
	writeFile(t, site, "index.html", "home")
	writeFile(t, site, "server/index.html", "a folder of docs/")
	p := &versionPlan{root: "/wiki/"}
	if err := p.claim(site); err != nil {
		t.Fatal(err)
	}
	for _, name := range []string{"release/v1", "release/v2", "v1.0.0"} {
		dir, err := p.folder(site, name)
		if err != nil {
			t.Fatalf("folder(%s): %v", name, err)
		}
		if want := filepath.Join(site, filepath.FromSlash(name)); dir != want {
			t.Errorf("folder(%s) = %s, want %s", name, dir, want)
		}
		writeFile(t, dir, "index.html", name) // as the build does before the next tag
	}
	for _, name := range []string{"server", "Server/v1", "index.html"} {
		if _, err := p.folder(site, name); err == nil || !strings.Contains(err.Error(), "which the working tree's site has already") {
			t.Errorf("folder(%s) = %v, want a refusal", name, err)
		}
	}
}

// TestVersionNames: a version whose name would need escaping in a URL, or
// climb out of its folder, or come twice, is refused before anything is
// built.
func TestVersionNames(t *testing.T) {
	root := fixture(t)
	tag := os.DirFS(root)
	for _, c := range []struct {
		names []string
		want  string
	}{
		{[]string{"v1 beta"}, "becomes a folder of the site"},
		{[]string{"../up"}, "becomes a folder of the site"},
		{[]string{"v1/../../up"}, "becomes a folder of the site"},
		{[]string{"v1#x"}, "becomes a folder of the site"},
		{[]string{"v1.0.0", "V1.0.0"}, "is given twice"},
	} {
		opt := Options{Repo: t.TempDir(), Root: root}
		for _, n := range c.names {
			opt.Versions = append(opt.Versions, Version{Name: n, FS: tag})
		}
		_, err := Build(context.Background(), opt, filepath.Join(t.TempDir(), "out"))
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("versions %q: Build = %v, want an error saying %q", c.names, err, c.want)
		}
	}
}

// TestCopyTreeLinks: a release's docs that are symbolic links (urfave/cli's
// docs/CODE_OF_CONDUCT.md -> ../CODE_OF_CONDUCT.md) are built from the
// file they lead to at the tag, read from the tag's objects, through
// further links too; a link out of the repository (absolute, or above its
// root), to a folder or to nothing is left out. The tag's redirect map is
// read with it.
func TestCopyTreeLinks(t *testing.T) {
	r := mcptest.NewGitRepo(t)
	r.Write(map[string]string{
		"docs/index.md":      "# Home\n\n[Conduct](CODE_OF_CONDUCT.md)\n",
		"docs/guide/a.md":    "# A\n",
		"CODE_OF_CONDUCT.md": "# Be kind\n\nAt the tag.\n",
		"mkdocs.yml":         "plugins:\n  - redirects:\n      redirect_maps:\n        old.md: index.md\n",
	})
	links := map[string]string{
		"docs/CODE_OF_CONDUCT.md": "../CODE_OF_CONDUCT.md",    // in the repository
		"docs/again.md":           "CODE_OF_CONDUCT.md",       // a link to that link
		"docs/guide/b.md":         "a.md",                     // in docs/
		"docs/passwd.md":          "/etc/passwd",              // absolute
		"docs/up.md":              "../../outside.md",         // above the root
		"docs/far.md":             "guide/../../../docs/a.md", // above the root on the way
		"docs/folder.md":          "guide",                    // a folder
		"docs/gone.md":            "../gone.md",               // nothing
		"docs/loop.md":            "loop.md",                  // itself
	}
	for link, target := range links {
		if err := os.Symlink(target, filepath.Join(r.Dir, filepath.FromSlash(link))); err != nil {
			t.Fatal(err)
		}
	}
	r.Commit("docs with links")
	r.Git("tag", "v1.0.0")
	// The working tree moves on: the tag's files are read from its objects.
	r.Write(map[string]string{"CODE_OF_CONDUCT.md": "# Be kind\n\nAfter the tag.\n", "mkdocs.yml": ""})

	vs, err := Releases(r.Dir, "v1.0.0")
	if err != nil || len(vs) != 1 {
		t.Fatalf("Releases: %v, %v", vs, err)
	}
	dir := t.TempDir()
	if err := copyTree(vs[0], dir); err != nil {
		t.Fatal(err)
	}
	got := map[string]string{}
	err = filepath.WalkDir(dir, func(p string, d os.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		if !d.Type().IsRegular() {
			t.Errorf("%s is copied as %v, not as a regular file", p, d.Type())
		}
		rel, err := filepath.Rel(dir, p)
		got[filepath.ToSlash(rel)] = mcptest.ReadFile(t, p)
		return err
	})
	if err != nil {
		t.Fatal(err)
	}
	want := map[string]string{
		"docs/index.md":           "# Home\n\n[Conduct](CODE_OF_CONDUCT.md)\n",
		"docs/guide/a.md":         "# A\n",
		"docs/CODE_OF_CONDUCT.md": "# Be kind\n\nAt the tag.\n",
		"docs/again.md":           "# Be kind\n\nAt the tag.\n",
		"docs/guide/b.md":         "# A\n",
		"mkdocs.yml":              "plugins:\n  - redirects:\n      redirect_maps:\n        old.md: index.md\n",
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("the tag's tree as copied (-want +got):\n%s", diff)
	}
	tree, err := ScanTree(dir)
	if err != nil {
		t.Fatal(err)
	}
	if len(tree.Redirects) != 1 || tree.Redirects[0].From != "old.md" || tree.Redirects[0].To != "index.md" {
		t.Errorf("the tag's redirects are %+v, want old.md to index.md", tree.Redirects)
	}
}
