package wiki

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"iter"
	"net/http"
	"os"
	"path"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"golang.org/x/net/html"

	"github.com/docs-mcp/docs-mcp/tools/crawl"
)

type searchIndex struct {
	Pages []struct {
		Title    string   `json:"title"`
		URL      string   `json:"url"`
		Path     string   `json:"path"`
		Lines    []string `json:"lines"`
		Headings []struct {
			ID    string `json:"id"`
			Title string `json:"title"`
		} `json:"headings"`
	} `json:"pages"`
}

// checkSite crawls a built site served by the docs-mcp server at server
// (see serveSite) and checks it against the tree it was built from, the way a reader would notice: every
// link and asset resolves under /wiki/, every doc has a page, a raw twin
// and an llms.txt entry, and the hook reference lists every hook in the
// registry.
func checkSite(t *testing.T, server string, tree *Tree) *crawl.Result {
	t.Helper()
	c := crawl.Crawler{Base: server + "/wiki/"}
	res, err := c.Crawl(context.Background(), "llms.txt", "404.html")
	if err != nil {
		t.Fatalf("crawl: %v", err)
	}
	for _, b := range res.Broken {
		t.Errorf("broken: %s", b)
	}

	var idx searchIndex
	if err := json.Unmarshal(served(t, res, "/wiki/search-index.json"), &idx); err != nil {
		t.Fatalf("search index: %v", err)
	}
	byPath := map[string]string{}
	for _, p := range idx.Pages {
		byPath[p.Path] = p.URL
	}
	llms := string(served(t, res, "/wiki/llms.txt"))
	sources := map[string]string{} // repository path -> raw twin path in the site
	for _, doc := range tree.Docs {
		sources["docs/"+doc] = doc
	}
	if tree.Contributing {
		sources["CONTRIBUTING.md"] = "contributing.md"
	}
	for repoPath, twin := range sources {
		url, ok := byPath[repoPath]
		if !ok {
			t.Errorf("%s: no page in the search index", repoPath)
			continue
		}
		if p := res.Pages[url]; p == nil || p.Status != 200 {
			t.Errorf("%s: page %s was not reached from the home page", repoPath, url)
		}
		if !strings.Contains(llms, "(/wiki/"+twin+")") {
			t.Errorf("%s: llms.txt does not list /wiki/%s", repoPath, twin)
		}
		src := readFile(t, filepath.Join(tree.Root, filepath.FromSlash(repoPath)))
		if got := res.Pages["/wiki/"+twin]; got == nil || string(got.Body) != src {
			t.Errorf("%s: the raw twin /wiki/%s was not served byte for byte", repoPath, twin)
		}
	}

	var reg struct {
		Hooks []struct {
			Name string `json:"name"`
		} `json:"hooks"`
	}
	if err := json.Unmarshal([]byte(readFile(t, filepath.Join(tree.Root, "framework", "mod_hooks.json"))), &reg); err != nil {
		t.Fatalf("registry: %v", err)
	}
	if len(reg.Hooks) == 0 {
		t.Fatal("the registry lists no hooks")
	}
	refPage := res.Pages["/wiki/hook-reference/"]
	if refPage == nil || refPage.Status != 200 {
		t.Fatal("the hook reference /wiki/hook-reference/ was not reached from the home page")
	}
	refMD := string(served(t, res, "/wiki/hook-reference.md"))
	for _, h := range reg.Hooks {
		if !refPage.IDs[h.Name] {
			t.Errorf("hook %s: no section with id %q on the hook reference page", h.Name, h.Name)
		}
		if !strings.Contains(refMD, fmt.Sprintf("### `%s`", h.Name)) {
			t.Errorf("hook %s: missing from /wiki/hook-reference.md", h.Name)
		}
	}
	if want := fmt.Sprintf(": %d hooks in", len(reg.Hooks)); !strings.Contains(refMD, want) {
		t.Errorf("hook reference: no %q in its introduction", want)
	}

	// Nothing a page loads comes from elsewhere: no CDN, remote font or script.
	for url, p := range res.Pages {
		for _, ref := range remoteLoads(p) {
			t.Errorf("%s loads %s from another site", url, ref)
		}
	}
	return res
}

var remoteCSS = regexp.MustCompile(`(?:url\(\s*['"]?|@import\s+['"])((?:https?:)?//[^'")\s]+)`)

// remoteLoads returns the references a browser would fetch from another
// host while showing p: scripts, stylesheets, icons, images, frames and
// media in HTML, url() and @import in CSS. Links a reader clicks are not
// loads.
func remoteLoads(p *crawl.Page) []string {
	var out []string
	remote := func(v string) bool {
		return strings.HasPrefix(v, "http://") || strings.HasPrefix(v, "https://") || strings.HasPrefix(v, "//")
	}
	switch {
	case strings.HasPrefix(p.ContentType, "text/css"):
		for _, m := range remoteCSS.FindAllSubmatch(p.Body, -1) {
			out = append(out, string(m[1]))
		}
	case strings.HasPrefix(p.ContentType, "text/html"):
		doc, err := html.Parse(bytes.NewReader(p.Body))
		if err != nil {
			return []string{"(unparsable HTML: " + err.Error() + ")"}
		}
		for n := range descendants(doc) {
			if n.Type != html.ElementNode {
				continue
			}
			switch n.Data {
			case "script", "img", "iframe", "source", "video", "audio", "embed", "track", "input":
				for _, key := range []string{"src", "poster"} {
					if v := attr(n, key); remote(v) {
						out = append(out, v)
					}
				}
				for _, part := range strings.Split(attr(n, "srcset"), ",") {
					if f := strings.Fields(part); len(f) > 0 && remote(f[0]) {
						out = append(out, f[0])
					}
				}
			case "link":
				if rel := attr(n, "rel"); rel != "canonical" && rel != "alternate" && remote(attr(n, "href")) {
					out = append(out, attr(n, "href"))
				}
			case "object":
				if v := attr(n, "data"); remote(v) {
					out = append(out, v)
				}
			}
			if st := attr(n, "style"); st != "" {
				for _, m := range remoteCSS.FindAllStringSubmatch(st, -1) {
					out = append(out, m[1])
				}
			}
			if n.Data == "style" && n.FirstChild != nil {
				for _, m := range remoteCSS.FindAllStringSubmatch(n.FirstChild.Data, -1) {
					out = append(out, m[1])
				}
			}
		}
	}
	return out
}

// served returns the body of a crawled path, failing the test when the
// crawl did not fetch it with status 200.
func served(t *testing.T, res *crawl.Result, urlPath string) []byte {
	t.Helper()
	p := res.Pages[urlPath]
	if p == nil || p.Status != http.StatusOK {
		t.Fatalf("%s was not served by the crawl: %+v", urlPath, p)
	}
	return p.Body
}

var titleRe = regexp.MustCompile(`<title>(.*?)</title>`)

func pageTitle(t *testing.T, res *crawl.Result, url string) string {
	t.Helper()
	p := res.Pages[url]
	if p == nil {
		return "(not crawled)"
	}
	m := titleRe.FindSubmatch(p.Body)
	if m == nil {
		return "(no title)"
	}
	return strings.TrimSuffix(string(m[1]), " · modkit wiki")
}

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
		{"/wiki/getting-started/", `<table>`, "tables"},
		{"/wiki/getting-started/", `<span class="kd">func</span>`, "code is highlighted with CSS classes"},
		{"/wiki/getting-started/", `<nav id="TableOfContents">`, "a table of contents"},
		{"/wiki/getting-started/", `<a href="#your-first-mod">Your first mod</a>`, "the table of contents links the headings"},
		{"/wiki/getting-started/", `<link rel="canonical" href="/wiki/getting-started/">`, "canonical under /wiki/"},
		{"/wiki/getting-started/", `<link rel="alternate" type="text/markdown" href="/wiki/getting-started.md"`, "the raw twin is announced"},
		{"/wiki/hook-reference/", `<span class="kd">func</span>`, "hook examples are highlighted"},
	} {
		if !strings.Contains(page(c.url), c.want) {
			t.Errorf("%s: %s: no %q", c.url, c.why, c.want)
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
	out, res := build(t, opt)
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
		".md": "text/", // text/markdown with the host's mime.types, else sniffed as text/plain
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
	writeFile(t, index, strings.ReplaceAll(readFile(t, index), "- [Contributing](../CONTRIBUTING.md)\n", ""))
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

func TestBuildBaseURL(t *testing.T) {
	opt := options(t, fixture(t))
	opt.BaseURL = "https://docs.example.org/modkit/"
	out, _ := build(t, opt)
	home := readFile(t, filepath.Join(out, "index.html"))
	for _, want := range []string{
		`<link rel="canonical" href="https://docs.example.org/modkit/">`,
		`<a href="/modkit/getting-started/">`,
	} {
		if !strings.Contains(home, want) {
			t.Errorf("home page: no %q", want)
		}
	}
	if llms := readFile(t, filepath.Join(out, "llms.txt")); !strings.Contains(llms, "(https://docs.example.org/modkit/getting-started.md)") {
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
			a, _ := build(t, opt)
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
	writeFile(t, filepath.Join(root, "docs", "broken.md"), `# Broken

Line 3 links [nowhere](missing.md).

![gone](pics/gone.png)

A [repository file that is not there](../NOPE.md), and a [good one](../README.md).
`)
	vscode := filepath.Join(root, "docs", "clients", "vscode.md")
	writeFile(t, vscode, readFile(t, vscode)+"\nAnd a [bad anchor target](../nope/x.md#setup).\n")

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

// sidebar outlines the sidebar of a page: one "depth text" line per link,
// depth counting the nested lists around it.
func sidebar(t *testing.T, page []byte) []string {
	t.Helper()
	doc, err := html.Parse(bytes.NewReader(page))
	if err != nil {
		t.Fatal(err)
	}
	var nav *html.Node
	for n := range descendants(doc) {
		if n.Type == html.ElementNode && n.Data == "nav" && attr(n, "id") == "sidebar" {
			nav = n
			break
		}
	}
	if nav == nil {
		t.Fatal("no nav#sidebar")
	}
	var out []string
	var walk func(n *html.Node, depth int)
	walk = func(n *html.Node, depth int) {
		if n.Type == html.ElementNode && n.Data == "ul" {
			depth++
		}
		if n.Type == html.ElementNode && n.Data == "a" {
			out = append(out, fmt.Sprintf("%d %s", depth-1, text(n)))
			return
		}
		for c := n.FirstChild; c != nil; c = c.NextSibling {
			walk(c, depth)
		}
	}
	walk(nav, 0)
	return out
}

func attr(n *html.Node, key string) string {
	for _, a := range n.Attr {
		if a.Key == key {
			return a.Val
		}
	}
	return ""
}

func text(n *html.Node) string {
	var b strings.Builder
	for d := range descendants(n) {
		if d.Type == html.TextNode {
			b.WriteString(d.Data)
		}
	}
	return strings.TrimSpace(b.String())
}

// descendants yields the nodes below n in document order (x/net/html has
// no Node.Descendants in v0.30, the x/net the workspace already uses).
func descendants(n *html.Node) iter.Seq[*html.Node] {
	return func(yield func(*html.Node) bool) {
		var walk func(*html.Node) bool
		walk = func(n *html.Node) bool {
			for c := n.FirstChild; c != nil; c = c.NextSibling {
				if !yield(c) || !walk(c) {
					return false
				}
			}
			return true
		}
		walk(n)
	}
}

func TestRemoteLoads(t *testing.T) {
	page := &crawl.Page{ContentType: "text/html; charset=utf-8", Body: []byte(`<!doctype html>
<link rel="stylesheet" href="https://fonts.googleapis.com/css2?family=Inter">
<link rel="canonical" href="https://docs.example.org/wiki/">
<link rel="stylesheet" href="/wiki/css/wiki.css">
<script src="//cdn.example.com/flexsearch.js"></script><script src="/wiki/js/wiki.js"></script>
<img src="img/a.svg" srcset="a.svg 1x, https://img.example.com/a@2x.png 2x">
<div style="background: url('https://img.example.com/bg.png')"></div>
<a href="https://github.com/mark3labs/mcp-go">a link is not a load</a>`)}
	css := &crawl.Page{ContentType: "text/css", Body: []byte(`@import "https://x.example/a.css"; .a { background: url(/wiki/bg.png) } @font-face { src: url(https://fonts.gstatic.com/s/inter.woff2) }`)}
	got := append(remoteLoads(page), remoteLoads(css)...)
	want := []string{
		"https://fonts.googleapis.com/css2?family=Inter",
		"//cdn.example.com/flexsearch.js",
		"https://img.example.com/a@2x.png",
		"https://img.example.com/bg.png",
		"https://x.example/a.css",
		"https://fonts.gstatic.com/s/inter.woff2",
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("remoteLoads (-want +got):\n%s", diff)
	}
}
