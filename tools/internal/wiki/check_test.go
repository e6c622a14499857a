package wiki

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"iter"
	"net/http"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"golang.org/x/net/html"

	"github.com/docs-mcp/docs-mcp/mcp-server/mcptest"
	"github.com/docs-mcp/docs-mcp/tools/internal/crawl"
)

// checkSite crawls a built site served by the docs-mcp server at server
// (see serveSite) and checks it against the tree it was built from, the way
// a reader would notice: every link and asset resolves under /wiki/, every
// doc has a page, a raw twin and an llms.txt entry, and the hook reference
// lists every hook in the registry.
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

	idx, err := openIndex(func(rel string) ([]byte, error) {
		return []byte(fetch(t, server+"/wiki/search-index/"+rel)), nil
	})
	if err != nil {
		t.Fatalf("search index: %v", err)
	}
	byPath := map[string]string{}
	for _, p := range idx.pages(t) {
		byPath[p.Path] = p.URL
	}
	llms := string(served(t, res, "/wiki/llms.txt"))
	// llms-full.txt is fetched, not crawled: the Markdown it holds links relative to the repository.
	full := fetch(t, server+"/wiki/llms-full.txt")
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
		if !strings.Contains(full, "\nSource: /wiki/"+twin+"\n") {
			t.Errorf("%s: llms-full.txt does not hold /wiki/%s", repoPath, twin)
		}
		src := mcptest.ReadFile(t, filepath.Join(tree.Root, filepath.FromSlash(repoPath)))
		if got := res.Pages["/wiki/"+twin]; got == nil || string(got.Body) != src {
			t.Errorf("%s: the raw twin /wiki/%s was not served byte for byte", repoPath, twin)
		}
	}

	var reg struct {
		Hooks []struct {
			Name string `json:"name"`
		} `json:"hooks"`
	}
	if err := json.Unmarshal([]byte(mcptest.ReadFile(t, filepath.Join(tree.Root, "framework", "mod_hooks.json"))), &reg); err != nil {
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

	// Previous / next follow the sidebar, from the first page to the last.
	home := served(t, res, "/wiki/")
	nav := home[bytes.Index(home, []byte(`<nav id="sidebar"`)):]
	nav = nav[:bytes.Index(nav, []byte("</nav>"))]
	var order []string
	for _, m := range hrefRe.FindAllSubmatch(nav, -1) {
		order = append(order, string(m[1]))
	}
	for i, url := range order {
		want := [2]string{}
		if i > 0 {
			want[0] = order[i-1]
		}
		if i+1 < len(order) {
			want[1] = order[i+1]
		}
		var got [2]string
		for j, rel := range []string{"prev", "next"} {
			if m := regexp.MustCompile(`rel="` + rel + `" href="([^"]+)"`).FindSubmatch(served(t, res, url)); m != nil {
				got[j] = string(m[1])
			}
		}
		if got != want {
			t.Errorf("%s: previous and next %q, want %q (the sidebar's order)", url, got, want)
		}
	}

	// Nothing a page loads comes from elsewhere: no CDN, remote font or script.
	for url, p := range res.Pages {
		for _, ref := range remoteLoads(p) {
			t.Errorf("%s loads %s from another site", url, ref)
		}
	}
	return res
}

var hrefRe = regexp.MustCompile(`href="([^"]+)"`)

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
// fetch returns the body of url, which must answer 200.
func fetch(t *testing.T, url string) string {
	t.Helper()
	resp, err := http.Get(url)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	b, err := io.ReadAll(resp.Body)
	if err != nil || resp.StatusCode != http.StatusOK {
		t.Fatalf("GET %s: %d %v", url, resp.StatusCode, err)
	}
	return string(b)
}

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
