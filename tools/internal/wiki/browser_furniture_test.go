package wiki

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/chromedp/cdproto/cdp"
	"github.com/chromedp/cdproto/input"
	"github.com/chromedp/chromedp"
	"github.com/chromedp/chromedp/kb"
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

// pressSlash presses "/" as a keyboard does: one keyDown carrying the text,
// which the page may cancel (chromedp.KeyEvent sends the text in a separate
// char event, typed whatever the page's keydown handler did).
var pressSlash = chromedp.Func(func(ctx context.Context, tg *chromedp.Target) error {
	for _, typ := range []input.DispatchKeyEventType{input.DispatchKeyEventTypeKeyDown, input.DispatchKeyEventTypeKeyUp} {
		e := input.DispatchKeyEventParams{Type: typ, Key: "/", Code: "Slash", WindowsVirtualKeyCode: 191}
		if typ == input.DispatchKeyEventTypeKeyDown {
			e.Text, e.UnmodifiedText = "/", "/"
		}
		if _, err := cdp.Call(ctx, tg, input.DispatchKeyEvent, e); err != nil {
			return err
		}
	}
	return nil
})

// playerJoined is the hook reference's entry for the hook player.joined.
const playerJoined = "/wiki/hook-reference/#player.joined"

// TestBrowserSearch drives the search box in the top bar as readers use it:
// "/" and Ctrl-K focus it, results come as you type, ranked (a hook's own
// entry, page titles, headings, then lines), in plain text; the arrow keys
// and Enter open one, Escape closes the list. The search page ranks the same.
func TestBrowserSearch(t *testing.T) {
	opt := repoOptions(t)
	if _, err := os.Stat(filepath.Join(opt.Root, "docs", "index.md")); err != nil {
		opt.Root = fixture(t) // it has player.joined too
	}
	b, server, artifacts := startBrowser(t, opt)

	const box = `.search-form input`
	const open = `#search-listbox:not([hidden]) a.search-hit`
	b.do("load a page and press /",
		chromedp.Navigate(server+"/wiki/getting-started/"),
		chromedp.WaitVisible(chromedp.CSS(`article.doc`)),
		pressSlash,
	)
	if !get(b, "focus", chromedp.Evaluate[bool](`document.activeElement === document.querySelector(".search-form input")`)) {
		t.Fatal(`"/" did not focus the search box`)
	}
	if v := get(b, "read the box", chromedp.Value(chromedp.CSS(box))); v != "" {
		t.Fatalf(`"/" typed %q into the search box`, v)
	}
	b.do("type a hook's name", chromedp.KeyEvent("player.joined"), chromedp.WaitVisible(chromedp.CSS(open)))
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
	b.do("Enter", chromedp.KeyEvent(kb.Enter), chromedp.WaitVisible(chromedp.CSS(`.hook-reference`)))
	if loc := get(b, "location", chromedp.Location()); loc != server+playerJoined {
		t.Errorf("Enter on the first option landed on %s", loc)
	}

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
		get(b, "wait for the results of "+q, chromedp.Poll[bool](fmt.Sprintf(
			`document.querySelectorAll("#search-listbox a.search-hit").length > 0 && document.querySelector("#search-listbox .search-all").href.endsWith(%q)`,
			"?q="+strings.ReplaceAll(q, " ", "%20"))))
		opts := get(b, "read the options", chromedp.Evaluate[[]option](readOptions))
		logTop(t, q, opts)
		checkRanked(t, q, opts)
	}
	// Nothing found says so.
	b.do("search for nothing",
		chromedp.Evaluate[chromedp.Void](`document.querySelector(".search-form input").select()`),
		chromedp.KeyEvent("cancel the join"),
	)
	get(b, "wait for no results", chromedp.Poll[bool](`document.querySelector("#search-listbox .search-all").textContent === "No matches for “cancel the join”"`))
	if n := get(b, "count", chromedp.Evaluate[int](`document.querySelectorAll("#search-listbox a.search-hit").length`)); n != 0 {
		t.Errorf("cancel the join: %d results, want none (no doc says it)", n)
	}
	b.do("Escape", chromedp.KeyEvent(kb.Escape), chromedp.WaitNotVisible(chromedp.CSS(`#search-listbox`)))
	if v := attrOf(b, chromedp.CSS(box), "aria-expanded"); v != "false" {
		t.Errorf("aria-expanded = %q after Escape", v)
	}

	// The search page ranks as the dropdown does.
	b.do("search page",
		chromedp.Navigate(server+"/wiki/search/?q=player.joined"),
		chromedp.WaitVisible(chromedp.CSS(`#search-results a.search-hit`)),
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

// checkRanked checks the order of the options (pages by their best rank,
// each page's options by rank) and that snippets are plain text.
func checkRanked(t *testing.T, q string, opts []option) {
	t.Helper()
	order := map[string]int{"hook": 0, "title": 1, "heading": 2, "line": 3}
	best := -1
	for i, o := range opts {
		r, ok := order[o.Rank]
		if !ok {
			t.Errorf("%s: option %d has rank %q", q, i, o.Rank)
			continue
		}
		if i == 0 || o.Group != opts[i-1].Group {
			if r < best {
				t.Errorf("%s: page %q (best rank %s) comes after a page whose best is worse", q, o.Group, o.Rank)
			}
			best = r
		} else if r < order[opts[i-1].Rank] {
			t.Errorf("%s: in %q a %s comes after a %s", q, o.Group, o.Rank, opts[i-1].Rank)
		}
		if (!o.Code && markdownLeft.MatchString(o.Text)) || markdownLeft.MatchString(o.Label) {
			t.Errorf("%s: option %d is not plain text: %q / %q", q, i, o.Label, o.Text)
		}
	}
}
