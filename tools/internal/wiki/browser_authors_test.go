package wiki

import (
	"os"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"
)

// authorsDoc is a page as a tree written for MkDocs Material or a Hugo
// site has them: MkDocs tabs holding fenced and indented code, Hugo-native
// tabs, admonitions (a box, a folded one, a kind GitHub has not),
// :emoji: shortcodes, an indented code block and a mermaid diagram.
const authorsDoc = `# What authors write

Install it:

=== "Linux"

    ` + "```sh" + `
    sudo apt-get install modkit
    ` + "```" + `

=== "Windows"

    Run the installer, then:

        modkit init

!!! warning "Back up your saves"
    The migration rewrites every file in place.

??? tip "Faster builds"
    Set ` + "`MODKIT_CACHE`" + ` to a fast disk.

!!! danger
    Never run it as root. :warning:

Released :tada: with thanks.

An indented block:

    go run ./cmd/demo

How a hook is called:

` + "```mermaid" + `
graph LR
  Mod -->|registers| Bus
  Bus -->|calls| Hook
` + "```" + `

{{< tabs >}}
{{< tab "Go" >}}
A *Go* tab, written as a Hugo site writes one.
{{< /tab >}}
{{< tab "Lua" >}}
A Lua tab.
{{< /tab >}}
{{< /tabs >}}
`

// TestBrowserAuthorSyntax drives a page of authorsDoc in headless
// Chromium: the tabs show the first panel, and a click on another label
// shows its panel instead; the admonitions are note boxes titled as
// written, the ??? one folded; emoji show as emoji; both code blocks have
// copy buttons; the diagram is drawn, and mermaid is loaded on that page
// only. The page is audited with axe in light and dark, each tab shown,
// and photographed (artifacts/wiki/22-*.png; in $WIKI_SHOTS when set).
func TestBrowserAuthorSyntax(t *testing.T) {
	t.Parallel() // see startBrowser
	axe := loadAxe(t)
	root := fixture(t)
	writeFile(t, root, "docs/authors.md", authorsDoc)
	b, server, artifacts := startBrowserFor(t, options(t, root), 4*time.Minute)
	shot := func(sel, name string) {
		t.Helper()
		b.do("photograph "+name, chromedp.ScrollIntoView(chromedp.CSS(sel)), screenshot(t, artifacts, "22-"+name))
		if dir := os.Getenv("WIKI_SHOTS"); dir != "" {
			b.do("photograph "+name, screenshot(t, dir, "wiki-"+name))
		}
	}

	b.do("home", chromedp.EmulateViewport(1280, 860), chromedp.Navigate(server+"/wiki/"), shown(`article`))
	if n := get(b, "count scripts", chromedp.Evaluate[int](`document.querySelectorAll("script[src*=mermaid]").length`)); n != 0 {
		t.Errorf("the home page, which has no diagram, loads mermaid (%d scripts)", n)
	}

	b.do("open the page", chromedp.Navigate(server+"/wiki/authors/"), shown(`article`), shown(`pre.mermaid svg`))
	text := get(b, "read the page", chromedp.Text(chromedp.CSS(`article.doc`)))
	for _, raw := range []string{`=== "`, "!!!", "???", ":tada:", ":warning:", "{{<", "graph LR"} {
		if strings.Contains(text, raw) {
			t.Errorf("the page shows %q as written", raw)
		}
	}
	for _, want := range []string{"🎉", "⚠", "Back up your saves", "Faster builds", "Danger"} {
		if !strings.Contains(text, want) {
			t.Errorf("the page does not show %q", want)
		}
	}
	panels := func() []string {
		return get(b, "read the shown panels", chromedp.Evaluate[[]string](`[...document.querySelectorAll(".tabbed-panel")].filter(p => p.checkVisibility()).map(p => p.textContent.trim())`))
	}
	if got := panels(); len(got) != 2 || !strings.HasPrefix(got[0], "sudo apt-get") || !strings.HasPrefix(got[1], "A Go tab") {
		t.Errorf("before a click the tabs show %q, want the first of each set", got)
	}
	boxes := get(b, "read the note boxes", chromedp.Evaluate[[]string](`[...document.querySelectorAll(".doc .callout")].map(c => c.tagName + " " + c.className + " " + c.querySelector(".callout-title").textContent + (c.open ? " open" : ""))`))
	want := []string{"DIV callout callout-warning Back up your saves", "DETAILS callout callout-tip Faster builds", "DIV callout callout-caution Danger"}
	if strings.Join(boxes, "\n") != strings.Join(want, "\n") {
		t.Errorf("note boxes:\n%s\nwant:\n%s", strings.Join(boxes, "\n"), strings.Join(want, "\n"))
	}
	if n := get(b, "count code without a copy button", chromedp.Evaluate[int](`[...document.querySelectorAll(".doc pre:not(.mermaid)")].filter(p => !p.parentElement.querySelector(":scope > button.copy")).length`)); n != 0 {
		t.Errorf("%d code blocks have no copy button", n)
	}
	if n := get(b, "count copy buttons of indented code", chromedp.Evaluate[int](`document.querySelectorAll(".code-block:not(.highlight) > button.copy").length`)); n != 2 {
		t.Errorf("%d indented code blocks have a copy button, want 2", n)
	}
	for _, scheme := range []string{"light", "dark"} {
		b.do(scheme, colorScheme(scheme), chromedp.Reload(), shown(`pre.mermaid svg`))
		audit(b, "/wiki/authors/ first tabs, "+scheme, axe)
	}
	b.do("light", colorScheme("light"), chromedp.Reload(), shown(`pre.mermaid svg`))
	shot(".tabbed-set", "tabs.png")
	b.do("choose Windows", chromedp.Click(chromedp.CSS(`.tabbed-label[for$="-1"]`)))
	if got := panels(); len(got) != 2 || !strings.HasPrefix(got[0], "Run the installer") {
		t.Errorf("after a click on Windows the tabs show %q", got)
	}
	b.do("open the folded box", chromedp.Click(chromedp.CSS(`details.callout > summary`)))
	for _, scheme := range []string{"light", "dark"} {
		b.do(scheme, colorScheme(scheme))
		audit(b, "/wiki/authors/ second tab, folded box open, "+scheme, axe)
	}
	b.do("light", colorScheme("light"))
	shot(".callout-warning", "admonition.png")
	shot("pre.mermaid", "diagram.png")
	b.do("dark", colorScheme("dark"), chromedp.Reload(), shown(`pre.mermaid svg`))
	b.do("photograph the page, dark", fullShot(t, artifacts, "22-authors-dark.png"))
	if dir := os.Getenv("WIKI_SHOTS"); dir != "" {
		b.do("photograph the page, dark", fullShot(t, dir, "wiki-authors-dark.png"))
	}
}
