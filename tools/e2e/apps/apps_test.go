package apps

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"net/http/httptest"
	"net/url"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/cdproto/cdp"
	"github.com/chromedp/cdproto/page"
	"github.com/chromedp/cdproto/runtime"
	"github.com/chromedp/chromedp"
	"github.com/mark3labs/mcp-go/client"
	"github.com/mark3labs/mcp-go/client/transport"
	"github.com/mark3labs/mcp-go/mcp"

	"github.com/docs-mcp/docs-mcp/mcp-server/mcptest"
	"github.com/docs-mcp/docs-mcp/tools/internal/repo"
	"github.com/docs-mcp/docs-mcp/tools/internal/testenv"
)

// publicURL is where the server is told it is (--public-url), for the
// reader's "Open in the wiki".
const publicURL = "https://docs.example"

// TestReaderApp shows the docs reader in Chromium the way a host does: the
// host page (testdata/host, ext-apps' AppBridge) finds the app in a tool's
// _meta, reads it from the real server and calls the tool through a real
// MCP client over Streamable HTTP. For a section, a hook and a search it
// checks what the reader shows, follows a link by a tool call, runs axe in
// light and dark, and saves screenshots (artifacts/apps/ at the repository
// root).
func TestReaderApp(t *testing.T) {
	if testing.Short() {
		t.Skip("skipping the browser test in -short mode")
	}
	root, err := repo.Root(".")
	if err != nil {
		t.Fatal(err)
	}
	chrome := chromium(t)
	testenv.NodePackages(t, filepath.Join("testdata", "host"), "@modelcontextprotocol/ext-apps", "the test host's AppBridge comes from npm")
	axeDir := filepath.Join(root, "tools", "internal", "wiki", "testdata", "axe")
	testenv.NodePackages(t, axeDir, "axe-core", "axe-core audits the reader")
	axe, err := os.ReadFile(filepath.Join(axeDir, "node_modules", "axe-core", "axe.min.js"))
	if err != nil {
		t.Fatal(err)
	}
	bundle := bundleHost(t)

	bin, err := mcptest.BuildDocsMCP(root, t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	hostURL := host(t, bin, bundle, "--data-root", root, "--public-url", publicURL)

	artifacts := filepath.Join(root, "artifacts", "apps")
	if err := os.MkdirAll(artifacts, 0o755); err != nil {
		t.Fatal(err)
	}
	b := startChromium(t, chrome)

	t.Run("section", func(t *testing.T) {
		f := b.open(t, hostURL, "light", "mod_read_doc", map[string]any{"path": "modding/handle-hooks.md", "section": "the-event-handler"})
		f.waitText(t, "main h1", "Handle an event and a filter")
		f.waitText(t, "main h2", "The event handler")
		if got := f.eval(t, `document.querySelector("main pre code") !== null`); got != "true" {
			t.Error("the section's code block is not shown as code")
		}
		if got := f.eval(t, `document.getElementById("wiki").href`); got != publicURL+"/wiki/modding/handle-hooks/#the-event-handler" {
			t.Errorf("Open in the wiki goes to %s", got)
		}
		f.eval(t, `document.getElementById("wiki").click(), ""`)
		f.waitHost(t, `host.opened.join(" ")`, publicURL+"/wiki/modding/handle-hooks/#the-event-handler")
		f.audit(t, axe, "section")
		f.shot(t, artifacts, "section-light.png")
		f.setTheme(t, "dark")
		f.audit(t, axe, "section, dark")
		f.shot(t, artifacts, "section-dark.png")

		// A link of the doc to another doc opens it by a tool call.
		link := f.eval(t, `(a => a ? a.getAttribute("href") : "")(document.querySelector('main a[href^="docs://"]'))`)
		if link == "" {
			t.Fatal("the section links to no other doc")
		}
		path, anchor, _ := strings.Cut(strings.TrimPrefix(link, "docs://"), "#")
		f.eval(t, `document.querySelector('main a[href^="docs://"]').click(), ""`)
		want := fmt.Sprintf(`{"name":"mod_read_doc","arguments":{"path":%q`, path)
		f.waitHost(t, `JSON.stringify(host.calls[host.calls.length-1] || {})`, want)
		f.waitText(t, "#where", path)
		t.Logf("followed %s: the host called %s", link, f.host(t, `JSON.stringify(host.calls)`))
		if anchor != "" && !strings.Contains(f.host(t, `JSON.stringify(host.calls)`), fmt.Sprintf(`"section":%q`, anchor)) {
			t.Errorf("the call does not name the section %s", anchor)
		}
		f.eval(t, `document.getElementById("back").click(), ""`)
		f.waitText(t, "main h2", "The event handler")
	})

	t.Run("hook", func(t *testing.T) {
		f := b.open(t, hostURL, "dark", "mod_get_hook", map[string]any{"name": "player.joined"})
		f.waitText(t, "main h1", "player.joined")
		f.waitText(t, "main table", "first_join")
		f.audit(t, axe, "hook, dark")
		f.shot(t, artifacts, "hook-dark.png")
		f.setTheme(t, "light")
		f.audit(t, axe, "hook")
		f.shot(t, artifacts, "hook-light.png")
		f.eval(t, `[...document.querySelectorAll("main a")].find(a => a.textContent.startsWith("Search the docs")).click(), ""`)
		f.waitText(t, "main h1", "player.joined")
		f.waitHost(t, `JSON.stringify(host.calls[host.calls.length-1] || {})`, `{"name":"mod_search_docs","arguments":{"query":"player.joined"}}`)
	})

	t.Run("search", func(t *testing.T) {
		f := b.open(t, hostURL, "light", "mod_search_docs", map[string]any{"query": "subscribe"})
		f.waitText(t, "main h1", "subscribe")
		if n := f.eval(t, `String(document.querySelectorAll("main .hits a").length)`); n == "0" {
			t.Fatal("the search shows no hits")
		}
		f.audit(t, axe, "search")
		f.shot(t, artifacts, "search-light.png")
		f.setTheme(t, "dark")
		f.audit(t, axe, "search, dark")
		f.shot(t, artifacts, "search-dark.png")
		// A new search from the reader's own box is a tool call too.
		f.eval(t, `(i => { i.value = "cancellable"; i.dispatchEvent(new KeyboardEvent("keydown", {key: "Enter", bubbles: true})); })(document.querySelector("main [role=search] input")), ""`)
		f.waitText(t, "main h1", "cancellable")
		f.waitHost(t, `JSON.stringify(host.calls[host.calls.length-1] || {})`, `{"name":"mod_search_docs","arguments":{"query":"cancellable"}}`)
		// A hit opens its section.
		f.eval(t, `document.querySelector("main .hits a").click(), ""`)
		f.waitHost(t, `JSON.stringify(host.calls[host.calls.length-1] || {})`, `"name":"mod_read_doc"`)
		f.waitText(t, "#back:not([hidden])", "Back")
	})

	t.Run("changes", func(t *testing.T) {
		// A release, v1, of this repository's docs, and a working tree
		// that adds a doc and changes a section after it.
		tree := t.TempDir()
		for _, f := range []string{"docs", "CONTRIBUTING.md", filepath.Join("framework", "mod_hooks.json")} {
			copyTree(t, filepath.Join(root, f), filepath.Join(tree, f))
		}
		r := mcptest.Released(t, tree)
		handle := mcptest.ReadFile(t, filepath.Join(r.Dir, "docs", "modding", "handle-hooks.md"))
		r.Write(map[string]string{
			"docs/modding/after-v1.md":     "# After v1\n\nA page written after the release.\n",
			"docs/modding/handle-hooks.md": strings.Replace(handle, "## The filter\n", "## The filter\n\nChanged after v1.\n", 1),
		})
		u := host(t, bin, bundle, "--data-root", r.Dir, "--versions", "v1")
		f := b.open(t, u, "light", "mod_docs_changes", map[string]any{"from": "v1"})
		f.waitText(t, "main h1", "What changed from v1 to working tree")
		f.waitText(t, "main", "modding/after-v1.md")
		f.audit(t, axe, "changes")
		f.shot(t, artifacts, "changes-light.png")
		f.setTheme(t, "dark")
		f.audit(t, axe, "changes, dark")
		f.shot(t, artifacts, "changes-dark.png")
		f.eval(t, `document.querySelector('main a[href="docs://modding/handle-hooks.md#the-filter"]').click(), ""`)
		f.waitText(t, "main h2", "The filter")
		f.waitText(t, "main", "Changed after v1.")
	})

	t.Run("ask", func(t *testing.T) {
		f := b.open(t, hostURL, "light", "mod_ask_docs", map[string]any{"question": "how do I test a mod"})
		f.waitText(t, "main h1", "how do I test a mod")
		f.audit(t, axe, "ask")
		f.setTheme(t, "dark")
		f.audit(t, axe, "ask, dark")
	})
}

// chromium finds Debian's chromium (or another Chrome) on PATH, or ends
// the test through testenv.Missing.
func chromium(t *testing.T) string {
	for _, name := range []string{"chromium", "chromium-browser", "google-chrome", "google-chrome-stable"} {
		if p, err := exec.LookPath(name); err == nil {
			return p
		}
	}
	testenv.Missing(t, "no Chromium on PATH (Debian: apt-get install -y chromium)")
	return ""
}

// host serves the docs-mcp binary bin over HTTP with args, and a host page
// for it (serveHost), whose URL it returns.
func host(t *testing.T, bin string, bundle []byte, args ...string) string {
	t.Helper()
	_, addr := mcptest.ServeHTTP(t, bin, args...)
	return serveHost(t, mcpClient(t, "http://"+addr+"/mcp"), bundle)
}

// copyTree copies the file or folder from to to.
func copyTree(t *testing.T, from, to string) {
	t.Helper()
	info, err := os.Stat(from)
	if err != nil {
		t.Fatal(err)
	}
	if info.IsDir() {
		err = os.CopyFS(to, os.DirFS(from))
	} else if err = os.MkdirAll(filepath.Dir(to), 0o755); err == nil {
		var b []byte
		if b, err = os.ReadFile(from); err == nil {
			err = os.WriteFile(to, b, 0o644)
		}
	}
	if err != nil {
		t.Fatal(err)
	}
}

// bundleHost bundles testdata/host/host.js and AppBridge with esbuild
// (from the folder's npm packages) and returns the script.
func bundleHost(t *testing.T) []byte {
	t.Helper()
	out := filepath.Join(t.TempDir(), "host.js")
	dir := filepath.Join("testdata", "host")
	cmd := exec.Command(filepath.Join("node_modules", ".bin", "esbuild"), "host.js", "--bundle", "--format=esm", "--log-level=warning", "--outfile="+out)
	cmd.Dir = dir
	if b, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("esbuild in %s: %v\n%s", dir, err, b)
	}
	js, err := os.ReadFile(out)
	if err != nil {
		t.Fatal(err)
	}
	return js
}

// mcpClient is mcp-go's client of the server at url, initialized on
// 2025-11-25, the revision today's Apps hosts speak.
func mcpClient(t *testing.T, url string) *client.Client {
	t.Helper()
	c, err := client.NewStreamableHttpClient(url, transport.WithHTTPTimeout(mcptest.Deadline))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { c.Close() })
	ctx, cancel := context.WithTimeout(context.Background(), mcptest.Deadline)
	defer cancel()
	if err := c.Start(ctx); err != nil {
		t.Fatal(err)
	}
	mcptest.Initialize(t, c, "2025-11-25", "apps test host")
	return c
}

// serveHost serves the host page, its script, and /rpc: the host's
// requests to the server ({method, params}), sent on by c and answered
// with {result} or {error}.
func serveHost(t *testing.T, c *client.Client, bundle []byte) string {
	t.Helper()
	html, err := os.ReadFile(filepath.Join("testdata", "host", "host.html"))
	if err != nil {
		t.Fatal(err)
	}
	mux := http.NewServeMux()
	mux.HandleFunc("GET /{$}", func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/html; charset=utf-8")
		w.Write(html)
	})
	mux.HandleFunc("GET /host.js", func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/javascript")
		w.Write(bundle)
	})
	mux.HandleFunc("POST /rpc", func(w http.ResponseWriter, r *http.Request) {
		var req struct {
			Method string         `json:"method"`
			Params map[string]any `json:"params"`
		}
		if err := json.NewDecoder(r.Body).Decode(&req); err != nil {
			http.Error(w, err.Error(), http.StatusBadRequest)
			return
		}
		result, err := forward(r.Context(), c, req.Method, req.Params)
		w.Header().Set("Content-Type", "application/json")
		if err != nil {
			json.NewEncoder(w).Encode(map[string]any{"error": map[string]any{"message": err.Error()}})
			return
		}
		json.NewEncoder(w).Encode(map[string]any{"result": result})
	})
	srv := httptest.NewServer(mux)
	t.Cleanup(srv.Close)
	return srv.URL
}

// forward sends one of the methods a host proxies for an app to the server.
func forward(ctx context.Context, c *client.Client, method string, params map[string]any) (any, error) {
	raw, err := json.Marshal(params)
	if err != nil {
		return nil, err
	}
	switch method {
	case "tools/list":
		return c.ListTools(ctx, mcp.ListToolsRequest{})
	case "tools/call":
		var req mcp.CallToolRequest
		if err := json.Unmarshal(raw, &req.Params); err != nil {
			return nil, fmt.Errorf("tools/call params: %w", err)
		}
		return c.CallTool(ctx, req)
	case "resources/read":
		var req mcp.ReadResourceRequest
		if err := json.Unmarshal(raw, &req.Params); err != nil {
			return nil, fmt.Errorf("resources/read params: %w", err)
		}
		return c.ReadResource(ctx, req)
	}
	return nil, fmt.Errorf("the test host does not forward %s", method)
}

type browser struct{ ctx context.Context }

// startChromium starts headless Chromium. Sandboxed frames stay in the
// page's process (IsolateSandboxedIframes off), where the test reaches the
// reader's document through an isolated world of its frame.
func startChromium(t *testing.T, exe string) browser {
	t.Helper()
	allocCtx, cancelAlloc := chromedp.NewExecAllocator(context.Background(), testenv.Chromium(t, exe,
		chromedp.Flag("disable-features", "IsolateSandboxedIframes"),
		chromedp.WindowSize(1000, 900),
	)...)
	t.Cleanup(cancelAlloc)
	ctx, cancel := chromedp.NewContext(allocCtx, chromedp.WithLogf(t.Logf))
	t.Cleanup(cancel)
	ctx, cancelTimeout := context.WithTimeout(ctx, 3*time.Minute)
	t.Cleanup(cancelTimeout)
	return browser{ctx: ctx}
}

// frame is the reader open in the host page: its frame's isolated world.
type frame struct {
	ctx   context.Context
	world runtime.ExecutionContextID
}

// open loads the host page for one tool call and waits until the host
// handed the reader the answer.
func (b browser) open(t *testing.T, hostURL, theme, tool string, args map[string]any) frame {
	t.Helper()
	a, err := json.Marshal(args)
	if err != nil {
		t.Fatal(err)
	}
	u := hostURL + "/?" + url.Values{"tool": {tool}, "args": {string(a)}, "theme": {theme}}.Encode()
	if _, err := chromedp.Run(b.ctx, chromedp.Navigate(u)); err != nil {
		t.Fatalf("open %s: %v", u, err)
	}
	f := frame{ctx: b.ctx}
	for end := time.Now().Add(time.Minute); ; time.Sleep(50 * time.Millisecond) {
		state := f.host(t, `host.error || String(host.ready)`)
		if state == "true" {
			break
		}
		if state != "false" || time.Now().After(end) {
			t.Fatalf("the host did not show the reader: %s", state)
		}
	}
	tree, err := chromedp.Run(b.ctx, chromedp.Action[page.GetFrameTreeResult](func(ctx context.Context, tg *chromedp.Target) (page.GetFrameTreeResult, error) {
		return cdp.Call(ctx, tg, page.GetFrameTree, cdp.Empty{})
	}))
	if err != nil || len(tree.FrameTree.ChildFrames) != 1 {
		t.Fatalf("the host page's frames: %v, %v", tree, err)
	}
	world, err := chromedp.Run(b.ctx, chromedp.Action[page.CreateIsolatedWorldResult](func(ctx context.Context, tg *chromedp.Target) (page.CreateIsolatedWorldResult, error) {
		return cdp.Call(ctx, tg, page.CreateIsolatedWorld, page.CreateIsolatedWorldParams{FrameID: tree.FrameTree.ChildFrames[0].Frame.ID, WorldName: "test"})
	}))
	if err != nil {
		t.Fatalf("reach the reader's frame: %v", err)
	}
	f.world = world.ExecutionContextID
	return f
}

// eval evaluates expr in the reader's document and returns its value as
// a string.
func (f frame) eval(t *testing.T, expr string) string {
	t.Helper()
	v, err := chromedp.Run(f.ctx, chromedp.Evaluate[any](expr, func(p *runtime.EvaluateParams) { p.ContextID = f.world }, chromedp.EvalAwaitPromise))
	if err != nil {
		t.Fatalf("in the reader: %s: %v", expr, err)
	}
	return fmt.Sprint(v)
}

// host evaluates expr in the host page.
func (f frame) host(t *testing.T, expr string) string {
	t.Helper()
	v, err := chromedp.Run(f.ctx, chromedp.Evaluate[string](expr))
	if err != nil {
		t.Fatalf("in the host: %s: %v", expr, err)
	}
	return v
}

// waitHost waits until expr, in the host page, gives a string holding want.
func (f frame) waitHost(t *testing.T, expr, want string) {
	t.Helper()
	var got string
	for end := time.Now().Add(time.Minute); time.Now().Before(end); time.Sleep(50 * time.Millisecond) {
		if got = f.host(t, expr); strings.Contains(got, want) {
			return
		}
	}
	t.Fatalf("the host's %s is %q, want it to hold %q", expr, got, want)
}

// waitText waits until the reader's first element sel holds want.
func (f frame) waitText(t *testing.T, sel, want string) {
	t.Helper()
	expr := fmt.Sprintf(`(e => e ? e.textContent : "")(document.querySelector(%q))`, sel)
	var got string
	for end := time.Now().Add(time.Minute); time.Now().Before(end); time.Sleep(50 * time.Millisecond) {
		if got = f.eval(t, expr); strings.Contains(got, want) {
			return
		}
	}
	t.Fatalf("the reader's %s says %q, want it to hold %q (status: %s)", sel, got, want, f.eval(t, `(document.getElementById("status") || {}).textContent || ""`))
}

// setTheme has the host tell the reader its theme, and waits until the
// reader follows it.
func (f frame) setTheme(t *testing.T, theme string) {
	t.Helper()
	f.host(t, fmt.Sprintf(`host.setTheme(%q), ""`, theme))
	expr := `document.documentElement.getAttribute("data-theme") + " " + getComputedStyle(document.body).colorScheme`
	for end := time.Now().Add(time.Minute); time.Now().Before(end); time.Sleep(50 * time.Millisecond) {
		if got := f.eval(t, expr); got == theme+" "+theme {
			return
		}
	}
	t.Fatalf("the reader did not follow the host's theme %s: %s", theme, f.eval(t, expr))
}

// axeTags are the rules of the wiki's own audit: WCAG 2.0 to 2.2 at
// levels A and AA, and axe's best practices.
var axeTags = []string{"wcag2a", "wcag2aa", "wcag21a", "wcag21aa", "wcag22aa", "best-practice"}

// audit runs axe over the reader's document and fails the test on every
// violation.
func (f frame) audit(t *testing.T, axe []byte, name string) {
	t.Helper()
	tags, _ := json.Marshal(axeTags)
	f.eval(t, string(axe)+`; ""`)
	res := f.eval(t, fmt.Sprintf(`axe.run(document, {runOnly: {type: "tag", values: %s}, resultTypes: ["violations"]})
		.then(r => JSON.stringify(r.violations.map(v => ({id: v.id, impact: v.impact, help: v.help, nodes: v.nodes.map(n => n.target.join(" ")).slice(0, 5)}))))`, tags))
	var violations []map[string]any
	if err := json.Unmarshal([]byte(res), &violations); err != nil {
		t.Fatalf("%s: axe said %s: %v", name, res, err)
	}
	for _, v := range violations {
		t.Errorf("%s: axe: %v (%v): %v at %v", name, v["id"], v["impact"], v["help"], v["nodes"])
	}
	t.Logf("%s: axe found %d violations", name, len(violations))
}

// shot saves the host page, the reader in it, as a PNG in dir.
func (f frame) shot(t *testing.T, dir, name string) {
	t.Helper()
	buf, err := chromedp.Run(f.ctx, chromedp.FullScreenshot(100))
	if err != nil {
		t.Fatalf("screenshot: %v", err)
	}
	if err := os.WriteFile(filepath.Join(dir, name), buf, 0o644); err != nil {
		t.Fatal(err)
	}
	t.Logf("screenshot %s", filepath.Join(dir, name))
}
