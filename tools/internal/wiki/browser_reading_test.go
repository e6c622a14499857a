package wiki

import (
	"context"
	"fmt"
	"net/url"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/cdproto/cdp"
	"github.com/chromedp/cdproto/emulation"
	"github.com/chromedp/chromedp"
)

// frames waits for two animation frames: what the page does on scroll
// (the table of contents follows in the next frame) is done after it.
var frames = chromedp.Evaluate[chromedp.Void](`new Promise(r => requestAnimationFrame(() => requestAnimationFrame(() => r())))`, chromedp.EvalAwaitPromise)

// TestBrowserReading checks what a reader meets on a page: the theme
// button's three states, the table of contents following the reading
// position (the last short section marked; on a long contents the marked
// entry kept in view in its box), a page's title not landing under the
// top bar, and code in table cells not broken inside a word when there is
// room. Screenshots of the theme button, a long contents and dark search
// results go to artifacts/wiki/.
func TestBrowserReading(t *testing.T) {
	t.Parallel() // see startBrowser
	opt := repoOptions(t)
	if _, err := os.Stat(filepath.Join(opt.Root, "docs", "getting-started.md")); err != nil {
		opt.Root = fixture(t)
	}
	b, server, artifacts := startBrowserFor(t, opt, 5*time.Minute)
	b.do("desktop", chromedp.EmulateViewport(1366, 768), colorScheme("light"))

	t.Run("theme", func(t *testing.T) { checkTheme(t, b, server, artifacts) })
	t.Run("contents", func(t *testing.T) { checkContents(t, b, server, artifacts) })
	t.Run("title landing", func(t *testing.T) { checkTitleLanding(t, b, server) })
	t.Run("code in tables", func(t *testing.T) { checkCodeInTables(t, b, server) })

	b.do("dark search results",
		chromedp.EmulateViewport(1366, 768), colorScheme("dark"),
		chromedp.Navigate(server+"/wiki/search/?q=config"),
		shown(`#search-results a.search-hit mark`),
		screenshot(t, artifacts, "15-search-dark.png"),
		colorScheme("light"),
	)
}

// themeState is what the reader sees of the theme.
type themeState struct {
	Theme  string `json:"theme"`  // data-theme on <html>; "" follows the system
	Saved  string `json:"saved"`  // localStorage; "" when nothing is saved
	Label  string `json:"label"`  // the button's accessible name
	BG     string `json:"bg"`     // the page's background
	Icon   string `json:"icon"`   // the one icon shown
	Scheme string `json:"scheme"` // the color-scheme in use
}

const readTheme = `(() => {
	const b = document.querySelector(".theme-toggle");
	return {theme: document.documentElement.dataset.theme || "", saved: localStorage.getItem("wiki-theme") || "",
		label: b.getAttribute("aria-label"), bg: getComputedStyle(document.body).backgroundColor,
		icon: [...b.querySelectorAll("svg")].filter(s => getComputedStyle(s).display !== "none").map(s => s.getAttribute("class")).join(" "),
		scheme: getComputedStyle(document.documentElement).colorScheme};
})()`

// checkTheme: system, then light and dark, then system again, which
// follows the system's setting as it changes, without a reload.
func checkTheme(t *testing.T, b browser, server, artifacts string) {
	const dark, light = "rgb(13, 17, 23)", "rgb(255, 255, 255)"
	theme := func(step string) themeState { return get(b, step, chromedp.Evaluate[themeState](readTheme)) }
	want := func(step string, got themeState, choice, bg, icon string) {
		t.Helper()
		attr := choice // data-theme, and what is saved
		if choice == "system" {
			attr = ""
		}
		if got.Theme != attr || got.Saved != attr || got.BG != bg || got.Icon != icon || !strings.Contains(got.Label, choice) {
			t.Errorf("%s: %+v; want saved %q, background %s, icon %s, a label naming %s", step, got, attr, bg, icon, choice)
		}
	}
	shot := func(name string) chromedp.Action[chromedp.Void] {
		return chromedp.Func(func(ctx context.Context, tg *chromedp.Target) error {
			buf, err := chromedp.Screenshot(chromedp.CSS(`.topbar`))(ctx, tg)
			if err != nil {
				return err
			}
			t.Logf("screenshot %s", filepath.Join(artifacts, name))
			return os.WriteFile(filepath.Join(artifacts, name), buf, 0o644)
		})
	}
	click := chromedp.Click(chromedp.CSS(`.theme-toggle`))

	b.do("a page, nothing saved, system light",
		colorScheme("light"),
		chromedp.Navigate(server+"/wiki/getting-started/"),
		shown(`.theme-toggle`),
		chromedp.Evaluate[chromedp.Void](`localStorage.removeItem("wiki-theme")`),
		chromedp.Reload(),
		shown(`.theme-toggle`),
		shot("13-theme-system.png"),
	)
	want("system light", theme("read"), "system", light, "icon-system")
	b.do("click once", click)
	want("first click on a light system", theme("read"), "dark", dark, "icon-moon")
	b.do("reload", chromedp.Reload(), shown(`.theme-toggle`), shot("13-theme-dark.png"))
	want("dark after a reload", theme("read"), "dark", dark, "icon-moon")
	b.do("click twice", click)
	want("second click", theme("read"), "light", light, "icon-sun")
	b.do("system turns dark", colorScheme("dark"), shot("13-theme-light.png"))
	want("light chosen, system dark", theme("read"), "light", light, "icon-sun")
	b.do("system light again, click thrice", colorScheme("light"), click)
	want("third click: the system again", theme("read"), "system", light, "icon-system")
	b.do("system turns dark", colorScheme("dark"))
	want("system, turned dark", theme("read"), "system", dark, "icon-system")
	b.do("click on a dark system", click)
	want("first click on a dark system", theme("read"), "light", light, "icon-sun")
	b.do("click", click)
	want("second click on a dark system", theme("read"), "dark", dark, "icon-moon")
	b.do("click", click, colorScheme("light"))
	want("third click on a dark system, turned light", theme("read"), "system", light, "icon-system")
}

// contentsState is where the reader is and what the table of contents marks.
type contentsState struct {
	Marked  string  `json:"marked"`  // the marked entry's href
	Last    string  `json:"last"`    // the last entry's href
	Entries int     `json:"entries"` // how many entries the contents has
	Above   float64 `json:"above"`   // how far the marked entry sticks out above its box (px; <= 0: not)
	Below   float64 `json:"below"`   // and below it
	Fold    bool    `json:"fold"`    // the box scrolls (the contents is longer than it)
	AtEnd   bool    `json:"atEnd"`   // the page is scrolled to its end
}

const readContents = `(() => {
	const toc = document.querySelector(".toc"), links = toc.querySelectorAll("a[href^='#']");
	const a = toc.querySelector("a[aria-current]"), box = toc.getBoundingClientRect();
	const r = a ? a.getBoundingClientRect() : box;
	return {marked: a ? a.getAttribute("href") : "", last: links[links.length - 1].getAttribute("href"), entries: links.length,
		above: box.top - r.top, below: r.bottom - box.bottom, fold: toc.scrollHeight > toc.clientHeight + 1,
		atEnd: innerHeight + scrollY >= document.documentElement.scrollHeight - 2};
})()`

// checkContents scrolls pages from top to end: the last entry is marked at
// the end, however short its section; on the hook reference, whose contents
// is longer than its box beside the text, the marked entry is inside the box
// at every step.
func checkContents(t *testing.T, b browser, server, artifacts string) {
	for _, p := range []string{"getting-started/", "server/configuration/", "hook-reference/"} {
		if _, err := os.Stat(filepath.Join(b.out, filepath.FromSlash(p), "index.html")); err != nil {
			continue
		}
		b.do("open "+p, chromedp.Navigate(server+"/wiki/"+p), shown(`.toc a`))
		var s contentsState
		steps, marked := 0, map[string]bool{}
		for y := 0; ; y += 300 {
			b.do("scroll", chromedp.Evaluate[chromedp.Void](fmt.Sprintf(`scrollTo(0, %d)`, y)), frames)
			s = get(b, "read the contents", chromedp.Evaluate[contentsState](readContents))
			steps++
			if s.Marked != "" {
				marked[s.Marked] = true
			}
			if s.Above > 1 || s.Below > 1 {
				t.Errorf("%s at %d px: the marked entry %s is out of the contents' box (%.0f px above, %.0f px below)", p, y, s.Marked, s.Above, s.Below)
			}
			if s.AtEnd {
				break
			}
			if steps > 1000 {
				t.Fatalf("%s: no end after %d steps", p, steps)
			}
		}
		if s.Marked != s.Last {
			t.Errorf("%s scrolled to the end: %s marked, want the last entry, %s", p, s.Marked, s.Last)
		}
		t.Logf("%s: %d entries, %d marked in turn over %d steps, the box scrolls: %v", p, s.Entries, len(marked), steps, s.Fold)
		if p == "hook-reference/" {
			if !s.Fold {
				t.Errorf("%s: the contents (%d entries) fits its box at 1366x768: not a long contents to check", p, s.Entries)
			}
			if len(marked) < s.Entries/2 {
				t.Errorf("%s: only %d of %d entries were marked while scrolling through", p, len(marked), s.Entries)
			}
			b.do("a long contents, half way",
				chromedp.Evaluate[chromedp.Void](`scrollTo(0, document.documentElement.scrollHeight / 2)`), frames,
				screenshot(t, artifacts, "14-long-contents.png"))
		}
	}
}

// checkTitleLanding opens a page at its title's anchor, as a link or a
// search result on the title does, and by a search result for its title:
// the h1 is below the top bar, not under it.
func checkTitleLanding(t *testing.T, b browser, server string) {
	const page = "/wiki/getting-started/"
	under := chromedp.Evaluate[float64](`document.querySelector(".topbar").getBoundingClientRect().bottom - document.querySelector("article h1").getBoundingClientRect().top`)
	b.do("open "+page, chromedp.Navigate(server+page), shown(`article h1`))
	id := attrOf(b, chromedp.CSS(`article h1`), "id")
	title := get(b, "read the title", chromedp.Text(chromedp.CSS(`article h1`)))
	if id == "" {
		t.Fatalf("%s: the h1 has no id", page)
	}
	b.do("open at the title", chromedp.Navigate(server+page+"#"+id), shown(`article h1`), frames)
	if scrolled := get(b, "scrolled", chromedp.Evaluate[float64](`scrollY`)); scrolled == 0 {
		t.Errorf("%s#%s: the page did not scroll to its title (nothing to check)", page, id)
	}
	if px := get(b, "measure", under); px > 0 {
		t.Errorf("%s#%s: the h1 is %.0f px under the top bar", page, id, px)
	}

	// A search result for the title: the hit leading to this page, with or
	// without the title's fragment.
	b.do("search for the title",
		chromedp.Navigate(server+"/wiki/search/?q="+url.QueryEscape(title)),
		shown(`#search-results a.search-hit`),
	)
	hit := get(b, "find the title's hit", chromedp.Evaluate[int](fmt.Sprintf(`[...document.querySelectorAll("#search-results a.search-hit")].findIndex(a => {
		const u = new URL(a.href); return u.pathname === %q && (u.hash === "" || u.hash === "#" + %q);
	})`, page, id)))
	if hit < 0 {
		t.Fatalf("searching %q lists no result for %s", title, page)
	}
	href := get(b, "read the hit", chromedp.Evaluate[string](fmt.Sprintf(`document.querySelectorAll("#search-results a.search-hit")[%d].href`, hit)))
	b.do("open it", chromedp.Evaluate[chromedp.Void](fmt.Sprintf(`document.querySelectorAll("#search-results a.search-hit")[%d].click()`, hit)))
	if loc := waitLocation(b, href); loc != href {
		t.Fatalf("the search result %s: landed on %s", href, loc)
	}
	b.do("landed", shown(`article h1`), frames)
	if px := get(b, "measure", under); px > 0 {
		t.Errorf("the search result for %q: the h1 is %.0f px under the top bar", title, px)
	}
}

// midWord lists, for each piece of code in a table cell that takes more
// than one line, the places where a line ends between two letters or
// digits (a break inside a word: BlockPo|s) although the whole word fits
// on a line of its cell: there was room to break elsewhere or not at all.
const midWord = `[...document.querySelectorAll("article td code")].filter(c => c.getClientRects().length > 1).flatMap(c => {
	const bad = [], word = /[A-Za-z0-9_]/, td = c.closest("td"), pad = getComputedStyle(td);
	const room = td.clientWidth - parseFloat(pad.paddingLeft) - parseFloat(pad.paddingRight);
	const walk = document.createTreeWalker(c, NodeFilter.SHOW_TEXT);
	let top = null, prev = "";
	for (let n = walk.nextNode(); n; n = walk.nextNode()) {
		for (let i = 0; i < n.data.length; i++) {
			const r = document.createRange();
			r.setStart(n, i); r.setEnd(n, i + 1);
			const rect = r.getClientRects()[0];
			if (!rect) continue;
			if (top !== null && rect.top > top + 2 && word.test(prev) && word.test(n.data[i])) {
				let s = i, e = i;
				while (s > 0 && word.test(n.data[s - 1])) s--;
				while (e < n.data.length && word.test(n.data[e])) e++;
				if ((e - s) * rect.width <= room) bad.push(n.data.slice(0, i) + "|" + n.data.slice(i) + " (a " + Math.round((e - s) * rect.width) + " px word in a cell of " + Math.round(room) + " px)");
			}
			top = rect.top; prev = n.data[i];
		}
	}
	return bad;
})`

// checkCodeInTables looks at every piece of code in a table cell on the
// pages with tables of flags and names, on a desktop and in print.
func checkCodeInTables(t *testing.T, b browser, server string) {
	print := chromedp.Func(func(ctx context.Context, tg *chromedp.Target) error {
		_, err := cdp.Call(ctx, tg, emulation.SetEmulatedMedia, emulation.SetEmulatedMediaParams{Media: "print"})
		return err
	})
	screen := chromedp.Func(func(ctx context.Context, tg *chromedp.Target) error {
		_, err := cdp.Call(ctx, tg, emulation.SetEmulatedMedia, emulation.SetEmulatedMediaParams{Media: ""})
		return err
	})
	checked := 0
	for _, p := range []string{"server/configuration/", "server/tools/", "hook-reference/", "getting-started/"} {
		if _, err := os.Stat(filepath.Join(b.out, filepath.FromSlash(p), "index.html")); err != nil {
			continue
		}
		b.do("open "+p, chromedp.EmulateViewport(1366, 768), chromedp.Navigate(server+"/wiki/"+p), shown(`article`),
			// Lay out every block (content-visibility skips the far ones).
			chromedp.Evaluate[chromedp.Void](`document.querySelectorAll(".doc > *").forEach(e => e.style.contentVisibility = "visible")`))
		checked += get(b, "count", chromedp.Evaluate[int](`document.querySelectorAll("article td code").length`))
		for _, media := range []string{"screen", "print"} {
			if media == "print" {
				b.do("print", print)
			}
			for _, w := range get(b, "find breaks in words", chromedp.Evaluate[[]string](midWord)) {
				t.Errorf("%s (%s, 1366 px): code in a cell broken inside a word: %s", p, media, w)
			}
			if media == "print" {
				b.do("screen", screen)
			}
		}
	}
	if checked == 0 {
		t.Error("no code in a table cell on any page: nothing checked")
	}
}
