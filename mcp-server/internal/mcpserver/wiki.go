package mcpserver

import (
	"context"
	"strings"

	"github.com/docs-mcp/docs-mcp/mcp-server/wikipage"
)

// The wiki's address, for links to the page and section of a doc: set
// once (Config.WikiURL, from --public-url), or per request by the HTTP
// transport when it serves the wiki itself (WithWikiURL), from the address
// the client reached.

type wikiURLKey struct{}

// WithWikiURL returns a context in which the wiki is at base (an absolute
// URL ending in /wiki/), unless Config.WikiURL says otherwise.
func WithWikiURL(ctx context.Context, base string) context.Context {
	return context.WithValue(ctx, wikiURLKey{}, base)
}

// wikiURL is where the wiki is for a request, or "" when unknown.
func (s *Server) wikiURL(ctx context.Context) string {
	if s.opts.WikiURL != "" {
		return s.opts.WikiURL
	}
	base, _ := ctx.Value(wikiURLKey{}).(string)
	return base
}

// wikiPage is a doc's page in the wiki, relative to its base URL: the path
// the wiki's build gives it (wikipage.Of), each segment escaped.
func wikiPage(docPath string) string {
	p := strings.TrimPrefix(wikipage.Of(docPath), "/")
	if p == "" {
		return ""
	}
	return strings.TrimPrefix(docURI(p), docScheme) + "/"
}
