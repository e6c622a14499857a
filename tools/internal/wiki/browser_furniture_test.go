package wiki

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/cdproto/cdp"
	"github.com/chromedp/cdproto/input"
	"github.com/chromedp/chromedp"
	"github.com/chromedp/chromedp/kb"

	"github.com/docs-mcp/docs-mcp/mcp-server/mcptest"
)

// option is one entry of the search dropdown, as the reader sees it.
type option struct {
	Href  string `json:"href"`
	Rank  string `json:"rank"`  // hook, title, heading, line (data-rank)
	Group string `json:"group"` // the page it is grouped under
	Label string `json:"label"`
	Text  string `json:"text"`
	Code  bool   `json:"code"` // the snippet is a line of code, shown as is
}

// readOptions lists the result options of the open dropdown, in order (the
// "all results" link at the end left out).
const readOptions = `[...document.querySelectorAll("#search-listbox a.search-hit[role=option]")].map(a => ({
	href: a.getAttribute("href"), rank: a.dataset.rank,
	group: a.closest("[role=group]").querySelector(".search-group-title").textContent,
	label: a.querySelector(".hit-label").textContent,
	text: (a.querySelector(".hit-line") || {textContent: ""}).textContent,
	code: !!a.querySelector(".hit-line.hit-code")}))`

// press presses a key as a keyboard does: one keyDown carrying its text,
// which the page may cancel, then keyUp. (chromedp.KeyEvent sends the text
// in a separate char event, which types "/" or submits a form on Enter
// whatever the page's keydown handler did.)
func press(key, code string, vk int64, text string) chromedp.Action[chromedp.Void] {
	return chromedp.Func(func(ctx context.Context, tg *chromedp.Target) error {
		for _, typ := range []input.DispatchKeyEventType{input.DispatchKeyEventTypeKeyDown, input.DispatchKeyEventTypeKeyUp} {
			e := input.DispatchKeyEventParams{Type: typ, Key: key, Code: code, WindowsVirtualKeyCode: vk}
			if typ == input.DispatchKeyEventTypeKeyDown {
				e.Text, e.UnmodifiedText = text, text
			}
			if _, err := cdp.Call(ctx, tg, input.DispatchKeyEvent, e); err != nil {
				return err
			}
		}
		return nil
	})
}

var (
	pressSlash = press("/", "Slash", 191, "/")
	pressEnter = press("Enter", "Enter", 13, "\r")
)

// playerJoined is the hook reference's entry for the hook player.joined.
const playerJoined = "/wiki/hook-reference/#player.joined"

// TestBrowserSearch drives the search box in the top bar as readers use it:
// "/" and Ctrl-K focus it, results come as you type, ranked (a hook's own
// entry first, then as docs/server/ranking.md says), in plain text; the
// arrow keys and Enter open one, Escape closes the list. The search page
// ranks the same.
func TestBrowserSearch(t *testing.T) {
	t.Parallel() // see startBrowser
	opt := repoOptions(t)
	if _, err := os.Stat(filepath.Join(opt.Root, "docs", "index.md")); err != nil {
		opt.Root = fixture(t) // it has player.joined too
	}
	b, server, artifacts := startBrowser(t, opt)

	const box = `.search-form input`
	b.do("load a page and press /",
		chromedp.Navigate(server+"/wiki/getting-started/"),
		shown(`article.doc`),
		pressSlash,
	)
	if !get(b, "focus", chromedp.Evaluate[bool](`document.activeElement === document.querySelector(".search-form input")`)) {
		t.Fatal(`"/" did not focus the search box`)
	}
	if v := get(b, "read the box", chromedp.Value(chromedp.CSS(box))); v != "" {
		t.Fatalf(`"/" typed %q into the search box`, v)
	}
	b.do("type a hook's name", chromedp.KeyEvent("player.joined"))
	waitResults(b, "player.joined")
	b.do("screenshot", screenshot(t, artifacts, "9-search-dropdown.png"))
	opts := get(b, "read the options", chromedp.Evaluate[[]option](readOptions))
	logTop(t, "player.joined", opts)
	if len(opts) == 0 || opts[0].Href != playerJoined || opts[0].Rank != "hook" {
		t.Fatalf("player.joined: the first result is %+v, want the hook reference's entry %s", first(opts), playerJoined)
	}
	checkRanked(t, "player.joined", opts)
	if v := attrOf(b, chromedp.CSS(box), "aria-expanded"); v != "true" {
		t.Errorf("aria-expanded = %q with the list open", v)
	}

	// The arrow keys move through the options, Enter opens the chosen one.
	active := chromedp.Evaluate[string](`(document.getElementById(document.querySelector(".search-form input").getAttribute("aria-activedescendant")) || {}).getAttribute?.("href") || ""`)
	b.do("arrow down twice, up once", chromedp.KeyEvent(kb.ArrowDown), chromedp.KeyEvent(kb.ArrowDown))
	if got := get(b, "read the chosen option", active); len(opts) > 1 && got != opts[1].Href {
		t.Errorf("after two ArrowDown the chosen option is %q, want the second, %q", got, opts[1].Href)
	}
	b.do("arrow up", chromedp.KeyEvent(kb.ArrowUp))
	if got := get(b, "read the chosen option", active); got != playerJoined {
		t.Errorf("after ArrowUp the chosen option is %q, want the first, %q", got, opts[0].Href)
	}
	if n := get(b, "count chosen", chromedp.Evaluate[int](`document.querySelectorAll("#search-listbox [aria-selected=true]").length`)); n != 1 {
		t.Errorf("%d options are aria-selected, want 1", n)
	}
	b.do("Enter", pressEnter)
	if loc := waitLocation(b, server+playerJoined); loc != server+playerJoined {
		t.Fatalf("Enter on the first option landed on %s", loc)
	}
	b.do("the hook reference", shown(`.hook-reference`))

	// Ctrl-K focuses the box from anywhere; Escape closes the list.
	b.do("Ctrl-K", chromedp.KeyEvent("k", chromedp.KeyModifiers(chromedp.ModifierCtrl)))
	if !get(b, "focus", chromedp.Evaluate[bool](`document.activeElement === document.querySelector(".search-form input")`)) {
		t.Fatal("Ctrl-K did not focus the search box")
	}
	for _, q := range []string{"ChatMessage", "refuses the join"} {
		b.do("search "+q,
			chromedp.Evaluate[chromedp.Void](`document.querySelector(".search-form input").select()`),
			chromedp.KeyEvent(q),
		)
		waitResults(b, q)
		opts := get(b, "read the options", chromedp.Evaluate[[]option](readOptions))
		logTop(t, q, opts)
		checkRanked(t, q, opts)
	}
	// Nothing found says so. The words are in the docs, the quoted phrase is not.
	b.do("search for nothing",
		chromedp.Evaluate[chromedp.Void](`document.querySelector(".search-form input").select()`),
		chromedp.KeyEvent(`"cancel the join"`),
	)
	get(b, "wait for no results", chromedp.Poll[bool](`document.querySelector("#search-listbox .search-all").textContent === "No matches for “\"cancel the join\"”"`))
	if n := get(b, "count", chromedp.Evaluate[int](`document.querySelectorAll("#search-listbox a.search-hit").length`)); n != 0 {
		t.Errorf(`"cancel the join": %d results, want none (no doc says it)`, n)
	}
	b.do("Escape", chromedp.KeyEvent(kb.Escape), chromedp.WaitNotVisible(chromedp.CSS(`#search-listbox`)))
	if v := attrOf(b, chromedp.CSS(box), "aria-expanded"); v != "false" {
		t.Errorf("aria-expanded = %q after Escape", v)
	}

	// The search page ranks as the dropdown does.
	b.do("search page",
		chromedp.Navigate(server+"/wiki/search/?q=player.joined"),
		shown(`#search-results a.search-hit`),
	)
	if href := attrOf(b, chromedp.CSS(`#search-results a.search-hit`), "href"); href != playerJoined {
		t.Errorf("search page: first result %s, want the dropdown's, %s", href, playerJoined)
	}
}

func first(o []option) any {
	if len(o) == 0 {
		return "nothing"
	}
	return o[0]
}

func logTop(t *testing.T, q string, opts []option) {
	t.Helper()
	var b strings.Builder
	for i, o := range opts[:min(5, len(opts))] {
		fmt.Fprintf(&b, "\n  %d. [%s] %s › %s: %.70q (%s)", i+1, o.Rank, o.Group, o.Label, o.Text, o.Href)
	}
	t.Logf("dropdown for %q:%s", q, b.String())
}

var markdownLeft = regexp.MustCompile("`|\\]\\(|^\\s*([-*+>#]|\\d+\\.)\\s|\\*\\*|^\\|")

// checkRanked checks the order of the options as docs/server/ranking.md
// and the wiki add to it: pages whose first option is a hook's own entry
// before the others (the pages' order otherwise is the sections' scores,
// which TestSearchRules holds), in each page a hook's entry before the
// title, the title before its headings and lines; and that snippets are
// plain text.
func checkRanked(t *testing.T, q string, opts []option) {
	t.Helper()
	kind := map[string]int{"hook": 0, "title": 1, "heading": 2, "line": 2}
	hooks := true // the pages so far opened with a hook's entry
	for i, o := range opts {
		k, ok := kind[o.Rank]
		if !ok {
			t.Errorf("%s: option %d has rank %q", q, i, o.Rank)
			continue
		}
		if i == 0 || o.Group != opts[i-1].Group {
			if k == 0 && !hooks {
				t.Errorf("%s: page %q opens with a hook's entry after a page that does not", q, o.Group)
			}
			hooks = hooks && k == 0
		} else if k < kind[opts[i-1].Rank] {
			t.Errorf("%s: in %q a %s comes after a %s", q, o.Group, o.Rank, opts[i-1].Rank)
		}
		if (!o.Code && markdownLeft.MatchString(o.Text)) || markdownLeft.MatchString(o.Label) {
			t.Errorf("%s: option %d is not plain text: %q / %q", q, i, o.Label, o.Text)
		}
	}
}

// TestBrowserFurniture checks what sits around a page's text: copy buttons
// on code, heading permalinks, previous / next, the footer (last updated,
// edit link, version) and tables on a phone.
func TestBrowserFurniture(t *testing.T) {
	t.Parallel() // see startBrowser
	opt := repoOptions(t)
	if _, err := os.Stat(filepath.Join(opt.Root, "docs", "getting-started.md")); err != nil {
		opt.Root = fixture(t)
	}
	opt.Version = "v9.8.7-test"
	opt.EditURL = "https://git.example.org/modkit/edit/main"
	b, server, artifacts := startBrowser(t, opt)

	// Copy: the button hands the block's code, as shown, to the clipboard.
	b.do("a page with code",
		chromedp.Navigate(server+"/wiki/getting-started/"),
		shown(`.code-block .copy`),
		chromedp.Evaluate[chromedp.Void](`navigator.clipboard.writeText = text => { window.copied = text; return Promise.resolve(); }`),
		chromedp.Click(chromedp.CSS(`.code-block .copy`)),
		shown(`.code-block .copy[data-copied]`),
	)
	copied := get(b, "read the copy", chromedp.Evaluate[string](`window.copied`))
	src := mcptest.ReadFile(t, filepath.Join(opt.Root, "docs", "getting-started.md"))
	if !strings.Contains(copied, "\n") || !strings.Contains(src, "\n"+copied+"\n```") {
		t.Errorf("copy button: copied %q, not the first code block of docs/getting-started.md", copied)
	}
	if label := attrOf(b, chromedp.CSS(`.code-block .copy`), "aria-label"); label == "" {
		t.Error("the copy button has no label")
	}

	// The table of contents: open beside the text on a wide screen (it comes
	// closed in the HTML and a script opens it); opened at a section, the
	// page marks that section's entry.
	if open := get(b, "the contents", chromedp.Evaluate[string](tocOpen)); open != "true" {
		t.Errorf("desktop: the table of contents is %s, want open beside the text", open)
	}
	second := attrOf(b, chromedp.CSS(`article.doc h2 ~ h2`), "id")
	b.do("open at a section", chromedp.Navigate("about:blank"), chromedp.Navigate(server+"/wiki/getting-started/#"+second), shown(`.toc a[aria-current]`))
	if marked := attrOf(b, chromedp.CSS(`.toc a[aria-current]`), "href"); marked != "#"+second {
		t.Errorf("opened at #%s: the contents marks %q", second, marked)
	}
	b.do("back at the top", chromedp.Navigate(server+"/wiki/getting-started/"), shown(`.code-block .copy`))

	// Permalinks: h2 to h4 link to themselves, shown on hover and focus.
	anchor := `article.doc h2 .anchor`
	id := attrOf(b, chromedp.CSS(`article.doc h2`), "id")
	if href := attrOf(b, chromedp.CSS(anchor), "href"); id == "" || href != "#"+id {
		t.Errorf("the first h2 (id %q) has a permalink to %q", id, href)
	}
	opacity := chromedp.Evaluate[string](`getComputedStyle(document.querySelector("article.doc h2 .anchor")).opacity`)
	if o := get(b, "read the permalink's opacity", opacity); o == "1" {
		t.Error("the permalink shows before hover or focus")
	}
	b.do("focus the permalink", chromedp.Focus(chromedp.CSS(anchor)), chromedp.Sleep(300*time.Millisecond))
	if o := get(b, "read the permalink's opacity", opacity); o != "1" {
		t.Errorf("a focused permalink has opacity %s, want 1", o)
	}

	// The footer: last updated, edit link, version.
	if href := attrOf(b, chromedp.CSS(`.doc-footer a.edit`), "href"); href != "https://git.example.org/modkit/edit/main/docs/getting-started.md" {
		t.Errorf("edit link %q", href)
	}
	if d := attrOf(b, chromedp.CSS(`.doc-footer time`), "datetime"); !regexp.MustCompile(`^\d{4}-\d\d-\d\d$`).MatchString(d) {
		t.Errorf("last updated: datetime %q", d)
	}
	if v := get(b, "read the version", chromedp.Text(chromedp.CSS(`.site-footer .version`))); v != "v9.8.7-test" {
		t.Errorf("footer version %q, want v9.8.7-test", v)
	}

	// Previous / next follow the sidebar: Next leads to the page after
	// this one in the sidebar, and that page's Previous leads back.
	sidebar := get(b, "read the sidebar", chromedp.Evaluate[[]string](`[...document.querySelectorAll("nav#sidebar a")].map(a => a.getAttribute("href"))`))
	here := get(b, "location", chromedp.Location())
	i := slices.IndexFunc(sidebar, func(h string) bool { return strings.HasSuffix(here, h) })
	if i < 0 || i+1 >= len(sidebar) {
		t.Fatalf("%s is not in the sidebar, or last: %q", here, sidebar)
	}
	b.do("scroll to the foot", chromedp.ScrollIntoView(chromedp.CSS(`.pager`)), screenshot(t, artifacts, "10-page-furniture.png"))
	b.do("Next", chromedp.Click(chromedp.CSS(`.pager a[rel=next]`)), shown(`.pager a[rel=prev]`))
	if loc := get(b, "location", chromedp.Location()); !strings.HasSuffix(loc, sidebar[i+1]) {
		t.Errorf("Next from %s led to %s, want %s", here, loc, sidebar[i+1])
	}
	if prev := attrOf(b, chromedp.CSS(`.pager a[rel=prev]`), "href"); prev != sidebar[i] {
		t.Errorf("Previous on %s is %s, want %s", sidebar[i+1], prev, sidebar[i])
	}
	b.do("hover a heading", chromedp.Navigate(server+"/wiki/getting-started/"), shown(`.code-block`),
		chromedp.ScrollIntoView(chromedp.CSS(`.code-block`)), hover(`.code-block`), screenshot(t, artifacts, "11-code-copy.png"))

	// A phone: every table fits; no column is cut off or scrolled away.
	b.do("phone", chromedp.EmulateViewport(390, 844, chromedp.EmulateScale(2), chromedp.EmulateMobile))
	for _, p := range []string{"/wiki/hook-reference/", "/wiki/getting-started/", "/wiki/clients/", "/wiki/server/tools/"} {
		if _, err := os.Stat(filepath.Join(b.out, filepath.FromSlash(strings.TrimPrefix(p, "/wiki/")), "index.html")); err != nil {
			continue
		}
		b.do("phone "+p, chromedp.Navigate(server+p), shown(`article`))
		if open := get(b, "the contents", chromedp.Evaluate[string](tocOpen)); open == "true" {
			t.Errorf("phone %s: the table of contents is open above the text", p)
		}
		cut := get(b, "measure the tables", chromedp.Evaluate[[]string](`[...document.querySelectorAll("article table")].flatMap((table, i) =>
			[...table.querySelectorAll("td, th")].filter(c => c.getClientRects().length).filter(c => {
				const r = c.getBoundingClientRect();
				return r.right > window.innerWidth + 0.5 || r.left < -0.5 || c.scrollWidth > c.clientWidth + 1;
			}).map(c => "table " + i + ": " + c.textContent.slice(0, 40)))`))
		for _, c := range cut {
			t.Errorf("phone %s: cut off: %s", p, c)
		}
	}
	b.do("phone hook table",
		chromedp.Navigate(server+"/wiki/hook-reference/"),
		shown(`article table`),
		chromedp.ScrollIntoView(chromedp.CSS(`article table`)),
		screenshot(t, artifacts, "12-phone-table.png"),
	)
	label := get(b, "read a cell's label", chromedp.Evaluate[string](`getComputedStyle(document.querySelector("article table td[data-label]"), "::before").content`))
	if label != `"Hook"` {
		t.Errorf("phone: a hook table cell is labelled %s, want \"Hook\"", label)
	}
}

// tocOpen reads whether the table of contents is open: "true", "false", or
// "none" on a page without one.
const tocOpen = `(t => t ? String(t.open) : "none")(document.querySelector("details.toc"))`

// waitLocation waits up to 20 seconds for the page at want to have loaded,
// asking afresh each time (a query started on the page being left may never
// see the next one), and returns where the browser is.
func waitLocation(b browser, want string) string {
	b.t.Helper()
	deadline := time.Now().Add(20 * time.Second)
	for {
		loc, err := chromedp.Run(b.ctx, chromedp.Evaluate[string](`document.readyState === "complete" ? location.href : ""`))
		if (err == nil && loc == want) || time.Now().After(deadline) {
			return loc
		}
		time.Sleep(100 * time.Millisecond)
	}
}

// waitResults waits for the dropdown to show results for q: each keystroke
// renders the list anew, and only the last one's is the answer to q.
func waitResults(b browser, q string) {
	b.t.Helper()
	get(b, "wait for the results of "+q, chromedp.Poll[bool](fmt.Sprintf(
		`!document.getElementById("search-listbox").hidden && document.querySelectorAll("#search-listbox a.search-hit").length > 0 && document.querySelector("#search-listbox .search-all").href.endsWith(%q)`,
		"?q="+strings.ReplaceAll(q, " ", "%20"))))
}

// hover moves the mouse over the middle of the first element sel matches.
func hover(sel string) chromedp.Action[chromedp.Void] {
	return chromedp.Func(func(ctx context.Context, tg *chromedp.Target) error {
		box, err := chromedp.Dimensions(chromedp.CSS(sel))(ctx, tg)
		if err != nil {
			return err
		}
		c := box.Content
		_, err = chromedp.MouseEvent(input.DispatchMouseEventTypeMouseMoved, (c[0]+c[2])/2, (c[1]+c[5])/2)(ctx, tg)
		return err
	})
}
