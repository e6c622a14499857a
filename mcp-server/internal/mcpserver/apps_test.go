package mcpserver

import (
	"context"
	"crypto/sha256"
	"encoding/base64"
	"fmt"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/mark3labs/mcp-go/mcp"

	"github.com/docs-mcp/docs-mcp/mcp-server/wikistyle"
)

// appCalls are calls of the tools the docs reader app shows (apps.go), on
// the fixture repository, each named for its golden file.
var appCalls = []struct{ name, tool, args string }{
	{"read_doc", "mod_read_doc", `{"path":"guide/intro.md","section":"filters"}`},
	{"read_doc_title", "mod_read_doc", `{"path":"guide/intro.md"}`},
	{"get_hook", "mod_get_hook", `{"name":"player.joined"}`},
	{"search_docs", "mod_search_docs", `{"query":"handler"}`},
	{"ask_docs", "mod_ask_docs", `{"question":"how do I register a handler"}`},
	{"read_doc_error", "mod_read_doc", `{"path":"guide/nope.md"}`},
}

// TestAppLeavesAnswersAlone: the answers of the tools the app is attached
// to are the bytes a transport sent before the app existed (the golden
// files in testdata/apps were written by the server of the commit before
// it), to a host without Apps and to one that declares the extension
// alike: the app reads what every client gets, and adds nothing to it.
func TestAppLeavesAnswersAlone(t *testing.T) {
	answer := rawAnswer(t, newServer(t, fixtureRoot))
	const withApps = `"_meta":{"io.modelcontextprotocol/protocolVersion":"2026-07-28","io.modelcontextprotocol/clientInfo":{"name":"t","version":"1"},"io.modelcontextprotocol/clientCapabilities":{"extensions":{"io.modelcontextprotocol/ui":{"mimeTypes":["text/html;profile=mcp-app"]}}}}`
	for _, c := range appCalls {
		t.Run(c.name, func(t *testing.T) {
			req := `{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":%q,"arguments":%s,%s}}`
			plain := answer(fmt.Sprintf(req, c.tool, c.args, meta0728))
			golden(t, filepath.Join("apps", c.name+".json"), []byte(plain+"\n"))
			if ui := answer(fmt.Sprintf(req, c.tool, c.args, withApps)); ui != plain {
				t.Errorf("a host with Apps got another answer:\n%s\nwant, as a host without:\n%s", ui, plain)
			}
		})
	}
}

// readApp reads the reader's resource through c and returns its one item.
func readApp(t *testing.T, c interface {
	ReadResource(context.Context, mcp.ReadResourceRequest) (*mcp.ReadResourceResult, error)
}) mcp.TextResourceContents {
	t.Helper()
	var req mcp.ReadResourceRequest
	req.Params.URI = AppURI
	res, err := c.ReadResource(t.Context(), req)
	if err != nil {
		t.Fatalf("read %s: %v", AppURI, err)
	}
	if len(res.Contents) != 1 {
		t.Fatalf("read %s: %d items, want 1", AppURI, len(res.Contents))
	}
	item, ok := res.Contents[0].(mcp.TextResourceContents)
	if !ok {
		t.Fatalf("read %s: %T, want text", AppURI, res.Contents[0])
	}
	return item
}

// TestAppResource: the reader is one page of type text/html;profile=mcp-app
// within its size budget, with the wiki's stylesheet itself (not a copy),
// a content-security policy that allows its own inline script and style
// and nothing else (no network: _meta.ui.csp names no domain), and the
// wiki's URL when the server knows it, for "Open in the wiki".
func TestAppResource(t *testing.T) {
	item := readApp(t, newClient(t, fixtureRoot, func(c *Config) { c.WikiURL = "https://docs.example/wiki/?a=1&b=\"<x>" }))
	page := item.Text
	if item.MIMEType != AppMIMEType || item.URI != AppURI {
		t.Errorf("read gave %s of type %q, want %s of type %q", item.URI, item.MIMEType, AppURI, AppMIMEType)
	}
	if len(page) > appMaxBytes {
		t.Errorf("the reader is %d bytes, over its budget of %d", len(page), appMaxBytes)
	}
	t.Logf("the reader: %d bytes (budget %d), of which wiki.css %d", len(page), appMaxBytes, len(wikistyle.CSS))
	if d := cmp.Diff(map[string]any{"ui": map[string]any{"csp": map[string]any{}, "prefersBorder": true}}, item.Meta); d != "" {
		t.Errorf("_meta (-want +got):\n%s", d)
	}

	script := regexp.MustCompile(`(?s)<script>(.*?)</script>`).FindAllStringSubmatch(page, -1)
	style := regexp.MustCompile(`(?s)<style>(.*?)</style>`).FindAllStringSubmatch(page, -1)
	if len(script) != 1 || len(style) != 1 {
		t.Fatalf("%d inline scripts and %d styles, want one each", len(script), len(style))
	}
	if !strings.Contains(style[0][1], wikistyle.CSS) {
		t.Error("the reader's style does not hold wiki.css")
	}
	if n := strings.Count(page, "<script") + strings.Count(page, "<link") + strings.Count(page, "<iframe") + strings.Count(page, "<img"); n != 1 {
		t.Errorf("the page has %d script, link, iframe or img elements, want its one inline script", n)
	}
	csp := regexp.MustCompile(`<meta http-equiv="Content-Security-Policy" content="([^"]*)">`).FindStringSubmatch(page)
	if csp == nil {
		t.Fatal("no Content-Security-Policy meta element")
	}
	hash := func(s string) string {
		sum := sha256.Sum256([]byte(s))
		return "'sha256-" + base64.StdEncoding.EncodeToString(sum[:]) + "'"
	}
	want := "default-src 'none'; script-src " + hash(script[0][1]) + "; style-src " + hash(style[0][1]) + "; img-src data:; base-uri 'none'; form-action 'none'"
	if csp[1] != want {
		t.Errorf("CSP %q\nwant %q", csp[1], want)
	}
	if !strings.Contains(page, `<meta name="docs-mcp-wiki" content="https://docs.example/wiki/?a=1&amp;b=&#34;&lt;x&gt;">`) {
		t.Error("the wiki's URL is not in the page, escaped")
	}

	// Without a wiki URL: the same page, the URL empty; nothing else of the
	// server's configuration is in it.
	other := readApp(t, newClient(t, fixtureRoot)).Text
	if strings.Replace(page, `content="https://docs.example/wiki/?a=1&amp;b=&#34;&lt;x&gt;"`, `content=""`, 1) != other {
		t.Error("the page differs between two servers by more than the wiki's URL")
	}
}

// TestAppAttached: tools/list names the reader in the _meta of the tools
// whose answers it shows, and only theirs; server/discover (2026-07-28)
// declares the extension, initialize (no extensions) does not.
func TestAppAttached(t *testing.T) {
	srv := newServer(t, fixtureRoot)
	c := connect(t, srv)
	tools, err := c.ListTools(t.Context(), mcp.ListToolsRequest{})
	if err != nil {
		t.Fatal(err)
	}
	var attached []string
	for _, tool := range tools.Tools {
		if tool.Meta == nil {
			continue
		}
		ui, _ := tool.Meta.AdditionalFields["ui"].(map[string]any)
		if ui["resourceUri"] != AppURI || tool.Meta.AdditionalFields["ui/resourceUri"] != AppURI {
			t.Errorf("%s: _meta %v, want ui.resourceUri %s", tool.Name, tool.Meta.AdditionalFields, AppURI)
		}
		attached = append(attached, tool.Name)
	}
	slices.Sort(attached)
	if d := cmp.Diff([]string{"mod_ask_docs", "mod_docs_changes", "mod_get_hook", "mod_read_doc", "mod_search_docs"}, attached); d != "" {
		t.Errorf("tools with the app (-want +got):\n%s", d)
	}

	answer := rawAnswer(t, srv)
	var discover struct {
		Result struct{ Capabilities mcp.ServerCapabilities }
	}
	decode(t, answer(`{"jsonrpc":"2.0","id":1,"method":"server/discover","params":{`+meta0728+`}}`), &discover)
	if d := cmp.Diff(map[string]any{"mimeTypes": []any{AppMIMEType}}, discover.Result.Capabilities.Extensions[AppsExtension]); d != "" {
		t.Errorf("server/discover's extensions[%s] (-want +got):\n%s", AppsExtension, d)
	}
	var initialize struct{ Result mcp.InitializeResult }
	decode(t, answer(`{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-11-25","capabilities":{},"clientInfo":{"name":"t","version":"1"}}}`), &initialize)
	if _, ok := initialize.Result.Capabilities.Extensions[AppsExtension]; ok {
		t.Errorf("initialize (2025-11-25) declares %s", AppsExtension)
	}
}
