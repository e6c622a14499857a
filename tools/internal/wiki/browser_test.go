package wiki

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/cdproto/cdp"
	"github.com/chromedp/cdproto/emulation"
	"github.com/chromedp/chromedp"
	"github.com/chromedp/chromedp/kb"

	"github.com/docs-mcp/docs-mcp/mcp-server/mcptest"
	"github.com/docs-mcp/docs-mcp/tools/internal/testenv"
)

// chromium finds Debian's chromium (or another Chrome) on PATH.
func chromium() string {
	for _, name := range []string{"chromium", "chromium-browser", "google-chrome", "google-chrome-stable"} {
		if p, err := exec.LookPath(name); err == nil {
			return p
		}
	}
	return ""
}

// browser runs actions for a test, failing it on the first error.
type browser struct {
	t   *testing.T
	ctx context.Context
	out string // the built site
}

func (b browser) do(step string, actions ...chromedp.Action[chromedp.Void]) {
	b.t.Helper()
	if err := chromedp.Do(b.ctx, actions...); err != nil {
		b.t.Fatalf("%s: %v (%s)", step, err, b.state())
	}
}

func get[T any](b browser, step string, a chromedp.Action[T]) T {
	b.t.Helper()
	v, err := chromedp.Run(b.ctx, a)
	if err != nil {
		b.t.Fatalf("%s: %v (%s)", step, err, b.state())
	}
	return v
}

// state says where the page is and what its search said, for a failure's
// message.
func (b browser) state() string {
	ctx, cancel := context.WithTimeout(b.ctx, 5*time.Second)
	defer cancel()
	s, err := chromedp.Run(ctx, chromedp.Evaluate[string](`location.href + ", search status " +
		JSON.stringify([...document.querySelectorAll("#search-status, [data-search-status]")].map(e => e.textContent))`))
	if err != nil {
		return "page state unknown: " + err.Error()
	}
	return "at " + s
}

// shown waits until the first element sel matches is on the page with a box
// of its own, asking the page itself every frame, for a minute at most.
// chromedp.WaitVisible follows the DOM through its events instead, and once
// (CI, 2026-11-27) missed the search page's results appearing and waited
// until the test's deadline. A navigation under way (a click on a link just
// before) destroys the page the question was asked in: it is asked again
// in the next.
func shown(sel string) chromedp.Action[chromedp.Void] {
	poll := chromedp.Poll[chromedp.Void](
		fmt.Sprintf(`(e => e !== null && e.getClientRects().length > 0)(document.querySelector(%q))`, sel),
		chromedp.WithPollingTimeout(time.Minute))
	return chromedp.Func(func(ctx context.Context, tg *chromedp.Target) error {
		ctx, cancel := context.WithTimeout(ctx, time.Minute)
		defer cancel()
		for {
			_, err := poll(ctx, tg)
			if err == nil || ctx.Err() != nil || !navigated(err) {
				return err
			}
			time.Sleep(50 * time.Millisecond)
		}
	})
}

// navigated says whether err is the page's context going away under a
// navigation.
func navigated(err error) bool {
	s := err.Error()
	return strings.Contains(s, "Cannot find context with specified id") ||
		strings.Contains(s, "Execution context was destroyed") ||
		strings.Contains(s, "Inspected target navigated or closed")
}

func attrOf[S chromedp.Selectable](b browser, sel S, name string) string {
	b.t.Helper()
	return get(b, "read "+name, chromedp.AttributeValue(sel, name)).Value
}

// screenshot saves the viewport as a PNG in dir.
func screenshot(t *testing.T, dir, name string) chromedp.Action[chromedp.Void] {
	return chromedp.Func(func(ctx context.Context, tg *chromedp.Target) error {
		buf, err := chromedp.CaptureScreenshot()(ctx, tg)
		if err != nil {
			return err
		}
		t.Logf("screenshot %s", filepath.Join(dir, name))
		return os.WriteFile(filepath.Join(dir, name), buf, 0o644)
	})
}

// fullShot saves the whole page as a PNG in dir.
func fullShot(t *testing.T, dir, name string) chromedp.Action[chromedp.Void] {
	return chromedp.Func(func(ctx context.Context, tg *chromedp.Target) error {
		buf, err := chromedp.FullScreenshot(100)(ctx, tg)
		if err != nil {
			return err
		}
		t.Logf("screenshot %s", filepath.Join(dir, name))
		return os.WriteFile(filepath.Join(dir, name), buf, 0o644)
	})
}

// colorScheme emulates the system's light or dark setting.
func colorScheme(value string) chromedp.Action[chromedp.Void] {
	return chromedp.Func(func(ctx context.Context, tg *chromedp.Target) error {
		_, err := cdp.Call(ctx, tg, emulation.SetEmulatedMedia, emulation.SetEmulatedMediaParams{
			Features: []*emulation.MediaFeature{{Name: "prefers-color-scheme", Value: value}},
		})
		return err
	})
}

// startBrowser builds opt's tree, serves it with the docs-mcp server as
// readers get the wiki, and starts headless Chromium on it. It returns the
// browser, the server's URL and the folder for screenshots
// (artifacts/wiki/ at the repository root). The tests that use it run in
// parallel (each has its own site or reads the shared one, its own server,
// browser and screenshot names): they wait on Chromium most of their time,
// and one after the other they were most of CI's longest package.
func startBrowser(t *testing.T, opt Options) (browser, string, string) {
	return startBrowserFor(t, opt, 2*time.Minute)
}

// startBrowserFor is startBrowser with the time the whole test may take in
// the browser.
func startBrowserFor(t *testing.T, opt Options, limit time.Duration) (browser, string, string) {
	t.Helper()
	needChromium(t) // before the build it would waste
	out, _ := siteFor(t, opt)
	return startBrowserOn(t, opt, out, limit)
}

// needChromium returns Chromium's path, or skips the test (fails it in CI)
// when there is none or in -short mode.
func needChromium(t *testing.T) string {
	t.Helper()
	if testing.Short() {
		t.Skip("skipping the browser test in -short mode")
	}
	exe := chromium()
	if exe == "" {
		missing(t, "no Chromium on PATH (Debian: apt-get install -y chromium)")
	}
	return exe
}

// startBrowserOn is startBrowserFor on a site built already, in out.
func startBrowserOn(t *testing.T, opt Options, out string, limit time.Duration) (browser, string, string) {
	t.Helper()
	exe := needChromium(t)
	server := serveSite(t, out, opt.Root)

	artifacts := filepath.Join(opt.Repo, "artifacts", "wiki")
	if err := os.MkdirAll(artifacts, 0o755); err != nil {
		t.Fatal(err)
	}
	allocCtx, cancelAlloc := chromedp.NewExecAllocator(context.Background(), testenv.Chromium(t, exe,
		chromedp.WindowSize(1280, 860),
	)...)
	t.Cleanup(cancelAlloc)
	ctx, cancel := chromedp.NewContext(allocCtx, chromedp.WithLogf(t.Logf))
	t.Cleanup(cancel)
	ctx, cancelTimeout := context.WithTimeout(ctx, limit)
	t.Cleanup(cancelTimeout)
	return browser{t: t, ctx: ctx, out: out}, server, artifacts
}

// TestBrowser drives the built wiki in headless Chromium the way a reader
// would: home, the sidebar, search, dark mode, a phone. Screenshots go to
// artifacts/wiki/ at the repository root.
func TestBrowser(t *testing.T) {
	t.Parallel() // see startBrowser
	opt := repoOptions(t)
	// The repository's docs when it has them (the screenshots show the real
	// wiki), else the fixture.
	if _, err := os.Stat(filepath.Join(opt.Root, "docs", "index.md")); err != nil {
		opt.Root = fixture(t)
	}
	b, server, artifacts := startBrowser(t, opt)
	out := b.out
	shot := func(name string) chromedp.Action[chromedp.Void] { return screenshot(t, artifacts, name) }

	// Home: / leads to /wiki/.
	b.do("load home",
		chromedp.Navigate(server+"/"),
		shown(`nav#sidebar`),
		shot("1-home-light.png"),
	)
	if loc := get(b, "location", chromedp.Location()); loc != server+"/wiki/" {
		t.Errorf("home: at %s, want %s/wiki/", loc, server)
	}
	if title := get(b, "title", chromedp.Title()); title == "" {
		t.Error("home: empty title")
	}

	// The sidebar: open the first folder, then the first page in it.
	const folderLink = `nav#sidebar .nav-folder > a`
	folder := get(b, "read the first folder", chromedp.Text(chromedp.CSS(folderLink), chromedp.NodeVisible))
	folderHref := attrOf(b, chromedp.CSS(folderLink), "href")
	b.do("open a folder from the sidebar",
		chromedp.Click(chromedp.CSS(folderLink), chromedp.NodeVisible),
		shown(`nav#sidebar .nav-folder:has(> details[open]) > a[aria-current="page"]`),
	)
	loc, title := get(b, "location", chromedp.Location()), get(b, "title", chromedp.Title())
	if !strings.HasSuffix(loc, folderHref) || !strings.HasPrefix(title, folder) {
		t.Errorf("sidebar folder %q (%s): landed on %s titled %q", folder, folderHref, loc, title)
	}
	const inFolder = `nav#sidebar .nav-folder details[open] > .nav-list > li:not(.nav-folder) > a`
	page := get(b, "read a page in the folder", chromedp.Text(chromedp.CSS(inFolder), chromedp.NodeVisible))
	pageHref := attrOf(b, chromedp.CSS(inFolder), "href")
	b.do("open a page from the sidebar",
		chromedp.Click(chromedp.CSS(inFolder), chromedp.NodeVisible),
		shown(`nav#sidebar li:not(.nav-folder) > a[aria-current="page"]`),
		shot("2-page-light.png"),
	)
	loc, title = get(b, "location", chromedp.Location()), get(b, "title", chromedp.Title())
	if !strings.HasSuffix(loc, pageHref) || !strings.HasPrefix(title, page) {
		t.Errorf("sidebar page %q (%s): landed on %s titled %q", page, pageHref, loc, title)
	}

	// A page with code, a table and a table of contents, whole.
	if _, err := os.Stat(filepath.Join(out, "getting-started", "index.html")); err == nil {
		b.do("getting started",
			chromedp.Navigate(server+"/wiki/getting-started/"),
			shown(`article.doc`),
			fullShot(t, artifacts, "2b-getting-started-light.png"),
		)
	}

	// Search for a hook from the registry, in capitals (the search ignores
	// case, like mod_search_docs), then open the first result.
	var reg struct {
		Hooks []struct{ Name string } `json:"hooks"`
	}
	if err := json.Unmarshal([]byte(mcptest.ReadFile(t, filepath.Join(opt.root(), "framework", "mod_hooks.json"))), &reg); err != nil || len(reg.Hooks) == 0 {
		t.Fatalf("registry: %v (%d hooks)", err, len(reg.Hooks))
	}
	query := strings.ToUpper(reg.Hooks[0].Name)
	b.do("search",
		chromedp.SendKeys(chromedp.CSS(`.search-form input`), query+kb.Enter),
		shown(`#search-results a.search-hit`),
		shot("3-search.png"),
	)
	status := get(b, "read the search status", chromedp.Text(chromedp.CSS(`#search-status`)))
	hits := get(b, "count results", chromedp.Evaluate[int](`document.querySelectorAll("#search-results a.search-hit").length`))
	if hits == 0 || !strings.Contains(status, " result") {
		t.Errorf("search %q: %d results, status %q", query, hits, status)
	}
	hitHref := attrOf(b, chromedp.CSS(`#search-results a.search-hit`), "href")
	b.do("open a search result",
		chromedp.Click(chromedp.CSS(`#search-results a.search-hit`), chromedp.NodeVisible),
		chromedp.WaitNotPresent(chromedp.CSS(`#search-results`)),
	)
	if loc := get(b, "location", chromedp.Location()); !strings.HasSuffix(loc, hitHref) {
		t.Errorf("search result %s: landed on %s", hitHref, loc)
	}
	if strings.Contains(hitHref, "#") {
		// The address changes before the page has loaded (it did, with the
		// browser tests in parallel): wait for the element a minute.
		found := chromedp.Poll[chromedp.Void](`document.getElementById(decodeURIComponent(location.hash.slice(1))) !== null`,
			chromedp.WithPollingTimeout(time.Minute))
		if _, err := chromedp.Run(b.ctx, found); err != nil {
			t.Errorf("search result %s: no element for its fragment: %v", hitHref, err)
		}
	}

	// Dark mode: the toggle switches, and the choice survives a reload.
	const dark, light = "rgb(13, 17, 23)", "rgb(255, 255, 255)"
	bodyBG := chromedp.Evaluate[string](`getComputedStyle(document.body).backgroundColor`)
	b.do("toggle dark mode",
		chromedp.Navigate(server+pageHref),
		shown(`.theme-toggle`),
		chromedp.Click(chromedp.CSS(`.theme-toggle`)),
	)
	theme := get(b, "read the theme", chromedp.Evaluate[string](`document.documentElement.dataset.theme || ""`))
	if bg := get(b, "read the background", bodyBG); theme != "dark" || bg != dark {
		t.Errorf("after the toggle: theme %q, background %s; want dark, %s", theme, bg, dark)
	}
	b.do("reload in dark mode",
		chromedp.Reload(),
		shown(`nav#sidebar`),
		shot("4-page-dark.png"),
	)
	if bg := get(b, "read the background", bodyBG); bg != dark {
		t.Errorf("dark mode was not kept across a reload: background %s", bg)
	}
	b.do("hook reference in dark mode",
		chromedp.Navigate(server+"/wiki/hook-reference/"),
		shown(`.hook-reference`),
		shot("5-hooks-dark.png"),
	)

	// Nothing saved: the system setting decides.
	b.do("forget the choice, system dark",
		chromedp.Evaluate[chromedp.Void](`localStorage.removeItem("wiki-theme")`),
		colorScheme("dark"),
		chromedp.Reload(),
		shown(`nav#sidebar`),
	)
	theme = get(b, "read the theme", chromedp.Evaluate[string](`document.documentElement.dataset.theme || ""`))
	if bg := get(b, "read the background", bodyBG); theme != "" || bg != dark {
		t.Errorf("system dark, nothing saved: theme %q, background %s; want none, %s", theme, bg, dark)
	}
	b.do("system light", colorScheme("light"), chromedp.Reload(), shown(`nav#sidebar`))
	if bg := get(b, "read the background", bodyBG); bg != light {
		t.Errorf("system light, nothing saved: background %s, want %s", bg, light)
	}

	// A phone: no sideways scrolling; the menu button opens the sidebar.
	b.do("phone",
		chromedp.EmulateViewport(390, 844, chromedp.EmulateScale(2), chromedp.EmulateMobile),
		chromedp.Navigate(server+pageHref),
		shown(`.menu-toggle`),
		shot("6-phone.png"),
	)
	sideways := chromedp.Evaluate[bool](`document.documentElement.scrollWidth > window.innerWidth`)
	if get(b, "measure", sideways) {
		t.Errorf("phone: %s scrolls sideways", pageHref)
	}
	// Without hover the copy buttons always show: none may cover code.
	covered := chromedp.Evaluate[int](`[...document.querySelectorAll(".code-block")].filter(function (block) {
		var pre = block.querySelector("pre"), button = block.querySelector(".copy");
		return button && button.getBoundingClientRect().bottom > pre.getBoundingClientRect().top + parseFloat(getComputedStyle(pre).paddingTop);
	}).length`)
	if blocks := get(b, "count code blocks", chromedp.Evaluate[int](`document.querySelectorAll(".code-block .copy").length`)); blocks == 0 {
		t.Errorf("phone: %s has no code block with a copy button to check", pageHref)
	} else if n := get(b, "measure copy buttons", covered); n > 0 {
		t.Errorf("phone: %d of %d copy buttons cover the first line of their code", n, blocks)
	}
	b.do("open the phone menu",
		chromedp.Click(chromedp.CSS(`.menu-toggle`)),
		shown(`nav#sidebar`),
		shot("7-phone-menu.png"),
	)
	// Wide content (tables, code) scrolls inside its box, never the page.
	for _, p := range []string{"/wiki/", "/wiki/hook-reference/", "/wiki/getting-started/"} {
		b.do("phone "+p, chromedp.Navigate(server+p), shown(`article`))
		if get(b, "measure", sideways) {
			t.Errorf("phone: %s scrolls sideways", p)
		}
	}
	b.do("search on a phone",
		chromedp.SendKeys(chromedp.CSS(`.search-form input`), "mod_search_docs"+kb.Enter),
		shown(`#search-results a.search-hit`),
		shot("8-phone-search.png"),
	)
	if get(b, "measure", sideways) {
		t.Error("phone: the search results scroll sideways")
	}
}
