package wiki

import (
	"context"
	"encoding/json"
	"errors"
	"io"
	"maps"
	"net/http"
	"net/url"
	"os"
	"os/exec"
	"path"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/docs-mcp/docs-mcp/mcp-server/mcptest"
	"github.com/docs-mcp/docs-mcp/mcp-server/wikipage"
	"github.com/docs-mcp/docs-mcp/tools/internal/crawl"
)

func TestBuildFixture(t *testing.T) {
	root := fixture(t)
	opt := options(t, root)
	out, res := build(t, opt)
	tree, err := ScanTree(root)
	if err != nil {
		t.Fatal(err)
	}
	crawled := checkSite(t, serveSite(t, out, root), tree)
	t.Logf("fixture: %d HTML pages, %d files, Hugo ran %s", res.Pages, res.Files, res.Duration)

	// Titles: front matter, else the first heading, else the file name.
	got := map[string]string{}
	for _, url := range []string{
		"/wiki/", "/wiki/getting-started/", "/wiki/clients/", "/wiki/clients/claude-desktop/",
		"/wiki/clients/vscode/", "/wiki/server/", "/wiki/server/configuration/",
		"/wiki/framework/", "/wiki/framework/overview/", "/wiki/framework/advanced/",
		"/wiki/framework/advanced/priorities/", "/wiki/contributing/", "/wiki/hook-reference/",
		"/wiki/search/",
	} {
		got[url] = pageTitle(t, crawled, url)
	}
	want := map[string]string{
		"/wiki/":                               "modkit wiki",
		"/wiki/getting-started/":               "Getting started with modkit", // front matter
		"/wiki/clients/":                       "Clients",                     // folder name
		"/wiki/clients/claude-desktop/":        "Claude Desktop",              // first heading
		"/wiki/clients/vscode/":                "Vscode",                      // file name
		"/wiki/server/":                        "The server",                  // index.md's heading
		"/wiki/server/configuration/":          "Server configuration",        // front matter beats the h1
		"/wiki/framework/":                     "Framework",
		"/wiki/framework/overview/":            "Framework overview",
		"/wiki/framework/advanced/":            "Advanced",
		"/wiki/framework/advanced/priorities/": "Handler priorities",
		"/wiki/contributing/":                  "Contributing to the fixture",
		"/wiki/hook-reference/":                "Hook reference",
		"/wiki/search/":                        "Search",
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("page titles (-want +got):\n%s", diff)
	}

	// The sidebar mirrors the folder tree (depth, link text), then the reference pages.
	if diff := cmp.Diff([]string{
		"0 Fixture wiki",
		"0 Getting started with modkit",
		"0 Clients", "1 Claude Desktop", "1 Vscode",
		"0 Framework", "1 Framework overview", "1 Advanced", "2 Handler priorities",
		"0 The server", "1 Server configuration",
		"0 Hook reference", "0 Contributing to the fixture",
	}, sidebar(t, crawled.Pages["/wiki/framework/overview/"].Body)); diff != "" {
		t.Errorf("sidebar (-want +got):\n%s", diff)
	}

	page := func(url string) string { return string(crawled.Pages[url].Body) }
	for _, c := range []struct{ url, want, why string }{
		{"/wiki/", `<a href="/wiki/clients/claude-desktop/#configure">`, "a relative .md link with a fragment becomes a page link"},
		{"/wiki/", `<a href="/wiki/contributing/">`, "../CONTRIBUTING.md becomes the Contributing page"},
		{"/wiki/", `<a href="/wiki/hook-reference/">`, "../framework/mod_hooks.json becomes the hook reference"},
		{"/wiki/contributing/", `<a href="/wiki/getting-started/">`, "CONTRIBUTING.md's docs/ links become pages"},
		{"/wiki/contributing/", `<span class="repo-link" title="README.md in the repository">`, "a repository file outside docs/ is named, not linked"},
		{"/wiki/server/", `<img src="/wiki/server/diagram.svg"`, "an image beside the doc"},
		{"/wiki/server/configuration/", `<img src="/wiki/server/img/flags.svg"`, "an image in a sub-folder"},
		{"/wiki/getting-started/", `<div class="table-wrap"><table role="table">`, "tables, in a box that scrolls"},
		{"/wiki/getting-started/", `<td role="cell" data-label="`, "table cells labelled with their column for phones"},
		{"/wiki/getting-started/", `<a class="anchor" href="#your-first-mod"`, "heading permalinks"},
		{"/wiki/getting-started/", `<span class="kd">func</span>`, "code is highlighted with CSS classes"},
		{"/wiki/getting-started/", `<nav id="TableOfContents">`, "a table of contents"},
		{"/wiki/getting-started/", `<a href="#your-first-mod">Your first mod</a>`, "the table of contents links the headings"},
		{"/wiki/getting-started/", `<meta property="og:title" content="Getting started with modkit">`, "OpenGraph title"},
		{"/wiki/getting-started/", `<meta name="twitter:card" content="summary">`, "a Twitter card"},
		{"/wiki/getting-started/", `<div class="callout callout-warning" role="note">
<p class="callout-title">Warning</p>`, "a GitHub alert becomes a callout"},
		{"/wiki/", `data-mcp-connect`, "the home page says how to connect an assistant"},
		{"/wiki/getting-started/", `<link rel="alternate" type="text/markdown" href="/wiki/getting-started.md"`, "the raw twin is announced"},
		{"/wiki/hook-reference/", `<span class="kd">func</span>`, "hook examples are highlighted"},
	} {
		if !strings.Contains(page(c.url), c.want) {
			t.Errorf("%s: %s: no %q", c.url, c.why, c.want)
		}
	}
	// Without an absolute base URL no host is invented.
	for _, absent := range []string{`rel="canonical"`, `og:url`} {
		if strings.Contains(page("/wiki/getting-started/"), absent) {
			t.Errorf("/wiki/getting-started/ holds %q though the build had no absolute base URL", absent)
		}
	}
	for _, f := range []string{"sitemap.xml", "robots.txt"} {
		if _, err := os.Stat(filepath.Join(out, f)); err == nil {
			t.Errorf("%s written without an absolute base URL", f)
		}
	}
}

// repoOptions builds the repository's own tree, or the tree in
// $WIKI_TEST_ROOT when set (to check another checkout's docs).
func repoOptions(t *testing.T) Options {
	t.Helper()
	opt := options(t, os.Getenv("WIKI_TEST_ROOT"))
	if opt.Root == "" {
		opt.Root = opt.Repo
	}
	return opt
}

func TestBuildRepoDocs(t *testing.T) {
	opt := repoOptions(t)
	docs := filepath.Join(opt.Root, "docs")
	if entries, err := os.ReadDir(docs); err != nil || len(entries) == 0 {
		missing(t, "the repository has no docs/ yet (%s)", docs)
	}
	out, res := siteFor(t, opt)
	tree, err := ScanTree(opt.Root)
	if err != nil {
		t.Fatal(err)
	}
	server := serveSite(t, out, opt.Root)
	crawled := checkSite(t, server, tree)
	t.Logf("repository docs: %d docs, %d HTML pages, %d files; Hugo ran %s", len(tree.Docs), res.Pages, res.Files, res.Duration)

	// What the server adds around the site: / leads to the wiki, /health
	// sees it, and each kind of file has its type.
	client := &http.Client{CheckRedirect: func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse }}
	resp, err := client.Get(server + "/")
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	if loc := resp.Header.Get("Location"); resp.StatusCode != http.StatusFound || loc != "/wiki/" {
		t.Errorf("GET /: %d to %q, want 302 to /wiki/", resp.StatusCode, loc)
	}
	var health struct {
		Wiki  bool `json:"wiki"`
		Docs  int  `json:"docs"`
		Hooks int  `json:"hooks"`
	}
	resp, err = client.Get(server + "/health")
	if err != nil {
		t.Fatal(err)
	}
	err = json.NewDecoder(resp.Body).Decode(&health)
	resp.Body.Close()
	if err != nil || !health.Wiki || health.Docs != len(tree.Docs) {
		t.Errorf("/health = %+v (%v), want the wiki present and %d docs", health, err, len(tree.Docs))
	}
	// Every file the crawl fetched has the type its kind calls for.
	types := map[string]string{
		"/": "text/html", ".html": "text/html", ".css": "text/css", ".js": "text/javascript",
		".json": "application/json", ".txt": "text/plain", ".svg": "image/svg+xml", ".png": "image/png",
		".md":  "text/", // text/markdown with the host's mime.types, else sniffed as text/plain
		".ico": "image/x-icon",
	}
	for url, page := range crawled.Pages {
		ext := path.Ext(url)
		if strings.HasSuffix(url, "/") {
			ext = "/"
		}
		want, ok := types[ext]
		if !ok {
			t.Errorf("%s: a kind of file the test does not know (%s)", url, page.ContentType)
			continue
		}
		if !strings.HasPrefix(page.ContentType, want) {
			t.Errorf("GET %s: Content-Type %q, want %s…", url, page.ContentType, want)
		}
	}
	// HTML, CSS, JS and the search index come compressed to a browser that accepts it.
	// The index's pieces are fetched by the script, not linked: its largest
	// page excerpt stands for them.
	idx := dirIndex(t, out)
	largest := ""
	var size int64
	for id := range idx.man.Pages {
		file, err := idx.pageFile(id)
		if err != nil {
			t.Fatal(err)
		}
		rel := path.Join(searchDir, file)
		if fi, err := os.Stat(filepath.Join(out, filepath.FromSlash(rel))); err == nil && fi.Size() > size {
			largest, size = "/wiki/"+rel, fi.Size()
		}
	}
	urls := slices.Collect(maps.Keys(crawled.Pages))
	if largest != "" {
		urls = append(urls, largest)
	}
	encoded := map[string]bool{}
	for _, url := range urls {
		ext := path.Ext(url)
		if strings.HasSuffix(url, "/") {
			ext = "/"
		}
		kind, want := ext, "br" // what every visit loads
		if url == largest {
			kind = "excerpt"
		}
		if kind == "/" || kind == "excerpt" {
			want = "gzip" // a page's own (gzipOnly)
		}
		if encoded[kind] || !strings.Contains("/ .css .js .json", ext) || (url != largest && len(crawled.Pages[url].Body) < compressMin) {
			continue
		}
		req, err := http.NewRequest(http.MethodGet, server+url, nil)
		if err != nil {
			t.Fatal(err)
		}
		req.Header.Set("Accept-Encoding", "gzip, deflate, br, zstd")
		resp, err := client.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		resp.Body.Close()
		if ce, vary := resp.Header.Get("Content-Encoding"), resp.Header.Get("Vary"); ce != want || vary != "Accept-Encoding" {
			t.Errorf("GET %s with Accept-Encoding br: Content-Encoding %q, Vary %q; want %s, Accept-Encoding", url, ce, vary, want)
		}
		encoded[kind] = true
	}
	for _, kind := range []string{"/", ".css", ".js", "excerpt"} {
		if !encoded[kind] {
			t.Errorf("compression checked for %v, not for %q", encoded, kind)
		}
	}
	for _, p := range []string{"/favicon.ico", "/wiki/favicon.ico", "/wiki/favicon.svg"} {
		if resp, err := client.Get(server + p); err != nil || resp.StatusCode != http.StatusOK {
			t.Errorf("GET %s: %v %v, want 200", p, resp, err)
		} else {
			resp.Body.Close()
		}
	}
	resp, err = client.Get(server + "/wiki/no/such/page/")
	if err != nil {
		t.Fatal(err)
	}
	body, _ := io.ReadAll(resp.Body)
	resp.Body.Close()
	if resp.StatusCode != http.StatusNotFound || !strings.Contains(string(body), `<nav id="sidebar"`) {
		t.Errorf("GET a missing page: status %d, want 404 with the wiki's own 404 page", resp.StatusCode)
	}
}

func TestBuildWithoutContributing(t *testing.T) {
	root := fixture(t)
	if err := os.Remove(filepath.Join(root, "CONTRIBUTING.md")); err != nil {
		t.Fatal(err)
	}
	// docs/index.md links ../CONTRIBUTING.md: without the file that link is broken.
	index := filepath.Join(root, "docs", "index.md")
	mcptest.WriteFile(t, index, strings.ReplaceAll(mcptest.ReadFile(t, index), "- [Contributing](../CONTRIBUTING.md)\n", ""))
	out, _ := build(t, options(t, root))
	tree, err := ScanTree(root)
	if err != nil {
		t.Fatal(err)
	}
	res := checkSite(t, serveSite(t, out, root), tree)
	if p := res.Pages["/wiki/contributing/"]; p != nil {
		t.Errorf("/wiki/contributing/ was reached (status %d) though there is no CONTRIBUTING.md", p.Status)
	}
	if _, err := os.Stat(filepath.Join(out, "contributing")); err == nil {
		t.Error("a contributing page was built without CONTRIBUTING.md")
	}
}

// TestBuildForeignTree builds a repository that has nothing but docs/, as
// an installed wiki command does outside a docs-mcp checkout (no Repo: the
// site's sources built into the command, Hugo given as an executable): no
// hook reference, docs/CONTRIBUTING.md an ordinary page in the folder tree,
// and a doc that is a symbolic link to a file of the repository built.
func TestBuildForeignTree(t *testing.T) {
	opt := options(t, t.TempDir())
	opt.Hugo = hugoExecutable(t, opt.Repo)
	opt.Repo = ""
	mcptest.WriteTree(t, opt.Root, map[string]string{
		"docs/index.md":           "# Home\n\n- [Contributing](CONTRIBUTING.md)\n- [Conduct](CODE_OF_CONDUCT.md)\n- [Install](Guide/Install.MD#steps)\n- [Again](guide\\install.md)\n\n![Logo](guide/IMG/Logo.PNG)\n",
		"docs/CONTRIBUTING.md":    "# How to help\n\nSend a patch.\n",
		"docs/guide/install.md":   "# Install\n\n## Steps\n",
		"docs/guide/img/logo.png": "png",
		"docs/guide/index.yml":    "### YamlMime:Landing\n\ntitle: Installing things\nmetadata:\n  title: not this one\n",
		"CODE_OF_CONDUCT.md":      "# Be kind\n",
	})
	if err := os.Symlink("../CODE_OF_CONDUCT.md", filepath.Join(opt.Root, "docs", "CODE_OF_CONDUCT.md")); err != nil {
		t.Fatal(err)
	}
	out, res := build(t, opt) // in error mode: the inexact links resolve
	wantInexact := []Problem{
		{File: "docs/index.md", Line: 5, Msg: `inexact link "Guide/Install.MD#steps": the file is docs/guide/install.md (its name differs in case or slash direction); resolved to it, as the tree's own site would`, Warning: true},
		{File: "docs/index.md", Line: 6, Msg: `inexact link "guide\\install.md": the file is docs/guide/install.md (its name differs in case or slash direction); resolved to it, as the tree's own site would`, Warning: true},
		{File: "docs/index.md", Line: 8, Msg: `inexact link "guide/IMG/Logo.PNG": the file is docs/guide/img/logo.png (its name differs in case or slash direction); resolved to it, as the tree's own site would`, Warning: true},
	}
	if diff := cmp.Diff(wantInexact, res.Inexact); diff != "" {
		t.Errorf("inexact references (-want +got):\n%s", diff)
	}
	if _, err := os.Stat(filepath.Join(out, "hook-reference")); err == nil {
		t.Error("a hook reference was built for a tree without framework/mod_hooks.json")
	}
	home := mcptest.ReadFile(t, filepath.Join(out, "index.html"))
	if strings.Contains(home, `class="nav-heading">Reference<`) {
		t.Error("the sidebar has a Reference section though the site has no hook reference and no guide at the root")
	}
	for _, want := range []string{`href="/wiki/contributing/"`, `href="/wiki/code_of_conduct/"`, `href="/wiki/guide/install/#steps"`, `href="/wiki/guide/install/">Again`, `src="/wiki/guide/img/logo.png"`} {
		if !strings.Contains(home, want) {
			t.Errorf("the home page has no link %s", want)
		}
	}
	// A folder without a Markdown landing page is titled by its index.yml's title.
	if guide := mcptest.ReadFile(t, filepath.Join(out, "guide", "index.html")); !strings.Contains(guide, "<title>Installing things ·") {
		t.Error("the folder page guide/ is not titled by docs/guide/index.yml's title, Installing things")
	}
	for page, want := range map[string]string{"contributing/index.html": "Send a patch.", "code_of_conduct/index.html": "Be kind", "CODE_OF_CONDUCT.md": "# Be kind"} {
		if got := mcptest.ReadFile(t, filepath.Join(out, filepath.FromSlash(page))); !strings.Contains(got, want) {
			t.Errorf("%s does not say %q", page, want)
		}
	}
}

// hugoExecutable is the Hugo the checkout repo pins, as an executable.
func hugoExecutable(t *testing.T, repo string) string {
	t.Helper()
	cmd := exec.Command("go", "-C", filepath.Join(repo, "tools", "hugo"), "tool", "-n", "hugo")
	cmd.Env = append(os.Environ(), "GOWORK=off", "CGO_ENABLED=0")
	b, err := cmd.Output()
	if err != nil {
		t.Fatalf("go tool -n hugo: %v", err)
	}
	return strings.TrimSpace(string(b))
}

func TestBuildBaseURL(t *testing.T) {
	opt := options(t, fixture(t))
	opt.BaseURL = "https://docs.example.org/modkit/"
	out, _ := build(t, opt)
	home := mcptest.ReadFile(t, filepath.Join(out, "index.html"))
	for _, want := range []string{
		`<link rel="canonical" href="https://docs.example.org/modkit/">`,
		`<a href="/modkit/getting-started/">`,
	} {
		if !strings.Contains(home, want) {
			t.Errorf("home page: no %q", want)
		}
	}
	page := mcptest.ReadFile(t, filepath.Join(out, "getting-started", "index.html"))
	for _, want := range []string{
		`<link rel="canonical" href="https://docs.example.org/modkit/getting-started/">`,
		`<meta property="og:url" content="https://docs.example.org/modkit/getting-started/">`,
	} {
		if !strings.Contains(page, want) {
			t.Errorf("getting-started page: no %q", want)
		}
	}
	sitemap := mcptest.ReadFile(t, filepath.Join(out, "sitemap.xml"))
	for _, want := range []string{"<loc>https://docs.example.org/modkit/</loc>", "<loc>https://docs.example.org/modkit/getting-started/</loc>", "<loc>https://docs.example.org/modkit/hook-reference/</loc>"} {
		if !strings.Contains(sitemap, want) {
			t.Errorf("sitemap.xml: no %s:\n%s", want, sitemap)
		}
	}
	if robots := mcptest.ReadFile(t, filepath.Join(out, "robots.txt")); !strings.Contains(robots, "\nSitemap: https://docs.example.org/modkit/sitemap.xml\n") {
		t.Errorf("robots.txt does not name the sitemap:\n%s", robots)
	}
	if llms := mcptest.ReadFile(t, filepath.Join(out, "llms.txt")); !strings.Contains(llms, "(https://docs.example.org/modkit/getting-started.md)") {
		t.Errorf("llms.txt does not use the base URL:\n%s", llms)
	}
	mux := http.NewServeMux()
	mux.Handle("/modkit/", http.StripPrefix("/modkit/", http.FileServer(http.Dir(out))))
	c := crawl.Crawler{Handler: mux, Base: "https://docs.example.org/modkit/"}
	res, err := c.Crawl(context.Background(), "llms.txt")
	if err != nil {
		t.Fatal(err)
	}
	for _, b := range res.Broken {
		t.Errorf("broken under /modkit/: %s", b)
	}
}

func TestBuildIsDeterministic(t *testing.T) {
	for name, opt := range map[string]Options{
		"fixture":    options(t, fixture(t)),
		"repository": repoOptions(t),
	} {
		t.Run(name, func(t *testing.T) {
			a, _ := siteFor(t, opt) // the repository's: the one the other tests read
			b, _ := build(t, opt)
			fa, fb := tree(t, a), tree(t, b)
			if len(fa) == 0 {
				t.Fatal("the build wrote no files")
			}
			if diff := cmp.Diff(fa, fb); diff != "" {
				t.Errorf("two builds of the same tree differ (-first +second):\n%s", diff)
			}
		})
	}
}

// tree maps every file under dir to its content.
func tree(t *testing.T, dir string) map[string]string {
	t.Helper()
	files := map[string]string{}
	err := filepath.WalkDir(dir, func(p string, d os.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		rel, _ := filepath.Rel(dir, p)
		b, err := os.ReadFile(p)
		files[filepath.ToSlash(rel)] = string(b)
		return err
	})
	if err != nil {
		t.Fatal(err)
	}
	return files
}

func TestBuildFailsOnBrokenReferences(t *testing.T) {
	root := fixture(t)
	mcptest.WriteFile(t, filepath.Join(root, "docs", "broken.md"), `# Broken

Line 3 links [nowhere](missing.md).

![gone](pics/gone.png)

A [repository file that is not there](../NOPE.md), and a [good one](../README.md).
`)
	vscode := filepath.Join(root, "docs", "clients", "vscode.md")
	mcptest.WriteFile(t, vscode, mcptest.ReadFile(t, vscode)+"\nAnd a [bad anchor target](../nope/x.md#setup).\n")

	out := filepath.Join(t.TempDir(), "wiki")
	_, err := Build(context.Background(), options(t, root), out)
	var be *BuildError
	if !errors.As(err, &be) {
		t.Fatalf("Build = %v, want a *BuildError", err)
	}
	want := []Problem{
		{File: "docs/broken.md", Line: 3, Msg: `broken link "missing.md": docs/missing.md does not exist`},
		{File: "docs/broken.md", Line: 5, Msg: `broken image "pics/gone.png": docs/pics/gone.png is not a file under docs/`},
		{File: "docs/broken.md", Line: 7, Msg: `broken link "../NOPE.md": NOPE.md does not exist`},
		{File: "docs/clients/vscode.md", Line: 5, Msg: `broken link "../nope/x.md#setup": docs/nope/x.md does not exist`},
	}
	if diff := cmp.Diff(want, be.Problems); diff != "" {
		t.Errorf("problems (-want +got):\n%s", diff)
	}
	if !strings.Contains(err.Error(), "docs/broken.md:3: broken link") {
		t.Errorf("the error does not give file:line: %v", err)
	}
	if _, err := os.Stat(out); err == nil {
		t.Errorf("a failed build left %s behind", out)
	}
}

// twinLink is a page's link to its Markdown twin (doc-footer.html).
var twinLink = regexp.MustCompile(`<a href="([^"]*)" type="text/markdown">`)

// TestBuildMessyLinks builds a tree holding the link shapes of real
// reference docs (testdata/messy: stray %, spaces, <...>, unbalanced
// parentheses, raw HTML anchors, links into missing files, a file name with
// a space) and docs that open with what Hugo takes for front matter (a list
// item, a snippet include, a template include) or names shortcodes (a doc
// brought from a Hugo site), each of which failed the whole build. With -broken-links=warn the build succeeds, writes every page and
// lists each bad reference with its file and line, leaving it as written;
// the default mode fails and names each one.
func TestBuildMessyLinks(t *testing.T) {
	root := fixture(t)
	if err := os.CopyFS(filepath.Join(root, "docs", "messy"), os.DirFS(filepath.Join("testdata", "messy"))); err != nil {
		t.Fatal(err)
	}
	want := []Problem{
		{File: "docs/messy/a file.md", Line: 3, Msg: `broken link "gone.md": docs/messy/gone.md does not exist`},
		{File: "docs/messy/links.md", Line: 8, Msg: `broken link "100%.md": not a valid URL (invalid URL escape "%.m"); left as written`},
		{File: "docs/messy/links.md", Line: 11, Msg: `broken link "no such file.md": docs/messy/no such file.md does not exist`},
		{File: "docs/messy/links.md", Line: 12, Msg: `broken link "a\\)b.md": docs/messy/a\)b.md does not exist`},
		{File: "docs/messy/links.md", Line: 13, Msg: `broken link "nope/missing.md#setup": docs/messy/nope/missing.md does not exist`},
		{File: "docs/messy/links.md", Line: 15, Msg: `broken image "chart%.png": not a valid URL (invalid URL escape "%.p"); left as written`},
		{File: "docs/messy/list [first].md", Line: 2, Msg: `broken link "gone-too.md": docs/messy/gone-too.md does not exist`},
	}

	opt := options(t, root)
	opt.BrokenLinks = BrokenLinksWarn
	out, res := build(t, opt)
	if diff := cmp.Diff(want, res.Broken); diff != "" {
		t.Errorf("problems listed by the warn build (-want +got):\n%s", diff)
	}
	tr, err := ScanTree(root)
	if err != nil {
		t.Fatal(err)
	}
	// Each doc has a page of its own, named as the server names it (the
	// names Hugo would drop a page by among them: "%.md", "#hash.md",
	// "#drafts/", "notes.en.md", "guide.md" beside "guide/"), holding its
	// title.
	pages := map[string]string{}
	for _, p := range dirIndex(t, out).pages(t) {
		pages[p.Path] = p.URL
	}
	docOf := map[string]string{}
	for _, doc := range tr.Docs {
		at, ok := pages["docs/"+doc]
		if !ok {
			t.Errorf("docs/%s: not in the search index", doc)
			continue
		}
		if other, ok := docOf[at]; ok {
			t.Errorf("docs/%s and docs/%s share the page %s", other, doc, at)
		}
		docOf[at] = doc
		if want := (&url.URL{Path: "/wiki" + wikipage.Of(doc) + "/"}).EscapedPath(); at != want && at != "/wiki/" {
			t.Errorf("docs/%s: page %s, the server links %s", doc, at, want)
		}
		html, err := os.ReadFile(filepath.Join(out, filepath.FromSlash(strings.TrimPrefix(at, "/wiki/")), "index.html"))
		if err != nil {
			t.Errorf("docs/%s: no page written: %v", doc, err)
			continue
		}
		text := mcptest.ReadFile(t, filepath.Join(root, "docs", filepath.FromSlash(doc)))
		if m := twinLink.FindSubmatch(html); m == nil {
			t.Errorf("docs/%s: its page %s links no Markdown twin", doc, at)
		} else if u, err := url.Parse(string(m[1])); err != nil || u.Path != "/wiki/"+doc || u.Fragment != "" {
			t.Errorf("docs/%s: its page %s links the Markdown twin %s", doc, at, m[1])
		} else if twin := mcptest.ReadFile(t, filepath.Join(out, filepath.FromSlash(doc))); twin != text {
			t.Errorf("docs/%s: its Markdown twin is not the doc", doc)
		}
		if title, ok := strings.CutPrefix(strings.SplitN(text, "\n", 2)[0], "# "); ok && !strings.Contains(string(html), ">"+title+"<") {
			t.Errorf("docs/%s: its page %s does not hold its title %q", doc, at, title)
		}
	}
	// Files whose names hold "#" or "%" are linked by their escaped paths.
	drafts := mcptest.ReadFile(t, filepath.Join(out, "messy", "drafts", "n", "index.html"))
	for _, file := range []string{"messy/#drafts/flow.svg", "messy/100%.svg"} {
		href := (&url.URL{Path: "/wiki/" + file}).EscapedPath()
		if !strings.Contains(drafts, `="`+href+`"`) {
			t.Errorf("messy/drafts/n page: no link to %s as %s", file, href)
		}
		if _, err := os.Stat(filepath.Join(out, filepath.FromSlash(file))); err != nil {
			t.Errorf("%s: not published: %v", file, err)
		}
	}
	guide := mcptest.ReadFile(t, filepath.Join(out, "messy", "guide", "index.html"))
	for _, href := range []string{"/wiki/messy/25/", "/wiki/messy/hash/", "/wiki/messy/drafts/n/", "/wiki/messy/guide/step/", "/wiki/messy/notes-en/"} {
		if !strings.Contains(guide, `href="`+href+`"`) {
			t.Errorf("messy/guide page: no link to %s", href)
		}
	}
	links := mcptest.ReadFile(t, filepath.Join(out, "messy", "links", "index.html"))
	for _, kept := range []string{
		`<a href="#op_%25=">operator%=</a>`,     // left as written (escaped as any browser would)
		`<a href="#op_%25=">escaped anchor</a>`, // valid all along
		`<a href="/wiki/messy/a-file/">file with a space</a>`,
		`<a href="%zz">anchor</a>`,
	} {
		if !strings.Contains(links, kept) {
			t.Errorf("messy/links page: no %s", kept)
		}
	}
	// The docs Hugo would have taken for front matter or shortcodes are
	// shown as written, and so is their Markdown in llms-full.txt.
	for page, text := range map[string]string{
		"messy/list-first": "<li>the first item opens this doc</li>",
		"messy/snippets":   "8&lt;&ndash; &ldquo;README.md&rdquo;", // with Markdown's typography, as any line
		"messy/include":    "{% include",
		"messy/hugo-site":  "A note {{&lt; note &gt;}}careful{{&lt; /note &gt;}} and a tip {{% tip %}}<strong>bold</strong>{{% /tip %}}",
	} {
		if html := mcptest.ReadFile(t, filepath.Join(out, page, "index.html")); !strings.Contains(html, text) {
			t.Errorf("%s page: no %s", page, text)
		}
	}
	if full := mcptest.ReadFile(t, filepath.Join(out, "llms-full.txt")); !strings.Contains(full, mcptest.ReadFile(t, filepath.Join("testdata", "messy", "hugo-site.md"))) {
		t.Errorf("llms-full.txt does not hold docs/messy/hugo-site.md as written")
	}

	_, err = Build(context.Background(), options(t, root), filepath.Join(t.TempDir(), "wiki"))
	var be *BuildError
	if !errors.As(err, &be) {
		t.Fatalf("Build in error mode = %v, want a *BuildError", err)
	}
	if diff := cmp.Diff(want, be.Problems); diff != "" {
		t.Errorf("problems of the failed build (-want +got):\n%s", diff)
	}
}
