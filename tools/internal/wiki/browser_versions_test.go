package wiki

import (
	"fmt"
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/chromedp/chromedp"
)

// TestBrowserVersions drives the version switcher in headless Chromium on
// a wiki built with three release tags of a real repository: on an older
// version's page the banner shows and the switcher is closed; opened, it
// lists every version, and choosing the working tree leads to the same
// page there, or to its home when the page is gone. The page with the
// switcher open is audited with axe in light and dark, and photographed
// (artifacts/wiki/20-versions.png, and $WIKI_VERSIONS_SHOT when set).
func TestBrowserVersions(t *testing.T) {
	t.Parallel() // see startBrowser
	axe := loadAxe(t)
	repo, _ := versionedRepo(t)
	opt := options(t, repo.Dir)
	var err error
	if opt.Versions, err = Releases(repo.Dir, "v*"); err != nil {
		t.Fatal(err)
	}
	b, server, artifacts := startBrowserFor(t, opt, 5*time.Minute)

	open := func(page string) {
		b.t.Helper()
		b.do("open "+page, chromedp.Navigate(server+page), shown(`article`))
	}
	// choose clicks the switcher's entry whose text starts with label.
	choose := func(label string) {
		b.t.Helper()
		i := get(b, "find "+label, chromedp.Evaluate[int](fmt.Sprintf(`[...document.querySelectorAll(".versions-menu li a")].findIndex(a => a.textContent.trim().startsWith(%q))`, label)))
		if i < 0 {
			b.t.Fatalf("the switcher has no entry %q", label)
		}
		b.do("choose "+label, chromedp.Click(chromedp.CSS(fmt.Sprintf(`.versions-menu li:nth-child(%d) a`, i+1))))
	}
	menuShown := chromedp.Evaluate[bool](`(() => { const m = document.querySelector(".versions-menu"); return !!m && m.checkVisibility(); })()`)

	open("/wiki/v1.1.0/server/configuration/")
	if banner := get(b, "read the banner", chromedp.Text(chromedp.CSS(`.version-banner`))); banner == "" {
		t.Error("no banner on an older version's page")
	}
	if get(b, "is the menu shown", menuShown) {
		t.Error("the switcher's menu shows before it is opened")
	}
	if v := get(b, "read the switcher", chromedp.Evaluate[string](`document.querySelector(".versions summary").textContent.trim()`)); v != "Version: v1.1.0" {
		t.Errorf("the switcher says %q, want the version read (Version: v1.1.0)", v)
	}
	b.do("open the switcher", chromedp.Click(chromedp.CSS(`.versions summary`)), shown(`.versions-menu`))
	for _, scheme := range []string{"dark", "light"} {
		b.do(scheme, colorScheme(scheme))
		audit(b, "/wiki/v1.1.0/server/configuration/ with the switcher open, "+scheme, axe)
	}
	b.do("photograph", screenshot(t, artifacts, "20-versions.png"))
	if shot := os.Getenv("WIKI_VERSIONS_SHOT"); shot != "" {
		b.do("photograph", screenshot(t, filepath.Dir(shot), filepath.Base(shot)))
	}
	choose(NewestLabel)
	if loc := waitLocation(b, server+"/wiki/server/configuration/"); loc != server+"/wiki/server/configuration/" {
		t.Errorf("the working tree's entry led to %s, want the same page there", loc)
	}
	if n := get(b, "count banners", chromedp.Evaluate[int](`document.querySelectorAll(".version-banner").length`)); n != 0 {
		t.Errorf("%d banners on the newest version's page", n)
	}

	// A page the newest version no longer has: its home.
	open("/wiki/v1.0.0/legacy/")
	b.do("open the switcher", chromedp.Click(chromedp.CSS(`.versions summary`)), shown(`.versions-menu`))
	choose(NewestLabel)
	if loc := waitLocation(b, server+"/wiki/"); loc != server+"/wiki/" {
		t.Errorf("the working tree's entry on a removed page led to %s, want its home", loc)
	}

	// And back: from the newest page to a release that has it.
	open("/wiki/clients/cursor/")
	b.do("open the switcher", chromedp.Click(chromedp.CSS(`.versions summary`)), shown(`.versions-menu`))
	choose("v1.1.0")
	if loc := waitLocation(b, server+"/wiki/v1.1.0/clients/cursor/"); loc != server+"/wiki/v1.1.0/clients/cursor/" {
		t.Errorf("v1.1.0's entry led to %s, want the same page there", loc)
	}
}
