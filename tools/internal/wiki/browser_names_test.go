package wiki

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"

	"github.com/docs-mcp/docs-mcp/mcp-server/mcptest"
)

// longVersion is a release tag as long as real ones get: a phone's top bar
// must keep its search box beside it.
const longVersion = "v2026.12.0-release-candidate-with-a-long-name"

// longNamesRepo is a repository in the shape of an API reference (the
// fixture, and a folder of pages named after dotted type names, two
// folders deep), with the release tag longVersion. It returns the
// repository and the path of its deepest page.
func longNamesRepo(t *testing.T) (*mcptest.GitRepo, string) {
	t.Helper()
	r := mcptest.NewGitRepo(t)
	if err := os.CopyFS(r.Dir, os.DirFS(filepath.Join("testdata", "fixture"))); err != nil {
		t.Fatal(err)
	}
	const ns = "windows.applicationmodel.activation"
	members := []string{"BackgroundActivatedEventArgs", "CachedFileUpdaterActivatedEventArgs", "ContactPanelActivatedEventArgs",
		"DeviceActivatedEventArgs", "FileOpenPickerContinuationEventArgs", "LockScreenComponentActivatedEventArgs",
		"PhoneCallActivatedEventArgs", "ShareTargetActivatedEventArgs", "ToastNotificationActivatedEventArgs"}
	files := map[string]string{
		"docs/" + ns + "/index.md": "# Windows.ApplicationModel.Activation namespace\n\nActivation event arguments.\n",
	}
	deep := ""
	for _, m := range members {
		name := ns + "." + strings.ToLower(m)
		files["docs/"+ns+"/"+name+".md"] = fmt.Sprintf("# Windows.ApplicationModel.Activation.%s class\n\nThe arguments of an activation: Windows.ApplicationModel.Activation.%s.Kind.\n", m, m)
		deep = ns + "/" + name + ".taskinstance/" + name + ".taskinstance.kind.md"
		files["docs/"+deep] = fmt.Sprintf("# Windows.ApplicationModel.Activation.%s.TaskInstance.Kind property\n\nThe kind of Windows.ApplicationModel.Activation.%s.TaskInstance.\n", m, m)
	}
	r.Write(files)
	r.Commit("API reference")
	r.Git("tag", longVersion)
	writeFile(t, r.Dir, "docs/getting-started.md", "# Getting started\n\nAfter the release.\n")
	r.Commit("after the release")
	return r, deep
}

// TestBrowserLongNames: on a tree of long API names, built with a release
// tag of a long name, no title or path overflows its box (cut, scrolled
// or clipped) in the search dropdown, the search page, the sidebar, the
// breadcrumbs and the page's title, on a desktop and a phone; every path
// in the results is whole; a phone's search box stays at least 120 px
// wide beside the long version name. Every state is audited with axe in
// light and dark, the older version's banner included, and the phone's
// dropdown photographed (artifacts/wiki/21-long-names-phone.png, and in
// $WIKI_SHOTS when set).
func TestBrowserLongNames(t *testing.T) {
	t.Parallel() // see startBrowser
	axe := loadAxe(t)
	repo, deep := longNamesRepo(t)
	opt := options(t, repo.Dir)
	var err error
	if opt.Versions, err = Releases(repo.Dir, "v*"); err != nil {
		t.Fatal(err)
	}
	b, server, artifacts := startBrowserFor(t, opt, 8*time.Minute)
	page := "/wiki/" + strings.TrimSuffix(deep, ".md") + "/"
	older := "/wiki/" + longVersion + "/" + strings.TrimSuffix(deep, ".md") + "/"
	const query = "windows.applicationmodel.activation"

	for _, width := range []int64{1366, 390} {
		var view chromedp.Action[chromedp.Void] = chromedp.EmulateViewport(width, 900)
		if width < 500 {
			view = chromedp.EmulateViewport(width, 844, chromedp.EmulateScale(2), chromedp.EmulateMobile)
		}
		for _, scheme := range []string{"light", "dark"} {
			at := func(what string) string { return fmt.Sprintf("%s %s %dpx", what, scheme, width) }
			for _, p := range []string{page, older} {
				b.do(at(p), view, colorScheme(scheme), chromedp.Navigate(server+p), shown(`article`))
				if p == older {
					// The page's script fills the switcher, then adds the banner.
					b.do(at(p)+": the banner", shown(`.version-banner`))
				}
				if width < 500 {
					w := get(b, "measure the search box", chromedp.Evaluate[float64](`document.querySelector(".search-form input").getBoundingClientRect().width`))
					if w < 120 {
						t.Errorf("%s: the search box is %.0f px wide, want 120 or more", at(p), w)
					}
					t.Logf("%s: the search box is %.0f px wide", at(p), w)
					b.do(at(p)+": open the menu", chromedp.Click(chromedp.CSS(`.menu-toggle`)), shown(`nav#sidebar`))
				}
				overflows(b, at(p), `nav#sidebar .nav-list a, .breadcrumbs a, .doc h1, .pager-title, .doc-footer code`)
				audit(b, at(p), axe)
			}
			b.do(at("dropdown"), chromedp.Navigate(server+page), shown(`article`),
				chromedp.Click(chromedp.CSS(`.search-form input`)), chromedp.KeyEvent(query))
			waitResults(b, query)
			overflows(b, at("dropdown"), `#search-listbox :is(.search-group-title, .hit-path, .hit-label, .hit-line)`)
			wholePaths(b, at("dropdown"), "#search-listbox")
			audit(b, at("dropdown"), axe)
			if width < 500 && scheme == "light" {
				b.do("photograph", screenshot(t, artifacts, "21-long-names-phone.png"))
				if dir := os.Getenv("WIKI_SHOTS"); dir != "" {
					b.do("photograph", screenshot(t, dir, "wiki-long-names-phone.png"))
				}
			}
			b.do(at("search page"), chromedp.Navigate(server+"/wiki/search/?q="+query), shown(`#search-results a.search-hit`))
			overflows(b, at("search page"), `#search-results :is(.search-group-title, .hit-path, .hit-label, .hit-line)`)
			wholePaths(b, at("search page"), "#search-results")
			audit(b, at("search page"), axe)
		}
	}
}

// overflows fails the test for each element sel matches that is shown and
// does not fit its box: text cut inside it, or a line of it past the edge
// of a box around it that clips or scrolls (the sidebar, the dropdown),
// or past the window; and when the page scrolls sideways.
func overflows(b browser, name, sel string) {
	b.t.Helper()
	js := fmt.Sprintf(`(() => {
		// The window's width as laid out: a phone's browser widens its
		// window (innerWidth) to what sticks out, and fixed boxes with it.
		const view = document.documentElement.clientWidth;
		const bad = [], els = [...document.querySelectorAll(%q)].filter(e => e.getClientRects().length > 0);
		if (document.documentElement.scrollWidth > view + 1) bad.push("the page scrolls sideways: " + document.documentElement.scrollWidth + " px in " + view);
		for (const e of els) {
			const text = e.textContent.trim().slice(0, 60);
			if (getComputedStyle(e).display !== "inline" && e.scrollWidth > e.clientWidth + 1)
				bad.push(text + ": " + e.scrollWidth + " px of text in " + e.clientWidth);
			const clips = [];
			for (let a = e.parentElement; a; a = a.parentElement)
				if (getComputedStyle(a).overflowX !== "visible") clips.push(a);
			for (const r of e.getClientRects()) {
				if (r.width === 0) continue;
				if (r.right > view + 1 || r.left < -1) bad.push(text + ": past the window (" + Math.round(r.left) + "-" + Math.round(r.right) + " of " + view + ")");
				for (const a of clips) {
					const box = a.getBoundingClientRect(), inner = box.left + a.clientLeft;
					if (r.right > inner + a.clientWidth + 1 || r.left < inner - 1)
						bad.push(text + ": past its box " + (a.id || a.className) + " (" + Math.round(r.left) + "-" + Math.round(r.right) + " in " + Math.round(inner) + "-" + Math.round(inner + a.clientWidth) + ")");
				}
			}
		}
		return {count: els.length, bad: bad};
	})()`, sel)
	type result struct {
		Count int      `json:"count"`
		Bad   []string `json:"bad"`
	}
	r := get(b, name+": measure names", chromedp.Evaluate[result](js))
	if r.Count == 0 {
		b.t.Errorf("%s: nothing matches %s to measure", name, sel)
	}
	for _, s := range r.Bad {
		b.t.Errorf("%s: %s", name, s)
	}
}

// wholePaths fails the test unless every result's path in box is a doc's
// whole path, docs/ to .md, and the box does not scroll sideways.
func wholePaths(b browser, name, box string) {
	b.t.Helper()
	paths := get(b, name+": read the paths", chromedp.Evaluate[[]string](fmt.Sprintf(`[...document.querySelectorAll(%q)].map(e => e.textContent)`, box+" .hit-path")))
	if len(paths) == 0 {
		b.t.Errorf("%s: no result paths", name)
	}
	for _, p := range paths {
		if !strings.HasPrefix(p, "docs/") || !strings.HasSuffix(p, ".md") {
			b.t.Errorf("%s: a result's path reads %q, not a doc's whole path", name, p)
		}
	}
	if get(b, name+": measure the box", chromedp.Evaluate[bool](fmt.Sprintf(`(e => e.scrollWidth > e.clientWidth + 1)(document.querySelector(%q))`, box))) {
		b.t.Errorf("%s: %s scrolls sideways", name, box)
	}
}
