package mcpserver

import (
	"context"
	"crypto/sha256"
	_ "embed"
	"encoding/base64"
	"fmt"
	"html"
	"strings"

	"github.com/mark3labs/mcp-go/mcp"
	"github.com/mark3labs/mcp-go/server"

	"github.com/docs-mcp/docs-mcp/mcp-server/wikistyle"
)

// The docs reader, an MCP App (SEP-1865, io.modelcontextprotocol/ui): one
// HTML page, a ui:// resource, that a host supporting the extension shows
// in a sandboxed frame beside the answers of the tools it is attached to
// (shownByApp), drawn from their structuredContent with the wiki's own
// stylesheet. It opens the links of what it shows by calling the server's
// tools through the host. Hosts without Apps ignore the tools' _meta and
// get the same answers as before: the app adds nothing to a result.
const (
	// AppsExtension is the extension's identifier.
	AppsExtension = "io.modelcontextprotocol/ui"
	// AppURI is the docs reader's resource.
	AppURI = "ui://docs-mcp/reader.html"
	// AppMIMEType is the type of an MCP App's HTML.
	AppMIMEType = "text/html;profile=mcp-app"
	// appMaxBytes is the reader's size budget: the page a host loads,
	// stylesheet and script included (TestAppBudget).
	appMaxBytes = 64 << 10
)

// shownByApp says whether the reader shows the answers of the tool name.
func shownByApp(name string) bool {
	switch name {
	case "mod_read_doc", "mod_get_hook", "mod_search_docs", "mod_ask_docs", "mod_docs_changes":
		return true
	}
	return false
}

var (
	//go:embed app/reader.html
	readerHTML string
	//go:embed app/reader.js
	readerJS string
	//go:embed app/reader.css
	readerCSS string
)

// readerPage is the reader's HTML with its style and script inline and a
// content-security policy that lets only those run: no network, no other
// script or style, no forms, no frames. {{wiki}} is left for the wiki's
// URL, known per request.
func readerPage() string {
	style := wikistyle.CSS + "\n" + readerCSS
	csp := fmt.Sprintf("default-src 'none'; script-src '%s'; style-src '%s'; img-src data:; base-uri 'none'; form-action 'none'",
		cspHash(readerJS), cspHash(style))
	return strings.NewReplacer("{{csp}}", csp, "{{style}}", style, "{{script}}", readerJS).Replace(readerHTML)
}

// cspHash is a CSP source that allows the inline element whose text is s.
func cspHash(s string) string {
	sum := sha256.Sum256([]byte(s))
	return "sha256-" + base64.StdEncoding.EncodeToString(sum[:])
}

// appResourceMeta is the resource's _meta.ui: no domain at all (the page
// loads nothing; its links leave through the host's ui/open-link), and a
// border, as the page has a background of its own.
func appResourceMeta() map[string]any {
	return map[string]any{"ui": map[string]any{"csp": map[string]any{}, "prefersBorder": true}}
}

// addApp registers the reader's resource.
func (s *Server) addApp(m *server.MCPServer) {
	page := readerPage()
	res := mcp.NewResource(AppURI, AppURI,
		mcp.WithResourceTitle("Docs reader"),
		mcp.WithResourceDescription("An MCP App: shows a doc section, a hook, a search or a release's changes as the wiki does, beside the tool's answer."),
		mcp.WithMIMEType(AppMIMEType))
	res.Meta = mcp.NewMetaFromMap(appResourceMeta())
	m.AddResource(res, func(ctx context.Context, req mcp.ReadResourceRequest) ([]mcp.ResourceContents, error) {
		text := strings.Replace(page, "{{wiki}}", html.EscapeString(s.wikiURL(ctx)), 1)
		return []mcp.ResourceContents{mcp.TextResourceContents{URI: AppURI, MIMEType: AppMIMEType, Text: text, Meta: appResourceMeta()}}, nil
	})
}

// withApp attaches the reader to the tools whose answers it shows:
// _meta.ui.resourceUri, and the key hosts of the extension's first drafts
// read (ui/resourceUri), as ext-apps' registerAppTool writes both.
func withApp(tools []server.ServerTool) []server.ServerTool {
	for i := range tools {
		if shownByApp(tools[i].Tool.Name) {
			tools[i].Tool.Meta = mcp.NewMetaFromMap(map[string]any{
				"ui":             map[string]any{"resourceUri": AppURI},
				"ui/resourceUri": AppURI,
			})
		}
	}
	return tools
}

// declareApps adds the extension to server/discover's capabilities, on
// 2026-07-28, the revision that negotiates extensions (as declareSkills).
// Hosts of the older revisions find the app by the tools' _meta.
func declareApps(_ context.Context, _ any, _ *mcp.DiscoverRequest, res *mcp.DiscoverResult) {
	ext := make(map[string]any, len(res.Capabilities.Extensions)+1)
	for k, v := range res.Capabilities.Extensions {
		ext[k] = v
	}
	ext[AppsExtension] = map[string]any{"mimeTypes": []string{AppMIMEType}}
	res.Capabilities.Extensions = ext
}
