package wiki

import (
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/docs-mcp/docs-mcp/mcp-server/mcptest"
)

// TestBuildLargeSidebar: on a site past navFullPages the sidebar of a deep
// page shows the top level and the folders on its path open, with their
// entries and its own link marked, and the other folders as links alone:
// no disclosure that would open on nothing, no marker left in the page.
func TestBuildLargeSidebar(t *testing.T) {
	root := t.TempDir()
	files := map[string]string{"docs/index.md": "# Home", "framework/mod_hooks.json": "{}"}
	// navFullPages docs spread over folders a/x0 … e/x9, and a deep page.
	for i := range navFullPages {
		files[fmt.Sprintf("docs/%c/x%d/p%d.md", 'a'+i%5, i%10, i)] = fmt.Sprintf("# Page %d & more\n\nText.\n", i)
	}
	files["docs/a/x0/deep/here.md"] = "# Here\n\nThe deep page.\n"
	mcptest.WriteTree(t, root, files)
	opt := options(t, root)
	opt.BrokenLinks = BrokenLinksWarn
	out, _ := build(t, opt)
	b, err := os.ReadFile(filepath.Join(out, "a", "x0", "deep", "here", "index.html"))
	if err != nil {
		t.Fatal(err)
	}
	page := string(b)
	nav := page[strings.Index(page, `<nav id="sidebar"`):]
	nav = nav[:strings.Index(nav, "</nav>")]

	for _, want := range []string{
		`<a href="/wiki/a/">A</a><details data-nav="`,            // open: on the path
		`<a href="/wiki/a/x0/">X0</a><details data-nav="`,        // open
		`<a href="/wiki/a/x0/deep/">Deep</a><details data-nav="`, // open: the page's folder
		`<a href="/wiki/a/x0/deep/here/" aria-current="page">Here</a>`,
		`<li class="nav-folder"><a href="/wiki/b/">B</a></li>`,     // closed: a link alone
		`<li class="nav-folder"><a href="/wiki/a/x5/">X5</a></li>`, // closed, inside an open one
		`<a href="/wiki/a/x0/p0/">Page 0 &amp; more</a>`,
	} {
		if !strings.Contains(nav, want) {
			t.Errorf("the deep page's sidebar lacks %s:\n%s", want, nav)
		}
	}
	if n := strings.Count(nav, "<details"); n != 3 || strings.Count(nav, " open>") != 3 {
		t.Errorf("%d disclosures in the sidebar, want the 3 open ones of the page's path:\n%s", n, nav)
	}
	if m := regexp.MustCompile(`<!--|data-nav-sub| hidden`).FindString(nav); m != "" {
		t.Errorf("the sidebar holds %q:\n%s", m, nav)
	}
}

// TestBuildLargeFolder: a folder of 600 docs is listed 250 entries a page,
// at big/, big/page/2/ and big/page/3/, each linking the others, and
// every doc is listed once over the three.
func TestBuildLargeFolder(t *testing.T) {
	root := t.TempDir()
	files := map[string]string{"docs/index.md": "# Home"}
	for i := range 600 {
		files[fmt.Sprintf("docs/big/p%03d.md", i)] = fmt.Sprintf("# Page %03d\n\nText.\n", i)
	}
	mcptest.WriteTree(t, root, files)
	out, _ := build(t, options(t, root))
	listed := map[string]int{}
	entry := regexp.MustCompile(`<li><a href="/wiki/big/(p\d+)/">`)
	for n, dir := range []string{"big", "big/page/2", "big/page/3"} {
		page := mcptest.ReadFile(t, filepath.Join(out, filepath.FromSlash(dir), "index.html"))
		listing := page[strings.Index(page, `<section class="listing"`):]
		listing = listing[:strings.Index(listing, "</section>")]
		got := entry.FindAllStringSubmatch(listing, -1)
		if want := []int{250, 250, 100}[n]; len(got) != want {
			t.Errorf("%s/ lists %d docs, want %d", dir, len(got), want)
		}
		for _, m := range got {
			listed[m[1]]++
		}
		for _, link := range []string{`href="/wiki/big/"`, `href="/wiki/big/page/2/"`, `href="/wiki/big/page/3/"`} {
			if !strings.Contains(listing, link) {
				t.Errorf("%s/ does not link the folder's other pages: no %s", dir, link)
			}
		}
	}
	if len(listed) != 600 {
		t.Errorf("%d docs listed over the folder's pages, want 600", len(listed))
	}
	for p, n := range listed {
		if n != 1 {
			t.Errorf("%s listed %d times", p, n)
		}
	}
}
