package wiki

import (
	"context"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"

	"github.com/mark3labs/mcp-go/client"
	"github.com/mark3labs/mcp-go/mcp"
	"golang.org/x/net/html"

	"github.com/docs-mcp/docs-mcp/mcp-server/mcptest"
	"github.com/docs-mcp/docs-mcp/mcp-server/wikipage"
)

// trickyHeadings is a doc added to the repository's docs for the anchor
// test: repeats (a heading that reads like a repeat's number, "HTTP 1"
// after two "HTTP", "Again 1" before two more "Again"), punctuation, inline code and links, non-ASCII letters,
// setext headings, closing hashes, and lines in fenced code that are not
// headings.
const trickyHeadings = "---\ntitle: Anchors\n---\n# Anchors\n\n## HTTP\n\n## HTTP\n\n## HTTP 1\n\n## Again\n\n## Again 1\n\n## Again\n\n## Again\n\n## Again-1\n\n### `mod_read_doc`: one *section*\n\n" +
	"## A [link](https://example.com/a_b?c=d) here\n\n## Straße, Ärger & ½ 2026!\n\n## What's new?  (twice)\n\n## Closing hashes ##\n\n" +
	"Setext two\n----------\n\nSetext one\n==========\n\n```sh\n# not a heading\n## nor this\n```\n\n~~~\n## fenced\n~~~\n\n## -- dashes --\n\n## a --- b\n\n## `--watch`\n\n## _emphasis_ and snake_case **bold**\n\n" +
	"## <kbd>Ctrl</kbd> &amp; &eacute;t&eacute;\n\n## ![logo](https://example.com/x.png) `a -- b` \\_x\\_\n\n## !!!\n\n## ???\n"

// TestAnchorsMatchTheWiki builds the wiki from this repository's docs (and
// one doc of tricky headings), serves it with the docs-mcp server, and
// checks the server's anchors against the ids Hugo gave the headings of
// every page: the same anchors in the same order (a doc's heading list
// comes from mod_read_doc's error for an unknown section), and mod_read_doc
// reads each one.
func TestAnchorsMatchTheWiki(t *testing.T) {
	t.Parallel() // waits on Hugo and polls: see TestMain
	opt := repoOptions(t)
	root := t.TempDir()
	for _, p := range []string{"docs", "framework/mod_hooks.json", "CONTRIBUTING.md"} {
		copyPath(t, filepath.Join(opt.Root, p), filepath.Join(root, p))
	}
	mcptest.WriteFile(t, filepath.Join(root, "docs", "anchors.md"), trickyHeadings)
	opt.Root = root
	out, _ := build(t, opt)
	tree, err := ScanTree(root)
	if err != nil {
		t.Fatal(err)
	}
	server := serveSite(t, out, root)

	ctx := context.Background()
	c, err := client.NewStreamableHttpClient(server + "/mcp")
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	if err := c.Start(ctx); err != nil {
		t.Fatal(err)
	}
	mcptest.Initialize(t, c, mcp.LATEST_PROTOCOL_VERSION, "anchors-test")

	listed := regexp.MustCompile(`(?m)^\s*#(\S+)  #{1,6} `)
	headings := 0
	for _, doc := range tree.Docs {
		page := filepath.Join(out, filepath.FromSlash(strings.TrimPrefix(wikipage.Of(doc), "/")), "index.html")
		wiki := headingIDs(t, page)

		res := mcptest.Call(t, c, "mod_read_doc", map[string]any{"path": doc, "section": "no such section: list them"})
		var server []string
		if res.IsError {
			for _, m := range listed.FindAllStringSubmatch(mcptest.Text(res), -1) {
				server = append(server, m[1])
			}
		}
		if !slices.Equal(wiki, server) {
			t.Errorf("%s: anchors differ\n wiki:   %q\n server: %q", doc, wiki, server)
			continue
		}
		for _, anchor := range server {
			got, _ := mcptest.CallOK[struct {
				Section struct{ Anchor string } `json:"section"`
			}](t, c, "mod_read_doc", map[string]any{"path": doc, "section": anchor})
			if got.Section.Anchor != anchor {
				t.Errorf("%s: section %q read as %q", doc, anchor, got.Section.Anchor)
			}
			headings++
		}
	}

	// Search hits lead to their sections in the wiki: the server gives
	// their URLs as the client reached it, and each names a heading of
	// the page it points to.
	found := mcptest.SearchHits(t, mcptest.Call(t, c, "mod_search_docs", map[string]any{"query": "e", "path_prefix": "anchors.md", "limit": 200}))
	for _, m := range found {
		page, anchor, _ := strings.Cut(m.URL, "#")
		rel, ok := strings.CutPrefix(page, server+"/wiki/")
		if !ok || anchor != m.Anchor {
			t.Errorf("hit in %s#%s: url %q is not the wiki's page of its section", m.Path, m.Anchor, m.URL)
			continue
		}
		if anchor != "" && !slices.Contains(headingIDs(t, filepath.Join(out, filepath.FromSlash(rel), "index.html")), anchor) {
			t.Errorf("hit url %s: the page has no heading %q", m.URL, anchor)
		}
	}
	if len(found) < 10 {
		t.Errorf("%d hits in anchors.md, want one per heading at least", len(found))
	}

	if want := []string{"anchors", "http", "http-1", "http-1-1", "again", "again-1", "again-2", "again-3", "again-1-1", "mod_read_doc-one-section"}; !slices.Equal(headingIDs(t, filepath.Join(out, "anchors", "index.html"))[:10], want) {
		t.Errorf("the tricky doc's first anchors are not %q: the test would not see a repeat", want)
	}
	t.Logf("%d headings of %d docs: the server's anchors are the wiki's", headings, len(tree.Docs))
}

// headingIDs returns the ids of the headings of a page's content, in
// order: every h1-h6 with an id in the article, but for the folder
// listing's own heading.
func headingIDs(t *testing.T, page string) []string {
	t.Helper()
	f, err := os.Open(page)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	doc, err := html.Parse(f)
	if err != nil {
		t.Fatal(err)
	}
	var ids []string
	var walk func(n *html.Node, inArticle bool)
	walk = func(n *html.Node, inArticle bool) {
		if n.Type == html.ElementNode {
			switch {
			case n.Data == "article":
				inArticle = true
			case n.Data == "section" && (attr(n, "class") == "listing" || attr(n, "class") == "connect"):
				return // the template's, not the doc's: a folder's listing, the home page's "Connect an assistant"
			case inArticle && len(n.Data) == 2 && n.Data[0] == 'h' && n.Data[1] >= '1' && n.Data[1] <= '6' && attr(n, "id") != "":
				ids = append(ids, attr(n, "id"))
			}
		}
		for c := n.FirstChild; c != nil; c = c.NextSibling {
			walk(c, inArticle)
		}
	}
	walk(doc, false)
	return ids
}

// copyPath copies a file or a folder.
func copyPath(t *testing.T, from, to string) {
	t.Helper()
	fi, err := os.Stat(from)
	if err != nil {
		t.Fatal(err)
	}
	if fi.IsDir() {
		if err := os.CopyFS(to, os.DirFS(from)); err != nil {
			t.Fatal(err)
		}
		return
	}
	b, err := os.ReadFile(from)
	if err != nil {
		t.Fatal(err)
	}
	mcptest.WriteFile(t, to, string(b))
}
