package wiki

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"
)

// axeTags are the rules the audit runs: WCAG 2.0, 2.1 and 2.2 at levels A
// and AA, and axe's best practices.
var axeTags = []string{"wcag2a", "wcag2aa", "wcag21a", "wcag21aa", "wcag22aa", "best-practice"}

// TestAccessibility runs axe-core (from npm: testdata/axe, installed with
// npm ci) in headless Chromium over the home page, a long reference page,
// the hook reference, the search dropdown open with results and the search
// page with results, each in light and dark and at a desktop and a phone
// width, and fails on any violation, naming the rule and the elements.
func TestAccessibility(t *testing.T) {
	t.Parallel() // see startBrowser
	axe := loadAxe(t)
	opt := repoOptions(t)
	pages := []string{"", "server/configuration/", "hook-reference/"}
	if _, err := os.Stat(filepath.Join(opt.Root, "docs", "server", "configuration.md")); err != nil {
		opt.Root = fixture(t) // another tree: its own long page
	}
	needChromium(t) // before the build it would waste
	out, _ := siteFor(t, opt)

	// The search states: results with the words searched marked, in the
	// dropdown under the top bar's box and on the search page.
	const query = "config"
	searchStates := []struct {
		name string
		load func(server string) []chromedp.Action[chromedp.Void]
	}{
		{"/wiki/ search dropdown", func(server string) []chromedp.Action[chromedp.Void] {
			return []chromedp.Action[chromedp.Void]{
				chromedp.Navigate(server + "/wiki/"),
				shown(`article`),
				chromedp.Click(chromedp.CSS(`.search-form input`)),
				chromedp.KeyEvent(query),
			}
		}},
		{"/wiki/search/ with results", func(server string) []chromedp.Action[chromedp.Void] {
			return []chromedp.Action[chromedp.Void]{
				chromedp.Navigate(server + "/wiki/search/?q=" + query),
				shown(`#search-results a.search-hit mark`),
			}
		}},
	}
	// Each width and scheme in a browser of its own, side by side: axe
	// takes seconds a page in Chromium's renderer, and one after the other
	// the 20 runs were the longest test of CI's longest package.
	for _, width := range []int64{1366, 390} {
		var view chromedp.Action[chromedp.Void] = chromedp.EmulateViewport(width, 768)
		if width < 500 {
			view = chromedp.EmulateViewport(width, 844, chromedp.EmulateScale(2), chromedp.EmulateMobile)
		}
		for _, scheme := range []string{"light", "dark"} {
			t.Run(fmt.Sprintf("%s %dpx", scheme, width), func(t *testing.T) {
				t.Parallel()
				b, server, _ := startBrowserOn(t, opt, out, 5*time.Minute)
				for _, p := range pages {
					name := fmt.Sprintf("/wiki/%s %s %dpx", p, scheme, width)
					b.do(name,
						view, colorScheme(scheme),
						chromedp.Navigate(server+"/wiki/"+p),
						shown(`article`),
					)
					audit(b, name, axe)
				}
				for _, st := range searchStates {
					name := fmt.Sprintf("%s %s %dpx", st.name, scheme, width)
					b.do(name, append([]chromedp.Action[chromedp.Void]{view, colorScheme(scheme)}, st.load(server)...)...)
					if st.name == searchStates[0].name {
						waitResults(b, query)
					}
					audit(b, name, axe)
				}
				t.Logf("%d axe runs (each fails the test on a violation, or when it applied no rule) over %d pages and %d search states (tags %s)", len(pages)+len(searchStates), len(pages), len(searchStates), strings.Join(axeTags, ", "))
			})
		}
	}
}

// loadAxe reads axe-core (from npm: testdata/axe, installed with npm ci),
// skipping the test (failing it in CI) when it is not installed.
func loadAxe(t *testing.T) string {
	t.Helper()
	axe, err := os.ReadFile(filepath.Join("testdata", "axe", "node_modules", "axe-core", "axe.min.js"))
	if err != nil {
		missing(t, "axe-core is not installed (npm ci --prefix tools/internal/wiki/testdata/axe): %v", err)
	}
	return string(axe)
}

// audit runs axe (loadAxe's) over the page open in b, with the rules of
// axeTags, and fails the test on every violation, naming the page, the
// rule and the elements.
func audit(b browser, name, axe string) {
	b.t.Helper()
	type violation struct {
		ID      string     `json:"id"`
		Impact  string     `json:"impact"`
		Help    string     `json:"help"`
		Targets [][]string `json:"targets"`
	}
	tags, err := json.Marshal(axeTags)
	if err != nil {
		b.t.Fatal(err)
	}
	type result struct {
		Rules      int         `json:"rules"` // the rules axe applied or found nothing to apply to
		Violations []violation `json:"violations"`
	}
	run := fmt.Sprintf(`axe.run(document, {runOnly: {type: "tag", values: %s}, resultTypes: ["violations"]})
		.then(r => ({rules: r.passes.length + r.violations.length + r.incomplete.length + r.inapplicable.length,
			violations: r.violations.map(v => ({id: v.id, impact: v.impact, help: v.help, targets: v.nodes.map(n => n.target)}))}))`, tags)
	b.do(name+": load axe", chromedp.Evaluate[chromedp.Void](axe))
	r := get(b, name+": axe", chromedp.Evaluate[result](run, chromedp.EvalAwaitPromise))
	if r.Rules == 0 {
		b.t.Errorf("%s: axe ran no rule of the tags %v", name, axeTags)
	}
	for _, v := range r.Violations {
		b.t.Errorf("%s: %s (%s, %s): %v", name, v.ID, v.Impact, v.Help, v.Targets)
	}
}
